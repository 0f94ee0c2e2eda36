"""The holdings model: which holding each equation reads and which it writes, in source order (SPEC §4 State).

A *holding* is one entity's quantity of one *quantity kind* (the registry
dimensionality, so feet and inches are one length, while apples and pears, or
dollars and euros, stay apart).  Its *states* are the symbols that hold its value
over the story: an initial state (a symbol no equation defines), then one state
per equation that writes it.  This module owns the rules of that history; the
exact solve (:mod:`verifier.solve`) and the answers (:mod:`verifier.answer`) only
ask it questions.

Rules (SPEC §4 and §5), checked once per graph, in source order (``BoundEquation.operation``,
else tuple order):

* an equation reads a holding's *current* state, never one that an earlier
  operation had replaced (``ambiguous_reference``);
* an update (add, subtract, transfer, multiply, divide, fraction_portion) of a
  holding that has a state reads it (else the holding is silently dropped,
  ``ambiguous_reference``), and its own state operand is of the kind it writes;
* a declaration (apply_rate, unit_partition, compare_additive,
  compare_multiplicative) writes a holding that has no state yet (else it would
  overwrite it, ``redeclared_state``);
* a holding has at most one initial state, and one write per operation;
* a transfer is one event: its operation holds exactly one debit and one credit of
  the same amount, on two entities (else ``ambiguous_reference``).

Roles come from ``BoundEquation.operand_roles`` (:func:`verifier.roles.roles_of`),
kinds from the unit references the caller resolved; nothing is read from
symbol-id spelling or message text.  Knows nothing of input formats.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Final, NamedTuple

if TYPE_CHECKING:
    import sympy
else:
    from verifier.lazy import sympy

from units import UnitRef
from units.reasons import RefusalReason
from verifier.admissibility import Refusal
from verifier.expr import as_fraction
from verifier.model import BindingGraph, BoundEquation, OperationIndex, StateIndex, SymbolBinding

UPDATE_KINDS: Final[frozenset[str]] = frozenset(
    {"add", "subtract", "transfer", "multiply", "divide", "fraction_portion"}
)
"""Kinds that change a holding's value and keep its kind: they read its current state (SPEC §5)."""
DECLARING_KINDS: Final[frozenset[str]] = frozenset(
    {"apply_rate", "unit_partition", "compare_additive", "compare_multiplicative"}
)
"""Kinds that give a holding its first value: they never overwrite one (SPEC §5, ``redeclared_state``)."""
_PAIR: Final[int] = 2  # a transfer's two sides; a holding with a history; a state plus a constant
_NOT_HELD: Final[frozenset[str]] = frozenset({"entity", "unknown", "rate", "ratio", "difference"})
"""Semantic roles of symbols that are about a holding but are none (a ``difference`` is a comparison's stated value)."""

__all__ = ["DECLARING_KINDS", "UPDATE_KINDS", "Holding", "HoldingProblem", "Holdings", "operation_indices"]


class Holding(NamedTuple):
    """One entity's holding of one quantity kind (a named tuple: hashed and compared in C, as dict keys are).

    Attributes:
        entity: the owner's name.
        kind: the registry dimensionality as sorted ``(base, power)`` pairs (``UnitRef.quantity_kind``).
    """

    entity: str
    kind: tuple[tuple[str, int], ...]


@dataclass(frozen=True, slots=True)
class HoldingProblem:
    """A history rule broken at one equation (source position ``position``), with its refusal."""

    position: int
    equation: str
    refusal: Refusal


