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

import functools
import itertools
import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Final

from units.errors import UnitRefusal
from units.exact import type_kind

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

_NOT_PLURAL_ENDINGS: Final[tuple[str, ...]] = ("ss", "us")
"""A word ending so is taken as singular already (``glass``, ``bus``)."""

_MIN_PLURAL_CHARS: Final[int] = 3
"""A shorter word (``as``, ``is``) is taken as singular already: no English plural is a letter and an ``s``."""

_Cuts = tuple[tuple[int, str], ...]
"""The singular candidates of a suffix rule: drop ``cut`` letters from the end, then append ``ending``."""

_SUFFIX_RULES: Final[tuple[tuple[tuple[str, ...], int, _Cuts], ...]] = (
    # (endings, shortest word the rule applies to, candidates), tried in order; English plural rules
    (("ies",), 5, ((3, "y"), (1, ""))),  # berries: berry, berrie (a 4-letter "-ies" word such as "dies" is plain)
    (("ves",), 0, ((3, "f"), (3, "fe"), (1, ""))),  # wolves: wolf, wolfe, wolve
    (("zzes",), 0, ((3, ""), (2, ""))),  # buzzes: buzz, buzze
    (("ches", "shes", "sses", "xes"), 0, ((2, ""), (1, ""))),  # boxes: box, boxe
    (("uses",), 0, ((1, ""), (2, ""))),  # causes: cause, caus
    (("is",), 0, ((0, ""), (1, ""))),  # basis: basis, basi
)
"""The suffix rules of :func:`singular_candidates`, the likeliest candidate of each first."""

_PLAIN_PLURAL: Final[_Cuts] = ((1, ""),)
"""Any other word ending in ``s``: drop it (``apples``: ``apple``)."""

_LEMMA_UNSAFE: Final = re.compile(r"[^a-z0-9]+")

MIN_NEAR_MISS_CHARS: Final[int] = 3
"""A noun shorter than this is never called a near miss of a lexicon surface (the lexicon's symbols are short)."""


def singular_candidates(word: str) -> tuple[str, ...]:
    """The possible singulars of one lower-case word, the likeliest first.

    Args:
        word: a lower-case word (``"berries"``).

    Returns:
        A non-empty tuple: ``("berry", "berrie")`` for ``"berries"``, ``("box", "boxe")``
        for ``"boxes"``, ``("apple",)`` for ``"apples"`` and for ``"apple"``,
        ``("basis", "basi")`` for ``"basis"``.  Irregulars come from
        :data:`IRREGULAR_PLURALS` and :data:`UNCHANGED_PLURALS`; the rest from English
        suffix rules (``-ies``, ``-ves``, ``-ches``/``-shes``/``-sses``/``-xes``,
        ``-zzes``, ``-uses``, ``-is``, ``-s``).  A word that does not end in ``s`` is its
        own only candidate.
    """
    if word in IRREGULAR_PLURALS:
        return (IRREGULAR_PLURALS[word],)
    if (
        word in UNCHANGED_PLURALS
        or not word.endswith("s")
        or word.endswith(_NOT_PLURAL_ENDINGS)
        or len(word) < _MIN_PLURAL_CHARS
    ):
        return (word,)
    cuts = next(
        (cuts for endings, shortest, cuts in _SUFFIX_RULES if word.endswith(endings) and len(word) >= shortest),
        _PLAIN_PLURAL,
    )
    return tuple(word[: len(word) - cut] + ending for cut, ending in cuts)


def plural_forms(word: str) -> tuple[str, ...]:
    """The plurals English rules give a lower-case singular (``berry`` → ``berries``, ``box`` → ``boxes``)."""
    irregular = tuple(p for p, s in IRREGULAR_PLURALS.items() if s == word)
    if irregular or word in UNCHANGED_PLURALS:
        return (*irregular, word) if word in UNCHANGED_PLURALS else irregular
    if word.endswith(("s", "x", "z", "ch", "sh")):
        return (word + "es",)
    if len(word) > 1 and word.endswith("y") and word[-2] not in "aeiou":
        return (word[:-1] + "ies",)
    return (word + "s",)


