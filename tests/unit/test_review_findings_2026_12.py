"""What the review of the codebase-health change found (own Fraction oracle; bad-input trial), each pinned.

None came from the change itself (each was certified before it too), and each is a lane
case too (soundness-099 to soundness-114; a second review found 109-114):

1. A temperature is a reading, not an amount, in every unit: a sum over temperatures is
   one reading plus or minus changes (the readings' coefficients add up to exactly 1), so
   two readings do not add, a difference of readings is no reading, and a change alone is
   none; a temperature is not transferred; a reading is no factor, dividend, divisor, rate
   quantity or partition (Kelvin and unscaled degrees alike).
2. Canonical-text call forms: a comparison's direction must fit its kind; a call's
   number must be its one listed operand's fact (``multiply(Sam, 3 dollars)`` beside a
   multiplicand of 5 was certified 20 dollars, silently), units compared by what they
   name; an ``apply_rate`` applies to the actor's own quantity.
3. Two unknowns of one symbol are refused (the last one had silently won).
4. A relational ``more_than``/``fewer_than`` delta is not negative (the kind carries the sign).
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest

from adapters import (
    AdapterError,
    InitialPossession,
    MathGraphError,
    MathProblemGraph,
    Operation,
    Quantity,
    Unknown,
    auto_count_nouns,
    bind_math_problem_graph,
    bind_relations,
    graph_from_dict,
    parse_canonical_text,
)
from units import default_vocabulary
from verifier import Answer, Refusal, verify


def _graph(initial: list[tuple[str, str, int]], operations: list[dict[str, object]], asked: str) -> dict[str, object]:
    return {
        "entities": sorted({e for e, _, _ in initial} | {str(op["actor"]) for op in operations}),
        "initial_state": [{"entity": e, "quantity": {"unit": u, "value": v}} for e, u, v in initial],
        "operations": operations,
        "unknown": {"entity": asked, "unit": initial[0][1]},
    }


def _answer(data: dict[str, object]) -> Answer | Refusal:
    vocab = default_vocabulary()
    (answer,) = verify(bind_math_problem_graph(graph_from_dict(data), vocab), vocab).answers.values()
    return answer


@pytest.mark.parametrize(
    ("operation", "expected"),
    [
        ({"actor": "A", "kind": "add", "operand": {"unit": "Kelvin", "value": 5}}, "305"),  # a reading plus a change
        ({"actor": "A", "kind": "subtract", "operand": {"unit": "K", "value": 20}}, "280"),
    ],
)
def test_a_reading_still_changes_by_an_amount(operation: dict[str, object], expected: str) -> None:
    """300 K plus 5 K is 305 K and less 20 K is 280 K: a change is no reading."""
    answer = _answer(_graph([("A", "Kelvin", 300), ("B", "Kelvin", 200)], [operation], "A"))
    assert isinstance(answer, Answer)
    assert str(answer.value) == expected


def test_a_reading_compared_by_a_change_stays() -> None:
    """C, 7 K warmer than B's 200 K, is 207 K: a reading plus a change."""
    operation: dict[str, object] = {
        "actor": "C",
        "kind": "compare_additive",
        "operand": {"reference_actor": "B", "direction": "more", "delta": {"unit": "K", "value": 7}},
    }
    data = _graph([("B", "Kelvin", 200)], [operation], "C")
    answer = _answer(data)
    assert isinstance(answer, Answer)
    assert str(answer.value) == "207"


def test_a_transfer_of_a_temperature_is_refused() -> None:
    """10 K "moved" from A to B is no temperature of B's: offset_unit_arithmetic (temperatures are not amounts)."""
    operation: dict[str, object] = {
        "actor": "A",
        "kind": "transfer",
        "target": "B",
        "operand": {"unit": "Kelvin", "value": 10},
    }
    answer = _answer(_graph([("A", "Kelvin", 300), ("B", "Kelvin", 200)], [operation], "B"))
    assert isinstance(answer, Refusal)
    assert answer.reason == "offset_unit_arithmetic"


@pytest.mark.parametrize("unit", ["Kelvin", "degrees"])
def test_a_reading_is_not_scaled_in_any_unit(unit: str) -> None:
    """Twice 20 K and twice 20 unscaled degrees are refused alike (degrees had been certified as 40)."""
    operation: dict[str, object] = {"actor": "A", "kind": "multiply", "operand": {"unit": unit, "value": 2}}
    answer = _answer(_graph([("A", unit, 20)], [operation], "A"))
    assert isinstance(answer, Refusal)
    assert answer.reason == "unit_mismatch"