@dataclass(slots=True)
class Holdings:
    """The holdings of one graph and their states in source order (build with :meth:`build`).

    Attributes:
        holding_of: holding symbol id → its :class:`Holding`.
        initial: holding → its initial state (a symbol no equation defines).
        timeline: holding → ``(operation, symbol)`` of each state an equation wrote, in source order.
        operations: how many source operations the graph has.
        problems: every rule broken, in source order.
    """

    holding_of: dict[str, Holding] = field(default_factory=dict)
    initial: dict[Holding, str] = field(default_factory=dict)
    timeline: dict[Holding, list[tuple[int, str]]] = field(default_factory=dict)
    operations: int = 0
    problems: list[HoldingProblem] = field(default_factory=list)
    _by_kind: dict[tuple[tuple[str, int], ...], list[Holding]] | None = field(default=None, repr=False)

    @classmethod
    def build(
        cls,
        graph: BindingGraph,
        units: Mapping[str, UnitRef | None],
        roles: Mapping[str, Mapping[str, str]],
    ) -> Holdings:
        """Replay the graph's equations in source order, recording reads, writes and broken rules.

        Args:
            graph: the binding graph.
            units: symbol id → its resolved unit (``None`` or absent: not a holding of a known kind).
            roles: equation lhs → ``{dependency: role}`` (:func:`verifier.roles.roles_of`).
        """
        out = cls()
        symbols = graph.symbols_by_id
        defined = {eq.lhs_symbol_id for eq in graph.equations}
        for sym in graph.symbols:
            ref = units.get(sym.symbol_id)
            if sym.entity is None or sym.semantic_role in _NOT_HELD or ref is None:
                continue
            holding = Holding(sym.entity, ref.quantity_kind)
            out.holding_of[sym.symbol_id] = holding
            if sym.symbol_id not in defined:
                if holding in out.initial:
                    out.problems.append(
                        HoldingProblem(
                            -1,
                            sym.symbol_id,
                            Refusal(
                                reason="ambiguous_reference",
                                detail=f"{sym.entity} has two initial states of one kind: {out.initial[holding]} and {sym.symbol_id}",
                            ),
                        )
                    )
                    continue
                out.initial[holding] = sym.symbol_id
        ops = operation_indices(graph.equations, symbols)
        out.operations = (ops[-1] + 1) if ops else 0
        _Replay(out, symbols, roles, ops).run(graph.equations)
        return out

    def state_at(self, holding: Holding, index: StateIndex) -> str | None:
        """The symbol holding ``holding``'s value at ``index`` (``None``: never set by then)."""
        if index == "initial":
            return self.initial.get(holding)
        states = self.timeline.get(holding, [])
        if isinstance(index, OperationIndex):
            states = [(op, name) for op, name in states if op <= index.index]
        return states[-1][1] if states else self.initial.get(holding)

    def owners(self, kind: tuple[tuple[str, int], ...]) -> list[Holding]:
        """Every holding of one quantity kind, sorted by entity (for an ``entity=None`` total); indexed once."""
        if self._by_kind is None:
            index: dict[tuple[tuple[str, int], ...], list[Holding]] = {}
            for holding in sorted(set(self.initial) | set(self.timeline)):
                index.setdefault(holding.kind, []).append(holding)
            self._by_kind = index
        return self._by_kind.get(kind, [])


