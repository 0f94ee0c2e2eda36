"""Exact values and answers of ``verifier.verify`` (SPEC §4 Values, State, Question targets; §6).

Every expected number below is worked out by hand from the problem's meaning
(never computed by the code under test); graphs come from the adapters or are
built by hand where a refusal needs a graph no adapter would produce.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
import sympy

from adapters import MathGraphError, bind_math_problem_graph, bind_relations, graph_from_dict
from units import UnitVocabulary, default_vocabulary
from verifier import (
    Answer,
    BindingGraph,
    BindingGraphError,
    BoundEquation,
    BoundFact,
    BoundUnknown,
    GraphReport,
    Refusal,
    SourceSpanLink,
    SymbolBinding,
    verify,
)
from verifier.crosscheck import classify, crosscheck, crosscheck_file
from verifier.model import QuestionForm, SemanticRole
from verifier.solve import MAX_VALUE_BITS
from verifier.values import Policy, ReplayError

NOUNS = {"apples": "apple", "marbles": "marble", "pears": "pear", "sections": "section"}


@pytest.fixture(scope="module")
def nouns() -> UnitVocabulary:
    """The default vocabulary with the count nouns these tests use."""
    return default_vocabulary().with_count_nouns(NOUNS)


def qty(value: object, unit: str) -> dict[str, object]:
    """A JSON quantity."""
    return {"unit": unit, "value": value}


def graph(
    initial: list[tuple[str, object, str]],
    operations: list[dict[str, object]],
    unknown: tuple[str | None, str],
    entities: tuple[str, ...] = ("Sam", "Kim"),
) -> dict[str, object]:
    """A math problem graph in the upstream JSON layout."""
    return {
        "entities": list(entities),
        "initial_state": [{"entity": e, "quantity": qty(v, u)} for e, v, u in initial],
        "operations": operations,
        "unknown": {"entity": unknown[0], "unit": unknown[1]},
    }


def op(actor: str, kind: str, operand: dict[str, object], target: str | None = None) -> dict[str, object]:
    """A JSON operation."""
    out: dict[str, object] = {"actor": actor, "kind": kind, "operand": operand}
    if target is not None:
        out["target"] = target
    return out


def run(
    data: dict[str, object], vocab: UnitVocabulary, policy: Policy = "count_exact"
) -> tuple[BindingGraph, GraphReport]:
    """Bind a JSON math problem graph and verify it."""
    bound = bind_math_problem_graph(graph_from_dict(data), vocab)
    return bound, verify(bound, vocab, policy)


def only_answer(report: GraphReport) -> Answer | Refusal:
    """The report's single answer (or refusal)."""
    (result,) = report.answers.values()
    return result


def answered(report: GraphReport) -> Answer:
    """The report's single answer, which must not be a refusal."""
    result = only_answer(report)
    assert isinstance(result, Answer), result
    return result


def refused(report: GraphReport) -> Refusal:
    """The report's single answer, which must be a refusal."""
    result = only_answer(report)
    assert isinstance(result, Refusal), result
    return result


# ---------------------------------------------------------------- forward chains

FORWARD = [
    ("single add", [("Sam", 5, "apples")], [op("Sam", "add", qty(3, "apples"))], 8),
    ("single subtract", [("Sam", 12, "apples")], [op("Sam", "subtract", qty(4, "apples"))], 8),
    (
        "add then subtract",
        [("Sam", 10, "apples")],
        [op("Sam", "add", qty(5, "apples")), op("Sam", "subtract", qty(3, "apples"))],
        12,
    ),
    (
        "multiply then add",
        [("Sam", 4, "apples")],
        [op("Sam", "multiply", qty(3, "apples")), op("Sam", "add", qty(2, "apples"))],
        14,
    ),
    (
        "add, halve, triple",
        [("Sam", 6, "apples")],
        [
            op("Sam", "add", qty(4, "apples")),
            op("Sam", "divide", qty(2, "apples")),
            op("Sam", "multiply", qty(3, "apples")),
        ],
        15,
    ),
    ("untouched state starts at 0", [], [op("Sam", "add", qty(7, "apples"))], 7),
    (
        "subtract to exactly zero",
        [("Sam", 4, "apples")],
        [op("Sam", "subtract", qty(4, "apples"))],
        0,
    ),
]


@pytest.mark.parametrize(("initial", "ops", "expected"), [row[1:] for row in FORWARD], ids=[row[0] for row in FORWARD])
def test_forward_chain_answers(
    nouns: UnitVocabulary,
    initial: list[tuple[str, object, str]],
    ops: list[dict[str, object]],
    expected: int,
) -> None:
    """A forward chain of operations on one state answers the hand-worked value exactly."""
    _, report = run(graph(initial, ops, ("Sam", "apples")), nouns)
    result = answered(report)
    assert result.value == expected
    assert isinstance(result.value, sympy.Rational)
    assert result.unit == "apples"
    assert result.state_index == "terminal"
    assert result.question_form == "count"


def test_forward_chain_values_step_by_step(nouns: UnitVocabulary) -> None:
    """Every intermediate result of a chain is solved exactly, in the state's unit."""
    ops = [
        op("Sam", "add", qty(5, "apples")),
        op("Sam", "multiply", qty(2, "apples")),
        op("Sam", "subtract", qty(6, "apples")),
    ]
    _, report = run(graph([("Sam", 10, "apples")], ops, ("Sam", "apples")), nouns)
    assert {k: v.magnitude for k, v in report.values.items() if k.endswith("_result")} == {
        "op_000_result": 15,
        "op_001_result": 30,
        "op_002_result": 24,
    }
    assert all(report.values[k].unit == "apples" for k in ("op_000_result", "op_001_result", "op_002_result"))
    assert report.refusals == {}
    assert all(v.status == "admitted" for v in report.verdicts.values())


# ---------------------------------------------------------------- transfer


def test_transfer_changes_actor_and_target(nouns: UnitVocabulary) -> None:
    """A transfer takes from the actor and gives to the target: both new states are solved."""
    data = graph(
        [("Sam", 9, "marbles"), ("Kim", 2, "marbles")],
        [op("Sam", "transfer", qty(4, "marbles"), target="Kim")],
        ("Sam", "marbles"),
    )
    _, report = run(data, nouns)
    assert report.values["op_000_result"].magnitude == 5
    assert report.values["op_000_target_result"].magnitude == 6
    assert answered(report).value == 5
    data["unknown"] = {"entity": "Kim", "unit": "marbles"}
    _, report = run(data, nouns)
    assert answered(report).value == 6
    data["unknown"] = {"entity": None, "unit": "marbles"}
    _, report = run(data, nouns)
    assert answered(report).value == 11  # a transfer keeps the total


