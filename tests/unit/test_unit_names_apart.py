"""Every unit name means one unit, however it is looked up (a review of the rate fix, 2026-12-01).

A lemma is looked up as a surface where a composite is built or split, and surfaces
are looked up first.  The review certified three wrong answers through declarations:

* ``half=item``: 6 half over 2 hours made 3 items per hour (½ read as an item);
* ``scoops=cubic_centimeter``: 50 grams over 10 scoops made a density, 5 g/cm³;
* ``apple=pear`` beside ``apples=apple``: a price per apple became a price per pear.

Each declaration is refused now, and a result unit found by name must have the
dimension its equation computes.
"""

from __future__ import annotations

import dataclasses

import pytest

from units import UnitRefusal, UnitVocabulary, default_vocabulary
from verifier import BindingGraph, Refusal, verify


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


def _symbol(symbol_id: str, role: str, entity: str | None, unit: str | None) -> dict[str, object]:
    span = {"source_id": "names_apart", "start": 0, "end": len(symbol_id), "text": symbol_id}
    return {
        "symbol_id": symbol_id,
        "name": symbol_id,
        "semantic_role": role,
        "source_span": span,
        "introduced_by": "test",
        "entity": entity,
        "unit": unit,
    }


def _quotient_graph() -> BindingGraph:
    """12 apples over 3 boxes, the quotient asked in apples per box."""
    span = {"source_id": "names_apart", "start": 0, "end": 1, "text": "x"}
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
    real = UnitVocabulary.resolve
    dollars = dataclasses.replace(real(vocab, "dollars"), surface="apple_per_box")

    def resolve(self: UnitVocabulary, surface: object, *, path: str = "") -> object:
        return dollars if surface == "apple_per_box" else real(self, surface, path=path)

    monkeypatch.setattr(UnitVocabulary, "resolve", resolve)
    report = verify(_quotient_graph(), vocab)
    verdict = report.verdicts["r"]
    assert verdict.refusal is not None
    assert verdict.refusal.reason == "unit_mismatch"
    assert "its result unit dollar is money" in verdict.refusal.detail
    assert isinstance(next(iter(report.answers.values())), Refusal)
