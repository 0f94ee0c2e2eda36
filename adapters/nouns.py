"""A math problem graph's count nouns: which it uses undeclared, and declaring them automatically (SPEC §5).

Readers write count nouns as the problem text does (``"apples"``, ``"jumping
jacks"``).  :func:`count_nouns_of` lists the ones a vocabulary cannot resolve;
:func:`auto_count_nouns` declares them (a singular and its plural as one kind) and
refuses a near miss of a lexicon surface or of another surface of the same graph, so
that a typo never becomes a new kind.  The noun rules live in :mod:`units.nouns`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Final

from adapters._common import given_vocabulary
from adapters.errors import MathGraphError
from adapters.math_graph import MathProblemGraph, PartitionChunk, Rate, graph_from_dict, unit_surfaces
from units import UnitRefusal, UnitVocabulary
from units.dimension import COUNT
from units.errors import clip
from units.nouns import noun_forms


def _graph(graph: object) -> MathProblemGraph:
    if isinstance(graph, MathProblemGraph):
        return graph
    if isinstance(graph, Mapping):
        return graph_from_dict(graph)
    raise MathGraphError(
        "malformed_input", f"expected a MathProblemGraph or its dict, found {type(graph).__name__}", "graph"
    )


def count_nouns_of(graph: object, vocab: UnitVocabulary | None = None) -> tuple[str, ...]:
    """The count-noun surfaces a graph uses that ``vocab`` does not resolve, in source order, once each.

    Args:
        graph: a :class:`~adapters.MathProblemGraph` or its JSON dict (read with
            :func:`~adapters.graph_from_dict`).
        vocab: the vocabulary (default: :func:`units.default_vocabulary`).

    Returns:
        Surfaces exactly as written (``("apples", "jumping jacks")``); only those shaped
        as count nouns (see :meth:`units.UnitVocabulary.declarable_nouns`); a malformed
        unit text is left for binding to refuse.

    Raises:
        MathGraphError: as :func:`~adapters.graph_from_dict` for a bad dict;
            ``malformed_input`` for anything else, or a ``vocab`` that is no vocabulary.
    """
    voc = given_vocabulary(vocab)
    return voc.declarable_nouns(surface for _, surface in unit_surfaces(_graph(graph)))


def auto_count_nouns(graph: object, vocab: UnitVocabulary | None = None) -> UnitVocabulary:
    """``vocab`` with the graph's undeclared count nouns declared, refusing any that look like typos.

    The one call behind ``bgverify check --count-nouns auto``: the same as
    ``vocab.with_count_nouns(count_nouns_of(graph, vocab))`` (a singular and its plural
    become one kind, lemma derived), except that a noun one edit from a lexicon surface
    or from another unit surface of the same graph (``feeet``, ``appels`` beside
    ``apples``) is refused instead (:func:`units.nouns.near_misses`), and so is a noun
    whose amounts no answer reads (``mns`` or ``USD`` beside minutes or dollars, ``aps``
    beside apples; a distractor must be declared explicitly).  Every proof that relies
    on a declaration lists it (``count_noun:apples=apple``).

    Args:
        graph: a :class:`~adapters.MathProblemGraph` or its JSON dict.
        vocab: the base vocabulary (default: :func:`units.default_vocabulary`); nouns it
            declares already are kept.

    Returns:
        The derived vocabulary (cached per noun set), or ``vocab`` itself when the graph
        uses no undeclared noun.

    Raises:
        MathGraphError: ``unknown_unit`` naming the first near miss and its "did you
            mean", or the first noun no answer reads (path: where the graph writes it);
            ``malformed_input`` as :func:`count_nouns_of`.
    """
    voc = given_vocabulary(vocab)
    problem = _graph(graph)
    written = unit_surfaces(problem)
    try:
        derived = voc.with_auto_count_nouns([surface for _, surface in written])
    except UnitRefusal as exc:
        path = next((p for p, surface in written if surface == exc.subject), "")
        raise MathGraphError(exc.reason, exc.explain(), path) from None
    _refuse_unread_nouns(problem, written, voc, derived)
    _refuse_nouns_naming_another(written, voc, derived)
    return derived


def _read_kinds(graph: MathProblemGraph, derived: UnitVocabulary, asked: object) -> set[object]:
    """The kinds whose holdings the answer reads: the asked kind, and whatever a read kind is made from.

    A rate's numerator holding is made from its denominator holding, and a partition's
    result count from its chunk unit's holding, so each makes its source kind read when
    its own is (a fixpoint over the operations).  A unit that does not resolve is left
    out: binding refuses it.
    """
    sources: list[tuple[object, object]] = []  # (made kind, kind it is made from)
    for op in graph.operations:
        operand = op.operand
        if isinstance(operand, Rate):
            sources.append((_kind(derived, operand.numerator_unit), _kind(derived, operand.denominator_unit)))
        elif isinstance(operand, PartitionChunk):
            sources.append((_kind(derived, operand.result_unit), _kind(derived, operand.unit)))
    read = {asked}
    grown = True
    while grown:
        grown = False
        for made, source in sources:
            if made in read and source is not None and source not in read:
                read.add(source)
                grown = True
    return read


def _kind(vocab: UnitVocabulary, surface: str) -> object:
    """The registry kind of a surface, or ``None`` when ``vocab`` does not resolve it."""
    try:
        return vocab.resolve(surface).kind
    except UnitRefusal:
        return None


def _refuse_unread_nouns(
    graph: MathProblemGraph, written: list[tuple[str, str]], base: UnitVocabulary, derived: UnitVocabulary
) -> None:
    """Refuse a declared noun whose amounts no answer reads (:func:`_read_kinds`).

    Such a noun is what a spelling of a unit looks like when no spelling rule catches it
    (``ftess`` for ``ft``, ``mns`` for ``min``, ``USD`` for dollars, ``aps`` for apples):
    its amounts would go to a count kind of its own that no answer reads, and the answer
    would silently leave them out, however often it is written.  A genuine distractor
    ("and 3 pears, and 2 more pears" beside a question of apples) changes no answer, so
    refusing it loses nothing but the convenience: declare it explicitly to keep it.

    Raises:
        MathGraphError: ``unknown_unit`` at the noun's first path.
    """
    declared = set(base.declarable_nouns(s for _, s in written))
    asked = _kind(derived, graph.unknown.unit)
    if asked is None:
        return  # binding refuses the question's unit itself
    read = _read_kinds(graph, derived, asked)
    for path, surface in written:
        if surface in declared and _kind(derived, surface) not in read:
            raise MathGraphError(
                "unknown_unit",
                f"{clip(surface)} holds amounts that no answer reads (the question asks "
                f"{clip(graph.unknown.unit)}): an abbreviation or a typo of a unit? Declare it explicitly if it is a"
                " noun of its own",
                path,
            )


_MIN_COMPOUND_WORDS: Final[int] = 2
"""A noun of one word names no other noun inside it: only one of several words (``green apples``) can."""


def _refuse_nouns_naming_another(written: list[tuple[str, str]], base: UnitVocabulary, derived: UnitVocabulary) -> None:
    """Refuse a declared noun of several words one of which names another count kind of the graph (``green apples``).

    ``green apples`` beside ``apples`` may be some of the apples or a kind of their own, and
    ``apple pies`` may count apples or pies; declared as a kind of its own, its amounts would
    silently stay out of the other's total.  Words are split at spaces and hyphens and
    compared in every spelling of the noun (case, singular and plural: :func:`units.nouns.noun_forms`).
    Declare such a noun explicitly to say which.

    Raises:
        MathGraphError: ``unknown_unit`` at the noun's path.
    """
    declared = set(base.declarable_nouns(s for _, s in written))
    kinds: dict[str, object] = {}  # each count surface the graph writes -> its kind
    for _, written_surface in written:
        try:
            ref = derived.resolve(written_surface)
        except UnitRefusal:
            continue
        if ref.dimension == _COUNT:
            kinds[written_surface] = ref.kind
    for path, surface in written:
        words = _words(surface)
        if surface not in declared or len(words) < _MIN_COMPOUND_WORDS:
            continue
        for other, kind in kinds.items():
            if kind != kinds.get(surface) and _names(words, _words(other)):
                raise MathGraphError(
                    "unknown_unit",
                    f"{clip(surface)} names the count unit {clip(other)} too: some of the {other}, or a kind of its"
                    " own? Declare it explicitly to say which",
                    path,
                )


def _words(surface: str) -> list[str]:
    """The words of a noun, lower-cased, split at spaces, hyphens and apostrophes (``apple's pies``: apple, s, pies)."""
    return [w for w in _WORDS.split(surface.lower()) if w]


def _names(words: list[str], other: list[str]) -> bool:
    """Whether ``other``'s words stand together in ``words``, the last in any spelling (``red apple`` in ``big red apples``)."""
    n = len(other)
    for i in range(len(words) - n + 1):
        window = words[i : i + n]
        if window[:-1] == other[:-1] and noun_forms(window[-1]) & noun_forms(other[-1]):
            return True
    return False


_WORDS: Final = re.compile("[ \\-'\u2019]+")  # spaces, hyphens, apostrophes (straight and curly)
_COUNT: Final = COUNT

__all__ = ["auto_count_nouns", "count_nouns_of"]
