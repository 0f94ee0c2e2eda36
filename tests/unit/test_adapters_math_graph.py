"""The math problem graph schema (ADR-0115) and its binding (ADR-0133, SPEC §5).

Tables of schema refusals (each naming its field), the symbol-id conventions,
the current-state wiring, every one of the ten kinds bound and answered, and
deterministic binding.
"""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
import sympy

from adapters import (
    Comparison,
    FractionPortion,
    InitialPossession,
    MathGraphError,
    MathProblemGraph,
    Operation,
    PartitionChunk,
    Quantity,
    Rate,
    Unknown,
    bind_math_problem_graph,
    graph_from_dict,
    read_json,
)
from adapters.math_graph import Operand
from units import UnitVocabulary, default_vocabulary
from verifier import Answer, BindingGraph, verify
from verifier.kinds import OperationKind

NOUNS = {"apples": "apple", "pears": "pear", "sections": "section"}


@pytest.fixture(scope="module")
def nouns() -> UnitVocabulary:
    """The default vocabulary with the count nouns these tests use."""
    return default_vocabulary().with_count_nouns(NOUNS)


def qty(value: object, unit: str) -> dict[str, object]:
    """A JSON quantity."""
    return {"unit": unit, "value": value}


def op(actor: str, kind: object, operand: object, target: str | None = None) -> dict[str, object]:
    """A JSON operation."""
    out: dict[str, object] = {"actor": actor, "kind": kind, "operand": operand}
    if target is not None:
        out["target"] = target
    return out


def graph(
    initial: list[tuple[str, object, str]] | None = None,
    operations: list[dict[str, object]] | None = None,
    unknown: tuple[str | None, str] = ("Sam", "apples"),
    entities: list[str] | None = None,
) -> dict[str, object]:
    """A math problem graph in the upstream JSON layout (entities Sam and Kim by default)."""
    return {
        "entities": entities if entities is not None else ["Sam", "Kim"],
        "initial_state": [{"entity": e, "quantity": qty(v, u)} for e, v, u in (initial or [])],
        "operations": operations or [],
        "unknown": {"entity": unknown[0], "unit": unknown[1]},
    }


def refusal_of(data: object) -> MathGraphError:
    """graph_from_dict(data) must raise MathGraphError; return it."""
    with pytest.raises(MathGraphError) as info:
        graph_from_dict(data)
    return info.value


def bound_answer(data: dict[str, object], vocab: UnitVocabulary) -> tuple[BindingGraph, Answer]:
    """Bind and verify; the single answer must not be a refusal."""
    bound = bind_math_problem_graph(graph_from_dict(data), vocab)
    (result,) = verify(bound, vocab).answers.values()
    assert isinstance(result, Answer), result
    return bound, result


# ---------------------------------------------------------------- schema validation

