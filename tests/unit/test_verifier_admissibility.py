"""Per-kind dimensional admissibility (SPEC §4, ADR-0134 made stricter): admitted/refused tables.

Every one of the ten kinds has admitted and refused rows; every admissibility-stage
reason of :data:`verifier.reasons.REASON_STAGES` is reached by a row; proofs record
concrete units, exact conversion factors and the declarations they rely on.
"""

from __future__ import annotations

from fractions import Fraction
from typing import NamedTuple, cast

import pytest
import sympy

from adapters import parse_canonical_text
from adapters._common import upstream_roles, with_roles
from units import UnitVocabulary, default_vocabulary
from verifier import (
    REFUSAL_REASONS,
    Answer,
    BindingGraph,
    BoundEquation,
    Refusal,
    SourceSpanLink,
    SymbolBinding,
    UnitProof,
    Verdict,
    check_equation,
    verify,
)
from verifier.expr import parse_expression
from verifier.model import OPERATION_KINDS, SemanticRole
from verifier.reasons import REASON_STAGES

SPAN = SourceSpanLink(source_id="t", start=0, end=1)

_VOCABS: dict[str, UnitVocabulary] = {}


def vocab_named(name: str | None) -> UnitVocabulary:
    """The default vocabulary, or one with declarations ("apples", "year365", …)."""
    if name is None:
        return default_vocabulary()
    if name not in _VOCABS:
        base = default_vocabulary()
        _VOCABS[name] = {
            "apples": lambda: base.with_count_nouns({"apples": "apple", "oranges": "orange"}),
            "apples_item": lambda: base.with_count_nouns({"apples": "item"}),
            "year365": lambda: base.with_conventions({"year": "365 day"}),
            "year52": lambda: base.with_conventions({"year": "52 week"}),
        }[name]()
    return _VOCABS[name]


def binding(symbol_id: str, unit: str | None = None, role: SemanticRole = "quantity") -> SymbolBinding:
    """A symbol with a unit surface and role."""
    return SymbolBinding(
        symbol_id=symbol_id,
        name=symbol_id,
        semantic_role=role,
        source_span=SPAN,
        introduced_by="test",
        unit=unit,
    )


def bindings(text: str) -> list[SymbolBinding]:
    """Symbols from ``"id:unit[:role] ..."`` (unit ``-`` for none), e.g. ``"q:mph:rate d:hour"``."""
    out = []
    for token in text.split():
        symbol_id, unit, *role = token.split(":")
        roles = [cast("SemanticRole", r) for r in role]  # the model checks it
        out.append(binding(symbol_id, None if unit == "-" else unit, *roles))
    return out


def fractions(text: str) -> dict[str, Fraction]:
    """Factors from ``"a=1 b=1/12"``."""
    return {name: Fraction(value) for name, value in (item.split("=") for item in text.split())}


def check(
    kind: str,
    symbols: str,
    rhs: str,
    *,
    vocab: str | None = None,
    literal: str | None = None,
    roles: str | None = None,
) -> Verdict:
    """check_equation on ``r := rhs`` with symbols given as ``"id:unit[:role] ..."``.

    The rows name literal operands the upstream way (``op_000__multiplicand``), so the
    operand roles are recorded as the upstream readers derive them, unless ``roles``
    (``"a:state b:divisor"``) gives them.
    """
    eq = BoundEquation.create(
        lhs_symbol_id="r",
        rhs=parse_expression(rhs),
        operation_kind=kind,
        source_span=SPAN,
        literal_unit=literal,
    )
    table = {b.symbol_id: b for b in bindings(symbols)}
    if roles is not None:
        eq = with_roles(eq, dict(item.split(":") for item in roles.split()))
    else:
        eq = with_roles(eq, upstream_roles(eq, table))
    return check_equation(eq, table, vocab_named(vocab))


class Admit(NamedTuple):
    """An admitted row: the proof string, result unit, exact factors and declarations relied on."""

    kind: str
    symbols: str
    rhs: str
    proof: str
    unit: str | None
    factors: str
    vocab: str | None = None
    literal: str | None = None
    declared: tuple[str, ...] = ()


class Refuse(NamedTuple):
    """A refused row: the reason."""

    kind: str
    symbols: str
    rhs: str
    reason: str
    vocab: str | None = None
    literal: str | None = None
    roles: str | None = None


# The multiply scalar's id under the adapter convention (ADR-0133/0134).
M = "op_000__multiplicand"

