"""Automatic count nouns whose meaning the answer depends on (SPEC §5 "Count nouns": a typo never becomes a kind).

A noun the lexicon lacks may be a spelling of another unit of the graph (``mns`` for
minutes, ``USD`` for dollars, ``aps`` for apples).  Declared as a count kind of its own,
its amounts would silently stay out of that unit's holdings, so ``--count-nouns auto``
verifies the graph again with the noun written as each other unit, and refuses the noun
when a reading changes the certified answer, however often it is written.  A noun whose
meaning changes no answer is kept, and so is a distractor declared explicitly.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Final

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adapters import MathGraphError, auto_count_nouns, bind_math_problem_graph, graph_from_dict
from adapters.math_graph import InitialPossession, MathProblemGraph, Quantity, Unknown
from units import UnitRefusal, default_vocabulary
from verifier import Answer, verify


def _holdings(asked: str, amounts: list[tuple[str, str, int]], *, entity: str | None = "Ann") -> dict[str, object]:
    """Ann starts with 5 of the asked unit; each ``(actor, unit, value)`` is an add."""
    return {
        "entities": ["Ann", "Bo"],
        "initial_state": [{"entity": "Ann", "quantity": {"unit": asked, "value": 5}}],
        "operations": [
            {"actor": actor, "kind": "add", "operand": {"unit": unit, "value": value}} for actor, unit, value in amounts
        ],
        "unknown": {"entity": entity, "unit": asked},
    }


def _certified(data: dict[str, object]) -> Answer | None:
    """The answer certified under auto declaration, or ``None`` when it or binding or verification refuses."""
    try:
        vocab = auto_count_nouns(data)
        (answer,) = verify(bind_math_problem_graph(graph_from_dict(data), vocab), vocab).answers.values()
    except MathGraphError:
        return None
    return answer if isinstance(answer, Answer) else None


def _answer(data: dict[str, object]) -> Answer:
    vocab = auto_count_nouns(data)
    (answer,) = verify(bind_math_problem_graph(graph_from_dict(data), vocab), vocab).answers.values()
    assert isinstance(answer, Answer), answer
    return answer


@pytest.mark.parametrize(
    ("asked", "noun"),
    [
        ("minutes", "mns"),  # two edits from min: no spelling rule catches it
        ("minutes", "mnt"),
        ("feet", "fef"),
        ("dollars", "usd"),  # an ISO 4217 code the lexicon lacks
        ("dollars", "USD"),
        ("minutes", "pens"),  # a genuine distractor looks the same, and must be declared
        ("apples", "aps"),  # beside a question in a noun declared automatically too
    ],
)
@pytest.mark.parametrize(("actor", "entity"), [("Ann", "Ann"), ("Bo", None)])
def test_a_noun_written_twice_whose_meaning_changes_the_answer_is_refused(
    asked: str, noun: str, actor: str, entity: str | None
) -> None:
    """5 minutes + 3 mns + 1 mns had been certified as 5 minutes; now unknown_unit at the first mns."""
    data = _holdings(asked, [(actor, noun, 3), (actor, noun, 1)], entity=entity)
    with pytest.raises(MathGraphError) as info:
        auto_count_nouns(data)
    assert info.value.reason == "unknown_unit"
    assert info.value.path == "operations[0].operand.unit"
    assert f"the answer depends on what '{noun}' means: 5 as a count noun of its own, 9 as another spelling of" in str(
        info.value
    )


def test_a_distractor_declared_explicitly_is_kept() -> None:
    """Declared by the user, pens are a kind of their own: 5 + 2 minutes, the pens left out as asked."""
    data = _holdings("minutes", [("Ann", "pens", 3), ("Ann", "pens", 1), ("Ann", "minutes", 2)])
    vocab = auto_count_nouns(data, default_vocabulary().with_count_nouns(["pens"]))
    (answer,) = verify(bind_math_problem_graph(graph_from_dict(data), vocab), vocab).answers.values()
    assert isinstance(answer, Answer)
    assert (answer.value, answer.unit) == (7, "minutes")


@pytest.mark.parametrize("noun", ["pears", "aps", "ftess"])
def test_a_noun_beside_a_question_in_a_declared_noun_is_refused(noun: str) -> None:
    """Asked in apples (itself declared automatically), 3 + 2 aps could be apples left out: refused; pears too."""
    data = _holdings("apples", [("Ann", noun, 3), ("Ann", noun, 2), ("Ann", "apples", 1)])
    with pytest.raises(MathGraphError) as info:
        auto_count_nouns(data)
    assert info.value.reason == "unknown_unit"
    assert info.value.path == "operations[0].operand.unit"


def test_a_noun_a_rate_turns_into_the_answer_is_kept() -> None:
    """3 apples at 2 dollars per apple is 6 dollars (had been refused): dollars per dollar is no reading of it."""
    data = {
        "entities": ["Ann"],
        "initial_state": [{"entity": "Ann", "quantity": {"unit": "apples", "value": 3}}],
        "operations": [
            {
                "actor": "Ann",
                "kind": "apply_rate",
                "operand": {"value": 2, "numerator_unit": "dollars", "denominator_unit": "apple"},
            }
        ],
        "unknown": {"entity": "Ann", "unit": "dollars"},
    }
    answer = _answer(data)
    assert (answer.value, answer.unit) == (6, "dollars")


def test_a_noun_read_only_through_a_chain_of_rates_is_kept() -> None:
    """Crates make boxes (2 each), boxes make dollars (5 each): 3 crates are 30 dollars."""
    data = {
        "entities": ["Ann"],
        "initial_state": [{"entity": "Ann", "quantity": {"unit": "crates", "value": 3}}],
        "operations": [
            {
                "actor": "Ann",
                "kind": "apply_rate",
                "operand": {"value": 2, "numerator_unit": "boxes", "denominator_unit": "crate"},
            },
            {
                "actor": "Ann",
                "kind": "apply_rate",
                "operand": {"value": 5, "numerator_unit": "dollars", "denominator_unit": "box"},
            },
        ],
        "unknown": {"entity": "Ann", "unit": "dollars"},
    }
    answer = _answer(data)
    assert (answer.value, answer.unit) == (30, "dollars")


def test_a_noun_a_partition_turns_into_the_answer_is_kept() -> None:
    """12 apples in bags of 4 apple are 3 bags: the apples, written once as a holding, had been refused."""
    data = {
        "entities": ["Ann"],
        "initial_state": [{"entity": "Ann", "quantity": {"unit": "apples", "value": 12}}],
        "operations": [
            {"actor": "Ann", "kind": "unit_partition", "operand": {"value": 4, "unit": "apple", "result_unit": "bags"}}
        ],
        "unknown": {"entity": "Ann", "unit": "bags"},
    }
    answer = _answer(data)
    assert (answer.value, answer.unit) == (3, "bags")


_QUESTIONS = ("minutes", "dollars", "feet", "hours", "people", "apples")


def _undeclared(word: str) -> bool:
    try:
        default_vocabulary().resolve(word)
    except UnitRefusal:
        return True
    return False


@settings(max_examples=150, deadline=None)
@given(
    asked=st.sampled_from(_QUESTIONS),
    nouns=st.lists(st.text("abcdefmnprstuy", min_size=2, max_size=6).filter(_undeclared), min_size=1, max_size=2),
    steps=st.lists(
        st.tuples(st.sampled_from(["Ann", "Bo"]), st.integers(0, 2), st.integers(1, 9)), min_size=1, max_size=4
    ),
    entity=st.sampled_from(["Ann", None]),
)
def test_no_answer_leaves_an_amount_out(
    asked: str, nouns: list[str], steps: list[tuple[str, int, int]], entity: str | None
) -> None:
    """Whatever each noun means, a certified answer is the one where it means the unit asked.

    Each step adds an amount of the asked unit (index 0) or of a noun; if the nouns
    were spellings of the asked unit, the answer would count their amounts too.  An
    answer that auto declaration lets through must not depend on which they are.
    """
    units = [asked, *nouns]
    amounts = [(actor, units[min(i, len(units) - 1)], value) for actor, i, value in steps]
    data = _holdings(asked, amounts, entity=entity)
    try:
        vocab = auto_count_nouns(data)
    except MathGraphError:
        return  # refused: no answer to be wrong
    (answer,) = verify(bind_math_problem_graph(graph_from_dict(data), vocab), vocab).answers.values()
    if not isinstance(answer, Answer):
        return  # refused by the verifier ('per' is no unit)
    as_asked = sum(
        (Fraction(v) for actor, _, v in amounts if entity is None or actor == entity),
        start=Fraction(5),
    )
    assert answer.value == as_asked, (data, answer)


def _op(actor: str, kind: str, **operand: object) -> dict[str, object]:
    return {"actor": actor, "kind": kind, "operand": operand}


def _rate(actor: str, value: object, numerator: str, denominator: str) -> dict[str, object]:
    return _op(actor, "apply_rate", value=value, numerator_unit=numerator, denominator_unit=denominator)


def _story(
    initial: list[tuple[str, str, int]], operations: list[dict[str, object]], asked: tuple[str | None, str]
) -> dict[str, object]:
    return {
        "entities": ["Ann", "Bo"],
        "initial_state": [{"entity": e, "quantity": {"unit": u, "value": v}} for e, u, v in initial],
        "operations": operations,
        "unknown": {"entity": asked[0], "unit": asked[1]},
    }


SPLIT_HOLDINGS = {
    # each was certified without the minutes, feet or dollars written in the lexicon's spelling (reviews, rounds 2-3)
    "the typo is asked": _story([("Ann", "mns", 30)], [_op("Ann", "add", unit="minutes", value=20)], ("Ann", "mns")),
    "the typo is asked in total": _story(
        [("Ann", "mns", 30)], [_op("Ann", "add", unit="minutes", value=20)], (None, "mns")
    ),
    "a rate reads the typo": _story(
        [("Ann", "mns", 30)],
        [_op("Ann", "add", unit="minutes", value=20), _rate("Ann", 2, "dollars", "mns")],
        ("Ann", "dollars"),
    ),
    "a partition reads the typo": _story(
        [("Ann", "fet s", 50)],
        [
            _op("Ann", "add", unit="feet", value=20),
            _op("Ann", "unit_partition", value=5, unit="fet s", result_unit="bags"),
        ],
        ("Ann", "bags"),
    ),
    "a rate makes the typo": _story(
        [("Ann", "hours", 3)],
        [_rate("Ann", 10, "USD", "hours"), _op("Ann", "add", unit="dollars", value=5)],
        ("Ann", "USD"),
    ),
    "another entity's rate reads the typo": _story(
        [("Ann", "minutes", 30), ("Bo", "mns", 10)],
        [
            _op("Ann", "add", unit="mns", value=20),
            _rate("Ann", 2, "dollars", "minutes"),
            _rate("Bo", 2, "dollars", "mns"),
        ],
        ("Ann", "dollars"),
    ),
    "a rate into a declared noun": _story(
        [("Ann", "minutes", 50)],
        [
            _op("Ann", "add", unit="mts", value=10),
            _op("Ann", "add", unit="mts", value=10),
            _rate("Ann", 4, "marbles", "minutes"),
        ],
        ("Ann", "marbles"),
    ),
    "a dozen beside eggs": _story([("Ann", "dozen", 2)], [_op("Ann", "add", unit="eggs", value=5)], ("Ann", "eggs")),
    "a comparison ties the typo's holder": _story(
        [("Bo", "mns", 3)],
        [_op("Ann", "compare_multiplicative", reference_actor="Bo", direction="times", factor=2)],
        ("Ann", "minutes"),
    ),
    "a transfer ties the typo's holder": _story(
        [("Ann", "minutes", 5), ("Bo", "mns", 9)],
        [{"actor": "Bo", "kind": "transfer", "operand": {"unit": "minutes", "value": 2}, "target": "Ann"}],
        ("Ann", "minutes"),
    ),
}


SPLIT_HOLDINGS |= {
    # round 3: the holdings a transfer or a comparison ties were taken for read, so a split between them passed
    "a transfer's giver keeps the typo": _story(
        [("Ann", "minutes", 30)],
        [
            _op("Ann", "add", unit="mns", value=10),
            {"actor": "Ann", "kind": "transfer", "target": "Bo", "operand": {"unit": "mns", "value": 4}},
            _rate("Ann", 1, "dollars", "minutes"),
            _rate("Bo", 1, "dollars", "mns"),
            {"actor": "Bo", "kind": "transfer", "target": "Ann", "operand": {"unit": "dollars", "value": 2}},
        ],
        ("Ann", "dollars"),
    ),
    "a multiplicative comparison gives the typo": _story(
        [("Bo", "mns", 4)],
        [
            _op("Ann", "compare_multiplicative", reference_actor="Bo", direction="times", factor=2),
            _op("Ann", "add", unit="minutes", value=30),
            _rate("Ann", 1, "dollars", "minutes"),
            _rate("Bo", 1, "dollars", "mns"),
        ],
        ("Ann", "dollars"),
    ),
    "a split hides an inconsistent comparison": {
        "entities": ["Ann", "Bo", "Cy"],
        "initial_state": [
            {"entity": "Bo", "quantity": {"unit": "pounds", "value": 3}},
            {"entity": "Cy", "quantity": {"unit": "pounds", "value": 3}},
            {"entity": "Ann", "quantity": {"unit": "pds", "value": 5}},
        ],
        "operations": [
            _op("Bo", "add", unit="pds", value=5),
            _op("Bo", "compare_additive", reference_actor="Cy", direction="more", delta={"unit": "pounds", "value": 0}),
        ],
        "unknown": {"entity": "Ann", "unit": "pds"},
    },
}


@pytest.mark.parametrize("story", SPLIT_HOLDINGS.values(), ids=SPLIT_HOLDINGS.keys())
def test_a_noun_whose_respelling_changes_the_answer_certifies_nothing(story: dict[str, object]) -> None:
    """Amounts split between a unit and a noun that may spell it: no answer (the noun refused, or the graph)."""
    assert _certified(story) is None


def test_a_noun_of_an_entity_the_question_does_not_ask_about_is_kept() -> None:
    """Bo's pens change no answer about Ann's minutes, whatever they mean: 5 + 2 minutes."""
    data = _story(
        [("Ann", "minutes", 5), ("Bo", "pens", 3)],
        [_op("Bo", "add", unit="pens", value=1), _op("Ann", "add", unit="minutes", value=2)],
        ("Ann", "minutes"),
    )
    answer = _answer(data)
    assert (answer.value, answer.unit) == (7, "minutes")


def test_a_respelling_that_is_no_reading_of_the_graph_is_set_aside() -> None:
    """3 crates at 2 tins a crate and 5 dollars a tin: as crates or dollars, tins make a rate of a kind to itself."""
    data = _story(
        [("Ann", "crates", 3)],
        [_rate("Ann", 2, "tins", "crate"), _rate("Ann", 5, "dollars", "tin")],
        ("Ann", "dollars"),
    )
    answer = _answer(data)
    assert (answer.value, answer.unit) == (30, "dollars")


def test_what_a_transfer_gives_an_entity_no_answer_reads_is_kept() -> None:
    """Anna gives Ben 3 of her 8 marbles (upstream gpd-004): 5 marbles, though no answer reads Ben's."""
    data = _story(
        [("Ann", "marbles", 8)],
        [{"actor": "Ann", "kind": "transfer", "operand": {"unit": "marbles", "value": 3}, "target": "Bo"}],
        ("Ann", "marbles"),
    )
    answer = _answer(data)
    assert (answer.value, answer.unit) == (5, "marbles")


