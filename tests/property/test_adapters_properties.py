"""Properties of the adapters (SPEC §5, §8): exact JSON round trips, deterministic binding, typed refusals.

Valid math problem graphs of every kind are generated from the dataclasses; bad
input is random bytes, random text and real canonical lines with characters
deleted, duplicated or swapped.  Whatever the input, the only exception that
may escape an adapter is ``MathGraphError``.
"""

from __future__ import annotations

import contextlib
import json

from hypothesis import given
from hypothesis import strategies as st

from adapters import (
    MathGraphError,
    MathProblemGraph,
    bind_math_problem_graph,
    bind_relations,
    graph_from_dict,
    parse_canonical_text,
)
from units import UnitVocabulary, default_vocabulary
from verifier import BindingGraph, verify
from verifier.strategies import math_problem_graphs, schema_valid_graphs

VOCAB: UnitVocabulary = default_vocabulary().with_count_nouns({"apples": "apple", "sections": "section"})
NAMES = ("Sam", "Kim", "Mrs. Lee", "Ann-Marie", "Bo 2")
UNITS = (
    "apples",
    "feet",
    "inches",
    "dollars",
    "cents",
    "hours",
    "minutes",
    "items",
    "sections",
    "widgets",
)


def math_graphs() -> st.SearchStrategy[MathProblemGraph]:
    """Sound graphs and schema-valid ones that binding may refuse (the shipped strategies)."""
    return st.one_of(math_problem_graphs(), schema_valid_graphs(units=UNITS, names=NAMES))


def bind_or_error(graph: MathProblemGraph) -> BindingGraph | tuple[str, str]:
    """The bound graph, or the (reason, path) of the MathGraphError binding raised."""
    try:
        return bind_math_problem_graph(graph, VOCAB)
    except MathGraphError as exc:
        return (exc.reason, exc.path)