def noun_forms(surface: str) -> frozenset[str]:
    """Every spelling of one noun, lower-cased: as written, its singulars, and their plurals.

    ``noun_forms("Berries")`` is ``{"berries", "berry", "berrie", "berrys"}``-like: the
    written form, each singular candidate and the plural of each.  Two nouns are one noun
    when their forms meet; a typo is one edit from some form of another noun.
    """
    head, last = _words(surface)
    out = {head + last}
    for single in singular_candidates(last):
        out.add(head + single)
        out.update(head + plural for plural in plural_forms(single))
    return frozenset(out)


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


def declaration_hint(surface: str, *, lemma: str | None = None) -> str:
    """How to declare one noun on the command line: ``--count-noun pens=pen``.

    ``lemma`` defaults to the one :func:`noun_lemmas` derives; a vocabulary whose lexicon
    takes that lemma for another unit passes the surface itself
    (:meth:`units.UnitVocabulary.declaration_hint`).  A surface with a space is quoted
    for the shell (``--count-noun "jumping jacks=jumping_jack"``).
    """
    flag = f"{surface}={noun_lemmas([surface])[surface] if lemma is None else lemma}"
    return f'--count-noun "{flag}"' if " " in flag else f"--count-noun {flag}"


def surface_items(surfaces: object, name: str) -> list[object]:
    """The items of a collection of unit surfaces, in order, for a caller to check one by one.

    Raises:
        UnitRefusal: ``malformed_input`` for one string or bytes (it would be read letter
            by letter), or anything not iterable.
    """
    if isinstance(surfaces, (str, bytes)) or not isinstance(surfaces, Iterable):
        raise UnitRefusal(
            "malformed_input", f"{name} must be a collection of unit surfaces (not one string)", type(surfaces).__name__
        )
    return list(surfaces)


def _given_surfaces(surfaces: object) -> list[str]:
    """The distinct strings of a collection of surfaces, in order.

    Raises:
        UnitRefusal: ``malformed_input`` as :func:`surface_items`, or for an item that is no string.
    """
    items = surface_items(surfaces, "surfaces")
    bad = [s for s in items if not isinstance(s, str)]
    if bad:
        raise UnitRefusal("malformed_input", f"a surface is a string, found {type_kind(bad[0])}", "surfaces")
    return list(dict.fromkeys(items))  # type: ignore[arg-type]  # every item is a str, checked above


def noun_lemmas(surfaces: Iterable[str]) -> dict[str, str]:
    """One lemma per surface, a singular and its plural sharing one.

    Args:
        surfaces: count nouns exactly as written (``["apples", "apple", "Jumping jacks"]``).

    Returns:
        surface → lemma in the order given (``{"apples": "apple", "apple": "apple",
        "Jumping jacks": "jumping_jack"}``).  A surface whose candidates are ambiguous
        takes the candidate that another given surface spells (``cookies`` beside
        ``cookie``), else its likeliest one.  A surface that another given surface's
        plural spells, by a rule the candidates do not undo, takes that surface's lemma:
        ``dominoes`` beside ``domino``, ``busses`` beside ``bus``, ``indices`` beside
        ``index``, ``radii`` beside ``radius``,
        ``criteria`` beside ``criterion``, ``bacteria`` beside ``bacterium``,
        ``firemen`` beside ``fireman`` (each had been a kind of its own, so a total left
        the other out).  A word in ``s`` beside itself plus ``es`` (``lens`` and
        ``lenses``, but also ``laps`` and ``lapses``) keeps two lemmas here;
        :func:`ambiguous_pairs` finds them for a caller to refuse.
        Deterministic: the same surfaces give the same lemmas whatever their order.

    Raises:
        UnitRefusal: ``malformed_input`` for one string, no collection, or an item that is no string.
    """
    given = _given_surfaces(surfaces)
    spelled = {s.lower() for s in given}
    own: dict[str, str] = {}  # each surface's lemma by its own candidates
    for surface in given:
        keys = singular_keys(surface)
        own[surface] = lemma_id(next((k for k in keys if k in spelled and k != surface.lower()), keys[0]))
    singulars = sorted(s for s in given if own[s] == lemma_id(s))  # a plural (princes, cops) claims no plural
    plural_of: dict[str, str] = {}  # a given singular's plural -> that singular, the likeliest rule first
    for rule in _PAIRED_PLURALS:
        for surface in singulars:
            head, last = _words(surface)
            for plural in rule(last):
                plural_of.setdefault(head + plural, surface)
    kinds = Counter(own[s] for s in {s.lower(): s for s in given}.values())  # Firemen and firemen are one
    out: dict[str, str] = {}
    for surface in given:
        single = plural_of.get(surface.lower(), surface)
        paired = kinds[own[surface]] > 1  # already one kind with another given surface (caddies beside caddy)
        out[surface] = own[surface] if paired else own[single]
    return out


