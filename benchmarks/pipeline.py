"""The full pipeline a user runs (read → bind → verify), next to the same work done in the hand-rolled shape.

The *reference pipeline* does what the upstream hand-rolled code does per graph, in
its shape (ADR-0115/0133/0134/0135): ``json.loads``, a plain frozen-dataclass graph
with the schema's checks, an adapter that builds symbol, fact and equation records
with dict lookups (synthesizing the operand-literal symbols, wiring to t0), an
integer-exponent admissibility check and proof string per equation, the question
target's state index and form, a graph object with the model's construction checks
(unique ids, references, acyclicity) and its canonical string.  It solves
no values, as upstream does not.  Ours reads the text exactly (``adapters.read_json``),
builds the typed ``MathProblemGraph``, binds it (with admissibility stamped) and
verifies it (admissibility, holdings, exact values, certified answers).

Both run in one process, interleaved graph by graph, each graph once per round; the
expression-text memo is emptied at the start of each round, so a round sees each
graph for the first time, as a corpus of distinct graphs does.
"""

from __future__ import annotations

import json
import re
import statistics
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from adapters import bind_math_problem_graph, graph_from_dict, read_json
from units import UnitVocabulary
from verifier import verify
from verifier.model import OPERATION_KINDS


@dataclass(frozen=True, slots=True)
class _Quantity:
    value: int | float
    unit: str


@dataclass(frozen=True, slots=True)
class _Operation:
    actor: str
    kind: str
    operand: Mapping[str, Any]
    target: str | None


@dataclass(frozen=True, slots=True)
class _Graph:
    entities: tuple[str, ...]
    initial: tuple[tuple[str, _Quantity], ...]
    operations: tuple[_Operation, ...]
    unknown: tuple[str | None, str]


_KINDS = frozenset(OPERATION_KINDS)


def reference_parse(data: Mapping[str, Any]) -> _Graph:
    """The schema's checks, upstream style: types, known kinds, entity references, a transfer's target."""
    entities = tuple(data["entities"])
    if not entities or len(set(entities)) != len(entities):
        raise ValueError("entities")
    known = set(entities)
    initial = []
    for item in data["initial_state"]:
        if item["entity"] not in known:
            raise ValueError("entity")
        q = item["quantity"]
        if not isinstance(q["value"], (int, float)) or isinstance(q["value"], bool) or not isinstance(q["unit"], str):
            raise ValueError("quantity")
        initial.append((item["entity"], _Quantity(q["value"], q["unit"])))
    operations = []
    for item in data["operations"]:
        if item["actor"] not in known or item["kind"] not in _KINDS:
            raise ValueError("operation")
        target = item.get("target")
        if (item["kind"] == "transfer") != (target is not None) or target == item["actor"]:
            raise ValueError("target")
        operations.append(_Operation(item["actor"], item["kind"], item["operand"], target))
    unknown = data["unknown"]
    if unknown.get("entity") is not None and unknown["entity"] not in known:
        raise ValueError("unknown")
    return _Graph(entities, tuple(initial), tuple(operations), (unknown.get("entity"), unknown["unit"]))


_ID = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_ROLES = frozenset({"entity", "quantity", "rate", "count", "ratio", "unknown"})


@dataclass(frozen=True, slots=True)
class _Span:
    source_id: str
    start: int
    end: int

    def __post_init__(self) -> None:
        if not self.source_id or self.start < 0 or self.end <= self.start:
            raise ValueError("span")


@dataclass(frozen=True, slots=True)
class _Symbol:
    symbol_id: str
    role: str
    entity: str | None
    unit: str | None
    span: _Span

    def __post_init__(self) -> None:
        if not _ID.fullmatch(self.symbol_id) or self.role not in _ROLES:
            raise ValueError("symbol")


@dataclass(frozen=True, slots=True)
class _Equation:
    lhs: str
    rhs_canonical: str
    dependencies: frozenset[str]
    kind: str
    unit_proof: str
    span: _Span

    def __post_init__(self) -> None:
        if not _ID.fullmatch(self.lhs) or self.kind not in _KINDS:
            raise ValueError("equation")


