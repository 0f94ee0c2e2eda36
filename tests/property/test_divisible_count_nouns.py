"""Divisible count nouns (issue: beyond the hand-rolled solver): exact fractions, never negative.

The oracle replays adds and subtracts with plain ``Fraction`` arithmetic; a kind declared
divisible takes any non-negative exact amount, one that is not takes whole amounts only.
"""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from adapters import bind_math_problem_graph, graph_from_dict
from units import default_vocabulary
from verifier import Answer, Refusal, verify

DIVISIBLE = default_vocabulary().with_count_nouns({"pies": {"lemma": "pie", "divisible": True}})
WHOLE = default_vocabulary().with_count_nouns({"pies": "pie"})
amounts = st.fractions(min_value=0, max_value=10, max_denominator=8)


def _text(value: Fraction) -> str:
    return f"{value.numerator}/{value.denominator}"


def _answer(start: Fraction, steps: list[tuple[str, Fraction]], *, divisible: bool) -> Answer | Refusal:
    vocab = DIVISIBLE if divisible else WHOLE
    graph = {
        "entities": ["Ana"],
        "initial_state": [{"entity": "Ana", "quantity": {"unit": "pies", "value": _text(start)}}],
        "operations": [
            {"actor": "Ana", "kind": kind, "operand": {"unit": "pies", "value": _text(amount)}}
            for kind, amount in steps
        ],
        "unknown": {"entity": "Ana", "unit": "pies"},
    }
    (answer,) = verify(bind_math_problem_graph(graph_from_dict(graph), vocab), vocab).answers.values()
    return answer


@given(
    start=amounts,
    steps=st.lists(st.tuples(st.sampled_from(["add", "subtract"]), amounts), max_size=4),
    divisible=st.booleans(),
)
def test_pies_add_up_exactly_when_divisible(
    start: Fraction, steps: list[tuple[str, Fraction]], *, divisible: bool
) -> None:
    """Every state is checked: negative refused always, a fraction refused unless pie is divisible."""
    states = [start]
    for kind, amount in steps:
        states.append(states[-1] + amount if kind == "add" else states[-1] - amount)
    got = _answer(start, steps, divisible=divisible)
    broken = [s for s in states if s < 0 or (not divisible and s.denominator != 1)]
    operands_whole = divisible or all(a.denominator == 1 for _, a in steps)
    if broken or not operands_whole:
        assert isinstance(got, Refusal), got
        assert got.reason in ("negative_count", "non_integer_count")
    else:
        assert isinstance(got, Answer), got
        assert got.fraction == states[-1]


def test_the_proof_lists_the_divisibility_declaration() -> None:
    """Adding fractional pies under a divisible declaration cites ``divisible:pie`` in the proof's declarations."""
    graph = {
        "entities": ["Ana"],
        "initial_state": [{"entity": "Ana", "quantity": {"unit": "pies", "value": "1/4"}}],
        "operations": [{"actor": "Ana", "kind": "add", "operand": {"unit": "pies", "value": "1/2"}}],
        "unknown": {"entity": "Ana", "unit": "pies"},
    }
    report = verify(bind_math_problem_graph(graph_from_dict(graph), DIVISIBLE), DIVISIBLE)
    (verdict,) = report.verdicts.values()
    assert verdict.proof is not None
    assert "divisible:pie" in verdict.proof.declarations
