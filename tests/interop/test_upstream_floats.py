"""Upstream graphs read with the standard ``json`` module (floats in process) answer as they do from text (SPEC §4)."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

from adapters import bind_math_problem_graph, bind_relations, graph_from_dict
from units import UnitRefusal, default_vocabulary
from verifier import Answer, verify


def _nouns(graphs: list[dict[str, object]]) -> dict[str, str]:
    """Every unit the default vocabulary does not resolve, declared as its own count kind (lemma: the surface)."""
    base = default_vocabulary()
    out: dict[str, str] = {}

    def walk(node: object) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                if key.endswith("unit") and isinstance(value, str):
                    try:
                        base.resolve(value)
                    except UnitRefusal:
                        out[value] = "n_" + "".join(ch if ch.isalnum() else "_" for ch in value.lower())
                else:
                    walk(value)
        elif isinstance(node, list):
            for item in node:
                walk(item)

    walk(graphs)
    return out


def test_dev_graphs_with_python_floats_answer_their_gold(upstream: Path) -> None:
    """All 50 dev graphs, loaded by json.load (floats such as 0.5 or 2.5 stay floats), answer their expected value."""
    cases = [json.loads(line) for line in (upstream / "gsm8k_parser_dev" / "cases.jsonl").read_text().splitlines()]
    vocab = default_vocabulary().with_count_nouns(_nouns([c["ground_truth_graph"] for c in cases]))
    for case in cases:
        report = verify(bind_math_problem_graph(graph_from_dict(case["ground_truth_graph"]), vocab), vocab)
        (answer,) = report.answers.values()
        assert isinstance(answer, Answer), (case["id"], answer)
        assert Fraction(int(answer.value.p), int(answer.value.q)) == Fraction(str(case["expected_answer"])), case["id"]


def test_relational_cases_with_python_numbers_answer_their_gold(upstream: Path) -> None:
    """The 15 relational cases, loaded by json.load, give exactly their integer gold under the integer policy."""
    lines = (upstream / "relational_metric" / "cases.jsonl").read_text().splitlines()
    cases = [json.loads(line) for line in lines if line.strip()]
    assert len(cases) == 15
    vocab = default_vocabulary().with_count_nouns(_nouns([c["query"] for c in cases]))
    for case in cases:
        graph = bind_relations(case["relations"], case["query"])
        (answer,) = verify(graph, vocab, policy="integer").answers.values()
        assert isinstance(answer, Answer), (case.get("id"), answer)
        assert answer.value == case["gold"]