ADMITTED: dict[str, Admit] = {
    "add-foot-inch": Admit("add", "a:foot b:inches", "a + b", "add: [length,length] -> length", "foot", "a=1 b=1/12"),
    "add-inch-foot": Admit("add", "a:inches b:foot", "a + b", "add: [length,length] -> length", "inch", "a=1 b=12"),
    "add-lhs-in-inches": Admit(
        "add",
        "a:foot b:inches r:inch",
        "a + b",
        "add: [length,length] -> length",
        "inch",
        "a=12 b=1",
    ),
    "add-literal-inches": Admit(
        "add",
        "a:foot",
        "a + 3",
        "add: [length] -> length",
        "foot",
        "a=1 <literal>=1/12",
        literal="inch",
    ),
    "add-dollar-cent": Admit("add", "a:dollar b:cent", "a + b", "add: [money,money] -> money", "dollar", "a=1 b=1/100"),
    "add-dozen-item": Admit("add", "a:dozen b:item", "a + b", "add: [count,count] -> count", "dozen", "a=1 b=1/12"),
    "add-month-year": Admit("add", "a:month b:year", "a + b", "add: [time,time] -> time", "month", "a=1 b=12"),
    "add-ratios": Admit(
        "add",
        "a:-:ratio b:-:ratio",
        "a + b",
        "add: [dimensionless,dimensionless] -> dimensionless",
        None,
        "a=1 b=1",
    ),
    "add-apples-declared": Admit(
        "add",
        "a:apples b:apples",
        "a + b",
        "add: [count,count] -> count",
        "apple",
        "a=1 b=1",
        vocab="apples",
        declared=("count_noun:apples=apple",),
    ),
    "add-apples-as-items-dozen": Admit(
        "add",
        "a:apples b:dozen",
        "a + b",
        "add: [count,count] -> count",
        "item",
        "a=1 b=12",
        vocab="apples_item",
        declared=("count_noun:apples=item",),
    ),
    "add-month-day-365": Admit(
        "add",
        "a:month b:day",
        "a + b",
        "add: [time,time] -> time",
        "month",
        "a=1 b=12/365",
        vocab="year365",
        declared=("convention:year=365 day",),
    ),
    "add-year-week-52": Admit(
        "add",
        "a:year b:week",
        "a + b",
        "add: [time,time] -> time",
        "year",
        "a=1 b=1/52",
        vocab="year52",
        declared=("convention:year=52 week",),
    ),
    "subtract-mph-kph": Admit(
        "subtract",
        "a:mile_per_hour b:kilometer_per_hour",
        "a - b",
        "subtract: [length/time,length/time] -> length/time",
        "mile_per_hour",
        "a=1 b=15625/25146",
    ),
    "subtract-cup-liter": Admit(
        "subtract",
        "a:cup b:liter",
        "a - b",
        "subtract: [length^3,length^3] -> length^3",
        "cup",
        "a=1 b=2000000000/473176473",
    ),
    "transfer-cent-dollars": Admit(
        "transfer",
        "a:cent b:dollars",
        "a - b",
        "transfer: [money,money] -> money",
        "cent",
        "a=1 b=100",
    ),
    "compare-additive-items": Admit(
        "compare_additive",
        "a:item b:items",
        "a + b",
        "compare_additive: [count,count] -> count",
        "item",
        "a=1 b=1",
    ),
    "multiply-scalar-labelled-dollar": Admit(
        "multiply",
        "a:dollar op_000__multiplicand:dollar",
        "a*op_000__multiplicand",
        "multiply: [money,dimensionless] -> money",
        "dollar",
        "a=1 op_000__multiplicand=1",
    ),
    "multiply-ratio-scalar": Admit(
        "multiply",
        "a:dollar k:-:ratio",
        "a*k",
        "multiply: [money,dimensionless] -> money",
        "dollar",
        "a=1 k=1",
    ),
    "multiply-percent-scalar": Admit(
        "multiply",
        "a:dollar k:percent",
        "a*k",
        "multiply: [money,dimensionless] -> money",
        "dollar",
        "a=1 k=1/100",
    ),
    "multiply-lhs-in-cents": Admit(
        "multiply",
        "a:dollar op_000__multiplicand:dollar r:cents",
        "a*op_000__multiplicand",
        "multiply: [money,dimensionless] -> money",
        "cent",
        "a=100 op_000__multiplicand=1",
    ),
    "multiply-by-literal": Admit("multiply", "a:dollar", "2*a", "multiply: [money] -> money", "dollar", "a=1"),
    "divide-one-dep": Admit("divide", "a:dollar", "a/2", "divide: [money] -> money", "dollar", "a=1"),
    "divide-like-over-like": Admit(
        "divide",
        "a:dollar op_000__divisor:dollar",
        "a/op_000__divisor",
        "divide: [money,money] -> dimensionless",
        None,
        "a=1 op_000__divisor=1",
    ),
    "divide-dollar-over-cent": Admit(
        "divide",
        "a:dollar op_000__divisor:cent",
        "a/op_000__divisor",
        "divide: [money,money] -> dimensionless",
        None,
        "a=100 op_000__divisor=1",
    ),
    "divide-quotient": Admit(
        "divide",
        "a:mile op_000__divisor:hour",
        "a/op_000__divisor",
        "divide: [length,time] -> length/time",
        "mile_per_hour",
        "a=1 op_000__divisor=1",
    ),
    "divide-quotient-lhs-mph": Admit(
        "divide",
        "a:mile op_000__divisor:minutes r:mph",
        "a/op_000__divisor",
        "divide: [length,time] -> length/time",
        "mile_per_hour",
        "a=60 op_000__divisor=1",
    ),
    "divide-by-percent": Admit(
        "divide",
        "a:dollar op_000__divisor:percent",
        "a/op_000__divisor",
        "divide: [money,dimensionless] -> money",
        "dollar",
        "a=1 op_000__divisor=1/100",
    ),
    "divide-unit-price": Admit(
        "divide",
        "a:dollars op_000__divisor:items",
        "a/op_000__divisor",
        "divide: [money,count] -> money/count",
        "dollar_per_item",
        "a=1 op_000__divisor=1",
    ),
    "apply-rate-wage": Admit(
        "apply_rate",
        "q:dollar_per_hour:rate d:hour",
        "q*d",
        "apply_rate: [time,money/time] -> money",
        "dollar",
        "d=1 q=1",
    ),
    "apply-rate-minutes": Admit(
        "apply_rate",
        "q:dollar_per_hour:rate d:minutes",
        "q*d",
        "apply_rate: [time,money/time] -> money",
        "dollar",
        "d=1/60 q=1",
    ),
    "apply-rate-lhs-cents": Admit(
        "apply_rate",
        "q:dollar_per_hour:rate d:minutes r:cents",
        "q*d",
        "apply_rate: [time,money/time] -> money",
        "cent",
        "d=5/3 q=1",
    ),
    "apply-rate-mph-symbol": Admit(
        "apply_rate",
        "q:mph:rate d:minutes",
        "q*d",
        "apply_rate: [time,length/time] -> length",
        "mile",
        "d=1/60 q=1",
    ),
    "apply-rate-density": Admit(
        "apply_rate",
        "q:pound_per_cubic_foot:rate d:gallon",
        "q*d",
        "apply_rate: [length^3,mass/length^3] -> mass",
        "pound",
        "d=77/576 q=1",
    ),
    "apply-rate-calendar-365": Admit(
        "apply_rate",
        "q:dollars_per_year:rate d:days",
        "q*d",
        "apply_rate: [time,money/time] -> money",
        "dollar",
        "d=1/365 q=1",
        vocab="year365",
        declared=("convention:year=365 day",),
    ),
    "compare-multiplicative": Admit(
        "compare_multiplicative",
        "a:items",
        "3*a",
        "compare_multiplicative: [count] -> count",
        "item",
        "a=1",
    ),
    "compare-multiplicative-lhs-dozen": Admit(
        "compare_multiplicative",
        "a:items r:dozen",
        "3*a",
        "compare_multiplicative: [count] -> count",
        "dozen",
        "a=1/12",
    ),
    "unit-partition-chunk": Admit(
        "unit_partition",
        "a:feet op_000__chunk:inches",
        "a/op_000__chunk",
        "unit_partition: [length,length] -> dimensionless",
        None,
        "a=12 op_000__chunk=1",
    ),
    "unit-partition-into-items": Admit(
        "unit_partition",
        "a:feet op_000__chunk:inches r:items",
        "a/op_000__chunk",
        "unit_partition: [length,length] -> count",
        "item",
        "a=12 op_000__chunk=1",
    ),
    "unit-partition-into-dozens": Admit(
        "unit_partition",
        "a:feet op_000__chunk:inches r:dozen",
        "a/op_000__chunk",
        "unit_partition: [length,length] -> count",
        "dozen",
        "a=12 op_000__chunk=1",  # each chunk is one dozen: 1 ft / 1 in = 12 chunks = 12 dozen (SPEC §5 R-count)
    ),
    "unit-partition-literal-chunk": Admit(
        "unit_partition",
        "a:feet",
        "a/3",
        "unit_partition: [length] -> dimensionless",
        None,
        "a=12 <literal>=1",
        literal="inch",
    ),
    "fraction-portion": Admit(
        "fraction_portion", "a:items", "2*a/3", "fraction_portion: [count] -> count", "item", "a=1"
    ),
    "fraction-portion-lhs-dozen": Admit(
        "fraction_portion",
        "a:items r:dozen",
        "2*a/3",
        "fraction_portion: [count] -> count",
        "dozen",
        "a=1/12",
    ),
    "fraction-portion-declared": Admit(
        "fraction_portion",
        "a:apples",
        "a/2",
        "fraction_portion: [count] -> count",
        "apple",
        "a=1",
        vocab="apples",
        declared=("count_noun:apples=apple",),
    ),
}
REFUSED: dict[str, Refuse] = {
    "add-dollar-euro": Refuse("add", "a:dollar b:euro", "a + b", "incommensurable_units"),
    "add-celsius-celsius": Refuse("add", "a:Celsius b:Celsius", "a + b", "offset_unit_arithmetic"),
    "add-celsius-fahrenheit": Refuse("add", "a:Celsius b:Fahrenheit", "a + b", "offset_unit_arithmetic"),
    "add-box-item": Refuse("add", "a:box b:item", "a + b", "incommensurable_units"),
    "add-person-mouse": Refuse("add", "a:person b:mouse", "a + b", "incommensurable_units"),
    "add-degree-celsius": Refuse("add", "a:degree b:Celsius", "a + b", "incommensurable_units"),
    "add-month-day": Refuse("add", "a:month b:day", "a + b", "convention_required"),
    "add-year-week": Refuse("add", "a:year b:week", "a + b", "convention_required"),
    "add-foot-pound": Refuse("add", "a:foot b:pound", "a + b", "unit_mismatch"),
    "add-percent-item": Refuse("add", "a:percent b:item", "a + b", "unit_mismatch"),
    "add-ratio-dollar": Refuse("add", "a:-:ratio b:dollar", "a + b", "unit_mismatch"),
    "add-apples-undeclared": Refuse("add", "a:apples b:apples", "a + b", "unknown_unit"),
    "add-apples-oranges-declared": Refuse(
        "add", "a:apples b:oranges", "a + b", "incommensurable_units", vocab="apples"
    ),
    "add-made-up-plural": Refuse("add", "a:feets b:foot", "a + b", "unknown_unit"),
    "add-unit-unbound": Refuse("add", "a:- b:dollar", "a + b", "unit_unbound"),
    "add-unknown-symbol": Refuse("add", "a:dollar", "a + zz", "unknown_symbol"),
    "add-no-operands": Refuse("add", "", "3", "operand_arity"),
    "add-literal-pound": Refuse("add", "a:foot", "a + 3", "unit_mismatch", literal="pound"),
    "add-literal-unknown": Refuse("add", "a:foot", "a + 3", "unknown_unit", literal="feets"),
    "add-lhs-pound": Refuse("add", "a:foot b:inches r:pound", "a + b", "unit_mismatch"),
    "add-lhs-euro": Refuse("add", "a:dollar r:euro", "a + 1", "incommensurable_units", literal="dollar"),
    "add-lhs-celsius": Refuse("add", "a:Kelvin r:Celsius", "a + 1", "offset_unit_arithmetic", literal="Kelvin"),
    "add-bare-constant": Refuse("add", "a:dollar", "a + 4", "unit_mismatch"),
    "compare-additive-bare-constant": Refuse("compare_additive", "a:feet", "a - 2", "unit_mismatch"),
    "add-overlong-unit": Refuse("add", "a:" + "x" * 500 + " b:dollar", "a + b", "input_too_large"),
    "subtract-euro-dollar": Refuse("subtract", "a:euro b:dollar", "a - b", "incommensurable_units"),
    "subtract-foot-pound": Refuse("subtract", "a:foot b:pound", "a - b", "unit_mismatch"),
    "transfer-dollar-euro": Refuse("transfer", "a:dollar b:euro", "a - b", "incommensurable_units"),
    "transfer-fahrenheit": Refuse("transfer", "a:Fahrenheit b:Fahrenheit", "a - b", "offset_unit_arithmetic"),
    "compare-additive-item-dollar": Refuse("compare_additive", "a:item b:dollar", "a + b", "unit_mismatch"),
    "compare-additive-person-mice": Refuse("compare_additive", "a:person b:mice", "a + b", "incommensurable_units"),
    "multiply-foot-foot": Refuse("multiply", "a:foot b:foot", "a*b", "unit_mismatch"),
    "multiply-scalars-only": Refuse(
        "multiply", "op_000__multiplicand:dollar", "2*op_000__multiplicand", "operand_arity"
    ),
    "multiply-ratios-only": Refuse("multiply", "a:-:ratio k:-:ratio", "a*k", "operand_arity"),
    "multiply-literal-with-unit": Refuse("multiply", "a:dollar", "2*a", "unit_mismatch", literal="dollar"),
    "multiply-celsius": Refuse("multiply", "a:Celsius", "2*a", "offset_unit_arithmetic"),
    "multiply-scalar-labelled-other-kind": Refuse(
        "multiply", "a:dollar op_000__multiplicand:foot", "a*op_000__multiplicand", "unit_mismatch"
    ),
    "multiply-lhs-length": Refuse(
        "multiply",
        "a:dollar op_000__multiplicand:dollar r:foot",
        "a*op_000__multiplicand",
        "unit_mismatch",
    ),
    "divide-no-deps": Refuse("divide", "", "3/2", "operand_arity"),
    "divide-three-deps": Refuse(
        "divide",
        "a:dollar b:dollar op_000__divisor:item",
        "(a + b)/op_000__divisor",
        "operand_arity",
    ),
    "divide-no-divisor-role": Refuse("divide", "a:mile b:hour", "a/b", "operand_arity", roles="a:state b:state"),
    "divide-unitless-over-hour": Refuse(
        "divide", "a:-:ratio op_000__divisor:hour", "a/op_000__divisor", "unit_mismatch"
    ),
    "divide-celsius": Refuse("divide", "a:Celsius", "a/2", "offset_unit_arithmetic"),
    "divide-lhs-wrong-kind": Refuse("divide", "a:dollar r:foot", "a/2", "unit_mismatch"),
    "apply-rate-extra-dimension": Refuse(
        "apply_rate", "q:dollar_per_hour:rate d:mile_per_hour", "q*d", "rate_form_invalid"
    ),
    "apply-rate-wrong-dimension": Refuse("apply_rate", "q:dollar_per_hour:rate d:mile", "q*d", "rate_form_invalid"),
    "apply-rate-no-rate-role": Refuse("apply_rate", "q:dollar_per_hour d:hour", "q*d", "rate_form_invalid"),
    "apply-rate-two-rates": Refuse("apply_rate", "q:dollar_per_hour:rate d:hour:rate", "q*d", "rate_form_invalid"),
    "apply-rate-not-a-quotient": Refuse("apply_rate", "q:dollar:rate d:hour", "q*d", "rate_form_invalid"),
    "apply-rate-unitless-quantity": Refuse(
        "apply_rate", "q:dollar_per_hour:rate d:-:ratio", "q*d", "rate_form_invalid"
    ),
    "apply-rate-one-dep": Refuse("apply_rate", "q:dollar_per_hour:rate", "2*q", "operand_arity"),
    "apply-rate-three-deps": Refuse("apply_rate", "q:dollar_per_hour:rate d:hour e:hour", "q*d*e", "operand_arity"),
    "apply-rate-calendar": Refuse("apply_rate", "q:dollars_per_year:rate d:days", "q*d", "convention_required"),
    "apply-rate-other-count-kind": Refuse(
        "apply_rate", "q:dollars_per_item:rate d:people", "q*d", "incommensurable_units"
    ),
    "apply-rate-celsius": Refuse("apply_rate", "q:dollars_per_hour:rate d:Celsius", "q*d", "offset_unit_arithmetic"),
    "apply-rate-literal-unit": Refuse(
        "apply_rate", "q:dollar_per_hour:rate d:hour", "q*d", "unit_mismatch", literal="dollar"
    ),
    "apply-rate-sum-shape": Refuse(
        "apply_rate", "q:dollar_per_hour:rate d:hour", "q*d + 1", "operand_arity", literal="dollar"
    ),
    "add-product-shape": Refuse("add", "x:feet y:feet", "x*y", "operand_arity"),
    "add-square-shape": Refuse("add", "x:feet", "x**2", "operand_arity"),
    "compare-multiplicative-sum-shape": Refuse("compare_multiplicative", "b:feet", "b + 5", "operand_arity"),
    "apply-rate-sum-of-operands": Refuse("apply_rate", "q:dollar_per_hour:rate d:hour", "q + d", "operand_arity"),
    "divide-upside-down": Refuse("divide", "a:dollar op_000__divisor:hour", "op_000__divisor/a", "operand_arity"),
    "apply-rate-lhs-length": Refuse("apply_rate", "q:dollar_per_hour:rate d:hour r:foot", "q*d", "unit_mismatch"),
    "compare-multiplicative-two-deps": Refuse("compare_multiplicative", "a:item b:item", "a*b", "operand_arity"),
    "compare-multiplicative-no-deps": Refuse("compare_multiplicative", "", "3", "operand_arity"),
    "compare-multiplicative-celsius": Refuse("compare_multiplicative", "a:Celsius", "3*a", "offset_unit_arithmetic"),
    "compare-multiplicative-lhs-length": Refuse("compare_multiplicative", "a:items r:foot", "3*a", "unit_mismatch"),
    "unit-partition-one-dep": Refuse("unit_partition", "a:foot", "a", "operand_arity"),
    "unit-partition-no-chunk-role": Refuse(
        "unit_partition", "a:feet b:inches", "a/b", "operand_arity", roles="a:state b:state"
    ),
    "unit-partition-chunk-other-dimension": Refuse(
        "unit_partition", "a:feet op_000__chunk:pound", "a/op_000__chunk", "unit_mismatch"
    ),
    "unit-partition-currencies": Refuse(
        "unit_partition", "a:dollar op_000__chunk:euro", "a/op_000__chunk", "incommensurable_units"
    ),
    "unit-partition-celsius": Refuse(
        "unit_partition",
        "a:Celsius op_000__chunk:Celsius",
        "a/op_000__chunk",
        "offset_unit_arithmetic",
    ),
    "unit-partition-lhs-length": Refuse(
        "unit_partition", "a:feet op_000__chunk:inches r:foot", "a/op_000__chunk", "unit_mismatch"
    ),
    "fraction-portion-length": Refuse("fraction_portion", "a:foot", "2*a/3", "unit_mismatch"),
    "fraction-portion-ratio": Refuse("fraction_portion", "a:-:ratio", "2*a/3", "unit_mismatch", roles="a:state"),
    "fraction-portion-two-deps": Refuse("fraction_portion", "a:items b:items", "a*b", "operand_arity"),
    "fraction-portion-no-deps": Refuse("fraction_portion", "", "2/3", "operand_arity"),
    "fraction-portion-lhs-other-kind": Refuse("fraction_portion", "a:items r:person", "2*a/3", "incommensurable_units"),
    "unknown-operation": Refuse("frobnicate", "a:dollar b:dollar", "a + b", "unknown_operation"),
    "unknown-operation-case": Refuse("Add", "a:dollar", "a", "unknown_operation"),
}


