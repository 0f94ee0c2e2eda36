"""The binding-graph model: validation, exact fact values, canonical lines, JSON round trips.

Every malformed model raises :class:`BindingGraphError` naming the field; no other
exception (``KeyError``, ``TypeError``, ``AttributeError``) may escape (SPEC §4, §8).
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any, cast

import pytest
import sympy

from verifier import (
    BindingGraph,
    BindingGraphError,
    BoundConstraint,
    BoundEquation,
    BoundFact,
    BoundUnknown,
    OperationIndex,
    SourceSpanLink,
    SymbolBinding,
)
from verifier.expr import symbol
from verifier.model import (
    ADMISSIBILITY_STATUSES,
    MAX_GRAPH_ITEMS,
    QUESTION_FORMS,
    SEMANTIC_ROLES,
    UNVERIFIED_PROOF,
    AdmissibilityStatus,
    QuestionForm,
    SemanticRole,
    StateIndex,
    parse_state_index,
)

SPAN = SourceSpanLink(source_id="math_problem_graph", start=0, end=3)


# The helpers below take any field values (a test may pass a wrong type on purpose) and hand
# them to the model's constructors, whose own checks are what the tests exercise: the merged
# keyword arguments are typed dict[str, Any] so mypy leaves that checking to the constructor.


def sym(symbol_id: str, **fields: object) -> SymbolBinding:
    """A quantity symbol with sensible defaults."""
    base: dict[str, Any] = {
        "symbol_id": symbol_id,
        "name": symbol_id,
        "semantic_role": "quantity",
        "source_span": SPAN,
        "introduced_by": "test",
    }
    merged: dict[str, Any] = {**base, **fields}
    return SymbolBinding(**merged)


_DEFAULT = object()


def equation(lhs: str = "r", rhs: object = _DEFAULT, **fields: object) -> BoundEquation:
    """An equation ``lhs := a + b`` unless told otherwise."""
    base: dict[str, Any] = {
        "lhs_symbol_id": lhs,
        "rhs": symbol("a") + symbol("b") if rhs is _DEFAULT else rhs,
        "operation_kind": "add",
        "source_span": SPAN,
    }
    merged: dict[str, Any] = {**base, **fields}
    return BoundEquation.create(**merged)


def unknown(symbol_id: str = "r", **fields: object) -> BoundUnknown:
    """A terminal count unknown."""
    base: dict[str, Any] = {
        "symbol_id": symbol_id,
        "question_span": SPAN,
        "state_index": "terminal",
        "question_form": "count",
    }
    merged: dict[str, Any] = {**base, **fields}
    return BoundUnknown(**merged)


def fact(symbol_id: str = "a", value: str = "5", **fields: object) -> BoundFact:
    """A fact ``symbol_id = value``."""
    merged: dict[str, Any] = {"symbol_id": symbol_id, "value": value, "source_span": SPAN, **fields}
    return BoundFact(**merged)


def constraint(symbol_id: str = "r", predicate: str = "r >= 0") -> BoundConstraint:
    """A constraint on one symbol."""
    return BoundConstraint(symbol_id=symbol_id, predicate=predicate, source_span=SPAN)


def full_graph() -> BindingGraph:
    """A graph using every part: symbols, facts, an equation, unknown, constraint, provenance."""
    text_span = SourceSpanLink(source_id="math_problem_graph", start=0, end=21, text="Sam has 2.5 dollars.")
    return BindingGraph(
        symbols=(
            sym(
                "entity_sam",
                name="Sam",
                semantic_role="entity",
                entity="Sam",
                introduced_by="bind_math_problem_graph",
            ),
            sym(
                "q_sam_dollars_t0",
                name="Sam.dollars@t0",
                entity="Sam",
                unit="dollars",
                introduced_by="bind_math_problem_graph",
            ),
            sym(
                "op_000__multiplicand",
                name="op0.multiplicand",
                semantic_role="ratio",
                introduced_by="bind_math_problem_graph",
            ),
            sym(
                "op_000_result",
                name="op0.multiply.Sam",
                entity="Sam",
                unit="dollars",
                introduced_by="bind_math_problem_graph",
            ),
            sym(
                "unknown_sam_dollars",
                name="Sam|dollars",
                semantic_role="unknown",
                entity="Sam",
                unit="dollars",
                introduced_by="bind_math_problem_graph",
            ),
        ),
        facts=(
            fact("q_sam_dollars_t0", "2.5", unit="dollars"),
            fact("op_000__multiplicand", "7/2"),
        ),
        equations=(
            BoundEquation.create(
                lhs_symbol_id="op_000_result",
                rhs=symbol("q_sam_dollars_t0") * symbol("op_000__multiplicand"),
                operation_kind="multiply",
                source_span=SourceSpanLink(source_id="math_problem_graph", start=4, end=18),
                unit_proof="multiply: [money,dimensionless] -> money",
                admissibility_status="admitted",
            ),
        ),
        unknowns=(
            unknown(
                "unknown_sam_dollars",
                state_index=OperationIndex(0),
                question_form="total",
                expected_unit="dollars",
            ),
        ),
        constraints=(constraint("op_000_result", "op_000_result >= 0"),),
        provenance=(text_span,),
    )


def raises_bge(call: Callable[..., object], *args: object, **kwargs: object) -> BindingGraphError:
    """Call, which must raise BindingGraphError (and nothing else); return it."""
    with pytest.raises(BindingGraphError) as info:
        call(*args, **kwargs)
    return info.value


# ------------------------------------------------------------ source spans


def test_span_valid_and_canonical() -> None:
    """A span with 0 <= start < end builds and prints as source_id[start:end]."""
    span = SourceSpanLink(source_id="math_problem_graph", start=0, end=13, text="Sam has 5")
    assert span.to_canonical_string() == "math_problem_graph[0:13]"
    assert (span.start, span.end, span.text) == (0, 13, "Sam has 5")


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"start": 3, "end": 3}, "source_span"),
        ({"start": 4, "end": 3}, "source_span"),
        ({"start": -1, "end": 3}, "source_span"),
        ({"start": None}, "start"),
        ({"start": "0"}, "start"),
        ({"start": 0.0}, "start"),
        ({"start": True}, "start"),
        ({"end": [3]}, "end"),
        ({"end": False}, "end"),
        ({"source_id": ""}, "source_id"),
        ({"source_id": "has space"}, "source_id"),
        ({"source_id": 7}, "source_id"),
        ({"source_id": None}, "source_id"),
        ({"source_id": ["math"]}, "source_id"),
        ({"text": 5}, "text"),
        ({"text": ""}, "text"),
        ({"text": "two\nlines"}, "text"),
        ({"text": ["x"]}, "text"),
    ],
)
def test_span_refusals(fields: dict[str, Any], field: str) -> None:
    """Bad span ids, non-int or inverted bounds and bad text are refused, naming the field."""
    error = raises_bge(SourceSpanLink, **{"source_id": "src", "start": 0, "end": 3, **fields})
    assert error.reason == "malformed_input"
    assert error.path.endswith(field)


# ------------------------------------------------------------ symbols


@pytest.mark.parametrize("symbol_id", ["1abc", "a-b", "a b", "", "é", "a" * 129, 5, None, ["a"], {"a": 1}, ("a",)])
def test_symbol_id_must_be_identifier(symbol_id: object) -> None:
    """A symbol id that is not an ASCII identifier of at most 128 chars is refused at symbol_id."""
    error = raises_bge(sym, symbol_id)
    assert (error.reason, error.path) == ("malformed_input", "symbol.symbol_id")


@pytest.mark.parametrize("role", sorted(SEMANTIC_ROLES))
def test_symbol_roles_accepted(role: str) -> None:
    """Every role of the closed semantic-role vocabulary builds."""
    assert sym("x", semantic_role=role).semantic_role == role


def test_semantic_role_vocabulary_is_the_upstream_one() -> None:
    """The closed role vocabulary is exactly the ADR-0132 set."""
    assert (
        frozenset(
            {
                "entity",
                "quantity",
                "rate",
                "duration",
                "count",
                "total",
                "difference",
                "ratio",
                "unknown",
            }
        )
        == SEMANTIC_ROLES
    )


@pytest.mark.parametrize("role", ["Quantity", "bogus", "", None, 3, ["quantity"], {"quantity": 1}, ("quantity",)])
def test_symbol_role_outside_vocabulary_refused(role: object) -> None:
    """A role outside the vocabulary or of any wrong type (even unhashable) is refused."""
    error = raises_bge(sym, "x", semantic_role=role)
    assert (error.reason, error.path) == ("malformed_input", "symbols[x].semantic_role")


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("name", ""),
        ("name", 5),
        ("name", None),
        ("name", ["x"]),
        ("name", " padded"),
        ("name", "tab\there"),
        ("introduced_by", None),
        ("introduced_by", 3),
        ("introduced_by", {}),
        ("entity", 5),
        ("entity", ""),
        ("entity", ["Sam"]),
        ("unit", 5),
        ("unit", ""),
        ("unit", ("feet",)),
        ("unit", {"u": "feet"}),
        ("source_span", None),
        ("source_span", {"source_id": "s", "start": 0, "end": 1}),
        ("source_span", "s[0:1]"),
    ],
)
def test_symbol_field_wrong_type(field: str, value: object) -> None:
    """Wrong types in a symbol's text, entity, unit or span fields name that field."""
    error = raises_bge(sym, "x", **{field: value})
    assert (error.reason, error.path) == ("malformed_input", f"symbols[x].{field}")


