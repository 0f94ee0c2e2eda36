"""Canonical binding-graph text (``S``/``F``/``E``/``U``/``C``/``P`` lines) read back (SPEC §5, §8).

The upstream call forms and our arithmetic forms, each as the right sympy
right-hand side; our own canonical strings parsing back to an equal graph; and
text that does not fit refused with a reason naming the line.  The texts below
are written here in the upstream line format, not copied from upstream files.
"""

from __future__ import annotations

import json

import pytest
import sympy

from adapters import (
    MathGraphError,
    RecordedVerdict,
    bind_math_problem_graph,
    bind_relations,
    graph_from_dict,
    parse_canonical_text,
)
from units import UnitVocabulary, default_vocabulary
from verifier import Answer, BindingGraph, OperationIndex, check_equation, verify
from verifier.expr import evaluate


def sline(sid: str, entity: str, unit: str, role: str = "quantity") -> str:
    """An S line in the upstream layout."""
    return f"S {sid} {sid} {role} entity={entity} unit={unit} span=math_problem_graph[0:4] by=bind_math_problem_graph"


def eline(
    lhs: str,
    rhs: str,
    kind: str,
    deps: str,
    *,
    status: str = "pending",
    proof: str = "unverified",
    refusal: str = "None",
) -> str:
    """An E line in the upstream layout."""
    return f"E {lhs} := {rhs} op={kind} deps=[{deps}] unit_proof={proof} status={status} refusal={refusal} span=math_problem_graph[0:9]"


HEADER = [
    sline("entity_sam", "Sam", "None", "entity"),
    sline("entity_kim", "Kim", "None", "entity"),
    sline("q_sam_dollars_t0", "Sam", "dollars"),
    sline("q_kim_dollars_t0", "Kim", "dollars"),
    sline("q_sam_hours_t0", "Sam", "hours"),
    sline("op_000__multiplicand", "None", "None", "ratio"),
    sline("op_000__divisor", "None", "None", "ratio"),
    sline("op_000__rate", "None", "dollars_per_hours", "rate"),
    sline("op_000_result", "Sam", "None"),
    "F q_sam_dollars_t0 = 10 unit=dollars span=math_problem_graph[0:4]",
    "F q_kim_dollars_t0 = 2 unit=dollars span=math_problem_graph[0:4]",
    "F q_sam_hours_t0 = 3 unit=hours span=math_problem_graph[0:4]",
    "F op_000__multiplicand = 3 unit=None span=math_problem_graph[0:4]",
    "F op_000__divisor = 4 unit=None span=math_problem_graph[0:4]",
    "F op_000__rate = 15 unit=dollars_per_hours span=math_problem_graph[0:4]",
]


def parse_one(rhs: str, kind: str, deps: str) -> tuple[BindingGraph, dict[str, RecordedVerdict]]:
    """Parse the header plus one equation defining op_000_result."""
    return parse_canonical_text("\n".join([*HEADER, eline("op_000_result", rhs, kind, deps)]))


CALL_FORMS = [
    ("add(Sam, 3 dollars)", "add", "q_sam_dollars_t0", "q_sam_dollars_t0 + 3", "dollars", 13),
    (
        "subtract(Sam, 4 dollars)",
        "subtract",
        "q_sam_dollars_t0",
        "q_sam_dollars_t0 - 4",
        "dollars",
        6,
    ),
    (
        "transfer(Sam->Kim, 7 dollars)",
        "transfer",
        "q_kim_dollars_t0,q_sam_dollars_t0",
        "q_sam_dollars_t0 - 7",
        "dollars",
        3,
    ),
    (
        "multiply(Sam, 3 dollars)",
        "multiply",
        "op_000__multiplicand,q_sam_dollars_t0",
        "op_000__multiplicand*q_sam_dollars_t0",
        None,
        30,
    ),
    (
        "divide(Sam, 4 dollars)",
        "divide",
        "op_000__divisor,q_sam_dollars_t0",
        "q_sam_dollars_t0/op_000__divisor",
        None,
        sympy.Rational(5, 2),
    ),
    (
        "apply_rate(Sam, 15 dollars/hours)",
        "apply_rate",
        "op_000__rate,q_sam_hours_t0",
        "op_000__rate*q_sam_hours_t0",
        None,
        45,
    ),
    (
        "compare_additive(Sam, more(Kim, delta=4 dollars))",
        "compare_additive",
        "q_kim_dollars_t0",
        "q_kim_dollars_t0 + 4",
        "dollars",
        6,
    ),
    (
        "compare_additive(Sam, fewer(Kim, delta=1 dollars))",
        "compare_additive",
        "q_kim_dollars_t0",
        "q_kim_dollars_t0 - 1",
        "dollars",
        1,
    ),
    (
        "compare_multiplicative(Sam, times(Kim, factor=2))",
        "compare_multiplicative",
        "",
        "2*q_kim_dollars_t0",
        None,
        4,
    ),
    (
        "compare_multiplicative(Sam, fraction(Kim, factor=1/2))",
        "compare_multiplicative",
        "",
        "q_kim_dollars_t0/2",
        None,
        1,
    ),
    (
        "add(Sam, 2.5 dollars)",
        "add",
        "q_sam_dollars_t0",
        "q_sam_dollars_t0 + 5/2",
        "dollars",
        sympy.Rational(25, 2),
    ),
]


