"""Answers to a graph's unknowns, and the certification rule (SPEC §4 Question targets, Certification).

An unknown with an entity reads that entity's holding of the asked unit's kind at
the asked state index (:class:`verifier.holdings.Holdings`); ``entity=None`` totals
every entity's holding of that kind, each converted exactly into the unit asked.

*Certification (the wrong = 0 rule):* an answer is certified only when its whole
graph is sound.  When any root-cause problem was found — a unit that does not
resolve, an inadmissible equation, a broken holdings rule, a value outside its
domain, a contradiction — every answer of the graph is that problem's refusal:
the earliest stage wins (input, units, admissibility, values), ties by source
order, and the detail names the offending symbol and equation.
Knows nothing of input formats.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Final

from units import UnitRef, UnitRefusal, UnitVocabulary
from units.dimension import TEMPERATURE
from units.vocabulary import check_commensurable
from verifier.admissibility import Refusal, graph_units, resolve_written
from verifier.holdings import Holding, Holdings
from verifier.model import BindingGraph, BoundUnknown, StateIndex, SymbolBinding, state_index_text
from verifier.solve import MAX_VALUE_BITS, Problem, Solution, beyond_value_bits
from verifier.targets import QuestionTarget, QuestionTargetError, names_entity, resolve_target

_TEMPERATURE = TEMPERATURE

__all__ = ["Reading", "certify", "read_unknown"]

_ZERO: Final[Fraction] = Fraction(0)
_ONE: Final[Fraction] = Fraction(1)


@dataclass(frozen=True, slots=True)
class Reading:
    """An answer before certification: the exact value in the asked unit, and what it summed."""

    value: Fraction
    unit: str
    question_form: str
    state_index: StateIndex
    parts: tuple[tuple[str, Fraction, Fraction], ...]  # (state symbol, its value, factor into the asked unit)
    offset: Fraction


def certify(problems: Sequence[Problem]) -> Refusal | None:
    """The refusal every answer of a graph gets, or None when the graph is sound.

    Returns:
        The earliest root cause (stage, then source order), its detail naming where it is.
    """
    if not problems:
        return None
    root = min(problems)
    detail = f"{root.refusal.detail} [{root.where()}]; no answer of this graph is certified"
    return Refusal(reason=root.refusal.reason, detail=detail[:600])


def read_unknown(
    graph: BindingGraph,
    unknown: BoundUnknown,
    vocab: UnitVocabulary,
    holdings: Holdings,
    solution: Solution,
) -> Reading | Refusal:
    """Read one unknown's value from the holdings and the solved values (no certification here).

    Order: the entity must exist; the asked unit must resolve; the ADR-0135 target must
    fit; each holding read must be set and solved; then the value is converted exactly.
    """
    binding = graph.symbol(unknown.symbol_id)
    if binding.entity is not None and not names_entity(graph.symbols, binding.entity):
        return Refusal(
            reason="unknown_entity_not_in_entities", detail=f"{binding.entity!r} is not an entity of the graph"
        )
    asked_text = unknown.expected_unit or binding.unit
    if asked_text is None:
        return Refusal(reason="unit_unbound", detail=f"{unknown.symbol_id} asks for no unit")
    asking = _asked(graph, unknown, vocab, asked_text)
    if isinstance(asking, Refusal):
        return asking
    asked, target = asking
    states = _read_states(binding, unknown, asked, holdings, solution)
    if isinstance(states, Refusal):
        return states
    if binding.entity is None and asked.dimension == _TEMPERATURE:  # however many hold one, in whichever unit
        return Refusal(
            reason="offset_unit_arithmetic",
            detail="a total of temperatures has no meaning (temperatures are not amounts)",
        )
    return _convert(
        vocab, states, solution, asked, asked_text=asked_text, form=target.question_form, index=unknown.state_index
    )


def _asked(
    graph: BindingGraph, unknown: BoundUnknown, vocab: UnitVocabulary, asked_text: str
) -> tuple[UnitRef, QuestionTarget] | Refusal:
    """The unit asked for (of the unknown's declared kind, if it declares one) and the ADR-0135 target."""
    declared_text = graph.symbol(unknown.symbol_id).unit
    written = functools.partial(graph_units, graph)  # read only to word a refusal (a typo of another unit is named)
    try:
        asked = resolve_written(vocab, asked_text, f"{unknown.symbol_id}.unit", written)
        if declared_text is not None and declared_text != asked_text:
            declared = resolve_written(vocab, declared_text, f"{unknown.symbol_id}.unit", written)
            if declared.quantity_kind != asked.quantity_kind:
                return Refusal(
                    reason="unit_mismatch",
                    detail=f"{unknown.symbol_id} is a {declared_text} unknown but asks for {asked_text}: they disagree",
                )
        target = resolve_target(graph, unknown, vocab)
    except (UnitRefusal, QuestionTargetError) as exc:
        return Refusal.from_error(exc)
    return asked, target


def _read_states(
    binding: SymbolBinding, unknown: BoundUnknown, asked: UnitRef, holdings: Holdings, solution: Solution
) -> list[str] | Refusal:
    """The states the unknown reads (its entity's, or every owner's of the asked kind), each set and solved."""
    owners = (
        [Holding(binding.entity, asked.quantity_kind)]
        if binding.entity is not None
        else holdings.owners(asked.quantity_kind)
    )
    states = [s for s in (holdings.state_at(h, unknown.state_index) for h in owners) if s is not None]
    if not states:
        at = state_index_text(unknown.state_index)
        detail = (
            f"{binding.entity} holds no {asked.lemma}-kind state at {at}"
            if binding.entity is not None
            else f"no entity holds a {asked.lemma}-kind state at {at}"  # a total of nothing
        )
        return Refusal(reason="state_unset", detail=detail)
    for name in states:
        if name in solution.refusals:
            return solution.refusals[name]
        if name not in solution.values:
            return Refusal(reason="underdetermined", detail=f"nothing fixes {name}")
    return states


def _convert(
    vocab: UnitVocabulary,
    states: list[str],
    solution: Solution,
    asked: UnitRef,
    *,
    asked_text: str,
    form: str,
    index: StateIndex,
) -> Reading | Refusal:
    total: Fraction | None = None  # no Fraction addition for the first (most often the only) state
    offset = _ZERO
    parts: list[tuple[str, Fraction, Fraction]] = []
    for name in states:
        ref = solution.units.get(name)
        value = solution.values[name]
        if ref is None:
            return Refusal(reason="unit_unbound", detail=f"{name} carries no unit to convert from")
        try:
            check_commensurable(ref, asked)
        except UnitRefusal as exc:
            return Refusal(reason=exc.reason, detail=f"{name} is in {ref.lemma}, asked in {asked.lemma}: {exc.detail}")
        shift = _ZERO
        if ref.lemma == asked.lemma:  # the common case: no conversion (an offset unit read in itself too)
            factor = _ONE
            total = value if total is None else total + value
        else:
            if ref.is_offset or asked.is_offset:
                shift = vocab.convert(_ZERO, ref.lemma, asked.lemma)  # affine: value * factor + offset, exact
                factor = vocab.convert(_ONE, ref.lemma, asked.lemma) - shift
            else:
                factor = ref.scale / asked.scale
            converted = value * factor + shift
            total = converted if total is None else total + converted
        offset = shift
        parts.append((name, value, factor))
    if total is not None and beyond_value_bits(total):  # each state is bounded, their total may not be (1/p + 1/q)
        return Refusal(
            reason="value_out_of_range",
            detail=f"{' + '.join(states)} in {asked_text} has more than {MAX_VALUE_BITS} bits",
        )
    return Reading(
        total if total is not None else _ZERO,
        asked_text,
        form,
        index,
        tuple(parts),
        offset if len(states) == 1 else _ZERO,
    )
