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

from collections.abc import Mapping
from fractions import Fraction
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    import sympy
else:
    from verifier.lazy import sympy

from adapters._common import bound_equation, bound_symbol, exact, fields, name, slug, span
from adapters.errors import MathGraphError
from units import UnitVocabulary, default_vocabulary
from units.errors import clip
from units.exact import format_exact
from verifier import BindingGraph, BoundEquation, BoundFact, BoundUnknown, SymbolBinding
from verifier.errors import BindingGraphError
from verifier.expr import rational, symbol
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
    if not isinstance(relations, list):
        raise MathGraphError(
            "malformed_input", f"relations must be a list, found {type(relations).__name__}", "relations"
        )
    if len(relations) > MAX_RELATIONS:
        raise MathGraphError("input_too_large", f"more than {MAX_RELATIONS} relations", "relations")
    q = fields(query, "query", {"entity", "unit"}, set())
    q_entity = name(q["entity"], "query.entity")
    q_unit = name(q["unit"], "query.unit")
    if units is not None and not isinstance(units, Mapping):
        raise MathGraphError(
            "malformed_input", f"units must be a mapping entity -> unit, found {type(units).__name__}", "units"
        )
    if vocab is not None and not isinstance(vocab, UnitVocabulary):
        raise MathGraphError(
            "malformed_input", f"vocab must be a UnitVocabulary, found {type(vocab).__name__}", "vocab"
        )

    parsed: list[dict[str, object]] = []
    order: dict[str, None] = {}
    for i, rel in enumerate(relations):
        path = f"relations[{i}]"
        if not isinstance(rel, dict) or not isinstance(rel.get("kind"), str) or rel["kind"] not in _FIELDS:
            kind = rel.get("kind") if isinstance(rel, dict) else type(rel).__name__
            raise MathGraphError(
                "malformed_input",
                f"unknown relation kind {clip(kind)}; expected one of {list(RELATION_KINDS)}",
                f"{path}.kind",
            )
        required, optional = _FIELDS[str(rel["kind"])]
        fields(rel, path, required, optional)
        entity = name(rel["entity"], f"{path}.entity")
        order[entity] = None
        item: dict[str, object] = {"kind": rel["kind"], "entity": entity, "path": path}
        if "ref" in rel:
            ref = name(rel["ref"], f"{path}.ref")
            if ref == entity:
                raise MathGraphError("malformed_input", "an entity cannot be compared with itself", f"{path}.ref")
            order[ref] = None
            item["ref"] = ref
        if rel["kind"] == "sum_of":
            parts = rel["parts"]
            if not isinstance(parts, list) or not parts:
                raise MathGraphError("malformed_input", "sum_of needs a non-empty list of parts", f"{path}.parts")
            names = [name(p, f"{path}.parts[{j}]") for j, p in enumerate(parts)]
            if entity in names:
                raise MathGraphError("malformed_input", "a sum cannot include itself", f"{path}.parts")
            for p in names:
                order[p] = None
            item["parts"] = names
        for key in ("value", "delta", "factor", "divisor"):
            if key in rel:
                item[key] = exact(rel[key], f"{path}.{key}")
        if rel["kind"] == "times_as_many" and item["factor"] <= 0:  # type: ignore[operator]
            raise MathGraphError("malformed_input", "a factor must be positive", f"{path}.factor")
        parsed.append(item)
    order.setdefault(q_entity, None)

    def unit_of(entity: str) -> str:
        if units is None:
            return q_unit
        if entity not in units:
            raise MathGraphError("malformed_input", f"no unit given for entity {entity!r}", "units")
        return name(units[entity], f"units[{entity!r}]")

    slugs: dict[str, str] = {}
    for entity in order:
        stem, n = slug(entity), 2
        candidate = stem
        while candidate in slugs.values():
            candidate, n = f"{stem}_{n}", n + 1
        slugs[entity] = candidate

    symbols: list[SymbolBinding] = []
    facts: list[BoundFact] = []
    equations: list[BoundEquation] = []
    for entity in order:
        symbols.append(_sym(f"entity_{slugs[entity]}", entity, "entity", entity, None))
    for entity in order:
        symbols.append(_sym(f"q_{slugs[entity]}", f"{entity}.{unit_of(entity)}", "quantity", entity, unit_of(entity)))
    defined: set[str] = set()
    for item in parsed:
        entity = str(item["entity"])
        sid = f"q_{slugs[entity]}"
        kind = item["kind"]
        label = f"{item['path']}.{kind}"
        if kind == "fact":
            facts.append(
                BoundFact(
                    symbol_id=sid,
                    value=format_exact(_fraction(item, "value")),
                    unit=unit_of(entity),
                    source_span=span(SOURCE_ID, label),
                )
            )
            continue
        if entity in defined:
            raise MathGraphError("redeclared_state", f"{entity} is defined by two relations", str(item["path"]))
        defined.add(entity)
        if kind == "sum_of":
            parts = [f"q_{slugs[p]}" for p in item["parts"]]  # type: ignore[attr-defined]
            rhs = sympy.Add(*[symbol(p) for p in parts])
            equations.append(_eq(sid, rhs, "add", label, dict.fromkeys(parts, "operand")))
            continue
        ref_id = f"q_{slugs[str(item['ref'])]}"
        ref = symbol(ref_id)
        if kind in ("more_than", "fewer_than"):
            sign = 1 if kind == "more_than" else -1
            equations.append(
                _eq(
                    sid,
                    ref + sign * rational(_fraction(item, "delta")),
                    "compare_additive",
                    label,
                    {ref_id: "reference"},
                    literal_unit=unit_of(entity),
                )
            )
        elif kind == "times_as_many":
            equations.append(
                _eq(
                    sid,
                    rational(_fraction(item, "factor")) * ref,
                    "compare_multiplicative",
                    label,
                    {ref_id: "reference"},
                )
            )
        else:
            divisor = f"{sid}__divisor"
            symbols.append(_sym(divisor, f"{entity}.divisor", "ratio", None, None))
            facts.append(
                BoundFact(
                    symbol_id=divisor,
                    value=format_exact(_fraction(item, "divisor")),
                    source_span=span(SOURCE_ID, label),
                )
            )
            equations.append(
                _eq(sid, ref / symbol(divisor), "divide", label, {ref_id: "reference", divisor: "divisor"})
            )
    uid = f"unknown_{slugs[q_entity]}_{slug(q_unit)}"
    ulabel = f"{q_entity}|{q_unit}"
    symbols.append(_sym(uid, ulabel, "unknown", q_entity, q_unit))
    try:
        base = BindingGraph(symbols=tuple(symbols), facts=tuple(facts), equations=tuple(equations))
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


def _fraction(item: Mapping[str, object], key: str) -> Fraction:
    value = item[key]
    if not isinstance(value, Fraction):  # exact() set it above; a relation is never read from anything else
        raise MathGraphError("malformed_input", f"{key} is not an exact number", key)
    return value


def _sym(symbol_id: str, label: str, role: str, entity: str | None, unit: str | None) -> SymbolBinding:
    return bound_symbol(SOURCE_ID, INTRODUCED_BY, symbol_id, label, role=role, entity=entity, unit=unit)


def _eq(
    lhs: str, rhs: sympy.Expr, kind: str, label: str, roles: dict[str, str], *, literal_unit: str | None = None
) -> BoundEquation:
    return bound_equation(SOURCE_ID, lhs, rhs, kind=kind, label=label, roles=roles, literal_unit=literal_unit)


__all__ = [
    "INTRODUCED_BY",
    "MAX_RELATIONS",
    "RELATION_KINDS",
    "SOURCE_ID",
    "bind_relations",
]