CMP_ADD = {"reference_actor": "Kim", "direction": "more", "delta": qty(2, "apples")}
CMP_MUL = {"reference_actor": "Kim", "direction": "times", "factor": 2}
SCHEMA_REFUSALS = [
    ("no entities", graph(entities=[]), "entities"),
    ("duplicate entities", graph(entities=["Sam", "Sam"]), "entities"),
    ("initial entity unknown", graph([("Zoe", 1, "apples")]), "initial_state[0].entity"),
    (
        "actor unknown",
        graph(operations=[op("Zoe", "add", qty(1, "apples"))]),
        "operations[0].actor",
    ),
    (
        "transfer without target",
        graph(operations=[op("Sam", "transfer", qty(1, "apples"))]),
        "operations[0].target",
    ),
    (
        "transfer to self",
        graph(operations=[op("Sam", "transfer", qty(1, "apples"), target="Sam")]),
        "operations[0].target",
    ),
    (
        "transfer to nobody",
        graph(operations=[op("Sam", "transfer", qty(1, "apples"), target="Zoe")]),
        "operations[0].target",
    ),
    (
        "add with a target",
        graph(operations=[op("Sam", "add", qty(1, "apples"), target="Kim")]),
        "operations[0].target",
    ),
    (
        "comparison with a target",
        graph(operations=[op("Sam", "compare_additive", CMP_ADD, target="Kim")]),
        "operations[0].target",
    ),
    (
        "add takes a quantity",
        graph(operations=[op("Sam", "add", {"value": 1, "numerator_unit": "a", "denominator_unit": "b"})]),
        "operations[0].operand",
    ),
    (
        "apply_rate takes a rate",
        graph(operations=[op("Sam", "apply_rate", qty(1, "apples"))]),
        "operations[0].operand",
    ),
    (
        "additive comparison direction",
        graph(operations=[op("Sam", "compare_additive", {**CMP_ADD, "direction": "times"})]),
        "operations[0].operand.direction",
    ),
    (
        "multiplicative comparison direction",
        graph(operations=[op("Sam", "compare_multiplicative", {**CMP_MUL, "direction": "more"})]),
        "operations[0].operand.direction",
    ),
    (
        "comparison with oneself",
        graph(operations=[op("Sam", "compare_additive", {**CMP_ADD, "reference_actor": "Sam"})]),
        "operations[0].operand.reference_actor",
    ),
    (
        "comparison with nobody",
        graph(operations=[op("Sam", "compare_multiplicative", {**CMP_MUL, "reference_actor": "Zoe"})]),
        "operations[0].operand.reference_actor",
    ),
    (
        "additive comparison with a factor",
        graph(operations=[op("Sam", "compare_additive", {**CMP_ADD, "factor": 2})]),
        "operations[0].operand",
    ),
    (
        "additive comparison without a delta",
        graph(operations=[op("Sam", "compare_additive", {"reference_actor": "Kim", "direction": "more"})]),
        "operations[0].operand",
    ),
    (
        "multiplicative comparison with a delta",
        graph(operations=[op("Sam", "compare_multiplicative", {**CMP_MUL, "delta": qty(1, "apples")})]),
        "operations[0].operand",
    ),
    (
        "zero factor",
        graph(operations=[op("Sam", "compare_multiplicative", {**CMP_MUL, "factor": 0})]),
        "operations[0].operand.factor",
    ),
    (
        "negative factor",
        graph(operations=[op("Sam", "compare_multiplicative", {**CMP_MUL, "factor": -2})]),
        "operations[0].operand.factor",
    ),
    (
        "zero rate",
        graph(
            operations=[
                op(
                    "Sam",
                    "apply_rate",
                    {"value": 0, "numerator_unit": "dollars", "denominator_unit": "hours"},
                )
            ]
        ),
        "operations[0].operand.value",
    ),
    (
        "negative rate",
        graph(
            operations=[
                op(
                    "Sam",
                    "apply_rate",
                    {"value": "-3/2", "numerator_unit": "dollars", "denominator_unit": "hours"},
                )
            ]
        ),
        "operations[0].operand.value",
    ),
    (
        "zero chunk",
        graph(operations=[op("Sam", "unit_partition", {"value": 0, "unit": "feet", "result_unit": "sections"})]),
        "operations[0].operand.value",
    ),
    (
        "negative chunk",
        graph(
            operations=[
                op(
                    "Sam",
                    "unit_partition",
                    {"value": -5, "unit": "feet", "result_unit": "sections"},
                )
            ]
        ),
        "operations[0].operand.value",
    ),
    (
        "fraction above one",
        graph(
            operations=[
                op(
                    "Sam",
                    "fraction_portion",
                    {"numerator": 3, "denominator": 2, "referent": "them"},
                )
            ]
        ),
        "operations[0].operand",
    ),
    (
        "fraction over zero",
        graph(
            operations=[
                op(
                    "Sam",
                    "fraction_portion",
                    {"numerator": 0, "denominator": 0, "referent": "them"},
                )
            ]
        ),
        "operations[0].operand",
    ),
    (
        "contradictory initial possessions",
        graph([("Sam", 3, "apples"), ("Sam", 4, "apples")]),
        "initial_state[1]",
    ),
    ("unknown entity unknown", graph(unknown=("Zoe", "apples")), "unknown.entity"),
    ("unknown kind", graph(operations=[op("Sam", "boom", qty(1, "apples"))]), "operations[0].kind"),
    ("kind not a string", graph(operations=[op("Sam", 3, qty(1, "apples"))]), "operations[0].kind"),
]


@pytest.mark.parametrize(
    ("data", "field"), [row[1:] for row in SCHEMA_REFUSALS], ids=[row[0] for row in SCHEMA_REFUSALS]
)
def test_schema_refuses_malformed_graphs(data: dict[str, object], field: str) -> None:
    """Each malformed graph is refused with malformed_input naming the field."""
    error = refusal_of(data)
    assert error.reason == "malformed_input", error
    assert error.path == field
    assert field in str(error)


def test_operand_type_is_fixed_by_kind_on_construction() -> None:
    """Building the dataclasses directly, an operand of the wrong type for its kind is refused."""
    wrong: list[tuple[OperationKind, Operand]] = [
        ("add", Rate(value=Fraction(1), numerator_unit="dollars", denominator_unit="hours")),
        ("multiply", Comparison(reference_actor="Kim", direction="times", factor=Fraction(2))),
        ("apply_rate", Quantity(value=Fraction(1), unit="apples")),
        ("compare_additive", Quantity(value=Fraction(1), unit="apples")),
        ("unit_partition", FractionPortion(numerator=Fraction(1), denominator=Fraction(2), referent="sections")),
        ("fraction_portion", PartitionChunk(value=Fraction(1), unit="feet", result_unit="sections")),
    ]
    for kind, operand in wrong:
        with pytest.raises(MathGraphError) as info:
            MathProblemGraph(
                entities=("Sam", "Kim"),
                initial_state=(),
                operations=(Operation(actor="Sam", kind=kind, operand=operand),),
                unknown=Unknown(entity="Sam", unit="apples"),
            )
        assert info.value.reason == "malformed_input"
        assert info.value.path == "operations[0].operand"
        assert type(operand).__name__ in info.value.detail


def test_identical_initial_possessions_validate_but_do_not_bind(nouns: UnitVocabulary) -> None:
    """The same possession listed twice is not contradictory, but binding refuses the second state."""
    g = graph_from_dict(graph([("Sam", 3, "apples"), ("Sam", 3, "apples")]))
    with pytest.raises(MathGraphError) as info:
        bind_math_problem_graph(g, nouns)
    assert info.value.reason == "redeclared_state"


