"""The relational lane's inverse (R1-style) cases answer the same through the math-graph path.

Each relational case whose known entity is the one a relation defines is written here as
the story a math-graph reader would produce (the fact as an initial state, the relation as
a comparison operation); both paths must give the relational lane's gold.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from adapters import MathGraphError, bind_math_problem_graph, bind_relations, graph_from_dict
from units import default_vocabulary
from verifier import Answer, verify

LANE = Path(__file__).resolve().parents[2] / "evals" / "lanes" / "relational.jsonl"
GOLD = {r["id"]: r for r in map(json.loads, LANE.read_text(encoding="utf-8").splitlines())}


def _init(entity: str, unit: str, value: int) -> dict[str, object]:
    return {"entity": entity, "quantity": {"unit": unit, "value": value}}


def _more(actor: str, ref: str, direction: str, unit: str, value: int) -> dict[str, object]:
    operand = {"reference_actor": ref, "direction": direction, "delta": {"unit": unit, "value": value}}
    return {"actor": actor, "kind": "compare_additive", "operand": operand}


def _times(actor: str, ref: str, direction: str, factor: object) -> dict[str, object]:
    operand = {"reference_actor": ref, "direction": direction, "factor": factor}
    return {"actor": actor, "kind": "compare_multiplicative", "operand": operand}


STORIES = {
    "relational-011": (["nia"], [_init("nia", "stamps", 15)], [_more("nia", "omar", "more", "stamps", 9)], "omar"),
    "relational-013": (["kai"], [_init("kai", "beads", 27)], [_times("kai", "lea", "times", 3)], "lea"),
    "relational-014": (["mo"], [_init("mo", "beads", 7)], [_times("mo", "ned", "fraction", "1/2")], "ned"),
    "relational-019": (
        ["rosa", "sam"],
        [_init("rosa", "shells", 10), _init("sam", "shells", 15)],
        [_more("sam", "rosa", "more", "shells", 3)],
        "sam",
    ),
    "relational-021": (
        ["ivy", "hal"],
        [_init("ivy", "shells", 10), _init("hal", "shells", 6)],
        [_times("hal", "ivy", "fraction", "1/2")],
        "hal",
    ),
    "relational-039": (
        ["cole"],
        [_init("cole", "shells", 10)],
        [_more("cole", "dina", "fewer", "shells", 5), _more("dina", "eve", "more", "shells", 3)],
        "eve",
    ),
    "relational-047": (
        ["a", "b"],
        [_init("a", "coins", 10), _init("b", "coins", 6)],
        [_more("b", "a", "fewer", "coins", 4)],
        "b",
    ),
}


def _outcome_math(case_id: str) -> tuple[str, str]:
    known, initial, operations, asked = STORIES[case_id]
    unit = str(initial[0]["quantity"]["unit"])  # type: ignore[index]
    entities = sorted(
        {*known, asked, *(str(op["actor"]) for op in operations)}
        | {str(op["operand"]["reference_actor"]) for op in operations}  # type: ignore[index]
    )
    vocab = default_vocabulary().with_count_nouns([unit])
    graph = {
        "entities": entities,
        "initial_state": initial,
        "operations": operations,
        "unknown": {"entity": asked, "unit": unit},
    }
    try:
        bound = bind_math_problem_graph(graph_from_dict(graph), vocab)
    except MathGraphError as exc:
        return ("refusal", exc.reason)
    (answer,) = verify(bound, vocab).answers.values()
    return ("answer", str(answer.fraction)) if isinstance(answer, Answer) else ("refusal", answer.reason)


def _outcome_relational(case_id: str) -> tuple[str, str]:
    data = GOLD[case_id]["input"]
    graph = bind_relations(data["relations"], data["query"], data.get("units"))
    unit = data["query"]["unit"]
    vocab = default_vocabulary().with_count_nouns([unit])
    (answer,) = verify(graph, vocab, policy="integer").answers.values()
    return ("answer", str(answer.fraction)) if isinstance(answer, Answer) else ("refusal", answer.reason)


@pytest.mark.parametrize("case_id", sorted(STORIES))
def test_inverse_case_answers_the_same_as_a_story(case_id: str) -> None:
    """The relational case and its math-graph story both give the relational lane's gold."""
    expect = GOLD[case_id]["expect"]
    gold = ("answer", expect["answer"]) if "answer" in expect else ("refusal", expect["refusal"])
    assert _outcome_relational(case_id) == gold
    assert _outcome_math(case_id) == gold
