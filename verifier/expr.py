"""Safe arithmetic expressions: our own parser, printer and exact evaluator.

Never calls ``eval``, ``exec``, ``sympify`` or ``parse_expr`` (SPEC §8, §11):
text becomes sympy objects built in code from symbol ids and exact rationals.

Grammar::

    expr   := term (("+" | "-") term)*
    term   := unary (("*" | "/") unary)*
    unary  := "-" unary | power
    power  := atom ("**" INT)?          |INT| <= MAX_EXPONENT
    atom   := NUMBER | IDENT | "(" expr ")"
    NUMBER := digits ("." digits)?       at most units.exact.MAX_DIGITS digits
    IDENT  := [A-Za-z_][A-Za-z0-9_]*     at most MAX_IDENT_CHARS characters

Anything else — calls, attributes, strings, brackets, ``^`` — is ``unsafe_expression``.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from fractions import Fraction
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    import sympy
else:
    from verifier.lazy import sympy

from units.errors import DetailRefusal, UnitRefusal
from units.exact import MAX_DIGITS, parse_exact, within_digits
from verifier.errors import BindingGraphError

MAX_EXPR_CHARS: Final[int] = 4096
MAX_DEPTH: Final[int] = 32
"""Deepest nesting of parentheses (and unary signs) the text grammar reads."""
MAX_TREE_DEPTH: Final[int] = 3 * MAX_DEPTH + 4
"""Deepest expression tree :func:`check_expression` admits (100).

