"""Soundness properties of math problem graphs (issue #11 item 7; SPEC §4 "Certification", §5 table).

Random *sound* graphs are built by construction: 1-3 entities, initial
possessions and 0-6 operations of every kind but ``fraction_portion``, over
lexicon units and one declared count noun, with whole non-negative counts, exact
count divisions, no overdraws and no state written twice.  An independent
evaluator written here (``World``: plain ``Fraction`` arithmetic and its own
table of exact unit factors, holdings keyed by quantity kind) computes the
answer; the library must certify exactly that value in the unit asked.

The same graphs with ONE injected fault — a typo'd unit anywhere, an overdrawn
count, an overwritten holding, a zero divisor — must never yield a certified
answer: binding raises a typed error with a ``reason``, or every answer is a
``Refusal``.  The evaluator confirms that each injected fault really makes the
graph unsound, so a failure here is the library's, not the generator's.
"""

from __future__ import annotations

import copy
import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, TypeVar

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from adapters import MathGraphError, bind_math_problem_graph, graph_from_dict
from units import UnitRefusal, UnitVocabulary, default_vocabulary
from verifier import Answer, BindingGraph, BindingGraphError, Refusal, verify
from verifier.kinds import OPERATION_KINDS

VOCAB: UnitVocabulary = default_vocabulary().with_count_nouns({"apples": "apple"})
TYPED_ERRORS = (MathGraphError, BindingGraphError, UnitRefusal)
ENTITIES = ("Ana", "Ben", "Cy")

# unit -> (quantity kind, exact size in the kind's base unit), from the public definitions:
# 1 ft = 12 in, 1 yd = 3 ft, 1 in = 0.0254 m; 1 gal = 4 qt = 16 cups; 1 lb = 16 oz;
# 1 dollar = 100 cents; 1 h = 60 min; 1 dozen = 12 items.
UNITS: dict[str, tuple[str, Fraction]] = {
    "items": ("item", Fraction(1)),
    "dozen": ("item", Fraction(12)),
    "people": ("person", Fraction(1)),
    "apples": ("apple", Fraction(1)),
    "inches": ("length", Fraction(1)),
    "feet": ("length", Fraction(12)),
    "yards": ("length", Fraction(36)),
    "meters": ("length", 1 / Fraction(254, 10000)),
    "cups": ("volume", Fraction(1)),
    "quarts": ("volume", Fraction(4)),
    "gallons": ("volume", Fraction(16)),
    "ounces": ("mass", Fraction(1)),
    "pounds": ("mass", Fraction(16)),
    "cents": ("money", Fraction(1)),
    "dollars": ("money", Fraction(100)),
    "minutes": ("time", Fraction(1)),
    "hours": ("time", Fraction(60)),
}
COUNT_KINDS = ("item", "person", "apple")
KINDS = tuple(dict.fromkeys(kind for kind, _ in UNITS.values()))
UNITS_OF = {kind: tuple(u for u, (k, _) in UNITS.items() if k == kind) for kind in KINDS}
PARTITION_UNITS = ("items", "people", "apples")  # a partition counts in a plain count unit
OP_KINDS = tuple(kind for kind in OPERATION_KINDS if kind != "fraction_portion")

T = TypeVar("T")
Graph = dict[str, Any]
Op = dict[str, Any]


# ---------------------------------------------------------------- the independent evaluator


class Unsound(Exception):
    """The graph is not sound; ``args[0]`` says why (the evaluator's own words, not the library's reasons)."""


def kind_of(unit: str) -> str:
    """The quantity kind of a unit of the table; an unknown spelling is unsound."""
    if unit not in UNITS:
        raise Unsound(f"unknown unit {unit!r}")
    return UNITS[unit][0]


def size(unit: str) -> Fraction:
    """One ``unit`` in its kind's base unit."""
    kind_of(unit)
    return UNITS[unit][1]


def num(value: Fraction) -> int | str:
    """A JSON number: an int when whole, else exact text ``"7/2"``."""
    return value.numerator if value.denominator == 1 else f"{value.numerator}/{value.denominator}"


