"""The benchmark's timing harness and its subprocess metrics.

The harness: :class:`Samples`, the calibrated inner loop, :func:`time_items` (every item's
loop once per round with the garbage collector off), round means, the verdict-cache
clearer and the wrappers that clear it or render the proof string, the timing constants
and the progress log.  The subprocess metrics: the child programs, :func:`cold_start`
and :func:`lanes_memory`, run by ``sys.executable`` from the repository root.
"""

from __future__ import annotations

import gc
import importlib.util
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from benchmarks.paths import REPO
from verifier import admissibility

DEFAULT_ROUNDS: Final[int] = 7
ROUND_TARGET_NS: Final[int] = 10_000_000
"""Each warm item's inner loop is calibrated to about this long per round (quick: 1/10)."""
MAX_INNER: Final[int] = 200_000
MEMORY_ROUNDS_CAP: Final[int] = 3


def log(message: str) -> None:
    """Write one ``[bench]`` progress line to stderr (stdout carries the table or the JSON)."""
    sys.stderr.write(f"[bench] {message}\n")
    sys.stderr.flush()


# --------------------------------------------------------------------------- timing


@dataclass
class Samples:
    """Per-round per-call means (ns) of one item."""

    label: str
    inner: int = 0
    rounds: list[float] = field(default_factory=list)

    @property
    def median_ns(self) -> float:
        """Median over rounds of the per-round mean."""
        return statistics.median(self.rounds)


def _calibrate(fn: Callable[[], object], target_ns: int) -> int:
    """Warm ``fn`` up and choose an inner loop count of about ``target_ns`` per round."""
    for _ in range(3):
        fn()
    batch = 10
    start = time.perf_counter_ns()
    for _ in range(batch):
        fn()
    per_call = max(1.0, (time.perf_counter_ns() - start) / batch)
    return max(1, min(MAX_INNER, math.ceil(target_ns / per_call)))


def time_items(items: Sequence[tuple[str, Callable[[], object]]], rounds: int, target_ns: int) -> list[Samples]:
    """Run every item's calibrated loop once per round, in order, with the GC off while timed."""
    samples = [Samples(label, _calibrate(fn, target_ns)) for label, fn in items]
    perf = time.perf_counter_ns
    for _ in range(rounds):
        gc.collect()
        gc.disable()
        try:
            for sample, (_, fn) in zip(samples, items, strict=True):
                loop = range(sample.inner)
                start = perf()
                for _ in loop:
                    fn()
                sample.rounds.append((perf() - start) / sample.inner)
        finally:
            gc.enable()
    return samples


def verdict_cache_clearer() -> Callable[[], None] | None:
    """``verifier.admissibility.clear_verdict_cache`` if verdicts are memoized, else ``None``."""
    clear = getattr(admissibility, "clear_verdict_cache", None)
    return clear if callable(clear) else None


def uncached(fn: Callable[[], object], clear: Callable[[], None] | None) -> Callable[[], object]:
    """``fn`` preceded by emptying the verdict cache, so every call does the admissibility work."""
    if clear is None:
        return fn

    def call() -> object:
        clear()
        return fn()

    return call


def proof_string(call: Callable[[], Any]) -> Callable[[], str]:
    """``call().unit_proof``: the verdict rendered as the upstream proof string."""

    def render() -> str:
        return str(call().unit_proof)

    return render


def round_means(samples: Sequence[Samples]) -> list[float]:
    """Per round, the mean over items of their per-call means."""
    if not samples:
        return []
    return [statistics.fmean(s.rounds[r] for s in samples) for r in range(len(samples[0].rounds))]


# --------------------------------------------------------------------------- subprocess metrics

_COLD_FULL: Final[str] = (
    "import time\n"
    "t0 = time.perf_counter_ns()\n"
    "import units, adapters, verifier\n"
    "units.default_vocabulary()\n"
    "print(time.perf_counter_ns() - t0)\n"
)
PINT_OPTIONAL_IMPORTS: Final[tuple[str, ...]] = ("numpy", "dask", "scipy", "babel", "uncertainties")
"""What pint imports at its own import when installed (pint.compat); ``pip install .`` installs none of them."""
_COLD_PLAIN: Final[str] = (
    "import sys\n"
    f"sys.modules.update(dict.fromkeys({PINT_OPTIONAL_IMPORTS!r}))  # as absent as in a plain install\n" + _COLD_FULL
)
_COLD_UNITS: Final[str] = (
    "import time\n"
    "t0 = time.perf_counter_ns()\n"
    "import units\n"
    "units.default_vocabulary()\n"
    "print(time.perf_counter_ns() - t0)\n"
)
_LANES_WRAPPER: Final[str] = (
    "import resource, subprocess, sys, time\n"
    "t0 = time.perf_counter_ns()\n"
    "p = subprocess.run([sys.executable, '-m', 'verifier', 'lanes'], stdout=subprocess.DEVNULL,"
    " stderr=subprocess.DEVNULL, check=False)\n"
    "t1 = time.perf_counter_ns()\n"
    "print(p.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, t1 - t0)\n"
)


