"""Build the restricted ``pint.UnitRegistry`` from exact lexicon definitions.

Only this module and :mod:`units.vocabulary` touch pint.  The registry starts
empty (``UnitRegistry(None)``: none of pint's default definitions), uses
``fractions.Fraction`` as its number type, and is handed only lemma names that
our own tables produced: pint never reads free text here (SPEC §11).
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

import pint
from pint.converters import Converter
from pint.facets.plain import ScaleConverter
from pint.facets.plain.definitions import UnitDefinition
from pint.util import UnitsContainer

from units.lexicon import Conversion, root_scale


def _frac(value: Fraction) -> str:
    return f"{value.numerator}/{value.denominator}" if value.denominator != 1 else str(value.numerator)


def _expr(of: tuple[tuple[str, int], ...]) -> str:
    return " * ".join(f"{lemma} ** {power}" if power != 1 else lemma for lemma, power in of)


def definition_line(conv: Conversion) -> str:
    """The pint definition line for one exact conversion, with integer-ratio numbers only."""
    if conv.base_dimension is not None:
        return f"{conv.lemma} = [{conv.base_dimension}]"
    scale = _frac(conv.factor)
    line = f"{conv.lemma} = {scale} * {_expr(conv.of)}" if conv.of else f"{conv.lemma} = {scale}"
    if conv.offset:
        line += f"; offset: {_frac(conv.offset)}"
    return line


def _order(conversions: Mapping[str, Conversion]) -> list[str]:
    done: dict[str, None] = {}

    def visit(lemma: str) -> None:
        if lemma in done:
            return
        for dep, _ in conversions[lemma].of:
            visit(dep)
        done[lemma] = None

    for lemma in sorted(conversions):
        visit(lemma)
    return list(done)


def build_registry(conversions: Mapping[str, Conversion]) -> pint.UnitRegistry[Fraction]:
    """A fresh registry holding exactly ``conversions``, with ``Fraction`` magnitudes.

    Offset units are not auto-converted (``autoconvert_offset_to_baseunit=False``),
    so pint refuses arithmetic on absolute temperatures (SPEC §3).
    """
    registry: pint.UnitRegistry[Fraction] = pint.UnitRegistry(
        None,
        non_int_type=Fraction,
        autoconvert_offset_to_baseunit=False,
        case_sensitive=True,
        cache_folder=None,
    )
    for lemma in _order(conversions):
        registry.define(_definition(conversions[lemma]))  # type: ignore[arg-type]  # pint defines from objects too
    return registry


def _definition(conv: Conversion) -> UnitDefinition:
    """The definition object of :func:`definition_line` (what pint's text parser builds from it, without parsing).

    Pint parses a definition line in about 0.2 ms; building the object directly makes the
    default vocabulary's registry several times cheaper.  ``tests/unit/test_registry_definitions.py``
    checks that both give the same units, dimensionalities, scales and offsets.
    """
    if conv.base_dimension is not None:
        reference = UnitsContainer({f"[{conv.base_dimension}]": 1}, non_int_type=Fraction)
        converter: Converter = ScaleConverter(Fraction(1))  # type: ignore[arg-type]
    else:
        powers: dict[str, int] = {}
        for lemma, power in conv.of:  # a factor written twice multiplies (meter*meter), and may cancel (meter/meter)
            powers[lemma] = powers.get(lemma, 0) + power
        reference = UnitsContainer({k: p for k, p in powers.items() if p}, non_int_type=Fraction)
        modifiers = {"offset": Fraction(conv.offset)} if conv.offset else {}
        converter = Converter.from_arguments(scale=Fraction(conv.factor), **modifiers)
    # pint's annotations say str and float; its own parser builds these very objects with the
    # registry's Fraction number type
    return UnitDefinition(conv.lemma, None, (), converter, reference)


def apply_calendar_convention(
    conversions: Mapping[str, Conversion], calendar_lemma: str, amount: Fraction, time_lemma: str, source: str
) -> dict[str, Conversion]:
    """Redefine the calendar base so that ``1 calendar_lemma == amount time_lemma``.

    Calendar units (month … millennium) form one registry dimension; a declared
    convention ties that dimension to time.  Every calendar unit keeps its exact
    ratio to the others.
    """
    base = next(c.lemma for c in conversions.values() if c.base_dimension == "calendar")
    scale_in_base, _ = root_scale(conversions, calendar_lemma)
    table = dict(conversions)
    table[base] = Conversion(lemma=base, factor=amount / scale_in_base, of=((time_lemma, 1),), source=source)
    return table


def define_base_unit(registry: pint.UnitRegistry[Fraction], lemma: str, base_dimension: str) -> None:
    """Define ``lemma = [base_dimension]`` from pint's definition objects (the text parser costs about 0.2 ms a line)."""
    definition = _definition(Conversion(lemma=lemma, base_dimension=base_dimension, source="declared count noun"))
    registry.define(definition)  # type: ignore[arg-type]  # pint defines from objects too
