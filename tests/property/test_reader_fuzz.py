"""Every public reader, fed random JSON, mutated graphs, hostile Python values or random lexicon rows, raises only typed errors.

The library's typed errors are ``MathGraphError``, ``BindingGraphError`` (both
``TypedRefusalError``) and ``UnitRefusal``; anything else (``KeyError``,
``TypeError``, ``RecursionError``, a ``ValueError`` from formatting a huge int) is a
defect.  A refusal's message must also be short: quoted values are clipped.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import sys
from collections.abc import Callable
from decimal import Decimal
from fractions import Fraction
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from adapters import (
    MathGraphError,
    auto_count_nouns,
    bind_math_problem_graph,
    bind_relations,
    count_nouns_of,
    graph_from_dict,
    parse_canonical_text,
    read_json,
)
from adapters._common import name
from adapters.math_graph import InitialPossession, MathProblemGraph, Operation, Unknown
from adapters.records import bind_record
from units import UnitRefusal, UnitVocabulary, default_vocabulary
from units.lexicon import CONVERSIONS_FILE, LEXICON_FILE
from verifier import BindingGraph, verify
from verifier.errors import TypedRefusalError

TYPED = (TypedRefusalError, UnitRefusal)
MAX_MESSAGE = 2_000

SEED_GRAPH = {
    "entities": ["Sam", "Ana"],
    "initial_state": [{"entity": "Sam", "quantity": {"unit": "feet", "value": 5}}],
    "operations": [
        {"actor": "Sam", "kind": "add", "operand": {"unit": "inches", "value": 3}},
        {"actor": "Sam", "kind": "transfer", "operand": {"unit": "feet", "value": 1}, "target": "Ana"},
        {"actor": "Ana", "kind": "unit_partition", "operand": {"value": 6, "unit": "inches", "result_unit": "pieces"}},
        {"actor": "Ana", "kind": "fraction_portion", "operand": {"numerator": 1, "denominator": 2, "referent": "them"}},
        {
            "actor": "Ana",
            "kind": "compare_multiplicative",
            "operand": {"reference_actor": "Sam", "direction": "times", "factor": 0.5},
        },
    ],
    "unknown": {"entity": "Sam", "unit": "inches"},
}

HOSTILE: list[object] = [
    10**5000,  # formatting it raises ValueError in Python >= 3.11
    -(10**5000),
    "x" * 1_000_000,
    float("nan"),
    float("inf"),
    1e308,
    1e40,  # the int 10**40: 41 digits (the read path had taken it, the checked constructor refused it)
    Fraction(10**40, 3),
    0.1 + 0.2,
    Decimal("1e-50"),
    Decimal("NaN"),
    True,
    None,
    [],
    {},
    b"feet",
    Fraction(1, 3),
    object(),
]


def _nested(depth: int) -> object:
    value: object = "feet"
    for _ in range(depth):
        value = [value]
    return value


HOSTILE.append(_nested(100_000))

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**6), 10**6) | st.text(max_size=12) | st.sampled_from(["feet", "them"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=20,
)


def _check(call: Callable[[], object]) -> None:
    """Run one reader: it returns, or raises a typed error with a short message."""
    message = ""
    try:
        call()
    except TYPED as exc:
        message = str(exc)
    assert len(message) < MAX_MESSAGE, message[:200]


def _paths(node: object, prefix: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
    out = [prefix]
    if isinstance(node, dict):
        for key, value in node.items():
            out += _paths(value, (*prefix, key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            out += _paths(value, (*prefix, i))
    return out


def _replace(root: object, path: tuple[object, ...], value: object) -> object:
    if not path:
        return value
    out = copy.deepcopy(root)
    node = out
    for key in path[:-1]:
        node = node[key]  # type: ignore[index]
    node[path[-1]] = value  # type: ignore[index]
    return out


PATHS = _paths(SEED_GRAPH)


def _readers(data: object) -> list[Callable[[], object]]:
    vocab = default_vocabulary()
    return [
        lambda: verify(bind_math_problem_graph(graph_from_dict(data), vocab), vocab),
        lambda: count_nouns_of(data),
        lambda: auto_count_nouns(data),
        lambda: bind_record(data, count_nouns="auto"),
        lambda: bind_relations(data, {"entity": "a", "unit": "feet"}),
        lambda: BindingGraph.from_json(data),
        lambda: vocab.with_count_nouns(data),  # type: ignore[arg-type]
        lambda: vocab.with_conventions(data),  # type: ignore[arg-type]
        lambda: vocab.resolve(data),
    ]


@given(json_values)
def test_random_json_values_raise_only_typed_errors(data: object) -> None:
    """Random JSON values given to every reader."""
    for call in _readers(data):
        _check(call)


SMALL_HOSTILE = [v for v in HOSTILE[:-1] if not isinstance(v, (int, str)) or isinstance(v, bool)]


@given(st.sampled_from(PATHS), json_values | st.sampled_from(SMALL_HOSTILE))
def test_mutated_graphs_raise_only_typed_errors(path: tuple[object, ...], value: object) -> None:
    """A valid graph with one field (or the whole graph) replaced by a random or hostile value."""
    data = _replace(SEED_GRAPH, path, value)
    for call in _readers(data):
        _check(call)


@pytest.mark.parametrize("value", HOSTILE, ids=lambda v: type(v).__name__)
@pytest.mark.parametrize("path", [p for p in PATHS if p][:40], ids=str)
def test_hostile_python_values_in_every_field(path: tuple[object, ...], value: object) -> None:
    """Huge ints, megabyte strings, NaN, deep nesting: typed refusals with clipped messages."""
    old = sys.getrecursionlimit()
    data: Any = _replace(SEED_GRAPH, path, value) if not isinstance(value, list) or value == [] else None
    if data is None:  # the deep list: put it in place without deep-copying it
        data = copy.deepcopy(SEED_GRAPH)
        node = data
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value
    try:
        _check(lambda: verify(bind_math_problem_graph(graph_from_dict(data))))
        _check(lambda: auto_count_nouns(data))
    finally:
        assert sys.getrecursionlimit() == old


@given(st.text(max_size=300))
def test_random_text_to_the_text_readers(text: str) -> None:
    """Random text to the JSON and canonical-text readers."""
    _check(lambda: read_json(text))
    _check(lambda: parse_canonical_text(text))


@given(st.binary(max_size=200).map(lambda b: b.decode("latin-1")))
def test_mutated_json_text(noise: str) -> None:
    """The seed graph's JSON text with random characters spliced in."""
    text = json.dumps(SEED_GRAPH)
    cut = len(noise) % len(text)
    _check(lambda: graph_from_dict(read_json(text[:cut] + noise + text[cut:])))


