"""Cross-check another implementation's equation verdicts against ours, pair by pair (SPEC §7).

Each pair is aligned by ``lhs_symbol_id`` and falls into one category of the
closed set :data:`CATEGORY_INFO`; a category names the side at fault in its prefix
(``theirs_``, ``ours_``; none when neither is) and carries the rule that decides it
with its source.  A pair that fits none is ``unclassified`` — a signal to study it,
never to hide it.

Inputs: a canonical text (its equations re-checked by us, compared with what it
records), a :class:`~verifier.BindingGraph` with the other side's outcomes, or
any callable ``(equation, symbols) -> proof string | refusal reason`` (see
:func:`as_reference`).  A proof string may carry exact factors after
``"; factors "`` (``"add: [length,length] -> length; factors a=1, b=1/12"``, see
:func:`detailed_outcome`), so an implementation that ignores conversion factors is
caught.  :func:`fuzz` draws equations for a live callable and keeps the smallest
example of each disagreement (:class:`MinimalExample`).

This module sits on top of the verifier: :func:`crosscheck_file` reads the
upstream corpus layouts through ``adapters``, and :func:`fuzz` draws with
hypothesis (loaded on the first fuzz, through :class:`verifier.lazy.LazyModule`).
"""

from __future__ import annotations

import inspect
import json
import operator
import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Final, cast

from adapters import MathGraphError, bind_math_problem_graph, graph_from_dict
from adapters.canonical_text import parse_canonical_text
from adapters.crosscheck_corpus import CorpusLine, corpus_lines, is_canonical_text, read_corpus_file
from adapters.records import equation_from_record, vocabulary_for
from units import UnitRefusal, UnitVocabulary, default_vocabulary
from units.dimension import DimensionVector
from units.errors import clip
from units.exact import format_exact, parse_exact
from verifier.admissibility import ADDITIVE_KINDS, Verdict, check_equation
from verifier.categories import CATEGORIES, CATEGORY_INFO, FORMER_NAMES, Category
from verifier.display import crosscheck_html
from verifier.errors import BindingGraphError, given_vocabulary
from verifier.expr import clear_memos
from verifier.lazy import LazyModule
from verifier.model import OPERATION_KINDS, BindingGraph, BoundEquation, SymbolBinding, replace_checked
from verifier.reasons import REFUSAL_REASONS
from verifier.roles import roles_of

if TYPE_CHECKING:
    import sympy

    from verifier import _fuzzing
else:
    from verifier.lazy import sympy

    _fuzzing = LazyModule("verifier._fuzzing")  # hypothesis loads only when fuzzing (issue #13's cold start)


