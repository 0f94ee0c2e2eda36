"""What the adversarial review of the holdings model found, each pinned to the refusal it now gets (SPEC §4 and §5)."""

from __future__ import annotations

import pytest

from adapters import bind_math_problem_graph, bind_relations, graph_from_dict
from units import default_vocabulary
from verifier import BindingGraph, Refusal, verify


def _span(text: str) -> dict[str, object]:
    return {"source_id": "review", "start": 0, "end": len(text), "text": text}


def _symbol(symbol_id: str, role: str, entity: str | None, unit: str | None) -> dict[str, object]:
    return {
        "symbol_id": symbol_id,
        "name": symbol_id,
        "semantic_role": role,
        "source_span": _span(symbol_id),
        "introduced_by": "review",
        "entity": entity,
        "unit": unit,
    }


def _answers(graph: BindingGraph, policy: str = "count_exact") -> list[object]:
    return list(verify(graph, policy=policy).answers.values())


@pytest.mark.parametrize(("rhs", "kind"), [("qa - 2", "add"), ("qa + 2", "subtract")])
def test_binding_graph_whose_constant_contradicts_its_kind_is_refused(rhs: str, kind: str) -> None:
    """``qa - 2`` labelled add (or ``qa + 2`` labelled subtract) is refused, not answered 3 (or 7) dollars."""
    data = {
        "symbols": [
            _symbol("entity_a", "entity", "A", None),
            _symbol("qa", "quantity", "A", "dollars"),
            _symbol("ra", "quantity", "A", "dollars"),
            _symbol("u", "unknown", "A", "dollars"),
        ],
        "facts": [{"symbol_id": "qa", "value": "5", "unit": "dollars", "source_span": _span("qa")}],
        "equations": [
            {
                "lhs_symbol_id": "ra",
                "rhs_canonical": rhs,
                "operation_kind": kind,
                "literal_unit": "dollars",
                "source_span": _span("ra"),
            }
        ],
        "unknowns": [
            {"symbol_id": "u", "state_index": "terminal", "question_form": "count", "question_span": _span("u")}
        ],
    }
    (answer,) = _answers(BindingGraph.from_json(data))
    assert isinstance(answer, Refusal)
    assert answer.reason == "operand_arity"


def test_partition_into_zero_parts_is_refused() -> None:
    """A unit_partition makes a positive number of parts: 0 bags split by 1 bag is not answered 0."""
    vocab = default_vocabulary().with_count_nouns({"pieces": "piece"})
    data = {
        "entities": ["A"],
        "initial_state": [{"entity": "A", "quantity": {"unit": "feet", "value": 0}}],
        "operations": [
            {"actor": "A", "kind": "unit_partition", "operand": {"value": 1, "unit": "feet", "result_unit": "pieces"}}
        ],
        "unknown": {"entity": "A", "unit": "pieces"},
    }
    (answer,) = verify(bind_math_problem_graph(graph_from_dict(data), vocab), vocab).answers.values()
    assert isinstance(answer, Refusal)
    assert answer.reason == "value_out_of_range"


def test_integer_policy_refuses_a_fractional_divisor_even_where_the_system_is_open() -> None:
    """Under the integer policy a divide_by 3/2 is refused whether or not its part of the system is solved."""
    relations = [
        {"kind": "times_as_many", "entity": "dee", "ref": "bo", "factor": 4},
        {"kind": "divide_by", "entity": "cy", "ref": "dee", "divisor": "3/2"},
        {"kind": "fact", "entity": "eve", "value": 9},
    ]
    (answer,) = _answers(bind_relations(relations, {"entity": "eve", "unit": "dollars"}), policy="integer")
    assert isinstance(answer, Refusal)
    assert answer.reason == "non_exact_division"


def test_unknown_whose_unit_and_expected_unit_disagree_is_refused() -> None:
    """An unknown symbol in pounds that asks for inches is refused (unit_mismatch), not answered in inches."""
    data = {
        "symbols": [
            _symbol("entity_a", "entity", "A", None),
            _symbol("qa", "quantity", "A", "inches"),
            _symbol("u", "unknown", "A", "pounds"),
        ],
        "facts": [{"symbol_id": "qa", "value": "36", "unit": "inches", "source_span": _span("qa")}],
        "unknowns": [
            {
                "symbol_id": "u",
                "expected_unit": "inches",
                "state_index": "initial",
                "question_form": "identity",
                "question_span": _span("u"),
            }
        ],
    }
    (answer,) = _answers(BindingGraph.from_json(data))
    assert isinstance(answer, Refusal)
    assert answer.reason == "unit_mismatch"
