"""Cross-check another implementation's equation verdicts against ours, pair by pair (SPEC §7).

Each pair is aligned by ``lhs_symbol_id`` and falls into one category of the
closed set :data:`CATEGORIES`; each category says who is right and why.  A pair
that fits none is ``unclassified`` — a signal to study it, never to hide it.

Inputs: a canonical text (its equations re-checked by us, compared with what it
records), a :class:`~verifier.BindingGraph` with the other side's outcomes, or
any callable ``(equation, symbols) -> proof string | refusal reason``.  A proof
string may carry exact factors after ``"; factors "`` (``"add: [length,length] ->
length; factors a=1, b=1/12"``, see :meth:`UnitProof`-based :func:`detailed_outcome`),
so an implementation that ignores conversion factors is caught.

This module sits on top of the verifier: :func:`crosscheck_file` reads the
upstream corpus layouts through ``adapters`` (imported inside the function).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from units import UnitRefusal, UnitVocabulary, default_vocabulary
from units._numbers import format_exact
from verifier.admissibility import Verdict, check_equation
from verifier.errors import BindingGraphError
from verifier.model import BindingGraph, BoundEquation, SymbolBinding

CATEGORIES: Final[dict[str, str]] = {
    "agree": "both sides give the same verdict (proof string or refusal reason) on the same equation",
    "admits_incommensurable_currencies": "theirs admits a sum of two currencies; ours is right: ISO 4217 currencies have no fixed rate",
    "admits_offset_temperature_arithmetic": "theirs adds absolute temperatures (Celsius, Fahrenheit); ours is right: offset units take no arithmetic",
    "admits_container_as_items": "theirs counts containers of unstated size as items; ours is right: a box is not a number of items",
    "merges_count_kinds": "theirs adds different count kinds (people and mice); ours is right: count kinds stay apart",
    "admits_unscaled_degree": "theirs adds a bare degree to a scaled temperature; ours is right: a degree with no scale converts to nothing",
    "admits_calendar_without_convention": "theirs relates months or years to days or weeks; ours is right: that needs a declared convention",
    "admits_dimension_mismatch": "theirs admits operands of different dimensions; ours is right",
    "admits_rate_kind_mismatch": "theirs applies a rate to a quantity of another kind (per item over apples); ours is right",
    "admits_malformed_rate": "theirs admits a rate whose quantity does not have exactly the rate's denominator dimension; ours is right",
    "admits_product_of_quantities": "theirs multiplies two unit-bearing states; ours is right: multiply scales one state by dimensionless scalars",
    "scalar_as_unit_bearing": "theirs treats a scalar multiplier or divisor as unit-bearing (money x money -> money^2); ours is right: the scalar is a pure number",
    "multiplicative_comparison_dimensionless": "theirs labels a multiplicative comparison dimensionless (or reads no reference); ours is right: it scales the reference's state",
    "refuses_lexicon_surface": "theirs refuses a lexicon surface it cannot depluralize (feet, people, $, t, mph); ours is right: the lexicon lists it",
    "refuses_admissible": "theirs refuses an equation ours admits with a proof; ours is right unless its proof is wrong",
    "unknown_operation_kind": "theirs does not know the operation kind (unit_partition, fraction_portion); ours checks it",
    "wires_initial_state": "theirs reads the actor's initial (t0) state instead of its current one; ours is right: each operation reads the previous result",
    "transfer_target_as_dependency": "theirs lists the transfer target's state as a dependency of the actor's new state; ours is right: that state does not read it",
    "crashes": "theirs raises an exception where ours returns a verdict",
    "only_ours": "an equation only ours has (e.g. the transfer target's new state, which theirs does not model)",
    "only_theirs": "an equation only theirs has",
    "refusal_reason_differs": "both refuse, for different reasons (each names its own first failing check)",
    "ignores_conversion_factor": "theirs applies a different conversion factor than the exact one; ours is right (NIST SP 811, exact Fractions)",
    "unclassified": "fits no category: study it",
}
"""The closed set of pair categories, each with who is right and why."""


@dataclass(frozen=True, slots=True)
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


@dataclass(frozen=True, slots=True)
class CrosscheckReport:
    """All pairs of a cross-check and their counts per category.

    Attributes:
        pairs: every aligned pair, in input order.
        counts: category → number of pairs (every category present, zeros included).
    """

    pairs: tuple[CrosscheckPair, ...]
    counts: Mapping[str, int]

    @classmethod
    def from_pairs(cls, pairs: Iterable[CrosscheckPair]) -> CrosscheckReport:
        """Build a report, counting categories."""
        items = tuple(pairs)
        counter = Counter(p.category for p in items)
        return cls(items, {name: counter.get(name, 0) for name in CATEGORIES})

    @property
    def unclassified(self) -> tuple[CrosscheckPair, ...]:
        """Pairs that fit no category."""
        return tuple(p for p in self.pairs if p.category == "unclassified")

    def examples(self, category: str, limit: int = 3) -> tuple[CrosscheckPair, ...]:
        """The first ``limit`` pairs of a category."""
        return tuple(p for p in self.pairs if p.category == category)[:limit]

    def _repr_html_(self) -> str:
        from verifier.display import crosscheck_html

        return crosscheck_html(self)

    def rows(self) -> list[dict[str, str]]:
        """One dict per pair (``pandas.DataFrame(report.rows())``)."""
        return [p.to_json() for p in self.pairs]

    def to_json(self) -> dict[str, object]:
        """Counts (non-zero), the first examples of each category, and every pair."""
        return {
            "counts": {k: v for k, v in self.counts.items() if v},
            "examples": {
                k: [p.to_json() for p in self.examples(k)] for k, v in self.counts.items() if v and k != "agree"
            },
            "pairs": self.rows(),
        }

    def table(self, examples: int = 2) -> str:
        """A printed table: count per category, then the first examples of each disagreement."""
        width = max(len(k) for k in CATEGORIES)
        lines = [f"{'category':<{width}}  pairs", f"{'-' * width}  -----"]
        lines += [f"{k:<{width}}  {v:5d}" for k, v in self.counts.items() if v]
        lines.append(f"{'total':<{width}}  {len(self.pairs):5d}")
        for cat, count in self.counts.items():
            if not count or cat == "agree":
                continue
            lines.append(f"\n{cat}: {CATEGORIES[cat]}")
            for p in self.examples(cat, examples):
                lines.append(f"  {p.case_id} {p.lhs_symbol_id}: ours {p.ours!r} | theirs {p.theirs!r}")
        return "\n".join(lines)

    def __repr__(self) -> str:
        nonzero = ", ".join(f"{k}={v}" for k, v in self.counts.items() if v)
        return f"CrosscheckReport({len(self.pairs)} pairs: {nonzero})"


Reference = Callable[[BoundEquation, Mapping[str, SymbolBinding]], str]


def outcome(verdict: Verdict) -> str:
    """Our side as a string: the proof string when admitted, else the refusal reason."""
    if verdict.proof is not None:
        return verdict.proof.to_canonical_string()
    assert verdict.refusal is not None
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


class _Classifier:
    """Puts one pair in a category, using the units of the equation's operands."""

    def __init__(self, vocab: UnitVocabulary) -> None:
        self.vocab = vocab

    def units(self, equation: BoundEquation | None, symbols: Mapping[str, SymbolBinding]) -> list[str]:
        if equation is None:
            return []
        out = [symbols[d].unit for d in sorted(equation.dependencies) if d in symbols and symbols[d].unit]
        if equation.literal_unit:
            out.append(equation.literal_unit)
        return [u for u in out if u]

    def lemmas(self, units: list[str]) -> list[object]:
        refs: list[object] = []
        for unit in units:
            try:
                refs.append(self.vocab.resolve(unit))
            except UnitRefusal:
                refs.append(None)
        return refs

    def classify(
        self,
        ours_verdict: Verdict | None,
        theirs: str,
        equation: BoundEquation | None,
        symbols: Mapping[str, SymbolBinding],
        their_deps: tuple[str, ...] | None = None,
    ) -> tuple[str, str]:
        if ours_verdict is None:
            return "only_theirs", "no equation of ours has this lhs"
        ours = outcome(ours_verdict)
        if theirs == "<absent>":
            return "only_ours", "theirs has no equation with this lhs"
        if theirs.startswith("crash:"):
            return "crashes", theirs
        assert equation is not None
        kind = equation.operation_kind
        if their_deps is not None and tuple(sorted(their_deps)) != tuple(sorted(equation.dependencies)):
            category = self.wiring(equation, their_deps, symbols)
            if category:
                return (
                    category,
                    f"ours reads [{', '.join(sorted(equation.dependencies))}], theirs [{', '.join(their_deps)}]",
                )
        their_head, their_factors = _split_factors(theirs)
        if their_head == ours:
            if their_factors is not None and ours_verdict.proof is not None:
                mine = {op.symbol_id: format_exact(op.factor) for op in ours_verdict.proof.operands}
                if their_factors != mine:
                    return "ignores_conversion_factor", f"ours {mine}, theirs {their_factors}"
            return "agree", ""
        units = self.units(equation, symbols)
        refs = self.lemmas(units)
        theirs_admitted = ":" in their_head and "->" in their_head
        if not theirs_admitted and their_head == "unknown_operation":
            return "unknown_operation_kind", f"{kind} is unknown to theirs"
        if not theirs_admitted and their_head == "unknown_unit" and ours != "unknown_unit":
            return "refuses_lexicon_surface", f"units {units} are lexicon surfaces"
        if ours_verdict.refusal is not None and theirs_admitted:
            return self.stricter(ours_verdict.refusal.reason, kind, refs, units)
        if ours_verdict.proof is not None and theirs_admitted:
            if (
                kind in ("multiply", "divide")
                and "dimensionless" in ours
                and their_head.split("->")[-1].strip() != ours.split("->")[-1].strip()
            ):
                return "scalar_as_unit_bearing", "ours counts the scalar dimensionless"
            if kind in ("multiply", "divide") and any(
                s.endswith(("__multiplicand", "__divisor")) for s in equation.dependencies
            ):
                return "scalar_as_unit_bearing", "ours counts the scalar dimensionless"
            if kind == "compare_multiplicative" and their_head.endswith("-> dimensionless"):
                return "multiplicative_comparison_dimensionless", ""
            return "unclassified", "both admit with different proofs"
        if ours_verdict.proof is not None:
            return "refuses_admissible", f"theirs refuses with {their_head}"
        return "refusal_reason_differs", f"ours {ours}, theirs {their_head}"

    def wiring(self, equation: BoundEquation, their_deps: tuple[str, ...], symbols: Mapping[str, SymbolBinding]) -> str:
        ours = set(equation.dependencies)
        theirs = set(their_deps)
        kind = equation.operation_kind
        if kind == "compare_multiplicative" and not theirs and ours:
            return "multiplicative_comparison_dimensionless"
        lhs = symbols.get(equation.lhs_symbol_id)
        owner = lhs.entity if lhs is not None else None
        extra = theirs - ours
        if (
            kind == "transfer"
            and extra
            and all(symbols.get(d) is not None and symbols[d].entity != owner for d in extra)
        ):
            return "transfer_target_as_dependency"
        if any(d.endswith("_t0") for d in extra) and any(not d.endswith("_t0") for d in ours - theirs):
            return "wires_initial_state"
        if extra and all(d.endswith("_t0") for d in extra) and not (ours - theirs):
            return "wires_initial_state"
        return ""

    def stricter(self, reason: str, kind: str, refs: list[object], units: list[str]) -> tuple[str, str]:
        lemmas = [getattr(r, "lemma", None) for r in refs]
        detail = f"units {units}"
        if reason == "offset_unit_arithmetic":
            return "admits_offset_temperature_arithmetic", detail
        if reason == "convention_required":
            return "admits_calendar_without_convention", detail
        if reason == "incommensurable_units":
            dims = {getattr(r, "dimension", None) for r in refs}
            axes = {str(d) for d in dims if d is not None}
            if kind == "apply_rate":
                return "admits_rate_kind_mismatch", detail
            if "degree" in lemmas:
                return "admits_unscaled_degree", detail
            if any("money" in a for a in axes):
                return "admits_incommensurable_currencies", detail
            conv = self.vocab.lexicon.conversions
            if any(
                lem in conv and conv[lem].base_dimension == lem and lem != "item" and _is_container(self.vocab, lem)
                for lem in lemmas
                if isinstance(lem, str)
            ):
                return "admits_container_as_items", detail
            if axes == {"count"}:
                return "merges_count_kinds", detail
            return "unclassified", f"incommensurable: {detail}"
        if reason == "unit_mismatch" and kind == "multiply":
            return "admits_product_of_quantities", detail
        if reason == "operand_arity" and kind == "compare_multiplicative":
            return "multiplicative_comparison_dimensionless", detail
        if reason == "rate_form_invalid":
            return "admits_malformed_rate", detail
        if reason == "unit_mismatch":
            return "admits_dimension_mismatch", detail
        return "unclassified", f"ours refuses with {reason}"


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
            BindingGraph, a graph without ``theirs``, or outcomes that are not strings.
    """
    voc = vocab if vocab is not None else default_vocabulary()
    if isinstance(subject, str):
        from adapters.canonical_text import parse_canonical_text

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
        outcomes = {}
        for eq in subject.equations:
            try:
                result = theirs(eq, symbols)
                outcomes[eq.lhs_symbol_id] = (
                    result if isinstance(result, str) else f"crash: returned {type(result).__name__}"
                )
            except Exception as exc:
                outcomes[eq.lhs_symbol_id] = f"crash: {type(exc).__name__}: {exc}"
        return CrosscheckReport.from_pairs(_pairs(subject, outcomes, voc, case_id, None))
    if not isinstance(theirs, Mapping) or not all(isinstance(k, str) and isinstance(v, str) for k, v in theirs.items()):
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
        pairs.append(CrosscheckPair(case_id, eq.lhs_symbol_id, ours, other, category, detail))
    for lhs, other in theirs.items():
        if lhs not in {eq.lhs_symbol_id for eq in graph.equations}:
            pairs.append(CrosscheckPair(case_id, lhs, "<absent>", other, "only_theirs", ""))
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
    voc = vocab if vocab is not None else default_vocabulary()
    symbols = ours.symbol_map
    if theirs_text is None:
        return _pairs(ours, {eq.lhs_symbol_id: f"crash: {their_error}" for eq in ours.equations}, voc, case_id, None)
    from adapters.canonical_text import parse_canonical_text

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
        pairs.append(CrosscheckPair(case_id, eq.lhs_symbol_id, outcome(verdict), other, category, detail))
    ours_ids = {eq.lhs_symbol_id for eq in ours.equations}
    for lhs, rec in recorded.items():
        if lhs not in ours_ids:
            pairs.append(CrosscheckPair(case_id, lhs, "<absent>", rec.outcome, "only_theirs", ""))
    return pairs


def crosscheck_file(path: str | Path, *, vocab: UnitVocabulary | None = None) -> CrosscheckReport:
    """Cross-check a whole corpus file in either upstream layout (or a canonical text file).

    Layouts:
        * adapter corpus (``graph`` plus ``hand_rolled_canonical`` or ``hand_rolled_error``
          per line): our binding of ``graph`` against their canonical text;
        * equation verdicts (``operation_kind``, ``symbols``, ``hand_rolled`` per line): our
          verdict on each equation against theirs;
        * a text file of canonical lines: its equations re-checked against what it records.

    Raises:
        adapters.MathGraphError: a file or record that cannot be read (naming the line).
    """
    from adapters import MathGraphError, bind_math_problem_graph, graph_from_dict, read_json
    from adapters.records import equation_from_record

    voc = vocab if vocab is not None else default_vocabulary()
    if not isinstance(path, (str, Path)) or not str(path):
        raise MathGraphError(
            "malformed_input", f"path must be a non-empty str or Path, found {type(path).__name__}", "path"
        )
    file = Path(path)
    if not file.is_file():
        raise MathGraphError("malformed_input", f"{file} is not a regular file", str(file))
    try:
        text = file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise MathGraphError("malformed_input", f"cannot read {file}: {exc}", str(file)) from None
    if text.lstrip().startswith("S "):
        return crosscheck(text, vocab=voc, case_id=file.stem)
    pairs: list[CrosscheckPair] = []
    classifier = _Classifier(voc)
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            record = read_json(line)
        except UnitRefusal as exc:
            raise MathGraphError(exc.reason, exc.detail, f"{file}:{number}") from None
        if not isinstance(record, dict):
            raise MathGraphError("malformed_input", "each line must be a JSON object", f"{file}:{number}")
        if "input" in record and "expect" in record and isinstance(record["input"], dict):  # a bundled lane case
            record = {"id": record.get("id", number), **record["input"]}
        case_id = str(record.get("id", number))
        try:
            if "hand_rolled" in record and "operation_kind" in record:
                equation, symbols, theirs = equation_from_record(record)
                verdict = check_equation(equation, symbols, voc)
                category, detail = classifier.classify(verdict, theirs, equation, symbols)
                pairs.append(
                    CrosscheckPair(case_id, equation.lhs_symbol_id, outcome(verdict), theirs, category, detail)
                )
            elif "graph" in record and ("hand_rolled_canonical" in record or "hand_rolled_error" in record):
                ours = bind_math_problem_graph(graph_from_dict(record["graph"]), voc)
                pairs.extend(
                    compare_bindings(
                        ours,
                        record.get("hand_rolled_canonical"),
                        their_error=record.get("hand_rolled_error"),
                        vocab=voc,
                        case_id=case_id,
                    )
                )
            else:
                raise MathGraphError(
                    "malformed_input",
                    "not an upstream corpus record (needs hand_rolled or hand_rolled_canonical)",
                    "record",
                )
        except MathGraphError as exc:
            raise MathGraphError(exc.reason, exc.detail, f"{file}:{number}: {exc.path}") from None
    return CrosscheckReport.from_pairs(pairs)


__all__ = [
    "CATEGORIES",
    "CrosscheckPair",
    "CrosscheckReport",
    "crosscheck",
    "crosscheck_file",
    "detailed_outcome",
    "outcome",
]
_ = json
