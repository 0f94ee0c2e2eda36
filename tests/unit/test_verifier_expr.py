"""The safe expression grammar (SPEC §8, §11): parser, printer, bounds, and the exact evaluator.

No input text ever reaches ``eval``, ``sympify`` or ``parse_expr``; names that
sympify would turn into constants or functions stay plain symbols.
"""

from __future__ import annotations

import time
from fractions import Fraction
from typing import Any

import pytest
import sympy

from verifier import BindingGraphError, BoundEquation, SourceSpanLink
from verifier.expr import (
    MAX_DEPTH,
    MAX_EXPR_CHARS,
    MAX_TREE_DEPTH,
    EvaluationError,
    check_expression,
    evaluate,
    free_names,
    is_identifier,
    parse_expression,
    print_expression,
    rational,
    symbol,
)

HANG_GUARD_SECONDS = 5.0
"""Far above the milliseconds a refusal takes; uncapped, these inputs run for minutes."""

a, b, c = symbol("a"), symbol("b"), symbol("c")


def refusal(text: object) -> BindingGraphError:
    """parse_expression(text), which must raise BindingGraphError; return it."""
    with pytest.raises(BindingGraphError) as info:
        parse_expression(text, path="equations[0].rhs_canonical")
    return info.value


# ------------------------------------------------------------ parsing


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("a + b", a + b),
        ("a - b", a - b),
        ("2*a", 2 * a),
        ("a/2", a / 2),
        ("(a + b)/2", (a + b) / 2),
        ("-a", -a),
        ("--a", a),
        ("a**2", a**2),
        ("a**-1", 1 / a),
        ("a ** 3", a**3),
        ("2.5*a", sympy.Rational(5, 2) * a),
        ("7/2", sympy.Rational(7, 2)),
        ("0.1 + 0.2", sympy.Rational(3, 10)),
        ("a*b*c", a * b * c),
        ("a - 3/2", a - sympy.Rational(3, 2)),
        ("2*(3*a)", 6 * a),
        ("  a\t+\nb  ", a + b),
        ("q_sam_apples_t0 + 3", symbol("q_sam_apples_t0") + 3),
        (
            "op_000__multiplicand*q_sam_dollars_t0",
            symbol("op_000__multiplicand") * symbol("q_sam_dollars_t0"),
        ),
        ("1" * 40, sympy.Integer(int("1" * 40))),
    ],
)
def test_parse_builds_exact_sympy(text: str, expected: sympy.Expr) -> None:
    """Arithmetic text becomes the sympy expression over Symbols and exact Rationals (no Float)."""
    parsed = parse_expression(text)
    assert parsed == expected
    assert not parsed.atoms(sympy.Float)


@pytest.mark.parametrize(
    "expr",
    [
        a + b,
        a - 2 * b,
        a / 3,
        (a + b) / 2,
        a * b / c,
        a**3 - b**-2,
        sympy.Rational(-7, 2) + a,
        -a,
        sympy.Integer(0),
        sympy.Rational(1, 3) * a * b + c,
        symbol("E") + symbol("I") * symbol("N"),
        a / (b + c),
    ],
)
def test_print_parse_round_trip(expr: sympy.Expr) -> None:
    """parse_expression(print_expression(e)) == e, and printing is a fixed point."""
    text = print_expression(expr)
    again = parse_expression(text)
    assert again == expr
    assert print_expression(again) == text


