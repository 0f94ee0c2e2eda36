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


def test_a_total_over_the_value_bound_is_refused_and_its_report_reads_back() -> None:
    """Each holding is within 100 bits, their total in the asked unit is not: value_out_of_range, never 50 digits.

    Found by a review: the total had been certified with a 50-digit numerator, beyond the
    documented bound, and its report could not be read back.
    """
    graph = {
        "entities": ["Tom", "Ann"],
        "initial_state": [
            {"entity": "Tom", "quantity": {"value": "316912650057057350374175801343", "unit": "ft"}},
            {"entity": "Ann", "quantity": {"value": "64102279726976053829/46824837241142551265", "unit": "ft"}},
        ],
        "operations": [{"kind": "add", "actor": "Tom", "operand": {"value": "12", "unit": "feet"}}],
        "unknown": {"entity": None, "unit": "ft"},
    }
    vocab = default_vocabulary()
    report = verify(bind_math_problem_graph(graph_from_dict(graph), vocab), vocab)
    (answer,) = report.answers.values()
    assert not isinstance(answer, Answer)
    assert answer.reason == "value_out_of_range"
    assert answer.detail == "q_ann_ft_t0 + op_000_result in ft has more than 100 bits"
    assert report.values["op_000_result"].magnitude == 316912650057057350374175801355  # each holding is listed
    assert GraphReport.from_json(json.loads(json.dumps(report.to_json())), vocab=vocab) == report


def test_a_linear_solve_beyond_the_bound_is_refused_whole_and_its_report_reads_back() -> None:
    """Kim is 1/p feet more than Sam, Kim holds q feet: Sam's solved value is beyond 100 bits.

    The solve step had recorded the values beyond the bound as its inputs, so the
    report (all of whose answers are refused) could not be read back (a review's min3).
    The system is refused as a whole, with no solve step, as a forward value beyond
    the bound is refused before it is recorded.
    """
    graph = {
        "entities": ["Sam", "Kim"],
        "initial_state": [{"entity": "Kim", "quantity": {"value": "1267650600228229401496703205375", "unit": "feet"}}],
        "operations": [
            {
                "kind": "compare_additive",
                "actor": "Kim",
                "operand": {
                    "reference_actor": "Sam",
                    "direction": "more",
                    "delta": {"unit": "feet", "value": "1/1267650600228229401496703205373"},
                },
            },
            {"kind": "add", "actor": "Sam", "operand": {"value": 1, "unit": "feet"}},
        ],
        "unknown": {"entity": "Sam", "unit": "feet"},
    }
    vocab = default_vocabulary()
    report = verify(bind_math_problem_graph(graph_from_dict(graph), vocab), vocab)
    (answer,) = report.answers.values()
    assert not isinstance(answer, Answer)
    assert answer.reason == "value_out_of_range"
    assert "has more than 100 bits (an exact linear solve)" in answer.detail
    assert [step.action for step in report.trace].count("solve") == 0
    assert {name for name, refusal in report.refusals.items() if refusal.reason == "value_out_of_range"}
    assert GraphReport.from_json(json.loads(json.dumps(report.to_json())), vocab=vocab) == report
    assert replay(report.trace) == {"q_kim_feet_t0": 1267650600228229401496703205375, "op_000_gap": 0}


def test_a_backward_solve_that_would_write_a_wide_constant_is_refused() -> None:
    """A 40/13-digit delta in hours, solved backwards over minutes, is 42 digits in the solve step's equation.

    replay() could not read that step back (a review's finding, reachable once a fraction
    may hold 40 digits a side); the system is refused as a whole. Forwards, the same
    comparison is evaluated from its written literal and stays certified.
    """
    delta = {"value": "8333333333341666666666666667750000000001/5000000000005", "unit": "hours"}
    held = {"value": "100000000000000000000000000013", "unit": "minutes"}

    def graph(holder: str, direction: str, asked: str) -> dict[str, object]:
        return {
            "entities": ["Bo", "Cy"],
            "initial_state": [{"entity": holder, "quantity": held}],
            "operations": [
                {
                    "kind": "compare_additive",
                    "actor": "Bo",
                    "operand": {"reference_actor": "Cy", "direction": direction, "delta": delta},
                }
            ],
            "unknown": {"entity": asked, "unit": "minutes"},
        }

    vocab = default_vocabulary()
    backward = verify(bind_math_problem_graph(graph_from_dict(graph("Bo", "more", "Cy")), vocab), vocab)
    (answer,) = backward.answers.values()
    assert not isinstance(answer, Answer)
    assert answer.reason == "value_out_of_range"
    assert "would write a number of more than 40 digits a side" in answer.detail
    replay(backward.trace)
    forward = verify(bind_math_problem_graph(graph_from_dict(graph("Cy", "fewer", "Bo")), vocab), vocab)
    (answer,) = forward.answers.values()
    assert isinstance(answer, Answer)
    assert str(answer.value) == "1/1000000000001"
    replay(forward.trace)
    assert GraphReport.from_json(json.loads(json.dumps(forward.to_json())), vocab=vocab) == forward