@pytest.mark.parametrize(
    ("rhs", "kind", "deps", "canonical", "literal_unit", "value"),
    CALL_FORMS,
    ids=[row[0] for row in CALL_FORMS],
)
def test_call_forms(
    vocab: UnitVocabulary,
    *,
    rhs: str,
    kind: str,
    deps: str,
    canonical: str,
    literal_unit: str | None,
    value: object,
) -> None:
    """Each upstream call form becomes the exact right-hand side over the actor's dependency, and evaluates."""
    graph, recorded = parse_one(rhs, kind, deps)
    (eq,) = graph.equations
    assert eq.rhs_canonical == canonical
    assert eq.operation_kind == kind
    assert eq.literal_unit == literal_unit
    assert recorded["op_000_result"].rhs_canonical == rhs
    assert recorded["op_000_result"].dependencies == tuple(d for d in deps.split(",") if d)
    report = verify(graph, vocab)
    if kind.startswith("compare"):
        # Sam already holds dollars, so verify refuses the overwrite; the expression itself still evaluates
        assert report.refusals["op_000_result"].reason == "redeclared_state"
        facts = {f.symbol_id: f.magnitude for f in graph.facts}
        assert evaluate(eq.rhs, facts) == value
    else:
        assert report.values["op_000_result"].magnitude == value


def test_untouched_actor_starts_at_zero() -> None:
    """A call form whose actor owns no listed dependency reads 0 (an implicit empty state)."""
    graph, _ = parse_one("add(Sam, 3 dollars)", "add", "")
    assert graph.equations[0].rhs == sympy.Integer(3)


ARITHMETIC = [
    ("q_sam_dollars_t0 + 4", "add", "dollars", "q_sam_dollars_t0 + 4", 14),
    ("q_sam_dollars_t0 + 50", "add", "cents", "q_sam_dollars_t0 + 50", sympy.Rational(21, 2)),
    ("q_sam_dollars_t0 * 2", "multiply", None, "2*q_sam_dollars_t0", 20),
    ("q_sam_dollars_t0 / 2", "divide", None, "q_sam_dollars_t0/2", 5),
    (
        "q_sam_dollars_t0 + q_kim_dollars_t0 + 1",
        "add",
        "dollars",
        "q_kim_dollars_t0 + q_sam_dollars_t0 + 1",
        13,
    ),
    (
        "q_sam_dollars_t0 - q_kim_dollars_t0",
        "subtract",
        None,
        "-q_kim_dollars_t0 + q_sam_dollars_t0",
        8,
    ),
    (
        "(q_sam_dollars_t0 + q_kim_dollars_t0)/4",
        "divide",
        None,
        "q_kim_dollars_t0/4 + q_sam_dollars_t0/4",
        "operand_arity",
    ),
]


@pytest.mark.parametrize(
    ("rhs", "kind", "literal_unit", "canonical", "value"),
    ARITHMETIC,
    ids=[row[0] for row in ARITHMETIC],
)
def test_arithmetic_forms(
    vocab: UnitVocabulary,
    *,
    rhs: str,
    kind: str,
    literal_unit: str | None,
    canonical: str,
    value: object,
) -> None:
    """Arithmetic right-hand sides (ref + 4, ref * 2, ref / 2, a + b + c) parse with our grammar and evaluate exactly."""
    deps = ",".join(
        sorted(n for n in ("q_kim_dollars_t0", "q_sam_dollars_t0") if n in rhs)
    )  # deps= must list what rhs reads
    line = eline("op_000_result", rhs, kind, deps)
    if literal_unit is not None:
        line = line.replace(" unit_proof=", f" literal_unit={literal_unit} unit_proof=")
    graph, recorded = parse_canonical_text("\n".join([*HEADER, line]))
    (eq,) = graph.equations
    assert eq.rhs_canonical == canonical
    assert eq.literal_unit == literal_unit
    assert recorded["op_000_result"].rhs_canonical == rhs
    report = verify(graph, vocab)
    verdict = report.verdicts["op_000_result"]
    if isinstance(value, str):  # a two-state divide is no SPEC divide form; the value is never guessed
        assert verdict.refusal is not None
        assert verdict.refusal.reason == value
        assert "op_000_result" not in report.values
    else:
        assert verdict.status == "admitted"
        assert report.values["op_000_result"].magnitude == value


