"""Algebraic laws of the unit vocabulary and of DimensionVector (SPEC §3; STYLE §7)."""

from __future__ import annotations

import re
from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

from units import BASE_DIMENSIONS, DimensionVector, UnitRefusal, UnitVocabulary, default_vocabulary
from units.exact import MAX_DIGITS, format_exact, parse_exact

_VOCAB = default_vocabulary()
UNIT_SURFACES = tuple(s for s, e in _VOCAB.lexicon.surfaces() if e.role not in ("dimension_name", "connector"))
NON_OFFSET = tuple(s for s in UNIT_SURFACES if not _VOCAB.resolve(s).is_offset)
OFFSET = tuple(s for s in UNIT_SURFACES if _VOCAB.resolve(s).is_offset)


def _groups() -> list[tuple[str, ...]]:
    """Non-offset lexicon surfaces grouped into commensurable kinds (checked by factor() itself below)."""
    by_kind: dict[tuple[tuple[str, int], ...], list[str]] = {}
    for surface in NON_OFFSET:
        by_kind.setdefault(_VOCAB.resolve(surface).kind, []).append(surface)
    return [tuple(group) for group in by_kind.values()]


GROUPS = _groups()
pairs = st.sampled_from(GROUPS).flatmap(lambda g: st.tuples(st.sampled_from(g), st.sampled_from(g)))
triples = st.sampled_from(GROUPS).flatmap(
    lambda g: st.tuples(st.sampled_from(g), st.sampled_from(g), st.sampled_from(g))
)
exact = st.fractions(max_denominator=10**6).filter(lambda f: abs(f.numerator) < 10**12)


def test_groups_cover_many_kinds() -> None:
    """The commensurable groups are non-trivial: many kinds, several with more than one surface."""
    assert len(GROUPS) > 40
    assert sum(len(g) > 5 for g in GROUPS) >= 8
    assert len(OFFSET) == 4


@given(pairs)
def test_factor_round_trip_is_exactly_one(pair: tuple[str, str]) -> None:
    """factor(a, b) * factor(b, a) == 1 exactly for commensurable non-offset surfaces."""
    a, b = pair
    assert _VOCAB.factor(a, b) * _VOCAB.factor(b, a) == 1


@given(triples)
def test_factor_composes(triple: tuple[str, str, str]) -> None:
    """factor(a, c) == factor(a, b) * factor(b, c) exactly."""
    a, b, c = triple
    assert _VOCAB.factor(a, c) == _VOCAB.factor(a, b) * _VOCAB.factor(b, c)


@given(pairs)
def test_factor_is_positive_fraction(pair: tuple[str, str]) -> None:
    """Every factor is a positive Fraction."""
    got = _VOCAB.factor(*pair)
    assert type(got) is Fraction
    assert got > 0


@given(st.sampled_from(NON_OFFSET), st.sampled_from(NON_OFFSET))
def test_incommensurable_iff_kinds_differ(a: str, b: str) -> None:
    """factor() succeeds exactly when the two surfaces are of one kind; otherwise it names a kind reason."""
    if _VOCAB.resolve(a).kind == _VOCAB.resolve(b).kind:
        assert _VOCAB.factor(a, b) > 0
        return
    with pytest.raises(UnitRefusal) as info:
        _VOCAB.factor(a, b)
    assert info.value.reason in ("incommensurable_units", "convention_required")


@given(pairs, exact)
def test_convert_is_magnitude_times_factor(pair: tuple[str, str], magnitude: Fraction) -> None:
    """convert(m, a, b) == m * factor(a, b) for multiplicative units."""
    a, b = pair
    assert _VOCAB.convert(magnitude, a, b) == magnitude * _VOCAB.factor(a, b)


@given(st.sampled_from(OFFSET), st.sampled_from(OFFSET), exact)
def test_temperature_convert_round_trips(a: str, b: str, magnitude: Fraction) -> None:
    """Converting an absolute temperature there and back returns the exact starting value."""
    assert _VOCAB.convert(_VOCAB.convert(magnitude, a, b), b, a) == magnitude


@given(st.sampled_from(UNIT_SURFACES), st.sampled_from(UNIT_SURFACES))
def test_composite_dimension_is_quotient(x: str, y: str) -> None:
    """X_per_Y resolves iff neither side is an absolute temperature nor Y a pure number, and dim(X_per_Y) == dim(X) / dim(Y).

    Over a pure number (``dollars_per_%``) the composite reads as X scaled (100 dollars)
    or as a rate per percent point, so it is refused (``malformed_input``).
    """
    rx, ry = _VOCAB.resolve(x), _VOCAB.resolve(y)
    surface = f"{x}_per_{y}"
    if rx.is_offset or ry.is_offset:
        with pytest.raises(UnitRefusal) as info:
            _VOCAB.resolve(surface)
        assert info.value.reason == "offset_unit_arithmetic"
        return
    if ry.kind == ():
        with pytest.raises(UnitRefusal) as info:
            _VOCAB.resolve(surface)
        assert info.value.reason == "malformed_input"
        assert "over a pure number" in info.value.detail
        return
    ref = _VOCAB.resolve(surface)
    assert ref.dimension == rx.dimension / ry.dimension
    assert ref.lemma == f"{rx.lemma}_per_{ry.lemma}"


