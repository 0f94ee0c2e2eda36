"""The exact solve of a binding graph's values (SPEC §4 Values; ADR-0134 amendment).

Facts are read as exact rationals in their symbol's unit; equations are evaluated
by forward substitution in dependency order, over the expression *as written*
(so ``q*z/z`` with ``z = 0`` is a division by zero); what forward substitution
leaves open is solved exactly as a sparse linear system over ``QQ`` with sympy's
``DomainMatrix`` (reduced row echelon form), with certificates: a contradiction is
``inconsistent``, a free symbol ``underdetermined``, a product of unknowns
``nonlinear``.  Every value, forward or solved, passes the same domain checks
(counts whole and non-negative, holdings of length, mass … non-negative,
temperatures above absolute zero, the ``integer`` policy's whole quotients).

Every refusal that is a *root cause* is recorded as a :class:`Problem` with its
stage and source position, so the answerer can name the earliest one; values that
merely depend on a refused one are ``refused_dependency`` and are not problems.
Knows nothing of input formats or of holdings.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    import sympy
else:
    from verifier.lazy import sympy

from units import UnitRef, UnitRefusal, UnitVocabulary
from units.dimension import COUNT, DimensionVector
from units.exact import MAX_DIGITS, format_exact, within_digits
from units.reasons import RefusalReason
from units.vocabulary import check_commensurable
from verifier.admissibility import Refusal, UnitProof, Verdict
from verifier.expr import EvaluationError, as_fraction, evaluate
from verifier.model import BindingGraph, BoundEquation

MAX_VALUE_BITS: Final[int] = 100
"""Largest numerator or denominator bit length of a value (about 30 digits); ``value_out_of_range`` beyond."""

STAGES: Final[tuple[str, ...]] = ("input", "units", "admissibility", "values")
"""Stages in the order root causes are ranked (SPEC §4 Certification): the earliest stage wins."""

SCALING_KINDS: Final[frozenset[str]] = frozenset(
    {"multiply", "divide", "compare_multiplicative", "unit_partition", "fraction_portion"}
)
_COUNT: Final[DimensionVector] = COUNT
_NON_NEGATIVE: Final[frozenset[DimensionVector]] = frozenset(
    DimensionVector.from_axes(axes) for axes in ({"length": 1}, {"length": 2}, {"length": 3}, {"mass": 1}, {"time": 1})
)
"""Dimensions of holdings that cannot be negative (length, area, volume, mass, time; counts are checked apart)."""

_ONE: Final[Fraction] = Fraction(1)


def beyond_value_bits(value: Fraction) -> bool:
    """Whether a value's numerator or denominator has more than :data:`MAX_VALUE_BITS` bits (``value_out_of_range``)."""
    return value.numerator.bit_length() > MAX_VALUE_BITS or value.denominator.bit_length() > MAX_VALUE_BITS


__all__ = [
    "MAX_VALUE_BITS",
    "STAGES",
    "UNCHECKED",
    "Problem",
    "Solution",
    "StepRecord",
    "beyond_value_bits",
    "constraint_unchecked",
    "constraint_violated",
    "solve",
]


@dataclass(frozen=True, slots=True, order=True)
class Problem:
    """A root-cause refusal, ranked by ``(stage, section, position)``.

    Attributes:
        stage: index into :data:`STAGES`.
        section: 0 symbols and facts, 1 equations, 2 constraints (source order across the graph), then
            3 constraints that another problem left unchecked (:data:`UNCHECKED`), ranked after it.
        position: index within the section.
        symbol: the offending symbol.
        equation: the equation it concerns (its lhs), or ``""`` for a fact or symbol.
        refusal: the reason and detail.
    """

    stage: int
    section: int
    position: int
    symbol: str
    equation: str = field(default="", compare=False)
    refusal: Refusal = field(default=Refusal(reason="malformed_input", detail=""), compare=False)

    def where(self) -> str:
        """``"equation op_001_result"``, ``"fact q_ana_feet_t0"`` or ``"symbol x"``."""
        if self.equation:
            return f"equation {self.equation}"
        return f"{('symbol', 'symbol', 'constraint on', 'constraint on')[self.section]} {self.symbol}"


