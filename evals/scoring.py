"""Scoring one record against its gold: ``correct``, ``wrong``, ``refused_expected``, ``refused_unexpected`` or ``error``.

:func:`score_record` binds a :class:`adapters.corpus.Record` (any layout
:func:`adapters.corpus.read_records` reads), verifies it, and compares the certified
answer with the gold value *and* unit, or the refusal with the expected reason.  A
refusal is never ``wrong``: it is ``refused_expected`` or ``refused_unexpected``.  Only
an answer that differs from the gold is ``wrong``, and a failure that is not one of the
library's typed refusals is ``error``.  The result carries what a failure message
needs: the expected and found outcome, the root cause, and the verifier's trace.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Final, NamedTuple

from adapters import MathGraphError
from adapters.records import (
    bind_record,
    detect_format,
    equation_from_record,
    is_lane_case,
    lane_case_input,
    vocabulary_for,
)
from units import UnitRefusal, default_vocabulary
from units.exact import format_exact
from verifier import Answer, check_equation
from verifier.crosscheck import classify
from verifier.errors import BindingGraphError
from verifier.values import Policy

if TYPE_CHECKING:
    from adapters.corpus import Gold, Record
    from units import UnitVocabulary

RECORD_FIELDS: Final[frozenset[str]] = frozenset({"format", "policy", "vocab", "count_nouns", "record"})
"""Paths of a record's own fields: a refusal there means the record is malformed, which scores ``error``."""

OUTCOMES: Final[tuple[str, ...]] = ("correct", "wrong", "refused_expected", "refused_unexpected", "error")
"""Every outcome of a scored case, in the order tables show them."""


@dataclass(frozen=True, slots=True, kw_only=True)
class CaseResult:
    """The score of one case.

    Attributes:
        lane: the lane (or source file) the case belongs to.
        case_id: the record's id.
        outcome: one of :data:`OUTCOMES`.
        expected: the gold as text (``"8 apples"``, ``"refusal unknown_unit"``).
        got: what came back as text (``"5 apples"``, ``"refusal unknown_unit"``).
        seconds: wall time of binding and verifying.
        cause: the root cause of a refusal or error, or why an answer is wrong (``""`` if correct).
        trace: the verifier's report lines (equations, proofs, answers), for a failure message.
        where: ``file:line`` of the record, or ``""``.
        value: the certified answer's exact value, or ``None`` (a refusal or error).
        unit: the certified answer's unit, or ``None``.
        reason: the refusal reason (SPEC §6), or ``""``.
    """

    lane: str
    case_id: str
    outcome: str
    expected: str
    got: str
    seconds: float
    cause: str = ""
    trace: tuple[str, ...] = ()
    where: str = ""
    value: Fraction | None = None
    unit: str | None = None
    reason: str = ""

    def to_json(self) -> dict[str, object]:
        """Plain JSON data (``seconds`` rounded to milliseconds; no trace)."""
        return {
            "lane": self.lane,
            "id": self.case_id,
            "outcome": self.outcome,
            "expected": self.expected,
            "got": self.got,
            "seconds": round(self.seconds, 3),
        }


def score_record(
    record: Record,
    *,
    vocab: UnitVocabulary | None = None,
    count_nouns: str = "declared",
    policy: Policy | None = None,
    lane: str | None = None,
    trace: bool = True,
) -> CaseResult:
    """Bind, verify and score one record against its gold (never raises for the record's content).

    Args:
        record: a :class:`adapters.corpus.Record`; one without gold scores ``error``.
        vocab: the base vocabulary (default: :func:`units.default_vocabulary`); the
            record's own ``vocab`` declarations are applied on top.
        count_nouns: ``"declared"`` or ``"auto"`` (see :func:`adapters.records.bind_record`).
        policy: ``"count_exact"`` or ``"integer"``, overriding the record's own; ``None``
            keeps the record's (``integer`` for relational records).
        lane: the lane name for the result (default: the record's lane, else its source).
        trace: keep the verifier's report lines for a failure message (corpus scoring,
            which keeps no trace, passes ``False`` and skips building them).

    Returns:
        A :class:`CaseResult`.  Outcomes: ``correct`` (the gold value in the gold unit),
        ``wrong`` (a certified answer that differs in value or unit, or an answer where
        a refusal was expected), ``refused_expected``, ``refused_unexpected``, ``error``
        (an untyped failure, or a record without gold).
    """
    scorer = _Scorer(record, lane if lane is not None else (record.lane or record.source))
    gold = record.gold
    if gold is None:
        return scorer.result("error", "(not run)", "the record has no gold answer, expected refusal or category")
    mismatch = _format_mismatch(record)
    if mismatch:
        return scorer.result("error", "(not run)", f"the record itself is malformed: {mismatch}")
    record_vocab: UnitVocabulary | None = vocab
    try:
        if gold.category is not None:
            return _score_category(scorer, record, gold.category)
        found, record_vocab = _answer(record, vocab, count_nouns, policy, keep_trace=trace)
    except (MathGraphError, BindingGraphError, UnitRefusal) as exc:
        metadata = isinstance(exc, MathGraphError) and exc.path.split(".")[0].split("[")[0] in RECORD_FIELDS
        if metadata and gold.refusal != exc.reason:
            # the record's own fields are malformed (a misspelt format, policy or vocab): it cannot be scored,
            # and that is an error to fix, never a refusal to excuse (unless the record expects exactly it)
            return scorer.result("error", f"refusal {exc.reason}", f"the record itself is malformed: {exc}")
        found = _Found(exc.reason, None, None, str(exc), ())
    except Exception as exc:  # noqa: BLE001 -- an untyped failure is the library's defect: scored as error, never hidden
        return scorer.result("error", f"{type(exc).__name__}", f"{type(exc).__name__}: {exc}"[:500])
    return _score_found(scorer, gold, found, record_vocab)