@given(pairs, pairs)
def test_composite_factor_is_quotient_of_factors(top: tuple[str, str], bottom: tuple[str, str]) -> None:
    """factor(X1_per_Y1, X2_per_Y2) == factor(X1, X2) / factor(Y1, Y2) (a pure-number Y is no composite's side)."""
    (x1, x2), (y1, y2) = top, bottom
    assume(_VOCAB.resolve(y1).kind != () and _VOCAB.resolve(y2).kind != ())
    got = _VOCAB.factor(f"{x1}_per_{y1}", f"{x2}_per_{y2}")
    assert got == _VOCAB.factor(x1, x2) / _VOCAB.factor(y1, y2)


@pytest.mark.parametrize("surface", UNIT_SURFACES)
def test_every_lexicon_surface_resolves_to_its_lemma(vocab: UnitVocabulary, surface: str) -> None:
    """Every unit surface of the lexicon (not a dimension name or connector) resolves to its own lemma."""
    entry = next(e for s, e in vocab.lexicon.surfaces() if s == surface)
    ref = vocab.resolve(surface)
    assert (ref.surface, ref.lemma) == (surface, entry.lemma)
    assert vocab.resolve(entry.lemma).lemma == entry.lemma


@settings(max_examples=10)
@given(st.from_regex(r"[a-z]{3,10}", fullmatch=True), st.from_regex(r"[a-z]{3,10}", fullmatch=True))
def test_declared_nouns_never_merge(first: str, second: str) -> None:
    """Two nouns declared onto two new lemmas are never commensurable, each with itself."""
    nouns = {f"{first}zq": f"{first}zq_kind", f"{second}zx": f"{second}zx_kind"}
    declared = _VOCAB.with_count_nouns(nouns)
    a, b = nouns
    assert declared.factor(a, a) == 1
    with pytest.raises(UnitRefusal) as info:
        declared.factor(a, b)
    assert info.value.reason == "incommensurable_units"


# ------------------------------------------------------------ DimensionVector

exponents = st.tuples(*[st.integers(-4, 4)] * 6)
_CANONICAL = re.compile(r"dimensionless|(?:1|N(?:\*N)*)(?:/N(?:\*N)*)?".replace("N", r"[a-z]+(?:\^[2-9])?"))


def parse_canonical(text: str) -> tuple[int, ...]:
    """Reference parser for the upstream canonical format, independent of the code under test."""
    exps = dict.fromkeys(BASE_DIMENSIONS, 0)
    if text == "dimensionless":
        return tuple(exps.values())
    head, _, tail = text.partition("/")
    for sign, part in ((1, head), (-1, tail)):
        for term in part.split("*") if part and part != "1" else []:
            name, _, power = term.partition("^")
            exps[name] += sign * int(power or 1)
    return tuple(exps.values())


@given(exponents)
def test_canonical_string_round_trips(exps: tuple[int, int, int, int, int, int]) -> None:
    """The canonical string has the upstream shape and encodes exactly the exponents."""
    vector = DimensionVector(exps)
    text = vector.to_canonical_string()
    assert _CANONICAL.fullmatch(text), text
    assert parse_canonical(text) == exps
    assert str(vector) == text
    assert (text == "dimensionless") == vector.is_dimensionless


@given(exponents)
def test_canonical_string_keeps_axis_order(exps: tuple[int, int, int, int, int, int]) -> None:
    """Numerator and denominator list axes in BASE_DIMENSIONS order."""
    text = DimensionVector(exps).to_canonical_string()
    if text == "dimensionless":
        return
    for part in text.split("/"):
        names = [t.partition("^")[0] for t in part.split("*") if t != "1"]
        assert names == sorted(names, key=BASE_DIMENSIONS.index)


@given(exponents, exponents)
def test_vector_product_and_quotient(a: tuple[int, ...], b: tuple[int, ...]) -> None:
    """Exponents add under * and subtract under /; (a*b)/b == a."""
    va, vb = DimensionVector(a), DimensionVector(b)  # type: ignore[arg-type]
    assert (va * vb).exponents == tuple(x + y for x, y in zip(a, b, strict=True))
    assert (va / vb).exponents == tuple(x - y for x, y in zip(a, b, strict=True))
    assert (va * vb) / vb == va


