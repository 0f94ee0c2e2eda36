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
