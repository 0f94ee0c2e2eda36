"""STYLE §3 value-type contract for the verifier's results: ``T.from_json(x.to_json()) == x``, hashes equal.

Covers :class:`GraphReport` and every part of it: :class:`Verdict`, :class:`UnitProof`,
:class:`ProofOperand`, :class:`Refusal`, :class:`Value`, :class:`Answer`,
:class:`TraceStep`.  Reports come from graphs drawn with the shipped strategy
:func:`verifier.strategies.binding_graphs`, and from every bundled lane case (all
kinds, refusals and declared count nouns included).  Every value goes through real
JSON text on the way.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from fractions import Fraction

import pytest
from hypothesis import given, settings

from adapters.records import bind_record
from evals.runner import LANES, lane_cases
from units import RefusalError, UnitVocabulary, default_vocabulary
from verifier import GraphReport, verify
from verifier.admissibility import ProofOperand, Refusal, UnitProof, Verdict
from verifier.errors import BindingGraphError
from verifier.strategies import binding_graphs
from verifier.values import Answer, TraceStep, Value


def _through_text(data: dict[str, object]) -> object:
    """``data`` written as JSON text and read back (so only JSON types survive)."""
    return json.loads(json.dumps(data, sort_keys=True))


def _parts(report: GraphReport) -> Iterator[object]:
    """Every value inside a report, each once."""
    for verdict in report.verdicts.values():
        yield verdict
        if verdict.proof is not None:
            yield verdict.proof
            yield from verdict.proof.operands
        if verdict.refusal is not None:
            yield verdict.refusal
    yield from report.values.values()
    yield from report.refusals.values()
    yield from report.answers.values()
    yield from report.trace


def _read(part: object, vocab: UnitVocabulary) -> object:
    """``part`` written to JSON text and read back by its own type's ``from_json``."""
    data = _through_text(part.to_json())  # type: ignore[attr-defined]
    if isinstance(part, (UnitProof, Verdict)):
        return type(part).from_json(data, vocab=vocab)
    return type(part).from_json(data)  # type: ignore[attr-defined]


def _check_report(report: GraphReport, vocab: UnitVocabulary) -> None:
    """The report and each part read back equal, with equal hashes."""
    again = GraphReport.from_json(_through_text(report.to_json()), vocab=vocab)
    assert again == report
    assert hash(again) == hash(report)
    assert again.to_json() == report.to_json()
    assert list(again.answers) == list(report.answers)  # order kept
    for part in _parts(report):
        back = _read(part, vocab)
        assert back == part
        assert hash(back) == hash(part)


@settings(max_examples=60)
@given(binding_graphs())
def test_reports_of_drawn_graphs_round_trip(graph: object) -> None:
    """A report of any drawn graph, and every verdict, proof, value, answer and step in it, reads back equal."""
    vocab = default_vocabulary()
    _check_report(verify(graph, vocab), vocab)  # type: ignore[arg-type]


def _lane_reports() -> Iterator[tuple[str, GraphReport, UnitVocabulary]]:
    """The report of every bundled lane case that binds (with its own declarations)."""
    for lane in LANES:
        for case in lane_cases(lane):
            try:
                bound = bind_record(case)
            except RefusalError:
                continue  # a case refused before it is a graph: no report
            yield f"{lane}:{case['id']}", verify(bound.graph, bound.vocab, bound.policy), bound.vocab


def test_reports_of_every_lane_case_round_trip() -> None:
    """Each lane case's report reads back equal: admitted and refused verdicts, answers and refusals."""
    seen = {"admitted": 0, "refused": 0, "answers": 0, "refused_answers": 0, "declarations": 0}
    for _, report, vocab in _lane_reports():
        _check_report(report, vocab)
        for verdict in report.verdicts.values():
            seen[verdict.status] += 1
            seen["declarations"] += bool(verdict.proof is not None and verdict.proof.declarations)
        for answer in report.answers.values():
            seen["answers" if isinstance(answer, Answer) else "refused_answers"] += 1
    assert all(count > 10 for count in seen.values()), seen  # every shape was met, many times


def test_a_proof_resolves_its_result_unit_again() -> None:
    """``result_ref`` is not in the JSON: it is resolved from the lemma, so only its surface may differ."""
    for _, report, vocab in _lane_reports():
        for verdict in report.verdicts.values():
            proof = verdict.proof
            if proof is None or proof.result_ref is None:
                continue
            back = UnitProof.from_json(_through_text(proof.to_json()), vocab=vocab)
            assert back.result_ref is not None
            assert back.result_ref.lemma == proof.result_ref.lemma
            assert back.result_ref.dimension == proof.result_ref.dimension
            return
    pytest.fail("no lane proof has a result unit")


_PROOF = {
    "proof": "add: [length,length] -> length",
    "operation_kind": "add",
    "operands": [
        {"symbol_id": "a", "role": "operand", "unit": "feet", "dimension": "length", "factor": "1"},
        {"symbol_id": "b", "role": "operand", "unit": "inches", "dimension": "length", "factor": "1/12"},
    ],
    "result_unit": "foot",
    "result_dimension": "length",
    "declarations": [],
    "equation": "c = a + b",
}


