"""The near-miss distance is the true edit distance with swaps (units.nouns.edit_distance), checked by brute force."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from units.nouns import edit_distance, typo_apart

_WORDS = st.text(alphabet="abc", max_size=5)


def _brute(a: str, b: str, limit: int) -> int:
    """The fewest inserts, deletes, replacements and neighbour swaps from a to b (breadth first), capped at limit + 1."""
    letters = sorted(set(a + b)) or ["a"]
    seen, frontier = {a}, {a}
    for steps in range(limit + 1):
        if b in frontier:
            return steps
        following: set[str] = set()
        for word in frontier:
            for i in range(len(word) + 1):
                following.update(word[:i] + c + word[i:] for c in letters)
                if i < len(word):
                    following.add(word[:i] + word[i + 1 :])
                    following.update(word[:i] + c + word[i + 1 :] for c in letters)
                if i + 1 < len(word):
                    following.add(word[:i] + word[i + 1] + word[i] + word[i + 2 :])
        frontier = following - seen
        seen |= frontier
    return limit + 1


@settings(max_examples=300)
@given(_WORDS, _WORDS)
def test_edit_distance_is_the_fewest_edits(a: str, b: str) -> None:
    """Up to three edits, the distance is what a breadth-first search over single edits finds."""
    assert edit_distance(a, b, 3) == _brute(a, b, 3)


def test_a_swap_then_an_edit_is_two_edits() -> None:
    """The typo dolrls is two edits from dollars (swap, insert): a likely typo, as cnos of coins and fetme of feet."""
    assert edit_distance("dolrls", "dollars", 2) == 2
    assert typo_apart("dolrls", "dollars")
    assert typo_apart("fetme", "feet")
    assert edit_distance("ca", "abc", 3) == 2  # the optimal-string-alignment distance counts 3