def test_a_transfer_from_an_entity_no_answer_otherwise_reads_is_kept() -> None:
    """Ann gives Bo 2 of her 5 apples: Bo's 2 apples, though no answer reads Ann's."""
    data = _story(
        [("Ann", "apples", 5)],
        [{"actor": "Ann", "kind": "transfer", "operand": {"unit": "apples", "value": 2}, "target": "Bo"}],
        ("Bo", "apples"),
    )
    answer = _answer(data)
    assert (answer.value, answer.unit) == (2, "apples")


@pytest.mark.parametrize("unit", [5, None, b"x", ("a",), Fraction(1)])
def test_a_graph_built_in_python_with_a_unit_that_is_no_text_is_refused(unit: object) -> None:
    """MathProblemGraph(...) refuses malformed_input at the field, where auto declaration had raised AttributeError."""
    with pytest.raises(MathGraphError) as info:
        MathProblemGraph(
            entities=("Ann",),
            initial_state=(InitialPossession(entity="Ann", quantity=Quantity(value=Fraction(1), unit=unit)),),  # type: ignore[arg-type]
            operations=(),
            unknown=Unknown(entity="Ann", unit="apples"),
        )
    assert (info.value.reason, info.value.path) == ("malformed_input", "initial_state[0].quantity.unit")


