"""verifier.model.build_checked: a record from fields its caller checked, equal to the constructor's, and strict on its fields."""

from __future__ import annotations

import dataclasses

import pytest

from adapters import MathGraphError, graph_from_dict
from adapters.math_graph import MathProblemGraph, Quantity, Unknown
from verifier.model import SourceSpanLink, build_checked

_GRAPH = {
    "entities": ["Sam"],
    "initial_state": [{"entity": "Sam", "quantity": {"unit": "apples", "value": 3}}],
    "operations": [{"actor": "Sam", "kind": "add", "operand": {"unit": "apples", "value": "5/2"}}],
    "unknown": {"entity": "Sam", "unit": "apples"},
}


def test_the_record_equals_the_constructors() -> None:
    """Equal, equally hashed, with the same fields, as the record built through ``__post_init__``."""
    built = build_checked(SourceSpanLink, source_id="s", start=0, end=3, text="abc")
    fresh = SourceSpanLink(source_id="s", start=0, end=3, text="abc")
    assert built == fresh
    assert hash(built) == hash(fresh)
    assert dataclasses.astuple(built) == ("s", 0, 3, "abc")


@pytest.mark.parametrize(
    "fields",
    [
        {"source_id": "s", "start": 0, "end": 3},  # a field missing (even one with a default)
        {"source_id": "s", "start": 0, "end": 3, "text": "abc", "extra": 1},  # one too many
        {"source_id": "s", "start": 0, "stop": 3, "text": "abc"},  # a misspelt one
    ],
)
def test_it_takes_exactly_the_slots(fields: dict[str, object]) -> None:
    """A caller's bug (a field missing, unknown or extra) is a TypeError naming the fields, never a half-built record."""
    with pytest.raises(TypeError, match="source_id, start, end, text"):
        build_checked(SourceSpanLink, **fields)


def test_the_graph_read_from_json_equals_the_checked_construction() -> None:
    """``graph_from_dict`` skips only the checks its readers made: the constructor accepts its graph, unchanged."""
    graph = graph_from_dict(_GRAPH)
    assert dataclasses.replace(graph) == graph  # replace runs every check of __post_init__
    operand = graph.operations[0].operand
    assert isinstance(operand, Quantity)
    assert operand.value.denominator == 2  # 5/2, exact


def test_a_graph_built_in_python_is_still_checked_field_by_field() -> None:
    """Only the JSON reader skips the field checks: a record of the wrong type or a bad name is refused here."""
    graph = graph_from_dict(_GRAPH)
    with pytest.raises(MathGraphError, match="expected an Unknown") as wrong:
        dataclasses.replace(graph, unknown={"entity": "Sam", "unit": "apples"})  # type: ignore[arg-type]
    assert wrong.value.path == "unknown"
    with pytest.raises(MathGraphError) as untrimmed:
        dataclasses.replace(graph, entities=("Sam", " Ana"))
    assert untrimmed.value.path == "entities[1]"
    with pytest.raises(MathGraphError) as unit:
        dataclasses.replace(graph, unknown=Unknown(entity="Sam", unit=5))  # type: ignore[arg-type]
    assert unit.value.path == "unknown.unit"
    assert isinstance(graph, MathProblemGraph)
