"""Typed errors of the adapters: each carries a reason from the closed vocabulary."""

from __future__ import annotations

from verifier.errors import TypedRefusalError


class AdapterError(TypedRefusalError):
    """An input (math problem graph, relations, canonical text, records) that cannot be bound as given.

    Every adapter raises it; :data:`MathGraphError` is the same class under the name the
    SPEC gives it.

    ``reason`` is ``malformed_input``, ``input_too_large`` or ``unsafe_expression`` for bad
    input; ``state_unset``, ``redeclared_state``, ``ambiguous_reference``,
    ``division_by_zero`` (and the question-target reasons) for a graph whose meaning
    cannot be bound.  ``path`` names the field, e.g. ``"operations[2].operand.factor"``.
    """


MathGraphError = AdapterError
"""The SPEC's name for :class:`AdapterError` (the same class: ``except MathGraphError`` catches every adapter's error)."""

__all__ = [
    "AdapterError",
    "MathGraphError",
]
