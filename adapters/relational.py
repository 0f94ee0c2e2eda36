"""Relational facts and comparisons (the upstream relational metric format) as a binding graph.

``bind_relations`` reads ``fact``, ``more_than``, ``fewer_than``, ``times_as_many``,
``divide_by`` and ``sum_of`` relations plus a query, and returns a
:class:`~verifier.BindingGraph` with one quantity symbol per entity
(``q_<entity>``): a fact binds it, a relation defines it by an equation.  An
entity with both is solved in reverse by ``verify``'s exact linear solving.
Answer it with ``verify(graph, vocab, policy="integer")`` — the upstream oracle's
rule that every quotient is whole (ADR-0134 amendment).

Symbol ids: ``entity_<slug>``, ``q_<slug>``, ``q_<slug>__divisor`` (the divisor of
``divide_by``), ``unknown_<slug>_<unit>``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    import sympy
else:
    from verifier.lazy import sympy

from adapters._common import bound_equation, bound_symbol, exact, fields, given_vocabulary, name, slug, span
from adapters.errors import MathGraphError
from units import UnitVocabulary, default_vocabulary
from units.errors import clip
from units.exact import format_exact, json_kind
from verifier import BindingGraph, BoundEquation, BoundFact, BoundUnknown, SymbolBinding
from verifier.errors import BindingGraphError
from verifier.expr import rational, symbol
from verifier.kinds import OperationKind
from verifier.model import SemanticRole
from verifier.targets import QuestionTargetError, infer_question_form, resolve_state_index

SOURCE_ID: Final[str] = "relations"
INTRODUCED_BY: Final[str] = "bind_relations"
RELATION_KINDS: Final[tuple[str, ...]] = ("fact", "more_than", "fewer_than", "times_as_many", "divide_by", "sum_of")
MAX_RELATIONS: Final[int] = 1000

_FIELDS: Final[dict[str, tuple[set[str], set[str]]]] = {
    "fact": ({"kind", "entity", "value"}, set()),
    "more_than": ({"kind", "entity", "ref", "delta"}, set()),
    "fewer_than": ({"kind", "entity", "ref", "delta"}, set()),
    "times_as_many": ({"kind", "entity", "ref", "factor"}, set()),
    "divide_by": ({"kind", "entity", "ref", "divisor"}, set()),
    "sum_of": ({"kind", "entity", "parts"}, set()),
}


def bind_relations(
    relations: object,
    query: object,
    units: Mapping[str, str] | None = None,
    *,
    vocab: UnitVocabulary | None = None,
) -> BindingGraph:
    """Bind relations and a query into a binding graph.

    Args:
        relations: a list of relation objects, e.g. ``{"kind": "more_than", "entity": "mia",
            "ref": "liam", "delta": 4}``.
        query: ``{"entity": "mia", "unit": "stickers"}``.
        units: entity → unit surface; ``None`` gives every entity the query's unit.
        vocab: the unit vocabulary the question form is read with (default:
            :func:`units.default_vocabulary`); pass the one you will verify with, so
            declared count nouns mean the same in both.

    Returns:
        The :class:`~verifier.BindingGraph` (facts, one equation per relation, the unknown).

    Raises:
        MathGraphError: ``malformed_input`` naming the relation and field (unknown kind,
            missing or unknown field, non-exact number, a comparison of an entity with
            itself, an empty ``sum_of``, a dependency cycle, an entity with no unit);
            ``redeclared_state`` when two relations define one entity;
            ``input_too_large`` beyond :data:`MAX_RELATIONS`.
    """
    items, q_entity, q_unit = _check_arguments(relations, query, units, vocab)
    parsed, order = _parse_relations(items)
    order.setdefault(q_entity, None)
    try:
        binder = _RelationBinder(order, units, q_unit)
        for relation in parsed:
            binder.bind(relation)
        return binder.graph(q_entity, q_unit, vocab)
    except BindingGraphError as exc:  # a record the graph refuses: this adapter's own error, as documented
        raise MathGraphError(exc.reason, exc.detail, exc.path) from None


def _check_arguments(relations: object, query: object, units: object, vocab: object) -> tuple[list[object], str, str]:
    """``(relations, entity, unit)``: the relations and the query's entity and unit, once every argument has its type.

    The arguments are checked in order: relations, query, units, vocab.

    Raises:
        MathGraphError: ``malformed_input`` / ``input_too_large`` naming the argument.
    """
    if not isinstance(relations, list):
        raise MathGraphError("malformed_input", f"relations must be a list, found {json_kind(relations)}", "relations")
    if len(relations) > MAX_RELATIONS:
        raise MathGraphError("input_too_large", f"more than {MAX_RELATIONS} relations", "relations")
    q = fields(query, "query", {"entity", "unit"}, set())
    q_entity = name(q["entity"], "query.entity")
    q_unit = name(q["unit"], "query.unit")
    if units is not None and not isinstance(units, Mapping):
        raise MathGraphError(
            "malformed_input", f"units must be a mapping entity -> unit, found {json_kind(units)}", "units"
        )
    given_vocabulary(vocab)
    return relations, q_entity, q_unit


@dataclass(frozen=True, slots=True, kw_only=True)
class _Relation:
    """One relation, parsed: its fields checked, its names trimmed strings, its number exact.

    Attributes:
        kind: one of :data:`RELATION_KINDS`.
        entity: the entity the relation binds (a fact) or defines (the others).
        path: where it was read (``"relations[2]"``).
        ref: the entity it compares with (``more_than`` … ``divide_by``), else ``""``.
        parts: the entities a ``sum_of`` adds, else ``()``.
        number: the ``value``, ``delta``, ``factor`` or ``divisor`` (``sum_of``: ``0``).
    """

    kind: str
    entity: str
    path: str
    ref: str = ""
    parts: tuple[str, ...] = ()
    number: Fraction = Fraction(0)

    @property
    def label(self) -> str:
        """The synthetic span's text: ``relations[2].more_than``."""
        return f"{self.path}.{self.kind}"