@given(math_graphs())
def test_json_round_trip_is_exact(graph: MathProblemGraph) -> None:
    """graph_from_dict(g.as_json()) == g, and canonical_bytes survive a trip through JSON text."""
    assert graph_from_dict(graph.as_json()) == graph
    again = graph_from_dict(json.loads(graph.canonical_bytes()))
    assert again == graph
    assert again.canonical_bytes() == graph.canonical_bytes()
    assert (
        graph.canonical_bytes()
        == json.dumps(graph.as_json(), sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()
    )


@given(math_graphs())
def test_binding_is_deterministic(graph: MathProblemGraph) -> None:
    """Binding a graph and its JSON copy gives equal graphs with byte-equal canonical strings (or the same refusal)."""
    first = bind_or_error(graph)
    second = bind_or_error(graph_from_dict(json.loads(graph.canonical_bytes())))
    if isinstance(first, tuple):
        assert second == first
        return
    assert isinstance(second, BindingGraph)
    assert first == second
    assert first.to_canonical_string().encode() == second.to_canonical_string().encode()
    assert json.dumps(first.to_json(), sort_keys=True) == json.dumps(second.to_json(), sort_keys=True)


@given(math_graphs())
def test_bound_graphs_parse_back_and_verify(graph: MathProblemGraph) -> None:
    """A bound graph's canonical text parses back to the same text, and verify never raises on either."""
    bound = bind_or_error(graph)
    if isinstance(bound, tuple):
        return
    text = bound.to_canonical_string()
    parsed, recorded = parse_canonical_text(text)
    assert parsed.to_canonical_string() == text
    assert set(recorded) == {e.lhs_symbol_id for e in bound.equations}
    ours = verify(bound, VOCAB)
    theirs = verify(parsed, VOCAB)
    assert {k: str(v) for k, v in ours.answers.items()} == {k: str(v) for k, v in theirs.answers.items()}
    json.dumps(ours.to_json())


# ---------------------------------------------------------------- bad input never escapes as anything else

SEED_LINES = (
    "S entity_sam Sam entity entity=Sam unit=None span=math_problem_graph[0:3] by=bind_math_problem_graph",
    "S q_sam_apples_t0 Sam.apples@t0 quantity entity=Sam unit=apples span=math_problem_graph[0:13] by=bind_math_problem_graph",
    "S op_000_result op0.add.Sam quantity entity=Sam unit=None span=math_problem_graph[0:13] by=bind_math_problem_graph",
    "F q_sam_apples_t0 = 5 unit=apples span=math_problem_graph[0:13]",
    "E op_000_result := add(Sam, 3 apples) op=add deps=[q_sam_apples_t0] unit_proof=unverified status=refused refusal=unknown_unit span=math_problem_graph[0:13]",
    "E op_000_result := transfer(Sam->Kim, 7 apples) op=transfer deps=[q_sam_apples_t0] unit_proof=unverified status=pending refusal=None span=math_problem_graph[0:18]",
    "E op_000_result := compare_additive(Sam, more(Kim, delta=4 apples)) op=compare_additive deps=[] unit_proof=unverified status=pending refusal=None span=m[0:2]",
    "E op_000_result := compare_multiplicative(Sam, times(Kim, factor=2)) op=compare_multiplicative deps=[] unit_proof=unverified status=pending refusal=None span=m[0:2]",
    "E op_000_result := q_sam_apples_t0/2 + 1 op=divide deps=[q_sam_apples_t0] literal_unit=apples unit_proof=unverified status=pending refusal=None span=m[0:2]",
    "U op_000_result expected_unit=apples state=op(0) form=count qspan=math_problem_graph[0:10]",
    "C q_sam_apples_t0 pred=q_sam_apples_t0 >= 0 span=math_problem_graph[0:1]",
    "P source[0:5] text=Sam has",
)
BASE = "\n".join(SEED_LINES[:4])


def mutate(line: str, edits: list[tuple[int, int, str]]) -> str:
    """Apply delete (0), duplicate (1), swap (2) or insert (3) edits at positions in the line."""
    for kind, pos, char in edits:
        if not line:
            return char
        i = pos % len(line)
        if kind == 0:
            line = line[:i] + line[i + 1 :]
        elif kind == 1:
            line = line[:i] + line[i] + line[i:]
        elif kind == 2 and i + 1 < len(line):
            line = line[:i] + line[i + 1] + line[i] + line[i + 2 :]
        else:
            line = line[:i] + char + line[i:]
    return line


def parse_safely(text: object) -> None:
    """Parse and verify: nothing but MathGraphError may escape the parser, and verify never raises on its output."""
    try:
        graph, _ = parse_canonical_text(text)
    except MathGraphError:
        return
    report = verify(graph, VOCAB)
    json.dumps(report.to_json())


edits = st.lists(
    st.tuples(
        st.integers(0, 3),
        st.integers(0, 10_000),
        st.sampled_from(list("()=,->[]/*+ 0123456789_:.xqE\\\n")),
    ),
    min_size=1,
    max_size=4,
)


@given(line=st.sampled_from(SEED_LINES), changes=edits, with_base=st.booleans())
def test_mutated_canonical_lines_only_raise_math_graph_error(
    line: str, changes: list[tuple[int, int, str]], *, with_base: bool
) -> None:
    """Real canonical lines with characters deleted, duplicated, swapped or inserted are parsed or refused, never crash."""
    mutated = mutate(line, changes)
    parse_safely(f"{BASE}\n{mutated}" if with_base else mutated)


@given(math_graphs(), st.data())
def test_mutated_bound_texts_only_raise_math_graph_error(graph: MathProblemGraph, data: st.DataObject) -> None:
    """Our own canonical texts, mutated on one line, are parsed or refused with MathGraphError only."""
    bound = bind_or_error(graph)
    if isinstance(bound, tuple):
        return
    lines = bound.to_canonical_string().splitlines()
    i = data.draw(st.integers(0, len(lines) - 1))
    lines[i] = mutate(lines[i], data.draw(edits))
    parse_safely("\n".join(lines))


@given(st.binary(max_size=200))
def test_random_bytes_only_raise_math_graph_error(raw: bytes) -> None:
    """Random bytes (as bytes, and decoded) are refused with MathGraphError or parsed."""
    parse_safely(raw)
    parse_safely(raw.decode("latin-1"))
    parse_safely("E " + raw.decode("utf-8", "replace"))


@given(st.text(max_size=200))
def test_random_text_only_raises_math_graph_error(text: str) -> None:
    """Random text, alone or after each line tag, is refused with MathGraphError or parsed."""
    parse_safely(text)
    for tag in "SFEUCP":
        parse_safely(f"{tag} {text}")


json_values = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-3, 10**45),
        st.floats(allow_nan=True),
        st.sampled_from(["Sam", "apples", "add", "transfer", "7/2", "nan", "", "fact", "more"]),
    ),
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(
            st.sampled_from(
                [
                    "entities",
                    "initial_state",
                    "operations",
                    "unknown",
                    "entity",
                    "quantity",
                    "unit",
                    "value",
                    "actor",
                    "kind",
                    "operand",
                    "target",
                    "ref",
                    "delta",
                    "factor",
                    "divisor",
                    "parts",
                    "reference_actor",
                    "direction",
                ]
            ),
            inner,
            max_size=5,
        ),
    ),
    max_leaves=20,
)


@given(json_values)
def test_random_json_only_raises_math_graph_error(data: object) -> None:
    """graph_from_dict and bind_relations refuse arbitrary JSON-like data with MathGraphError only."""
    with contextlib.suppress(MathGraphError):
        bind_math_problem_graph(graph_from_dict(data), VOCAB)
    with contextlib.suppress(MathGraphError):
        verify(bind_relations(data, {"entity": "Sam", "unit": "apples"}), VOCAB)
    with contextlib.suppress(MathGraphError):
        bind_relations([], data)


@given(math_graphs(), st.data())
def test_mutated_graph_json_only_raises_math_graph_error(graph: MathProblemGraph, data: st.DataObject) -> None:
    """A valid graph's JSON with one value replaced is read, bound and verified, or refused with MathGraphError."""
    doc = graph.as_json()
    path: list[object] = []
    node: object = doc
    while isinstance(node, (dict, list)) and node and data.draw(st.booleans()):
        key = data.draw(st.sampled_from(sorted(node) if isinstance(node, dict) else list(range(len(node)))))
        path.append(key)
        node = node[key]
    if not path:
        return
    parent: object = doc
    for key in path[:-1]:
        parent = parent[key]  # type: ignore[index]
    parent[path[-1]] = data.draw(json_values)  # type: ignore[index]
    try:
        bound = bind_math_problem_graph(graph_from_dict(doc), VOCAB)
    except MathGraphError:
        return
    json.dumps(verify(bound, VOCAB).to_json())