def test_symbol_text_too_long() -> None:
    """Text over the 512-character bound is input_too_large."""
    error = raises_bge(sym, "x", name="n" * 513)
    assert (error.reason, error.path) == ("input_too_large", "symbols[x].name")


# ------------------------------------------------------------ fact values


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("5", Fraction(5)),
        ("2.5", Fraction(5, 2)),
        ("7/2", Fraction(7, 2)),
        ("-3", Fraction(-3)),
        ("0.125", Fraction(1, 8)),
        ("0.1", Fraction(1, 10)),
        ("10/4", Fraction(5, 2)),
        ("0", Fraction(0)),
        ("1" * 40, Fraction(int("1" * 40))),
    ],
)
def test_fact_values_exact(text: str, value: Fraction) -> None:
    """Fact strings parse to the exact rational, never via float; the text is kept verbatim."""
    parsed = fact(value=text)
    assert parsed.magnitude == value
    assert type(parsed.magnitude) is Fraction
    assert parsed.value == text


@pytest.mark.parametrize(
    ("value", "reason"),
    [
        ("nan", "malformed_input"),
        ("NaN", "malformed_input"),
        ("inf", "malformed_input"),
        ("-inf", "malformed_input"),
        ("1e5", "malformed_input"),
        ("1E5", "malformed_input"),
        ("1/0", "malformed_input"),
        ("", "malformed_input"),
        (" 5", "malformed_input"),
        ("5 ", "malformed_input"),
        ("5.", "malformed_input"),
        (".5", "malformed_input"),
        ("1_000", "malformed_input"),
        ("0x10", "malformed_input"),
        ("2 1/2", "malformed_input"),
        ("½", "malformed_input"),
        ("five", "malformed_input"),
        (0.5, "malformed_input"),
        (5, "malformed_input"),
        (True, "malformed_input"),
        (None, "malformed_input"),
        (Fraction(1, 2), "malformed_input"),
        (["5"], "malformed_input"),
        ({"value": "5"}, "malformed_input"),
        ("1" * 41, "input_too_large"),
        ("9" * 10_000, "input_too_large"),
        ("1/" + "3" * 41, "input_too_large"),
        ("0." + "0" * 60 + "1", "input_too_large"),
    ],
)
def test_fact_values_refused(value: object, reason: str) -> None:
    """Non-exact, non-string or over-long fact values are refused at facts[id].value."""
    error = raises_bge(fact, "a", value)
    assert (error.reason, error.path) == (reason, "facts[a].value")


@pytest.mark.parametrize(("field", "value"), [("unit", 5), ("unit", ""), ("source_span", None), ("symbol_id", "1a")])
def test_fact_other_fields_refused(field: str, value: object) -> None:
    """A fact's unit, span and symbol id are checked too, naming the field."""
    error = raises_bge(fact, **{"symbol_id": "a", "value": "5", field: value})
    assert error.reason == "malformed_input"
    assert error.path.endswith(field)