@dataclass(frozen=True, slots=True)
class StepRecord:
    """One computed value, for the trace: what was evaluated, from what, with which factors."""

    action: str
    target: str
    formula: str
    factors: tuple[tuple[str, Fraction], ...]
    inputs: tuple[tuple[str, Fraction], ...]
    value: Fraction | None
    unit: str | None
    note: str


@dataclass(slots=True)
class Solution:
    """What the solve found: values, refusals by symbol, root-cause problems and the steps taken."""

    values: dict[str, Fraction] = field(default_factory=dict)
    units: dict[str, UnitRef | None] = field(default_factory=dict)
    refusals: dict[str, Refusal] = field(default_factory=dict)
    roots: dict[str, Problem] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)
    steps: list[StepRecord] = field(default_factory=list)


def solve(
    graph: BindingGraph,
    verdicts: Mapping[str, Verdict],
    declared: Mapping[str, UnitRef | None],
    vocab: UnitVocabulary,
    policy: str,
) -> Solution:
    """Solve every value of ``graph`` exactly (see the module docstring).

    Args:
        graph: the binding graph.
        verdicts: lhs → the equation's admissibility verdict.
        declared: symbol id → its declared unit, resolved (``None``: none, or it did not resolve).
        vocab: the unit vocabulary (for exact conversions of facts).
        policy: ``"count_exact"`` or ``"integer"``.
    """
    run = _Run(graph, verdicts, declared, vocab, policy)
    run.facts()
    pending = run.forward()
    if pending:
        run.linear(pending)
    run.constraints()
    run.propagate()
    return run.out


def constraint_violated(name: str, value: Fraction, predicate: str) -> Refusal:
    """The ``inconsistent`` refusal of a value that breaks a constraint (``x = 8 violates the constraint x == 7``)."""
    return Refusal(reason="inconsistent", detail=f"{name} = {format_exact(value)} violates the constraint {predicate}")


UNCHECKED: Final[int] = 3
"""The :class:`Problem` section of a constraint another problem left unchecked: ranked after every problem.

Its symbol's value (or answer) was refused because of that problem, which is the root
cause (``q == 4`` broken refuses the answer that ``unknown == 8`` reads).  A constraint
unchecked for no other problem (an entity, a symbol nothing fixes, a question that cannot
be answered) is a defect of its own, in section 2 and source order.
"""


def constraint_unchecked(name: str, predicate: str, refused: Refusal | None) -> Refusal:
    """The refusal of a constraint on a symbol with no value: it cannot be checked, so the graph is not sound.

    Args:
        name: the constrained symbol.
        predicate: the constraint as written.
        refused: why the symbol has no value (its value's or its answer's refusal, whose
            reason is kept: ``state_unset``, ``inconsistent`` ...), or ``None`` when nothing
            fixes it (an entity; a symbol with no fact or equation): ``underdetermined``.
    """
    if refused is None:
        return Refusal(
            reason="underdetermined", detail=f"nothing fixes {name}, so its constraint {predicate} cannot be checked"
        )
    return Refusal(
        reason=refused.reason,
        detail=f"{name} has no value, so its constraint {predicate} cannot be checked: {refused.detail}",
    )