_NUMBER_KEYS: Final[tuple[str, ...]] = ("value", "delta", "factor", "divisor")
"""The number field of each kind (a fact's value, a comparison's delta or factor, a divisor), in reading order."""


def _parse_relations(relations: list[object]) -> tuple[list[_Relation], dict[str, None]]:
    """The relations parsed, and every entity they name in order of first mention.

    Raises:
        MathGraphError: ``malformed_input`` naming the relation and field.
    """
    parsed: list[_Relation] = []
    order: dict[str, None] = {}
    for i, rel in enumerate(relations):
        parsed.append(_parse_relation(rel, f"relations[{i}]", order))
    return parsed, order


def _parse_relation(rel: object, path: str, order: dict[str, None]) -> _Relation:
    """One relation, its entities added to ``order`` as they are read.

    Checks, in order: the kind, the fields, the entity, the compared entity, a sum's
    parts, the number, that a ``times_as_many`` factor is positive, and that a
    ``more_than``/``fewer_than`` delta is not negative (the kind carries the sign).

    Raises:
        MathGraphError: ``malformed_input`` naming the field.
    """
    if not isinstance(rel, dict) or not isinstance(rel.get("kind"), str) or rel["kind"] not in _FIELDS:
        kind = rel.get("kind") if isinstance(rel, dict) else type(rel).__name__
        raise MathGraphError(
            "malformed_input",
            f"unknown relation kind {clip(kind)}; expected one of {list(RELATION_KINDS)}",
            f"{path}.kind",
        )
    kind = str(rel["kind"])
    required, optional = _FIELDS[kind]
    fields(rel, path, required, optional)
    entity = name(rel["entity"], f"{path}.entity")
    order[entity] = None
    ref = ""
    if "ref" in rel:
        ref = name(rel["ref"], f"{path}.ref")
        if ref == entity:
            raise MathGraphError("malformed_input", "an entity cannot be compared with itself", f"{path}.ref")
        order[ref] = None
    parts: tuple[str, ...] = ()
    if kind == "sum_of":
        parts = _sum_parts(rel["parts"], entity, path)
        order.update(dict.fromkeys(parts))
    number = next((exact(rel[key], f"{path}.{key}") for key in _NUMBER_KEYS if key in rel), Fraction(0))
    if kind == "times_as_many" and number <= 0:
        raise MathGraphError("malformed_input", "a factor must be positive", f"{path}.factor")
    if kind in {"more_than", "fewer_than"} and number < 0:  # as the math graph's comparisons (SPEC §5)
        raise MathGraphError(
            "malformed_input",
            f"a delta is not negative (found {format_exact(number)}): the kind more_than/fewer_than carries the sign",
            f"{path}.delta",
        )
    return _Relation(kind=kind, entity=entity, path=path, ref=ref, parts=parts, number=number)


