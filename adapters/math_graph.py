"""The typed math problem graph (ADR-0115) and its binding to a verifier graph (ADR-0133).

Owns the schema (:class:`MathProblemGraph` and its parts), its JSON round trip
(:func:`graph_from_dict`, :meth:`MathProblemGraph.as_json`,
:meth:`MathProblemGraph.canonical_bytes`) and :func:`bind_math_problem_graph`.

Symbol ids follow the upstream conventions so equations align one to one with
the upstream adapter's: ``entity_<slug>``, ``q_<entity>_<unit>_t0``,
``op_<NNN>_result``, ``op_<NNN>__multiplicand``, ``op_<NNN>__divisor``,
``op_<NNN>__rate``, ``unknown_<scope>_<unit>``.  New ones, in the same style:

* ``op_<NNN>_target_result`` — the transfer target's new state;
* ``op_<NNN>__chunk`` — the chunk of a ``unit_partition``;
* ``op_<NNN>__share`` — the share of a count that a ``fraction_portion`` leaves (``1 - n/d``;
  a symbol, so that using all of it still reads the count).

Unlike the upstream adapter, each operation reads the actor's *current* state
(the previous result), a transfer defines the target's new state too, every
kind is supported, and a multiply or divide scalar is a unitless ``ratio``.
An entity's state is keyed by quantity kind (registry dimensionality), not by
spelling: 3 feet then 9 more inches is one length.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Final, TypeVar

if TYPE_CHECKING:
    import sympy
else:
    from verifier.lazy import sympy

from adapters._common import (
    bound_equation,
    bound_symbol,
    exact,
    fields,
    given_vocabulary,
    json_number,
    name,
    record_id,
    slug,
    span,
)
from adapters.errors import MathGraphError
from units import UnitRef, UnitRefusal, UnitVocabulary
from units.dimension import COUNT, TEMPERATURE
from units.errors import clip
from units.exact import format_exact, is_text, type_kind
from units.vocabulary import PER
from verifier import BindingGraph, BoundEquation, BoundFact, BoundUnknown, SymbolBinding, check_equation
from verifier.admissibility import remember_verdicts
from verifier.errors import BindingGraphError
from verifier.forms import difference_of, multiple_of, product_of, quotient_of, sum_with_constant
from verifier.kinds import OperationKind, is_operation_kind
from verifier.model import OPERATION_KINDS, UNVERIFIED_PROOF, SemanticRole, build_checked, replace_checked
from verifier.targets import QuestionTargetError, question_form

_TEMPERATURE: Final = TEMPERATURE

SOURCE_ID: Final[str] = "math_problem_graph"
INTRODUCED_BY: Final[str] = "bind_math_problem_graph"
MAX_ENTITIES: Final[int] = 1000
MAX_OPERATIONS: Final[int] = 1000


class _JsonValue:
    """``to_json`` (the upstream layout) and its former name ``as_json``, for the graph's value types."""

    __slots__ = ()

    def to_json(self) -> dict[str, object]:
        raise NotImplementedError

    def as_json(self) -> dict[str, object]:
        """The former name of :meth:`to_json` (kept so existing callers keep working)."""
        return self.to_json()


@dataclass(frozen=True, slots=True, kw_only=True)
class Quantity(_JsonValue):
    """An exact magnitude with a unit surface: ``Quantity(Fraction(3), "apples")``."""

    value: Fraction
    unit: str

    def to_json(self) -> dict[str, object]:
        """``{"unit": "apples", "value": 3}`` (a non-whole value as ``"7/2"``)."""
        return {"unit": self.unit, "value": json_number(self.value)}

    @classmethod
    def from_json(cls, data: object, /, *, path: str = "quantity") -> Quantity:
        """Read :meth:`to_json` output (numbers as SPEC §4 "Numbers" says).

        Raises:
            MathGraphError: ``malformed_input`` / ``input_too_large`` naming the field under ``path``.
        """
        return _quantity(data, path)


@dataclass(frozen=True, slots=True, kw_only=True)
class Rate(_JsonValue):
    """``value`` numerator units per denominator unit: ``Rate(15, "dollars", "hours")``; value > 0."""

    value: Fraction
    numerator_unit: str
    denominator_unit: str

    def to_json(self) -> dict[str, object]:
        """Upstream layout."""
        return {
            "denominator_unit": self.denominator_unit,
            "numerator_unit": self.numerator_unit,
            "value": json_number(self.value),
        }

    @classmethod
    def from_json(cls, data: object, /, *, path: str = "operand") -> Rate:
        """Read :meth:`to_json` output: its layout and exact numbers (see :func:`_read_operand`)."""
        return _read_operand(cls, "apply_rate", data, path)


@dataclass(frozen=True, slots=True, kw_only=True)
class Comparison(_JsonValue):
    """A comparison with another entity's state.

    ``direction`` is ``more``/``fewer`` with a ``delta`` (compare_additive) or
    ``times``/``fraction`` with a positive ``factor`` (compare_multiplicative).
    """

    reference_actor: str
    direction: str
    delta: Quantity | None = None
    factor: Fraction | None = None

    def to_json(self) -> dict[str, object]:
        """Upstream layout."""
        out: dict[str, object] = {"direction": self.direction, "reference_actor": self.reference_actor}
        if self.delta is not None:
            out["delta"] = self.delta.to_json()
        if self.factor is not None:
            out["factor"] = json_number(self.factor)
        return out

    @classmethod
    def from_json(cls, data: object, /, *, path: str = "operand") -> Comparison:
        """Read :meth:`to_json` output: its layout and exact numbers (see :func:`_read_operand`)."""
        return _read_operand(cls, "compare_additive", data, path)


@dataclass(frozen=True, slots=True, kw_only=True)
class PartitionChunk(_JsonValue):
    """Split a state into chunks of ``value`` ``unit`` each, counted in ``result_unit`` (value > 0)."""

    value: Fraction
    unit: str
    result_unit: str

    def to_json(self) -> dict[str, object]:
        """Upstream layout."""
        return {"result_unit": self.result_unit, "unit": self.unit, "value": json_number(self.value)}

    @classmethod
    def from_json(cls, data: object, /, *, path: str = "operand") -> PartitionChunk:
        """Read :meth:`to_json` output: its layout and exact numbers (see :func:`_read_operand`)."""
        return _read_operand(cls, "unit_partition", data, path)


_SIGNED_BY_KIND: Final[frozenset[str]] = frozenset({"add", "subtract", "transfer", "multiply", "divide"})
"""Kinds whose direction is the kind itself, so their amount is never negative (``transfer`` of -3 is refused)."""

FRACTION_REFERENTS: Final[tuple[str, ...]] = ("that", "it", "them", "rest", "the_rest")
"""The closed set of a ``fraction_portion``'s referents (upstream's reader; SPEC §5).

Each names the same thing: the actor's current holding of the count kind its latest
``unit_partition`` made.  Anything else, a unit name included, is ``malformed_input``."""


@dataclass(frozen=True, slots=True, kw_only=True)
class FractionPortion(_JsonValue):
    """``numerator/denominator`` of the actor's current holding of the count its latest unit_partition made is used up.

    ``referent`` is one of :data:`FRACTION_REFERENTS` (checked by :func:`graph_from_dict`
    and :class:`MathProblemGraph`); the portion used up must be a whole number.
    """

    numerator: Fraction
    denominator: Fraction
    referent: str

    def to_json(self) -> dict[str, object]:
        """``{"denominator", "numerator", "referent"}``."""
        return {
            "denominator": json_number(self.denominator),
            "numerator": json_number(self.numerator),
            "referent": self.referent,
        }

    @classmethod
    def from_json(cls, data: object, /, *, path: str = "operand") -> FractionPortion:
        """Read :meth:`to_json` output: its layout and exact numbers (see :func:`_read_operand`)."""
        return _read_operand(cls, "fraction_portion", data, path)


