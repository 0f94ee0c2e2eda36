"""A report, trace or bound graph holding values of many digits reads back (each side of n/d bounded, not the sum)."""

from __future__ import annotations

import json

from adapters import bind_math_problem_graph, graph_from_dict
from units import default_vocabulary
from verifier import Answer, BindingGraph, verify
from verifier.values import GraphReport, replay


def _graph(initial: str, factor: str) -> dict[str, object]:
    return {
        "entities": ["Tom"],
        "initial_state": [{"entity": "Tom", "quantity": {"value": initial, "unit": "feet"}}],
        "operations": [{"kind": "multiply", "actor": "Tom", "operand": {"value": factor, "unit": "feet"}}],
        "unknown": {"entity": "Tom", "unit": "feet"},
    }


def test_a_certified_answer_of_52_digits_reads_back_from_json() -> None:
    """GraphReport.from_json(to_json) is the report, and its trace replays (it had been malformed_input)."""
    vocab = default_vocabulary()
    bound = bind_math_problem_graph(
        graph_from_dict(_graph("1125899906842625/205891132094649", "12345678901/98765432107"))
    )
    report = verify(bound, vocab)
    (answer,) = report.answers.values()
    assert isinstance(answer, Answer)
    assert str(answer.value) == "13899998724544860989955125/20334926628327424507495443"
    back = GraphReport.from_json(json.loads(json.dumps(report.to_json())))
    assert back == report
    assert replay(back.trace)["op_000_result"] == answer.value


def test_a_decimal_of_29_places_binds_and_reads_back() -> None:
    """0.1234...789 (29 places) was read, then refused at binding as its fact's n/d text (59 digits)."""
    decimal = "0.12345678901234567890123456789"
    bound = bind_math_problem_graph(graph_from_dict(_graph(decimal, "2")))
    assert bound.facts[0].value == "12345678901234567890123456789/100000000000000000000000000000"
    assert BindingGraph.from_json(json.loads(json.dumps(bound.to_json()))) == bound
    (answer,) = verify(bound).answers.values()
    assert isinstance(answer, Answer)
    assert str(answer.value) == "12345678901234567890123456789/50000000000000000000000000000"


def test_a_decimal_beyond_the_value_bound_is_refused_at_values_not_binding() -> None:
    """37 places binds now; its value is over the solver's 100 bits, a typed refusal naming the fact."""
    bound = bind_math_problem_graph(graph_from_dict(_graph("0.1234567890123456789012345678901234567", "2")))
    (answer,) = verify(bound).answers.values()
    assert not isinstance(answer, Answer)
    assert answer.reason == "value_out_of_range"
    assert answer.detail.startswith("q_tom_feet_t0 has more than 100 bits")