@pytest.mark.parametrize(
    ("value", "found"),
    [
        (0.30000000000000004, "0.30000000000000004"),
        (True, "bool"),
        (False, "bool"),
        (float("nan"), "nan"),
        (float("inf"), "inf"),
        ("nan", "nan"),
        ("inf", "inf"),
        ("1e3", "1e3"),
        ("0x10", "0x10"),
        ("1 000", "1 000"),
        (None, "NoneType"),
    ],
)
def test_graph_from_dict_refuses_inexact_numbers(value: object, found: str) -> None:
    """Long floats, bools, nan, inf and exponents are refused as malformed_input naming the value's field."""
    error = refusal_of(graph([("Sam", value, "apples")]))
    assert error.reason == "malformed_input"
    assert error.path == "initial_state[0].quantity.value"
    assert found in str(error)


def test_graph_from_dict_refuses_json_exponent_numbers() -> None:
    """A JSON number with an exponent, read exactly, is refused naming the field."""
    text = json.dumps(graph(operations=[op("Sam", "add", qty(7, "apples"))])).replace('"value": 7', '"value": 1e5')
    error = refusal_of(read_json(text))
    assert error.reason == "malformed_input"
    assert error.path == "operations[0].operand.value"


def test_graph_from_dict_refuses_too_many_digits() -> None:
    """A number longer than the digit bound is refused with input_too_large."""
    error = refusal_of(graph([("Sam", "1" * 50, "apples")]))
    assert error.reason == "input_too_large"
    assert error.path == "initial_state[0].quantity.value"


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({**graph(), "extra": 1}, "graph"),
        ({k: v for k, v in graph().items() if k != "unknown"}, "graph"),
        (
            graph([("Sam", 1, "apples")])
            | {"initial_state": [{"entity": "Sam", "quantity": {"unit": "apples", "value": 1, "x": 1}}]},
            "initial_state[0].quantity",
        ),
        (graph() | {"unknown": {"entity": "Sam", "unit": "apples", "when": "later"}}, "unknown"),
        (
            graph(operations=[{"actor": "Sam", "kind": "add", "operand": qty(1, "apples"), "note": "x"}]),
            "operations[0]",
        ),
        (
            graph(operations=[op("Sam", "apply_rate", {"value": 1, "numerator_unit": "dollars"})]),
            "operations[0].operand",
        ),
        (graph() | {"entities": "Sam"}, "entities"),
        (graph() | {"operations": {}}, "operations"),
        (graph(entities=["Sam", 3]), "entities[1]"),  # type: ignore[list-item]  # a number among the names
        (graph(entities=[" Sam"]), "entities[0]"),
        (graph(entities=[""]), "entities[0]"),
        (graph([("Sam", 1, "")]), "initial_state[0].quantity.unit"),
        ([], "graph"),
        ("graph", "graph"),
    ],
)
def test_graph_from_dict_refuses_bad_fields(data: object, field: str) -> None:
    """Unknown, missing or mistyped fields are refused with malformed_input naming the field."""
    error = refusal_of(data)
    assert error.reason == "malformed_input"
    assert error.path == field


def test_graph_from_dict_reads_exact_numbers() -> None:
    """Ints, fraction strings and JSON decimals (read with read_json) all become exact Fractions."""
    text = json.dumps(
        graph([("Sam", 1, "apples"), ("Kim", "7/2", "feet")], [op("Sam", "add", qty(3, "apples"))])
    ).replace('"value": 3', '"value": 2.50')
    g = graph_from_dict(read_json(text))
    assert g.initial_state[0].quantity.value == Fraction(1)
    assert g.initial_state[1].quantity.value == Fraction(7, 2)
    assert g.operations[0].operand == Quantity(value=Fraction(5, 2), unit="apples")
    assert g.as_json()["operations"] == [{"actor": "Sam", "kind": "add", "operand": {"unit": "apples", "value": "5/2"}}]


def test_round_trip_and_canonical_bytes() -> None:
    """as_json reads back to an equal graph; canonical_bytes is sorted, compact and stable."""
    data = graph(
        [("Sam", 100, "feet")],
        [
            op("Sam", "unit_partition", {"value": 25, "unit": "feet", "result_unit": "sections"}),
            op(
                "Sam",
                "fraction_portion",
                {"numerator": 1, "denominator": 2, "referent": "them"},
            ),
            op(
                "Kim",
                "compare_multiplicative",
                {"reference_actor": "Sam", "direction": "fraction", "factor": "1/2"},
            ),
            op("Sam", "transfer", qty(3, "feet"), target="Kim"),
        ],
        (None, "feet"),
    )
    g = graph_from_dict(data)
    assert graph_from_dict(g.as_json()) == g
    assert graph_from_dict(json.loads(g.canonical_bytes())) == g
    assert g.canonical_bytes() == graph_from_dict(data).canonical_bytes()
    assert g.canonical_bytes().startswith(
        b'{"entities":["Sam","Kim"],"initial_state":[{"entity":"Sam","quantity":{"unit":"feet","value":100}}]'
    )
    assert b" " not in g.canonical_bytes()


# ---------------------------------------------------------------- symbol ids


