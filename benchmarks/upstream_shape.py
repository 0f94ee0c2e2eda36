"""The upstream hand-rolled adapter and integer-exponent admissibility, in its shape, reproducing its canonical text.

This is the benchmark's faithful stand-in for the upstream code that was measured at
about 128 us per graph (issue #13).  From a graph's JSON dict it does what upstream
does, the way upstream does it: plain frozen dataclasses for the graph with the schema
checks (ADR-0115), an adapter that builds symbol, fact, equation and unknown records by
dict lookups (ADR-0133: every operation wired to the t0 symbol of its entities, the
operand literals synthesized as ``op_NNN__multiplicand`` / ``__divisor`` / ``__rate``),
an integer-exponent admissibility check with its proof string or refusal per equation
(ADR-0134), the unknown's state index and question form (ADR-0135), a graph object with
the construction checks (unique ids, references, acyclicity) and its canonical text.
It solves no values, as upstream does not.

Upstream's quirks are reproduced on purpose, because the text must be byte-identical:
the unit parser looks units up by *lemma* with a plural-stripping rule (so ``feet``,
``people``, ``$``, ``mph`` are ``unknown_unit``); one ``money`` and one ``count`` axis;
the multiply scalar is unit-bearing (``money * money -> money^2``); a multiplicative
comparison has no dependencies and is dimensionless; a ``unit_partition`` raises
``AttributeError`` (its operand reaches the ``compare_additive`` branch, which reads
``.delta``).

How it is tested: ``tests/unit/test_upstream_shape.py`` runs :func:`bind_upstream_shape`
with the upstream lexicon over every record of
``../shared/upstream/hand_rolled/adapter_canonical.jsonl`` and compares the text with
upstream's ``hand_rolled_canonical`` byte for byte (and the raised exception with
``hand_rolled_error``); it checks :func:`check_equation` against the 45 upstream
single-equation verdicts, and runs the adapter over our own lexicon on the 50 dev graphs.
No upstream data is copied here: the unit table is read from the lexicon path given.

Where the records leave a choice open, the choice made is documented at its place
(``_name_span``, ``_t0_of``, ``_plural_candidates``, ``_question_form``).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from os import PathLike
from pathlib import Path
from typing import Any, Final

from verifier.kinds import OPERATION_KINDS

# --------------------------------------------------------------------------- units

AXES: Final[tuple[str, ...]] = ("length", "time", "mass", "money", "count", "temperature")
"""Upstream's base axes, in its rendering order (ADR-0134): one money and one count axis."""

Vec = tuple[int, ...]
_DIMENSIONLESS: Final[Vec] = (0,) * len(AXES)
_COUNT: Final[Vec] = (0, 0, 0, 0, 1, 0)

