"""The closed vocabulary of operation kinds, in a module that imports nothing (so ``bgverify --help`` stays fast)."""

from __future__ import annotations

from typing import Final

OPERATION_KINDS: Final[tuple[str, ...]] = (
    "add",
    "subtract",
    "transfer",
    "multiply",
    "divide",
    "apply_rate",
    "compare_additive",
    "compare_multiplicative",
    "unit_partition",
    "fraction_portion",
)
"""The ten operation kinds (ADR-0115, SPEC §4)."""

__all__ = ["OPERATION_KINDS"]
