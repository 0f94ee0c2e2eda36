"""What the benchmark runs: the inputs of every warm metric, and the workloads that time themselves.

The equation mix (:class:`EquationCase`, :func:`equation_mix`), the bound graphs
(:class:`GraphCase`, :func:`lane_graphs`, :func:`upstream_graphs`, with the count nouns
the upstream graphs need), the pipeline corpus and its upstream-shape reference
(:func:`pipeline_corpus`, :func:`reference_pipeline`, the memo clearer between rounds),
and the self-timed workloads :func:`derived_vocabulary_ms` and :func:`scaling`.
"""

from __future__ import annotations

import functools
import gc
import json
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import sympy

import adapters
import units
from adapters import bind_math_problem_graph, bind_relations, graph_from_dict, read_json
from adapters.records import bind_record
from benchmarks.paths import LEXICON_PATH, UPSTREAM_DEV, UPSTREAM_LEXICON
from benchmarks.pipeline import upstream_reference
from benchmarks.upstream_shape import load_unit_table
from evals.runner import lane_cases
from units import RefusalError, UnitRefusal, UnitVocabulary
from verifier import BindingGraph, BoundEquation, BoundFact, BoundUnknown, SourceSpanLink, SymbolBinding, verify
from verifier.expr import clear_memos

_IES_KEPT_UP_TO: Final[int] = 4  # "-ies" -> "-y" only past 4 letters: "flies" -> "fly", "pies" -> "pie"
_S_KEPT_UP_TO: Final[int] = 3  # a final "s" is dropped only past 3 letters: "bus", "gas" stay


@dataclass(frozen=True)
class EquationCase:
    """One equation of the mix with its symbol table."""

    label: str
    equation: BoundEquation
    symbols: dict[str, SymbolBinding]


_EQUATION_MIX: Final[tuple[tuple[str, str, str, dict[str, tuple[str, str | None]], str], ...]] = (
    # label, kind, lhs, {symbol: (role, unit)}, rhs (over the symbols; lhs included in the table)
    (
        "add feet+inches",
        "add",
        "op_000_result",
        {
            "q_ana_length_t0": ("quantity", "feet"),
            "op_000_operand": ("quantity", "inches"),
            "op_000_result": ("quantity", "feet"),
        },
        "q_ana_length_t0 + op_000_operand",
    ),
    (
        "subtract items",
        "subtract",
        "op_001_result",
        {
            "q_sam_items_t0": ("quantity", "items"),
            "op_001_operand": ("quantity", "items"),
            "op_001_result": ("quantity", "items"),
        },
        "q_sam_items_t0 - op_001_operand",
    ),
    (
        "transfer dollars",
        "transfer",
        "op_002_result",
        {
            "q_ana_money_t0": ("quantity", "dollars"),
            "op_002_operand": ("quantity", "dollars"),
            "op_002_result": ("quantity", "dollars"),
        },
        "q_ana_money_t0 - op_002_operand",
    ),
    (
        "compare_additive hours+minutes",
        "compare_additive",
        "q_ben_time_t0",
        {
            "q_ana_time_t0": ("quantity", "hours"),
            "op_003_delta": ("quantity", "minutes"),
            "q_ben_time_t0": ("quantity", "minutes"),
        },
        "q_ana_time_t0 + op_003_delta",
    ),
    (
        "multiply dollars x __multiplicand",
        "multiply",
        "op_004_result",
        {
            "q_ana_money_t0": ("quantity", "dollars"),
            "op_004__multiplicand": ("ratio", None),
            "op_004_result": ("quantity", "dollars"),
        },
        "q_ana_money_t0 * op_004__multiplicand",
    ),
    (
        "divide items / 4",
        "divide",
        "op_005_result",
        {"q_sam_items_t0": ("quantity", "items"), "op_005_result": ("quantity", "items")},
        "q_sam_items_t0 / 4",
    ),
    (
        "divide dollars / items__divisor",
        "divide",
        "op_006_result",
        {
            "q_ana_money_t0": ("quantity", "dollars"),
            "op_006__divisor": ("quantity", "items"),
            "op_006_result": ("rate", "dollar_per_item"),
        },
        "q_ana_money_t0 / op_006__divisor",
    ),
    (
        "apply_rate dollar_per_hour x hours",
        "apply_rate",
        "op_007_result",
        {
            "op_007__rate": ("rate", "dollar_per_hour"),
            "q_ana_time_t0": ("duration", "hours"),
            "op_007_result": ("quantity", "dollars"),
        },
        "op_007__rate * q_ana_time_t0",
    ),
    (
        "compare_multiplicative 3 x dollars",
        "compare_multiplicative",
        "q_ben_money_t0",
        {"q_ana_money_t0": ("quantity", "dollars"), "q_ben_money_t0": ("quantity", "dollars")},
        "3 * q_ana_money_t0",
    ),
    (
        "unit_partition feet / __chunk feet -> items",
        "unit_partition",
        "op_009_result",
        {
            "q_ana_length_t0": ("quantity", "feet"),
            "op_009__chunk": ("quantity", "feet"),
            "op_009_result": ("count", "items"),
        },
        "q_ana_length_t0 / op_009__chunk",
    ),
    (
        "fraction_portion 2/5 of items",
        "fraction_portion",
        "op_010_result",
        {"q_sam_items_t0": ("count", "items"), "op_010_result": ("count", "items")},
        "2/5 * q_sam_items_t0",
    ),
)