@pytest.mark.parametrize(
    ("first", "second"),
    [("bucks", "pencils"), ("hampers", "scones")],  # a synonym of dollars, and two nouns that may be one
)
def test_a_reading_refused_by_a_second_rate_onto_a_holding_refuses_the_noun(first: str, second: str) -> None:
    """40 bucks at 1/2 pencil a buck and 3 dollars a pencil had been 60 dollars; read as dollars, a rate overwrites."""
    data = _story(
        [("Ann", first, 40)],
        [_rate("Ann", 1, second, first), _rate("Ann", 3, "dollars", second)],
        ("Ann", "dollars"),
    )
    with pytest.raises(MathGraphError) as info:
        auto_count_nouns(data)
    assert "refused redeclared_state as another spelling of 'dollars'" in str(info.value)


@pytest.mark.parametrize(
    ("fields", "path"),
    [
        ({"initial_state": ({"entity": "Ann"},)}, "initial_state[0]"),
        ({"initial_state": (InitialPossession(entity="Ann", quantity=5),)}, "initial_state[0].quantity"),  # type: ignore[arg-type]
        ({"operations": ("add",)}, "operations[0]"),
        ({"unknown": ("Ann", "apples")}, "unknown"),
    ],
)
def test_a_graph_built_in_python_from_other_records_is_refused(fields: dict[str, object], path: str) -> None:
    """Each part must be the graph's own record type: malformed_input at its path, never AttributeError."""
    parts: dict[str, object] = {
        "entities": ("Ann",),
        "initial_state": (),
        "operations": (),
        "unknown": Unknown(entity="Ann", unit="apples"),
        **fields,
    }
    with pytest.raises(MathGraphError) as info:
        MathProblemGraph(**parts)  # type: ignore[arg-type]
    assert (info.value.reason, info.value.path) == ("malformed_input", path)


