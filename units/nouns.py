"""Count nouns as readers write them: singular and plural forms, derived lemmas, and near misses.

A reader writes the count nouns of a problem as they appear in its text
(``"apples"``, ``"Apple"``, ``"jumping jacks"``).  Declaring them as count kinds
(SPEC §3, §5 "Count nouns") needs three pieces of knowledge, all here:

* :func:`singular_candidates` — the possible singulars of a word, by English plural
  rules plus the small irregular table :data:`IRREGULAR_PLURALS`;
* :func:`noun_lemmas` — one lemma per noun, a singular and its plural sharing one
  (``{"apple", "apples"}`` → ``apple``), as a ``[a-z][a-z0-9_]*`` identifier;
* :func:`near_misses` — the nouns that are one edit from a lexicon surface or from
  another surface of the same input (``feeet`` beside ``feet``, ``appels`` beside
  ``apples``), which automatic declaration refuses rather than turning a typo into a
  new kind.

Nothing here knows of graphs: the caller passes surfaces.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Final

IRREGULAR_PLURALS: Final[Mapping[str, str]] = {
    # irregular and unchanged plurals (the lexicon's own count lemmas included, so a
    # reader's "people" maps where the lexicon maps it)
    "people": "person",
    "men": "man",
    "women": "woman",
    "children": "child",
    "mice": "mouse",
    "geese": "goose",
    "teeth": "tooth",
    "feet": "foot",
    "oxen": "ox",
    "dice": "die",
    "lice": "louse",
    "cacti": "cactus",
    "fungi": "fungus",
    # -ves plurals
    "knives": "knife",
    "wives": "wife",
    "lives": "life",
    "leaves": "leaf",
    "loaves": "loaf",
    "halves": "half",
    "wolves": "wolf",
    "shelves": "shelf",
    "calves": "calf",
    "scarves": "scarf",
    "thieves": "thief",
    "elves": "elf",
    # -oes plurals whose singular ends in -o
    "potatoes": "potato",
    "tomatoes": "tomato",
    "heroes": "hero",
    "echoes": "echo",
    "mangoes": "mango",
    "volcanoes": "volcano",
    "mosquitoes": "mosquito",
    # -ies plurals whose singular ends in -ie
    "cookies": "cookie",
    "brownies": "brownie",
    "movies": "movie",
    "smoothies": "smoothie",
    "zombies": "zombie",
    "rookies": "rookie",
    "selfies": "selfie",
    "hoodies": "hoodie",
    "pies": "pie",
    "ties": "tie",
    "lies": "lie",
}
"""Plural → singular for the words the suffix rules get wrong (the table tests list them)."""

UNCHANGED_PLURALS: Final[frozenset[str]] = frozenset(
    {"sheep", "fish", "deer", "series", "species", "moose", "bison", "salmon", "trout", "aircraft"}
)
"""Words whose plural is the singular."""

_NOT_PLURAL_ENDINGS: Final[tuple[str, ...]] = ("ss", "us", "is", "os")
"""A word ending so is taken as singular already (``glass``, ``bus``, ``basis``)."""

_LEMMA_UNSAFE: Final = re.compile(r"[^a-z0-9]+")

MIN_NEAR_MISS_CHARS: Final[int] = 3
"""A noun shorter than this is never called a near miss of a lexicon surface (the lexicon's symbols are short)."""


def singular_candidates(word: str) -> tuple[str, ...]:
    """The possible singulars of one lower-case word, the likeliest first.

    Args:
        word: a lower-case word (``"berries"``).

    Returns:
        A non-empty tuple: ``("berry", "berrie")`` for ``"berries"``, ``("box", "boxe")``
        for ``"boxes"``, ``("apple",)`` for ``"apples"`` and for ``"apple"``.  A singular
        is its own only candidate.  Irregulars come from :data:`IRREGULAR_PLURALS` and
        :data:`UNCHANGED_PLURALS`; the rest from English suffix rules (``-ies``,
        ``-ves``, ``-ches``/``-shes``/``-sses``/``-xes``/``-zzes``, ``-s``).
    """
    if word in IRREGULAR_PLURALS:
        return (IRREGULAR_PLURALS[word],)
    if word in UNCHANGED_PLURALS or not word.endswith("s") or word.endswith(_NOT_PLURAL_ENDINGS) or len(word) < 3:
        return (word,)
    if word.endswith("ies") and len(word) > 4:
        return (word[:-3] + "y", word[:-1])
    if word.endswith("ves"):
        return (word[:-3] + "f", word[:-3] + "fe", word[:-1])
    if word.endswith(("ches", "shes", "sses", "xes", "zzes")):
        return (word[:-2], word[:-1])
    return (word[:-1],)


def _words(surface: str) -> tuple[str, str]:
    """``("jumping ", "jacks")``: everything before the last word, and the last word, lower-cased."""
    text = surface.lower()
    head, _, last = text.rpartition(" ")
    return (f"{head} " if head else "", last)


def singular_keys(surface: str) -> tuple[str, ...]:
    """The possible singular forms of a surface, its last word singularized (``"Jumping Jacks"`` → ``("jumping jack",)``)."""
    head, last = _words(surface)
    return tuple(head + c for c in singular_candidates(last))


def lemma_id(text: str) -> str:
    """A lemma identifier of a singular form: lower case, runs of other characters as ``_`` (``"jumping jack"`` → ``jumping_jack``)."""
    return _LEMMA_UNSAFE.sub("_", text.lower()).strip("_")


def noun_lemmas(surfaces: Iterable[str]) -> dict[str, str]:
    """One lemma per surface, a singular and its plural sharing one.

    Args:
        surfaces: count nouns exactly as written (``["apples", "apple", "Jumping jacks"]``).

    Returns:
        surface → lemma in the order given (``{"apples": "apple", "apple": "apple",
        "Jumping jacks": "jumping_jack"}``).  A surface whose candidates are ambiguous
        takes the candidate that another given surface spells (``cookies`` beside
        ``cookie``), else its likeliest one.  Deterministic: the same surfaces give the
        same lemmas whatever their order.
    """
    given = list(dict.fromkeys(surfaces))
    spelled = {s.lower() for s in given}
    out: dict[str, str] = {}
    for surface in given:
        keys = singular_keys(surface)
        chosen = next((k for k in keys if k in spelled), keys[0])
        out[surface] = lemma_id(chosen)
    return out


def one_edit_apart(a: str, b: str, *, substitution: bool = True) -> bool:
    """Whether ``b`` is ``a`` with one letter inserted, deleted, two neighbours swapped, or (if allowed) one replaced.

    The optimal-string-alignment distance 1 (Damerau); equal strings are not apart.
    """
    if a == b:
        return False
    la, lb = len(a), len(b)
    if abs(la - lb) > 1:
        return False
    if la > lb:
        a, b, la, lb = b, a, lb, la
    i = 0
    while i < la and a[i] == b[i]:
        i += 1
    if la == lb:
        if a[i + 1 :] == b[i + 1 :]:
            return substitution
        return i + 1 < la and a[i] == b[i + 1] and a[i + 1] == b[i] and a[i + 2 :] == b[i + 2 :]
    return a[i:] == b[i + 1 :]


def near_misses(
    nouns: Sequence[str], lexicon_surfaces: Iterable[str], context: Iterable[str] = ()
) -> list[tuple[str, str]]:
    """The nouns that look like typos, each with the surface it is one edit from.

    Automatic declaration (SPEC §5) must never turn a typo into a new kind, so a noun
    is a near miss when:

    * one of its singular forms is a lexicon surface (``feets`` → ``feet``: pint's
      plural guessing, refused by SPEC §3);
    * it is one insertion, deletion or transposition from a lexicon surface
      (``feeet``, ``mlies``; a replaced letter is not enough, since ``cards`` and
      ``yards`` are both words);
    * it or its singular is one edit of any kind, replacement included, from another
      surface of the same input or that surface's singular (``appels``, ``applws`` or
      ``appless`` beside ``apples``), the nouns themselves and ``context`` (the input's
      other unit surfaces) being compared, unless both share one lemma.

    Only lexicon surfaces and nouns of at least :data:`MIN_NEAR_MISS_CHARS` letters are
    compared with each other (the lexicon's symbols are short: ``m``, ``g``, ``in``);
    within one input every pair is.  Comparison is case-insensitive.

    Returns:
        ``(noun, suggestion)`` pairs in the order of ``nouns``, each noun once.
    """
    lexicon = {s.lower(): s for s in lexicon_surfaces if len(s) >= MIN_NEAR_MISS_CHARS and s.isascii()}
    by_len: dict[int, list[str]] = {}
    for low in lexicon:
        by_len.setdefault(len(low), []).append(low)
    others = list(dict.fromkeys([*nouns, *context]))
    lemma_of = noun_lemmas(others)
    out: list[tuple[str, str]] = []
    for noun in dict.fromkeys(nouns):
        low = noun.lower()
        hit = next((lexicon[k] for k in singular_keys(noun) if k in lexicon and k != low), None)
        if hit is None and len(low) >= MIN_NEAR_MISS_CHARS:
            hit = next(
                (
                    lexicon[s]
                    for n in (len(low) - 1, len(low), len(low) + 1)
                    for s in by_len.get(n, ())
                    if one_edit_apart(low, s, substitution=False)
                ),
                None,
            )
        if hit is None:
            mine = lemma_of[noun]
            hit = next(
                (
                    other
                    for other in others
                    if lemma_of[other] != mine
                    and (one_edit_apart(mine, lemma_of[other]) or one_edit_apart(low, other.lower()))
                ),
                None,
            )
        if hit is not None:
            out.append((noun, hit))
    return out
