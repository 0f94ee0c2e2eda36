"""Benchmark: the CAS-backed verifier against a plain integer-exponent-vector algebra (SPEC §10).

Run from the repository root::

    python benchmarks/bench.py                  # the table, default 7 rounds
    python benchmarks/bench.py --rounds 15      # more rounds
    python benchmarks/bench.py --json           # JSON on stdout (the table goes to stderr)
    python benchmarks/bench.py --json-out b.json  # JSON to a file, the table to stdout
    python benchmarks/bench.py --quick --json   # one round, short loops (the smoke test)

In one process and one run it measures:

* **cold start**: a fresh interpreter (``sys.executable -c ...``) doing ``import units,
  adapters, verifier`` and ``units.default_vocabulary()``, timed inside the child with
  ``perf_counter_ns`` and, as the whole process, from the parent; also ``import units;
  units.default_vocabulary()`` alone.  One untimed warm-up run first (``.pyc`` files).
* **warm check_equation**: a fixed mix of equations covering every operation kind,
  µs per equation, against the same admissibility work done by :class:`ReferenceAlgebra`
  (a minimal integer-exponent-vector algebra in the style of upstream ADR-0134, built
  here from ``units/data/en_units_v1.jsonl``), and the ratio ours / reference.  When the
  verifier memoizes verdicts (``verifier.admissibility.clear_verdict_cache`` exists) the
  headline clears that cache before every call, so both sides do the admissibility work;
  the cache-hit cost is reported beside it (``check_equation_cached_us``).
* **warm verify**: µs per graph over the bundled ``graphs`` lane and over the upstream
  dev graphs (``../shared/upstream/gsm8k_parser_dev/cases.jsonl``, skipped when absent),
  the latter also with the verdict cache cleared before each call.
  Binding is done once, outside the timed loop; only ``verify(graph, vocab, policy)`` is timed.
* **peak memory** of a full ``python -m verifier lanes`` run, read with
  ``resource.getrusage(RUSAGE_CHILDREN).ru_maxrss`` in a wrapper process whose only
  child is the lanes run.

Method: every warm item gets an untimed warm-up and a calibrated inner loop; in each
round every item runs its loop once with the garbage collector disabled, giving the
round's per-call mean (``perf_counter_ns``).  A per-item figure is the median over
rounds of those means.  The check_equation headline is the median over rounds of the
round's mean over the mix; the verify headline is the median over graphs of the
per-graph medians.  Items run in a fixed order; nothing here asserts on time.
"""

from __future__ import annotations

import argparse
import functools
import gc
import json
import math
import os
import platform
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

REPO: Final[Path] = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:  # benchmark the checkout this script sits in
    sys.path.insert(0, str(REPO))

import sympy  # noqa: E402

import units  # noqa: E402
from adapters import (  # noqa: E402
    bind_math_problem_graph,
    graph_from_dict,
    read_json,
)
from adapters.records import bind_record  # noqa: E402
from benchmarks.pipeline import pipeline_rounds, upstream_reference  # noqa: E402
from benchmarks.upstream_shape import load_unit_table  # noqa: E402
from evals.runner import lane_cases  # noqa: E402
from units import BASE_DIMENSIONS, UnitRefusal, UnitVocabulary  # noqa: E402
from verifier import BoundEquation, SourceSpanLink, SymbolBinding, check_equation, verify  # noqa: E402

LEXICON_PATH: Final[Path] = REPO / "units" / "data" / "en_units_v1.jsonl"
COLD_START_TARGET_S: Final[float] = 0.25
"""Issue #13: imports plus the default vocabulary, as a whole process."""
PIPELINE_TARGET_US: Final[float] = 250.0
"""Issue #13: twice the upstream hand-rolled parse + bind (128 us per graph on the 2-core reference machine)."""
UPSTREAM_DEV: Final[Path] = REPO.parent / "shared" / "upstream" / "gsm8k_parser_dev" / "cases.jsonl"

METRIC_KEYS: Final[tuple[str, ...]] = (
    "cold_start_s",
    "cold_start_wall_s",
    "cold_start_units_only_s",
    "cold_start_plain_install_s",
    "cold_start_plain_install_wall_s",
    "pipeline_us",
    "pipeline_read_us",
    "pipeline_bind_us",
    "pipeline_verify_us",
    "reference_pipeline_us",
    "pipeline_ratio",
    "throughput_graphs_per_s",
    "derived_vocabulary_ms",
    "inverse_chain_1000_s",
    "totals_growth_ratio",
    "check_equation_us",
    "check_equation_cached_us",
    "check_equation_with_proof_string_us",
    "reference_check_us",
    "check_equation_ratio",
    "check_equation_with_proof_string_ratio",
    "verify_lane_graph_us",
    "verify_upstream_graph_us",
    "verify_upstream_graph_uncached_us",
    "lanes_peak_rss_mb",
)
"""Every metric of the JSON ``metrics`` object, in table order."""

