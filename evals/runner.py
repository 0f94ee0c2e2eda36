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

import dataclasses
import json
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Final

from adapters import MathGraphError
from adapters.corpus import to_record
from evals.scoring import OUTCOMES, CaseResult, score_record
from units.exact import loads_exact

LANES: Final[tuple[str, ...]] = ("graphs", "soundness", "relational", "bad_inputs", "crosscheck")
SLOW_SECONDS: Final[float] = 1.0
"""A bad input must be refused well under this; a slower case scores ``error`` (a hang guard, not a benchmark)."""


@dataclass(frozen=True, slots=True, kw_only=True)
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

    cases = []
    for number, line in enumerate(text.splitlines(), start=1):
        if line.strip():
            case = loads_exact(line)
            if not isinstance(case, dict) or "id" not in case or "expect" not in case:
                raise ValueError(f"{lane}.jsonl:{number}: a case needs id, input and expect")
            cases.append(case)
    return cases


def run_case(lane: str, case: dict[str, object]) -> CaseResult:
    """Score one bundled case with :func:`evals.scoring.score_record` (never raises for the case's own content).

    A ``bad_inputs`` case refused slower than :data:`SLOW_SECONDS` scores ``error``.
    """
    try:
        record = to_record(case, f"{lane}.jsonl", 0, lane)
    except MathGraphError as exc:
        return CaseResult(
            lane=lane,
            case_id=str(case.get("id")),
            outcome="error",
            expected="(unreadable case)",
            got=exc.reason,
            seconds=0.0,
            cause=str(exc),
        )
    result = score_record(record)
    if lane == "bad_inputs" and result.seconds > SLOW_SECONDS:
        got = f"{result.got} after {result.seconds:.2f} s (slower than {SLOW_SECONDS} s)"
        return dataclasses.replace(result, outcome="error", got=got)
    return result


Progress = Callable[[Sequence[dict[str, object]], int, str], Iterable[dict[str, object]]]


def run_lanes(lanes: Iterable[str] = LANES, progress: Progress | None = None) -> list[LaneResult]:
    """Run the named bundled lanes; ``progress`` may wrap each lane's case list (a progress bar)."""
    out = []
    for lane in lanes:
        cases = lane_cases(lane)
        items = cases if progress is None else progress(cases, len(cases), lane)
        out.append(LaneResult(lane=lane, results=tuple(run_case(lane, c) for c in items)))
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


__all__ = [
    "LANES",
    "SLOW_SECONDS",
    "LaneResult",
    "format_table",
    "lane_cases",
    "results_json",
    "run_case",
    "run_lanes",
]