def test_print_is_lex_ordered() -> None:
    """The printed form orders terms lexicographically, whatever the construction order."""
    assert print_expression(symbol("zeta") + symbol("alpha") * 2 - 1) == "2*alpha + zeta - 1"
    assert print_expression(sympy.Add(symbol("b"), symbol("a"))) == print_expression(
        sympy.Add(symbol("a"), symbol("b"))
    )


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("__import__('os')", "unsafe_expression"),
        ("__import__('os').system('true')", "unsafe_expression"),
        ("x.real", "unsafe_expression"),
        ("a.__class__", "unsafe_expression"),
        ("f(x)", "unsafe_expression"),
        ("sin(a)", "unsafe_expression"),
        ("Symbol('a')", "unsafe_expression"),
        ("'a'", "unsafe_expression"),
        ('"a"', "unsafe_expression"),
        ("a ^ 2", "unsafe_expression"),
        ("lambda: 1", "unsafe_expression"),
        ("lambda x: x", "unsafe_expression"),
        ("a; b", "unsafe_expression"),
        ("a, b", "unsafe_expression"),
        ("[a]", "unsafe_expression"),
        ("{a}", "unsafe_expression"),
        ("a @ b", "unsafe_expression"),
        ("a % 2", "unsafe_expression"),
        ("a == b", "unsafe_expression"),
        ("a < b", "unsafe_expression"),
        ("é + 1", "unsafe_expression"),
        ("a**b", "unsafe_expression"),
        ("a**2.5", "unsafe_expression"),
        ("a**(2)", "unsafe_expression"),
        ("1/0", "division_by_zero"),
        ("0/0", "division_by_zero"),
        ("a/0", "division_by_zero"),
        ("a/(1 - 1)", "division_by_zero"),
        ("a // 2", "malformed_input"),
        ("1e5", "malformed_input"),
        ("1.5e3", "malformed_input"),
        ("0x1F", "malformed_input"),
        ("1_000", "malformed_input"),
        ("a b", "malformed_input"),
        ("a +", "malformed_input"),
        ("(a", "malformed_input"),
        ("a)", "malformed_input"),
        ("2**3**2", "malformed_input"),
        ("", "malformed_input"),
        ("   ", "malformed_input"),
        (None, "malformed_input"),
        (5, "malformed_input"),
        (2.5, "malformed_input"),
        (b"a + b", "malformed_input"),
        (["a"], "malformed_input"),
    ],
)
def test_parse_refuses_outside_grammar(text: object, reason: str) -> None:
    """Calls, attributes, strings, ^, lambda, ;, 1e5 and non-strings are refused, with the path."""
    error = refusal(text)
    assert error.reason == reason
    assert error.path == "equations[0].rhs_canonical"


@pytest.mark.parametrize(
    "text",
    [
        "9**9**9",
        "9**9",
        "a**4",
        "a ** 10",
        "a**100",
        "a**-4",
        "1" * 41,
        "9" * 4000,
        "0." + "0" * 40 + "1",
        "(" * 40 + "a" + ")" * 40,
        "(" * (MAX_DEPTH + 1) + "a" + ")" * (MAX_DEPTH + 1),
        "-" * 100 + "a",
        "a" * 129,
        "a" + "+a" * 3000,
        "(" * 30 + "9" + ")**3" * 30,
        "(" * 8 + "9" + ")**3" * 8,
        "*".join(["9" * 40 + "**3"] * 90),
        "a*a*a*a",
        "(a**3)**3",
    ],
)
def test_size_bounds_refused_quickly(text: str) -> None:
    """Big exponents, long digit strings, deep nesting, long text: input_too_large, quickly."""
    start = time.perf_counter()
    error = refusal(text)
    assert time.perf_counter() - start < HANG_GUARD_SECONDS
    assert error.reason == "input_too_large"