def test_transfer_to_an_empty_target_starts_it_at_zero(nouns: UnitVocabulary) -> None:
    """A target that held nothing ends with exactly what it was given."""
    ops = [
        op("Sam", "add", qty(3, "apples")),
        op("Sam", "transfer", qty(2, "apples"), target="Kim"),
    ]
    _, report = run(graph([("Sam", 5, "apples")], ops, ("Kim", "apples")), nouns)
    assert answered(report).value == 2
    assert report.values["op_001_result"].magnitude == 6


# ---------------------------------------------------------------- reverse solves (relations)


def test_reverse_solve_from_a_comparison_and_its_result(nouns: UnitVocabulary) -> None:
    """Nia has 9 more than Omar and Nia has 15: Omar has 6."""
    bound = bind_relations(
        [
            {"kind": "more_than", "entity": "nia", "ref": "omar", "delta": 9},
            {"kind": "fact", "entity": "nia", "value": 15},
        ],
        {"entity": "omar", "unit": "apples"},
    )
    report = verify(bound, nouns)
    assert answered(report).value == 6
    assert report.values["q_omar"].magnitude == 6
    assert report.values["q_nia"].magnitude == 15


def test_reverse_solve_from_a_comparison_and_a_total(nouns: UnitVocabulary) -> None:
    """Nia has 9 more than Omar and together they have 25: Omar has 8 (and Nia 17)."""
    bound = bind_relations(
        [
            {"kind": "more_than", "entity": "nia", "ref": "omar", "delta": 9},
            {"kind": "sum_of", "entity": "together", "parts": ["nia", "omar"]},
            {"kind": "fact", "entity": "together", "value": 25},
        ],
        {"entity": "omar", "unit": "apples"},
    )
    report = verify(bound, nouns)
    assert answered(report).value == 8
    assert report.values["q_nia"].magnitude == 17
    solve = [s for s in report.trace if s.action == "solve"]
    assert len(solve) == 1
    assert dict(solve[0].inputs) == {"q_nia": "17", "q_omar": "8"}


# ---------------------------------------------------------------- inconsistent / underdetermined


def test_inconsistent_forward_system_is_refused(nouns: UnitVocabulary) -> None:
    """Nia has 15, Omar 3, and Nia 9 more than Omar: no solution, so neither is answered."""
    relations = [
        {"kind": "fact", "entity": "nia", "value": 15},
        {"kind": "fact", "entity": "omar", "value": 3},
        {"kind": "more_than", "entity": "nia", "ref": "omar", "delta": 9},
    ]
    for who in ("nia", "omar"):
        report = verify(bind_relations(relations, {"entity": who, "unit": "apples"}), nouns)
        assert refused(report).reason == "inconsistent"
        assert "q_nia" not in report.values
        assert report.values["q_omar"].magnitude == 3  # stated, listed for inspection, but not certified


def test_inconsistent_linear_system_is_refused(nouns: UnitVocabulary) -> None:
    """Nia = Omar + 9, Nia + Omar = 25 and Nia = 20 contradict each other: no answer."""
    relations = [
        {"kind": "more_than", "entity": "nia", "ref": "omar", "delta": 9},
        {"kind": "sum_of", "entity": "both", "parts": ["nia", "omar"]},
        {"kind": "fact", "entity": "both", "value": 25},
        {"kind": "fact", "entity": "nia", "value": 20},
    ]
    for who in ("nia", "omar", "both"):
        report = verify(bind_relations(relations, {"entity": who, "unit": "apples"}), nouns)
        assert refused(report).reason == "inconsistent", who


def test_contradiction_refuses_every_answer(nouns: UnitVocabulary) -> None:
    """A contradiction among some entities refuses every answer, an unrelated entity's too (certification)."""
    relations = [
        {"kind": "fact", "entity": "nia", "value": 15},
        {"kind": "fact", "entity": "omar", "value": 3},
        {"kind": "more_than", "entity": "nia", "ref": "omar", "delta": 9},
        {"kind": "fact", "entity": "zed", "value": 4},
    ]
    report = verify(bind_relations(relations, {"entity": "zed", "unit": "apples"}), nouns)
    assert refused(report).reason == "inconsistent"
    assert report.values["q_zed"].magnitude == 4


def test_two_facts_for_one_symbol_are_inconsistent(nouns: UnitVocabulary) -> None:
    """Two different stated values for one entity refuse it and what its relation rests on."""
    relations = [
        {"kind": "fact", "entity": "b", "value": 7},
        {"kind": "fact", "entity": "b", "value": 5},
        {"kind": "fact", "entity": "a", "value": 12},
        {"kind": "more_than", "entity": "b", "ref": "a", "delta": 3},
    ]
    for who in ("a", "b"):
        report = verify(bind_relations(relations, {"entity": who, "unit": "apples"}), nouns)
        assert refused(report).reason == "inconsistent", who


def test_comparison_without_a_base_is_underdetermined(nouns: UnitVocabulary) -> None:
    """Nia having 9 more than Omar, alone, fixes neither Nia nor Omar."""
    relations = [{"kind": "more_than", "entity": "nia", "ref": "omar", "delta": 9}]
    for who in ("nia", "omar"):
        report = verify(bind_relations(relations, {"entity": who, "unit": "apples"}), nouns)
        assert refused(report).reason == "underdetermined"
        assert report.values == {}


# ---------------------------------------------------------------- exact division


def test_odd_halving_is_refused_never_floored(nouns: UnitVocabulary) -> None:
    """7 apples halved refuses with non_exact_division; no value 3 (or 7/2) appears anywhere."""
    _, report = run(
        graph([("Sam", 7, "apples")], [op("Sam", "divide", qty(2, "apples"))], ("Sam", "apples")),
        nouns,
    )
    refusal = refused(report)
    assert refusal.reason == "non_exact_division"
    assert "op_000_result" not in report.values
    assert all(v.magnitude not in (3, sympy.Rational(7, 2)) for v in report.values.values())
    assert report.verdicts["op_000_result"].status == "admitted"  # the dimension is fine; the value is not


def test_even_halving_is_admitted(nouns: UnitVocabulary) -> None:
    """8 apples halved is exactly 4 apples."""
    _, report = run(
        graph([("Sam", 8, "apples")], [op("Sam", "divide", qty(2, "apples"))], ("Sam", "apples")),
        nouns,
    )
    assert answered(report).value == 4


def test_halving_money_is_exact_not_whole(vocab: UnitVocabulary) -> None:
    """Money is not a count: 7 dollars halved is exactly 7/2 dollars under count_exact."""
    _, report = run(
        graph([("Sam", 7, "dollars")], [op("Sam", "divide", qty(2, "dollars"))], ("Sam", "dollars")),
        vocab,
    )
    assert answered(report).value == sympy.Rational(7, 2)


# ---------------------------------------------------------------- exact decimals and units


