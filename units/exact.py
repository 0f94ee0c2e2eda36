"""Exact numbers from text: our own small grammar, never ``float``, ``eval`` or ``sympify``.

Public: shared by the lexicon loader here, by ``verifier`` (fact values), ``adapters``
(JSON inputs) and ``evals``; use it to read and print exact values the way this library does.  Imports nothing but the standard library and
:mod:`units.errors`.

Grammar (SPEC §8, pitfalls in §11)::

    exact    := sign? (decimal | fraction)
    decimal  := digits ("." digits)?      e.g. "5", "2.5", "-0.125"
    fraction := digits "/" digits          e.g. "7/2" (denominator > 0)

No exponents (``1e5``), no ``nan``/``inf``, no whitespace, no underscores, and at
most :data:`MAX_DIGITS` digits (a fraction: on each side), so no input can make the
arithmetic hang.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from decimal import Decimal
from fractions import Fraction
from typing import Any, Final, TypeGuard

from units.errors import UnitRefusal, clip

MAX_DIGITS: Final[int] = 40
"""Most digits an exact number may carry (SPEC §8 bound; ``input_too_large`` beyond)."""

_EXACT: Final = re.compile(r"(?P<sign>[+-]?)(?:(?P<num>[0-9]+)/(?P<den>[0-9]+)|(?P<int>[0-9]+)(?:\.(?P<frac>[0-9]+))?)")


class JsonNumber(str):
    """The verbatim text of a JSON number, kept as text so it never becomes a ``float``.

    A ``str`` only for that reason: it is a number, never a name, unit or text (:func:`is_text`).
    """

    __slots__ = ()


def is_text(value: object) -> TypeGuard[str]:
    """Whether ``value`` is a ``str`` that is text: not the verbatim text of a JSON number (:class:`JsonNumber`).

    Where a name, unit, id or text is expected, ``{"unit": 2.5}`` is a number, not the unit ``"2.5"``.
    """
    return isinstance(value, str) and not isinstance(value, JsonNumber)


_BREAKS_LINE: Final = re.compile(r"[\n\r\t\x00\ud800-\udfff]")


def breaks_line(text: str) -> bool:
    r"""Whether ``text`` holds what one line of text may not: a line break, a tab, a NUL, or a lone surrogate.

    A lone surrogate (``"\ud800"`` in JSON) is no character: no UTF-8 output can hold it.
    The rule behind every name (entity, unit surface) the adapters read and every text
    field of a binding graph's canonical lines.
    """
    return _BREAKS_LINE.search(text) is not None


def text_kind(value: object) -> str:
    """How a message names a value that is not text: ``the JSON number 2.5``, else its ``repr`` (clipped)."""
    return f"the JSON number {value[:40]}" if isinstance(value, JsonNumber) else clip(value)


def type_kind(value: object) -> str:
    """How a message names the type of a value that is not text: ``the JSON number 2.5``, else the type's name."""
    return text_kind(value) if isinstance(value, JsonNumber) else type(value).__name__


def json_kind(value: object) -> str:
    """How a message names a JSON value of the wrong kind, in JSON's words: ``null``, ``true``, ``an array`` ...

    A record line holding ``null`` is "null", not Python's ``NoneType``; a number is shown
    (clipped); a value no JSON reader makes is named by its type.
    """
    if value is None or isinstance(value, bool):
        return json.dumps(value)
    if isinstance(value, JsonNumber):
        return text_kind(value)
    if isinstance(value, (int, float)):
        return f"the JSON number {clip(value)}"
    for kind, name in ((str, "a string"), (list, "an array"), (dict, "an object")):
        if isinstance(value, kind):
            return name
    return type(value).__name__


def parse_exact(value: object, *, path: str = "") -> Fraction:
    """Read an exact rational from a string, an ``int`` or a :class:`JsonNumber`.

    Args:
        value: ``"5"``, ``"2.5"``, ``"7/2"``, ``-3``, ``Fraction(1, 3)`` or the text of a JSON number.
        path: where the value sits in the input, for the error message.

    Returns:
        The exact value as a :class:`fractions.Fraction`.

    Raises:
        UnitRefusal: ``malformed_input`` for floats, bools, ``nan``/``inf``, exponents,
            zero denominators and anything outside the grammar; ``input_too_large``
            for more than :data:`MAX_DIGITS` digits.
    """
    kind = type(value)
    entry = _READER_BY_TYPE.get(kind)  # the exact types first (a bool or a str subclass is none of them)
    if entry is not None and entry[0] is kind:  # the very type: a metaclass may make a class compare equal to int
        return entry[1](value, path)
    return _by_kind(value, path)


