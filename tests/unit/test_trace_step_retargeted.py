"""TraceStep.retargeted: a copy for another unknown, equal to building it afresh, without checking its pairs again."""

from __future__ import annotations

import pytest

from units import default_vocabulary
from verifier import BindingGraph, BoundFact, BoundUnknown, SourceSpanLink, SymbolBinding, verify
from verifier.values import TraceStep

_STEP = TraceStep(
    action="answer",
    target="unknown_total_dollars",
    formula="q_a + q_b",
    inputs=(("q_a", "3"), ("q_b", "4")),
    value="7",
    unit="dollars",
    note="count",
)


def test_retargeted_equals_the_step_built_afresh() -> None:
    """Equal, equally hashed and with the same JSON as the constructor's step for the new target."""
    fresh = TraceStep(
        action="answer",
        target="u2",
        formula="q_a + q_b",
        inputs=(("q_a", "3"), ("q_b", "4")),
        value="7",
        unit="dollars",
        note="count",
    )
    copy = _STEP.retargeted("u2")
    assert copy == fresh
    assert hash(copy) == hash(fresh)
    assert copy.to_json() == fresh.to_json()
    assert _STEP.target == "unknown_total_dollars"  # the original is untouched


def test_the_constructor_still_checks_the_pairs() -> None:
    """Only a copy of a checked step skips the check; unsorted pairs are refused at construction."""
    with pytest.raises(ValueError, match="sorted by name"):
        TraceStep(action="answer", target="u", inputs=(("q_b", "4"), ("q_a", "3")), value="7")


@pytest.mark.parametrize("n", [3, 50])
def test_every_total_unknown_gets_its_own_answer_step(n: int) -> None:
    """N unknowns asking the same total each get one answer step, aimed at itself, with every holding as input."""
    span = SourceSpanLink(source_id="t", start=0, end=1)
    symbols, facts, unknowns = [], [], []
    for i in range(n):
        symbols += [
            SymbolBinding(
                symbol_id=f"q{i}",
                name=f"q{i}",
                semantic_role="quantity",
                source_span=span,
                introduced_by="t",
                entity=f"E{i}",
                unit="dollars",
            ),
            SymbolBinding(
                symbol_id=f"u{i}",
                name=f"u{i}",
                semantic_role="unknown",
                source_span=span,
                introduced_by="t",
                unit="dollars",
            ),
        ]
        facts.append(BoundFact(symbol_id=f"q{i}", value=str(i), source_span=span, unit="dollars"))
        unknowns.append(
            BoundUnknown(
                symbol_id=f"u{i}",
                question_span=span,
                state_index="initial",
                question_form="identity",
                expected_unit="dollars",
            )
        )
    report = verify(
        BindingGraph(symbols=tuple(symbols), facts=tuple(facts), unknowns=tuple(unknowns)), default_vocabulary()
    )
    answer_steps = [step for step in report.trace if step.action == "answer"]
    assert [step.target for step in answer_steps] == [f"u{i}" for i in range(n)]
    assert {step.value for step in answer_steps} == {str(n * (n - 1) // 2)}
    assert all(len(step.inputs) == n for step in answer_steps)