DEFAULT_ROUNDS: Final[int] = 7
ROUND_TARGET_NS: Final[int] = 10_000_000
"""Each warm item's inner loop is calibrated to about this long per round (quick: 1/10)."""
MAX_INNER: Final[int] = 200_000
MEMORY_ROUNDS_CAP: Final[int] = 3


def _log(message: str) -> None:
    sys.stderr.write(f"[bench] {message}\n")
    sys.stderr.flush()


# --------------------------------------------------------------------------- timing


@dataclass
class Samples:
    """Per-round per-call means (ns) of one item."""

    label: str
    inner: int = 0
    rounds: list[float] = field(default_factory=list)

    @property
    def median_ns(self) -> float:
        """Median over rounds of the per-round mean."""
        return statistics.median(self.rounds)


def _calibrate(fn: Callable[[], object], target_ns: int) -> int:
    """Warm ``fn`` up and choose an inner loop count of about ``target_ns`` per round."""
    for _ in range(3):
        fn()
    batch = 10
    start = time.perf_counter_ns()
    for _ in range(batch):
        fn()
    per_call = max(1.0, (time.perf_counter_ns() - start) / batch)
    return max(1, min(MAX_INNER, math.ceil(target_ns / per_call)))


def time_items(items: Sequence[tuple[str, Callable[[], object]]], rounds: int, target_ns: int) -> list[Samples]:
    """Run every item's calibrated loop once per round, in order, with the GC off while timed."""
    samples = [Samples(label, _calibrate(fn, target_ns)) for label, fn in items]
    perf = time.perf_counter_ns
    for _ in range(rounds):
        gc.collect()
        gc.disable()
        try:
            for sample, (_, fn) in zip(samples, items, strict=True):
                loop = range(sample.inner)
                start = perf()
                for _ in loop:
                    fn()
                sample.rounds.append((perf() - start) / sample.inner)
        finally:
            gc.enable()
    return samples


def _verdict_cache_clearer() -> Callable[[], None] | None:
    """``verifier.admissibility.clear_verdict_cache`` if verdicts are memoized, else ``None``."""
    from verifier import admissibility

    clear = getattr(admissibility, "clear_verdict_cache", None)
    return clear if callable(clear) else None


def _uncached(fn: Callable[[], object], clear: Callable[[], None] | None) -> Callable[[], object]:
    """``fn`` preceded by emptying the verdict cache, so every call does the admissibility work."""
    if clear is None:
        return fn

    def call() -> object:
        clear()
        return fn()

    return call


def _proof_string(call: Callable[[], Any]) -> Callable[[], str]:
    """``call().unit_proof``: the verdict rendered as the upstream proof string."""

    def render() -> str:
        return str(call().unit_proof)

    return render


def _round_means(samples: Sequence[Samples]) -> list[float]:
    """Per round, the mean over items of their per-call means."""
    if not samples:
        return []
    return [statistics.fmean(s.rounds[r] for s in samples) for r in range(len(samples[0].rounds))]


# --------------------------------------------------------------------------- reference algebra


_DOMAIN_AXES: Final[dict[str, dict[str, int]]] = {
    "units.length": {"length": 1},
    "units.area": {"length": 2},
    "units.volume": {"length": 3},
    "units.time": {"time": 1},
    "units.mass": {"mass": 1},
    "units.money": {"money": 1},
    "units.count": {"count": 1},
    "units.container": {"count": 1},
    "units.temperature": {"temperature": 1},
    "units.speed": {"length": 1, "time": -1},
    "units.wage": {"money": 1, "time": -1},
    "units.unit_price": {"money": 1, "count": -1},
    "units.density": {"mass": 1, "length": -3},
    "units.frequency": {"time": -1},
    "units.symbol": {},  # percent, half, quarter: pure numbers
}
"""``semantic_domains`` → exponents; the first listed domain found here wins
(``units.rate`` and ``units.dimension`` name connectors and dimension words, not units)."""

_ADDITIVE: Final[frozenset[str]] = frozenset({"add", "subtract", "transfer", "compare_additive"})
Vec = tuple[int, int, int, int, int, int]
_ZERO: Final[Vec] = (0, 0, 0, 0, 0, 0)
_COUNT_VEC: Final[Vec] = (0, 0, 0, 0, 1, 0)


class ReferenceRefusal(Exception):
    """A refusal of the reference algebra (a reason string)."""


