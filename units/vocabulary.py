"""The closed unit vocabulary: surfaces → lemmas → registry units, exact factors.

Owns :class:`UnitRef`, :class:`UnitVocabulary` and :func:`default_vocabulary`.
Imports pint (through :mod:`units._pint`) but never sympy, so ``import units``
stays fast.  Every rule here comes from SPEC §3 and the seed ADR-0134.
"""

from __future__ import annotations

import dataclasses
import difflib
import itertools
import re
import threading
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any, Final

import pint
from pint.util import UnitsContainer

from units._pint import apply_calendar_convention, build_registry, define_base_unit
from units.dimension import BASE_DIMENSIONS, COUNT, DimensionVector
from units.errors import LazyDetailRefusal, UnitRefusal
from units.exact import parse_exact
from units.lexicon import Conversion, Lexicon, load_embedded, load_lexicon, root_scale
from units.nouns import (
    WRITTEN_CONTEXT_LIMIT,
    SurfaceIndex,
    ambiguous_pairs,
    declaration_hint,
    lemma_id,
    near_misses,
    noun_forms,
    noun_lemmas,
    possible_singulars,
    surface_items,
    written_near_miss,
)
from units.reasons import UnitReason

MAX_SURFACE_CHARS: Final[int] = 128
"""Longest unit text accepted (``input_too_large`` beyond)."""

PER: Final[str] = "_per_"
"""Separator of composite unit ids: ``dollars_per_hour`` (ADR-0134)."""
_PER_WORD: Final[str] = "per"
"""No declared lemma has this word (``coin_per``, ``per_bag``): a composite's lemma ``X_per_Y`` must split one way only."""

_DECLARED_SURFACE: Final = re.compile(r"[A-Za-z][A-Za-z'\-]*(?: [A-Za-z][A-Za-z'\-]*)*")
_LEMMA_ID: Final = re.compile(r"[a-z][a-z0-9_]*")
_CALENDAR: Final = "calendar"
_COUNT: Final = COUNT

_MAX_NOUN_CHARS: Final[int] = 64
"""Longest declared count-noun surface or lemma (``malformed_input`` beyond; the lexicon's own names are shorter)."""

_MAX_COUNT_NOUNS: Final[int] = 10_000
"""Most count nouns one declaration may carry (SPEC §8 bounds: ``input_too_large`` beyond)."""

_REPR_COUNT_NOUNS: Final[int] = 5
"""Declared count nouns a vocabulary's ``repr`` lists before ``+N`` for the rest."""


@dataclass(frozen=True, slots=True, kw_only=True)
class UnitRef:
    """A surface resolved against the lexicon.

    Attributes:
        surface: exactly as written in the input: ``"feet"``.
        lemma: the lexicon headword: ``"foot"``; ``"dollar_per_hour"`` for a composite.
        dimension: projection onto the six base dimensions (a 6-tuple of int exponents).
        unit: the ``pint.Unit`` from :attr:`UnitVocabulary.registry`.
        kind: the registry dimensionality as sorted ``(dimension, power)`` pairs; two
            units are commensurable iff their kinds are equal (SPEC §3: currencies,
            count kinds, containers and the unscaled degree are kinds of their own).
        scale: exact factor from this unit to the kind's reference unit.
        is_offset: an absolute temperature with an offset (Celsius, Fahrenheit).
        is_calendar: month, year, decade, century or millennium (or a composite of one).
        declarations: the caller declarations this resolution relies on
            (``"count_noun:apples=apple"``, ``"convention:year=365 day"``, ``"divisible:pie"``).
        divisible: a count kind declared divisible (pie, cake, bag of flour): its amounts may
            be exact fractions (3/4 of a pie), never negative.
        per: for a composite ``X_per_Y`` resolved from its two sides, the units ``(X, Y)``;
            ``None`` for a lexicon entry.  A side may itself be a rate, so the composite's
            lemma alone does not say where it splits: ``mph_per_hours`` is ``mile_per_hour``
            per ``hour`` (lemma ``mile_per_hour_per_hour``), not miles per hour-per-hour.
            A composite over a pure number (``dollars_per_%``) is refused.
    """

    surface: str
    lemma: str
    dimension: DimensionVector
    unit: pint.Unit = field(repr=False, compare=False)
    kind: tuple[tuple[str, int], ...] = field(repr=False)
    scale: Fraction = field(repr=False)
    is_offset: bool = field(default=False, repr=False)
    is_calendar: bool = field(default=False, repr=False)
    declarations: tuple[str, ...] = field(default=(), repr=False)
    divisible: bool = field(default=False, repr=False)
    per: tuple[UnitRef, UnitRef] | None = field(default=None, repr=False, compare=False)

    @property
    def quantity_kind(self) -> tuple[tuple[str, int], ...]:
        """:attr:`kind` with calendar time counted as time: units of one quantity.

        Years and days measure one quantity although only a declared convention converts
        them, so a holding in years and one in days are one state (an entity's state is
        keyed by quantity, SPEC §4); converting between them still needs the convention.
        """
        if not self.is_calendar:
            return self.kind
        merged: dict[str, int] = {}
        for name, power in self.kind:
            key = "[time]" if name == f"[{_CALENDAR}]" else name
            merged[key] = merged.get(key, 0) + power
        return tuple(sorted((k, p) for k, p in merged.items() if p))

    @property
    def is_fixed_multiple(self) -> bool:
        """Whether this is a count unit that is a fixed number of its kind's reference unit (``dozen``: 12 items)."""
        return self.dimension == COUNT and self.scale != 1

    def to_json(self) -> dict[str, object]:
        """``{"surface", "lemma", "dimension"}``; the pint unit is stored as its lemma."""
        return {"surface": self.surface, "lemma": self.lemma, "dimension": self.dimension.to_canonical_string()}


@dataclass(frozen=True, slots=True)
class _Parts:
    lexicon: Lexicon
    conversions: Mapping[str, Conversion]
    count_nouns: tuple[tuple[str, str], ...]
    conventions: tuple[tuple[str, str], ...]
    divisible: frozenset[str] = frozenset()
    indivisible: frozenset[str] = frozenset()  # lemmas declared "divisible": false, so never divisible later


def _divisible_specs(nouns: Mapping[object, object]) -> tuple[dict[object, object], set[str], set[object]]:
    """Split ``surface -> lemma | {"lemma": ..., "divisible": bool}`` into plain lemmas and flags.

    Returns ``(surface -> lemma, divisible lemmas, surfaces whose spec says "divisible": False)``.

    Raises:
        UnitRefusal: ``malformed_input`` for a spec with other keys, no string lemma, or a
            ``divisible`` that is not a bool.
    """
    plain: dict[object, object] = {}
    divisible: set[str] = set()
    whole: set[object] = set()
    for surface, value in nouns.items():
        if not isinstance(value, Mapping):
            plain[surface] = value
            continue
        path = f"count_nouns[{surface!r}]"
        keys = set(value)
        if not keys <= {"lemma", "divisible"} or "lemma" not in keys:
            raise UnitRefusal(
                "malformed_input", "a noun's spec is {'lemma': str, 'divisible': bool}", sorted(map(str, keys)), path
            )
        lemma, flag = value["lemma"], value.get("divisible", False)
        if not isinstance(lemma, str) or not isinstance(flag, bool):
            raise UnitRefusal("malformed_input", "lemma must be a string and divisible a bool", (lemma, flag), path)
        plain[surface] = lemma
        if flag:
            divisible.add(lemma)
        else:
            whole.add(surface)
    return plain, divisible, whole