def _by_kind(value: object, path: str) -> Fraction:
    """:func:`parse_exact` for a value of no exact type of :data:`_READER_BY_TYPE` (subclasses, sympy, refusals).

    A subclass of an exact type is read through its base type's own methods, never its
    own (``numpy.float64``, or a class whose ``repr``, ``numerator`` or ``__format__``
    says another number): the value is the one the base type holds.
    """
    if isinstance(value, Fraction):
        return _from_fraction(Fraction(*Fraction.as_integer_ratio(value)), path)
    if isinstance(value, bool):
        raise UnitRefusal("malformed_input", "a bool is not a number", value, path)
    if isinstance(value, float):
        return _from_float(float.__float__(value), path)
    if isinstance(value, Decimal):
        return _from_decimal(Decimal(value), path)
    if isinstance(value, int):
        return _from_int(int.__int__(value), path)
    if isinstance(value, str):
        return _from_text(str.__str__(value), path)
    if type(value).__module__.startswith("sympy"):  # after int and str: a subclass of those is read as its base
        return _from_sympy(value, path)
    raise UnitRefusal("malformed_input", f"expected an exact number, found {type(value).__name__}", value, path)


def _from_int(value: int, path: str) -> Fraction:
    if within_digits(value):
        return Fraction(value)
    digits = "over 4,300" if value.bit_length() > _PRINTABLE_INT_BITS else f"{len(str(abs(value)))}"
    raise UnitRefusal("input_too_large", f"more than {MAX_DIGITS} digits ({digits} digits)", "<int>", path)


_INT_BOUND: Final[int] = 10**MAX_DIGITS
"""The least int with more than :data:`MAX_DIGITS` digits."""
_PRINTABLE_INT_BITS: Final[int] = 14_000
"""Ints shorter than this print (Python refuses over 4,300 digits, about 14,284 bits); longer ones are not counted."""


def within_digits(numerator: int, denominator: int = 1) -> bool:
    """Whether a numerator and a denominator each have at most :data:`MAX_DIGITS` digits (the bound of every exact number).

    Compares with ``10**MAX_DIGITS`` and never prints, so a huge int costs nothing.
    """
    return -_INT_BOUND < numerator < _INT_BOUND and -_INT_BOUND < denominator < _INT_BOUND


def _from_fraction(value: Fraction, path: str) -> Fraction:
    """A ``Fraction`` whose numerator and denominator each have at most :data:`MAX_DIGITS` digits, as an int must.

    A ``Fraction`` given from Python had no bound: one of 5,000 digits was read, and
    printing it then raised ``ValueError`` in binding.
    """
    numerator, denominator = value.numerator, value.denominator
    if within_digits(numerator, denominator):
        return value
    longest = max(abs(numerator), denominator)
    digits = "over 4,300" if longest.bit_length() > _PRINTABLE_INT_BITS else f"{len(str(longest))}"
    raise UnitRefusal(
        "input_too_large",
        f"a numerator or denominator of more than {MAX_DIGITS} digits ({digits} digits)",
        "<Fraction>",
        path,
    )


def _from_text(value: str, path: str) -> Fraction:
    """A string in the module's grammar (``"5"``, ``"-2.5"``, ``"7/2"``), or a refusal naming ``path``.

    A decimal holds at most :data:`MAX_DIGITS` digits; a fraction at most that many on
    each side, as :func:`_from_fraction` bounds a ``Fraction`` (so every value
    :func:`format_exact` writes of a bounded ``Fraction`` reads back: a decimal of 37
    places is ``n/10**37``, 75 digits as a fraction).
    """
    head, slash, tail = value[: MAX_DIGITS * 4].partition("/")
    if len(value) > (2 * MAX_DIGITS if slash else MAX_DIGITS) + 4:
        raise UnitRefusal("input_too_large", f"more than {MAX_DIGITS} digits", value, path)
    if sum(ch.isdigit() for ch in head) > MAX_DIGITS:
        side = "a numerator of " if slash else ""
        raise UnitRefusal("input_too_large", f"{side}more than {MAX_DIGITS} digits", value, path)
    if sum(ch.isdigit() for ch in tail) > MAX_DIGITS:
        raise UnitRefusal("input_too_large", f"a denominator of more than {MAX_DIGITS} digits", value, path)
    match = _EXACT.fullmatch(value)
    if match is None:
        raise UnitRefusal(
            "malformed_input",
            "not an exact number: use digits with an optional '.', or 'a/b' (no exponents, nan or inf)",
            value,
            path,
        )
    sign = -1 if match["sign"] == "-" else 1
    if match["den"] is not None:
        den = int(match["den"])
        if den == 0:
            raise UnitRefusal("malformed_input", "zero denominator", value, path)
        return sign * Fraction(int(match["num"]), den)
    frac = match["frac"] or ""
    return sign * Fraction(int(match["int"] + frac), 10 ** len(frac))


def _from_decimal(value: Decimal, path: str) -> Fraction:
    """A finite ``Decimal`` read through its plain (``"f"``) text; NaN and infinities are refused."""
    if not value.is_finite():
        raise UnitRefusal("malformed_input", "NaN and infinities are not exact numbers", value, path)
    return parse_exact(format(value, "f"), path=path)


MAX_FLOAT_DIGITS: Final[int] = 15
"""A float is read as the decimal of its shortest repr when that has at most this many significant digits (SPEC §4)."""


