"""What the last wrong-answer hunt found (own Fraction oracle, 25,300 stories), each pinned to its refusal.

1. An amount in the unscaled ``degree`` beside a reading in Celsius or Fahrenheit opened a
   holding of its own from 0, so "10 °C, add 5 degrees" was certified 10 Celsius.  A
   temperature is a reading: it does not start from 0 (``state_unset``).
2. Under ``--count-nouns auto``, ``green apples`` (or ``apple pies``) beside ``apples`` was
   declared a kind of its own, and the apples were certified without them.  A declared noun
   whose words name another count kind of the graph is refused; declaring it explicitly
   keeps it.
"""

from __future__ import annotations

import pytest

from adapters import AdapterError, auto_count_nouns, bind_math_problem_graph, graph_from_dict
from units import default_vocabulary
from verifier import Answer, verify


def _graph(
    initial: list[tuple[str, str, int]], operations: list[dict[str, object]], asked: tuple[str, str]
) -> dict[str, object]:
    return {
        "entities": sorted({e for e, _, _ in initial} | {str(op["actor"]) for op in operations}),
        "initial_state": [{"entity": e, "quantity": {"unit": u, "value": v}} for e, u, v in initial],
        "operations": operations,
        "unknown": {"entity": asked[0], "unit": asked[1]},
    }


def _add(actor: str, unit: str, value: int, kind: str = "add", target: str | None = None) -> dict[str, object]:
    op: dict[str, object] = {"actor": actor, "kind": kind, "operand": {"unit": unit, "value": value}}
    if target is not None:
        op["target"] = target
    return op


@pytest.mark.parametrize(
    ("reading", "change", "kind"),
    [("Celsius", "degrees", "add"), ("Fahrenheit", "°", "subtract"), ("Celsius", "degree", "add")],
)
def test_a_change_in_unscaled_degrees_beside_a_reading_is_refused(reading: str, change: str, kind: str) -> None:
    """A change in unscaled degrees to a Celsius or Fahrenheit reading is state_unset at the operand's unit."""
    data = _graph([("Ana", reading, 10)], [_add("Ana", change, 5, kind)], ("Ana", reading))
    with pytest.raises(AdapterError) as info:
        bind_math_problem_graph(graph_from_dict(data))
    assert info.value.reason == "state_unset"
    assert info.value.path == "operations[0].operand.unit"


def test_a_transfer_of_degrees_to_a_reading_is_refused_and_a_reading_still_changes_in_its_own_unit() -> None:
    """A transfer of degrees to a reading is state_unset; 10 kelvins plus 5 kelvins still answers 15."""
    data = _graph(
        [("Ana", "Celsius", 10), ("Ben", "Celsius", 30)],
        [_add("Ana", "degrees", 5, "transfer", "Ben")],
        ("Ben", "Celsius"),
    )
    with pytest.raises(AdapterError) as info:
        bind_math_problem_graph(graph_from_dict(data))
    assert info.value.reason == "state_unset"
    sums = _graph([("Ana", "Kelvin", 10)], [_add("Ana", "Kelvin", 5)], ("Ana", "Kelvin"))
    (answer,) = verify(bind_math_problem_graph(graph_from_dict(sums))).answers.values()
    assert isinstance(answer, Answer)  # kelvins have no offset: a change in kelvins changes the reading
    assert answer.fraction == 15


@pytest.mark.parametrize("noun", ["green apples", "apple pies"])
def test_auto_refuses_a_noun_that_names_another_count_kind_of_the_graph(noun: str) -> None:
    """Auto refuses a noun whose words name the graph's apples (unknown_unit); declared explicitly, it is its own kind."""
    data = _graph([("Ana", "apples", 10)], [_add("Ana", noun, 3), _add("Ana", noun, 2)], ("Ana", "apples"))
    with pytest.raises(AdapterError) as info:
        auto_count_nouns(graph_from_dict(data))
    assert info.value.reason == "unknown_unit"
    assert info.value.path == "operations[0].operand.unit"
    declared = default_vocabulary().with_count_nouns({noun: noun.replace(" ", "_"), "apples": "apple"})
    (answer,) = verify(bind_math_problem_graph(graph_from_dict(data), declared), declared).answers.values()
    assert isinstance(answer, Answer)  # declared explicitly, it is a kind of its own, as the caller said
    assert answer.fraction == 10


def test_auto_keeps_a_noun_of_several_words_that_names_no_other_kind_of_the_graph() -> None:
    """Auto declares a noun of several words that names no other kind of the graph, and the answer is certified."""
    for noun in ("jumping jacks", "bags of flour"):
        data = _graph([("Ana", noun, 10)], [_add("Ana", noun, 3)], ("Ana", noun))
        vocab = auto_count_nouns(graph_from_dict(data))
        (answer,) = verify(bind_math_problem_graph(graph_from_dict(data), vocab), vocab).answers.values()
        assert isinstance(answer, Answer), noun
        assert answer.fraction == 13