def _noun_specs(nouns: Mapping[str, str] | Iterable[str]) -> Mapping[Any, object]:
    """A count-noun declaration as ``surface -> spec``: a mapping as given, surfaces with their derived lemmas.

    Raises:
        UnitRefusal: ``malformed_input`` for a lone string or another non-collection, or a
            surface that is not a count noun's text; ``input_too_large`` beyond
            :data:`_MAX_COUNT_NOUNS`.
    """
    given: object = nouns  # typed, but an untyped caller may pass anything
    if isinstance(given, (str, bytes)) or not isinstance(given, (Mapping, Iterable)):
        one = " (not one string)" if isinstance(given, (str, bytes)) else ""
        raise UnitRefusal(
            "malformed_input",
            f"count nouns must be a mapping surface -> lemma or a collection of surfaces{one}",
            type(nouns).__name__,
        )
    # a mapping's keys and values are whatever the caller passed: each is checked where it is read
    specs: Mapping[Any, object] = nouns if isinstance(nouns, Mapping) else _nouns_from_surfaces(nouns)
    if len(specs) > _MAX_COUNT_NOUNS:
        raise UnitRefusal("input_too_large", "more than 10,000 count nouns", len(specs))
    return specs


def _surface_strings(surfaces: object, name: str) -> list[str]:
    """The strings of a collection of unit surfaces (other items left out), for :meth:`UnitVocabulary.with_auto_count_nouns`.

    Raises:
        UnitRefusal: ``malformed_input`` as :func:`units.nouns.surface_items`.
    """
    return [s for s in surface_items(surfaces, name) if isinstance(s, str)]


def _nouns_from_surfaces(nouns: Iterable[str]) -> dict[str, str]:
    """Surfaces as a reader wrote them, each with its lemma (:func:`units.nouns.noun_lemmas`).

    Beyond :data:`_MAX_COUNT_NOUNS` surfaces (duplicates counted) is ``input_too_large``.

    Raises:
        UnitRefusal: ``malformed_input`` for a surface that is not a string or not a count noun's text.
    """
    surfaces = list(itertools.islice(nouns, _MAX_COUNT_NOUNS + 1))
    for surface in surfaces:
        if not isinstance(surface, str):
            raise UnitRefusal("malformed_input", "a count noun must be a string", surface, "count_nouns")
        if len(surface) > _MAX_NOUN_CHARS or not _DECLARED_SURFACE.fullmatch(surface):
            raise UnitRefusal(
                "malformed_input",
                "a count noun is letters, apostrophes, hyphens and single spaces (at most 64)",
                surface,
                "count_nouns",
            )
    if len(surfaces) > _MAX_COUNT_NOUNS:
        raise UnitRefusal("input_too_large", "more than 10,000 count nouns", f"{_MAX_COUNT_NOUNS + 1}+", "count_nouns")
    return noun_lemmas(surfaces)


MAX_AUTO_NOUNS: Final[int] = 64
"""The most nouns one input may have declared automatically: the near-miss check compares every pair of them, and
a word problem has a handful (a bad-input trial's 1,000 distinct nouns had taken four minutes)."""

_NAMED_MISSES: Final[int] = 3
"""How many further near misses a refusal of automatic declaration names."""


def _check_derived_pairs(
    declared: Mapping[str, str], *, derived: set[object], reason: UnitReason = "malformed_input"
) -> None:
    """Refuse derived lemmas that split two surfaces which may be one noun (:func:`units.nouns.ambiguous_pairs`).

    ``lens`` and ``lenses`` are one noun and ``laps`` and ``lapses`` two, and spelling
    cannot tell them apart; so are ``indices`` and ``indexes``, or ``fireman`` declared
    before ``firemen``.  As two kinds, a total of one would leave the other out.  A pair
    that a mapping declared, or that the derivation put onto one lemma, passes.

    Raises:
        UnitRefusal: ``reason`` naming the pair and the mapping that makes them one noun,
            when either was derived now.
    """
    for first, second in ambiguous_pairs(declared):
        if first in derived or second in derived:
            common = possible_singulars(first) & possible_singulars(second)
            lemma = lemma_id(min(common, key=lambda word: (len(word), word)))
            raise UnitRefusal(
                reason,
                f"{first!r} and {second!r} may be one noun (a lens, two lenses) or two (laps, lapses): declare"
                f" their lemmas ({{{first!r}: {lemma!r}, {second!r}: {lemma!r}}} makes them one noun)",
                (first, second),
                "count_nouns",
            )


