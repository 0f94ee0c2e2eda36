"""The benchmark's memo clearing empties sympy's cache too, so a round sees each graph for the first time.

Run in a child interpreter: the benchmarks are scripts importing one another as the
``benchmarks`` package, which the type-checked tests import only as scripts
(``tests/unit/test_upstream_shape.py``).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

_PROGRAM = """
import sympy
from benchmarks.workloads import clear_print_memo
first = sympy.Symbol("bench_memo_probe") + 3
cached = (sympy.Symbol("bench_memo_probe") + 3) is first
clear_print_memo()
again = sympy.Symbol("bench_memo_probe") + 3
print(cached, again == first, again is first)
"""


@pytest.mark.slow
def test_sympy_builds_again_after_the_memos_are_cleared() -> None:
    """Sympy returns the cached object for an expression built before, and a new (equal) one after clearing."""
    proc = subprocess.run(  # noqa: S603 - the current interpreter on a fixed program
        [sys.executable, "-c", _PROGRAM], capture_output=True, text=True, cwd=REPO, timeout=120, check=False
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.split() == ["True", "True", "False"]
