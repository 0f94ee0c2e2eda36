"""The benchmark's result shape and its table: the metric keys in table order, one metric's record, the readable table."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

import pint

METRIC_KEYS: Final[tuple[str, ...]] = (
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
"""Every metric of the JSON ``metrics`` object, in table order."""


def metric(value: float | None, unit: str, target: str, *, met: bool | None, **extra: str | int) -> dict[str, Any]:
    """One metric's JSON record: its median, unit, target text and whether it is met (``None``: no target).

    ``extra`` adds keys such as ``what`` (the description) or ``skipped`` (why no value).
    """
    out: dict[str, Any] = {"median": value, "unit": unit, "target": target, "met": met}
    out.update(extra)
    return out


def pint_version() -> str:
    """The installed pint's version string, or ``"?"`` when it has none."""
    return str(getattr(pint, "__version__", "?"))


def format_table(result: Mapping[str, Any]) -> str:
    """The readable table: metric, median, unit, target, met."""
    rows = [("metric", "median", "unit", "target", "met")]
    for key, m in result["metrics"].items():
        value = m["median"]
        if value is None:
            shown = "skipped"
        elif m["unit"] == "s":
            shown = f"{value:.3f}"
        elif m["unit"] == "x":
            shown = f"{value:.2f}"
        else:
            shown = f"{value:.1f}"
        met = "-" if m["met"] is None else ("yes" if m["met"] else "no")
        rows.append((key, shown, m["unit"], m["target"], met))
    widths = [max(len(r[i]) for r in rows) for i in range(5)]
    lines = []
    for i, row in enumerate(rows):
        lines.append(
            "  ".join(c.ljust(w) if j == 0 else c.rjust(w) for j, (c, w) in enumerate(zip(row, widths, strict=True)))
        )
        if i == 0:
            lines.append("  ".join("-" * w for w in widths))
    eqs = result["details"].get("check_equation", {}).get("equations", [])
    if eqs:
        lines.append("")
        head = ("check_equation per equation (median us)", "ours", "cached", "+str", "ref", "ratio")
        lines.append(f"{head[0]:<46}" + "".join(f"{h:>8}" for h in head[1:]) + "  same proof string")
        for e in eqs:
            cols = (
                "ours_us",
                "ours_cached_us",
                "ours_with_proof_string_us",
                "reference_us",
                "ratio",
            )
            same = "yes" if e["same_string"] else f"no: {e['ours']} | {e['reference']}"
            lines.append(f"{e['label']:<46}" + "".join(f"{e[c]:>8.2f}" for c in cols) + f"  {same}")
    versions = result["versions"]
    lines.append("")
    lines.append(
        f"rounds={result['rounds']}  python {result['python']}  sympy {versions['sympy']}  "
        f"pint {versions['pint']}  cpus={result['cpu_count']}"
    )
    return "\n".join(lines)