class UnitVocabulary:
    """The closed ``en_units_v1`` vocabulary and its restricted pint registry.

    Immutable: :meth:`with_count_nouns` and :meth:`with_conventions` return new
    vocabularies.  Surfaces are matched exactly as the lexicon writes them (no
    case folding, no plural guessing); pint only ever sees lemma names.

    Build one with :func:`default_vocabulary` (the embedded pack, cached) or
    :meth:`from_lexicon` (a pack on disk).
    """

    __slots__ = (
        "__weakref__",
        "_axis",
        "_by_lemma",
        "_by_surface",
        "_composites",
        "_defined",
        "_derived",
        "_facts",
        "_lock",
        "_near_index",
        "_non_units",
        "_noun_base",
        "_parts",
        "_registry",
    )

    def __init__(self, parts: _Parts) -> None:
        """Build the registry and resolve every lexicon surface eagerly (private: use the factories)."""
        self._parts = parts
        self._lock = threading.Lock()
        self._derived: dict[tuple[tuple[tuple[str, str], ...], tuple[str, ...], tuple[str, ...]], UnitVocabulary] = {}
        self._noun_base: UnitVocabulary | None = None
        self._facts: dict[str, UnitRef] = {}  # lemma -> its unit's facts (a lexicon lists several surfaces per lemma)
        self._near_index: SurfaceIndex | None = None  # built on the first automatic declaration (_surface_index)
        self._defined: set[str] = set(parts.conversions)  # unit names defined in this vocabulary's registry
        _check_definitions(parts.conversions)
        try:
            self._registry = build_registry(parts.conversions)
        except (pint.errors.PintError, ValueError, TypeError, KeyError, AttributeError) as exc:
            # pint's own errors (a definition it cannot take) and the builtin ones its internals raise:
            # a definition the registry cannot read is our input error, never an untranslated pint error
            raise UnitRefusal(
                "malformed_input", f"the registry cannot define these units: {exc}", "conversions"
            ) from None
        self._axis: dict[str, str] = {
            f"[{c.base_dimension}]": c.axis or "" for c in parts.conversions.values() if c.base_dimension
        }
        self._by_lemma: dict[str, UnitRef] = {}
        self._by_surface: dict[str, UnitRef] = {}
        self._non_units: dict[str, str] = {}
        self._composites: dict[str, UnitRef] = {}  # a cache of resolved X_per_Y ids, not part of the vocabulary
        declared = dict(parts.count_nouns)
        for surface, entry in parts.lexicon.surfaces():
            if entry.role in ("dimension_name", "connector"):
                self._non_units[surface] = entry.role
                continue
            self._by_surface[surface] = self._ref(surface, entry.lemma, ())
        notes: dict[str, tuple[str, ...]] = {}
        for surface, lemma in declared.items():
            if lemma not in parts.lexicon.conversions:  # a lemma that exists only by declaration
                notes[lemma] = (*notes.get(lemma, ()), f"count_noun:{surface}={lemma}")
        for lemma in parts.conversions:
            if lemma not in self._by_lemma:
                self._by_lemma[lemma] = self._ref(lemma, lemma, notes.get(lemma, ()))
        for surface, lemma in declared.items():
            note = (f"count_noun:{surface}={lemma}",)
            self._by_surface[surface] = self._ref(surface, lemma, note)
        self._mark_divisible()
        self._self_check()

    def _mark_divisible(self) -> None:
        """Flag every unit of a lemma declared divisible, and record the declaration on it."""
        for lemma in sorted(self._parts.divisible):
            note = f"divisible:{lemma}"
            for table in (self._by_lemma, self._by_surface):
                for name, ref in table.items():
                    if ref.lemma == lemma and note not in ref.declarations:
                        table[name] = dataclasses.replace(
                            ref, divisible=True, declarations=(*ref.declarations, f"divisible:{lemma}")
                        )

    # ----------------------------------------------------------------- building

    def _ref(self, surface: str, lemma: str, declarations: tuple[str, ...]) -> UnitRef:
        """``surface`` as a unit of ``lemma``; the registry is asked once per lemma, not once per surface."""
        facts = self._facts.get(lemma)
        if facts is None:
            facts = self._facts[lemma] = self._make_ref(lemma, lemma, self._unit(lemma), ())
        if surface == facts.surface and not declarations:
            return facts
        return dataclasses.replace(facts, surface=surface, declarations=(*declarations, *facts.declarations))

    def _unit(self, lemma: str) -> pint.Unit:
        """The registry's unit of a lemma; a base lemma's is built from its name, not parsed (a declared noun's too)."""
        conv = self._parts.conversions.get(lemma)
        if conv is not None and conv.base_dimension is not None and lemma in self._defined:
            return self._registry.Unit(UnitsContainer({lemma: 1}, non_int_type=Fraction))
        return self._registry.Unit(lemma)

    def _make_ref(self, surface: str, lemma: str, unit: pint.Unit, declarations: tuple[str, ...]) -> UnitRef:
        conv = self._parts.conversions.get(lemma)
        if conv is not None and conv.base_dimension is not None and not conv.offset:
            kind: tuple[tuple[str, int], ...] = ((f"[{conv.base_dimension}]", 1),)  # a base unit: its own dimension
        else:
            kind = tuple(sorted((str(name), _int_power(power)) for name, power in unit.dimensionality.items()))
        axes: dict[str, int] = {}
        for name, power in kind:
            axis = self._axis[name]
            axes[axis] = axes.get(axis, 0) + power
        is_offset = bool(conv is not None and conv.offset)
        if is_offset or (conv is not None and conv.base_dimension is not None):
            scale = Fraction(1)  # a base unit is its kind's reference unit
        else:
            magnitude = self._registry.Quantity(Fraction(1), unit).to_root_units().magnitude
            scale = _checked_fraction(magnitude, lemma)
        calendar = any(name == f"[{_CALENDAR}]" for name, _ in kind)
        conventions = tuple(f"convention:{k}={v}" for k, v in self._parts.conventions)
        if conventions and _touches_calendar(lemma, self._parts.conversions):
            calendar = True
            declarations = (*declarations, *conventions)
        return UnitRef(
            surface=surface,
            lemma=lemma,
            dimension=DimensionVector.from_axes(axes),
            unit=unit,
            kind=kind,
            scale=scale,
            is_offset=is_offset,
            is_calendar=calendar,
            declarations=declarations,
        )

    def _self_check(self) -> None:
        """Compare every registry scale with a direct Fraction computation (SPEC §11)."""
        conversions = self._parts.conversions
        for lemma, ref in self._by_lemma.items():
            if ref.is_offset:
                continue
            expected, _ = root_scale(conversions, lemma)
            if ref.scale != expected:
                raise RuntimeError(f"registry self-check failed for {lemma}: {ref.scale} != {expected}")

    # ------------------------------------------------------------- factories

    @classmethod
    def from_lexicon(cls, path: str | Path, conversions: str | Path | None = None) -> UnitVocabulary:
        """Build a vocabulary from a lexicon on disk (ours or the upstream pack).

        Args:
            path: lexicon JSONL file or pack folder; see :func:`units.load_lexicon`.
            conversions: conversions JSONL file, or ``None`` to look beside the lexicon.

        Raises:
            UnitRefusal: see :func:`units.load_lexicon`.
        """
        lexicon = load_lexicon(path, conversions)
        return cls(_Parts(lexicon, lexicon.conversions, (), ()))

    @classmethod
    def from_loaded(cls, lexicon: Lexicon) -> UnitVocabulary:
        """Build a vocabulary from an already loaded :class:`~units.lexicon.Lexicon`."""
        return cls(_Parts(lexicon, lexicon.conversions, (), ()))

    def with_count_nouns(self, nouns: Mapping[str, str] | Iterable[str]) -> UnitVocabulary:
        """A new vocabulary in which the given count nouns resolve.

        Args:
            nouns: either surface → lemma, e.g. ``{"apples": "apple", "apple": "apple"}``,
                or an iterable of surfaces exactly as a reader wrote them
                (``["apples", "apple", "jumping jacks"]``), whose lemmas
                :func:`units.nouns.noun_lemmas` derives (a singular and its plural share
                one: ``apple``, ``jumping_jack``).  A surface is letters, apostrophes,
                hyphens and single spaces, capitals included.  A new lemma becomes a
                count kind of its own (apples never merge with oranges); an existing
                count lemma (``{"apples": "item"}``) maps the noun onto that kind.  A
                value may also be ``{"lemma": "pie", "divisible": True}``: the kind is
                then divisible, its amounts exact fractions (3/4 of a pie), never
                negative; a lexicon count surface may be declared divisible this way
                (``{"bags": {"lemma": "bag", "divisible": True}}``), a multiple (dozen)
                or a measure may not.  Proofs on a divisible unit list ``divisible:pie``.
                Every proof relying on one lists it (``count_noun:apples=apple``).
                Declaring performs no typo check; :meth:`with_auto_count_nouns` does.

        Raises:
            UnitRefusal: ``malformed_input`` for a lone string or another non-collection,
                a spec other than ``{"lemma": str, "divisible": bool}``,
                a surface already in the lexicon, a surface or lemma outside
                ``[A-Za-z' -]`` / ``[a-z0-9_]``, a lemma with the word ``per``, a lemma
                that names a non-count unit or a side of a lexicon rate (``cubic_foot``),
                or a surface that is another unit's lemma (``half``);
                ``input_too_large`` for over 10,000 nouns.
        """
        specs, divisible, whole = self._divisibility(_noun_specs(nouns))
        table = dict(self._parts.conversions)
        declared = dict(self._parts.count_nouns)
        new_lemmas = {lemma for _, lemma in self._parts.count_nouns}
        for raw_surface, raw_lemma in sorted(specs.items(), key=lambda kv: str(kv[0])):
            path = f"count_nouns[{raw_surface!r}]"
            if not isinstance(raw_surface, str) or not isinstance(raw_lemma, str):
                raise UnitRefusal(
                    "malformed_input", "surface and lemma must be strings", (raw_surface, raw_lemma), path
                )
            if self._declares(raw_surface, raw_lemma, path, divisible=divisible, declared=declared):
                self._declare_lemma(raw_surface, raw_lemma, path, table=table, new_lemmas=new_lemmas)
                declared[raw_surface] = raw_lemma
        if not isinstance(nouns, Mapping):
            _check_derived_pairs(declared, derived=set(specs))
        self._check_names_apart(declared)
        return self._with_declared(table, declared, divisible, whole)

    def _check_names_apart(self, declared: Mapping[str, str]) -> None:
        """Every name of the declaration means one unit, however it is looked up.

        A unit's lemma is looked up as a surface where a composite is built or split
        (``X_per_Y``), and surfaces are looked up first.  So a noun's surface may not be
        another unit's lemma (``half`` declared as items would make the lemma of ½ name
        items; ``apple`` declared as pears beside ``apples`` as ``apple`` would make the
        apples' lemma name pears), and a new lemma may not be a side of a lexicon rate
        (``cubic_foot``, a side of ``pound_per_cubic_foot``, would make counts of
        "cubic feet" the lexicon's volume).

        Raises:
            UnitRefusal: ``malformed_input`` naming the noun.
        """
        lemmas = set(self._by_lemma) | set(declared.values())
        rate_sides = {side for lemma in self._by_lemma if PER in lemma for side in lemma.split(PER)}
        for surface, lemma in sorted(declared.items()):
            path = f"count_nouns[{surface!r}]"
            if surface in lemmas and surface != lemma:
                raise UnitRefusal(
                    "malformed_input",
                    f"is the lemma of another unit, so it cannot name {lemma!r}: a lemma looked up as a unit would"
                    " find this noun",
                    surface,
                    path,
                )
            if lemma in rate_sides and lemma not in self._by_lemma:
                raise UnitRefusal(
                    "malformed_input",
                    f"is a side of a lexicon rate ({', '.join(sorted(x for x in self._by_lemma if lemma in x.split(PER)))}),"
                    " not a count kind; map the noun onto a lemma of its own",
                    lemma,
                    path,
                )

    def _divisibility(self, nouns: Mapping[object, object]) -> tuple[dict[object, object], set[str], set[str]]:
        """``(surface -> lemma, lemmas declared divisible, lemmas declared not divisible)`` of a declaration.

        Raises:
            UnitRefusal: ``malformed_input`` for a bad spec (:func:`_divisible_specs`), or a
                kind declared divisible and not divisible (here, or by this vocabulary before).
        """
        specs, divisible, specs_false = _divisible_specs(nouns)
        whole: set[str] = {lemma for surface in specs_false if isinstance(lemma := specs[surface], str)}
        clash = (divisible | self._parts.divisible) & (whole | self._parts.indivisible)
        if clash:
            raise UnitRefusal(
                "malformed_input",
                "declared both divisible and not divisible (one kind is one or the other)",
                sorted(clash),
                "count_nouns",
            )
        return specs, divisible, whole

    def _declares(
        self, surface: str, lemma: str, path: str, *, divisible: set[str], declared: Mapping[str, str]
    ) -> bool:
        """Whether ``surface`` -> ``lemma`` declares a noun (``False``: a lexicon container made divisible, or a repeat).

        Checks, in order: a lexicon container declared divisible under its own lemma; a
        divisible lemma of the lexicon under another name; the surface's and the lemma's
        spelling; a surface the vocabulary resolves already.

        Raises:
            UnitRefusal: ``malformed_input`` naming ``path``.
        """
        lexicon_surface = surface in self._by_surface and surface not in dict(self._parts.count_nouns)
        if lexicon_surface and lemma in divisible and self._by_surface[surface].lemma == lemma:
            self._divisible_kind(self._by_surface[surface], path)  # a lexicon container, declared divisible
            return False
        if lemma in divisible and lemma in self._parts.lexicon.conversions:
            raise UnitRefusal(
                "malformed_input",
                f"would make every {lemma!r} of the lexicon divisible through another name; declare a kind of"
                f" its own ({surface}={{'lemma': <new lemma>, 'divisible': True}}) or the container itself",
                lemma,
                path,
            )
        if len(surface) > _MAX_NOUN_CHARS or not _DECLARED_SURFACE.fullmatch(surface) or PER in surface:
            raise UnitRefusal(
                "malformed_input",
                "a count noun is letters, apostrophes, hyphens and single spaces (at most 64)",
                surface,
                path,
            )
        if not _LEMMA_ID.fullmatch(lemma) or len(lemma) > _MAX_NOUN_CHARS or _PER_WORD in lemma.split("_"):
            raise UnitRefusal(
                "malformed_input",
                "a lemma is lower-case letters, digits and '_', with no word 'per' (coin_per over bag and coin over"
                " per_bag would both be coin_per_per_bag)",
                lemma,
                path,
            )
        if surface in self._by_surface or surface in self._non_units:
            existing = self._by_surface[surface].lemma if surface in self._by_surface else self._non_units[surface]
            if declared.get(surface) == lemma:
                return False
            raise UnitRefusal(
                "malformed_input", f"already a lexicon surface (of {existing!r}); cannot redeclare", surface, path
            )
        return True

    def _declare_lemma(
        self, surface: str, lemma: str, path: str, *, table: dict[str, Conversion], new_lemmas: set[str]
    ) -> None:
        """Check the lemma a noun is declared as, and add a new one to ``table`` as a count kind of its own.

        An existing lemma must be a count kind itself (not a measure, nor a fixed multiple
        such as a dozen); a lexicon surface is not a lemma.

        Raises:
            UnitRefusal: ``malformed_input`` naming ``path``.
        """
        if lemma in table and lemma not in new_lemmas:
            ref = self._by_lemma.get(lemma)
            if ref is None or ref.dimension != _COUNT:
                raise UnitRefusal("malformed_input", "maps onto a lemma that is not a count kind", lemma, path)
            if ref.scale != 1:
                raise UnitRefusal(
                    "malformed_input",
                    f"maps onto a fixed multiple ({ref.scale} of its kind), not a kind; map onto the kind itself",
                    lemma,
                    path,
                )
        elif lemma not in new_lemmas and (lemma in self._by_surface or lemma in self._non_units):
            target = self._by_surface[lemma].lemma if lemma in self._by_surface else self._non_units[lemma]
            raise UnitRefusal(
                "malformed_input",
                f"is a lexicon surface (of {target!r}), not a new lemma; map onto the lemma {target!r}",
                lemma,
                path,
            )
        elif lemma not in table:
            table[lemma] = Conversion(
                lemma=lemma, base_dimension=lemma, axis="count", source=f"declared count noun {surface!r}"
            )
            new_lemmas.add(lemma)

    def declaration_hint(self, surface: str) -> str:
        """How to declare ``surface`` as a count noun of this vocabulary on the command line: ``--count-noun pens=pen``.

        The lemma is the one :func:`units.nouns.noun_lemmas` derives unless that lemma
        cannot be declared onto here (a lexicon unit that is no count kind: ``inchs``
        would map onto ``inch``, a length), when the noun is its own lemma
        (``--count-noun inchs=inchs``), or a surface of a count kind, when the noun is
        declared onto that kind's lemma (``peoples=person``): following the hint works.
        """
        lemma = noun_lemmas([surface])[surface]
        try:
            self._declare_lemma(surface, lemma, "", table=dict(self._parts.conversions), new_lemmas=set())
        except UnitRefusal:
            ref = self._by_surface.get(lemma)  # a surface of a count kind (people) is declared onto its lemma (person)
            lemma = ref.lemma if ref is not None and ref.dimension == _COUNT and ref.scale == 1 else surface
        return declaration_hint(surface, lemma=lemma)

    def _with_declared(
        self, table: dict[str, Conversion], declared: Mapping[str, str], divisible: set[str], whole: set[str]
    ) -> UnitVocabulary:
        """The vocabulary declaring ``declared`` over ``table``: a cached one, else a new derivation (:meth:`_derive`)."""
        key = tuple(sorted(declared.items()))
        divisible |= self._parts.divisible
        indivisible = frozenset(whole) | self._parts.indivisible
        cache_key = (key, tuple(sorted(divisible)), tuple(sorted(indivisible)))
        with self._lock:
            cached = self._derived.get(cache_key)
        if cached is not None:
            return cached
        _check_definitions(table)  # the checks a fresh build makes: no base-dimension or reserved names
        parts = _Parts(self._parts.lexicon, table, key, self._parts.conventions, frozenset(divisible), indivisible)
        derived = self._derive(parts, {s: lem for s, lem in key if (s, lem) not in self._parts.count_nouns})
        with self._lock:
            if len(self._derived) >= DERIVED_CACHE_SIZE:
                self._derived.clear()
            return self._derived.setdefault(cache_key, derived)

    def _divisible_kind(self, ref: UnitRef, path: str) -> None:
        """A lexicon unit may be declared divisible only when it is a container (bag, box), not item or person.

        Items have fixed multiples (dozen, pair, gross) and people do not divide; a
        container of unstated size is the lexicon's one count kind that may (SPEC §5).
        """
        if ref.dimension != _COUNT or ref.scale != 1:
            raise UnitRefusal(
                "malformed_input",
                "only a count kind can be declared divisible (not a multiple or a measure)",
                ref.lemma,
                path,
            )
        if not any(e.lemma == ref.lemma and e.role == "container" for e in self._parts.lexicon.entries):
            raise UnitRefusal(
                "malformed_input",
                "of the lexicon's count kinds only a container (bag, box, crate) can be declared divisible",
                ref.lemma,
                path,
            )

    @property
    def divisible(self) -> tuple[str, ...]:
        """Count lemmas declared divisible, sorted (their amounts may be exact fractions)."""
        return tuple(sorted(self._parts.divisible))

    def declarations(self) -> dict[str, dict[str, object]]:
        """The caller declarations over the lexicon, as a record's ``vocab`` writes them (JSON-ready).

        ``{"count_nouns": {surface: lemma | {"lemma", "divisible": True}}, "conventions":
        {lemma: amount}}``: applying it to :func:`default_vocabulary` (as
        ``adapters.records.vocabulary_for`` does) rebuilds this vocabulary's declarations,
        divisible lexicon containers included (under their lemma).
        """
        nouns: dict[str, object] = {}
        for surface, lemma in self._parts.count_nouns:
            if lemma in self._parts.divisible or lemma in self._parts.indivisible:
                nouns[surface] = {"lemma": lemma, "divisible": lemma in self._parts.divisible}
            else:
                nouns[surface] = lemma
        declared = {lemma for _, lemma in self._parts.count_nouns}
        for lemma in sorted(self._parts.divisible - declared):
            nouns[lemma] = {"lemma": lemma, "divisible": True}
        return {"count_nouns": nouns, "conventions": dict(self._parts.conventions)}

    def same_unit(self, a: str | None, b: str | None) -> bool:
        """Whether two unit surfaces name one unit: equal, or two surfaces of one lemma (``inch``/``inches``).

        ``None`` (a pure number) is the same only as ``None``; a surface that does not
        resolve is the same only as itself.  Commensurable units (``foot``/``inch``) are
        *not* the same unit: an answer in inches is not one in feet.
        """
        if a == b:
            return True
        if a is None or b is None:
            return False
        try:
            return self.resolve(a).lemma == self.resolve(b).lemma
        except UnitRefusal:
            return False

    def declarable_nouns(self, surfaces: Iterable[object]) -> tuple[str, ...]:
        """The surfaces, in order and once each, that do not resolve but could be declared count nouns.

        A surface qualifies when :meth:`resolve` refuses it ``unknown_unit``, it is
        shaped as a count noun (letters, apostrophes, hyphens, single spaces; at most
        64), and it is no reserved word (a rate connector or dimension name).  Each side
        of a composite ``apples_per_box`` is looked at on its own.  Anything else (a
        resolving unit, a malformed text) is left out, for binding to report.
        """
        out: dict[str, None] = {}
        for surface in surfaces:
            if not isinstance(surface, str):
                continue
            parts = surface.split(PER) if surface.count(PER) == 1 else [surface]
            for part in parts:
                if part in self._by_surface or part in self._by_lemma or part in self._non_units:
                    continue
                if len(part) <= _MAX_NOUN_CHARS and _DECLARED_SURFACE.fullmatch(part):
                    out[part] = None
        return tuple(out)

    def with_auto_count_nouns(self, surfaces: Iterable[object], *, context: Sequence[str] = ()) -> UnitVocabulary:
        """A new vocabulary declaring every declarable surface as a count noun, refusing near misses.

        The automatic mode of SPEC §5 ("Count nouns"): :meth:`declarable_nouns` picks the
        surfaces, :meth:`with_count_nouns` declares them (a singular and its plural as one
        kind), and no typo becomes a new kind: a near miss of a lexicon surface or of
        another surface of the same input (:func:`units.nouns.near_misses`) is refused.
        A surface that is a spelling of a noun declared before (``Apples`` after
        ``apples=fruit``) joins that noun's kind.

        Args:
            surfaces: the unit surfaces an input uses, as written (resolving ones are skipped).
            context: every unit surface of the same input, for the near-miss check
                (default: ``surfaces``).

        Returns:
            The derived vocabulary (``self`` when nothing needs declaring).

        Items that are not strings are left out of both, as :meth:`declarable_nouns` leaves
        them (binding reports a malformed unit).

        Raises:
            UnitRefusal: ``malformed_input`` when ``surfaces`` or ``context`` is one string
                or no collection (a string would be read letter by letter); ``unknown_unit``
                naming the first near miss, with "did you mean" (and the others), or a
                pair that may be one noun (:func:`units.nouns.ambiguous_pairs`);
                ``input_too_large`` for more than :data:`MAX_AUTO_NOUNS` nouns to
                declare; as :meth:`with_count_nouns` otherwise.
        """
        given = _surface_strings(surfaces, "surfaces")
        context = _surface_strings(context, "context")
        nouns = self.declarable_nouns(given)
        if not nouns:
            return self
        if len(nouns) > MAX_AUTO_NOUNS:  # the near-miss check compares every pair
            raise UnitRefusal(
                "input_too_large",
                f"more than {MAX_AUTO_NOUNS} nouns to declare automatically in one input; declare them explicitly",
                len(nouns),
                "count_nouns",
            )
        declared: dict[str, str] = {}  # a spelling of a noun declared before -> its lemma
        for surface, lemma in self._parts.count_nouns:
            for form in noun_forms(surface):
                declared.setdefault(form, lemma)
        mapped = {
            n: lemmas.pop() for n in nouns if len(lemmas := {declared[f] for f in noun_forms(n) if f in declared}) == 1
        }
        fresh = [n for n in nouns if n not in mapped]
        in_use: set[tuple[tuple[str, int], ...]] = set()
        for surface in context or given:
            try:
                in_use.add(self.resolve(surface).kind)
            except UnitRefusal:
                continue
        misses = near_misses(fresh, self._surface_index(), context or given, kinds_in_use=in_use)
        if misses:
            written = [*given, *context]  # of two nouns that miss each other, the rarer is named the typo
            noun, hit = min(misses, key=lambda miss: written.count(miss[0]))
            others = [f"{other!r} beside {near!r}" for other, near in misses if {other, near} != {noun, hit}]
            named = ", ".join(others[:_NAMED_MISSES]) + (", ..." if len(others) > _NAMED_MISSES else "")
            more = f" (near misses too: {named})" if others else ""
            raise UnitRefusal(
                "unknown_unit",
                f"not declared automatically: a near miss of {hit!r} (another spelling, or a likely typo of it);"
                f" did you mean {hit!r}?{more} Declare it explicitly ({self.declaration_hint(noun)}) if it is a noun of"
                " its own.",
                noun,
            )
        declaring = {**noun_lemmas(fresh), **mapped}
        _check_derived_pairs({**dict(self._parts.count_nouns), **declaring}, derived=set(fresh), reason="unknown_unit")
        return self.with_count_nouns(declaring)

    def _surface_index(self) -> SurfaceIndex:
        """This vocabulary's surfaces indexed by kind for :func:`units.nouns.near_misses`, built once (it never changes)."""
        index = self._near_index
        if index is None:
            by_surface = self._by_surface
            index = SurfaceIndex(by_surface, kind=lambda surface: by_surface[surface].kind)
            self._near_index = index  # two threads may both build it: they build the same index
        return index

    def _derive(self, parts: _Parts, added: Mapping[str, str]) -> UnitVocabulary:
        """A vocabulary of ``parts`` that adds the count nouns ``added`` to this one, without a registry rebuild.

        Every vocabulary derived from one base shares one *noun registry*: a registry of
        the base's own definitions, built once, into which each derivation defines its
        new count lemmas as base units of their own (pint sees only lemma names, and a
        lemma defined there for one vocabulary resolves in no other, since resolution
        goes through each vocabulary's own tables).  The base's units, resolved against
        that registry once, are reused; only the new nouns are resolved.
        """
        base = self._noun_base_vocabulary()
        out = object.__new__(UnitVocabulary)
        out._copy_tables(self, base, parts)
        out._add_count_nouns(self, base, added)
        return out

    def _copy_tables(self, source: UnitVocabulary, base: UnitVocabulary, parts: _Parts) -> None:
        """Start a derived vocabulary (for :meth:`_derive`): ``source``'s tables over ``parts``, in ``base``'s registry.

        The registry and its set of defined names are ``base``'s own objects, shared; the
        tables are copies, so a derivation never changes ``source``.  Every unit in a
        vocabulary's tables comes from that vocabulary's registry, so when ``source``'s
        registry is not ``base``'s (``source`` was built, not derived), the tables take
        ``base``'s units of the same names.
        """
        self._parts = parts
        self._lock = threading.Lock()
        self._derived = {}
        self._facts = {}
        self._near_index = None
        self._noun_base = base
        self._defined = base._defined
        self._registry = base._registry
        self._axis = dict(source._axis)
        self._non_units = source._non_units
        self._composites = {}
        self._by_lemma = dict(source._by_lemma)
        self._by_surface = dict(source._by_surface)
        if source._registry is not base._registry:
            for table, shared in ((self._by_lemma, base._by_lemma), (self._by_surface, base._by_surface)):
                for name in table:
                    if name in shared:
                        table[name] = shared[name]

    def _add_count_nouns(self, source: UnitVocabulary, base: UnitVocabulary, added: Mapping[str, str]) -> None:
        """Finish a derived vocabulary (for :meth:`_derive`): resolve the nouns ``added`` to ``source``.

        A new count lemma is defined in the shared registry once (under ``base``'s lock,
        which guards it), then resolved here; each added surface is its lemma's unit under
        its own name.
        """
        parts = self._parts
        with base._lock:
            for lemma in sorted(set(added.values())):
                conv = parts.conversions[lemma]
                if conv.base_dimension is None or lemma in source._by_lemma:
                    continue
                if lemma not in base._defined:  # an exact name: pint's `in` would also accept a plural
                    define_base_unit(base._registry, lemma, conv.base_dimension)
                    base._defined.add(lemma)
                self._axis[f"[{conv.base_dimension}]"] = conv.axis or ""
            notes: dict[str, tuple[str, ...]] = {}
            for surface, lemma in parts.count_nouns:
                if lemma not in parts.lexicon.conversions:
                    notes[lemma] = (*notes.get(lemma, ()), f"count_noun:{surface}={lemma}")
            for lemma in dict.fromkeys(added.values()):
                if lemma not in source._by_lemma or lemma in notes:
                    self._by_lemma[lemma] = self._ref(lemma, lemma, notes.get(lemma, ()))
        for surface, lemma in added.items():  # a declared surface is its lemma's unit, under its own name
            self._by_surface[surface] = dataclasses.replace(
                self._by_lemma[lemma], surface=surface, declarations=(f"count_noun:{surface}={lemma}",)
            )
        self._mark_divisible()

    def _noun_base_vocabulary(self) -> UnitVocabulary:
        """The vocabulary whose registry this one's derivations share (built once, from this one's parts)."""
        if self._noun_base is not None:
            return self._noun_base
        with self._lock:
            if self._noun_base is None:
                base = UnitVocabulary(self._parts)
                base._noun_base = base
                self._noun_base = base
            return self._noun_base

    def with_conventions(self, conventions: Mapping[str, str]) -> UnitVocabulary:
        """A new vocabulary in which calendar units convert to days and weeks.

        Args:
            conventions: one calendar lemma or surface → an exact amount of a fixed
                time unit, e.g. ``{"year": "365 day"}``, ``{"year": "52 week"}`` or
                ``{"month": "30 day"}``.  Calendar units keep their exact ratios to each
                other (12 months a year …), so one anchor fixes them all.

        Raises:
            UnitRefusal: ``malformed_input`` for a non-mapping, more than one anchor, a
                key that is not a calendar unit, or an amount that is not
                ``"<exact number> <fixed time unit>"`` with a positive number.
        """
        if not isinstance(conventions, Mapping):
            raise UnitRefusal(
                "malformed_input", "conventions must be a mapping, e.g. {'year': '365 day'}", type(conventions).__name__
            )
        if len(conventions) != 1:
            raise UnitRefusal(
                "malformed_input",
                "declare exactly one calendar anchor (it fixes every calendar unit)",
                sorted(map(str, conventions)),
            )
        if self._parts.conventions:
            raise UnitRefusal("malformed_input", "this vocabulary already has a convention", self._parts.conventions)
        ((key, amount_text),) = conventions.items()
        path = f"conventions[{key!r}]"
        pair: tuple[object, object] = (key, amount_text)  # typed str, but an untyped caller may pass anything
        if not isinstance(pair[0], str) or not isinstance(pair[1], str):
            raise UnitRefusal("malformed_input", "key and amount must be strings", (key, amount_text), path)
        anchor = self._convention_unit(
            key, path, "a convention anchors a calendar unit: month, year, decade, century or millennium"
        )
        if not anchor.is_calendar or PER in anchor.lemma:
            raise UnitRefusal(
                "malformed_input",
                "a convention anchors a calendar unit (month, year, decade, century, millennium)",
                key,
                path,
            )
        number, _, unit_text = amount_text.partition(" ")
        amount = parse_exact(number, path=path)
        if amount <= 0 or not unit_text:
            raise UnitRefusal(
                "malformed_input", "expected '<positive exact number> <time unit>', e.g. '365 day'", amount_text, path
            )
        target = self._convention_unit(unit_text, path, "the amount is in a fixed time unit, second to week")
        if target.is_calendar or target.dimension != DimensionVector.from_axes({"time": 1}) or PER in target.lemma:
            raise UnitRefusal(
                "malformed_input", "the amount must be in a fixed time unit (second … week)", unit_text, path
            )
        source = f"declared convention: 1 {anchor.lemma} = {amount_text}"
        table = apply_calendar_convention(self._parts.conversions, anchor.lemma, amount, target.lemma, source)
        return UnitVocabulary(
            _Parts(
                self._parts.lexicon,
                table,
                self._parts.count_nouns,
                ((anchor.lemma, amount_text),),
                self._parts.divisible,
                self._parts.indivisible,
            )
        )

    # ----------------------------------------------------------------- queries

    @property
    def registry(self) -> pint.UnitRegistry[Fraction]:
        """The restricted ``pint.UnitRegistry`` (built from the lexicon only, ``Fraction`` numbers)."""
        return self._registry

    @property
    def lexicon(self) -> Lexicon:
        """The lexicon this vocabulary was built from."""
        return self._parts.lexicon

    @property
    def count_nouns(self) -> tuple[tuple[str, str], ...]:
        """Declared count nouns as sorted ``(surface, lemma)`` pairs."""
        return self._parts.count_nouns

    @property
    def conventions(self) -> tuple[tuple[str, str], ...]:
        """Declared calendar conventions as ``(lemma, amount)`` pairs."""
        return self._parts.conventions

    def surfaces(self) -> tuple[str, ...]:
        """Every surface that resolves to a unit, in lexicon order, then declared nouns."""
        return tuple(self._by_surface)

    def resolve(self, surface: object, *, path: str = "", context: Iterable[object] = ()) -> UnitRef:
        """Resolve a unit surface, lemma or ``X_per_Y`` composite id.

        Args:
            surface: text exactly as written: ``"feet"``, ``"ft"``, ``"square_foot"``,
                ``"dollars_per_hour"``.  Case and spelling must match the lexicon.
            path: where the text sits in the input, for the error message.
            context: the other unit surfaces of the same input, read only to word an
                ``unknown_unit`` refusal: a near miss of one of them
                (:func:`units.nouns.written_near_miss`: ``aples`` beside ``apples``) is
                named as a likely typo, with no advice to declare it as a count noun
                (which would make the typo a kind of its own).  It is read when the
                message is, and only its first
                :data:`units.nouns.WRITTEN_CONTEXT_LIMIT` surfaces, so a caller may pass
                a generator over a graph of any size.

        Returns:
            The :class:`UnitRef`; ``resolve("t").lemma == "ton"``.

        Raises:
            UnitRefusal: ``malformed_input`` for a non-string or empty text;
                ``input_too_large`` beyond :data:`MAX_SURFACE_CHARS`; ``unknown_unit``
                for anything outside the lexicon (made-up plurals such as ``feets``,
                rate connectors such as ``per``, dimension names such as ``length``);
                ``offset_unit_arithmetic`` for a composite over an absolute temperature.
        """
        ref = self._by_surface.get(surface) if isinstance(surface, str) else None  # warm path
        if ref is not None:
            return ref
        if not isinstance(surface, str):
            raise UnitRefusal(
                "malformed_input", f"a unit must be a string, found {type(surface).__name__}", surface, path
            )
        if not surface:
            raise UnitRefusal("malformed_input", "empty unit", surface, path)
        if len(surface) > MAX_SURFACE_CHARS:
            raise UnitRefusal("input_too_large", f"unit text longer than {MAX_SURFACE_CHARS} characters", surface, path)
        ref = self._by_lemma.get(surface) or self._composites.get(surface)
        if ref is not None:
            return ref
        if surface.count(PER) == 1:
            return self._composite(surface, path, context)
        raise self._unknown(surface, path, context)

    def _composite(self, surface: str, path: str, context: Iterable[object] = ()) -> UnitRef:
        with self._lock:
            cached = self._composites.get(surface)
            if cached is not None:
                return cached
            head, _, tail = surface.partition(PER)
            num = self.resolve(head, path=path, context=context)
            den = self.resolve(tail, path=path, context=context)
            if num.is_offset or den.is_offset:
                raise UnitRefusal(
                    "offset_unit_arithmetic", "a rate over an absolute temperature has no scale", surface, path
                )
            if den.kind == ():  # dollars per percent: 100 dollars, or a rate per percent point?
                raise UnitRefusal(
                    "malformed_input",
                    f"a unit over a pure number ({den.lemma}) reads as {num.lemma} scaled or as a rate per"
                    f" {den.lemma}; write the amount, or the rate over a unit",
                    surface,
                    path,
                )
            lemma = f"{num.lemma}{PER}{den.lemma}"
            known = self._by_lemma.get(lemma)
            declarations = tuple(dict.fromkeys((*num.declarations, *den.declarations)))
            if known is not None:  # a composite the lexicon lists: its facts, under this surface
                ref = dataclasses.replace(
                    known, surface=surface, is_offset=False, declarations=declarations, divisible=False, per=(num, den)
                )
            else:
                made = self._make_ref(surface, lemma, num.unit / den.unit, ())
                ref = dataclasses.replace(
                    made,
                    dimension=num.dimension / den.dimension,
                    is_offset=False,
                    is_calendar=num.is_calendar or den.is_calendar,
                    declarations=declarations,
                    divisible=False,
                    per=(num, den),
                )
            self._composites[surface] = ref
            return ref

    def _resolves(self, surface: str) -> bool:
        """Whether ``surface`` resolves (read only to word a refusal)."""
        try:
            self.resolve(surface)
        except UnitRefusal:
            return False
        return True

    def _near_surface(self, surface: str) -> str | None:
        """The vocabulary's surface closest to an unknown one (difflib, ratio >= 0.75), for a "did you mean"."""
        hint = difflib.get_close_matches(surface, self._by_surface, n=1, cutoff=0.75)
        return hint[0] if hint else None

    def _convention_unit(self, surface: str, path: str, takes: str) -> UnitRef:
        """A convention's unit, resolved; an unknown one is refused saying what a convention takes.

        The general ``unknown_unit`` message offers a count-noun declaration, which cannot
        make a calendar anchor or a time unit.

        Raises:
            UnitRefusal: ``unknown_unit`` naming ``surface`` and what the convention takes;
                the other reasons of :meth:`resolve` as they are.
        """
        try:
            return self.resolve(surface, path=path)
        except UnitRefusal as exc:
            if exc.reason != "unknown_unit":
                raise
            hint = self._near_surface(surface)
            near = f" (did you mean {hint!r}?)" if hint else ""
            raise UnitRefusal("unknown_unit", f"not in en_units_v1{near}; {takes}", surface, path) from None

    def _unknown(self, surface: str, path: str, context: Iterable[object] = ()) -> UnitRefusal:
        role = self._non_units.get(surface)
        if role == "connector":
            return UnitRefusal("unknown_unit", "a rate connector joins units; it is not a unit", surface, path)
        if role == "dimension_name":
            return UnitRefusal("unknown_unit", "names a dimension, not a unit", surface, path)
        if surface.count(PER) > 1:
            return UnitRefusal("unknown_unit", "a composite id has exactly one '_per_'", surface, path)
        # the hints are worked out only when the message is read
        return LazyDetailRefusal("unknown_unit", lambda: self._unknown_detail(surface, context), surface, path)

    def _unknown_detail(self, surface: str, context: Iterable[object]) -> str:
        """An unknown unit's detail: the near surface meant, if any, and how to declare a count noun."""
        # bounded: an input of many unknown units words a refusal for each; text only (a caller's object may
        # compare oddly)
        written = [w for w in itertools.islice(context, WRITTEN_CONTEXT_LIMIT) if type(w) is str]
        lexicon = near_misses([surface], self._surface_index())  # another spelling or case, or one edit
        hint: str | None
        if lexicon:  # the lexicon's surface, named as written beside it, else difflib's nearest (or it)
            hit = lexicon[0][1]
            hint = hit if hit in written else (self._near_surface(surface) or hit)
        else:  # a typo of a surface written beside it (aples beside apples), else difflib's nearest
            hint = written_near_miss(surface, written) or self._near_surface(surface)
        text = "not in en_units_v1"
        if hint is not None and hint in written:  # no declaration is offered: pasted as given, it would make
            # the typo a kind of its own (3 apples and 2 aples: 3 apples)
            if self._resolves(hint):
                return f"{text}; a near miss of {hint!r}, which the same input writes: did you mean {hint!r}?"
            return (
                f"{text}; a near miss of {hint!r}, which the same input writes too: one of the two is likely a"
                " typo; correct it, then declare the noun meant"
            )
        if hint is not None:
            text += f"; did you mean {hint!r}?"
        if self._parts.count_nouns or not (surface.isalpha() and surface.islower()):
            return text
        ways = (
            f"{self.declaration_hint(surface)}, a record's 'vocab', UnitVocabulary.with_count_nouns, or"
            " --count-nouns auto"
        )
        if hint is None:
            return f"{text} (a count noun must be declared: {ways})"
        # a near surface may be a false friend (stones, tonnes): the declaration stays, as the other choice, so
        # that a typo (feeet beside the lexicon's feet) is not read as a noun to declare
        return f"{text} If {surface!r} is a count noun of its own, declare it: {ways}"

    def dimension(self, surface: object) -> DimensionVector:
        """The six-axis :class:`DimensionVector` of a unit surface (see :meth:`resolve` for errors)."""
        return self.resolve(surface).dimension

    def factor(self, from_unit: object, to_unit: object) -> Fraction:
        """Exact factor converting a magnitude in ``from_unit`` to ``to_unit``.

        Args:
            from_unit: a surface, lemma or composite id, e.g. ``"feet"``.
            to_unit: a surface of the same quantity kind.

        Returns:
            ``f`` with ``magnitude_in_to == f * magnitude_in_from``; ``factor("foot", "inch") == 12``.

        Raises:
            UnitRefusal: ``unknown_unit``; ``incommensurable_units`` (different kinds,
                e.g. dollar and euro, box and item, degree and Celsius);
                ``convention_required`` (a calendar unit against days or weeks with no
                declared convention); ``offset_unit_arithmetic`` (Celsius or Fahrenheit,
                whose conversion is affine, not a factor: use :meth:`convert`).

        Source: NIST SP 811 (2008), Appendix B, for customary factors; ISO 4217 for currencies.
        """
        src = self.resolve(from_unit, path="from_unit")
        dst = self.resolve(to_unit, path="to_unit")
        check_commensurable(src, dst)
        if src.is_offset or dst.is_offset:
            if src.lemma == dst.lemma:
                return Fraction(1)
            raise UnitRefusal(
                "offset_unit_arithmetic",
                f"{src.lemma} -> {dst.lemma} is affine; use convert()",
                (src.surface, dst.surface),
            )
        return src.scale / dst.scale

    def convert(self, magnitude: object, from_unit: object, to_unit: object) -> Fraction:
        """Convert an exact magnitude, offsets included (20 Celsius -> 68 Fahrenheit).

        Raises:
            UnitRefusal: as :meth:`factor` (but offsets are applied, not refused), and
                ``malformed_input`` for a magnitude that is not exact.
        """
        # a Fraction is taken as it is: the verifier converts the exact values it computes, which may be longer
        # than the digit bound an input number passes (parse_exact reads the rest, and bounds a Fraction subclass)
        value = magnitude if type(magnitude) is Fraction else parse_exact(magnitude, path="magnitude")
        src = self.resolve(from_unit, path="from_unit")
        dst = self.resolve(to_unit, path="to_unit")
        check_commensurable(src, dst)
        if not (src.is_offset or dst.is_offset):
            return value * (src.scale / dst.scale)
        result = self._registry.Quantity(value, src.unit).to(dst.unit).magnitude
        return _checked_fraction(result, f"{src.lemma}->{dst.lemma}")

    def __repr__(self) -> str:
        parts = [f"{len(self._by_lemma)} lemmas", f"{len(self._by_surface)} surfaces"]
        if self._parts.count_nouns:
            shown = _REPR_COUNT_NOUNS
            nouns = ", ".join(f"{s}->{lem}" for s, lem in self._parts.count_nouns[:shown])
            more = "" if len(self._parts.count_nouns) <= shown else f", +{len(self._parts.count_nouns) - shown}"
            parts.append(f"count nouns: {nouns}{more}")
        if self._parts.conventions:
            parts.append("conventions: " + ", ".join(f"{k}={v}" for k, v in self._parts.conventions))
        return f"UnitVocabulary({self._parts.lexicon.source}: {'; '.join(parts)})"


