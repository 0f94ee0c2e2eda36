"""Issue #11's reproducers on main, each asserting the outcome the issue says it must end with (SPEC §4, §5).

One test per row of the issue's three tables ("Reproducers on main"), plus the
999-relation inverse chain.  A refusal is either a typed error raised while
binding (``MathGraphError`` / ``BindingGraphError`` / ``UnitRefusal``, each with
``.reason``) or a graph whose every answer is a :class:`verifier.Refusal`; where
the row names a reason, the reason is checked.  Every expected value is worked
out by hand in the test's comment, never computed by the code under test.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
import sympy

from adapters import (
    MathGraphError,
    bind_math_problem_graph,
    bind_relations,
    graph_from_dict,
    parse_canonical_text,
)
from units import UnitRefusal, UnitVocabulary, default_vocabulary
from verifier import Answer, BindingGraph, BindingGraphError, GraphReport, Refusal, verify

TYPED_ERRORS = (MathGraphError, BindingGraphError, UnitRefusal)


# ---------------------------------------------------------------- helpers


def qty(value: object, unit: str) -> dict[str, object]:
    """A JSON quantity."""
    return {"unit": unit, "value": value}


def op(actor: str, kind: str, operand: dict[str, object], target: str | None = None) -> dict[str, object]:
    """A JSON operation."""
    out: dict[str, object] = {"actor": actor, "kind": kind, "operand": operand}
    if target is not None:
        out["target"] = target
    return out


def graph(
    entities: list[str],
    initial: list[tuple[str, object, str]],
    operations: list[dict[str, object]],
    unknown: tuple[str | None, str],
) -> dict[str, object]:
    """A math problem graph in the upstream JSON layout."""
    return {
        "entities": entities,
        "initial_state": [{"entity": e, "quantity": qty(v, u)} for e, v, u in initial],
        "operations": operations,
        "unknown": {"entity": unknown[0], "unit": unknown[1]},
    }


def math_report(data: dict[str, object], vocab: UnitVocabulary) -> GraphReport:
    """graph_from_dict → bind_math_problem_graph → verify."""
    bound = bind_math_problem_graph(graph_from_dict(data), vocab)
    return verify(bound, vocab)


def text_report(text: str, vocab: UnitVocabulary) -> GraphReport:
    """parse_canonical_text → verify."""
    bound, _ = parse_canonical_text(text)
    return verify(bound, vocab)


def json_report(data: dict[str, object], vocab: UnitVocabulary) -> GraphReport:
    """BindingGraph.from_json → verify."""
    return verify(BindingGraph.from_json(data), vocab)


def relational_report(
    relations: list[dict[str, object]], query: dict[str, object], vocab: UnitVocabulary
) -> GraphReport:
    """bind_relations → verify under the integer policy."""
    return verify(bind_relations(relations, query), vocab, "integer")


def assert_answer(report: GraphReport, value: object, unit: str) -> None:
    """The graph's single answer is certified as exactly ``value`` ``unit``."""
    (result,) = report.answers.values()
    assert isinstance(result, Answer), result
    assert result.value == sympy.Rational(str(value))
    assert result.unit == unit


def assert_refused(build: Callable[[], GraphReport], reason: str | None = None, detail_has: str | None = None) -> None:
    """Binding raises a typed error, or every answer of the graph is a Refusal; ``reason`` is checked when given."""
    refusals: list[tuple[str, str]] = []
    try:
        report = build()
    except TYPED_ERRORS as exc:
        refusals.append((exc.reason, exc.detail))
    else:
        assert report.answers, "the graph has no answers at all"
        for result in report.answers.values():
            assert isinstance(result, Refusal), f"certified {result} where a refusal is due"
            refusals.append((result.reason, result.detail))
    for got_reason, got_detail in refusals:
        if reason is not None:
            assert got_reason == reason, (got_reason, got_detail)
        if detail_has is not None:
            assert detail_has in got_detail, (got_reason, got_detail)