class _Run:
    """State of one :func:`solve` (private)."""

    def __init__(
        self,
        graph: BindingGraph,
        verdicts: Mapping[str, Verdict],
        declared: Mapping[str, UnitRef | None],
        vocab: UnitVocabulary,
        policy: str,
    ) -> None:
        self.graph = graph
        self.verdicts = verdicts
        self.declared = declared
        self.vocab = vocab
        self.policy = policy
        self.out = Solution()
        self.by_lhs = {eq.lhs_symbol_id: eq for eq in graph.equations}
        self.position = {eq.lhs_symbol_id: i for i, eq in enumerate(graph.equations)}
        self.stated: dict[str, Fraction] = {}
        self.symbols = graph.symbols_by_id
        self._order: list[BoundEquation] | None = None

    # ------------------------------------------------------------ refusals
    def problem(self, name: str, section: int, position: int, refusal: Refusal, equation: str = "") -> None:
        """Record a root cause (values stage) and refuse ``name``."""
        problem = Problem(3, section, position, name, equation, refusal)
        self.out.problems.append(problem)
        self.refuse(name, refusal, problem)

    def refuse(self, name: str, refusal: Refusal, root: Problem | None) -> None:
        if name in self.out.refusals:
            return
        self.out.refusals[name] = refusal
        if root is not None:
            self.out.roots[name] = root
        self.out.values.pop(name, None)
        eq = self.by_lhs.get(name)  # a refused step still shows what it would have computed
        formula = eq.rhs_canonical if eq is not None else ""
        self.out.steps.append(StepRecord("refuse", name, formula, (), (), None, None, str(refusal)))

    def equation_problem(self, eq: BoundEquation, refusal: Refusal) -> None:
        self.problem(eq.lhs_symbol_id, 1, self.position[eq.lhs_symbol_id], refusal, eq.lhs_symbol_id)

    def depend(self, name: str, bad: str) -> None:
        root = self.out.roots.get(bad)
        if root is not None:
            cause = f"{root.symbol} ({root.refusal.reason}: {root.refusal.detail})"
        else:
            cause = f"{bad} ({self.out.refusals[bad].reason})"
        self.refuse(name, Refusal(reason="refused_dependency", detail=f"depends on {bad}; cause: {cause}"[:400]), root)

    # ------------------------------------------------------------ facts
    def facts(self) -> None:
        for i, fact in enumerate(self.graph.facts):
            name = fact.symbol_id
            ref = self.declared.get(name)
            value = self.fact_value(i, fact.magnitude, fact.unit, name, ref)
            if value is None or name in self.out.refusals:
                continue
            if name in self.stated and self.stated[name] != value:
                detail = f"two facts give {name} the values {format_exact(self.stated[name])} and {format_exact(value)}"
                self.problem(name, 0, i, Refusal(reason="inconsistent", detail=detail))
                continue
            self.stated[name] = value
            bad = self.domain(name, value, ref, None)
            if bad is not None:
                self.problem(name, 0, i, bad)
                continue
            self.out.values[name] = value
            self.out.units[name] = ref
            self.out.steps.append(StepRecord("fact", name, "", (), (), value, _surface(ref), ""))

    def fact_value(self, i: int, value: Fraction, unit: str | None, name: str, ref: UnitRef | None) -> Fraction | None:
        """The fact's value in its symbol's unit (converted exactly), or None when refused."""
        declared_text = self.symbols[name].unit
        if unit is None or unit == declared_text:
            return value
        try:
            fref = self.vocab.resolve(unit, path=f"facts[{name}].unit")
            if ref is not None:
                check_commensurable(fref, ref)
                if fref.is_offset or ref.is_offset:
                    return self.vocab.convert(value, fref.lemma, ref.lemma)
                return value * fref.scale / ref.scale
            if fref.kind == () and declared_text is None:
                return value * fref.scale  # "15 percent" on a unitless ratio is the number 3/20
            detail = f"the fact gives {name} the unit {unit!r}, but the symbol carries {declared_text!r}"
            self.problem(name, 0, i, Refusal(reason="unit_mismatch", detail=detail))
        except UnitRefusal as exc:
            self.problem(name, 0, i, Refusal.from_error(exc))
        return None

    # ------------------------------------------------------------ domain
    def domain(self, name: str, value: Fraction, ref: UnitRef | None, kind: str | None) -> Refusal | None:
        """Range and count checks of one value (``kind``: the producing equation's kind, if any)."""
        if beyond_value_bits(value):
            return Refusal(reason="value_out_of_range", detail=f"{name} has more than {MAX_VALUE_BITS} bits")
        if ref is None:
            return None
        if ref.dimension == _COUNT:
            return _count_problem(name, value, ref, kind)
        if value.numerator < 0 and ref.dimension in _NON_NEGATIVE:  # a Fraction's sign is its numerator's
            return Refusal(
                reason="negative_quantity",
                detail=f"{name} = {format_exact(value)} {ref.surface}: a holding of {ref.dimension} cannot be negative",
            )
        if ref.kind == (("[temperature]", 1),):
            kelvin = self.vocab.convert(value, ref.lemma, "Kelvin") if ref.is_offset else value * ref.scale
            if kelvin < 0:
                return Refusal(
                    reason="value_out_of_range",
                    detail=f"{name} = {format_exact(value)} {ref.surface} is below absolute zero",
                )
        return None

    # ------------------------------------------------------------ forward substitution
    def order(self) -> list[BoundEquation]:
        """Equations in dependency order (each after the equations defining its inputs), worked out once per solve."""
        if self._order is None:
            graph = self.graph  # in source order, that order is the dependency order (no search)
            self._order = list(graph.equations) if graph.equations_in_dependency_order else self._dependency_order()
        return self._order

    def _dependency_order(self) -> list[BoundEquation]:
        done: set[str] = set()
        out: list[BoundEquation] = []
        for root in self.graph.equations:
            stack: list[tuple[BoundEquation, bool]] = [(root, False)]
            while stack:
                eq, expanded = stack.pop()
                if eq.lhs_symbol_id in done:
                    continue
                if expanded:
                    done.add(eq.lhs_symbol_id)
                    out.append(eq)
                    continue
                stack.append((eq, True))
                stack.extend(
                    (self.by_lhs[dep], False)
                    for dep in sorted(eq.dependencies, reverse=True)
                    if dep in self.by_lhs and dep not in done
                )
        return out

    def forward(self) -> list[BoundEquation]:
        """Evaluate every equation whose inputs are known; return the ones left open."""
        pending: list[BoundEquation] = []
        values = self.out.values
        for eq in self.order():
            lhs = eq.lhs_symbol_id
            verdict = self.verdicts[lhs]
            if verdict.proof is None:
                self.refuse(lhs, verdict.refusal or Refusal(reason="malformed_input", detail="refused"), None)
                continue
            bad = next((d for d in sorted(eq.dependencies) if d in self.out.refusals), None)
            if bad is not None:
                self.depend(lhs, bad)
                continue
            divisor = self.divisor_problem(eq, verdict.proof)
            if divisor is not None:
                self.equation_problem(eq, divisor)
                continue
            if all(d in values for d in eq.dependencies):
                self.compute(eq, verdict.proof)
            else:
                pending.append(eq)
        return pending

    def divisor_problem(self, eq: BoundEquation, proof: UnitProof) -> Refusal | None:
        """A known divisor or chunk that is zero, or not whole under the integer policy, whether or not the rest is known."""
        for op in proof.operands:
            if op.role not in ("divisor", "chunk") or op.symbol_id not in self.out.values:
                continue
            value = self.out.values[op.symbol_id] * op.factor
            if value == 0:
                return Refusal(
                    reason="division_by_zero", detail=f"{eq.lhs_symbol_id}: the divisor {op.symbol_id} is zero"
                )
            if self.policy == "integer" and value.denominator != 1:
                return Refusal(
                    reason="non_exact_division",
                    detail=f"{eq.lhs_symbol_id}: the divisor {op.symbol_id} = {format_exact(value)} is not whole (integer policy)",
                )
        return None

    def compute(self, eq: BoundEquation, proof: UnitProof) -> None:
        lhs = eq.lhs_symbol_id
        factors = proof.factors
        values = self.out.values
        frame = {
            d: values[d] if d not in factors or factors[d] == 1 else values[d] * factors[d] for d in eq.dependencies
        }
        try:
            value = evaluate(eq.rhs, frame, constant_scale=factors.get("<literal>", _ONE))
        except EvaluationError as exc:
            self.equation_problem(eq, Refusal(reason=exc.reason, detail=f"{lhs}: {exc.detail}"))
            return
        if not self.accept(eq, proof, value, frame):
            return
        self.out.steps.append(
            StepRecord(
                "equation",
                lhs,
                eq.rhs_canonical,
                tuple((k, v) for k, v in sorted(factors.items()) if v != 1),
                tuple((d, self.out.values[d]) for d in sorted(eq.dependencies)),
                value,
                _surface(proof.result_ref),
                eq.operation_kind,
            )
        )

    def accept(self, eq: BoundEquation, proof: UnitProof, value: Fraction, frame: Mapping[str, Fraction]) -> bool:
        """Check a computed value against a stated fact and its domain; store it when it passes."""
        lhs = eq.lhs_symbol_id
        stated = self.stated.get(lhs)
        if stated is not None and stated != value:  # a contradiction outranks any domain refusal
            detail = f"{lhs} is stated as {format_exact(stated)} but its equation gives {format_exact(value)}"
            self.equation_problem(eq, Refusal(reason="inconsistent", detail=detail))
            return False
        problem = self.check_result(eq, proof, value, frame)
        if problem is not None:
            self.equation_problem(eq, problem)
            return False
        self.out.values[lhs] = value
        self.out.units[lhs] = proof.result_ref
        return True

    def check_result(
        self, eq: BoundEquation, proof: UnitProof, value: Fraction, frame: Mapping[str, Fraction]
    ) -> Refusal | None:
        kind = eq.operation_kind
        lhs = eq.lhs_symbol_id
        divisors = [op.symbol_id for op in proof.operands if op.role in ("divisor", "chunk")]
        for divisor in divisors:
            if frame.get(divisor) == 0:
                return Refusal(reason="division_by_zero", detail=f"{lhs}: the divisor {divisor} is zero")
            if self.policy == "integer" and divisor in frame and frame[divisor].denominator != 1:
                return Refusal(
                    reason="non_exact_division",
                    detail=f"{lhs}: the divisor {divisor} = {format_exact(frame[divisor])} is not whole (integer policy)",
                )
        if kind == "unit_partition" and value.denominator != 1:
            return Refusal(
                reason="non_exact_division",
                detail=f"{lhs}: {format_exact(value)} chunks is not a whole number of parts",
            )
        if kind == "unit_partition" and value <= 0:
            return Refusal(
                reason="value_out_of_range", detail=f"{lhs}: a partition makes a positive number of parts, not {value}"
            )
        bad = self.domain(lhs, value, proof.result_ref, kind)
        if bad is None and self.policy == "integer" and value.denominator != 1:
            return Refusal(
                reason="non_exact_division",
                detail=f"{lhs} = {format_exact(value)} is not whole (integer policy: every value is whole)",
            )
        return bad

    # ------------------------------------------------------------ linear solve
    def linear(self, pending: list[BoundEquation]) -> None:
        """Exact sparse linear solving of what forward substitution left open (with certificates)."""
        rows: list[tuple[BoundEquation, dict[str, Fraction], Fraction]] = []
        for eq in pending:
            proof = self.verdicts[eq.lhs_symbol_id].proof
            if proof is None:
                continue
            form = self.linear_form(eq, proof)
            if form is not None:
                rows.append((eq, *form))
        if len(rows) != len(pending):
            return
        names = sorted({n for _, coeffs, _ in rows for n in coeffs})
        system = "; ".join(f"{eq.lhs_symbol_id} := {eq.rhs_canonical}" for eq, _, _ in rows)
        solved = _rref(rows, names)
        if solved is None:
            for eq, _, _ in rows:
                self.equation_problem(
                    eq, Refusal(reason="inconsistent", detail=f"the equations contradict each other: {system}"[:400])
                )
            return
        for name in names:
            if name not in solved:
                self.refuse(
                    name,
                    Refusal(reason="underdetermined", detail=f"{name} is not fixed by the equations ({system})"[:400]),
                    None,
                )
        if self.solved_out_of_range(names, solved) or self.certificate_too_wide(rows, names, solved):
            return
        self.out.values.update(solved)
        certificate = "; ".join(
            _certificate(coeffs, const) for _, coeffs, const in rows if coeffs and set(coeffs) <= set(solved)
        )
        self.out.steps.append(
            StepRecord(
                "solve",
                ",".join(sorted(solved)),
                certificate,
                (),
                tuple(sorted(solved.items())),
                None,
                None,
                f"exact linear solve of {len(rows)} equations in {len(names)} unknowns",
            )
        )
        self.check_solved(rows, solved)

    def solved_out_of_range(self, names: list[str], solved: Mapping[str, Fraction]) -> bool:
        """Refuse a system whose solution holds a value beyond :data:`MAX_VALUE_BITS`, as a whole (True if so).

        Its values were solved together, so none is kept, and no ``solve`` step records
        them: a value beyond the bound is no trace input (a forward value beyond it is
        refused before it is recorded too, and a report's numbers must read back).  Each
        value beyond the bound is a root cause; the others are ``refused_dependency``.
        """
        index = {sym.symbol_id: i for i, sym in enumerate(self.graph.symbols)}
        over = [n for n in names if n in solved and self.domain(n, solved[n], None, None) is not None]
        if not over:
            return False
        for name in over:
            self.problem(
                name,
                0,
                index.get(name, len(index)),
                Refusal(
                    reason="value_out_of_range",
                    detail=f"{name} has more than {MAX_VALUE_BITS} bits (an exact linear solve)",
                ),
            )
        for name in names:
            if name in solved and name not in over:
                self.depend(name, over[0])
        return True

    def certificate_too_wide(
        self,
        rows: list[tuple[BoundEquation, dict[str, Fraction], Fraction]],
        names: list[str],
        solved: Mapping[str, Fraction],
    ) -> bool:
        """Refuse a system whose equations, as the ``solve`` step would write them, hold a number over 40 digits a side.

        A constant converted into its holding's unit (a delta of 40 digits a side, in hours,
        over minutes) can outgrow what :func:`verifier.values.replay` reads back, though
        the values solved are small: refused as a whole, as :meth:`solved_out_of_range`.
        """
        numbers = (n for _, coeffs, const in rows for n in (*coeffs.values(), const))
        if all(within_digits(n.numerator, n.denominator) for n in numbers):
            return False
        first = rows[0][0]
        self.equation_problem(
            first,
            Refusal(
                reason="value_out_of_range",
                detail=f"the exact linear solve of {first.lhs_symbol_id} would write a number of more than"
                f" {MAX_DIGITS} digits a side (a constant converted into its holding's unit)",
            ),
        )
        for name in names:
            if name in solved and name != first.lhs_symbol_id:
                self.depend(name, first.lhs_symbol_id)
        return True

    def check_solved(
        self, rows: list[tuple[BoundEquation, dict[str, Fraction], Fraction]], solved: dict[str, Fraction]
    ) -> None:
        """Every linearly solved value passes the domain checks a forward value passes (the solved symbols first)."""
        index = {sym.symbol_id: i for i, sym in enumerate(self.graph.symbols)}
        for name in sorted(solved, key=lambda n: index.get(n, len(index))):
            if name in self.out.refusals or name in self.by_lhs:
                continue
            ref = self.declared.get(name)
            self.out.units[name] = ref
            bad = self.domain(name, solved[name], ref, None)
            if bad is None and self.policy == "integer" and solved[name].denominator != 1:
                bad = Refusal(
                    reason="non_exact_division",
                    detail=f"{name} = {format_exact(solved[name])} is not whole (integer policy)",
                )
            if bad is not None:
                self.problem(name, 0, index.get(name, len(index)), bad)
        for eq, _, _ in rows:
            lhs = eq.lhs_symbol_id
            proof = self.verdicts[lhs].proof
            if proof is None or lhs not in self.out.values or not all(d in self.out.values for d in eq.dependencies):
                continue
            self.out.units[lhs] = proof.result_ref
            frame = {d: self.out.values[d] * proof.factors.get(d, Fraction(1)) for d in eq.dependencies}
            problem = self.check_result(eq, proof, self.out.values[lhs], frame)
            if problem is not None:
                self.equation_problem(eq, problem)

    def linear_form(self, eq: BoundEquation, proof: UnitProof) -> tuple[dict[str, Fraction], Fraction] | None:
        """``lhs - rhs`` as ``(coefficients, constant)`` over the unknown symbols, or None (refused)."""
        factors = proof.factors
        lhs = eq.lhs_symbol_id
        try:
            coeffs, const = _form(eq.rhs, self.out.values, factors, factors.get("<literal>", Fraction(1)), top=True)
        except EvaluationError as exc:
            self.equation_problem(eq, Refusal(reason=exc.reason, detail=f"{lhs}: {exc.detail}"))
            return None
        if coeffs is None:
            self.equation_problem(
                eq, Refusal(reason="nonlinear", detail=f"{lhs}: what is left after substitution is not linear")
            )
            return None
        # lhs - rhs = 0, i.e. lhs - sum(c * x) = const; a known lhs moves to the right-hand side
        out = {name: -c for name, c in coeffs.items()}
        if lhs in self.out.values:
            const = const - self.out.values[lhs]
        else:
            out[lhs] = out.get(lhs, Fraction(0)) + 1
        return {k: v for k, v in out.items() if v != 0}, const

    # ------------------------------------------------------------ constraints and propagation
    def constraints(self) -> None:
        """Check each constraint on a solved value; one on a symbol with no value is refused, never dropped.

        A constraint on an unknown's symbol is checked against its answer, which the
        holdings give (:func:`verifier.values.verify`).  Any other symbol with no value (an
        entity, one nothing fixes, one refused) leaves its constraint unchecked, and the
        graph is refused (:func:`constraint_unchecked`).
        """
        asked = {unknown.symbol_id for unknown in self.graph.unknowns}
        for i, con in enumerate(self.graph.constraints):
            name = con.symbol_id
            value = self.out.values.get(name)
            if value is not None:
                if not con.holds(value):
                    self.problem(name, 2, i, constraint_violated(name, value, con.predicate))
            elif name not in asked:
                refusal = constraint_unchecked(name, con.predicate, self.out.refusals.get(name))
                self.problem(name, UNCHECKED if name in self.out.roots else 2, i, refusal)  # caused, or a defect

    def propagate(self) -> None:
        """Refuse every value downstream of a refused one (``refused_dependency``)."""
        for eq in self.order():
            lhs = eq.lhs_symbol_id
            if lhs in self.out.refusals:
                continue
            bad = next((d for d in sorted(eq.dependencies) if d in self.out.refusals), None)
            if bad is not None:
                self.depend(lhs, bad)


