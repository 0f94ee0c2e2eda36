"""Relational relations (``fact``, ``more_than`` … ``sum_of``) bound to a graph (SPEC §5).

Each relation kind as an equation of the right operation kind with the right
answer, and every malformed relation refused with a reason and a path naming
the relation.
"""

from __future__ import annotations

from unittest import mock

import pytest
import sympy

from adapters import AdapterError, MathGraphError, bind_relations
from units import UnitVocabulary, default_vocabulary
from verifier import Answer, BindingGraph, Refusal, verify
from verifier.values import Policy


@pytest.fixture(scope="module")
def nouns() -> UnitVocabulary:
    """The default vocabulary with "stickers" declared."""
    return default_vocabulary().with_count_nouns({"stickers": "sticker"})


def answer_of(bound: BindingGraph, vocab: UnitVocabulary, policy: Policy = "integer") -> Answer | Refusal:
    """The graph's single answer under the policy (the relational oracle's integer policy by default)."""
    (result,) = verify(bound, vocab, policy).answers.values()
    return result


FACT_A = {"kind": "fact", "entity": "ann", "value": 12}
KINDS = [
    ("fact", [FACT_A], "ann", 12, "compare_additive", None),
    (
        "more_than",
        [FACT_A, {"kind": "more_than", "entity": "bo", "ref": "ann", "delta": 4}],
        "bo",
        16,
        "compare_additive",
        "q_ann + 4",
    ),
    (
        "fewer_than",
        [FACT_A, {"kind": "fewer_than", "entity": "bo", "ref": "ann", "delta": 5}],
        "bo",
        7,
        "compare_additive",
        "q_ann - 5",
    ),
    (
        "times_as_many",
        [FACT_A, {"kind": "times_as_many", "entity": "bo", "ref": "ann", "factor": 3}],
        "bo",
        36,
        "compare_multiplicative",
        "3*q_ann",
    ),
    (
        "divide_by",
        [FACT_A, {"kind": "divide_by", "entity": "bo", "ref": "ann", "divisor": 4}],
        "bo",
        3,
        "divide",
        "q_ann/q_bo__divisor",
    ),
    (
        "sum_of",
        [
            FACT_A,
            {"kind": "fact", "entity": "bo", "value": 5},
            {"kind": "sum_of", "entity": "all", "parts": ["ann", "bo"]},
        ],
        "all",
        17,
        "add",
        "q_ann + q_bo",
    ),
]


@pytest.mark.parametrize(
    ("relations", "asked", "expected", "kind", "rhs"), [row[1:] for row in KINDS], ids=[row[0] for row in KINDS]
)
def test_relation_kinds(
    nouns: UnitVocabulary,
    *,
    relations: list[dict[str, object]],
    asked: str,
    expected: int,
    kind: str,
    rhs: str | None,
) -> None:
    """Each relation kind becomes one equation of its operation kind and answers exactly."""
    bound = bind_relations(relations, {"entity": asked, "unit": "stickers"})
    if rhs is None:
        assert bound.equations == ()
    else:
        (eq,) = bound.equations
        assert eq.operation_kind == kind
        assert eq.rhs_canonical == rhs
        assert eq.lhs_symbol_id == f"q_{asked}"
    result = answer_of(bound, nouns)
    assert isinstance(result, Answer)
    assert result.value == expected
    assert result.unit == "stickers"


def test_symbol_ids_and_units(nouns: UnitVocabulary) -> None:
    """Entities get entity_<slug> and q_<slug>; divide_by adds q_<slug>__divisor; the unknown is unknown_<slug>_<unit>."""
    bound = bind_relations(
        [
            {"kind": "fact", "entity": "Mrs. Lee", "value": 8},
            {"kind": "divide_by", "entity": "Bo", "ref": "Mrs. Lee", "divisor": 2},
        ],
        {"entity": "Bo", "unit": "stickers"},
    )
    assert [s.symbol_id for s in bound.symbols] == [
        "entity_mrs_lee",
        "entity_bo",
        "q_mrs_lee",
        "q_bo",
        "q_bo__divisor",
        "unknown_bo_stickers",
    ]
    assert bound.symbol("q_bo__divisor").semantic_role == "ratio"
    assert bound.symbol("q_bo__divisor").unit is None
    assert {s.unit for s in bound.symbols if s.symbol_id in ("q_mrs_lee", "q_bo")} == {"stickers"}
    result = answer_of(bound, nouns)
    assert isinstance(result, Answer)
    assert result.value == 4