def possible_singulars(surface: str) -> frozenset[str]:
    """Every singular a surface may be the plural of, and the surface itself, lower-cased.

    Its singular candidates (:func:`singular_candidates`), and what the plurals
    :func:`noun_lemmas` pairs undo: ``-oes`` (``dominoes``: ``domino``), ``-ses`` and
    ``-sses`` after an ``s`` (``lenses``: ``lens``, ``gasses``: ``gas``), the classical
    endings at any length (``indices``: ``index``, ``cacti``: ``cactus``, ``axes``:
    ``axis``, where pairing needs five letters) and irregular compounds (``firemen``:
    ``fireman``).  Only the last word is singularized.
    """
    head, last = _words(surface)
    out = {last, *singular_candidates(last)}
    if last.endswith("oes"):
        out.add(last[:-2])
    if last.endswith("sses"):
        out.add(last[:-3])
    if last.endswith("ses"):
        out.add(last[:-2])
    classical = [(end, plural) for end, plural, _ in _CLASSICAL_PLURALS] + list(_AMBIGUOUS_CLASSICAL)
    out.update(last[: -len(plural)] + end for end, plural in classical if last.endswith(plural))
    out.update(
        last[: -len(plural)] + end for end, plural in _COMPOUND_IRREGULARS if last.endswith(plural) and last != plural
    )
    out.update(single for plural, single in IRREGULAR_PLURALS.items() if last == plural)
    return frozenset(head + word for word in out)


def ambiguous_pairs(lemmas: Mapping[str, str]) -> list[tuple[str, str]]:
    """The pairs of surfaces given two lemmas that may be one noun: ``lens``/``lenses``, ``indices``/``indexes``.

    Two surfaces may be one noun when their :func:`possible_singulars` meet: a word in
    ``s`` and itself plus ``es`` (``lens``, ``lenses``; but ``laps``, ``lapses`` are two),
    two plurals of one singular (``indices``, ``indexes``; ``cacti``, ``cactuses``), or a
    singular and a plural declared apart (``fireman``, then ``firemen``).  Spelling
    cannot tell, unless a third surface does: a surface that shares its lemma with a
    given singular candidate of its own has its reading (``cop`` or ``copse`` beside
    ``cops`` and ``copses`` says they are two; ``bus`` declared before ``buses``, which
    alone derives ``buse``, does not).  Compared case-insensitively.

    Args:
        lemmas: surface → lemma (a declaration).

    Returns:
        ``(surface, surface)`` pairs as written, each sorted, in sorted order.

    Raises:
        TypeError: for a ``lemmas`` that is no mapping of strings (callers check first).
    """
    lemma_of = {s.lower(): lemma for s, lemma in lemmas.items()}

    def explained(surface: str) -> bool:  # it took the lemma of a given singular candidate (cops beside cop)
        low = surface.lower()
        return any(k != low and lemma_of.get(k) == lemmas[surface] for k in singular_keys(surface))

    by_singular: dict[str, list[str]] = {}
    for surface in sorted(lemmas):
        if not explained(surface):
            for single in possible_singulars(surface):
                by_singular.setdefault(single, []).append(surface)
    pairs = {
        (a, b)
        for group in by_singular.values()
        for i, a in enumerate(group)
        for b in group[i + 1 :]
        if lemmas[a] != lemmas[b] and a.lower() != b.lower()
    }
    return sorted(pairs)


