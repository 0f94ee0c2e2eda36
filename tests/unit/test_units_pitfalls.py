"""One test (or table) per units pitfall of SPEC §11: each pins the guard we built against it."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from decimal import Decimal
from fractions import Fraction

import pytest
import sympy

import units.vocabulary
from units import UnitRefusal, UnitVocabulary
from units.exact import loads_exact, parse_exact
from units.vocabulary import render_unit

HANG_GUARD_SECONDS = 5.0
"""Far above the milliseconds a refusal takes; the pitfall inputs run for minutes when not capped."""


def refusal(call: object, *args: object) -> UnitRefusal:
    """Call ``call(*args)``, which must raise UnitRefusal; return the refusal."""
    with pytest.raises(UnitRefusal) as info:
        call(*args)  # type: ignore[operator]
    return info.value


# ------------------------------------------------------------ pint guesses


@pytest.mark.parametrize(
    "surface",
    [
        "feets",
        "foots",
        "inchs",
        "mis",
        "pinch",
        "kilofoot",
        "kilofeet",
        "millifoot",
        "megainch",
        "kiloinch",
        "centifoot",
        "dozenss",
        "hrs",
        "lbs",
        "mins",
    ],
)
def test_made_up_plurals_and_prefix_compounds_refused(vocab: UnitVocabulary, surface: str) -> None:
    """Pint's plural and prefix guessing never leaks: made-up forms are unknown_unit."""
    error = refusal(vocab.resolve, surface)
    assert error.reason == "unknown_unit"
    assert error.subject == surface


@pytest.mark.parametrize(
    "text",
    [
        "5 ft 3 in",
        "ft in",
        "2 1/2 cups",
        "ft ft",
        "foot inch",
        "feet inches",
        "ft*in",
        "ft·in",
        "ft in^2",
        "3 feet",
    ],
)
def test_adjacent_words_never_multiplied(vocab: UnitVocabulary, text: str) -> None:
    """Adjacent unit words are not read as a product (5 ft 3 in is not an area): unknown_unit."""
    assert refusal(vocab.resolve, text).reason == "unknown_unit"
    assert refusal(vocab.factor, text, "sq ft").reason == "unknown_unit"


@pytest.mark.parametrize(
    "text",
    [
        "100 €",
        "€x",
        "x€",
        "€ ",
        " €",
        "€€",
        "$5",
        "5$",
        "ft\u200b",
        "ft\x00",
        "fé",
        " feet",
        "feet ",
    ],
)
def test_untokenizable_characters_never_dropped(vocab: UnitVocabulary, text: str) -> None:
    """Text around a known symbol is never dropped to leave the symbol: the whole text is refused verbatim."""
    error = refusal(vocab.resolve, text)
    assert error.reason == "unknown_unit"
    assert error.subject == text


def test_lone_symbols_still_resolve(vocab: UnitVocabulary) -> None:
    """The symbols themselves are in the lexicon, so the refusals above are about the extra characters."""
    assert [vocab.resolve(s).lemma for s in ("€", "$", "ft", "feet")] == [
        "euro",
        "dollar",
        "foot",
        "foot",
    ]


# ------------------------------------------------------------ floats leak


def test_every_factor_is_a_fraction(vocab: UnitVocabulary) -> None:
    """Every factor between commensurable lexicon surfaces is a Fraction, and every scale is exact."""
    refs = [vocab.resolve(s) for s, e in vocab.lexicon.surfaces() if e.role not in ("dimension_name", "connector")]
    by_kind: dict[tuple[tuple[str, int], ...], list[str]] = {}
    for ref in refs:
        assert type(ref.scale) is Fraction, ref.surface
        if not ref.is_offset:
            by_kind.setdefault(ref.kind, []).append(ref.surface)
    checked = 0
    for surfaces in by_kind.values():
        for a in surfaces:
            for b in surfaces:
                assert type(vocab.factor(a, b)) is Fraction
                checked += 1
    assert checked > 2000