def test_per_entity_units_convert(vocab: UnitVocabulary) -> None:
    """With per-entity units, "Bo has 4 inches more than Ann's 3 feet" is 40 inches."""
    bound = bind_relations(
        [
            {"kind": "fact", "entity": "ann", "value": 3},
            {"kind": "more_than", "entity": "bo", "ref": "ann", "delta": 4},
        ],
        {"entity": "bo", "unit": "inches"},
        units={"ann": "feet", "bo": "inches"},
    )
    result = answer_of(bound, vocab)
    assert isinstance(result, Answer)
    assert result.value == 40


def test_chain_and_reverse(nouns: UnitVocabulary) -> None:
    """A chain answers forward; the same relations answer in reverse from the end fact."""
    chain = [
        {"kind": "more_than", "entity": "bo", "ref": "ann", "delta": 5},
        {"kind": "fewer_than", "entity": "cy", "ref": "bo", "delta": 2},
    ]
    forward = bind_relations(
        [{"kind": "fact", "entity": "ann", "value": 8}, *chain],
        {"entity": "cy", "unit": "stickers"},
    )
    assert answer_of(forward, nouns) == Answer(
        value=sympy.Integer(11), unit="stickers", question_form="difference", state_index="terminal"
    )
    backward = bind_relations(
        [*chain, {"kind": "fact", "entity": "cy", "value": 11}],
        {"entity": "ann", "unit": "stickers"},
    )
    result = answer_of(backward, nouns)
    assert isinstance(result, Answer)
    assert result.value == 8


def test_times_as_many_reverse_needs_an_integer_quotient(nouns: UnitVocabulary) -> None:
    """Bo has 3 times Ann's; Bo has 36 → Ann 12.  Bo has 35 → no whole Ann: refused, never 11 or 12."""
    rel = {"kind": "times_as_many", "entity": "bo", "ref": "ann", "factor": 3}
    good = answer_of(
        bind_relations(
            [rel, {"kind": "fact", "entity": "bo", "value": 36}],
            {"entity": "ann", "unit": "stickers"},
        ),
        nouns,
    )
    assert isinstance(good, Answer)
    assert good.value == 12
    bad = answer_of(
        bind_relations(
            [rel, {"kind": "fact", "entity": "bo", "value": 35}],
            {"entity": "ann", "unit": "stickers"},
        ),
        nouns,
    )
    assert isinstance(bad, Refusal)
    assert bad.reason in {"non_integer_count", "non_exact_division"}


def test_odd_divide_by_refuses(nouns: UnitVocabulary) -> None:
    """Half of 7 stickers is refused under the integer policy (the upstream oracle's boundary)."""
    bound = bind_relations(
        [
            {"kind": "fact", "entity": "ann", "value": 7},
            {"kind": "divide_by", "entity": "bo", "ref": "ann", "divisor": 2},
        ],
        {"entity": "bo", "unit": "stickers"},
    )
    result = answer_of(bound, nouns)
    assert isinstance(result, Refusal)
    assert result.reason == "non_exact_division"


def test_divide_by_one_is_the_identity(nouns: UnitVocabulary) -> None:
    """divide_by 1 is pinned as the identity (ADR-0134 amendment)."""
    bound = bind_relations(
        [
            {"kind": "fact", "entity": "ann", "value": 7},
            {"kind": "divide_by", "entity": "bo", "ref": "ann", "divisor": 1},
        ],
        {"entity": "bo", "unit": "stickers"},
    )
    result = answer_of(bound, nouns)
    assert isinstance(result, Answer)
    assert result.value == 7


def test_relational_equations_are_left_pending(nouns: UnitVocabulary) -> None:
    """bind_relations does not stamp admissibility; verify decides it (and admits these)."""
    bound = bind_relations(
        [FACT_A, {"kind": "more_than", "entity": "bo", "ref": "ann", "delta": 4}],
        {"entity": "bo", "unit": "stickers"},
    )
    assert {e.admissibility_status for e in bound.equations} == {"pending"}
    report = verify(bound, nouns, "integer")
    assert report.verdicts["q_bo"].status == "admitted"
    assert report.verdicts["q_bo"].unit_proof == "compare_additive: [count] -> count"


# ---------------------------------------------------------------- malformed relations

