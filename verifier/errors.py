"""Typed errors of the verifier: each carries a reason from :data:`~verifier.reasons.REFUSAL_REASONS`."""

from __future__ import annotations

from units import UnitVocabulary, default_vocabulary
from units.errors import RefusalError
from units.reasons import RefusalReason


class TypedRefusalError(RefusalError):
    """The verifier's and adapters' input errors: a closed ``reason``, a ``detail`` and the ``path`` of the field.

    A :class:`units.errors.RefusalError`, like every typed error of the project.

    Attributes:
        reason: one of :data:`~verifier.reasons.REFUSAL_REASONS`.
        detail: what is wrong, with the expected and found values.
        path: the field, e.g. ``"equations[2].rhs_canonical"``.

    Raises:
        ValueError: at construction, for a reason outside the closed vocabulary.
    """

    def __init__(self, reason: RefusalReason, detail: str, path: str = "") -> None:
        super().__init__(reason, detail, "", path)
        self.args = (reason, detail, path)

    def explain(self) -> str:
        """The message without its reason: ``at equations[2].rhs: ...`` (these errors name a field, not a value)."""
        return f"at {self.path}: {self.detail}" if self.path else self.detail

    def __str__(self) -> str:
        where = f" at {self.path}" if self.path else ""
        return f"{self.reason}{where}: {self.detail}"

    def __reduce__(self) -> tuple[object, ...]:
        return (type(self), (self.reason, self.detail, self.path))


class BindingGraphError(TypedRefusalError):
    """A binding graph (or one of its parts) that cannot be built as given.

    ``reason`` is ``malformed_input``, ``unsafe_expression``, ``input_too_large`` or
    ``division_by_zero`` (a literal zero divisor in an expression).
    """


def given_vocabulary(
    vocab: object, name: str = "vocab", *, error: type[TypedRefusalError] = BindingGraphError
) -> UnitVocabulary:
    """The vocabulary an entry point was given, or :func:`units.default_vocabulary` for ``None``.

    Args:
        vocab: what the caller passed.
        name: the argument's name, for the message and the path.
        error: the typed error to raise (the adapters raise their own, :class:`adapters.AdapterError`).

    Raises:
        BindingGraphError: (or ``error``) ``malformed_input`` at ``name`` for anything that is no
            :class:`~units.UnitVocabulary` (a string had raised ``AttributeError`` deep inside).
    """
    if vocab is None:
        return default_vocabulary()
    if not isinstance(vocab, UnitVocabulary):
        raise error("malformed_input", f"{name} must be a UnitVocabulary, found {type(vocab).__name__}", name)
    return vocab


__all__ = [
    "BindingGraphError",
    "TypedRefusalError",
    "given_vocabulary",
]
