"""The closed vocabulary of operation kinds, in a module that imports nothing (so ``bgverify --help`` stays fast)."""

from __future__ import annotations

from typing import Final, Literal, TypeGuard, get_args

OperationKind = Literal[
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
]
"""An operation kind, as a type (ADR-0115, SPEC §4)."""

OPERATION_KINDS: Final[tuple[OperationKind, ...]] = get_args(OperationKind)
"""The ten operation kinds (ADR-0115, SPEC §4), in the order the SPEC lists them."""


def is_operation_kind(value: object) -> TypeGuard[OperationKind]:
    """Whether ``value`` is one of the ten operation kinds."""
    return isinstance(value, str) and value in OPERATION_KINDS


__all__ = ["OPERATION_KINDS", "OperationKind", "is_operation_kind"]
