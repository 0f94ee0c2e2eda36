"""Helpers shared by the adapters: exact numbers, slugs, synthetic spans, field checks."""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Mapping
from fractions import Fraction
from typing import TYPE_CHECKING, Final

from adapters.errors import MathGraphError
from units import UnitVocabulary
from units.errors import UnitRefusal, clip
from units.exact import breaks_line, format_exact, is_text, parse_exact, text_kind
from verifier.errors import given_vocabulary as checked_vocabulary
from verifier.jsonread import json_object
from verifier.model import BoundEquation, SemanticRole, SourceSpanLink, SymbolBinding
from verifier.roles import infer_roles

if TYPE_CHECKING:
    import sympy

MAX_NAME_CHARS: Final[int] = 128
_SLUG: Final = re.compile(r"[^a-z0-9]+")


def exact(value: object, path: str) -> Fraction:
    """An exact number from JSON data (int, exact string, or the text of a JSON number).

    Raises:
        MathGraphError: ``malformed_input`` (floats, bools, ``nan``, exponents …) or
            ``input_too_large``, naming the field.
    """
    try:
        return parse_exact(value, path=path)
    except UnitRefusal as exc:
        raise MathGraphError(exc.reason, f"{exc.detail} (found {clip(exc.subject)})", path) from None


def json_number(value: Fraction) -> object:
    """An ``int`` for a whole value, else the exact string ``"7/2"``."""
    return value.numerator if value.denominator == 1 else format_exact(value)


def name(value: object, path: str) -> str:
    """A non-empty, trimmed, one-line name (entity or unit surface).

    Raises:
        MathGraphError: ``malformed_input`` or ``input_too_large``.
    """
    if not is_text(value) or not value or value != value.strip():
        raise MathGraphError("malformed_input", f"expected a non-empty trimmed string, found {text_kind(value)}", path)
    if len(value) > MAX_NAME_CHARS:
        raise MathGraphError("input_too_large", f"longer than {MAX_NAME_CHARS} characters", path)
    if breaks_line(value):
        raise MathGraphError("malformed_input", "control characters or a lone surrogate in a name", path)
    return value


_UNPRINTABLE: Final = re.compile(r"[\x00-\x1f\x7f\ud800-\udfff]")


def record_id(value: object, path: str) -> str | int | None:
    r"""A record's ``id`` (metadata, printed in reports): a string of printable text, an int, or absent (``None``).

    Raises:
        MathGraphError: ``malformed_input`` for another type (a bool, a JSON number such as
            1.5, a list), or a string with a control character or a lone surrogate (``"\ud800"``
            in JSON: no UTF-8 output can hold it).
    """
    if value is None or (isinstance(value, int) and not isinstance(value, bool)):
        return value
    if not is_text(value):
        raise MathGraphError("malformed_input", f"an id is a string, found {text_kind(value)}", path)
    if _UNPRINTABLE.search(value):
        raise MathGraphError("malformed_input", "an id holds a control character or a lone surrogate", path)
    return value


def given_vocabulary(vocab: object, name: str = "vocab") -> UnitVocabulary:
    """:func:`verifier.errors.given_vocabulary` raising the adapters' error.

    Raises:
        MathGraphError: ``malformed_input`` for anything that is no :class:`~units.UnitVocabulary`.
    """
    return checked_vocabulary(vocab, name, error=MathGraphError)


def slug(text: str) -> str:
    """``"Mrs. Lee"`` → ``"mrs_lee"``; a name with no ASCII letters becomes ``"u"`` plus its code points."""
    out = _SLUG.sub("_", text.lower()).strip("_")
    if not out:
        out = "u" + "_".join(f"{ord(ch):x}" for ch in text)
    return out if not out[0].isdigit() else f"n{out}"


def span(source_id: str, text: str) -> SourceSpanLink:
    """A synthetic span ``source_id[0:len(text)]`` carrying ``text`` (no real offsets exist).

    Spans are immutable values, so one is shared by every symbol that names the same text.
    """
    return _span(source_id, text)


@functools.lru_cache(maxsize=16384)
def _span(source_id: str, text: str) -> SourceSpanLink:
    return SourceSpanLink(source_id=source_id, start=0, end=max(1, len(text)), text=text)


def clear_memos() -> None:
    """Forget the adapters' memoized spans (for benchmarks that must bind each graph afresh).

    :func:`verifier.expr.clear_memos` does the same for expressions.
    """
    _span.cache_clear()


def fields(
    data: object, path: str, required: set[str] | frozenset[str], optional: set[str] | frozenset[str]
) -> dict[str, object]:
    """Check an object's keys: all required present, nothing unknown (:func:`verifier.jsonread.json_object`).

    Raises:
        MathGraphError: ``malformed_input`` naming the missing or unknown field.
    """
    return json_object(data, path, required, optional, error=MathGraphError)


UPSTREAM_ROLE_SUFFIXES: Final[tuple[tuple[str, str], ...]] = (
    ("__multiplicand", "scalar"),
    ("__divisor", "divisor"),
    ("__rate", "rate"),
    ("__chunk", "chunk"),
    ("__share", "share"),
)
"""The upstream symbol-id conventions for literal operands (ADR-0133/0134); read only from upstream inputs."""


def upstream_roles(equation: BoundEquation, symbols: Mapping[str, SymbolBinding]) -> dict[str, str]:
    """Operand roles of an equation read from upstream input, which records none.

    The upstream suffixes (:data:`UPSTREAM_ROLE_SUFFIXES`) name the literal operands; every
    other dependency gets the role :func:`verifier.roles.infer_roles` derives from its
    semantic data.  Only the upstream readers (canonical text, equation records) call this.
    """
    roles = infer_roles(equation, symbols)
    for dep in roles:
        for suffix, role in UPSTREAM_ROLE_SUFFIXES:
            if dep.endswith(suffix):
                roles[dep] = role
    if equation.operation_kind in ("add", "subtract", "transfer", "compare_additive"):
        roles = {dep: ("operand" if role == "scalar" else role) for dep, role in roles.items()}
    return roles


def with_roles(equation: BoundEquation, roles: Mapping[str, str]) -> BoundEquation:
    """``equation`` recording ``roles`` (one per dependency), or unchanged when it has no dependencies."""
    if not equation.dependencies:
        return equation
    return dataclasses.replace(equation, operand_roles=tuple(sorted(roles.items())))


def bound_symbol(
    source_id: str,
    introduced_by: str,
    symbol_id: str,
    label: str,
    *,
    role: SemanticRole,
    entity: str | None,
    unit: str | None,
) -> SymbolBinding:
    """A symbol an adapter synthesizes: named ``label``, spanning it in the adapter's synthetic source."""
    return SymbolBinding(
        symbol_id=symbol_id,
        name=label,
        semantic_role=role,
        source_span=span(source_id, label),
        introduced_by=introduced_by,
        entity=entity,
        unit=unit,
    )


def bound_equation(
    source_id: str,
    lhs: str,
    rhs: sympy.Expr,
    *,
    kind: str,
    label: str,
    roles: Mapping[str, str],
    literal_unit: str | None = None,
    operation: int | None = None,
) -> BoundEquation:
    """An equation an adapter synthesizes (see :meth:`verifier.BoundEquation.create`), spanning ``label``."""
    return BoundEquation.create(
        lhs_symbol_id=lhs,
        rhs=rhs,
        operation_kind=kind,
        source_span=span(source_id, label),
        literal_unit=literal_unit,
        operand_roles=roles,
        operation=operation,
    )