Operand = Quantity | Rate | Comparison | PartitionChunk | FractionPortion


@dataclass(frozen=True, slots=True, kw_only=True)
class InitialPossession(_JsonValue):
    """``entity`` holds ``quantity`` at the start."""

    entity: str
    quantity: Quantity

    def to_json(self) -> dict[str, object]:
        """Upstream layout."""
        return {"entity": self.entity, "quantity": self.quantity.to_json()}

    @classmethod
    def from_json(cls, data: object, /, *, path: str = "initial_state") -> InitialPossession:
        """Read :meth:`to_json` output.

        Raises:
            MathGraphError: ``malformed_input`` / ``input_too_large`` naming the field under ``path``.
        """
        poss = fields(data, path, {"entity", "quantity"}, set())
        return cls(
            entity=name(poss["entity"], f"{path}.entity"), quantity=_quantity(poss["quantity"], f"{path}.quantity")
        )


@dataclass(frozen=True, slots=True, kw_only=True)
class Operation(_JsonValue):
    """One event: ``actor`` does ``kind`` with ``operand`` (and ``target`` for a transfer)."""

    actor: str
    kind: OperationKind
    operand: Operand
    target: str | None = None

    def to_json(self) -> dict[str, object]:
        """Upstream layout (``target`` only for a transfer)."""
        out: dict[str, object] = {"actor": self.actor, "kind": self.kind, "operand": self.operand.to_json()}
        if self.target is not None:
            out["target"] = self.target
        return out

    @classmethod
    def from_json(cls, data: object, /, *, path: str = "operation") -> Operation:
        """Read :meth:`to_json` output (the operand by the kind's operand type).

        Raises:
            MathGraphError: ``malformed_input`` (an unknown kind among them) / ``input_too_large``
                naming the field under ``path``.
        """
        op = fields(data, path, {"actor", "kind", "operand"}, {"target"})
        kind = op["kind"]
        if not is_operation_kind(kind) or kind not in _OPERAND_TYPE:
            raise MathGraphError(
                "malformed_input",
                f"unknown operation kind {clip(kind)}; expected one of {list(OPERATION_KINDS)}",
                f"{path}.kind",
            )
        target = op.get("target")
        return cls(
            actor=name(op["actor"], f"{path}.actor"),
            kind=kind,
            operand=_operand(kind, op["operand"], f"{path}.operand"),
            target=None if target is None else name(target, f"{path}.target"),
        )


@dataclass(frozen=True, slots=True, kw_only=True)
class Unknown(_JsonValue):
    """What is asked: ``entity``'s holding in ``unit``, or the total over all entities when ``entity`` is ``None``."""

    entity: str | None
    unit: str

    def to_json(self) -> dict[str, object]:
        """Upstream layout."""
        return {"entity": self.entity, "unit": self.unit}

    @classmethod
    def from_json(cls, data: object, /, *, path: str = "unknown") -> Unknown:
        """Read :meth:`to_json` output (``entity`` may be absent or ``null``: the total).

        Raises:
            MathGraphError: ``malformed_input`` / ``input_too_large`` naming the field under ``path``.
        """
        unk = fields(data, path, {"unit"}, {"entity"})
        entity = unk.get("entity")
        return cls(
            entity=None if entity is None else name(entity, f"{path}.entity"), unit=name(unk["unit"], f"{path}.unit")
        )


_OPERAND_TYPE: Final[dict[str, type]] = {
    "add": Quantity,
    "subtract": Quantity,
    "transfer": Quantity,
    "multiply": Quantity,
    "divide": Quantity,
    "apply_rate": Rate,
    "compare_additive": Comparison,
    "compare_multiplicative": Comparison,
    "unit_partition": PartitionChunk,
    "fraction_portion": FractionPortion,
}


