"""Lane runner: scores every bundled case ``correct``, ``wrong``, ``refused_expected``, ``refused_unexpected`` or ``error``.

A lane is a JSONL file in ``evals/lanes/`` written for this project.  Each case::

    {"id": "graphs-001", "format": "math_graph", "input": {...},
     "vocab": {"count_nouns": {"apples": "apple"}, "conventions": {...}},   # optional
     "policy": "integer",                                                   # optional
     "expect": {"answer": "63", "unit": "inches"}   or   {"refusal": "non_exact_division"},
     "derivation": "5 ft = 60 in; 60 + 3 = 63"}

``input`` is the record of its ``format`` (see ``adapters.records``); a string input
of a JSON format is raw text, parsed exactly (so broken JSON is itself a case).  The
``crosscheck`` lane's cases hold an equation record and the expected category.
Gold answers are written by hand in the data; the runner recomputes nothing to make them.
Only ``verifier.cli`` imports this module.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from importlib import resources
from typing import Final

OUTCOMES: Final[tuple[str, ...]] = ("correct", "wrong", "refused_expected", "refused_unexpected", "error")
LANES: Final[tuple[str, ...]] = ("graphs", "soundness", "relational", "bad_inputs", "crosscheck")
SLOW_SECONDS: Final[float] = 1.0
"""A bad input must be refused well under this; a slower case scores ``error`` (a hang guard, not a benchmark)."""


@dataclass(frozen=True, slots=True)
class CaseResult:
    """The score of one case: ``outcome`` from :data:`OUTCOMES`, what was expected and what came back."""

    lane: str
    case_id: str
    outcome: str
    expected: str
    got: str
    seconds: float

    def to_json(self) -> dict[str, object]:
        """Plain JSON data (``seconds`` rounded to milliseconds)."""
        return {
            "lane": self.lane,
            "id": self.case_id,
            "outcome": self.outcome,
            "expected": self.expected,
            "got": self.got,
            "seconds": round(self.seconds, 3),
        }


@dataclass(frozen=True, slots=True)
class LaneResult:
    """All case results of one lane and their counts."""

    lane: str
    results: tuple[CaseResult, ...]

    @property
    def counts(self) -> dict[str, int]:
        """Outcome → count, every outcome present."""
        counter = Counter(r.outcome for r in self.results)
        return {o: counter.get(o, 0) for o in OUTCOMES}

    @property
    def ok(self) -> bool:
        """No ``wrong`` and no ``error``."""
        counts = self.counts
        return counts["wrong"] == 0 and counts["error"] == 0


def lane_cases(lane: str) -> list[dict[str, object]]:
    """The cases of a bundled lane, in file order.

    Raises:
        KeyError: an unknown lane name.
        ValueError: a lane file that is not valid JSONL (a packaging bug).
    """
    if lane not in LANES:
        raise KeyError(f"unknown lane {lane!r}; lanes: {', '.join(LANES)}")
    text = resources.files("evals").joinpath("lanes", f"{lane}.jsonl").read_text(encoding="utf-8")
    from units._numbers import loads_exact

    cases = []
    for number, line in enumerate(text.splitlines(), start=1):
        if line.strip():
            case = loads_exact(line)
            if not isinstance(case, dict) or "id" not in case or "expect" not in case:
                raise ValueError(f"{lane}.jsonl:{number}: a case needs id, input and expect")
            cases.append(case)
    return cases


def _expected(case: dict[str, object]) -> str:
    expect = case["expect"]
    assert isinstance(expect, dict)
    if "refusal" in expect:
        return f"refusal {expect['refusal']}"
    if "category" in expect:
        return f"category {expect['category']}"
    return f"{expect['answer']} {expect.get('unit') or ''}".strip()


def run_case(lane: str, case: dict[str, object]) -> CaseResult:
    """Run one case and score it (never raises for the case's own content)."""
    from adapters import MathGraphError
    from units import UnitRefusal
    from verifier.errors import BindingGraphError

    case_id = str(case.get("id"))
    expected = _expected(case)
    start = time.perf_counter()
    try:
        got_kind, got = _execute(lane, case)
    except (MathGraphError, BindingGraphError, UnitRefusal) as exc:
        got_kind, got = "refusal", exc.reason
    except Exception as exc:
        return CaseResult(
            lane, case_id, "error", expected, f"{type(exc).__name__}: {exc}"[:300], time.perf_counter() - start
        )
    seconds = time.perf_counter() - start
    expect = case["expect"]
    assert isinstance(expect, dict)
    if lane == "bad_inputs" and seconds > SLOW_SECONDS:
        outcome = "error"
        got = f"{got} after {seconds:.2f} s (slower than {SLOW_SECONDS} s)"
    elif got_kind == "category":
        outcome = "correct" if got == expect.get("category") else "wrong"
    elif "refusal" in expect:
        if got_kind == "answer":
            outcome = "wrong"
        else:
            outcome = "refused_expected" if got == expect["refusal"] else "refused_unexpected"
    elif got_kind == "refusal":
        outcome = "refused_unexpected"
    else:
        outcome = "correct" if got == _answer_text(expect) else "wrong"
    return CaseResult(lane, case_id, outcome, expected, got if got_kind != "refusal" else f"refusal {got}", seconds)


def _answer_text(expect: dict[str, object]) -> str:
    value = Fraction(str(expect["answer"]))
    unit = expect.get("unit")
    return f"{_frac(value)} {unit}" if unit else _frac(value)


def _frac(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"


def _execute(lane: str, case: dict[str, object]) -> tuple[str, str]:
    """Run a case; return ``("answer", "63 inches")``, ``("refusal", reason)`` or ``("category", name)``."""
    from adapters import read_json
    from adapters.records import bind_record, equation_from_record, vocabulary_for
    from verifier import Answer, check_equation, verify
    from verifier.crosscheck import _Classifier, outcome

    fmt = case.get("format")
    data = case.get("input")
    if lane == "crosscheck":
        equation, symbols, theirs = equation_from_record(data)
        vocab = vocabulary_for(case)
        verdict = check_equation(equation, symbols, vocab)
        category, _ = _Classifier(vocab).classify(verdict, theirs, equation, symbols)
        _ = outcome
        return "category", category
    if isinstance(data, str) and fmt != "canonical_text":
        data = read_json(data)
    record: object = data
    if isinstance(data, dict):
        record = dict(data)
        for key in ("vocab", "policy"):
            if key in case:
                record[key] = case[key]
    elif fmt == "canonical_text" and "vocab" in case:
        raise ValueError("canonical_text cases cannot declare a vocab")
    bound = bind_record(record, fmt if isinstance(fmt, str) else None)
    report = verify(bound.graph, bound.vocab, bound.policy)
    if not report.answers:
        return "refusal", "malformed_input"
    answer = next(iter(report.answers.values()))
    if isinstance(answer, Answer):
        value = Fraction(int(answer.value.p), int(answer.value.q))
        return "answer", (f"{_frac(value)} {answer.unit}" if answer.unit else _frac(value))
    return "refusal", answer.reason


Progress = Callable[[Sequence[dict[str, object]], int, str], Iterable[dict[str, object]]]


def run_lanes(lanes: Iterable[str] = LANES, progress: Progress | None = None) -> list[LaneResult]:
    """Run the named bundled lanes; ``progress`` may wrap each lane's case list (a progress bar)."""
    out = []
    for lane in lanes:
        cases = lane_cases(lane)
        items = cases if progress is None else progress(cases, len(cases), lane)
        out.append(LaneResult(lane, tuple(run_case(lane, c) for c in items)))
    return out


def format_table(results: list[LaneResult]) -> str:
    """The lane table: one row per lane and a total row."""
    header = f"{'lane':<12}" + "".join(f"{o:>20}" for o in OUTCOMES) + f"{'cases':>8}"
    lines = [header, "-" * len(header)]
    total: Counter[str] = Counter()
    for lane in results:
        counts = lane.counts
        total.update(counts)
        lines.append(f"{lane.lane:<12}" + "".join(f"{counts[o]:>20}" for o in OUTCOMES) + f"{len(lane.results):>8}")
    lines.append("-" * len(header))
    lines.append(
        f"{'overall':<12}" + "".join(f"{total[o]:>20}" for o in OUTCOMES) + f"{sum(len(r.results) for r in results):>8}"
    )
    return "\n".join(lines)


def results_json(results: list[LaneResult]) -> str:
    """Lane counts and every case result as JSON (times excluded, so the output is byte-stable)."""
    data = {
        "lanes": {r.lane: r.counts for r in results},
        "cases": [{k: v for k, v in c.to_json().items() if k != "seconds"} for r in results for c in r.results],
    }
    return json.dumps(data, sort_keys=True, indent=2, ensure_ascii=False)
