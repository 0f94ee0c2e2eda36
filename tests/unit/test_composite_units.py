"""Composite units mean one unit: where a rate of a rate splits, and which names may not mean two units.

A wrong-answer hunt (own Fraction oracle) found ``apply_rate`` splitting a composite at
its lemma's first ``_per_``: 10 ``dollars per hour_per_people`` times 2
``hours_per_person`` was certified 20 dollars (its own proof read ``-> money/count^2``),
and 10 ``mph_per_%`` times 2 hours 1/5 mile.  A composite now carries the two units it
was resolved from (``UnitRef.per``), and the rate's quantity must be of its
denominator's kind (SPEC §5 apply_rate: ``X/Y`` times a ``Y`` is an ``X``).

Its reviews and a bad-input trial found more names that meant two units, each refused now:

* a unit over a pure number (``dollars_per_%``: 5 dollars + 3 of it had been 305 dollars);
* a declared lemma with the word ``per`` (``coin_per`` over ``bag`` and ``coin`` over
  ``per_bag`` are both ``coin_per_per_bag``);
* a noun's surface that is another unit's lemma (``half=item`` made 6 half over 2 hours
  3 items per hour; ``apple=pear`` beside ``apples=apple`` moved a price onto pears);
* a new lemma that is a side of a lexicon rate (``scoops=cubic_centimeter`` made grams
  over scoops a density).

And a result unit found by name must have the dimension its equation computes.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import pytest
import sympy

from adapters import MathGraphError, bind_math_problem_graph, graph_from_dict
from units import UnitRef, UnitRefusal, UnitVocabulary, default_vocabulary
from verifier import Answer, BindingGraph, Refusal, verify


@pytest.mark.parametrize(
    ("surface", "sides"),
    [
        ("mph_per_hours", ("mile_per_hour", "hour")),  # miles per hour, per hour
        ("dollars per hour_per_people", ("dollar_per_hour", "person")),
        ("dollars_per_mph", ("dollar", "mile_per_hour")),
        ("miles_per_hour", ("mile", "hour")),  # a composite the lexicon lists: its facts, and its sides
        ("mph", None),  # a lexicon entry has no sides recorded
        ("feet", None),
    ],
)
def test_a_composite_records_the_units_it_was_resolved_from(surface: str, sides: tuple[str, str] | None) -> None:
    """``UnitRef.per`` names the two sides of a composite (either may be a rate), ``None`` for a lexicon entry."""
    ref = default_vocabulary().resolve(surface)
    assert (None if ref.per is None else (ref.per[0].lemma, ref.per[1].lemma)) == sides


def _symbol(symbol_id: str, role: str, entity: str | None, unit: str | None) -> dict[str, object]:
    span = {"source_id": "rate_of_a_rate", "start": 0, "end": len(symbol_id), "text": symbol_id}
    return {
        "symbol_id": symbol_id,
        "name": symbol_id,
        "semantic_role": role,
        "source_span": span,
        "introduced_by": "test",
        "entity": entity,
        "unit": unit,
    }


def _graph(rate_unit: str, rate: int, quantity_unit: str, quantity: int, result_unit: str) -> BindingGraph:
    """Ana applies a rate to her quantity; Ben holds as much as her result (the hunt's shape: Ben is asked)."""
    span = {"source_id": "rate_of_a_rate", "start": 0, "end": 1, "text": "x"}
    return BindingGraph.from_json(
        {
            "symbols": [
                _symbol("entity_ana", "entity", "Ana", None),
                _symbol("entity_ben", "entity", "Ben", None),
                _symbol("op_000__rate", "rate", None, rate_unit),
                _symbol("q_ana_t0", "quantity", "Ana", quantity_unit),
                _symbol("op_000_result", "quantity", "Ana", result_unit),
                _symbol("op_001_result", "quantity", "Ben", result_unit),
                _symbol("unknown_ben", "unknown", "Ben", result_unit),
            ],
            "facts": [
                {"symbol_id": "op_000__rate", "value": str(rate), "unit": rate_unit, "source_span": span},
                {"symbol_id": "q_ana_t0", "value": str(quantity), "unit": quantity_unit, "source_span": span},
            ],
            "equations": [
                {
                    "lhs_symbol_id": "op_000_result",
                    "rhs_canonical": "op_000__rate*q_ana_t0",
                    "operation_kind": "apply_rate",
                    "source_span": span,
                },
                {
                    "lhs_symbol_id": "op_001_result",
                    "rhs_canonical": "op_000_result + 0",
                    "operation_kind": "compare_additive",
                    "source_span": span,
                    "literal_unit": result_unit,
                },
            ],
            "unknowns": [
                {
                    "symbol_id": "unknown_ben",
                    "expected_unit": result_unit,
                    "state_index": "terminal",
                    "question_form": "difference",
                    "question_span": span,
                }
            ],
        }
    )


@pytest.mark.parametrize(
    ("rate_unit", "quantity_unit", "result_unit", "detail"),
    [
        ("mph_per_hours", "percent", "mph", "q_ana_t0 is dimensionless; the rate mile_per_hour_per_hour is per time"),
        (
            "dollars per hour_per_people",
            "hours_per_person",
            "dollars",
            "q_ana_t0 is time/count; the rate dollar_per_hour_per_person is per count",
        ),
    ],
)
def test_a_quantity_of_the_wrong_kind_for_a_rate_of_a_rate_is_refused(
    rate_unit: str, quantity_unit: str, result_unit: str, detail: str
) -> None:
    """The hunt's two reproducers: 1/5 mile and 20 dollars had been certified; now the rate's equation refuses."""
    report = verify(_graph(rate_unit, 10, quantity_unit, 2, result_unit), default_vocabulary())
    verdict = report.verdicts["op_000_result"]
    assert verdict.refusal is not None
    assert (verdict.refusal.reason, verdict.refusal.detail) == ("rate_form_invalid", detail)
    (answer,) = report.answers.values()
    assert isinstance(answer, Refusal)
    assert answer.reason == "rate_form_invalid"


@pytest.mark.parametrize(
    ("rate", "quantity", "result_unit", "value"),
    [
        # speeding up by 10 mph per hour, for 3 hours: 30 mph
        (("mph_per_hours", 10), ("hours", 3), "mph", Fraction(30)),
        # ... for 90 minutes: 15 mph
        (("mph_per_hours", 10), ("minutes", 90), "mph", Fraction(15)),
        # 4 dollars per hour per person, for 3 people: 12 dollars per hour
        (("dollars per hour_per_people", 4), ("people", 3), "dollars per hour", Fraction(12)),
        # 3 dollars per mph at 60 mph: 180 dollars
        (("dollars_per_mph", 3), ("mph", 60), "dollars", Fraction(180)),
        # 3 dollars per mph at 100 km/h: 3 * 100 * 1000/1609.344 dollars, exactly
        (("dollars_per_mph", 3), ("kph", 100), "dollars", Fraction(300) * Fraction(1000) / Fraction("1609.344")),
    ],
)
def test_a_rate_of_a_rate_applies_to_its_own_denominator(
    rate: tuple[str, int], quantity: tuple[str, int], result_unit: str, value: Fraction
) -> None:
    """A quantity of the denominator's kind is admitted, converted exactly, and the answer is the numerator's unit."""
    report = verify(_graph(*rate, *quantity, result_unit), default_vocabulary())
    assert report.verdicts["op_000_result"].refusal is None
    (answer,) = report.answers.values()
    assert isinstance(answer, Answer)
    assert (answer.value, answer.unit) == (sympy.Rational(value.numerator, value.denominator), result_unit)


def _force(monkeypatch: pytest.MonkeyPatch, surface: str, ref: UnitRef) -> None:
    """Make every vocabulary resolve ``surface`` as ``ref`` (a unit no vocabulary builds), for defence-in-depth tests."""
    real = UnitVocabulary.resolve

    def resolve(self: UnitVocabulary, text: object, *, path: str = "") -> UnitRef:
        return ref if text == surface else real(self, text, path=path)

    monkeypatch.setattr(UnitVocabulary, "resolve", resolve)


def test_a_rate_whose_sides_disagree_with_its_dimension_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """Defence in depth: X/Y times a Y must have X's dimension, or the equation refuses (never a value in X).

    No vocabulary builds such a rate; one is forced here (``dollars_per_hour`` said to be
    dollars per person), and 3 of it times 2 people would otherwise be 6 dollars.
    """
    vocab = default_vocabulary()
    dollar, person = vocab.resolve("dollars"), vocab.resolve("people")
    _force(
        monkeypatch, "dollars_per_hour", dataclasses.replace(vocab.resolve("dollars_per_hour"), per=(dollar, person))
    )
    report = verify(_graph("dollars_per_hour", 3, "people", 2, "dollars"), vocab)
    verdict = report.verdicts["op_000_result"]
    assert verdict.refusal is not None
    assert verdict.refusal.reason == "rate_form_invalid"
    assert "not the rate's numerator dollar" in verdict.refusal.detail
    assert isinstance(next(iter(report.answers.values())), Refusal)


@pytest.mark.parametrize(
    "nouns",
    [
        {"coins per": "coin_per"},  # coin_per over bag ...
        {"per bag": "per_bag"},  # ... and coin over per_bag: both coin_per_per_bag
        ["coins per"],  # a derived lemma too
        ["per diems"],
        {"bits": "per"},
        {"coins": "coin_per_bag"},
    ],
)
def test_a_declared_lemma_has_no_word_per(nouns: dict[str, str] | list[str]) -> None:
    """A composite's lemma must split one way only, so no declared lemma has the word ``per``.

    The review of the rate fix found ``coins per`` (``coin_per``) divided by ``bags``
    certified in ``coin_per_per_bag``, read back as coins per ``per bag``; and
    ``apples_per_crumbs`` (``fa_per`` over ``fb``) taken for ``widgets_per_gadgets``
    (``fa`` over ``per_fb``), which share that lemma.
    """
    with pytest.raises(UnitRefusal) as caught:
        default_vocabulary().with_count_nouns(nouns)
    assert caught.value.reason == "malformed_input"
    assert "no word 'per'" in caught.value.detail


def test_a_lemma_with_per_inside_a_word_is_declared() -> None:
    """Only the word ``per`` is refused: ``paper``, ``pepper`` and ``perch`` are count nouns like any other."""
    vocab = default_vocabulary().with_count_nouns({"papers": "paper", "peppers": "pepper", "perches": "perch"})
    assert [vocab.resolve(s).lemma for s in ("papers", "peppers", "perches")] == ["paper", "pepper", "perch"]


@pytest.mark.parametrize("surface", ["mph_per_%", "dollars_per_%", "miles_per_½", "items_per_percent"])
def test_a_unit_over_a_pure_number_is_refused(surface: str) -> None:
    """``dollars_per_%`` reads as 100 dollars or as a rate per percent point: refused, never added to dollars.

    The bad-input trial had 5 dollars plus 3 ``dollars_per_%`` certified 305 dollars, and
    10 ``mph_per_%`` times 2 hours 2000 miles; the hunt had 10 ``mph_per_%`` times 2 hours
    certified 1/5 mile before the sides were recorded.
    """
    with pytest.raises(UnitRefusal) as caught:
        default_vocabulary().resolve(surface)
    assert caught.value.reason == "malformed_input"
    assert "over a pure number" in caught.value.detail


@pytest.mark.parametrize(
    ("nouns", "subject", "words"),
    [
        ({"half": "item"}, "half", "is the lemma of another unit"),
        ({"quarter": "coin"}, "quarter", "is the lemma of another unit"),
        ({"apple": "pear", "apples": "apple", "pears": "pear"}, "apple", "is the lemma of another unit"),
        ({"scoops": "cubic_centimeter"}, "cubic_centimeter", "a side of a lexicon rate (gram_per_cubic_centimeter)"),
        (["cubic feet"], "cubic_foot", "a side of a lexicon rate (pound_per_cubic_foot)"),
    ],
)
def test_a_name_that_would_mean_two_units_is_refused(
    nouns: dict[str, str] | list[str], subject: str, words: str
) -> None:
    """A noun's surface that is another unit's lemma, or a new lemma that is a lexicon rate's side, is refused."""
    with pytest.raises(UnitRefusal) as caught:
        default_vocabulary().with_count_nouns(nouns)
    assert (caught.value.reason, caught.value.subject) == ("malformed_input", subject)
    assert words in caught.value.detail


@pytest.mark.parametrize(
    "nouns",
    [
        {"apples": "apple", "apple": "apple"},  # a singular is its own lemma
        ["apples", "apple", "jumping jacks"],
        {"apples": "item"},  # onto an existing kind
        {"halves": "item"},  # not itself a lemma
    ],
)
def test_names_that_mean_one_unit_are_declared(nouns: dict[str, str] | list[str]) -> None:
    """The ordinary declarations still work, and each surface resolves to the lemma it was given."""
    vocab = default_vocabulary().with_count_nouns(nouns)
    expected = (
        nouns if isinstance(nouns, dict) else {"apples": "apple", "apple": "apple", "jumping jacks": "jumping_jack"}
    )
    assert {surface: vocab.resolve(surface).lemma for surface in expected} == expected


def _quotient_graph() -> BindingGraph:
    """12 apples over 3 boxes, the quotient asked in apples per box."""
    span = {"source_id": "rate_of_a_rate", "start": 0, "end": 1, "text": "x"}
    return BindingGraph.from_json(
        {
            "symbols": [
                _symbol("entity_ana", "entity", "Ana", None),
                _symbol("x", "quantity", None, "apples"),
                _symbol("s", "quantity", None, "boxes"),
                _symbol("r", "quantity", "Ana", None),
                _symbol("u", "unknown", "Ana", "apples_per_box"),
            ],
            "facts": [
                {"symbol_id": "x", "value": "12", "unit": "apples", "source_span": span},
                {"symbol_id": "s", "value": "3", "unit": "boxes", "source_span": span},
            ],
            "equations": [
                {
                    "lhs_symbol_id": "r",
                    "rhs_canonical": "x/s",
                    "operation_kind": "divide",
                    "source_span": span,
                    "operand_roles": {"s": "divisor", "x": "operand"},
                }
            ],
            "unknowns": [
                {
                    "symbol_id": "u",
                    "expected_unit": "apples_per_box",
                    "state_index": "terminal",
                    "question_form": "count",
                    "question_span": span,
                }
            ],
        }
    )


def test_a_quotient_is_answered_in_its_own_unit() -> None:
    """12 apples over 3 boxes: 4 apples per box (the control for the forced case below)."""
    vocab = default_vocabulary().with_count_nouns({"apples": "apple"})
    (answer,) = verify(_quotient_graph(), vocab).answers.values()
    assert not isinstance(answer, Refusal)
    assert (str(answer.value), answer.unit) == ("4", "apples_per_box")


def test_a_result_unit_that_disagrees_with_its_computation_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """Defence in depth: a quotient unit found by name must have the quotient's dimension (here forced to dollars)."""
    vocab = default_vocabulary().with_count_nouns({"apples": "apple"})
    _force(monkeypatch, "apple_per_box", dataclasses.replace(vocab.resolve("dollars"), surface="apple_per_box"))
    report = verify(_quotient_graph(), vocab)
    verdict = report.verdicts["r"]
    assert verdict.refusal is not None
    assert verdict.refusal.reason == "unit_mismatch"
    assert "its result unit dollar is money" in verdict.refusal.detail
    assert isinstance(next(iter(report.answers.values())), Refusal)


@pytest.mark.parametrize(
    ("numerator", "denominator", "refused_side"),
    [("dollars_per_hour", "years", "numerator"), ("dollars", "hours_per_day", "denominator")],
)
def test_a_math_graph_rate_side_written_as_a_composite_id_is_refused(
    numerator: str, denominator: str, refused_side: str
) -> None:
    """A math graph's rate side written as a composite id is refused where it is written, naming why.

    The rate's own id would be ``dollars_per_hour_per_years``, which splits two ways; it had
    been refused as ``apply_rate_unit_mismatch`` at the unknown, saying that the numerator
    asked for was neither side.  Written as a lexicon surface (``$/hr``), the side binds.
    """

    def bound(num: str, den: str) -> BindingGraph:
        return bind_math_problem_graph(
            graph_from_dict(
                {
                    "entities": ["Sam"],
                    "initial_state": [{"entity": "Sam", "quantity": {"value": 3, "unit": den}}],
                    "operations": [
                        {
                            "actor": "Sam",
                            "kind": "apply_rate",
                            "operand": {"value": 2, "numerator_unit": num, "denominator_unit": den},
                        }
                    ],
                    "unknown": {"entity": "Sam", "unit": num},
                }
            )
        )

    with pytest.raises(MathGraphError) as info:
        bound(numerator, denominator)
    assert info.value.reason == "unknown_unit"
    assert info.value.path == f"operations[0].operand.{refused_side}_unit"
    assert f"the rate's {refused_side} {(numerator if refused_side == 'numerator' else denominator)!r}" in str(
        info.value
    )
    (answer,) = verify(bound("$/hr", "years"), default_vocabulary()).answers.values()
    assert isinstance(answer, Answer)
    assert (answer.value, answer.unit) == (6, "$/hr")
