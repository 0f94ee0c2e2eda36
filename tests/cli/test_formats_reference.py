"""The format reference (`bgverify formats`, ``verifier/formats.md``) states the library's own vocabulary and bounds."""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path

import pytest

from units import UnitRefusal
from units.exact import MAX_DIGITS, parse_exact, within_digits
from verifier.reasons import REASON_STAGES, REFUSAL_REASONS
from verifier.solve import MAX_VALUE_BITS

FORMATS = (Path(__file__).resolve().parents[2] / "verifier" / "formats.md").read_text(encoding="utf-8")


def test_the_refusal_table_is_the_closed_vocabulary_with_its_stages() -> None:
    """One row per reason, in REASON_STAGES' order, each saying its stage and when: nothing added, dropped or stale."""
    rows = re.findall(r"^\| `([a-z_]+)` \| (.+) \|$", FORMATS.split("## Refusals", 1)[1], flags=re.MULTILINE)
    assert rows == [(reason, stage.replace("|", "/")) for reason, stage in REASON_STAGES.items()]
    assert {reason for reason, _ in rows} == set(REFUSAL_REASONS)


def test_the_number_bounds_it_states_are_the_ones_applied() -> None:
    """40 digits (a fraction: 40 a side) read, 41 refused; computed values up to 100 bits a side."""
    text = " ".join(FORMATS.split())
    assert f'A number holds at most {MAX_DIGITS} digits (a fraction `"n/d"`: {MAX_DIGITS} on each side)' in text
    assert f"holds at most {MAX_VALUE_BITS} bits on each side" in text
    numerator, denominator = "9" * MAX_DIGITS, "7" * (MAX_DIGITS - 1) + "8"
    assert parse_exact(f"{numerator}/{denominator}") == Fraction(int(numerator), int(denominator))
    with pytest.raises(UnitRefusal) as info:
        parse_exact("9" * (MAX_DIGITS + 1))
    assert info.value.reason == "input_too_large"


@pytest.mark.parametrize(
    ("numerator", "denominator", "within"),
    [
        (10**MAX_DIGITS - 1, 1, True),
        (-(10**MAX_DIGITS - 1), 10**MAX_DIGITS - 1, True),
        (10**MAX_DIGITS, 1, False),
        (-(10**MAX_DIGITS), 1, False),
        (1, 10**MAX_DIGITS, False),
        (10**400, 1, False),
    ],
)
def test_within_digits_is_the_one_digit_bound(numerator: int, denominator: int, *, within: bool) -> None:
    """The bound every exact number is held to (reader, expressions, solve certificates): 40 digits a side."""
    assert within_digits(numerator, denominator) is within