def test_foot_is_exactly_0_3048_meter_through_pint(vocab: UnitVocabulary) -> None:
    """The registry returns 381/1250 for 1 ft in m, not the float-polluted 7619999999999999/25e15."""
    reg = vocab.registry
    quantity = reg.Quantity(Fraction(1), "foot").to("meter")
    assert type(quantity.magnitude) is Fraction
    assert quantity.magnitude == Fraction(381, 1250)
    assert quantity.magnitude != Fraction(0.3048)


@pytest.mark.parametrize(
    "lemma",
    [
        "foot",
        "gallon",
        "acre",
        "pound_per_cubic_foot",
        "mile_per_hour",
        "cent_per_item",
        "teaspoon",
        "megahertz",
        "percent",
    ],
)
def test_registry_magnitudes_come_back_as_fraction(vocab: UnitVocabulary, lemma: str) -> None:
    """to_root_units() of an exact magnitude in the registry stays a Fraction."""
    magnitude = vocab.registry.Quantity(Fraction(7, 3), lemma).to_root_units().magnitude
    assert type(magnitude) is Fraction


@pytest.mark.parametrize(
    "value",
    [
        0.30000000000000004,  # a float whose repr is not the short decimal it was meant to be (SPEC §4)
        1 / 3,
        True,
        False,
        float("nan"),
        float("inf"),
        "nan",
        "NaN",
        "inf",
        "-inf",
        "Infinity",
        "1e5",
        "1E5",
        "1.5e-3",
        "0x10",
        "1_000",
        " 1",
        "1 ",
        "",
        "1/0",
        "1//2",
        "½",
        None,
        [1],
        complex(1, 0),
        Decimal("NaN"),
    ],
    ids=repr,
)
def test_parse_exact_refuses_inexact_and_malformed(value: object) -> None:
    """parse_exact refuses long floats, bools, nan/inf, exponents and anything outside its small grammar."""
    assert refusal(parse_exact, value).reason == "malformed_input"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("5", Fraction(5)),
        ("-2.5", Fraction(-5, 2)),
        ("7/2", Fraction(7, 2)),
        ("+0.125", Fraction(1, 8)),
        (3, Fraction(3)),
    ],
)
def test_parse_exact_reads_exact_values(text: object, expected: Fraction) -> None:
    """parse_exact reads decimals, fractions and ints to the exact Fraction."""
    assert parse_exact(text) == expected


def test_convert_reads_a_float_as_its_decimal(vocab: UnitVocabulary) -> None:
    """A float magnitude is the decimal it was written as (SPEC §4), converted exactly; a long float is refused."""
    assert vocab.convert(2.5, "feet", "inches") == 30
    assert vocab.convert(20.0, "Celsius", "Fahrenheit") == 68
    assert refusal(vocab.convert, 0.1 + 0.2, "feet", "inches").reason == "malformed_input"


@pytest.mark.parametrize(
    ("value", "expected"),
    [(0.5, Fraction(1, 2)), (146.0, Fraction(146)), (0.1, Fraction(1, 10)), (Decimal("1.50"), Fraction(3, 2))],
    ids=repr,
)
def test_parse_exact_reads_short_floats_and_decimals_exactly(value: object, expected: Fraction) -> None:
    """A float with a short repr and a finite Decimal are read as the exact decimal they show."""
    assert parse_exact(value) == expected


class _MyFloat(float):
    pass


class _MyDecimal(Decimal):
    pass


class _MyInt(int):
    pass


class _MyFraction(Fraction):
    pass


class _MyStr(str):
    __slots__ = ()


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (_MyFloat(2.5), Fraction(5, 2)),
        (_MyDecimal("2.5"), Fraction(5, 2)),
        (_MyInt(7), Fraction(7)),
        (_MyFraction(7, 2), Fraction(7, 2)),
        (_MyStr("7/2"), Fraction(7, 2)),
    ],
)
def test_parse_exact_reads_subclasses_of_the_exact_types(value: object, expected: Fraction) -> None:
    """A subclass takes the same reading as its base type (the fast table serves only the exact types)."""
    assert parse_exact(value) == expected


class _LyingFloat(float):
    def __repr__(self) -> str:
        return "7"


class _LyingDecimal(Decimal):
    def __format__(self, spec: str, context: object = None, /) -> str:
        return "7"


class _LyingFraction(Fraction):
    @property
    def numerator(self) -> int:
        return 7


