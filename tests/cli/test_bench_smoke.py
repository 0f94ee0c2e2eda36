"""Smoke test of ``benchmarks/bench.py``: one quick round runs and reports every metric.

No assertion on speed or memory: the benchmark measures, the issues set the targets.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

from verifier.kinds import OPERATION_KINDS

REPO = Path(__file__).resolve().parents[2]
BENCH = REPO / "benchmarks" / "bench.py"
UPSTREAM_DEV = REPO.parent / "shared" / "upstream" / "gsm8k_parser_dev" / "cases.jsonl"

METRIC_KEYS = (
    "cold_start_s",
    "cold_start_wall_s",
    "cold_start_units_only_s",
    "cold_start_plain_install_s",
    "cold_start_plain_install_wall_s",
    "pipeline_us",
    "pipeline_read_us",
    "pipeline_bind_us",
    "pipeline_verify_us",
    "reference_pipeline_us",
    "pipeline_ratio",
    "pipeline_repeat_us",
    "pipeline_repeat_ratio",
    "record_floor_us",
    "report_lines_us",
    "report_json_us",
    "throughput_graphs_per_s",
    "derived_vocabulary_ms",
    "inverse_chain_1000_s",
    "totals_growth_ratio",
    "check_equation_us",
    "check_equation_cached_us",
    "check_equation_with_proof_string_us",
    "reference_check_us",
    "check_equation_ratio",
    "check_equation_with_proof_string_ratio",
    "verify_lane_graph_us",
    "verify_upstream_graph_us",
    "verify_upstream_graph_uncached_us",
    "lanes_peak_rss_mb",
)
UPSTREAM_KEYS = {"verify_upstream_graph_us", "verify_upstream_graph_uncached_us"}


@pytest.mark.slow
def test_quick_benchmark_reports_every_metric() -> None:
    """One quick round of the benchmark prints JSON with every metric a positive number (the key list is pinned here on purpose)."""
    proc = subprocess.run(  # noqa: S603 - our own script, run by the current interpreter
        [sys.executable, str(BENCH), "--quick", "--json"],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=600,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    result = json.loads(proc.stdout)
    metrics = result["metrics"]
    assert set(metrics) == set(METRIC_KEYS)
    assert result["rounds"] == 1
    for key in METRIC_KEYS:
        metric = metrics[key]
        value = metric["median"]
        if key in UPSTREAM_KEYS and not UPSTREAM_DEV.is_file():
            assert value is None
            assert metric["skipped"]
            continue
        assert isinstance(value, (int, float)), (key, metric)
        assert not isinstance(value, bool), key
        assert math.isfinite(value), (key, value)
        assert value > 0, (key, value)
        assert metric["unit"] in {"s", "us", "x", "MB", "ms", "graphs/s"}, key
        assert metric["met"] in {True, False, None}, key
    equations = result["details"]["check_equation"]["equations"]
    kinds = {e["kind"] for e in equations}
    assert kinds == set(OPERATION_KINDS)  # the mix covers every kind