def _child_env(bytecode: str | None = None) -> dict[str, str]:
    """This environment with the repository root first on ``PYTHONPATH``, so a child imports this checkout.

    With ``bytecode`` (a folder), the child reads and writes compiled bytecode there
    (``PYTHONPYCACHEPREFIX``), even where the environment sets ``PYTHONDONTWRITEBYTECODE``:
    an installed package starts from the bytecode pip compiled, never by compiling its
    source again (which cost about 70 ms of every cold start here).
    """
    env = dict(os.environ)
    path = env.get("PYTHONPATH")
    env["PYTHONPATH"] = str(REPO) + (os.pathsep + path if path else "")
    if bytecode is not None:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = bytecode
    return env


def _run_child(code: str, bytecode: str | None = None) -> tuple[str, int]:
    """Run ``sys.executable -c code`` from the repo root; (stdout, wall ns)."""
    start = time.perf_counter_ns()
    proc = subprocess.run(  # noqa: S603 - a fixed argv: sys.executable -c one of this module's own programs
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=REPO,
        env=_child_env(bytecode),
        check=False,
    )
    wall = time.perf_counter_ns() - start
    if proc.returncode != 0:
        raise RuntimeError(f"child failed ({proc.returncode}): {proc.stderr.strip()[-500:]}")
    return proc.stdout.strip(), wall


def cold_start(rounds: int) -> dict[str, Any]:
    """Median cold start over ``rounds`` fresh interpreters per variant, from compiled bytecode (one warm-up each).

    The warm-up compiles every module into a private bytecode folder (see :func:`_child_env`),
    as ``pip install`` does; the timed rounds then start as an installed package starts.
    """
    with tempfile.TemporaryDirectory(prefix="bench-bytecode-") as bytecode:
        for program in (_COLD_FULL, _COLD_UNITS, _COLD_PLAIN):
            _run_child(program, bytecode)
        full_in: list[float] = []
        full_wall: list[float] = []
        units_in: list[float] = []
        plain_in: list[float] = []
        plain_wall: list[float] = []
        for _ in range(rounds):  # interleaved, so drift hits every variant alike
            out, wall = _run_child(_COLD_FULL, bytecode)
            full_in.append(int(out.splitlines()[-1]) / 1e9)
            full_wall.append(wall / 1e9)
            out, _ = _run_child(_COLD_UNITS, bytecode)
            units_in.append(int(out.splitlines()[-1]) / 1e9)
            out, wall = _run_child(_COLD_PLAIN, bytecode)
            plain_in.append(int(out.splitlines()[-1]) / 1e9)
            plain_wall.append(wall / 1e9)
    return {
        "full_in_process_s": full_in,
        "full_wall_s": full_wall,
        "units_only_s": units_in,
        "plain_install_in_process_s": plain_in,
        "plain_install_wall_s": plain_wall,
    }


def lanes_memory(rounds: int) -> dict[str, Any]:
    """Peak RSS (MB) of ``python -m verifier lanes``, via a wrapper whose only child is that run."""
    if importlib.util.find_spec("resource") is None:  # the wrapper's resource module is Unix only
        return {"skipped": "resource module unavailable on this platform"}
    scale = 1024 * 1024 if sys.platform == "darwin" else 1024  # ru_maxrss: bytes on macOS, KiB on Linux
    peaks: list[float] = []
    seconds: list[float] = []
    codes: list[int] = []
    for _ in range(rounds):
        out, _ = _run_child(_LANES_WRAPPER)
        code, maxrss, ns = (int(x) for x in out.split())
        codes.append(code)
        peaks.append(maxrss * scale / 1e6)
        seconds.append(ns / 1e9)
    return {"peak_rss_mb": peaks, "wall_s": seconds, "exit_codes": codes}