def _relations(relations: list[dict[str, object]], unit: str) -> Answer | Refusal:
    vocab = default_vocabulary().with_count_nouns({"stickers": "sticker"})
    graph = bind_relations(relations, {"entity": "c", "unit": unit}, vocab=vocab)
    (answer,) = verify(graph, vocab).answers.values()
    return answer


def test_two_readings_do_not_add_but_a_reading_less_a_change_stays() -> None:
    """A sum c = a + b of 300 K and 30 K is refused; c = a - 30 K (a reading less a change) is 270 K."""
    facts = [{"kind": "fact", "entity": "a", "value": 300}, {"kind": "fact", "entity": "b", "value": 30}]
    summed = _relations([*facts, {"kind": "sum_of", "entity": "c", "parts": ["a", "b"]}], "Kelvin")
    assert isinstance(summed, Refusal)
    assert summed.reason == "offset_unit_arithmetic"
    less = _relations([facts[0], {"kind": "fewer_than", "entity": "c", "ref": "a", "delta": 30}], "Kelvin")
    assert isinstance(less, Answer)
    assert str(less.value) == "270"


@pytest.mark.parametrize("kind", ["more_than", "fewer_than"])
def test_a_negative_relational_delta_is_refused(kind: str) -> None:
    """more_than/fewer_than carry the sign: a delta of -3 is malformed_input at its field."""
    with pytest.raises(AdapterError) as info:
        _relations(
            [{"kind": "fact", "entity": "a", "value": 6}, {"kind": kind, "entity": "c", "ref": "a", "delta": -3}],
            "stickers",
        )
    assert (info.value.reason, info.value.path) == ("malformed_input", "relations[1].delta")


_TEXT = """S entity_ann Ann entity entity=Ann unit=None span=m[0:3] by=b
S entity_bo Bo entity entity=Bo unit=None span=m[0:2] by=b
S q_bo_items_t0 Bo.items@t0 quantity entity=Bo unit=items span=m[0:11] by=b
S op_000_result op0.{kind}.Ann quantity entity=Ann unit=None span=m[0:32] by=b
S unknown_ann_items Ann|items unknown entity=Ann unit=items span=m[0:9] by=b
F q_bo_items_t0 = 8 unit=items span=m[0:11]
E op_000_result := {kind}(Ann, {call}) op={kind} deps=[] unit_proof=unverified status=pending refusal=None span=m[0:32]
U unknown_ann_items expected_unit=items state=terminal form={form} qspan=m[0:9]"""


@pytest.mark.parametrize(
    ("kind", "call", "form", "expected"),
    [
        ("compare_multiplicative", "times(Bo, factor=2)", "ratio", "16"),
        ("compare_multiplicative", "fraction(Bo, factor=0.5)", "ratio", "4"),  # upstream writes the fraction itself
        ("compare_additive", "more(Bo, delta=3 items)", "difference", "11"),
        ("compare_additive", "fewer(Bo, delta=3 items)", "difference", "5"),
    ],
)
def test_upstream_comparison_calls_still_read(kind: str, call: str, form: str, expected: str) -> None:
    """The call forms upstream writes read as before: times 2 is 16, fraction 0.5 is 4, more 3 is 11, fewer 3 is 5."""
    graph, _ = parse_canonical_text(_TEXT.format(kind=kind, call=call, form=form))
    (answer,) = verify(graph).answers.values()
    assert isinstance(answer, Answer)
    assert str(answer.value) == expected


@pytest.mark.parametrize(
    ("kind", "call", "form"),
    [
        ("compare_multiplicative", "fraction(Bo, factor=2)", "ratio"),
        ("compare_multiplicative", "times(Bo, factor=0)", "ratio"),
        ("compare_multiplicative", "fewer(Bo, factor=2)", "ratio"),
        ("compare_additive", "times(Bo, delta=2 items)", "difference"),
        ("compare_additive", "more(Bo, delta=-2 items)", "difference"),
        ("compare_additive", "more(Bo, factor=2)", "difference"),
    ],
)
def test_a_comparison_call_that_disagrees_with_its_kind_is_refused(kind: str, call: str, form: str) -> None:
    """A direction or argument that does not fit the kind, a factor not positive, a 'fraction' of 1 or more: refused."""
    with pytest.raises(AdapterError) as info:
        parse_canonical_text(_TEXT.format(kind=kind, call=call, form=form))
    assert (info.value.reason, info.value.path) == ("malformed_input", "line 7")


