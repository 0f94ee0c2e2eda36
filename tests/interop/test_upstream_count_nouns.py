"""`--count-nouns auto` on the upstream dev graphs: every answer right with no declaration, a typo refused (SPEC §5)."""

from __future__ import annotations

import io
import json
from fractions import Fraction
from pathlib import Path

from adapters import auto_count_nouns, bind_math_problem_graph, count_nouns_of, graph_from_dict
from verifier import Answer, verify
from verifier.cli import main


def _cases(upstream: Path) -> list[dict[str, object]]:
    text = (upstream / "gsm8k_parser_dev" / "cases.jsonl").read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def test_auto_declaration_answers_every_dev_graph_its_gold(upstream: Path) -> None:
    """All 50 dev graphs, each with its own nouns declared automatically, give their expected answer in their unit."""
    cases = _cases(upstream)
    assert len(cases) == 50
    nouns: set[str] = set()
    for case in cases:
        graph = graph_from_dict(case["ground_truth_graph"])
        nouns.update(count_nouns_of(graph))
        vocab = auto_count_nouns(graph)
        (answer,) = verify(bind_math_problem_graph(graph, vocab), vocab).answers.values()
        assert isinstance(answer, Answer), (case["id"], answer)
        assert Fraction(int(answer.value.p), int(answer.value.q)) == Fraction(str(case["expected_answer"])), case["id"]
        assert answer.unit == case["expected_unit"], case["id"]
    assert len(nouns) == 27  # the 27 --count-noun flags a user needed before


def test_cli_auto_answers_all_and_refuses_a_typo(upstream: Path, tmp_path: Path) -> None:
    """`bgverify check --count-nouns auto` exits 0 on the dev set; one noun typo'd in a copy is refused unknown_unit."""
    out = io.StringIO()
    assert main(["check", "--count-nouns", "auto", str(upstream / "gsm8k_parser_dev" / "cases.jsonl")], out=out) == 0
    assert out.getvalue().count("\n  answer ") == 50
    cases = _cases(upstream)
    graph = cases[0]["ground_truth_graph"]
    assert isinstance(graph, dict)
    assert graph["operations"][0]["operand"]["unit"] == "apples"
    graph["operations"][0]["operand"]["unit"] = "appels"
    path = tmp_path / "typo.jsonl"
    path.write_text("\n".join(json.dumps(c) for c in cases) + "\n", encoding="utf-8")
    out = io.StringIO()
    assert main(["check", "--count-nouns", "auto", "--json", str(path)], out=out) == 1
    first = json.loads(out.getvalue().splitlines()[0])
    assert first["refusal"]["reason"] == "unknown_unit"
    assert "did you mean 'apples'" in first["refusal"]["detail"]
    answered = [json.loads(line) for line in out.getvalue().splitlines()[1:]]
    assert len(answered) == 49
    assert all("report" in item for item in answered)