# ------------------------------------------------------------ equations


def test_equation_create_derives_canonical_and_dependencies() -> None:
    """create() derives rhs_canonical (lex order) and dependencies from the sympy rhs."""
    eq = equation(rhs=symbol("b") * 2 + symbol("a") - sympy.Rational(7, 2))
    assert eq.rhs_canonical == "a + 2*b - 7/2"
    assert eq.dependencies == frozenset({"a", "b"})
    assert (eq.admissibility_status, eq.unit_proof, eq.refusal_reason) == (
        "pending",
        UNVERIFIED_PROOF,
        None,
    )


@pytest.mark.parametrize("status", sorted(ADMISSIBILITY_STATUSES))
def test_equation_statuses_accepted(status: str) -> None:
    """Each status of the closed vocabulary builds with its matching proof/reason slots."""
    proof = "add: [money,money] -> money" if status == "admitted" else UNVERIFIED_PROOF
    reason = "unit_mismatch" if status == "refused" else None
    eq = equation(admissibility_status=status, unit_proof=proof, refusal_reason=reason)
    assert (eq.admissibility_status, eq.unit_proof, eq.refusal_reason) == (status, proof, reason)


@pytest.mark.parametrize("status", ["Admitted", "ok", "", None, 1, ["admitted"], {"admitted": True}])
def test_equation_status_outside_vocabulary_refused(status: object) -> None:
    """A status outside {admitted, pending, refused}, of any type, is refused at the field."""
    error = raises_bge(equation, admissibility_status=status)
    assert (error.reason, error.path) == ("malformed_input", "equations[r].admissibility_status")


@pytest.mark.parametrize("reason", [None, "", 5, ["unit_mismatch"]])
def test_refused_requires_reason(reason: object) -> None:
    """A refused equation needs a non-empty refusal_reason string."""
    error = raises_bge(equation, admissibility_status="refused", refusal_reason=reason)
    assert (error.reason, error.path) == ("malformed_input", "equations[r].refusal_reason")


@pytest.mark.parametrize("status", ["admitted", "pending"])
def test_reason_only_when_refused(status: str) -> None:
    """A refusal_reason on an admitted or pending equation is refused."""
    proof = "add: [money,money] -> money" if status == "admitted" else UNVERIFIED_PROOF
    error = raises_bge(equation, admissibility_status=status, unit_proof=proof, refusal_reason="unit_mismatch")
    assert (error.reason, error.path) == ("malformed_input", "equations[r].refusal_reason")


@pytest.mark.parametrize("status", ["pending", "refused"])
def test_proof_only_when_admitted(status: str) -> None:
    """A pending or refused equation keeps the 'unverified' proof sentinel."""
    reason = "unit_mismatch" if status == "refused" else None
    error = raises_bge(
        equation,
        admissibility_status=status,
        unit_proof="add: [money] -> money",
        refusal_reason=reason,
    )
    assert (error.reason, error.path) == ("malformed_input", "equations[r].unit_proof")


@pytest.mark.parametrize("proof", [None, "", 5, ["add"]])
def test_unit_proof_must_be_text(proof: object) -> None:
    """unit_proof must be a non-empty string."""
    error = raises_bge(equation, admissibility_status="admitted", unit_proof=proof)
    assert (error.reason, error.path) == ("malformed_input", "equations[r].unit_proof")


@pytest.mark.parametrize(
    ("rhs", "reason"),
    [
        (None, "unsafe_expression"),
        ("a + b", "unsafe_expression"),
        (3, "unsafe_expression"),
        (2.5, "unsafe_expression"),
        ([symbol("a")], "unsafe_expression"),
        ({"a": 1}, "unsafe_expression"),
        (sympy.Float("2.5") * symbol("a"), "unsafe_expression"),
        (sympy.sin(symbol("a")), "unsafe_expression"),
        (symbol("a") ** symbol("b"), "unsafe_expression"),
        (sympy.pi * symbol("a"), "unsafe_expression"),
        (sympy.Symbol("not an id"), "unsafe_expression"),
        (symbol("a") ** 4, "input_too_large"),
        (sympy.Integer(10**40) * symbol("a"), "input_too_large"),
    ],
)
def test_equation_rhs_refused(rhs: object, reason: str) -> None:
    """An rhs that is not a safe expression over symbols and bounded rationals is refused."""
    error = raises_bge(equation, rhs=rhs)
    assert (error.reason, error.path) == (reason, "equations[r].rhs")


@pytest.mark.parametrize(
    ("field", "value", "path"),
    [
        ("lhs_symbol_id", 5, "equation.lhs_symbol_id"),
        ("lhs_symbol_id", None, "equation.lhs_symbol_id"),
        ("lhs_symbol_id", ["r"], "equation.lhs_symbol_id"),
        ("lhs_symbol_id", "1r", "equation.lhs_symbol_id"),
        ("operation_kind", 3, "equations[r].operation_kind"),
        ("operation_kind", None, "equations[r].operation_kind"),
        ("operation_kind", ["add"], "equations[r].operation_kind"),
        ("operation_kind", "add()", "equations[r].operation_kind"),
        ("literal_unit", 12, "equations[r].literal_unit"),
        ("literal_unit", "", "equations[r].literal_unit"),
        ("source_span", None, "equations[r].source_span"),
    ],
)
def test_equation_field_wrong_type(field: str, value: object, path: str) -> None:
    """Wrong types in an equation's lhs, kind, literal unit or span name that field."""
    error = raises_bge(equation, **{field: value})
    assert (error.reason, error.path) == ("malformed_input", path)


def test_equation_direct_construction_checks_derived_fields() -> None:
    """Built directly, rhs_canonical and dependencies must match rhs (lists and sets refused)."""
    a = symbol("a")
    good = {
        "lhs_symbol_id": "r",
        "rhs": a,
        "rhs_canonical": "a",
        "dependencies": frozenset({"a"}),
        "operation_kind": "add",
        "source_span": SPAN,
    }
    assert BoundEquation(**good) == equation(rhs=a)
    for field, value in (
        ("rhs_canonical", "b"),
        ("rhs_canonical", None),
        ("dependencies", ["a"]),
        ("dependencies", {"a"}),
        ("dependencies", frozenset({"a", "b"})),
        ("dependencies", None),
    ):
        error = raises_bge(BoundEquation, **{**good, field: value})
        assert (error.reason, error.path) == ("malformed_input", f"equations[r].{field}")


