"""A constraint is checked, never dropped: on an unknown against its answer, elsewhere against its solved value.

An adversarial review (2026-12-07) found a constraint on an unknown's symbol skipped:
the solver checks constraints on the values it solves, and an unknown is answered from
the holdings, so ``unknown_ann_dollars == 7`` beside an answer of 8 dollars was certified
(SPEC §4 Values: "consistent (else inconsistent)"; §4 Certification: the whole graph).
"""

from __future__ import annotations

import dataclasses

import pytest

from adapters import bind_math_problem_graph, graph_from_dict
from units import default_vocabulary
from verifier import (
    Answer,
    BindingGraph,
    BindingGraphError,
    BoundConstraint,
    BoundUnknown,
    GraphReport,
    Refusal,
    SourceSpanLink,
    verify,
)

SPAN = SourceSpanLink(source_id="test", start=0, end=1, text="c")


def _bound(unit: str = "dollars", added: object = 3, asked: str | None = None) -> BindingGraph:
    """Ann has 5 ``unit`` and adds ``added`` more; the unknown asks Ann's holding (in ``asked``, else ``unit``)."""
    data = {
        "entities": ["Ann", "Bo"],
        "initial_state": [
            {"entity": "Ann", "quantity": {"value": 5, "unit": unit}},
            {"entity": "Bo", "quantity": {"value": 1, "unit": unit}},
        ],
        "operations": [{"kind": "add", "actor": "Ann", "operand": {"value": added, "unit": unit}}],
        "unknown": {"entity": "Ann", "unit": asked or unit},
    }
    return bind_math_problem_graph(graph_from_dict(data), default_vocabulary())


def _with(
    graph: BindingGraph, *predicates: tuple[str, str], unknowns: tuple[BoundUnknown, ...] | None = None
) -> GraphReport:
    constraints = tuple(BoundConstraint(symbol_id=s, predicate=p, source_span=SPAN) for s, p in predicates)
    asked = graph.unknowns if unknowns is None else unknowns
    return verify(dataclasses.replace(graph, constraints=constraints, unknowns=asked), default_vocabulary())


def _unknown(graph: BindingGraph) -> str:
    return graph.unknowns[0].symbol_id


@pytest.mark.parametrize(
    ("added", "predicate", "value"),
    [
        (3, "{u} == 8", "8"),
        (3, "{u} >= 8", "8"),
        (3, "{u} != 7", "8"),
        (3, "integer({u})", "8"),
        ("3/2", "{u} < 7", "13/2"),
    ],
)
def test_a_constraint_an_answer_meets_leaves_it_certified(added: object, predicate: str, value: str) -> None:
    """Ann's 5 dollars and ``added`` more, under a constraint the answer meets: the answer is certified."""
    graph = _bound(added=added)
    report = _with(graph, (_unknown(graph), predicate.format(u=_unknown(graph))))
    answer = report.answers[_unknown(graph)]
    assert isinstance(answer, Answer)
    assert (str(answer.value), answer.unit) == (value, "dollars")


@pytest.mark.parametrize(
    ("added", "predicate", "shown"),
    [
        (3, "{u} == 7", "8"),
        (3, "{u} < 8", "8"),
        ("3/2", "integer({u})", "13/2"),  # the review's second case: 13/2 dollars was certified
    ],
)
def test_a_constraint_an_answer_breaks_refuses_every_answer(added: object, predicate: str, shown: str) -> None:
    """A constraint the answer breaks is ``inconsistent``, named as a constraint on the unknown."""
    graph = _bound(added=added)
    unknown = _unknown(graph)
    written = predicate.format(u=unknown)
    report = _with(graph, (unknown, written))
    answer = report.answers[unknown]
    assert isinstance(answer, Refusal)
    assert answer.reason == "inconsistent"
    assert answer.detail == (
        f"{unknown} = {shown} violates the constraint {written} [constraint on {unknown}];"
        " no answer of this graph is certified"
    )


