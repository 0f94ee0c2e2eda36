"""Readers for the ``from_json`` classmethods: each checks one JSON value's shape and type (STYLE §3).

Every reader takes the value and the ``path`` it sits at, and raises
:class:`~verifier.errors.BindingGraphError` (``malformed_input``) naming that path when
the value is not what the field holds.  A bool is not an int, and nothing is coerced:
an exact number is read from its string (``"7/2"``), never from a float.
"""

from __future__ import annotations

from fractions import Fraction

from units import DimensionVector, RefusalError, UnitRefusal
from units.exact import is_text, json_kind, parse_exact, text_kind
from verifier.errors import BindingGraphError


def json_object(
    data: object,
    path: str,
    required: set[str] | frozenset[str],
    optional: set[str] | frozenset[str],
    *,
    error: type[RefusalError] = BindingGraphError,
) -> dict[str, object]:
    """``data`` as a JSON object holding every ``required`` key and no key outside ``required | optional``.

    Args:
        data: the value read.
        path: where it sits, for messages.
        required: the keys it must hold.
        optional: the keys it may hold besides.
        error: the typed error to raise (the adapters raise their own,
            :class:`adapters.AdapterError`).

    Raises:
        BindingGraphError: (or ``error``) ``malformed_input``: not an object, a key
            missing (all named, sorted, with any unknown keys beside them: a misspelling
            is both), or an unknown key (all named, sorted).
    """
    if not isinstance(data, dict):
        raise error("malformed_input", f"expected an object, found {json_kind(data)}", path)
    keys = data.keys()
    if keys >= required and (keys <= required or keys <= required | optional):
        return data  # the common case: no sorting, no messages
    missing = sorted(required - set(data))
    unknown = sorted(set(data) - required - optional, key=str)  # a dict built in Python may hold other keys
    if missing:  # a misspelled key is both: name the one found beside the one missing
        found = f"; found the unknown field(s) {unknown}" if unknown else ""
        raise error("malformed_input", f"missing field(s) {missing}{found}", path)
    if unknown:
        raise error("malformed_input", f"unknown field(s) {unknown}", path)
    return data


def json_optional_text(value: object, path: str) -> str | None:
    """A string or ``None`` (JSON null).

    Raises:
        BindingGraphError: ``malformed_input`` for any other value.
    """
    if value is None or is_text(value):
        return value
    raise BindingGraphError("malformed_input", f"expected a string or null, found {text_kind(value)}", path)


def json_text(value: object, path: str) -> str:
    """A string (never ``None``).

    Raises:
        BindingGraphError: ``malformed_input`` for any other value.
    """
    if is_text(value):
        return value
    raise BindingGraphError("malformed_input", f"expected a string, found {text_kind(value)}", path)


def json_list(value: object, path: str) -> list[object]:
    """A JSON array.

    Raises:
        BindingGraphError: ``malformed_input`` for any other value.
    """
    if isinstance(value, list):
        return value
    raise BindingGraphError("malformed_input", f"expected an array, found {json_kind(value)}", path)


def json_members(value: object, path: str) -> list[tuple[str, object]]:
    """A JSON object's ``(key, value)`` members in the object's order, the values still unread.

    Raises:
        BindingGraphError: ``malformed_input`` for a non-object.
    """
    if not isinstance(value, dict):
        raise BindingGraphError("malformed_input", f"expected an object, found {json_kind(value)}", path)
    return list(value.items())


def json_pairs(value: object, path: str) -> tuple[tuple[str, str], ...]:
    """A JSON object of strings as ``(key, value)`` pairs, in the object's order.

    Raises:
        BindingGraphError: ``malformed_input`` for a non-object or a non-string value.
    """
    return tuple((key, json_text(item, f"{path}.{key}")) for key, item in json_members(value, path))


def json_fraction(value: object, path: str) -> Fraction:
    """An exact number from its string (``"3"``, ``"-7/2"``), as :func:`units.exact.format_exact` writes it.

    Raises:
        BindingGraphError: ``malformed_input`` for a non-string or a string that is no exact number.
    """
    text = json_text(value, path)
    try:
        return parse_exact(text, path=path)
    except UnitRefusal as exc:
        raise BindingGraphError("malformed_input", exc.explain(), path) from None


def json_dimension(value: object, path: str) -> DimensionVector:
    """A :class:`units.DimensionVector` from its canonical string (:meth:`units.DimensionVector.from_json`).

    Raises:
        BindingGraphError: ``malformed_input`` (or ``input_too_large``) naming ``path``.
    """
    try:
        return DimensionVector.from_json(value, path=path)
    except UnitRefusal as exc:
        raise BindingGraphError(exc.reason, exc.explain(), path) from None


__all__ = [
    "json_dimension",
    "json_fraction",
    "json_list",
    "json_members",
    "json_object",
    "json_optional_text",
    "json_pairs",
    "json_text",
]
