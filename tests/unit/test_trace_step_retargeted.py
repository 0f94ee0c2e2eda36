"""TraceStep.retargeted: a copy for another unknown, equal to building it afresh, without checking its pairs again."""

from __future__ import annotations

import dataclasses

import pytest

from units import default_vocabulary
from verifier import BindingGraph, verify
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
    fresh = dataclasses.replace(_STEP, target="u2")  # through the constructor and its check
    copy = _STEP.retargeted("u2")
    assert copy == fresh
    assert hash(copy) == hash(fresh)
    assert copy.to_json() == fresh.to_json()
    assert _STEP.target == "unknown_total_dollars"  # the original is untouched


def test_the_constructor_still_checks_the_pairs() -> None:
    """Only a copy of a checked step skips the check; unsorted pairs are refused at construction."""
    with pytest.raises(ValueError, match="sorted by name"):
        TraceStep(action="answer", target="u", inputs=(("q_b", "4"), ("q_a", "3")), value="7")


def _totals_graph(n: int) -> BindingGraph:
    """N holdings of dollars (entity i holds i) and N unknowns each asking the total, read from JSON data."""
    span = {"source_id": "t", "start": 0, "end": 1}

    def symbol(symbol_id: str, role: str, entity: str | None) -> dict[str, object]:
        return {
            "symbol_id": symbol_id,
            "name": symbol_id,
            "semantic_role": role,
            "source_span": span,
            "introduced_by": "t",
            "entity": entity,
            "unit": "dollars",
        }

    return BindingGraph.from_json(
        {
            "symbols": [
                s for i in range(n) for s in (symbol(f"q{i}", "quantity", f"E{i}"), symbol(f"u{i}", "unknown", None))
            ],
            "facts": [
                {"symbol_id": f"q{i}", "value": str(i), "unit": "dollars", "source_span": span} for i in range(n)
            ],
            "unknowns": [
                {
                    "symbol_id": f"u{i}",
                    "question_span": span,
                    "state_index": "initial",
                    "question_form": "identity",
                    "expected_unit": "dollars",
                }
                for i in range(n)
            ],
        }
    )


@pytest.mark.parametrize("n", [3, 50])
def test_every_total_unknown_gets_its_own_answer_step(n: int) -> None:
    """N unknowns asking the same total each get one answer step, aimed at itself, with every holding as input."""
    report = verify(_totals_graph(n), default_vocabulary())
    answer_steps = [step for step in report.trace if step.action == "answer"]
    assert [step.target for step in answer_steps] == [f"u{i}" for i in range(n)]
    assert {step.value for step in answer_steps} == {str(n * (n - 1) // 2)}
    assert all(len(step.inputs) == n for step in answer_steps)