@pytest.fixture(scope="module")
def vocab() -> UnitVocabulary:
    """The default (strict) vocabulary."""
    return default_vocabulary()


# ---------------------------------------------------------------- math problem graphs


def test_typo_in_initial_holding_refuses_unknown_unit(vocab: UnitVocabulary) -> None:
    """5 "feeet" + 3 inches asked in inches is refused unknown_unit with a 'feet' suggestion, never 3 inches."""
    data = graph(["Ana"], [("Ana", 5, "feeet")], [op("Ana", "add", qty(3, "inches"))], ("Ana", "inches"))
    assert_refused(lambda: math_report(data, vocab), "unknown_unit", detail_has="feet")


def test_typo_in_operand_refuses_unknown_unit(vocab: UnitVocabulary) -> None:
    """5 feet + 3 "inchs" asked in inches is refused unknown_unit, never 60 inches."""
    data = graph(["Ana"], [("Ana", 5, "feet")], [op("Ana", "add", qty(3, "inchs"))], ("Ana", "inches"))
    assert_refused(lambda: math_report(data, vocab), "unknown_unit")


def test_typo_in_middle_operand_refuses_unknown_unit(vocab: UnitVocabulary) -> None:
    """1 foot + 3 "inchs" + 2 inches asked in inches is refused unknown_unit, never 14 inches."""
    data = graph(
        ["A"],
        [("A", 1, "foot")],
        [op("A", "add", qty(3, "inchs")), op("A", "add", qty(2, "inches"))],
        ("A", "inches"),
    )
    assert_refused(lambda: math_report(data, vocab), "unknown_unit")


def test_typo_in_another_entitys_holding_refuses_the_total(vocab: UnitVocabulary) -> None:
    """A 4 apples, B 5 undeclared "appels", total apples is refused unknown_unit, never 4 apples."""
    nouns = vocab.with_count_nouns({"apples": "apple"})
    data = graph(["A", "B"], [("A", 4, "apples"), ("B", 5, "appels")], [], (None, "apples"))
    assert_refused(lambda: math_report(data, nouns), "unknown_unit")


def test_misread_noun_with_negative_count_refuses(vocab: UnitVocabulary) -> None:
    """58 stickers, subtract 29 "aways" (declared): the aways holding is 0 - 29 < 0, so nothing is certified."""
    nouns = vocab.with_count_nouns({"stickers": "sticker", "aways": "away"})
    data = graph(["Tom"], [("Tom", 58, "stickers")], [op("Tom", "subtract", qty(29, "aways"))], ("Tom", "stickers"))
    assert_refused(lambda: math_report(data, nouns), "negative_count")


def test_overdrawn_count_transfer_refuses_the_receiver(vocab: UnitVocabulary) -> None:
    """A holds 2 items and gives 3 to B: the giver goes to -1, so B's 3 items is refused negative_count."""
    data = graph(["A", "B"], [("A", 2, "items")], [op("A", "transfer", qty(3, "items"), target="B")], ("B", "items"))
    assert_refused(lambda: math_report(data, vocab), "negative_count")


def test_overdrawn_length_transfer_refuses_the_receiver(vocab: UnitVocabulary) -> None:
    """A holds 2 feet and gives 5 feet to B: the giver goes to -3 feet, so B's 5 feet is refused."""
    data = graph(["A", "B"], [("A", 2, "feet")], [op("A", "transfer", qty(5, "feet"), target="B")], ("B", "feet"))
    assert_refused(lambda: math_report(data, vocab))


def test_overdraw_upstream_in_transfer_chain_refuses_the_end(vocab: UnitVocabulary) -> None:
    """A(2 items) gives 3 to B, B gives 3 to C: A went negative, so C's 3 items is refused."""
    data = graph(
        ["A", "B", "C"],
        [("A", 2, "items")],
        [op("A", "transfer", qty(3, "items"), target="B"), op("B", "transfer", qty(3, "items"), target="C")],
        ("C", "items"),
    )
    assert_refused(lambda: math_report(data, vocab))


