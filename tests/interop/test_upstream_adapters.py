"""Our adapters and verify on the upstream inputs, read in place from ../shared/upstream.

Never copies upstream files; skips when the folder is absent (the ``upstream``
fixture).  Numbers are read with :func:`adapters.read_json`, so they stay exact.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from adapters import (
    MathGraphError,
    bind_math_problem_graph,
    bind_relations,
    graph_from_dict,
    parse_canonical_text,
    read_json,
)
from units import UnitRefusal, UnitVocabulary, default_vocabulary
from verifier import Answer, Refusal, verify

pytestmark = pytest.mark.upstream

_E_LINE = re.compile(
    r"E (?P<lhs>\S+) := .+ op=(?P<op>\S+) deps=\[(?P<deps>[^\]]*)\] unit_proof=(?P<proof>.+?) "
    r"status=(?P<status>\S+) refusal=(?P<refusal>\S+) span=\S+"
)


def read_jsonl(path: Path) -> list[dict[str, object]]:
    """Every record of a JSONL file, numbers kept exact."""
    records = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            record = read_json(line)
            assert isinstance(record, dict)
            records.append(record)
    return records


def singular(noun: str) -> str:
    """A lemma for a plural count noun ("candies" -> "candy", "scarves" -> "scarf", "apples" -> "apple")."""
    if noun.endswith("ies"):
        return noun[:-3] + "y"
    if noun.endswith("ves"):
        return noun[:-3] + "f"
    return noun.removesuffix("s")


def undeclared(vocab: UnitVocabulary, surfaces: set[str]) -> dict[str, str]:
    """The surfaces the strict vocabulary does not resolve, each mapped to a lemma of its own."""
    out = {}
    for surface in sorted(surfaces):
        try:
            vocab.resolve(surface)
        except UnitRefusal:
            out[surface] = singular(surface)
    return out


@pytest.fixture(scope="module")
def dev_cases(upstream: Path) -> list[dict[str, object]]:
    """The 50 upstream dev cases."""
    return read_jsonl(upstream / "gsm8k_parser_dev" / "cases.jsonl")


@pytest.fixture(scope="module")
def dev_vocab(dev_cases: list[dict[str, object]]) -> UnitVocabulary:
    """The default vocabulary with every dev-set count noun it does not already resolve declared."""
    surfaces: set[str] = set()
    for case in dev_cases:
        g = graph_from_dict(case["ground_truth_graph"])
        surfaces.update(p.quantity.unit for p in g.initial_state)
        surfaces.update(getattr(o.operand, "unit", g.unknown.unit) for o in g.operations)
        surfaces.add(g.unknown.unit)
    return default_vocabulary().with_count_nouns(undeclared(default_vocabulary(), surfaces))


def test_dev_set_shape(dev_cases: list[dict[str, object]]) -> None:
    """The dev set holds 50 cases gpd-001 … gpd-050, each with an integer expected answer."""
    assert [c["id"] for c in dev_cases] == [f"gpd-{i:03d}" for i in range(1, 51)]
    assert all(type(c["expected_answer"]) is int for c in dev_cases)


def test_dev_count_nouns_are_only_the_unresolved_ones(dev_vocab: UnitVocabulary) -> None:
    """Only nouns the strict vocabulary does not resolve are declared ("cups" and "dollars" are not)."""
    declared = dict(dev_vocab.count_nouns)
    assert declared["apples"] == "apple"
    assert declared["candies"] == "candy"
    assert "cups" not in declared
    assert "dollars" not in declared


def test_every_dev_graph_round_trips_and_binds(dev_cases: list[dict[str, object]], vocab: UnitVocabulary) -> None:
    """All 50 dev graphs round-trip through as_json and bind under the strict vocabulary."""
    for case in dev_cases:
        g = graph_from_dict(case["ground_truth_graph"])
        assert graph_from_dict(g.as_json()) == g, case["id"]
        bound = bind_math_problem_graph(g, vocab)
        assert len(bound.equations) >= len(g.operations), case["id"]
        assert len(bound.unknowns) == 1


def test_dev_graphs_answer_exactly_with_count_nouns(
    dev_cases: list[dict[str, object]], dev_vocab: UnitVocabulary
) -> None:
    """With their count nouns declared, all 50 dev graphs answer exactly their expected answer (wrong = refused = 0)."""
    tally: Counter[str] = Counter()
    failures = []
    for case in dev_cases:
        bound = bind_math_problem_graph(graph_from_dict(case["ground_truth_graph"]), dev_vocab)
        report = verify(bound, dev_vocab)
        (result,) = report.answers.values()
        if isinstance(result, Refusal):
            tally["refused"] += 1
            failures.append((case["id"], str(result)))
        elif result.value == case["expected_answer"] and result.unit == case["expected_unit"]:
            tally["correct"] += 1
        else:
            tally["wrong"] += 1
            failures.append((case["id"], str(result)))
    assert failures == []
    assert tally == Counter(correct=50)


def test_dev_graphs_are_correct_or_refused_strictly(dev_cases: list[dict[str, object]], vocab: UnitVocabulary) -> None:
    """With the strict default vocabulary each dev graph is exactly correct or refused unknown_unit, never wrong."""
    tally: Counter[str] = Counter()
    for case in dev_cases:
        report = verify(bind_math_problem_graph(graph_from_dict(case["ground_truth_graph"]), vocab), vocab)
        (result,) = report.answers.values()
        if isinstance(result, Answer):
            assert result.value == case["expected_answer"], case["id"]
            tally["correct"] += 1
        else:
            assert result.reason == "unknown_unit", (case["id"], str(result))
            tally["refused"] += 1
    assert tally["correct"] + tally["refused"] == 50
    assert tally["correct"] >= 1  # the dollar and cup cases need no declaration


def test_relational_cases_answer_their_gold(upstream: Path, vocab: UnitVocabulary) -> None:
    """All 15 relational cases answer exactly their gold under the integer policy, query unit declared."""
    cases = read_jsonl(upstream / "relational_metric" / "cases.jsonl")
    assert len(cases) == 15
    wrong = []
    for case in cases:
        query = case["query"]
        assert isinstance(query, dict)
        case_vocab = (
            vocab.with_count_nouns(undeclared(vocab, {str(query["unit"])}))
            if undeclared(vocab, {str(query["unit"])})
            else vocab
        )
        report = verify(bind_relations(case["relations"], query), case_vocab, policy="integer")
        (result,) = report.answers.values()
        if not (isinstance(result, Answer) and result.value == case["gold"] and result.unit == query["unit"]):
            wrong.append((case["id"], str(result), case["gold"]))
    assert wrong == []


@pytest.fixture(scope="module")
def canonical_records(upstream: Path) -> list[dict[str, object]]:
    """The 72 upstream hand-rolled adapter records."""
    return read_jsonl(upstream / "hand_rolled" / "adapter_canonical.jsonl")


def test_canonical_records_shape(canonical_records: list[dict[str, object]]) -> None:
    """72 records: 71 canonical texts and one recorded exception (the unit_partition probe)."""
    assert len(canonical_records) == 72
    errors = [r for r in canonical_records if r.get("hand_rolled_error")]
    assert [r["id"] for r in errors] == ["probe-unit-partition"]
    assert errors[0].get("hand_rolled_canonical") is None
    assert sum(bool(r.get("hand_rolled_canonical")) for r in canonical_records) == 71


def test_canonical_texts_parse_and_keep_their_verdicts(
    canonical_records: list[dict[str, object]],
) -> None:
    """Every canonical text parses (only MathGraphError may escape), and each recorded verdict comes back unchanged."""
    parsed = 0
    for record in canonical_records:
        text = record.get("hand_rolled_canonical")
        if not text:
            continue
        assert isinstance(text, str)
        try:
            graph, recorded = parse_canonical_text(text)
        except MathGraphError:
            continue
        parsed += 1
        lines = text.splitlines()
        e_lines = [_E_LINE.fullmatch(line) for line in lines if line.startswith("E ")]
        assert all(m is not None for m in e_lines), record["id"]
        assert len(graph.symbols) == sum(line.startswith("S ") for line in lines)
        assert len(graph.facts) == sum(line.startswith("F ") for line in lines)
        assert len(graph.unknowns) == sum(line.startswith("U ") for line in lines)
        assert list(recorded) == [m["lhs"] for m in e_lines if m is not None]
        equations = {e.lhs_symbol_id: e for e in graph.equations}
        for m in e_lines:
            assert m is not None
            rec = recorded[m["lhs"]]
            refusal = None if m["refusal"] == "None" else m["refusal"]
            assert rec.operation_kind == m["op"]
            assert rec.status == m["status"]
            assert rec.unit_proof == m["proof"]
            assert rec.refusal_reason == refusal
            assert rec.dependencies == tuple(d for d in m["deps"].split(",") if d)
            eq = equations[m["lhs"]]
            assert (
                eq.operation_kind,
                eq.admissibility_status,
                eq.unit_proof,
                eq.refusal_reason,
            ) == (m["op"], m["status"], m["proof"], refusal)
    assert parsed == 71


def test_canonical_texts_verify_without_crashing(
    canonical_records: list[dict[str, object]], vocab: UnitVocabulary
) -> None:
    """Each parsed upstream graph verifies to a report whose answers are exact values or typed refusals."""
    reasons: Counter[str] = Counter()
    for record in canonical_records:
        text = record.get("hand_rolled_canonical")
        if not text:
            continue
        graph, _ = parse_canonical_text(text)
        report = verify(graph, vocab)
        for result in report.answers.values():
            reasons[result.reason if isinstance(result, Refusal) else "answer"] += 1
    assert sum(reasons.values()) == 71
    assert reasons["answer"] >= 1