RESERVED_NAMES: Final[frozenset[str]] = frozenset(
    {"dimensionless", "nan", "inf", "infinity", "none", "true", "false", "per"}
)
"""Names no lemma or base dimension may take (pint reads them as numbers or keywords)."""


def _check_definitions(conversions: Mapping[str, Conversion]) -> None:
    """Refuse definitions that would merge kinds: one lemma per base dimension, no base named like a lemma of another kind.

    A second base of ``length`` (or a count noun named ``length``) would make that unit
    the same kind as the meter with factor 1: a wrong answer, so it is refused.

    Raises:
        UnitRefusal: ``malformed_input`` naming the lemma.
    """
    owner: dict[str, str] = {}
    for lemma, conv in conversions.items():
        if lemma.lower() in RESERVED_NAMES or (conv.base_dimension or "").lower() in RESERVED_NAMES:
            raise UnitRefusal(
                "malformed_input", "a reserved name cannot be a unit or a dimension", lemma, "conversions"
            )
        if conv.base_dimension is None:
            continue
        if conv.base_dimension in owner:
            raise UnitRefusal(
                "malformed_input",
                f"base dimension [{conv.base_dimension}] is already the base of {owner[conv.base_dimension]!r}; "
                "two bases of one dimension would convert at factor 1",
                lemma,
                "conversions",
            )
        owner[conv.base_dimension] = lemma
    for base, lemma in owner.items():
        if base in conversions and base != lemma and conversions[base].base_dimension != base:
            raise UnitRefusal(
                "malformed_input",
                f"dimension [{base}] is named like the unit {base!r} of another kind",
                base,
                "conversions",
            )


