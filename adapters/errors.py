"""Typed errors of the adapters: each carries a reason from the closed vocabulary."""

from __future__ import annotations

from verifier.errors import TypedRefusalError


class MathGraphError(TypedRefusalError):
    """An input (math problem graph, relations, canonical text) that cannot be bound as given.

    ``reason`` is ``malformed_input``, ``input_too_large`` or ``unsafe_expression`` for bad
    input; ``state_unset``, ``redeclared_state``, ``ambiguous_reference``,
    ``division_by_zero`` (and the question-target reasons) for a graph whose meaning
    cannot be bound.  ``path`` names the field, e.g. ``"operations[2].operand.factor"``.
    """


__all__ = [
    "MathGraphError",
]