def test_symbol_id_conventions(vocab: UnitVocabulary) -> None:
    """Every synthesized symbol follows the upstream id conventions (plus target_result and chunk)."""
    data = graph(
        [("Sam", 10, "dollars"), ("Sam", 3, "hours"), ("Sam", 100, "feet")],
        [
            op("Sam", "add", qty(5, "dollars")),
            op("Sam", "multiply", qty(2, "dollars")),
            op("Sam", "divide", qty(3, "dollars")),
            op(
                "Sam",
                "apply_rate",
                {"value": 15, "numerator_unit": "dollars", "denominator_unit": "hours"},
            ),
            op("Sam", "transfer", qty(1, "dollars"), target="Kim"),
            op("Sam", "unit_partition", {"value": 25, "unit": "feet", "result_unit": "items"}),
        ],
        ("Sam", "dollars"),
    )
    bound = bind_math_problem_graph(graph_from_dict(data), vocab)
    ids = [s.symbol_id for s in bound.symbols]
    assert ids == [
        "entity_sam",
        "entity_kim",
        "q_sam_dollars_t0",
        "q_sam_hours_t0",
        "q_sam_feet_t0",
        "op_000_result",
        "op_001__multiplicand",
        "op_001_result",
        "op_002__divisor",
        "op_002_result",
        "op_003__rate",
        "op_003_result",
        "op_004_result",
        "op_004_target_result",
        "op_005__chunk",
        "op_005_result",
        "unknown_sam_dollars",
    ]
    roles = {s.symbol_id: s.semantic_role for s in bound.symbols}
    assert roles["op_001__multiplicand"] == roles["op_002__divisor"] == "ratio"
    assert roles["op_003__rate"] == "rate"
    assert roles["unknown_sam_dollars"] == "unknown"
    assert bound.symbol("op_003__rate").unit == "dollars_per_hours"
    assert bound.symbol("op_005_result").unit == "items"
    assert [e.lhs_symbol_id for e in bound.equations] == [
        "op_000_result",
        "op_001_result",
        "op_002_result",
        "op_003_result",
        "op_004_result",
        "op_004_target_result",
        "op_005_result",
    ]


@pytest.mark.parametrize(
    ("entity", "unit", "entity_id", "state_id", "unknown_id"),
    [
        ("Mrs. Lee", "apples", "entity_mrs_lee", "q_mrs_lee_apples_t0", "unknown_mrs_lee_apples"),
        ("Sam", "square feet", "entity_sam", "q_sam_square_feet_t0", "unknown_sam_square_feet"),
        ("7 Dwarfs", "$", "entity_n7_dwarfs", "q_n7_dwarfs_u24_t0", "unknown_n7_dwarfs_u24"),
    ],
)
def test_symbol_ids_are_slugs(
    vocab: UnitVocabulary, *, entity: str, unit: str, entity_id: str, state_id: str, unknown_id: str
) -> None:
    """Entity names and unit surfaces become identifier slugs in symbol ids."""
    bound = bind_math_problem_graph(
        graph_from_dict(graph([(entity, 1, unit)], unknown=(entity, unit), entities=[entity])),
        vocab,
    )
    assert [s.symbol_id for s in bound.symbols] == [entity_id, state_id, unknown_id]


def test_colliding_slugs_stay_distinct(nouns: UnitVocabulary) -> None:
    """Two entities with one slug get distinct entity ids."""
    bound = bind_math_problem_graph(
        graph_from_dict(
            graph(
                [("Mrs Lee", 1, "apples"), ("Mrs. Lee", 2, "apples")],
                entities=["Mrs Lee", "Mrs. Lee"],
                unknown=(None, "apples"),
            )
        ),
        nouns,
    )
    assert [s.symbol_id for s in bound.symbols][:4] == [
        "entity_mrs_lee",
        "entity_mrs_lee_2",
        "q_mrs_lee_apples_t0",
        "q_mrs_lee_2_apples_t0",
    ]
    (result,) = verify(bound, nouns).answers.values()
    assert isinstance(result, Answer)
    assert result.value == 3


def test_units_with_one_slug_stay_distinct(vocab: UnitVocabulary) -> None:
    """Two unit surfaces with one slug (``hr`` and ``$/hr``) get distinct ids; each holding is read as its own."""
    bound = bind_math_problem_graph(
        graph_from_dict(graph([("Sam", 3, "hr"), ("Sam", 20, "$/hr")], unknown=("Sam", "$/hr"), entities=["Sam"])),
        vocab,
    )
    assert [s.symbol_id for s in bound.symbols] == ["entity_sam", "q_sam_hr_t0", "q_sam_hr_2_t0", "unknown_sam_hr_2"]
    (result,) = verify(bound, vocab).answers.values()
    assert isinstance(result, Answer)
    assert (result.value, result.unit) == (20, "$/hr")


def test_total_unknown_id(nouns: UnitVocabulary) -> None:
    """An unknown with no entity is unknown_total_<unit>, with no entity."""
    bound = bind_math_problem_graph(graph_from_dict(graph([("Sam", 1, "apples")], unknown=(None, "apples"))), nouns)
    assert bound.symbols[-1].symbol_id == "unknown_total_apples"
    assert bound.symbols[-1].entity is None


# ---------------------------------------------------------------- current-state wiring


