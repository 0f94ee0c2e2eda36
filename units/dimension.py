"""Projection of registry dimensionalities onto the upstream six base dimensions.

Owns :data:`BASE_DIMENSIONS` and :class:`DimensionVector`.  Imports nothing from
the rest of the project.  The six axes and the canonical string format are those
of the upstream hand-rolled algebra (ADR-0134), so proofs compare string for string.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from units.errors import UnitRefusal

BASE_DIMENSIONS: Final[tuple[str, ...]] = ("length", "time", "mass", "money", "count", "temperature")
"""The six base dimensions, in the upstream order (ADR-0134)."""

MAX_DIMENSION_POWER: Final[int] = 64
"""The largest power :meth:`DimensionVector.from_json` reads (``input_too_large`` beyond; no unit comes near)."""

_AXIS_INDEX: Final[dict[str, int]] = {name: i for i, name in enumerate(BASE_DIMENSIONS)}
_CANONICAL: dict[tuple[int, ...], str] = {}  # exponents -> canonical string (a pure function, memoized)
_CANONICAL_CACHE_SIZE: Final[int] = 4096  # most memoized strings: a bound on memory, not on correctness
_MAX_CANONICAL_CHARS: Final[int] = 200  # longest text from_json reads (all six axes at MAX_DIMENSION_POWER spell 60)


@dataclass(frozen=True, slots=True, repr=False)
class DimensionVector:
    """Integer exponents over :data:`BASE_DIMENSIONS`.

    Attributes:
        exponents: a 6-tuple of ``int``; ``exponents[i]`` is the power of
            ``BASE_DIMENSIONS[i]``.  ``(0,)*6`` is dimensionless.

    Raises:
        UnitRefusal: ``malformed_input`` if ``exponents`` is not a 6-tuple of ints
            (a ``bool`` is not an int).
    """

    exponents: tuple[int, int, int, int, int, int]

    def __post_init__(self) -> None:
        exps: object = self.exponents  # typed, but an untyped caller may pass anything
        if not isinstance(exps, tuple) or len(exps) != len(BASE_DIMENSIONS) or any(type(e) is not int for e in exps):
            raise UnitRefusal("malformed_input", "exponents must be a 6-tuple of int", exps)

    @classmethod
    def from_axes(cls, axes: Mapping[str, int]) -> DimensionVector:
        """Build a vector from ``{"length": 1, "time": -1}``-style exponents.

        Raises:
            UnitRefusal: ``malformed_input`` for an axis outside :data:`BASE_DIMENSIONS`.
        """
        exps = [0] * len(BASE_DIMENSIONS)
        for axis, power in axes.items():
            if axis not in _AXIS_INDEX:
                raise UnitRefusal("malformed_input", f"not a base dimension; expected one of {BASE_DIMENSIONS}", axis)
            exps[_AXIS_INDEX[axis]] += power
        return cls(tuple(exps))  # type: ignore[arg-type]

    @property
    def is_dimensionless(self) -> bool:
        """True when every exponent is zero."""
        return not any(self.exponents)

    def __mul__(self, other: DimensionVector) -> DimensionVector:
        """Product: exponents add."""
        return DimensionVector(tuple(a + b for a, b in zip(self.exponents, other.exponents, strict=True)))  # type: ignore[arg-type]

    def __truediv__(self, other: DimensionVector) -> DimensionVector:
        """Quotient: exponents subtract."""
        return DimensionVector(tuple(a - b for a, b in zip(self.exponents, other.exponents, strict=True)))  # type: ignore[arg-type]

    def to_canonical_string(self) -> str:
        """Upstream format: ``length``, ``money/time``, ``length^3``, ``1/time``, ``dimensionless``.

        Positive powers form the numerator and negative powers the denominator,
        each joined by ``*`` in :data:`BASE_DIMENSIONS` order (ADR-0134).
        """
        cached = _CANONICAL.get(self.exponents)
        if cached is not None:
            return cached
        nums: list[str] = []
        dens: list[str] = []
        for name, power in zip(BASE_DIMENSIONS, self.exponents, strict=True):
            if power > 0:
                nums.append(name if power == 1 else f"{name}^{power}")
            elif power < 0:
                dens.append(name if power == -1 else f"{name}^{-power}")
        if not nums and not dens:
            text = "dimensionless"
        else:
            head = "*".join(nums) if nums else "1"
            text = f"{head}/{'*'.join(dens)}" if dens else head
        if len(_CANONICAL) < _CANONICAL_CACHE_SIZE:
            _CANONICAL[self.exponents] = text
        return text

    def to_json(self) -> str:
        """The canonical string (:meth:`to_canonical_string`); :meth:`from_json` reads it back."""
        return self.to_canonical_string()

    @classmethod
    def from_json(cls, data: object, /, *, path: str = "dimension") -> DimensionVector:
        """Read a canonical string (``"money/time"``, ``"length^3"``, ``"1/time"``, ``"dimensionless"``).

        Only the canonical spelling is read (axes in :data:`BASE_DIMENSIONS` order, no
        ``^1``, no repeated axis), so a vector has exactly one text and reads back equal.

        Raises:
            UnitRefusal: ``malformed_input`` naming ``path``, for anything else;
                ``input_too_large`` for a power above :data:`MAX_DIMENSION_POWER`.
        """
        if not isinstance(data, str) or not data or len(data) > _MAX_CANONICAL_CHARS:
            raise UnitRefusal("malformed_input", "a dimension is its canonical string", data, path)
        if data == "dimensionless":
            return DIMENSIONLESS
        head, _, tail = data.partition("/")
        exps = [0] * len(BASE_DIMENSIONS)
        for part, sign in ((head, 1), (tail, -1)):
            if (sign == 1 and part == "1" and tail) or (sign == -1 and not part):
                continue
            for factor in part.split("*"):
                axis, caret, power = factor.partition("^")
                if axis not in _AXIS_INDEX or (caret and not (power.isdigit() and power.isascii())):
                    raise UnitRefusal("malformed_input", f"not a base dimension power: {factor!r}", data, path)
                if caret and int(power) > MAX_DIMENSION_POWER:
                    raise UnitRefusal(
                        "input_too_large", f"a power above {MAX_DIMENSION_POWER}: {factor[:20]!r}", data[:40], path
                    )
                exps[_AXIS_INDEX[axis]] += sign * (int(power) if caret else 1)
        vector = cls(tuple(exps))  # type: ignore[arg-type]
        if vector.to_canonical_string() != data:
            raise UnitRefusal(
                "malformed_input", f"not the canonical spelling (that is {vector.to_canonical_string()!r})", data, path
            )
        return vector

    def __str__(self) -> str:
        return self.to_canonical_string()

    def __repr__(self) -> str:
        return f"DimensionVector({self.to_canonical_string()!r})"


DIMENSIONLESS: Final[DimensionVector] = DimensionVector((0, 0, 0, 0, 0, 0))
COUNT: Final[DimensionVector] = DimensionVector.from_axes({"count": 1})
"""The dimension of every count kind (items, apples, a dozen)."""
TEMPERATURE: Final[DimensionVector] = DimensionVector.from_axes({"temperature": 1})
"""The dimension of every temperature unit (Kelvin, Celsius, Fahrenheit, the unscaled degree)."""

__all__ = [
    "BASE_DIMENSIONS",
    "COUNT",
    "DIMENSIONLESS",
    "TEMPERATURE",
    "DimensionVector",
]
