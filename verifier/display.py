"""Notebook views of results: HTML tables and LaTeX equations with readable labels (SPEC §9).

The result types' ``_repr_html_`` and ``_repr_latex_`` methods call these.  Symbol ids
(``q_ana_feet_t0``) are shown by their labels (``Ana.feet@t0``, the binding's ``name``),
every number is exact, and every conversion factor a proof applied is written out, so
a reader sees why 5 ft + 3 in is 21/4 ft.  All text is HTML-escaped.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

from verifier.values import Answer

if TYPE_CHECKING:
    import sympy

    from verifier.admissibility import UnitProof, Verdict
    from verifier.crosscheck import CrosscheckReport
    from verifier.values import GraphReport
else:
    from verifier.lazy import sympy

_ID = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _e(value: object) -> str:
    return html.escape(str(value))


def table(headers: Sequence[str], rows: Iterable[Sequence[object]], *, caption: str = "") -> str:
    """An HTML table (every cell escaped)."""
    head = "".join(f"<th>{_e(h)}</th>" for h in headers)
    body = "".join("<tr>" + "".join(f"<td>{_e(c)}</td>" for c in row) + "</tr>" for row in rows)
    cap = f"<caption>{_e(caption)}</caption>" if caption else ""
    return f"<table>{cap}<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def relabel(text: str, labels: Mapping[str, str]) -> str:
    """A formula with each symbol id replaced by its label (``q_ana_feet_t0 + 3`` → ``Ana.feet@t0 + 3``)."""
    return _ID.sub(lambda m: labels.get(m.group(0), m.group(0)), text)


def graph_report_html(report: GraphReport) -> str:
    """Answers, then the trace: each step's formula in labels, exact inputs and factors, value and unit, root cause."""
    labels = report.labels
    answers: list[tuple[str, str, str, str]] = []
    for name, answer in report.answers.items():
        if isinstance(answer, Answer):
            answers.append((labels.get(name, name), str(answer), answer.question_form, ""))
        else:
            answers.append((labels.get(name, name), "refused", answer.reason, answer.detail))
    steps = []
    for i, step in enumerate(report.trace, start=1):
        factors = ", ".join(
            f"{labels.get(k, 'the constant' if k == '<literal>' else k)} x {v}" for k, v in step.factors
        )
        inputs = ", ".join(f"{labels.get(k, k)} = {v}" for k, v in step.inputs)
        value = f"{step.value} {step.unit or ''}".strip() if step.value else ""
        note = step.note if step.action == "refuse" or step.note else ""
        steps.append(
            (
                i,
                step.action,
                labels.get(step.target, step.target),
                relabel(step.formula, labels),
                inputs,
                factors,
                value,
                note,
            )
        )
    return "\n".join(
        [
            table(("unknown", "answer", "form / reason", "root cause"), answers, caption="answers"),
            table(("#", "step", "target", "formula", "inputs", "factors", "value", "note"), steps, caption="trace"),
        ]
    )


def unit_proof_html(proof: UnitProof) -> str:
    """Operands with their units, dimensions and factors, then the result's unit and dimension."""
    rows = [(op.symbol_id, op.role, op.unit or "(none)", str(op.dimension), str(op.factor)) for op in proof.operands]
    result = f"{proof.lhs_symbol_id} = {proof.operation_kind}(…) in {proof.result_unit or '(a pure number)'}"
    out = table(("operand", "role", "unit", "dimension", "factor"), rows, caption=result)
    dims = f"<p>result dimension: {_e(proof.result_dimension)}"
    if proof.declarations:
        dims += f"; relies on {_e(', '.join(proof.declarations))}"
    return out + dims + "</p>"


def verdict_html(verdict: Verdict) -> str:
    """An admitted verdict's proof, or a refused one's reason and detail."""
    if verdict.proof is not None:
        return "<p><b>admitted</b></p>" + unit_proof_html(verdict.proof)
    refusal = verdict.refusal
    return f"<p><b>refused</b> {_e(refusal.reason if refusal else '')}: {_e(refusal.detail if refusal else '')}</p>"


def crosscheck_html(report: CrosscheckReport, examples: int = 3) -> str:
    """Counts by category, then the first examples of every disagreement."""
    counts = [(k, v) for k, v in report.counts.items() if v]
    out = [table(("category", "pairs"), counts, caption="cross-check")]
    for category, n in counts:
        if category == "agree" or not n:
            continue
        rows = [(p.case_id, p.lhs_symbol_id, p.ours, p.theirs, p.detail) for p in report.examples(category, examples)]
        out.append(table(("case", "equation", "ours", "theirs", "detail"), rows, caption=category))
    return "\n".join(out)


def _latex_text(text: str) -> str:
    return r"\text{" + re.sub(r"([_&%$#{}])", r"\\\1", text) + "}"


def unit_proof_latex(proof: UnitProof, labels: Mapping[str, str] | None = None) -> str:
    r"""The equation in LaTeX with readable names and every non-unit factor written out.

    ``op_000_result = q_ana_feet_t0 + 3`` with ``3`` in inches becomes
    ``$\text{op\_000\_result} = \text{Ana.feet@t0} + \frac{1}{12} \cdot 3$``.
    """
    names = labels or {}
    factors = {op.symbol_id: op.factor for op in proof.operands}
    shown = {}
    for sym in sorted(proof.rhs.free_symbols, key=lambda s: s.name):
        factor = factors.get(sym.name, 1)
        shown[sym] = (
            sympy.Mul(sympy.Rational(factor.numerator, factor.denominator), sym, evaluate=False) if factor != 1 else sym
        )
    constant, rest = proof.rhs.as_coeff_Add()
    rhs = rest.xreplace(shown) if shown else rest
    literal = factors.get("<literal>")
    if constant != 0:
        if literal is not None and literal != 1:  # the constant term is in the literal's unit: show its factor
            constant = sympy.Mul(sympy.Rational(literal.numerator, literal.denominator), constant, evaluate=False)
        rhs = sympy.Add(rhs, constant, evaluate=False)
    symbol_names = {sym: _latex_text(names.get(sym.name, sym.name)) for sym in proof.rhs.free_symbols}
    body = sympy.latex(rhs, symbol_names=symbol_names, mul_symbol="dot")
    lhs = _latex_text(names.get(proof.lhs_symbol_id, proof.lhs_symbol_id))
    unit = f"\\quad [{_latex_text(proof.result_unit)}]" if proof.result_unit else ""
    return f"${lhs} = {body}{unit}$"


__all__ = [
    "crosscheck_html",
    "graph_report_html",
    "relabel",
    "table",
    "unit_proof_html",
    "unit_proof_latex",
    "verdict_html",
]