def _vec_str(vec: Vec) -> str:
    nums: list[str] = []
    dens: list[str] = []
    for name, power in zip(BASE_DIMENSIONS, vec, strict=True):
        if power > 0:
            nums.append(name if power == 1 else f"{name}^{power}")
        elif power < 0:
            dens.append(name if power == -1 else f"{name}^{-power}")
    if not nums and not dens:
        return "dimensionless"
    head = "*".join(nums) if nums else "1"
    return f"{head}/{'*'.join(dens)}" if dens else head


def _mul(a: Vec, b: Vec) -> Vec:
    return tuple(x + y for x, y in zip(a, b, strict=True))  # type: ignore[return-value]


def _div(a: Vec, b: Vec) -> Vec:
    return tuple(x - y for x, y in zip(a, b, strict=True))  # type: ignore[return-value]


class ReferenceAlgebra:
    """A minimal integer-exponent-vector admissibility algebra (upstream ADR-0134 style).

    One dict from lexicon surface and lemma to a 6-tuple over
    :data:`units.BASE_DIMENSIONS`, built once from the lexicon's ``semantic_domains``.
    Per kind: additive = all vectors equal; multiply = product; divide = quotient;
    apply_rate = rate * quantity with the rate's denominator cancelling;
    compare_multiplicative = dimensionless; unit_partition = state over a chunk of the
    same vector, a count; fraction_portion = a count.  No kinds within a dimension, no
    factors, no currencies: the work a plain exponent algebra does, nothing more.
    """

    def __init__(self, lexicon_path: Path = LEXICON_PATH) -> None:
        """Read the lexicon JSONL once."""
        axis = {name: i for i, name in enumerate(BASE_DIMENSIONS)}
        table: dict[str, Vec] = {}
        for line in lexicon_path.read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            row = json.loads(line)
            axes = next(
                (_DOMAIN_AXES[d] for d in row.get("semantic_domains", ()) if d in _DOMAIN_AXES),
                None,
            )
            if axes is None:
                continue
            exps = [0] * len(BASE_DIMENSIONS)
            for name, power in axes.items():
                exps[axis[name]] += power
            vec: Vec = tuple(exps)  # type: ignore[assignment]
            table[row["surface"]] = vec
            table.setdefault(row["lemma"], vec)
        self.table = table

    def vector(self, unit: str) -> Vec:
        """The vector of a surface, lemma or ``X_per_Y`` id."""
        vec = self.table.get(unit)
        if vec is not None:
            return vec
        head, sep, tail = unit.partition("_per_")
        if sep and head and tail and "_per_" not in tail:
            return _div(self.vector(head), self.vector(tail))
        raise ReferenceRefusal("unknown_unit")

    def _dep(self, symbols: Mapping[str, SymbolBinding], dep: str) -> Vec:
        binding = symbols.get(dep)
        if binding is None:
            raise ReferenceRefusal("unknown_symbol")
        if binding.unit is None:
            if binding.semantic_role == "ratio":
                return _ZERO
            raise ReferenceRefusal("unit_unbound")
        return self.vector(binding.unit)

    def check(self, eq: BoundEquation, symbols: Mapping[str, SymbolBinding]) -> str:
        """``"<kind>: [<dims in sorted dep order>] -> <dim>"``, or ``"refused <reason>"``."""
        try:
            return self._check(eq, symbols)
        except ReferenceRefusal as exc:
            return f"refused {exc}"

    def _check(self, eq: BoundEquation, symbols: Mapping[str, SymbolBinding]) -> str:
        kind = eq.operation_kind
        names = sorted(eq.dependencies)
        vecs = [self._dep(symbols, dep) for dep in names]
        if kind in _ADDITIVE:
            operands = vecs + ([self.vector(eq.literal_unit)] if eq.literal_unit is not None else [])
            if not operands:
                raise ReferenceRefusal("operand_arity")
            if any(v != operands[0] for v in operands[1:]):
                raise ReferenceRefusal("unit_mismatch")
            result = operands[0]
        elif kind == "multiply":
            result = _ZERO
            for v in vecs:
                result = _mul(result, v)
        elif kind == "divide":
            if len(vecs) == 1:
                result = vecs[0]
            elif len(vecs) == 2 and sum(n.endswith("__divisor") for n in names) == 1:
                divisor = 0 if names[0].endswith("__divisor") else 1
                result = _div(vecs[1 - divisor], vecs[divisor])
            else:
                raise ReferenceRefusal("operand_arity")
        elif kind == "apply_rate":
            rates = [i for i, n in enumerate(names) if symbols[n].semantic_role == "rate"]
            if len(vecs) != 2 or len(rates) != 1:
                raise ReferenceRefusal("rate_form_invalid")
            rate, quantity = vecs[rates[0]], vecs[1 - rates[0]]
            denominator: Vec = tuple(-e if e < 0 else 0 for e in rate)  # type: ignore[assignment]
            if denominator == _ZERO or quantity != denominator:
                raise ReferenceRefusal("rate_form_invalid")
            result = _mul(rate, quantity)
        elif kind == "compare_multiplicative":
            result = _ZERO
        elif kind == "unit_partition":
            if len(vecs) != 2 or vecs[0] != vecs[1]:
                raise ReferenceRefusal("unit_mismatch")
            result = _COUNT_VEC
        elif kind == "fraction_portion":
            if len(vecs) != 1 or vecs[0] != _COUNT_VEC:
                raise ReferenceRefusal("unit_mismatch")
            result = _COUNT_VEC
        else:
            raise ReferenceRefusal("unknown_operation")
        return f"{kind}: [{','.join(_vec_str(v) for v in vecs)}] -> {_vec_str(result)}"