def _from_float(value: float, path: str) -> Fraction:
    """The decimal a float was written as (``0.5``, ``146.0``, ``0.1``), or a refusal when its repr is not short."""
    if not math.isfinite(value):
        raise UnitRefusal("malformed_input", "NaN and infinities are not exact numbers", value, path)
    decimal = Decimal(repr(value))
    shape = decimal.normalize().as_tuple()  # leading and trailing zeros are not significant
    significant = len(shape.digits)
    exponent = shape.exponent
    if isinstance(exponent, int) and abs(exponent) > MAX_DIGITS:
        raise UnitRefusal("input_too_large", f"a float beyond {MAX_DIGITS} decimal places or digits", value, path)
    if significant > MAX_FLOAT_DIGITS:
        raise UnitRefusal(
            "malformed_input",
            f"a float needing more than {MAX_FLOAT_DIGITS} significant digits is not the decimal it was meant to be;"
            " pass a string ('0.3') or a Fraction",
            value,
            path,
        )
    return _from_fraction(Fraction(decimal), path)  # 1e40 is the int 10**40: 41 digits, as the text refuses


def _from_sympy(value: object, path: str) -> Fraction:
    """A sympy ``Rational`` (or ``Integer``) exactly; a sympy ``Float`` or anything else is refused."""
    if getattr(value, "is_Rational", False) is True and not getattr(value, "is_Float", False):
        return parse_exact(Fraction(int(value.p), int(value.q)), path=path)  # type: ignore[attr-defined]
    raise UnitRefusal(
        "malformed_input", f"a sympy {type(value).__name__} is not an exact rational", type(value).__name__, path
    )


_READER_BY_TYPE: Final[dict[type, tuple[type, Callable[[Any, str], Fraction]]]] = {
    cls: (cls, reader)
    for cls, reader in (
        (int, _from_int),
        (str, _from_text),
        (Fraction, _from_fraction),
        (float, _from_float),
        (Decimal, _from_decimal),
    )
}
"""Each exact type :func:`parse_exact` takes, with its reader (any other value goes through ``_by_kind``)."""


def format_exact(value: Fraction) -> str:
    """Canonical text of an exact number: ``"5"``, ``"-7/2"`` (inverse of :func:`parse_exact`)."""
    if value.denominator == 1:
        return str(value.numerator)
    return f"{value.numerator}/{value.denominator}"


def _reject_constant(name: str) -> object:
    raise UnitRefusal("malformed_input", "NaN and Infinity are not exact numbers", name)


def _keep_int(text: str) -> object:
    digits = len(text) - text.startswith("-")
    if digits > MAX_DIGITS:
        raise UnitRefusal("input_too_large", f"more than {MAX_DIGITS} digits ({digits} digits)", text[:20] + "...")
    return int(text)


def _unique_keys(pairs: list[tuple[str, object]]) -> dict[str, object]:
    """A JSON object, refused when a key repeats (the last one would silently win)."""
    out: dict[str, object] = dict(pairs)
    if len(out) == len(pairs):  # the common case: each key once
        return out
    out = {}
    for key, value in pairs:
        if key in out:
            raise UnitRefusal("malformed_input", "a JSON object repeats this key; which value is meant is unknown", key)
        out[key] = value
    return out


def loads_exact(text: str) -> object:
    """Parse JSON text with numbers kept exact.

    Integers become ``int`` (at most :data:`MAX_DIGITS` digits) and every other
    number becomes a :class:`JsonNumber` holding its verbatim text, for
    :func:`parse_exact` to read or refuse.  ``NaN``/``Infinity`` are refused.

    Raises:
        UnitRefusal: ``malformed_input`` for a value that is no ``str`` (or bytes), invalid JSON, NaN/Infinity, or an object that
            repeats a key (``{"unit": "feet", "unit": "inches"}``: no last-one-wins, SPEC §8);
            ``input_too_large`` for over-long integers.
    """
    if not isinstance(text, (str, bytes, bytearray)):
        raise UnitRefusal("malformed_input", f"JSON text is a str, found {type(text).__name__}", type(text).__name__)
    try:
        return json.loads(
            text,
            parse_float=JsonNumber,
            parse_int=_keep_int,
            parse_constant=_reject_constant,
            object_pairs_hook=_unique_keys,
        )
    except json.JSONDecodeError as exc:
        # one line of text (a JSONL record) has no line to name: its caller names the file's line
        where = f"line {exc.lineno}, column {exc.colno}" if "\n" in text.rstrip("\r\n") else f"column {exc.colno}"
        raise UnitRefusal("malformed_input", f"invalid JSON: {exc.msg} ({where})", text[:40]) from None
    except RecursionError:
        raise UnitRefusal("input_too_large", "JSON nested too deeply", text[:40]) from None


__all__ = [
    "MAX_DIGITS",
    "MAX_FLOAT_DIGITS",
    "JsonNumber",
    "breaks_line",
    "format_exact",
    "is_text",
    "json_kind",
    "loads_exact",
    "parse_exact",
    "text_kind",
    "type_kind",
    "within_digits",
]