@pytest.mark.parametrize("label", ADMITTED)
def test_admitted(label: str) -> None:
    """Admitted rows carry the upstream proof string, result unit, exact factors, declarations."""
    row = ADMITTED[label]
    verdict = check(row.kind, row.symbols, row.rhs, vocab=row.vocab, literal=row.literal)
    assert verdict.status == "admitted", verdict
    assert verdict.refusal is None
    assert verdict.proof is not None
    assert verdict.unit_proof == row.proof
    assert verdict.proof.to_canonical_string() == row.proof
    assert verdict.proof.result_unit == row.unit
    assert verdict.proof.factors == fractions(row.factors)
    assert all(type(f) is Fraction for f in verdict.proof.factors.values())
    assert verdict.proof.declarations == row.declared


@pytest.mark.parametrize("label", REFUSED)
def test_refused(label: str) -> None:
    """Refused rows carry the typed reason, no proof and the 'unverified' proof slot."""
    row = REFUSED[label]
    verdict = check(row.kind, row.symbols, row.rhs, vocab=row.vocab, literal=row.literal, roles=row.roles)
    assert verdict.status == "refused", verdict
    assert verdict.proof is None
    assert verdict.refusal is not None
    assert verdict.refusal.reason == row.reason
    assert verdict.refusal.detail
    assert verdict.unit_proof == "unverified"


