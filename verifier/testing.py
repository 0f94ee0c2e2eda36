"""Assertion helpers for test suites that gate on the verifier (SPEC §9).

``assert_answer(graph, 8, "apples")`` verifies a graph in any supported form and fails,
with the verifier's trace, unless its answer is certified and equal to the value in
the unit; ``assert_refused`` and ``assert_admitted`` do the same for refusals and
equation verdicts.  Values compare exactly: ``int``, ``str`` (``"7/2"``, ``"2.5"``),
:class:`fractions.Fraction` or ``sympy.Rational``, never a float.  The pytest plugin
registers this module for assertion rewriting.

Failures raise :class:`AssertionError` whose message names the expected and found
outcome and lists the report's lines (equations, proofs, root causes).
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import TYPE_CHECKING

from adapters import MathProblemGraph, auto_count_nouns, bind_math_problem_graph
from adapters.records import bind_record
from units import RefusalError, UnitRefusal, default_vocabulary
from units.exact import parse_exact
from verifier.admissibility import Verdict
from verifier.model import BindingGraph
from verifier.values import Answer, GraphReport, verify

if TYPE_CHECKING:
    from units import UnitVocabulary


def _exact(value: object) -> Fraction:
    """An expected value as an exact Fraction (SPEC §4 "Numbers"; floats refused here: a test states its value exactly)."""
    if isinstance(value, float):
        raise TypeError(
            f"expected value {value!r} is a float; write it exactly: an int, a str such as '7/2', a Fraction"
        )
    try:
        return parse_exact(value)
    except UnitRefusal as exc:
        raise TypeError(f"expected value {exc.explain()}") from None


def report_of(subject: object, *, vocab: UnitVocabulary | None = None, count_nouns: str = "declared") -> GraphReport:
    """The :class:`~verifier.GraphReport` of a subject in any supported form.

    Args:
        subject: a ``GraphReport`` (returned as is), a :class:`~verifier.BindingGraph`,
            an :class:`adapters.MathProblemGraph`, or a record in any format
            :func:`adapters.records.bind_record` reads (a math-graph or relations dict, a
            binding-graph dict, a canonical text).
        vocab: the vocabulary (default: :func:`units.default_vocabulary`).
        count_nouns: ``"declared"`` or ``"auto"`` (see :func:`adapters.auto_count_nouns`).

    Raises:
        TypedRefusalError / UnitRefusal: the subject cannot be read or bound (the refusal
            says why); :class:`TypeError` for a subject of another type.
    """
    if isinstance(subject, GraphReport):
        return subject
    if isinstance(subject, BindingGraph):
        return verify(subject, vocab)

    if isinstance(subject, MathProblemGraph):
        voc = auto_count_nouns(subject, vocab) if count_nouns == "auto" else vocab
        return verify(bind_math_problem_graph(subject, voc), voc)
    if isinstance(subject, (Mapping, str)):
        bound = bind_record(
            dict(subject) if isinstance(subject, Mapping) else subject, None, vocab, count_nouns=count_nouns
        )
        return verify(bound.graph, bound.vocab, bound.policy)
    raise TypeError(f"cannot verify a {type(subject).__name__}: give a GraphReport, a graph or a record")


def _trace(report: GraphReport) -> str:
    return "\n".join(f"    {line}" for line in report.lines()) or "    (no equations)"


def assert_answer(
    subject: object,
    value: object,
    unit: str | None = None,
    *,
    vocab: UnitVocabulary | None = None,
    unknown: str | None = None,
    count_nouns: str = "declared",
) -> None:
    """Assert that the subject's answer is certified and equals ``value`` (in ``unit``, when given).

    Args:
        subject: a ``GraphReport``, ``BindingGraph``, ``MathProblemGraph`` or record (see :func:`report_of`).
        value: the exact expected value: ``int``, ``str`` (``"7/2"``, ``"2.5"``),
            ``Fraction`` or ``sympy.Rational``.
        unit: the expected unit surface (``"apples"``); ``None`` checks only the value.
            Two surfaces of one lemma (``inch``/``inches``) are the same unit.
        vocab: the vocabulary to verify with and to compare units in.
        unknown: which unknown to check (its symbol id) when the graph has several.
        count_nouns: ``"declared"`` or ``"auto"``.

    Raises:
        AssertionError: the answer is refused (with its root cause), differs in value or
            unit, or the graph has several unknowns and ``unknown`` names none of them;
            the message lists the report's lines.
        TypeError: ``value`` is a float or not an exact number.
    """
    expected = _exact(value)
    report = report_of(subject, vocab=vocab, count_nouns=count_nouns)
    answers = dict(report.answers)
    if unknown is not None:
        if unknown not in answers:
            raise AssertionError(f"no unknown {unknown!r}; the graph asks for {sorted(answers)}")
        answers = {unknown: answers[unknown]}
    if len(answers) != 1:
        raise AssertionError(
            f"the graph asks for {sorted(answers) or 'nothing'}; name one with unknown=\n{_trace(report)}"
        )
    ((name, answer),) = answers.items()
    want = f"{expected}" + (f" {unit}" if unit else "")
    if not isinstance(answer, Answer):  # a refusal fails the test (SPEC §9): AssertionError, not TypeError
        raise AssertionError(  # noqa: TRY004
            f"expected {want}, but {name} was refused {answer.reason}: {answer}\n{_trace(report)}"
        )
    found = answer.fraction
    same_unit = unit is None or (vocab or default_vocabulary()).same_unit(unit, answer.unit)
    if found != expected or not same_unit:
        raise AssertionError(f"expected {want}, found {answer} for {name}\n{_trace(report)}")


def assert_refused(
    subject: object,
    reason: str | None = None,
    *,
    vocab: UnitVocabulary | None = None,
    count_nouns: str = "declared",
) -> None:
    """Assert that no answer of the subject is certified (and, when given, that the refusal is ``reason``).

    A subject that cannot even be bound (a typed refusal while reading it) counts as
    refused with that refusal's reason.

    Raises:
        AssertionError: some answer is certified, or the refusal's reason differs; the
            message lists the report's lines.
    """
    try:
        report = report_of(subject, vocab=vocab, count_nouns=count_nouns)
    except RefusalError as exc:  # every typed refusal: unit, model, adapter, question target
        if reason is not None and exc.reason != reason:
            raise AssertionError(f"expected refusal {reason}, found refusal {exc.reason}: {exc}") from None
        return
    certified = {k: a for k, a in report.answers.items() if isinstance(a, Answer)}
    if certified:
        found = "; ".join(f"{k} = {a}" for k, a in certified.items())
        raise AssertionError(f"expected a refusal{f' {reason}' if reason else ''}, found {found}\n{_trace(report)}")
    reasons = {a.reason for a in report.answers.values() if not isinstance(a, Answer)}
    if not report.answers:
        reasons = {r.reason for r in report.refusals.values()}
    if reason is not None and reason not in reasons:
        raise AssertionError(f"expected refusal {reason}, found {sorted(reasons) or 'none'}\n{_trace(report)}")


def assert_admitted(verdict: Verdict) -> None:
    """Assert that an equation's :class:`~verifier.Verdict` is ``admitted``.

    Raises:
        AssertionError: the verdict is refused; the message gives the reason and detail.
        TypeError: ``verdict`` is not a Verdict.
    """
    if not isinstance(verdict, Verdict):
        raise TypeError(f"expected a Verdict, found {type(verdict).__name__}")
    if verdict.refusal is not None:
        raise AssertionError(f"expected admitted, found refused {verdict.refusal.reason}: {verdict.refusal}")


__all__ = ["assert_admitted", "assert_answer", "assert_refused", "report_of"]