_COMPOUND_IRREGULARS: Final[tuple[tuple[str, str], ...]] = (
    ("man", "men"),  # fireman, policewoman
    ("child", "children"),  # grandchild
    ("person", "people"),  # salesperson
    ("tooth", "teeth"),
    ("mouse", "mice"),  # dormouse
    ("goose", "geese"),
)
"""Irregular plurals that also end compounds written as one word, as (singular ending, plural ending)."""

_CLASSICAL_PLURALS: Final[tuple[tuple[str, str, int], ...]] = (
    ("ex", "ices", 5),  # index, vertex
    ("ix", "ices", 5),  # matrix, appendix
    ("us", "i", 6),  # radius, alumnus (not minus/mini)
    ("rion", "ria", 9),  # criterion
    ("enon", "ena", 9),  # phenomenon (not colon/cola, common/comma)
    ("ium", "ia", 9),  # bacterium, millennium
    ("tum", "ta", 5),  # datum, erratum
)
"""Classical plurals as (singular ending, plural ending, shortest singular): the endings narrow enough that a
homograph pair is unlikely in one problem (``rheum``/``rhea`` and ``colon``/``cola`` are not paired)."""

_AMBIGUOUS_CLASSICAL: Final[tuple[tuple[str, str], ...]] = (("is", "es"),)
"""Classical plurals too ambiguous to pair, as (singular ending, plural ending): ``crises`` is the plural of
``crisis``, but ``taxes`` is no plural of ``taxis`` (a plural itself), nor ``lees`` of ``leis``; such a pair is
refused as one that may be one noun (:func:`ambiguous_pairs`)."""

_PAIRED_PLURALS: Final[tuple[Callable[[str], tuple[str, ...]], ...]] = (
    plural_forms,
    lambda word: (word + "es",) if word.endswith("o") else (word + "ses",) if word.endswith("s") else (),
    lambda word: tuple(
        word[: -len(end)] + plural
        for end, plural, shortest in _CLASSICAL_PLURALS
        if word.endswith(end) and len(word) >= shortest
    ),
    lambda word: tuple(
        word[: -len(end)] + plural for end, plural in _COMPOUND_IRREGULARS if word.endswith(end) and word != end
    ),
)
"""The plurals of a singular that :func:`noun_lemmas` pairs with it when both are given, likeliest rules first:
the regular ones, then ``-oes`` and ``-sses`` (``dominoes``, ``busses``; never ``-es`` after another letter,
so ``pines`` is no plural of ``pin``), then the classical ones (``indices``, ``radii``, ``criteria``,
``bacteria``; not ``crises``: :data:`_AMBIGUOUS_CLASSICAL`), then irregular compounds (``firemen``,
``grandchildren``)."""


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


LONG_WORD_CHARS: Final[int] = 5
"""From this many letters (the longer word), two edits still make a near miss (``dollarsss``, ``apels``)."""