def test_decimal_money_sums_exactly(vocab: UnitVocabulary) -> None:
    """0.1 dollars + 0.2 dollars is exactly 3/10 dollars (no float on the way)."""
    _, report = run(
        graph(
            [("Sam", "0.1", "dollars")],
            [op("Sam", "add", qty("0.2", "dollars"))],
            ("Sam", "dollars"),
        ),
        vocab,
    )
    result = answered(report)
    assert result.value == sympy.Rational(3, 10)
    assert isinstance(result.value, sympy.Rational)
    assert not isinstance(result.value, sympy.Float)
    assert str(result) == "3/10 dollars"
    assert report.to_json()["answers"]["unknown_sam_dollars"]["answer"]["value"] == "3/10"  # type: ignore[index]


@pytest.mark.parametrize(
    ("feet", "inches", "asked", "expected"),
    [
        (5, 3, "inches", sympy.Integer(63)),
        (5, 3, "feet", sympy.Rational(21, 4)),
        (3, 9, "inches", sympy.Integer(45)),
        (3, 9, "feet", sympy.Rational(15, 4)),
        (3, 9, "yards", sympy.Rational(5, 4)),
    ],
)
def test_feet_plus_inches_is_one_length(
    vocab: UnitVocabulary, feet: int, inches: int, asked: str, expected: sympy.Rational
) -> None:
    """Inches added to a holding in feet make one length, read exactly in any length unit."""
    _, report = run(
        graph([("Sam", feet, "feet")], [op("Sam", "add", qty(inches, "inches"))], ("Sam", asked)),
        vocab,
    )
    result = answered(report)
    assert result.value == expected
    assert result.unit == asked


def test_feet_plus_inches_state_keeps_the_holding_unit(vocab: UnitVocabulary) -> None:
    """3 feet + 9 inches is stored as 15/4 feet (the state's unit), one value, not two."""
    _, report = run(graph([("Sam", 3, "feet")], [op("Sam", "add", qty(9, "inches"))], ("Sam", "inches")), vocab)
    assert report.values["op_000_result"].magnitude == sympy.Rational(15, 4)
    assert report.values["op_000_result"].unit == "feet"


def test_wage_over_minutes_converts_exactly(vocab: UnitVocabulary) -> None:
    """15 dollars per hour over 90 minutes is exactly 45/2 dollars."""
    data = graph(
        [("Sam", 90, "minutes")],
        [
            op(
                "Sam",
                "apply_rate",
                {"value": 15, "numerator_unit": "dollars", "denominator_unit": "hours"},
            )
        ],
        ("Sam", "dollars"),
    )
    _, report = run(data, vocab)
    result = answered(report)
    assert result.value == sympy.Rational(45, 2)
    assert result.question_form == "total"
    assert report.values["q_sam_minutes_t0"].magnitude == 90  # the time state is kept


# ---------------------------------------------------------------- domain refusals


def test_negative_count_is_refused(nouns: UnitVocabulary) -> None:
    """Taking 5 apples from 3 refuses with negative_count."""
    _, report = run(
        graph([("Sam", 3, "apples")], [op("Sam", "subtract", qty(5, "apples"))], ("Sam", "apples")),
        nouns,
    )
    assert refused(report).reason == "negative_count"
    assert report.refusals["op_000_result"].reason == "negative_count"


def test_negative_money_is_a_value(vocab: UnitVocabulary) -> None:
    """Money is not a count: spending 5 dollars of 3 leaves exactly -2 dollars."""
    _, report = run(
        graph([("Sam", 3, "dollars")], [op("Sam", "subtract", qty(5, "dollars"))], ("Sam", "dollars")),
        vocab,
    )
    assert answered(report).value == -2


@pytest.mark.parametrize(
    ("initial", "ops"),
    [
        ([("Sam", "2.5", "apples")], []),
        ([("Sam", "5/2", "apples")], []),
        ([("Sam", 3, "apples")], [op("Sam", "add", qty("1/2", "apples"))]),
        (
            [("Sam", 3, "apples")],
            [op("Sam", "multiply", qty("1/2", "apples")), op("Sam", "add", qty(1, "apples"))],
        ),
    ],
    ids=["decimal fact", "fraction fact", "fractional add", "fractional scaling"],
)
def test_non_integer_count_is_refused(
    nouns: UnitVocabulary, initial: list[tuple[str, object, str]], ops: list[dict[str, object]]
) -> None:
    """A count that is not whole is refused (non_integer_count, or non_exact_division for a scaling)."""
    _, report = run(graph(initial, ops, ("Sam", "apples")), nouns)
    refusal = refused(report)
    assert refusal.reason in {"non_integer_count", "non_exact_division", "refused_dependency"}
    assert any(r.reason in {"non_integer_count", "non_exact_division"} for r in report.refusals.values())


def test_non_integer_count_reason(nouns: UnitVocabulary) -> None:
    """Adding half an apple names non_integer_count exactly."""
    _, report = run(
        graph([("Sam", 3, "apples")], [op("Sam", "add", qty("1/2", "apples"))], ("Sam", "apples")),
        nouns,
    )
    assert refused(report).reason == "non_integer_count"


def test_division_by_zero_is_refused(nouns: UnitVocabulary) -> None:
    """Dividing by 0 refuses with division_by_zero."""
    _, report = run(
        graph([("Sam", 3, "apples")], [op("Sam", "divide", qty(0, "apples"))], ("Sam", "apples")),
        nouns,
    )
    assert refused(report).reason == "division_by_zero"


def test_relational_division_by_zero_is_refused(nouns: UnitVocabulary) -> None:
    """A divide_by of 0 refuses with division_by_zero."""
    bound = bind_relations(
        [
            {"kind": "fact", "entity": "a", "value": 8},
            {"kind": "divide_by", "entity": "b", "ref": "a", "divisor": 0},
        ],
        {"entity": "b", "unit": "apples"},
    )
    assert refused(verify(bound, nouns)).reason == "division_by_zero"


def test_zero_divisor_with_an_unsolved_dividend_is_refused(nouns: UnitVocabulary) -> None:
    """A zero divisor meeting a dividend left to the linear solve refuses (it used to crash on NaN)."""
    bound = bind_relations(
        [
            {"kind": "divide_by", "entity": "b", "ref": "a", "divisor": 1},
            {"kind": "divide_by", "entity": "a", "ref": "c", "divisor": 0},
            {"kind": "fewer_than", "entity": "d", "ref": "a", "delta": 3},
        ],
        {"entity": "a", "unit": "apples"},
    )
    for policy in ("count_exact", "integer"):
        report = verify(bound, nouns, policy)
        assert refused(report).reason == "division_by_zero"
        assert "q_b" not in report.values
        json.dumps(report.to_json())


def test_value_out_of_range_is_refused(vocab: UnitVocabulary) -> None:
    """10^20 dollars times 10^20 is beyond the value bound: value_out_of_range."""
    big = "1" + "0" * 20
    _, report = run(
        graph(
            [("Sam", big, "dollars")],
            [op("Sam", "multiply", qty(big, "dollars"))],
            ("Sam", "dollars"),
        ),
        vocab,
    )
    assert (10**40).bit_length() > MAX_VALUE_BITS >= (10**20).bit_length()
    assert refused(report).reason == "value_out_of_range"