A level of the grammar's nesting comes to at most three tree levels (a sum, a product, a
power), so every text the grammar reads fits; sympy's own recursion fails from about 300
levels (a chain of sums 300 deep raised ``RecursionError`` when its equation was built).
"""
MAX_EXPONENT: Final[int] = 3
_MAX_EXPONENT_DIGITS: Final[int] = 2  # refuse a long digit run before int() reads it
_PAIR: Final[int] = 2  # a product of exactly two factors (a coefficient and a term)
MAX_IDENT_CHARS: Final[int] = 128

_TOKEN: Final = re.compile(
    r"\s*(?:(?P<num>[0-9]+(?:\.[0-9]+)?)|(?P<ident>[A-Za-z_][A-Za-z0-9_]*)|(?P<op>\*\*|[-+*/()]))"
)
_IDENT: Final = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def symbol(name: str) -> sympy.Symbol:
    """The sympy symbol for a symbol id (no assumptions, so no renaming of ``E``, ``I``, ``N``)."""
    return sympy.Symbol(name)


def rational(value: Fraction) -> sympy.Rational:
    """An exact sympy ``Rational`` from a :class:`~fractions.Fraction` (an ``Integer`` for a whole value)."""
    if value.denominator == 1:
        return sympy.Integer(value.numerator)  # what Rational(p, 1) returns, without its normalizing
    return sympy.Rational(value.numerator, value.denominator)


def rational_text(value: sympy.Rational) -> str:
    """``str(value)`` for a sympy ``Rational`` (``"7"``, ``"-7/2"``), written without sympy's printer.

    sympy's ``StrPrinter`` writes a ``Rational`` as ``p`` when ``q == 1`` and ``p/q`` otherwise;
    this writes the same from ``p`` and ``q`` (``tests/property`` checks it against
    ``str``).  Anything that is no ``Rational`` is given to ``str``.
    """
    if isinstance(value, sympy.Rational):
        p, q = int(value.p), int(value.q)
        return str(p) if q == 1 else f"{p}/{q}"
    return str(value)


def is_identifier(text: object) -> bool:
    """True for an ASCII identifier of at most :data:`MAX_IDENT_CHARS` characters."""
    return isinstance(text, str) and len(text) <= MAX_IDENT_CHARS and _IDENT.fullmatch(text) is not None


def _tokens(text: str, path: str) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    pos = 0
    while pos < len(text):
        if text[pos:].strip() == "":
            break
        match = _TOKEN.match(text, pos)
        if match is None:
            raise BindingGraphError(
                "unsafe_expression",
                f"unexpected character {text[pos:].lstrip()[:1]!r} (only + - * / ** ( ), numbers and identifiers)",
                path,
            )
        kind = match.lastgroup or ""
        out.append((kind, match.group(kind)))
        pos = match.end()
    return out


class _Parser:
    """Recursive descent over the grammar; ``written`` mode keeps every written operand (no cancelling)."""

    def __init__(self, text: str, path: str, *, written: bool = False) -> None:
        self.tokens = _tokens(text, path)
        self.pos = 0
        self.path = path
        self.depth = 0
        self.written = written
        self.names: set[str] = set()
        self.seen: list[str] = []  # every name, each time it is written
        self.divided: list[str] = []  # the names written in a divisor
        self.compound_divisor = False  # a divisor that is an expression, (b - 12) or (1/k): sympy may cancel it whole

    def peek(self) -> tuple[str, str] | None:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def take(self) -> tuple[str, str]:
        token = self.peek()
        if token is None:
            raise BindingGraphError("malformed_input", "expression ends too early", self.path)
        self.pos += 1
        return token

    def expr(self) -> sympy.Expr:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise BindingGraphError("input_too_large", f"expression nested deeper than {MAX_DEPTH}", self.path)
        terms = [self.term()]
        while (tok := self.peek()) is not None and tok[1] in "+-" and tok[0] == "op":
            self.take()
            right = self.term()
            terms.append(right if tok[1] == "+" else self.negate(right))
        self.depth -= 1
        if self.written:
            return (
                terms[0] if len(terms) == 1 else sympy.Add(*sorted(terms, key=sympy.default_sort_key), evaluate=False)
            )
        return sympy.Add(*terms)

    def negate(self, value: sympy.Expr) -> sympy.Expr:
        if self.written and not isinstance(value, sympy.Rational):
            return sympy.Mul(sympy.S.NegativeOne, value, evaluate=False)
        return -value

    def term(self) -> sympy.Expr:
        value = self.unary()
        factors = [value]
        while (tok := self.peek()) is not None and tok[0] == "op" and tok[1] in ("*", "/"):
            self.take()
            start = len(self.seen)
            right = self.unary()
            if tok[1] == "/":
                self.divided.extend(self.seen[start:])
                self.compound_divisor = self.compound_divisor or not _plain_product(right)
            if tok[1] == "/" and isinstance(right, sympy.Rational) and right == 0:
                raise BindingGraphError("division_by_zero", "division by the literal 0", self.path)
            if self.written and isinstance(right, sympy.Rational):
                factors.append(right if tok[1] == "*" else sympy.S.One / right)  # a number divides as a number
            elif self.written:
                factors.append(right if tok[1] == "*" else sympy.Pow(right, -1, evaluate=False))
            else:
                value = value * right if tok[1] == "*" else value / right
        if self.written and len(factors) > 1:
            # numbers fold into one coefficient (5/2 stays the number 5/2; nothing cancels a name there)
            coefficient = sympy.Mul(*(f for f in factors if isinstance(f, sympy.Rational)))
            others = [f for f in factors if not isinstance(f, sympy.Rational)]
            if not others:
                return coefficient
            parts = ([coefficient] if coefficient != 1 else []) + sorted(others, key=sympy.default_sort_key)
            return parts[0] if len(parts) == 1 else sympy.Mul(*parts, evaluate=False)
        return value

    def unary(self) -> sympy.Expr:
        tok = self.peek()
        if tok == ("op", "-"):
            self.take()
            self.depth += 1
            if self.depth > MAX_DEPTH:
                raise BindingGraphError("input_too_large", f"expression nested deeper than {MAX_DEPTH}", self.path)
            value = self.negate(self.unary())
            self.depth -= 1
            return value
        return self.power()

    def power(self) -> sympy.Expr:
        start = len(self.seen)
        base = self.atom()
        if self.peek() == ("op", "**"):
            self.take()
            sign = 1
            if self.peek() == ("op", "-"):
                self.take()
                sign = -1
            kind, text = self.take()
            if kind != "num" or "." in text:
                raise BindingGraphError("unsafe_expression", "an exponent must be a whole number", self.path)
            if len(text) > _MAX_EXPONENT_DIGITS or int(text) > MAX_EXPONENT:
                raise BindingGraphError("input_too_large", f"exponent above {MAX_EXPONENT}", self.path)
            check_expression(base, path=self.path)  # bound the base first: ((9**3)**3)**3... must not grow unchecked
            if sign < 0:  # a negative power divides by its base
                self.divided.extend(self.seen[start:])
                self.compound_divisor = self.compound_divisor or not _plain_product(base)
            if self.written:
                return sympy.Pow(base, sign * int(text), evaluate=False)
            return base ** (sign * int(text))
        return base

    def atom(self) -> sympy.Expr:
        kind, text = self.take()
        if kind == "num":
            try:
                return rational(parse_exact(text, path=self.path))
            except UnitRefusal as exc:
                raise BindingGraphError(exc.reason, exc.detail, self.path) from None
        if kind == "ident":
            if len(text) > MAX_IDENT_CHARS:
                raise BindingGraphError("input_too_large", f"identifier longer than {MAX_IDENT_CHARS}", self.path)
            if self.peek() == ("op", "("):
                raise BindingGraphError("unsafe_expression", f"function calls are not allowed ({text}(...))", self.path)
            self.seen.append(text)
            self.names.add(text)
            return symbol(text)
        if text == "(":
            value = self.expr()
            if self.take() != ("op", ")"):
                raise BindingGraphError("malformed_input", "expected ')'", self.path)
            return value
        raise BindingGraphError("malformed_input", f"unexpected {text!r}", self.path)


def parse_expression(text: object, *, path: str = "") -> sympy.Expr:
    """Parse arithmetic text into a sympy expression, safely.

    Args:
        text: e.g. ``"q_sam_apples_t0 + 3"``, ``"2*q_bo"``, ``"(a + b)/2"``.
        path: where the text sits in the input, for the error message.

    Returns:
        A sympy expression over ``Symbol(identifier)`` and exact ``Rational`` numbers.

    Raises:
        BindingGraphError: ``malformed_input`` (not a string, empty, unbalanced);
            ``unsafe_expression`` (anything outside the grammar, e.g. ``__import__('os')``,
            ``x.real``, ``'a'``); ``input_too_large`` (over :data:`MAX_EXPR_CHARS`
            characters, :data:`MAX_DEPTH` nesting, :data:`MAX_EXPONENT`, or
            :data:`units.exact.MAX_DIGITS` digits).
    """
    if not isinstance(text, str):
        raise BindingGraphError("malformed_input", f"an expression must be a string, found {type(text).__name__}", path)
    if len(text) > MAX_EXPR_CHARS:
        raise BindingGraphError("input_too_large", f"expression longer than {MAX_EXPR_CHARS} characters", path)
    if not text.strip():
        raise BindingGraphError("malformed_input", "empty expression", path)
    parser = _Parser(text, path)
    value = parser.expr()
    if parser.peek() is not None:
        raise BindingGraphError("malformed_input", f"unexpected {parser.peek()[1]!r} after the expression", path)  # type: ignore[index]
    if _divided_and_multiplied(parser, value) or free_names(value) != parser.names:
        # sympy's automatic evaluation may cancel what was written (q*z/z, q + w - w, and
        # a*b*b/b, whose /b must still be checked for zero): every symbol written is a
        # dependency that is checked, so keep the expression as written.
        parser = _Parser(text, path, written=True)
        value = parser.expr()
    check_expression(value, path=path)
    return value


def _plain_product(expr: sympy.Expr) -> bool:
    """A product of numbers and symbols to positive powers (``b``, ``2*b``, ``b**2``): no sum, no division inside."""
    stack = [expr]
    while stack:
        node = stack.pop()
        if isinstance(node, (sympy.Symbol, sympy.Rational)):
            continue
        if isinstance(node, sympy.Mul):
            stack.extend(node.args)
        elif isinstance(node, sympy.Pow) and isinstance(node.base, sympy.Symbol) and node.exp.is_positive:
            continue
        else:
            return False
    return True


def _divided_and_multiplied(parser: _Parser, value: sympy.Expr) -> bool:
    """Whether sympy's evaluation may have lost a written division (``a*b*b/b``, ``q/(1/k)``, ``q*k**2*k**-1``).

    A name written in a divisor (after ``/`` or under a negative power) must still divide
    the evaluated expression, or its zero would never be checked; a divisor that is an
    expression (``(b - 12)``, ``(1/k)``: more than a product of symbols) is kept as written whatever
    sympy makes of it.
    """
    if not parser.divided:
        return False
    if parser.compound_divisor:  # (b - 12)/(b - 12) cancels with b still divided elsewhere: keep every divisor
        return True
    dividing = set()
    stack = [value]
    while stack:
        node = stack.pop()
        if isinstance(node, sympy.Pow) and isinstance(node.base, sympy.Symbol) and node.exp.is_negative:
            dividing.add(node.base.name)
        stack.extend(node.args)
    return bool(set(parser.divided) - dividing)


def check_expression(expr: object, *, path: str = "") -> None:
    """Refuse anything but sums, products, small integer powers, symbols and bounded rationals.

    Raises:
        BindingGraphError: ``unsafe_expression`` for any other sympy node or object;
            ``input_too_large`` for a number over the digit bound, a big exponent, or a tree
            nested deeper than :data:`MAX_TREE_DEPTH` (sympy recurses on it; every tree the
            text grammar reads is shallower).
    """
    if (
        isinstance(expr, sympy.Basic) and expr in _CHECKED
    ):  # an equation's expression is checked when built and re-stamped
        return
    _check_tree(expr, path)
    if isinstance(expr, sympy.Basic):
        if len(_CHECKED) >= PRINT_MEMO_SIZE:
            _CHECKED.clear()
        _CHECKED.add(expr)


_CHECKED: set[sympy.Basic] = set()


def _check_tree(expr: object, path: str) -> None:
    stack = [(expr, 0)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_TREE_DEPTH:
            raise BindingGraphError(
                "input_too_large", f"expression tree nested deeper than {MAX_TREE_DEPTH} levels", path
            )
        if isinstance(node, sympy.Symbol):
            if not is_identifier(node.name):
                raise BindingGraphError("unsafe_expression", f"symbol name {node.name!r} is not an identifier", path)
            continue
        if isinstance(node, sympy.Rational):
            if not within_digits(int(node.p), int(node.q)):  # no str(): huge ints raise there
                raise BindingGraphError("input_too_large", f"a number with more than {MAX_DIGITS} digits", path)
            continue
        if isinstance(node, (sympy.Add, sympy.Mul)):
            stack.extend((arg, depth + 1) for arg in node.args)
            continue
        if isinstance(node, sympy.Pow) and isinstance(node.exp, sympy.Integer):
            if abs(int(node.exp)) > MAX_EXPONENT:
                raise BindingGraphError("input_too_large", f"exponent above {MAX_EXPONENT}", path)
            stack.append((node.base, depth + 1))
            continue
        raise BindingGraphError("unsafe_expression", f"{type(node).__name__} is not allowed in an equation", path)


def print_expression(expr: sympy.Expr) -> str:
    """Deterministic canonical text of an expression; :func:`parse_expression` reads it back exactly.

    sympy's printer is slow and an equation's text is asked for when it is built, checked
    and re-stamped, so texts are memoized by expression (structurally equal expressions
    print the same; the memo holds at most :data:`PRINT_MEMO_SIZE` of them).
    """
    return _printed(expr)


PRINT_MEMO_SIZE: Final[int] = 8192


@functools.lru_cache(maxsize=PRINT_MEMO_SIZE)
def _printed(expr: sympy.Expr) -> str:
    fast = _print_simple(expr)
    return fast if fast is not None else str(sympy.sstr(expr, order="lex"))


def _print_simple(expr: sympy.Expr) -> str | None:
    """Sympy's ``sstr(order="lex")`` text for the shapes the adapters build, or None for any other.

    Shapes: a symbol; a number; a sum of distinct symbols with signs ±1 and one constant
    (``-a + b + 3``: symbols by name, the constant last); a product of two distinct
    symbols (``a*b``) or a quotient of two (``a/b``); a positive whole or unit-fraction
    coefficient times a symbol (``2*a``, ``a/4``).  ``tests/property`` checks it against
    sympy's printer.
    """
    if isinstance(expr, sympy.Symbol):
        return str(expr.name)
    if isinstance(expr, sympy.Rational):
        p, q = int(expr.p), int(expr.q)
        return str(p) if q == 1 else f"{p}/{q}"
    if isinstance(expr, sympy.Add):
        return _print_sum(expr.args)
    if isinstance(expr, sympy.Mul) and len(expr.args) == _PAIR:
        return _print_product(*expr.args)
    return None


def _print_sum(args: tuple[sympy.Expr, ...]) -> str | None:
    terms: list[tuple[str, bool]] = []  # (name, negative)
    constant: sympy.Rational | None = None
    for arg in args:
        if isinstance(arg, sympy.Symbol):
            terms.append((arg.name, False))
        elif isinstance(arg, sympy.Rational) and constant is None and arg != 0:  # a written "+ 0" prints itself
            constant = arg
        elif (
            isinstance(arg, sympy.Mul)
            and len(arg.args) == _PAIR
            and arg.args[0] is sympy.S.NegativeOne
            and isinstance(arg.args[1], sympy.Symbol)
        ):
            terms.append((arg.args[1].name, True))
        else:
            return None
    names = [name for name, _ in terms]
    if not terms or len(set(names)) != len(names):
        return None
    terms.sort()
    text = ""
    for i, (name, negative) in enumerate(terms):
        text += ("-" if negative else "") + name if i == 0 else (" - " if negative else " + ") + name
    if constant is not None and constant != 0:
        p, q = int(constant.p), int(constant.q)
        text += (" - " if p < 0 else " + ") + (str(abs(p)) if q == 1 else f"{abs(p)}/{q}")
    return text


def _print_product(first: sympy.Expr, second: sympy.Expr) -> str | None:
    if isinstance(first, sympy.Symbol) and isinstance(second, sympy.Symbol) and first.name < second.name:
        return f"{first.name}*{second.name}"  # the order sympy's printer uses (and an evaluated Mul keeps)
    if isinstance(first, sympy.Rational) and isinstance(second, sympy.Symbol) and first > 0:
        if first.q == 1:
            return f"{first.p}*{second.name}"
        if first.p == 1:
            return f"{second.name}/{first.q}"
        return None
    pair = (first, second)
    powers = [a for a in pair if isinstance(a, sympy.Pow)]
    symbols = [a for a in pair if isinstance(a, sympy.Symbol)]
    if (
        len(powers) == 1
        and len(symbols) == 1
        and isinstance(powers[0].base, sympy.Symbol)
        and powers[0].exp is sympy.S.NegativeOne
    ):
        return f"{symbols[0].name}/{powers[0].base.name}"
    return None


def free_names(expr: sympy.Expr) -> frozenset[str]:
    """The names of the expression's free symbols (memoized by expression, like its text)."""
    return _free_names(expr)