def edit_distance(a: str, b: str, limit: int) -> int:
    """The Damerau-Levenshtein distance of two words, capped at ``limit + 1``.

    Edits are inserting, deleting or replacing a letter and swapping two neighbours,
    and a swapped pair may be edited again (Lowrance and Wagner's unrestricted
    distance): ``dolrls`` is two edits from ``dollars`` (swap ``lr``, insert ``a``),
    where the optimal-string-alignment distance, which may not touch a swapped pair
    again, counts three and let such a typo pass as a new count kind.

    Only the cells within ``limit`` of the diagonal are filled (Ukkonen's band): a cell
    further off costs more than ``limit`` (its prefixes differ that much in length),
    and so does every path through one, so the capped distance is exact while the work
    grows with the length, not its square.
    """
    la, lb = len(a), len(b)
    if abs(la - lb) > limit:
        return limit + 1
    far = la + lb + limit + 1  # more than any distance within the band
    # table[(r, c)]: the distance of a[:r-1] and b[:c-1] (the classic table with its extra border row and column);
    # a cell absent from it lies outside the band and counts as far
    table: dict[tuple[int, int], int] = {(1, c): c - 1 for c in range(1, lb + 2)}
    table.update({(r, 1): r - 1 for r in range(2, la + 2)})
    get = table.get
    last_row: dict[str, int] = {}  # the last row of a where each letter stood
    for i, ca in enumerate(a, start=1):
        last_match_col = 0
        low, high = max(1, i - limit), min(lb, i + limit)
        # a match further left than limit + 1 columns gives no swap within the band (its gap alone costs more)
        for j in range(max(1, low - limit - 1), low):
            if b[j - 1] == ca:
                last_match_col = j
        for j in range(low, high + 1):
            cb = b[j - 1]
            k, col = last_row.get(cb, 0), last_match_col
            cost = 0 if ca == cb else 1
            if cost == 0:
                last_match_col = j
            table[i + 1, j + 1] = min(
                get((i, j), far) + cost,  # replace (or keep)
                get((i + 1, j), far) + 1,  # insert
                get((i, j + 1), far) + 1,  # delete
                get((k, col), far) + (i - k - 1) + 1 + (j - col - 1),  # swap, with the letters between edited
            )
        last_row[ca] = i
    return min(get((la + 1, lb + 1), far), limit + 1)


def typo_apart(a: str, b: str) -> bool:
    """Whether two different words are a likely typo of each other: one edit, or two once either has 5+ letters.

    Two words whose letters differ in more than ``2 * limit`` places as multisets are
    refused before the distance table is filled: an insertion or deletion changes the
    multiset by one letter, a replacement by two, a swap by none, so the distance is at
    least half that difference.  (The table costs the product of the lengths: 64 nouns
    of 60 random letters had taken 18 s under ``--count-nouns auto``.)
    """
    if a == b:
        return False
    limit = 2 if max(len(a), len(b)) >= LONG_WORD_CHARS else 1
    if abs(len(a) - len(b)) > limit:
        return False
    mine, theirs = Counter(a), Counter(b)
    mine.subtract(theirs)
    if sum(map(abs, mine.values())) > 2 * limit:
        return False
    return edit_distance(a, b, limit) <= limit


def _misses(noun: str, other: str, forms: Mapping[str, frozenset[str]], lemmas: Mapping[str, str]) -> bool:
    """Whether two surfaces of one input are near misses of each other.

    They are *one noun* when one, as written, is a spelling of the other (``apples`` and
    ``Apple``) and both got one lemma; otherwise they miss each other when they share an
    unwritten spelling (``puppie`` and ``puppy`` both pluralize to ``puppies``) or some
    spellings of theirs are one edit apart.
    """
    mine, theirs = forms[noun], forms[other]
    written = noun.casefold() in theirs or other.casefold() in mine
    if written:
        return lemmas[noun] != lemmas[other]
    return bool(mine & theirs) or any(typo_apart(a, b) for a in mine for b in theirs)


WRITTEN_CONTEXT_LIMIT: Final[int] = 256
"""Most unit surfaces of an input :func:`written_near_miss` reads (the first ones written)."""
WRITTEN_DISTINCT_LIMIT: Final[int] = 16
"""Most distinct surfaces :func:`written_near_miss` compares a noun with; an input writing more gets no name."""