COINCIDENCES = {
    # review round 4: read as one of the other unit, each agreed by coincidence; read as two, each does not
    "halved cents": {
        "entities": ["Ann"],
        "initial_state": [{"entity": "Ann", "quantity": {"unit": "cents", "value": 10}}],
        "operations": [_op("Ann", "add", unit="bucks", value=10), _op("Ann", "divide", unit="bucks", value=2)],
        "unknown": {"entity": "Ann", "unit": "cents"},
    },
    "halved hours": {
        "entities": ["Ann"],
        "initial_state": [{"entity": "Ann", "quantity": {"unit": "hours", "value": 2}}],
        "operations": [_op("Ann", "add", unit="mns", value=2), _op("Ann", "divide", unit="mns", value=2)],
        "unknown": {"entity": "Ann", "unit": "hours"},
    },
    "asked in the typo": {
        "entities": ["Ann"],
        "initial_state": [{"entity": "Ann", "quantity": {"unit": "inches", "value": 4}}],
        "operations": [_op("Ann", "add", unit="fef", value=4), _op("Ann", "divide", unit="inches", value=2)],
        "unknown": {"entity": "Ann", "unit": "fef"},
    },
}


COINCIDENCES |= {
    # review round 5: 4 + s + 2/s agrees at sizes 1 and 2 (7), not at 3; (1 + s) * 3/2 is 3 at 1, not whole at 2
    "a divide and a rate per the noun": {
        "entities": ["Ann", "Bo"],
        "initial_state": [
            {"entity": "Ann", "quantity": {"unit": "inches", "value": 6}},
            {"entity": "Bo", "quantity": {"unit": "inches", "value": 2}},
        ],
        "operations": [
            {"actor": "Ann", "kind": "add", "operand": {"unit": "fef", "value": 2}},
            {"actor": "Bo", "kind": "add", "operand": {"unit": "fef", "value": 1}},
            {"actor": "Ann", "kind": "divide", "operand": {"unit": "fef", "value": 2}},
            {
                "actor": "Ann",
                "kind": "apply_rate",
                "operand": {"value": 1, "numerator_unit": "dollars", "denominator_unit": "inches"},
            },
            {
                "actor": "Bo",
                "kind": "apply_rate",
                "operand": {"value": 1, "numerator_unit": "dollars", "denominator_unit": "fef"},
            },
        ],
        "unknown": {"entity": None, "unit": "dollars"},
    },
    "a divide and a partition": {
        "entities": ["Ann", "Bo"],
        "initial_state": [
            {"entity": "Ann", "quantity": {"unit": "yards", "value": 6}},
            {"entity": "Bo", "quantity": {"unit": "fef", "value": 2}},
        ],
        "operations": [
            {"actor": "Ann", "kind": "add", "operand": {"unit": "fef", "value": 6}},
            {"actor": "Ann", "kind": "divide", "operand": {"unit": "fef", "value": 2}},
            {
                "actor": "Ann",
                "kind": "unit_partition",
                "operand": {"value": 2, "unit": "yards", "result_unit": "boxes"},
            },
            {
                "actor": "Bo",
                "kind": "apply_rate",
                "operand": {"value": 1, "numerator_unit": "boxes", "denominator_unit": "fef"},
            },
        ],
        "unknown": {"entity": "Ann", "unit": "boxes"},
    },
}


