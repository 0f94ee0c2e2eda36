"""The reference: a minimal integer-exponent-vector admissibility algebra (upstream ADR-0134 style).

It owns :class:`ReferenceAlgebra`, its ``semantic_domains`` → exponents table, the vector
helpers (product, quotient, rendering) and :class:`ReferenceRefusal`; the check_equation
metrics time it beside the verifier on the same mix.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Final

from benchmarks.paths import LEXICON_PATH
from benchmarks.upstream_shape import DOMAIN_AXES, render
from units import BASE_DIMENSIONS
from verifier import BoundEquation, SymbolBinding

_DOMAIN_AXES: Final[dict[str, dict[str, int]]] = DOMAIN_AXES
"""``semantic_domains`` → exponents (the upstream-shape reference's table: one table for both references)."""

_ADDITIVE: Final[frozenset[str]] = frozenset({"add", "subtract", "transfer", "compare_additive"})
Vec = tuple[int, int, int, int, int, int]
_ZERO: Final[Vec] = (0, 0, 0, 0, 0, 0)
_COUNT_VEC: Final[Vec] = (0, 0, 0, 0, 1, 0)
_BINARY: Final[int] = 2  # operands of the two-operand forms: a divide by a __divisor, apply_rate, unit_partition


class ReferenceRefusal(Exception):
    """A refusal of the reference algebra (a reason string)."""


def _vec_str(vec: Vec) -> str:
    """The upstream dimension text (one renderer for both references: the axes are in one order)."""
    return render(vec)


def _mul(a: Vec, b: Vec) -> Vec:
    """The product's vector: exponents added."""
    return tuple(x + y for x, y in zip(a, b, strict=True))  # type: ignore[return-value]


def _div(a: Vec, b: Vec) -> Vec:
    """The quotient's vector: exponents subtracted."""
    return tuple(x - y for x, y in zip(a, b, strict=True))  # type: ignore[return-value]


class ReferenceAlgebra:
    """A minimal integer-exponent-vector admissibility algebra (upstream ADR-0134 style).

    One dict from lexicon surface and lemma to a 6-tuple over
    :data:`units.BASE_DIMENSIONS`, built once from the lexicon's ``semantic_domains``.
    Per kind: additive = all vectors equal; multiply = product; divide = quotient;
    apply_rate = rate * quantity with the rate's denominator cancelling;
    compare_multiplicative = dimensionless; unit_partition = state over a chunk of the
    same vector, a count; fraction_portion = a count.  No kinds within a dimension, no
    factors, no currencies: the work a plain exponent algebra does, nothing more.
    """

    def __init__(self, lexicon_path: Path = LEXICON_PATH) -> None:
        """Read the lexicon JSONL once."""
        axis = {name: i for i, name in enumerate(BASE_DIMENSIONS)}
        table: dict[str, Vec] = {}
        for line in lexicon_path.read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            row = json.loads(line)
            axes = next(
                (_DOMAIN_AXES[d] for d in row.get("semantic_domains", ()) if d in _DOMAIN_AXES),
                None,
            )
            if axes is None:
                continue
            exps = [0] * len(BASE_DIMENSIONS)
            for name, power in axes.items():
                exps[axis[name]] += power
            vec: Vec = tuple(exps)  # type: ignore[assignment]
            table[row["surface"]] = vec
            table.setdefault(row["lemma"], vec)
        self.table = table

    def vector(self, unit: str) -> Vec:
        """The vector of a surface, lemma or ``X_per_Y`` id."""
        vec = self.table.get(unit)
        if vec is not None:
            return vec
        head, sep, tail = unit.partition("_per_")
        if sep and head and tail and "_per_" not in tail:
            return _div(self.vector(head), self.vector(tail))
        raise ReferenceRefusal("unknown_unit")

    def _dep(self, symbols: Mapping[str, SymbolBinding], dep: str) -> Vec:
        """The vector of one dependency's unit (a unit-less ratio is dimensionless)."""
        binding = symbols.get(dep)
        if binding is None:
            raise ReferenceRefusal("unknown_symbol")
        if binding.unit is None:
            if binding.semantic_role == "ratio":
                return _ZERO
            raise ReferenceRefusal("unit_unbound")
        return self.vector(binding.unit)

    def check(self, eq: BoundEquation, symbols: Mapping[str, SymbolBinding]) -> str:
        """``"<kind>: [<dims in sorted dep order>] -> <dim>"``, or ``"refused <reason>"``."""
        try:
            return self._check(eq, symbols)
        except ReferenceRefusal as exc:
            return f"refused {exc}"

    def _check(self, eq: BoundEquation, symbols: Mapping[str, SymbolBinding]) -> str:
        """The admitted proof string, or raise :class:`ReferenceRefusal` with the reason."""
        kind = eq.operation_kind
        names = sorted(eq.dependencies)
        vecs = [self._dep(symbols, dep) for dep in names]
        if kind in _ADDITIVE:
            result = _additive(vecs + ([self.vector(eq.literal_unit)] if eq.literal_unit is not None else []))
        elif kind == "multiply":
            result = functools.reduce(_mul, vecs, _ZERO)
        elif kind == "divide":
            result = _divide(names, vecs)
        elif kind == "apply_rate":
            result = _apply_rate(names, vecs, symbols)
        elif kind == "compare_multiplicative":
            result = _ZERO
        elif kind == "unit_partition":
            if len(vecs) != _BINARY or vecs[0] != vecs[1]:
                raise ReferenceRefusal("unit_mismatch")
            result = _COUNT_VEC
        elif kind == "fraction_portion":
            if len(vecs) != 1 or vecs[0] != _COUNT_VEC:
                raise ReferenceRefusal("unit_mismatch")
            result = _COUNT_VEC
        else:
            raise ReferenceRefusal("unknown_operation")
        return f"{kind}: [{','.join(_vec_str(v) for v in vecs)}] -> {_vec_str(result)}"


def _additive(operands: Sequence[Vec]) -> Vec:
    """An additive kind's result: the one vector all operands (the literal's included) share."""
    if not operands:
        raise ReferenceRefusal("operand_arity")
    if any(v != operands[0] for v in operands[1:]):
        raise ReferenceRefusal("unit_mismatch")
    return operands[0]


def _divide(names: Sequence[str], vecs: Sequence[Vec]) -> Vec:
    """A divide's result: the one operand over a literal, or the dividend over the ``__divisor`` operand."""
    if len(vecs) == 1:
        return vecs[0]
    if len(vecs) == _BINARY and sum(n.endswith("__divisor") for n in names) == 1:
        divisor = 0 if names[0].endswith("__divisor") else 1
        return _div(vecs[1 - divisor], vecs[divisor])
    raise ReferenceRefusal("operand_arity")


def _apply_rate(names: Sequence[str], vecs: Sequence[Vec], symbols: Mapping[str, SymbolBinding]) -> Vec:
    """An apply_rate's result: rate * quantity, where the quantity is exactly the rate's denominator."""
    rates = [i for i, n in enumerate(names) if symbols[n].semantic_role == "rate"]
    if len(vecs) != _BINARY or len(rates) != 1:
        raise ReferenceRefusal("rate_form_invalid")
    rate, quantity = vecs[rates[0]], vecs[1 - rates[0]]
    denominator: Vec = tuple(-e if e < 0 else 0 for e in rate)  # type: ignore[assignment]
    if denominator == _ZERO or quantity != denominator:
        raise ReferenceRefusal("rate_form_invalid")
    return _mul(rate, quantity)