@pytest.mark.parametrize(
    ("axes", "text"),
    [
        ({}, "dimensionless"),
        ({"length": 1}, "length"),
        ({"length": 2}, "length^2"),
        ({"length": 3}, "length^3"),
        ({"length": 1, "time": -1}, "length/time"),
        ({"money": 1, "time": -1}, "money/time"),
        ({"money": 1, "count": -1}, "money/count"),
        ({"mass": 1, "length": -3}, "mass/length^3"),
        ({"time": -1}, "1/time"),
        ({"length": -2}, "1/length^2"),
        ({"length": 1, "mass": 1, "time": -2}, "length*mass/time^2"),
        ({"temperature": 1}, "temperature"),
    ],
)
def test_canonical_string_table(axes: dict[str, int], text: str) -> None:
    """Canonical strings match the upstream format for the common quantities."""
    assert DimensionVector.from_axes(axes).to_canonical_string() == text


@pytest.mark.parametrize(
    "exps",
    [
        (1, 0, 0, 0, 0),
        (1, 0, 0, 0, 0, 0, 0),
        (True, 0, 0, 0, 0, 0),
        (1.0, 0, 0, 0, 0, 0),
        [1, 0, 0, 0, 0, 0],
        "length",
        None,
    ],
    ids=repr,
)
def test_dimension_vector_refuses_bad_exponents(exps: object) -> None:
    """A DimensionVector is exactly a 6-tuple of int (bool and float refused)."""
    with pytest.raises(UnitRefusal) as info:
        DimensionVector(exps)  # type: ignore[arg-type]
    assert info.value.reason == "malformed_input"


def test_from_axes_refuses_unknown_axis() -> None:
    """from_axes() refuses an axis outside the six base dimensions."""
    with pytest.raises(UnitRefusal) as info:
        DimensionVector.from_axes({"angle": 1})
    assert info.value.reason == "malformed_input"
    assert BASE_DIMENSIONS == ("length", "time", "mass", "money", "count", "temperature")


@given(st.decimals(allow_nan=False, allow_infinity=False, places=None).filter(lambda d: d.is_finite()))
@example(Decimal("6.6822785477836849999999999999999621980E-27"))  # 41 decimal places; its Fraction has 40 digits a side
@example(Decimal("1E40"))  # the int 10**40: 41 digits
def test_short_decimals_survive_float_exactly(value: Decimal) -> None:
    """Every decimal of at most 15 significant digits, passed as a float, is read as exactly that decimal (SPEC §4).

    Unless it is too large: more than 40 decimal places (or an exponent beyond 40), or a
    Fraction with more than 40 digits on a side, is ``input_too_large``.
    """
    short = Decimal(f"{value:.15g}")
    exact = Fraction(short)
    bound = 10**MAX_DIGITS
    exponent = short.normalize().as_tuple().exponent
    places = abs(exponent) if isinstance(exponent, int) else 0
    if places > MAX_DIGITS or abs(exact.numerator) >= bound or exact.denominator >= bound:
        with pytest.raises(UnitRefusal) as info:
            parse_exact(float(short))
        assert info.value.reason == "input_too_large"
        return
    assert parse_exact(float(short)) == exact


def test_point_one_plus_point_two_is_three_tenths() -> None:
    """0.1 and 0.2 read as floats add to exactly 3/10, never 0.30000000000000004."""
    assert parse_exact(0.1) + parse_exact(0.2) == Fraction(3, 10)


_BOUNDED = st.integers(min_value=-(10**MAX_DIGITS) + 1, max_value=10**MAX_DIGITS - 1)


@given(_BOUNDED, _BOUNDED.filter(lambda d: d > 0))
@example(13899998724544860989955125, 20334926628327424507495443)  # a certified answer's value (52 digits in all)
@example(10**MAX_DIGITS - 1, 10**MAX_DIGITS - 1)
@example(1234567890123456789012345678901234567, 10**37)  # the decimal 0.1234...567 of 37 places
def test_every_bounded_fraction_reads_back_from_its_text(numerator: int, denominator: int) -> None:
    """format_exact then parse_exact is the identity on every Fraction of at most 40 digits a side.

    The text rule had counted a fraction's digits together (at most 40 in all), so a value
    the library accepts and computes, written as ``n/d``, could not be read back.
    """
    value = Fraction(numerator, denominator)
    assert parse_exact(format_exact(value)) == value


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("1" * 41, "more than 40 digits"),
        ("1" * 41 + "/3", "a numerator of more than 40 digits"),
        ("1/" + "3" * 41, "a denominator of more than 40 digits"),
        ("0." + "1" * 40, "more than 40 digits"),  # a decimal counts all its digits
    ],
)
def test_a_side_over_forty_digits_is_too_large(text: str, says: str) -> None:
    """Each side of a fraction, and a decimal in all, holds at most 40 digits."""
    with pytest.raises(UnitRefusal) as info:
        parse_exact(text)
    assert info.value.reason == "input_too_large"
    assert info.value.detail == says
