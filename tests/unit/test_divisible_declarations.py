"""Declaring count kinds divisible: the accepted specs, what they mark, and what is refused."""

from __future__ import annotations

import pytest

from units import UnitRefusal, default_vocabulary

BASE = default_vocabulary()


def test_a_declared_noun_marked_divisible() -> None:
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
    with pytest.raises(UnitRefusal, match=message) as info:
        BASE.with_count_nouns(spec)  # type: ignore[arg-type]
    assert info.value.reason == "malformed_input"