@dataclass(frozen=True, slots=True)
class _Fact:
    symbol_id: str
    value: str
    unit: str | None
    span: _Span

    def __post_init__(self) -> None:
        if not _ID.fullmatch(self.symbol_id) or not isinstance(self.value, str):
            raise ValueError("fact")


@dataclass(frozen=True, slots=True)
class _Proof:
    kind: str
    lhs_unit: tuple[int, ...]
    operand_units: tuple[tuple[int, ...], ...]

    def to_canonical_string(self) -> str:
        return f"{self.kind}: [{','.join(map(str, self.operand_units))}] -> {self.lhs_unit}"


@dataclass(frozen=True, slots=True)
class _Unknown:
    symbol_id: str
    state_index: str
    question_form: str
    span: _Span


@dataclass(frozen=True, slots=True)
class _BoundGraph:
    """The graph with the upstream model's construction checks: unique ids, references, acyclic equations."""

    symbols: tuple[_Symbol, ...]
    facts: tuple[_Fact, ...]
    equations: tuple[_Equation, ...]
    unknown: _Unknown

    def __post_init__(self) -> None:
        ids = {s.symbol_id for s in self.symbols}
        if len(ids) != len(self.symbols):
            raise ValueError("duplicate")
        for item in (*self.facts, self.unknown):
            if item.symbol_id not in ids:
                raise ValueError("reference")
        by_lhs = {eq.lhs: eq for eq in self.equations}
        for eq in self.equations:
            if eq.lhs not in ids or any(d not in ids for d in eq.dependencies):
                raise ValueError("reference")
        state: dict[str, int] = {}
        for root, first in by_lhs.items():  # acyclic dependencies (iterative DFS, as upstream)
            stack = [(root, iter(sorted(first.dependencies)))]
            state[root] = 1
            while stack:
                node, deps = stack[-1]
                nxt = next(deps, None)
                if nxt is None:
                    state[node] = 2
                    stack.pop()
                elif nxt in by_lhs and state.get(nxt) == 1:
                    raise ValueError("cycle")
                elif nxt in by_lhs and nxt not in state:
                    state[nxt] = 1
                    stack.append((nxt, iter(sorted(by_lhs[nxt].dependencies))))

    def to_canonical_string(self) -> str:
        lines = [f"S {s.symbol_id} {s.role} entity={s.entity} unit={s.unit}" for s in self.symbols]
        lines += [f"F {f.symbol_id} = {f.value} unit={f.unit}" for f in self.facts]
        lines += [
            f"E {e.lhs} := {e.rhs_canonical} op={e.kind} deps=[{','.join(sorted(e.dependencies))}]"
            for e in self.equations
        ]
        lines.append(f"U {self.unknown.symbol_id} state={self.unknown.state_index} form={self.unknown.question_form}")
        return "\n".join(lines)


_LITERAL = {"multiply": "__multiplicand", "divide": "__divisor", "apply_rate": "__rate"}
_SLUG = re.compile(r"[^a-z0-9]+")


def _slug(text: str) -> str:
    return _SLUG.sub("_", text.lower()).strip("_") or "u"


