"""Comparisons are equations between two holdings (issue: comparisons solved by the CAS).

An independent oracle, written with plain ``Fraction`` arithmetic, says what a story
"A holds a; A has d more / fewer / k times as many as R" fixes about R, and what a
story in which both are known says about consistency; the verifier must agree, and
must refuse (never answer) when the oracle's value is out of its domain.
"""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from adapters import MathGraphError, bind_math_problem_graph, graph_from_dict
from units import default_vocabulary
from verifier import Answer, Refusal, verify

VOCAB = default_vocabulary().with_count_nouns(["beads"])
INCHES = {"inches": Fraction(1), "feet": Fraction(12)}  # NIST SP 811: 1 ft = 12 in exactly


def _answer(graph: dict[str, object]) -> Answer | Refusal:
    try:
        bound = bind_math_problem_graph(graph_from_dict(graph), VOCAB)
    except MathGraphError as exc:
        return Refusal(reason=exc.reason, detail=exc.detail)
    (answer,) = verify(bound, VOCAB).answers.values()
    return answer


def _compare(kind: str, direction: str, amount: object, unit: str) -> dict[str, object]:
    if kind == "compare_additive":
        operand: dict[str, object] = {
            "reference_actor": "R",
            "direction": direction,
            "delta": {"unit": unit, "value": amount},
        }
    else:
        operand = {"reference_actor": "R", "direction": direction, "factor": amount}
    return {"actor": "A", "kind": kind, "operand": operand}


def _oracle_reference(a: Fraction, kind: str, direction: str, amount: Fraction) -> Fraction:
    """R from A = R + d, A = R - d, A = k R (times) or A = f R (fraction)."""
    if kind == "compare_additive":
        return a - amount if direction == "more" else a + amount
    return a / amount


def _implied(r: int, kind: str, direction: str, amount: Fraction) -> Fraction:
    """What the comparison says A holds, given R."""
    if kind == "compare_additive":
        return r + amount if direction == "more" else r - amount
    return amount * r


comparisons = st.one_of(
    st.tuples(st.just("compare_additive"), st.sampled_from(["more", "fewer"]), st.integers(0, 30).map(Fraction)),
    st.tuples(st.just("compare_multiplicative"), st.just("times"), st.integers(1, 5).map(Fraction)),
    st.tuples(
        st.just("compare_multiplicative"),
        st.just("fraction"),
        st.fractions(min_value=Fraction(1, 6), max_value=Fraction(5, 6), max_denominator=6),
    ),
)


def _text(value: Fraction) -> str:
    return f"{value.numerator}/{value.denominator}"


@given(st.integers(0, 60).map(Fraction), comparisons)
def test_a_count_compared_fixes_the_reference(a: Fraction, comparison: tuple[str, str, Fraction]) -> None:
    """R is solved exactly; a negative or fractional count of beads is refused, never answered."""
    kind, direction, amount = comparison
    graph = {
        "entities": ["A", "R"],
        "initial_state": [{"entity": "A", "quantity": {"unit": "beads", "value": int(a)}}],
        "operations": [_compare(kind, direction, _text(amount), "beads")],
        "unknown": {"entity": "R", "unit": "beads"},
    }
    expected = _oracle_reference(a, kind, direction, amount)
    got = _answer(graph)
    if expected < 0:
        assert isinstance(got, Refusal)
        assert got.reason == "negative_count"
    elif expected.denominator != 1:
        assert isinstance(got, Refusal)
        assert got.reason == "non_integer_count"
    else:
        assert isinstance(got, Answer), got
        assert got.fraction == expected
        assert got.unit == "beads"


@given(
    st.integers(0, 40).map(Fraction),
    st.sampled_from(sorted(INCHES)),
    st.sampled_from(["more", "fewer"]),
    st.integers(0, 30).map(Fraction),
    st.tuples(st.sampled_from(sorted(INCHES)), st.sampled_from(sorted(INCHES))),
)
def test_a_length_compared_converts_exactly(
    a: Fraction, a_unit: str, direction: str, delta: Fraction, units: tuple[str, str]
) -> None:
    """Lengths convert exactly into the reference's holding, in the unit asked."""
    delta_unit, asked = units
    graph = {
        "entities": ["A", "R"],
        "initial_state": [{"entity": "A", "quantity": {"unit": a_unit, "value": int(a)}}],
        "operations": [_compare("compare_additive", direction, int(delta), delta_unit)],
        "unknown": {"entity": "R", "unit": asked},
    }
    inches = _oracle_reference(a * INCHES[a_unit], "compare_additive", direction, delta * INCHES[delta_unit])
    got = _answer(graph)
    if inches < 0:
        assert isinstance(got, Refusal)
        assert got.reason == "negative_quantity"
    else:
        assert isinstance(got, Answer), got
        assert got.fraction == inches / INCHES[asked]
        assert got.unit == asked