def test_each_operation_reads_the_current_state(nouns: UnitVocabulary) -> None:
    """Each operation depends on the previous result, not on the t0 symbol (unlike the upstream adapter)."""
    ops = [
        op("Sam", "add", qty(1, "apples")),
        op("Sam", "subtract", qty(2, "apples")),
        op("Sam", "multiply", qty(3, "apples")),
        op("Sam", "divide", qty(2, "apples")),
    ]
    bound = bind_math_problem_graph(graph_from_dict(graph([("Sam", 5, "apples")], ops)), nouns)
    deps = {e.lhs_symbol_id: e.dependencies for e in bound.equations}
    assert deps == {
        "op_000_result": frozenset({"q_sam_apples_t0"}),
        "op_001_result": frozenset({"op_000_result"}),
        "op_002_result": frozenset({"op_001_result", "op_002__multiplicand"}),
        "op_003_result": frozenset({"op_002_result", "op_003__divisor"}),
    }
    rhs = {e.lhs_symbol_id: e.rhs_canonical for e in bound.equations}
    assert rhs == {
        "op_000_result": "q_sam_apples_t0 + 1",
        "op_001_result": "op_000_result - 2",
        "op_002_result": "op_001_result*op_002__multiplicand",
        "op_003_result": "op_002_result/op_003__divisor",
    }


def test_transfer_defines_the_target_state(nouns: UnitVocabulary) -> None:
    """A transfer writes two equations; the target's reads the target's current state."""
    ops = [
        op("Kim", "add", qty(2, "apples")),
        op("Sam", "transfer", qty(3, "apples"), target="Kim"),
    ]
    bound = bind_math_problem_graph(graph_from_dict(graph([("Sam", 5, "apples")], ops, ("Kim", "apples"))), nouns)
    eqs = {e.lhs_symbol_id: e for e in bound.equations}
    assert eqs["op_001_result"].rhs_canonical == "q_sam_apples_t0 - 3"
    assert eqs["op_001_target_result"].rhs_canonical == "op_000_result + 3"
    assert eqs["op_001_target_result"].operation_kind == "transfer"
    assert bound.symbol("op_001_target_result").entity == "Kim"
    (result,) = verify(bound, nouns).answers.values()
    assert isinstance(result, Answer)
    assert result.value == 5


def test_inches_added_to_feet_make_one_length(vocab: UnitVocabulary) -> None:
    """Adding 9 inches to an actor holding 3 feet extends the feet state: one length of 45 inches."""
    data = graph(
        [("Sam", 3, "feet")],
        [op("Sam", "add", qty(9, "inches"))],
        ("Sam", "inches"),
        entities=["Sam"],
    )
    bound, result = bound_answer(data, vocab)
    (eq,) = bound.equations
    assert eq.dependencies == frozenset({"q_sam_feet_t0"})
    assert eq.literal_unit == "inches"
    assert bound.symbol("op_000_result").unit == "feet"
    assert eq.admissibility_status == "admitted"
    assert eq.unit_proof == "add: [length] -> length"
    assert result.value == 45


def test_different_count_kinds_never_merge(nouns: UnitVocabulary) -> None:
    """Pears added to an actor holding apples start a pears state at 0; the apples are untouched."""
    data = graph(
        [("Sam", 3, "apples")],
        [op("Sam", "add", qty(2, "pears"))],
        ("Sam", "pears"),
        entities=["Sam"],
    )
    bound, result = bound_answer(data, nouns)
    assert bound.equations[0].rhs_canonical == "2"
    assert result.value == 2
    data["unknown"] = {"entity": "Sam", "unit": "apples"}
    _, result = bound_answer(data, nouns)
    assert result.value == 3


def test_calendar_state_reaches_admissibility(vocab: UnitVocabulary) -> None:
    """Days added to a holding in years extend that state, so admissibility asks for a convention."""
    data = graph(
        [("Sam", 2, "years")],
        [op("Sam", "add", qty(5, "days"))],
        ("Sam", "years"),
        entities=["Sam"],
    )
    bound = bind_math_problem_graph(graph_from_dict(data), vocab)
    (eq,) = bound.equations
    assert eq.dependencies == frozenset({"q_sam_years_t0"})
    assert eq.admissibility_status == "refused"
    assert eq.refusal_reason == "convention_required"


# ---------------------------------------------------------------- the ten kinds

RATE = {"value": 15, "numerator_unit": "dollars", "denominator_unit": "hours"}
TEN_KINDS = [
    (
        "add",
        [("Sam", 5, "apples")],
        [op("Sam", "add", qty(3, "apples"))],
        ("Sam", "apples"),
        8,
        "count",
    ),
    (
        "subtract",
        [("Sam", 5, "apples")],
        [op("Sam", "subtract", qty(3, "apples"))],
        ("Sam", "apples"),
        2,
        "count",
    ),
    (
        "transfer",
        [("Sam", 5, "apples")],
        [op("Sam", "transfer", qty(3, "apples"), target="Kim")],
        ("Kim", "apples"),
        3,
        "count",
    ),
    (
        "multiply",
        [("Sam", 5, "apples")],
        [op("Sam", "multiply", qty(3, "apples"))],
        ("Sam", "apples"),
        15,
        "count",
    ),
    (
        "divide",
        [("Sam", 6, "apples")],
        [op("Sam", "divide", qty(3, "apples"))],
        ("Sam", "apples"),
        2,
        "count",
    ),
    (
        "apply_rate",
        [("Sam", 4, "hours")],
        [op("Sam", "apply_rate", RATE)],
        ("Sam", "dollars"),
        60,
        "total",
    ),
    (
        "compare_additive",
        [("Kim", 5, "apples")],
        [
            op(
                "Sam",
                "compare_additive",
                {"reference_actor": "Kim", "direction": "fewer", "delta": qty(2, "apples")},
            )
        ],
        ("Sam", "apples"),
        3,
        "difference",
    ),
    (
        "compare_multiplicative",
        [("Kim", 5, "apples")],
        [
            op(
                "Sam",
                "compare_multiplicative",
                {"reference_actor": "Kim", "direction": "times", "factor": 3},
            )
        ],
        ("Sam", "apples"),
        15,
        "ratio",
    ),
    (
        "unit_partition",
        [("Sam", 100, "feet")],
        [op("Sam", "unit_partition", {"value": 25, "unit": "feet", "result_unit": "sections"})],
        ("Sam", "sections"),
        4,
        "count",
    ),
    (
        "fraction_portion",
        [("Sam", 100, "feet")],
        [
            op("Sam", "unit_partition", {"value": 25, "unit": "feet", "result_unit": "sections"}),
            op(
                "Sam",
                "fraction_portion",
                {"numerator": 1, "denominator": 2, "referent": "them"},
            ),
        ],
        ("Sam", "sections"),
        2,
        "count",
    ),
]


