"""A deliberately naive admissibility check, for trying ``bgverify crosscheck --against``.

It has the upstream ``check_admissibility(equation, *, symbols)`` shape and the
six-axis algebra's blind spots: it compares only dimension vectors (so dollar + euro,
box + item and Celsius + Fahrenheit pass), knows only the additive kinds, and refuses
by raising an exception that carries a ``reason``.  Run from the project root::

    bgverify crosscheck --against examples.naive_admissibility:check --kind add --fuzz 2000
"""

from __future__ import annotations

from collections.abc import Mapping

from units import UnitRefusal, default_vocabulary
from verifier import BoundEquation, SymbolBinding

VOCAB = default_vocabulary()
ADDITIVE = frozenset({"add", "subtract", "transfer", "compare_additive"})


class AdmissibilityError(Exception):
    """A typed refusal: ``reason`` is read by the cross-check as theirs' verdict."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def _dimension(symbols: Mapping[str, SymbolBinding], symbol_id: str) -> str:
    unit = symbols[symbol_id].unit
    if unit is None:
        raise AdmissibilityError("unit_unbound")
    try:
        return VOCAB.dimension(unit).to_canonical_string()
    except UnitRefusal:
        raise AdmissibilityError("unknown_unit") from None


def check(equation: BoundEquation, *, symbols: Mapping[str, SymbolBinding]) -> str:
    """``"<kind>: [<dims>] -> <dim>"`` when every operand has one six-axis dimension, else raise."""
    if equation.operation_kind not in ADDITIVE:
        raise AdmissibilityError("unknown_operation")
    dims = [_dimension(symbols, dep) for dep in sorted(equation.dependencies)]
    if len(set(dims)) != 1:
        raise AdmissibilityError("unit_mismatch")
    return f"{equation.operation_kind}: [{','.join(dims)}] -> {dims[0]}"
