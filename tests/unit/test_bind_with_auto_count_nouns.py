"""``bind_with_auto_count_nouns`` is ``auto_count_nouns`` then binding, done once (issue #13: auto mode bound each graph twice).

The check of nouns whose meaning the answer depends on binds the graph as written in the
derived vocabulary; that binding is what the one-call path returns.  Whatever the graph,
the one call and the two calls must give the same graph, vocabulary and report, or raise
the same refusal.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings

from adapters import (
    MathGraphError,
    MathProblemGraph,
    auto_count_nouns,
    bind_math_problem_graph,
    bind_with_auto_count_nouns,
    graph_from_dict,
)
from adapters.nouns import bind_and_verify_with_auto_count_nouns
from adapters.records import bind_record
from verifier import Answer, verify
from verifier.strategies import schema_valid_graphs

_UNITS = ("apples", "apple", "Apples", "marbles", "dollars", "cents", "dimes", "boxes", "hours", "minutes", "mns")


def _two_calls(graph: MathProblemGraph) -> tuple[str, object, dict[str, object]] | tuple[str, str, str]:
    """What the two-call path gives: ``("bound", vocabulary nouns, report)`` or ``("refused", reason, message)``."""
    try:
        vocab = auto_count_nouns(graph)
        bound = bind_math_problem_graph(graph, vocab)
    except MathGraphError as exc:
        return "refused", exc.reason, str(exc)
    return bound.to_canonical_string(), vocab.count_nouns, verify(bound, vocab).to_json()


def _one_call(graph: MathProblemGraph) -> tuple[str, object, dict[str, object]] | tuple[str, str, str]:
    """The one-call path; the report the checks made, when they made one, is the report ``verify`` makes."""
    try:
        bound, vocab = bind_with_auto_count_nouns(graph)
        again, same_vocab, made = bind_and_verify_with_auto_count_nouns(graph)
    except MathGraphError as exc:
        return "refused", exc.reason, str(exc)
    report = verify(bound, vocab).to_json()
    assert again.to_canonical_string() == bound.to_canonical_string()
    assert same_vocab is vocab  # derived vocabularies are cached per noun set
    if made is not None:
        assert made.to_json() == report
    return bound.to_canonical_string(), vocab.count_nouns, report


def _story(operations: list[dict[str, Any]], unknown_unit: str, *, start: str = "apples") -> dict[str, Any]:
    return {
        "entities": ["Sam", "Kim"],
        "initial_state": [{"entity": "Sam", "quantity": {"unit": start, "value": 12}}],
        "operations": operations,
        "unknown": {"entity": "Sam", "unit": unknown_unit},
    }


STORIES = {
    "a noun declared, answer certified": _story(
        [{"actor": "Sam", "kind": "add", "operand": {"unit": "apples", "value": 3}}], "apples"
    ),
    "no noun to declare": _story(
        [{"actor": "Sam", "kind": "add", "operand": {"unit": "feet", "value": 3}}], "feet", start="feet"
    ),
    "a noun declared, verification refuses": _story(
        [{"actor": "Sam", "kind": "subtract", "operand": {"unit": "apples", "value": 30}}], "apples"
    ),
    "a noun declared, binding refuses (a comparison fixes neither side)": {
        **_story(
            [
                {
                    "actor": "Kim",
                    "kind": "compare_additive",
                    "operand": {
                        "reference_actor": "Lee",
                        "direction": "more",
                        "delta": {"unit": "apples", "value": 2},
                    },
                }
            ],
            "apples",
        ),
        "entities": ["Sam", "Kim", "Lee"],
    },
    "a near miss refused": _story(
        [{"actor": "Sam", "kind": "add", "operand": {"unit": "appels", "value": 3}}], "apples"
    ),
    "a noun whose meaning the answer depends on": _story(
        [{"actor": "Sam", "kind": "add", "operand": {"unit": "mns", "value": 30}}], "minutes", start="minutes"
    ),
}


@pytest.mark.parametrize("data", STORIES.values(), ids=STORIES.keys())
def test_one_call_gives_what_two_calls_give(data: dict[str, Any]) -> None:
    """The same binding, nouns and report, or the same refusal, for each kind of outcome."""
    graph = graph_from_dict(data)
    assert _one_call(graph) == _two_calls(graph)


def test_the_outcomes_of_the_table_are_what_they_say() -> None:
    """The table covers a certified answer, a verification refusal and three refusals in declaration or binding."""
    outcomes = {name: _one_call(graph_from_dict(data)) for name, data in STORIES.items()}
    certified = outcomes["a noun declared, answer certified"]
    report = certified[2]
    assert isinstance(report, dict)
    assert report["answers"] == {
        "unknown_sam_apples": {
            "answer": {"question_form": "count", "state_index": "terminal", "unit": "apples", "value": "15"}
        }
    }
    assert certified[1] == (("apples", "apple"),)
    refused_in_verify = outcomes["a noun declared, verification refuses"][2]
    assert isinstance(refused_in_verify, dict)
    answers = refused_in_verify["answers"]
    assert isinstance(answers, dict)
    assert "refusal" in next(iter(answers.values()))
    assert outcomes["a noun declared, binding refuses (a comparison fixes neither side)"][:2] == (
        "refused",
        "underdetermined",
    )
    assert outcomes["a near miss refused"][:2] == ("refused", "unknown_unit")
    assert outcomes["a noun whose meaning the answer depends on"][:2] == ("refused", "unknown_unit")


def test_a_dict_is_read_as_auto_count_nouns_reads_it() -> None:
    """The graph may be given as its JSON dict, as for :func:`adapters.auto_count_nouns`."""
    data = STORIES["a noun declared, answer certified"]
    bound, vocab = bind_with_auto_count_nouns(data)
    (answer,) = verify(bound, vocab).answers.values()
    assert isinstance(answer, Answer)
    assert (int(answer.value), answer.unit) == (15, "apples")


@settings(max_examples=250, deadline=None)
@given(schema_valid_graphs(units=_UNITS, max_operations=4))
def test_one_call_agrees_with_two_calls_on_drawn_graphs(graph: MathProblemGraph) -> None:
    """On graphs of nouns, near misses and lexicon units drawn freely (most refuse somewhere), both paths agree."""
    assert _one_call(graph) == _two_calls(graph)


@pytest.mark.parametrize(
    "name", ["a noun declared, answer certified", "a noun declared, verification refuses", "no noun to declare"]
)
def test_a_bound_record_reuses_the_report_auto_declaration_made(name: str) -> None:
    """``BoundRecord.verify`` returns the checks' report under ``count_exact`` and verifies afresh under ``integer``."""
    record = bind_record(STORIES[name], count_nouns="auto")
    fresh = verify(record.graph, record.vocab, "count_exact")
    assert record.verify().to_json() == fresh.to_json()
    assert record.verify("count_exact").to_json() == fresh.to_json()
    assert record.verify("integer").to_json() == verify(record.graph, record.vocab, "integer").to_json()
    if name == "no noun to declare":
        assert record.reports == {}  # nothing was declared, so nothing was verified while binding
    else:
        assert record.verify() is record.reports["count_exact"]
        assert "integer" not in record.reports
    declared = bind_record(STORIES[name], count_nouns="declared")
    assert declared.reports == {}
