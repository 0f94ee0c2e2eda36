"""Hypothesis strategies for units, quantities, graphs and sound cases with their answers (SPEC §9).

Shipped so that users can property-test their own readers and solvers::

    from hypothesis import given
    from verifier.strategies import math_problem_cases
    from verifier.testing import assert_answer

    @given(math_problem_cases())
    def test_verifier_agrees(case):
        graph, expected = case
        assert_answer(graph, expected)

:func:`math_problem_cases` draws a sound :class:`adapters.MathProblemGraph` together
with its answer, computed *by construction* with plain :class:`fractions.Fraction`
arithmetic over a small table of exact factors (NIST SP 811 for inch, foot, yard,
ounce, pound, minute, hour; ISO 4217 minor units for cent), never with this library.
By default every unit is a lexicon surface, so no count noun needs declaring.

Importing this module registers :func:`math_problem_graphs` and :func:`binding_graphs`
for ``st.from_type(MathProblemGraph)`` and ``st.from_type(BindingGraph)``.

Raises:
    ImportError: on import, when hypothesis is not installed (a dependency of the
        package since the fuzzing cross-check; an environment may still lack it).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Final

try:
    from hypothesis import strategies as st
except ImportError as exc:  # pragma: no cover - exercised only without hypothesis
    raise ImportError(
        "verifier.strategies needs hypothesis (a dependency of binding-graph-verifier): pip install hypothesis"
    ) from exc

from adapters.math_graph import (
    FRACTION_REFERENTS,
    Comparison,
    FractionPortion,
    InitialPossession,
    MathProblemGraph,
    Operation,
    PartitionChunk,
    Quantity,
    Rate,
    Unknown,
    bind_math_problem_graph,
)
from units import BASE_DIMENSIONS, DimensionVector, UnitRefusal, UnitVocabulary, default_vocabulary
from verifier.kinds import OperationKind
from verifier.model import OPERATION_KINDS, BindingGraph

if TYPE_CHECKING:
    from hypothesis.strategies import SearchStrategy

FAMILIES: Final[dict[str, dict[str, Fraction]]] = {
    # surface -> exact size in the family's smallest unit
    "length": {"inches": Fraction(1), "feet": Fraction(12), "yards": Fraction(36)},  # NIST SP 811 B.8
    "time": {"minutes": Fraction(1), "hours": Fraction(60)},  # NIST SP 811 B.8
    "mass": {"ounces": Fraction(1), "pounds": Fraction(16)},  # avoirdupois, NIST SP 811 B.8
    "money": {"cents": Fraction(1), "dollars": Fraction(100)},  # ISO 4217: USD has 2 minor-unit digits
    "count": {"items": Fraction(1)},
}
"""The units :func:`math_problem_cases` writes, by family, with their sizes (the oracle's only unit facts)."""

KINDS: Final[tuple[OperationKind, ...]] = (
    "add",
    "subtract",
    "transfer",
    "multiply",
    "divide",
    "compare_additive",
    "compare_multiplicative",
    "apply_rate",
    "unit_partition",
    "fraction_portion",
)
NAMES: Final[tuple[str, ...]] = ("Ana", "Ben", "Cy")
_FAMILY_OF: Final[dict[str, str]] = {unit: fam for fam, units in FAMILIES.items() for unit in units}


# ------------------------------------------------------------------ units and quantities


def _dimension(dimension: DimensionVector | str | None) -> DimensionVector | None:
    if dimension is None or isinstance(dimension, DimensionVector):
        return dimension
    return DimensionVector.from_axes({dimension: 1})


def unit_surfaces(
    dimension: DimensionVector | str | None = None, vocab: UnitVocabulary | None = None
) -> SearchStrategy[str]:
    """Unit surfaces the vocabulary resolves, optionally of one dimension.

    Args:
        dimension: a :class:`units.DimensionVector`, a base-dimension name (``"length"``,
            ``"time"``, ``"mass"``, ``"money"``, ``"count"``, ``"temperature"``) or ``None``.
        vocab: the vocabulary (default: :func:`units.default_vocabulary`).

    Raises:
        UnitRefusal: ``malformed_input`` for an unknown dimension name (from
            :meth:`DimensionVector.from_axes`).
    """
    voc = vocab or default_vocabulary()
    want = _dimension(dimension)
    surfaces = sorted(s for s in voc.surfaces() if want is None or voc.resolve(s).dimension == want)
    return st.sampled_from(surfaces)


def commensurable_pairs(vocab: UnitVocabulary | None = None) -> SearchStrategy[tuple[str, str]]:
    """Pairs of surfaces of one kind that convert by a fixed factor (offset and calendar units left out).

    ``vocab.factor(a, b)`` is defined for every pair drawn (SPEC §3: same kind, so
    commensurable; calendar units need a convention and offset temperatures an affine
    map, so neither is drawn).
    """
    voc = vocab or default_vocabulary()
    by_kind: dict[object, list[str]] = {}
    for surface in sorted(voc.surfaces()):
        ref = voc.resolve(surface)
        if not ref.is_offset and not ref.is_calendar and ref.scale is not None:
            by_kind.setdefault(ref.kind, []).append(surface)
    groups = [units for _, units in sorted(by_kind.items(), key=lambda kv: str(kv[0])) if len(units) > 1]
    return st.sampled_from(groups).flatmap(lambda units: st.tuples(st.sampled_from(units), st.sampled_from(units)))


def magnitudes(*, integral: bool = False, max_value: int = 100) -> SearchStrategy[Fraction]:
    """Exact non-negative magnitudes: whole numbers, or fractions with small denominators (never floats)."""
    whole = st.integers(0, max_value).map(Fraction)
    if integral:
        return whole
    return st.one_of(whole, st.fractions(min_value=0, max_value=max_value, max_denominator=12))


def quantities(
    dimension: DimensionVector | str | None = None, vocab: UnitVocabulary | None = None
) -> SearchStrategy[Quantity]:
    """:class:`adapters.Quantity` values: an exact magnitude in a unit surface (counts whole)."""
    voc = vocab or default_vocabulary()
    count = DimensionVector.from_axes({"count": 1})

    def build(unit: str) -> SearchStrategy[Quantity]:
        return magnitudes(integral=voc.resolve(unit).dimension == count).map(lambda v: Quantity(value=v, unit=unit))

    return unit_surfaces(dimension, voc).flatmap(build)


# ------------------------------------------------------------------ sound graphs, with their answers


@dataclass
class _World:
    """The oracle's holdings: (entity, family) -> exact amount in the family's smallest unit."""

    holdings: dict[tuple[str, str], Fraction] = field(default_factory=dict)
    written: dict[tuple[str, str], str] = field(default_factory=dict)  # a unit the graph wrote for the holding
    partitions: dict[str, str] = field(default_factory=dict)  # entity -> family of its latest partition's count

    def families(self, entity: str) -> list[str]:
        return sorted(fam for (e, fam) in self.holdings if e == entity)


def _unit_in(draw: st.DrawFn, family: str) -> str:
    return draw(st.sampled_from(sorted(FAMILIES[family])))


def _amount(draw: st.DrawFn, family: str, unit: str, *, most: Fraction | None = None) -> Fraction:
    """A written amount in ``unit``: whole for counts; at most ``most`` (in the smallest unit) when given."""
    size = FAMILIES[family][unit]
    top = 20 if most is None else int(most / size)
    if family == "count" or most is not None:
        return Fraction(draw(st.integers(0 if most is not None else 1, max(top, 0))))
    return draw(st.fractions(min_value=Fraction(1, 4), max_value=20, max_denominator=4))


@dataclass(frozen=True, slots=True)
class _Turn:
    """One operation being drawn: its kind, its actor, the families the actor holds, and the other entities."""

    kind: OperationKind
    actor: str
    held: list[str]
    others: list[str]


_COMPARISON_KINDS: Final[frozenset[str]] = frozenset({"compare_additive", "compare_multiplicative"})
"""Kinds whose actor may hold nothing yet (it is compared with another entity's holding)."""


def _op(draw: st.DrawFn, world: _World, kind: OperationKind, entities: Sequence[str]) -> Operation | None:
    """One operation of ``kind`` that is sound in ``world`` (and applied to it), or ``None`` when none is."""
    actor = draw(st.sampled_from(list(entities)))
    turn = _Turn(kind, actor, world.families(actor), [e for e in entities if e != actor])
    if kind != "add" and not turn.held and kind not in _COMPARISON_KINDS:
        return None
    return _OP_BUILDERS.get(kind, _fraction_portion_op)(draw, world, turn)


def _add_op(draw: st.DrawFn, world: _World, turn: _Turn) -> Operation:
    """An ``add`` of a family the actor holds (any family when it holds none)."""
    family = draw(st.sampled_from(turn.held or sorted(FAMILIES)))
    unit = _unit_in(draw, family)
    value = _amount(draw, family, unit)
    key = (turn.actor, family)
    world.holdings[key] = world.holdings.get(key, Fraction(0)) + value * FAMILIES[family][unit]
    world.written.setdefault(key, unit)
    return Operation(actor=turn.actor, kind=turn.kind, operand=Quantity(value=value, unit=unit))


def _take_op(draw: st.DrawFn, world: _World, turn: _Turn) -> Operation | None:
    """A ``subtract`` of at most what the actor holds, or a ``transfer`` of it to another entity."""
    if turn.kind == "transfer" and not turn.others:
        return None
    family = draw(st.sampled_from(turn.held))
    unit = _unit_in(draw, family)
    value = _amount(draw, family, unit, most=world.holdings[(turn.actor, family)])
    world.holdings[(turn.actor, family)] -= value * FAMILIES[family][unit]
    if turn.kind == "subtract":
        return Operation(actor=turn.actor, kind=turn.kind, operand=Quantity(value=value, unit=unit))
    target = draw(st.sampled_from(turn.others))
    key = (target, family)
    world.holdings[key] = world.holdings.get(key, Fraction(0)) + value * FAMILIES[family][unit]
    world.written.setdefault(key, unit)
    return Operation(actor=turn.actor, kind=turn.kind, operand=Quantity(value=value, unit=unit), target=target)


def _scale_op(draw: st.DrawFn, world: _World, turn: _Turn) -> Operation | None:
    """A ``multiply`` or ``divide`` of a holding by 2 to 4 (a count only when it divides evenly)."""
    family = draw(st.sampled_from(turn.held))
    factor = draw(st.integers(2, 4))
    amount = world.holdings[(turn.actor, family)]
    if turn.kind == "divide" and family == "count" and amount % factor:
        return None
    world.holdings[(turn.actor, family)] = amount * factor if turn.kind == "multiply" else amount / factor
    return Operation(
        actor=turn.actor,
        kind=turn.kind,
        operand=Quantity(value=Fraction(factor), unit=world.written[(turn.actor, family)]),
    )


def _compare_op(draw: st.DrawFn, world: _World, turn: _Turn) -> Operation | None:
    """A comparison with another entity's holding, of a family the actor does not hold yet."""
    refs = [e for e in turn.others if world.families(e)]
    if not refs:
        return None
    ref = draw(st.sampled_from(refs))
    ref_families = world.families(ref)
    if turn.kind == "compare_multiplicative" and (len(ref_families) != 1 or world.families(turn.actor)):
        return None  # 'as many' names no unit: one kind on the reference's side, none on the actor's
    family = draw(st.sampled_from(ref_families))
    if (turn.actor, family) in world.holdings:
        return None
    if turn.kind == "compare_additive":
        return _compare_additive_op(draw, world, turn, ref, family)
    return _compare_multiplicative_op(draw, world, turn, ref, family)


def _compare_additive_op(draw: st.DrawFn, world: _World, turn: _Turn, ref: str, family: str) -> Operation:
    """``more`` or ``fewer`` than ``ref``'s holding of ``family`` (fewer by at most all of it)."""
    base = world.holdings[(ref, family)]
    unit = _unit_in(draw, family)
    more = draw(st.booleans())
    value = _amount(draw, family, unit, most=None if more else base)
    delta = value * FAMILIES[family][unit]
    world.holdings[(turn.actor, family)] = base + delta if more else base - delta
    world.written[(turn.actor, family)] = world.written[(ref, family)]
    direction = "more" if more else "fewer"
    return Operation(
        actor=turn.actor,
        kind=turn.kind,
        operand=Comparison(reference_actor=ref, direction=direction, delta=Quantity(value=value, unit=unit)),
    )


def _compare_multiplicative_op(draw: st.DrawFn, world: _World, turn: _Turn, ref: str, family: str) -> Operation | None:
    """2 to 4 ``times``, or a ``fraction`` 1/2 to 1/4, of ``ref``'s holding of ``family`` (a count stays whole)."""
    base = world.holdings[(ref, family)]
    times = draw(st.booleans())
    ratio = Fraction(draw(st.integers(2, 4))) if times else Fraction(1, draw(st.integers(2, 4)))
    if family == "count" and (base * ratio).denominator != 1:
        return None
    world.holdings[(turn.actor, family)] = base * ratio
    world.written[(turn.actor, family)] = world.written[(ref, family)]
    return Operation(
        actor=turn.actor,
        kind=turn.kind,
        operand=Comparison(reference_actor=ref, direction="times" if times else "fraction", factor=ratio),
    )


def _apply_rate_op(draw: st.DrawFn, world: _World, turn: _Turn) -> Operation | None:
    """Money per unit of a time, length or mass holding: the money holding is declared."""
    actor = turn.actor
    family = draw(st.sampled_from(turn.held))
    if family in {"money", "count"} or (actor, "money") in world.holdings:
        return None
    per = _unit_in(draw, family)
    money = _unit_in(draw, "money")
    rate = Fraction(draw(st.integers(1, 9)))
    world.holdings[(actor, "money")] = (
        world.holdings[(actor, family)] / FAMILIES[family][per] * rate * (FAMILIES["money"][money])
    )
    world.written[(actor, "money")] = money
    return Operation(actor=actor, kind=turn.kind, operand=Rate(value=rate, numerator_unit=money, denominator_unit=per))


def _unit_partition_op(draw: st.DrawFn, world: _World, turn: _Turn) -> Operation | None:
    """A length, time or mass holding cut into whole items; the holding is kept."""
    actor = turn.actor
    family = draw(st.sampled_from(turn.held))
    if family in {"count", "money"} or (actor, "count") in world.holdings:
        return None
    unit = _unit_in(draw, family)
    amount = world.holdings[(actor, family)]
    chunks = [n for n in range(1, 13) if (amount / (n * FAMILIES[family][unit])).denominator == 1 and amount > 0]
    if not chunks:
        return None
    chunk = Fraction(draw(st.sampled_from(chunks)))
    world.holdings[(actor, "count")] = amount / (chunk * FAMILIES[family][unit])
    world.written[(actor, "count")] = "items"
    world.partitions[actor] = "count"
    return Operation(actor=actor, kind=turn.kind, operand=PartitionChunk(value=chunk, unit=unit, result_unit="items"))


def _fraction_portion_op(draw: st.DrawFn, world: _World, turn: _Turn) -> Operation | None:
    """The count made by the actor's latest partition loses n/d of itself (a whole portion)."""
    actor = turn.actor
    made = world.partitions.get(actor)
    if made is None:
        return None
    amount = world.holdings[(actor, made)]
    den = draw(st.integers(2, 4))
    num = draw(st.integers(0, den))
    if (amount * num / den).denominator != 1:
        return None
    world.holdings[(actor, made)] = amount - amount * num / den
    referent = draw(st.sampled_from(FRACTION_REFERENTS))
    return Operation(
        actor=actor,
        kind=turn.kind,
        operand=FractionPortion(numerator=Fraction(num), denominator=Fraction(den), referent=referent),
    )


_OP_BUILDERS: Final[dict[str, Callable[[st.DrawFn, _World, _Turn], Operation | None]]] = {
    "add": _add_op,
    "subtract": _take_op,
    "transfer": _take_op,
    "multiply": _scale_op,
    "divide": _scale_op,
    "compare_additive": _compare_op,
    "compare_multiplicative": _compare_op,
    "apply_rate": _apply_rate_op,
    "unit_partition": _unit_partition_op,
    "fraction_portion": _fraction_portion_op,
}
"""The builder of each kind; :func:`_op` falls back to ``fraction_portion``'s, as the kinds are closed (:data:`KINDS`)."""


@st.composite
def _cases(draw: st.DrawFn, kinds: tuple[OperationKind, ...], max_operations: int) -> tuple[MathProblemGraph, Fraction]:
    entities = tuple(NAMES[: draw(st.integers(1, len(NAMES)))])
    world = _World()
    initial: list[InitialPossession] = []
    for entity in entities:
        if draw(st.booleans()) or not initial:
            family = draw(st.sampled_from(sorted(FAMILIES)))
            unit = _unit_in(draw, family)
            value = _amount(draw, family, unit)
            world.holdings[(entity, family)] = value * FAMILIES[family][unit]
            world.written[(entity, family)] = unit
            initial.append(InitialPossession(entity=entity, quantity=Quantity(value=value, unit=unit)))
    operations = []
    for _ in range(draw(st.integers(0, max_operations))):
        kind = draw(st.sampled_from(kinds))
        if world.partitions and "fraction_portion" in kinds and draw(st.booleans()):
            kind = "fraction_portion"  # a portion needs a partition before it: draw it often once one exists
        op = _op(draw, world, kind, entities)
        if op is not None:
            operations.append(op)
    asked_entity = draw(st.sampled_from([*entities, None]))
    held = sorted({fam for (e, fam) in world.holdings if asked_entity in (None, e)})
    if not held:  # the asked entity holds nothing: ask the whole graph instead
        asked_entity, held = None, sorted({fam for (_, fam) in world.holdings})
    askable = [f for f in held if _askable(operations, asked_entity, f)]
    family = draw(st.sampled_from(askable))
    unit = _unit_in(draw, family)
    total = sum(v for (e, fam), v in world.holdings.items() if fam == family and asked_entity in (None, e))
    graph = MathProblemGraph(
        entities=entities,
        initial_state=tuple(initial),
        operations=tuple(operations),
        unknown=Unknown(entity=asked_entity, unit=unit),
    )
    return graph, Fraction(total) / FAMILIES[family][unit]


def _askable(operations: Sequence[Operation], entity: str | None, family: str) -> bool:
    """Whether ADR-0135 maps a question about ``family`` to a form: one touched by a rate asks its money or its per-unit.

    (``verifier.targets``: an unknown whose operations include ``apply_rate`` and no
    comparison must be in the rate's numerator or denominator kind.)
    """
    touching = [
        op
        for op in operations
        if entity is None or entity in (op.actor, op.target, getattr(op.operand, "reference_actor", None))
    ]
    kinds = {op.kind for op in touching}
    if "apply_rate" not in kinds or kinds & {"compare_additive", "compare_multiplicative"}:
        return True
    rates = [op.operand for op in touching if isinstance(op.operand, Rate)]
    return any(family in (_FAMILY_OF[r.numerator_unit], _FAMILY_OF[r.denominator_unit]) for r in rates)


def math_problem_cases(
    kinds: Iterable[OperationKind] = KINDS, max_operations: int = 5
) -> SearchStrategy[tuple[MathProblemGraph, Fraction]]:
    """``(graph, expected_answer)``: a sound graph and the exact answer to its unknown, in the unknown's unit.

    The answer is computed while the graph is drawn, operation by operation, with
    ``Fraction`` arithmetic in each family's smallest unit (:data:`FAMILIES`); the
    library is not consulted.  Every unit is a lexicon surface; counts stay whole,
    nothing goes negative, and no operation is drawn that SPEC §5 refuses (a
    comparison's actor never already holds the kind, a partition always divides
    exactly), so ``verifier.testing.assert_answer(graph, expected)`` holds.

    Args:
        kinds: the operation kinds to draw from (a subset of :data:`KINDS`).
        max_operations: the most operations a graph has (shrinks towards none).

    Raises:
        ValueError: an unknown kind, or ``max_operations`` below 0.
    """
    chosen = tuple(dict.fromkeys(kinds))
    unknown = sorted(set(chosen) - set(KINDS))
    if unknown or not chosen:
        raise ValueError(f"kinds must be a non-empty subset of {list(KINDS)}; unknown: {unknown}")
    if max_operations < 0:
        raise ValueError(f"max_operations must be >= 0, found {max_operations}")
    return _cases(chosen, max_operations)


def math_problem_graphs(
    kinds: Iterable[OperationKind] = KINDS, max_operations: int = 5
) -> SearchStrategy[MathProblemGraph]:
    """Valid, sound :class:`adapters.MathProblemGraph` values that bind (see :func:`math_problem_cases`)."""
    return math_problem_cases(kinds, max_operations).map(lambda case: case[0])


@st.composite
def _schema_valid(
    draw: st.DrawFn, units: tuple[str, ...], names: tuple[str, ...], max_operations: int
) -> MathProblemGraph:
    positive = st.fractions(min_value=Fraction(1, 8), max_value=20, max_denominator=8)
    amount = magnitudes(max_value=30)
    entities = tuple(draw(st.lists(st.sampled_from(names), min_size=1, max_size=3, unique=True)))
    keys = draw(st.lists(st.tuples(st.sampled_from(entities), st.sampled_from(units)), unique=True, max_size=4))
    initial = tuple(InitialPossession(entity=e, quantity=Quantity(value=draw(amount), unit=u)) for e, u in keys)
    operations = []
    for _ in range(draw(st.integers(0, max_operations))):
        actor = draw(st.sampled_from(entities))
        others = [e for e in entities if e != actor]
        kind = draw(st.sampled_from([k for k in KINDS if others or k not in _NEEDS_ANOTHER]))
        target = draw(st.sampled_from(others)) if kind == "transfer" else None
        operand: object
        if kind in ("add", "subtract", "multiply", "divide", "transfer"):
            operand = Quantity(value=draw(amount), unit=draw(st.sampled_from(units)))
        elif kind == "apply_rate":
            operand = Rate(
                value=draw(positive),
                numerator_unit=draw(st.sampled_from(units)),
                denominator_unit=draw(st.sampled_from(units)),
            )
        elif kind == "compare_additive":
            more = draw(st.sampled_from(["more", "fewer"]))
            operand = Comparison(
                reference_actor=draw(st.sampled_from(others)),
                direction=more,
                delta=Quantity(value=draw(amount), unit=draw(st.sampled_from(units))),
            )
        elif kind == "compare_multiplicative":
            times = draw(st.booleans())
            below_one = st.fractions(Fraction(1, 8), Fraction(7, 8), max_denominator=8)
            operand = Comparison(
                reference_actor=draw(st.sampled_from(others)),
                direction="times" if times else "fraction",
                factor=draw(positive if times else below_one),
            )
        elif kind == "unit_partition":
            operand = PartitionChunk(
                value=draw(positive), unit=draw(st.sampled_from(units)), result_unit=draw(st.sampled_from(units))
            )
        else:
            den = draw(st.integers(1, 6))
            referent = draw(st.sampled_from(FRACTION_REFERENTS))
            operand = FractionPortion(
                numerator=Fraction(draw(st.integers(0, den))), denominator=Fraction(den), referent=referent
            )
        operations.append(Operation(actor=actor, kind=kind, operand=operand, target=target))
    unknown = Unknown(entity=draw(st.sampled_from([*entities, None])), unit=draw(st.sampled_from(units)))
    return MathProblemGraph(entities=entities, initial_state=initial, operations=tuple(operations), unknown=unknown)


_NEEDS_ANOTHER: Final[frozenset[str]] = frozenset({"transfer", "compare_additive", "compare_multiplicative"})


def schema_valid_graphs(
    units: Sequence[str] = tuple(_FAMILY_OF), names: Sequence[str] = NAMES, max_operations: int = 5
) -> SearchStrategy[MathProblemGraph]:
    """Graphs the schema accepts (:func:`adapters.graph_from_dict` round-trips them) but that need not be sound.

    Every operation kind, operands drawn freely from ``units`` and ``names``: binding or
    verifying such a graph may refuse it (a state never set, a redeclared holding, an
    incommensurable sum), which is what tests of refusal paths, determinism and round
    trips want.  For graphs that bind and are answered, use :func:`math_problem_graphs`.

    Raises:
        ValueError: empty ``units`` or ``names``, or ``max_operations`` below 0.
    """
    if not units or not names or max_operations < 0:
        raise ValueError("schema_valid_graphs needs some units, some names and max_operations >= 0")
    return _schema_valid(tuple(units), tuple(names), max_operations)


def binding_graphs(kinds: Iterable[OperationKind] = KINDS, max_operations: int = 5) -> SearchStrategy[BindingGraph]:
    """:class:`verifier.BindingGraph` values: sound math problem graphs, bound."""
    return math_problem_graphs(kinds, max_operations).map(bind_math_problem_graph)


@st.composite
def _relations(draw: st.DrawFn, max_relations: int) -> dict[str, object]:
    names = [f"e{i}" for i in range(draw(st.integers(1, max_relations)))]
    relations: list[dict[str, object]] = [{"kind": "fact", "entity": names[0], "value": draw(st.integers(0, 50))}]
    for i, name in enumerate(names[1:], start=1):
        ref = names[draw(st.integers(0, i - 1))]
        kind = draw(st.sampled_from(["fact", "more_than", "times_as_many", "sum_of"]))
        if kind == "fact":
            relations.append({"kind": kind, "entity": name, "value": draw(st.integers(0, 50))})
        elif kind == "more_than":
            relations.append({"kind": kind, "entity": name, "ref": ref, "delta": draw(st.integers(0, 20))})
        elif kind == "times_as_many":
            relations.append({"kind": kind, "entity": name, "ref": ref, "factor": draw(st.integers(1, 4))})
        else:
            parts = sorted(set(draw(st.lists(st.sampled_from(names[:i]), min_size=1, max_size=3))))
            relations.append({"kind": kind, "entity": name, "parts": parts})
    return {"relations": relations, "query": {"entity": draw(st.sampled_from(names)), "unit": "items"}}


def relations(max_relations: int = 5) -> SearchStrategy[dict[str, object]]:
    """Relational records ``{"relations": [...], "query": {...}}`` that :func:`adapters.bind_relations` binds.

    Facts, ``more_than``, ``times_as_many`` and ``sum_of`` over earlier entities only
    (so every entity is defined once, and the query is answerable), in ``items``.
    """
    return _relations(max_relations)


# ------------------------------------------------------------------ single equations, for differential fuzzing

EQUATION_KINDS: Final[tuple[str, ...]] = OPERATION_KINDS
"""The kinds :func:`equation_records` draws by default: all ten (SPEC §4), in the model's order."""

_GROUP_ORDER: Final[tuple[str, ...]] = (
    "length",
    "mass",
    "time",
    "money",
    "count",
    "temperature",
    "length^2",
    "length^3",
    "dimensionless",
)
"""Dimensions drawn first (and shrunk towards), in this order; the others follow alphabetically."""
_UNBOUND: Final[tuple[bool, ...]] = (False,) * 9 + (True,)
"""One first operand in ten carries no unit (``sampled_from``: hypothesis' integers favour their bounds)."""
_MANY_KINDS: Final[frozenset[str]] = frozenset({"count", "money", "temperature"})
"""Base dimensions holding several kinds that never convert (SPEC §3): drawn more often."""


@dataclass(frozen=True)
class _UnitPool:
    """The units of a vocabulary grouped by dimension (canonical string), shortest spelling first."""

    groups: tuple[tuple[str, tuple[str, ...]], ...]
    rates: tuple[str, ...]
    declared: tuple[str, ...] = ()

    @classmethod
    def of(cls, vocab: UnitVocabulary) -> _UnitPool:
        spellings = set(vocab.surfaces()) | {entry.lemma for entry in vocab.lexicon.entries}
        by_dim: dict[str, set[str]] = {}
        for text in spellings:
            try:
                dimension = vocab.resolve(text).dimension
            except UnitRefusal:  # a lemma only the lexicon's conversions know, e.g. a connector
                continue
            by_dim.setdefault(dimension.to_canonical_string(), set()).add(text)
        rank = {dim: i for i, dim in enumerate(_GROUP_ORDER)}
        order = sorted(by_dim, key=lambda d: (rank.get(d, len(rank)), d))
        groups = tuple((dim, tuple(sorted(by_dim[dim], key=lambda u: (len(u), u)))) for dim in order)
        rates = tuple(u for dim, units in groups if "/" in dim for u in units)
        declared = tuple(sorted({surface for surface, _ in vocab.count_nouns}, key=lambda u: (len(u), u)))
        return cls(groups, rates, declared)

    def unit(self) -> SearchStrategy[str]:
        """A unit, drawn to reach the dimensions where kinds differ.

        Of any dimension, of a base one (length … temperature), or of a base one where kinds
        differ within the dimension (count, money, temperature), 1, 1 and 2 times in 4; with
        declared count nouns, one of them a fifth of the time.
        """
        every = st.sampled_from(range(len(self.groups)))
        base = st.sampled_from(range(min(len(self.groups), len(BASE_DIMENSIONS))))
        kinds = st.sampled_from([i for i, (dim, _) in enumerate(self.groups) if dim in _MANY_KINDS] or [0])
        unit = st.one_of(every, base, kinds, kinds).flatmap(lambda i: st.sampled_from(self.groups[i][1]))
        return st.one_of(unit, unit, unit, unit, st.sampled_from(self.declared)) if self.declared else unit

    def of_dimension(self, dimension: str) -> SearchStrategy[str]:
        """Mostly a unit of this dimension (commensurable or of another kind), else any unit."""
        for dim, units in self.groups:
            if dim == dimension:
                same = st.sampled_from(units)
                return st.one_of(same, same, same, self.unit())
        return self.unit()

    def like(self, unit: str | None) -> SearchStrategy[str]:
        """A unit of ``unit``'s dimension, else any unit."""
        return self.of_dimension(next((dim for dim, units in self.groups if unit in units), ""))

    def rate_and_quantity(self) -> SearchStrategy[tuple[str, str]]:
        """A rate (lexicon rate unit or ``X_per_Y``) and a quantity, mostly of the rate's denominator."""
        lexicon = st.sampled_from(self.rates).flatmap(
            lambda rate: st.tuples(st.just(rate), self.of_dimension(self.dimension(rate).partition("/")[2]))
        )
        composite = st.tuples(self.unit(), self.unit()).flatmap(
            lambda pair: st.tuples(st.just("_per_".join(pair)), self.like(pair[1]))
        )
        return st.one_of(lexicon, composite)

    def dimension(self, unit: str) -> str:
        return next(dim for dim, units in self.groups if unit in units)


def _operand(symbol_id: str, unit: str | None, role: str = "quantity") -> dict[str, object]:
    return {"symbol_id": symbol_id, "semantic_role": role, "unit": unit}


@st.composite
def _equation_record(draw: st.DrawFn, pool: _UnitPool, kinds: tuple[str, ...], max_operands: int) -> dict[str, object]:
    kind = draw(st.sampled_from(kinds))
    first = draw(pool.unit())
    symbols = [_operand("a", None if draw(st.sampled_from(_UNBOUND)) else first)]
    literal = {"multiply": "b__multiplicand", "divide": "b__divisor", "unit_partition": "b__chunk"}
    if kind == "apply_rate":
        rate, quantity = draw(pool.rate_and_quantity())
        symbols = [_operand("a", rate, "rate"), _operand("b", quantity)]
    elif kind in literal or kind in ("compare_multiplicative", "fraction_portion"):
        shape = draw(st.sampled_from(("alone", "literal", "quantity")))
        if shape == "literal" and kind in literal:
            unit = draw(st.one_of(st.none(), pool.like(first)))
            symbols.append(_operand(literal[kind], unit, "ratio" if unit is None else "quantity"))
        elif shape == "literal":
            symbols.append(_operand("b", None, "ratio"))
        elif shape == "quantity":
            symbols.append(_operand("b", draw(pool.like(first))))
    else:
        for i in range(1, draw(st.sampled_from([*range(2, max_operands + 1)] * 3 + [1]))):
            symbols.append(_operand("abcdefgh"[i], draw(pool.like(first))))
    return {"id": "fuzz", "lhs_symbol_id": "r", "operation_kind": kind, "symbols": symbols}


def equation_records(
    vocab: UnitVocabulary | None = None, kinds: Iterable[str] = EQUATION_KINDS, *, max_operands: int = 3
) -> SearchStrategy[dict[str, object]]:
    """Single equations in the upstream ``equation_verdicts`` layout, admissible or not.

    Each record is ``{"id", "lhs_symbol_id": "r", "operation_kind", "symbols": [...]}``,
    bound by :func:`adapters.records.bind_equation_record` (add a ``hand_rolled`` verdict
    to replay it with ``bgverify crosscheck FILE``).  Units are drawn from every
    dimension of ``vocab``, lexicon surfaces and lemma ids alike, declared count nouns
    included; a later operand is drawn of the first one's dimension (commensurable, or
    another kind of it: dollar and euro, people and mice) or of any dimension.  Rates
    are lexicon rate units or ``X_per_Y`` composites; ``multiply``, ``divide`` and
    ``unit_partition`` get an upstream literal operand (``b__multiplicand``,
    ``b__divisor``, ``b__chunk``, unitless or not), none, or a second quantity.  An
    operand may carry no unit.  A sum has two operands or more (one in ``3 * (max_operands - 1) + 1`` times, one).  Shrinking goes
    towards fewer operands, the first
    dimensions (length, mass, time, money, count …) and the shortest spellings.

    Args:
        vocab: whose units to draw (default :func:`units.default_vocabulary`).
        kinds: operation kinds to draw (default all ten; any string is allowed, so an
            unknown kind can be fuzzed too).
        max_operands: most operands of an additive kind (at least 1).

    Raises:
        ValueError: no kinds, or ``max_operands`` below 1.
    """
    chosen = tuple(kinds)
    given: tuple[object, ...] = chosen  # typed str, but an untyped caller may pass anything
    if not chosen or not all(isinstance(k, str) and k for k in given) or max_operands < 1:
        raise ValueError("equation_records needs at least one kind (non-empty strings) and max_operands >= 1")
    return _equation_record(_UnitPool.of(vocab or default_vocabulary()), chosen, max_operands)


st.register_type_strategy(MathProblemGraph, math_problem_graphs())
st.register_type_strategy(BindingGraph, binding_graphs())

__all__ = [
    "EQUATION_KINDS",
    "FAMILIES",
    "KINDS",
    "binding_graphs",
    "commensurable_pairs",
    "equation_records",
    "magnitudes",
    "math_problem_cases",
    "math_problem_graphs",
    "quantities",
    "relations",
    "schema_valid_graphs",
    "unit_surfaces",
]