DOMAIN_AXES: Final[dict[str, dict[str, int]]] = {
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
"""A lexicon row's ``semantic_domains`` → exponents; its first domain listed here wins.

``units.dimension`` (the names of dimensions) and ``units.rate`` (connectors such as
``per``) are not units, so their rows give no entry; a container is a count."""

_PER: Final[str] = "_per_"


def render(vec: Vec) -> str:
    """Upstream's dimension text: ``length^3``, ``money/time``, ``mass/length^3``, ``1/time``, ``dimensionless``."""
    nums: list[str] = []
    dens: list[str] = []
    for name, power in zip(AXES, vec, strict=True):
        if power > 0:
            nums.append(name if power == 1 else f"{name}^{power}")
        elif power < 0:
            dens.append(name if power == -1 else f"{name}^{-power}")
    if not nums and not dens:
        return "dimensionless"
    head = "*".join(nums) if nums else "1"
    return f"{head}/{'*'.join(dens)}" if dens else head


def _plural_candidates(unit: str) -> Iterator[str]:
    """The lemmas a unit text may be, in lookup order: itself, then with a regular plural ending stripped.

    Inferred from the records: ``dollars``, ``cups``, ``hours`` (``-s``), ``inches``,
    ``boxes`` (``-es``) resolve, ``Celsius`` resolves as itself; irregular plurals
    (``feet``, ``people``) and symbols (``$``, ``t``, ``mph``) are not lemmas and do not.
    ``-ies`` → ``-y`` (``centuries``) is the remaining regular English plural.
    """
    yield unit
    if unit.endswith("s"):
        yield unit[:-1]
        if unit.endswith("es"):
            yield unit[:-2]
            if unit.endswith("ies"):
                yield unit[:-3] + "y"


@dataclass(frozen=True, slots=True)
class UnitTable:
    """What upstream's unit parser needs: the dimension of each lemma.

    Upstream looks up lemmas only, never surfaces: a symbol (``$``, ``mph``) or an
    irregular plural (``feet``) that the lexicon lists as a surface is not found.

    Attributes:
        dimensions: lemma → exponent vector over :data:`AXES` (only rows that are units).
    """

    dimensions: Mapping[str, Vec]

    def vector(self, unit: str) -> Vec | None:
        """The vector of a unit text, or ``None`` (upstream's ``unknown_unit``).

        A lemma (``mile_per_hour``), a regular plural of one (``dollars``), or a
        composite ``<unit>_per_<unit>`` of two such (``dollars_per_hours``).
        """
        for candidate in _plural_candidates(unit):
            vec = self.dimensions.get(candidate)
            if vec is not None:
                return vec
        head, sep, tail = unit.partition(_PER)
        if not sep or not head or not tail or _PER in tail:
            return None
        num = self.vector(head)
        den = self.vector(tail)
        if num is None or den is None:
            return None
        return tuple(a - b for a, b in zip(num, den, strict=True))


def load_unit_table(lexicon_path: str | PathLike[str]) -> UnitTable:
    """Build the :class:`UnitTable` from a lexicon JSONL (the ``en_units_v1`` row layout).

    Each row's ``semantic_domains`` give the dimension of its ``lemma`` (the first row
    of a lemma whose domain is a unit domain wins, see :data:`DOMAIN_AXES`).
    """
    axis = {name: i for i, name in enumerate(AXES)}
    dimensions: dict[str, Vec] = {}
    with Path(lexicon_path).open(encoding="utf-8") as handle:
        for line in handle:
            if not line.strip():
                continue
            row = json.loads(line)
            lemma = row["lemma"]
            if lemma in dimensions:
                continue
            axes = next((DOMAIN_AXES[d] for d in row.get("semantic_domains", ()) if d in DOMAIN_AXES), None)
            if axes is None:
                continue
            exps = [0] * len(AXES)
            for name, power in axes.items():
                exps[axis[name]] += power
            dimensions[lemma] = tuple(exps)
    return UnitTable(dimensions)


# --------------------------------------------------------------------------- the graph (ADR-0115)

KINDS: Final[tuple[str, ...]] = OPERATION_KINDS  # the ten kinds of ADR-0115, one list for both sides
_AMOUNT_KINDS: Final[frozenset[str]] = frozenset({"add", "subtract", "transfer", "multiply", "divide"})
_DIRECTIONS: Final[dict[str, tuple[str, ...]]] = {
    "compare_additive": ("more", "fewer"),
    "compare_multiplicative": ("times", "fraction"),
}


class SchemaError(ValueError):
    """The graph does not follow the schema (the field path and what is wrong)."""


def _number(value: object, path: str) -> int | float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise SchemaError(f"{path}: expected a finite number, found {value!r}")
    return value


def _text(value: object, path: str) -> str:
    if not isinstance(value, str) or not value:
        raise SchemaError(f"{path}: expected a non-empty string, found {value!r}")
    return value


@dataclass(frozen=True, slots=True)
class Amount:
    """``value`` of ``unit``: ``Amount(3, "apples")``."""

    value: int | float
    unit: str


@dataclass(frozen=True, slots=True)
class Rate:
    """``value`` numerator units per denominator unit (value > 0)."""

    value: int | float
    numerator_unit: str
    denominator_unit: str

    def __post_init__(self) -> None:
        if self.value <= 0:
            raise SchemaError("a rate must be positive")


@dataclass(frozen=True, slots=True)
class Comparison:
    """A comparison with ``reference_actor``: ``more``/``fewer`` by a ``delta``, or ``times``/``fraction`` a ``factor``."""

    reference_actor: str
    direction: str
    delta: Amount | None = None
    factor: int | float | None = None


@dataclass(frozen=True, slots=True)
class PartitionChunk:
    """Split a state into chunks of ``value`` ``unit``, counted in ``result_unit`` (value > 0)."""

    value: int | float
    unit: str
    result_unit: str

    def __post_init__(self) -> None:
        if self.value <= 0:
            raise SchemaError("a chunk must be positive")


@dataclass(frozen=True, slots=True)
class FractionPortion:
    """``numerator/denominator`` of what ``referent`` names (0 <= n <= d, d > 0)."""

    numerator: int | float
    denominator: int | float
    referent: str

    def __post_init__(self) -> None:
        if not (0 <= self.numerator <= self.denominator and self.denominator > 0):
            raise SchemaError("a fraction portion needs 0 <= numerator <= denominator, denominator > 0")


Operand = Amount | Rate | Comparison | PartitionChunk | FractionPortion


@dataclass(frozen=True, slots=True)
class Possession:
    """``entity`` holds ``quantity`` at the start."""

    entity: str
    quantity: Amount


@dataclass(frozen=True, slots=True)
class Operation:
    """``actor`` does ``kind`` with ``operand`` (and ``target`` for a transfer)."""

    actor: str
    kind: str
    operand: Operand
    target: str | None = None


@dataclass(frozen=True, slots=True)
class Question:
    """What is asked: ``entity``'s holding in ``unit``, or the total when ``entity`` is ``None``."""

    entity: str | None
    unit: str


@dataclass(frozen=True, slots=True)
class MathProblemGraph:
    """The graph, with the schema's cross-field checks on construction (raises :class:`SchemaError`)."""

    entities: tuple[str, ...]
    initial_state: tuple[Possession, ...]
    operations: tuple[Operation, ...]
    unknown: Question

    def __post_init__(self) -> None:
        if not self.entities:
            raise SchemaError("entities: a graph needs at least one entity")
        known = set(self.entities)
        if len(known) != len(self.entities):
            raise SchemaError("entities: duplicate entity")
        for i, poss in enumerate(self.initial_state):
            if poss.entity not in known:
                raise SchemaError(f"initial_state[{i}].entity: {poss.entity!r} is not an entity")
        for i, op in enumerate(self.operations):
            _check_operation(op, f"operations[{i}]", known)
        if self.unknown.entity is not None and self.unknown.entity not in known:
            raise SchemaError(f"unknown.entity: {self.unknown.entity!r} is not an entity")


def _check_operation(op: Operation, path: str, known: set[str]) -> None:
    """The schema's checks of one operation at ``path``: its actor, its target, its operand's sign and comparison."""
    if op.actor not in known:
        raise SchemaError(f"{path}.actor: {op.actor!r} is not an entity")
    if op.kind == "transfer":
        if op.target is None or op.target not in known or op.target == op.actor:
            raise SchemaError(f"{path}.target: a transfer needs a target entity other than its actor")
    elif op.target is not None:
        raise SchemaError(f"{path}.target: only a transfer has a target")
    operand = op.operand
    if isinstance(operand, Amount) and operand.value < 0:
        raise SchemaError(f"{path}.operand.value: the kind carries the sign")
    if isinstance(operand, Comparison):
        _check_comparison(op, operand, path, known)


def _check_comparison(op: Operation, operand: Comparison, path: str, known: set[str]) -> None:
    """The schema's checks of a comparison operand: its direction, another entity, a delta or a positive factor."""
    if operand.direction not in _DIRECTIONS[op.kind]:
        raise SchemaError(f"{path}.operand.direction: {operand.direction!r} does not fit {op.kind}")
    if operand.reference_actor not in known or operand.reference_actor == op.actor:
        raise SchemaError(f"{path}.operand.reference_actor: another entity is needed")
    if op.kind == "compare_additive" and (operand.delta is None or operand.factor is not None):
        raise SchemaError(f"{path}.operand: compare_additive takes a delta and no factor")
    if op.kind == "compare_multiplicative" and (
        operand.factor is None or operand.delta is not None or operand.factor <= 0
    ):
        raise SchemaError(f"{path}.operand: compare_multiplicative takes a positive factor and no delta")


def _amount(data: Mapping[str, Any], path: str) -> Amount:
    return Amount(_number(data["value"], f"{path}.value"), _text(data["unit"], f"{path}.unit"))


def _operand(kind: str, data: Mapping[str, Any], path: str) -> Operand:
    if kind in _AMOUNT_KINDS:
        return _amount(data, path)
    if kind == "apply_rate":
        return Rate(
            _number(data["value"], f"{path}.value"),
            _text(data["numerator_unit"], f"{path}.numerator_unit"),
            _text(data["denominator_unit"], f"{path}.denominator_unit"),
        )
    if kind in ("compare_additive", "compare_multiplicative"):
        return Comparison(
            _text(data["reference_actor"], f"{path}.reference_actor"),
            _text(data["direction"], f"{path}.direction"),
            _amount(data["delta"], f"{path}.delta") if "delta" in data else None,
            _number(data["factor"], f"{path}.factor") if "factor" in data else None,
        )
    if kind == "unit_partition":
        return PartitionChunk(
            _number(data["value"], f"{path}.value"),
            _text(data["unit"], f"{path}.unit"),
            _text(data["result_unit"], f"{path}.result_unit"),
        )
    return FractionPortion(
        _number(data["numerator"], f"{path}.numerator"),
        _number(data["denominator"], f"{path}.denominator"),
        _text(data["referent"], f"{path}.referent"),
    )


def parse_graph(data: Mapping[str, Any]) -> MathProblemGraph:
    """The graph from its JSON dict: field types per item, then the cross-field checks.

    Raises:
        SchemaError: a field of the wrong type or value (``KeyError`` for a missing key).
    """
    entities = tuple(_text(e, f"entities[{i}]") for i, e in enumerate(data["entities"]))
    initial = tuple(
        Possession(
            _text(item["entity"], f"initial_state[{i}].entity"), _amount(item["quantity"], f"initial_state[{i}]")
        )
        for i, item in enumerate(data["initial_state"])
    )
    operations = []
    for i, item in enumerate(data["operations"]):
        path = f"operations[{i}]"
        kind = item["kind"]
        if kind not in KINDS:
            raise SchemaError(f"{path}.kind: unknown operation kind {kind!r}")
        target = item.get("target")
        operations.append(
            Operation(
                _text(item["actor"], f"{path}.actor"),
                kind,
                _operand(kind, item["operand"], f"{path}.operand"),
                None if target is None else _text(target, f"{path}.target"),
            )
        )
    unknown = data["unknown"]
    entity = unknown.get("entity")
    question = Question(
        None if entity is None else _text(entity, "unknown.entity"), _text(unknown["unit"], "unknown.unit")
    )
    return MathProblemGraph(entities, initial, tuple(operations), question)


# --------------------------------------------------------------------------- records (ADR-0133)

SOURCE_ID: Final[str] = "math_problem_graph"
INTRODUCED_BY: Final[str] = "bind_math_problem_graph"
ROLES: Final[frozenset[str]] = frozenset({"entity", "quantity", "rate", "ratio", "unknown"})
_ID: Final = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_SLUG: Final = re.compile(r"[^a-z0-9]+")


def _slug(text: str) -> str:
    return _SLUG.sub("_", text.lower()).strip("_")


def _number_text(value: float) -> str:
    return str(value)


@dataclass(frozen=True, slots=True)
class Span:
    """``source_id[start:end]``."""

    source_id: str
    start: int
    end: int

    def __post_init__(self) -> None:
        if not self.source_id or self.start < 0 or self.end <= self.start:
            raise ValueError(f"bad span {self.source_id}[{self.start}:{self.end}]")

    def __str__(self) -> str:
        return f"{self.source_id}[{self.start}:{self.end}]"


def _span(length: int) -> Span:
    return Span(SOURCE_ID, 0, length)


def _name_span(name: str) -> Span:
    """The span of an operation's records: two characters longer than the record's name.

    Observed for every result and literal symbol (``op0.add.Sam`` → ``[0:13]``,
    ``op0.literal.blocks`` → ``[0:20]``), consistent with upstream spanning the
    indexed path ``op[0].add.Sam`` while naming it ``op0.add.Sam``.
    """
    return _span(len(name) + 2)


@dataclass(frozen=True, slots=True)
class Symbol:
    """One symbol record."""

    symbol_id: str
    name: str
    role: str
    entity: str | None
    unit: str | None
    span: Span

    def __post_init__(self) -> None:
        if not _ID.fullmatch(self.symbol_id) or self.role not in ROLES or not self.name:
            raise ValueError(f"bad symbol {self.symbol_id!r} ({self.role})")


@dataclass(frozen=True, slots=True)
class Fact:
    """A known value of a symbol."""

    symbol_id: str
    value: str
    unit: str | None
    span: Span


@dataclass(frozen=True, slots=True)
class Verdict:
    """The admissibility verdict of one equation: its proof string, or ``unverified`` and the refusal."""

    status: str
    unit_proof: str
    refusal: str | None = None


@dataclass(frozen=True, slots=True)
class Equation:
    """``lhs := rhs`` of one operation, with its sorted dependencies and verdict."""

    lhs: str
    rhs: str
    kind: str
    dependencies: tuple[str, ...]
    verdict: Verdict
    span: Span

    def __post_init__(self) -> None:
        if not _ID.fullmatch(self.lhs) or self.kind not in KINDS:
            raise ValueError(f"bad equation {self.lhs!r} ({self.kind})")
        if (self.verdict.status == "admitted") != (self.verdict.refusal is None):
            raise ValueError(f"equation {self.lhs!r}: a refusal goes with a refused status")


@dataclass(frozen=True, slots=True)
class Unknown:
    """The asked symbol with its expected unit, state index and question form."""

    symbol_id: str
    expected_unit: str
    state_index: str
    question_form: str
    span: Span


@dataclass(frozen=True, slots=True)
class BoundGraph:
    """The bound records, with the model's construction checks: unique ids, references, acyclic equations."""

    symbols: tuple[Symbol, ...]
    facts: tuple[Fact, ...]
    equations: tuple[Equation, ...]
    unknown: Unknown

    def __post_init__(self) -> None:
        _check_acyclic(self._equations_by_lhs())

    def _equations_by_lhs(self) -> dict[str, Equation]:
        """Check that ids are unique and every record names a symbol; the equations keyed by their lhs.

        Raises:
            ValueError: a duplicate symbol id, a fact, unknown or equation naming no symbol,
                or two equations defining one lhs.
        """
        ids = {s.symbol_id for s in self.symbols}
        if len(ids) != len(self.symbols):
            raise ValueError("duplicate symbol id")
        for fact in self.facts:
            if fact.symbol_id not in ids:
                raise ValueError(f"fact of {fact.symbol_id!r}, which is not a symbol")
        if self.unknown.symbol_id not in ids:
            raise ValueError(f"unknown {self.unknown.symbol_id!r} is not a symbol")
        by_lhs: dict[str, Equation] = {}
        for eq in self.equations:
            if eq.lhs not in ids or any(d not in ids for d in eq.dependencies):
                raise ValueError(f"equation {eq.lhs!r} references no symbol")
            if eq.lhs in by_lhs:
                raise ValueError(f"two equations define {eq.lhs!r}")
            by_lhs[eq.lhs] = eq
        return by_lhs

    def to_canonical_string(self) -> str:
        """The upstream canonical text: ``S`` lines, then ``F``, ``E`` and the ``U`` line."""
        lines = [
            f"S {s.symbol_id} {s.name} {s.role} entity={s.entity} unit={s.unit} span={s.span} by={INTRODUCED_BY}"
            for s in self.symbols
        ]
        lines += [f"F {f.symbol_id} = {f.value} unit={f.unit} span={f.span}" for f in self.facts]
        lines += [
            f"E {e.lhs} := {e.rhs} op={e.kind} deps=[{','.join(e.dependencies)}] unit_proof={e.verdict.unit_proof}"
            f" status={e.verdict.status} refusal={e.verdict.refusal} span={e.span}"
            for e in self.equations
        ]
        u = self.unknown
        lines.append(
            f"U {u.symbol_id} expected_unit={u.expected_unit} state={u.state_index} form={u.question_form} qspan={u.span}"
        )
        return "\n".join(lines)


def _check_acyclic(by_lhs: Mapping[str, Equation]) -> None:
    """Raise ``ValueError`` when the equations, each lhs to its dependencies, form a cycle (iterative DFS)."""
    state: dict[str, int] = {}  # 1 on the stack, 2 done
    for root, first in by_lhs.items():
        if root in state:
            continue
        state[root] = 1
        stack = [(root, iter(first.dependencies))]
        while stack:
            node, deps = stack[-1]
            nxt = next(deps, None)
            if nxt is None:
                state[node] = 2
                stack.pop()
            elif nxt in by_lhs:
                seen = state.get(nxt)
                if seen == 1:
                    raise ValueError(f"equations form a cycle through {nxt!r}")
                if seen is None:
                    state[nxt] = 1
                    stack.append((nxt, iter(by_lhs[nxt].dependencies)))


# --------------------------------------------------------------------------- admissibility (ADR-0134)

_ADDITIVE: Final[frozenset[str]] = frozenset({"add", "subtract", "transfer", "compare_additive"})
_BINARY: Final[int] = 2  # dependencies of a divide by a __divisor literal and of an apply_rate (ADR-0134)


class _Refusal(Exception):
    """An admissibility refusal (its reason)."""


def _refuse(reason: str) -> Verdict:
    return Verdict("refused", "unverified", reason)


def check_equation(kind: str, operands: Sequence[tuple[str, str, str | None]], table: UnitTable) -> Verdict:
    """Upstream's integer-exponent check of one equation.

    Args:
        kind: the operation kind.
        operands: ``(symbol_id, semantic_role, unit)`` per dependency, sorted by id.
        table: the unit table.

    Returns:
        ``admitted`` with ``"<kind>: [<dims in dependency order>] -> <dim>"``, or
        ``refused`` with ``unknown_unit``, ``unit_unbound``, ``unit_mismatch``,
        ``operand_arity``, ``rate_form_invalid`` or ``unknown_operation``.
    """
    vecs: list[Vec] = []
    for _, role, unit in operands:
        if unit is None:
            if role != "ratio":
                return _refuse("unit_unbound")
            vecs.append(_DIMENSIONLESS)
            continue
        vec = table.vector(unit)
        if vec is None:
            return _refuse("unknown_unit")
        vecs.append(vec)
    try:
        result = _result(kind, operands, vecs)
    except _Refusal as exc:
        return _refuse(str(exc))
    return Verdict("admitted", f"{kind}: [{','.join(render(v) for v in vecs)}] -> {render(result)}")


def _result(kind: str, operands: Sequence[tuple[str, str, str | None]], vecs: Sequence[Vec]) -> Vec:
    """The result's vector of one equation of ``kind`` (operands and vectors in dependency order), or raise :class:`_Refusal`."""
    if kind in _ADDITIVE:
        if not vecs:
            raise _Refusal("operand_arity")
        if any(v != vecs[0] for v in vecs[1:]):
            raise _Refusal("unit_mismatch")
        return vecs[0]
    if kind == "multiply":  # every dependency is unit-bearing, the scalar included
        result = _DIMENSIONLESS
        for v in vecs:
            result = tuple(a + b for a, b in zip(result, v, strict=True))
        return result
    if kind == "divide":
        return _quotient(operands, vecs)
    if kind == "apply_rate":
        return _rate_applied(operands, vecs)
    if kind == "compare_multiplicative":
        return _DIMENSIONLESS
    raise _Refusal("unknown_operation")


def _quotient(operands: Sequence[tuple[str, str, str | None]], vecs: Sequence[Vec]) -> Vec:
    """A divide's vector: its one dependency, or the other dependency over the ``__divisor`` literal."""
    if len(vecs) == 1:
        return vecs[0]
    divisors = [i for i, (sid, _, _) in enumerate(operands) if sid.endswith("__divisor")]
    if len(vecs) != _BINARY or len(divisors) != 1:
        raise _Refusal("operand_arity")
    d = divisors[0]
    return tuple(a - b for a, b in zip(vecs[1 - d], vecs[d], strict=True))


def _rate_applied(operands: Sequence[tuple[str, str, str | None]], vecs: Sequence[Vec]) -> Vec:
    """An apply_rate's vector: rate * quantity, the quantity being exactly the rate's denominator."""
    rates = [i for i, (_, role, _) in enumerate(operands) if role == "rate"]
    if len(vecs) != _BINARY or len(rates) != 1:
        raise _Refusal("rate_form_invalid")
    rate, quantity = vecs[rates[0]], vecs[1 - rates[0]]
    denominator = tuple(-e if e < 0 else 0 for e in rate)
    if denominator == _DIMENSIONLESS or quantity != denominator:
        raise _Refusal("rate_form_invalid")
    return tuple(a + b for a, b in zip(rate, quantity, strict=True))


# --------------------------------------------------------------------------- the adapter


_LITERAL_SUFFIX: Final[dict[str, str]] = {"multiply": "__multiplicand", "divide": "__divisor"}


class _Binder:
    """One binding: the symbol table and the t0 index it fills, the records in creation order."""

    def __init__(self, table: UnitTable) -> None:
        self.table = table
        self.symbols: dict[str, Symbol] = {}
        self.facts: list[Fact] = []
        self.equations: list[Equation] = []
        self.t0: dict[tuple[str, str], str] = {}
        self.first_t0: dict[str, str] = {}

    def add(self, symbol: Symbol) -> None:
        if symbol.symbol_id in self.symbols:
            raise ValueError(f"duplicate symbol id {symbol.symbol_id!r}")
        self.symbols[symbol.symbol_id] = symbol

    def _t0_of(self, entity: str, unit: str) -> str | None:
        """The t0 symbol of ``entity`` an operation is wired to: the one in the operation's unit, else its first.

        The records only show entities with one initial quantity; keying by unit first
        is the reading that keeps an entity's several holdings apart.
        """
        sid = self.t0.get((entity, unit))
        return sid if sid is not None else self.first_t0.get(entity)

    def initial(self, poss: Possession) -> None:
        entity, quantity = poss.entity, poss.quantity
        name = f"{entity}.{quantity.unit}@t0"
        sid = f"q_{_slug(entity)}_{_slug(quantity.unit)}_t0"
        span = _span(len(name))
        self.add(Symbol(sid, name, "quantity", entity, quantity.unit, span))
        self.facts.append(Fact(sid, _number_text(quantity.value), quantity.unit, span))
        self.t0.setdefault((entity, quantity.unit), sid)
        self.first_t0.setdefault(entity, sid)

    def _literal(self, sid: str, name: str, role: str, value: float, unit: str) -> str:
        span = _name_span(name)
        self.add(Symbol(sid, name, role, None, unit, span))
        self.facts.append(Fact(sid, _number_text(value), unit, span))
        return sid

    def operation(self, i: int, op: Operation) -> None:
        """Bind operation ``i``: its result symbol, its literals, and one equation with its verdict."""
        kind = op.kind
        name = f"op{i}.{kind}.{op.actor}"
        lhs = f"op_{i:03d}_result"
        span = _name_span(name)
        self.add(Symbol(lhs, name, "quantity", op.actor, None, span))
        if kind in _AMOUNT_KINDS:
            rhs, deps = self._amount_operation(i, op)
        elif kind == "apply_rate":
            rhs, deps = self._rate_operation(i, op)
        elif kind == "compare_multiplicative":  # upstream wires no dependency here
            rhs, deps = self._multiplicative_comparison(i, op), []
        else:  # compare_additive; upstream's fall-through branch, so a unit_partition's chunk is read as a comparison
            rhs, deps = self._additive_comparison(i, op)
        deps.sort()
        symbols = self.symbols
        operands = [(d, symbols[d].role, symbols[d].unit) for d in deps]
        verdict = check_equation(kind, operands, self.table)
        self.equations.append(Equation(lhs, rhs, kind, tuple(deps), verdict, span))

    def _amount_operation(self, i: int, op: Operation) -> tuple[str, list[str]]:
        """An add, subtract, transfer, multiply or divide: its rhs text and dependencies (t0 symbols, the literal)."""
        actor, kind = op.actor, op.kind
        amount: Amount = op.operand  # type: ignore[assignment]
        deps: list[str] = []
        own = self._t0_of(actor, amount.unit)
        if own is not None:
            deps.append(own)
        if kind == "transfer":
            if op.target is None:  # MathProblemGraph refuses it already; never wire a transfer to nobody
                raise SchemaError(f"operations[{i}].target: a transfer needs a target entity other than its actor")
            other = self._t0_of(op.target, amount.unit)
            if other is not None:
                deps.append(other)
            return f"transfer({actor}->{op.target}, {_number_text(amount.value)} {amount.unit})", deps
        suffix = _LITERAL_SUFFIX.get(kind)
        if suffix is not None:
            literal_name = f"op{i}.literal.{amount.unit}"
            deps.append(self._literal(f"op_{i:03d}{suffix}", literal_name, "quantity", amount.value, amount.unit))
        return f"{kind}({actor}, {_number_text(amount.value)} {amount.unit})", deps

    def _rate_operation(self, i: int, op: Operation) -> tuple[str, list[str]]:
        """An apply_rate: its rhs text and dependencies (the actor's t0 in the rate's denominator, the rate literal)."""
        rate: Rate = op.operand  # type: ignore[assignment]
        unit = f"{rate.numerator_unit}_per_{rate.denominator_unit}"
        rhs = f"apply_rate({op.actor}, {_number_text(rate.value)} {rate.numerator_unit}/{rate.denominator_unit})"
        deps: list[str] = []
        own = self._t0_of(op.actor, rate.denominator_unit)
        if own is not None:
            deps.append(own)
        deps.append(self._literal(f"op_{i:03d}__rate", f"op{i}.rate.{unit}", "rate", rate.value, unit))
        return rhs, deps

    @staticmethod
    def _multiplicative_comparison(i: int, op: Operation) -> str:
        """A compare_multiplicative's rhs text (upstream gives it no dependency)."""
        comparison: Comparison = op.operand  # type: ignore[assignment]
        if comparison.factor is None:  # MathProblemGraph refuses it already
            raise SchemaError(f"operations[{i}].operand: compare_multiplicative takes a positive factor and no delta")
        factor = _number_text(comparison.factor)
        return (
            f"compare_multiplicative({op.actor}, {comparison.direction}({comparison.reference_actor}, factor={factor}))"
        )

    def _additive_comparison(self, i: int, op: Operation) -> tuple[str, list[str]]:
        """A compare_additive's rhs text and dependency (the reference's t0 in the delta's unit).

        Raises:
            AttributeError: the operand has no ``delta`` (a unit_partition's chunk, as upstream).
        """
        operand = op.operand
        delta = operand.delta  # type: ignore[union-attr]
        if delta is None:  # MathProblemGraph refuses it already
            raise SchemaError(f"operations[{i}].operand: compare_additive takes a delta and no factor")
        reference: str = operand.reference_actor  # type: ignore[union-attr]
        direction: str = operand.direction  # type: ignore[union-attr]
        rhs = f"compare_additive({op.actor}, {direction}({reference}, delta={_number_text(delta.value)} {delta.unit}))"
        ref = self._t0_of(reference, delta.unit)
        return rhs, [] if ref is None else [ref]

    def unknown(self, question: Question, graph: MathProblemGraph) -> Unknown:
        entity, unit = question.entity, question.unit
        name = f"{entity or 'total'}|{unit}"
        sid = f"unknown_{_slug(entity or 'total')}_{_slug(unit)}"
        span = _span(len(name))
        self.add(Symbol(sid, name, "unknown", entity, unit, span))
        state = "terminal" if self.equations else "initial"
        return Unknown(sid, unit, state, self._question_form(entity, unit, graph), span)

    def _question_form(self, entity: str | None, unit: str, graph: MathProblemGraph) -> str:
        """ADR-0135 over the equations that touch the asked entity (its result or a dependency is the entity's).

        Precedence: none touches → ``identity``; ``compare_multiplicative`` → ``ratio``;
        ``compare_additive`` → ``difference``; ``apply_rate`` → ``total`` when the asked
        unit is the rate's numerator (same dimension, or the same text), ``rate`` when it
        is the denominator; otherwise ``count``.
        """
        kinds, rates = self._touching(entity, graph)
        if not kinds:
            return "identity"
        if "compare_multiplicative" in kinds:
            return "ratio"
        if "compare_additive" in kinds:
            return "difference"
        if rates:
            return self._rate_form(unit, rates)
        return "count"

    def _touching(self, entity: str | None, graph: MathProblemGraph) -> tuple[set[str], list[Rate]]:
        """The kinds of the equations touching ``entity`` (all of them for a total), and the rates they apply."""
        symbols = self.symbols
        kinds: set[str] = set()
        rates: list[Rate] = []
        for eq, op in zip(self.equations, graph.operations, strict=True):
            if (
                entity is None
                or symbols[eq.lhs].entity == entity
                or any(symbols[d].entity == entity for d in eq.dependencies)
            ):
                kinds.add(eq.kind)
                if eq.kind == "apply_rate":
                    rates.append(op.operand)  # type: ignore[arg-type]
        return kinds, rates

    def _rate_form(self, unit: str, rates: Sequence[Rate]) -> str:
        """``total`` when the asked unit is a rate's numerator, ``rate`` when it is its denominator (first rate first).

        Raises:
            ValueError: ``apply_rate_unit_mismatch``, the unit is neither.
        """
        asked = self.table.vector(unit)
        for rate in rates:
            if unit == rate.numerator_unit or (asked is not None and asked == self.table.vector(rate.numerator_unit)):
                return "total"
            if unit == rate.denominator_unit or (
                asked is not None and asked == self.table.vector(rate.denominator_unit)
            ):
                return "rate"
        raise ValueError(f"apply_rate_unit_mismatch: {unit!r} is neither a rate's numerator nor its denominator")


def bind_graph(graph: MathProblemGraph, table: UnitTable) -> BoundGraph:
    """Bind a parsed graph: entities, t0 quantities, one equation per operation, the unknown."""
    binder = _Binder(table)
    for entity in graph.entities:
        binder.add(Symbol(f"entity_{_slug(entity)}", entity, "entity", entity, None, _span(len(entity))))
    for poss in graph.initial_state:
        binder.initial(poss)
    for i, op in enumerate(graph.operations):
        binder.operation(i, op)
    unknown = binder.unknown(graph.unknown, graph)
    return BoundGraph(tuple(binder.symbols.values()), tuple(binder.facts), tuple(binder.equations), unknown)


def bind_upstream_shape(data: Mapping[str, Any], table: UnitTable) -> str:
    """Parse, bind, check and render one graph's JSON dict as upstream did; returns its canonical text.

    Raises:
        SchemaError: the graph breaks the schema.
        AttributeError: a ``unit_partition`` or ``fraction_portion`` operation (as upstream).
        ValueError: the records break the graph model's checks, or the question form
            cannot be decided.
    """
    return bind_graph(parse_graph(data), table).to_canonical_string()


__all__ = [
    "AXES",
    "BoundGraph",
    "MathProblemGraph",
    "SchemaError",
    "UnitTable",
    "Verdict",
    "bind_graph",
    "bind_upstream_shape",
    "check_equation",
    "load_unit_table",
    "parse_graph",
    "render",
]
