"""Operand roles: what part each dependency of an equation plays in its kind (data, not spelling).

An equation carries its operands' roles in ``BoundEquation.operand_roles``; the
admissibility checks and the holdings model read them from there.  When a graph
gives none (a hand-written binding graph), :func:`roles_of` derives them from the
symbols' *semantic data* (semantic role, owner entity, unit), never from symbol-id
spelling.  Reading the upstream canonical text, whose graphs carry no roles, is
the one place that derives roles from the upstream suffix conventions
(``adapters.canonical_text``).

Imports only the model.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    import sympy
else:
    from verifier.lazy import sympy

from verifier.model import OPERAND_ROLES, BoundEquation, SymbolBinding

STATE_ROLES: Final[frozenset[str]] = frozenset({"state", "quantity", "reference", "operand"})
"""Roles whose symbol may be a holding of an entity (the others are literal scalars, divisors, rates, chunks, shares)."""

__all__ = ["OPERAND_ROLES", "STATE_ROLES", "infer_roles", "roles_of"]


def roles_of(equation: BoundEquation, symbols: Mapping[str, SymbolBinding]) -> dict[str, str]:
    """The role of every dependency of ``equation``: the recorded ones, or derived (:func:`infer_roles`).

    Args:
        equation: the equation.
        symbols: the graph's symbols by id (a dependency missing there gets ``operand``).

    Returns:
        ``{dependency id: role}`` with roles from :data:`verifier.model.OPERAND_ROLES`.
    """
    if equation.operand_roles:
        return dict(equation.operand_roles)
    return infer_roles(equation, symbols)


def infer_roles(equation: BoundEquation, symbols: Mapping[str, SymbolBinding]) -> dict[str, str]:
    """Derive operand roles from the symbols' semantic data and the expression's shape.

    Rules, per dependency ``d`` (its binding ``b``; the lhs binding ``l``):

    * ``b.semantic_role == "rate"`` → ``rate``;
    * in a divide or unit_partition, the operand the right-hand side divides by → ``divisor`` / ``chunk``;
    * a unitless ``ratio`` symbol → ``share`` (fraction_portion) or ``scalar``;
    * an unowned symbol or one of the lhs's own entity → ``state`` (``quantity`` for apply_rate);
    * another entity's symbol → ``reference`` for a comparison, else ``operand``.
    """
    kind = equation.operation_kind
    lhs = symbols.get(equation.lhs_symbol_id)
    owner = lhs.entity if isinstance(lhs, SymbolBinding) else None
    below = _denominators(equation.rhs) if kind in _LITERAL_ROLE else frozenset()
    out: dict[str, str] = {}
    for dep in sorted(equation.dependencies):
        binding = symbols.get(dep)
        if not isinstance(binding, SymbolBinding):
            out[dep] = "operand"
        elif binding.semantic_role == "rate":
            out[dep] = "rate"
        elif dep in below:
            out[dep] = _LITERAL_ROLE[kind]
        elif binding.semantic_role == "ratio" and binding.unit is None and kind not in _ADDITIVE:
            out[dep] = "share" if kind == "fraction_portion" else "scalar"
        elif binding.entity is None or binding.entity == owner:
            out[dep] = "quantity" if kind == "apply_rate" else "state"
        else:
            out[dep] = "reference" if kind.startswith("compare") else "operand"
    return out


def _denominators(expr: object) -> frozenset[str]:
    """Names the product divides by (``b`` of ``a/b``; also ``z`` of ``q*z/z``, as written)."""
    out: set[str] = set()
    stack = [expr]
    while stack:
        node = stack.pop()
        if isinstance(node, sympy.Mul):
            stack.extend(node.args)
        elif isinstance(node, sympy.Pow) and isinstance(node.base, sympy.Symbol) and int(node.exp) < 0:
            out.add(node.base.name)
    return frozenset(out)


_LITERAL_ROLE: Final[dict[str, str]] = {"divide": "divisor", "unit_partition": "chunk"}
_ADDITIVE: Final[frozenset[str]] = frozenset({"add", "subtract", "transfer", "compare_additive"})