class _Replay:
    """One pass over the equations in source order (private to :meth:`Holdings.build`)."""

    def __init__(
        self,
        holdings: Holdings,
        symbols: Mapping[str, SymbolBinding],
        roles: Mapping[str, Mapping[str, str]],
        ops: list[int],
    ) -> None:
        self.h = holdings
        self.symbols = symbols
        self.roles = roles
        self.ops = ops
        self.current: dict[Holding, str] = dict(holdings.initial)
        self.sizes: dict[Holding, int] = {}
        for holding in holdings.holding_of.values():
            self.sizes[holding] = self.sizes.get(holding, 0) + 1
        self.written: dict[Holding, int] = {}

    def refuse(self, position: int, equation: BoundEquation, reason: RefusalReason, detail: str) -> None:
        self.h.problems.append(HoldingProblem(position, equation.lhs_symbol_id, Refusal(reason=reason, detail=detail)))

    def run(self, equations: tuple[BoundEquation, ...]) -> None:
        for position, eq in enumerate(equations):
            self.reads(position, eq)
            self.write(position, eq)
        self.transfers(equations)

    def reads(self, position: int, eq: BoundEquation) -> None:
        """Every holding state the equation reads must be that holding's current state."""
        for dep in sorted(eq.dependencies):
            holding = self.h.holding_of.get(dep)
            if holding is None or self.sizes.get(holding, 0) < _PAIR:  # a holding with one state has no history
                continue
            now = self.current.get(holding)
            if now != dep:
                later = f"{now} had already replaced it" if now is not None else "it is not set yet at this point"
                self.refuse(
                    position,
                    eq,
                    "ambiguous_reference",
                    f"{eq.lhs_symbol_id} reads {dep} of {holding.entity}, but {later} (source order)",
                )

    def write(self, position: int, eq: BoundEquation) -> None:
        lhs = eq.lhs_symbol_id
        holding = self.h.holding_of.get(lhs)
        kind = eq.operation_kind
        if kind in UPDATE_KINDS:
            self.kept_kind(position, eq, holding)
        if holding is None:
            return
        previous = self.current.get(holding)
        if kind in UPDATE_KINDS:
            self.update(position, eq, holding, previous)
        elif kind in DECLARING_KINDS and previous is not None:
            self.refuse(
                position,
                eq,
                "redeclared_state",
                f"{lhs} ({kind}) would overwrite {holding.entity}'s holding {previous}: no silent choice between them",
            )
        op = self.ops[position]
        if self.written.get(holding) == op:
            self.refuse(position, eq, "ambiguous_reference", f"operation {op} writes {holding.entity}'s {lhs} twice")
        self.written[holding] = op
        self.current[holding] = lhs
        self.h.timeline.setdefault(holding, []).append((op, lhs))

    def kept_kind(self, position: int, eq: BoundEquation, holding: Holding | None) -> None:
        """An update's own state operand is of the kind it writes (else that holding's later value is unknown)."""
        lhs = self.symbols.get(eq.lhs_symbol_id)
        entity = lhs.entity if lhs is not None else None
        for dep, role in sorted(self.roles.get(eq.lhs_symbol_id, {}).items()):
            read = self.h.holding_of.get(dep)
            if role != "state" or read is None or read.entity != entity or read == holding:
                continue
            if eq.operation_kind in ("divide", "multiply") and holding is not None:
                continue  # a quotient (miles over hours) or a product (feet by feet): a new quantity; the operands stay
            self.refuse(
                position,
                eq,
                "ambiguous_reference",
                f"{eq.lhs_symbol_id} ({eq.operation_kind}) reads {dep} of {read.entity} but does not keep its kind:"
                " the holding it updates would be left behind",
            )

    def update(self, position: int, eq: BoundEquation, holding: Holding, previous: str | None) -> None:
        if previous is not None and previous not in eq.dependencies:
            self.refuse(
                position,
                eq,
                "ambiguous_reference",
                f"{eq.lhs_symbol_id} ({eq.operation_kind}) updates {holding.entity}'s holding without reading its"
                f" current state {previous}",
            )

    def transfers(self, equations: tuple[BoundEquation, ...]) -> None:
        """Each transfer operation is one debit and one credit of the same amount, on two entities."""
        groups: dict[int, list[tuple[int, BoundEquation]]] = {}
        for position, eq in enumerate(equations):
            if eq.operation_kind == "transfer":
                groups.setdefault(self.ops[position], []).append((position, eq))
        for group in groups.values():
            problem = self.transfer_problem([eq for _, eq in group])
            if problem:
                self.refuse(group[0][0], group[0][1], "ambiguous_reference", problem)

    def transfer_problem(self, sides: list[BoundEquation]) -> str:
        first = sides[0].lhs_symbol_id
        if len(sides) != _PAIR:
            return f"transfer {first} has {len(sides)} side(s): a transfer moves an amount from one entity to another"
        owners = [self.symbols[eq.lhs_symbol_id].entity for eq in sides]
        if owners[0] is None or owners[0] == owners[1]:
            return f"transfer {first}: its two sides must belong to two entities"
        deltas = [self.delta(eq) for eq in sides]
        if deltas[0] is None or deltas[1] is None or deltas[0] + deltas[1] != 0:
            return f"transfer {first}: the debit and the credit are not the same amount"
        if sides[0].literal_unit != sides[1].literal_unit:
            return f"transfer {first}: the two sides move amounts in different units"
        return ""

    def delta(self, eq: BoundEquation) -> Fraction | None:
        """What a transfer side adds to its own state (``-7`` for a debit of 7), or None when it is not that shape."""
        roles = self.roles.get(eq.lhs_symbol_id, {})
        own = [dep for dep, role in roles.items() if role == "state"]
        if len(own) > 1 or len(eq.dependencies) != len(own):
            return None
        rhs = eq.rhs
        if not own:
            return as_fraction(rhs) if isinstance(rhs, sympy.Rational) else None
        state = sympy.Symbol(own[0])  # the very symbol: one with assumptions (or a Dummy) is another one
        if isinstance(rhs, sympy.Add) and len(rhs.args) == _PAIR:  # state + c, read off without a sympy subtraction
            constants = [arg for arg in rhs.args if isinstance(arg, sympy.Rational)]
            # only a Symbol can equal the state (comparing it with a number would sympify for nothing)
            if len(constants) == 1 and any(isinstance(arg, sympy.Symbol) and arg == state for arg in rhs.args):
                return as_fraction(constants[0])
        change = rhs - state
        return as_fraction(change) if isinstance(change, sympy.Rational) else None


def operation_indices(equations: tuple[BoundEquation, ...], symbols: Mapping[str, SymbolBinding]) -> list[int]:
    """The source operation of each equation: ``BoundEquation.operation`` when recorded.

    Otherwise each equation is an operation of its own, in tuple order, except that a
    transfer equation right after the other side of a transfer (another entity's) joins
    that operation: the two sides of one transfer are one event.
    """
    out: list[int] = []
    counter = -1
    open_side: str | None = None  # the entity of an unpaired transfer side just before
    for eq in equations:
        if eq.operation is not None:
            out.append(eq.operation)
            continue
        owner = symbols[eq.lhs_symbol_id].entity if eq.lhs_symbol_id in symbols else None
        if eq.operation_kind == "transfer" and open_side is not None and owner != open_side:
            out.append(counter)
            open_side = None
            continue
        counter += 1
        out.append(counter)
        open_side = owner if eq.operation_kind == "transfer" else None
    return out