def _sum_parts(parts: object, entity: str, path: str) -> tuple[str, ...]:
    """The entities a ``sum_of`` adds: a non-empty list of names, each once, ``entity`` not among them.

    Raises:
        MathGraphError: ``malformed_input`` naming the part.
    """
    if not isinstance(parts, list) or not parts:
        raise MathGraphError("malformed_input", "sum_of needs a non-empty list of parts", f"{path}.parts")
    names = tuple(name(p, f"{path}.parts[{j}]") for j, p in enumerate(parts))
    if entity in names:
        raise MathGraphError("malformed_input", "a sum cannot include itself", f"{path}.parts")
    twice = next((j for j, part in enumerate(names) if part in names[:j]), None)
    if twice is not None:  # had been refused only at verification, as a sum of the wrong shape (2*x)
        raise MathGraphError(
            "malformed_input", f"{names[twice]!r} is listed twice: a sum adds each part once", f"{path}.parts[{twice}]"
        )
    return names


class _RelationBinder:
    """Binds parsed relations: one quantity symbol per entity, a fact or an equation per relation.

    Relations are bound through :data:`_RELATION_BINDERS`, one handler per kind; a kind
    without one is refused.
    """

    def __init__(self, order: Mapping[str, None], units: Mapping[str, str] | None, q_unit: str) -> None:
        """Name every entity's symbols, in ``order``; an entity with no unit is refused here.

        Raises:
            MathGraphError: ``malformed_input`` for an entity ``units`` gives no unit.
        """
        self.units = units
        self.q_unit = q_unit
        self.slugs: dict[str, str] = {}
        for entity in order:
            stem, n = slug(entity), 2
            candidate = stem
            while candidate in self.slugs.values():
                candidate, n = f"{stem}_{n}", n + 1
            self.slugs[entity] = candidate
        self.symbols: list[SymbolBinding] = [
            _sym(f"entity_{self.slugs[entity]}", entity, "entity", entity, None) for entity in order
        ]
        self.symbols.extend(
            _sym(
                f"q_{self.slugs[entity]}", f"{entity}.{self.unit_of(entity)}", "quantity", entity, self.unit_of(entity)
            )
            for entity in order
        )
        self.facts: list[BoundFact] = []
        self.equations: list[BoundEquation] = []
        self.defined: set[str] = set()

    def unit_of(self, entity: str) -> str:
        """The unit of an entity's quantity: ``units[entity]``, or the query's when ``units`` is ``None``.

        Raises:
            MathGraphError: ``malformed_input`` for an entity ``units`` gives no unit, or a bad unit.
        """
        if self.units is None:
            return self.q_unit
        if entity not in self.units:
            raise MathGraphError("malformed_input", f"no unit given for entity {entity!r}", "units")
        return name(self.units[entity], f"units[{entity!r}]")

    def quantity(self, entity: str) -> str:
        """The symbol id of an entity's quantity (``q_<slug>``)."""
        return f"q_{self.slugs[entity]}"

    def bind(self, relation: _Relation) -> None:
        """Bind one relation: a fact binds its entity; any other kind defines it, at most once.

        Raises:
            MathGraphError: ``redeclared_state`` for an entity a second relation defines;
                ``malformed_input`` for a kind with no binding.
        """
        handler = _RELATION_BINDERS.get(relation.kind)
        if handler is None:  # _parse_relation admits only these kinds; the dispatch still ends in a refusal
            raise MathGraphError(
                "malformed_input",
                f"unknown relation kind {clip(relation.kind)}; expected one of {list(RELATION_KINDS)}",
                f"{relation.path}.kind",
            )
        if relation.kind != "fact":
            if relation.entity in self.defined:
                raise MathGraphError(
                    "redeclared_state", f"{relation.entity} is defined by two relations", relation.path
                )
            self.defined.add(relation.entity)
        handler(self, relation)

    def fact(self, relation: _Relation) -> None:
        """``fact``: the entity's quantity is the value."""
        self.facts.append(
            BoundFact(
                symbol_id=self.quantity(relation.entity),
                value=format_exact(relation.number),
                unit=self.unit_of(relation.entity),
                source_span=span(SOURCE_ID, relation.label),
            )
        )

    def sum_of(self, relation: _Relation) -> None:
        """``sum_of``: the entity's quantity is the sum of the parts' quantities."""
        parts = [self.quantity(p) for p in relation.parts]
        rhs = sympy.Add(*[symbol(p) for p in parts])
        self.equations.append(
            _eq(self.quantity(relation.entity), rhs, "add", relation.label, dict.fromkeys(parts, "operand"))
        )

    def compare_additive(self, relation: _Relation) -> None:
        """``more_than`` / ``fewer_than``: the reference's quantity plus or minus the delta."""
        ref_id = self.quantity(relation.ref)
        sign = 1 if relation.kind == "more_than" else -1
        self.equations.append(
            _eq(
                self.quantity(relation.entity),
                symbol(ref_id) + sign * rational(relation.number),
                "compare_additive",
                relation.label,
                {ref_id: "reference"},
                literal_unit=self.unit_of(relation.entity),
            )
        )

    def times_as_many(self, relation: _Relation) -> None:
        """``times_as_many``: the factor times the reference's quantity."""
        ref_id = self.quantity(relation.ref)
        self.equations.append(
            _eq(
                self.quantity(relation.entity),
                rational(relation.number) * symbol(ref_id),
                "compare_multiplicative",
                relation.label,
                {ref_id: "reference"},
            )
        )

    def divide_by(self, relation: _Relation) -> None:
        """``divide_by``: the reference's quantity over a divisor symbol (``q_<slug>__divisor``) bound to the divisor."""
        sid = self.quantity(relation.entity)
        ref_id = self.quantity(relation.ref)
        divisor = f"{sid}__divisor"
        self.symbols.append(_sym(divisor, f"{relation.entity}.divisor", "ratio", None, None))
        self.facts.append(
            BoundFact(
                symbol_id=divisor,
                value=format_exact(relation.number),
                source_span=span(SOURCE_ID, relation.label),
            )
        )
        self.equations.append(
            _eq(
                sid,
                symbol(ref_id) / symbol(divisor),
                "divide",
                relation.label,
                {ref_id: "reference", divisor: "divisor"},
            )
        )

    def graph(self, q_entity: str, q_unit: str, vocab: UnitVocabulary | None) -> BindingGraph:
        """The binding graph with the query's unknown, its question form read with ``vocab`` (default: the default one).

        Raises:
            MathGraphError: the graph's or the question target's refusal (the query's at ``query``).
        """
        uid = f"unknown_{self.slugs[q_entity]}_{slug(q_unit)}"
        ulabel = f"{q_entity}|{q_unit}"
        self.symbols.append(_sym(uid, ulabel, "unknown", q_entity, q_unit))
        try:
            base = BindingGraph(symbols=tuple(self.symbols), facts=tuple(self.facts), equations=tuple(self.equations))
            probe = BoundUnknown(
                symbol_id=uid,
                question_span=span(SOURCE_ID, ulabel),
                state_index=resolve_state_index(base),
                question_form="identity",
                expected_unit=q_unit,
            )
            form = infer_question_form(base, probe, vocab if vocab is not None else default_vocabulary())
            unknown = BoundUnknown(
                symbol_id=uid,
                question_span=probe.question_span,
                state_index=probe.state_index,
                question_form=form,
                expected_unit=q_unit,
            )
            return BindingGraph(symbols=base.symbols, facts=base.facts, equations=base.equations, unknowns=(unknown,))
        except BindingGraphError as exc:
            raise MathGraphError(exc.reason, exc.detail, exc.path) from None
        except QuestionTargetError as exc:
            raise MathGraphError(exc.reason, exc.detail, "query") from None