def written_near_miss(noun: str, others: Iterable[object]) -> str | None:
    """The other unit surface of the same input that ``noun`` is a near miss of, closest first, or ``None``.

    The rule is :func:`near_misses`' last one (:func:`_misses`): ``aples`` or ``appels``
    beside ``apples``, ``feeet`` beside ``feet``; ``apple`` beside ``apples`` is one noun,
    no miss.  To be named, the two must also be a typo apart as written
    (:func:`typo_apart`) or share a spelling (``puppie`` and ``puppy``): the rule compares
    every spelling of each, so ``None`` would miss ``boxes`` through ``nones``.  Used to
    word an ``unknown_unit`` refusal (:meth:`units.UnitVocabulary.resolve` with
    ``context``): a typo of a surface the input writes elsewhere should be corrected,
    not declared as a count noun of its own.  Of several misses the one fewest edits away
    is named (``apples``, not ``pies``, for ``aples``), then the first written.

    The cost per call is bounded, since an input with many unknown units words a refusal
    for each: only the first :data:`WRITTEN_CONTEXT_LIMIT` surfaces of ``others`` are
    read, an input writing more than :data:`WRITTEN_DISTINCT_LIMIT` distinct ones among
    them gets ``None``, and the comparison is remembered per noun and surfaces.

    Args:
        noun: the surface that did not resolve, as written.
        others: the input's unit surfaces, as written (anything but a non-empty ``str`` is
            skipped, and ``noun`` itself is never named).  It may be an iterator: at most the
            first :data:`WRITTEN_CONTEXT_LIMIT` are taken.

    Returns:
        The surface of ``others`` that ``noun`` misses, fewest edits first, then in their order.
    """
    written = dict.fromkeys(o for o in itertools.islice(others, WRITTEN_CONTEXT_LIMIT) if type(o) is str and o)
    written.pop(noun, None)
    if len(written) > WRITTEN_DISTINCT_LIMIT:
        return None
    return _closest_missed(noun, tuple(written))


_RANKING_EDITS: Final[int] = 6
"""How far :func:`_closest_missed` tells distances apart (a miss is a few edits away; further ones tie, first wins)."""


@functools.lru_cache(maxsize=4096)
def _closest_missed(noun: str, candidates: tuple[str, ...]) -> str | None:
    """:func:`written_near_miss`'s comparison: the candidate ``noun`` misses, fewest edits first (remembered)."""
    if not candidates:
        return None
    forms = {surface: noun_forms(surface) for surface in (noun, *candidates)}
    lemmas = noun_lemmas([noun, *candidates])
    low = noun.casefold()
    missed = [
        other
        for other in candidates
        # named only when the surfaces as written are a typo apart or share a spelling: the rule's other spellings
        # alone make far words near (None and boxes, through nones and boxes)
        if (typo_apart(low, other.casefold()) or forms[noun] & forms[other]) and _misses(noun, other, forms, lemmas)
    ]
    return min(missed, key=lambda other: edit_distance(low, other.casefold(), _RANKING_EDITS), default=None)


