"""Typed errors of the verifier: each carries a reason from :data:`~verifier.reasons.REFUSAL_REASONS`."""

from __future__ import annotations

from verifier.reasons import REFUSAL_REASONS


class TypedRefusalError(ValueError):
    """Base of the project's typed input errors: a closed ``reason``, a ``detail`` and the ``path`` of the field.

    Attributes:
        reason: one of :data:`~verifier.reasons.REFUSAL_REASONS`.
        detail: what is wrong, with the expected and found values.
        path: the field, e.g. ``"equations[2].rhs_canonical"``.

    Raises:
        ValueError: at construction, for a reason outside the closed vocabulary.
    """

    def __init__(self, reason: str, detail: str, path: str = "") -> None:
        if reason not in REFUSAL_REASONS:
            raise ValueError(f"not a refusal reason: {reason!r}")
        super().__init__(reason, detail, path)  # keeps args, so it pickles
        self.reason = reason
        self.detail = detail
        self.path = path

    def __str__(self) -> str:
        where = f" at {self.path}" if self.path else ""
        return f"{self.reason}{where}: {self.detail}"


class BindingGraphError(TypedRefusalError):
    """A binding graph (or one of its parts) that cannot be built as given.

    ``reason`` is ``malformed_input``, ``unsafe_expression``, ``input_too_large`` or
    ``division_by_zero`` (a literal zero divisor in an expression).
    """


__all__ = [
    "BindingGraphError",
    "TypedRefusalError",
]
