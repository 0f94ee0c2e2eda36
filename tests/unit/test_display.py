"""Notebook views, asserted as HTML and LaTeX text (SPEC §9): labels, exact values, factors, root causes."""

from __future__ import annotations

from fractions import Fraction

import sympy

from adapters import bind_math_problem_graph, graph_from_dict
from verifier import Answer, GraphReport, verify
from verifier.crosscheck import CrosscheckPair, CrosscheckReport

GRAPH = {
    "entities": ["Ana"],
    "initial_state": [{"entity": "Ana", "quantity": {"unit": "feet", "value": 5}}],
    "operations": [{"actor": "Ana", "kind": "add", "operand": {"unit": "inches", "value": 3}}],
    "unknown": {"entity": "Ana", "unit": "feet"},
}


def report(graph: dict[str, object] = GRAPH) -> GraphReport:
    """The verifier's report on ``graph`` (by default, 5 feet plus 3 inches asked in feet)."""
    return verify(bind_math_problem_graph(graph_from_dict(graph)))


def test_graph_report_html_shows_answers_and_a_readable_trace() -> None:
    """The answer, then each step in labels with its exact inputs, the inches-to-feet factor and the value."""
    html = report()._repr_html_()
    assert "<td>Ana|feet</td><td>21/4 feet</td><td>count</td>" in html
    assert "<td>Ana.feet@t0 + 3</td><td>Ana.feet@t0 = 5</td><td>the constant x 1/12</td><td>21/4 feet</td>" in html


def test_refused_steps_show_their_formula_and_root_cause() -> None:
    """A refused equation keeps its formula in the trace, with the refusal as its note."""
    halved = {**GRAPH, "initial_state": [{"entity": "Ana", "quantity": {"unit": "items", "value": 7}}]}
    halved["operations"] = [{"actor": "Ana", "kind": "divide", "operand": {"unit": "items", "value": 2}}]
    halved["unknown"] = {"entity": "Ana", "unit": "items"}
    result = report(halved)
    (refused,) = [s for s in result.trace if s.action == "refuse"]
    assert refused.formula == "q_ana_items_t0/op_000__divisor"
    html = result._repr_html_()
    assert "<td>refuse</td><td>op0.divide.Ana</td><td>Ana.items@t0/op0.scalar</td>" in html
    assert "non_exact_division" in html


def test_proof_and_verdict_views() -> None:
    """A proof lists operands with units, dimensions and factors; its LaTeX keeps ids readable and shows the factor."""
    verdict = report().verdicts["op_000_result"]
    assert verdict.proof is not None
    assert repr(verdict.proof) == "UnitProof(op_000_result: add: [length] -> length)"
    html = verdict._repr_html_()
    assert "<td>&lt;literal&gt;</td><td>operand</td><td>inches</td><td>length</td><td>1/12</td>" in html
    assert verdict.proof._repr_latex_() == (
        r"$\text{op\_000\_result} = \text{q\_ana\_feet\_t0} + \frac{1}{12} \cdot 3\quad [\text{foot}]$"
    )


def test_crosscheck_html_groups_by_category() -> None:
    """Counts by category, and the examples of each disagreement."""
    pairs = [
        CrosscheckPair(case_id="c1", lhs_symbol_id="r", ours="admitted", theirs="admitted", category="agree"),
        CrosscheckPair(
            case_id="c2",
            lhs_symbol_id="s",
            ours="refused",
            theirs="admitted",
            category="theirs_admits_dimension_mismatch",
            detail="length + mass",
        ),
    ]
    html = CrosscheckReport.from_pairs(pairs)._repr_html_()
    assert "<td>theirs_admits_dimension_mismatch</td><td>1</td>" in html
    assert "<caption>theirs_admits_dimension_mismatch</caption>" in html
    assert "<td>length + mass</td>" in html


def test_public_numbers_are_sympy_rationals() -> None:
    """Answers, values and replay() all give sympy.Rational; Fraction(x) converts."""
    result = report()
    replayed = result.replay()
    assert all(isinstance(v, sympy.Rational) for v in replayed.values())
    (answer,) = result.answers.values()
    assert isinstance(answer, Answer)
    assert isinstance(answer.value, sympy.Rational)
    assert Fraction(replayed["unknown_ana_feet"]) == Fraction(21, 4)
    assert all(isinstance(v.magnitude, sympy.Rational) for v in result.values.values())