def reference_bind(graph: _Graph, vector: Callable[[str], tuple[int, ...]]) -> _BoundGraph:
    """The upstream adapter's work (ADR-0133/0134/0135) in its shape: records by dict lookups, t0 wiring, checks."""
    span = _Span("math_problem_graph", 0, 1)
    symbols: dict[str, _Symbol] = {}
    facts: list[_Fact] = []
    for entity in graph.entities:
        sid = f"entity_{_slug(entity)}"
        symbols[sid] = _Symbol(sid, "entity", entity, None, _Span("math_problem_graph", 0, len(entity)))
    t0: dict[tuple[str, str], str] = {}
    for entity, quantity in graph.initial:
        sid = f"q_{_slug(entity)}_{_slug(quantity.unit)}_t0"
        symbols[sid] = _Symbol(sid, "quantity", entity, quantity.unit, _Span("math_problem_graph", 0, 1 + len(sid)))
        facts.append(_Fact(sid, str(quantity.value), quantity.unit, span))
        t0[(entity, quantity.unit)] = sid
    equations = []
    for i, op in enumerate(graph.operations):
        unit = op.operand.get("unit") or op.operand.get("numerator_unit") or op.operand.get("result_unit") or ""
        deps = [t0[(op.actor, unit)]] if (op.actor, unit) in t0 else []
        if op.kind in _LITERAL:  # the synthesized operand-literal symbol
            literal = f"op_{i:03d}{_LITERAL[op.kind]}"
            symbols[literal] = _Symbol(literal, "rate" if op.kind == "apply_rate" else "ratio", None, unit, span)
            facts.append(_Fact(literal, str(op.operand.get("value", 1)), unit, span))
            deps.append(literal)
        lhs = f"op_{i:03d}_result"
        symbols[lhs] = _Symbol(lhs, "quantity", op.actor, unit, _Span("math_problem_graph", 0, len(lhs)))
        vecs = [vector(symbols[d].unit or "") for d in sorted(deps)]
        if op.kind in ("add", "subtract", "transfer") and unit:
            vecs.append(vector(unit))
        if len({tuple(v) for v in vecs}) > 1 and op.kind in ("add", "subtract", "transfer", "compare_additive"):
            proof = "unverified"
        else:
            proof = _Proof(op.kind, vecs[0] if vecs else (), tuple(tuple(v) for v in vecs)).to_canonical_string()
        rhs = f"{' + '.join(sorted(deps)) or '0'} {'+' if op.kind == 'add' else '-'} {op.operand.get('value', 1)}"
        equations.append(_Equation(lhs, rhs, frozenset(deps), op.kind, proof, _Span("math_problem_graph", 0, len(lhs))))
    entity, unit = graph.unknown
    uid = f"unknown_{_slug(entity or 'total')}_{_slug(unit)}"
    symbols[uid] = _Symbol(uid, "unknown", entity, unit, _Span("math_problem_graph", 0, len(uid)))
    touching = {op.kind for op in graph.operations if entity is None or entity in (op.actor, op.target)}
    form = next((f for k, f in _FORMS if k in touching), "count" if touching else "identity")  # ADR-0135 precedence
    unknown = _Unknown(uid, "terminal" if graph.operations else "initial", form, span)
    bound = _BoundGraph(tuple(symbols.values()), tuple(facts), tuple(equations), unknown)
    bound.to_canonical_string()  # upstream renders its canonical string as part of binding
    return bound


_FORMS = (("compare_multiplicative", "ratio"), ("compare_additive", "difference"), ("apply_rate", "total"))


def pipeline_rounds(
    texts: Sequence[str],
    vocab: UnitVocabulary,
    vector: Callable[[str], tuple[int, ...]],
    rounds: int,
    clear_memo: Callable[[], None],
) -> dict[str, Any]:
    """Per-graph mean microseconds, per round: ours by stage and in total, and the reference."""
    out: dict[str, list[float]] = {"read": [], "bind": [], "verify": [], "ours": [], "reference": []}
    for _ in range(rounds):
        clear_memo()
        sums = dict.fromkeys(out, 0.0)
        for text in texts:
            t0 = time.perf_counter_ns()
            graph = graph_from_dict(read_json(text))
            t1 = time.perf_counter_ns()
            bound = bind_math_problem_graph(graph, vocab)
            t2 = time.perf_counter_ns()
            verify(bound, vocab)
            t3 = time.perf_counter_ns()
            reference_bind(reference_parse(json.loads(text)), vector)
            t4 = time.perf_counter_ns()
            sums["read"] += t1 - t0
            sums["bind"] += t2 - t1
            sums["verify"] += t3 - t2
            sums["ours"] += t3 - t0
            sums["reference"] += t4 - t3
        for key, total in sums.items():
            out[key].append(total / len(texts) / 1000)
    medians = {key: statistics.median(values) for key, values in out.items()}
    return {"rounds_us": out, "median_us": medians, "ratio": medians["ours"] / medians["reference"]}
