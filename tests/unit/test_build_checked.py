"""verifier.model.build_checked: a record from fields its caller checked, equal to the constructor's, and strict on its fields."""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import pytest

from adapters import MathGraphError, graph_from_dict
from adapters.math_graph import Comparison, InitialPossession, MathProblemGraph, Operation, Quantity, Unknown
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


_SAM = InitialPossession(entity="Sam", quantity=Quantity(value=Fraction(3), unit="apples"))
_ASK = Unknown(entity="Sam", unit="apples")
_GIVE = Operation(actor="Sam", kind="transfer", operand=Quantity(value=Fraction(1), unit="apples"), target="Ana")


@pytest.mark.parametrize(
    ("changes", "path"),
    [
        ({"operations": [_GIVE]}, "operations"),  # a list, not a tuple: the graph would not hash
        ({"operations": None}, "operations"),
        ({"entities": ["Sam", "Ana"]}, "entities"),  # had said "a graph needs at least one entity"
        ({"initial_state": None}, "initial_state"),
        ({"operations": (dataclasses.replace(_GIVE, actor=["Sam"]),)}, "operations[0].actor"),  # type: ignore[arg-type]
        ({"operations": (dataclasses.replace(_GIVE, target=["Ana"]),)}, "operations[0].target"),  # type: ignore[arg-type]
        ({"operations": (dataclasses.replace(_GIVE, kind=["add"]),)}, "operations[0].kind"),  # type: ignore[arg-type]
        ({"initial_state": (dataclasses.replace(_SAM, entity=["Sam"]),)}, "initial_state[0].entity"),  # type: ignore[arg-type]
        ({"unknown": Unknown(entity=["Sam"], unit="apples")}, "unknown.entity"),  # type: ignore[arg-type]
        (
            {
                "operations": (
                    Operation(
                        actor="Ana",
                        kind="compare_additive",
                        operand=Comparison(reference_actor="Sam", direction="more", delta="x"),  # type: ignore[arg-type]
                    ),
                )
            },
            "operations[0].operand.delta",
        ),
        (
            {
                "operations": (
                    Operation(
                        actor="Ana",
                        kind="compare_additive",
                        operand=Comparison(reference_actor=["Sam"], direction="more", delta=_SAM.quantity),  # type: ignore[arg-type]
                    ),
                )
            },
            "operations[0].operand.reference_actor",
        ),
        (
            {
                "initial_state": (
                    dataclasses.replace(_SAM, quantity=Quantity(value=Fraction(10**5000, 3), unit="apples")),
                )
            },
            "initial_state[0].quantity.value",
        ),
    ],
)
def test_a_graph_built_in_python_refuses_what_json_could_not_hold(changes: dict[str, object], path: str) -> None:
    """Lists for names, parts that are not tuples, a delta that is no Quantity, a 5,000-digit Fraction: typed refusals.

    A review (2026-12-07) found each raised ``TypeError``, ``AttributeError`` or, in
    binding, ``ValueError`` (a Fraction too long to print); ``graph_from_dict`` refuses
    them all as it reads.
    """
    fields: dict[str, object] = {
        "entities": ("Sam", "Ana"),
        "initial_state": (_SAM,),
        "operations": (),
        "unknown": _ASK,
    }
    with pytest.raises(MathGraphError) as info:
        MathProblemGraph(**{**fields, **changes})  # type: ignore[arg-type]
    assert info.value.path == path
    assert info.value.reason in ("malformed_input", "input_too_large")
