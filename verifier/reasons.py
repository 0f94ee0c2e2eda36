"""The closed refusal vocabulary (SPEC §6): re-exported from :mod:`units.reasons`, its home in the lowest layer."""

from __future__ import annotations

from units.reasons import REASON_STAGES, REFUSAL_REASONS

__all__ = [
    "REASON_STAGES",
    "REFUSAL_REASONS",
]