row_values = json_values | st.sampled_from(["evil = 2 meter #", "money] #", "kilo-", "[length]", "meter", "count"])
rows = st.dictionaries(
    st.sampled_from(["lemma", "definition", "offset", "base_dimension", "axis", "source", "from", "to", "ratio"]),
    row_values,
    max_size=5,
)


@given(st.lists(rows, min_size=1, max_size=3))
def test_random_lexicon_rows_raise_only_typed_errors(
    tmp_path_factory: pytest.TempPathFactory, extra: list[object]
) -> None:
    """Random conversion rows appended to the embedded pack: the vocabulary builds, or a typed LexiconError lists the rows."""
    folder: Path = tmp_path_factory.mktemp("lexicon")
    data = resources.files("units").joinpath("data")
    (folder / LEXICON_FILE).write_text(data.joinpath(LEXICON_FILE).read_text(encoding="utf-8"), encoding="utf-8")
    conversions = data.joinpath(CONVERSIONS_FILE).read_text(encoding="utf-8").rstrip("\n")
    text = conversions + "\n" + "\n".join(json.dumps(r) for r in extra) + "\n"
    (folder / CONVERSIONS_FILE).write_text(text, encoding="utf-8")
    _check(lambda: UnitVocabulary.from_lexicon(folder / LEXICON_FILE, folder / CONVERSIONS_FILE))


