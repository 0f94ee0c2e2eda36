"""units.nouns.SurfaceIndex: the lexicon surfaces indexed once give near_misses the answers the plain list gives."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from units import default_vocabulary
from units.nouns import SurfaceIndex, near_misses

VOCAB = default_vocabulary()
SURFACES = VOCAB.surfaces()
INDEX = SurfaceIndex(SURFACES, kind=lambda surface: VOCAB.resolve(surface).kind)

CASES = [
    # nouns, context, the pair expected first (or None)
    (["feeet"], [], ("feeet", "feet")),
    (["minites"], ["hours"], ("minites", "minutes")),
    (["milrs"], ["miles"], ("milrs", "miles")),
    (["khz"], ["kHz"], ("khz", "kHz")),
    (["cards"], [], None),
    (["cards"], ["yards"], ("cards", "yards")),
    (["apples", "pears"], [], None),
]


def _kinds(context: list[str]) -> set[object]:
    return {VOCAB.resolve(c).kind for c in context}


def _plain(nouns: list[str], context: list[str]) -> list[tuple[str, str]]:
    in_use = _kinds(context)
    return near_misses(nouns, SURFACES, [*nouns, *context], kind_in_use=lambda s: VOCAB.resolve(s).kind in in_use)


@pytest.mark.parametrize(("nouns", "context", "first"), CASES)
def test_the_index_finds_what_the_list_finds(
    nouns: list[str], context: list[str], first: tuple[str, str] | None
) -> None:
    """The same pairs, in the same order, from the index with kinds as from the list with a predicate."""
    indexed = near_misses(nouns, INDEX, [*nouns, *context], kinds_in_use=_kinds(context))
    assert indexed == _plain(nouns, context)
    assert (indexed[0] if indexed else None) == first


_LETTERS = st.text(alphabet="abcdefghilmnorstuy", min_size=1, max_size=9)


@given(
    nouns=st.lists(_LETTERS, min_size=1, max_size=4),
    context=st.lists(st.sampled_from(["hours", "miles", "kg", "dollars", "feet", "liters"]), max_size=3),
)
def test_the_index_and_the_list_agree_on_any_nouns(nouns: list[str], context: list[str]) -> None:
    """For any nouns and units in use, the index and the plain list give the same near misses (the memo included)."""
    indexed = near_misses(nouns, INDEX, [*nouns, *context], kinds_in_use=_kinds(context))
    assert indexed == _plain(nouns, context)
    assert near_misses(nouns, INDEX, [*nouns, *context], kinds_in_use=_kinds(context)) == indexed  # memo hit


def test_one_edit_of_lexicon_is_remembered_and_bounded() -> None:
    """A noun looked up twice gives the same surface, and again after the memo filled up and was cleared."""
    index = SurfaceIndex(SURFACES)
    assert index.one_edit_of_lexicon("feeet") == "feet"
    assert index.one_edit_of_lexicon("feeet") == "feet"
    assert index.one_edit_of_lexicon("ab") is None  # too short to be a near miss
    for i in range(SurfaceIndex.MEMO_LIMIT + 5):
        index.one_edit_of_lexicon(f"zz{i:06d}")
    assert index.one_edit_of_lexicon("feeet") == "feet"  # asked again after the memo was cleared
    assert index.one_edit_of_lexicon("mlies") == "miles"


def test_of_kinds_and_folded_read_the_surfaces() -> None:
    """Surfaces of a kind come in lexicon order; a case-folded form finds its first surface."""
    hours = INDEX.of_kinds([VOCAB.resolve("hours").kind])
    assert {"hours", "minutes"} <= set(hours)
    assert "miles" not in hours
    assert hours == [s for s in SURFACES if s.isascii() and VOCAB.resolve(s).kind == VOCAB.resolve("hours").kind]
    assert INDEX.folded("khz") == "kHz"
    assert INDEX.folded("no such surface") is None
    assert SurfaceIndex(["m", "s"]).of_kinds(["anything"]) == []  # built without kinds


def test_repr_counts_surfaces_and_kinds() -> None:
    """The repr says how many surfaces and kinds the index holds."""
    assert repr(SurfaceIndex(["m", "km", "s"], kind=lambda s: "time" if s == "s" else "length")) == (
        "SurfaceIndex(3 surfaces, 2 kinds)"
    )


def test_kinds_need_an_index_and_exclude_a_predicate() -> None:
    """kinds_in_use without an index, or with kind_in_use too, is the caller's mistake: ValueError."""
    with pytest.raises(ValueError, match="SurfaceIndex"):
        near_misses(["feeet"], SURFACES, kinds_in_use=set())
    with pytest.raises(ValueError, match="not both"):
        near_misses(["feeet"], INDEX, kind_in_use=str.isupper, kinds_in_use=set())
