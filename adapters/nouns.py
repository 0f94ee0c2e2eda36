"""A math problem graph's count nouns: which it uses undeclared, and declaring them automatically (SPEC §5).

Readers write count nouns as the problem text does (``"apples"``, ``"jumping
jacks"``).  :func:`count_nouns_of` lists the ones a vocabulary cannot resolve;
:func:`auto_count_nouns` declares them (a singular and its plural as one kind;
:func:`bind_with_auto_count_nouns` binds the graph in the result as well) and
refuses a near miss of a lexicon surface or of another surface of the same graph,
so that a typo never becomes a new kind.  The noun rules live in :mod:`units.nouns`.
"""

from __future__ import annotations

import functools
import re
import threading
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Final

from adapters._common import given_vocabulary
from adapters.errors import MathGraphError
from adapters.math_graph import (
    MathProblemGraph,
    PartitionChunk,
    bind_math_problem_graph,
    graph_from_dict,
    unit_surfaces,
)
from units import UnitRef, UnitRefusal, UnitVocabulary
from units.dimension import COUNT, TEMPERATURE
from units.errors import clip
from units.exact import format_exact, json_kind
from units.nouns import LONG_WORD_CHARS, edit_distance, noun_forms
from verifier import Answer, BindingGraph, GraphReport, verify