def test_an_entity_holds_one_temperature_however_the_second_would_come() -> None:
    """A second temperature kind beside a reading, by initial state or by a comparison, is ambiguous_reference."""
    two_initial = _graph(
        [("Ana", "Celsius", 10), ("Ana", "degrees", 0)], [_add("Ana", "degrees", 5)], ("Ana", "Celsius")
    )
    compared = _graph(
        [("Ana", "degrees", 10), ("Ben", "Kelvin", 300)],
        [
            {
                "actor": "Ben",
                "kind": "compare_additive",
                "operand": {"reference_actor": "Ana", "direction": "more", "delta": {"unit": "degrees", "value": 5}},
            }
        ],
        ("Ben", "Kelvin"),
    )
    for data in (two_initial, compared):
        with pytest.raises(AdapterError) as info:
            bind_math_problem_graph(graph_from_dict(data))
        assert info.value.reason == "ambiguous_reference"
        assert "would hold two temperatures" in info.value.detail


def test_a_total_of_temperatures_is_refused_even_with_one_holder() -> None:
    """A total asked in kelvins over holdings of kelvins and degrees is offset_unit_arithmetic, not an answer."""
    data = _graph([("Ana", "Kelvin", 300), ("Ben", "degrees", 20)], [], (None, "Kelvin"))  # type: ignore[arg-type]
    (answer,) = verify(bind_math_problem_graph(graph_from_dict(data))).answers.values()
    assert not isinstance(answer, Answer)
    assert answer.reason == "offset_unit_arithmetic"


@pytest.mark.parametrize(
    ("held", "noun"), [("apples", "apple-pies"), ("apples", "Green Apples"), ("apple", "green apples")]
)
def test_auto_compares_the_words_of_a_noun_in_every_spelling(held: str, noun: str) -> None:
    """Hyphens split words; case, singular and plural are one noun (units.nouns.noun_forms)."""
    data = _graph([("Ana", held, 10)], [_add("Ana", noun, 3), _add("Ana", noun, 2)], ("Ana", held))
    with pytest.raises(AdapterError) as info:
        auto_count_nouns(graph_from_dict(data))
    assert info.value.reason == "unknown_unit"


@pytest.mark.parametrize(
    ("held", "noun"),
    [("red apples", "big red apples"), ("apples", "apple's pies"), ("green apples", "green apple pies")],
)
def test_auto_finds_a_kind_of_several_words_or_behind_an_apostrophe(held: str, noun: str) -> None:
    """Auto finds a held kind of several words, or one behind an apostrophe, inside a noun, and refuses it."""
    data = _graph([("Ana", held, 10)], [_add("Ana", noun, 3), _add("Ana", noun, 2)], ("Ana", held))
    with pytest.raises(AdapterError) as info:
        auto_count_nouns(graph_from_dict(data))
    assert info.value.reason == "unknown_unit"


@pytest.mark.parametrize(("kind", "unit"), [("multiply", "Celsius"), ("divide", "Celsius"), ("multiply", "Kelvin")])
def test_a_reading_is_not_scaled(kind: str, unit: str) -> None:
    """2 x 300 K is no temperature (and "double the Celsius" read on a Kelvin holding would be a wrong 600 K)."""
    data = _graph([("Ana", "Kelvin", 300)], [_add("Ana", unit, 2, kind)], ("Ana", "Kelvin"))
    (answer,) = verify(bind_math_problem_graph(graph_from_dict(data))).answers.values()
    assert not isinstance(answer, Answer)
    assert answer.reason == "unit_mismatch"


def test_a_reading_is_not_compared_multiplicatively_nor_split() -> None:
    """Twice as many kelvins, or a partition of kelvins into batches, is unit_mismatch."""
    twice = _graph(
        [("Ana", "Kelvin", 300)],
        [
            {
                "actor": "Ben",
                "kind": "compare_multiplicative",
                "operand": {"reference_actor": "Ana", "direction": "times", "factor": 2},
            }
        ],
        ("Ben", "Kelvin"),
    )
    split = _graph(
        [("Ana", "Kelvin", 300)],
        [
            {
                "actor": "Ana",
                "kind": "unit_partition",
                "operand": {"value": 100, "unit": "Kelvin", "result_unit": "batches"},
            }
        ],
        ("Ana", "batches"),
    )
    for data in (twice, split):
        (answer,) = verify(bind_math_problem_graph(graph_from_dict(data))).answers.values()
        assert not isinstance(answer, Answer)
        assert answer.reason == "unit_mismatch"
