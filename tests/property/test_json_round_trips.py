"""STYLE §3 value-type contract for the math graph and its parts: ``T.from_json(x.to_json()) == x``, hashes equal.

Drawn with the shipped strategy :func:`verifier.strategies.math_problem_graphs` (every
operation kind), so each part type is met in every shape the strategy makes.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from adapters import (
    Comparison,
    FractionPortion,
    InitialPossession,
    MathProblemGraph,
    Operation,
    PartitionChunk,
    Quantity,
    Rate,
    Unknown,
    read_json,
)
from units import DimensionVector, UnitRefusal
from verifier.strategies import math_problem_graphs


def _parts(graph: MathProblemGraph) -> list[object]:
    out: list[object] = [graph, graph.unknown, *graph.initial_state, *graph.operations]
    out += [p.quantity for p in graph.initial_state]
    for op in graph.operations:
        out.append(op.operand)
        if isinstance(op.operand, Comparison) and op.operand.delta is not None:
            out.append(op.operand.delta)
    return out


@given(math_problem_graphs())
def test_every_part_reads_back_equal_with_an_equal_hash(graph: MathProblemGraph) -> None:
    """Every part of a graph, read back from its ``to_json``, is equal to it and hashes the same."""
    seen = set()
    for part in _parts(graph):
        kind = type(part)
        back = kind.from_json(part.to_json())  # type: ignore[attr-defined]
        assert back == part
        assert hash(back) == hash(part)
        seen.add(kind)
    assert {MathProblemGraph, Unknown} <= seen


@given(math_problem_graphs())
def test_a_graph_survives_json_text_exactly(graph: MathProblemGraph) -> None:
    """Through ``json.dumps`` and the exact reader, as a file would carry it; ``as_json`` is the same data."""
    text = json.dumps(graph.to_json())
    assert MathProblemGraph.from_json(read_json(text)) == graph
    assert graph.as_json() == graph.to_json()


def test_each_part_type_reads_its_own_layout() -> None:
    """One table row per type: its JSON, and the value it reads to (numbers exact, layout upstream's)."""
    rows = [
        (Quantity, {"unit": "apples", "value": "7/2"}, "7/2"),
        (Rate, {"value": 15, "numerator_unit": "dollars", "denominator_unit": "hours"}, "15"),
        (PartitionChunk, {"value": 2, "unit": "feet", "result_unit": "pieces"}, "2"),
        (FractionPortion, {"numerator": 1, "denominator": 3, "referent": "them"}, None),
        (Comparison, {"reference_actor": "Bo", "direction": "times", "factor": 2}, None),
        (Unknown, {"unit": "apples"}, None),
    ]
    for kind, data, value in rows:
        part = kind.from_json(data)  # type: ignore[attr-defined]
        assert kind.from_json(part.to_json()) == part  # type: ignore[attr-defined]
        if value is not None:
            assert str(part.value) == value
    assert Unknown.from_json({"unit": "apples"}) == Unknown(entity=None, unit="apples")
    assert InitialPossession.from_json({"entity": "Sam", "quantity": {"unit": "apples", "value": 5}}).entity == "Sam"
    give = {"actor": "Sam", "kind": "transfer", "operand": {"unit": "apples", "value": 2}, "target": "Kim"}
    assert Operation.from_json(give).to_json() == give


@given(st.tuples(*[st.integers(-4, 4)] * 6))
def test_a_dimension_vector_reads_back_from_its_canonical_string(exponents: tuple[int, ...]) -> None:
    """A dimension vector read back from its canonical string is equal to it and hashes the same."""
    vector = DimensionVector(exponents)  # type: ignore[arg-type]
    back = DimensionVector.from_json(vector.to_json())
    assert back == vector
    assert hash(back) == hash(vector)


def test_a_dimension_is_read_only_in_its_canonical_spelling() -> None:
    """A dimension string is read only in canonical form; any other spelling is malformed_input."""
    assert DimensionVector.from_json("money/time") == DimensionVector.from_axes({"money": 1, "time": -1})
    assert DimensionVector.from_json("1/time^2") == DimensionVector.from_axes({"time": -2})
    for text in ("time*length", "length^1", "length*length", "", "1", "furlong", "length/", "length^-2", "1/1"):
        with pytest.raises(UnitRefusal) as info:
            DimensionVector.from_json(text)
        assert info.value.reason == "malformed_input", text


def test_a_dimension_power_is_bounded() -> None:
    """A power of 64 reads; a power with twenty digits is refused as input_too_large."""
    assert DimensionVector.from_json("length^64").exponents[0] == 64
    with pytest.raises(UnitRefusal) as info:
        DimensionVector.from_json("length^99999999999999999999")
    assert info.value.reason == "input_too_large"