# --------------------------------------------------------------------------- workloads


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
        data = case.get("input")
        fmt = case.get("format")
        try:
            if isinstance(data, str) and fmt != "canonical_text":
                data = read_json(data)
            record: object = data
            if isinstance(data, dict):
                merged = dict(data)
                for key in ("vocab", "policy"):
                    if key in case:
                        merged[key] = case[key]
                record = merged
            bound = bind_record(record, fmt if isinstance(fmt, str) else None)
        except Exception as exc:  # a case refused (or broken) at binding is no verify workload
            skipped.append(f"{case.get('id')}: {type(exc).__name__}")
            continue
        out.append(GraphCase(str(case.get("id")), bound.graph, bound.vocab, bound.policy))
    return out, skipped


def _unit_strings(data: object) -> Iterable[str]:
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
    word = "".join(ch if ch.isalnum() else "_" for ch in surface.lower()).strip("_") or "noun"
    if word.endswith("ies") and len(word) > 4:
        word = word[:-3] + "y"
    elif word.endswith("s") and not word.endswith("ss") and len(word) > 3:
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
        except Exception as exc:  # refused (or broken) at binding: no verify workload
            skipped.append(f"{label}: {type(exc).__name__}")
            continue
        expected = None
        if isinstance(case, dict) and "expected_answer" in case:
            expected = f"{case['expected_answer']} {case.get('expected_unit') or ''}".strip()
        out.append(GraphCase(label, bound.graph, bound.vocab, bound.policy, expected))
    return out, skipped, nouns


def _answer_text(graph: GraphCase) -> str:
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


# --------------------------------------------------------------------------- subprocess metrics

_COLD_FULL: Final[str] = (
    "import time\n"
    "t0 = time.perf_counter_ns()\n"
    "import units, adapters, verifier\n"
    "units.default_vocabulary()\n"
    "print(time.perf_counter_ns() - t0)\n"
)
PINT_OPTIONAL_IMPORTS: Final[tuple[str, ...]] = ("numpy", "dask", "scipy", "babel", "uncertainties")
"""What pint imports at its own import when installed (pint.compat); ``pip install .`` installs none of them."""
_COLD_PLAIN: Final[str] = (
    "import sys\n"
    f"sys.modules.update(dict.fromkeys({PINT_OPTIONAL_IMPORTS!r}))  # as absent as in a plain install\n" + _COLD_FULL
)
_COLD_UNITS: Final[str] = (
    "import time\n"
    "t0 = time.perf_counter_ns()\n"
    "import units\n"
    "units.default_vocabulary()\n"
    "print(time.perf_counter_ns() - t0)\n"
)
_LANES_WRAPPER: Final[str] = (
    "import resource, subprocess, sys, time\n"
    "t0 = time.perf_counter_ns()\n"
    "p = subprocess.run([sys.executable, '-m', 'verifier', 'lanes'], stdout=subprocess.DEVNULL,"
    " stderr=subprocess.DEVNULL, check=False)\n"
    "t1 = time.perf_counter_ns()\n"
    "print(p.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, t1 - t0)\n"
)


def _child_env() -> dict[str, str]:
    env = dict(os.environ)
    path = env.get("PYTHONPATH")
    env["PYTHONPATH"] = str(REPO) + (os.pathsep + path if path else "")
    return env


def _run_child(code: str) -> tuple[str, int]:
    """Run ``sys.executable -c code`` from the repo root; (stdout, wall ns)."""
    start = time.perf_counter_ns()
    proc = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=REPO,
        env=_child_env(),
        check=False,
    )
    wall = time.perf_counter_ns() - start
    if proc.returncode != 0:
        raise RuntimeError(f"child failed ({proc.returncode}): {proc.stderr.strip()[-500:]}")
    return proc.stdout.strip(), wall


