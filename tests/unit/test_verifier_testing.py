"""verifier.testing: assertion helpers accept every subject form and exact value type, and fail readably."""

from __future__ import annotations

from fractions import Fraction

import pytest
import sympy

from adapters import bind_math_problem_graph, graph_from_dict, parse_canonical_text
from verifier import check_equation, verify
from verifier.testing import assert_admitted, assert_answer, assert_refused

GRAPH = {
    "entities": ["Ana"],
    "initial_state": [{"entity": "Ana", "quantity": {"unit": "feet", "value": 5}}],
    "operations": [{"actor": "Ana", "kind": "add", "operand": {"unit": "inches", "value": 3}}],
    "unknown": {"entity": "Ana", "unit": "feet"},
}


@pytest.mark.parametrize("value", [Fraction(21, 4), "21/4", "5.25", sympy.Rational(21, 4)])
@pytest.mark.parametrize("form", ["dict", "math_graph", "binding_graph", "report"])
def test_assert_answer_takes_every_form_and_exact_value(value: object, form: str) -> None:
    """5 ft + 3 in asked in feet is 21/4 feet, however the graph and the value are given."""
    problem = graph_from_dict(GRAPH)
    bound = bind_math_problem_graph(problem)
    subject = {"dict": GRAPH, "math_graph": problem, "binding_graph": bound, "report": verify(bound)}[form]
    assert_answer(subject, value, "feet")
    assert_answer(subject, value, "foot")  # one lemma, two surfaces
    assert_answer(subject, value)


def test_assert_answer_failures_name_expected_found_and_trace() -> None:
    """A different value, a different unit, or a refusal: AssertionError with the report's lines."""
    with pytest.raises(AssertionError, match=r"expected 5 feet, found 21/4 feet") as info:
        assert_answer(GRAPH, 5, "feet")
    assert "op_000_result: admitted add" in str(info.value)
    with pytest.raises(AssertionError, match="found 21/4 feet"):
        assert_answer(GRAPH, "21/4", "inches")
    refused = {**GRAPH, "unknown": {"entity": "Ana", "unit": "pounds"}}
    with pytest.raises(AssertionError, match="was refused state_unset"):
        assert_answer(refused, 1, "pounds")


def test_a_float_expected_value_is_refused() -> None:
    """A test states its value exactly: 5.25 as a float is a TypeError, not rounded."""
    with pytest.raises(TypeError, match="float"):
        assert_answer(GRAPH, 5.25, "feet")


def test_assert_refused() -> None:
    """A refusal passes (with or without its reason); a certified answer or another reason fails."""
    typo = {**GRAPH, "unknown": {"entity": "Ana", "unit": "feets"}}
    assert_refused(typo)
    assert_refused(typo, "unknown_unit")
    with pytest.raises(AssertionError, match="expected refusal non_exact_division"):
        assert_refused(typo, "non_exact_division")
    with pytest.raises(AssertionError, match="found unknown_ana_feet = 21/4 feet"):
        assert_refused(GRAPH)


def test_assert_admitted() -> None:
    """An admitted verdict passes; a refused one fails with its reason."""
    bound = bind_math_problem_graph(graph_from_dict(GRAPH))
    (eq,) = bound.equations
    assert_admitted(check_equation(eq, bound.symbol_map))
    partition = {
        "actor": "Ana",
        "kind": "unit_partition",
        "operand": {"value": 3, "unit": "feet", "result_unit": "inches"},
    }
    bad = bind_math_problem_graph(graph_from_dict({**GRAPH, "operations": [partition]}))  # a partition is no length
    (eq,) = bad.equations
    with pytest.raises(AssertionError, match="expected admitted, found refused"):
        assert_admitted(check_equation(eq, bad.symbol_map))
    with pytest.raises(TypeError):
        assert_admitted("admitted")  # type: ignore[arg-type]


def test_assert_answer_names_the_unknown_when_a_graph_asks_for_several() -> None:
    """A graph with two unknowns needs unknown=; a name it does not ask for fails naming the ones it does."""
    text = (
        "S q_a_feet_t0 a quantity entity=A unit=feet span=t[0:1] by=t\n"
        "S u1 u1 unknown entity=A unit=feet span=t[0:1] by=t\n"
        "S u2 u2 unknown entity=A unit=inches span=t[0:1] by=t\n"
        "F q_a_feet_t0 = 5 unit=feet span=t[0:1]\n"
        "U u1 expected_unit=feet state=initial form=identity qspan=t[0:1]\n"
        "U u2 expected_unit=inches state=initial form=identity qspan=t[0:1]\n"
    )
    graph, _ = parse_canonical_text(text)
    with pytest.raises(AssertionError, match="name one with unknown="):
        assert_answer(graph, 5, "feet")
    assert_answer(graph, 5, "feet", unknown="u1")
    assert_answer(graph, 60, "inches", unknown="u2")
    with pytest.raises(AssertionError, match=r"no unknown 'u3'; the graph asks for \['u1', 'u2'\]"):
        assert_answer(graph, 5, "feet", unknown="u3")


def test_an_expected_value_that_is_not_exact_and_a_subject_of_no_form_are_type_errors() -> None:
    """assert_answer given an expected value that is no exact number, or a subject in no graph form, raises TypeError."""
    with pytest.raises(TypeError, match="expected value"):
        assert_answer(GRAPH, "five", "feet")
    with pytest.raises(TypeError, match="cannot verify a int"):
        assert_answer(42, 5, "feet")


def test_assert_refused_accepts_a_graph_refused_while_it_is_read() -> None:
    """A subject refused before any report exists (a malformed graph) is a refusal, with its reason checked."""
    broken = {**GRAPH, "entities": []}
    assert_refused(broken, "malformed_input")
    with pytest.raises(AssertionError, match="expected refusal unknown_unit, found refusal malformed_input"):
        assert_refused(broken, "unknown_unit")