@dataclass
class World:
    """Each entity's holdings by quantity kind, in base units, updated operation by operation (SPEC §5).

    ``strict`` raises :class:`Unsound` at the first fault; otherwise each fault is
    recorded in ``faults`` and the run goes on (a bad value or an overwrite is still
    written, an operation that cannot be carried out is skipped), so that the
    faults a single injected one causes downstream can be counted.
    """

    held: dict[tuple[str, str], Fraction] = field(default_factory=dict)
    strict: bool = True
    faults: list[str] = field(default_factory=list)

    def fault(self, why: str) -> None:
        """Raise (strict) or record a fault."""
        if self.strict:
            raise Unsound(why)
        self.faults.append(why)

    def get(self, entity: str, kind: str) -> Fraction | None:
        """The entity's holding of a kind, or None when it never held one."""
        return self.held.get((entity, kind))

    def kinds(self, entity: str) -> list[str]:
        """The kinds the entity holds, in order of first holding."""
        return [k for (e, k) in self.held if e == entity]

    def pairs(self) -> list[tuple[str, str]]:
        """Every (entity, kind) held."""
        return list(self.held)

    def set(self, entity: str, kind: str, value: Fraction) -> None:
        """Write a holding, checking its domain: never negative, and a count is whole."""
        if value < 0:
            self.fault(f"{entity} holds {value} of {kind}")
        elif kind in COUNT_KINDS and value.denominator != 1:
            self.fault(f"{entity} holds a non-whole count {value} of {kind}")
        self.held[(entity, kind)] = value

    def fresh(self, entity: str, kind: str) -> None:
        """An operation that creates a holding must not overwrite one."""
        if (entity, kind) in self.held:
            self.fault(f"{entity} already holds {kind}")

    def need(self, entity: str, kind: str) -> Fraction:
        """The entity's holding of a kind, which the operation requires."""
        value = self.get(entity, kind)
        if value is None:
            raise Unsound(f"{entity} holds no {kind}")
        return value

    def apply(self, op: Op) -> None:
        """Apply one JSON operation."""
        try:
            self.carry_out(op)
        except Unsound as exc:
            if self.strict:
                raise
            self.faults.append(str(exc))

    def carry_out(self, op: Op) -> None:
        """Apply one operation, raising :class:`Unsound` when it cannot be carried out."""
        kind = op["kind"]
        if kind in ("add", "subtract", "transfer"):
            self.move(op)
        elif kind in ("multiply", "divide"):
            self.scale(op)
        elif kind == "apply_rate":
            self.apply_rate(op)
        elif kind == "compare_additive":
            self.compare_additive(op)
        elif kind == "compare_multiplicative":
            self.compare_multiplicative(op)
        elif kind == "unit_partition":
            self.unit_partition(op)
        else:  # pragma: no cover - the generator makes no other kind
            raise AssertionError(kind)

    def move(self, op: Op) -> None:
        """An add, a subtract, or a transfer from the actor to the target."""
        actor, kind, operand = op["actor"], op["kind"], op["operand"]
        k = kind_of(operand["unit"])
        amount = Fraction(operand["value"]) * size(operand["unit"])
        sign = 1 if kind == "add" else -1
        self.set(actor, k, (self.get(actor, k) or 0) + sign * amount)
        if kind == "transfer":
            self.set(op["target"], k, (self.get(op["target"], k) or 0) + amount)

    def scale(self, op: Op) -> None:
        """A multiply or divide of the actor's holding by a scalar; dividing by 0 is unsound."""
        actor, kind, operand = op["actor"], op["kind"], op["operand"]
        k = kind_of(operand["unit"])
        scalar = Fraction(operand["value"])
        if kind == "divide" and scalar == 0:
            raise Unsound("division by zero")
        self.set(actor, k, self.need(actor, k) * scalar if kind == "multiply" else self.need(actor, k) / scalar)

    def apply_rate(self, op: Op) -> None:
        """A rate N per D applied to the actor's holding of D, creating a holding of N."""
        actor, operand = op["actor"], op["operand"]
        n, d = operand["numerator_unit"], operand["denominator_unit"]
        if kind_of(n) == kind_of(d):
            raise Unsound("a rate between one kind")
        held_d = self.need(actor, kind_of(d)) / size(d)
        self.fresh(actor, kind_of(n))
        self.set(actor, kind_of(n), held_d * Fraction(operand["value"]) * size(n))

    def compare_additive(self, op: Op) -> None:
        """The actor holds the reference's amount plus or minus a delta."""
        actor, operand = op["actor"], op["operand"]
        delta = operand["delta"]
        k = kind_of(delta["unit"])
        ref = self.need(operand["reference_actor"], k)
        self.fresh(actor, k)
        sign = 1 if operand["direction"] == "more" else -1
        self.set(actor, k, ref + sign * Fraction(delta["value"]) * size(delta["unit"]))

    def compare_multiplicative(self, op: Op) -> None:
        """The actor holds a factor times the reference's one kind."""
        actor, operand = op["actor"], op["operand"]
        ref_kinds = self.kinds(operand["reference_actor"])
        if len(ref_kinds) != 1:
            raise Unsound("the reference holds no single kind")
        (k,) = ref_kinds
        self.fresh(actor, k)
        self.set(actor, k, self.need(operand["reference_actor"], k) * Fraction(operand["factor"]))

    def unit_partition(self, op: Op) -> None:
        """The actor's holding split into chunks, creating a whole positive count of pieces."""
        actor, operand = op["actor"], op["operand"]
        u, r = operand["unit"], operand["result_unit"]
        if kind_of(r) not in COUNT_KINDS or kind_of(r) == kind_of(u):
            raise Unsound("a partition must make a new count")
        pieces = self.need(actor, kind_of(u)) / (Fraction(operand["value"]) * size(u))
        if pieces.denominator != 1 or pieces <= 0:
            raise Unsound(f"{pieces} pieces")
        self.fresh(actor, kind_of(r))
        self.set(actor, kind_of(r), pieces * size(r))

    def answer(self, unknown: dict[str, Any]) -> Fraction:
        """The asked holding (or the total over all entities when ``entity`` is None), in the unit asked."""
        k = kind_of(unknown["unit"])
        owners = [unknown["entity"]] if unknown["entity"] is not None else [e for (e, kk) in self.held if kk == k]
        if not owners:
            raise Unsound("nobody holds the asked kind")
        return sum((self.need(e, k) for e in owners), Fraction(0)) / size(unknown["unit"])