class _LyingInt(int):
    def __int__(self) -> int:
        return 7

    @property
    def numerator(self) -> int:
        return 7


class _LyingStr(str):
    __slots__ = ()

    def __str__(self) -> str:
        return "7"


@pytest.mark.parametrize(
    "value",
    [_LyingFloat(2.5), _LyingDecimal("2.5"), _LyingFraction(5, 2), _LyingStr("5/2")],
    ids=["float", "Decimal", "Fraction", "str"],
)
def test_parse_exact_reads_a_subclass_through_its_base_type(value: object) -> None:
    """The value is the one the base type holds, whatever the subclass's repr, format or numerator say (bad-input trial)."""
    assert parse_exact(value) == Fraction(5, 2)


def test_parse_exact_reads_an_int_subclass_through_int() -> None:
    """An int subclass is the int it holds (3), not what its ``__int__`` or ``numerator`` say."""
    assert parse_exact(_LyingInt(3)) == Fraction(3)


def test_parse_exact_reads_an_int_or_str_subclass_posing_as_sympy_through_its_base() -> None:
    """A subclass of int or str from a module named ``sympy...`` is still read as its base, not from ``.p``/``.q``."""
    posing_int = type("Integer", (int,), {"__module__": "sympy.fake", "p": 7, "q": 1})
    posing_str = type("Symbol", (str,), {"__module__": "sympy.fake", "p": 7, "q": 1})
    assert parse_exact(posing_int(3)) == Fraction(3)
    assert parse_exact(posing_str("5/2")) == Fraction(5, 2)


def test_parse_exact_reads_numpy_float64_as_its_shortest_repr() -> None:
    """``numpy.float64(2.5)`` is 5/2: numpy 2's repr (``np.float64(2.5)``) had raised a bare ``decimal.InvalidOperation``."""
    numpy = pytest.importorskip("numpy")
    assert parse_exact(numpy.float64(2.5)) == Fraction(5, 2)
    assert parse_exact(numpy.float64(0.1)) == Fraction(1, 10)


def test_parse_exact_refuses_a_bool_and_a_huge_int_subclass() -> None:
    """``True`` is no number, and an int subclass is held to the digit bound too."""
    assert refusal(parse_exact, True).reason == "malformed_input"  # noqa: FBT003  # the bool is the input under test
    assert refusal(parse_exact, _MyInt(10**200)).reason == "input_too_large"


def test_exact_factors_are_not_their_float_neighbours(vocab: UnitVocabulary) -> None:
    """Factors compare exactly: cup in mL is 236.5882365, not the float 236.58823650170018."""
    assert vocab.factor("cup", "milliliter") == Fraction("236.5882365")
    assert vocab.factor("cup", "milliliter") != Fraction("236.58823650170018")
    assert vocab.factor("mph", "kph") != Fraction(1.609344)


# ------------------------------------------------------------ printing crashes


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("square_foot", "pound_per_cubic_foot"),
        ("pound_per_cubic_foot", "square_foot"),
        ("gallon", "square_foot"),
        ("dollars_per_square_foot", "euros_per_square_foot"),
        ("square_foot_per_hour", "gram_per_cubic_centimeter"),
        ("liters_per_square_meter", "dollars"),
    ],
)
def test_refusals_for_squared_and_cubed_units_print(vocab: UnitVocabulary, a: str, b: str) -> None:
    """Error messages about units with powers are rendered by us and never crash pint's formatter."""
    error = refusal(vocab.factor, a, b)
    assert error.reason == "incommensurable_units"
    text = str(error)
    assert a in text
    assert b in text


def test_same_dimension_refusal_names_both_lemmas(vocab: UnitVocabulary) -> None:
    """When the six-axis vectors agree, the message names both lemmas (rendered from our table)."""
    error = refusal(vocab.factor, "dollars_per_square_foot", "euros_per_square_foot")
    assert "dollar_per_square_foot and euro_per_square_foot are different quantity kinds" in error.detail


def test_every_resolution_renders(vocab: UnitVocabulary) -> None:
    """repr() of every UnitRef and render_unit() of every lexicon surface work, squares and cubes included."""
    for surface, entry in vocab.lexicon.surfaces():
        if entry.role in ("dimension_name", "connector"):
            continue
        ref = vocab.resolve(surface)
        assert render_unit(ref) == ref.lemma
        assert repr(ref).startswith("UnitRef(")
    assert "UnitVocabulary(" in repr(vocab)