_MULTIPLY = """S entity_sam Sam entity entity=Sam unit=None span=m[0:3] by=b
S q_sam_dollars_t0 Sam.dollars@t0 quantity entity=Sam unit=dollars span=m[0:11] by=b
S op_000__multiplicand op0.literal.dollars quantity entity=None unit=dollars span=m[0:11] by=b
S op_000_result op0.multiply.Sam quantity entity=Sam unit=None span=m[0:21] by=b
S unknown_sam_dollars Sam|dollars unknown entity=Sam unit=dollars span=m[0:11] by=b
F q_sam_dollars_t0 = 4 unit=dollars span=m[0:11]
F op_000__multiplicand = {fact} unit={fact_unit} span=m[0:21]
E op_000_result := multiply(Sam, {written}) op=multiply deps=[op_000__multiplicand,q_sam_dollars_t0] unit_proof=unverified status=pending refusal=None span=m[0:21]
U unknown_sam_dollars expected_unit=dollars state=terminal form=count qspan=m[0:11]"""


def test_a_multiply_call_reads_its_fact_when_they_agree() -> None:
    """multiply(Sam, 3 dollars) over a multiplicand fact of 3 dollars reads as upstream writes it: state x scalar."""
    graph, _ = parse_canonical_text(_MULTIPLY.format(fact=3, fact_unit="dollars", written="3 dollars"))
    (equation,) = graph.equations
    assert equation.rhs_canonical == "op_000__multiplicand*q_sam_dollars_t0"


@pytest.mark.parametrize(
    ("fact", "fact_unit", "written"),
    [(5, "dollars", "3 dollars"), (3, "cents", "3 dollars"), (3, "None", "3 apples")],
)
def test_a_multiply_call_that_disagrees_with_its_fact_or_state_is_refused(
    fact: int, fact_unit: str, written: str
) -> None:
    """Another number, another unit than the fact's, or a unit other than the state's: the line disagrees."""
    with pytest.raises(AdapterError) as info:
        parse_canonical_text(_MULTIPLY.format(fact=fact, fact_unit=fact_unit, written=written))
    assert (info.value.reason, info.value.path) == ("malformed_input", "line 8")


def test_two_unknowns_of_one_symbol_are_refused() -> None:
    """A second U line for the same symbol (another state) is malformed_input, not a silent choice."""
    text = _MULTIPLY.format(fact=3, fact_unit="dollars", written="3 dollars")
    again = text.splitlines()[-1].replace("state=terminal", "state=initial")
    with pytest.raises(AdapterError) as info:
        parse_canonical_text(text + "\n" + again)
    assert info.value.reason == "malformed_input"
    assert "asked by two unknowns" in info.value.detail


_READINGS = """S entity_a A entity entity=A unit=None span=t[0:1] by=t
S a A.t quantity entity=A unit=Kelvin span=t[0:1] by=t
S b B.t quantity entity=B unit=Kelvin span=t[0:1] by=t
S c C.t quantity entity=C unit=Kelvin span=t[0:1] by=t
S r A.r quantity entity=A unit=Kelvin span=t[0:1] by=t
S u A|r unknown entity=A unit=Kelvin span=t[0:1] by=t
F a = 300 unit=Kelvin span=t[0:1]
F b = 30 unit=Kelvin span=t[0:1]
F c = 10 unit=Kelvin span=t[0:1]
E r := {rhs} op={op} deps=[{deps}]{lit} unit_proof=unverified status=pending refusal=None span=t[0:1]
U u expected_unit=Kelvin state=terminal form=count qspan=t[0:1]"""


@pytest.mark.parametrize(
    ("rhs", "op", "deps", "lit", "expected"),
    [
        ("a + 5", "add", "a", " literal_unit=Kelvin", "305"),
        ("a - 5", "subtract", "a", " literal_unit=Kelvin", "295"),
        ("a + b", "add", "a,b", "", None),
        ("a - b", "subtract", "a,b", "", None),  # a difference of readings is no reading
        ("a - b - c", "subtract", "a,b,c", "", None),  # a reading less a sum of readings
        ("5", "add", "", " literal_unit=Kelvin", None),  # a change alone: a reading does not start from 0
    ],
)
def test_a_sum_over_temperatures_is_one_reading_plus_changes(
    rhs: str, op: str, deps: str, lit: str, expected: str | None
) -> None:
    """The readings' coefficients must add up to exactly 1; any other sum is offset_unit_arithmetic."""
    graph, _ = parse_canonical_text(_READINGS.format(rhs=rhs, op=op, deps=deps, lit=lit))
    (answer,) = verify(graph).answers.values()
    if expected is None:
        assert isinstance(answer, Refusal)
        assert answer.reason == "offset_unit_arithmetic"
    else:
        assert isinstance(answer, Answer)
        assert str(answer.value) == expected


