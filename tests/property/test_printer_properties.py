"""The fast printer of common shapes gives exactly sympy's ``sstr(order="lex")`` text."""

from __future__ import annotations

from fractions import Fraction

import pytest
import sympy
from hypothesis import given
from hypothesis import strategies as st

from units.exact import format_exact
from verifier.expr import _print_simple, parse_expression, print_expression, rational_text

_NAMES = st.sampled_from(["a", "b", "q_ana_feet_t0", "op_001__divisor", "Z", "x1", "_u", "op_000_result", "E", "N"])
_NUMBERS = st.fractions(min_value=-50, max_value=50, max_denominator=12)


@st.composite
def shapes(draw: st.DrawFn) -> sympy.Expr:
    """Sums of signed symbols and a constant, products, quotients, scaled symbols, atoms."""
    kind = draw(st.sampled_from(["sum", "product", "quotient", "scaled", "symbol", "number"]))
    if kind == "sum":
        names = draw(st.lists(_NAMES, min_size=1, max_size=4, unique=True))
        terms = [sympy.Symbol(n) * draw(st.sampled_from([1, -1])) for n in names]
        constant = draw(_NUMBERS)
        return sympy.Add(*terms, sympy.Rational(constant.numerator, constant.denominator))
    if kind in ("product", "quotient"):
        a, b = draw(st.lists(_NAMES, min_size=2, max_size=2, unique=True))
        return sympy.Symbol(a) * sympy.Symbol(b) if kind == "product" else sympy.Symbol(a) / sympy.Symbol(b)
    if kind == "scaled":
        value = draw(_NUMBERS)
        return sympy.Rational(value.numerator, value.denominator) * sympy.Symbol(draw(_NAMES))
    if kind == "symbol":
        return sympy.Symbol(draw(_NAMES))
    value = draw(_NUMBERS)
    return sympy.Rational(value.numerator, value.denominator)


@given(shapes())
def test_fast_printer_matches_sympy(expr: sympy.Expr) -> None:
    """Where the fast printer answers, its text is sympy's own, and it reads back to the same expression."""
    fast = _print_simple(expr)
    if fast is not None:
        assert fast == sympy.sstr(expr, order="lex")
    assert print_expression(expr) == sympy.sstr(expr, order="lex")
    assert parse_expression(print_expression(expr)) == expr


def test_fast_printer_leaves_unusual_written_trees_to_sympy() -> None:
    """Hand-built unevaluated trees (``b*a``, ``a + 0``) print exactly as sympy prints them."""
    a, b = sympy.Symbol("a"), sympy.Symbol("b")
    for expr in (sympy.Mul(b, a, evaluate=False), sympy.Add(a, sympy.Integer(0), evaluate=False)):
        assert print_expression(expr) == sympy.sstr(expr, order="lex")


@given(st.fractions(max_denominator=10**12).filter(lambda f: abs(f) < 10**30))
def test_rational_text_is_sympys_str(value: Fraction) -> None:
    """A report's magnitudes and answers are written as ``str`` writes the sympy number."""
    number = sympy.Rational(value.numerator, value.denominator)
    assert rational_text(number) == str(number)
    assert rational_text(number) == format_exact(value)


@pytest.mark.parametrize(
    ("number", "text"),
    [
        (sympy.S.Zero, "0"),
        (sympy.S.One, "1"),
        (sympy.S.NegativeOne, "-1"),
        (sympy.S.Half, "1/2"),
        (sympy.Rational(-7, 2), "-7/2"),
        (sympy.Integer(10**40), str(10**40)),
    ],
)
def test_rational_text_of_sympys_singletons(number: sympy.Rational, text: str) -> None:
    """The singleton numbers of sympy (``S.Half`` is a ``Rational`` subclass of its own) print as ``str`` does."""
    assert rational_text(number) == text == str(number)