@pytest.mark.parametrize(
    ("kind", "initial", "ops", "unknown", "expected", "form"),
    TEN_KINDS,
    ids=[row[0] for row in TEN_KINDS],
)
def test_every_kind_binds_and_answers(
    nouns: UnitVocabulary,
    *,
    kind: str,
    initial: list[tuple[str, object, str]],
    ops: list[dict[str, object]],
    unknown: tuple[str, str],
    expected: int,
    form: str,
) -> None:
    """Each of the ten kinds binds to admitted equations of that kind and answers the hand-worked value."""
    bound, result = bound_answer(graph(initial, ops, unknown), nouns)
    assert bound.equations[-1].operation_kind == kind
    assert all(e.admissibility_status == "admitted" for e in bound.equations)
    assert result.value == expected
    assert result.question_form == form


def test_partition_then_portion_in_detail(nouns: UnitVocabulary) -> None:
    """100 feet in 25-foot chunks is 4 sections (feet kept); using up 1/2 of them leaves 2."""
    data = TEN_KINDS[-1]
    bound = bind_math_problem_graph(graph_from_dict(graph(data[1], data[2], data[3])), nouns)  # type: ignore[arg-type]
    eqs = {e.lhs_symbol_id: e for e in bound.equations}
    assert eqs["op_000_result"].rhs_canonical == "q_sam_feet_t0/op_000__chunk"
    assert eqs["op_000_result"].unit_proof == "unit_partition: [length,length] -> count"
    assert eqs["op_001_result"].rhs_canonical == "op_000_result*op_001__share"
    assert next(f for f in bound.facts if f.symbol_id == "op_001__share").value == "1/2"
    assert eqs["op_001_result"].dependencies == frozenset({"op_000_result", "op_001__share"})
    report = verify(bound, nouns)
    assert report.values["op_000_result"].magnitude == 4
    assert report.values["op_001_result"].magnitude == 2
    assert report.values["q_sam_feet_t0"].magnitude == 100


def test_fraction_portion_of_all_leaves_zero(nouns: UnitVocabulary) -> None:
    """Using up 4/4 of 8 sections leaves exactly 0 (the count is still read, through the share symbol)."""
    ops = [
        {"actor": "Sam", "kind": "unit_partition", "operand": {"value": 25, "unit": "feet", "result_unit": "sections"}},
        {
            "actor": "Sam",
            "kind": "fraction_portion",
            "operand": {"numerator": 4, "denominator": 4, "referent": "them"},
        },
    ]
    data = {
        "entities": ["Sam"],
        "initial_state": [{"entity": "Sam", "quantity": {"unit": "feet", "value": 200}}],
        "operations": ops,
        "unknown": {"entity": "Sam", "unit": "sections"},
    }
    (answer,) = verify(bind_math_problem_graph(graph_from_dict(data), nouns), nouns).answers.values()
    assert isinstance(answer, Answer)
    assert answer.value == 0


def test_fraction_portion_keeps_the_rest(nouns: UnitVocabulary) -> None:
    """Using up 3/4 of 8 sections leaves exactly 2."""
    ops = [
        op("Sam", "unit_partition", {"value": 5, "unit": "feet", "result_unit": "sections"}),
        op("Sam", "fraction_portion", {"numerator": 3, "denominator": 4, "referent": "them"}),
    ]
    _, result = bound_answer(graph([("Sam", 40, "feet")], ops, ("Sam", "sections")), nouns)
    assert result.value == 2


def test_partition_into_yards_of_feet(vocab: UnitVocabulary) -> None:
    """30 feet cut into 2-yard pieces is exactly 5 items (the chunk converts)."""
    ops = [op("Sam", "unit_partition", {"value": 2, "unit": "yards", "result_unit": "items"})]
    _, result = bound_answer(graph([("Sam", 30, "feet")], ops, ("Sam", "items"), entities=["Sam"]), vocab)
    assert result.value == 5


def test_comparison_results_are_exact_rationals(nouns: UnitVocabulary) -> None:
    """A multiplicative comparison's equation holds the exact factor (2/3), never a float."""
    ops = [
        op(
            "Sam",
            "compare_multiplicative",
            {"reference_actor": "Kim", "direction": "fraction", "factor": "2/3"},
        )
    ]
    bound, result = bound_answer(graph([("Kim", 9, "apples")], ops), nouns)
    assert bound.equations[0].rhs == sympy.Rational(2, 3) * sympy.Symbol("q_kim_apples_t0")
    assert result.value == 6


