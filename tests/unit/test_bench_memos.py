"""The benchmark's memo clearing empties sympy's cache too, so a round sees each graph for the first time."""

from __future__ import annotations

import sympy

from benchmarks.workloads import clear_print_memo


def test_sympy_builds_again_after_the_memos_are_cleared() -> None:
    """Sympy returns the cached object for an expression built before, and a new one after clearing."""
    first = sympy.Symbol("bench_memo_probe") + 3
    assert (sympy.Symbol("bench_memo_probe") + 3) is first  # the cache at work
    clear_print_memo()
    again = sympy.Symbol("bench_memo_probe") + 3
    assert again == first
    assert again is not first