def test_recorded_verdict_is_kept_verbatim() -> None:
    """Status, proof, refusal and dependencies recorded in the text come back unchanged."""
    text = "\n".join(
        [
            *HEADER,
            eline(
                "op_000_result",
                "multiply(Sam, 3 dollars)",
                "multiply",
                "op_000__multiplicand,q_sam_dollars_t0",
                status="admitted",
                proof="multiply: [money,money] -> money^2",
            ),
        ]
    )
    graph, recorded = parse_canonical_text(text)
    rec = recorded["op_000_result"]
    assert rec == RecordedVerdict(
        lhs_symbol_id="op_000_result",
        operation_kind="multiply",
        rhs_canonical="multiply(Sam, 3 dollars)",
        dependencies=("op_000__multiplicand", "q_sam_dollars_t0"),
        status="admitted",
        unit_proof="multiply: [money,money] -> money^2",
        refusal_reason=None,
    )
    assert rec.outcome == "multiply: [money,money] -> money^2"
    (eq,) = graph.equations
    assert (eq.admissibility_status, eq.unit_proof, eq.refusal_reason) == (
        "admitted",
        "multiply: [money,money] -> money^2",
        None,
    )
    text = "\n".join(
        [
            *HEADER,
            eline(
                "op_000_result",
                "add(Sam, 3 dollars)",
                "add",
                "q_sam_dollars_t0",
                status="refused",
                refusal="unknown_unit",
            ),
        ]
    )
    _, recorded = parse_canonical_text(text)
    assert recorded["op_000_result"].outcome == "unknown_unit"
    assert recorded["op_000_result"].refusal_reason == "unknown_unit"


def test_unknown_constraint_and_provenance_lines() -> None:
    """U, C and P lines are read into unknowns, constraints and provenance."""
    text = "\n".join(
        [
            *HEADER,
            eline("op_000_result", "add(Sam, 3 dollars)", "add", "q_sam_dollars_t0"),
            sline("unknown_sam_dollars", "Sam", "dollars", "unknown"),
            "U unknown_sam_dollars expected_unit=dollars state=op(0) form=count qspan=math_problem_graph[0:11]",
            "C q_sam_dollars_t0 pred=q_sam_dollars_t0 >= 0 span=math_problem_graph[0:4]",
            "P source[0:12] text=Sam has $10.",
        ]
    )
    graph, _ = parse_canonical_text(text)
    (unk,) = graph.unknowns
    assert unk.state_index == OperationIndex(0)
    assert unk.question_form == "count"
    assert graph.constraints[0].predicate == "q_sam_dollars_t0 >= 0"
    assert graph.provenance[0].text == "Sam has $10."
    assert graph.to_canonical_string().splitlines()[-1] == "P source[0:12] text=Sam has $10."


# ---------------------------------------------------------------- our own canonical strings


def _strip_span_text(graph: BindingGraph) -> BindingGraph:
    """The graph as its canonical text can carry it: spans of symbols, facts, equations and unknowns keep no text."""

    def strip(obj: object) -> object:
        if isinstance(obj, dict):
            return {k: strip(v) for k, v in obj.items() if not (k == "text" and "source_id" in obj)}
        if isinstance(obj, list):
            return [strip(v) for v in obj]
        return obj

    data = graph.to_json()
    provenance = data["provenance"]
    data = strip(data)  # type: ignore[assignment]
    data["provenance"] = provenance
    return BindingGraph.from_json(data)