@pytest.mark.parametrize("kind", OPERATION_KINDS)
def test_every_kind_has_admitted_and_refused_rows(kind: str) -> None:
    """Each of the ten kinds has at least one admitted and one refused row in the tables above."""
    assert any(row.kind == kind for row in ADMITTED.values())
    assert any(row.kind == kind for row in REFUSED.values())


def _eq(rhs: str = "a") -> BoundEquation:
    return BoundEquation.create(lhs_symbol_id="r", rhs=parse_expression(rhs), operation_kind="add", source_span=SPAN)


@pytest.mark.parametrize(
    ("equation", "symbols", "vocab"),
    [
        pytest.param("r = a", [binding("a", "dollar")], None, id="equation-is-text"),
        pytest.param(None, [binding("a", "dollar")], None, id="equation-none"),
        pytest.param(_eq(), 5, None, id="symbols-int"),
        pytest.param(_eq(), "ab", None, id="symbols-str"),
        pytest.param(_eq(), None, None, id="symbols-none"),
        pytest.param(_eq(), [5], None, id="symbols-list-of-int"),
        pytest.param(_eq(), [{"symbol_id": "a"}], None, id="symbols-list-of-dict"),
        pytest.param(_eq(), {"a": 5}, None, id="symbols-mapping-of-int"),
        pytest.param(_eq(), {"a": {"unit": "dollar"}}, None, id="symbols-mapping-of-dict"),
        pytest.param(_eq(), {"a": binding("b", "dollar")}, None, id="symbols-mapping-wrong-id"),
        pytest.param(_eq(), {"a": binding("a", "dollar"), "r": "dollar"}, None, id="symbols-mapping-bad-lhs"),
        pytest.param(_eq(), [binding("a", "dollar")], "default", id="vocab-str"),
    ],
)
def test_malformed_input_refused_not_raised(equation: object, symbols: object, vocab: object) -> None:
    """Bad arguments give a malformed_input refusal; check_equation never raises."""
    verdict = check_equation(equation, symbols, vocab)  # type: ignore[arg-type]
    assert verdict.status == "refused"
    assert verdict.refusal is not None
    assert verdict.refusal.reason == "malformed_input"


