"""Typed refusals: the one base every project error derives from, and those the ``units`` package raises.

Imports nothing from the rest of the project.  The closed vocabulary of reasons is
:mod:`units.reasons`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from units.reasons import REFUSAL_REASONS, UNIT_REASONS, RefusalReason, UnitReason


class RefusalError(ValueError):
    """Base of every typed refusal the project raises, so one ``except RefusalError`` catches them all.

    Subclasses: :class:`UnitRefusal` (units), ``verifier.BindingGraphError`` (the model),
    ``adapters.MathGraphError`` (every adapter), ``verifier.targets.QuestionTargetError``
    and ``verifier.expr.EvaluationError``.

    Attributes:
        reason: one of :data:`units.reasons.REFUSAL_REASONS` (a subclass may narrow it:
            :attr:`reasons`).
        detail: what is wrong, with the expected and found values.
        subject: the offending value, verbatim, or ``""``.
        path: where in the input it was found (``"facts[2].unit"``), or ``""``.

    Raises:
        ValueError: at construction, for a reason outside :attr:`reasons`.
    """

    reasons: ClassVar[frozenset[str]] = REFUSAL_REASONS
    """The reasons this class may carry."""
    reasons_name: ClassVar[str] = "refusal"
    """What :attr:`reasons` are called in the error for a reason outside them."""

    def __init__(self, reason: RefusalReason, detail: str, subject: object = "", path: str = "") -> None:
        if reason not in type(self).reasons:
            raise ValueError(f"not a {type(self).reasons_name} reason: {reason!r}")
        super().__init__(reason, detail, subject, path)  # keeps args, so it pickles
        self.reason = reason
        self.detail = detail
        self.subject = subject
        self.path = path

    def explain(self) -> str:
        """The message without its reason: ``'feets' at facts[2].unit: not in en_units_v1``."""
        where = f" at {self.path}" if self.path else ""
        return f"{clip(self.subject)}{where}: {self.detail}"

    def __str__(self) -> str:
        return f"{self.reason}: {self.explain()}"

    def __reduce__(self) -> tuple[object, ...]:
        return (type(self), (self.reason, self.detail, self.subject, self.path))


class DetailRefusal(RefusalError):
    """A refusal that names no input value or field: just ``(reason, detail)``; its message is the detail.

    The base of ``verifier.targets.QuestionTargetError``, ``verifier.expr.EvaluationError``
    and the admissibility checks' internal refusal.
    """

    def __init__(self, reason: RefusalReason, detail: str) -> None:
        super().__init__(reason, detail)
        self.args = (reason, detail)

    def explain(self) -> str:
        """The detail (there is no subject or path to name)."""
        return self.detail

    def __reduce__(self) -> tuple[object, ...]:
        return (type(self), (self.reason, self.detail))


class UnitRefusal(RefusalError):
    """A unit question the closed vocabulary cannot answer exactly.

    Attributes:
        reason: one of :data:`UNIT_REASONS`.
        detail: a short human-readable explanation (expected vs found, hint).
        subject: the offending surface or value, verbatim.
        path: where in the input the subject was found (``"facts[2].unit"``), or ``""``.

    Raises:
        ValueError: at construction, if ``reason`` is not a unit refusal reason.
    """

    reasons: ClassVar[frozenset[str]] = UNIT_REASONS
    reasons_name: ClassVar[str] = "unit refusal"


class LazyDetailRefusal(UnitRefusal):
    """A :class:`UnitRefusal` whose detail (a "did you mean" hint) is worked out only when it is read.

    Raising and catching one costs nothing beyond the exception; :attr:`detail`,
    :meth:`explain`, ``str()`` and pickling compute it once.  It pickles as a plain
    :class:`UnitRefusal` carrying the computed detail.
    """

    def __init__(
        self, reason: RefusalReason, make_detail: Callable[[], str], subject: object = "", path: str = ""
    ) -> None:
        super().__init__(reason, "", subject, path)
        self._make_detail: Callable[[], str] | None = make_detail

    @property
    def detail(self) -> str:
        """The explanation, computed on first read."""
        if self._make_detail is not None:
            self._detail = self._make_detail()
            self._make_detail = None
        return self._detail

    @detail.setter
    def detail(self, value: str) -> None:
        self._detail = value

    def __reduce__(self) -> tuple[type[UnitRefusal], tuple[object, ...]]:
        return (UnitRefusal, (self.reason, self.detail, self.subject, self.path))

    def __repr__(self) -> str:
        """As the :class:`UnitRefusal` it pickles as, detail included (``args`` holds no detail: it is made late)."""
        return f"UnitRefusal({self.reason!r}, {self.detail!r}, {self.subject!r}, {self.path!r})"


class LexiconError(UnitRefusal):
    """A lexicon or conversions file with one or more bad rows.

    Every bad row is checked and reported together: :attr:`errors` is a tuple of
    per-row :class:`UnitRefusal` objects, each naming its line and field.  It is a
    ``UnitRefusal`` (reason ``malformed_input``), so ``except UnitRefusal`` catches it.
    """

    def __init__(self, source: str, errors: tuple[UnitRefusal, ...]) -> None:
        first = errors[0] if errors else None
        detail = f"{len(errors)} bad row(s); first: {first}" if first else "no rows"
        super().__init__("malformed_input", detail, source)
        self.args = (source, errors)
        self.errors = errors

    def __reduce__(self) -> tuple[object, ...]:
        return (type(self), (self.subject, self.errors))


def clip(value: object, limit: int = 80) -> str:
    """``repr`` of an input value for a message, clipped to about ``limit`` characters; never raises.

    A value whose ``repr`` is longer is cut and followed by its length
    (``'aaaa...' (10000000 chars)``); a huge string is sliced before ``repr`` so it is
    never copied whole; an int too long to print (Python's 4,300-digit limit) is shown
    by its digit count; a value whose ``repr`` fails (deep nesting, a broken
    ``__repr__``) is shown by its type.  Every message quoting input goes through here,
    so a refusal's text is small and formatting it cannot hide the refusal.
    """
    if isinstance(value, str) and len(value) > limit:
        return f"{value[: limit - 3]!r}... ({len(value)} chars)"
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 4 * limit:
        return f"<int of about {int(value.bit_length() * 0.30103) + 1} digits>"
    try:
        text = repr(value)
    except Exception:  # noqa: BLE001 -- any input value's __repr__ may raise anything; a message must never crash and hide the refusal
        return f"<{type(value).__name__}>"
    return text if len(text) <= limit else f"{text[: limit - 3]}... ({len(text)} chars)"


__all__ = [
    "UNIT_REASONS",
    "DetailRefusal",
    "LazyDetailRefusal",
    "LexiconError",
    "RefusalError",
    "UnitReason",
    "UnitRefusal",
    "clip",
]
