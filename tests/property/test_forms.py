"""The adapters' right-hand sides (verifier.forms) are the very objects sympy's arithmetic builds, on drawn names and numbers."""

from __future__ import annotations

from fractions import Fraction

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from verifier import forms
from verifier.expr import print_expression, rational, symbol

_NAMES = st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,12}", fullmatch=True)
_NUMBERS = st.fractions(max_denominator=50).filter(lambda f: abs(f) < 10**6)


def _same(fast: sympy.Basic, plain: sympy.Basic) -> None:
    """Equal, equally hashed and printed, of one type, with the same arguments in the same order, all the way down."""
    assert type(fast) is type(plain)
    assert fast == plain
    assert hash(fast) == hash(plain)
    assert fast.args == plain.args  # the order too: the printer and the shape readers walk args
    assert sympy.srepr(fast) == sympy.srepr(plain)
    assert fast.is_commutative == plain.is_commutative
    for a, b in zip(fast.args, plain.args, strict=True):
        _same(a, b)


def test_the_probe_finds_this_sympy_agrees() -> None:
    """On the installed sympy the fast forms are taken (else every test below would only test the fallback)."""
    assert forms.fast_forms_agree() is True


@settings(max_examples=300)
@given(_NAMES, _NUMBERS)
def test_sum_with_constant_is_sympys_sum(name: str, constant: Fraction) -> None:
    """``x + c`` and ``0 + c``."""
    _same(forms.sum_with_constant(name, constant), symbol(name) + rational(constant))
    _same(forms.sum_with_constant(None, constant), sympy.Integer(0) + rational(constant))


@settings(max_examples=300)
@given(_NUMBERS, _NAMES)
def test_multiple_of_is_sympys_product(constant: Fraction, name: str) -> None:
    """``c * x`` (a factor of 0 or 1 included)."""
    _same(forms.multiple_of(constant, name), rational(constant) * symbol(name))


@settings(max_examples=300)
@given(_NAMES, _NAMES)
def test_products_quotients_and_differences_are_sympys(a: str, b: str) -> None:
    """``a * b``, ``a / b`` and ``a - b``, in either order of the names (one name twice included)."""
    _same(forms.product_of(a, b), symbol(a) * symbol(b))
    _same(forms.quotient_of(a, b), symbol(a) / symbol(b))
    _same(forms.difference_of(a, b), symbol(a) - symbol(b))
    _same(forms.difference_of(a, a), symbol(a) - symbol(a))


@pytest.mark.parametrize(
    ("built", "text"),
    [
        (lambda: forms.sum_with_constant("q_sam_apples_t0", Fraction(-3)), "q_sam_apples_t0 - 3"),
        (lambda: forms.sum_with_constant(None, Fraction(7, 2)), "7/2"),
        (lambda: forms.product_of("op_001__rate", "q_kim_hours_t0"), "op_001__rate*q_kim_hours_t0"),
        (lambda: forms.quotient_of("q_sam_feet_t0", "op_000__chunk"), "q_sam_feet_t0/op_000__chunk"),
        (lambda: forms.difference_of("q_a_x_t0", "op_002_compared"), "-op_002_compared + q_a_x_t0"),
        (lambda: forms.multiple_of(Fraction(2), "q_b_x_t0"), "2*q_b_x_t0"),
    ],
)
def test_forms_print_as_written(built: object, text: str) -> None:
    """The canonical text of each shape (what the binding graph's canonical lines carry)."""
    assert callable(built)
    assert print_expression(built()) == text


def test_a_disagreeing_sympy_falls_back_to_its_arithmetic(monkeypatch: pytest.MonkeyPatch) -> None:
    """When the probe fails, every form is built by sympy's own operators."""
    monkeypatch.setattr(forms, "fast_forms_agree", lambda: False)
    calls: list[str] = []
    real = forms._plain_quotient  # noqa: SLF001  # the fallback under test

    def spy(a: str, b: str) -> sympy.Expr:
        calls.append(f"{a}/{b}")
        return real(a, b)

    monkeypatch.setattr(forms, "_plain_quotient", spy)
    _same(forms.quotient_of("a", "b"), symbol("a") / symbol("b"))
    assert calls == ["a/b"]


class _HashesOddly(Fraction):
    """Equal to its value, but hashed apart from it (breaks the hash/eq contract)."""

    def __hash__(self) -> int:  # type: ignore[override]  # typeshed gives numbers.Complex no __hash__
        return 12345


class _NeverEqual(Fraction):
    """Unequal to everything, itself included."""

    def __eq__(self, other: object) -> bool:
        return False

    def __hash__(self) -> int:  # type: ignore[override]  # typeshed gives numbers.Complex no __hash__
        return super().__hash__()


@pytest.mark.parametrize("odd", [_HashesOddly, _NeverEqual])
@pytest.mark.parametrize("value", [Fraction(0), Fraction(1), Fraction(-1), Fraction(7, 2)])
def test_a_fraction_subclass_builds_what_its_value_builds(odd: type[Fraction], value: Fraction) -> None:
    """The forms decide on sympy's number, not on how a caller's Fraction compares or hashes (review 6)."""
    number = odd(value.numerator, value.denominator)
    _same(forms.sum_with_constant("q", number), symbol("q") + rational(value))
    _same(forms.multiple_of(number, "q"), rational(value) * symbol("q"))