CAUGHT_AT_THE_RATES_SIZE: Final = {
    "a divide and a rate per the noun": "but a conversion of the graph makes it worth 1 'dollars', and a share of it",
    "a divide and a partition": "but a conversion of the graph makes it worth 1 'boxes', and a share of it alone",
}
"""Stories a rate of 1 per the noun gives a worth, and that divide the noun: a share of it alone has no reading there."""


@pytest.mark.parametrize(("name", "story"), COINCIDENCES.items(), ids=COINCIDENCES.keys())
def test_a_reading_that_agrees_by_coincidence_is_caught_at_another_size(name: str, story: dict[str, object]) -> None:
    """10 cents and 10 bucks, halved, read as cents are 10 cents again: read as 2 cents a buck, 15 (or at 3)."""
    with pytest.raises(MathGraphError) as info:
        auto_count_nouns(story)
    message = str(info.value)
    if name in CAUGHT_AT_THE_RATES_SIZE:
        assert CAUGHT_AT_THE_RATES_SIZE[name] in message
    else:
        assert "as a unit of 2 " in message or "as a unit of 3 " in message


def test_a_graph_written_in_one_noun_only_is_kept() -> None:
    """8 mns and 2 more, asked in mns: whatever mns means, 10 of them (read as 2 minutes each, 20 minutes, 10 mns)."""
    data = {
        "entities": ["Ann"],
        "initial_state": [{"entity": "Ann", "quantity": {"unit": "mns", "value": 8}}],
        "operations": [_op("Ann", "add", unit="mns", value=2), _op("Ann", "add", unit="mns", value=0)],
        "unknown": {"entity": "Ann", "unit": "mns"},
    }
    answer = _answer(data)
    assert (answer.value, answer.unit) == (10, "mns")


def test_too_many_readings_to_check_are_input_too_large() -> None:
    """Past MAX_RESPELLING_WORK readings times steps, auto declaration refuses instead of taking minutes."""
    units = ["minutes", "dollars", "feet", "pounds", "cups", "apples", "pears", "plums", "figs"]
    data = {
        "entities": ["Ann"],
        "initial_state": [],
        "operations": [_op("Ann", "add", unit=units[i % len(units)], value=1) for i in range(999)],
        "unknown": {"entity": "Ann", "unit": "minutes"},
    }
    with pytest.raises(MathGraphError) as info:
        auto_count_nouns(data)
    assert info.value.reason == "input_too_large"