def test_a_multiply_call_must_list_one_multiplicand() -> None:
    """A multiply call beside an operand of another suffix, or two multiplicands, is refused: no silent number."""
    text = _MULTIPLY.format(fact=3, fact_unit="dollars", written="3 dollars").replace(
        "deps=[op_000__multiplicand,q_sam_dollars_t0]", "deps=[op_000__scale,q_sam_dollars_t0]"
    )
    text = text.replace("S op_000__multiplicand ", "S op_000__scale ").replace(
        "F op_000__multiplicand ", "F op_000__scale "
    )
    with pytest.raises(AdapterError, match="one \\*__multiplicand dependency"):
        parse_canonical_text(text)


@pytest.mark.parametrize(("fact_unit", "written"), [("dollar", "3 dollars"), ("$", "3 dollars"), ("dollars", "3 $")])
def test_a_multiply_call_compares_units_by_what_they_name(fact_unit: str, written: str) -> None:
    """Dollar, dollars and $ name one unit: the call reads (the state is in dollars)."""
    graph, _ = parse_canonical_text(_MULTIPLY.format(fact=3, fact_unit=fact_unit, written=written))
    (equation,) = graph.equations
    assert equation.rhs_canonical == "op_000__multiplicand*q_sam_dollars_t0"


_RATE = """S entity_eve Eve entity entity=Eve unit=None span=m[0:3] by=b
S entity_kim Kim entity entity=Kim unit=None span=m[0:3] by=b
S q_eve_hours_t0 Eve.hours@t0 quantity entity=Eve unit=hours span=m[0:12] by=b
S q_kim_hours_t0 Kim.hours@t0 quantity entity=Kim unit=hours span=m[0:12] by=b
S op_000_result op0.apply_rate.Eve quantity entity=Eve unit=None span=m[0:20] by=b
S op_000__rate op0.rate rate entity=None unit={rate_unit} span=m[0:28] by=b
S unknown_eve_dollars Eve|dollars unknown entity=Eve unit=dollars span=m[0:11] by=b
F q_eve_hours_t0 = 8 unit=hours span=m[0:12]
F q_kim_hours_t0 = 100 unit=hours span=m[0:12]
F op_000__rate = 15 unit={rate_unit} span=m[0:28]
E op_000_result := apply_rate(Eve, 15 {written}) op=apply_rate deps=[op_000__rate,{quantity}] unit_proof=unverified status=pending refusal=None span=m[0:20]
U unknown_eve_dollars expected_unit=dollars state=terminal form=total qspan=m[0:11]"""


@pytest.mark.parametrize(
    ("rate_unit", "written"),
    [
        ("dollars_per_hours", "dollars/hours"),
        ("dollar_per_hour", "dollars/hours"),
        ("dollars_per_hours", "dollars/hour"),
    ],
)
def test_a_rate_call_reads_in_any_spelling_of_its_unit(rate_unit: str, written: str) -> None:
    """15 dollars an hour over Eve's 8 hours is 120 dollars, however the rate's unit is spelt."""
    text = _RATE.format(rate_unit=rate_unit, written=written, quantity="q_eve_hours_t0")
    (answer,) = verify(parse_canonical_text(text)[0]).answers.values()
    assert isinstance(answer, Answer)
    assert str(answer.value) == "120"


def test_a_rate_call_applies_to_the_actors_own_quantity() -> None:
    """apply_rate(Eve, ...) over Kim's 100 hours is refused (it had been certified 1500 dollars)."""
    text = _RATE.format(rate_unit="dollars_per_hours", written="dollars/hours", quantity="q_kim_hours_t0")
    with pytest.raises(AdapterError, match="one quantity of Eve's"):
        parse_canonical_text(text)