ADMISSIBILITY_STAGE_REASONS = frozenset(r for r, stage in REASON_STAGES.items() if stage.startswith("admissibility"))


def test_every_admissibility_reason_is_reached() -> None:
    """Every admissibility-stage reason (and malformed_input) is produced by some test row."""
    assert (
        frozenset(
            {
                "unit_mismatch",
                "unknown_unit",
                "unit_unbound",
                "unknown_symbol",
                "unknown_operation",
                "operand_arity",
                "rate_form_invalid",
                "incommensurable_units",
                "offset_unit_arithmetic",
                "convention_required",
            }
        )
        == ADMISSIBILITY_STAGE_REASONS
    )
    reached = {row.reason for row in REFUSED.values()} | {
        "malformed_input"
    }  # malformed_input: test_malformed_input_refused_not_raised
    assert reached >= ADMISSIBILITY_STAGE_REASONS | {"malformed_input"}
    assert reached <= REFUSAL_REASONS


# ------------------------------------------------------------ the named cases


def test_foot_plus_inch_records_units_and_exact_factor() -> None:
    """Foot + inch is admitted with the concrete units and the exact Fraction 1/12 on the inches."""
    verdict = check("add", "a:foot b:inch", "a + b")
    assert verdict.proof is not None
    (op_a, op_b) = verdict.proof.operands
    assert (op_a.symbol_id, op_a.unit, op_a.factor) == ("a", "foot", Fraction(1))
    assert (op_b.symbol_id, op_b.unit, op_b.factor) == ("b", "inch", Fraction(1, 12))
    assert verdict.proof.result_unit == "foot"
    assert verdict.proof.to_json()["operands"] == [
        {"symbol_id": "a", "role": "operand", "unit": "foot", "dimension": "length", "factor": "1"},
        {
            "symbol_id": "b",
            "role": "operand",
            "unit": "inch",
            "dimension": "length",
            "factor": "1/12",
        },
    ]