# ---------------------------------------------------------------- refused dependencies


def test_refusal_poisons_every_answer(nouns: UnitVocabulary) -> None:
    """A negative count refuses what follows from it, names the cause, and refuses every answer of the graph."""
    ops = [
        op("Sam", "subtract", qty(5, "apples")),
        op("Sam", "add", qty(10, "apples")),
        op("Kim", "add", qty(1, "pears")),
    ]
    data = graph([("Sam", 3, "apples"), ("Kim", 4, "pears")], ops, ("Kim", "pears"))
    _, report = run(data, nouns)
    assert refused(report).reason == "negative_count"
    assert "op_000_result" in refused(report).detail
    assert report.values["op_002_result"].magnitude == 5  # Kim's pears are still listed, not certified
    dependent = report.refusals["op_001_result"]
    assert dependent.reason == "refused_dependency"
    assert "op_000_result" in dependent.detail
    assert "negative_count" in dependent.detail
    data["unknown"] = {"entity": "Sam", "unit": "apples"}
    _, report = run(data, nouns)
    refusal = refused(report)
    assert refusal.reason == "negative_count"  # the answer reports the root cause, naming the path
    assert "op_000_result" in refusal.detail


def test_refused_dependency_names_the_root_cause_deep_in_a_chain(vocab: UnitVocabulary) -> None:
    """Twelve steps after a negative count, the values still name the first refused symbol and why, and the answer its reason."""
    ops = [op("Sam", "subtract", qty(5, "items"))] + [op("Sam", "add", qty(1, "items")) for _ in range(12)]
    _, report = run(graph([("Sam", 1, "items")], ops, ("Sam", "items"), entities=("Sam",)), vocab)
    last = report.refusals["op_012_result"]
    assert last.reason == "refused_dependency"
    assert "op_011_result" in last.detail
    assert "op_000_result (negative_count" in last.detail
    refusal = refused(report)
    assert refusal.reason == "negative_count"
    assert "op_000_result" in refusal.detail


def test_admissibility_refusal_poisons_dependents(vocab: UnitVocabulary) -> None:
    """An equation refused by admissibility (offset arithmetic) refuses everything built on it."""
    ops = [op("Sam", "add", qty(5, "Celsius")), op("Sam", "add", qty(1, "Celsius"))]
    _, report = run(graph([("Sam", 20, "Celsius")], ops, ("Sam", "Celsius"), entities=("Sam",)), vocab)
    assert report.verdicts["op_000_result"].status == "refused"
    assert report.refusals["op_001_result"].reason in {
        "offset_unit_arithmetic",
        "refused_dependency",
    }
    assert refused(report).reason in {"offset_unit_arithmetic", "refused_dependency"}
    assert report.values.keys() == {"q_sam_celsius_t0"}


# ---------------------------------------------------------------- totals


def test_total_over_entities(nouns: UnitVocabulary) -> None:
    """An unknown with no entity is the total over every entity holding that kind."""
    data = graph([("Sam", 3, "apples"), ("Kim", 4, "apples")], [], (None, "apples"))
    _, report = run(data, nouns)
    result = answered(report)
    assert result.value == 7
    assert result.question_form == "identity"
    assert result.state_index == "initial"


def test_total_skips_other_kinds(nouns: UnitVocabulary) -> None:
    """Pears never count towards a total of apples."""
    data = graph(
        [("Sam", 3, "apples"), ("Kim", 4, "pears"), ("Ann", 2, "apples")],
        [],
        (None, "apples"),
        entities=("Sam", "Kim", "Ann"),
    )
    _, report = run(data, nouns)
    assert answered(report).value == 5


def test_total_converts_each_holding(vocab: UnitVocabulary) -> None:
    """3 feet and 6 inches held by two people total 42 inches, or 7/2 feet."""
    data = graph([("Sam", 3, "feet"), ("Kim", 6, "inches")], [], (None, "inches"))
    _, report = run(data, vocab)
    assert answered(report).value == 42
    data["unknown"] = {"entity": None, "unit": "feet"}
    _, report = run(data, vocab)
    assert answered(report).value == sympy.Rational(7, 2)


def test_total_of_nothing_is_state_unset(nouns: UnitVocabulary) -> None:
    """A total of a kind nobody holds refuses with state_unset."""
    _, report = run(graph([("Sam", 3, "apples")], [], (None, "pears")), nouns)
    assert refused(report).reason == "state_unset"


# ---------------------------------------------------------------- question forms

RATE = {"value": 15, "numerator_unit": "dollars", "denominator_unit": "hours"}
QUESTION_FORMS = [
    (
        "count",
        [("Sam", 5, "apples")],
        [op("Sam", "add", qty(3, "apples"))],
        ("Sam", "apples"),
        sympy.Integer(8),
    ),
    ("identity", [("Sam", 5, "apples")], [], ("Sam", "apples"), sympy.Integer(5)),
    (
        "total",
        [("Sam", 3, "hours")],
        [op("Sam", "apply_rate", RATE)],
        ("Sam", "dollars"),
        sympy.Integer(45),
    ),
    (
        "rate",
        [("Sam", 3, "hours")],
        [op("Sam", "apply_rate", RATE)],
        ("Sam", "minutes"),
        sympy.Integer(180),
    ),
    (
        "difference",
        [("Sam", 3, "apples")],
        [
            op(
                "Kim",
                "compare_additive",
                {"reference_actor": "Sam", "direction": "more", "delta": qty(4, "apples")},
            )
        ],
        ("Kim", "apples"),
        sympy.Integer(7),
    ),
    (
        "ratio",
        [("Sam", 3, "apples")],
        [
            op(
                "Kim",
                "compare_multiplicative",
                {"reference_actor": "Sam", "direction": "times", "factor": 4},
            )
        ],
        ("Kim", "apples"),
        sympy.Integer(12),
    ),
]


@pytest.mark.parametrize(
    ("form", "initial", "ops", "unknown", "expected"),
    QUESTION_FORMS,
    ids=[row[0] for row in QUESTION_FORMS],
)
def test_every_question_form(
    nouns: UnitVocabulary,
    *,
    form: str,
    initial: list[tuple[str, object, str]],
    ops: list[dict[str, object]],
    unknown: tuple[str, str],
    expected: sympy.Rational,
) -> None:
    """Each ADR-0135 question form is bound on the unknown and answered exactly."""
    bound, report = run(graph(initial, ops, unknown), nouns)
    (unk,) = bound.unknowns
    assert unk.question_form == form
    result = answered(report)
    assert result.question_form == form
    assert result.value == expected
    assert result.state_index == ("terminal" if ops else "initial")