_Form = tuple[dict[str, Fraction] | None, Fraction]


def _form(
    node: sympy.Expr, known: Mapping[str, Fraction], factors: Mapping[str, Fraction], literal: Fraction, *, top: bool
) -> _Form:
    """A linear form of ``node``: ``(coefficients by unknown, constant)``; coefficients None when not linear.

    Known symbols are substituted (scaled by their frame factors); the additive constant
    of the top-level sum is scaled by ``literal`` (as :func:`verifier.expr.evaluate` does).

    Raises:
        EvaluationError: ``division_by_zero`` for a zero denominator.
    """
    if isinstance(node, sympy.Symbol):
        name = node.name
        scale = factors.get(name, Fraction(1))
        if name in known:
            return {}, known[name] * scale
        return {name: scale}, Fraction(0)
    if isinstance(node, sympy.Rational):
        value = as_fraction(node)
        return {}, value * literal if top else value
    if isinstance(node, sympy.Add):
        return _sum(
            [_form(arg, known, factors, literal, top=top and isinstance(arg, sympy.Rational)) for arg in node.args]
        )
    if isinstance(node, sympy.Mul):
        return _product([_form(arg, known, factors, literal, top=False) for arg in node.args])
    if isinstance(node, sympy.Pow):
        return _power(_form(node.base, known, factors, literal, top=False), int(node.exp), node.base)
    raise EvaluationError("unsafe_expression", f"{type(node).__name__} cannot be solved")