def _graph(graph: object) -> MathProblemGraph:
    if isinstance(graph, MathProblemGraph):
        return graph
    if isinstance(graph, Mapping):
        return graph_from_dict(graph)
    raise MathGraphError(
        "malformed_input", f"expected a MathProblemGraph or its dict, found {json_kind(graph)}", "graph"
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
    return _declared_for(_graph(graph), given_vocabulary(vocab))[0]


def bind_with_auto_count_nouns(
    graph: object, vocab: UnitVocabulary | None = None
) -> tuple[BindingGraph, UnitVocabulary]:
    """Bind a math graph with its undeclared count nouns declared: :func:`auto_count_nouns`, then binding, done once.

    The same as ``voc = auto_count_nouns(graph, vocab)`` followed by
    ``bind_math_problem_graph(graph, voc)``, without binding the graph twice: the check of
    nouns whose meaning the answer depends on binds the graph as written, and that
    binding is returned (``bgverify check --count-nouns auto`` binds each record so).

    Args:
        graph: a :class:`~adapters.MathProblemGraph` or its JSON dict.
        vocab: the base vocabulary (default: :func:`units.default_vocabulary`).

    Returns:
        ``(binding graph, derived vocabulary)``; verify the graph in that vocabulary.

    Raises:
        MathGraphError: as :func:`auto_count_nouns`, then as :func:`~adapters.bind_math_problem_graph`.
    """
    bound, derived, _ = bind_and_verify_with_auto_count_nouns(graph, vocab)
    return bound, derived


def bind_and_verify_with_auto_count_nouns(
    graph: object, vocab: UnitVocabulary | None = None
) -> tuple[BindingGraph, UnitVocabulary, GraphReport | None]:
    """:func:`bind_with_auto_count_nouns`, with the report the checks made when they made one.

    The check of nouns whose meaning the answer depends on verifies the graph as written
    (``verify(graph, derived)``, policy ``count_exact``); that report is returned, so that
    a caller verifying under that policy need not verify again
    (:meth:`adapters.records.BoundRecord.verify`).

    Returns:
        ``(binding graph, derived vocabulary, report or None)``: the report is
        ``verify(graph, derived, "count_exact")``, or ``None`` when no noun was declared
        (nothing was verified) or the checks did not reach it.

    Raises:
        MathGraphError: as :func:`bind_with_auto_count_nouns`.
    """
    problem = _graph(graph)
    derived, checked = _declared_for(problem, given_vocabulary(vocab))
    if checked is None:
        return bind_math_problem_graph(problem, derived), derived, None
    return checked[0], derived, checked[1]


def _declared_for(
    problem: MathProblemGraph, voc: UnitVocabulary
) -> tuple[UnitVocabulary, tuple[BindingGraph, GraphReport] | None]:
    """:func:`auto_count_nouns` of a graph, with the graph as written bound and verified in the derived vocabulary when the checks did so."""
    written = unit_surfaces(problem)
    try:
        derived = voc.with_auto_count_nouns([surface for _, surface in written])
    except UnitRefusal as exc:
        path = next((p for p, surface in written if surface == exc.subject), "")
        raise MathGraphError(exc.reason, exc.explain(), path) from None
    declared = set(voc.declarable_nouns(surface for _, surface in written))  # the nouns declared here
    _refuse_nouns_naming_another(written, declared, derived)
    _refuse_partitions_into_named_multiples(problem, declared, derived)
    return derived, _refuse_meaning_dependent_nouns(problem, written, declared, derived)


def _kind(vocab: UnitVocabulary, surface: str) -> object:
    """The registry kind of a surface, or ``None`` when ``vocab`` does not resolve it."""
    try:
        return vocab.resolve(surface).kind
    except UnitRefusal:
        return None


@dataclass(frozen=True)
class _Respelling:
    """Every unit in ``surfaces`` written as ``other``, each of them ``scale`` of it (a reading of a math graph).

    Amounts in ``surfaces`` are multiplied by ``scale`` (a rate per one of them divided
    by it), so that a noun meaning ``scale`` of ``other`` is read; a multiply's or
    divide's factor is a pure number and stays.  A conversion the respelling makes an
    identity (a rate of 1 cent per cent, a partition of cents into dimes read as 10
    cents each: :func:`_sizes_given`) says only that the two holdings are one; it is
    read as a multiply by 1 (keeping its place: later operations and the unknown name
    states by position).  A share of the noun alone has no such reading
    (:func:`_scales_the_noun`).
    """

    surfaces: frozenset[str]
    other: str
    scale: Fraction
    vocab: UnitVocabulary

    def unit(self, text: str) -> str:
        return self.other if text in self.surfaces else text

    def amount(self, value: object, text: str) -> object:
        return format_exact(Fraction(str(value)) * self.scale) if text in self.surfaces else value

    def quantity(self, q: Mapping[str, Any]) -> dict[str, Any]:
        return {**q, "unit": self.unit(q["unit"]), "value": self.amount(q["value"], q["unit"])}

    def operation(self, op: Mapping[str, Any]) -> dict[str, Any]:
        operand = dict(op["operand"])
        kind = op["kind"]
        if kind in ("add", "subtract", "transfer"):
            operand = self.quantity(operand)
        elif kind in ("multiply", "divide"):
            operand["unit"] = self.unit(operand["unit"])
        elif kind == "apply_rate":
            per = self.scale if operand["denominator_unit"] in self.surfaces else 1
            value = Fraction(str(self.amount(operand["value"], operand["numerator_unit"]))) / per
            numerator, denominator = self.unit(operand["numerator_unit"]), self.unit(operand["denominator_unit"])
            operand.update(value=format_exact(value), numerator_unit=numerator, denominator_unit=denominator)
        elif kind == "compare_additive":
            operand["delta"] = self.quantity(operand["delta"])
        elif kind == "unit_partition":
            chunk = self.amount(operand["value"], operand["unit"])
            operand.update(value=chunk, unit=self.unit(operand["unit"]), result_unit=self.unit(operand["result_unit"]))
        return {**op, "operand": operand}

    def graph(self, data: Mapping[str, Any]) -> dict[str, Any]:
        """The reading of a math graph's JSON layout.

        Two initial possessions of one entity that the respelling makes one unit are one
        possession of their sum ("30 minutes and 10 mns" read as 40 minutes).
        """
        held: dict[tuple[str, str], dict[str, Any]] = {}
        for poss in data["initial_state"]:
            respelled = {**poss, "quantity": self.quantity(poss["quantity"])}
            key = (respelled["entity"], respelled["quantity"]["unit"])
            if key in held:
                kept = held[key]["quantity"]
                total = Fraction(str(kept["value"])) + Fraction(str(respelled["quantity"]["value"]))
                kept["value"] = format_exact(total)
            else:
                held[key] = respelled
        operations = []
        for op in data["operations"]:
            read = self.operation(op)
            operand = read["operand"]
            if op["kind"] == "unit_partition" and self._is_identity(op["operand"], operand):
                read = _multiply(read, operand["unit"])
            elif op["kind"] == "apply_rate":
                numerator, denominator = operand["numerator_unit"], operand["denominator_unit"]
                if self.is_size(Fraction(str(operand["value"])), numerator, denominator, Fraction(1)):
                    read = _multiply(read, denominator)
            operations.append(read)
        return {
            **data,
            "initial_state": list(held.values()),
            "operations": operations,
            "unknown": {**data["unknown"], "unit": self.unit(data["unknown"]["unit"])},
        }

    def _is_identity(self, written: Mapping[str, Any], read: Mapping[str, Any]) -> bool:
        """Whether a partition's reading (``read``, of ``written``) counts the holding it partitions in itself.

        Into the noun (dimes of 10 cents, read as 10 cents each) that is a chunk of the
        noun's size; out of the noun (apples into 6-apple bags, apples read as 1/6 bag) a
        chunk of one of the unit the result is in.  Sizes compare exactly across the
        surfaces of a kind (a chunk of 10 ``cent`` is 10 ``cents``, 3/4 hour 45 minutes).
        """
        one = self.scale if written["result_unit"] in self.surfaces else Fraction(1)
        return self.is_size(Fraction(str(read["value"])), read["unit"], read["result_unit"], one)

    def is_size(self, amount: Fraction, unit: str, other: str, size: Fraction) -> bool:
        """Whether ``amount`` of ``unit`` is exactly ``size`` of ``other`` (``False`` for units of two kinds)."""
        try:
            return amount * self.vocab.factor(unit, other) == size
        except UnitRefusal:
            return False


def _multiply(op: Mapping[str, Any], unit: str) -> dict[str, Any]:
    """The operation ``op`` of a reading made a multiply of the actor's ``unit`` holding by 1."""
    return {**op, "kind": "multiply", "operand": {"unit": unit, "value": 1}}


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
    _, value, reason = _bound_outcome(graph, vocab)
    return value, reason


def _bound_outcome(
    graph: MathProblemGraph | Mapping[str, object], vocab: UnitVocabulary
) -> tuple[tuple[BindingGraph, GraphReport] | None, Fraction | None, str | None]:
    """:func:`_outcome` of a graph or its dict, with its binding and report (``None`` when binding refused it)."""
    try:
        bound = bind_math_problem_graph(_graph(graph), vocab)
    except MathGraphError as exc:
        return None, None, exc.reason
    report = verify(bound, vocab)
    (answer,) = report.answers.values()
    if isinstance(answer, Answer):
        return (bound, report), Fraction(answer.value), None
    return (bound, report), None, answer.reason


def _refuse_meaning_dependent_nouns(
    graph: MathProblemGraph, written: list[tuple[str, str]], declared: set[str], derived: UnitVocabulary
) -> tuple[BindingGraph, GraphReport] | None:
    """Refuse a declared noun when the answer depends on whether it is a unit of its own or a spelling of another.

    A spelling that no spelling rule catches (``mns`` for minutes, ``USD`` or ``bucks``
    for dollars, ``aps`` for apples, ``kids`` for children) becomes a count kind of its
    own, and the amounts written in it then stay out of the holdings of the unit it
    spells: out of an answer, out of a comparison that would have failed, out of a
    division that would not have been whole.  Whether that changes the answer is
    decided by the answer itself: the graph is verified again with the noun (all its
    spellings) written as one, two and three of each other unit the graph writes
    (:data:`_SCALES`; one surface a kind), and as the size a rate or a partition of the
    graph gives it (10 cents for ``10 cents per dime`` or for cents changed into 10-cent
    dimes, the conversion then an identity: :func:`_sizes_given`), and the noun is
    refused unless every such reading certifies the same value as the graph as written.
    A reading that is no reading of the graph (:func:`_relates_a_kind_to_itself`: dollars
    per dollar) is set aside, and so is a doubled one refused only for a count no longer
    whole (:data:`_SCALE_ARTEFACTS`); any other refusal (an inconsistent comparison, a
    second rate onto a holding) refuses the noun, since the graph read so is not
    certified.  At a size a conversion gives, the noun is refused too when another
    conversion gives it another worth (tins of 10 and of 12 pencils), or when the graph
    takes a share of the noun alone (:func:`_scales_the_noun`), which no reading at its
    worth can hold apart.  A genuine distractor the answer depends on ("3 pens" beside
    the minutes asked of the same entity) is refused too: declare it explicitly to keep
    it.  A noun whose meaning changes no answer is kept (``stickers`` held only by an
    entity the question does not ask about).  Only a certified answer is protected: a
    graph its verification refuses keeps its refusal.

    Returns:
        The graph as written bound in ``derived`` and its report (the binding and the
        verification the checks made), or ``None`` when nothing was declared or binding
        refused the graph.

    Raises:
        MathGraphError: ``unknown_unit`` at the noun's first path, naming both readings;
            ``input_too_large`` beyond :data:`MAX_RESPELLING_WORK`.
    """
    if not declared:
        return None
    checked, as_written, _ = _bound_outcome(graph, derived)
    if as_written is None:
        return checked  # nothing is certified, so nothing can be wrong
    data: dict[str, Any] = graph.to_json()
    surfaces = list(dict.fromkeys(s for _, s in written))
    kinds = {surface: _kind(derived, surface) for surface in surfaces}
    first_of_kind = {kind: surface for surface, kind in reversed(kinds.items()) if kind is not None}
    first_path = {surface: path for path, surface in reversed(written)}
    asked = kinds.get(graph.unknown.unit)
    nouns = sorted((s for s in first_of_kind.values() if s in declared), key=lambda s: kinds[s] == asked)
    others = list(first_of_kind.values())
    if len(nouns) * len(others) * len(_SCALES) * (1 + len(graph.operations)) > MAX_RESPELLING_WORK:
        raise MathGraphError(
            "input_too_large",
            f"{len(nouns)} nouns to declare automatically beside {len(others)} units in {len(graph.operations)}"
            " operations are too many readings to check; declare the nouns explicitly",
            "graph",
        )
    for noun in nouns:  # the asked kind last: of two nouns that may be one, the other is named
        spellings = frozenset(s for s in surfaces if s in declared and kinds[s] == kinds[noun])
        sizes = [(o, Fraction(k)) for o in others if kinds[o] != kinds[noun] for k in _SCALES]
        given_sizes = _sizes_given(data, spellings, kinds)
        asked_in_noun = graph.unknown.unit in spellings
        for other, scale in sizes + given_sizes:
            respelling = _Respelling(spellings, other, scale, derived)
            given = any(respelling.is_size(worth, unit, other, scale) for unit, worth in given_sizes)
            disagreement = _disagreement(data, respelling, as_written, given=given, asked_in_noun=asked_in_noun)
            if disagreement is not None:
                raise MathGraphError(
                    "unknown_unit",
                    f"the answer depends on what {clip(noun)} means: {format_exact(as_written)} as a count noun of"
                    f" its own{disagreement}. Declare it explicitly ({derived.declaration_hint(noun)}) if it is a"
                    " noun of its own",
                    first_path[noun],
                )
    return checked


def _disagreement(
    data: dict[str, Any], respelling: _Respelling, as_written: Fraction, *, given: bool, asked_in_noun: bool
) -> str | None:
    """How reading the graph as ``respelling`` disagrees with the answer ``as_written``; ``None`` if it agrees.

    ``given``: the size is one a conversion of the graph gives the noun (:func:`_sizes_given`),
    so the reading is what the noun would mean, not a test of a spelling: a reading there
    that relates a kind to itself means another conversion gives the noun another worth,
    and a share of the noun alone cannot be read (:func:`_scales_the_noun`).
    """
    other, scale = clip(respelling.other), format_exact(respelling.scale)
    if given and _scales_the_noun(data, respelling.surfaces):
        return (
            f"; but a conversion of the graph makes it worth {scale} {other}, and a share of it alone (a multiply,"
            f" a divide or a fraction of them) has no reading in {other}"
        )
    reading = respelling.graph(data)
    if _relates_a_kind_to_itself(reading, respelling.vocab):
        if given:  # another conversion gives the noun another worth: it means two things
            return f"; but the graph's conversions give it more than one worth in {other} (one of them {scale})"
        return None  # no reading of the graph
    as_other, reason = _outcome(reading, respelling.vocab)
    if asked_in_noun and as_other is not None:
        as_other /= respelling.scale  # the answer itself is in the noun: compare it in the noun
    artefact = respelling.scale != 1 and reason in _SCALE_ARTEFACTS and not given  # a given size is the noun's worth
    if as_other == as_written or artefact:
        return None
    other_text = f"refused {reason}" if as_other is None else format_exact(as_other)
    spelled = f"another spelling of {other}" if respelling.scale == 1 else f"a unit of {scale} {other}"
    return f", {other_text} as {spelled}"


def _scales_the_noun(data: Mapping[str, Any], spellings: frozenset[str]) -> bool:
    """Whether an operation of a math graph's JSON layout scales a holding of the noun alone.

    A multiply or a divide of the noun, or a ``fraction_portion`` of what a partition
    into or out of the noun made.  Read at a worth a conversion gives the noun, the noun
    joins the other unit's holding, and the share would be taken of all of it: 90 cents
    into 10-cent dimes, 30 cents found and a third of the dimes given away had read as
    a third of 120 cents, agreeing with the graph as written by coincidence (a review
    certified 120 cents in all for a reader's 130).
    """
    partitioned: dict[str, bool] = {}  # actor -> whether its latest partition is into or out of the noun
    for op in data["operations"]:
        operand, actor = op["operand"], op["actor"]
        if op["kind"] == "unit_partition":
            partitioned[actor] = operand["unit"] in spellings or operand["result_unit"] in spellings
        elif (op["kind"] in ("multiply", "divide") and operand["unit"] in spellings) or (
            op["kind"] == "fraction_portion" and partitioned.get(actor, False)
        ):
            return True
    return False


def _sizes_given(
    data: Mapping[str, Any], spellings: frozenset[str], kinds: Mapping[str, object]
) -> list[tuple[str, Fraction]]:
    """The sizes of other units that a rate or a partition of the graph says the noun is.

    ``10 cents per dime`` and a partition of cents into 10-cent dimes both make a dime 10
    cents; ``3 stickers per dollar`` makes a sticker 1/3 dollar, and a partition of
    apples into 6-apple bags an apple 1/6 bag.  Read at that size, the conversion says
    only that two holdings are one (:meth:`_Respelling.graph`), and every other amount
    written in the noun (another entity's dimes, dimes gained afterwards) joins the
    other unit.  At any other size the conversion relates a kind to itself, which is no
    reading of the graph; so without these sizes, a noun a conversion gives a worth was
    never read as that worth (reviews certified 70 cents for 4 dimes at 10 cents a dime
    beside 30 cents and 2 more dimes, and 90 cents for 90 cents changed into dimes
    beside Kim's 2 dimes).
    """
    sizes: list[tuple[str, Fraction]] = []
    for op in data["operations"]:
        operand = op["operand"]
        if op["kind"] == "apply_rate":
            worth, noun = operand["numerator_unit"], operand["denominator_unit"]  # one noun is worth value worths
        elif op["kind"] == "unit_partition":
            worth, noun = operand["unit"], operand["result_unit"]
        else:
            continue
        value = Fraction(str(operand["value"]))
        if value <= 0 or None in (kinds.get(worth), kinds.get(noun)) or kinds.get(worth) == kinds.get(noun):
            continue
        if noun in spellings and worth not in spellings:
            sizes.append((worth, value))
        elif worth in spellings and noun not in spellings:
            sizes.append((noun, 1 / value))
    return list(dict.fromkeys(sizes))


_SCALES: Final[tuple[int, ...]] = (1, 2, 3)
"""The sizes of the other unit each noun is read as, so that a reading agreeing only by coincidence is caught at
another (10 cents and 10 bucks, halved, are 10 cents as one cent a buck, 15 as two).  A reading's answer is
A + B*s + C/s in the size s for a graph of sums, rates, comparisons and one divide or multiply of a merged holding
(a rate per the noun gives the 1/s), so three sizes that agree agree for every size; a graph built so that more
such terms cancel at all three sizes is not caught (a fifth review built the two-term case)."""

_SCALE_ARTEFACTS: Final[frozenset[str]] = frozenset({"non_integer_count", "non_exact_division"})
"""Refusals a doubled reading may make for its own sake (a price per two apples no longer whole): set aside."""

MAX_RESPELLING_WORK: Final[int] = 10_000
"""The most readings times steps one graph's automatic declaration checks (a word problem needs a few hundred)."""


_MIN_COMPOUND_WORDS: Final[int] = 2
"""A noun of one word names no other noun inside it: only one of several words (``green apples``) can."""


def _refuse_nouns_naming_another(written: list[tuple[str, str]], declared: set[str], derived: UnitVocabulary) -> None:
    """Refuse a declared noun of several words one of which names another count kind of the graph (``green apples``).

    ``green apples`` beside ``apples`` may be some of the apples or a kind of their own, and
    ``apple pies`` may count apples or pies; declared as a kind of its own, its amounts would
    silently stay out of the other's total.  Words are split at spaces and hyphens and
    compared in every spelling of the noun (case, singular and plural: :func:`units.nouns.noun_forms`).
    Declare such a noun explicitly to say which.  So is a noun one of whose words names a
    temperature unit (:func:`_measure_named`: ``degrees Celsius``).

    Raises:
        MathGraphError: ``unknown_unit`` at the noun's path.
    """
    kinds: dict[str, object] = {}  # each count surface the graph writes -> its kind
    for _, written_surface in written:
        try:
            ref = derived.resolve(written_surface)
        except UnitRefusal:
            continue
        if ref.dimension == _COUNT:
            kinds[written_surface] = ref.kind
    for path, surface in written:
        if surface not in declared:
            continue
        measure = _measure_named(surface, derived)
        if measure is not None:
            raise MathGraphError(
                "unknown_unit",
                f"{clip(surface)} names the temperature unit {clip(measure)}: a reading in it, or a count of its"
                f" own? Declare it explicitly to count it ({derived.declaration_hint(surface)})",
                path,
            )
        words = _words(surface)
        if len(words) < _MIN_COMPOUND_WORDS:
            continue
        for other, kind in kinds.items():
            if kind != kinds.get(surface) and _names(words, _words(other)):
                raise MathGraphError(
                    "unknown_unit",
                    f"{clip(surface)} names the count unit {clip(other)} too: some of the {other}, or a kind of its"
                    f" own? Declare it explicitly to say which ({derived.declaration_hint(surface)}, or onto the lemma of"
                    f" {clip(other)})",
                    path,
                )


def _refuse_partitions_into_named_multiples(
    graph: MathProblemGraph, declared: set[str], derived: UnitVocabulary
) -> None:
    """Refuse a partition into a declared noun whose words name a fixed multiple of a count (``half-dozens``).

    A partition counts each chunk as one of its result; a ``dozen`` takes chunks of 12
    things (binding checks that), but a noun declared here is a kind of its own, so how
    many things one ``half-dozens``, ``dozen cartons`` or ``pairs of shoes`` holds is not
    written: 36 eggs in chunks of 12 into half-dozens had been certified 3 (a review found
    it).  Declare such a noun explicitly to say what it counts.

    Raises:
        MathGraphError: ``unknown_unit`` at the partition's result unit.
    """
    for i, op in enumerate(graph.operations):
        operand = op.operand
        if not isinstance(operand, PartitionChunk) or operand.result_unit not in declared:
            continue
        named = _multiple_named(operand.result_unit, derived)
        if named is not None:
            raise MathGraphError(
                "unknown_unit",
                f"{clip(operand.result_unit)} names {clip(named)}: how many things one of it holds is not"
                f" written. Declare it explicitly to say ({derived.declaration_hint(operand.result_unit)})",
                f"operations[{i}].operand.result_unit",
            )


def _multiple_named(surface: str, vocab: UnitVocabulary) -> str | None:
    """The first word of a noun naming a fixed multiple of a count (``dozens``, ``pairs``), written or misspelled.

    A word names one when some spelling of it is such a lexicon unit (``pairs``), or when
    it holds or is one edit from one of five letters or more (``halfdozens``, ``dozns``:
    :func:`_near_word`); a review certified 36 eggs in chunks of 12 into ``half-dozns`` as
    3.  Abbreviations (``doz``, ``dzn``) and misspelled short ones (``pares``) are not caught.
    """
    for _, form, ref in _word_units(surface, vocab):
        if ref.is_fixed_multiple:
            return form
    return _near_word(surface, _surfaces_where(vocab, _is_fixed_multiple))


def _measure_named(surface: str, vocab: UnitVocabulary) -> str | None:
    """The first word of a noun that names a temperature unit, written, misspelled or abbreviated; else ``None``.

    ``degrees Celsius`` names a temperature reading: declared as a count of its own, it
    would take the arithmetic SPEC §3 refuses on a reading (10 degrees Celsius doubled had
    been certified 20; reviews found it, also as ``degrees celsius``, ``Celcius``,
    ``degreesCelsius`` and ``deg C``).  A word names one when some spelling of it (as
    written, lower case, capitalised, :func:`units.nouns.noun_forms`) is a lexicon unit of
    temperature (``degrees``, ``Celsius``), when it is one of :data:`_TEMPERATURE_WORDS`
    the lexicon lacks (``deg``, ``centigrade``), or when it holds or is one edit from an
    absolute one (``Celsius``, ``Fahrenheit``: :func:`_near_word`).  Two typos
    (``Farenhiet``) and run-together abbreviations (``degF``) are not caught.  Other measures a noun
    names (``cups of flour``, ``second graders``) are left to the readings, which write
    the noun as each unit of the graph.
    """
    for _, form, ref in _word_units(surface, vocab, any_case=True):
        if ref.dimension == _TEMPERATURE:
            return form
    word = next((w for w in _unit_words(surface) if w.lower() in _TEMPERATURE_WORDS), None)
    return word or _near_word(surface, _surfaces_where(vocab, _is_absolute_temperature))


_TEMPERATURE_WORDS: Final[frozenset[str]] = frozenset({"deg", "degs", "centigrade", "rankine"})
"""Temperature words en_units_v1 lacks, read in any case (``deg C``, ``degrees centigrade``)."""


def _surfaces_where(vocab: UnitVocabulary, keep: Callable[[UnitRef], bool]) -> tuple[str, ...]:
    """The lexicon surfaces of ``vocab`` whose unit ``keep`` keeps, lower-cased, five letters or more.

    Worked out once per lexicon and rule (declared nouns and calendar conventions change
    neither temperatures nor a dozen), not once per noun.
    """
    key = (id(vocab.lexicon), keep)
    cached = _SURFACES.get(key)
    if cached is not None and cached[0] is vocab.lexicon:
        return cached[1]
    out = []
    for surface in vocab.surfaces():
        if len(surface) >= LONG_WORD_CHARS:
            try:
                ref = vocab.resolve(surface)
            except UnitRefusal:
                continue
            if keep(ref):
                out.append(surface.lower())
    words = tuple(out)
    with _SURFACES_LOCK:
        if len(_SURFACES) > _MAX_CACHED_LEXICONS:
            _SURFACES.clear()
        _SURFACES[key] = (vocab.lexicon, words)
    return words


def _is_absolute_temperature(ref: UnitRef) -> bool:
    return ref.is_offset


def _is_fixed_multiple(ref: UnitRef) -> bool:
    return ref.is_fixed_multiple


_SURFACES: Final[dict[tuple[int, Callable[[UnitRef], bool]], tuple[object, tuple[str, ...]]]] = {}
_SURFACES_LOCK: Final = threading.Lock()
_MAX_CACHED_LEXICONS: Final[int] = 16


@functools.lru_cache(maxsize=16384)
def _near_word(surface: str, units: tuple[str, ...]) -> str | None:
    """The first word of a noun that holds one of ``units``, or is one edit from one (units of five letters or more).

    Shorter units are left out: one edit from ``pair`` is ``hair``.  Remembered per noun
    and unit list (a corpus writes its nouns again and again; each costs edit distances).
    """
    for word in _unit_words(surface):
        lower = word.lower()
        for unit in units:
            if unit in lower or (len(lower) >= _MIN_NEAR_WORD and edit_distance(lower, unit, 1) <= 1):
                return word
    return None


_MIN_NEAR_WORD: Final[int] = 4
"""A word of fewer letters is never one edit from a unit (``doz``)."""


def _unit_words(surface: str) -> list[str]:
    """The words of a noun that may be units: split as :func:`_words` does, case kept, :data:`_MIN_UNIT_WORD` or longer."""
    return [w for w in _WORDS.split(surface) if len(w) >= _MIN_UNIT_WORD]


def _word_units(surface: str, vocab: UnitVocabulary, *, any_case: bool = False) -> Iterator[tuple[str, str, UnitRef]]:
    """``(word, spelling, unit)`` for each spelling of each word of a noun that ``vocab`` resolves, in order.

    Spellings: the word as written, then :func:`units.nouns.noun_forms` (singular and
    plural, lower case); with ``any_case`` also lower-cased and capitalised first
    (``celsius`` is no surface, ``Celsius`` is).
    """
    for word in _unit_words(surface):
        cases = (word.lower(), word.capitalize()) if any_case else ()
        for form in dict.fromkeys((word, *cases, *sorted(noun_forms(word)))):
            try:
                yield word, form, vocab.resolve(form)
            except UnitRefusal:
                continue


_MIN_UNIT_WORD: Final[int] = 3
"""Shorter words of a noun are not read as units (``F`` in ``F grades``, ``s`` of ``Kim's``)."""


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
_TEMPERATURE: Final = TEMPERATURE

__all__ = [
    "MAX_RESPELLING_WORK",
    "auto_count_nouns",
    "bind_and_verify_with_auto_count_nouns",
    "bind_with_auto_count_nouns",
    "count_nouns_of",
]
