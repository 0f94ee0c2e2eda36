"""Whose state is the last one: dependency chains, forks, kind-changing updates and unmatched transfers."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
import sympy

from adapters import bind_math_problem_graph, graph_from_dict, parse_canonical_text, read_json
from units import UnitVocabulary, default_vocabulary
from verifier import Answer, BindingGraph, Refusal, verify

HEAD = "S entity_{e} {E} entity entity={E} unit=None span=t[0:3] by=test"


def _sym(sid: str, entity: str, unit: str, role: str = "quantity") -> str:
    return f"S {sid} {sid} {role} entity={entity} unit={unit} span=t[0:3] by=test"


def _answer(text: str, vocab: UnitVocabulary | None = None) -> Answer | Refusal:
    graph, _ = parse_canonical_text(text)
    (answer,) = verify(graph, vocab).answers.values()
    return answer


def test_fork_from_the_initial_state_is_refused() -> None:
    """Two updates that both read the initial state (upstream t0 wiring) have no last state: ambiguous_reference."""
    text = "\n".join(
        [
            HEAD.format(e="ana", E="Ana"),
            _sym("q_t0", "Ana", "dollars"),
            _sym("r0", "Ana", "dollars"),
            _sym("r1", "Ana", "dollars"),
            _sym("u", "Ana", "dollars", role="unknown"),
            "F q_t0 = 10 unit=dollars span=t[0:3]",
            "E r0 := q_t0 + 5 op=add deps=[q_t0] literal_unit=dollars unit_proof=unverified status=pending refusal=None span=t[0:3]",
            "E r1 := q_t0 - 3 op=subtract deps=[q_t0] literal_unit=dollars unit_proof=unverified status=pending refusal=None span=t[0:3]",
            "U u expected_unit=dollars state=terminal form=count qspan=t[0:3]",
        ]
    )
    answer = _answer(text)
    assert isinstance(answer, Refusal)
    assert answer.reason == "ambiguous_reference"
    assert "r0 and r1 both update q_t0" in answer.detail


def test_chain_in_any_tuple_order_gives_the_same_answer() -> None:
    """A chained history answers its last state whatever order the equations are listed in."""
    data = {
        "entities": ["Ana"],
        "initial_state": [{"entity": "Ana", "quantity": {"unit": "dollars", "value": 10}}],
        "operations": [
            {"actor": "Ana", "kind": "add", "operand": {"unit": "dollars", "value": 5}},
            {"actor": "Ana", "kind": "multiply", "operand": {"unit": "dollars", "value": 3}},
            {"actor": "Ana", "kind": "subtract", "operand": {"unit": "cents", "value": 250}},
        ],
        "unknown": {"entity": "Ana", "unit": "dollars"},
    }
    graph = bind_math_problem_graph(graph_from_dict(data))
    rng = random.Random(7)
    for _ in range(6):
        equations = list(graph.equations)
        rng.shuffle(equations)
        shuffled = BindingGraph(
            symbols=graph.symbols, facts=graph.facts, equations=tuple(equations), unknowns=graph.unknowns
        )
        (answer,) = verify(shuffled).answers.values()
        assert isinstance(answer, Answer)
        assert answer.value == sympy.Rational(85, 2)  # (10 + 5) * 3 - 2.5


def test_update_that_changes_the_kind_is_refused() -> None:
    """A divide of a holding by a unit-bearing divisor makes a pure number: the holding's later value is unknown."""
    text = "\n".join(
        [
            HEAD.format(e="ruth", E="Ruth"),
            _sym("q_t0", "Ruth", "dollars"),
            _sym("op_000__divisor", "None", "dollars"),
            "S r0 r0 quantity entity=Ruth unit=None span=t[0:3] by=test",
            _sym("u", "Ruth", "dollars", role="unknown"),
            "F q_t0 = 24 unit=dollars span=t[0:3]",
            "F op_000__divisor = 6 unit=dollars span=t[0:3]",
            "E r0 := q_t0/op_000__divisor op=divide deps=[op_000__divisor,q_t0] unit_proof=unverified status=pending refusal=None span=t[0:3]",
            "U u expected_unit=dollars state=terminal form=count qspan=t[0:3]",
        ]
    )
    answer = _answer(text)
    assert isinstance(answer, Refusal)
    assert answer.reason == "ambiguous_reference"
    assert "does not keep its kind" in answer.detail