def test_unknown_operation_kind_is_stored() -> None:
    """Any identifier is stored as the kind; admissibility (not the model) refuses unknown kinds."""
    assert equation(operation_kind="frobnicate").operation_kind == "frobnicate"


# ------------------------------------------------------------ unknowns, state indices, constraints


@pytest.mark.parametrize("state", ["initial", "terminal", OperationIndex(0), OperationIndex(7)])
def test_unknown_state_indices_accepted(state: StateIndex) -> None:
    """initial, terminal and OperationIndex(i) are the state indices."""
    assert unknown(state_index=state).state_index == state


@pytest.mark.parametrize(
    "state",
    [
        "Initial",
        "final",
        "op(0)",
        "",
        None,
        0,
        -1,
        ["terminal"],
        {"operation_index": 0},
        ("terminal",),
    ],
)
def test_unknown_state_index_refused(state: object) -> None:
    """Anything but 'initial', 'terminal' or an OperationIndex object is refused at state_index."""
    error = raises_bge(unknown, state_index=state)
    assert (error.reason, error.path) == ("malformed_input", "unknowns[r].state_index")


@pytest.mark.parametrize("form", sorted(QUESTION_FORMS))
def test_question_forms_accepted(form: str) -> None:
    """Each question form of the closed vocabulary builds."""
    assert unknown(question_form=form).question_form == form


@pytest.mark.parametrize("form", ["how_many", "Count", "", None, 1, ["count"], {"count": 1}])
def test_question_form_refused(form: object) -> None:
    """A question form outside the vocabulary, of any type, is refused at question_form."""
    error = raises_bge(unknown, question_form=form)
    assert (error.reason, error.path) == ("malformed_input", "unknowns[r].question_form")


@pytest.mark.parametrize(
    ("field", "value"),
    [("expected_unit", 3), ("expected_unit", ""), ("question_span", None), ("symbol_id", "")],
)
def test_unknown_other_fields_refused(field: str, value: object) -> None:
    """An unknown's unit, span and id are checked, naming the field."""
    error = raises_bge(unknown, **{field: value})
    assert error.reason == "malformed_input"
    assert error.path.endswith(field)


@pytest.mark.parametrize("index", [-1, True, "1", 1.0, None])
def test_operation_index_refused(index: object) -> None:
    """OperationIndex takes a non-negative int only (a bool is not an int)."""
    error = raises_bge(OperationIndex, index)
    assert (error.reason, error.path) == ("malformed_input", "state_index.index")


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("initial", "initial"),
        ("terminal", "terminal"),
        ("op(3)", OperationIndex(3)),
        ({"operation_index": 3}, OperationIndex(3)),
        (OperationIndex(2), OperationIndex(2)),
    ],
)
def test_parse_state_index(value: object, expected: StateIndex) -> None:
    """parse_state_index reads the labels, the op(i) token and the {"operation_index": i} object."""
    assert parse_state_index(value) == expected


@pytest.mark.parametrize(
    "value",
    [
        "op(-1)",
        "op(x)",
        "op(1234567)",
        3,
        None,
        ["op(1)"],
        {"operation_index": "1"},
        {"operation_index": True},
        {"index": 1},
    ],
)
def test_parse_state_index_refused(value: object) -> None:
    """Bad state-index data raises BindingGraphError at the given path, never TypeError."""
    error = raises_bge(parse_state_index, value, "unknowns[0].state_index")
    assert (error.reason, error.path) == ("malformed_input", "unknowns[0].state_index")


@pytest.mark.parametrize(
    ("predicate", "probe", "holds"),
    [
        ("r >= 0", Fraction(0), True),
        ("r >= 0", Fraction(-1, 2), False),
        ("r < 3/2", Fraction(1), True),
        ("r != 2.5", Fraction(5, 2), False),
        ("r == -1", Fraction(-1), True),
        ("integer(r)", Fraction(3), True),
        ("integer(r)", Fraction(7, 2), False),
    ],
)
def test_constraint_holds_exactly(predicate: str, probe: Fraction, *, holds: bool) -> None:
    """A constraint predicate is evaluated on exact values."""
    assert constraint("r", predicate).holds(probe) is holds


@pytest.mark.parametrize(
    ("predicate", "reason"),
    [
        ("s >= 0", "malformed_input"),
        ("r >= nan", "malformed_input"),
        ("r => 0", "malformed_input"),
        ("r >= 1e5", "malformed_input"),
        ("integer(s)", "malformed_input"),
        ("r>=0", "malformed_input"),
        (5, "malformed_input"),
        (None, "malformed_input"),
        (["r >= 0"], "malformed_input"),
        ("r >= " + "1" * 41, "input_too_large"),
    ],
)
def test_constraint_predicate_refused(predicate: object, reason: str) -> None:
    """A predicate outside '<sym> <op> <number>' / 'integer(<sym>)' on its own symbol is refused."""
    error = raises_bge(constraint, "r", predicate)
    assert (error.reason, error.path) == (reason, "constraints[r].predicate")


# ------------------------------------------------------------ the graph


def test_full_graph_builds_and_indexes_symbols() -> None:
    """A valid graph builds; symbol() and symbol_map look symbols up by id."""
    graph = full_graph()
    assert graph.symbol("q_sam_dollars_t0").unit == "dollars"
    assert list(graph.symbol_map) == [
        "entity_sam",
        "q_sam_dollars_t0",
        "op_000__multiplicand",
        "op_000_result",
        "unknown_sam_dollars",
    ]


@pytest.mark.parametrize("field", ["symbols", "facts", "equations", "unknowns", "constraints", "provenance"])
@pytest.mark.parametrize("value", [[], {}, None, "abc", 5])
def test_graph_fields_must_be_tuples(field: str, value: object) -> None:
    """Each graph field must be a tuple; lists, dicts, None and strings are refused there."""
    error = raises_bge(BindingGraph, **{field: value})
    assert (error.reason, error.path) == ("malformed_input", field)


