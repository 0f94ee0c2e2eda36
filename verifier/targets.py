"""Question targets: state index and question form of an unknown (ADR-0135, over a binding graph).

The resolver reads only the binding graph (and the vocabulary, to compare unit
kinds): which equations *touch* the unknown's entity (its lhs or a dependency
belongs to that entity; every equation touches an ``entity=None`` total), then
applies the closed precedence of ADR-0135:

1. no equation touches → ``identity``;
2. any ``compare_multiplicative`` touches → ``ratio``;
3. any ``compare_additive`` touches → ``difference``;
4. any ``apply_rate`` touches → ``total`` when the unknown's unit is of the rate's
   numerator kind, ``rate`` when of its denominator kind, else refuse
   (``apply_rate_unit_mismatch``);
5. all touching kinds in {add, subtract, transfer, multiply, divide} → ``count``;
   ``unit_partition`` and ``fraction_portion`` also make counts (our extension:
   ADR-0135 predates those two kinds);
6. anything else → refuse (``unmappable_question_form``).

The state index is ``terminal`` when the graph has equations, ``initial`` otherwise.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from units import UnitRefusal, UnitVocabulary
from units.errors import DetailRefusal
from verifier.model import BindingGraph, BoundEquation, BoundUnknown, QuestionForm, StateIndex, SymbolBinding

_COUNT_KINDS = frozenset({"add", "subtract", "transfer", "multiply", "divide", "unit_partition", "fraction_portion"})


@dataclass(frozen=True, slots=True, kw_only=True)
class QuestionTarget:
    """The resolved target of one unknown: its entity (``None`` for a total), unit, state index and form."""

    entity: str | None
    unit: str | None
    state_index: StateIndex
    question_form: QuestionForm


class QuestionTargetError(DetailRefusal):
    """A question target that cannot be resolved; ``reason`` is an ADR-0135 reason (a ``units.RefusalError``)."""


def entities(graph: BindingGraph) -> tuple[str, ...]:
    """Entity names of the graph, in introduction order: every ``entity`` symbol, then any other owner named by a symbol."""
    return _entities(graph.symbols)


def _entities(symbols: Iterable[SymbolBinding]) -> tuple[str, ...]:
    listed = tuple(symbols)
    named = [s.entity or s.name for s in listed if s.semantic_role == "entity"]
    owners = [s.entity for s in listed if s.entity is not None and s.semantic_role != "unknown"]
    return tuple(dict.fromkeys([*named, *owners]))


def names_entity(symbols: Iterable[SymbolBinding], entity: str) -> bool:
    """``entity in entities(...)`` of these symbols, decided without listing them (stops at the first that names it)."""
    for s in symbols:
        role = s.semantic_role
        if role == "entity" and (s.entity or s.name) == entity:
            return True
        if s.entity == entity and role != "unknown":
            return True
    return False


def resolve_state_index(graph: BindingGraph) -> StateIndex:
    """``"terminal"`` when the graph has equations, else ``"initial"`` (ADR-0135)."""
    return "terminal" if graph.equations else "initial"


def _kind(vocab: UnitVocabulary, unit: str | None) -> object:
    if unit is None:
        return None
    try:
        return vocab.resolve(unit).kind
    except UnitRefusal:
        return ("<unresolved>", unit)


def infer_question_form(graph: BindingGraph, unknown: BoundUnknown, vocab: UnitVocabulary) -> QuestionForm:
    """The ADR-0135 question form of ``unknown`` (see the module docstring for the precedence).

    Raises:
        QuestionTargetError: ``unknown_entity_not_in_entities``, ``apply_rate_unit_mismatch``
            or ``unmappable_question_form``.
    """
    return question_form(graph.symbols_by_id, graph.equations, unknown, vocab)


def question_form(
    symbols: Mapping[str, SymbolBinding],
    equations: Sequence[BoundEquation],
    unknown: BoundUnknown,
    vocab: UnitVocabulary,
) -> QuestionForm:
    """:func:`infer_question_form` over a graph's parts (for an adapter that has not built the graph yet).

    Raises:
        QuestionTargetError: as :func:`infer_question_form`.
    """
    binding = symbols[unknown.symbol_id]
    entity = binding.entity
    if entity is not None and not names_entity(symbols.values(), entity):
        raise QuestionTargetError("unknown_entity_not_in_entities", f"{entity!r} is not an entity of the graph")
    touching = [
        eq
        for eq in equations
        if entity is None
        or symbols[eq.lhs_symbol_id].entity == entity
        or any(symbols[d].entity == entity for d in eq.dependencies)
    ]
    if not touching:
        return "identity"
    kinds = {eq.operation_kind for eq in touching}
    if "compare_multiplicative" in kinds:
        return "ratio"
    if "compare_additive" in kinds:
        return "difference"
    if "apply_rate" in kinds:
        return _rate_form(symbols, touching, unknown.expected_unit or binding.unit, vocab)
    if kinds <= _COUNT_KINDS:
        return "count"
    raise QuestionTargetError("unmappable_question_form", f"no question form fits operation kinds {sorted(kinds)}")


def _rate_form(
    symbols: Mapping[str, SymbolBinding],
    touching: Sequence[BoundEquation],
    asked_unit: str | None,
    vocab: UnitVocabulary,
) -> QuestionForm:
    """``total`` when the asked unit is a rate's numerator, ``rate`` when its denominator (ADR-0135).

    Raises:
        QuestionTargetError: ``apply_rate_unit_mismatch`` when it is neither, for every rate applied.
    """
    asked = _kind(vocab, asked_unit)
    for eq in touching:
        if eq.operation_kind != "apply_rate":
            continue
        for dep in sorted(eq.dependencies):
            sym = symbols[dep]
            if sym.semantic_role == "rate" and sym.unit is not None:
                num_kind, den_kind = _rate_sides(vocab, sym.unit)
                if asked == num_kind:
                    return "total"
                if asked == den_kind:
                    return "rate"
    raise QuestionTargetError(
        "apply_rate_unit_mismatch", f"{asked_unit!r} is neither the rate's numerator nor its denominator"
    )


def _rate_sides(vocab: UnitVocabulary, unit: str) -> tuple[object, object]:
    """A rate unit's numerator and denominator kinds, as :func:`_kind` gives them.

    ``apples_per_hour`` splits at ``_per_``; a single unit of a derived kind (``m/s``
    written as one lemma) splits by the signs of its dimension's powers.
    """
    num, _, den = unit.partition("_per_")
    rate_kind = _kind(vocab, unit)
    num_kind = _kind(vocab, num) if den else None
    den_kind = _kind(vocab, den) if den else None
    if isinstance(rate_kind, tuple) and not den and rate_kind and rate_kind[0] != "<unresolved>":
        num_kind = tuple((d, p) for d, p in rate_kind if p > 0)
        den_kind = tuple((d, -p) for d, p in rate_kind if p < 0)
    return num_kind, den_kind


def resolve_target(graph: BindingGraph, unknown: BoundUnknown, vocab: UnitVocabulary) -> QuestionTarget:
    """Resolve an unknown's target and check it against what the unknown records.

    Raises:
        QuestionTargetError: as :func:`infer_question_form`; also
            ``unmappable_question_form`` when the recorded form disagrees with the graph.
    """
    binding = graph.symbol(unknown.symbol_id)
    form = infer_question_form(graph, unknown, vocab)
    if form != unknown.question_form:
        raise QuestionTargetError(
            "unmappable_question_form",
            f"the unknown records form {unknown.question_form!r} but the graph implies {form!r}",
        )
    return QuestionTarget(
        entity=binding.entity,
        unit=unknown.expected_unit or binding.unit,
        state_index=unknown.state_index,
        question_form=form,
    )


__all__ = [
    "QuestionTarget",
    "QuestionTargetError",
    "entities",
    "infer_question_form",
    "names_entity",
    "question_form",
    "resolve_state_index",
    "resolve_target",
]