def test_scalar_multiplier_stays_dimensionless() -> None:
    """A scalar labelled with the state's unit is dimensionless: money, not upstream's money^2."""
    verdict = check("multiply", f"a:dollar {M}:dollar", f"a*{M}")
    assert verdict.unit_proof == "multiply: [money,dimensionless] -> money"
    assert verdict.proof is not None
    assert [(op.role, op.dimension.to_canonical_string()) for op in verdict.proof.operands] == [
        ("state", "money"),
        ("scalar", "dimensionless"),
    ]


def test_apply_rate_needs_exactly_the_denominator_dimension() -> None:
    """apply_rate refuses a quantity with extra or other dimensions than the rate's denominator."""
    for quantity in ("mile_per_hour", "mile", "square_foot", "dollar"):
        verdict = check("apply_rate", f"q:dollar_per_hour:rate d:{quantity}", "q*d")
        assert verdict.refusal is not None
        assert verdict.refusal.reason == "rate_form_invalid", quantity
    assert check("apply_rate", "q:dollar_per_hour:rate d:hours", "q*d").status == "admitted"


def test_month_plus_day_only_under_a_declared_convention() -> None:
    """Month + day needs a convention; under {"year": "365 day"} it is admitted, listing it."""
    refused = check("add", "a:month b:day", "a + b")
    assert refused.refusal is not None
    assert refused.refusal.reason == "convention_required"
    admitted = check("add", "a:month b:day", "a + b", vocab="year365")
    assert admitted.proof is not None
    assert admitted.proof.declarations == ("convention:year=365 day",)
    assert admitted.proof.factors == {"a": Fraction(1), "b": Fraction(12, 365)}
    assert admitted.proof.to_json()["declarations"] == ["convention:year=365 day"]


