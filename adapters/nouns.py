"""A math problem graph's count nouns: which it uses undeclared, and declaring them automatically (SPEC §5).

Readers write count nouns as the problem text does (``"apples"``, ``"jumping
jacks"``).  :func:`count_nouns_of` lists the ones a vocabulary cannot resolve;
:func:`auto_count_nouns` declares them (a singular and its plural as one kind) and
refuses a near miss of a lexicon surface or of another surface of the same graph, so
that a typo never becomes a new kind.  The noun rules live in :mod:`units.nouns`.
"""

from __future__ import annotations

from collections.abc import Mapping

from adapters.errors import MathGraphError
from adapters.math_graph import MathProblemGraph, graph_from_dict, unit_surfaces
from units import UnitRefusal, UnitVocabulary, default_vocabulary


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
            ``malformed_input`` for anything else.
    """
    voc = vocab if vocab is not None else default_vocabulary()
    return voc.declarable_nouns(surface for _, surface in unit_surfaces(_graph(graph)))


def auto_count_nouns(graph: object, vocab: UnitVocabulary | None = None) -> UnitVocabulary:
    """``vocab`` with the graph's undeclared count nouns declared, refusing any that look like typos.

    The one call behind ``bgverify check --count-nouns auto``: the same as
    ``vocab.with_count_nouns(count_nouns_of(graph, vocab))`` (a singular and its plural
    become one kind, lemma derived), except that a noun one edit from a lexicon surface
    or from another unit surface of the same graph (``feeet``, ``appels`` beside
    ``apples``) is refused instead (:func:`units.nouns.near_misses`).  Every proof that
    relies on a declaration lists it (``count_noun:apples=apple``).

    Args:
        graph: a :class:`~adapters.MathProblemGraph` or its JSON dict.
        vocab: the base vocabulary (default: :func:`units.default_vocabulary`); nouns it
            declares already are kept.

    Returns:
        The derived vocabulary (cached per noun set), or ``vocab`` itself when the graph
        uses no undeclared noun.

    Raises:
        MathGraphError: ``unknown_unit`` naming the first near miss and its "did you
            mean" (path: where the graph writes it); ``malformed_input`` as
            :func:`count_nouns_of`.
    """
    voc = vocab if vocab is not None else default_vocabulary()
    written = unit_surfaces(_graph(graph))
    try:
        return voc.with_auto_count_nouns([surface for _, surface in written])
    except UnitRefusal as exc:
        path = next((p for p, surface in written if surface == exc.subject), "")
        raise MathGraphError(exc.reason, exc.explain(), path) from None


__all__ = ["auto_count_nouns", "count_nouns_of"]