def test_the_constraint_of_an_unknown_asked_in_another_unit_is_read_in_the_unit_its_symbol_declares() -> None:
    """5 feet and 3 more asked in inches is 96 inches: ``== 8`` holds (feet, as declared), ``== 96`` breaks."""
    graph = _bound(unit="feet")
    unknown = graph.unknowns[0]
    in_inches = (dataclasses.replace(unknown, expected_unit="inches"),)
    held = _with(graph, (unknown.symbol_id, f"{unknown.symbol_id} == 8"), unknowns=in_inches)
    answer = held.answers[unknown.symbol_id]
    assert isinstance(answer, Answer)
    assert (str(answer.value), answer.unit) == ("96", "inches")
    broken = _with(graph, (unknown.symbol_id, f"{unknown.symbol_id} == 96"), unknowns=in_inches)
    refusal = broken.answers[unknown.symbol_id]
    assert isinstance(refusal, Refusal)
    assert refusal.reason == "inconsistent"
    assert refusal.detail.startswith(f"{unknown.symbol_id} = 8 violates the constraint")


def test_a_constraint_on_a_symbol_nothing_values_is_refused_not_dropped() -> None:
    """An entity's symbol has no value: its constraint cannot be checked, so no answer is certified."""
    graph = _bound()
    report = _with(graph, ("entity_ann", "entity_ann == 7"))
    refusal = report.answers[_unknown(graph)]
    assert isinstance(refusal, Refusal)
    assert refusal.reason == "underdetermined"
    assert refusal.detail.startswith("nothing fixes entity_ann, so its constraint entity_ann == 7 cannot be checked")


def test_a_broken_constraint_on_one_answer_refuses_the_other_answers_too() -> None:
    """Certification is of the whole graph: Bo's answer (1 dollar) is refused with Ann's broken constraint."""
    graph = _bound()
    ann = _unknown(graph)
    bo = dataclasses.replace(graph.unknowns[0], symbol_id="unknown_bo_dollars", question_form="identity")
    bo_symbol = dataclasses.replace(graph.symbol(ann), symbol_id="unknown_bo_dollars", entity="Bo")
    both = dataclasses.replace(graph, symbols=(*graph.symbols, bo_symbol), unknowns=(graph.unknowns[0], bo))
    sound = _with(both)
    assert [(str(a.value), a.unit) for a in sound.answers.values() if isinstance(a, Answer)] == [
        ("8", "dollars"),
        ("1", "dollars"),
    ]
    report = _with(both, (ann, f"{ann} == 7"))
    assert {name: a.reason for name, a in report.answers.items() if isinstance(a, Refusal)} == {
        ann: "inconsistent",
        "unknown_bo_dollars": "inconsistent",
    }


def _json_with(graph: BindingGraph, **extra: list[dict[str, object]]) -> GraphReport:
    """``graph``'s JSON with ``extra`` records appended to its sections, read back and verified."""
    data = graph.to_json()
    for section, records in extra.items():
        data[section] = [*data[section], *records]  # type: ignore[misc]
    return verify(BindingGraph.from_json(data), default_vocabulary())


def _symbol(name: str) -> dict[str, object]:
    return {
        "symbol_id": name,
        "name": name,
        "semantic_role": "quantity",
        "source_span": SPAN.to_json(),
        "introduced_by": "test",
        "entity": None,
        "unit": "dollars",
    }


def _constraint(name: str, predicate: str) -> dict[str, object]:
    return {"symbol_id": name, "predicate": predicate, "source_span": SPAN.to_json()}


def _sum(lhs: str, rhs: str, dependencies: list[str], operation: int) -> dict[str, object]:
    return {
        "lhs_symbol_id": lhs,
        "rhs_canonical": rhs,
        "dependencies": dependencies,
        "operation_kind": "add",
        "operation": operation,
        "literal_unit": "dollars",
        "source_span": SPAN.to_json(),
    }


def test_a_constraint_on_a_value_the_equations_leave_open_is_refused() -> None:
    """Second review, F1: ``w := a + 2`` with no fact on ``a``; ``a == 3`` had been dropped beside a certified answer."""
    graph = _bound()
    report = _json_with(
        graph,
        symbols=[_symbol("a"), _symbol("w")],
        equations=[_sum("w", "a + 2", ["a"], 1)],
        constraints=[_constraint("a", "a == 3"), _constraint("w", "w == 100")],
    )
    refusal = report.answers[_unknown(graph)]
    assert isinstance(refusal, Refusal)
    assert refusal.reason == "underdetermined"
    assert refusal.detail.startswith("a has no value, so its constraint a == 3 cannot be checked: ")
    unconstrained = _json_with(graph, symbols=[_symbol("a"), _symbol("w")], equations=[_sum("w", "a + 2", ["a"], 1)])
    assert isinstance(unconstrained.answers[_unknown(graph)], Answer)  # a value left open that nothing claims