# ---------------------------------------------------------------- stamping and targets


def test_equations_are_stamped(vocab: UnitVocabulary, nouns: UnitVocabulary) -> None:
    """With count nouns declared the equation is admitted with its proof; strictly it is refused unknown_unit."""
    data = graph([("Sam", 5, "apples")], [op("Sam", "add", qty(3, "apples"))])
    (strict,) = bind_math_problem_graph(graph_from_dict(data), vocab).equations
    assert (strict.admissibility_status, strict.unit_proof, strict.refusal_reason) == (
        "refused",
        "unverified",
        "unknown_unit",
    )
    (declared,) = bind_math_problem_graph(graph_from_dict(data), nouns).equations
    assert (declared.admissibility_status, declared.unit_proof, declared.refusal_reason) == (
        "admitted",
        "add: [count] -> count",
        None,
    )


def test_unknown_state_index_and_form(nouns: UnitVocabulary) -> None:
    """With no operations the unknown is initial/identity; with operations terminal/count."""
    (unk,) = bind_math_problem_graph(graph_from_dict(graph([("Sam", 5, "apples")])), nouns).unknowns
    assert (unk.state_index, unk.question_form, unk.expected_unit) == (
        "initial",
        "identity",
        "apples",
    )
    (unk,) = bind_math_problem_graph(
        graph_from_dict(graph([("Sam", 5, "apples")], [op("Sam", "add", qty(1, "apples"))])), nouns
    ).unknowns
    assert (unk.state_index, unk.question_form) == ("terminal", "count")


def test_unknown_untouched_by_operations_is_identity(nouns: UnitVocabulary) -> None:
    """Kim's apples, untouched by Sam's operations, are asked as identity at the terminal state."""
    data = graph(
        [("Sam", 5, "apples"), ("Kim", 2, "apples")],
        [op("Sam", "add", qty(1, "apples"))],
        ("Kim", "apples"),
    )
    bound, result = bound_answer(data, nouns)
    assert bound.unknowns[0].question_form == "identity"
    assert result.value == 2


@pytest.mark.parametrize("value", [None, {}, "graph", 3, graph()])
def test_bind_refuses_non_graphs(value: object) -> None:
    """Anything but a MathProblemGraph is refused with not_a_math_problem_graph."""
    with pytest.raises(MathGraphError) as info:
        bind_math_problem_graph(value)
    assert info.value.reason == "not_a_math_problem_graph"


def test_bind_refuses_a_non_vocabulary() -> None:
    """A vocab that is not a UnitVocabulary is refused with malformed_input."""
    with pytest.raises(MathGraphError) as info:
        bind_math_problem_graph(graph_from_dict(graph()), vocab="en_units_v1")  # type: ignore[arg-type]
    assert info.value.reason == "malformed_input"
    assert info.value.path == "vocab"


def test_dataclasses_build_the_same_graph(nouns: UnitVocabulary) -> None:
    """A graph built from the dataclasses equals the one read from JSON and binds identically."""
    built = MathProblemGraph(
        entities=("Sam", "Kim"),
        initial_state=(InitialPossession(entity="Sam", quantity=Quantity(value=Fraction(5), unit="apples")),),
        operations=(
            Operation(actor="Sam", kind="transfer", operand=Quantity(value=Fraction(2), unit="apples"), target="Kim"),
        ),
        unknown=Unknown(entity="Kim", unit="apples"),
    )
    read = graph_from_dict(
        graph(
            [("Sam", 5, "apples")],
            [op("Sam", "transfer", qty(2, "apples"), target="Kim")],
            ("Kim", "apples"),
        )
    )
    assert built == read
    assert bind_math_problem_graph(built, nouns) == bind_math_problem_graph(read, nouns)


# ---------------------------------------------------------------- determinism


def test_binding_is_deterministic(nouns: UnitVocabulary) -> None:
    """Binding the same graph twice (or an equal one) gives equal graphs with byte-equal canonical strings."""
    data = graph(
        [("Sam", 100, "feet"), ("Kim", 3, "apples")],
        [
            op("Sam", "unit_partition", {"value": 25, "unit": "feet", "result_unit": "sections"}),
            op("Kim", "transfer", qty(1, "apples"), target="Sam"),
            op(
                "Sam",
                "fraction_portion",
                {"numerator": 1, "denominator": 4, "referent": "them"},
            ),
        ],
        (None, "apples"),
    )
    first = bind_math_problem_graph(graph_from_dict(data), nouns)
    second = bind_math_problem_graph(graph_from_dict(json.loads(json.dumps(data))), nouns)
    assert first == second
    assert first.to_canonical_string().encode() == second.to_canonical_string().encode()
    assert first.to_json() == second.to_json()


SIGN_AND_DIRECTION = [
    # (kind, operand, target, path of the refusal)
    ("transfer", {"unit": "feet", "value": -3}, "Bo", "operations[0].operand.value"),
    ("add", {"unit": "feet", "value": -3}, None, "operations[0].operand.value"),
    ("subtract", {"unit": "feet", "value": "-1/2"}, None, "operations[0].operand.value"),
    (
        "compare_additive",
        {"reference_actor": "Bo", "direction": "fewer", "delta": {"unit": "feet", "value": -2}},
        None,
        "operations[0].operand.delta.value",
    ),
    (
        "compare_multiplicative",
        {"reference_actor": "Bo", "direction": "fraction", "factor": 3},
        None,
        "operations[0].operand.factor",
    ),
    (
        "compare_multiplicative",
        {"reference_actor": "Bo", "direction": "fraction", "factor": 1},
        None,
        "operations[0].operand.factor",
    ),
]