def test_bounds_at_the_limit_accepted() -> None:
    """Just inside each bound parses: 40 digits, exponent 3, 128-char names, 31 nested parens."""
    assert parse_expression("9" * 40) == sympy.Integer(int("9" * 40))
    assert parse_expression("a**3") == a**3
    assert parse_expression("a" * 128) == symbol("a" * 128)
    assert parse_expression("(" * (MAX_DEPTH - 1) + "a" + ")" * (MAX_DEPTH - 1)) == a
    assert len("a" + "+a" * (MAX_EXPR_CHARS // 2 - 1)) <= MAX_EXPR_CHARS
    assert parse_expression("a" + "+a" * (MAX_EXPR_CHARS // 2 - 1)) == (MAX_EXPR_CHARS // 2) * a


@pytest.mark.parametrize(
    "name",
    [
        "E",
        "I",
        "N",
        "S",
        "Q",
        "O",
        "min",
        "sec",
        "pi",
        "oo",
        "zoo",
        "nan",
        "inf",
        "True",
        "None",
        "lambda_",
        "beta",
        "gamma",
        "Sum",
        "factorial",
    ],
)
def test_sympify_names_stay_plain_symbols(name: str) -> None:
    """Names sympify would rename to constants or functions parse to plain Symbols."""
    parsed = parse_expression(f"{name} + 1")
    (sym,) = parsed.free_symbols
    assert type(sym) is sympy.Symbol
    assert sym.name == name
    assert parsed == sympy.Symbol(name) + 1
    assert print_expression(parsed) == f"{name} + 1"


def test_sympify_names_are_not_constants() -> None:
    """E is not Euler's number, I not the imaginary unit, pi not π: E*I*pi has three unknowns."""
    parsed = parse_expression("E*I*pi")
    assert parsed != sympy.E * sympy.I * sympy.pi
    assert parsed.free_symbols == {symbol("E"), symbol("I"), symbol("pi")}
    assert parsed.is_number is False


def test_sympify_names_in_equations_round_trip() -> None:
    """An equation over E, I, N, min and sec keeps them as dependencies through JSON."""
    eq = BoundEquation.create(
        lhs_symbol_id="S",
        rhs=symbol("E") + symbol("I") * symbol("N") - symbol("min") / symbol("sec"),
        operation_kind="add",
        source_span=SourceSpanLink(source_id="t", start=0, end=1),
    )
    assert eq.dependencies == frozenset({"E", "I", "N", "min", "sec"})
    assert BoundEquation.from_json(eq.to_json()) == eq


# ------------------------------------------------------------ check_expression


@pytest.mark.parametrize(
    ("expr", "reason"),
    [
        (sympy.Float("0.5") * a, "unsafe_expression"),
        (sympy.sin(a), "unsafe_expression"),
        (sympy.E, "unsafe_expression"),
        (sympy.I * a, "unsafe_expression"),
        (sympy.pi, "unsafe_expression"),
        (sympy.oo, "unsafe_expression"),
        (sympy.nan, "unsafe_expression"),
        (sympy.zoo, "unsafe_expression"),
        (a**b, "unsafe_expression"),
        (sympy.Symbol("a b"), "unsafe_expression"),
        (sympy.Symbol("__import__('os')"), "unsafe_expression"),
        (sympy.Eq(a, b), "unsafe_expression"),
        (sympy.Function("f")(a), "unsafe_expression"),
        (3, "unsafe_expression"),
        ("a", "unsafe_expression"),
        (None, "unsafe_expression"),
        (a**5, "input_too_large"),
        (sympy.Integer(10**40), "input_too_large"),
        (sympy.Rational(1, 10**40), "input_too_large"),
        (sympy.Integer(10) ** 5000 * a, "input_too_large"),
    ],
)
def test_check_expression_refusals(expr: object, reason: str) -> None:
    """check_expression admits only Add, Mul, small Pow, identifier Symbols, bounded Rationals."""
    with pytest.raises(BindingGraphError) as info:
        check_expression(expr, path="p")
    assert (info.value.reason, info.value.path) == (reason, "p")


def test_check_expression_accepts_the_grammar() -> None:
    """Sums, products, powers up to 3 and 40-digit rationals pass."""
    check_expression(a * b**-3 + sympy.Rational(10**40 - 1, 7) - c / 2)


@pytest.mark.parametrize(
    ("name", "ok"),
    [
        ("a", True),
        ("_x1", True),
        ("A" * 128, True),
        ("A" * 129, False),
        ("1a", False),
        ("a-b", False),
        ("", False),
        (None, False),
        (5, False),
    ],
)
def test_is_identifier(name: object, *, ok: bool) -> None:
    """Identifiers are ASCII [A-Za-z_][A-Za-z0-9_]* of at most 128 characters."""
    assert is_identifier(name) is ok


def test_free_names() -> None:
    """free_names gives the names of an expression's symbols."""
    assert free_names(parse_expression("a*b + 2*a - 1")) == frozenset({"a", "b"})
    assert free_names(sympy.Integer(3)) == frozenset()


# ------------------------------------------------------------ the exact evaluator


@pytest.mark.parametrize(
    ("text", "values", "expected"),
    [
        ("a + b", {"a": Fraction(1, 2), "b": Fraction(1, 3)}, Fraction(5, 6)),
        ("a/3 + 1/6", {"a": Fraction(1, 2)}, Fraction(1, 3)),
        ("a*b - c", {"a": Fraction(3), "b": Fraction(7, 2), "c": Fraction(1, 2)}, Fraction(10)),
        ("a**-1", {"a": Fraction(4)}, Fraction(1, 4)),
        ("a**3", {"a": Fraction(-2, 3)}, Fraction(-8, 27)),
        ("0.1*a + 0.2*a", {"a": Fraction(10)}, Fraction(3)),
        ("7/2", {}, Fraction(7, 2)),
        ("a/b", {"a": Fraction(1), "b": Fraction(3)}, Fraction(1, 3)),
        ("9" * 40 + "*a", {"a": Fraction(1, int("9" * 40))}, Fraction(1)),
    ],
)
def test_evaluate_exact(text: str, values: dict[str, Fraction], expected: Fraction) -> None:
    """evaluate() computes with Fractions only: 0.1 + 0.2 is exactly 3/10, 1/3 stays 1/3."""
    got = evaluate(parse_expression(text), values)
    assert got == expected
    assert type(got) is Fraction


def test_evaluate_constant_scale_applies_to_constant_term_only() -> None:
    """constant_scale converts the literal term (3 inches into feet: 3 * 1/12), not the symbols."""
    assert evaluate(parse_expression("a + 3"), {"a": Fraction(2)}, constant_scale=Fraction(1, 12)) == Fraction(9, 4)
    assert evaluate(parse_expression("3"), {}, constant_scale=Fraction(1, 12)) == Fraction(1, 4)
    assert evaluate(parse_expression("2*a"), {"a": Fraction(5)}, constant_scale=Fraction(1, 12)) == Fraction(10)


@pytest.mark.parametrize(
    ("text", "values", "reason"),
    [
        ("a/b", {"a": Fraction(1), "b": Fraction(0)}, "division_by_zero"),
        ("a**-2", {"a": Fraction(0)}, "division_by_zero"),
        ("1/(a - b)", {"a": Fraction(2), "b": Fraction(2)}, "division_by_zero"),
        ("a + b", {"a": Fraction(1)}, "state_unset"),
        ("E", {"e": Fraction(1)}, "state_unset"),
    ],
)
def test_evaluate_refusals(text: str, values: dict[str, Fraction], reason: str) -> None:
    """A zero divisor is division_by_zero, a symbol with no value state_unset (no bare errors)."""
    with pytest.raises(EvaluationError) as info:
        evaluate(parse_expression(text), values)
    assert info.value.reason == reason


def test_evaluate_refuses_unknown_nodes() -> None:
    """A node outside the grammar is refused by the evaluator too."""
    with pytest.raises(EvaluationError) as info:
        evaluate(sympy.sin(a), {"a": Fraction(0)})
    assert info.value.reason == "unsafe_expression"


def test_rational_from_fraction() -> None:
    """rational() turns a Fraction into the equal sympy Rational."""
    value: Any = rational(Fraction(-7, 3))
    assert value == sympy.Rational(-7, 3)
    assert isinstance(value, sympy.Rational)


@pytest.mark.parametrize(
    "text",
    ["a/b*(b-12)/(b-12)", "a*(b-12)**-1*(b-12)", "a*(1/b-1/12)/(1/b-1/12)", "a/(b/(b-12)*(b-12))"],
)
def test_a_compound_divisor_is_kept_as_written(text: str) -> None:
    """Review round 3: sympy cancelled (b - 12)/(b - 12), so b = 12 divided by zero unchecked (certified 10)."""
    with pytest.raises(EvaluationError) as info:
        evaluate(parse_expression(text), {"a": Fraction(120), "b": Fraction(12)})
    assert info.value.reason == "division_by_zero"


def _nested(depth: int, *, alternate: bool = True) -> sympy.Expr:
    """``q`` nested ``depth`` levels deep in unevaluated sums (and products), as Python code may build it."""
    expr: sympy.Expr = sympy.Symbol("q")
    for level in range(depth):
        product = alternate and level % 2 == 0
        expr = sympy.Mul(expr, 2, evaluate=False) if product else sympy.Add(expr, 1, evaluate=False)
    return expr


@pytest.mark.parametrize("depth", [MAX_TREE_DEPTH + 1, 300, 5000])
def test_an_expression_tree_too_deep_for_sympy_is_refused(depth: int) -> None:
    """A tree deeper than MAX_TREE_DEPTH is input_too_large (a chain of sums 300 deep had raised RecursionError)."""
    with pytest.raises(BindingGraphError) as info:
        check_expression(_nested(depth, alternate=False))
    assert info.value.reason == "input_too_large"
    assert f"nested deeper than {MAX_TREE_DEPTH} levels" in info.value.detail


def test_every_text_the_grammar_reads_is_admitted_as_a_tree() -> None:
    """The deepest texts the grammar reads (MAX_DEPTH levels of powers of products of sums) build and check."""
    text = "x"
    for level in range(MAX_DEPTH - 1):
        text = f"x{level} + 2*({text})**2"
    expr = parse_expression(text)
    check_expression(expr)
    assert parse_expression(print_expression(expr)) == expr
    check_expression(_nested(MAX_TREE_DEPTH))