def test_a_refusal_never_quotes_a_huge_value_whole() -> None:
    """A megabyte unit and a 5000-digit value give messages of under 2,000 characters."""
    for path, value in ((("unknown", "unit"), "feet" * 250_000), (("initial_state", 0, "quantity", "value"), 10**5000)):
        with pytest.raises(TYPED) as info:
            verify(bind_math_problem_graph(graph_from_dict(_replace(SEED_GRAPH, path, value))))
        assert len(str(info.value)) < MAX_MESSAGE
    with pytest.raises(MathGraphError):
        graph_from_dict(_replace(SEED_GRAPH, ("initial_state", 0, "quantity", "value"), 10**5000))


def _checked_twice(data: object) -> tuple[str, object]:
    """What ``graph_from_dict`` gives when the graph is also built by its fully checked constructor.

    ``graph_from_dict`` checks each record's fields as it reads them and then only the
    graph's size and the rules between records (:func:`verifier.model.build_checked`);
    this builds the same records and runs every check of ``MathProblemGraph.__post_init__``.
    """
    try:
        graph = graph_from_dict(data)
    except MathGraphError as exc:
        return ("refused", (exc.reason, exc.path, str(exc)))
    return ("read", dataclasses.replace(graph))  # replace runs __post_init__: every check again


@given(st.sampled_from(PATHS), json_values | st.sampled_from(SMALL_HOSTILE))
@example(("initial_state", 0, "quantity", "value"), 1e40)  # a review found the read path taking 10**40 (41 digits)
def test_the_read_path_skips_only_checks_its_readers_made(path: tuple[object, ...], value: object) -> None:
    """A graph ``graph_from_dict`` reads passes every constructor check, and equals the checked construction."""
    data = _replace(SEED_GRAPH, path, value)
    outcome, result = _checked_twice(data)
    if outcome == "read":
        assert isinstance(result, MathProblemGraph)
        assert result == graph_from_dict(data)


@given(
    st.sampled_from(PATHS),
    st.sampled_from(["Sam", "Ana", "Bo", "feet", "", " Sam", "a\nb", "them", "times", "more", "add", "Sam=1"])
    | st.integers(-3, 3),
)
def test_the_read_path_refuses_as_the_checked_constructor_does(path: tuple[object, ...], value: object) -> None:
    """Names and numbers swapped in where the rules between records look: the read path and the constructor agree.

    A duplicate entity, an unknown actor, a transfer to oneself, a zero rate: the graph's
    own rules refuse these, and ``graph_from_dict`` must still run them after its readers.
    """
    data = _replace(SEED_GRAPH, path, value)
    try:
        records = _records(data)
    except MathGraphError:
        return  # a reader refused a field: nothing reached the graph's rules
    try:
        expected: tuple[str, object] = ("read", MathProblemGraph(**records))
    except MathGraphError as exc:
        expected = ("refused", (exc.reason, exc.path, str(exc)))
    try:
        got: tuple[str, object] = ("read", graph_from_dict(data))
    except MathGraphError as exc:
        got = ("refused", (exc.reason, exc.path, str(exc)))
    assert got == expected


def _records(data: object) -> dict[str, Any]:
    """The graph's records read one by one, as graph_from_dict reads them, before any rule between them."""
    if not isinstance(data, dict):
        raise MathGraphError("malformed_input", "not an object", "graph")
    lists = [data["entities"], data["initial_state"], data["operations"]]
    if not all(isinstance(items, list) for items in lists):
        raise MathGraphError("malformed_input", "not a list", "graph")
    return {
        "entities": tuple(name(e, f"entities[{i}]") for i, e in enumerate(data["entities"])),
        "initial_state": tuple(
            InitialPossession.from_json(p, path=f"initial_state[{i}]") for i, p in enumerate(data["initial_state"])
        ),
        "operations": tuple(Operation.from_json(o, path=f"operations[{i}]") for i, o in enumerate(data["operations"])),
        "unknown": Unknown.from_json(data["unknown"], path="unknown"),
    }