@pytest.mark.parametrize(
    ("field", "item"),
    [
        ("symbols", {"symbol_id": "a"}),
        ("facts", "a = 5"),
        ("equations", None),
        ("unknowns", SPAN),
        ("constraints", 1),
        ("provenance", sym("a")),
    ],
)
def test_graph_items_must_have_their_type(field: str, item: object) -> None:
    """An item of the wrong type is refused at field[i]."""
    error = raises_bge(BindingGraph, **{field: (item,)})
    assert (error.reason, error.path) == ("malformed_input", f"{field}[0]")


def test_duplicate_symbol_ids_refused() -> None:
    """Two symbols with one id are refused at the second."""
    error = raises_bge(BindingGraph, symbols=(sym("a"), sym("b"), sym("a", name="again")))
    assert (error.reason, error.path) == ("malformed_input", "symbols[2].symbol_id")


@pytest.mark.parametrize(
    ("parts", "path"),
    [
        ({"facts": (fact("zz"),)}, "facts[0].symbol_id"),
        ({"equations": (equation(lhs="zz"),)}, "equations[0].lhs_symbol_id"),
        ({"equations": (equation(rhs=symbol("a") + symbol("zz")),)}, "equations[0].dependencies"),
        ({"unknowns": (unknown("zz"),)}, "unknowns[0].symbol_id"),
        ({"constraints": (constraint("zz", "zz >= 0"),)}, "constraints[0].symbol_id"),
    ],
)
def test_dangling_references_refused(parts: dict[str, Any], path: str) -> None:
    """Every reference must name a symbol of the graph; the first dangling one is named."""
    error = raises_bge(BindingGraph, symbols=(sym("a"), sym("b"), sym("r")), **parts)
    assert (error.reason, error.path) == ("malformed_input", path)
    assert "'zz'" in error.detail


def test_operation_index_in_range() -> None:
    """An unknown's OperationIndex must be below the number of equations."""
    symbols = (sym("a"), sym("b"), sym("r"), sym("u", semantic_role="unknown"))
    ok = BindingGraph(symbols=symbols, equations=(equation(),), unknowns=(unknown("u", state_index=OperationIndex(0)),))
    assert ok.unknowns[0].state_index == OperationIndex(0)
    error = raises_bge(
        BindingGraph,
        symbols=symbols,
        equations=(equation(),),
        unknowns=(unknown("u", state_index=OperationIndex(1)),),
    )
    assert (error.reason, error.path) == ("malformed_input", "unknowns[0].state_index")
    error = raises_bge(BindingGraph, symbols=symbols, unknowns=(unknown("u", state_index=OperationIndex(0)),))
    assert error.path == "unknowns[0].state_index"


@pytest.mark.parametrize(
    ("equations", "cycle"),
    [
        ((equation("r", symbol("r") + symbol("a")),), "r -> r"),
        ((equation("a", symbol("b") * 2), equation("b", symbol("a") + 1)), "a -> b -> a"),
        (
            (equation("a", symbol("b")), equation("b", symbol("r")), equation("r", symbol("a"))),
            "a -> b -> r -> a",
        ),
        (
            (
                equation("r", symbol("a")),
                equation("a", symbol("b")),
                equation("b", symbol("b") / 2),
            ),
            "b -> b",
        ),
    ],
)
def test_dependency_cycles_refused(equations: tuple[BoundEquation, ...], cycle: str) -> None:
    """Dependency cycles, self-loops included, are refused at equations, spelling the cycle."""
    error = raises_bge(BindingGraph, symbols=(sym("a"), sym("b"), sym("r")), equations=equations)
    assert (error.reason, error.path) == ("malformed_input", "equations")
    assert error.detail == f"dependency cycle: {cycle}"


def test_acyclic_chain_accepted() -> None:
    """A chain a -> b -> r (and a shared dependency) is not a cycle."""
    graph = BindingGraph(
        symbols=(sym("a"), sym("b"), sym("r")),
        equations=(equation("b", symbol("a") * 2), equation("r", symbol("a") + symbol("b"))),
    )
    assert len(graph.equations) == 2


def test_two_equations_defining_one_symbol_refused() -> None:
    """A symbol defined by two equations is refused at the second."""
    error = raises_bge(
        BindingGraph,
        symbols=(sym("a"), sym("b"), sym("r")),
        equations=(equation(), equation(rhs=symbol("a"))),
    )
    assert (error.reason, error.path) == ("malformed_input", "equations[1].lhs_symbol_id")


def test_graph_size_bound() -> None:
    """More than MAX_GRAPH_ITEMS symbols is input_too_large."""
    symbols = tuple(sym(f"s{i}") for i in range(MAX_GRAPH_ITEMS + 1))
    error = raises_bge(BindingGraph, symbols=symbols)
    assert (error.reason, error.path) == ("input_too_large", "symbols")


def test_graph_is_frozen() -> None:
    """Graph values are frozen: attributes cannot be reassigned."""
    graph = full_graph()
    with pytest.raises(AttributeError):
        graph.symbols = ()  # type: ignore[misc]


# ------------------------------------------------------------ canonical string


FULL_GRAPH_CANONICAL = (
    "S entity_sam Sam entity entity=Sam unit=None span=math_problem_graph[0:3] by=bind_math_problem_graph\n"
    "S q_sam_dollars_t0 Sam.dollars@t0 quantity entity=Sam unit=dollars "
    "span=math_problem_graph[0:3] by=bind_math_problem_graph\n"
    "S op_000__multiplicand op0.multiplicand ratio entity=None unit=None "
    "span=math_problem_graph[0:3] by=bind_math_problem_graph\n"
    "S op_000_result op0.multiply.Sam quantity entity=Sam unit=dollars "
    "span=math_problem_graph[0:3] by=bind_math_problem_graph\n"
    "S unknown_sam_dollars Sam|dollars unknown entity=Sam unit=dollars "
    "span=math_problem_graph[0:3] by=bind_math_problem_graph\n"
    "F q_sam_dollars_t0 = 2.5 unit=dollars span=math_problem_graph[0:3]\n"
    "F op_000__multiplicand = 7/2 unit=None span=math_problem_graph[0:3]\n"
    "E op_000_result := op_000__multiplicand*q_sam_dollars_t0 op=multiply "
    "deps=[op_000__multiplicand,q_sam_dollars_t0] "
    "unit_proof=multiply: [money,dimensionless] -> money status=admitted refusal=None "
    "span=math_problem_graph[4:18]\n"
    "U unknown_sam_dollars expected_unit=dollars state=op(0) form=total qspan=math_problem_graph[0:3]\n"
    "C op_000_result pred=op_000_result >= 0 span=math_problem_graph[0:3]\n"
    "P math_problem_graph[0:21] text=Sam has 2.5 dollars."
)