def _sam_and_kim(
    holding: tuple[str, object], operations: list[dict[str, Any]], kim: list[tuple[str, int]], asked: str
) -> dict[str, Any]:
    """Sam holds ``holding`` and does ``operations``; Kim holds ``kim``; the total in ``asked`` is asked."""
    unit, amount = holding
    return {
        "entities": ["Sam", "Kim"],
        "initial_state": [
            {"entity": "Sam", "quantity": {"unit": unit, "value": amount}},
            *({"entity": "Kim", "quantity": {"unit": u, "value": v}} for u, v in kim),
        ],
        "operations": operations,
        "unknown": {"entity": None, "unit": asked},
    }


def _coins(  # noqa: PLR0917 -- a table row reads best positionally
    holder: str, coins: int, rate: object, numerator: str, kim: list[tuple[str, int]], asked: str
) -> dict[str, Any]:
    """Sam holds ``coins`` of ``holder`` and converts them at ``rate`` ``numerator`` per coin; Kim holds ``kim``."""
    return _sam_and_kim((holder, coins), [_rate("Sam", rate, numerator, holder)], kim, asked)


@pytest.mark.parametrize(
    ("story", "as_written", "at_the_rate"),
    [
        (_coins("dimes", 4, 10, "cents", [("cents", 30), ("dimes", 2)], "cents"), "70", "90 as a unit of 10 'cents'"),
        (_coins("dimes", 4, 10, "cents", [("dimes", 2)], "cents"), "40", "60 as a unit of 10 'cents'"),
        (
            _coins("nickels", 40, "1/20", "dollars", [("dollars", 3), ("nickels", 20)], "dollars"),
            "5",
            "6 as a unit of 1/20 'dollars'",
        ),
    ],
    ids=["dimes beside cents and more dimes", "dimes beside more dimes", "nickels at 1/20 dollar"],
)
def test_a_noun_a_rate_converts_is_read_at_the_rates_size(
    story: dict[str, Any], as_written: str, at_the_rate: str
) -> None:
    """Review finding (2026-12-02): the rate fixes what a coin is worth, so Kim's dimes are read as cents too.

    At every size but the rate's own, the rate relates cents to cents and the reading was set
    aside, so 4 dimes at 10 cents a dime beside 30 cents and 2 more dimes were certified 70
    cents: Kim's dimes stayed out, by value or by count.
    """
    with pytest.raises(MathGraphError) as info:
        auto_count_nouns(story)
    assert info.value.reason == "unknown_unit"
    assert info.value.path == "initial_state[0].quantity.unit"
    assert f"{as_written} as a count noun of its own, {at_the_rate}" in str(info.value)


@pytest.mark.parametrize(
    ("story", "unit", "value"),
    [
        (_coins("boxes", 5, 12, "pencils", [], "pencils"), "pencils", 60),
        (_coins("dimes", 4, 10, "cents", [("cents", 30)], "cents"), "cents", 70),
        (_coins("nickels", 40, "1/20", "dollars", [("dollars", 3)], "dollars"), "dollars", 5),
    ],
    ids=["boxes of pencils", "dimes beside cents", "nickels beside dollars"],
)
def test_a_noun_only_its_rate_converts_is_kept(story: dict[str, Any], unit: str, value: int) -> None:
    """Read at the rate's size, the noun means the same answer: 5 boxes of 12 pencils are 60 pencils either way."""
    vocab = auto_count_nouns(story)
    (answer,) = verify(bind_math_problem_graph(graph_from_dict(story), vocab), vocab).answers.values()
    assert isinstance(answer, Answer)
    assert Fraction(answer.value) == value
    assert answer.unit == unit


def test_a_count_at_the_rates_size_that_is_not_whole_refuses_the_noun() -> None:
    """Review finding (2026-12-02): 5 boxes at 12 pencils a box, 1 more box and 1 loose pencil were 61 pencils.

    Read at the rate's own size (a pencil is 1/12 box) the loose pencil is no whole box;
    that refusal had been set aside as an artefact of the size, as for sizes 2 and 3.
    """
    story = _coins("boxes", 5, 12, "pencils", [], "pencils")
    story["operations"] += [
        {"actor": "Sam", "kind": "add", "operand": {"unit": "boxes", "value": 1}},
        {"actor": "Sam", "kind": "add", "operand": {"unit": "pencils", "value": 1}},
    ]
    with pytest.raises(MathGraphError) as info:
        auto_count_nouns(story)
    assert "61 as a count noun of its own, refused non_integer_count as a unit of 1/12 'boxes'" in str(info.value)