def test_count_noun_declaration_listed_in_proof() -> None:
    """A declared count noun is admitted with the declaration recorded; undeclared, unknown_unit."""
    undeclared = check("add", "a:apples b:apples", "a + b")
    assert undeclared.refusal is not None
    assert undeclared.refusal.reason == "unknown_unit"
    verdict = check("add", "a:apples b:apples", "a + b", vocab="apples")
    assert verdict.proof is not None
    assert verdict.proof.declarations == ("count_noun:apples=apple",)
    assert verdict.proof.operands[0].unit == "apples"


def test_lexicon_surfaces_admitted() -> None:
    """feet, people, $, t and mph are lexicon surfaces: admitted alongside their lemmas."""
    for surface, lemma in (("feet", "foot"), ("people", "person"), ("$", "dollar"), ("t", "ton")):
        verdict = check("add", f"a:{surface} b:{lemma}", "a + b")
        assert verdict.status == "admitted", surface
        assert verdict.proof is not None
        assert verdict.proof.factors == {"a": Fraction(1), "b": Fraction(1)}
    assert check("apply_rate", "q:mph:rate d:hour", "q*d").unit_proof == "apply_rate: [time,length/time] -> length"


# ------------------------------------------------------------ proof and verdict objects


def test_unit_proof_equation_is_sympy_eq() -> None:
    """UnitProof.equation is the sympy Eq(Symbol(lhs), rhs) of the checked equation."""
    eq = BoundEquation.create(lhs_symbol_id="r", rhs=parse_expression("a + b"), operation_kind="add", source_span=SPAN)
    verdict = check_equation(eq, [binding("a", "foot"), binding("b", "inch")])
    assert verdict.proof is not None
    equation = verdict.proof.equation
    assert isinstance(equation, sympy.Equality)
    assert equation.lhs == sympy.Symbol("r")
    assert equation.rhs == eq.rhs
    assert isinstance(verdict.proof, UnitProof)
    assert verdict.proof.to_json()["equation"] == "r = a + b"


def test_symbols_as_mapping_or_iterable() -> None:
    """Symbols as a mapping, list, tuple or generator of SymbolBinding give the same verdict."""
    eq = BoundEquation.create(
        lhs_symbol_id="r",
        rhs=parse_expression("q*d"),
        operation_kind="apply_rate",
        source_span=SPAN,
    )
    symbols = [
        binding("q", "dollar_per_hour", "rate"),
        binding("d", "minutes"),
        binding("r", "cents"),
    ]
    verdicts = [
        check_equation(eq, {s.symbol_id: s for s in symbols}),
        check_equation(eq, symbols),
        check_equation(eq, tuple(reversed(symbols))),
        check_equation(eq, (s for s in symbols)),
    ]
    assert all(v.to_json() == verdicts[0].to_json() for v in verdicts)
    assert verdicts[0].unit_proof == "apply_rate: [time,money/time] -> money"
    assert verdicts[0].proof is not None
    assert verdicts[0].proof.factors == {"d": Fraction(5, 3), "q": Fraction(1)}


def test_default_vocabulary_used_when_none() -> None:
    """With vocab=None the default vocabulary decides."""
    eq = BoundEquation.create(lhs_symbol_id="r", rhs=parse_expression("a + b"), operation_kind="add", source_span=SPAN)
    assert check_equation(eq, [binding("a", "foot"), binding("b", "inch")]).status == "admitted"


def test_verdict_json() -> None:
    """Verdict.to_json carries status, the proof string or the refusal."""
    admitted = check("add", "a:foot b:inch", "a + b").to_json()
    assert (admitted["status"], admitted["unit_proof"]) == (
        "admitted",
        "add: [length,length] -> length",
    )
    assert admitted["proof"]["result_unit"] == "foot"  # type: ignore[index]
    refused = check("add", "a:dollar b:euro", "a + b").to_json()
    assert (refused["status"], refused["unit_proof"]) == ("refused", "unverified")
    assert refused["refusal"]["reason"] == "incommensurable_units"  # type: ignore[index]
    assert "proof" not in refused