def replay(data: Graph, operations: list[Op] | None = None, *, strict: bool = True) -> World:
    """Run the evaluator over a graph's initial state and ``operations`` (default: all of them)."""
    world = World(strict=strict)
    for poss in data["initial_state"]:
        q = poss["quantity"]
        if strict or q["unit"] in UNITS:
            world.fresh(poss["entity"], kind_of(q["unit"]))
            world.set(poss["entity"], kind_of(q["unit"]), Fraction(q["value"]) * size(q["unit"]))
        else:
            world.faults.append(f"unknown unit {q['unit']!r}")
    for op in data["operations"] if operations is None else operations:
        world.apply(op)
    return world


def evaluate(data: Graph) -> Fraction:
    """The evaluator's answer to a graph."""
    return replay(data).answer(data["unknown"])


def faults_of(data: Graph) -> list[str]:
    """Every fault the evaluator finds in a graph, in source order."""
    return replay(data, strict=False).faults


# ---------------------------------------------------------------- sound graphs, by construction


positive = st.builds(Fraction, st.integers(1, 40), st.sampled_from((1, 2, 4, 5)))


def qty(value: Fraction, unit: str) -> dict[str, Any]:
    """A JSON quantity: ``value`` (exact) in ``unit``."""
    return {"unit": unit, "value": num(value)}


def draw_amount(draw: st.DrawFn, unit: str) -> Fraction:
    """A non-negative amount in ``unit``; whole in a count unit."""
    if kind_of(unit) in COUNT_KINDS:
        return Fraction(draw(st.integers(0, 3 if unit == "dozen" else 20)))
    return draw(st.builds(Fraction, st.integers(0, 40), st.sampled_from((1, 2, 4, 5))))


def draw_at_most(draw: st.DrawFn, unit: str, held: Fraction) -> Fraction:
    """An amount in ``unit`` that does not exceed ``held`` base units; whole in a count unit."""
    limit = held / size(unit)
    if kind_of(unit) in COUNT_KINDS:
        return Fraction(draw(st.integers(0, math.floor(limit))))
    share = draw(st.sampled_from((Fraction(0), Fraction(1, 4), Fraction(1, 2), Fraction(1))))
    return draw(st.sampled_from((limit * share, Fraction(math.floor(limit)))))


def draw_rate(draw: st.DrawFn, held_d: Fraction, n_unit: str) -> Fraction:
    """A positive rate whose product with ``held_d`` (in the denominator unit) is a whole count when N is one."""
    if kind_of(n_unit) in COUNT_KINDS and held_d != 0:
        return Fraction(draw(st.integers(1, 30))) / (held_d * size(n_unit))
    return draw(positive)