def test_a_proof_reads_exactly() -> None:
    """A hand-written proof reads into the fields it states (the factor exact, the rhs a sum)."""
    proof = UnitProof.from_json(_PROOF)
    assert proof.lhs_symbol_id == "c"
    assert proof.operands[1] == ProofOperand("b", "operand", "inches", proof.result_dimension, Fraction(1, 12))
    assert str(proof.rhs) == "a + b"
    assert proof.result_ref is not None
    assert proof.result_ref.lemma == "foot"
    assert proof.to_json() == _PROOF


@pytest.mark.parametrize(
    ("change", "path"),
    [
        ({"proof": "add: [length] -> length"}, "proof.proof"),
        ({"equation": "c := a + b"}, "proof.equation"),
        ({"equation": "c = __import__('os')"}, "proof.equation"),
        ({"result_unit": 3}, "proof.result_unit"),
        ({"result_unit": "furlongs_per_fortnight"}, "proof.result_unit"),
        ({"result_dimension": "length^1"}, "proof.result_dimension"),
        ({"declarations": "count noun apple"}, "proof.declarations"),
        ({"extra": 1}, "proof"),
    ],
)
def test_a_bad_proof_is_refused_naming_the_field(change: dict[str, object], path: str) -> None:
    """Each malformed proof field is a typed refusal naming that field, never a guess."""
    with pytest.raises(BindingGraphError) as info:
        UnitProof.from_json({**_PROOF, **change})
    assert info.value.path == path


@pytest.mark.parametrize(
    ("reader", "data", "path"),
    [
        (Refusal.from_json, {"reason": "not_a_reason", "detail": "x"}, "refusal.reason"),
        (Refusal.from_json, {"reason": "unit_mismatch", "detail": 3}, "refusal.detail"),
        (Refusal.from_json, ["unit_mismatch", "x"], "refusal"),
        (Value.from_json, {"magnitude": 2.5, "unit": None}, "value.magnitude"),
        (Value.from_json, {"magnitude": "1/0", "unit": None}, "value.magnitude"),
        (
            Answer.from_json,
            {"value": "3", "unit": None, "question_form": "guess", "state_index": "terminal"},
            "answer.question_form",
        ),
        (
            Answer.from_json,
            {"value": "3", "unit": None, "question_form": "count", "state_index": "later"},
            "answer.state_index",
        ),
        (
            TraceStep.from_json,
            {**TraceStep(action="fact", target="a", value="3").to_json(), "action": "guess"},
            "step.action",
        ),
        (
            TraceStep.from_json,
            {**TraceStep(action="fact", target="a", value="3").to_json(), "inputs": {"a": 3}},
            "step.inputs.a",
        ),
        (
            TraceStep.from_json,
            {**TraceStep(action="fact", target="a", value="3").to_json(), "value": "x"},
            "step.value",
        ),
        (
            TraceStep.from_json,
            {**TraceStep(action="fact", target="a", value="3").to_json(), "value": "6/2"},
            "step.value",
        ),
        (
            TraceStep.from_json,
            {**TraceStep(action="fact", target="a", value="3").to_json(), "inputs": {"b": "x"}},
            "step.inputs.b",
        ),
        (Verdict.from_json, {"status": "admitted", "unit_proof": "unverified"}, "verdict.status"),
        (
            Verdict.from_json,
            {"status": "refused", "unit_proof": "x", "refusal": {"reason": "unit_mismatch", "detail": ""}},
            "verdict.unit_proof",
        ),
    ],
)
def test_bad_result_json_is_refused_naming_the_field(reader: object, data: object, path: str) -> None:
    """A wrong type, an unknown reason, a float or a verdict that contradicts itself is refused at its path."""
    with pytest.raises(BindingGraphError) as info:
        reader(data)  # type: ignore[operator]
    assert info.value.reason == "malformed_input"
    assert info.value.path == path


def test_a_report_with_an_answer_of_both_kinds_is_refused() -> None:
    """An answer entry holds an answer or a refusal, not both and not neither."""
    report = {"policy": "count_exact", "verdicts": {}, "values": {}, "refusals": {}, "trace": []}
    both = {
        "answer": Answer(value=3, unit=None, question_form="count", state_index="terminal").to_json(),
        "refusal": Refusal(reason="unit_mismatch", detail="").to_json(),
    }
    for entry in (both, {}):
        with pytest.raises(BindingGraphError) as info:
            GraphReport.from_json({**report, "answers": {"u": entry}})
        assert info.value.path == "report.answers.u"


def test_a_report_hashes_as_it_compares() -> None:
    """Equal reports whose mappings hold their items in another order are equal and hash equal; a changed one differs."""
    report = next(r for _, r, _ in _lane_reports() if len(r.verdicts) > 1)
    shuffled = dataclasses.replace(report, verdicts=dict(reversed(list(report.verdicts.items()))))
    assert list(shuffled.verdicts) != list(report.verdicts)
    assert shuffled == report
    assert hash(shuffled) == hash(report)
    other = dataclasses.replace(report, policy="integer" if report.policy == "count_exact" else "count_exact")
    assert other != report
    assert {report, shuffled, other} == {report, other}