def check_commensurable(a: UnitRef, b: UnitRef) -> None:
    """Refuse unless ``a`` and ``b`` are of one quantity kind.

    Raises:
        UnitRefusal: ``convention_required`` for a calendar unit against a fixed
            time unit with no declared convention (also inside rates:
            ``dollars_per_year`` vs ``dollars_per_day``); ``incommensurable_units`` otherwise.
    """
    if a.kind == b.kind:
        return
    if a.dimension == b.dimension and _off_calendar(a.kind) == _off_calendar(b.kind):
        # Same six-axis vector and same kinds but for calendar vs fixed time
        # (year vs day, dollars_per_year vs dollars_per_day): a convention decides.
        raise UnitRefusal(
            "convention_required",
            "calendar units convert to days or weeks only under a declared convention (UnitVocabulary.with_conventions, or bgverify check --convention 'year=365 day')",
            (a.surface, b.surface),
        )
    axes = ", ".join(BASE_DIMENSIONS)
    detail = (
        f"{render_unit(a)} and {render_unit(b)} are different quantity kinds"
        if a.dimension == b.dimension
        else f"{a.dimension} vs {b.dimension} (over {axes})"
    )
    raise UnitRefusal("incommensurable_units", detail, (a.surface, b.surface))


def _off_calendar(kind: tuple[tuple[str, int], ...]) -> tuple[tuple[str, int], ...]:
    """A kind without its calendar and fixed-time parts (their total power is in the vector)."""
    return tuple((name, power) for name, power in kind if name not in (f"[{_CALENDAR}]", "[time]"))