def test_a_constraint_on_an_unknown_whose_answer_is_refused_refuses_the_graph() -> None:
    """Second review, F2: Bo holds no dollars, so ``unknown_bo_dollars == 999`` cannot be checked; Ann's 8 is not certified."""
    graph = _bound()
    bo = dataclasses.replace(graph.unknowns[0], symbol_id="unknown_bo_dollars", question_form="identity")
    bo_symbol = dataclasses.replace(graph.symbol(_unknown(graph)), symbol_id="unknown_bo_dollars", entity="Cy")
    both = dataclasses.replace(graph, symbols=(*graph.symbols, bo_symbol), unknowns=(graph.unknowns[0], bo))
    assert isinstance(_with(both).answers[_unknown(graph)], Answer)  # Cy's refused question alone refuses no other
    report = _with(both, ("unknown_bo_dollars", "unknown_bo_dollars == 999"))
    refusal = report.answers[_unknown(graph)]
    assert isinstance(refusal, Refusal)
    assert refusal.detail.startswith(
        "unknown_bo_dollars has no value, so its constraint unknown_bo_dollars == 999 cannot be checked: "
    )


def test_a_broken_constraint_is_named_before_the_constraints_it_leaves_unchecked() -> None:
    """Reviews R1, R3: [1] breaks the fact the unknown reads, leaving [0] on the unknown unchecked.

    The broken constraint is the root cause, whether [0] would hold or not: a constraint
    another problem left unchecked ranks after it (``verifier.solve.UNCHECKED``).
    """
    graph = _bound()
    unknown = _unknown(graph)
    for first in (f"{unknown} == 7", f"{unknown} == 8"):
        report = _with(graph, (unknown, first), ("q_ann_dollars_t0", "q_ann_dollars_t0 == 4"))
        refusal = report.answers[unknown]
        assert isinstance(refusal, Refusal)
        assert (refusal.reason, refusal.detail) == (
            "inconsistent",
            (
                "q_ann_dollars_t0 = 5 violates the constraint q_ann_dollars_t0 == 4 [constraint on q_ann_dollars_t0];"
                " no answer of this graph is certified"
            ),
        )


def test_a_constraint_unchecked_for_no_other_problem_is_named_in_source_order() -> None:
    """Review R4: [0] on an entity can never be checked, a defect of its own: named before [1], broken later."""
    graph = _bound()
    report = _with(graph, ("entity_ann", "entity_ann >= 0"), ("q_ann_dollars_t0", "q_ann_dollars_t0 == 4"))
    refusal = report.answers[_unknown(graph)]
    assert isinstance(refusal, Refusal)
    assert (refusal.reason, refusal.detail) == (
        "underdetermined",
        (
            "nothing fixes entity_ann, so its constraint entity_ann >= 0 cannot be checked [constraint on entity_ann];"
            " no answer of this graph is certified"
        ),
    )


@pytest.mark.parametrize(
    ("rhs", "dependencies"),
    [
        ("{u} + 1", ["{u}"]),  # F4: z = 20 had solved the unknown to 19 beside an answer of 8
        ("{u} + a", ["a", "{u}"]),  # G1/N1: an unknown read beside another value (the sum's fact, a constraint)
    ],
)
def test_an_equation_may_not_read_an_unknown(rhs: str, dependencies: list[str]) -> None:
    """Reviews F4, G1, G2, N1: an unknown is the question asked (ADR-0135), not a value an equation reads.

    Read as a value, its answer would have to agree with what the equations solve it to
    (``z := u + 1`` with ``z = 20``: 19, while the holdings answer 8), and 8 had been
    certified.  Such a graph is refused when it is built, as a fact on an unknown is.
    """
    graph = _bound()
    unknown = _unknown(graph)
    data = graph.to_json()
    data["symbols"] = [*data["symbols"], _symbol("a"), _symbol("z")]  # type: ignore[misc]
    deps = [d.format(u=unknown) for d in dependencies]
    data["equations"] = [*data["equations"], _sum("z", rhs.format(u=unknown), deps, 1)]  # type: ignore[misc]
    with pytest.raises(BindingGraphError) as info:
        BindingGraph.from_json(data)
    assert info.value.reason == "malformed_input"
    assert info.value.path == "equations[1].dependencies"
    assert info.value.detail.startswith(f"{unknown!r} is an unknown: an equation cannot read it")
