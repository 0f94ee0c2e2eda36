"""A fact written in another unit than its symbol's is converted exactly, or refused (SPEC §4 "Numbers", §3).

``F q = 12 unit=inches`` for a symbol in feet is 1 foot; Celsius to Fahrenheit is affine;
15 percent on a unitless ratio is the number 3/20; a unit of another kind, or no symbol
unit to convert into, is refused and no answer is certified.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from adapters import parse_canonical_text
from verifier import Answer, GraphReport, verify


def _report(fact_unit: str, value: str, symbol_unit: str | None, asked: str | None) -> GraphReport:
    unit = symbol_unit if symbol_unit is not None else "None"
    role = "quantity" if symbol_unit is not None else "ratio"
    lines = [
        f"S q q {role} entity=A unit={unit} span=t[0:1] by=t",
        f"S u u unknown entity=A unit={asked if asked is not None else 'None'} span=t[0:1] by=t",
        f"F q = {value} unit={fact_unit} span=t[0:1]",
        f"U u expected_unit={asked if asked is not None else 'None'} state=initial form=identity qspan=t[0:1]",
    ]
    graph, _ = parse_canonical_text("\n".join(lines) + "\n")
    return verify(graph)


@pytest.mark.parametrize(
    ("fact_unit", "value", "symbol_unit", "asked", "expected"),
    [
        ("inches", "12", "feet", "feet", Fraction(1)),
        ("inches", "12", "feet", "inches", Fraction(12)),
        ("centimeters", "250", "meters", "meters", Fraction(5, 2)),
        ("Celsius", "100", "Fahrenheit", "Fahrenheit", Fraction(212)),
        ("Fahrenheit", "32", "Celsius", "Celsius", Fraction(0)),
        ("cents", "250", "dollars", "dollars", Fraction(5, 2)),
    ],
)
def test_a_fact_in_another_unit_of_the_kind_is_converted_exactly(
    fact_unit: str, value: str, symbol_unit: str, asked: str, expected: Fraction
) -> None:
    """A fact in inches on a symbol in feet (or Celsius on Fahrenheit, cents on dollars) answers the exact converted value."""
    report = _report(fact_unit, value, symbol_unit, asked)
    (answer,) = report.answers.values()
    assert isinstance(answer, Answer), answer
    assert answer.fraction == expected
    assert answer.unit == asked


def test_a_percent_fact_on_a_unitless_ratio_is_the_number() -> None:
    """15 percent on a unitless ratio is the number 3/20."""
    report = _report("percent", "15", None, None)
    assert report.values["q"].magnitude == Fraction(3, 20)


@pytest.mark.parametrize(
    ("fact_unit", "symbol_unit", "reason"),
    [
        ("pounds", "feet", "incommensurable_units"),  # another dimension
        ("euros", "dollars", "incommensurable_units"),  # another currency (ISO 4217: no fixed rate)
        ("feets", "feet", "unknown_unit"),
        ("years", "days", "convention_required"),
    ],
)
def test_a_fact_in_a_unit_of_another_kind_is_refused_and_nothing_is_certified(
    fact_unit: str, symbol_unit: str, reason: str
) -> None:
    """A fact in another dimension, currency, an unknown unit or a calendar unit without convention refuses; nothing certified."""
    report = _report(fact_unit, "3", symbol_unit, symbol_unit)
    (answer,) = report.answers.values()
    assert not isinstance(answer, Answer)
    assert answer.reason == reason
    assert "q" not in report.values


def test_a_unit_on_a_fact_whose_symbol_carries_none_is_a_mismatch() -> None:
    """A length written on a unitless ratio cannot be converted into it: unit_mismatch, never a bare number."""
    report = _report("feet", "3", None, None)
    refusal = report.refusals["q"]
    assert refusal.reason == "unit_mismatch"
    assert "carries None" in refusal.detail