def test_fewer_and_fraction_comparisons(nouns: UnitVocabulary) -> None:
    """Two fewer than 9 is 7; a third as many as 9 is 3."""
    fewer = op(
        "Kim",
        "compare_additive",
        {"reference_actor": "Sam", "direction": "fewer", "delta": qty(2, "apples")},
    )
    _, report = run(graph([("Sam", 9, "apples")], [fewer], ("Kim", "apples")), nouns)
    assert answered(report).value == 7
    third = op(
        "Kim",
        "compare_multiplicative",
        {"reference_actor": "Sam", "direction": "fraction", "factor": "1/3"},
    )
    _, report = run(graph([("Sam", 9, "apples")], [third], ("Kim", "apples")), nouns)
    assert answered(report).value == 3


# ---------------------------------------------------------------- question-target refusals


def _with_unknown(bound: BindingGraph, binding: SymbolBinding, unknown: BoundUnknown) -> BindingGraph:
    """The graph with its unknown (symbol and target) replaced."""
    old = {u.symbol_id for u in bound.unknowns}
    symbols = (*(s for s in bound.symbols if s.symbol_id not in old), binding)
    return BindingGraph(symbols=symbols, facts=bound.facts, equations=bound.equations, unknowns=(unknown,))


SPAN = SourceSpanLink(source_id="test", start=0, end=1)


def test_unknown_entity_not_in_entities(nouns: UnitVocabulary) -> None:
    """An unknown about someone who is no entity of the graph refuses with unknown_entity_not_in_entities."""
    bound, _ = run(
        graph([("Sam", 5, "apples")], [op("Sam", "add", qty(3, "apples"))], ("Sam", "apples")),
        nouns,
    )
    binding = SymbolBinding(
        symbol_id="unknown_zoe_apples",
        name="Zoe|apples",
        semantic_role="unknown",
        source_span=SPAN,
        introduced_by="test",
        entity="Zoe",
        unit="apples",
    )
    unknown = BoundUnknown(
        symbol_id="unknown_zoe_apples",
        question_span=SPAN,
        state_index="terminal",
        question_form="count",
        expected_unit="apples",
    )
    report = verify(_with_unknown(bound, binding, unknown), nouns)
    assert refused(report).reason == "unknown_entity_not_in_entities"


def test_apply_rate_unit_mismatch_in_verify(vocab: UnitVocabulary) -> None:
    """Asking a rate problem in a unit that is neither the rate's numerator nor denominator refuses."""
    bound, _ = run(graph([("Sam", 3, "hours")], [op("Sam", "apply_rate", RATE)], ("Sam", "dollars")), vocab)
    binding = SymbolBinding(
        symbol_id="unknown_sam_feet",
        name="Sam|feet",
        semantic_role="unknown",
        source_span=SPAN,
        introduced_by="test",
        entity="Sam",
        unit="feet",
    )
    unknown = BoundUnknown(
        symbol_id="unknown_sam_feet",
        question_span=SPAN,
        state_index="terminal",
        question_form="total",
        expected_unit="feet",
    )
    report = verify(_with_unknown(bound, binding, unknown), vocab)
    assert refused(report).reason == "apply_rate_unit_mismatch"


def test_apply_rate_unit_mismatch_in_binding(vocab: UnitVocabulary) -> None:
    """bind_math_problem_graph refuses the same question with apply_rate_unit_mismatch at the unknown."""
    with pytest.raises(MathGraphError) as info:
        run(graph([("Sam", 3, "hours")], [op("Sam", "apply_rate", RATE)], ("Sam", "feet")), vocab)
    assert info.value.reason == "apply_rate_unit_mismatch"
    assert info.value.path == "unknown"


@pytest.mark.parametrize("recorded", ["ratio", "difference", "identity", "total", "rate"])
def test_recorded_form_disagreeing_with_the_graph(nouns: UnitVocabulary, recorded: QuestionForm) -> None:
    """An unknown whose recorded question form is not the one the graph implies refuses (unmappable_question_form)."""
    bound, _ = run(
        graph([("Sam", 5, "apples")], [op("Sam", "add", qty(3, "apples"))], ("Sam", "apples")),
        nouns,
    )
    (binding,) = (s for s in bound.symbols if s.semantic_role == "unknown")
    unknown = dataclasses.replace(bound.unknowns[0], question_form=recorded)
    report = verify(_with_unknown(bound, binding, unknown), nouns)
    refusal = refused(report)
    assert refusal.reason == "unmappable_question_form"
    assert recorded in refusal.detail


def test_unknown_without_a_unit_is_unit_unbound(nouns: UnitVocabulary) -> None:
    """An unknown asking for no unit refuses with unit_unbound."""
    bound, _ = run(graph([("Sam", 5, "apples")], [], ("Sam", "apples")), nouns)
    binding = SymbolBinding(
        symbol_id="unknown_sam",
        name="Sam|?",
        semantic_role="unknown",
        source_span=SPAN,
        introduced_by="test",
        entity="Sam",
    )
    unknown = BoundUnknown(symbol_id="unknown_sam", question_span=SPAN, state_index="initial", question_form="identity")
    assert refused(verify(_with_unknown(bound, binding, unknown), nouns)).reason == "unit_unbound"


# ---------------------------------------------------------------- binding refusals

BINDING_REFUSALS = [
    ("state_unset", [], [op("Sam", "multiply", qty(2, "apples"))]),
    ("state_unset", [], [op("Sam", "divide", qty(2, "apples"))]),
    ("state_unset", [("Sam", 4, "apples")], [op("Sam", "apply_rate", RATE)]),
    (
        "underdetermined",  # neither holding is known: the comparison fixes neither
        [],
        [
            op(
                "Kim",
                "compare_additive",
                {"reference_actor": "Sam", "direction": "more", "delta": qty(1, "apples")},
            )
        ],
    ),
    (
        "underdetermined",  # neither holding is known: the comparison fixes neither
        [],
        [
            op(
                "Kim",
                "compare_multiplicative",
                {"reference_actor": "Sam", "direction": "times", "factor": 2},
            )
        ],
    ),
    (
        "state_unset",
        [],
        [op("Sam", "unit_partition", {"value": 2, "unit": "feet", "result_unit": "sections"})],
    ),
    ("redeclared_state", [("Sam", 3, "feet"), ("Sam", 9, "inches")], []),
    (
        "ambiguous_reference",
        [("Sam", 3, "apples"), ("Sam", 1, "pears")],
        [
            op(
                "Kim",
                "compare_multiplicative",
                {"reference_actor": "Sam", "direction": "times", "factor": 2},
            )
        ],
    ),
    (
        "ambiguous_reference",
        [("Sam", 3, "apples")],
        [op("Sam", "fraction_portion", {"numerator": 1, "denominator": 2, "referent": "that"})],
    ),
    (
        "malformed_input",  # a unit name is not one of upstream's referents
        [("Sam", 100, "feet")],
        [
            op("Sam", "unit_partition", {"value": 25, "unit": "feet", "result_unit": "sections"}),
            op("Sam", "fraction_portion", {"numerator": 1, "denominator": 2, "referent": "sections"}),
        ],
    ),
]