def _sum(parts: list[_Form]) -> _Form:
    """The sum of linear forms, linear only when every term is."""
    coeffs: dict[str, Fraction] | None = {}
    const = Fraction(0)
    for sub, c in parts:
        if sub is None or coeffs is None:
            coeffs = None
        else:
            for k, v in sub.items():
                coeffs[k] = coeffs.get(k, Fraction(0)) + v
        const += c
    return coeffs, const


def _power(base: _Form, exp: int, base_node: sympy.Expr) -> _Form:
    """A linear form to a whole power: linear only for a known base or the first power.

    Raises:
        EvaluationError: ``division_by_zero`` for a negative power of a zero base.
    """
    coeffs, const = base
    if coeffs:
        return (coeffs, const) if exp == 1 else (None, Fraction(0))
    if coeffs is None:
        return None, Fraction(0)
    if exp < 0 and const == 0:
        raise EvaluationError("division_by_zero", f"{base_node} is zero")
    return {}, const**exp


def _product(parts: list[_Form]) -> _Form:
    """The product of linear forms, linear only when at most one factor holds an unknown."""
    coeffs: dict[str, Fraction] = {}
    const = Fraction(1)
    linear = False
    for sub, c in parts:
        if sub is None:
            return None, Fraction(0)
        if sub:
            if linear:
                return None, Fraction(0)
            linear = True
            coeffs = {k: v * const for k, v in sub.items()}
            const = c * const
            continue
        coeffs = {k: v * c for k, v in coeffs.items()}
        const *= c
    return coeffs, const