class _Scorer:
    """Builds the :class:`CaseResult` of one record, timed from the scorer's creation."""

    def __init__(self, record: Record, lane: str) -> None:
        self.record = record
        self.lane = lane
        self.expected = str(record.gold) if record.gold is not None else "(no gold)"
        self.start = time.perf_counter()

    def result(
        self, outcome: str, got: str, cause: str = "", trace: tuple[str, ...] = (), found: _Found | None = None
    ) -> CaseResult:
        """The case's result: ``outcome``, what came back, why, the trace, and the answer or refusal ``found``."""
        seconds = time.perf_counter() - self.start
        value, unit, reason = (found.value, found.unit, found.refusal or "") if found is not None else (None, None, "")
        record = self.record
        return CaseResult(
            lane=self.lane,
            case_id=record.id,
            outcome=outcome,
            expected=self.expected,
            got=got,
            seconds=seconds,
            cause=cause,
            trace=trace,
            where=record.where,
            value=value,
            unit=unit,
            reason=reason,
        )


def _score_category(scorer: _Scorer, record: Record, expected: str) -> CaseResult:
    """A cross-check record: ``correct`` when it falls in the ``expected`` category, else ``wrong``."""
    category = _category(record)
    outcome = "correct" if category == expected else "wrong"
    return scorer.result(outcome, f"category {category}", "" if outcome == "correct" else f"classified {category}")


def _score_found(scorer: _Scorer, gold: Gold, found: _Found, vocab: UnitVocabulary | None) -> CaseResult:
    """A verified record against its gold: a refusal expected or not, else the answer's value and unit.

    ``vocab`` is the record's vocabulary (``None``: the default one), which tells whether
    the gold's unit is a unit at all and whether it is the answer's.
    """
    if found.refusal is not None:
        outcome = "refused_expected" if gold.refusal == found.refusal else "refused_unexpected"
        return scorer.result(outcome, f"refusal {found.refusal}", found.cause, found.trace, found)
    value = found.value if found.value is not None else Fraction(0)
    text = f"{format_exact(value)} {found.unit}" if found.unit else format_exact(value)
    if gold.refusal is not None:
        return scorer.result("wrong", text, f"an answer where refusal {gold.refusal} was expected", found.trace, found)
    voc = vocab or default_vocabulary()
    if gold.unit is not None and found.unit is not None and not _resolves(voc, gold.unit):
        # the answer's unit resolves and the gold's does not: a typo in the gold, not a wrong answer
        return scorer.result(
            "error", text, f"the gold unit {gold.unit!r} is not a unit of the vocabulary", found.trace, found
        )
    same_unit = voc.same_unit(found.unit, gold.unit)
    if value == gold.value and same_unit:
        return scorer.result("correct", text, "", found.trace, found)
    why = f"the unit differs ({found.unit} vs {gold.unit})" if not same_unit else "the value differs"
    return scorer.result("wrong", text, why, found.trace, found)


def _format_mismatch(record: Record) -> str:
    """Why a lane case's declared ``format`` is not the one its input has, or ``""`` (undecidable inputs pass)."""
    data = record.data
    if record.format is None or not isinstance(data, dict) or not isinstance(data.get("input"), dict):
        return ""
    try:
        found = detect_format(data["input"])
    except MathGraphError:
        return ""
    if found != record.format and not (record.format == "canonical_text" and found == "canonical_text"):
        return f"its format is {record.format!r} but its input is a {found} record"
    return ""


def _resolves(vocab: UnitVocabulary, surface: str) -> bool:

    try:
        vocab.resolve(surface)
    except UnitRefusal:
        return False
    return True


class _Found(NamedTuple):
    """What verifying a record gave: a refusal reason, or a certified value and unit."""

    refusal: str | None
    value: Fraction | None
    unit: str | None
    cause: str
    trace: tuple[str, ...]


def _answer(
    record: Record, vocab: UnitVocabulary | None, count_nouns: str, policy: Policy | None, *, keep_trace: bool
) -> tuple[_Found, UnitVocabulary]:
    """Bind and verify a record: its unknown's answer or refusal, the report's lines, and the record's vocabulary.

    Raises:
        MathGraphError: ``malformed_input`` (path ``unknowns``) for a graph with several
            unknowns: one gold cannot score them.
    """
    bound = bind_record(record.data, record.format, vocab, count_nouns=count_nouns)
    if len(bound.graph.unknowns) > 1:
        raise MathGraphError("malformed_input", "the graph has several unknowns; a gold names one", "record")
    report = bound.verify(policy)
    trace = tuple(report.lines()) if keep_trace else ()
    if not report.answers:
        return _Found("malformed_input", None, None, "the graph asks for nothing", trace), bound.vocab
    answer = next(iter(report.answers.values()))
    if isinstance(answer, Answer):
        return _Found(None, answer.fraction, answer.unit, "", trace), bound.vocab
    return _Found(answer.reason, None, None, str(answer), trace), bound.vocab


def _category(record: Record) -> str:
    """The cross-check category of a one-equation record (the ``crosscheck`` lane's cases)."""
    data = record.data
    inner = lane_case_input(data) if isinstance(data, dict) and is_lane_case(data) else data
    equation, symbols, theirs = equation_from_record(inner)
    vocab = vocabulary_for(inner)
    verdict = check_equation(equation, symbols, vocab)
    category, _ = classify(verdict, theirs, equation, symbols, vocab=vocab)
    return category


__all__ = [
    "OUTCOMES",
    "RECORD_FIELDS",
    "CaseResult",
    "score_record",
]