def render_unit(ref: UnitRef) -> str:
    """A unit rendered by us, never by pint's formatter (which crashes on powers of Fraction registries)."""
    return ref.lemma


def _touches_calendar(lemma: str, conversions: Mapping[str, Conversion]) -> bool:
    seen: set[str] = set()
    stack = [lemma]
    while stack:
        item = stack.pop()
        if item in seen or item not in conversions:
            continue
        seen.add(item)
        conv = conversions[item]
        if conv.base_dimension == _CALENDAR or conv.source.startswith("declared convention"):
            return True
        stack.extend(dep for dep, _ in conv.of)
    return False


def _int_power(power: object) -> int:
    if isinstance(power, int):
        return power
    if isinstance(power, Fraction) and power.denominator == 1:
        return power.numerator
    raise UnitRefusal("malformed_input", "fractional power in a unit", str(power))


def _checked_fraction(value: object, subject: str) -> Fraction:
    """Only ``int`` and ``Fraction`` cross out of pint (SPEC §11: floats never leak)."""
    if isinstance(value, (int, Fraction)) and not isinstance(value, bool):
        return Fraction(value)
    # not the caller's type error: pint broke the contract this module relies on
    raise RuntimeError(f"pint returned a {type(value).__name__} for {subject}; floats must never leak")


