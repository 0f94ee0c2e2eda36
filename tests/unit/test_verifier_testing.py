"""verifier.testing: assertion helpers accept every subject form and exact value type, and fail readably."""

from __future__ import annotations

from fractions import Fraction

import pytest
import sympy

from adapters import bind_math_problem_graph, graph_from_dict
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