def test_apply_rate_over_existing_money_refuses_redeclared_state(vocab: UnitVocabulary) -> None:
    """Ana holds $10 and 3 hours; $15/hour would give 45 or 55 dollars: refused redeclared_state."""
    data = graph(
        ["Ana"],
        [("Ana", 10, "dollars"), ("Ana", 3, "hours")],
        [op("Ana", "apply_rate", {"value": 15, "numerator_unit": "dollars", "denominator_unit": "hours"})],
        ("Ana", "dollars"),
    )
    assert_refused(lambda: math_report(data, vocab), "redeclared_state")


def test_unit_partition_over_existing_pieces_refuses_redeclared_state(vocab: UnitVocabulary) -> None:
    """Eli holds 10 pieces and 40 feet; cutting 5-foot pieces would overwrite (8 or 18): refused redeclared_state."""
    nouns = vocab.with_count_nouns({"pieces": "piece"})
    data = graph(
        ["Eli"],
        [("Eli", 10, "pieces"), ("Eli", 40, "feet")],
        [op("Eli", "unit_partition", {"value": 5, "unit": "feet", "result_unit": "pieces"})],
        ("Eli", "pieces"),
    )
    assert_refused(lambda: math_report(data, nouns), "redeclared_state")


OP1_TEXT = (
    "S entity_a A entity entity=A unit=None span=math_problem_graph[0:1] by=bind_math_problem_graph\n"
    "S entity_b B entity entity=B unit=None span=math_problem_graph[0:1] by=bind_math_problem_graph\n"
    "S q_a_items_t0 A.items@t0 quantity entity=A unit=items span=math_problem_graph[0:10] by=bind_math_problem_graph\n"
    "S op_000_result op0.transfer.A quantity entity=A unit=items span=math_problem_graph[0:14] by=bind_math_problem_graph\n"
    "S op_000_target_result op0.transfer.B quantity entity=B unit=items span=math_problem_graph[0:14]"
    " by=bind_math_problem_graph\n"
    "S op_001_result op1.add.A quantity entity=A unit=items span=math_problem_graph[0:9] by=bind_math_problem_graph\n"
    "S unknown_a_items A|items unknown entity=A unit=items span=math_problem_graph[0:7] by=bind_math_problem_graph\n"
    "F q_a_items_t0 = 10 unit=items span=math_problem_graph[0:10]\n"
    "E op_000_result := q_a_items_t0 - 3 op=transfer deps=[q_a_items_t0] literal_unit=items"
    " unit_proof=unverified status=pending refusal=None span=math_problem_graph[0:14]\n"
    "E op_000_target_result := 3 op=transfer deps=[] literal_unit=items"
    " unit_proof=unverified status=pending refusal=None span=math_problem_graph[0:14]\n"
    "E op_001_result := op_000_result + 5 op=add deps=[op_000_result] literal_unit=items"
    " unit_proof=unverified status=pending refusal=None span=math_problem_graph[0:9]\n"
    "U unknown_a_items expected_unit=items state=op(1) form=count qspan=math_problem_graph[0:7]"
)


def test_operation_index_counts_operations_not_equations(vocab: UnitVocabulary) -> None:
    """10 items, transfer 3 (op 0, two equations), add 5 (op 1): state=op(1) is 10 - 3 + 5 = 12 items, not 7."""
    assert_answer(text_report(OP1_TEXT, vocab), 12, "items")


# ---------------------------------------------------------------- binding-graph JSON and canonical text


def span(text: str) -> dict[str, object]:
    """A source span over ``text``."""
    return {"source_id": "issue_11", "start": 0, "end": len(text), "text": text}


def sym(sid: str, role: str, entity: str | None, unit: str | None) -> dict[str, object]:
    """A JSON symbol binding."""
    return {
        "symbol_id": sid,
        "name": sid,
        "semantic_role": role,
        "source_span": span(sid),
        "introduced_by": "test",
        "entity": entity,
        "unit": unit,
    }


def fact(sid: str, value: str, unit: str | None) -> dict[str, object]:
    """A JSON fact."""
    return {"symbol_id": sid, "value": value, "unit": unit, "source_span": span(sid)}