GOOD = {"kind": "fact", "entity": "ann", "value": 1}
MALFORMED = [
    (
        "unknown kind",
        [GOOD, {"kind": "half_of", "entity": "bo", "ref": "ann"}],
        "malformed_input",
        "relations[1].kind",
    ),
    ("kind missing", [{"entity": "bo"}], "malformed_input", "relations[0].kind"),
    ("kind not a string", [{"kind": [], "entity": "bo"}], "malformed_input", "relations[0].kind"),
    ("not an object", [GOOD, "bo has 3"], "malformed_input", "relations[1].kind"),
    (
        "missing field",
        [{"kind": "more_than", "entity": "bo", "ref": "ann"}],
        "malformed_input",
        "relations[0]",
    ),
    (
        "unknown field",
        [{"kind": "fact", "entity": "ann", "value": 1, "unit": "stickers"}],
        "malformed_input",
        "relations[0]",
    ),
    (
        "float value",
        [{"kind": "fact", "entity": "ann", "value": 0.1 + 0.2}],
        "malformed_input",
        "relations[0].value",
    ),
    (
        "bool delta",
        [GOOD, {"kind": "more_than", "entity": "bo", "ref": "ann", "delta": True}],
        "malformed_input",
        "relations[1].delta",
    ),
    (
        "nan divisor",
        [GOOD, {"kind": "divide_by", "entity": "bo", "ref": "ann", "divisor": "nan"}],
        "malformed_input",
        "relations[1].divisor",
    ),
    (
        "huge value",
        [{"kind": "fact", "entity": "ann", "value": "9" * 60}],
        "input_too_large",
        "relations[0].value",
    ),
    (
        "compared with itself",
        [{"kind": "more_than", "entity": "ann", "ref": "ann", "delta": 1}],
        "malformed_input",
        "relations[0].ref",
    ),
    (
        "empty sum",
        [{"kind": "sum_of", "entity": "all", "parts": []}],
        "malformed_input",
        "relations[0].parts",
    ),
    (
        "parts not a list",
        [{"kind": "sum_of", "entity": "all", "parts": "ann"}],
        "malformed_input",
        "relations[0].parts",
    ),
    (
        "sum of itself",
        [{"kind": "sum_of", "entity": "all", "parts": ["ann", "all"]}],
        "malformed_input",
        "relations[0].parts",
    ),
    (
        "bad part name",
        [{"kind": "sum_of", "entity": "all", "parts": ["ann", 3]}],
        "malformed_input",
        "relations[0].parts[1]",
    ),
    (
        "zero factor",
        [GOOD, {"kind": "times_as_many", "entity": "bo", "ref": "ann", "factor": 0}],
        "malformed_input",
        "relations[1].factor",
    ),
    (
        "negative factor",
        [GOOD, {"kind": "times_as_many", "entity": "bo", "ref": "ann", "factor": -2}],
        "malformed_input",
        "relations[1].factor",
    ),
    (
        "empty entity",
        [{"kind": "fact", "entity": "", "value": 1}],
        "malformed_input",
        "relations[0].entity",
    ),
    (
        "defined twice",
        [
            GOOD,
            {"kind": "more_than", "entity": "bo", "ref": "ann", "delta": 1},
            {"kind": "fewer_than", "entity": "bo", "ref": "ann", "delta": 1},
        ],
        "redeclared_state",
        "relations[2]",
    ),
]


@pytest.mark.parametrize(
    ("relations", "reason", "field"), [row[1:] for row in MALFORMED], ids=[row[0] for row in MALFORMED]
)
def test_malformed_relations_are_refused(relations: list[object], reason: str, field: str) -> None:
    """A malformed relation is refused with its reason and a path naming the relation (and field)."""
    with pytest.raises(MathGraphError) as info:
        bind_relations(relations, {"entity": "ann", "unit": "stickers"})
    assert info.value.reason == reason
    assert info.value.path == field
    assert field in str(info.value)


@pytest.mark.parametrize(
    ("relations", "query", "units", "field"),
    [
        ({"kind": "fact"}, {"entity": "ann", "unit": "stickers"}, None, "relations"),
        ("fact ann 1", {"entity": "ann", "unit": "stickers"}, None, "relations"),
        ([GOOD], {"entity": "ann"}, None, "query"),
        ([GOOD], {"entity": "ann", "unit": "stickers", "when": "now"}, None, "query"),
        ([GOOD], ["ann", "stickers"], None, "query"),
        ([GOOD], {"entity": "", "unit": "stickers"}, None, "query.entity"),
        ([GOOD], {"entity": "ann", "unit": 3}, None, "query.unit"),
        ([GOOD], {"entity": "ann", "unit": "stickers"}, {"bo": "stickers"}, "units"),
        ([GOOD], {"entity": "ann", "unit": "stickers"}, ["stickers"], "units"),
    ],
)
def test_malformed_query_and_units_are_refused(relations: object, query: object, units: object, field: str) -> None:
    """A relations value that is not a list, a bad query or an incomplete units map is refused naming it."""
    with pytest.raises(MathGraphError) as info:
        bind_relations(relations, query, units)  # type: ignore[arg-type]
    assert info.value.reason == "malformed_input"
    assert info.value.path == field