def draw_count_factor(draw: st.DrawFn, held: Fraction) -> Fraction:
    """A positive factor that keeps the whole count ``held`` whole."""
    divisors = [d for d in (1, 2, 3, 4) if held % d == 0]
    return Fraction(draw(st.integers(1, 4)), draw(st.sampled_from(divisors)))


def draw_chunk(draw: st.DrawFn, held: Fraction, k: str) -> tuple[str, Fraction]:
    """A unit of kind ``k`` and a chunk that splits ``held`` (> 0) into a whole number of pieces.

    A chunk of a count is itself a count, so it is whole too.
    """
    if k not in COUNT_KINDS:
        unit = draw(st.sampled_from(UNITS_OF[k]))
        return unit, held / size(unit) / draw(st.integers(1, 12))
    unit = draw(st.sampled_from([u for u in UNITS_OF[k] if (held / size(u)).denominator == 1]))
    whole = int(held / size(unit))
    return unit, Fraction(whole, draw(st.sampled_from([d for d in range(1, whole + 1) if whole % d == 0])))


def pick(draw: st.DrawFn, options: list[T]) -> T | None:
    """One of ``options``, or None when there are none."""
    return draw(st.sampled_from(options)) if options else None


def build_op(draw: st.DrawFn, kind: str, world: World, entities: list[str]) -> Op | None:
    """A sound operation of ``kind`` on ``world``, or None when there is none to make."""
    if kind == "add" or (kind == "transfer" and len(entities) < 2):
        unit = draw(st.sampled_from(tuple(UNITS)))
        return {"actor": draw(st.sampled_from(entities)), "kind": "add", "operand": qty(draw_amount(draw, unit), unit)}
    if kind in ("subtract", "transfer", "multiply", "divide"):
        return build_change(draw, kind, world, entities)
    if kind == "apply_rate":
        return build_apply_rate(draw, world)
    if kind == "compare_additive":
        return build_compare_additive(draw, world, entities)
    if kind == "compare_multiplicative":
        return build_compare_multiplicative(draw, world, entities)
    assert kind == "unit_partition"
    return build_unit_partition(draw, world)


def build_change(draw: st.DrawFn, kind: str, world: World, entities: list[str]) -> Op | None:
    """A sound subtract, transfer, multiply or divide of a holding, or None when nobody holds anything."""
    pair = pick(draw, world.pairs())
    if pair is None:
        return None
    actor, k = pair
    unit = draw(st.sampled_from(UNITS_OF[k]))
    held = world.held[pair]
    op: Op = {"actor": actor, "kind": kind}
    if kind in ("subtract", "transfer"):
        op["operand"] = qty(draw_at_most(draw, unit, held), unit)
        if kind == "transfer":
            op["target"] = draw(st.sampled_from([e for e in entities if e != actor]))
    elif kind == "multiply":
        scalar = Fraction(draw(st.integers(0, 4))) if k in COUNT_KINDS else draw(positive | st.just(Fraction(0)))
        op["operand"] = qty(scalar, unit)
    else:
        divisors = [d for d in range(1, 13) if held == 0 or held % d == 0]
        scalar = Fraction(draw(st.sampled_from(divisors))) if k in COUNT_KINDS else draw(positive)
        op["operand"] = qty(scalar, unit)
    return op


def build_apply_rate(draw: st.DrawFn, world: World) -> Op | None:
    """A sound apply_rate creating a kind its actor does not hold, or None when there is none to make."""
    options = [(e, d, n) for (e, d) in world.pairs() for n in KINDS if n != d and n not in world.kinds(e)]
    choice = pick(draw, options)
    if choice is None:
        return None
    actor, d, n = choice
    d_unit, n_unit = draw(st.sampled_from(UNITS_OF[d])), draw(st.sampled_from(UNITS_OF[n]))
    rate = draw_rate(draw, world.held[(actor, d)] / size(d_unit), n_unit)
    operand: dict[str, Any] = {"value": num(rate), "numerator_unit": n_unit, "denominator_unit": d_unit}
    return {"actor": actor, "kind": "apply_rate", "operand": operand}


def build_compare_additive(draw: st.DrawFn, world: World, entities: list[str]) -> Op | None:
    """A sound "d more / fewer than R" for an actor without R's kind, or None when there is none to make."""
    compared = [(a, r, k) for (r, k) in world.pairs() for a in entities if a != r and k not in world.kinds(a)]
    choice = pick(draw, compared)
    if choice is None:
        return None
    actor, ref, k = choice
    unit = draw(st.sampled_from(UNITS_OF[k]))
    direction = draw(st.sampled_from(("more", "fewer")))
    delta = draw_amount(draw, unit) if direction == "more" else draw_at_most(draw, unit, world.held[(ref, k)])
    operand = {"reference_actor": ref, "direction": direction, "delta": qty(delta, unit)}
    return {"actor": actor, "kind": "compare_additive", "operand": operand}


