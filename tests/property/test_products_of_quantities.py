"""Products of unit-bearing quantities, into the unit the lhs declares (issue: beyond the hand-rolled solver).

The oracle converts with its own table of exact factors (NIST SP 811: 1 ft = 12 in,
1 yd = 36 in; areas and volumes are their squares and cubes; 1 US gallon = 231 cubic
inches), never with this library.
"""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from adapters import parse_canonical_text
from units import default_vocabulary
from verifier import Answer, Refusal, verify

LENGTH = {"inches": Fraction(1), "feet": Fraction(12), "yards": Fraction(36)}
AREA = {"square inches": Fraction(1), "square feet": Fraction(144), "square yards": Fraction(1296)}
VOLUME = {"gallons": Fraction(231)}  # the lexicon has gallons, not cubic inches
VOCAB = default_vocabulary()


def _graph(lhs_unit: str, operands: list[tuple[Fraction, str]]) -> str:
    names = [chr(ord("a") + i) for i in range(len(operands))]
    lines = ["S entity_a A entity entity=A unit=None span=t[0:1] by=test"]
    for name, (_, unit) in zip(names, operands, strict=True):
        lines.append(f"S {name} A.{name} quantity entity=None unit={unit} span=t[0:1] by=test")
    lines.append(f"S r A.result quantity entity=A unit={lhs_unit} span=t[0:1] by=test")
    lines.append(f"S u A|result unknown entity=A unit={lhs_unit} span=t[0:1] by=test")
    for name, (value, unit) in zip(names, operands, strict=True):
        lines.append(f"F {name} = {value.numerator}/{value.denominator} unit={unit} span=t[0:1]")
    rhs = "*".join(names)
    lines.append(
        f"E r := {rhs} op=multiply deps=[{','.join(names)}] unit_proof=unverified status=pending refusal=None"
        " span=t[0:1]"
    )
    lines.append(f"U u expected_unit={lhs_unit} state=terminal form=count qspan=t[0:1]")
    return "\n".join(lines) + "\n"


def _answer(text: str) -> Answer | Refusal:
    graph, _ = parse_canonical_text(text)
    (answer,) = verify(graph, VOCAB).answers.values()
    return answer


lengths = st.tuples(st.fractions(min_value=0, max_value=100, max_denominator=8), st.sampled_from(sorted(LENGTH)))


@given(lengths, lengths, st.sampled_from(sorted(AREA)))
def test_a_product_of_two_lengths_is_an_exact_area(a: tuple[Fraction, str], b: tuple[Fraction, str], area: str) -> None:
    """The product in the declared area unit, exactly as the oracle converts it."""
    expected = a[0] * LENGTH[a[1]] * b[0] * LENGTH[b[1]] / AREA[area]
    got = _answer(_graph(area, [a, b]))
    assert isinstance(got, Answer), got
    assert got.fraction == expected
    assert got.unit == area


@given(lengths, lengths, lengths)
def test_a_product_of_three_lengths_is_an_exact_volume(
    a: tuple[Fraction, str], b: tuple[Fraction, str], c: tuple[Fraction, str]
) -> None:
    """Three lengths in gallons: cubic inches over 231."""
    inches = a[0] * LENGTH[a[1]] * b[0] * LENGTH[b[1]] * c[0] * LENGTH[c[1]]
    got = _answer(_graph("gallons", [a, b, c]))
    assert isinstance(got, Answer), got
    assert got.fraction == inches / VOLUME["gallons"]


@given(lengths, lengths, st.sampled_from([*sorted(LENGTH), "gallons", "pounds", "dollars", "hours"]))
def test_a_product_into_a_unit_of_another_dimension_is_refused(
    a: tuple[Fraction, str], b: tuple[Fraction, str], wrong: str
) -> None:
    """Length x length declared as a length, a volume, a mass … is unit_mismatch, never answered."""
    got = _answer(_graph(wrong, [a, b]))
    assert isinstance(got, Refusal)
    assert got.reason == "unit_mismatch"