def one_equation_graph(
    symbols: list[dict[str, object]], facts: list[dict[str, object]], rhs: str, kind: str
) -> dict[str, object]:
    """Binding-graph JSON: Ana's symbols, ``r := rhs`` in dollars, and an unknown asking Ana's dollars."""
    return {
        "symbols": [
            sym("entity_ana", "entity", "Ana", None),
            *symbols,
            sym("r", "quantity", "Ana", "dollars"),
            sym("unknown_x", "unknown", "Ana", "dollars"),
        ],
        "facts": facts,
        "equations": [
            {
                "lhs_symbol_id": "r",
                "rhs_canonical": rhs,
                "operation_kind": kind,
                "literal_unit": None,
                "source_span": span("r"),
            }
        ],
        "unknowns": [
            {
                "symbol_id": "unknown_x",
                "expected_unit": "dollars",
                "state_index": "terminal",
                "question_form": "count",
                "question_span": span("unknown_x"),
            }
        ],
    }


@pytest.mark.parametrize(("rhs", "kind"), [("q*z/z", "multiply"), ("q/z*z", "divide")])
def test_cancelled_zero_divisor_refuses_division_by_zero(vocab: UnitVocabulary, rhs: str, kind: str) -> None:
    """The equation r := q*z/z (or q/z*z) with z = 0 divides by zero whatever sympy cancels: refused division_by_zero, not 10."""
    data = one_equation_graph(
        [sym("q", "quantity", "Ana", "dollars"), sym("z", "ratio", None, None)],
        [fact("q", "10", "dollars"), fact("z", "0", None)],
        rhs,
        kind,
    )
    assert_refused(lambda: json_report(data, vocab), "division_by_zero")


def test_cancelled_incommensurable_term_refuses(vocab: UnitVocabulary) -> None:
    """The equation r := q + w - w with q in dollars and w in euros adds two currencies: refused incommensurable, not 10 dollars."""
    data = one_equation_graph(
        [sym("q", "quantity", "Ana", "dollars"), sym("w", "quantity", "Ana", "euros")],
        [fact("q", "10", "dollars"), fact("w", "4", "euros")],
        "q + w - w",
        "add",
    )
    assert_refused(lambda: json_report(data, vocab), "incommensurable_units")


def sline(sid: str, entity: str, unit: str, role: str = "quantity") -> str:
    """An S line in the upstream layout."""
    return f"S {sid} {sid} {role} entity={entity} unit={unit} span=math_problem_graph[0:4] by=bind_math_problem_graph"


def eline(lhs: str, rhs: str, kind: str, deps: str, extra: str = "") -> str:
    """An E line in the upstream layout (``extra`` is inserted before ``unit_proof=``, e.g. a literal_unit)."""
    middle = f" {extra}" if extra else ""
    return (
        f"E {lhs} := {rhs} op={kind} deps=[{deps}]{middle} unit_proof=unverified status=pending"
        " refusal=None span=math_problem_graph[0:9]"
    )


def sam_text(equation: str, result_entity: str = "Sam", *, kim_holds: bool = True) -> str:
    """Sam holds 12 dollars (and Kim 2, if ``kim_holds``); one equation defines op_000_result; the unknown asks its owner's dollars."""
    asked = result_entity.lower()
    kim = [sline("q_kim_dollars_t0", "Kim", "dollars")] if kim_holds else []
    kim_fact = ["F q_kim_dollars_t0 = 2 unit=dollars span=math_problem_graph[0:4]"] if kim_holds else []
    return "\n".join(
        [
            sline("entity_sam", "Sam", "None", "entity"),
            sline("entity_kim", "Kim", "None", "entity"),
            sline("q_sam_dollars_t0", "Sam", "dollars"),
            *kim,
            sline("op_000_result", result_entity, "dollars"),
            sline(f"unknown_{asked}_dollars", result_entity, "dollars", "unknown"),
            "F q_sam_dollars_t0 = 12 unit=dollars span=math_problem_graph[0:4]",
            *kim_fact,
            equation,
            f"U unknown_{asked}_dollars expected_unit=dollars state=terminal form=count qspan=math_problem_graph[0:11]",
        ]
    )