@pytest.mark.parametrize(
    "comparison",
    [
        {
            "kind": "compare_additive",
            "operand": {"reference_actor": "Sam", "direction": "more", "delta": qty(2, "apples")},
        },
        {"kind": "compare_multiplicative", "operand": {"reference_actor": "Sam", "direction": "times", "factor": 2}},
    ],
)
def test_a_comparison_of_two_known_holdings_is_checked_not_overwritten(
    nouns: UnitVocabulary, comparison: dict[str, object]
) -> None:
    """Sam 3: 'Kim has 2 more than (twice) Sam' is an equation, checked against Kim's own holding.

    Kim 1 fails it (inconsistent, nothing is redeclared); Kim 5 (6) satisfies it and is answered.
    """
    ops = [op("Kim", str(comparison["kind"]), comparison["operand"])]  # type: ignore[arg-type]
    _, report = run(graph([("Sam", 3, "apples"), ("Kim", 1, "apples")], ops, ("Kim", "apples")), nouns)
    assert refused(report).reason == "inconsistent"
    holds = 5 if comparison["kind"] == "compare_additive" else 6
    _, report = run(graph([("Sam", 3, "apples"), ("Kim", holds, "apples")], ops, ("Kim", "apples")), nouns)
    answer = only_answer(report)
    assert isinstance(answer, Answer)
    assert answer.value == holds


@pytest.mark.parametrize(("reason", "initial", "ops"), BINDING_REFUSALS)
def test_binding_refusals(
    nouns: UnitVocabulary,
    reason: str,
    initial: list[tuple[str, object, str]],
    ops: list[dict[str, object]],
) -> None:
    """Graphs whose meaning cannot be bound raise MathGraphError with the closed reason."""
    with pytest.raises(MathGraphError) as info:
        run(graph(initial, ops, ("Sam", "apples")), nouns)
    assert info.value.reason == reason
    assert info.value.path.startswith(("operations[", "initial_state"))


def test_unknown_reading_an_unset_state(nouns: UnitVocabulary) -> None:
    """Asking about a state nobody set refuses with state_unset in the report."""
    _, report = run(graph([("Sam", 3, "apples")], [], ("Kim", "apples")), nouns)
    assert refused(report).reason == "state_unset"


# ---------------------------------------------------------------- integer policy


def test_integer_policy_refuses_what_count_exact_refuses(nouns: UnitVocabulary) -> None:
    """7 apples halved is refused under both policies, never 3."""
    bound = bind_relations(
        [
            {"kind": "fact", "entity": "a", "value": 7},
            {"kind": "divide_by", "entity": "b", "ref": "a", "divisor": 2},
        ],
        {"entity": "b", "unit": "apples"},
    )
    for policy in ("count_exact", "integer"):
        report = verify(bound, nouns, policy)
        assert refused(report).reason == "non_exact_division", policy
        assert report.policy == policy


def test_integer_policy_makes_every_quotient_whole(vocab: UnitVocabulary) -> None:
    """9 dollars halved is 9/2 under count_exact but refused under the integer policy."""
    bound = bind_relations(
        [
            {"kind": "fact", "entity": "a", "value": 9},
            {"kind": "divide_by", "entity": "b", "ref": "a", "divisor": 2},
        ],
        {"entity": "b", "unit": "dollars"},
    )
    assert answered(verify(bound, vocab)).value == sympy.Rational(9, 2)
    assert refused(verify(bound, vocab, policy="integer")).reason == "non_exact_division"


def test_integer_policy_refuses_a_fractional_divisor(nouns: UnitVocabulary) -> None:
    """Dividing 8 by 1/2 is 16 under count_exact; the integer policy refuses the fractional divisor."""
    bound = bind_relations(
        [
            {"kind": "fact", "entity": "a", "value": 8},
            {"kind": "divide_by", "entity": "b", "ref": "a", "divisor": "1/2"},
        ],
        {"entity": "b", "unit": "apples"},
    )
    assert answered(verify(bound, nouns)).value == 16
    refusal = refused(verify(bound, nouns, policy="integer"))
    assert refusal.reason == "non_exact_division"
    assert "1/2" in refusal.detail


def test_integer_policy_admits_whole_quotients(nouns: UnitVocabulary) -> None:
    """8 divided by 2 is 4 under the integer policy; "half as many" of 8 is 4 as well."""
    bound = bind_relations(
        [
            {"kind": "fact", "entity": "a", "value": 8},
            {"kind": "divide_by", "entity": "b", "ref": "a", "divisor": 2},
        ],
        {"entity": "b", "unit": "apples"},
    )
    assert answered(verify(bound, nouns, policy="integer")).value == 4
    half = bind_relations(
        [
            {"kind": "fact", "entity": "a", "value": 8},
            {"kind": "times_as_many", "entity": "b", "ref": "a", "factor": "1/2"},
        ],
        {"entity": "b", "unit": "dollars"},
    )
    assert answered(verify(half, nouns, policy="integer")).value == 4


def test_integer_policy_refuses_fractional_scaling(vocab: UnitVocabulary) -> None:
    """Half as many as 9 dollars is refused under the integer policy (9/2 under count_exact)."""
    half = bind_relations(
        [
            {"kind": "fact", "entity": "a", "value": 9},
            {"kind": "times_as_many", "entity": "b", "ref": "a", "factor": "1/2"},
        ],
        {"entity": "b", "unit": "dollars"},
    )
    assert answered(verify(half, vocab)).value == sympy.Rational(9, 2)
    assert refused(verify(half, vocab, policy="integer")).reason == "non_exact_division"


@pytest.mark.parametrize(
    ("args", "field"),
    [(("not a graph",), "graph"), ((None, None, "floor"), "policy"), ((None, "vocab"), "vocab")],
)
def test_verify_refuses_bad_arguments(nouns: UnitVocabulary, args: tuple[object, ...], field: str) -> None:
    """Verify refuses a non-graph, an unknown policy and a non-vocabulary with malformed_input naming the argument."""
    bound, _ = run(graph([("Sam", 1, "apples")], [], ("Sam", "apples")), nouns)
    call = list(args)
    if call[0] is None:
        call[0] = bound
    with pytest.raises(BindingGraphError) as info:
        verify(*call)  # type: ignore[arg-type]
    assert info.value.reason == "malformed_input"
    assert info.value.path == field


# ---------------------------------------------------------------- temperatures and calendars


def test_offset_temperature_arithmetic_is_refused(vocab: UnitVocabulary) -> None:
    """20 Celsius plus 5 Celsius is ambiguous: offset_unit_arithmetic."""
    _, report = run(
        graph(
            [("Sam", 20, "Celsius")],
            [op("Sam", "add", qty(5, "Celsius"))],
            ("Sam", "Celsius"),
            entities=("Sam",),
        ),
        vocab,
    )
    assert report.verdicts["op_000_result"].refusal is not None
    assert report.verdicts["op_000_result"].refusal.reason == "offset_unit_arithmetic"
    assert refused(report).reason == "offset_unit_arithmetic"