_RELATION_BINDERS: Final[dict[str, Callable[[_RelationBinder, _Relation], None]]] = {
    "fact": _RelationBinder.fact,
    "more_than": _RelationBinder.compare_additive,
    "fewer_than": _RelationBinder.compare_additive,
    "times_as_many": _RelationBinder.times_as_many,
    "divide_by": _RelationBinder.divide_by,
    "sum_of": _RelationBinder.sum_of,
}
"""The handler of each relation kind (:data:`RELATION_KINDS`); :meth:`_RelationBinder.bind` refuses any other."""


def _sym(symbol_id: str, label: str, role: SemanticRole, entity: str | None, unit: str | None) -> SymbolBinding:
    return bound_symbol(SOURCE_ID, INTRODUCED_BY, symbol_id, label, role=role, entity=entity, unit=unit)


def _eq(
    lhs: str,
    rhs: sympy.Expr,
    kind: OperationKind,
    label: str,
    roles: dict[str, str],
    *,
    literal_unit: str | None = None,
) -> BoundEquation:
    return bound_equation(SOURCE_ID, lhs, rhs, kind=kind, label=label, roles=roles, literal_unit=literal_unit)


__all__ = [
    "INTRODUCED_BY",
    "MAX_RELATIONS",
    "RELATION_KINDS",
    "SOURCE_ID",
    "bind_relations",
]