# ------------------------------------------------------------ thread-safe start-up


def test_default_vocabulary_built_once_behind_a_lock() -> None:
    """Sixteen threads starting default_vocabulary() at once all get the same, checked object."""
    # no public API empties the cached default: the test clears it to race a cold start, then restores it
    saved = units.vocabulary._DEFAULT  # noqa: SLF001
    units.vocabulary._DEFAULT = None  # noqa: SLF001
    barrier = threading.Barrier(16, timeout=60)

    def start() -> UnitVocabulary:
        barrier.wait()
        return units.vocabulary.default_vocabulary()

    try:
        with ThreadPoolExecutor(max_workers=16) as pool:
            futures = [pool.submit(start) for _ in range(16)]
        results = [future.result() for future in futures]  # a failure in a thread is raised here
        first = results[0]
        assert isinstance(first, UnitVocabulary)
        assert all(r is first for r in results)
        assert first.factor("foot", "inch") == 12
    finally:
        units.vocabulary._DEFAULT = saved  # noqa: SLF001


# ------------------------------------------------------------ sympify / eval


@pytest.mark.parametrize(("surface", "lemma"), [("min", "minute"), ("sec", "second"), ("d", "day")])
def test_ordinary_words_are_not_renamed(vocab: UnitVocabulary, surface: str, lemma: str) -> None:
    """Words sympify would turn into functions resolve to their lexicon lemma."""
    assert vocab.resolve(surface).lemma == lemma


@pytest.mark.parametrize("surface", ["E", "I", "N", "pi", "oo", "__import__('os')", "exp(1)", "m*m", "m**2"])
def test_expression_text_is_not_evaluated(vocab: UnitVocabulary, surface: str) -> None:
    """Constants and expressions are not evaluated: they are unknown units."""
    assert refusal(vocab.resolve, surface).reason == "unknown_unit"


def test_units_never_imports_sympy() -> None:
    """Importing units and building the default vocabulary loads no sympy (no sympify path exists)."""
    code = "import sys, units; units.default_vocabulary(); print('sympy' in sys.modules)"
    argv = [sys.executable, "-c", code]
    out = subprocess.run(argv, capture_output=True, text=True, check=True, timeout=60)  # noqa: S603
    assert out.stdout.strip() == "False"


@pytest.mark.parametrize("value", [Fraction(10**39, 7), Fraction(7, 10**39), 1e39, 1e-39])
def test_a_fraction_of_forty_digits_a_side_is_read(value: object) -> None:
    """A Fraction or float given from Python is read exactly while numerator and denominator have at most 40 digits."""
    expected = value if isinstance(value, Fraction) else Fraction(repr(value))
    assert parse_exact(value) == expected


@pytest.mark.parametrize(
    "value",
    [
        Fraction(10**40, 3),  # a 41-digit numerator, as the int 10**40 is refused
        Fraction(1, 10**41),
        Fraction(10**5000, 3),  # too long to print: binding had raised ValueError formatting it
        sympy.Rational(10**41, 3),  # read through its Fraction
        1e40,  # the int 10**40, whose 41 digits the text "1" + 40 zeros may not have (a review found it read)
        1e-40,
    ],
)
def test_a_longer_fraction_is_refused_as_an_int_is(value: object) -> None:
    """A Fraction (or a sympy Rational) with a side over MAX_DIGITS digits is input_too_large, never read."""
    assert refusal(parse_exact, value).reason == "input_too_large"


# ------------------------------------------------------------ tiny inputs can hang

HANG_INPUTS = [
    (parse_exact, ("9" * 1_000_000,), "input_too_large"),
    (parse_exact, ("1" + "0" * 41,), "input_too_large"),
    (parse_exact, ("1e999999999",), "malformed_input"),
    (parse_exact, ("9**9**9",), "malformed_input"),
    (parse_exact, ("10**10**10",), "malformed_input"),
    (parse_exact, ("1/" + "9" * 100_000,), "input_too_large"),
    (loads_exact, ("1" * 1_000_000,), "input_too_large"),
    (loads_exact, ("[" * 100_000,), "input_too_large"),
    (loads_exact, ("NaN",), "malformed_input"),
]