def _our_graphs() -> list[BindingGraph]:
    """Graphs bound by our adapters, covering every kind."""
    vocab = default_vocabulary().with_count_nouns({"apples": "apple", "sections": "section"})
    rate = {"value": 15, "numerator_unit": "dollars", "denominator_unit": "hours"}
    data = {
        "entities": ["Sam", "Kim", "Ann", "Bo"],
        "initial_state": [
            {"entity": "Sam", "quantity": {"unit": "apples", "value": 5}},
            {"entity": "Sam", "quantity": {"unit": "hours", "value": "3/2"}},
            {"entity": "Ann", "quantity": {"unit": "feet", "value": 100}},
        ],
        "operations": [
            {"actor": "Sam", "kind": "add", "operand": {"unit": "apples", "value": 3}},
            {
                "actor": "Sam",
                "kind": "transfer",
                "target": "Kim",
                "operand": {"unit": "apples", "value": 2},
            },
            {"actor": "Sam", "kind": "multiply", "operand": {"unit": "apples", "value": 3}},
            {"actor": "Sam", "kind": "divide", "operand": {"unit": "apples", "value": 2}},
            {"actor": "Sam", "kind": "apply_rate", "operand": rate},
            {
                "actor": "Bo",  # holds nothing else: 'as many' can only mean Kim's apples
                "kind": "compare_multiplicative",
                "operand": {"reference_actor": "Kim", "direction": "times", "factor": "5/2"},
            },
            {
                "actor": "Ann",
                "kind": "unit_partition",
                "operand": {"value": 25, "unit": "feet", "result_unit": "sections"},
            },
            {
                "actor": "Ann",
                "kind": "fraction_portion",
                "operand": {"numerator": 1, "denominator": 2, "referent": "them"},
            },
        ],
        "unknown": {"entity": None, "unit": "apples"},
    }
    compare = {
        "entities": ["Sam", "Kim"],
        "initial_state": [{"entity": "Kim", "quantity": {"unit": "dollars", "value": "0.5"}}],
        "operations": [
            {
                "actor": "Sam",
                "kind": "compare_additive",
                "operand": {
                    "reference_actor": "Kim",
                    "direction": "fewer",
                    "delta": {"unit": "cents", "value": 20},
                },
            }
        ],
        "unknown": {"entity": "Sam", "unit": "cents"},
    }
    relations = bind_relations(
        [
            {"kind": "more_than", "entity": "nia", "ref": "omar", "delta": 9},
            {"kind": "sum_of", "entity": "both", "parts": ["nia", "omar"]},
            {"kind": "fact", "entity": "both", "value": 25},
            {"kind": "divide_by", "entity": "half", "ref": "both", "divisor": 5},
        ],
        {"entity": "omar", "unit": "apples"},
    )
    return [
        bind_math_problem_graph(graph_from_dict(data), vocab),
        bind_math_problem_graph(graph_from_dict(compare), vocab),
        relations,
    ]


@pytest.mark.parametrize("index", [0, 1, 2])
def test_our_canonical_string_parses_back(index: int) -> None:
    """Our to_canonical_string() parses back to an equal graph (span texts aside) with the same answers."""
    vocab = default_vocabulary().with_count_nouns({"apples": "apple", "sections": "section"})
    graph = _our_graphs()[index]
    text = graph.to_canonical_string()
    parsed, recorded = parse_canonical_text(text)
    assert parsed == _strip_span_text(graph)
    assert parsed.to_canonical_string() == text
    assert set(recorded) == {e.lhs_symbol_id for e in graph.equations}
    for eq in graph.equations:
        rec = recorded[eq.lhs_symbol_id]
        assert (rec.status, rec.unit_proof, rec.refusal_reason) == (
            eq.admissibility_status,
            eq.unit_proof,
            eq.refusal_reason,
        )
        assert rec.dependencies == tuple(sorted(eq.dependencies))
    ours = json.dumps({k: (v.to_json()) for k, v in verify(graph, vocab).answers.items()}, sort_keys=True)
    theirs = json.dumps({k: (v.to_json()) for k, v in verify(parsed, vocab).answers.items()}, sort_keys=True)
    assert ours == theirs
    (answer,) = verify(parsed, vocab).answers.values()
    assert isinstance(answer, Answer)


# ---------------------------------------------------------------- refusals