def build_compare_multiplicative(draw: st.DrawFn, world: World, entities: list[str]) -> Op | None:
    """A sound "k times as many as R" for an empty-handed actor, or None when there is none to make."""
    pairs = [
        (a, r)
        for r in entities
        if len(world.kinds(r)) == 1
        for a in entities
        if a != r and not world.kinds(a)  # 'as many' names no unit: an actor holding another kind is ambiguous
    ]
    choice = pick(draw, pairs)
    if choice is None:
        return None
    actor, ref = choice
    (k,) = world.kinds(ref)
    held = world.held[(ref, k)]
    factor = draw_count_factor(draw, held) if k in COUNT_KINDS else draw(positive)
    direction = "times" if factor >= 1 else "fraction"
    operand = {"reference_actor": ref, "direction": direction, "factor": num(factor)}
    return {"actor": actor, "kind": "compare_multiplicative", "operand": operand}


def build_unit_partition(draw: st.DrawFn, world: World) -> Op | None:
    """A sound unit_partition of a positive holding into a new count, or None when there is none to make."""
    options = [
        (e, u, r)
        for (e, u) in world.pairs()
        if world.held[(e, u)] > 0
        for r in PARTITION_UNITS
        if kind_of(r) != u and kind_of(r) not in world.kinds(e)
    ]
    choice = pick(draw, options)
    if choice is None:
        return None
    actor, u, r = choice
    unit, chunk = draw_chunk(draw, world.held[(actor, u)], u)
    return {"actor": actor, "kind": "unit_partition", "operand": {"value": num(chunk), "unit": unit, "result_unit": r}}


def question_resolves(operations: list[Op], entity: str | None, k: str) -> bool:
    """ADR-0135's question-form rule (SPEC §4 "Question targets") admits asking ``entity``'s kind ``k``.

    Of the operations touching the entity (actor, target or reference; all of them for a
    total): a comparison makes the form ``ratio``/``difference``; otherwise an apply_rate
    requires ``k`` to be a rate's numerator or denominator kind (else
    ``apply_rate_unit_mismatch``, a refusal of the question, not of the graph).
    """
    touching = [
        op
        for op in operations
        if entity is None or entity in (op["actor"], op.get("target"), op["operand"].get("reference_actor"))
    ]
    if any(op["kind"].startswith("compare_") for op in touching):
        return True
    rates = [op["operand"] for op in touching if op["kind"] == "apply_rate"]
    return not rates or any(k in (kind_of(r["numerator_unit"]), kind_of(r["denominator_unit"])) for r in rates)


@st.composite
def sound_graphs(draw: st.DrawFn) -> Graph:
    """A sound math problem graph (upstream JSON layout) whose unknown the evaluator can answer."""
    entities = list(ENTITIES[: draw(st.integers(1, 3))])
    keys = draw(
        st.lists(st.tuples(st.sampled_from(entities), st.sampled_from(KINDS)), min_size=1, max_size=4, unique=True)
    )
    initial = []
    for entity, k in keys:
        unit = draw(st.sampled_from(UNITS_OF[k]))
        initial.append({"entity": entity, "quantity": qty(draw_amount(draw, unit), unit)})
    data: Graph = {"entities": entities, "initial_state": initial, "operations": [], "unknown": None}
    world = replay(data)
    for _ in range(draw(st.integers(0, 6))):
        kind = draw(st.sampled_from(OP_KINDS))
        op = build_op(draw, kind, world, entities) or build_op(draw, "add", world, entities)
        assert op is not None
        world.apply(op)
        data["operations"].append(op)
    totals: list[tuple[str | None, str]] = sorted({(None, k) for (_, k) in world.pairs()}, key=lambda s: s[1])
    scopes: list[tuple[str | None, str]] = [*world.pairs(), *totals]
    scopes = [(e, k) for e, k in scopes if question_resolves(data["operations"], e, k)]
    assume(scopes)
    asked, k = draw(st.sampled_from(scopes))
    data["unknown"] = {"entity": asked, "unit": draw(st.sampled_from(UNITS_OF[k]))}
    return data


# ---------------------------------------------------------------- one injected fault


