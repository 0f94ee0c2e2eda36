"""Typed errors of the adapters: each carries a reason from the closed vocabulary."""

from __future__ import annotations

from verifier.reasons import REFUSAL_REASONS


class MathGraphError(ValueError):
    """An input (math problem graph, relations, canonical text) that cannot be bound as given.

    Attributes:
        reason: ``malformed_input``, ``input_too_large``, ``unsafe_expression`` for bad
            input; ``state_unset``, ``redeclared_state``, ``ambiguous_reference`` (and the
            question-target reasons) for graphs whose meaning cannot be bound.
        detail: what is wrong.
        path: the field, e.g. ``"operations[2].operand.factor"``.

    Raises:
        ValueError: at construction, for a reason outside the closed vocabulary.
    """

    def __init__(self, reason: str, detail: str, path: str = "") -> None:
        if reason not in REFUSAL_REASONS:
            raise ValueError(f"not a refusal reason: {reason!r}")
        super().__init__(reason, detail, path)
        self.reason = reason
        self.detail = detail
        self.path = path

    def __str__(self) -> str:
        where = f" at {self.path}" if self.path else ""
        return f"{self.reason}{where}: {self.detail}"