@dataclass(frozen=True, slots=True, kw_only=True)
class CrosscheckPair:
    """One aligned pair: ``case_id``, ``lhs_symbol_id``, ``ours``, ``theirs``, ``category`` and a ``detail``."""

    case_id: str
    lhs_symbol_id: str
    ours: str
    theirs: str
    category: str
    detail: str = ""

    def to_json(self) -> dict[str, str]:
        """A flat row (usable to build a DataFrame)."""
        return {
            "case_id": self.case_id,
            "lhs_symbol_id": self.lhs_symbol_id,
            "ours": self.ours,
            "theirs": self.theirs,
            "category": self.category,
            "detail": self.detail,
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class MinimalExample:
    """The smallest equation found for one category by :func:`fuzz`, as a maintainer would report it.

    Attributes:
        category: its category (a key of :data:`CATEGORIES`).
        record: the equation in the upstream ``equation_verdicts`` layout, their verdict
            included as ``hand_rolled`` (one JSON line: ``bgverify crosscheck FILE``
            replays it).
        equation: the equation as text (``r = a + b``).
        ours: our outcome (proof string or refusal reason).
        theirs: theirs.
        shrunk: ``False`` when the shrinking search did not meet the category again, so
            this is the first explored example rather than the smallest.
    """

    category: str
    record: Mapping[str, object]
    equation: str
    ours: str
    theirs: str
    shrunk: bool

    @classmethod
    def of(
        cls,
        record: Mapping[str, object],
        ours: str,
        theirs: str,
        equation: str,
        category: str,
        *,
        shrunk: bool,
        vocab: Mapping[str, Mapping[str, object]] | None = None,
    ) -> MinimalExample:
        """An example, with ``theirs`` written into the record as its ``hand_rolled`` verdict.

        ``vocab`` (the ``count_nouns`` and ``conventions`` of
        :meth:`units.UnitVocabulary.declarations`, trimmed to what the record uses) goes into
        its ``vocab``, so it replays alone.
        """
        head = theirs.partition("; factors ")[0]
        if ":" in head and "->" in head:
            verdict: dict[str, str] = {"status": "admitted", "unit_proof": theirs}
        else:
            verdict = {"status": "refused", "reason": theirs}
        spec = {key: dict(value) for key, value in (vocab or {}).items() if value}
        full = {**record, "hand_rolled": verdict, **({"vocab": spec} if spec else {})}
        return cls(category=category, record=full, equation=equation, ours=ours, theirs=theirs, shrunk=shrunk)

    def to_json(self) -> dict[str, object]:
        """The fields, ``record`` as the JSON object it is."""
        return {
            "category": self.category,
            "equation": self.equation,
            "ours": self.ours,
            "theirs": self.theirs,
            "shrunk": self.shrunk,
            "record": dict(self.record),
        }

    def lines(self) -> list[str]:
        """The example as text to paste into a bug report: the equation, both verdicts, the rule."""
        info = CATEGORY_INFO[self.category]
        symbols = self.record.get("symbols")
        operands = ", ".join(
            f"{s['symbol_id']}: {s['unit'] if s['unit'] is not None else '(no unit)'} ({s['semantic_role']})"
            for s in (symbols if isinstance(symbols, list) else [])
            if isinstance(s, dict)
        )
        return [
            f"equation: {self.equation}   ({self.record.get('operation_kind')})",
            f"operands: {operands or '(none)'}",
            f"ours:     {self.ours}",
            f"theirs:   {self.theirs}",
            *([f"rule:     {info.rule} ({info.spec})"] if info.rule != "-" else []),
            f"replay:   {json.dumps(dict(self.record), sort_keys=True, ensure_ascii=False)}",
            *([] if self.shrunk else ["(not shrunk: the first example found)"]),
        ]


@dataclass(frozen=True, slots=True, kw_only=True)
class CrosscheckReport:
    """All pairs of a cross-check and their counts per category.

    Attributes:
        pairs: every aligned pair, in input order.
        counts: category → number of pairs (every category present, zeros included).
        minimal: for a :func:`fuzz` run, the smallest example of each disagreement
            category found (else empty).
        seed: the seed of a :func:`fuzz` run (else ``None``): the same seed, callable and
            arguments give the same report.
    """

    pairs: tuple[CrosscheckPair, ...]
    counts: Mapping[str, int]
    minimal: Mapping[str, MinimalExample] = field(default_factory=dict)
    seed: int | None = None

    @classmethod
    def from_pairs(
        cls,
        pairs: Iterable[CrosscheckPair],
        *,
        minimal: Mapping[str, MinimalExample] | None = None,
        seed: int | None = None,
    ) -> CrosscheckReport:
        """Build a report, counting categories (minimal examples in :data:`CATEGORIES` order)."""
        items = tuple(pairs)
        counter = Counter(p.category for p in items)
        found = minimal or {}
        ordered = {name: found[name] for name in CATEGORIES if name in found}
        return cls(pairs=items, counts={name: counter.get(name, 0) for name in CATEGORIES}, minimal=ordered, seed=seed)

    @property
    def unclassified(self) -> tuple[CrosscheckPair, ...]:
        """Pairs that fit no category."""
        return tuple(p for p in self.pairs if p.category == "unclassified")

    def examples(self, category: str, limit: int = 3) -> tuple[CrosscheckPair, ...]:
        """The first ``limit`` pairs of a category."""
        return tuple(p for p in self.pairs if p.category == category)[:limit]

    def _repr_html_(self) -> str:
        return crosscheck_html(self)

    def rows(self) -> list[dict[str, str]]:
        """One dict per pair (``pandas.DataFrame(report.rows())``)."""
        return [p.to_json() for p in self.pairs]

    def to_json(self) -> dict[str, object]:
        """Counts (non-zero), the first examples of each category, and every pair.

        A fuzz run adds ``seed`` and ``minimal`` (category → :meth:`MinimalExample.to_json`).
        """
        out: dict[str, object] = {
            "counts": {k: v for k, v in self.counts.items() if v},
            "examples": {
                k: [p.to_json() for p in self.examples(k)] for k, v in self.counts.items() if v and k != "agree"
            },
            "pairs": self.rows(),
        }
        if self.seed is not None:
            out["seed"] = self.seed
            out["minimal"] = {k: m.to_json() for k, m in self.minimal.items()}
        return out

    def table(self, examples: int = 2) -> str:
        """A printed table: count and fault side per category, then each disagreement explained.

        A fuzz report shows each category's minimal example (:meth:`MinimalExample.lines`);
        any other report its first ``examples`` pairs.  Unclassified pairs are all shown in full.
        """
        width = max(len(k) for k in CATEGORIES)
        lines = [f"{'category':<{width}}  {'wrong':<7}  pairs", f"{'-' * width}  -------  -----"]
        lines += [f"{k:<{width}}  {CATEGORY_INFO[k].wrong:<7}  {v:5d}" for k, v in self.counts.items() if v]
        lines.append(f"{'total':<{width}}  {'':<7}  {len(self.pairs):5d}")
        if self.seed is not None:
            lines.append(f"seed {self.seed}")
        for cat, count in self.counts.items():
            if not count or cat == "agree":
                continue
            info = CATEGORY_INFO[cat]
            lines.append(f"\n{cat} ({count}): {info.meaning}")
            if cat in self.minimal:
                lines += [f"  {line}" for line in self.minimal[cat].lines()]
                if cat != "unclassified":
                    continue
            shown = self.unclassified if cat == "unclassified" else self.examples(cat, examples)
            if cat != "unclassified" and info.rule != "-":
                lines.append(f"  rule: {info.rule} ({info.spec})")
            for p in shown:
                lines.append(f"  {p.case_id} {p.lhs_symbol_id}: ours {p.ours!r} | theirs {p.theirs!r}")
                if cat == "unclassified" and p.detail:
                    lines.append(f"    {p.detail}")
        return "\n".join(lines)

    def __repr__(self) -> str:
        nonzero = ", ".join(f"{k}={v}" for k, v in self.counts.items() if v)
        return f"CrosscheckReport({len(self.pairs)} pairs: {nonzero})"


Reference = Callable[[BoundEquation, Mapping[str, SymbolBinding]], str]
"""Another implementation's admissibility: ``(equation, symbols) -> proof string | refusal reason``."""


REFERENCE_OUTCOME_CHARS: Final[int] = 2000
"""Longest outcome string kept from a reference; a longer one is cut (the report stays small)."""

_RESERVED_OUTCOMES: Final[frozenset[str]] = frozenset({"", "<absent>"})

_EQUATION_AND_SYMBOLS: Final[int] = 2  # the positional arguments of a reference call: theirs(equation, symbols)


def as_reference(theirs: Callable[..., object]) -> Callable[[BoundEquation, Mapping[str, SymbolBinding]], str]:
    """Wrap another implementation's check so that it always returns an outcome string, never raises.

    ``theirs`` has the upstream ``check_admissibility`` shape: it is called as
    ``theirs(equation, symbols)``, or ``theirs(equation, symbols=symbols)`` when
    ``symbols`` is keyword-only (as upstream's is).  It gets copies: of the equation, and a
    read-only mapping of copies of the symbols (with their spans), so even a reference that
    writes through a frozen record (``object.__setattr__``) changes neither the caller's graph
    nor what ours judges (a review had made ours certify 106 apples for 15 that way).  The
    right-hand side itself is sympy's, shared across the process (sympy caches every
    expression it builds), so it cannot be copied; a reference that changes it (through
    sympy's private ``_args``) is detected and stops the run.  Its outcome is

    * a returned ``str``: a proof string (``"add: [length,length] -> length"``, optionally
      with ``"; factors a=1, b=1/12"``) or a refusal reason; newlines are escaped and it
      is cut to :data:`REFERENCE_OUTCOME_CHARS`;
    * a returned object with ``to_canonical_string()`` (a proof object): that string;
    * a raised exception whose ``reason`` is a reason of the closed vocabulary
      (:data:`verifier.REFUSAL_REASONS`, SPEC §6), like upstream's ``AdmissibilityError``:
      that reason (a typed refusal);
    * anything else, including any other exception (``SystemExit`` too; only
      ``KeyboardInterrupt`` propagates), an empty string or another return value:
      ``"crash: <type>: <message>"``, which :func:`classify` puts in ``theirs_crashes``.

    Raises:
        BindingGraphError: ``malformed_input`` when ``theirs`` is not callable.
        RuntimeError: from the wrapped call, when the reference changed the expression it was
            given: every expression of the process built alike is changed with it, so no
            result after that point can be trusted (sympy's cache and ours are emptied).
    """
    if not callable(theirs):
        raise BindingGraphError(
            "malformed_input", f"the reference must be callable, found {type(theirs).__name__}", "theirs"
        )
    keyword = _symbols_keyword_only(theirs)

    def call(equation: BoundEquation, symbols: Mapping[str, SymbolBinding]) -> str:
        mine = replace_checked(equation, source_span=replace_checked(equation.source_span))
        copy = MappingProxyType(
            {sid: replace_checked(sym, source_span=replace_checked(sym.source_span)) for sid, sym in symbols.items()}
        )
        before = sympy.srepr(equation.rhs)
        try:
            result = theirs(mine, symbols=copy) if keyword else theirs(mine, copy)
        except KeyboardInterrupt:
            raise
        except BaseException as exc:  # noqa: BLE001 -- any failure of theirs (SystemExit too) is a theirs_crashes pair
            reason = _typed_reason(exc)
            outcome_text = reason if reason is not None else f"crash: {type(exc).__name__}: {_first_line(exc)}"
        else:
            outcome_text = _outcome_text(result)
        if sympy.srepr(equation.rhs) != before:
            sympy.core.cache.clear_cache()
            clear_memos()
            raise RuntimeError(
                f"the reference changed the expression it was given ({before[:80]}): sympy shares expressions"
                " across the process, so no result after this can be trusted; stop, and fix the reference"
            )
        return outcome_text

    return call


def _typed_reason(exc: BaseException) -> str | None:
    """The refusal reason an exception carries, when it is one of the closed vocabulary."""
    try:
        reason = getattr(exc, "reason", None)
    except Exception:  # noqa: BLE001 -- their exception's reason property may raise anything: no typed refusal
        return None
    return reason if type(reason) is str and reason in REFUSAL_REASONS else None


def _outcome_text(result: object) -> str:
    """A reference's return value as one clipped line, or a crash description."""
    if not isinstance(result, str):
        try:
            render = getattr(result, "to_canonical_string", None)
            text = render() if callable(render) else None
        except KeyboardInterrupt:
            raise
        except BaseException as exc:  # noqa: BLE001 -- as in as_reference: their failure is a theirs_crashes pair
            return f"crash: {type(exc).__name__} in to_canonical_string: {_first_line(exc)}"
        if not isinstance(text, str):
            return f"crash: returned {type(result).__name__}"
        result = text
    plain = _CONTROL.sub(
        _escaped, str.__str__(result)
    )  # a str subclass becomes a str; one line, nothing a terminal runs
    if plain.strip() in _RESERVED_OUTCOMES:
        return f"crash: returned {plain!r}, which is no outcome"
    return plain if len(plain) <= REFERENCE_OUTCOME_CHARS else f"{plain[: REFERENCE_OUTCOME_CHARS - 3]}..."


_CONTROL: Final = re.compile(r"[\x00-\x1f\x7f-\x9f\ud800-\udfff]")
"""What a reference's outcome may not print raw: control characters (a NUL, a terminal escape) and lone surrogates."""


def _escaped(match: re.Match[str]) -> str:
    """One character of :data:`_CONTROL` as Python writes its escape (a newline as two characters, a NUL as four)."""
    return match.group().encode("unicode_escape").decode("ascii")


def _first_line(exc: BaseException, limit: int = 200) -> str:
    """An exception's message, first line only, cut to ``limit`` characters (never raises)."""
    try:
        text = str(exc)
    except Exception:  # noqa: BLE001 -- their exception's __str__ may raise anything; the message never does
        return f"<{type(exc).__name__} with an unprintable message>"
    if not isinstance(text, str):
        return f"<{type(exc).__name__} with an unprintable message>"
    line = text.splitlines()[0] if text else ""
    return line if len(line) <= limit else f"{line[: limit - 3]}..."


def _symbols_keyword_only(function: Callable[..., object]) -> bool:
    """Whether ``symbols`` must be passed by keyword: it is keyword-only and fewer than two parameters are positional."""
    try:
        parameters = list(inspect.signature(function).parameters.values())
    except (TypeError, ValueError):  # a builtin or C callable without a signature
        return False
    positional = [p for p in parameters if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    keyword = any(p.kind is p.KEYWORD_ONLY and p.name == "symbols" for p in parameters)
    return keyword and len(positional) < _EQUATION_AND_SYMBOLS


def outcome(verdict: Verdict) -> str:
    """Our side as a string: the proof string when admitted, else the refusal reason."""
    if verdict.proof is not None:
        return verdict.proof.to_canonical_string()
    if verdict.refusal is None:  # Verdict refuses an admitted verdict without a proof, and the converse
        raise BindingGraphError("malformed_input", "a verdict with neither proof nor refusal", "verdict")
    return verdict.refusal.reason


def detailed_outcome(verdict: Verdict) -> str:
    """:func:`outcome` plus the exact factors: ``"...; factors a=1, b=1/12"`` when admitted."""
    if verdict.proof is None:
        return outcome(verdict)
    factors = ", ".join(f"{op.symbol_id}={format_exact(op.factor)}" for op in verdict.proof.operands)
    return f"{outcome(verdict)}; factors {factors}"


def _split_factors(text: str) -> tuple[str, dict[str, str] | None]:
    head, sep, tail = text.partition("; factors ")
    if not sep:
        return text, None
    factors = {}
    for item in tail.split(", "):
        key, _, value = item.partition("=")
        factors[key.strip()] = value.strip()
    return head, factors


_BEFORE_UNITS: Final[frozenset[str]] = frozenset(
    {"unknown_unit", "unit_unbound", "operand_arity", "unknown_operation", "unknown_symbol", "malformed_input"}
)
"""Our refusals decided before (or without) resolving units: theirs' unknown_unit is then just another reason."""


@dataclass(frozen=True, kw_only=True)
class _Pair:
    """One pair being classified: both outcomes, the equation both sides judged, and what the rules read from them.

    Attributes:
        vocab: the vocabulary ours used (its declared count nouns and containers tell categories apart).
        verdict: our verdict on ``equation``.
        ours: our outcome (:func:`outcome` of ``verdict``).
        theirs: their outcome, factors included (``"add: [...] -> length; factors a=1, b=1/12"``).
        equation: the equation both sides judged.
        symbols: the symbols by id.
        their_deps: the dependencies theirs wired, when known (canonical text), else ``None``.
    """

    vocab: UnitVocabulary
    verdict: Verdict
    ours: str
    theirs: str
    equation: BoundEquation
    symbols: Mapping[str, SymbolBinding]
    their_deps: tuple[str, ...] | None

    @property
    def kind(self) -> str:
        """The equation's operation kind."""
        return self.equation.operation_kind

    @cached_property
    def _split(self) -> tuple[str, dict[str, str] | None]:
        return _split_factors(self.theirs)

    @property
    def head(self) -> str:
        """Their outcome without its factors: a proof string or a refusal reason."""
        return self._split[0]

    @property
    def factors(self) -> dict[str, str] | None:
        """Their exact factors by operand (``{"a": "1", "b": "1/12"}``), or ``None`` when they gave none."""
        return self._split[1]

    @property
    def admitted(self) -> bool:
        """Whether theirs admits (its head is a proof string), rather than refusing with a reason."""
        return ":" in self.head and "->" in self.head

    @cached_property
    def units(self) -> list[str]:
        """The units of the operands, in sorted dependency order, then the literal's unit."""
        equation, symbols = self.equation, self.symbols
        out = [symbols[d].unit for d in sorted(equation.dependencies) if d in symbols and symbols[d].unit]
        if equation.literal_unit:
            out.append(equation.literal_unit)
        return [u for u in out if u]

    @cached_property
    def refs(self) -> list[object]:
        """Each of :attr:`units` resolved by the vocabulary (``None`` for one it does not resolve)."""
        refs: list[object] = []
        for unit in self.units:
            try:
                refs.append(self.vocab.resolve(unit))
            except UnitRefusal:
                refs.append(None)
        return refs


_Decided = tuple[str, str]
"""A pair's ``(category, detail)``."""


def _rule_wiring(pair: _Pair) -> _Decided | None:
    """Theirs reads other dependencies than ours, in a way a wiring category names (:func:`_wiring`)."""
    their_deps = pair.their_deps
    if their_deps is None or tuple(sorted(their_deps)) == tuple(sorted(pair.equation.dependencies)):
        return None
    category = _wiring(pair.equation, their_deps, pair.symbols)
    if not category:
        return None
    return category, f"ours reads [{', '.join(sorted(pair.equation.dependencies))}], theirs [{', '.join(their_deps)}]"


def _rule_same_outcome(pair: _Pair) -> _Decided | None:
    """The same proof or reason on both sides: ``agree``, unless their exact factors differ from ours."""
    if pair.head != pair.ours:
        return None
    proof = pair.verdict.proof
    if pair.factors is not None and proof is not None:
        mine = {op.symbol_id: format_exact(op.factor) for op in proof.operands}
        if not _same_factors(mine, pair.factors):
            return "theirs_ignores_conversion_factor", f"ours {mine}, theirs {pair.factors}"
    return "agree", ""


def _rule_unknown_operation(pair: _Pair) -> _Decided | None:
    """Theirs refuses the operation kind itself."""
    if pair.admitted or pair.head != "unknown_operation":
        return None
    return "theirs_unknown_operation_kind", f"{pair.kind} is unknown to theirs"


def _rule_unknown_unit(pair: _Pair) -> _Decided | None:
    """Theirs refuses a unit ours resolves: a declared count noun, else a lexicon surface."""
    if pair.admitted or pair.head != "unknown_unit" or pair.ours in _BEFORE_UNITS:
        return None
    units = pair.units
    declared = {surface for surface, _ in pair.vocab.count_nouns}
    used = {part for unit in units for part in unit.split("_per_")} & declared
    if used:
        return "count_noun_undeclared_to_theirs", f"units {units}; declared {sorted(used)}"
    return "theirs_refuses_lexicon_surface", f"units {units} are lexicon surfaces"


def _rule_theirs_admits_what_ours_refuses(pair: _Pair) -> _Decided | None:
    """Theirs admits and ours refuses: the category ours' reason tells (:func:`_stricter`)."""
    refusal = pair.verdict.refusal
    if refusal is None or not pair.admitted:
        return None
    return _stricter(pair, refusal.reason)


_BOTH_ADMIT_RULES: Final[tuple[tuple[Callable[[_Pair], bool], str, str], ...]] = (
    # (condition, category, detail), walked in order: the first that holds decides
    (
        lambda pair: pair.kind in {"multiply", "divide"} and _scalar_given_a_dimension(pair.verdict, pair.head),
        "theirs_scalar_as_unit_bearing",
        "ours counts the scalar dimensionless, theirs does not",
    ),
    (
        lambda pair: pair.kind == "compare_multiplicative" and _result(pair.head) == "dimensionless",
        "theirs_multiplicative_comparison_dimensionless",
        "",
    ),
    (
        lambda pair: pair.kind == "unit_partition" and _relabelled(pair.ours, pair.head),
        "count_label_differs",
        "the result is a pure number of chunks",
    ),
)
"""How two different proofs of one equation tell a category (none holding: ``unclassified``)."""


def _rule_both_admit(pair: _Pair) -> _Decided | None:
    """Both sides admit, with different proofs: the first of :data:`_BOTH_ADMIT_RULES` that holds."""
    if pair.verdict.proof is None or not pair.admitted:
        return None
    for applies, category, detail in _BOTH_ADMIT_RULES:
        if applies(pair):
            return category, detail
    return "unclassified", "both admit with different proofs"


def _rule_theirs_refuses(pair: _Pair) -> _Decided | None:
    """Ours admits and theirs refuses."""
    if pair.verdict.proof is None:
        return None
    return "theirs_refuses_admissible", f"theirs refuses with {pair.head}"


_PAIR_RULES: Final[tuple[Callable[[_Pair], _Decided | None], ...]] = (
    _rule_wiring,
    _rule_same_outcome,
    _rule_unknown_operation,
    _rule_unknown_unit,
    _rule_theirs_admits_what_ours_refuses,
    _rule_both_admit,
    _rule_theirs_refuses,
)
"""The rules that put a pair of two outcomes in a category, in order: the first that decides wins.

None deciding, both sides refuse with different reasons (``refusal_reason_differs``).
"""


class _Classifier:
    """Puts one pair in a category, using the units of the equation's operands."""

    def __init__(self, vocab: UnitVocabulary) -> None:
        self.vocab = vocab

    def classify(
        self,
        ours_verdict: Verdict | None,
        theirs: str,
        equation: BoundEquation | None,
        symbols: Mapping[str, SymbolBinding],
        their_deps: tuple[str, ...] | None = None,
    ) -> _Decided:
        """The pair's category and detail: a missing side or a crash first, then the first of :data:`_PAIR_RULES`."""
        if ours_verdict is None:
            return "only_theirs", "no equation of ours has this lhs"
        ours = outcome(ours_verdict)
        if theirs == "<absent>":
            return "only_ours", "theirs has no equation with this lhs"
        if theirs.startswith("crash:"):
            return "theirs_crashes", theirs
        if equation is None:  # ours has a verdict only for an equation it holds
            return "unclassified", "our verdict has no equation to read its kind from"
        pair = _Pair(
            vocab=self.vocab,
            verdict=ours_verdict,
            ours=ours,
            theirs=theirs,
            equation=equation,
            symbols=symbols,
            their_deps=their_deps,
        )
        for rule in _PAIR_RULES:
            decided = rule(pair)
            if decided is not None:
                return decided
        return "refusal_reason_differs", f"ours {ours}, theirs {pair.head}"


def _wiring(equation: BoundEquation, their_deps: tuple[str, ...], symbols: Mapping[str, SymbolBinding]) -> str:
    """The category of dependencies theirs wired differently from ours, or ``""`` when none names it."""
    ours = set(equation.dependencies)
    theirs = set(their_deps)
    kind = equation.operation_kind
    if kind == "compare_multiplicative" and not theirs and ours:
        return "theirs_multiplicative_comparison_dimensionless"
    lhs = symbols.get(equation.lhs_symbol_id)
    owner = lhs.entity if lhs is not None else None
    extra = theirs - ours
    if kind == "transfer" and extra and all(symbols.get(d) is not None and symbols[d].entity != owner for d in extra):
        return "theirs_transfer_target_as_dependency"
    if any(d.endswith("_t0") for d in extra) and any(not d.endswith("_t0") for d in ours - theirs):
        return "theirs_wires_initial_state"
    if extra and all(d.endswith("_t0") for d in extra) and not (ours - theirs):
        return "theirs_wires_initial_state"
    return ""


@dataclass(frozen=True, slots=True, kw_only=True)
class _Refusing:
    """A pair theirs admits and ours refuses with ``reason``, with the operands its category is read from.

    Attributes:
        pair: the pair.
        reason: our refusal reason.
        refs: the resolved operands (for a failing sum, only the two it fails on).
        units: their units, in the same order.
    """

    pair: _Pair
    reason: str
    refs: list[object]
    units: list[str]

    @property
    def detail(self) -> str:
        """The detail most categories give: the operands' units."""
        return f"units {self.units}"


def _incommensurable(refusing: _Refusing) -> _Decided:
    """Same six-axis dimension, different kinds: which kinds tell the category."""
    refs, detail = refusing.refs, refusing.detail
    lemmas = [getattr(r, "lemma", None) for r in refs]
    dims = {getattr(r, "dimension", None) for r in refs}
    axes = {str(d) for d in dims if d is not None}
    if refusing.pair.kind == "apply_rate":
        return "theirs_admits_rate_kind_mismatch", detail
    if "degree" in lemmas:
        return "theirs_admits_unscaled_degree", detail
    if any("money" in a for a in axes):
        return "theirs_admits_incommensurable_currencies", detail
    vocab = refusing.pair.vocab
    conv = vocab.lexicon.conversions
    containers = [
        lem in conv and conv[lem].base_dimension == lem and lem != "item" and _is_container(vocab, lem)
        for lem in lemmas
        if isinstance(lem, str)
    ]
    if any(containers) and not all(containers):  # a box against items (or people); two boxes merge kinds
        return "theirs_admits_container_as_items", detail
    if axes == {"count"}:
        return "theirs_merges_count_kinds", detail
    return "unclassified", f"incommensurable: {detail}"


def _mismatched_product(refusing: _Refusing) -> _Decided:
    """A product ours refuses with ``unit_mismatch``: a labelled scalar, or a product with no declared unit."""
    pair, detail = refusing.pair, refusing.detail
    if "scalar" in roles_of(pair.equation, pair.symbols).values():  # ours: the scalar's label names another kind
        if _scalar_given_a_dimension(None, pair.head, pair.equation):
            return "theirs_scalar_as_unit_bearing", detail
        return "unclassified", f"ours refuses a labelled scalar: {detail}"
    if _result(pair.head) == _product_dimension(refusing.refs):
        return "product_without_declared_unit", detail
    return "unclassified", f"ours refuses a product with no declared unit; theirs gives {_result(pair.head)}"


def _is_product(refusing: _Refusing) -> bool:
    return refusing.pair.kind == "multiply"


def _is_sum(refusing: _Refusing) -> bool:
    return refusing.pair.kind in ADDITIVE_KINDS


def _is_dimensionless_comparison(refusing: _Refusing) -> bool:
    pair = refusing.pair
    return pair.kind == "compare_multiplicative" and _result(pair.head) == "dimensionless"


_STRICTER_RULES: Final[
    tuple[tuple[str, Callable[[_Refusing], bool] | None, str | Callable[[_Refusing], _Decided]], ...]
] = (
    # (our reason, a further condition or None, the category (detail: the units) or the function deciding it);
    # walked in order: the first rule whose reason is ours and whose condition holds decides
    ("offset_unit_arithmetic", None, "theirs_admits_offset_temperature_arithmetic"),
    ("convention_required", None, "theirs_admits_calendar_without_convention"),
    ("incommensurable_units", None, _incommensurable),
    ("unit_unbound", None, "theirs_admits_unbound_unit"),
    ("unknown_unit", None, "theirs_admits_unknown_unit"),
    ("unit_mismatch", _is_product, _mismatched_product),
    ("operand_arity", _is_dimensionless_comparison, "theirs_multiplicative_comparison_dimensionless"),
    ("operand_arity", None, "theirs_admits_operand_arity"),
    ("rate_form_invalid", None, "theirs_admits_malformed_rate"),
    ("unit_mismatch", _is_sum, "theirs_admits_dimension_mismatch"),
    ("unit_mismatch", None, "theirs_admits_wrong_dimension"),
)
"""How ours' refusal of an equation theirs admits tells a category (none matching: ``unclassified``)."""


def _stricter(pair: _Pair, reason: str) -> _Decided:
    """The category of an equation theirs admits and ours refuses with ``reason`` (:data:`_STRICTER_RULES`)."""
    refs, units = pair.refs, pair.units
    if pair.kind in ADDITIVE_KINDS and reason in ("incommensurable_units", "unit_mismatch", "offset_unit_arithmetic"):
        refs, units = _failing_pair(refs, units)
    refusing = _Refusing(pair=pair, reason=reason, refs=refs, units=units)
    for rule_reason, applies, decide in _STRICTER_RULES:
        if rule_reason == reason and (applies is None or applies(refusing)):
            return (decide, refusing.detail) if isinstance(decide, str) else decide(refusing)
    return "unclassified", f"ours refuses with {reason}"


def _failing_pair(refs: list[object], units: list[str]) -> tuple[list[object], list[str]]:
    """The first operand and the first later one of another kind (the pair a sum fails on), else all."""
    first = getattr(refs[0], "kind", None) if refs else None
    for i in range(1, len(refs)):
        if getattr(refs[i], "kind", None) != first:
            return [refs[0], refs[i]], [units[0], units[i]]
    return refs, units


def _result(head: str) -> str:
    """The result dimension of a proof string (``"add: [length,length] -> length"`` → ``length``)."""
    return head.rpartition("->")[2].strip()


def _operand_dims(head: str) -> list[str]:
    """The operand dimensions of a proof string, in sorted dependency order."""
    inside = head.partition("[")[2].partition("]")[0]
    return [d.strip() for d in inside.split(",")] if inside.strip() else []


def _scalar_given_a_dimension(ours: Verdict | None, their_head: str, equation: BoundEquation | None = None) -> bool:
    """Theirs gives a scalar (or unitless divisor) operand a dimension where ours counts it dimensionless."""
    if ours is not None and ours.proof is not None:
        positions = [i for i, op in enumerate(ours.proof.operands) if op.role in ("scalar", "divisor")]
        scalars = [i for i in positions if str(ours.proof.operands[i].dimension) == "dimensionless"]
    elif equation is not None:
        scalars = [
            i for i, dep in enumerate(sorted(equation.dependencies)) if dep.endswith(("__multiplicand", "__divisor"))
        ]
    else:
        return False
    theirs = _operand_dims(their_head)
    return any(i < len(theirs) and theirs[i] != "dimensionless" for i in scalars)


def _product_dimension(refs: list[object]) -> str:
    """The canonical dimension of the product of the operands' units (``length^2``), or ``""``."""
    total = DimensionVector.from_axes({})
    for ref in refs:
        dimension = getattr(ref, "dimension", None)
        if dimension is None:
            return ""
        total = total * dimension
    return total.to_canonical_string()


def _same_factors(ours: Mapping[str, str], theirs: Mapping[str, str]) -> bool:
    """Whether two factor sets are the same exact numbers (``1/100`` equals ``0.01``)."""
    if set(ours) != set(theirs):
        return False
    try:
        return all(parse_exact(ours[k]) == parse_exact(theirs[k]) for k in ours)
    except UnitRefusal:
        return dict(ours) == dict(theirs)


def classify(
    ours: Verdict,
    theirs: str,
    equation: BoundEquation,
    symbols: Mapping[str, SymbolBinding],
    *,
    vocab: UnitVocabulary | None = None,
    their_dependencies: tuple[str, ...] | None = None,
) -> tuple[str, str]:
    """The category of one pair, and a short detail (see :data:`CATEGORY_INFO`).

    Args:
        ours: our verdict on ``equation`` (:func:`verifier.check_equation` with ``vocab``).
        theirs: their outcome: a proof string (optionally with ``"; factors ..."``), a
            refusal reason, ``"crash: ..."`` for an exception, or ``"<absent>"``.
        equation: the equation both sides judged; its operands' units decide the category.
        symbols: the symbols by id.
        vocab: the vocabulary ours used (default :func:`units.default_vocabulary`); its
            declared count nouns tell a declared noun from a lexicon surface.
        their_dependencies: the dependencies theirs wired, when known (canonical text).

    Returns:
        ``(category, detail)``; ``category`` is a key of :data:`CATEGORIES`.
    """
    voc = given_vocabulary(vocab)
    return _Classifier(voc).classify(ours, theirs, equation, symbols, their_dependencies)


def _relabelled(ours: str, theirs: str) -> bool:
    """Both proofs are the same but for a result written ``count`` by one and ``dimensionless`` by the other."""
    mine, _, my_result = ours.rpartition(" -> ")
    other, _, their_result = theirs.rpartition(" -> ")
    return mine == other and {my_result.strip(), their_result.strip()} == {"count", "dimensionless"}


def _is_container(vocab: UnitVocabulary, lemma: str) -> bool:
    return any(e.lemma == lemma and e.role == "container" for e in vocab.lexicon.entries)


def crosscheck(
    subject: object,
    theirs: Mapping[str, str] | Reference | None = None,
    *,
    vocab: UnitVocabulary | None = None,
    case_id: str = "",
) -> CrosscheckReport:
    """Compare our verdicts with another implementation's, equation by equation.

    Args:
        subject: a canonical text (``str``; its recorded verdicts are ``theirs``), or a
            :class:`~verifier.BindingGraph`.
        theirs: for a graph: outcomes by lhs (proof string or refusal reason), or a
            callable ``(equation, symbols) -> str`` (an exception it raises is a ``crashes`` pair).
        vocab: our vocabulary (default: the strict default vocabulary).
        case_id: a label for every pair.

    Returns:
        A :class:`CrosscheckReport`.

    Raises:
        adapters.MathGraphError: canonical text that does not parse.
        BindingGraphError: ``malformed_input`` for a subject that is neither text nor a
            BindingGraph, a graph without ``theirs``, outcomes that are not strings, or a
            ``vocab`` that is no vocabulary.
    """
    voc = given_vocabulary(vocab)
    if isinstance(subject, str):
        graph, recorded = parse_canonical_text(subject)
        outcomes = {k: v.outcome for k, v in recorded.items()}
        return CrosscheckReport.from_pairs(
            _pairs(graph, outcomes, voc, case_id, {k: v.dependencies for k, v in recorded.items()})
        )
    if not isinstance(subject, BindingGraph):
        raise BindingGraphError(
            "malformed_input",
            f"crosscheck takes canonical text or a BindingGraph, found {type(subject).__name__}",
            "subject",
        )
    if theirs is None:
        raise BindingGraphError(
            "malformed_input", "a BindingGraph needs the other side's outcomes or a reference callable", "theirs"
        )
    if callable(theirs):
        symbols = subject.symbol_map
        call = as_reference(theirs)
        outcomes = {eq.lhs_symbol_id: call(eq, symbols) for eq in subject.equations}
        return CrosscheckReport.from_pairs(_pairs(subject, outcomes, voc, case_id, None))
    given: object = theirs  # typed, but an untyped caller may pass anything
    if not isinstance(given, Mapping) or not all(isinstance(k, str) and isinstance(v, str) for k, v in given.items()):
        raise BindingGraphError(
            "malformed_input", "the other side's outcomes map lhs ids to proof strings or refusal reasons", "theirs"
        )
    return CrosscheckReport.from_pairs(_pairs(subject, dict(theirs), voc, case_id, None))


def _pairs(
    graph: BindingGraph,
    theirs: Mapping[str, str],
    vocab: UnitVocabulary,
    case_id: str,
    their_deps: Mapping[str, tuple[str, ...]] | None,
) -> list[CrosscheckPair]:
    classifier = _Classifier(vocab)
    symbols = graph.symbol_map
    pairs = []
    for eq in graph.equations:
        verdict = check_equation(eq, symbols, vocab)
        other = theirs.get(eq.lhs_symbol_id, "<absent>")
        deps = their_deps.get(eq.lhs_symbol_id) if their_deps is not None else None
        category, detail = classifier.classify(verdict, other, eq, symbols, deps)
        ours = detailed_outcome(verdict) if "; factors " in other else outcome(verdict)
        pairs.append(
            CrosscheckPair(
                case_id=case_id,
                lhs_symbol_id=eq.lhs_symbol_id,
                ours=ours,
                theirs=other,
                category=category,
                detail=detail,
            )
        )
    for lhs, other in theirs.items():
        if lhs not in {eq.lhs_symbol_id for eq in graph.equations}:
            pairs.append(
                CrosscheckPair(
                    case_id=case_id, lhs_symbol_id=lhs, ours="<absent>", theirs=other, category="only_theirs", detail=""
                )
            )
    return pairs


def compare_bindings(
    ours: BindingGraph,
    theirs_text: str | None,
    *,
    their_error: str | None = None,
    vocab: UnitVocabulary | None = None,
    case_id: str = "",
) -> list[CrosscheckPair]:
    """Pairs between our binding of a graph and the other side's canonical text of the same graph.

    Args:
        ours: our :class:`~verifier.BindingGraph` of the source graph.
        theirs_text: their canonical text, or ``None`` when they raised ``their_error``.
        their_error: the exception text they raised instead (every pair is ``crashes``).
        vocab: our vocabulary.
        case_id: a label for every pair.
    """
    voc = given_vocabulary(vocab)
    symbols = ours.symbol_map
    if theirs_text is None:
        return _pairs(ours, {eq.lhs_symbol_id: f"crash: {their_error}" for eq in ours.equations}, voc, case_id, None)

    _, recorded = parse_canonical_text(theirs_text)
    classifier = _Classifier(voc)
    pairs = []
    for eq in ours.equations:
        verdict = check_equation(eq, symbols, voc)
        rec = recorded.get(eq.lhs_symbol_id)
        other = rec.outcome if rec is not None else "<absent>"
        category, detail = classifier.classify(
            verdict, other, eq, symbols, rec.dependencies if rec is not None else None
        )
        pairs.append(
            CrosscheckPair(
                case_id=case_id,
                lhs_symbol_id=eq.lhs_symbol_id,
                ours=outcome(verdict),
                theirs=other,
                category=category,
                detail=detail,
            )
        )
    ours_ids = {eq.lhs_symbol_id for eq in ours.equations}
    for lhs, rec in recorded.items():
        if lhs not in ours_ids:
            pairs.append(
                CrosscheckPair(
                    case_id=case_id,
                    lhs_symbol_id=lhs,
                    ours="<absent>",
                    theirs=rec.outcome,
                    category="only_theirs",
                    detail="",
                )
            )
    return pairs


def crosscheck_file(
    path: str | Path, *, vocab: UnitVocabulary | None = None, against: Callable[..., object] | None = None
) -> CrosscheckReport:
    """Cross-check a whole corpus file in either upstream layout (or a canonical text file).

    The file is read and its layout told by :mod:`adapters.crosscheck_corpus`.

    Layouts:
        * adapter corpus (``graph`` plus ``hand_rolled_canonical`` or ``hand_rolled_error``
          per line): our binding of ``graph`` against their canonical text;
        * equation verdicts (``operation_kind``, ``symbols``, ``hand_rolled`` per line, and
          optionally the ``vocab`` declarations it is judged with): our verdict on each
          equation against theirs;
        * a text file of canonical lines: its equations re-checked against what it records.

    Args:
        path: the file.
        vocab: our vocabulary (default: the default vocabulary).
        against: a live reference (see :func:`as_reference`) judged on the equations of
            the equation-verdict layout instead of their recorded ``hand_rolled`` verdicts.

    Raises:
        adapters.MathGraphError: a file or record that cannot be read (naming the line).
        BindingGraphError: ``malformed_input`` for a ``vocab`` that is no vocabulary.
    """
    voc = given_vocabulary(vocab)
    file, text = read_corpus_file(path)
    if is_canonical_text(text):
        if against is not None:
            raise MathGraphError(
                "malformed_input", "against= judges equation-verdict records only, not canonical text", str(file)
            )
        return crosscheck(text, vocab=voc, case_id=file.stem)
    pairs: list[CrosscheckPair] = []
    live = as_reference(against) if against is not None else None
    for line in corpus_lines(file, text):
        case_id = str(line.record.get("id", line.number))
        try:
            pairs += _record_pairs(line, case_id, voc, live)
        except MathGraphError as exc:
            raise MathGraphError(exc.reason, exc.detail, f"{line.where}: {exc.path}") from None
    return CrosscheckReport.from_pairs(pairs)


def _record_pairs(
    line: CorpusLine, case_id: str, vocab: UnitVocabulary, live: Reference | None
) -> list[CrosscheckPair]:
    """The pairs of one corpus record: an equation-verdict record's one pair, or an adapter record's.

    Args:
        line: the record, with its layout (:func:`adapters.crosscheck_corpus.record_layout`).
        case_id: its id, for every pair.
        vocab: our vocabulary (an equation-verdict record's own ``vocab`` declarations go on top).
        live: a live reference judging an equation-verdict record instead of its ``hand_rolled``.

    Raises:
        adapters.MathGraphError: a record of neither layout, or of the adapter layout under
            a live reference (the path names the record's field).
    """
    record = line.record
    if line.layout == "equation_verdicts":
        equation, symbols, theirs = equation_from_record(record)
        if live is not None:
            theirs = live(equation, symbols)
        own = vocabulary_for(record, vocab) if "vocab" in record else vocab
        verdict = check_equation(equation, symbols, own)
        category, detail = classify(verdict, theirs, equation, symbols, vocab=own)
        return [
            CrosscheckPair(
                case_id=case_id,
                lhs_symbol_id=equation.lhs_symbol_id,
                ours=outcome(verdict),
                theirs=theirs,
                category=category,
                detail=detail,
            )
        ]
    if live is not None:
        raise MathGraphError(
            "malformed_input",
            "against= judges equation-verdict records only (operation_kind, symbols, hand_rolled);"
            " this record is another layout",
            "record",
        )
    if line.layout == "adapter_corpus":
        ours = bind_math_problem_graph(graph_from_dict(record["graph"]), vocab)
        return compare_bindings(
            ours,
            cast("str | None", record.get("hand_rolled_canonical")),  # compare_bindings refuses a non-string
            their_error=cast("str | None", record.get("hand_rolled_error")),  # written into the pairs as is
            vocab=vocab,
            case_id=case_id,
        )
    raise MathGraphError(
        "malformed_input", "not an upstream corpus record (needs hand_rolled or hand_rolled_canonical)", "record"
    )


def _whole(value: object, label: str, low: int, high: int) -> int:
    """An int (or an int-like such as ``numpy.int64``, not a bool) from ``low`` to ``high``."""
    try:
        number = operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        number = None
    if isinstance(value, bool) or number is None or not low <= number <= high:
        raise BindingGraphError(
            "malformed_input", f"{label} must be an int from {low} to {high}, found {clip(value)}", label
        )
    return number


def _kinds(kinds: Iterable[str] | None) -> tuple[str, ...]:
    """The operation kinds to fuzz: a sequence of names (a set is sorted, so a run replays)."""
    if kinds is None:
        return OPERATION_KINDS
    if isinstance(kinds, (str, bytes)) or not isinstance(kinds, Iterable):
        raise BindingGraphError(
            "malformed_input", f"kinds must be a collection of kind names, found {clip(kinds)}", "kinds"
        )
    chosen = tuple(sorted(kinds) if isinstance(kinds, (set, frozenset)) else kinds)
    if not chosen or not all(isinstance(k, str) and re.fullmatch(r"[A-Za-z][A-Za-z0-9_]{0,63}", k) for k in chosen):
        raise BindingGraphError(
            "malformed_input", f"kinds must be names such as 'add' (letters, digits, _), found {clip(chosen)}", "kinds"
        )
    return tuple(dict.fromkeys(chosen))


FUZZ_COUNT_NOUNS: Final[tuple[str, ...]] = ("apples", "oranges")
"""Count nouns :func:`fuzz` declares when it is given no vocabulary (two kinds, so merges show)."""


def fuzz(
    theirs: Callable[..., object],
    *,
    vocab: UnitVocabulary | None = None,
    max_examples: int = 1000,
    kinds: Iterable[str] | None = None,
    seed: int = 0,
    shrink: bool = True,
) -> CrosscheckReport:
    """Fuzz another implementation's admissibility against ours; keep each category's smallest example.

    Draws ``max_examples`` single equations (:func:`verifier.strategies.equation_records`:
    every operation kind, units of every dimension of the vocabulary, commensurable and
    incommensurable operands, declared count nouns, rates, literal operands, unbound
    units), judges each with :func:`verifier.check_equation` and with ``theirs``
    (wrapped by :func:`as_reference`, so an exception is a ``theirs_crashes`` pair), and
    classifies each pair (:func:`classify`).  Then, for every disagreement category found,
    hypothesis searches for it again and shrinks it to its smallest example
    (:class:`MinimalExample`, in :attr:`CrosscheckReport.minimal`).

    Args:
        theirs: a callable of the upstream ``check_admissibility`` shape (see
            :func:`as_reference`).
        vocab: our vocabulary (default: the default vocabulary with
            :data:`FUZZ_COUNT_NOUNS` declared); its declared nouns are drawn too.
        max_examples: equations to draw (1 to 1,000,000); repeats are counted once.
        kinds: operation kinds to draw (default all ten).
        seed: the run's seed: the same seed, callable and arguments give the same report,
            byte for byte (hypothesis runs with no example database).
        shrink: search for the smallest example of each category (else keep the first).

    Returns:
        A :class:`CrosscheckReport` with ``pairs`` (case ids ``fuzz-N``, lhs ``r``),
        ``counts``, ``minimal`` and ``seed``.

    Raises:
        BindingGraphError: ``malformed_input`` for a reference that is not callable, a
            ``max_examples`` or ``seed`` that is not an int in range, or no kinds.
        ImportError: hypothesis is not installed (a dependency of the package: ``pip install hypothesis``).
    """
    call = as_reference(theirs)
    max_examples = _whole(max_examples, "max_examples", 1, 1_000_000)
    seed = _whole(seed, "seed", 0, 2**32 - 1)
    chosen = _kinds(kinds)
    voc = given_vocabulary(vocab) if vocab is not None else default_vocabulary().with_count_nouns(FUZZ_COUNT_NOUNS)
    return _fuzzing.run(call, vocab=voc, max_examples=max_examples, kinds=chosen, seed=seed, shrink=bool(shrink))


__all__ = [
    "CATEGORIES",
    "CATEGORY_INFO",
    "FORMER_NAMES",
    "FUZZ_COUNT_NOUNS",
    "REFERENCE_OUTCOME_CHARS",
    "Category",
    "CrosscheckPair",
    "CrosscheckReport",
    "MinimalExample",
    "as_reference",
    "classify",
    "compare_bindings",
    "crosscheck",
    "crosscheck_file",
    "detailed_outcome",
    "fuzz",
    "outcome",
]