def cold_start(rounds: int) -> dict[str, Any]:
    """Median cold start over ``rounds`` fresh interpreters per variant (one warm-up each)."""
    _run_child(_COLD_FULL)
    _run_child(_COLD_UNITS)
    _run_child(_COLD_PLAIN)
    full_in: list[float] = []
    full_wall: list[float] = []
    units_in: list[float] = []
    plain_in: list[float] = []
    plain_wall: list[float] = []
    for _ in range(rounds):  # interleaved, so drift hits every variant alike
        out, wall = _run_child(_COLD_FULL)
        full_in.append(int(out.splitlines()[-1]) / 1e9)
        full_wall.append(wall / 1e9)
        out, _ = _run_child(_COLD_UNITS)
        units_in.append(int(out.splitlines()[-1]) / 1e9)
        out, wall = _run_child(_COLD_PLAIN)
        plain_in.append(int(out.splitlines()[-1]) / 1e9)
        plain_wall.append(wall / 1e9)
    return {
        "full_in_process_s": full_in,
        "full_wall_s": full_wall,
        "units_only_s": units_in,
        "plain_install_in_process_s": plain_in,
        "plain_install_wall_s": plain_wall,
    }


def lanes_memory(rounds: int) -> dict[str, Any]:
    """Peak RSS (MB) of ``python -m verifier lanes``, via a wrapper whose only child is that run."""
    try:
        import resource  # noqa: F401 - Unix only
    except ImportError:
        return {"skipped": "resource module unavailable on this platform"}
    scale = 1024 * 1024 if sys.platform == "darwin" else 1024  # ru_maxrss: bytes on macOS, KiB on Linux
    peaks: list[float] = []
    seconds: list[float] = []
    codes: list[int] = []
    for _ in range(rounds):
        out, _ = _run_child(_LANES_WRAPPER)
        code, maxrss, ns = (int(x) for x in out.split())
        codes.append(code)
        peaks.append(maxrss * scale / 1e6)
        seconds.append(ns / 1e9)
    return {"peak_rss_mb": peaks, "wall_s": seconds, "exit_codes": codes}


# --------------------------------------------------------------------------- the run


def _clear_print_memo() -> None:
    """Empty the expression and span memos, so a round sees each graph for the first time."""
    from adapters import _common
    from verifier import expr as _expr

    _expr.clear_memos()
    _common._span.cache_clear()


UPSTREAM_LEXICON: Final[Path] = REPO.parent / "shared" / "upstream" / "en_units_v1" / "lexicon.jsonl"


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
    from adapters import bind_relations
    from verifier import BindingGraph, BoundFact, BoundUnknown, SourceSpanLink, SymbolBinding, verify

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
        out["chain_1000_s"].append(chain())
        out["totals_400_s"].append(totals(400))
        out["totals_800_s"].append(totals(800))
    return out


def _metric(value: float | None, unit: str, target: str, met: bool | None, **extra: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"median": value, "unit": unit, "target": target, "met": met}
    out.update(extra)
    return out