def typo(draw: st.DrawFn, unit: str) -> str:
    """``unit`` misspelled: an extra ``x``, or one letter doubled; never a spelling the vocabulary resolves."""
    if draw(st.booleans()):
        wrong = unit + "x"
    else:
        i = draw(st.integers(0, len(unit) - 1))
        wrong = unit[: i + 1] + unit[i:]
    assume(not resolves(wrong))  # the misspelling happens to be a real unit
    return wrong


def resolves(surface: str) -> bool:
    """Whether the vocabulary resolves ``surface``."""
    try:
        VOCAB.resolve(surface)
    except UnitRefusal:
        return False
    return True


def unit_paths(data: Graph) -> list[tuple[Any, ...]]:
    """Where a unit is written in a holding or an operand: every ``*unit`` key outside the unknown."""
    found: list[tuple[Any, ...]] = []

    def walk(node: object, path: tuple[Any, ...]) -> None:
        items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
        for key, value in items:
            if isinstance(key, str) and key.endswith("unit") and isinstance(value, str):
                found.append((*path, key))
            else:
                walk(value, (*path, key))

    walk(data["initial_state"], ("initial_state",))
    walk(data["operations"], ("operations",))
    return found


def insert(data: Graph, position: int, ops: list[Op]) -> Graph:
    """A copy of ``data`` with ``ops`` inserted before operation ``position``."""
    out = copy.deepcopy(data)
    out["operations"][position:position] = ops
    return out


def single_fault(data: Graph) -> Graph:
    """Keep a faulty graph only if the injected fault is its one fault and its question still resolves.

    Inserting an operation can make a later one fault too (a subtract that creates a
    holding a later unit_partition then overwrites), and an injected apply_rate can make
    the question itself unanswerable (ADR-0135); those draws are discarded.
    """
    assume(len(faults_of(data)) == 1)
    assume(question_resolves(data["operations"], data["unknown"]["entity"], kind_of(data["unknown"]["unit"])))
    return data


def draw_position(draw: st.DrawFn, data: Graph) -> tuple[int, World]:
    """A random place among the operations, and the evaluator's world just before it."""
    position = draw(st.integers(0, len(data["operations"])))
    return position, replay(data, data["operations"][:position])


@st.composite
def with_typo(draw: st.DrawFn) -> Graph:
    """A sound graph with one unit, in any holding or operand, misspelled."""
    data = draw(sound_graphs())
    path = draw(st.sampled_from(unit_paths(data)))
    out = copy.deepcopy(data)
    node: Any = out
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = typo(draw, node[path[-1]])
    return out


@st.composite
def with_overdraw(draw: st.DrawFn) -> Graph:
    """A sound graph with one subtract or transfer of more of a count than the actor holds."""
    data = draw(sound_graphs())
    position, world = draw_position(draw, data)
    entities = data["entities"]
    actor = draw(st.sampled_from(entities))
    k = draw(st.sampled_from(COUNT_KINDS))
    unit = draw(st.sampled_from(UNITS_OF[k]))
    held = world.get(actor, k) or Fraction(0)
    value = math.floor(held / size(unit)) + draw(st.integers(1, 5))
    op: Op = {"actor": actor, "kind": "subtract", "operand": qty(Fraction(value), unit)}
    if len(entities) > 1 and draw(st.booleans()):
        op["kind"] = "transfer"
        op["target"] = draw(st.sampled_from([e for e in entities if e != actor]))
    return single_fault(insert(data, position, [op]))


def add(actor: str, unit: str, value: Fraction, world: World, setup: list[Op]) -> None:
    """Append a sound ``add`` to ``setup`` and apply it to ``world``."""
    op = {"actor": actor, "kind": "add", "operand": qty(value, unit)}
    world.apply(op)
    setup.append(op)


def ensure(draw: st.DrawFn, world: World, setup: list[Op], actor: str, k: str) -> None:
    """Make ``actor`` hold a positive amount of kind ``k`` (by a sound add) if it holds none or zero."""
    if not world.get(actor, k):
        add(actor, UNITS_OF[k][0], Fraction(draw(st.integers(1, 20))), world, setup)