REFUSALS = [
    ("unknown tag", "X foo", "malformed_input"),
    ("bare S", "S broken", "malformed_input"),
    (
        "S with a bad role",
        "S q_x q_x hero entity=Sam unit=None span=m[0:1] by=t",
        "malformed_input",
    ),
    (
        "S with a bad id",
        "S 9x 9x quantity entity=Sam unit=None span=m[0:1] by=t",
        "malformed_input",
    ),
    ("F nan", "F q_sam_dollars_t0 = nan unit=dollars span=m[0:1]", "malformed_input"),
    ("F exponent", "F q_sam_dollars_t0 = 1e5 unit=dollars span=m[0:1]", "malformed_input"),
    ("F huge", "F q_sam_dollars_t0 = " + "9" * 60 + " unit=dollars span=m[0:1]", "input_too_large"),
    ("E import", eline("op_000_result", "__import__('os')", "add", ""), "unsafe_expression"),
    (
        "E attribute",
        eline("op_000_result", "q_sam_dollars_t0.real", "add", "q_sam_dollars_t0"),
        "unsafe_expression",
    ),
    (
        "E call of our grammar",
        eline("op_000_result", "exp(q_sam_dollars_t0)", "add", "q_sam_dollars_t0"),
        "unsafe_expression",
    ),
    (
        "E unknown call form",
        eline("op_000_result", "foo(Sam, 3 dollars)", "add", "q_sam_dollars_t0"),
        "unsafe_expression",
    ),
    (
        "E power too big",
        eline("op_000_result", "q_sam_dollars_t0 ** 9", "add", "q_sam_dollars_t0"),
        "input_too_large",
    ),
    (
        "E words for numbers",
        eline("op_000_result", "add(Sam, three dollars)", "add", "q_sam_dollars_t0"),
        "malformed_input",
    ),
    (
        "E rate without a rate dep",
        eline("op_000_result", "apply_rate(Sam, 3 dollars/hours)", "apply_rate", "q_sam_dollars_t0"),
        "malformed_input",
    ),
    (
        "E comparison with nobody",
        eline(
            "op_000_result",
            "compare_multiplicative(Sam, times(Zed, factor=2))",
            "compare_multiplicative",
            "",
        ),
        "state_unset",
    ),
    (
        "E comparison with several states",
        eline(
            "op_000_result",
            "compare_multiplicative(Kim, times(Sam, factor=2))",
            "compare_multiplicative",
            "",
        ),
        "malformed_input",  # the result belongs to Sam, the call form's actor is Kim: the line disagrees with itself
    ),
    (
        "E unbalanced",
        eline("op_000_result", "(q_sam_dollars_t0 + 1", "add", "q_sam_dollars_t0"),
        "malformed_input",
    ),
    (
        "U bad state",
        "U op_000_result expected_unit=dollars state=nowhere form=count qspan=m[0:1]",
        "malformed_input",
    ),
    (
        "U bad form",
        "U op_000_result expected_unit=dollars state=terminal form=vibes qspan=m[0:1]",
        "malformed_input",
    ),
    ("C bad predicate", "C q_sam_dollars_t0 pred=import os span=m[0:1]", "malformed_input"),
    ("span end before start", "F q_sam_dollars_t0 = 1 unit=dollars span=m[5:1]", "malformed_input"),
]


@pytest.mark.parametrize(("line", "reason"), [row[1:] for row in REFUSALS], ids=[row[0] for row in REFUSALS])
def test_text_that_does_not_fit_is_refused_naming_the_line(line: str, reason: str) -> None:
    """A line outside the format or the grammar refuses with its reason, naming the line number."""
    text = "\n".join([*HEADER, line])
    with pytest.raises(MathGraphError) as info:
        parse_canonical_text(text)
    assert info.value.reason == reason
    number = len(HEADER) + 1
    assert info.value.path == f"line {number}" or info.value.path.startswith(f"line {number}: ")
    assert f"line {number}" in str(info.value)
    assert info.value.path.count("line ") == 1  # named once, not "line 16: line 16"


@pytest.mark.parametrize(
    ("text", "reason", "field"),
    [
        (3, "malformed_input", "text"),
        (b"S x", "malformed_input", "text"),
        (None, "malformed_input", "text"),
        ("F x = 1 unit=None span=m[0:1]\n" * 2, "malformed_input", "facts[0].symbol_id"),
        ("x" * 1_000_001, "input_too_large", "text"),
        ("\n" * 20_001, "input_too_large", "text"),
    ],
)
def test_bad_documents_are_refused(text: object, reason: str, field: str) -> None:
    """A non-string, a reference to no symbol, or an oversized text is refused with a typed error."""
    with pytest.raises(MathGraphError) as info:
        parse_canonical_text(text)
    assert info.value.reason == reason
    assert info.value.path == field


def test_duplicate_symbols_are_refused() -> None:
    """Two S lines with one id are refused with malformed_input."""
    with pytest.raises(MathGraphError) as info:
        parse_canonical_text("\n".join([*HEADER, HEADER[2]]))
    assert info.value.reason == "malformed_input"
    assert "q_sam_dollars_t0" in info.value.detail


