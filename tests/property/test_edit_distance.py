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


def _full_table(a: str, b: str, limit: int) -> int:
    """The whole Lowrance-Wagner table (the implementation before the band), capped at limit + 1: the reference."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    far = len(a) + len(b)
    last_row: dict[str, int] = {}
    table = [[far] * (len(b) + 2) for _ in range(len(a) + 2)]
    for i in range(len(a) + 1):
        table[i + 1][0], table[i + 1][1] = far, i
    for j in range(len(b) + 1):
        table[0][j + 1], table[1][j + 1] = far, j
    for i, ca in enumerate(a, start=1):
        last_match_col = 0
        for j, cb in enumerate(b, start=1):
            k, col = last_row.get(cb, 0), last_match_col
            cost = 0 if ca == cb else 1
            if cost == 0:
                last_match_col = j
            table[i + 1][j + 1] = min(
                table[i][j] + cost,
                table[i + 1][j] + 1,
                table[i][j + 1] + 1,
                table[k][col] + (i - k - 1) + 1 + (j - col - 1),
            )
        last_row[ca] = i
    return min(table[len(a) + 1][len(b) + 1], limit + 1)


@settings(max_examples=1500)
@given(st.text(alphabet="abcd", max_size=14), st.text(alphabet="abcd", max_size=14), st.integers(0, 4))
def test_the_band_gives_the_whole_table_s_capped_distance(a: str, b: str, limit: int) -> None:
    """Filling only the cells within limit of the diagonal changes no capped distance (long words, swaps, repeats)."""
    assert edit_distance(a, b, limit) == _full_table(a, b, limit)


def test_long_anagrams_are_compared_in_linear_work() -> None:
    """Two 120-letter anagrams: the band fills about 5 cells a letter, and the answer is the table's."""
    a = "abcdefghij" * 12
    b = "bacdefghij" * 12  # one swap in every ten letters: 12 edits
    assert edit_distance(a, b, 2) == 3 == _full_table(a, b, 2)
    assert edit_distance(a, a[:60] + a[61] + a[60] + a[62:], 2) == 1
    assert not typo_apart(a, b)