def test_cycle_is_refused() -> None:
    """Two relations defining each other form a cycle: malformed_input naming both entities."""
    with pytest.raises(MathGraphError) as info:
        bind_relations(
            [
                {"kind": "more_than", "entity": "a", "ref": "b", "delta": 1},
                {"kind": "more_than", "entity": "b", "ref": "a", "delta": 1},
            ],
            {"entity": "a", "unit": "stickers"},
        )
    assert info.value.reason == "malformed_input"
    assert "q_a" in info.value.detail
    assert "q_b" in info.value.detail


def test_too_many_relations_are_refused() -> None:
    """More relations than the bound are refused with input_too_large before any work."""
    with pytest.raises(MathGraphError) as info:
        bind_relations([GOOD] * 1001, {"entity": "ann", "unit": "stickers"})
    assert info.value.reason == "input_too_large"
    assert info.value.path == "relations"


def test_binding_is_deterministic() -> None:
    """Binding the same relations twice gives equal graphs and byte-equal canonical strings."""
    relations: list[dict[str, object]] = [
        {"kind": "more_than", "entity": "nia", "ref": "omar", "delta": 9},
        {"kind": "sum_of", "entity": "both", "parts": ["nia", "omar"]},
        {"kind": "fact", "entity": "both", "value": 25},
    ]
    first = bind_relations(relations, {"entity": "omar", "unit": "stickers"})
    second = bind_relations([dict(r) for r in relations], {"entity": "omar", "unit": "stickers"})
    assert first == second
    assert first.to_canonical_string() == second.to_canonical_string()


def test_bind_relations_reads_the_question_with_the_vocabulary_given() -> None:
    """The vocabulary one verifies with is the one the question form is read with (not always the default)."""
    relations = [
        {"kind": "fact", "entity": "liam", "value": 3},
        {"kind": "more_than", "entity": "mia", "ref": "liam", "delta": 4},
    ]
    query = {"entity": "mia", "unit": "stickers"}
    vocab = default_vocabulary().with_count_nouns({"stickers": "sticker"})
    with mock.patch("adapters.relational.infer_question_form", return_value="difference") as form:
        bind_relations(relations, query, vocab=vocab)
    assert form.call_args.args[2] is vocab
    graph = bind_relations(relations, query, vocab=vocab)
    assert [str(a) for a in verify(graph, vocab).answers.values()] == ["7 stickers"]
    with pytest.raises(AdapterError) as info:
        bind_relations(relations, query, vocab="en_units_v1")  # type: ignore[arg-type]
    assert (info.value.reason, info.value.path) == ("malformed_input", "vocab")


@pytest.mark.parametrize(
    ("relations", "reason"),
    [
        ([{"kind": "fact", "entity": "a b=c", "value": 3}], "malformed_input"),  # the graph's text check refuses it
        ([{"kind": "fact", "entity": "None", "value": 3}], "malformed_input"),
        ([{"kind": "fact", "entity": "mia", "value": 10**40}], "input_too_large"),  # 41 digits
    ],
)
def test_bind_relations_raises_only_its_own_error(relations: list[dict[str, object]], reason: str) -> None:
    """What the binding graph refuses reaches the caller as MathGraphError (it had escaped as BindingGraphError)."""
    entity = str(relations[0]["entity"])
    with pytest.raises(MathGraphError) as info:
        bind_relations(relations, {"entity": entity, "unit": "feet"})
    assert info.value.reason == reason


def test_a_sum_lists_each_part_once() -> None:
    """A sum_of listing a part twice is malformed_input naming the repeat (it had been refused at verify, as 2*x)."""
    with pytest.raises(MathGraphError) as info:
        bind_relations(
            [
                {"kind": "fact", "entity": "liam", "value": 3},
                {"kind": "sum_of", "entity": "total", "parts": ["liam", "liam"]},
            ],
            {"entity": "total", "unit": "feet"},
        )
    assert (info.value.reason, info.value.path) == ("malformed_input", "relations[1].parts[1]")
    assert "'liam' is listed twice" in info.value.detail