def test_total_of_absolute_temperatures_is_refused(vocab: UnitVocabulary) -> None:
    """Summing two absolute temperatures is refused."""
    _, report = run(graph([("Sam", 20, "Celsius"), ("Kim", 10, "Celsius")], [], (None, "Celsius")), vocab)
    assert refused(report).reason == "offset_unit_arithmetic"


def test_single_temperature_converts_with_its_offset(vocab: UnitVocabulary) -> None:
    """One temperature of 20 Celsius read in Fahrenheit is exactly 68 (no arithmetic on it)."""
    _, report = run(graph([("Sam", 20, "Celsius")], [], ("Sam", "Fahrenheit"), entities=("Sam",)), vocab)
    assert answered(report).value == 68


def test_calendar_units_convert_under_a_convention(vocab: UnitVocabulary) -> None:
    """With a year of 365 days, 2 years plus 5 days is 735 days; the proof records the convention."""
    conv = vocab.with_conventions({"year": "365 day"})
    data = graph(
        [("Sam", 2, "years")],
        [op("Sam", "add", qty(5, "days"))],
        ("Sam", "days"),
        entities=("Sam",),
    )
    _, report = run(data, conv)
    assert answered(report).value == 735
    proof = report.verdicts["op_000_result"].proof
    assert proof is not None
    assert "convention:year=365 day" in proof.declarations
    data["operations"] = []
    _, report = run(data, conv)
    assert answered(report).value == 730


def test_calendar_units_without_a_convention_are_refused(vocab: UnitVocabulary) -> None:
    """With no convention, adding days to years is refused (convention_required), never a separate 5 days."""
    data = graph(
        [("Sam", 2, "years")],
        [op("Sam", "add", qty(5, "days"))],
        ("Sam", "days"),
        entities=("Sam",),
    )
    _, report = run(data, vocab)
    verdict = report.verdicts["op_000_result"]
    assert verdict.refusal is not None
    assert verdict.refusal.reason == "convention_required"
    assert isinstance(only_answer(report), Refusal)
    data["unknown"] = {"entity": "Sam", "unit": "years"}
    _, report = run(data, vocab)
    assert refused(report).reason == "convention_required"


def test_calendar_units_among_themselves_need_no_convention(vocab: UnitVocabulary) -> None:
    """2 years plus 5 months is exactly 29 months with no declared convention."""
    _, report = run(
        graph(
            [("Sam", 2, "years")],
            [op("Sam", "add", qty(5, "months"))],
            ("Sam", "months"),
            entities=("Sam",),
        ),
        vocab,
    )
    assert answered(report).value == 29


# ---------------------------------------------------------------- report: replay, repr, JSON


def _reports(nouns: UnitVocabulary) -> list[GraphReport]:
    """A few reports covering forward chains, conversions, totals and a linear solve."""
    out = [
        run(
            graph(
                [("Sam", 10, "apples")],
                [
                    op("Sam", "add", qty(5, "apples")),
                    op("Sam", "transfer", qty(3, "apples"), target="Kim"),
                ],
                (None, "apples"),
            ),
            nouns,
        )[1],
        run(
            graph([("Sam", 3, "feet")], [op("Sam", "add", qty(9, "inches"))], ("Sam", "inches")),
            nouns,
        )[1],
        run(
            graph([("Sam", 90, "minutes")], [op("Sam", "apply_rate", RATE)], ("Sam", "dollars")),
            nouns,
        )[1],
        run(
            graph(
                [("Sam", 3, "apples")],
                [op("Sam", "subtract", qty(5, "apples")), op("Kim", "add", qty(2, "apples"))],
                ("Kim", "apples"),
            ),
            nouns,
        )[1],
    ]
    out.append(
        verify(
            bind_relations(
                [
                    {"kind": "more_than", "entity": "nia", "ref": "omar", "delta": 9},
                    {"kind": "sum_of", "entity": "both", "parts": ["nia", "omar"]},
                    {"kind": "fact", "entity": "both", "value": 25},
                ],
                {"entity": "omar", "unit": "apples"},
            ),
            nouns,
        )
    )
    return out


def test_replay_reproduces_every_answer(nouns: UnitVocabulary) -> None:
    """GraphReport.replay() recomputes the trace and gives back every answer exactly."""
    expected = [Fraction(15), Fraction(45), Fraction(45, 2), None, Fraction(8)]  # the poisoned graph certifies none
    for report, value in zip(_reports(nouns), expected, strict=True):
        replayed = report.replay()
        (name,) = report.answers
        assert replayed.get(name) == value


def test_replay_detects_a_tampered_trace(nouns: UnitVocabulary) -> None:
    """A trace whose recorded value was changed no longer replays (ReplayError)."""
    report = _reports(nouns)[0]
    steps = tuple(dataclasses.replace(s, value="13") if s.target == "op_000_result" else s for s in report.trace)
    with pytest.raises(ReplayError):
        dataclasses.replace(report, trace=steps).replay()
    steps = tuple(dataclasses.replace(s, value="99") if s.action == "answer" else s for s in report.trace)
    with pytest.raises(ReplayError):
        dataclasses.replace(report, trace=steps).replay()


def test_replay_of_a_doctored_trace_names_the_step(nouns: UnitVocabulary) -> None:
    """A step reading a value no earlier step computed, or a formula that does not read, is a ReplayError naming it.

    Both had raised raw errors (KeyError, BindingGraphError) out of replay().
    """
    report = _reports(nouns)[0]
    index, step = next((i, s) for i, s in enumerate(report.trace) if s.action not in ("fact", "refuse", "solve"))
    reads_nothing = dataclasses.replace(step, inputs=(("zzz", "6"),))
    doctored = tuple(reads_nothing if s is step else s for s in report.trace)
    with pytest.raises(ReplayError, match=rf"step {index} \({step.target}\): reads 'zzz', which no earlier step"):
        dataclasses.replace(report, trace=doctored).replay()
    garbled = tuple(dataclasses.replace(s, formula="* *") if s is step else s for s in report.trace)
    with pytest.raises(ReplayError, match=rf"step {index} \({step.target}\): "):
        dataclasses.replace(report, trace=garbled).replay()


def test_report_repr_is_readable(nouns: UnitVocabulary) -> None:
    """The repr counts equations and values and lists each answer or refusal reason."""
    ok, _, _, poisoned, _ = _reports(nouns)
    assert (
        repr(ok)
        == "GraphReport(3 equations, 3 admitted; 4 values, 0 refused; answers: unknown_total_apples = 15 apples)"
    )
    text = repr(poisoned)
    assert text.startswith("GraphReport(2 equations, 2 admitted;")
    assert "unknown_kim_apples refused negative_count" in text
    refusal_report = run(
        graph([("Sam", 3, "apples")], [op("Sam", "subtract", qty(5, "apples"))], ("Sam", "apples")),
        nouns,
    )[1]
    assert repr(refusal_report).endswith("answers: unknown_sam_apples refused negative_count)")
    assert any(line.startswith("answer unknown_sam_apples: refused negative_count") for line in refusal_report.lines())