def _rhs(text: str, names: Iterable[str]) -> sympy.Expr:
    """A tiny rhs built in code (no sympify): ``a + b``, ``a - b``, ``a * b``, ``n * a``."""
    syms = {n: sympy.Symbol(n) for n in names}

    def atom(token: str) -> sympy.Expr:
        if token in syms:
            return syms[token]
        num, _, den = token.partition("/")
        return sympy.Rational(int(num), int(den or 1))

    left, op, right = text.split(" ")
    a, b = atom(left), atom(right)
    return {"+": a + b, "-": a - b, "*": a * b, "/": a / b}[op]


def equation_mix() -> list[EquationCase]:
    """The fixed mix: every operation kind, commensurable conversions, both divide forms."""
    out = []
    for label, kind, lhs, table, rhs_text in _EQUATION_MIX:
        symbols = {
            sid: SymbolBinding(
                symbol_id=sid,
                name=sid,
                semantic_role=role,
                unit=unit,
                introduced_by="bench",
                source_span=SourceSpanLink(source_id="bench", start=0, end=len(sid), text=sid),
            )
            for sid, (role, unit) in table.items()
        }
        eq = BoundEquation.create(
            lhs_symbol_id=lhs,
            rhs=_rhs(rhs_text, table),
            operation_kind=kind,
            source_span=SourceSpanLink(source_id="bench", start=0, end=len(label), text=label),
        )
        out.append(EquationCase(label, eq, symbols))
    return out


@dataclass(frozen=True)
class GraphCase:
    """One bound graph ready for ``verify``."""

    label: str
    graph: Any
    vocab: UnitVocabulary
    policy: str
    expected: str | None = None


def lane_graphs() -> tuple[list[GraphCase], list[str]]:
    """The bundled ``graphs`` lane, bound as ``evals.runner`` binds it: (graphs, skipped ids)."""
    out: list[GraphCase] = []
    skipped: list[str] = []
    for case in lane_cases("graphs"):
        fmt = case.get("format")
        try:  # bind_record unwraps the lane case (adapters.records.lane_case_input), as the runner does
            bound = bind_record(case, fmt if isinstance(fmt, str) else None)
        except RefusalError as exc:  # a case refused at binding is no verify workload
            skipped.append(f"{case.get('id')}: {type(exc).__name__}")
            continue
        out.append(GraphCase(str(case.get("id")), bound.graph, bound.vocab, bound.policy))
    return out, skipped


def _unit_strings(data: object) -> Iterable[str]:
    """Every string value under a key ending in ``unit``, anywhere in a JSON value, depth first."""
    if isinstance(data, dict):
        for key, value in data.items():
            if isinstance(value, str) and key.endswith("unit"):
                yield value
            else:
                yield from _unit_strings(value)
    elif isinstance(data, list):
        for item in data:
            yield from _unit_strings(item)