class SurfaceIndex:
    """The lexicon surfaces :func:`near_misses` compares nouns with, indexed once for many calls.

    Building it reads every surface (a few hundred); a vocabulary keeps one
    (:meth:`units.UnitVocabulary.with_auto_count_nouns`), so a corpus checked with automatic
    declaration pays that once, not once per record.  It also remembers, per noun, the
    lexicon surface one insertion, deletion or swap away (a fact of the lexicon alone).

    Args:
        surfaces: every surface the vocabulary resolves, in its order (non-ASCII ones are
            left out, as :func:`near_misses` leaves them out).
        kind: ``surface -> kind`` (any hashable), so that ``near_misses(...,
            kinds_in_use=...)`` can pick the surfaces of the kinds an input uses without
            asking about each surface again; ``None``: no kinds are indexed.
    """

    __slots__ = ("_by_kind", "_by_len", "_folded", "_lexicon_hits", "_surfaces")

    MEMO_LIMIT: Final[int] = 65536

    def __init__(self, surfaces: Iterable[str], kind: Callable[[str], object] | None = None) -> None:
        self._surfaces: tuple[str, ...] = tuple(s for s in surfaces if s.isascii())
        self._folded: dict[str, str] = {}
        self._by_len: dict[int, list[tuple[str, str]]] = {}  # length -> (surface, casefolded), long enough ones
        self._by_kind: dict[object, list[int]] = {}  # kind -> positions in _surfaces
        for i, surface in enumerate(self._surfaces):
            low = surface.casefold()
            self._folded.setdefault(low, surface)
            if len(surface) >= MIN_NEAR_MISS_CHARS:
                self._by_len.setdefault(len(surface), []).append((surface, low))
            if kind is not None:
                self._by_kind.setdefault(kind(surface), []).append(i)
        self._lexicon_hits: dict[str, str | None] = {}

    def __repr__(self) -> str:
        return f"SurfaceIndex({len(self._surfaces)} surfaces, {len(self._by_kind)} kinds)"

    def where(self, keep: Callable[[str], bool]) -> list[str]:
        """The surfaces ``keep`` keeps, in order."""
        return [s for s in self._surfaces if keep(s)]

    def of_kinds(self, kinds: Iterable[object]) -> list[str]:
        """The surfaces of the given kinds (as ``kind`` gave them), in order."""
        positions = sorted(i for k in set(kinds) for i in self._by_kind.get(k, ()))
        return [self._surfaces[i] for i in positions]

    def one_edit_of_lexicon(self, low: str) -> str | None:
        """The first surface one insertion, deletion or swap (no replacement) from ``low``, if ``low`` is long enough.

        ``low`` is a noun case-folded.  Remembered per noun (bounded by :data:`MEMO_LIMIT`).
        """
        hits = self._lexicon_hits
        if low in hits:
            return hits[low]
        hit = None
        if len(low) >= MIN_NEAR_MISS_CHARS:
            n = len(low)
            hit = next(
                (
                    surface
                    for size in (n - 1, n, n + 1)
                    for surface, folded in self._by_len.get(size, ())
                    if one_edit_apart(low, folded, substitution=False)
                ),
                None,
            )
        if len(hits) >= self.MEMO_LIMIT:
            hits.clear()
        hits[low] = hit
        return hit

    def folded(self, form: str) -> str | None:
        """The first surface that case-folds to ``form``, if any."""
        return self._folded.get(form)


