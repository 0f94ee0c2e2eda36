"""The registry built from definition objects is the registry pint's text parser builds from the definition lines.

``units._pint.build_registry`` hands pint ``UnitDefinition`` objects instead of text (the
parser costs about 0.2 ms a line, most of the default vocabulary's start-up).  These tests
build the same conversions both ways and compare, for every lemma, what the vocabulary
reads from pint: the dimensionality, the root-unit magnitude and units, and for the
offset temperatures the affine conversions themselves.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from fractions import Fraction
from pathlib import Path

import pint
import pytest

import units
from units._pint import _order, apply_calendar_convention, build_registry, define_base_unit, definition_line
from units.lexicon import Conversion

UPSTREAM = Path(__file__).resolve().parents[3] / "shared" / "upstream" / "en_units_v1"


def _parsed(conversions: Mapping[str, Conversion]) -> pint.UnitRegistry[Fraction]:
    registry: pint.UnitRegistry[Fraction] = pint.UnitRegistry(
        None, non_int_type=Fraction, autoconvert_offset_to_baseunit=False, case_sensitive=True, cache_folder=None
    )
    for lemma in _order(conversions):
        registry.define(definition_line(conversions[lemma]))
    return registry


def _facts(registry: pint.UnitRegistry[Fraction], lemma: str) -> tuple[object, ...]:
    unit = registry.Unit(lemma)
    root = registry.Quantity(Fraction(1), unit).to_root_units()
    return (
        dict(unit.dimensionality),
        root.magnitude,
        type(root.magnitude),
        dict(root.unit_items()),
        # pint has no public accessor for a definition's multiplicative flag (an offset unit's is False)
        registry._units[lemma].is_multiplicative,  # noqa: SLF001
    )


def _compare(conversions: Mapping[str, Conversion]) -> int:
    built, parsed = build_registry(conversions), _parsed(conversions)
    for lemma in conversions:
        assert _facts(built, lemma) == _facts(parsed, lemma), lemma
    offsets = [lemma for lemma, conv in conversions.items() if conv.offset]
    temperatures = [*offsets, *(c.of[0][0] for c in conversions.values() if c.offset and c.of)]
    for a, b in itertools.permutations(dict.fromkeys(temperatures), 2):
        for value in (Fraction(0), Fraction(100), Fraction(-40), Fraction(37, 2)):
            mine = built.Quantity(value, a).to(b).magnitude
            theirs = parsed.Quantity(value, a).to(b).magnitude
            assert mine == theirs, (a, b, value)
            assert type(mine) is type(theirs), (a, b, value)
    return len(conversions)


def test_the_default_pack_defines_the_same_registry_both_ways() -> None:
    """Every lemma of the embedded pack, the affine temperatures among them, reads the same from both registries."""
    conversions = units.default_vocabulary().lexicon.conversions
    assert _compare(conversions) == len(conversions) > 100
    assert any(c.offset for c in conversions.values())  # the affine temperatures are among them


def test_a_calendar_convention_defines_the_same_registry_both_ways() -> None:
    """A table with the year=365 day convention applied builds the same registry both ways, and a year is 365 days."""
    conversions = units.default_vocabulary().lexicon.conversions
    base_time = next(c.lemma for c in conversions.values() if c.base_dimension == "time")
    table = apply_calendar_convention(conversions, "year", Fraction(365), "day", "declared convention: year=365 day")
    assert base_time in table
    _compare(table)
    built = build_registry(table)
    assert built.Quantity(Fraction(1), "year").to("day").magnitude == 365


def test_a_declared_base_unit_is_its_own_dimension() -> None:
    """A base unit defined for a count noun has a dimension of its own, which no length converts to."""
    registry = build_registry(units.default_vocabulary().lexicon.conversions)
    define_base_unit(registry, "apple", "count_apple")
    assert dict(registry.Unit("apple").dimensionality) == {"[count_apple]": 1}
    assert registry.Quantity(Fraction(3), "apple").to_root_units().magnitude == 3
    with pytest.raises(pint.DimensionalityError):
        registry.Quantity(Fraction(1), "apple").to("meter")


def test_the_upstream_pack_defines_the_same_registry_both_ways() -> None:
    """Every lemma of the upstream pack, when it is beside the project, reads the same from both registries."""
    if not (UPSTREAM / "lexicon.jsonl").is_file():
        pytest.skip("the upstream pack is not beside the project")
    vocab = units.UnitVocabulary.from_lexicon(UPSTREAM)
    _compare(vocab.lexicon.conversions)


def _pint_read(vocab: units.UnitVocabulary, lemma: str) -> tuple[object, ...]:
    """What pint itself says of a lemma in a vocabulary's registry: parsed unit, kind, root scale."""
    registry = vocab._registry  # noqa: SLF001 -- the facts are compared with the registry they come from
    unit = registry.Unit(lemma)
    kind = tuple(sorted((str(name), int(str(power))) for name, power in unit.dimensionality.items()))
    return unit, kind, Fraction(registry.Quantity(Fraction(1), unit).to_root_units().magnitude)


@pytest.mark.parametrize("declared", [(), ("zorbs", "jumping jacks")])
def test_a_base_units_facts_are_what_pint_reads(declared: tuple[str, ...]) -> None:
    """A base lemma's unit, kind and scale are written without asking pint (a declared noun's 0.3 ms parse).

    For every base lemma of the default vocabulary, and for declared nouns, they are what
    pint reads; and a composite of base units keeps exact powers (a unit built from its
    name must carry the registry's Fraction type, or ``dollars_per_year`` goes float).
    """
    vocab = units.default_vocabulary().with_count_nouns(list(declared))
    bases = [ref for ref in vocab._by_lemma.values() if ref.lemma in vocab._parts.conversions]  # noqa: SLF001
    checked = [ref for ref in bases if vocab._parts.conversions[ref.lemma].base_dimension is not None]  # noqa: SLF001
    assert len(checked) >= 10 + len(declared)
    for ref in checked:
        assert (ref.unit, ref.kind, ref.scale) == _pint_read(vocab, ref.lemma), ref.lemma
    assert vocab.factor("dollars_per_hour", "dollars_per_minute") == Fraction(1, 60)
