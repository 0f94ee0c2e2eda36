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
from adapters.math_graph import (
    Comparison,
    MathProblemGraph,
    PartitionChunk,
    Quantity,
    Rate,
    graph_from_dict,
    unit_surfaces,
)
from units import UnitRefusal, UnitVocabulary
from units.dimension import COUNT
from units.errors import clip
from units.nouns import declaration_hint, noun_forms


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
    that splits an entity's amounts between a holding the answer reads and one it does
    not (``mns`` or ``USD`` beside minutes or dollars, ``aps`` beside apples; a
    distractor must be declared explicitly).  Every proof that relies on a declaration
    lists it (``count_noun:apples=apple``).

    Args:
        graph: a :class:`~adapters.MathProblemGraph` or its JSON dict.
        vocab: the base vocabulary (default: :func:`units.default_vocabulary`); nouns it
            declares already are kept.

    Returns:
        The derived vocabulary (cached per noun set), or ``vocab`` itself when the graph
        uses no undeclared noun.

    Raises:
        MathGraphError: ``unknown_unit`` naming the first near miss and its "did you
            mean", or the first noun that splits a holding (path: where the graph writes it);
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


_Holding = tuple[str, object]
"""One entity's holding of one kind: ``(entity, registry kind)``."""


def _kind(vocab: UnitVocabulary, surface: str) -> object:
    """The registry kind of a surface, or ``None`` when ``vocab`` does not resolve it."""
    try:
        return vocab.resolve(surface).kind
    except UnitRefusal:
        return None


def _holders(graph: MathProblemGraph, path: str) -> tuple[str, ...]:
    """The entities whose holdings the unit written at ``path`` (of :func:`unit_surfaces`) names.

    An initial possession's entity; an operation's actor, with a transfer's target and a
    comparison's reference; none for the question's unit.
    """
    if path.startswith("initial_state["):
        return (graph.initial_state[int(path[14 : path.index("]")])].entity,)
    if not path.startswith("operations["):
        return ()
    op = graph.operations[int(path[11 : path.index("]")])]
    operand = op.operand
    reference = (operand.reference_actor,) if isinstance(operand, Comparison) else ()
    return (op.actor, *((op.target,) if op.target is not None else ()), *reference)


def _read_holdings(graph: MathProblemGraph, derived: UnitVocabulary, asked: object) -> set[_Holding]:
    """The holdings the answer reads: the asked one (each entity's, for a total), and those they depend on.

    A rate's numerator holding is made from its actor's denominator holding, a
    partition's result count from its actor's holding of the chunk unit, a transfer's
    target gains what its actor gives, and a comparison ties its actor's holding to its
    reference's (a multiplicative one in whatever kind either holds), so each makes the
    other read when its own is (a fixpoint over the operations).  A unit that does not
    resolve is left out: binding refuses it.
    """
    asked_by = graph.entities if graph.unknown.entity is None else (graph.unknown.entity,)
    read: set[_Holding] = {(entity, asked) for entity in asked_by}
    links: list[tuple[_Holding, _Holding]] = []  # (read holding, a holding it makes read)
    tied: list[tuple[str, str]] = []  # entities a multiplicative comparison ties in every kind
    for op in graph.operations:
        operand, actor = op.operand, op.actor
        if isinstance(operand, Rate):
            links.append(
                ((actor, _kind(derived, operand.numerator_unit)), (actor, _kind(derived, operand.denominator_unit)))
            )
        elif isinstance(operand, PartitionChunk):
            links.append(((actor, _kind(derived, operand.result_unit)), (actor, _kind(derived, operand.unit))))
        elif isinstance(operand, Comparison) and operand.delta is not None:
            kind = _kind(derived, operand.delta.unit)
            links += [
                ((actor, kind), (operand.reference_actor, kind)),
                ((operand.reference_actor, kind), (actor, kind)),
            ]
        elif isinstance(operand, Comparison):
            tied += [(actor, operand.reference_actor), (operand.reference_actor, actor)]
        elif isinstance(operand, Quantity) and op.target is not None:
            kind = _kind(derived, operand.unit)
            links.append(((op.target, kind), (actor, kind)))
    grown = True
    while grown:
        before = len(read)
        read |= {made for source, made in links if source in read and made[1] is not None}
        read |= {(other, kind) for one, other in tied for entity, kind in list(read) if entity == one}
        grown = len(read) > before
    return read


def _refuse_unread_nouns(
    graph: MathProblemGraph, written: list[tuple[str, str]], base: UnitVocabulary, derived: UnitVocabulary
) -> None:
    """Refuse a declared noun that may split an entity's holding into a part the answer reads and a part it does not.

    A spelling of a unit that no spelling rule catches (``ftess`` for ``ft``, ``mns`` for
    ``min``, ``USD`` for dollars, ``aps`` for apples) becomes a count kind of its own, and
    an entity's amounts then fall into two holdings: if the answer reads one
    (:func:`_read_holdings`) and not the other, it silently leaves amounts out, however
    often the noun is written.  So a declared noun's kind must be read in some holding,
    and where an entity has a holding the answer reads, every other holding of that
    entity must be read too when either is of a declared noun (an entity no answer reads
    may hold what a transfer gave it: the ``marbles`` Anna gives Ben).  A genuine
    distractor ("and 3 pears, and 2 more pears" beside the apples asked) changes no
    answer, so refusing it loses nothing but the convenience: declare it explicitly to
    keep it.

    Raises:
        MathGraphError: ``unknown_unit`` at the declared noun's first path.
    """
    declared = set(base.declarable_nouns(s for _, s in written))
    asked = _kind(derived, graph.unknown.unit)
    if asked is None:
        return  # binding refuses the question's unit itself
    read = _read_holdings(graph, derived, asked)
    declared_kinds = {_kind(derived, surface): surface for _, surface in reversed(written) if surface in declared}
    first_path = {surface: path for path, surface in reversed(written)}
    kinds_read = {kind for _, kind in read}
    for path, surface in written:
        kind = _kind(derived, surface)
        if kind in declared_kinds and kind not in kinds_read:
            raise MathGraphError(
                "unknown_unit",
                f"{clip(surface)} holds amounts that no answer reads (the question asks {clip(graph.unknown.unit)}):"
                f" an abbreviation or a typo of a unit? Declare it explicitly ({declaration_hint(surface)}) if it is a"
                " noun of its own",
                path,
            )
        for entity in _holders(graph, path):
            if kind is None or (entity, kind) in read:
                continue
            read_kinds = [k for e, k in read if e == entity]
            nouns = [declared_kinds[k] for k in (kind, *read_kinds) if k in declared_kinds]
            if read_kinds and nouns:
                raise MathGraphError(
                    "unknown_unit",
                    f"{clip(surface)} of {clip(entity)} holds amounts that no answer reads, while another holding of"
                    f" {clip(entity)} is read (the question asks {clip(graph.unknown.unit)}): is {clip(nouns[0])} an"
                    f" abbreviation or a typo of a unit? Declare it explicitly ({declaration_hint(nouns[0])}) if it is"
                    " a noun of its own",
                    first_path[nouns[0]],
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
                    f" own? Declare it explicitly to say which ({declaration_hint(surface)}, or onto the lemma of"
                    f" {clip(other)})",
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
