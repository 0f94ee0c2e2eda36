"""Our verdict on each of the 45 upstream single-equation records, disagreements named (SPEC §7).

Each record (``../shared/upstream/hand_rolled/equation_verdicts.jsonl``) gives the
dependency symbols (role, unit), the lhs id and the kind, plus the verdict of the
upstream hand-rolled integer-exponent algebra.  We build the equation from the
record — rhs = sum of the dependencies for additive kinds, their product for the
others — and pin OUR verdict by id.  Where ours differs from the recorded one, the
table says why.  The same table logic also runs on records of our own
(``tests/data/equation_records.jsonl``), so it is exercised without the upstream folder.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any, NamedTuple

import pytest
import sympy

from adapters._common import upstream_roles, with_roles
from verifier import BoundEquation, SourceSpanLink, SymbolBinding, Verdict, check_equation
from verifier.admissibility import ADDITIVE_KINDS
from verifier.expr import symbol

OWN_RECORDS = Path(__file__).resolve().parents[1] / "data" / "equation_records.jsonl"
SPAN = SourceSpanLink(source_id="equation_verdicts", start=0, end=1)


class Pinned(NamedTuple):
    """Our verdict on one record: status, proof string or reason, and why we differ (or None)."""

    status: str
    outcome: str
    disagreement: str | None = None


def A(proof: str, why: str | None = None) -> Pinned:  # noqa: N802 - table shorthand
    """An admitted row."""
    return Pinned("admitted", proof, why)


def R(reason: str, why: str | None = None) -> Pinned:  # noqa: N802 - table shorthand
    """A refused row."""
    return Pinned("refused", reason, why)


CURRENCIES = "currencies without a fixed rate are incommensurable (dollar + euro would add unlike money)"
OFFSET = "absolute (offset) temperatures take no arithmetic: 20 °C + 20 °C is not 40 °C"
CONTAINER = "a box has no fixed size in items, so box + item has no exact value"
COUNT_KINDS = "count kinds stay apart: people and mice are both counts but never merge"
DEGREE = "the bare degree has no scale, so it converts to no temperature"
LEXICON = "a lexicon surface (irregular plural or symbol) that the upstream lemma lookup misses"
CALENDAR = "calendar units convert to days or weeks only under a declared convention"
SCALAR = "a scalar multiplier is dimensionless (upstream multiplies its label in: money^2)"
ONE_STATE = "multiply scales one state by dimensionless scalars; length times length is not that"
COMPARE_ARITY = (
    "compare_multiplicative scales exactly one reference (upstream admits 0 or 2 deps and labels them dimensionless)"
)
PARTITION = "we know unit_partition (upstream does not), but it needs a state and a *__chunk: one dep is operand_arity"
COMPARE_RESULT = "a multiplicative comparison keeps the reference's unit (upstream labels it dimensionless)"

UPSTREAM_TABLE: dict[str, Pinned] = {
    "eq-add-same": A("add: [money,money] -> money"),
    "eq-add-feet-inches": A("add: [length,length] -> length"),
    "eq-add-dollar-euro": R("incommensurable_units", CURRENCIES),
    "eq-add-dollar-cent": A("add: [money,money] -> money"),
    "eq-add-celsius-celsius": R("offset_unit_arithmetic", OFFSET),
    "eq-add-celsius-fahrenheit": R("offset_unit_arithmetic", OFFSET),
    "eq-add-box-item": R("incommensurable_units", CONTAINER),
    "eq-add-dozen-item": A("add: [count,count] -> count"),
    "eq-add-person-mouse": R("incommensurable_units", COUNT_KINDS),
    "eq-add-feet-irregular": A("add: [length,length] -> length", LEXICON + ": feet"),
    "eq-add-people-irregular": A("add: [count,count] -> count", LEXICON + ": people"),
    "eq-add-month-day": R("convention_required", CALENDAR),
    "eq-add-year-week": R("convention_required", CALENDAR),
    "eq-add-percent-item": R("unit_mismatch"),
    "eq-add-length-mass": R("unit_mismatch"),
    "eq-add-pound-mass-vs-lb": A("add: [mass,mass] -> mass"),
    "eq-add-cup-liter": A("add: [length^3,length^3] -> length^3"),
    "eq-add-acre-squarefoot": A("add: [length^2,length^2] -> length^2"),
    "eq-add-unknownunit": R("unknown_unit"),
    "eq-add-degree-celsius": R("incommensurable_units", DEGREE),
    "eq-subtract-mph-kph": A("subtract: [length/time,length/time] -> length/time"),
    "eq-multiply-dollar-scalar-as-dollar": A("multiply: [money,dimensionless] -> money", SCALAR),
    "eq-multiply-foot-foot": R("unit_mismatch", ONE_STATE),
    "eq-divide-one-dep": A("divide: [money] -> money"),
    "eq-divide-dollar-by-dollar-divisor": A("divide: [money,money] -> dimensionless"),
    "eq-divide-mile-by-hour-divisor": A("divide: [length,time] -> length/time"),
    "eq-divide-no-divisor-name": R("operand_arity"),
    "eq-apply-rate-wage": A("apply_rate: [time,money/time] -> money"),
    "eq-apply-rate-wage-minutes": A("apply_rate: [time,money/time] -> money"),
    "eq-apply-rate-extra-dim": R("rate_form_invalid"),
    "eq-apply-rate-wrong-dim": R("rate_form_invalid"),
    "eq-apply-rate-composite": A("apply_rate: [count,money/count] -> money"),
    "eq-apply-rate-speed-lexicon": A("apply_rate: [time,length/time] -> length"),
    "eq-apply-rate-mph-symbol": A("apply_rate: [time,length/time] -> length", LEXICON + ": mph"),
    "eq-apply-rate-density": A("apply_rate: [length^3,mass/length^3] -> mass"),
    "eq-apply-rate-no-rate-role": R("rate_form_invalid"),
    "eq-compare-mult-same": R("operand_arity", COMPARE_ARITY),
    "eq-compare-mult-none": R("operand_arity", COMPARE_ARITY),
    "eq-compare-additive-mismatch": R("unit_mismatch"),
    "eq-transfer-same": A("transfer: [money,money] -> money"),
    "eq-unknown-op": R("operand_arity", PARTITION),
    "eq-symbol-dollar-sign": A("add: [money,money] -> money", LEXICON + ": $"),
    "eq-t-vs-ton": A("add: [mass,mass] -> mass", LEXICON + ": t (the short ton)"),
    "eq-tonne-vs-ton": A("add: [mass,mass] -> mass"),
    "eq-unit-unbound": R("unit_unbound"),
}

OWN_TABLE: dict[str, Pinned] = {
    "own-add-yard-foot": A("add: [length,length] -> length"),
    "own-add-euro-cent": R("incommensurable_units", CURRENCIES + " (a cent is a hundredth of a dollar)"),
    "own-subtract-fahrenheit": R("offset_unit_arithmetic", OFFSET),
    "own-add-child-person": R("incommensurable_units", COUNT_KINDS),
    "own-multiply-hour-scalar": A("multiply: [dimensionless,time] -> time", SCALAR),
    "own-apply-rate-price-per-pound": A("apply_rate: [money/mass,mass] -> money"),
    "own-apply-rate-daily-over-year": R("convention_required", CALENDAR),
    "own-compare-mult-one-dep": A("compare_multiplicative: [count] -> count", COMPARE_RESULT),
    "own-unit-partition-one-dep": R("operand_arity", PARTITION),
    "own-divide-hour-by-minute-divisor": A("divide: [time,time] -> dimensionless"),
    "own-add-decade-year": A("add: [time,time] -> time"),
    "own-transfer-unit-unbound": R("unit_unbound"),
}


# ------------------------------------------------------------ the table logic


@cache
def load_records(path: Path) -> dict[str, dict[str, Any]]:
    """Records of a file in the equation_verdicts layout, by id."""
    records: dict[str, dict[str, Any]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            record = json.loads(line)
            assert record["id"] not in records, record["id"]
            records[record["id"]] = record
    return records


def build(record: dict[str, Any]) -> tuple[BoundEquation, list[SymbolBinding]]:
    """The equation and symbols of a record (rhs: sum of deps for additive kinds, dividend / divisor, else product).

    Upstream's apply_rate records reuse the lhs id ``r`` for the rate symbol; the lhs then sits in
    its own rhs, which check_equation reads as "no separate lhs unit" (no graph is built here).
    """
    symbols = [
        SymbolBinding(
            symbol_id=s["symbol_id"],
            name=s["symbol_id"],
            semantic_role=s["semantic_role"],
            unit=s.get("unit"),
            source_span=SPAN,
            introduced_by="equation_verdicts",
        )
        for s in record["symbols"]
    ]
    deps = [symbol(s.symbol_id) for s in symbols]
    divisors = [d for d in deps if d.name.endswith("__divisor")]
    if record["operation_kind"] == "subtract" and len(deps) > 1:  # the first less the others: a subtract's shape
        rhs = deps[0] - sympy.Add(*deps[1:])
    elif record["operation_kind"] in ADDITIVE_KINDS:
        rhs = sympy.Add(*deps)
    elif record["operation_kind"] == "divide" and len(deps) == 2 and len(divisors) == 1:
        rhs = next(d for d in deps if d is not divisors[0]) / divisors[0]
    else:
        rhs = sympy.Mul(*deps)
    equation = BoundEquation.create(
        lhs_symbol_id=record["lhs_symbol_id"],
        rhs=rhs,
        operation_kind=record["operation_kind"],
        source_span=SPAN,
    )
    table = {s.symbol_id: s for s in symbols}
    return with_roles(equation, upstream_roles(equation, table)), symbols  # upstream records name roles by suffix


def outcome(verdict: Verdict) -> tuple[str, str]:
    """(status, proof string or refusal reason)."""
    if verdict.refusal is not None:
        return verdict.status, verdict.refusal.reason
    return verdict.status, verdict.unit_proof


def theirs(record: dict[str, Any]) -> tuple[str, str]:
    """The recorded upstream (status, proof string or reason)."""
    verdict = record["hand_rolled"]
    return verdict["status"], verdict["unit_proof"] if verdict["status"] == "admitted" else verdict["reason"]


def check_record(record: dict[str, Any], pinned: Pinned) -> None:
    """Our verdict equals the pinned one and agrees with upstream iff no disagreement is named."""
    equation, symbols = build(record)
    verdict = check_equation(equation, symbols)
    assert outcome(verdict) == (pinned.status, pinned.outcome), record["id"]
    if verdict.status == "refused":
        assert verdict.proof is None
        assert verdict.unit_proof == "unverified"
    if pinned.disagreement is None:
        assert outcome(verdict) == theirs(record), f"{record['id']}: agrees with upstream"
    else:
        assert outcome(verdict) != theirs(record), f"{record['id']}: named as a disagreement ({pinned.disagreement})"


# ------------------------------------------------------------ the upstream records


def test_upstream_table_covers_every_record(upstream: Path) -> None:
    """The table pins exactly the 45 upstream record ids."""
    records = load_records(upstream / "hand_rolled" / "equation_verdicts.jsonl")
    assert len(records) == 45
    assert set(records) == set(UPSTREAM_TABLE)


@pytest.mark.parametrize("record_id", sorted(UPSTREAM_TABLE))
def test_upstream_record_verdict(upstream: Path, record_id: str) -> None:
    """Our verdict on each upstream record is pinned; it differs exactly where a reason is named."""
    record = load_records(upstream / "hand_rolled" / "equation_verdicts.jsonl")[record_id]
    check_record(record, UPSTREAM_TABLE[record_id])


def test_upstream_disagreements_are_the_named_ones(upstream: Path) -> None:
    """18 of the 45 records disagree, each for a named reason; the other 27 agree exactly."""
    records = load_records(upstream / "hand_rolled" / "equation_verdicts.jsonl")
    disagreeing = {rid for rid, record in records.items() if outcome(check_equation(*build(record))) != theirs(record)}
    assert disagreeing == {rid for rid, pinned in UPSTREAM_TABLE.items() if pinned.disagreement is not None}
    assert len(disagreeing) == 18
    assert {UPSTREAM_TABLE[rid].disagreement for rid in disagreeing} >= {
        CURRENCIES,
        OFFSET,
        CONTAINER,
        COUNT_KINDS,
        DEGREE,
        CALENDAR,
        SCALAR,
    }


def test_upstream_admitted_unknown_units_now_lexicon_surfaces(upstream: Path) -> None:
    """Upstream unknown_unit refusals we admit are the lexicon surfaces feet, people, $, t, mph."""
    records = load_records(upstream / "hand_rolled" / "equation_verdicts.jsonl")
    flipped = sorted(
        rid
        for rid, r in records.items()
        if theirs(r) == ("refused", "unknown_unit") and UPSTREAM_TABLE[rid].status == "admitted"
    )
    assert flipped == [
        "eq-add-feet-irregular",
        "eq-add-people-irregular",
        "eq-apply-rate-mph-symbol",
        "eq-symbol-dollar-sign",
        "eq-t-vs-ton",
    ]


# ------------------------------------------------------------ our own records (no upstream needed)


def test_own_table_covers_every_record() -> None:
    """The own-record table pins exactly the ids of tests/data/equation_records.jsonl."""
    assert set(load_records(OWN_RECORDS)) == set(OWN_TABLE)


@pytest.mark.parametrize("record_id", sorted(OWN_TABLE))
def test_own_record_verdict(record_id: str) -> None:
    """The same table logic pins our verdict on our own records, naming each disagreement."""
    check_record(load_records(OWN_RECORDS)[record_id], OWN_TABLE[record_id])


def test_own_records_span_every_disagreement_kind() -> None:
    """Our records hold agreements and the main disagreement kinds, exercising both branches."""
    whys = {pinned.disagreement for pinned in OWN_TABLE.values()}
    assert None in whys
    assert {
        CURRENCIES + " (a cent is a hundredth of a dollar)",
        OFFSET,
        COUNT_KINDS,
        SCALAR,
        CALENDAR,
        COMPARE_RESULT,
        PARTITION,
    } <= whys