@pytest.mark.parametrize(("kind", "operand", "target", "path"), SIGN_AND_DIRECTION)
def test_sign_and_direction_contradictions_are_refused(
    kind: str, operand: dict[str, object], target: str | None, path: str
) -> None:
    """The kind or direction carries the sign: a negative amount or delta, or a 'fraction' of 3, is malformed_input."""
    data = {
        "entities": ["Al", "Bo"],
        "initial_state": [
            {"entity": "Al", "quantity": {"unit": "feet", "value": 5}},
            {"entity": "Bo", "quantity": {"unit": "feet", "value": 5}},
        ],
        "operations": [{"actor": "Al", "kind": kind, "operand": operand, **({"target": target} if target else {})}],
        "unknown": {"entity": "Al", "unit": "feet"},
    }
    with pytest.raises(MathGraphError) as info:
        graph_from_dict(data)
    assert info.value.reason == "malformed_input"
    assert info.value.path == path


def test_times_a_half_and_a_zero_delta_stay_admitted() -> None:
    """'times' 1/2 (half as many) and a delta of 0 are not contradictions: 5 x 1/2 = 5/2 feet, 5 + 0 = 5 feet."""
    for operand, expected in (
        ({"reference_actor": "Bo", "direction": "times", "factor": "1/2"}, Fraction(5, 2)),
        ({"reference_actor": "Bo", "direction": "more", "delta": {"unit": "feet", "value": 0}}, Fraction(5)),
    ):
        kind = "compare_multiplicative" if "factor" in operand else "compare_additive"
        data = {
            "entities": ["Al", "Bo"],
            "initial_state": [{"entity": "Bo", "quantity": {"unit": "feet", "value": 5}}],
            "operations": [{"actor": "Al", "kind": kind, "operand": operand}],
            "unknown": {"entity": "Al", "unit": "feet"},
        }
        (answer,) = verify(bind_math_problem_graph(graph_from_dict(data))).answers.values()
        assert isinstance(answer, Answer)
        assert answer.value == expected


@pytest.mark.parametrize(
    ("chunk", "asked", "outcome"),
    [
        (12, "dozen", 3),
        (12, "items", 36),
        (1, "dozen", "unit_mismatch"),
        (6, "dozen", "unit_mismatch"),  # each chunk of 6 apples counted as a dozen: 6 dozen, 72 items
        (6, "items", "unit_mismatch"),
    ],
)
def test_a_partition_into_a_fixed_multiple_takes_chunks_of_its_size(
    nouns: UnitVocabulary, chunk: int, asked: str, outcome: object
) -> None:
    """Review finding (2026-12-03): 36 apples in chunks of 6 counted in dozens were certified 72 items.

    A partition counts each chunk as one of its result unit, so a chunk into a dozen holds
    12 things; any other chunk is ``unit_mismatch`` where the partition is written.
    """
    data = graph(
        [("Sam", 36, "apples")],
        [op("Sam", "unit_partition", {"value": chunk, "unit": "apples", "result_unit": "dozen"})],
        ("Sam", asked),
    )
    if isinstance(outcome, str):
        with pytest.raises(MathGraphError) as info:
            bind_math_problem_graph(graph_from_dict(data), nouns)
        assert (info.value.reason, info.value.path) == (outcome, "operations[0]")
        assert f"counts each chunk as one dozen (12 things), but a chunk is {chunk} apples" in str(info.value)
    else:
        _, answer = bound_answer(data, nouns)
        assert (answer.value, answer.unit) == (outcome, asked)


def test_a_partition_into_pairs_takes_chunks_of_two(nouns: UnitVocabulary) -> None:
    """10 apples in chunks of 2 are 5 pairs; in chunks of 5 they are no pairs."""
    good = graph(
        [("Sam", 10, "apples")],
        [op("Sam", "unit_partition", {"value": 2, "unit": "apples", "result_unit": "pairs"})],
        ("Sam", "pairs"),
    )
    _, answer = bound_answer(good, nouns)
    assert answer.value == 5
    bad = graph(
        [("Sam", 10, "apples")],
        [op("Sam", "unit_partition", {"value": 5, "unit": "apples", "result_unit": "pairs"})],
        ("Sam", "pairs"),
    )
    with pytest.raises(MathGraphError) as info:
        bind_math_problem_graph(graph_from_dict(bad), nouns)
    assert info.value.reason == "unit_mismatch"


@pytest.mark.parametrize("result", ["items", "boxes"])
def test_a_partition_into_items_or_a_container_counts_its_chunks(nouns: UnitVocabulary, result: str) -> None:
    """An item, like a box, is whatever one chunk is: 36 apples in chunks of 2 are 18 of them (SPEC §5).

    Review round 3 read 18 items as 3/2 dozen and asked for a refusal; items stay the
    number of chunks, as the soundness property suite has them (2 people into one item).
    """
    data = graph(
        [("Sam", 36, "apples")],
        [op("Sam", "unit_partition", {"value": 2, "unit": "apples", "result_unit": result})],
        ("Sam", result),
    )
    assert bound_answer(data, nouns)[1].value == 18