def test_blank_lines_and_empty_text() -> None:
    """Blank lines are skipped; empty text is an empty graph."""
    graph, recorded = parse_canonical_text("")
    assert graph == BindingGraph()
    assert recorded == {}
    graph, _ = parse_canonical_text("\n\n".join(HEADER[:2]) + "\n")
    assert [s.symbol_id for s in graph.symbols] == ["entity_sam", "entity_kim"]


@pytest.mark.parametrize(
    ("rhs", "kind", "deps"),
    [
        ("q_sam_dollars_t0 + 3", "subtract", "q_sam_dollars_t0"),  # an add labelled subtract
        ("q_sam_dollars_t0 - 3", "add", "q_sam_dollars_t0"),  # a subtract labelled add
    ],
)
def test_arithmetic_line_whose_kind_disagrees_is_refused(rhs: str, kind: str, deps: str) -> None:
    """An arithmetic E line whose constant's sign contradicts its op= is refused (operand_arity), never answered."""
    line = eline("op_000_result", rhs, kind, deps).replace(" unit_proof=", " literal_unit=dollars unit_proof=")
    graph, _ = parse_canonical_text("\n".join([*HEADER, line]))
    verdict = check_equation(graph.equations[0], graph.symbol_map)
    assert verdict.refusal is not None
    assert verdict.refusal.reason == "operand_arity"


@pytest.mark.parametrize("deps", ["q_kim_dollars_t0", "", "q_kim_dollars_t0,q_sam_dollars_t0"])
def test_arithmetic_line_whose_deps_disagree_is_refused(deps: str) -> None:
    """deps=[...] must list exactly the symbols an arithmetic right-hand side reads (malformed_input)."""
    line = eline("op_000_result", "q_sam_dollars_t0 + 3", "add", deps)
    with pytest.raises(MathGraphError) as info:
        parse_canonical_text("\n".join([*HEADER, line]))
    assert info.value.reason == "malformed_input"
    assert "deps=" in info.value.detail


def _people_text(operand: str, role: str, result_unit: str, call: str, kind: str, *rest: str) -> str:
    """Sam's 4 people and a 15 in ``$/hr_per_people`` (a rate of a rate) as ``operand``, read by one ``call`` line."""
    return "\n".join(
        [
            sline("entity_sam", "Sam", "None", "entity"),
            sline("q_sam_people_t0", "Sam", "people"),
            sline(operand, "None", "$/hr_per_people", role),
            sline("op_000_result", "Sam", result_unit),
            "F q_sam_people_t0 = 4 unit=people span=math_problem_graph[0:4]",
            f"F {operand} = 15 unit=$/hr_per_people span=math_problem_graph[0:4]",
            eline("op_000_result", call, kind, f"{operand},q_sam_people_t0"),
            *rest,
        ]
    )


def test_call_form_rate_of_a_rate_splits_where_its_fact_unit_does() -> None:
    """``apply_rate(Sam, 15 $/hr/people)`` over a rate in ``$/hr_per_people`` is $/hr per person, not $ per hr/people."""
    asked = sline("unknown_sam_hr", "Sam", "$/hr", "unknown")
    unknown = "U unknown_sam_hr expected_unit=$/hr state=terminal form=total qspan=math_problem_graph[0:4]"
    text = _people_text("op_000__rate", "rate", "$/hr", "apply_rate(Sam, 15 $/hr/people)", "apply_rate", asked, unknown)
    graph, _ = parse_canonical_text(text)
    assert str(graph.equations[0].rhs) == "op_000__rate*q_sam_people_t0"
    (answer,) = verify(graph, default_vocabulary()).answers.values()
    assert isinstance(answer, Answer)
    assert (answer.value, answer.unit) == (60, "$/hr")
    with pytest.raises(MathGraphError, match="disagrees with the facts"):  # written per hr/people: not this fact
        parse_canonical_text(text.replace("15 $/hr/people", "15 $/people/hr"))


def test_call_form_operand_in_a_rate_of_a_rate_is_read() -> None:
    """A multiply operand labelled in a rate of a rate is read (its unit's lemma, a_per_b_per_c, had been resolved again and raised)."""
    text = _people_text("op_000__multiplicand", "ratio", "None", "multiply(Sam, 15 $/hr_per_people)", "multiply")
    graph, _ = parse_canonical_text(text)
    assert str(graph.equations[0].rhs) == "op_000__multiplicand*q_sam_people_t0"
