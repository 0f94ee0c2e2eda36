"""What the adversarial review of the holdings model found, each pinned to the refusal it now gets (SPEC §4 and §5)."""

from __future__ import annotations

import pytest

from adapters import bind_math_problem_graph, bind_relations, graph_from_dict, parse_canonical_text, read_json
from units import UnitRefusal, default_vocabulary
from verifier import BindingGraph, Refusal, verify
from verifier.values import Policy


def _span(text: str) -> dict[str, object]:
    return {"source_id": "review", "start": 0, "end": len(text), "text": text}


def _symbol(symbol_id: str, role: str, entity: str | None, unit: str | None) -> dict[str, object]:
    return {
        "symbol_id": symbol_id,
        "name": symbol_id,
        "semantic_role": role,
        "source_span": _span(symbol_id),
        "introduced_by": "review",
        "entity": entity,
        "unit": unit,
    }


def _answers(graph: BindingGraph, policy: Policy = "count_exact") -> list[object]:
    return list(verify(graph, policy=policy).answers.values())


def _sam_kim(rhs: str, kind: str, deps: str, kim: int) -> BindingGraph:
    """Canonical text: Sam holds 10 apples, Kim ``kim``; one equation on Sam; asked Sam's apples at the end."""
    lines = [
        "S entity_sam Sam entity entity=Sam unit=None span=t[0:3] by=t",
        "S entity_kim Kim entity entity=Kim unit=None span=t[0:3] by=t",
        "S q_sam_apples_t0 q quantity entity=Sam unit=apples span=t[0:3] by=t",
        "S q_kim_apples_t0 q quantity entity=Kim unit=apples span=t[0:3] by=t",
        "S op_000_result r quantity entity=Sam unit=apples span=t[0:3] by=t",
        "S u u unknown entity=Sam unit=apples span=t[0:3] by=t",
        "F q_sam_apples_t0 = 10 unit=apples span=t[0:3]",
        f"F q_kim_apples_t0 = {kim} unit=apples span=t[0:3]",
        (
            f"E op_000_result := {rhs} op={kind} deps=[{deps}] literal_unit=apples unit_proof=unverified"
            " status=pending refusal=None span=t[0:3]"
        ),
        "U u expected_unit=apples state=terminal form=count qspan=t[0:3]",
    ]
    graph, _ = parse_canonical_text("\n".join(lines))
    return graph


@pytest.mark.parametrize(("rhs", "kind"), [("qa - 2", "add"), ("qa + 2", "subtract")])
def test_binding_graph_whose_constant_contradicts_its_kind_is_refused(rhs: str, kind: str) -> None:
    """``qa - 2`` labelled add (or ``qa + 2`` labelled subtract) is refused, not answered 3 (or 7) dollars."""
    data = {
        "symbols": [
            _symbol("entity_a", "entity", "A", None),
            _symbol("qa", "quantity", "A", "dollars"),
            _symbol("ra", "quantity", "A", "dollars"),
            _symbol("u", "unknown", "A", "dollars"),
        ],
        "facts": [{"symbol_id": "qa", "value": "5", "unit": "dollars", "source_span": _span("qa")}],
        "equations": [
            {
                "lhs_symbol_id": "ra",
                "rhs_canonical": rhs,
                "operation_kind": kind,
                "literal_unit": "dollars",
                "source_span": _span("ra"),
            }
        ],
        "unknowns": [
            {"symbol_id": "u", "state_index": "terminal", "question_form": "count", "question_span": _span("u")}
        ],
    }
    (answer,) = _answers(BindingGraph.from_json(data))
    assert isinstance(answer, Refusal)
    assert answer.reason == "operand_arity"


def test_partition_into_zero_parts_is_refused() -> None:
    """A unit_partition makes a positive number of parts: 0 bags split by 1 bag is not answered 0."""
    vocab = default_vocabulary().with_count_nouns({"pieces": "piece"})
    data = {
        "entities": ["A"],
        "initial_state": [{"entity": "A", "quantity": {"unit": "feet", "value": 0}}],
        "operations": [
            {"actor": "A", "kind": "unit_partition", "operand": {"value": 1, "unit": "feet", "result_unit": "pieces"}}
        ],
        "unknown": {"entity": "A", "unit": "pieces"},
    }
    (answer,) = verify(bind_math_problem_graph(graph_from_dict(data), vocab), vocab).answers.values()
    assert isinstance(answer, Refusal)
    assert answer.reason == "value_out_of_range"


def test_integer_policy_refuses_a_fractional_divisor_even_where_the_system_is_open() -> None:
    """Under the integer policy a divide_by 3/2 is refused whether or not its part of the system is solved."""
    relations = [
        {"kind": "times_as_many", "entity": "dee", "ref": "bo", "factor": 4},
        {"kind": "divide_by", "entity": "cy", "ref": "dee", "divisor": "3/2"},
        {"kind": "fact", "entity": "eve", "value": 9},
    ]
    (answer,) = _answers(bind_relations(relations, {"entity": "eve", "unit": "dollars"}), policy="integer")
    assert isinstance(answer, Refusal)
    assert answer.reason == "non_exact_division"


def test_unknown_whose_unit_and_expected_unit_disagree_is_refused() -> None:
    """An unknown symbol in pounds that asks for inches is refused (unit_mismatch), not answered in inches."""
    data = {
        "symbols": [
            _symbol("entity_a", "entity", "A", None),
            _symbol("qa", "quantity", "A", "inches"),
            _symbol("u", "unknown", "A", "pounds"),
        ],
        "facts": [{"symbol_id": "qa", "value": "36", "unit": "inches", "source_span": _span("qa")}],
        "unknowns": [
            {
                "symbol_id": "u",
                "expected_unit": "inches",
                "state_index": "initial",
                "question_form": "identity",
                "question_span": _span("u"),
            }
        ],
    }
    (answer,) = _answers(BindingGraph.from_json(data))
    assert isinstance(answer, Refusal)
    assert answer.reason == "unit_mismatch"