def test_transfer_debit_without_credit_refuses_other_holders_and_totals() -> None:
    """A transfer that debits the actor and credits nobody leaves the receiver unknown; the actor is still answered."""
    lines = [
        HEAD.format(e="nia", E="Nia"),
        HEAD.format(e="leo", E="Leo"),
        _sym("q_nia", "Nia", "dollars"),
        _sym("q_leo", "Leo", "dollars"),
        _sym("r0", "Nia", "dollars"),
        "F q_nia = 16 unit=dollars span=t[0:3]",
        "F q_leo = 8 unit=dollars span=t[0:3]",
        "E r0 := q_nia - 2 op=transfer deps=[q_nia] literal_unit=dollars unit_proof=unverified status=pending refusal=None span=t[0:3]",
    ]
    for entity, expected in (("Leo", "ambiguous_reference"), ("None", "ambiguous_reference"), ("Nia", 14)):
        text = "\n".join(
            [
                *lines,
                _sym("u", entity, "dollars", role="unknown"),
                "U u expected_unit=dollars state=terminal form=count qspan=t[0:3]",
            ]
        )
        answer = _answer(text)
        if isinstance(expected, int):
            assert isinstance(answer, Answer)
            assert answer.value == expected
        else:
            assert isinstance(answer, Refusal)
            assert answer.reason == expected


def test_our_transfer_binding_is_matched() -> None:
    """Our binding credits the target, so the receiver and the total are answered."""
    data = {
        "entities": ["Nia", "Leo"],
        "initial_state": [
            {"entity": "Nia", "quantity": {"unit": "dollars", "value": 16}},
            {"entity": "Leo", "quantity": {"unit": "dollars", "value": 8}},
        ],
        "operations": [
            {"actor": "Nia", "kind": "transfer", "operand": {"unit": "dollars", "value": 2}, "target": "Leo"}
        ],
        "unknown": {"entity": None, "unit": "dollars"},
    }
    (total,) = verify(bind_math_problem_graph(graph_from_dict(data))).answers.values()
    assert isinstance(total, Answer)
    assert total.value == 24


def test_upstream_canonical_texts_never_answer_wrong(upstream: Path) -> None:
    """Verifying the upstream adapter's own canonical texts of the 50 dev graphs: each answer is the expected one or a refusal."""
    cases = {
        c["id"]: c for c in map(read_json, (upstream / "gsm8k_parser_dev" / "cases.jsonl").read_text().splitlines())
    }
    vocab = default_vocabulary()
    nouns = {}
    for case in cases.values():
        unit = case["expected_unit"]
        if unit not in vocab.surfaces():
            nouns[unit] = {"candies": "candy", "scarves": "scarf"}.get(unit, unit[:-1])
    declared = vocab.with_count_nouns(nouns)
    outcomes = {"correct": 0, "refused": 0}
    for line in (upstream / "hand_rolled" / "adapter_canonical.jsonl").read_text().splitlines():
        record = json.loads(line)
        if record["id"] not in cases or not record.get("hand_rolled_canonical"):
            continue
        answer = _answer(record["hand_rolled_canonical"], declared)
        if isinstance(answer, Answer):
            assert answer.value == cases[record["id"]]["expected_answer"], record["id"]
            outcomes["correct"] += 1
        else:
            outcomes["refused"] += 1
    assert outcomes == {"correct": 25, "refused": 25}


@pytest.mark.parametrize("index", ["initial", "op(0)"])
def test_non_terminal_indices_read_by_position(index: str) -> None:
    """Initial and op(i) indices name positions in the operation order (ADR-0135), not the chain's end."""
    data = {
        "entities": ["Ana"],
        "initial_state": [{"entity": "Ana", "quantity": {"unit": "dollars", "value": 10}}],
        "operations": [
            {"actor": "Ana", "kind": "add", "operand": {"unit": "dollars", "value": 5}},
            {"actor": "Ana", "kind": "add", "operand": {"unit": "dollars", "value": 1}},
        ],
        "unknown": {"entity": "Ana", "unit": "dollars"},
    }
    graph = bind_math_problem_graph(graph_from_dict(data))
    text = graph.to_canonical_string().replace("state=terminal", f"state={index}")
    answer = _answer(text)
    assert isinstance(answer, Answer)
    assert answer.value == {"initial": 10, "op(0)": 15}[index]