@functools.lru_cache(maxsize=PRINT_MEMO_SIZE)
def _free_names(expr: sympy.Expr) -> frozenset[str]:
    return frozenset(s.name for s in expr.free_symbols)


class EvaluationError(DetailRefusal, ArithmeticError):
    """An expression that has no exact value: a zero divisor, or a symbol with no value (a ``units.RefusalError``)."""


def evaluate(expr: sympy.Expr, values: Mapping[str, Fraction], *, constant_scale: Fraction = Fraction(1)) -> Fraction:
    """Exact value of ``expr`` with each symbol replaced by ``values[name]``.

    Args:
        expr: an expression accepted by :func:`check_expression`.
        values: exact values by symbol name.
        constant_scale: multiplies the additive constant term (the unit conversion of a
            literal quantity, see ``BoundEquation.literal_unit``).

    Raises:
        EvaluationError: ``division_by_zero``; ``state_unset`` for a symbol with no value.
    """
    if constant_scale != 1 and isinstance(expr, sympy.Add):
        total = Fraction(0)
        for arg in expr.args:
            part = _eval(arg, values)
            total += part * constant_scale if isinstance(arg, sympy.Rational) else part
        return total
    if constant_scale != 1 and isinstance(expr, sympy.Rational):
        return as_fraction(expr) * constant_scale
    return _eval(expr, values)