def _changed(  # noqa: PLR0917 -- a table row reads best positionally
    holding: tuple[str, int],
    chunk: int,
    result: str,
    after: list[dict[str, Any]],
    kim: list[tuple[str, int]],
    asked: str,
) -> dict[str, Any]:
    """Sam partitions ``holding`` into ``result`` of ``chunk`` each, then does ``after``; Kim holds ``kim``."""
    partition = _op("Sam", "unit_partition", value=chunk, unit=holding[0], result_unit=result)
    return _sam_and_kim(holding, [partition, *after], kim, asked)


_GIVES_A_THIRD: Final = {
    "actor": "Sam",
    "kind": "fraction_portion",
    "operand": {"numerator": 1, "denominator": 3, "referent": "them"},
}


@pytest.mark.parametrize(
    ("story", "as_written", "at_the_chunk"),
    [
        (_changed(("cents", 90), 10, "dimes", [], [("dimes", 2)], "cents"), "90", "110 as a unit of 10 'cents'"),
        (
            _changed(("minutes", 180), 45, "sessions", [], [("sessions", 2)], "minutes"),
            "180",
            "270 as a unit of 45 'minutes'",
        ),
        (
            _changed(("inches", 90), 30, "steps", [_op("Sam", "add", unit="steps", value=6)], [], "inches"),
            "90",
            "270 as a unit of 30 'inches'",
        ),
    ],
    ids=["cents into dimes beside dimes", "minutes into sessions beside sessions", "steps added"],
)
def test_a_noun_a_partition_gives_a_worth_is_read_at_the_chunks_size(
    story: dict[str, Any], as_written: str, at_the_chunk: str
) -> None:
    """Review finding (2026-12-02): a partition into a noun says what one of it is worth, as a rate does.

    At every other size the partition relates a kind to itself and the reading was set
    aside, so 90 cents changed into 10-cent dimes beside Kim's 2 dimes were certified 90
    cents in all (a reader says 110).
    """
    with pytest.raises(MathGraphError) as info:
        auto_count_nouns(story)
    assert info.value.reason == "unknown_unit"
    assert f"{as_written} as a count noun of its own, {at_the_chunk}" in str(info.value)


@pytest.mark.parametrize(
    ("story", "unit", "value"),
    [
        (_changed(("cents", 90), 10, "dimes", [], [("cents", 5)], "cents"), "cents", 95),
        (_changed(("cents", 90), 10, "dimes", [], [("dimes", 2)], "dimes"), "dimes", 11),
        (_changed(("apples", 48), 6, "bags", [], [], "bags"), "bags", 8),
    ],
    ids=["dimes beside cents", "dimes asked in dimes", "apples into bags"],
)
def test_a_noun_only_its_partition_gives_a_worth_is_kept(story: dict[str, Any], unit: str, value: int) -> None:
    """Read at the chunk's size the partition is an identity: 90 cents changed into dimes are 9 dimes either way."""
    answer = _answer(story)
    assert Fraction(answer.value) == value
    assert answer.unit == unit


_FOUND_30_CENTS: Final = _op("Sam", "add", unit="cents", value=30)


@pytest.mark.parametrize(
    ("story", "refusal"),
    [
        (
            _changed(("cents", 90), 10, "dimes", [_FOUND_30_CENTS, _GIVES_A_THIRD], [("dimes", 4)], "cents"),
            "120 as a count noun of its own; but a conversion of the graph makes it worth 10 'cents', and a share",
        ),
        (
            _changed(
                ("cents", 80), 10, "dimes", [_FOUND_30_CENTS, _op("Sam", "divide", unit="dimes", value=2)], [], "cents"
            ),
            "110 as a count noun of its own; but a conversion of the graph makes it worth 10 'cents', and a share",
        ),
        (
            _changed(("inches", 90), 30, "pieces", [_GIVES_A_THIRD], [], "pieces"),
            "2 as a count noun of its own; but a conversion of the graph makes it worth 30 'inches', and a share",
        ),
    ],
    ids=["a third of the dimes", "half the dimes", "a third of the pieces"],
)
def test_a_share_of_a_noun_a_conversion_gives_a_worth_refuses_the_noun(story: dict[str, Any], refusal: str) -> None:
    """Review finding (2026-12-03): read at its worth the noun joins the other unit, and a share of it alone is lost.

    90 cents into 10-cent dimes, 30 cents found, a third of the dimes given away, beside
    Kim's 4 dimes: read as cents, the third was taken of 120 cents, and the reading agreed
    with the graph as written (120) by coincidence; a reader says 130.
    """
    with pytest.raises(MathGraphError) as info:
        auto_count_nouns(story)
    assert info.value.reason == "unknown_unit"
    assert refusal in str(info.value)


_TWO_WORTHS: Final = {
    "cents and cent": _changed(
        ("cents", 90),
        10,
        "dimes",
        [_rate("Kim", 10, "cent", "dimes"), _op("Sam", "add", unit="dimes", value=2)],
        [("dimes", 1)],
        "cents",
    ),
    "minutes and hours": _changed(
        ("minutes", 180),
        45,
        "sessions",
        [_rate("Kim", "3/4", "hours", "sessions"), _op("Sam", "add", unit="sessions", value=2)],
        [("sessions", 2)],
        "minutes",
    ),
}