def test_canonical_string_exact_lines() -> None:
    """to_canonical_string() prints S/F/E/U/C/P lines in the upstream layout, byte for byte."""
    assert full_graph().to_canonical_string() == FULL_GRAPH_CANONICAL


def test_canonical_equation_line_refused_and_literal_unit() -> None:
    """A refused equation prints unit_proof=unverified and its reason; literal_unit precedes it."""
    graph = BindingGraph(
        symbols=(sym("q_sam_apples_t0", unit="apples"), sym("op_000_result")),
        equations=(
            BoundEquation.create(
                lhs_symbol_id="op_000_result",
                rhs=symbol("q_sam_apples_t0") + 3,
                operation_kind="add",
                source_span=SourceSpanLink(source_id="math_problem_graph", start=0, end=13),
                literal_unit="apples",
                admissibility_status="refused",
                refusal_reason="unknown_unit",
            ),
        ),
    )
    (line,) = [ln for ln in graph.to_canonical_string().split("\n") if ln.startswith("E ")]
    assert line == (
        "E op_000_result := q_sam_apples_t0 + 3 op=add deps=[q_sam_apples_t0] literal_unit=apples "
        "unit_proof=unverified status=refused refusal=unknown_unit span=math_problem_graph[0:13]"
    )


def test_canonical_dependencies_sorted_and_terminal_state() -> None:
    """deps=[...] is sorted; pending prints refusal=None; terminal/initial print as words."""
    graph = BindingGraph(
        symbols=(
            sym("zeta"),
            sym("alpha"),
            sym("r"),
            sym("u_r", semantic_role="unknown"),
            sym("u_alpha", semantic_role="unknown"),
        ),
        equations=(equation("r", symbol("zeta") - symbol("alpha")),),
        unknowns=(unknown("u_r"), unknown("u_alpha", state_index="initial", question_form="identity")),
    )
    lines = graph.to_canonical_string().split("\n")
    assert (
        lines[5] == "E r := -alpha + zeta op=add deps=[alpha,zeta] unit_proof=unverified "
        "status=pending refusal=None span=math_problem_graph[0:3]"
    )
    assert lines[6] == "U u_r expected_unit=None state=terminal form=count qspan=math_problem_graph[0:3]"
    assert lines[7] == "U u_alpha expected_unit=None state=initial form=identity qspan=math_problem_graph[0:3]"


def test_empty_graph_canonical_string() -> None:
    """A graph with no parts prints the empty string."""
    assert BindingGraph().to_canonical_string() == ""


_S_LINE = re.compile(r"S (\S+) (\S+) (\S+) entity=(\S+) unit=(\S+) span=([^\[]+)\[(\d+):(\d+)\] by=(\S+)")
_F_LINE = re.compile(r"F (\S+) = (\S+) unit=(\S+) span=([^\[]+)\[(\d+):(\d+)\]")
_E_LINE = re.compile(
    r"E (\S+) := (.*) op=(\S+) deps=\[([^\]]*)\] unit_proof=(.*) status=(\S+) refusal=(\S+) "
    r"span=([^\[]+)\[(\d+):(\d+)\]"
)
_U_LINE = re.compile(r"U (\S+) expected_unit=(\S+) state=(\S+) form=(\S+) qspan=([^\[]+)\[(\d+):(\d+)\]")


def _none(text: str) -> str | None:
    return None if text == "None" else text


def _rebuild_upstream(canonical: str) -> tuple[BindingGraph, list[str]]:
    """Rebuild upstream canonical text with our model; E lines get rhs = the sum of deps."""
    symbols, facts, equations, unknowns, expected = [], [], [], [], []
    for line in canonical.split("\n"):
        if m := _S_LINE.fullmatch(line):
            symbols.append(
                SymbolBinding(
                    symbol_id=m[1],
                    name=m[2],
                    semantic_role=cast("SemanticRole", m[3]),  # the model checks it
                    entity=_none(m[4]),
                    unit=_none(m[5]),
                    source_span=SourceSpanLink(source_id=m[6], start=int(m[7]), end=int(m[8])),
                    introduced_by=m[9],
                )
            )
            expected.append(line)
        elif m := _F_LINE.fullmatch(line):
            facts.append(
                BoundFact(
                    symbol_id=m[1],
                    value=m[2],
                    unit=_none(m[3]),
                    source_span=SourceSpanLink(source_id=m[4], start=int(m[5]), end=int(m[6])),
                )
            )
            expected.append(line)
        elif m := _E_LINE.fullmatch(line):
            deps = [d for d in m[4].split(",") if d]
            rhs = sympy.Add(*(symbol(d) for d in deps)) if deps else sympy.Integer(1)
            equations.append(
                BoundEquation.create(
                    lhs_symbol_id=m[1],
                    rhs=rhs,
                    operation_kind=m[3],
                    unit_proof=m[5],
                    admissibility_status=cast("AdmissibilityStatus", m[6]),  # the model checks it
                    refusal_reason=_none(m[7]),
                    source_span=SourceSpanLink(source_id=m[8], start=int(m[9]), end=int(m[10])),
                )
            )
            expected.append(line.replace(f" := {m[2]} op=", f" := {equations[-1].rhs_canonical} op=", 1))
        elif m := _U_LINE.fullmatch(line):
            unknowns.append(
                BoundUnknown(
                    symbol_id=m[1],
                    expected_unit=_none(m[2]),
                    state_index=parse_state_index(m[3]),
                    question_form=cast("QuestionForm", m[4]),  # the model checks it
                    question_span=SourceSpanLink(source_id=m[5], start=int(m[6]), end=int(m[7])),
                )
            )
            expected.append(line)
        else:
            raise AssertionError(f"not an upstream canonical line: {line!r}")
    graph = BindingGraph(
        symbols=tuple(symbols),
        facts=tuple(facts),
        equations=tuple(equations),
        unknowns=tuple(unknowns),
    )
    return graph, expected


