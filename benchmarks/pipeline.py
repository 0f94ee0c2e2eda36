"""The full pipeline a user runs (read → bind → verify), next to the same work done in the hand-rolled shape.

The *reference pipeline* is :func:`benchmarks.upstream_shape.bind_upstream_shape` after
``json.loads``: the upstream hand-rolled adapter and integer-exponent admissibility in
its shape, which reproduces upstream's canonical text byte for byte on every upstream
record (``tests/unit/test_upstream_shape.py``).  It solves no values, as upstream does
not.  Ours reads the text exactly (``adapters.read_json``), builds the typed
``MathProblemGraph``, binds it (with admissibility stamped) and verifies it
(admissibility, holdings, exact values, certified answers).

Both run in one process, interleaved graph by graph, each graph once per round; the
expression-text memo is emptied at the start of each round, so a round sees each
graph for the first time, as a corpus of distinct graphs does.
"""

from __future__ import annotations

import dataclasses
import json
import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any

from adapters import bind_math_problem_graph, graph_from_dict, read_json
from benchmarks.upstream_shape import UnitTable, bind_upstream_shape
from units import UnitVocabulary
from verifier import verify


def upstream_reference(table: UnitTable) -> Callable[[str], str]:
    """The reference pipeline on one graph's JSON text: ``json.loads``, then the upstream-shape adapter and check."""

    def run(text: str) -> str:
        return bind_upstream_shape(json.loads(text), table)

    return run


def pipeline_rounds(
    texts: Sequence[str],
    vocab: UnitVocabulary,
    reference: Callable[[str], object],
    rounds: int,
    clear_memo: Callable[[], None],
) -> dict[str, Any]:
    """Per-graph mean microseconds, per round: ours by stage and in total, and the reference."""
    out: dict[str, list[float]] = {"read": [], "bind": [], "verify": [], "ours": [], "reference": []}
    for _ in range(rounds):
        clear_memo()
        sums = dict.fromkeys(out, 0.0)
        for text in texts:
            t0 = time.perf_counter_ns()
            graph = graph_from_dict(read_json(text))
            t1 = time.perf_counter_ns()
            bound = bind_math_problem_graph(graph, vocab)
            t2 = time.perf_counter_ns()
            verify(bound, vocab)
            t3 = time.perf_counter_ns()
            reference(text)
            t4 = time.perf_counter_ns()
            sums["read"] += t1 - t0
            sums["bind"] += t2 - t1
            sums["verify"] += t3 - t2
            sums["ours"] += t3 - t0
            sums["reference"] += t4 - t3
        for key, total in sums.items():
            out[key].append(total / len(texts) / 1000)
    medians = {key: statistics.median(values) for key, values in out.items()}
    return {"rounds_us": out, "median_us": medians, "ratio": medians["ours"] / medians["reference"]}


def output_rounds(texts: Sequence[str], vocab: UnitVocabulary, rounds: int) -> dict[str, Any]:
    """Per-graph mean microseconds of writing each graph's report as ``bgverify check`` writes it.

    ``lines``: the text output (:meth:`verifier.GraphReport.lines`); ``json``: the
    ``--json`` output (:meth:`verifier.GraphReport.to_json`, then ``json.dumps`` with
    sorted keys).  The reports are built first, outside the timing.

    Returns:
        ``{"rounds_us": {"lines": [...], "json": [...]}, "median_us": {"lines": float, "json": float}}``.
    """
    reports = [verify(bind_math_problem_graph(graph_from_dict(read_json(text)), vocab), vocab) for text in texts]
    out: dict[str, list[float]] = {"lines": [], "json": []}
    for _ in range(rounds):
        t0 = time.perf_counter_ns()
        for report in reports:
            report.lines()
        t1 = time.perf_counter_ns()
        for report in reports:
            json.dumps(report.to_json(), sort_keys=True, ensure_ascii=False)
        t2 = time.perf_counter_ns()
        out["lines"].append((t1 - t0) / len(reports) / 1000)
        out["json"].append((t2 - t1) / len(reports) / 1000)
    return {"rounds_us": out, "median_us": {key: statistics.median(values) for key, values in out.items()}}


_RECORD_PACKAGES = ("adapters.", "verifier.")


def _records(obj: object, out: list[object], seen: set[int]) -> None:
    """Every dataclass record of ours reachable from ``obj`` (through fields, tuples, lists and dicts), once each."""
    if id(obj) in seen:
        return
    seen.add(id(obj))
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        if type(obj).__module__.startswith(_RECORD_PACKAGES):
            out.append(obj)
            for f in dataclasses.fields(obj):
                _records(getattr(obj, f.name), out, seen)
    elif isinstance(obj, (tuple, list)):
        for item in obj:
            _records(item, out, seen)
    elif isinstance(obj, dict):
        for key, value in obj.items():
            _records(key, out, seen)
            _records(value, out, seen)


def record_floor(texts: Sequence[str], vocab: UnitVocabulary, rounds: int) -> dict[str, Any]:
    """What building the pipeline's *output records* alone costs per graph, with no logic: a floor under ``pipeline_us``.

    Runs the pipeline once per graph and collects every record of ours it returns (the
    typed graph, the binding graph and the report, with their symbols, spans, equations,
    facts, verdicts, proofs, trace steps, values and answers).  Then it times calling
    each record's class again with the same field values, every check of its
    ``__post_init__`` included (warm: the names were seen before, which the pipeline's
    first sight of a graph is not).  Whatever the logic costs comes on top of this.

    Returns:
        ``{"records_per_graph": float, "rounds_us": [...], "median_us": float}``.
    """
    calls: list[list[tuple[type, dict[str, object]]]] = []
    for text in texts:
        graph = graph_from_dict(read_json(text))
        bound = bind_math_problem_graph(graph, vocab)
        report = verify(bound, vocab)
        found: list[object] = []
        seen: set[int] = set()
        for root in (graph, bound, report):
            _records(root, found, seen)
        calls.append([(type(r), {f.name: getattr(r, f.name) for f in dataclasses.fields(r) if f.init}) for r in found])
    per_round = []
    for _ in range(rounds):
        t0 = time.perf_counter_ns()
        for graph_calls in calls:
            for cls, kwargs in graph_calls:
                cls(**kwargs)
        per_round.append((time.perf_counter_ns() - t0) / len(texts) / 1000)
    return {
        "records_per_graph": sum(len(c) for c in calls) / len(texts),
        "rounds_us": per_round,
        "median_us": statistics.median(per_round),
    }