def _noun_lemma(surface: str) -> str:
    """A guessed lemma for a count noun: lower-cased, ``_`` for other characters, a regular plural made singular."""
    word = "".join(ch if ch.isalnum() else "_" for ch in surface.lower()).strip("_") or "noun"
    if word.endswith("ies") and len(word) > _IES_KEPT_UP_TO:
        word = word[:-3] + "y"
    elif word.endswith("s") and not word.endswith("ss") and len(word) > _S_KEPT_UP_TO:
        word = word[:-1]
    return word if word[0].isalpha() else f"n_{word}"


def upstream_graphs(path: Path = UPSTREAM_DEV) -> tuple[list[GraphCase], list[str], dict[str, str]]:
    """The upstream dev graphs, bound once with their count nouns declared.

    Every unit string the default vocabulary does not resolve is declared, in one
    ``with_count_nouns`` call, as a count noun of its own lemma (``apples`` → ``apple``).
    Returns (graphs, skipped ids, declared nouns); no graphs when the file is absent.
    """
    if not path.is_file():
        return [], [], {}
    cases = [read_json(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    base = units.default_vocabulary()
    nouns: dict[str, str] = {}
    for case in cases:
        for surface in _unit_strings(case.get("ground_truth_graph") if isinstance(case, dict) else None):
            if surface in nouns:
                continue
            try:
                base.resolve(surface)
            except UnitRefusal:
                nouns[surface] = _noun_lemma(surface)
    try:
        vocab = base.with_count_nouns(nouns) if nouns else base
    except UnitRefusal:  # a guessed lemma clashes with a lexicon lemma: give each its own
        nouns = {s: f"noun_{lemma}" for s, lemma in nouns.items()}
        vocab = base.with_count_nouns(nouns)
    out: list[GraphCase] = []
    skipped: list[str] = []
    for case in cases:
        label = str(case.get("id")) if isinstance(case, dict) else "?"
        try:
            bound = bind_record(case, "math_graph", vocab)
        except RefusalError as exc:  # refused at binding: no verify workload
            skipped.append(f"{label}: {type(exc).__name__}")
            continue
        expected = None
        if isinstance(case, dict) and "expected_answer" in case:
            expected = f"{case['expected_answer']} {case.get('expected_unit') or ''}".strip()
        out.append(GraphCase(label, bound.graph, bound.vocab, bound.policy, expected))
    return out, skipped, nouns


def answer_text(graph: GraphCase) -> str:
    """The first answer of ``verify`` as ``"<value> <unit>"``, ``"refused <reason>"`` or ``"no answer"``."""
    report = verify(graph.graph, graph.vocab, graph.policy)
    if not report.answers:
        return "no answer"
    answer = next(iter(report.answers.values()))
    value = getattr(answer, "value", None)
    if value is None:
        return f"refused {getattr(answer, 'reason', answer)}"
    text = str(value)
    unit = getattr(answer, "unit", None)
    return f"{text} {unit}" if unit else text


def clear_print_memo() -> None:
    """Empty the expression and span memos and sympy's own cache, so a round sees each graph for the first time.

    Sympy memoizes every expression it builds (``sympy.core.cache``): without clearing it, a
    round after the first would build each graph's expressions from that cache, which a
    corpus of distinct graphs never does (it hid about 35 us of binding per graph).
    """
    clear_memos()
    adapters.clear_memos()
    sympy.core.cache.clear_cache()


@functools.cache
def reference_pipeline() -> Callable[[str], str]:
    """The upstream-shape reference (json.loads + its adapter and check), over the upstream lexicon when present."""
    return upstream_reference(load_unit_table(UPSTREAM_LEXICON if UPSTREAM_LEXICON.is_file() else LEXICON_PATH))


def pipeline_corpus(upstream: Path) -> tuple[list[str], UnitVocabulary, str]:
    """Graph texts for the pipeline: the upstream dev graphs (nouns declared once), else our lane's math graphs."""
    if upstream.is_file():
        _, _, nouns = upstream_graphs(upstream)
        base = units.default_vocabulary()
        vocab = base.with_count_nouns(nouns) if nouns else base
        cases = [json.loads(line) for line in upstream.read_text(encoding="utf-8").splitlines() if line.strip()]
        return [json.dumps(c["ground_truth_graph"]) for c in cases], vocab, "upstream dev graphs"
    texts = []
    vocab = units.default_vocabulary()
    for case in lane_cases("graphs"):
        if case.get("format") != "math_graph" or not isinstance(case.get("input"), dict) or "vocab" in case:
            continue
        text = json.dumps(case["input"])
        try:  # both pipelines must run it (the reference reads only JSON numbers, as upstream does)
            reference_pipeline()(text)
            bind_math_problem_graph(graph_from_dict(read_json(text)), vocab)
        except (ValueError, KeyError, TypeError, AttributeError):  # upstream's AttributeError on unit_partition
            continue
        texts.append(text)
    return texts, vocab, "lane graphs"


def derived_vocabulary_ms(base: UnitVocabulary, rounds: int) -> dict[str, list[float]]:
    """Milliseconds for ``with_count_nouns`` of 1, 10 and 30 nouns never declared before (fresh names each round)."""
    out: dict[str, list[float]] = {}
    for size in (1, 10, 30):
        times = []
        for r in range(rounds):
            nouns = {
                f"zorb{size}x{r}n{i}s".replace("0", "o").replace("1", "l"): f"zorb{size}_{r}_{i}" for i in range(size)
            }
            nouns = {"".join(ch for ch in k if ch.isalpha()) + "s": v for k, v in nouns.items()}
            start = time.perf_counter()
            base.with_count_nouns(nouns)
            times.append((time.perf_counter() - start) * 1000)
        out[f"{size}_nouns"] = times
    return out


def scaling(rounds: int) -> dict[str, list[float]]:
    """Seconds to bind and verify a 1,000-relation inverse chain, and to verify N entities with N total-unknowns.

    The chain (``e_{i+1} = e_i + 1``, the last one stated, the first asked) leaves everything
    to the linear solve; the totals measure N = 400 and N = 800 for the growth ratio
    (about 2 for N log N, 4 for N squared).
    """
    span = SourceSpanLink(source_id="bench", start=0, end=1)

    def chain() -> float:
        relations: list[dict[str, object]] = [
            {"kind": "more_than", "entity": f"e{i + 1}", "ref": f"e{i}", "delta": 1} for i in range(999)
        ]
        relations.append({"kind": "fact", "entity": "e999", "value": 5000})
        start = time.perf_counter()
        verify(bind_relations(relations, {"entity": "e0", "unit": "dollars"}), policy="integer")
        return time.perf_counter() - start

    def totals(n: int) -> float:
        symbols, facts, unknowns = [], [], []
        for i in range(n):
            symbols.append(
                SymbolBinding(
                    symbol_id=f"ent{i}",
                    name=f"E{i}",
                    semantic_role="entity",
                    source_span=span,
                    introduced_by="bench",
                    entity=f"E{i}",
                )
            )
            symbols.append(
                SymbolBinding(
                    symbol_id=f"q{i}",
                    name=f"q{i}",
                    semantic_role="quantity",
                    source_span=span,
                    introduced_by="bench",
                    entity=f"E{i}",
                    unit="dollars",
                )
            )
            symbols.append(
                SymbolBinding(
                    symbol_id=f"u{i}",
                    name=f"u{i}",
                    semantic_role="unknown",
                    source_span=span,
                    introduced_by="bench",
                    unit="dollars",
                )
            )
            facts.append(BoundFact(symbol_id=f"q{i}", value=str(i), source_span=span, unit="dollars"))
            unknowns.append(
                BoundUnknown(
                    symbol_id=f"u{i}",
                    question_span=span,
                    state_index="initial",
                    question_form="identity",
                    expected_unit="dollars",
                )
            )
        graph = BindingGraph(symbols=tuple(symbols), facts=tuple(facts), unknowns=tuple(unknowns))
        start = time.perf_counter()
        verify(graph)
        return time.perf_counter() - start

    out: dict[str, list[float]] = {"chain_1000_s": [], "totals_400_s": [], "totals_800_s": []}
    for _ in range(rounds):
        for key, run in (
            ("chain_1000_s", chain),
            ("totals_400_s", lambda: totals(400)),
            ("totals_800_s", lambda: totals(800)),
        ):
            gc.collect()  # each sample starts from a collected heap, so no sample pays for garbage an earlier one left
            out[key].append(run())
    return out