@st.composite
def with_overwrite(draw: st.DrawFn) -> Graph:
    """A sound graph with one apply_rate, unit_partition or comparison writing a kind its actor already holds.

    Sound ``add`` operations just before it give the actor what the overwrite needs; a
    comparison's value differs from the held one, so it cannot pass as a consistency check.
    """
    data = draw(sound_graphs())
    position, world = draw_position(draw, data)
    entities = data["entities"]
    setup: list[Op] = []
    single_refs = [e for e in entities if len(world.kinds(e)) <= 1]  # a multiplicative reference holds one kind
    flavours = ["apply_rate", "unit_partition"]
    flavours += ["compare_additive"] if len(entities) > 1 else []
    flavours += ["compare_multiplicative"] if len(entities) > 1 and single_refs else []
    flavour = draw(st.sampled_from(flavours))
    if flavour == "compare_multiplicative":
        ref = draw(st.sampled_from(single_refs))
        actor = draw(st.sampled_from([e for e in entities if e != ref]))
    else:
        actor = draw(st.sampled_from(entities))
        ref = draw(st.sampled_from([e for e in entities if e != actor] or [actor]))
    if flavour == "apply_rate":
        d, n = draw(st.lists(st.sampled_from(KINDS), min_size=2, max_size=2, unique=True))
        ensure(draw, world, setup, actor, d)
        ensure(draw, world, setup, actor, n)
        d_unit, n_unit = draw(st.sampled_from(UNITS_OF[d])), draw(st.sampled_from(UNITS_OF[n]))
        rate = draw_rate(draw, world.held[(actor, d)] / size(d_unit), n_unit)
        operand: dict[str, Any] = {"value": num(rate), "numerator_unit": n_unit, "denominator_unit": d_unit}
    elif flavour == "unit_partition":
        r = draw(st.sampled_from(PARTITION_UNITS))
        u = draw(st.sampled_from([k for k in KINDS if k != kind_of(r)]))
        ensure(draw, world, setup, actor, u)
        ensure(draw, world, setup, actor, kind_of(r))
        unit, chunk = draw_chunk(draw, world.held[(actor, u)], u)
        operand = {"value": num(chunk), "unit": unit, "result_unit": r}
    else:
        ref_kinds = world.kinds(ref)
        if flavour == "compare_additive" or not ref_kinds:
            k = draw(st.sampled_from(KINDS))
        else:
            (k,) = ref_kinds
        ensure(draw, world, setup, ref, k)
        ensure(draw, world, setup, actor, k)
        unit = draw(st.sampled_from(UNITS_OF[k]))
        if flavour == "compare_additive":
            delta = draw_amount(draw, unit)
            operand = {"reference_actor": ref, "direction": "more", "delta": qty(delta, unit)}
            compared = world.held[(ref, k)] + delta * size(unit)
        else:
            held = world.held[(ref, k)]
            factor = draw_count_factor(draw, held) if k in COUNT_KINDS else draw(positive)
            operand = {
                "reference_actor": ref,
                "direction": "times" if factor >= 1 else "fraction",
                "factor": num(factor),
            }
            compared = held * factor
        if compared == world.held[(actor, k)]:
            add(actor, UNITS_OF[k][0], Fraction(1), world, setup)
    return single_fault(insert(data, position, [*setup, {"actor": actor, "kind": flavour, "operand": operand}]))


@st.composite
def with_zero_divisor(draw: st.DrawFn) -> Graph:
    """A sound graph with one divide by 0 of a holding the actor has."""
    data = draw(sound_graphs())
    position, world = draw_position(draw, data)
    actor = draw(st.sampled_from(data["entities"]))
    setup: list[Op] = []
    k = pick(draw, world.kinds(actor)) or draw(st.sampled_from(KINDS))
    if world.get(actor, k) is None:
        ensure(draw, world, setup, actor, k)
    unit = draw(st.sampled_from(UNITS_OF[k]))
    return single_fault(
        insert(data, position, [*setup, {"actor": actor, "kind": "divide", "operand": qty(Fraction(0), unit)}])
    )


# ---------------------------------------------------------------- running the library


def certified(data: Graph) -> list[Answer]:
    """The answers the library certifies for a JSON graph (none when binding raises a typed error)."""
    try:
        graph = bind_math_problem_graph(graph_from_dict(data), VOCAB)
    except TYPED_ERRORS as exc:
        error: MathGraphError | BindingGraphError | UnitRefusal = exc
    else:
        return certified_answers(graph)
    assert error.reason, error
    return []


def certified_answers(graph: BindingGraph) -> list[Answer]:
    """The answers ``verify`` certifies for a bound graph (every other answer is a Refusal)."""
    report = verify(graph, VOCAB)
    assert report.answers, "the graph has no answers at all"
    for result in report.answers.values():
        assert isinstance(result, (Answer, Refusal)), result
    return [a for a in report.answers.values() if isinstance(a, Answer)]