@pytest.mark.parametrize(
    ("call", "args", "reason"),
    HANG_INPUTS,
    ids=lambda v: getattr(v, "__name__", None) or repr(v)[:30],
)
def test_inputs_that_can_hang_are_refused_quickly(call: object, args: tuple[object, ...], reason: str) -> None:
    """Huge digit strings, huge exponents and nested input are refused before any arithmetic."""
    start = time.perf_counter()
    assert refusal(call, *args).reason == reason
    assert time.perf_counter() - start < HANG_GUARD_SECONDS


@pytest.mark.parametrize(
    ("call", "value", "digits"),
    [
        (parse_exact, 10**40, 41),  # 160 bits had been the bound: up to 49 digits passed
        (parse_exact, -(10**48), 49),
        (loads_exact, "9" * 41, 41),  # 41 digits with no sign had passed
        (loads_exact, "-" + "9" * 41, 41),
    ],
)
def test_the_digit_bound_is_forty_digits(call: object, value: object, digits: int) -> None:
    """An int of 41 digits or more is input_too_large, saying how many digits it has; 40 digits are read."""
    error = refusal(call, value)
    assert error.reason == "input_too_large"
    assert f"more than 40 digits ({digits} digits)" in str(error)
    assert parse_exact(10**40 - 1) == 10**40 - 1
    assert loads_exact("-" + "9" * 40) == -(10**40 - 1)


def test_huge_int_refused_quickly() -> None:
    """An int with far more digits than the cap is input_too_large, without printing it."""
    start = time.perf_counter()
    error = refusal(parse_exact, 10**100_000)
    assert error.reason == "input_too_large"
    assert len(str(error)) < 200
    assert time.perf_counter() - start < HANG_GUARD_SECONDS


@pytest.mark.parametrize(
    ("magnitude", "unit", "reason"),
    [
        ("1e999999999", "foot", "malformed_input"),
        ("9" * 1_000_000, "foot", "input_too_large"),
        ("9**9**9", "foot", "malformed_input"),
        ("1", "9**9**9 * m", "unknown_unit"),
        ("1", "m" * 1_000_000, "input_too_large"),
    ],
    ids=["exp", "digits", "power-tower", "unit-expression", "long-unit"],
)
def test_convert_refuses_hanging_inputs_quickly(vocab: UnitVocabulary, magnitude: str, unit: str, reason: str) -> None:
    """convert() caps digits, exponents and unit length before touching the registry."""
    start = time.perf_counter()
    assert refusal(vocab.convert, magnitude, unit, "inch").reason == reason
    assert time.perf_counter() - start < HANG_GUARD_SECONDS


def test_convention_amount_cannot_hang(vocab: UnitVocabulary) -> None:
    """A convention amount is read by the same capped grammar."""
    assert refusal(vocab.with_conventions, {"year": "9**9**9 day"}).reason == "malformed_input"
    assert refusal(vocab.with_conventions, {"year": "9" * 100_000 + " day"}).reason == "input_too_large"


# ------------------------------------------------------------ other libraries' symbols


@pytest.mark.parametrize(
    ("surface", "lemma", "canonical"),
    [
        ("t", "ton", "mass"),
        ("T", "tonne", "mass"),
        ("c", "cup", "length^3"),
        ("degree", "degree", "temperature"),
        ("min", "minute", "time"),
    ],
)
def test_symbols_are_ours_not_other_libraries(vocab: UnitVocabulary, surface: str, lemma: str, canonical: str) -> None:
    """Symbols are ours: t short ton (not tonne), T tonne (not tesla), c cup, degree a temperature."""
    ref = vocab.resolve(surface)
    assert (ref.lemma, ref.dimension.to_canonical_string()) == (lemma, canonical)


def test_year_has_no_built_in_length_in_days(vocab: UnitVocabulary) -> None:
    """No library's year length (365, 365.25, 365.2425 days) is assumed: a convention is required."""
    assert refusal(vocab.factor, "year", "day").reason == "convention_required"
