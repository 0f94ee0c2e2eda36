"""Declaring count kinds divisible: the accepted specs, what they mark, and what is refused."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from adapters.records import vocabulary_for
from evals.scoreboard import score
from units import UnitRefusal, default_vocabulary

BASE = default_vocabulary()


def test_a_declared_noun_marked_divisible() -> None:
    """A noun declared divisible resolves divisible, with both declarations cited; other nouns stay whole."""
    vocab = BASE.with_count_nouns({"pies": {"lemma": "pie", "divisible": True}, "apples": "apple"})
    assert vocab.divisible == ("pie",)
    assert vocab.resolve("pies").divisible
    assert vocab.resolve("pies").declarations == ("count_noun:pies=pie", "divisible:pie")
    assert not vocab.resolve("apples").divisible
    assert not BASE.resolve("bag").divisible


def test_a_lexicon_container_marked_divisible_keeps_its_kind() -> None:
    """A bag stays its own kind (no merging with items); every spelling of it becomes divisible."""
    vocab = BASE.with_count_nouns({"bags": {"lemma": "bag", "divisible": True}})
    for surface in ("bag", "bags"):
        assert vocab.resolve(surface).divisible
        assert vocab.resolve(surface).kind == BASE.resolve(surface).kind
    assert not vocab.resolve("box").divisible


def test_divisibility_survives_later_declarations_and_conventions() -> None:
    """The divisible flag survives later nouns and conventions, and is part of the vocabulary cache key."""
    vocab = BASE.with_count_nouns({"pies": {"lemma": "pie", "divisible": True}})
    assert vocab.with_count_nouns(["apples"]).resolve("pies").divisible
    assert vocab.with_conventions({"year": "365 day"}).resolve("pies").divisible
    assert vocab.with_count_nouns({"pies": {"lemma": "pie", "divisible": True}}) is vocab.with_count_nouns(
        {"pies": {"lemma": "pie", "divisible": True}}
    )
    assert BASE.with_count_nouns({"pies": "pie"}) is not vocab  # the flag is part of the cache key


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ({"dozens": {"lemma": "dozen", "divisible": True}}, "only a count kind"),
        ({"feet": {"lemma": "foot", "divisible": True}}, "only a count kind"),
        ({"pies": {"lemma": "pie", "divisible": "yes"}}, "divisible a bool"),
        ({"pies": {"lemma": 3, "divisible": True}}, "lemma must be a string"),
        ({"pies": {"divisible": True}}, "spec is"),
        ({"pies": {"lemma": "pie", "whole": False}}, "spec is"),
    ],
)
def test_bad_specs_are_refused(spec: dict[str, object], message: str) -> None:
    """A divisible non-count kind, a non-bool flag, a non-string lemma or a wrong key set is malformed_input."""
    with pytest.raises(UnitRefusal, match=message) as info:
        BASE.with_count_nouns(spec)
    assert info.value.reason == "malformed_input"


@pytest.mark.parametrize(
    "spec",
    [
        {"pizzas": {"lemma": "item", "divisible": True}},
        {"folks": {"lemma": "person", "divisible": True}},
        {"sackz": {"lemma": "bag", "divisible": True}},
        {"items": {"lemma": "item", "divisible": True}},
        {"people": {"lemma": "person", "divisible": True}},
    ],
    ids=["noun_onto_item", "noun_onto_person", "noun_onto_bag", "items", "people"],
)
def test_divisibility_never_reaches_a_lexicon_kind_through_another_name(spec: dict[str, object]) -> None:
    """Divisibility reaches no lexicon kind but a container named by itself, or a kind of one's own.

    Review: 'pizzas=item:divisible' made every item (and '7 apples halved') fractional.
    """
    with pytest.raises(UnitRefusal) as info:
        BASE.with_count_nouns(spec)
    assert info.value.reason == "malformed_input"


def test_a_divisible_kind_is_not_undeclared_silently() -> None:
    """Redeclaring a divisible kind as not divisible is refused; another divisible name for it is accepted."""
    vocab = BASE.with_count_nouns({"pies": {"lemma": "pie", "divisible": True}})
    with pytest.raises(UnitRefusal, match="both divisible and not divisible"):
        vocab.with_count_nouns({"pies": {"lemma": "pie", "divisible": False}})
    assert vocab.with_count_nouns({"tarts": {"lemma": "pie", "divisible": True}}).resolve("tarts").divisible


def test_declarations_rebuild_the_vocabulary() -> None:
    """declarations() is a record's vocab: applied to the default it gives the same units (workers rebuild so)."""
    vocab = BASE.with_count_nouns(
        {"pies": {"lemma": "pie", "divisible": True}, "bags": {"lemma": "bag", "divisible": True}, "apples": "apple"}
    ).with_conventions({"year": "365 day"})
    rebuilt = vocabulary_for({"vocab": vocab.declarations()})
    for surface in ("pies", "pie", "bags", "bag", "apples", "box", "items"):
        a, b = vocab.resolve(surface), rebuilt.resolve(surface)
        assert (a.lemma, a.scale, a.divisible) == (b.lemma, b.scale, b.divisible), surface
    assert rebuilt.conventions == vocab.conventions


def test_score_on_processes_keeps_divisibility(tmp_path: Path) -> None:
    """Review: score --processes rebuilt workers without the divisible flag (3 correct became refused)."""
    graph = {
        "entities": ["Ana"],
        "initial_state": [{"entity": "Ana", "quantity": {"unit": "pies", "value": "3/4"}}],
        "operations": [],
        "unknown": {"entity": "Ana", "unit": "pies"},
    }
    record = {"id": "pie", "format": "math_graph", "input": graph, "expect": {"answer": "3/4", "unit": "pies"}}
    path = tmp_path / "pies.jsonl"
    path.write_text(json.dumps(record) + "\n")
    vocab = BASE.with_count_nouns({"pies": {"lemma": "pie", "divisible": True}})
    one = score(path, vocab=vocab, processes=1)
    two = score(path, vocab=vocab, processes=2)
    assert one.counts["correct"] == two.counts["correct"] == 1


def test_not_divisible_is_remembered_across_declarations() -> None:
    """Review round 3: 'divisible: false' then 'divisible: true' in a later call certified 3/4 tarts."""
    whole = BASE.with_count_nouns({"tarts": {"lemma": "pie", "divisible": False}})
    assert not whole.resolve("tarts").divisible
    for later in ({"pies": {"lemma": "pie", "divisible": True}}, {"tarts": {"lemma": "pie", "divisible": True}}):
        with pytest.raises(UnitRefusal, match="both divisible and not divisible"):
            whole.with_count_nouns(later)
    with pytest.raises(UnitRefusal, match="both divisible and not divisible"):
        whole.with_conventions({"year": "365 day"}).with_count_nouns({"pies": {"lemma": "pie", "divisible": True}})
