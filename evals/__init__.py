"""Scoring: the bundled eval lanes (JSONL data written for this project), their runner, and corpus scoring.

``evals.score(records)`` scores a corpus into an ``evals.Scoreboard`` (SPEC §9); the
names load on first use, so ``import evals`` is cheap.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from evals.scoreboard import Scoreboard, score

__all__ = ["Scoreboard", "score"]


def __getattr__(name: str) -> Any:
    if name == "__version__":  # the distribution's version, read on first use
        from units.version import distribution_version

        return distribution_version()
    if name in __all__:
        from evals import scoreboard

        return getattr(scoreboard, name)
    raise AttributeError(f"module 'evals' has no attribute {name!r}")


def __dir__() -> list[str]:
    """The public names (``__all__`` and ``__version__``), not the submodules imported on the way."""
    return sorted({*__all__, "__version__"})