def test_canonical_lines_match_upstream_records(upstream: Path) -> None:
    """Upstream S/F/U lines are rebuilt byte for byte; E lines differ only in the rhs text."""
    checked = 0
    for raw in (upstream / "hand_rolled" / "adapter_canonical.jsonl").read_text(encoding="utf-8").splitlines():
        record = json.loads(raw)
        canonical = record.get("hand_rolled_canonical")
        if not canonical:
            continue
        graph, expected = _rebuild_upstream(canonical)
        assert graph.to_canonical_string() == "\n".join(expected), record["id"]
        checked += 1
    assert checked == 71


# ------------------------------------------------------------ JSON


def test_json_round_trip_exact() -> None:
    """from_json(to_json(g)) == g, with equal hash, canonical string and JSON bytes."""
    graph = full_graph()
    data = json.loads(json.dumps(graph.to_json()))
    again = BindingGraph.from_json(data)
    assert again == graph
    assert hash(again) == hash(graph)
    assert again.to_canonical_string() == graph.to_canonical_string()
    assert json.dumps(again.to_json(), sort_keys=True) == json.dumps(graph.to_json(), sort_keys=True)
    assert again.equations[0].rhs == graph.equations[0].rhs


def test_json_shape() -> None:
    """to_json is plain data: rhs as canonical text, sorted dependencies, state index as a token."""
    data: Any = full_graph().to_json()
    assert data["equations"][0] == {
        "lhs_symbol_id": "op_000_result",
        "rhs_canonical": "op_000__multiplicand*q_sam_dollars_t0",
        "dependencies": ["op_000__multiplicand", "q_sam_dollars_t0"],
        "operation_kind": "multiply",
        "literal_unit": None,
        "unit_proof": "multiply: [money,dimensionless] -> money",
        "admissibility_status": "admitted",
        "refusal_reason": None,
        "source_span": {"source_id": "math_problem_graph", "start": 4, "end": 18},
        "operand_roles": {},
        "operation": None,
    }
    assert data["unknowns"][0]["state_index"] == "op(0)"
    assert data["facts"][1] == {
        "symbol_id": "op_000__multiplicand",
        "value": "7/2",
        "unit": None,
        "source_span": {"source_id": "math_problem_graph", "start": 0, "end": 3},
    }


def test_part_round_trips() -> None:
    """Each part type round-trips through its own to_json/from_json."""
    graph = full_graph()
    for part, kind in (
        (graph.symbols[1], SymbolBinding),
        (graph.facts[0], BoundFact),
        (graph.equations[0], BoundEquation),
        (graph.unknowns[0], BoundUnknown),
        (graph.constraints[0], BoundConstraint),
        (graph.provenance[0], SourceSpanLink),
    ):
        assert kind.from_json(json.loads(json.dumps(part.to_json()))) == part


def test_from_json_accepts_operation_index_object() -> None:
    """An unknown's state index may be given as {"operation_index": i}."""
    data: Any = full_graph().to_json()
    data["unknowns"][0]["state_index"] = {"operation_index": 0}
    assert BindingGraph.from_json(data).unknowns[0].state_index == OperationIndex(0)


def _mutated(change: Callable[[dict[str, Any]], object]) -> object:
    data = copy.deepcopy(full_graph().to_json())
    change(data)
    return data