@given(st.integers(0, 40), st.integers(0, 40), comparisons)
def test_both_known_is_a_consistency_check(a: int, r: int, comparison: tuple[str, str, Fraction]) -> None:
    """With both holdings known the comparison checks them: A's value when it holds, else inconsistent."""
    kind, direction, amount = comparison
    graph = {
        "entities": ["A", "R"],
        "initial_state": [
            {"entity": "A", "quantity": {"unit": "beads", "value": a}},
            {"entity": "R", "quantity": {"unit": "beads", "value": r}},
        ],
        "operations": [_compare(kind, direction, _text(amount), "beads")],
        "unknown": {"entity": "A", "unit": "beads"},
    }
    implied = _implied(r, kind, direction, amount)
    got = _answer(graph)
    if implied == a:
        assert isinstance(got, Answer), got
        assert got.fraction == a
    else:
        assert isinstance(got, Refusal)
        if implied < 0:  # the compared value is itself out of the count's domain
            assert got.reason == "negative_count"
        elif implied.denominator != 1:  # a fraction of a count that is not whole (graphs-106's rule)
            assert got.reason == "non_exact_division"
        else:
            assert got.reason == "inconsistent"


@given(st.integers(0, 60), comparisons, st.integers(0, 10))
def test_the_solved_reference_is_read_by_later_operations(
    a: int, comparison: tuple[str, str, Fraction], more: int
) -> None:
    """R's solved holding is its state from the start: a later add reads it."""
    kind, direction, amount = comparison
    graph = {
        "entities": ["A", "R"],
        "initial_state": [{"entity": "A", "quantity": {"unit": "beads", "value": a}}],
        "operations": [
            _compare(kind, direction, _text(amount), "beads"),
            {"actor": "R", "kind": "add", "operand": {"unit": "beads", "value": more}},
        ],
        "unknown": {"entity": "R", "unit": "beads"},
    }
    start = _oracle_reference(Fraction(a), kind, direction, amount)
    got = _answer(graph)
    if start < 0 or start.denominator != 1:
        assert isinstance(got, Refusal)
        assert got.reason in ("negative_count", "non_integer_count")
    else:
        assert isinstance(got, Answer), got
        assert got.fraction == start + more


def test_neither_known_is_underdetermined() -> None:
    """A comparison between two holdings neither of which is known is refused as underdetermined."""
    graph = {
        "entities": ["A", "R"],
        "initial_state": [],
        "operations": [_compare("compare_additive", "more", 3, "beads")],
        "unknown": {"entity": "R", "unit": "beads"},
    }
    got = _answer(graph)
    assert isinstance(got, Refusal)
    assert got.reason == "underdetermined"


def test_a_solved_answer_says_so_in_the_trace() -> None:
    """The trace of a solved reference shows the exact linear solve and its certificate."""
    graph = {
        "entities": ["A", "R"],
        "initial_state": [{"entity": "A", "quantity": {"unit": "beads", "value": 15}}],
        "operations": [_compare("compare_additive", "more", 9, "beads")],
        "unknown": {"entity": "R", "unit": "beads"},
    }
    report = verify(bind_math_problem_graph(graph_from_dict(graph), VOCAB), VOCAB)
    (solve,) = [step for step in report.trace if step.action == "solve"]
    assert solve.note == "exact linear solve of 2 equations in 2 unknowns"
    assert ("q_r_beads_t0", "6") in solve.inputs
    (answer,) = report.answers.values()
    assert isinstance(answer, Answer)
    assert answer.question_form == "difference"  # ADR-0135 form is unchanged


def test_the_actor_asked_keeps_the_comparison_form() -> None:
    """Asking the known actor still reads as a comparison question (ADR-0135: difference), not a count."""
    graph = {
        "entities": ["A", "R"],
        "initial_state": [{"entity": "A", "quantity": {"unit": "beads", "value": 15}}],
        "operations": [_compare("compare_additive", "more", 9, "beads")],
        "unknown": {"entity": "A", "unit": "beads"},
    }
    answer = _answer(graph)
    assert isinstance(answer, Answer)
    assert answer.fraction == 15
    assert answer.question_form == "difference"