def test_call_form_disagreeing_with_op_kind_refuses_malformed_input(vocab: UnitVocabulary) -> None:
    """E r := add(Sam, 3 dollars) op=subtract: the call and op= disagree, so it is refused malformed_input, not 15."""
    text = sam_text(eline("op_000_result", "add(Sam, 3 dollars)", "subtract", "q_sam_dollars_t0"))
    assert_refused(lambda: text_report(text, vocab), "malformed_input")


def test_arithmetic_disagreeing_with_op_kind_refuses(vocab: UnitVocabulary) -> None:
    """E r := q_sam*3 op=divide: a product labelled a division is refused, not 36."""
    text = sam_text(eline("op_000_result", "q_sam_dollars_t0*3", "divide", "q_sam_dollars_t0"))
    assert_refused(lambda: text_report(text, vocab))


def test_call_literal_unit_disagreeing_with_literal_unit_field_refuses(vocab: UnitVocabulary) -> None:
    """add(Sam, 3 dollars) with literal_unit=cents names two units for one literal: refused, not 1203/100."""
    text = sam_text(eline("op_000_result", "add(Sam, 3 dollars)", "add", "q_sam_dollars_t0", "literal_unit=cents"))
    assert_refused(lambda: text_report(text, vocab))


def test_transfer_result_owned_by_target_refuses(vocab: UnitVocabulary) -> None:
    """transfer(Sam->Kim, 7 dollars) whose result symbol belongs to Kim would make Kim = Sam - 7 = 5: refused."""
    text = sam_text(
        eline("op_000_result", "transfer(Sam->Kim, 7 dollars)", "transfer", "q_sam_dollars_t0"),
        result_entity="Kim",
        kim_holds=False,
    )
    assert_refused(lambda: text_report(text, vocab))


# ---------------------------------------------------------------- relational, policy="integer"


def test_reverse_times_as_many_needs_a_whole_quotient(vocab: UnitVocabulary) -> None:
    """Relations mia = 10 and mia = 3 x liam: liam = 10/3 is no whole number, refused non_exact_division."""
    relations = [
        {"kind": "fact", "entity": "mia", "value": 10},
        {"kind": "times_as_many", "entity": "mia", "ref": "liam", "factor": 3},
    ]
    assert_refused(
        lambda: relational_report(relations, {"entity": "liam", "unit": "dollars"}, vocab), "non_exact_division"
    )


def test_linear_solve_with_half_integer_solution_refuses(vocab: UnitVocabulary) -> None:
    """Relations t = 11, t = a + b, b = a + 2: a = 9/2 and b = 13/2 are not whole, so b is refused, not 13/2 dollars."""
    relations: list[dict[str, object]] = [
        {"kind": "fact", "entity": "t", "value": 11},
        {"kind": "sum_of", "entity": "t", "parts": ["a", "b"]},
        {"kind": "more_than", "entity": "b", "ref": "a", "delta": 2},
    ]
    assert_refused(lambda: relational_report(relations, {"entity": "b", "unit": "dollars"}, vocab))


def test_999_relation_inverse_chain_answers(vocab: UnitVocabulary) -> None:
    """A 999-relation chain e1 = e0 + 1 … e998 = e997 + 1 with e998 = 1000 answers e0 = 2 dollars (no RecursionError)."""
    relations: list[dict[str, object]] = [
        {"kind": "more_than", "entity": f"e{i + 1}", "ref": f"e{i}", "delta": 1} for i in range(998)
    ]
    relations.append({"kind": "fact", "entity": "e998", "value": 1000})
    assert len(relations) == 999
    # e998 = e0 + 998 * 1, so e0 = 1000 - 998 = 2
    assert_answer(relational_report(relations, {"entity": "e0", "unit": "dollars"}, vocab), 2, "dollars")