@pytest.mark.parametrize(
    "nouns",
    [
        {"mugs": "cups"},  # a lexicon surface (of cup), which pint would also read as a plural
        {"zorbs": "dozens"},
        {"bucks": "dollars"},
        {"kids": "children"},  # a surface of child: map onto the lemma 'child' instead
        {"apples": "items"},
        {"eggs": "dozen"},  # a fixed multiple of item (12), not a kind
        {"socks": "pair"},
    ],
)
def test_declaration_onto_a_surface_or_a_multiple_is_refused(nouns: dict[str, str]) -> None:
    """A count noun maps onto a new lemma or an existing count kind, never a lexicon surface or a fixed multiple."""
    with pytest.raises(UnitRefusal) as info:
        default_vocabulary().with_count_nouns(nouns)
    assert info.value.reason == "malformed_input"


def test_declaration_onto_a_count_kind_merges_exactly() -> None:
    """Kids declared as 'child' are children: 3 kids and 2 children total 5 children."""
    vocab = default_vocabulary().with_count_nouns({"kids": "child"})
    data = {
        "entities": ["Ana", "Bob"],
        "initial_state": [
            {"entity": "Ana", "quantity": {"unit": "kids", "value": 3}},
            {"entity": "Bob", "quantity": {"unit": "children", "value": 2}},
        ],
        "operations": [],
        "unknown": {"entity": None, "unit": "children"},
    }
    (answer,) = verify(bind_math_problem_graph(graph_from_dict(data), vocab), vocab).answers.values()
    assert not isinstance(answer, Refusal)
    assert answer.value == 5


def test_sibling_declarations_never_change_a_derived_vocabulary() -> None:
    """A lemma one derived vocabulary declares ('pear') does not change another's ('pears' stays its own kind)."""
    base = default_vocabulary()
    base.with_count_nouns({"pear": "pear"})
    vocab = base.with_count_nouns({"pearz": "pears"})
    assert vocab.resolve("pearz").lemma == "pears"
    assert vocab.resolve("pearz").kind != base.with_count_nouns({"pear": "pear"}).resolve("pear").kind
    two = base.with_count_nouns({"apple": "apple", "apples": "apples"})
    assert two.resolve("apple").kind != two.resolve("apples").kind


@pytest.mark.parametrize(
    ("rhs", "kind", "deps"),
    [
        ("-q_sam_apples_t0 + 13", "add", "q_sam_apples_t0"),
        ("q_sam_apples_t0 - q_kim_apples_t0", "add", "q_kim_apples_t0,q_sam_apples_t0"),
        ("-q_sam_apples_t0 - 3", "subtract", "q_sam_apples_t0"),
        ("-q_sam_apples_t0 + q_kim_apples_t0 + 13", "add", "q_kim_apples_t0,q_sam_apples_t0"),
        ("-q_sam_apples_t0 + 3", "compare_additive", "q_sam_apples_t0"),
    ],
)
def test_signs_that_contradict_the_kind_are_refused(rhs: str, kind: str, deps: str) -> None:
    """An add takes nothing away, a subtract adds only its state, a comparison reads its reference with sign +."""
    vocab = default_vocabulary().with_count_nouns({"apples": "apple"})
    graph = _sam_kim(rhs, kind, deps, 2)
    (answer,) = verify(graph, vocab).answers.values()
    assert isinstance(answer, Refusal)
    assert answer.reason == "operand_arity"


@pytest.mark.parametrize("lemma", ["length", "mass", "time", "calendar", "dimensionless", "nan", "per", "none"])
def test_derived_vocabulary_refuses_what_a_fresh_build_refuses(lemma: str) -> None:
    """A count lemma named like a base dimension or a reserved name is refused (never merged into meters)."""
    with pytest.raises(UnitRefusal) as info:
        default_vocabulary().with_count_nouns({"ropes": lemma})
    assert info.value.reason == "malformed_input"


@pytest.mark.parametrize("rhs", ["-q_sam_apples_t0 + q_kim_apples_t0", "q_kim_apples_t0 - q_sam_apples_t0 - 3"])
def test_subtract_adds_only_its_own_state(rhs: str) -> None:
    """A subtract on Sam whose added operand is Kim's holding (Kim - Sam) is refused, not answered 15 or 12."""
    vocab = default_vocabulary().with_count_nouns({"apples": "apple"})
    graph = _sam_kim(rhs, "subtract", "q_kim_apples_t0,q_sam_apples_t0", 25)
    (answer,) = verify(graph, vocab).answers.values()
    assert isinstance(answer, Refusal)
    assert answer.reason == "operand_arity"


@pytest.mark.parametrize(
    "text",
    [
        '{"unit": "feet", "value": 5, "unit": "inches"}',
        '{"entities": ["A"], "entities": ["B"], "initial_state": [], "operations": [], "unknown": {"unit": "feet"}}',
        '[{"a": 1}, {"b": {"c": 1, "c": 2}}]',
    ],
)
def test_json_with_a_repeated_key_is_refused(text: str) -> None:
    """Every JSON reader refuses an object that repeats a key, naming it (no silent last-one-wins)."""
    with pytest.raises(UnitRefusal) as info:
        read_json(text)
    assert info.value.reason == "malformed_input"
    assert "repeats" in info.value.detail
