"""The few right-hand sides an adapter writes, built as sympy's arithmetic builds them, without its flatten.

An adapter writes five shapes: ``x + c`` (a change), ``c * x`` (a comparison's factor),
``x * y`` (a scale, a rate, a share), ``x / y`` (a divide, a partition) and ``x - y`` (a
comparison's gap).  Sympy's ``+``, ``*`` and ``/`` build each by flattening and sorting
their arguments, which costs 10 to 45 us a call for symbols it has not seen (its cache
only helps with expressions built before), and binding a graph builds a few of them.

The functions here build the very object that arithmetic returns: equal, with the same
hash and the same ``args`` in the same order, which is sympy's canonical order (a number
first, then the terms sorted by the public :meth:`sympy.Basic.compare`, as
``Add.flatten``/``Mul.flatten`` sort them).  A one-time probe (:func:`fast_forms_agree`)
compares both ways of building on sample names when first asked; if the installed sympy
builds anything differently, every function falls back to plain sympy arithmetic, so a
different sympy can cost time but never change an expression.
``tests/property/test_forms.py`` checks the same agreement on drawn names and numbers.
"""

from __future__ import annotations

import functools
from fractions import Fraction
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import sympy
else:
    from verifier.lazy import sympy

from verifier.expr import rational, symbol


def _compare(a: sympy.Basic, b: sympy.Basic) -> int:
    return int(a.compare(b))


_CANONICAL_ORDER = functools.cmp_to_key(_compare)
"""The sort key of ``Add.flatten``/``Mul.flatten``: the public ``Basic.compare``."""


def _sorted(terms: tuple[sympy.Expr, ...]) -> tuple[sympy.Expr, ...]:
    return tuple(sorted(terms, key=_CANONICAL_ORDER))


def _add(coefficient: sympy.Rational | None, terms: tuple[sympy.Expr, ...]) -> sympy.Expr:
    args = _sorted(terms)
    return sympy.Add._from_args((coefficient, *args) if coefficient is not None else args, is_commutative=True)  # noqa: SLF001  # sympy's constructor for canonical args


def _mul(coefficient: sympy.Rational | None, terms: tuple[sympy.Expr, ...]) -> sympy.Expr:
    args = _sorted(terms)
    return sympy.Mul._from_args((coefficient, *args) if coefficient is not None else args, is_commutative=True)  # noqa: SLF001  # as above


def _plain_sum(state: str | None, constant: Fraction) -> sympy.Expr:
    return (symbol(state) if state is not None else sympy.Integer(0)) + rational(constant)


def _plain_multiple(constant: Fraction, name: str) -> sympy.Expr:
    return rational(constant) * symbol(name)


def _plain_product(a: str, b: str) -> sympy.Expr:
    return symbol(a) * symbol(b)


def _plain_quotient(a: str, b: str) -> sympy.Expr:
    return symbol(a) / symbol(b)


def _plain_difference(a: str, b: str) -> sympy.Expr:
    return symbol(a) - symbol(b)


def _fast_sum(state: str | None, constant: Fraction) -> sympy.Expr:
    number = rational(constant)  # decided on sympy's number: a Fraction subclass may compare and hash as it likes
    if state is None or number is sympy.S.Zero:
        return _plain_sum(state, constant)  # a number alone, or the state alone: nothing to flatten
    return _add(number, (symbol(state),))


def _fast_multiple(constant: Fraction, name: str) -> sympy.Expr:
    number = rational(constant)  # as above
    if number is sympy.S.Zero or number is sympy.S.One:
        return _plain_multiple(constant, name)
    return _mul(number, (symbol(name),))


def _fast_product(a: str, b: str) -> sympy.Expr:
    if a == b:
        return _plain_product(a, b)  # x * x is a power
    return _mul(None, (symbol(a), symbol(b)))


def _fast_quotient(a: str, b: str) -> sympy.Expr:
    if a == b:
        return _plain_quotient(a, b)  # x / x is 1
    return _mul(None, (symbol(a), sympy.Pow(symbol(b), sympy.S.NegativeOne, evaluate=False)))


def _fast_difference(a: str, b: str) -> sympy.Expr:
    if a == b:
        return _plain_difference(a, b)  # x - x is 0
    return _add(None, (symbol(a), sympy.Mul._from_args((sympy.S.NegativeOne, symbol(b)), is_commutative=True)))  # noqa: SLF001


_PROBE_NAMES = (("a", "b"), ("b", "a"), ("q_sam_apples_t0", "op_000__multiplicand"), ("E", "I"), ("x1", "X1"))
_PROBE_NUMBERS = (Fraction(3), Fraction(-3), Fraction(7, 2), Fraction(-1), Fraction(2))


def _same(a: sympy.Basic, b: sympy.Basic) -> bool:
    """Equal, equally hashed, of one type, with the same arguments in the same order, all the way down."""
    if type(a) is not type(b) or a != b or hash(a) != hash(b) or len(a.args) != len(b.args):
        return False
    if a.is_commutative != b.is_commutative:
        return False
    return all(_same(x, y) for x, y in zip(a.args, b.args, strict=True))


@functools.cache
def fast_forms_agree() -> bool:
    """True when this sympy builds every probed shape here exactly as its arithmetic does (checked once)."""
    for a, b in _PROBE_NAMES:
        pairs = [
            (_fast_product(a, b), _plain_product(a, b)),
            (_fast_quotient(a, b), _plain_quotient(a, b)),
            (_fast_difference(a, b), _plain_difference(a, b)),
        ]
        for c in _PROBE_NUMBERS:
            pairs += [(_fast_sum(a, c), _plain_sum(a, c)), (_fast_multiple(c, b), _plain_multiple(c, b))]
        if not all(_same(fast, plain) for fast, plain in pairs):
            return False
    return True


def sum_with_constant(state: str | None, constant: Fraction) -> sympy.Expr:
    """``state + constant`` (``0 + constant`` when ``state`` is ``None``), as sympy's ``+`` builds it.

    Args:
        state: a symbol id, or ``None`` for a holding that starts from zero.
        constant: the exact amount added (negative for an amount taken away).
    """
    return _fast_sum(state, constant) if fast_forms_agree() else _plain_sum(state, constant)


def multiple_of(constant: Fraction, name: str) -> sympy.Expr:
    """``constant * name``, as sympy's ``*`` builds it (a factor of 1 leaves the symbol)."""
    return _fast_multiple(constant, name) if fast_forms_agree() else _plain_multiple(constant, name)


def product_of(a: str, b: str) -> sympy.Expr:
    """``a * b`` of two symbol ids, as sympy's ``*`` builds it."""
    return _fast_product(a, b) if fast_forms_agree() else _plain_product(a, b)


def quotient_of(a: str, b: str) -> sympy.Expr:
    """``a / b`` of two symbol ids, as sympy's ``/`` builds it (``a * b**-1``)."""
    return _fast_quotient(a, b) if fast_forms_agree() else _plain_quotient(a, b)


def difference_of(a: str, b: str) -> sympy.Expr:
    """``a - b`` of two symbol ids, as sympy's ``-`` builds it (``a + (-1)*b``)."""
    return _fast_difference(a, b) if fast_forms_agree() else _plain_difference(a, b)


__all__ = ["difference_of", "fast_forms_agree", "multiple_of", "product_of", "quotient_of", "sum_with_constant"]
