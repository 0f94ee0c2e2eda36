"""The differential fuzzer behind :func:`verifier.crosscheck.fuzz` (needs hypothesis).

Two phases, both driven by hypothesis with no example database, so a seed replays:

1. *explore*: ``max_examples`` equations drawn by
   :func:`verifier.strategies.equation_records`, each judged by both sides and put in
   a category (:func:`verifier.crosscheck.classify`);
2. *shrink*: for each disagreement category found, one :func:`hypothesis.find` per
   operation kind it was seen with, asking for that category again, which hypothesis
   shrinks to its smallest example (fewest operands, the first dimensions, the
   shortest spellings); the smallest over those kinds is kept.  A category that
   ``find`` does not meet again within its budget keeps its first explored example,
   marked ``shrunk=False``.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Final

from hypothesis import HealthCheck, Phase, find, given, settings
from hypothesis import seed as hypothesis_seed
from hypothesis.errors import NoSuchExample, Unsatisfiable

from adapters.records import bind_equation_record
from units import UnitRefusal, UnitVocabulary
from verifier.admissibility import check_equation
from verifier.crosscheck import (
    CrosscheckPair,
    CrosscheckReport,
    MinimalExample,
    classify,
    detailed_outcome,
    outcome,
)
from verifier.strategies import equation_records

SHRINK_BUDGET: Final[int] = 2000
"""Examples one ``find`` may draw before it gives up looking for its category again."""


@dataclass(frozen=True, slots=True)
class _Judged:
    category: str
    detail: str
    ours: str
    theirs: str
    rhs: str


class _Judge:
    """Judges records on both sides, once each (records repeat while shrinking)."""

    def __init__(self, theirs: Callable[..., str], vocab: UnitVocabulary) -> None:
        self.theirs = theirs
        self.vocab = vocab
        self.seen: dict[str, _Judged] = {}

    def __call__(self, record: Mapping[str, object]) -> _Judged:
        key = json.dumps(record, sort_keys=True)
        judged = self.seen.get(key)
        if judged is None:
            equation, symbols = bind_equation_record(dict(record))
            verdict = check_equation(equation, symbols, self.vocab)
            other = self.theirs(equation, symbols)
            category, detail = classify(verdict, other, equation, symbols, vocab=self.vocab)
            ours = detailed_outcome(verdict) if "; factors " in other else outcome(verdict)
            judged = _Judged(category, detail, ours, other, f"{equation.lhs_symbol_id} = {equation.rhs_canonical}")
            self.seen[key] = judged
        return judged


def _settings(max_examples: int, phases: Iterable[Phase]) -> settings:
    return settings(
        max_examples=max_examples,
        database=None,
        deadline=None,
        derandomize=False,
        phases=tuple(phases),
        suppress_health_check=list(HealthCheck),
        report_multiple_bugs=False,
        print_blob=False,
    )


def _size(record: Mapping[str, object]) -> int:
    """How many operands: the measure of a smaller example across kinds (ties keep the kind found first)."""
    symbols = record["symbols"]
    return len(symbols) if isinstance(symbols, list) else 0


def _declarations_used(vocab: UnitVocabulary, record: Mapping[str, object]) -> dict[str, dict[str, object]]:
    """``vocab.declarations()`` with only the count nouns whose lemma the record's units use (``X_per_Y`` sides too)."""
    drawn = record["symbols"]
    units = {s.get("unit") for s in drawn if isinstance(s, dict)} if isinstance(drawn, list) else set()
    names = {part for unit in units if isinstance(unit, str) for part in (unit, *unit.split("_per_"))}
    lemmas = set()
    for name in names:
        try:
            lemmas.add(vocab.resolve(name).lemma)
        except UnitRefusal:
            continue
    declared = vocab.declarations()
    nouns = {
        surface: spec
        for surface, spec in declared["count_nouns"].items()
        if (spec["lemma"] if isinstance(spec, Mapping) else spec) in lemmas
    }
    return {"count_nouns": nouns, "conventions": declared["conventions"]}


def run(
    theirs: Callable[..., str],
    *,
    vocab: UnitVocabulary,
    max_examples: int,
    kinds: tuple[str, ...],
    seed: int,
    shrink: bool,
) -> CrosscheckReport:
    """See :func:`verifier.crosscheck.fuzz` (arguments checked there)."""
    judge = _Judge(theirs, vocab)
    strategy = equation_records(vocab, kinds)
    explored: dict[str, dict[str, object]] = {}  # distinct records, in the order drawn

    @_settings(max_examples, (Phase.generate,))
    @hypothesis_seed(seed)
    @given(strategy)
    def explore(record: dict[str, object]) -> None:
        judge(record)
        explored.setdefault(json.dumps(record, sort_keys=True), record)

    explore()
    pairs = []
    first: dict[str, dict[str, object]] = {}
    kinds_of: dict[str, list[str]] = {}
    for number, (key, record) in enumerate(explored.items(), start=1):
        judged = judge.seen[key]
        pairs.append(
            CrosscheckPair(
                case_id=f"fuzz-{number}",
                lhs_symbol_id="r",
                ours=judged.ours,
                theirs=judged.theirs,
                category=judged.category,
                detail=judged.detail,
            )
        )
        first.setdefault(judged.category, record)
        kind = str(record["operation_kind"])
        if kind not in kinds_of.setdefault(judged.category, []):
            kinds_of[judged.category].append(kind)
    minimal: dict[str, MinimalExample] = {}
    for category, record in first.items():
        if category == "agree":
            continue
        best, shrunk = record, False
        for kind in sorted(kinds_of[category], key=kinds.index) if shrink else ():
            try:
                found = find(
                    equation_records(vocab, (kind,)),
                    lambda r, c=category: judge(r).category == c,  # type: ignore[misc]
                    settings=_settings(SHRINK_BUDGET, (Phase.generate, Phase.shrink)),
                    random=random.Random(seed),  # noqa: S311 - reproducible draws, not secrets
                )
            except (NoSuchExample, Unsatisfiable):
                continue
            if not shrunk or _size(found) < _size(best):
                best, shrunk = found, True
        judged = judge(best)
        minimal[category] = MinimalExample.of(
            {**best, "id": f"minimal-{category}"},
            judged.ours,
            judged.theirs,
            judged.rhs,
            category,
            shrunk=shrunk,
            vocab=_declarations_used(vocab, best),
        )
    return CrosscheckReport.from_pairs(pairs, minimal=minimal, seed=seed)