def run(rounds: int, quick: bool = False, upstream: Path = UPSTREAM_DEV) -> dict[str, Any]:
    """Measure everything; return the JSON-ready result."""
    target_ns = ROUND_TARGET_NS // 10 if quick else ROUND_TARGET_NS
    vocab = units.default_vocabulary()
    metrics: dict[str, dict[str, Any]] = {}
    details: dict[str, Any] = {}

    _log(f"cold start ({rounds} rounds per variant, after a warm-up)")
    cold = cold_start(rounds)
    details["cold_start"] = cold
    cold_rows = (
        (
            "cold_start_s",
            "full_in_process_s",
            "import units, adapters, verifier + default_vocabulary(), timed in the child",
        ),
        (
            "cold_start_wall_s",
            "full_wall_s",
            "the same, whole child process incl. interpreter start, timed by the parent",
        ),
        (
            "cold_start_plain_install_s",
            "plain_install_in_process_s",
            "cold_start_s with pint's optional imports (numpy, dask, ...) absent, as after pip install .",
        ),
        ("cold_start_plain_install_wall_s", "plain_install_wall_s", "the same, whole child process"),
    )
    for key, series, what in cold_rows:
        value = statistics.median(cold[series])
        metrics[key] = _metric(value, "s", "<= 0.25", value <= COLD_START_TARGET_S, what=what)
    metrics["cold_start_units_only_s"] = _metric(
        statistics.median(cold["units_only_s"]),
        "s",
        "-",
        None,
        what="import units + default_vocabulary(), timed in the child",
    )
    _log("warm check_equation vs the reference algebra")
    clear = _verdict_cache_clearer()
    details["verdict_cache"] = "present: uncached figures clear it before every call" if clear else "absent"
    mix = equation_mix()
    reference = ReferenceAlgebra()
    groups: dict[str, list[tuple[str, Callable[[], object]]]] = {
        "uncached": [],
        "cached": [],
        "with_string": [],
        "reference": [],
    }
    for case in mix:
        call = functools.partial(check_equation, case.equation, case.symbols, vocab)
        groups["uncached"].append((case.label, _uncached(call, clear)))
        groups["cached"].append((case.label, call))
        groups["with_string"].append((case.label, _uncached(_proof_string(call), clear)))
        groups["reference"].append((case.label, functools.partial(reference.check, case.equation, case.symbols)))
    flat = [(f"{g}|{label}", fn) for g, entries in groups.items() for label, fn in entries]
    samples = time_items(flat, rounds, target_ns)
    n = len(mix)
    by_group = {g: samples[i * n : (i + 1) * n] for i, g in enumerate(groups)}
    rounds_us = {g: [x / 1e3 for x in _round_means(s)] for g, s in by_group.items()}
    ratio_rounds = [a / b for a, b in zip(rounds_us["uncached"], rounds_us["reference"], strict=True)]
    string_ratio_rounds = [a / b for a, b in zip(rounds_us["with_string"], rounds_us["reference"], strict=True)]
    per_eq = []
    for i, case in enumerate(mix):
        verdict = check_equation(case.equation, case.symbols, vocab)
        ref_text = reference.check(case.equation, case.symbols)
        ours_ns = by_group["uncached"][i].median_ns
        ref_ns = by_group["reference"][i].median_ns
        per_eq.append(
            {
                "label": case.label,
                "kind": case.equation.operation_kind,
                "ours_us": ours_ns / 1e3,
                "ours_cached_us": by_group["cached"][i].median_ns / 1e3,
                "ours_with_proof_string_us": by_group["with_string"][i].median_ns / 1e3,
                "reference_us": ref_ns / 1e3,
                "ratio": ours_ns / ref_ns,
                "inner_loop": by_group["uncached"][i].inner,
                "status": verdict.status,
                "ours": verdict.unit_proof if verdict.proof else str(verdict),
                "reference": ref_text,
                "same_string": verdict.unit_proof == ref_text,
            }
        )
    details["check_equation"] = {"equations": per_eq, "round_us": rounds_us}
    ratio = statistics.median(ratio_rounds)
    metrics["check_equation_us"] = _metric(
        statistics.median(rounds_us["uncached"]),
        "us",
        "-",
        None,
        what=f"check_equation, verdict cache cleared, mean over the {n}-equation mix",
    )
    metrics["check_equation_cached_us"] = _metric(
        statistics.median(rounds_us["cached"]),
        "us",
        "-",
        None,
        what="check_equation repeated on the same equation (verdict cache hit)",
    )
    metrics["check_equation_with_proof_string_us"] = _metric(
        statistics.median(rounds_us["with_string"]),
        "us",
        "-",
        None,
        what="uncached check_equation(...).unit_proof (the string the reference returns)",
    )
    metrics["reference_check_us"] = _metric(
        statistics.median(rounds_us["reference"]),
        "us",
        "-",
        None,
        what="exponent-vector reference on the same mix, proof string included",
    )
    metrics["check_equation_ratio"] = _metric(
        ratio, "x", "<= 2", ratio <= 2, what="uncached ours / reference, median of per-round ratios"
    )
    metrics["check_equation_with_proof_string_ratio"] = _metric(
        statistics.median(string_ratio_rounds),
        "x",
        "-",
        None,
        what="ours incl. the proof string / reference",
    )

    _log("warm verify over the graphs lane")  # the verdict cache is warm here, as for any repeated graph
    graphs, lane_skipped = lane_graphs()
    lane = _verify_metric(graphs, rounds, target_ns)
    details["verify_lane"] = {**lane["details"], "skipped_at_binding": lane_skipped}
    metrics["verify_lane_graph_us"] = _metric(
        lane["median"],
        "us",
        "-",
        None,
        what=f"verify per graph, median over {len(graphs)} lane graph(s)",
        **({"skipped": "no bindable graph in the lane"} if not graphs else {}),
    )

    if upstream.is_file():
        _log("warm verify over the upstream dev graphs (cached, then with the verdict cache cleared)")
        dev, dev_skipped, nouns = upstream_graphs(upstream)
        dev_m = _verify_metric(dev, rounds, target_ns)
        dev_u = _verify_metric(dev, rounds, target_ns, clear)
        correct = sum(1 for g in dev if g.expected is not None and _answer_text(g) == g.expected)
        details["verify_upstream"] = {
            **dev_m["details"],
            "skipped_at_binding": dev_skipped,
            "count_nouns": nouns,
            "answers_matching_expected": correct,
            "graphs": len(dev),
            "uncached": dev_u["details"],
        }
        met = dev_m["median"] < 300 if dev_m["median"] is not None else None
        metrics["verify_upstream_graph_us"] = _metric(
            dev_m["median"],
            "us",
            "< 300",
            met,
            what=f"verify per graph, median over {len(dev)} upstream dev graphs",
        )
        met_u = dev_u["median"] < 300 if dev_u["median"] is not None else None
        metrics["verify_upstream_graph_uncached_us"] = _metric(
            dev_u["median"],
            "us",
            "< 300",
            met_u,
            what="the same with the verdict cache cleared before each verify",
        )
    else:
        for key in ("verify_upstream_graph_us", "verify_upstream_graph_uncached_us"):
            metrics[key] = _metric(None, "us", "< 300", None, skipped=f"{upstream} is absent")

    _log("the full pipeline per graph (read -> bind -> verify) beside the hand-rolled shape")
    texts, pipe_vocab, corpus = pipeline_corpus(upstream)
    pipe = pipeline_rounds(texts, pipe_vocab, reference_pipeline(), max(rounds, 3), _clear_print_memo)
    details["pipeline"] = {**pipe, "corpus": corpus, "graphs": len(texts)}
    med = pipe["median_us"]
    metrics["pipeline_us"] = _metric(
        med["ours"],
        "us",
        "<= 250",
        med["ours"] <= PIPELINE_TARGET_US,
        what=f"read + bind + verify per graph ({corpus}); 250 us is 2x the upstream code as issue #13 measured it",
    )
    for stage in ("read", "bind", "verify"):
        metrics[f"pipeline_{stage}_us"] = _metric(med[stage], "us", "-", None, what=f"the {stage} stage of pipeline_us")
    metrics["reference_pipeline_us"] = _metric(
        med["reference"],
        "us",
        "-",
        None,
        what="json.loads + upstream-shape graph, adapter, exponent check and canonical text (byte-identical to upstream's)",
    )
    metrics["pipeline_ratio"] = _metric(
        pipe["ratio"], "x", "<= 2.0", pipe["ratio"] <= 2.0, what="pipeline_us / reference_pipeline_us"
    )
    _log("throughput: the pipeline over the corpus repeated, one process")
    count = 2_000 if quick else 20_000
    start = time.perf_counter()
    for i in range(count):
        verify(bind_math_problem_graph(graph_from_dict(read_json(texts[i % len(texts)])), pipe_vocab), pipe_vocab)
    per_s = count / (time.perf_counter() - start)
    metrics["throughput_graphs_per_s"] = _metric(
        per_s, "graphs/s", ">= 2500", per_s >= 2500, what=f"{count} graphs ({corpus} repeated); 100k in <= 40 s"
    )
    derived = derived_vocabulary_ms(units.default_vocabulary(), 3 if quick else 10)
    details["derived_vocabulary"] = derived
    worst = max(statistics.median(v) for v in derived.values())
    metrics["derived_vocabulary_ms"] = _metric(
        worst, "ms", "<= 1", worst <= 1, what="with_count_nouns for 1, 10 and 30 new nouns (worst median)"
    )

    _log("scaling: a 1,000-relation inverse chain; N entities with N total-unknowns")
    scale = scaling(max(1, min(rounds, 3)))
    details["scaling"] = scale
    chain_s = statistics.median(scale["chain_1000_s"])
    metrics["inverse_chain_1000_s"] = _metric(
        chain_s, "s", "< 1", chain_s < 1, what="bind + verify a 1,000-relation inverse chain (all by the linear solve)"
    )
    growth = statistics.median(scale["totals_800_s"]) / statistics.median(scale["totals_400_s"])
    metrics["totals_growth_ratio"] = _metric(
        growth, "x", "< 3", growth < 3, what="verify time for 800 entities x 800 total-unknowns over 400 x 400"
    )

    mem_rounds = max(1, min(rounds, MEMORY_ROUNDS_CAP))
    _log(f"peak memory of `python -m verifier lanes` ({mem_rounds} run(s))")
    mem = lanes_memory(mem_rounds)
    details["lanes_memory"] = mem
    if "skipped" in mem:
        metrics["lanes_peak_rss_mb"] = _metric(None, "MB", "< 100", None, skipped=mem["skipped"])
    else:
        peak = statistics.median(mem["peak_rss_mb"])
        metrics["lanes_peak_rss_mb"] = _metric(
            peak,
            "MB",
            "< 100",
            peak < 100,
            what="peak RSS of a full lanes run (ru_maxrss of the child)",
            lanes_exit_code=mem["exit_codes"][-1],
        )

    return {
        "benchmark": "binding-graph-verifier/bench",
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "platform": platform.platform(),
        "cpu_count": os.cpu_count(),
        "rounds": rounds,
        "quick": quick,
        "versions": {"sympy": sympy.__version__, "pint": _pint_version()},
        "metrics": {key: metrics[key] for key in METRIC_KEYS},
        "details": details,
    }