def _eval(node: sympy.Expr, values: Mapping[str, Fraction]) -> Fraction:
    if isinstance(node, sympy.Symbol):
        try:
            return values[node.name]
        except KeyError:
            raise EvaluationError("state_unset", f"{node.name} has no value") from None
    if isinstance(node, sympy.Rational):
        return as_fraction(node)
    if isinstance(node, (sympy.Add, sympy.Mul)):  # folded from the first term: no 0 + x or 1 * x step
        first, *rest = node.args
        out = _eval(first, values)
        if isinstance(node, sympy.Add):
            for arg in rest:
                out += _eval(arg, values)
        else:
            for arg in rest:
                out *= _eval(arg, values)
        return out
    if isinstance(node, sympy.Pow):
        base = _eval(node.base, values)
        exp = int(node.exp)
        if exp < 0 and base == 0:
            raise EvaluationError("division_by_zero", f"{print_expression(node.base)} is zero")
        return base**exp
    raise EvaluationError("unsafe_expression", f"{type(node).__name__} cannot be evaluated")


@functools.lru_cache(maxsize=PRINT_MEMO_SIZE)
def as_fraction(number: sympy.Rational) -> Fraction:
    """The exact ``Fraction`` of a sympy ``Rational`` (``Rational(7, 2)`` → ``Fraction(7, 2)``).

    The inverse of :func:`rational`; memoized by value, as a corpus repeats its constants.
    Pass only a ``sympy.Rational`` (an ``Integer`` is one): a ``Float`` has no exact ``p``/``q``.
    """
    return Fraction(int(number.p), int(number.q))


def clear_memos() -> None:
    """Forget every memoized text, name set and check (for benchmarks that must see each expression afresh)."""
    _printed.cache_clear()
    _free_names.cache_clear()
    as_fraction.cache_clear()
    _CHECKED.clear()


__all__ = [
    "MAX_DEPTH",
    "MAX_EXPONENT",
    "MAX_EXPR_CHARS",
    "MAX_IDENT_CHARS",
    "MAX_TREE_DEPTH",
    "PRINT_MEMO_SIZE",
    "EvaluationError",
    "as_fraction",
    "check_expression",
    "clear_memos",
    "evaluate",
    "free_names",
    "is_identifier",
    "parse_expression",
    "print_expression",
    "rational",
    "rational_text",
    "symbol",
]
