"""The shipped strategies (verifier.strategies): every graph binds, every case's answer is certified equal (SPEC §9)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from adapters import MathProblemGraph, Quantity, bind_math_problem_graph, bind_relations, graph_from_dict
from adapters.records import bind_equation_record
from units import UnitRefusal, default_vocabulary
from verifier import Answer, BindingGraph, check_equation, verify
from verifier.kinds import OperationKind
from verifier.reasons import REFUSAL_REASONS
from verifier.strategies import (
    KINDS,
    binding_graphs,
    commensurable_pairs,
    equation_records,
    math_problem_cases,
    math_problem_graphs,
    quantities,
    relations,
    unit_surfaces,
)
from verifier.testing import assert_answer


@given(math_problem_cases())
def test_every_case_answer_is_certified_equal(case: tuple[MathProblemGraph, Fraction]) -> None:
    """The answer computed by construction is the one the verifier certifies."""
    graph, expected = case
    assert_answer(graph, expected, graph.unknown.unit)


@pytest.mark.parametrize("kind", KINDS)
@given(data=st.data())
def test_each_kind_alone_gives_certified_cases(kind: OperationKind, data: st.DataObject) -> None:
    """Cases drawn from one kind (plus the adds that seed holdings) are certified too."""
    graph, expected = data.draw(math_problem_cases(kinds=(kind, "add"), max_operations=4))
    assert_answer(graph, expected)


@given(math_problem_graphs())
def test_every_graph_binds_and_round_trips(graph: MathProblemGraph) -> None:
    """Every generated graph binds without refusal and survives its JSON."""
    bind_math_problem_graph(graph)
    assert graph_from_dict(graph.as_json()) == graph


@given(st.from_type(MathProblemGraph))
def test_from_type_math_problem_graph(graph: MathProblemGraph) -> None:
    """st.from_type(MathProblemGraph) draws graphs (registered on import)."""
    assert isinstance(graph, MathProblemGraph)


@given(st.from_type(BindingGraph))
def test_from_type_binding_graph(graph: BindingGraph) -> None:
    """st.from_type(BindingGraph) draws bound graphs whose answer is certified."""
    assert all(isinstance(a, Answer) for a in verify(graph).answers.values())


@given(binding_graphs())
def test_binding_graphs_are_sound(graph: BindingGraph) -> None:
    """Every drawn binding graph is certified."""
    assert all(isinstance(a, Answer) for a in verify(graph).answers.values())


@given(unit_surfaces("length"))
def test_unit_surfaces_of_a_dimension(surface: str) -> None:
    """A length surface resolves to the length dimension."""
    vocab = default_vocabulary()
    assert vocab.resolve(surface).dimension == vocab.resolve("meter").dimension


@given(commensurable_pairs())
def test_commensurable_pairs_convert_both_ways(pair: tuple[str, str]) -> None:
    """A pair's factors multiply to one."""
    vocab = default_vocabulary()
    a, b = pair
    assert vocab.factor(a, b) * vocab.factor(b, a) == 1


@given(quantities("count"))
def test_quantities_are_exact_and_counts_whole(quantity: Quantity) -> None:
    """A count quantity has a whole exact magnitude."""
    assert isinstance(quantity.value, Fraction)
    assert quantity.value.denominator == 1


@given(relations())
def test_relations_bind_and_answer(record: dict[str, object]) -> None:
    """Every drawn relational record binds and is answered under the integer policy."""
    graph = bind_relations(record["relations"], record["query"])
    (answer,) = verify(graph, policy="integer").answers.values()
    assert isinstance(answer, Answer)


def test_bad_arguments_are_refused() -> None:
    """An unknown kind or a negative max_operations is a ValueError naming it."""
    with pytest.raises(ValueError, match="unknown"):
        math_problem_cases(kinds=("fly",))  # type: ignore[arg-type]  # the runtime check is what is tested
    with pytest.raises(ValueError, match="max_operations"):
        math_problem_cases(max_operations=-1)


FUZZ_VOCAB = default_vocabulary().with_count_nouns(("apples", "oranges"))


@given(equation_records(FUZZ_VOCAB))
def test_equation_records_bind_and_get_a_verdict(record: dict[str, object]) -> None:
    """Every drawn equation record binds, keeps its kind and operands, and gets a verdict (never an exception)."""
    equation, symbols = bind_equation_record(record)
    assert equation.operation_kind == record["operation_kind"]
    drawn: Any = record["symbols"]
    assert set(equation.dependencies) == set(symbols) == {s["symbol_id"] for s in drawn}
    verdict = check_equation(equation, symbols, FUZZ_VOCAB)
    assert (verdict.proof is None) != (verdict.refusal is None)
    if verdict.refusal is not None:
        assert verdict.refusal.reason in REFUSAL_REASONS


@given(st.data())
def test_equation_records_draw_only_the_kinds_asked(data: st.DataObject) -> None:
    """kinds= restricts the draw; units are vocabulary spellings or X_per_Y composites of them."""
    kinds = data.draw(st.lists(st.sampled_from(KINDS), min_size=1, max_size=3, unique=True))
    record = data.draw(equation_records(FUZZ_VOCAB, kinds))
    assert record["operation_kind"] in kinds
    drawn: Any = record["symbols"]
    for sym in drawn:
        unit = sym["unit"]
        if unit is None or unit in FUZZ_VOCAB.surfaces() or unit in {e.lemma for e in FUZZ_VOCAB.lexicon.entries}:
            continue
        parts = unit.split("_per_")  # a composite X_per_Y of two spellings (refused or not as a whole)
        splits = [("_per_".join(parts[:i]), "_per_".join(parts[i:])) for i in range(1, len(parts))]
        assert any(_resolves(head) and _resolves(tail) for head, tail in splits), unit


def _resolves(surface: str) -> bool:
    try:
        FUZZ_VOCAB.resolve(surface)
    except UnitRefusal:
        return False
    return True


def test_equation_records_refuse_bad_arguments() -> None:
    """No kinds, or max_operands below 1, is a ValueError naming the argument."""
    with pytest.raises(ValueError, match="at least one kind"):
        equation_records(kinds=())
    with pytest.raises(ValueError, match="max_operands"):
        equation_records(max_operands=0)