def test_report_to_json_is_plain_json(nouns: UnitVocabulary) -> None:
    """to_json() is JSON-serialisable and carries exact strings for every value and answer."""
    for report in _reports(nouns):
        data = report.to_json()
        text = json.dumps(data, sort_keys=True)
        assert json.loads(text) == data
        assert set(data) == {"policy", "verdicts", "values", "refusals", "answers", "trace"}
    data = _reports(nouns)[2].to_json()
    assert data["answers"] == {
        "unknown_sam_dollars": {
            "answer": {
                "value": "45/2",
                "unit": "dollars",
                "question_form": "total",
                "state_index": "terminal",
            }
        }
    }
    assert data["values"]["op_000_result"] == {"magnitude": "45/2", "unit": "dollars"}  # type: ignore[index]
    refusal = _reports(nouns)[3].to_json()["refusals"]["op_000_result"]  # type: ignore[index]
    assert refusal["reason"] == "negative_count"


# ---------------------------------------------------------------- states whose unit only the proof knows


def _upstream_style(kind: str, rhs: sympy.Expr, unit: str, start: int, literal_unit: str) -> BindingGraph:
    """Sam's one operation, built by hand the upstream way: the result symbol carries no unit."""

    def sym(sid: str, role: SemanticRole, unit_: str | None) -> SymbolBinding:
        return SymbolBinding(
            symbol_id=sid,
            name=sid,
            semantic_role=role,
            source_span=SPAN,
            introduced_by="test",
            entity="Sam",
            unit=unit_,
        )

    uid = f"unknown_sam_{unit.lower()}"
    return BindingGraph(
        symbols=(
            sym("entity_sam", "entity", None),
            sym("q_sam_t0", "quantity", unit),
            sym("op_000_result", "quantity", None),
            sym(uid, "unknown", unit),
        ),
        facts=(BoundFact(symbol_id="q_sam_t0", value=str(start), unit=unit, source_span=SPAN),),
        equations=(
            BoundEquation.create(
                lhs_symbol_id="op_000_result",
                rhs=rhs,
                operation_kind=kind,
                source_span=SPAN,
                literal_unit=literal_unit,
            ),
        ),
        unknowns=(
            BoundUnknown(
                symbol_id=uid,
                question_span=SPAN,
                state_index="terminal",
                question_form="count",
                expected_unit=unit,
            ),
        ),
    )


def test_refused_value_of_a_unitless_result_is_never_skipped(vocab: UnitVocabulary) -> None:
    """3 items minus 5, with a unitless result symbol, refuses negative_count (it used to answer the initial 3)."""
    t0 = sympy.Symbol("q_sam_t0")
    report = verify(_upstream_style("subtract", t0 - 5, "items", 3, "items"), vocab)
    assert refused(report).reason == "negative_count"
    ok = verify(_upstream_style("subtract", t0 - 1, "items", 3, "items"), vocab)
    assert answered(ok).value == 2


def test_refused_equation_of_unknown_kind_is_never_skipped(vocab: UnitVocabulary) -> None:
    """An offset-refused equation whose result has no unit refuses the terminal question (it used to answer 20)."""
    t0 = sympy.Symbol("q_sam_t0")
    report = verify(_upstream_style("add", t0 + 5, "Celsius", 20, "Celsius"), vocab)
    assert refused(report).reason == "offset_unit_arithmetic"


def test_negative_physical_holdings_are_refused_money_is_not() -> None:
    """1 gallon - 20 cups and a subtraction from untouched pounds refuse (negative_quantity); a debt of -3 dollars is answered."""

    def answer(initial: tuple[str, int, str], operand: tuple[str, int], asked: str) -> object:
        data = {
            "entities": [initial[0]],
            "initial_state": [{"entity": initial[0], "quantity": {"unit": initial[2], "value": initial[1]}}],
            "operations": [
                {"actor": initial[0], "kind": "subtract", "operand": {"unit": operand[0], "value": operand[1]}}
            ],
            "unknown": {"entity": initial[0], "unit": asked},
        }
        (result,) = verify(bind_math_problem_graph(graph_from_dict(data))).answers.values()
        return result

    jug = answer(("Jug", 1, "gallon"), ("cups", 20), "cups")
    assert getattr(jug, "reason", None) == "negative_quantity"
    tom = answer(("Tom", 3, "feet"), ("pounds", 5), "pounds")
    assert getattr(tom, "reason", None) == "negative_quantity"
    debt = answer(("Sam", 5, "dollars"), ("dollars", 8), "dollars")
    assert isinstance(debt, Answer)
    assert debt.value == -3


@pytest.mark.parametrize("call", ["from_json", "crosscheck", "crosscheck_file", "classify"])
def test_a_vocab_that_is_no_vocabulary_is_refused(call: str, nouns: UnitVocabulary, tmp_path: Path) -> None:
    """Every verifier entry point taking vocab refuses a string as malformed_input (they had raised AttributeError)."""
    report = _reports(nouns)[0]
    graph_file = tmp_path / "g.txt"
    graph_file.write_text("S entity_sam Sam entity entity=Sam unit=None span=s[0:3] by=t\n", encoding="utf-8")
    bad: Any = "x"  # what an untyped caller may pass
    calls: dict[str, Callable[[], object]] = {
        "from_json": lambda: GraphReport.from_json(report.to_json(), vocab=bad),
        "crosscheck": lambda: crosscheck("S entity_sam Sam entity entity=Sam unit=None span=s[0:3] by=t", vocab=bad),
        "crosscheck_file": lambda: crosscheck_file(graph_file, vocab=bad),
        "classify": lambda: classify(bad, "x", bad, {}, vocab=bad),
    }
    with pytest.raises(BindingGraphError, match="vocab must be a UnitVocabulary, found str"):
        calls[call]()


def test_a_question_of_a_kind_nobody_holds_says_so_plainly() -> None:
    """A total of feet where only apples are held, and one entity's feet (the total had said 'no entity holds no')."""
    vocab = default_vocabulary().with_count_nouns({"apples": "apple"})
    details = []
    for entity in (None, "Tom"):
        graph = {
            "entities": ["Tom"],
            "initial_state": [{"entity": "Tom", "quantity": {"value": 3, "unit": "apples"}}],
            "operations": [],
            "unknown": {"entity": entity, "unit": "feet"},
        }
        (answer,) = verify(bind_math_problem_graph(graph_from_dict(graph), vocab), vocab).answers.values()
        assert not isinstance(answer, Answer)
        assert answer.reason == "state_unset"
        details.append(answer.detail)
    assert details == ["no entity holds a foot-kind state at initial", "Tom holds no foot-kind state at initial"]