@pytest.mark.parametrize(
    ("fact_unit", "symbol_unit", "written"),
    [("None", "percent", "3 dollars"), ("None", "dollars", "3 dollars"), ("dollars", "percent", "3 dollars")],
)
def test_a_multiplicand_whose_fact_and_symbol_disagree_is_refused(
    fact_unit: str, symbol_unit: str, written: str
) -> None:
    """A unitless fact on a symbol in percent had been read as 3 % (3/25 dollars certified): the parts must agree."""
    text = _MULTIPLY.format(fact=3, fact_unit=fact_unit, written=written).replace(
        "op0.literal.dollars quantity entity=None unit=dollars", f"op0.literal quantity entity=None unit={symbol_unit}"
    )
    with pytest.raises(AdapterError, match="the line disagrees with the facts"):
        parse_canonical_text(text)


@pytest.mark.parametrize("call", ["multiply(Sam, 3 hours)", "divide(Sam, 4 hours)", "multiply(Sam, 3 apples)"])
def test_a_call_with_no_operand_names_its_state(call: str) -> None:
    """With no operand listed, the written number is the scalar and its unit must be the state's (dollars)."""
    text = _MULTIPLY.format(fact=3, fact_unit="dollars", written="3 dollars")
    kind = call.split("(", 1)[0]
    line = next(x for x in text.splitlines() if x.startswith("E "))
    bare = f"E op_000_result := {call} op={kind} deps=[q_sam_dollars_t0]" + line.split("]", 1)[1]
    with pytest.raises(AdapterError, match="but the state it scales, q_sam_dollars_t0, is in dollars"):
        parse_canonical_text(text.replace(line, bare))


@pytest.mark.parametrize("call", ["multiply(Sam, 3 percent)", "divide(Sam, 3 percent)"])
def test_a_scalar_labelled_in_percent_is_refused(call: str) -> None:
    """A multiplicand or divisor labelled in percent reads as 3 or as 3 %: refused rather than guessed."""
    kind = call.split("(", 1)[0]
    suffix = "__multiplicand" if kind == "multiply" else "__divisor"
    text = (
        _MULTIPLY.format(fact=3, fact_unit="percent", written="3 percent")
        .replace(
            "op0.literal.dollars quantity entity=None unit=dollars", "op0.literal quantity entity=None unit=percent"
        )
        .replace("multiply(Sam, 3 percent) op=multiply", f"{call} op={kind}")
        .replace("op_000__multiplicand", f"op_000{suffix}")
    )
    with pytest.raises(AdapterError, match="is ambiguous"):
        parse_canonical_text(text)


def test_a_typo_two_edits_away_with_a_swap_is_no_count_kind_of_its_own() -> None:
    """Under auto count nouns, 'dolrls' (swap plus insert of 'dollars') is refused, not a kind left out of the total."""
    data = _graph([("Ana", "dollars", 7), ("Ben", "dolrls", 18)], [], "Ana")
    with pytest.raises(AdapterError) as info:
        auto_count_nouns(graph_from_dict(data), default_vocabulary())
    assert (info.value.reason, info.value.path) == ("unknown_unit", "initial_state[1].quantity.unit")
    assert "did you mean 'dollars'" in str(info.value)


@pytest.mark.parametrize("number", [2.5, Decimal("2.5"), "3", True, None])
def test_a_graph_built_in_python_refuses_a_number_of_another_type(number: object) -> None:
    """Review 6: a hand-built quantity of 2.5 or ``Decimal`` raised ``AttributeError`` at binding, and ``True`` bound as 1."""
    with pytest.raises(MathGraphError) as caught:
        MathProblemGraph(
            entities=("Sam",),
            initial_state=(InitialPossession(entity="Sam", quantity=Quantity(value=Fraction(3), unit="dollars")),),
            operations=(Operation(actor="Sam", kind="add", operand=Quantity(value=number, unit="dollars")),),  # type: ignore[arg-type]
            unknown=Unknown(entity="Sam", unit="dollars"),
        )
    assert caught.value.reason == "malformed_input"
    assert caught.value.path == "operations[0].operand.value"


def test_a_graph_built_in_python_takes_ints_and_fractions() -> None:
    """Ints and Fractions stay accepted (the field is a Fraction; an int is exact)."""
    graph = MathProblemGraph(
        entities=("Sam",),
        initial_state=(InitialPossession(entity="Sam", quantity=Quantity(value=3, unit="dollars")),),  # type: ignore[arg-type]
        operations=(Operation(actor="Sam", kind="add", operand=Quantity(value=Fraction(7, 2), unit="dollars")),),
        unknown=Unknown(entity="Sam", unit="dollars"),
    )
    assert [eq.rhs_canonical for eq in bind_math_problem_graph(graph).equations] == ["q_sam_dollars_t0 + 7/2"]
