"""Scoring: the bundled eval lanes (JSONL data written for this project), their runner, and corpus scoring.

``evals.score(records)`` scores a corpus into an ``evals.Scoreboard`` (SPEC §9); the
names load on first use, so ``import evals`` is cheap.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from evals.scoreboard import Scoreboard, score

from verifier.lazy import package_hooks

__all__ = ["Scoreboard", "score"]


__getattr__, __dir__ = package_hooks(__name__, __all__, dict.fromkeys(__all__, "evals.scoreboard"))