@pytest.mark.parametrize(
    ("data", "path_start", "field"),
    [
        (5, "graph", "graph"),
        ([], "graph", "graph"),
        (None, "graph", "graph"),
        ("{}", "graph", "graph"),
        ({}, "graph", "graph"),
        (_mutated(lambda d: d.update(extra=1)), "graph", "graph"),
        (_mutated(lambda d: d.update(symbols={})), "symbols", "symbols"),
        (_mutated(lambda d: d.update(facts="x")), "facts", "facts"),
        (
            _mutated(lambda d: d["symbols"][1].update(semantic_role=["quantity"])),
            "symbols[1]",
            "semantic_role",
        ),
        (
            _mutated(lambda d: d["symbols"][1].update(semantic_role={"q": 1})),
            "symbols[1]",
            "semantic_role",
        ),
        (
            _mutated(lambda d: d["symbols"][1].update(semantic_role="bogus")),
            "symbols[1]",
            "semantic_role",
        ),
        (_mutated(lambda d: d["symbols"][1].update(symbol_id=1)), "symbols[1]", "symbol_id"),
        (_mutated(lambda d: d["symbols"][1].pop("name")), "symbols[1]", "symbols[1]"),
        (_mutated(lambda d: d["symbols"][1].update(unit=["dollars"])), "symbols[1]", "unit"),
        (
            _mutated(lambda d: d["symbols"][1].update(source_span="s[0:1]")),
            "symbols[1]",
            "source_span",
        ),
        (
            _mutated(lambda d: d["symbols"][1]["source_span"].update(start="0")),
            "symbols[1]",
            "start",
        ),
        (
            _mutated(lambda d: d["symbols"][1]["source_span"].update(end=0)),
            "symbols[1]",
            "source_span",
        ),
        (_mutated(lambda d: d["symbols"][1]["source_span"].update(end=True)), "symbols[1]", "end"),
        (_mutated(lambda d: d["symbols"].append(d["symbols"][0])), "symbols[5]", "symbol_id"),
        (_mutated(lambda d: d["facts"][0].update(value=2.5)), "facts[0]", "value"),
        (_mutated(lambda d: d["facts"][0].update(value="1e5")), "facts[0]", "value"),
        (_mutated(lambda d: d["facts"][0].update(value=None)), "facts[0]", "value"),
        (_mutated(lambda d: d["facts"][0].update(symbol_id="nobody")), "facts[0]", "symbol_id"),
        (
            _mutated(lambda d: d["equations"][0].update(rhs_canonical=3)),
            "equations[0]",
            "rhs_canonical",
        ),
        (
            _mutated(lambda d: d["equations"][0].update(rhs_canonical="__import__('os')")),
            "equations[0]",
            "rhs_canonical",
        ),
        (
            _mutated(lambda d: d["equations"][0].update(rhs_canonical="a +")),
            "equations[0]",
            "rhs_canonical",
        ),
        (
            _mutated(lambda d: d["equations"][0].update(dependencies=["q_sam_dollars_t0"])),
            "equations[0]",
            "dependencies",
        ),
        (
            _mutated(lambda d: d["equations"][0].update(dependencies="q_sam_dollars_t0")),
            "equations[0]",
            "dependencies",
        ),
        (
            _mutated(lambda d: d["equations"][0].update(dependencies={"a": 1})),
            "equations[0]",
            "dependencies",
        ),
        (
            _mutated(lambda d: d["equations"][0].update(dependencies=[1, 2])),
            "equations[0]",
            "dependencies",
        ),
        (
            _mutated(lambda d: d["equations"][0].update(admissibility_status=["admitted"])),
            "equations[0]",
            "admissibility_status",
        ),
        (
            _mutated(lambda d: d["equations"][0].update(admissibility_status="refused")),
            "equations[0]",
            "refusal_reason",
        ),
        (
            _mutated(lambda d: d["equations"][0].update(operation_kind=None)),
            "equations[0]",
            "operation_kind",
        ),
        (
            _mutated(lambda d: d["equations"][0].update(lhs_symbol_id={})),
            "equations[0]",
            "lhs_symbol_id",
        ),
        (
            _mutated(lambda d: d["equations"][0].update(unit_proof=None)),
            "equations[0]",
            "unit_proof",
        ),
        (
            _mutated(lambda d: d["equations"][0].update(rhs_canonical="op_000_result*2", dependencies=None)),
            "equations",
            "equations",
        ),
        (
            _mutated(lambda d: d["equations"].append(d["equations"][0])),
            "equations[1]",
            "lhs_symbol_id",
        ),
        (
            _mutated(lambda d: d["unknowns"][0].update(state_index=["op(0)"])),
            "unknowns[0]",
            "state_index",
        ),
        (
            _mutated(lambda d: d["unknowns"][0].update(state_index={"operation_index": "0"})),
            "unknowns[0]",
            "state_index",
        ),
        (_mutated(lambda d: d["unknowns"][0].update(state_index=0)), "unknowns[0]", "state_index"),
        (
            _mutated(lambda d: d["unknowns"][0].update(state_index="op(5)")),
            "unknowns[0]",
            "state_index",
        ),
        (
            _mutated(lambda d: d["unknowns"][0].update(question_form=["count"])),
            "unknowns[0]",
            "question_form",
        ),
        (
            _mutated(lambda d: d["constraints"][0].update(predicate=5)),
            "constraints[0]",
            "predicate",
        ),
        (
            _mutated(lambda d: d["provenance"].__setitem__(0, "s[0:1]")),
            "provenance[0]",
            "provenance[0]",
        ),
        (_mutated(lambda d: d["provenance"][0].update(text=["x"])), "provenance[0]", "text"),
        (_mutated(lambda d: d["equations"].__setitem__(0, None)), "equations[0]", "equations[0]"),
    ],
)
def test_from_json_refusals_name_the_field(data: object, path_start: str, field: str) -> None:
    """from_json refuses bad data with a path from the item to the field."""
    error = raises_bge(BindingGraph.from_json, data)
    assert error.reason in {"malformed_input", "unsafe_expression"}
    assert error.path.startswith(path_start)
    assert error.path.endswith(field)


_BAD_LEAVES: tuple[object, ...] = (None, 5, 2.5, True, [], {}, "", "x y", [1], {"k": "v"}, "1e5")


def _paths(node: object, prefix: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
    out: list[tuple[object, ...]] = [prefix] if prefix else []
    if isinstance(node, dict):
        for key, value in node.items():
            out.extend(_paths(value, (*prefix, key)))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            out.extend(_paths(value, (*prefix, i)))
    return out


def test_from_json_never_raises_another_exception() -> None:
    """Any node of graph JSON replaced by a wrong value gives a graph or BindingGraphError only."""
    original = full_graph().to_json()
    refused = 0
    paths: list[str] = []
    for path in _paths(original):
        for bad in _BAD_LEAVES:
            data = copy.deepcopy(original)
            parent: Any = data
            for key in path[:-1]:
                parent = parent[key]
            parent[path[-1]] = copy.deepcopy(bad)
            try:
                BindingGraph.from_json(data)
            except BindingGraphError as exc:
                paths.append(exc.path)
                refused += 1
    assert all(paths), "every refusal names a field"
    assert refused > 300


@pytest.mark.parametrize("role", ["quantity", "entity", "ratio", "rate", "count", "total"])
def test_an_unknown_asks_a_symbol_of_role_unknown(role: str) -> None:
    """Review (2026-12-07): an unknown asking ``op_000_result`` (8 dollars) at the terminal state was answered 12.

    Its answer is read from the holdings at its state index (ADR-0135), which may be
    another value than the symbol it names: a symbol of any role but ``unknown`` is refused.
    """
    symbols = (sym("a"), sym("b"), sym("r"), sym("asked", semantic_role=role))
    error = raises_bge(BindingGraph, symbols=symbols, equations=(equation(),), unknowns=(unknown("asked"),))
    assert (error.reason, error.path) == ("malformed_input", "unknowns[0].symbol_id")
    article = "an" if role == "entity" else "a"
    assert error.detail.startswith(f"'asked' is {article} {role} symbol: an unknown asks a symbol of role 'unknown'")
    asked = (sym("a"), sym("b"), sym("r"), sym("asked", semantic_role="unknown"))
    graph = BindingGraph(symbols=asked, equations=(equation(),), unknowns=(unknown("asked"),))
    assert graph.unknowns[0].symbol_id == "asked"
