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
from fractions import Fraction
from typing import Any, Final

from adapters._common import given_vocabulary
from adapters.errors import MathGraphError
from adapters.math_graph import MathProblemGraph, bind_math_problem_graph, graph_from_dict, unit_surfaces
from units import UnitRefusal, UnitVocabulary
from units.dimension import COUNT
from units.errors import clip
from units.exact import format_exact
from units.nouns import declaration_hint, noun_forms
from verifier import Answer, verify


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
    whose meaning the answer depends on: one that, written as another unit of the graph,
    changes the certified answer (``mns`` or ``USD`` beside minutes or dollars, ``aps``
    beside apples; a distractor of that kind must be declared explicitly).  Every proof
    that relies on a declaration lists it (``count_noun:apples=apple``).

    Args:
        graph: a :class:`~adapters.MathProblemGraph` or its JSON dict.
        vocab: the base vocabulary (default: :func:`units.default_vocabulary`); nouns it
            declares already are kept.

    Returns:
        The derived vocabulary (cached per noun set), or ``vocab`` itself when the graph
        uses no undeclared noun.

    Raises:
        MathGraphError: ``unknown_unit`` naming the first near miss and its "did you
            mean", or the first noun the answer depends on (path: where the graph writes it);
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
    _refuse_nouns_naming_another(written, voc, derived)
    _refuse_meaning_dependent_nouns(problem, written, voc, derived)
    return derived


_UNIT_FIELDS: Final[frozenset[str]] = frozenset({"unit", "numerator_unit", "denominator_unit", "result_unit"})
"""The keys of a math graph's JSON layout that hold a unit surface."""


def _kind(vocab: UnitVocabulary, surface: str) -> object:
    """The registry kind of a surface, or ``None`` when ``vocab`` does not resolve it."""
    try:
        return vocab.resolve(surface).kind
    except UnitRefusal:
        return None


def _respelled(data: Mapping[str, object], surfaces: frozenset[str], other: str) -> dict[str, Any]:
    """A math graph's JSON layout with every unit in ``surfaces`` written as ``other`` instead.

    Two initial possessions of one entity that the respelling makes one unit are one
    possession of their sum ("30 minutes and 10 mns" read as 40 minutes).
    """

    def walk(item: object) -> object:
        if isinstance(item, dict):
            return {
                key: other if key in _UNIT_FIELDS and value in surfaces else walk(value) for key, value in item.items()
            }
        if isinstance(item, list):
            return [walk(x) for x in item]
        return item

    out: dict[str, Any] = {key: walk(value) for key, value in data.items()}
    held: dict[tuple[str, str], dict[str, Any]] = {}
    for poss in out["initial_state"]:
        key = (poss["entity"], poss["quantity"]["unit"])
        if key in held:
            kept = held[key]["quantity"]
            kept["value"] = format_exact(Fraction(str(kept["value"])) + Fraction(str(poss["quantity"]["value"])))
        else:
            held[key] = poss
    out["initial_state"] = list(held.values())
    return out


def _relates_a_kind_to_itself(data: Mapping[str, Any], vocab: UnitVocabulary) -> bool:
    """Whether a rate or a partition of a math graph's JSON layout has one kind on both sides.

    A respelling that makes one (a price of dollars per dollar, apples partitioned into
    apples) is no reading of the graph: no one writes those, so the noun cannot mean that.
    """
    for op in data["operations"]:
        operand = op["operand"]
        if op["kind"] == "apply_rate":
            sides = (operand["numerator_unit"], operand["denominator_unit"])
        elif op["kind"] == "unit_partition":
            sides = (operand["unit"], operand["result_unit"])
        else:
            continue
        first, second = (_kind(vocab, side) for side in sides)
        if first is not None and first == second:
            return True
    return False


def _outcome(graph: Mapping[str, object], vocab: UnitVocabulary) -> tuple[Fraction | None, str | None]:
    """``(value, None)`` for a certified answer, ``(None, reason)`` for a refusal in binding or verification."""
    try:
        report = verify(bind_math_problem_graph(graph_from_dict(graph), vocab), vocab)
    except MathGraphError as exc:
        return None, exc.reason
    (answer,) = report.answers.values()
    return (Fraction(answer.value), None) if isinstance(answer, Answer) else (None, answer.reason)


def _refuse_meaning_dependent_nouns(
    graph: MathProblemGraph, written: list[tuple[str, str]], base: UnitVocabulary, derived: UnitVocabulary
) -> None:
    """Refuse a declared noun when the answer depends on whether it is a unit of its own or a spelling of another.

    A spelling that no spelling rule catches (``mns`` for minutes, ``USD`` or ``bucks``
    for dollars, ``aps`` for apples, ``kids`` for children) becomes a count kind of its
    own, and the amounts written in it then stay out of the holdings of the unit it
    spells: out of an answer, out of a comparison that would have failed, out of a
    division that would not have been whole.  Whether that changes the answer is
    decided by the answer itself: the graph is verified again with the noun (all its
    spellings) written as each other unit the graph writes, and the noun is refused
    unless every such reading certifies the same value as the graph as written.  A
    genuine distractor the answer depends on that way ("3 pens" beside the minutes
    asked of the same entity) is refused too: declare it explicitly to keep it.  A noun
    whose meaning changes no answer is kept (``stickers`` held only by an entity the
    question does not ask about).  Only a certified answer is protected: a graph its
    verification refuses keeps its refusal.

    Raises:
        MathGraphError: ``unknown_unit`` at the noun's first path, naming both readings.
    """
    declared = set(base.declarable_nouns(s for _, s in written))
    if not declared:
        return
    data = graph.to_json()
    as_written, _ = _outcome(data, derived)
    if as_written is None:
        return  # nothing is certified, so nothing can be wrong
    surfaces = list(dict.fromkeys(s for _, s in written))
    kinds = {surface: _kind(derived, surface) for surface in surfaces}
    first_path = {surface: path for path, surface in reversed(written)}
    asked = kinds.get(graph.unknown.unit)
    for noun in sorted((s for s in surfaces if s in declared), key=lambda s: kinds[s] == asked):  # the asked kind last
        spellings = frozenset(s for s in surfaces if s in declared and kinds[s] == kinds[noun])
        if noun != min(spellings, key=surfaces.index):
            continue  # each kind once, by its first surface
        for other in (s for s in surfaces if kinds[s] is not None and kinds[s] != kinds[noun]):
            reading = _respelled(data, spellings, other)
            if _relates_a_kind_to_itself(reading, derived):
                continue  # no reading of the graph
            as_other, reason = _outcome(reading, derived)
            if as_other != as_written:
                other_text = f"refused {reason}" if as_other is None else format_exact(as_other)
                raise MathGraphError(
                    "unknown_unit",
                    f"the answer depends on what {clip(noun)} means: {format_exact(as_written)} as a count noun of"
                    f" its own, {other_text} as another spelling of {clip(other)}. Declare it explicitly"
                    f" ({declaration_hint(noun)}) if it is a noun of its own",
                    first_path[noun],
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