DERIVED_CACHE_SIZE: Final[int] = 256
"""Most derived vocabularies (one per declared noun set) each vocabulary keeps; emptied when full."""

_DEFAULT: UnitVocabulary | None = None
_DEFAULT_LOCK: Final = threading.Lock()


def default_vocabulary() -> UnitVocabulary:
    """The vocabulary of the embedded ``en_units_v1`` pack, built once and cached.

    Thread-safe: the first caller builds it behind a lock (pint's shared start-up is
    not thread-safe, SPEC §11) and checks it once; every later call returns the same
    object.
    """
    global _DEFAULT  # noqa: PLW0603 - the one cached default, built behind a lock
    vocab = _DEFAULT
    if vocab is not None:
        return vocab
    with _DEFAULT_LOCK:
        if _DEFAULT is None:
            lexicon = load_embedded()
            _DEFAULT = UnitVocabulary(_Parts(lexicon, lexicon.conversions, (), ()))
        return _DEFAULT


__all__ = [
    "DERIVED_CACHE_SIZE",
    "MAX_AUTO_NOUNS",
    "MAX_SURFACE_CHARS",
    "PER",
    "RESERVED_NAMES",
    "UnitRef",
    "UnitVocabulary",
    "check_commensurable",
    "default_vocabulary",
    "render_unit",
]