@dataclass(frozen=True, slots=True, kw_only=True)
class MathProblemGraph(_JsonValue):
    """A math word problem as a typed state-change graph (ADR-0115), validated on construction.

    Attributes:
        entities: distinct entity names, in order of introduction.
        initial_state: what each entity holds at the start.
        operations: the events, in text order.
        unknown: what is asked.

    Raises:
        MathGraphError: ``malformed_input`` naming the field, for: no or duplicate
            entities; a reference to no entity; a transfer without a distinct target, or a
            target on another kind; an operand of the wrong type for its kind; a comparison
            direction that does not fit its kind, or comparing an actor with itself; a
            non-positive rate, chunk or factor; a fraction outside ``0 <= n <= d``;
            contradictory initial possessions (one entity, one unit, two values).
            ``input_too_large`` beyond :data:`MAX_ENTITIES` / :data:`MAX_OPERATIONS`.
    """

    entities: tuple[str, ...]
    initial_state: tuple[InitialPossession, ...]
    operations: tuple[Operation, ...]
    unknown: Unknown

    def __post_init__(self) -> None:
        _check_size(self)
        for i, entity in enumerate(self.entities):
            name(entity, f"entities[{i}]")
        _check_record_types(self)
        _check_numbers(self)  # before the operations' checks compare them with 0
        _check_relations(self)

    def to_json(self) -> dict[str, object]:
        """The upstream JSON layout; :func:`graph_from_dict` reads it back to an equal graph."""
        return {
            "entities": list(self.entities),
            "initial_state": [p.to_json() for p in self.initial_state],
            "operations": [o.to_json() for o in self.operations],
            "unknown": self.unknown.to_json(),
        }

    @classmethod
    def from_json(cls, data: object, /) -> MathProblemGraph:
        """Read :meth:`to_json` output (the upstream layout): :func:`graph_from_dict`."""
        return graph_from_dict(data)

    def canonical_bytes(self) -> bytes:
        """UTF-8 JSON with sorted keys and compact separators (byte-equal for equal graphs)."""
        return json.dumps(self.to_json(), sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def _check_size(graph: MathProblemGraph) -> None:
    """A graph has entities, its parts are tuples, and it has at most MAX_ENTITIES entities and MAX_OPERATIONS operations."""
    entities: object = graph.entities  # typed, but an untyped caller may pass anything
    if isinstance(entities, tuple) and not entities:
        raise MathGraphError("malformed_input", "a graph needs at least one entity", "entities")
    for part in ("entities", "initial_state", "operations"):
        items: object = getattr(graph, part)
        if not isinstance(items, tuple):
            raise MathGraphError("malformed_input", f"must be a tuple, found {type_kind(items)}", part)
    if len(graph.entities) > MAX_ENTITIES or len(graph.operations) > MAX_OPERATIONS:
        raise MathGraphError(
            "input_too_large", f"more than {MAX_ENTITIES} entities or {MAX_OPERATIONS} operations", "graph"
        )


def _check_relations(graph: MathProblemGraph) -> None:
    """The rules between a graph's records, once each record's own fields are checked (the class docstring's list).

    Raises:
        MathGraphError: ``malformed_input`` naming the field.
    """
    if len(set(graph.entities)) != len(graph.entities):
        dup = next(e for e in graph.entities if graph.entities.count(e) > 1)
        raise MathGraphError("malformed_input", f"duplicate entity {dup!r}", "entities")
    known = set(graph.entities)
    held: dict[tuple[str, str], Fraction] = {}
    for i, poss in enumerate(graph.initial_state):
        if poss.entity not in known:
            raise MathGraphError("malformed_input", f"{poss.entity!r} is not an entity", f"initial_state[{i}].entity")
        key = (poss.entity, poss.quantity.unit)
        if key in held and held[key] != poss.quantity.value:
            raise MathGraphError(
                "malformed_input",
                f"{poss.entity} holds {format_exact(held[key])} and {format_exact(poss.quantity.value)} {poss.quantity.unit}",
                f"initial_state[{i}]",
            )
        held[key] = poss.quantity.value
    for i, op in enumerate(graph.operations):
        _check_operation(op, known, f"operations[{i}]")
    if graph.unknown.entity is not None and graph.unknown.entity not in known:
        raise MathGraphError("malformed_input", f"{graph.unknown.entity!r} is not an entity", "unknown.entity")


def _operand_numbers(operand: object) -> list[tuple[str, object]]:
    """Every number an operand holds, by its field path (``delta.value``, ``factor``, ...)."""
    if isinstance(operand, (Quantity, Rate, PartitionChunk)):
        return [("value", operand.value)]
    if isinstance(operand, Comparison):  # a delta that is no Quantity is the comparison check's to refuse
        delta: list[tuple[str, object]] = (
            [("delta.value", operand.delta.value)] if isinstance(operand.delta, Quantity) else []
        )
        return delta + ([("factor", operand.factor)] if operand.factor is not None else [])
    if isinstance(operand, FractionPortion):
        return [("numerator", operand.numerator), ("denominator", operand.denominator)]
    return []


def _check_numbers(graph: MathProblemGraph) -> None:
    """Every number of a graph built in Python is a ``Fraction`` or an ``int`` (:func:`graph_from_dict` reads the rest).

    Raises:
        MathGraphError: ``malformed_input`` naming the field (a float, ``Decimal``, ``bool``, string ...).
    """
    for i, poss in enumerate(graph.initial_state):
        _check_number(poss.quantity.value, "initial_state", i, "quantity.value")
    for i, op in enumerate(graph.operations):
        for field, number in _operand_numbers(op.operand):
            _check_number(number, "operations", i, f"operand.{field}")


def _check_number(number: object, part: str, index: int, field: str) -> None:
    """One number: a ``Fraction`` or an ``int`` (not a ``bool``); the path is built only for the message."""
    if isinstance(number, Fraction) or type(number) is int:
        exact(number, f"{part}[{index}].{field}")  # the digit bound a number read from JSON passes
        return
    raise MathGraphError(
        "malformed_input",
        f"a number of a graph built in Python is a Fraction or an int, found {type(number).__name__}"
        " (graph_from_dict reads strings, floats and Decimals as SPEC §4 says)",
        f"{part}[{index}].{field}",
    )


def _check_record_types(graph: MathProblemGraph) -> None:
    """Check a graph built in Python holds its own records, and text in every name and unit field.

    :func:`graph_from_dict` builds only such graphs; a caller constructing one directly
    may not (``Unknown(entity="A", unit=5)`` had raised ``AttributeError`` deep in binding).

    Raises:
        MathGraphError: ``malformed_input`` naming the field.
    """
    for i, poss in enumerate(graph.initial_state):
        if not isinstance(poss, InitialPossession):
            raise MathGraphError(
                "malformed_input", f"expected an InitialPossession, found {type_kind(poss)}", f"initial_state[{i}]"
            )
        if not isinstance(poss.quantity, Quantity):
            quantity = poss.quantity
            raise MathGraphError(
                "malformed_input", f"expected a Quantity, found {type_kind(quantity)}", f"initial_state[{i}].quantity"
            )
        name(poss.entity, f"initial_state[{i}].entity")
    for i, op in enumerate(graph.operations):
        if not isinstance(op, Operation):
            raise MathGraphError("malformed_input", f"expected an Operation, found {type_kind(op)}", f"operations[{i}]")
        _check_operation_names(op, f"operations[{i}]")
    if not isinstance(graph.unknown, Unknown):
        raise MathGraphError("malformed_input", f"expected an Unknown, found {type_kind(graph.unknown)}", "unknown")
    if graph.unknown.entity is not None:
        name(graph.unknown.entity, "unknown.entity")
    for path, surface in unit_surfaces(graph):
        if not is_text(surface):
            name(surface, path)  # raises, saying what was found


def _check_operation_names(op: Operation, path: str) -> None:
    """An operation built in Python names its kind, actor, target and operand's entities and words with text.

    :meth:`Operation.from_json` reads each of these with :func:`name`; a record built
    directly may hold anything (a list as an actor had raised ``TypeError`` when hashed).

    Raises:
        MathGraphError: ``malformed_input`` naming the field.
    """
    name(op.kind, f"{path}.kind")
    name(op.actor, f"{path}.actor")
    if op.target is not None:
        name(op.target, f"{path}.target")
    operand = op.operand
    if isinstance(operand, Comparison):
        name(operand.reference_actor, f"{path}.operand.reference_actor")
        name(operand.direction, f"{path}.operand.direction")
        if operand.delta is not None and not isinstance(operand.delta, Quantity):
            raise MathGraphError(
                "malformed_input", f"expected a Quantity, found {type_kind(operand.delta)}", f"{path}.operand.delta"
            )
    elif isinstance(operand, FractionPortion):
        name(operand.referent, f"{path}.operand.referent")


def _check_operation(op: Operation, known: set[str], path: str) -> None:
    """Check one operation against the graph's entities: its kind, actor, operand type, target, then its operand.

    The operand's own rules are its kind's check (:data:`_OPERAND_CHECKS`).

    Raises:
        MathGraphError: ``malformed_input`` naming the field under ``path``.
    """
    check = _OPERAND_CHECKS.get(op.kind)
    if check is None:
        raise MathGraphError(
            "malformed_input",
            f"unknown operation kind {clip(op.kind)}; expected one of {list(OPERATION_KINDS)}",
            f"{path}.kind",
        )
    if op.actor not in known:
        raise MathGraphError("malformed_input", f"{op.actor!r} is not an entity", f"{path}.actor")
    expected = _OPERAND_TYPE[op.kind]
    if not isinstance(op.operand, expected):
        raise MathGraphError(
            "malformed_input",
            f"{op.kind} takes a {expected.__name__} operand, found {type(op.operand).__name__}",
            f"{path}.operand",
        )
    _check_target(op, known, path)
    check(op, known, path)


def _check_target(op: Operation, known: set[str], path: str) -> None:
    """A transfer's target is another entity of the graph; no other kind has a target.

    Raises:
        MathGraphError: ``malformed_input`` at ``<path>.target``.
    """
    if op.kind == "transfer":
        if op.target is None:
            raise MathGraphError("malformed_input", "a transfer needs a target", f"{path}.target")
        if op.target not in known:
            raise MathGraphError("malformed_input", f"{op.target!r} is not an entity", f"{path}.target")
        if op.target == op.actor:
            raise MathGraphError("malformed_input", "a transfer's target must differ from its actor", f"{path}.target")
    elif op.target is not None:
        raise MathGraphError("malformed_input", "only a transfer has a target", f"{path}.target")


def _check_amount(op: Operation, _known: set[str], path: str) -> None:
    """An add, subtract, transfer, multiply or divide amount is not negative: the kind carries the sign."""
    operand = op.operand
    if isinstance(operand, Quantity) and operand.value < 0 and op.kind in _SIGNED_BY_KIND:
        raise MathGraphError(
            "malformed_input",
            f"a {op.kind} amount is not negative (found {format_exact(operand.value)}): the kind carries the sign",
            f"{path}.operand.value",
        )


def _check_rate(op: Operation, _known: set[str], path: str) -> None:
    """A rate is positive."""
    operand = op.operand
    if isinstance(operand, Rate) and operand.value <= 0:
        raise MathGraphError("malformed_input", "a rate must be positive", f"{path}.operand.value")


def _check_comparison(op: Operation, known: set[str], path: str) -> None:
    """A comparison's direction fits its kind, its reference is another entity, and its delta or factor fits.

    A ``compare_additive`` takes a delta that is not negative (the direction carries the
    sign) and no factor; a ``compare_multiplicative`` takes a positive factor and no
    delta, below 1 for the direction ``fraction``.
    """
    operand = op.operand
    if not isinstance(operand, Comparison):
        return
    allowed = ("more", "fewer") if op.kind == "compare_additive" else ("times", "fraction")
    if operand.direction not in allowed:
        raise MathGraphError(
            "malformed_input",
            f"{op.kind} direction must be one of {allowed}, found {clip(operand.direction)}",
            f"{path}.operand.direction",
        )
    if operand.reference_actor not in known:
        raise MathGraphError(
            "malformed_input", f"{operand.reference_actor!r} is not an entity", f"{path}.operand.reference_actor"
        )
    if operand.reference_actor == op.actor:
        raise MathGraphError(
            "malformed_input", "an entity cannot be compared with itself", f"{path}.operand.reference_actor"
        )
    if op.kind == "compare_additive":
        _check_delta(operand, path)
    if op.kind == "compare_multiplicative":
        _check_factor(operand, path)


def _check_delta(operand: Comparison, path: str) -> None:
    """A ``compare_additive`` takes a delta, not negative, and no factor."""
    if operand.delta is None or operand.factor is not None:
        raise MathGraphError("malformed_input", "compare_additive takes a delta and no factor", f"{path}.operand")
    if operand.delta.value < 0:
        raise MathGraphError(
            "malformed_input",
            f"a delta is not negative (found {format_exact(operand.delta.value)}): the direction more/fewer carries the sign",
            f"{path}.operand.delta.value",
        )


def _check_factor(operand: Comparison, path: str) -> None:
    """A ``compare_multiplicative`` takes a positive factor and no delta; a ``fraction`` factor is below 1."""
    if operand.factor is None or operand.delta is not None:
        raise MathGraphError("malformed_input", "compare_multiplicative takes a factor and no delta", f"{path}.operand")
    if operand.factor <= 0:
        raise MathGraphError("malformed_input", "a factor must be positive", f"{path}.operand.factor")
    if operand.direction == "fraction" and operand.factor >= 1:
        raise MathGraphError(
            "malformed_input",
            f"a 'fraction' factor is below 1 (found {format_exact(operand.factor)}); 'times' multiplies by more",
            f"{path}.operand.factor",
        )


def _check_chunk(op: Operation, _known: set[str], path: str) -> None:
    """A partition's chunk is positive."""
    operand = op.operand
    if isinstance(operand, PartitionChunk) and operand.value <= 0:
        raise MathGraphError("malformed_input", "a chunk must be positive", f"{path}.operand.value")


def _check_portion(op: Operation, _known: set[str], path: str) -> None:
    """A fraction portion's referent is one of :data:`FRACTION_REFERENTS`, and ``0 <= numerator <= denominator``."""
    operand = op.operand
    if not isinstance(operand, FractionPortion):
        return
    if operand.referent not in FRACTION_REFERENTS:
        raise MathGraphError(
            "malformed_input",
            f"a fraction portion's referent is one of {list(FRACTION_REFERENTS)}, found {clip(operand.referent)}",
            f"{path}.operand.referent",
        )
    if not (0 <= operand.numerator <= operand.denominator and operand.denominator > 0):
        raise MathGraphError(
            "malformed_input",
            "a fraction portion needs 0 <= numerator <= denominator, denominator > 0",
            f"{path}.operand",
        )


_OPERAND_CHECKS: Final[dict[str, Callable[[Operation, set[str], str], None]]] = {
    "add": _check_amount,
    "subtract": _check_amount,
    "transfer": _check_amount,
    "multiply": _check_amount,
    "divide": _check_amount,
    "apply_rate": _check_rate,
    "compare_additive": _check_comparison,
    "compare_multiplicative": _check_comparison,
    "unit_partition": _check_chunk,
    "fraction_portion": _check_portion,
}
"""The operand check of each operation kind (the kinds of :data:`_OPERAND_TYPE`); :func:`_check_operation` refuses any other."""


# ----------------------------------------------------------------- JSON reading


def _quantity(data: object, path: str) -> Quantity:
    obj = fields(data, path, {"unit", "value"}, set())
    return Quantity(value=exact(obj["value"], f"{path}.value"), unit=name(obj["unit"], f"{path}.unit"))


_O = TypeVar("_O", bound="Quantity | Rate | Comparison | PartitionChunk | FractionPortion")


def _read_operand(cls: type[_O], kind: str, data: object, path: str) -> _O:
    """The operand ``kind`` takes, read from ``data``, as ``cls`` (the type :data:`_OPERAND_TYPE` gives ``kind``).

    It checks the layout and the exact numbers, and raises ``MathGraphError`` naming the field.
    The rules that depend on the operation (a direction that fits the kind, one of delta or
    factor, positive amounts, a fraction below its whole) are :class:`MathProblemGraph`'s,
    which knows the kind and the entities.
    """
    operand = _operand(kind, data, path)
    if not isinstance(operand, cls):  # _operand builds this very class for this kind
        raise MathGraphError("malformed_input", f"not a {cls.__name__}", path)
    return operand


def _operand(kind: str, data: object, path: str) -> Operand:
    if kind in ("add", "subtract", "transfer", "multiply", "divide"):
        return _quantity(data, path)
    if kind == "apply_rate":
        obj = fields(data, path, {"value", "numerator_unit", "denominator_unit"}, set())
        return Rate(
            value=exact(obj["value"], f"{path}.value"),
            numerator_unit=name(obj["numerator_unit"], f"{path}.numerator_unit"),
            denominator_unit=name(obj["denominator_unit"], f"{path}.denominator_unit"),
        )
    if kind in ("compare_additive", "compare_multiplicative"):
        obj = fields(data, path, {"reference_actor", "direction"}, {"delta", "factor"})
        delta = _quantity(obj["delta"], f"{path}.delta") if "delta" in obj else None
        factor = exact(obj["factor"], f"{path}.factor") if "factor" in obj else None
        return Comparison(
            reference_actor=name(obj["reference_actor"], f"{path}.reference_actor"),
            direction=name(obj["direction"], f"{path}.direction"),
            delta=delta,
            factor=factor,
        )
    if kind == "unit_partition":
        obj = fields(data, path, {"value", "unit", "result_unit"}, set())
        return PartitionChunk(
            value=exact(obj["value"], f"{path}.value"),
            unit=name(obj["unit"], f"{path}.unit"),
            result_unit=name(obj["result_unit"], f"{path}.result_unit"),
        )
    if kind == "fraction_portion":
        obj = fields(data, path, {"numerator", "denominator", "referent"}, set())
        return FractionPortion(
            numerator=exact(obj["numerator"], f"{path}.numerator"),
            denominator=exact(obj["denominator"], f"{path}.denominator"),
            referent=name(obj["referent"], f"{path}.referent"),
        )
    raise MathGraphError(
        "malformed_input",
        f"unknown operation kind {clip(kind)}; expected one of {list(OPERATION_KINDS)}",
        path.rsplit(".", 1)[0] + ".kind",
    )


GRAPH_FIELDS: Final[frozenset[str]] = frozenset({"entities", "initial_state", "operations", "unknown"})
"""The fields a math problem graph's JSON object holds (the upstream layout), besides an optional ``id``."""


def graph_from_dict(data: object) -> MathProblemGraph:
    """Read a math problem graph from JSON data (the upstream layout).

    Numbers follow SPEC §4 "Numbers": ints, exact strings (``"7/2"``, ``"2.5"``),
    ``Fraction``, finite ``Decimal``, ``sympy.Rational``, the text of JSON numbers as
    :func:`adapters.read_json` keeps them, and floats read as the decimal of their
    shortest repr (at most 15 significant digits).  An ``"id"`` string, as records carry,
    is allowed and ignored (it is metadata, not part of the graph).

    Raises:
        MathGraphError: ``malformed_input`` / ``input_too_large`` naming the field.
    """
    obj = fields(data, "graph", GRAPH_FIELDS, {"id"})
    if "id" in obj and obj["id"] is None:
        raise MathGraphError("malformed_input", "an id is a string, found None", "graph.id")
    record_id(obj.get("id"), "graph.id")
    lists: dict[str, list[object]] = {}
    for key in ("entities", "initial_state", "operations"):
        value = obj[key]
        if not isinstance(value, list):
            raise MathGraphError("malformed_input", f"must be a list, found {type(value).__name__}", key)
        if len(value) > max(MAX_ENTITIES, MAX_OPERATIONS):
            raise MathGraphError("input_too_large", f"more than {max(MAX_ENTITIES, MAX_OPERATIONS)} items", key)
        lists[key] = value
    entities = tuple(name(e, f"entities[{i}]") for i, e in enumerate(lists["entities"]))
    initial = tuple(
        InitialPossession.from_json(item, path=f"initial_state[{i}]") for i, item in enumerate(lists["initial_state"])
    )
    operations = tuple(Operation.from_json(item, path=f"operations[{i}]") for i, item in enumerate(lists["operations"]))
    # every field was read just now with the checks of the records' own rules (names, numbers as Fractions, the
    # record types): the graph checks only its size and the rules between records (validated once, here)
    graph = build_checked(
        MathProblemGraph,
        entities=entities,
        initial_state=initial,
        operations=operations,
        unknown=Unknown.from_json(obj["unknown"], path="unknown"),
    )
    _check_size(graph)
    _check_relations(graph)
    return graph


# ----------------------------------------------------------------- binding


@dataclass(frozen=True, slots=True)
class _Step:
    """One operation being bound: its index, and the ids and labels its symbols take from it (each built once).

    Attributes:
        index: the operation's position in the graph.
        op: the operation.
        prefix: ``op_007``, the prefix of the operation's symbol ids.
        result: ``op_007_result``, the actor's new state (or the comparison's value).
        label: ``op7.add.Sam``, the synthetic span of the operation's result.
        where: ``operations[7]``, the operation's path in the graph, for errors.
    """

    index: int
    op: Operation
    prefix: str
    result: str
    label: str
    where: str

    @classmethod
    def of(cls, index: int, op: Operation) -> _Step:
        """The step of ``op`` at ``index``."""
        prefix = f"op_{index:03d}"
        return cls(index, op, prefix, f"{prefix}_result", f"op{index}.{op.kind}.{op.actor}", f"operations[{index}]")


class _Binder:
    """Builds the binding graph; tracks each entity's current state per quantity kind."""

    def __init__(self, graph: MathProblemGraph, vocab: UnitVocabulary) -> None:
        self.graph = graph
        self.vocab = vocab
        self.symbols: list[SymbolBinding] = []
        self.facts: list[BoundFact] = []
        self.equations: list[BoundEquation] = []
        self.state: dict[tuple[str, object], tuple[str, str]] = {}  # (entity, kind) -> (symbol id, unit)
        self.partitions: dict[str, tuple[object, str]] = {}  # entity -> (kind, unit) of its latest partition count
        self.slugs: dict[str, str] = {}
        self.unit_slugs: dict[str, str] = {}  # unit surface -> its part of symbol ids, one per surface (see unit_slug)
        self.refs: dict[str, UnitRef | None] = {}  # unit surface -> resolved once per binding (see ref)
        self.operation_index = 0
        used: set[str] = set()
        for entity in graph.entities:
            base = slug(entity)
            candidate, n = base, 2
            while candidate in used:
                candidate, n = f"{base}_{n}", n + 1
            used.add(candidate)
            self.slugs[entity] = candidate

    def unit_slug(self, unit: str) -> str:
        """The part of symbol ids naming ``unit``: its slug, made unique among the graph's unit surfaces.

        Two surfaces may slug alike (``hr`` and ``$/hr`` are both ``hr``); the later one, in
        binding order, takes ``hr_2``, so an entity holding hours and a rate per hour gets
        two ids (``q_sam_hr_t0``, ``q_sam_hr_2_t0``), not one refused as a duplicate.
        """
        known = self.unit_slugs.get(unit)
        if known is not None:
            return known
        base = slug(unit)
        taken = set(self.unit_slugs.values())
        candidate, n = base, 2
        while candidate in taken:
            candidate, n = f"{base}_{n}", n + 1
        self.unit_slugs[unit] = candidate
        return candidate

    def ref(self, unit: str) -> UnitRef | None:
        """``unit`` resolved in the vocabulary, once per binding (``None``: admissibility refuses it later)."""
        try:
            return self.refs[unit]
        except KeyError:
            pass
        try:
            ref: UnitRef | None = self.vocab.resolve(unit)
        except UnitRefusal:
            ref = None
        self.refs[unit] = ref
        return ref

    def kind(self, unit: str) -> object:
        ref = self.ref(unit)
        return ref.quantity_kind if ref is not None else ("<unresolved>", unit)

    def start_at_zero(self, entity: str, unit: str, where: str) -> None:
        """An add, subtract or transfer on a kind ``entity`` does not hold yet starts it from 0, unless a reading.

        A temperature is a reading, not an amount: there is no 0 to start from, and an
        amount in a temperature unit the entity does not hold (5 ``degrees`` beside a
        reading in Celsius) would open a holding of its own that no answer reads, while the
        reading the question asks for stays unchanged.

        Raises:
            MathGraphError: ``state_unset`` for a temperature unit.
        """
        if self.is_temperature(unit):
            raise MathGraphError(
                "state_unset",
                f"{entity} holds no {unit} reading to change: a temperature is a reading, it does not start from 0",
                where,
            )

    def is_temperature(self, unit: str) -> bool:
        ref = self.ref(unit)  # None: admissibility refuses the unit itself
        return ref is not None and ref.dimension == _TEMPERATURE

    def is_count(self, unit: str) -> bool:
        ref = self.ref(unit)
        return ref is not None and ref.dimension == COUNT

    def add_symbol(self, symbol_id: str, label: str, role: SemanticRole, entity: str | None, unit: str | None) -> str:
        self.symbols.append(
            bound_symbol(SOURCE_ID, INTRODUCED_BY, symbol_id, label, role=role, entity=entity, unit=unit)
        )
        return symbol_id

    def add_fact(self, symbol_id: str, value: Fraction, unit: str | None, label: str) -> None:
        self.facts.append(
            BoundFact(symbol_id=symbol_id, value=format_exact(value), unit=unit, source_span=span(SOURCE_ID, label))
        )

    def add_equation(
        self,
        lhs: str,
        rhs: sympy.Expr,
        kind: OperationKind,
        label: str,
        roles: dict[str, str],
        *,
        literal_unit: str | None = None,
    ) -> None:
        self.equations.append(
            bound_equation(
                SOURCE_ID,
                lhs,
                rhs,
                kind=kind,
                label=label,
                roles=roles,
                literal_unit=literal_unit,
                operation=self.operation_index,
            )
        )

    def current(self, entity: str, unit: str) -> tuple[str, str] | None:
        return self.state.get((entity, self.kind(unit)))

    def set_state(self, entity: str, unit: str, symbol_id: str) -> None:
        kind = self.kind(unit)
        if self.is_temperature(unit):
            other = next(
                (
                    held
                    for (owner, k), (_, held) in self.state.items()
                    if owner == entity and k != kind and self.is_temperature(held)
                ),
                None,
            )
            if other is not None:  # two readings of one entity: which one does a change or a question mean?
                raise MathGraphError(
                    "ambiguous_reference",
                    f"{entity} would hold two temperatures, in {other} and in {unit}: a temperature is one reading",
                    "graph",
                )
        self.state[(entity, kind)] = (symbol_id, unit)

    def bind(self) -> BindingGraph:
        """The binding graph; a refusal here reports an unresolvable unit first (units precede values)."""
        try:
            return self.bind_all()
        except MathGraphError as exc:
            unit_problem = self.first_unknown_unit()
            raise (unit_problem or exc) from None

    def first_unknown_unit(self) -> MathGraphError | None:
        """The first unit surface of the graph, in source order, that the vocabulary does not resolve."""
        surfaces = unit_surfaces(self.graph)
        written = [unit for _, unit in surfaces]  # a typo of another unit of the graph is named as one
        for path, unit in surfaces:
            try:
                self.vocab.resolve(unit, path=path, context=written)
            except UnitRefusal as exc:
                return MathGraphError(exc.reason, exc.explain(), path)
        return None

    def bind_all(self) -> BindingGraph:
        g = self.graph
        for entity in g.entities:
            self.add_symbol(f"entity_{self.slugs[entity]}", entity, "entity", entity, None)
        for poss in g.initial_state:
            unit = poss.quantity.unit
            if self.current(poss.entity, unit) is not None:
                raise MathGraphError(
                    "redeclared_state", f"{poss.entity} already holds a {unit}-kind quantity", "initial_state"
                )
            sid = f"q_{self.slugs[poss.entity]}_{self.unit_slug(unit)}_t0"
            label = f"{poss.entity}.{unit}@t0"
            self.add_symbol(sid, label, "quantity", poss.entity, unit)
            self.add_fact(sid, poss.quantity.value, unit, label)
            self.set_state(poss.entity, unit, sid)
        for i, op in enumerate(g.operations):
            self.operation_index = i
            self.operation(i, op)
        return self.finish()

    def operation(self, i: int, op: Operation) -> None:
        """Bind one operation by its operand's type (and, for a quantity, its kind); any other operand is refused.

        Raises:
            MathGraphError: the operation's refusal (``state_unset``, ``redeclared_state``,
                ``ambiguous_reference`` …) at ``operations[i]``.
        """
        step = _Step.of(i, op)
        operand = op.operand
        if isinstance(operand, Quantity) and op.kind in ("add", "subtract", "transfer"):
            self.change(step, operand)
        elif isinstance(operand, Quantity):  # multiply, divide
            self.scale(step, operand)
        elif isinstance(operand, Rate):
            self.apply_rate(step, operand)
        elif isinstance(operand, Comparison):
            self.comparison(op, operand, result=step.result, label=step.label, where=step.where)
        elif isinstance(operand, PartitionChunk):
            self.partition(step, operand)
        elif isinstance(operand, FractionPortion):
            self.portion(step, operand)
        else:  # the dispatch ends in a refusal, never a fall-through
            raise MathGraphError(
                "malformed_input", f"{op.kind} has no binding for a {type(operand).__name__}", f"operations[{i}]"
            )

    def change(self, step: _Step, operand: Quantity) -> None:
        """An add, subtract or transfer: the actor's state of the amount's kind (0 if untouched) plus or less it.

        A transfer also adds the amount to the target's state (:meth:`receive`).
        """
        op = step.op
        state = self.current(op.actor, operand.unit)
        if state is None:
            self.start_at_zero(op.actor, operand.unit, f"{step.where}.operand.unit")
        unit = state[1] if state else operand.unit
        sign = 1 if op.kind == "add" else -1
        rhs = sum_with_constant(state[0] if state else None, sign * operand.value)
        self.add_symbol(step.result, step.label, "quantity", op.actor, unit)
        self.add_equation(
            step.result, rhs, op.kind, step.label, {state[0]: "state"} if state else {}, literal_unit=operand.unit
        )
        self.set_state(op.actor, unit, step.result)
        if op.kind == "transfer":
            self.receive(step, operand)

    def receive(self, step: _Step, operand: Quantity) -> None:
        """A transfer's target: its state of the amount's kind (0 if untouched) plus the amount (``op_NNN_target_result``)."""
        op = step.op
        if op.target is None:  # Operation refuses a transfer without a target; kept explicit
            raise MathGraphError("malformed_input", "a transfer needs a target", f"operations[{step.index}].target")
        target_state = self.current(op.target, operand.unit)
        if target_state is None:
            self.start_at_zero(op.target, operand.unit, f"{step.where}.operand.unit")
        target_unit = target_state[1] if target_state else operand.unit
        target_result = f"{step.prefix}_target_result"
        target_label = f"op{step.index}.{op.kind}.{op.target}"
        self.add_symbol(target_result, target_label, "quantity", op.target, target_unit)
        rhs_t = sum_with_constant(target_state[0] if target_state else None, operand.value)
        self.add_equation(
            target_result,
            rhs_t,
            op.kind,
            target_label,
            {target_state[0]: "state"} if target_state else {},
            literal_unit=operand.unit,
        )
        self.set_state(op.target, target_unit, target_result)

    def scale(self, step: _Step, operand: Quantity) -> None:
        """A multiply or divide: the actor's state times or over a dimensionless scalar (the unit names the state).

        Raises:
            MathGraphError: ``state_unset`` when the actor holds nothing of the unit's kind.
        """
        op, i = step.op, step.index
        state = self.current(op.actor, operand.unit)
        if state is None:
            raise MathGraphError("state_unset", f"{op.actor} holds no {operand.unit} to {op.kind}", step.where)
        scalar = f"{step.prefix}__multiplicand" if op.kind == "multiply" else f"{step.prefix}__divisor"
        self.add_symbol(scalar, f"op{i}.scalar", "ratio", None, None)
        self.add_fact(scalar, operand.value, None, f"op{i}.scalar")
        self.add_symbol(step.result, step.label, "quantity", op.actor, state[1])
        rhs = product_of(state[0], scalar) if op.kind == "multiply" else quotient_of(state[0], scalar)
        roles = {state[0]: "state", scalar: "scalar" if op.kind == "multiply" else "divisor"}
        self.add_equation(step.result, rhs, op.kind, step.label, roles)
        self.set_state(op.actor, state[1], step.result)

    def apply_rate(self, step: _Step, operand: Rate) -> None:
        """An apply_rate: the rate (``op_NNN__rate``) times the actor's state of its denominator's kind.

        Raises:
            MathGraphError: ``state_unset`` when the actor holds nothing of that kind;
                ``unknown_unit`` for a side written as a composite id (``dollars_per_hour``
                per ``year`` would be ``dollars_per_hour_per_year``, which splits two ways).
        """
        op, i = step.op, step.index
        for side, unit in (("numerator", operand.numerator_unit), ("denominator", operand.denominator_unit)):
            if PER in unit:
                raise MathGraphError(
                    "unknown_unit",
                    f"the rate's {side} {unit!r} is a composite id: the rate's own id would have two '_per_' and"
                    " split two ways; write that side as a surface of the lexicon (mph, $/hr)",
                    f"{step.where}.operand.{side}_unit",
                )
        quantity = self.current(op.actor, operand.denominator_unit)
        if quantity is None:
            raise MathGraphError(
                "state_unset", f"{op.actor} holds no {operand.denominator_unit}-kind quantity for the rate", step.where
            )
        rate_unit = f"{operand.numerator_unit}_per_{operand.denominator_unit}"
        rate = f"{step.prefix}__rate"
        self.add_symbol(rate, f"op{i}.rate.{rate_unit}", "rate", None, rate_unit)
        self.add_fact(rate, operand.value, rate_unit, f"op{i}.rate.{rate_unit}")
        self.add_symbol(step.result, step.label, "quantity", op.actor, operand.numerator_unit)
        self.add_equation(
            step.result,
            product_of(rate, quantity[0]),
            op.kind,
            step.label,
            {rate: "rate", quantity[0]: "quantity"},
        )
        self.set_state(op.actor, operand.numerator_unit, step.result)

    def partition(self, step: _Step, operand: PartitionChunk) -> None:
        """A unit_partition: the actor's state over the chunk (``op_NNN__chunk``), a count in the result unit.

        Raises:
            MathGraphError: ``state_unset`` when the actor holds nothing of the chunk's kind;
                ``redeclared_state`` when the count would overwrite the holding it partitions.
        """
        op, i = step.op, step.index
        state = self.current(op.actor, operand.unit)
        if state is None:
            raise MathGraphError(
                "state_unset", f"{op.actor} holds no {operand.unit}-kind quantity to partition", step.where
            )
        if self.kind(operand.result_unit) == self.kind(operand.unit) and self.is_count(operand.result_unit):
            raise MathGraphError(
                "redeclared_state",
                f"partitioning {operand.unit} into {operand.result_unit} would overwrite the kept {operand.unit} holding",
                step.where,
            )
        self.check_fixed_multiple(operand, step.where)
        chunk = f"{step.prefix}__chunk"
        self.add_symbol(chunk, f"op{i}.chunk.{operand.unit}", "quantity", None, operand.unit)
        self.add_fact(chunk, operand.value, operand.unit, f"op{i}.chunk.{operand.unit}")
        self.add_symbol(step.result, step.label, "count", op.actor, operand.result_unit)
        self.add_equation(
            step.result, quotient_of(state[0], chunk), op.kind, step.label, {state[0]: "state", chunk: "chunk"}
        )
        self.set_state(op.actor, operand.result_unit, step.result)
        self.partitions[op.actor] = (self.kind(operand.result_unit), operand.result_unit)

    def check_fixed_multiple(self, operand: PartitionChunk, where: str) -> None:
        """A partition into a fixed multiple of a count (a dozen, a pair) takes chunks of exactly that many.

        Each chunk is counted as one of the result unit (SPEC §5: the count is the number of
        chunks), so 36 eggs in chunks of 6 counted in dozens would be 6 dozen, 72 items (a
        review certified that).  A chunk in a count unit holds its value times that unit's
        size in things (a chunk of 12 eggs is a dozen of eggs) and must be the multiple's
        size.  A chunk of a measure (2 meters, one pair) has no count to compare and stays
        one of the result unit (lane ``soundness-082``), and so does any chunk into
        ``items`` or a container: an item, like a box, is whatever one chunk is (the
        soundness property suite partitions 2 people into one item).

        Raises:
            MathGraphError: ``unit_mismatch`` when the chunk is not the multiple's size.
        """
        try:
            result, chunk = self.vocab.resolve(operand.result_unit), self.vocab.resolve(operand.unit)
        except UnitRefusal:
            return  # admissibility refuses the unit itself
        if not result.is_fixed_multiple or chunk.dimension != COUNT:
            return
        if operand.value * chunk.scale != result.scale:
            raise MathGraphError(
                "unit_mismatch",
                f"a partition into {operand.result_unit} counts each chunk as one {result.lemma}"
                f" ({format_exact(result.scale)} things), but a chunk is"
                f" {format_exact(operand.value)} {operand.unit}",
                where,
            )

    def portion(self, step: _Step, operand: FractionPortion) -> None:
        """A fraction_portion: the share left (``op_NNN__share``, ``1 - n/d``) times the count the latest partition made.

        Raises:
            MathGraphError: ``ambiguous_reference`` when the actor made no unit_partition.
        """
        op, i = step.op, step.index
        latest = self.partitions.get(op.actor)  # every referent names it (upstream's solver: SPEC §5)
        if latest is None:
            raise MathGraphError(
                "ambiguous_reference",
                f"{op.actor} made no unit_partition, so {operand.referent!r} refers to nothing",
                step.where,
            )
        state = self.state[(op.actor, latest[0])]
        keep = 1 - operand.numerator / operand.denominator
        share = f"op_{i:03d}__share"
        self.add_symbol(share, f"op{i}.share", "ratio", None, None)
        self.add_fact(share, keep, None, f"op{i}.share")
        self.add_symbol(step.result, step.label, "count", op.actor, state[1])
        self.add_equation(
            step.result, product_of(share, state[0]), op.kind, step.label, {share: "share", state[0]: "state"}
        )
        self.set_state(op.actor, state[1], step.result)

    def comparison(self, op: Operation, operand: Comparison, *, result: str, label: str, where: str) -> None:
        """A comparison is an equation between the actor's and the reference's holdings of one kind.

        * Only the reference's holding is known: the actor's is declared by the comparison
          (``result := ref ± delta`` or ``factor * ref``), as before.
        * The actor's is known: the comparison's value ``op_NNN_compared`` (a ``difference``
          about the actor's holding, not a holding) is tied to it by
          ``op_NNN_gap := actor - compared`` with the fact ``op_NNN_gap = 0`` (no state is
          overwritten).  When the reference's holding is unknown too, it gets an initial state
          with no fact, ``q_<ref>_<unit>_t0``, and ``verify``'s exact linear solve finds it
          (with its certificate and the domain checks of every value); when both are known
          it is a consistency check (``inconsistent`` when it fails).
        * Neither is known: ``underdetermined``.

        A multiplicative comparison names no unit: the reference's only kind, else the
        actor's; an actor that holds other kinds than the reference's one is
        ``ambiguous_reference`` ("as many" could mean either).
        """
        ref = operand.reference_actor
        actor = op.actor
        if op.kind == "compare_additive":
            if operand.delta is None:  # checked by graph_from_dict; kept for hand-built graphs
                raise MathGraphError("malformed_input", "compare_additive takes a delta", where)
            unit = operand.delta.unit
            sign = 1 if operand.direction == "more" else -1
            change: Fraction = operand.delta.value
            reference, own = self.current(ref, unit), self.current(actor, unit)
        else:
            if operand.factor is None:
                raise MathGraphError("malformed_input", "compare_multiplicative takes a factor", where)
            change = operand.factor
            reference = self.held_one(ref, where)
            own = self.held_one(actor, where) if reference is None else self.current(actor, reference[1])
            ref_kind = self.kind(reference[1]) if reference is not None else None
            if reference is not None and any(owner == actor and kind != ref_kind for owner, kind in self.state):
                raise MathGraphError(
                    "ambiguous_reference",
                    f"{actor} holds other kinds than {ref}'s {reference[1]}: 'as many' could mean either",
                    where,
                )
            unit = (reference or own or ("", ""))[1]
        if reference is None:
            if own is None:
                raise MathGraphError(
                    "underdetermined",
                    f"neither {actor} nor {ref} holds a {unit or 'quantity'} to compare at this point: the comparison"
                    " fixes neither",
                    where,
                )
            sid = f"q_{self.slugs[ref]}_{self.unit_slug(own[1])}_t0"
            if any(sym.symbol_id == sid for sym in self.symbols):
                raise MathGraphError("malformed_input", f"the id {sid} of {ref}'s solved holding collides", where)
            self.add_symbol(sid, f"{ref}.{own[1]}@t0 (solved from op{self.operation_index})", "quantity", ref, own[1])
            self.set_state(ref, own[1], sid)
            reference = (sid, own[1])
        if op.kind == "compare_additive":
            value = sum_with_constant(reference[0], sign * change)
            literal: str | None = unit
        else:
            value, literal = multiple_of(change, reference[0]), None
        if own is None:
            self.add_symbol(result, label, "quantity", actor, reference[1])
            self.add_equation(result, value, op.kind, label, {reference[0]: "reference"}, literal_unit=literal)
            self.set_state(actor, reference[1], result)
            return
        compared, gap = f"op_{self.operation_index:03d}_compared", f"op_{self.operation_index:03d}_gap"
        self.add_symbol(compared, f"{label}.compared", "difference", actor, own[1])  # about A's holding, not one
        self.add_equation(compared, value, op.kind, label, {reference[0]: "reference"}, literal_unit=literal)
        self.add_symbol(gap, f"{label}.gap", "difference", None, own[1])
        self.add_fact(gap, Fraction(0), own[1], f"{label}.gap")
        self.add_equation(
            gap, difference_of(own[0], compared), "subtract", f"{label}.gap", {own[0]: "state", compared: "operand"}
        )

    def held_one(self, entity: str, where: str) -> tuple[str, str] | None:
        """The one holding an entity has (``None``: none); several are ``ambiguous_reference``."""
        held = [value for (owner, _), value in self.state.items() if owner == entity]
        if len(held) > 1:
            raise MathGraphError(
                "ambiguous_reference",
                f"{entity} holds several kinds ({', '.join(u for _, u in held)}); the comparison names none",
                where,
            )
        return held[0] if held else None

    def finish(self) -> BindingGraph:
        symbols_map = {s.symbol_id: s for s in self.symbols}
        unknown = self.graph.unknown
        scope = self.slugs[unknown.entity] if unknown.entity is not None else "total"
        uid = f"unknown_{scope}_{self.unit_slug(unknown.unit)}"
        ulabel = f"{unknown.entity if unknown.entity is not None else 'total'}|{unknown.unit}"
        if uid in symbols_map:
            raise MathGraphError("malformed_input", f"the unknown's id {uid} collides with another symbol", "unknown")
        # the unknown's symbol first: each verdict is then checked against the graph's own symbols, as verify checks it
        symbols_map[uid] = self.symbols[self.add_symbol_index(uid, ulabel, "unknown", unknown.entity, unknown.unit)]
        stamped = []
        verdicts = {}
        for eq in self.equations:
            verdict = check_equation(eq, symbols_map, self.vocab)
            verdicts[eq.lhs_symbol_id] = verdict
            if verdict.refusal is None:
                stamped.append(eq.stamped("admitted", verdict.unit_proof, None))
            else:
                stamped.append(eq.stamped("refused", UNVERIFIED_PROOF, verdict.refusal.reason))
        probe = BoundUnknown(
            symbol_id=uid,
            question_span=span(SOURCE_ID, ulabel),
            state_index="terminal" if stamped else "initial",  # ADR-0135 (verifier.targets.resolve_state_index)
            question_form="identity",
            expected_unit=unknown.unit,
        )
        try:
            form = question_form(symbols_map, stamped, probe, self.vocab)
        except QuestionTargetError as exc:
            raise MathGraphError(exc.reason, exc.detail, "unknown") from None
        # the probe with its form: every other field was checked when the probe was built, and question_form
        # returns a member of QUESTION_FORMS (replace_checked, not a second construction)
        bound = replace_checked(probe, question_form=form) if form != probe.question_form else probe
        graph = BindingGraph(
            symbols=tuple(self.symbols), facts=tuple(self.facts), equations=tuple(stamped), unknowns=(bound,)
        )
        remember_verdicts(graph, self.vocab, verdicts)  # verify reuses them: same equations, symbols and vocabulary
        return graph

    def add_symbol_index(
        self, symbol_id: str, label: str, role: SemanticRole, entity: str | None, unit: str | None
    ) -> int:
        self.add_symbol(symbol_id, label, role, entity, unit)
        return len(self.symbols) - 1


def unit_surfaces(graph: MathProblemGraph) -> list[tuple[str, str]]:
    """Every unit surface a graph writes, in source order, each with its path.

    Returns:
        ``(path, surface)`` pairs: ``("initial_state[0].quantity.unit", "apples")``,
        each operand's units (a rate's numerator and denominator, a comparison's delta, a
        partition's chunk and result units), then ``("unknown.unit", ...)``.
    """
    written = [(f"initial_state[{i}].quantity.unit", p.quantity.unit) for i, p in enumerate(graph.initial_state)]
    for i, op in enumerate(graph.operations):
        operand = op.operand
        where = f"operations[{i}].operand"
        if isinstance(operand, Quantity):
            written.append((f"{where}.unit", operand.unit))
        elif isinstance(operand, Rate):
            written += [
                (f"{where}.numerator_unit", operand.numerator_unit),
                (f"{where}.denominator_unit", operand.denominator_unit),
            ]
        elif isinstance(operand, Comparison) and operand.delta is not None:
            written.append((f"{where}.delta.unit", operand.delta.unit))
        elif isinstance(operand, PartitionChunk):
            written += [(f"{where}.unit", operand.unit), (f"{where}.result_unit", operand.result_unit)]
    written.append(("unknown.unit", graph.unknown.unit))
    return written


def bind_math_problem_graph(graph: object, vocab: UnitVocabulary | None = None) -> BindingGraph:
    """Bind a math problem graph into a verifier binding graph (deterministic, pure).

    Args:
        graph: a :class:`MathProblemGraph` (anything else is refused).
        vocab: the unit vocabulary used to key states by quantity kind and to stamp each
            equation's admissibility (default: :func:`units.default_vocabulary`).

    Returns:
        A :class:`~verifier.BindingGraph` whose equations are stamped ``admitted`` with
        their unit proof or ``refused`` with a reason, and whose unknown carries the
        ADR-0135 state index and question form.

    Raises:
        MathGraphError: ``not_a_math_problem_graph`` for another type; ``state_unset`` (an
            operation reads a state never set), ``redeclared_state`` (a comparison would
            overwrite a state), ``ambiguous_reference`` (a comparison's reference holds
            several kinds; a fraction's referent is missing), or a question-target reason.
    """
    if not isinstance(graph, MathProblemGraph):
        raise MathGraphError(
            "not_a_math_problem_graph", f"expected a MathProblemGraph, found {type(graph).__name__}", "graph"
        )
    voc = given_vocabulary(vocab)
    try:
        return _Binder(graph, voc).bind()
    except BindingGraphError as exc:
        raise MathGraphError(exc.reason, exc.detail, exc.path) from None


__all__ = [
    "Comparison",
    "FractionPortion",
    "InitialPossession",
    "MathProblemGraph",
    "Operation",
    "PartitionChunk",
    "Quantity",
    "Rate",
    "Unknown",
    "bind_math_problem_graph",
    "graph_from_dict",
    "unit_surfaces",
]
