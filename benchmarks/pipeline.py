"""The full pipeline a user runs (read → bind → verify), next to the same work done in the hand-rolled shape.

The *reference pipeline* does what the upstream hand-rolled code does per graph, in
its shape: ``json.loads``, a plain frozen-dataclass graph with the schema's checks,
an adapter that builds symbol and equation records with dict lookups, and an
integer-exponent admissibility check per equation (``ReferenceAlgebra``).  It solves
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


def _reference_parse(data: Mapping[str, Any]) -> _Graph:
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


def _reference_bind(graph: _Graph, vector: Callable[[str], tuple[int, ...]]) -> tuple[list[_Symbol], list[_Equation]]:
    """Symbol and equation records by dict lookups, wired to each actor's t0 symbol, each equation checked."""
    symbols: dict[str, _Symbol] = {}
    for entity in graph.entities:
        sid = f"entity_{entity.lower()}"
        symbols[sid] = _Symbol(sid, "entity", entity, None, _Span("math_problem_graph", 0, len(entity)))
    t0: dict[tuple[str, str], str] = {}
    for entity, quantity in graph.initial:
        sid = f"q_{entity.lower()}_{quantity.unit}_t0"
        symbols[sid] = _Symbol(sid, "quantity", entity, quantity.unit, _Span("math_problem_graph", 0, 1 + len(sid)))
        t0[(entity, quantity.unit)] = sid
    equations = []
    for i, op in enumerate(graph.operations):
        unit = op.operand.get("unit") or op.operand.get("numerator_unit") or op.operand.get("result_unit") or ""
        deps = [t0[(op.actor, unit)]] if (op.actor, unit) in t0 else []
        lhs = f"op_{i:03d}_result"
        symbols[lhs] = _Symbol(lhs, "quantity", op.actor, unit, _Span("math_problem_graph", 0, len(lhs)))
        vecs = [vector(symbols[d].unit or "") for d in sorted(deps)]
        if op.kind in ("add", "subtract", "transfer") and unit:
            vecs.append(vector(unit))
        if len({tuple(v) for v in vecs}) > 1:
            proof = "unverified"
        else:
            proof = f"{op.kind}: [{','.join(map(str, vecs))}] -> {vecs[0] if vecs else ()}"
        rhs = f"{' + '.join(deps) or '0'} {'+' if op.kind == 'add' else '-'} {op.operand.get('value', 1)}"
        equations.append(_Equation(lhs, rhs, frozenset(deps), op.kind, proof, _Span("math_problem_graph", 0, len(lhs))))
    entity, unit = graph.unknown
    uid = f"unknown_{(entity or 'total').lower()}_{unit}"
    symbols[uid] = _Symbol(uid, "unknown", entity, unit, _Span("math_problem_graph", 0, len(uid)))
    for eq in equations:  # referential integrity, as the upstream graph checks on construction
        if eq.lhs not in symbols or any(d not in symbols for d in eq.dependencies):
            raise ValueError("reference")
    return list(symbols.values()), equations


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
            _reference_bind(_reference_parse(json.loads(text)), vector)
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