def near_misses(
    nouns: Sequence[str],
    lexicon_surfaces: Iterable[str] | SurfaceIndex,
    context: Iterable[str] = (),
    *,
    kind_in_use: Callable[[str], bool] | None = None,
    kinds_in_use: Iterable[object] | None = None,
) -> list[tuple[str, str]]:
    """The nouns that look like typos, each with the surface it is one edit from.

    Automatic declaration (SPEC §5) must never turn a typo into a new kind, so a noun
    is a near miss when:

    * some spelling of it (:func:`noun_forms`) is a lexicon surface written with other
      capitals (``ml`` for ``mL``, ``FPS`` for ``fps``) or a singular or plural the
      lexicon has (``feets`` → ``feet``, ``persons`` → ``person``);
    * it is a likely typo (:func:`typo_apart`: one edit of any kind, two once either
      word has five or more letters) of a lexicon surface whose kind the input uses,
      however short (``ftt`` or ``feeeet`` beside ``inches``, ``mn`` beside ``hours``,
      ``dollarsss`` beside ``dollars``; ``kind_in_use`` says which kinds);
    * it is one insertion, deletion or transposition from any other lexicon surface of
      at least :data:`MIN_NEAR_MISS_CHARS` letters (``feeet``, ``mlies``; a replaced
      letter is not enough there, since ``cards`` and ``yards`` are both words);
    * some spelling of it is a likely typo of, or the same as, some spelling of another
      surface of the same input, unless one is as written a spelling of the other and
      both share a lemma (``appels``, ``applws``, ``apels`` beside ``apples``,
      ``puppie`` beside ``puppy``, ``foxse`` beside ``fox``; see :func:`_misses`).

    Comparison is case-insensitive.

    Args:
        nouns: the candidate nouns, as written.
        lexicon_surfaces: every surface the vocabulary resolves (declared nouns included),
            or a :class:`SurfaceIndex` of them (the same answers, without reading them all again).
        context: the input's other unit surfaces (the nouns themselves are always compared).
        kind_in_use: ``surface -> bool``: whether the input uses a unit of that lexicon
            surface's kind (default: never, so replacements are not compared with the lexicon).
        kinds_in_use: instead of ``kind_in_use``, the kinds the input uses, for a
            :class:`SurfaceIndex` built with ``kind``.

    Returns:
        ``(noun, suggestion)`` pairs in the order of ``nouns``, each noun once.

    Raises:
        ValueError: both ``kind_in_use`` and ``kinds_in_use`` given, or ``kinds_in_use``
            without a :class:`SurfaceIndex` (a caller's mistake, not an input's).
    """
    if kind_in_use is not None and kinds_in_use is not None:
        raise ValueError("give kind_in_use or kinds_in_use, not both")
    if kinds_in_use is not None and not isinstance(lexicon_surfaces, SurfaceIndex):
        raise ValueError("kinds_in_use needs a SurfaceIndex built with kind=")
    index = lexicon_surfaces if isinstance(lexicon_surfaces, SurfaceIndex) else SurfaceIndex(lexicon_surfaces)
    if kinds_in_use is not None:
        in_use = index.of_kinds(kinds_in_use)
    else:
        in_use = index.where(kind_in_use) if kind_in_use is not None else []  # units of a kind the input uses
    others = list(dict.fromkeys([*nouns, *context]))
    forms = {other: noun_forms(other) for other in others}
    lemmas = noun_lemmas(others)
    out: list[tuple[str, str]] = []
    for noun in dict.fromkeys(nouns):
        low = noun.casefold()
        hit = next(
            (hit for f in sorted(forms[noun]) if (hit := index.folded(f)) is not None and hit != noun),
            None,
        )
        if hit is None:
            hit = _typo_of_unit_in_use(low, in_use)
        if hit is None:
            hit = index.one_edit_of_lexicon(low)
        if hit is None:
            hit = next((other for other in others if other != noun and _misses(noun, other, forms, lemmas)), None)
        if hit is not None:
            out.append((noun, hit))
    return out


def _typo_of_unit_in_use(low: str, in_use: Sequence[str]) -> str | None:
    """The closest unit of a kind the input uses of which ``low`` is a likely typo (:func:`typo_apart`), if any."""
    close = [(edit_distance(low, s.casefold(), 2), i) for i, s in enumerate(in_use) if typo_apart(low, s.casefold())]
    return in_use[min(close)[1]] if close else None


__all__ = [
    "IRREGULAR_PLURALS",
    "LONG_WORD_CHARS",
    "MIN_NEAR_MISS_CHARS",
    "UNCHANGED_PLURALS",
    "WRITTEN_CONTEXT_LIMIT",
    "WRITTEN_DISTINCT_LIMIT",
    "SurfaceIndex",
    "ambiguous_pairs",
    "declaration_hint",
    "edit_distance",
    "lemma_id",
    "near_misses",
    "noun_forms",
    "noun_lemmas",
    "one_edit_apart",
    "plural_forms",
    "possible_singulars",
    "singular_candidates",
    "singular_keys",
    "surface_items",
    "typo_apart",
    "written_near_miss",
]