@pytest.mark.parametrize(
    ("status", "proof", "refusal"),
    [
        ("admitted", None, None),
        ("refused", None, None),
        ("pending", None, Refusal(reason="unit_mismatch", detail="x")),
        ("admitted", None, Refusal(reason="unit_mismatch", detail="x")),
    ],
)
def test_verdict_invariants(status: str, proof: UnitProof | None, refusal: Refusal | None) -> None:
    """A Verdict holds a proof iff admitted and a refusal iff refused."""
    with pytest.raises(ValueError, match=r"verdict|status"):
        Verdict(status=status, proof=proof, refusal=refusal)  # type: ignore[arg-type]  # bad statuses are the point


def test_refusal_reason_closed() -> None:
    """Refusal only takes reasons of the closed vocabulary."""
    with pytest.raises(ValueError, match="not a refusal reason"):
        Refusal(reason="made_up", detail="x")  # type: ignore[arg-type]  # the runtime check is what is tested
    assert str(Refusal(reason="unit_mismatch", detail="a is length")) == "unit_mismatch: a is length"


def test_proof_operands_in_sorted_dependency_order() -> None:
    """Proof operands follow sorted dependency ids (the upstream order), whatever the rhs order."""
    verdict = check("add", "zeta:inch alpha:foot", "zeta + alpha")
    assert verdict.proof is not None
    assert [op.symbol_id for op in verdict.proof.operands] == ["alpha", "zeta"]
    assert verdict.proof.result_unit == "foot"


def test_every_number_of_a_written_sum_is_its_constant() -> None:
    """Review round 4: 'q + 0 + 3 + w - w' kept as written read only its first number (0) as the constant."""
    text = (
        "S entity_a A entity entity=A unit=None span=t[0:1] by=lane\n"
        "S entity_b B entity entity=B unit=None span=t[0:1] by=lane\n"
        "S q A.q quantity entity=A unit=meters span=t[0:1] by=lane\n"
        "S w A.w quantity entity=B unit=meters span=t[0:1] by=lane\n"
        "S r A.r quantity entity=A unit=centimeters span=t[0:1] by=lane\n"
        "S u A|r unknown entity=A unit=centimeters span=t[0:1] by=lane\n"
        "F q = 5 unit=meters span=t[0:1]\n"
        "F w = 2 unit=meters span=t[0:1]\n"
        "E r := q + 0 + 3 + w - w op=add deps=[q,w] unit_proof=unverified status=pending refusal=None span=t[0:1]\n"
        "U u expected_unit=centimeters state=terminal form=count qspan=t[0:1]"
    )
    graph, _ = parse_canonical_text(text + "\n")
    (answer,) = verify(graph, default_vocabulary()).answers.values()
    assert isinstance(answer, Refusal)
    assert answer.reason == "unit_mismatch"
    with_unit = text.replace("deps=[q,w] unit_proof", "deps=[q,w] literal_unit=centimeters unit_proof")
    graph, _ = parse_canonical_text(with_unit + "\n")
    (answer,) = verify(graph, default_vocabulary()).answers.values()
    assert not isinstance(answer, Refusal)
    assert answer.value == 503


@pytest.mark.parametrize(
    ("rhs", "deps", "unit", "expected"),
    [
        ("q + 2.5 + w - w", "[q,w] literal_unit=centimeters", "meters", Fraction(201, 40)),
        ("q*2*3*k/k*z/z", "[k,q,z]", "centimeters", Fraction(3000)),
    ],
)
def test_a_written_expression_replays_and_round_trips(rhs: str, deps: str, unit: str, expected: Fraction) -> None:
    """Review round 5: the printed 5/2 re-read as 5 * 2**-1 (replay failed), and (k*z)**-1 was refused on re-reading."""
    text = "\n".join(
        [
            "S entity_a A entity entity=A unit=None span=t[0:1] by=lane",
            "S entity_b B entity entity=B unit=None span=t[0:1] by=lane",
            "S q A.q quantity entity=A unit=meters span=t[0:1] by=lane",
            "S w A.w quantity entity=B unit=meters span=t[0:1] by=lane",
            "S k A.k ratio entity=None unit=None span=t[0:1] by=lane",
            "S z A.z ratio entity=None unit=None span=t[0:1] by=lane",
            f"S r A.r quantity entity=A unit={unit} span=t[0:1] by=lane",
            f"S u A|r unknown entity=A unit={unit} span=t[0:1] by=lane",
            "F q = 5 unit=meters span=t[0:1]",
            "F w = 2 unit=meters span=t[0:1]",
            "F k = 3 unit=None span=t[0:1]",
            "F z = 2 unit=None span=t[0:1]",
            (
                f"E r := {rhs} op={'add' if '+' in rhs else 'multiply'} deps={deps} unit_proof=unverified status=pending"
                " refusal=None span=t[0:1]"
            ),
            f"U u expected_unit={unit} state=terminal form=count qspan=t[0:1]",
        ]
    )
    vocab = default_vocabulary()
    graph, _ = parse_canonical_text(text + "\n")
    report = verify(graph, vocab)
    report.replay()
    for again in (BindingGraph.from_json(graph.to_json()), parse_canonical_text(graph.to_canonical_string())[0]):
        (answer,) = verify(again, vocab).answers.values()
        assert isinstance(answer, Answer)
        assert answer.fraction == expected