def _count_problem(name: str, value: Fraction, ref: UnitRef, kind: str | None) -> Refusal | None:
    """A count is whole and not negative, in its root unit (a kind declared divisible takes 3/4: SPEC §5)."""
    in_root = value if ref.scale == 1 else value * ref.scale
    if in_root.numerator < 0:  # a Fraction's sign is its numerator's (its denominator is positive)
        return Refusal(
            reason="negative_count", detail=f"{name} = {format_exact(value)} {ref.surface} is a negative count"
        )
    if in_root.denominator != 1 and not ref.divisible:
        reason: RefusalReason = "non_exact_division" if kind in SCALING_KINDS else "non_integer_count"
        return Refusal(reason=reason, detail=f"{name} = {format_exact(value)} {ref.surface} is not a whole count")
    return None


def _rref(
    rows: list[tuple[BoundEquation, dict[str, Fraction], Fraction]], names: list[str]
) -> dict[str, Fraction] | None:
    """Solve the sparse system exactly (sympy ``DomainMatrix`` over QQ): determined values, or None if inconsistent."""
    qq = sympy.polys.domains.QQ  # the rational field

    column = {name: j for j, name in enumerate(names)}
    width = len(names)
    data = {}
    for i, (_, coeffs, const) in enumerate(rows):
        row = {column[n]: qq(c.numerator, c.denominator) for n, c in coeffs.items()}
        if const != 0:
            row[width] = qq(const.numerator, const.denominator)
        if row:
            data[i] = row
    reduced, pivots = sympy.polys.matrices.DomainMatrix(data, (len(rows), width + 1), qq).rref()
    if width in pivots:
        return None
    sdm = reduced.to_sdm()
    pivot_set = set(pivots)
    out: dict[str, Fraction] = {}
    for i, j in enumerate(pivots):
        row = sdm.get(i, {})
        if any(k not in {j, width} and k not in pivot_set for k in row):
            continue  # tied to a free symbol
        value = row.get(width, qq(0))
        out[names[j]] = Fraction(int(value.numerator), int(value.denominator))
    return out


def _certificate(coeffs: Mapping[str, Fraction], const: Fraction) -> str:
    """``(c1)*a + (c2)*b - (k)``: a row of the solved system, zero at the solution (replayable text)."""
    terms = " + ".join(f"({format_exact(c)})*{name}" for name, c in sorted(coeffs.items()))
    return f"{terms} - ({format_exact(const)})"


def _surface(ref: UnitRef | None) -> str | None:
    return ref.surface if ref is not None else None