@pytest.mark.parametrize(("story"), _TWO_WORTHS.values(), ids=_TWO_WORTHS.keys())
def test_conversions_of_one_worth_in_two_spellings_read_the_noun_at_it(story: dict[str, Any]) -> None:
    """Review finding (2026-12-03): a partition into 10-cent dimes beside a rate of 10 ``cent`` a dime was never read.

    Each conversion, compared by surface, made the other relate a kind to itself, so every
    reading at the dime's worth was set aside and 90 cents, 2 more dimes and Kim's dime were
    certified 90 cents for Sam (a reader says 110).  Sizes now compare exactly across a
    kind's surfaces (3/4 hour is 45 minutes).
    """
    with pytest.raises(MathGraphError) as info:
        auto_count_nouns(story)
    assert "as a unit of" in str(info.value)


def test_two_worths_of_one_noun_refuse_it() -> None:
    """Review finding: Kim's tins hold 10 pencils and Sam's 12; 2 more of Kim's tins were certified 30 pencils."""
    story = {
        "entities": ["Kim", "Sam"],
        "initial_state": [
            {"entity": "Kim", "quantity": {"unit": "tins", "value": 3}},
            {"entity": "Sam", "quantity": {"unit": "tins", "value": 1}},
        ],
        "operations": [
            _rate("Kim", 10, "pencils", "tins"),
            _op("Kim", "add", unit="tins", value=2),
            _rate("Sam", 12, "pencils", "tins"),
        ],
        "unknown": {"entity": "Kim", "unit": "pencils"},
    }
    with pytest.raises(MathGraphError) as info:
        auto_count_nouns(story)
    assert "the graph's conversions give it more than one worth in 'pencils'" in str(info.value)


@pytest.mark.parametrize(
    ("noun", "named"),
    [
        ("degrees Celsius", "degrees"),
        ("Fahrenheit degrees", "Fahrenheit"),
        ("celsius degrees", "Celsius"),  # any case (review round 3)
        ("DEGREES CELSIUS", "degrees"),
        ("Celcius points", "Celcius"),  # a typo of an absolute temperature
        ("degrees F", "degrees"),
        ("Celcius", "Celcius"),  # one word too (review round 4)
        ("degreesCelsius", "degreesCelsius"),
        ("deg C", "deg"),
        ("centigrade", "centigrade"),
        ("second graders", None),
        ("cups of flour", None),
        ("census forms", None),  # two edits from Celsius
        ("Celtics fans", None),
    ],
)
def test_a_noun_naming_an_absolute_temperature_is_not_declared(noun: str, named: str | None) -> None:
    """Review finding (2026-12-03): ``degrees Celsius`` became a count, and 10 of them doubled were certified 20.

    The lexicon refuses that arithmetic on a reading (SPEC §3); a noun naming a measure of
    another kind (``second graders``) stays a count, left to the readings.
    """
    data = _story([("Ann", noun, 10)], [_op("Ann", "multiply", unit=noun, value=2)], ("Ann", noun))
    if named is None:
        assert Fraction(_answer(data).value) == 20
        return
    with pytest.raises(MathGraphError) as info:
        auto_count_nouns(data)
    assert info.value.reason == "unknown_unit"
    assert f"{noun!r} names the temperature unit {named!r}: a reading in it, or a count of its own?" in str(info.value)


@pytest.mark.parametrize(
    ("result", "named"),
    [
        ("half-dozens", "dozens"),
        ("dozen cartons", "dozen"),
        ("pairs of shoes", "pairs"),
        ("half-dozns", "dozns"),  # one edit from dozens (review round 4)
        ("halfdozens", "halfdozens"),
    ],
)
def test_a_partition_into_a_noun_naming_a_fixed_multiple_is_refused(result: str, named: str) -> None:
    """Review finding (2026-12-03): 36 eggs in chunks of 12 into ``half-dozens`` were certified 3.

    Declared automatically the noun is a kind of its own, so how many things one of it
    holds is not written; binding checks a ``dozen`` itself.
    """
    data = _changed(("eggs", 36), 12, result, [], [], result)
    with pytest.raises(MathGraphError) as info:
        auto_count_nouns(data)
    assert (info.value.reason, info.value.path) == ("unknown_unit", "operations[0].operand.result_unit")
    assert f"{result!r} names {named!r}" in str(info.value)


def test_a_partition_into_a_noun_near_no_multiple_is_kept() -> None:
    """``hair ties`` is one edit from ``pair ties``, but ``pair`` is too short to compare: 36 eggs in 12s are 3."""
    assert Fraction(_answer(_changed(("eggs", 36), 12, "hair ties", [], [], "hair ties")).value) == 3