def _pint_version() -> str:
    import pint

    return str(getattr(pint, "__version__", "?"))


def _verify_metric(
    graphs: Sequence[GraphCase],
    rounds: int,
    target_ns: int,
    clear: Callable[[], None] | None = None,
) -> dict[str, Any]:
    if not graphs:
        return {"median": None, "details": {"graphs": []}}
    items = [(g.label, _uncached(functools.partial(verify, g.graph, g.vocab, g.policy), clear)) for g in graphs]
    samples = time_items(items, rounds, target_ns)
    per_graph = [s.median_ns / 1e3 for s in samples]
    round_means = [x / 1e3 for x in _round_means(samples)]
    worst = max(range(len(samples)), key=lambda i: per_graph[i])
    return {
        "median": statistics.median(per_graph),
        "details": {
            "per_graph_us": {s.label: round(s.median_ns / 1e3, 3) for s in samples},
            "mean_per_graph_us": statistics.median(round_means),
            "max_graph": {"id": samples[worst].label, "us": per_graph[worst]},
            "equations_per_graph": statistics.fmean(len(g.graph.equations) for g in graphs),
        },
    }


def format_table(result: Mapping[str, Any]) -> str:
    """The readable table: metric, median, unit, target, met."""
    rows = [("metric", "median", "unit", "target", "met")]
    for key, m in result["metrics"].items():
        value = m["median"]
        if value is None:
            shown = "skipped"
        elif m["unit"] == "s":
            shown = f"{value:.3f}"
        elif m["unit"] == "x":
            shown = f"{value:.2f}"
        else:
            shown = f"{value:.1f}"
        met = "-" if m["met"] is None else ("yes" if m["met"] else "no")
        rows.append((key, shown, m["unit"], m["target"], met))
    widths = [max(len(r[i]) for r in rows) for i in range(5)]
    lines = []
    for i, row in enumerate(rows):
        lines.append(
            "  ".join(c.ljust(w) if j == 0 else c.rjust(w) for j, (c, w) in enumerate(zip(row, widths, strict=True)))
        )
        if i == 0:
            lines.append("  ".join("-" * w for w in widths))
    eqs = result["details"].get("check_equation", {}).get("equations", [])
    if eqs:
        lines.append("")
        head = ("check_equation per equation (median us)", "ours", "cached", "+str", "ref", "ratio")
        lines.append(f"{head[0]:<46}" + "".join(f"{h:>8}" for h in head[1:]) + "  same proof string")
        for e in eqs:
            cols = (
                "ours_us",
                "ours_cached_us",
                "ours_with_proof_string_us",
                "reference_us",
                "ratio",
            )
            same = "yes" if e["same_string"] else f"no: {e['ours']} | {e['reference']}"
            lines.append(f"{e['label']:<46}" + "".join(f"{e[c]:>8.2f}" for c in cols) + f"  {same}")
    versions = result["versions"]
    lines.append("")
    lines.append(
        f"rounds={result['rounds']}  python {result['python']}  sympy {versions['sympy']}  "
        f"pint {versions['pint']}  cpus={result['cpu_count']}"
    )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Command line entry point."""
    parser = argparse.ArgumentParser(description="Benchmark the verifier against a plain exponent-vector algebra.")
    parser.add_argument(
        "--rounds",
        type=int,
        default=None,
        help=f"timed rounds (default {DEFAULT_ROUNDS}; --quick: 1)",
    )
    parser.add_argument("--quick", action="store_true", help="one round with short loops (smoke test)")
    parser.add_argument("--json", action="store_true", help="print JSON on stdout (the table goes to stderr)")
    parser.add_argument("--json-out", metavar="PATH", help="write JSON to PATH (the table goes to stdout)")
    parser.add_argument(
        "--upstream",
        metavar="PATH",
        type=Path,
        default=UPSTREAM_DEV,
        help="upstream dev cases.jsonl (default: ../shared/upstream/gsm8k_parser_dev/cases.jsonl)",
    )
    args = parser.parse_args(argv)
    rounds = args.rounds if args.rounds is not None else (1 if args.quick else DEFAULT_ROUNDS)
    if rounds < 1:
        parser.error("--rounds must be at least 1")
    result = run(rounds, quick=args.quick, upstream=args.upstream)
    table = format_table(result)
    text = json.dumps(result, indent=2, sort_keys=False)
    if args.json_out:
        Path(args.json_out).write_text(text + "\n", encoding="utf-8")
        print(table)
    elif args.json:
        sys.stderr.write(table + "\n")
        print(text)
    else:
        print(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