def exact(answer: Answer) -> Fraction:
    """The answer's value as a ``Fraction``."""
    return Fraction(int(answer.value.p), int(answer.value.q))


def assert_never_certified(data: Graph) -> None:
    """The evaluator finds a fault in the graph, and the library certifies none of its answers."""
    assert faults_of(data)
    with pytest.raises(Unsound):
        evaluate(data)
    answers = certified(data)
    assert not answers, f"certified {answers} for an unsound graph"


# ---------------------------------------------------------------- properties


@given(sound_graphs())
def test_sound_graph_answers_equal_the_independent_evaluator(data: Graph) -> None:
    """Every sound graph is certified with exactly the evaluator's value, in the unit asked."""
    expected = evaluate(data)
    graph = bind_math_problem_graph(graph_from_dict(data), VOCAB)
    (result,) = verify(graph, VOCAB).answers.values()
    assert isinstance(result, Answer), result
    assert (exact(result), result.unit) == (expected, data["unknown"]["unit"])


@given(with_typo())
def test_a_typo_in_any_unit_is_never_certified(data: Graph) -> None:
    """A misspelled unit in any holding or operand, even one the answer does not read, leaves no answer certified."""
    assert_never_certified(data)


@given(with_overdraw())
def test_an_overdrawn_count_is_never_certified(data: Graph) -> None:
    """A subtract or transfer of more of a count than is held (a negative count anywhere) leaves no answer certified."""
    assert_never_certified(data)


@given(with_overwrite())
def test_an_overwritten_holding_is_never_certified(data: Graph) -> None:
    """An apply_rate, unit_partition or comparison writing a kind its actor already holds leaves no answer certified."""
    assert_never_certified(data)


@given(with_zero_divisor())
def test_a_zero_divisor_is_never_certified(data: Graph) -> None:
    """A divide by 0 anywhere in the graph leaves no answer certified."""
    assert_never_certified(data)


def span(text: str) -> dict[str, Any]:
    """A binding-graph JSON source span covering all of ``text``."""
    return {"source_id": "soundness_property", "start": 0, "end": len(text), "text": text}


def json_symbol(sid: str, role: str, entity: str | None, unit: str | None) -> dict[str, Any]:
    """A binding-graph JSON symbol named ``sid`` with its role, entity and unit."""
    return {
        "symbol_id": sid,
        "name": sid,
        "semantic_role": role,
        "source_span": span(sid),
        "introduced_by": "test",
        "entity": entity,
        "unit": unit,
    }


@given(
    value=st.integers(1, 1000),
    unit=st.sampled_from(("dollars", "feet", "items", "hours")),
    form=st.sampled_from((("q*z/z", "multiply"), ("q/z*z", "divide"), ("z*q/z", "multiply"))),
)
def test_a_cancelled_zero_divisor_in_binding_graph_json_is_never_certified(
    value: int, unit: str, form: tuple[str, str]
) -> None:
    """Binding-graph JSON r := q*z/z (or q/z*z) with z = 0 is never certified, whatever sympy cancels."""
    rhs, kind = form
    data = {
        "symbols": [
            json_symbol("entity_ana", "entity", "Ana", None),
            json_symbol("q", "quantity", "Ana", unit),
            json_symbol("z", "ratio", None, None),
            json_symbol("r", "quantity", "Ana", unit),
            json_symbol("unknown_ana", "unknown", "Ana", unit),
        ],
        "facts": [
            {"symbol_id": "q", "value": str(value), "unit": unit, "source_span": span("q")},
            {"symbol_id": "z", "value": "0", "unit": None, "source_span": span("z")},
        ],
        "equations": [
            {
                "lhs_symbol_id": "r",
                "rhs_canonical": rhs,
                "operation_kind": kind,
                "literal_unit": None,
                "source_span": span(rhs),
            }
        ],
        "unknowns": [
            {
                "symbol_id": "unknown_ana",
                "expected_unit": unit,
                "state_index": "terminal",
                "question_form": "count" if unit == "items" else "total",
                "question_span": span("unknown_ana"),
            }
        ],
    }
    try:
        graph = BindingGraph.from_json(data)
    except BindingGraphError as exc:
        error = exc
    else:
        answers = certified_answers(graph)
        assert not answers, f"certified {answers} for r := {rhs} with z = 0"
        return
    assert error.reason, error
