"""Exact values and answers of a binding graph (SPEC §4 Values, Question targets; ADR-0134 amendment).

``verify`` checks every equation's admissibility, reads every fact as an exact
rational, solves the equations by forward substitution in dependency order and
hands whatever is left to sympy's exact linear solving (with a certificate:
unique, ``underdetermined``, ``inconsistent`` or ``nonlinear``), checks the
value domain (counts are whole and non-negative; a division that must be whole
is exact, never floored), and answers each unknown from its entity's state at
the asked state index — or refuses with a typed reason.  Knows nothing of input
formats.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Final

import sympy

from units import UnitRef, UnitRefusal, UnitVocabulary, default_vocabulary
from units._numbers import format_exact
from units.dimension import DimensionVector
from units.vocabulary import check_commensurable
from verifier._expr import EvaluationError, evaluate, parse_expression, rational, symbol
from verifier.admissibility import Refusal, UnitProof, Verdict, check_equation
from verifier.errors import BindingGraphError
from verifier.model import BindingGraph, BoundEquation, OperationIndex, StateIndex, state_index_text
from verifier.targets import QuestionTargetError, entities, resolve_target

POLICIES: Final[frozenset[str]] = frozenset({"count_exact", "integer"})
"""``count_exact``: counts are whole and divisions into counts exact.  ``integer``: also every
quotient integral, with a whole non-zero divisor (the upstream relational oracle's rule)."""

MAX_VALUE_BITS: Final[int] = 100
"""Largest numerator or denominator bit length of a value (about 30 digits); ``value_out_of_range`` beyond."""

SCALING_KINDS: Final[frozenset[str]] = frozenset(
    {"multiply", "divide", "compare_multiplicative", "unit_partition", "fraction_portion"}
)
QUOTIENT_KINDS: Final[frozenset[str]] = frozenset({"divide", "unit_partition", "fraction_portion"})
_COUNT: Final[DimensionVector] = DimensionVector.from_axes({"count": 1})
_NON_NEGATIVE: Final[frozenset[DimensionVector]] = frozenset(
    DimensionVector.from_axes(axes) for axes in ({"length": 1}, {"length": 2}, {"length": 3}, {"mass": 1}, {"time": 1})
)
"""Dimensions of holdings that cannot be negative (length, area, volume, mass, time; counts are checked apart)."""
_TEMPERATURE: Final[DimensionVector] = DimensionVector.from_axes({"temperature": 1})
_KIND_KEEPING: Final[frozenset[str]] = frozenset(
    {"add", "subtract", "transfer", "multiply", "divide", "fraction_portion"}
)
"""Operations whose result is the same kind of holding as the state they update (SPEC §5)."""


@dataclass(frozen=True, slots=True)
class Value:
    """An exact solved value: ``magnitude`` (``sympy.Rational``) in ``unit`` (a surface or lemma; ``None`` for a pure number)."""

    magnitude: sympy.Rational
    unit: str | None

    def __str__(self) -> str:
        return f"{self.magnitude}" + (f" {self.unit}" if self.unit else "")

    def to_json(self) -> dict[str, object]:
        """``{"magnitude": "7/2", "unit": "feet"}``."""
        return {"magnitude": str(self.magnitude), "unit": self.unit}


@dataclass(frozen=True, slots=True)
class Answer:
    """The answer to one unknown.

    Attributes:
        value: exact ``sympy.Rational``.
        unit: the unit it is given in (the unit asked).
        question_form: the ADR-0135 form (``count``, ``total``, ``ratio`` …).
        state_index: ``"initial"``, ``"terminal"`` or :class:`~verifier.model.OperationIndex`.
    """

    value: sympy.Rational
    unit: str | None
    question_form: str
    state_index: StateIndex

    def __str__(self) -> str:
        return f"{self.value}" + (f" {self.unit}" if self.unit else "")

    def to_json(self) -> dict[str, object]:
        """Plain JSON data."""
        return {
            "value": str(self.value),
            "unit": self.unit,
            "question_form": self.question_form,
            "state_index": state_index_text(self.state_index),
        }


@dataclass(frozen=True, slots=True)
class TraceStep:
    """One step of the solution, replayable from the recorded data alone.

    Attributes:
        action: ``fact``, ``equation``, ``solve``, ``answer`` or ``refuse``.
        target: the symbol (or unknown) the step sets.
        formula: canonical expression text (``equation``: the rhs; ``answer``: a sum of states).
        factors: exact frame factors by input name (``<literal>`` scales the constant term).
        inputs: the exact input values used, by name.
        value: the exact result (``"7/2"``), or ``""`` for a refusal.
        unit: the unit of ``value``.
        note: a reason or remark.
    """

    action: str
    target: str
    formula: str = ""
    factors: tuple[tuple[str, str], ...] = ()
    inputs: tuple[tuple[str, str], ...] = ()
    value: str = ""
    unit: str | None = None
    note: str = ""

    def to_json(self) -> dict[str, object]:
        """Plain JSON data."""
        return {
            "action": self.action,
            "target": self.target,
            "formula": self.formula,
            "factors": dict(self.factors),
            "inputs": dict(self.inputs),
            "value": self.value,
            "unit": self.unit,
            "note": self.note,
        }


class ReplayError(AssertionError):
    """A trace that does not reproduce its own recorded values."""


def replay(trace: tuple[TraceStep, ...]) -> dict[str, Fraction]:
    """Recompute every value of a trace from its recorded formulas and inputs.

    Returns:
        The recomputed values by target.

    Raises:
        ReplayError: when a step's recomputed value differs from the recorded one, or a
            ``solve`` step's values do not satisfy its recorded equations.
    """
    values: dict[str, Fraction] = {}
    for step in trace:
        if step.action == "refuse":
            continue
        if step.action == "fact":
            values[step.target] = _parse(step.value)
            continue
        if step.action == "solve":
            for name, text in step.inputs:
                values[name] = _parse(text)
            for line in step.formula.split(";"):
                if line.strip() and evaluate(parse_expression(line.strip()), values) != 0:
                    raise ReplayError(f"solve step: {line.strip()} != 0 with the recorded solution")
            continue
        factors = {name: _parse(text) for name, text in step.factors}
        frame = {name: values[name] * factors.get(name, Fraction(1)) for name, _ in step.inputs}
        for name, text in step.inputs:
            if values.get(name) != _parse(text):
                raise ReplayError(f"{step.target}: input {name} is {values.get(name)}, recorded {text}")
        got = evaluate(parse_expression(step.formula), frame, constant_scale=factors.get("<literal>", Fraction(1)))
        if got != _parse(step.value):
            raise ReplayError(f"{step.target}: recomputed {got}, recorded {step.value}")
        values[step.target] = got
    return values


def _parse(text: str) -> Fraction:
    return Fraction(text)  # our own format_exact output: "a" or "a/b"


@dataclass(frozen=True, slots=True)
class GraphReport:
    """Everything ``verify`` found about one graph.

    Attributes:
        verdicts: ``lhs_symbol_id`` → :class:`~verifier.admissibility.Verdict`.
        values: ``symbol_id`` → :class:`Value` for every solved symbol.
        refusals: ``symbol_id`` → :class:`~verifier.admissibility.Refusal` for every refused symbol.
        answers: unknown ``symbol_id`` → :class:`Answer` or :class:`Refusal`.
        trace: the ordered steps; :meth:`replay` recomputes them.
        policy: the division policy used.
    """

    verdicts: Mapping[str, Verdict]
    values: Mapping[str, Value]
    refusals: Mapping[str, Refusal]
    answers: Mapping[str, Answer | Refusal]
    trace: tuple[TraceStep, ...] = field(repr=False)
    policy: str = "count_exact"

    def replay(self) -> dict[str, Fraction]:
        """Recompute the trace (see :func:`replay`) and check it reproduces every answer.

        Raises:
            ReplayError: on any mismatch.
        """
        values = replay(self.trace)
        for name, answer in self.answers.items():
            if isinstance(answer, Answer) and values.get(name) != Fraction(int(answer.value.p), int(answer.value.q)):
                raise ReplayError(f"answer {name}: replayed {values.get(name)}, reported {answer.value}")
        return values

    def lines(self) -> list[str]:
        """One readable line per equation and per answer."""
        out = []
        for lhs, verdict in self.verdicts.items():
            value = self.values.get(lhs)
            tail = (
                f" = {value}"
                if value is not None
                else (
                    f"; value refused {self.refusals[lhs]}"
                    if lhs in self.refusals and verdict.status == "admitted"
                    else ""
                )
            )
            out.append(f"{lhs}: {verdict}{tail}")
        for name, answer in self.answers.items():
            out.append(f"answer {name}: {answer}" if isinstance(answer, Answer) else f"answer {name}: refused {answer}")
        return out

    def __repr__(self) -> str:
        admitted = sum(v.status == "admitted" for v in self.verdicts.values())
        answers = "; ".join(
            f"{k} = {a}" if isinstance(a, Answer) else f"{k} refused {a.reason}" for k, a in self.answers.items()
        )
        return (
            f"GraphReport({len(self.verdicts)} equations, {admitted} admitted; "
            f"{len(self.values)} values, {len(self.refusals)} refused; answers: {answers or 'none'})"
        )

    def to_json(self) -> dict[str, object]:
        """Plain JSON data: verdicts, values, refusals, answers and the trace."""
        return {
            "policy": self.policy,
            "verdicts": {k: v.to_json() for k, v in self.verdicts.items()},
            "values": {k: v.to_json() for k, v in self.values.items()},
            "refusals": {k: r.to_json() for k, r in self.refusals.items()},
            "answers": {
                k: ({"answer": a.to_json()} if isinstance(a, Answer) else {"refusal": a.to_json()})
                for k, a in self.answers.items()
            },
            "trace": [s.to_json() for s in self.trace],
        }


class _Solver:
    """State of one ``verify`` run (private)."""

    def __init__(self, graph: BindingGraph, vocab: UnitVocabulary, policy: str) -> None:
        self.graph = graph
        self.vocab = vocab
        self.policy = policy
        self.symbols = graph.symbol_map
        self.values: dict[str, Fraction] = {}
        self.units: dict[str, UnitRef | None] = {}
        self.refusals: dict[str, Refusal] = {}
        self.roots: dict[str, Refusal] = {}  # the root-cause refusal behind each refused symbol
        self.trace: list[TraceStep] = []
        self.verdicts: dict[str, Verdict] = {}
        self.by_lhs: dict[str, BoundEquation] = {eq.lhs_symbol_id: eq for eq in graph.equations}
        self._reads: dict[tuple[str, frozenset[str]], frozenset[str]] = {}
        self._order: list[BoundEquation] | None = None
        self._holdings: dict[tuple[str, tuple[tuple[str, int], ...]], list[tuple[int, str]]] | None = None
        self._index: dict[str, int] = {eq.lhs_symbol_id: i for i, eq in enumerate(graph.equations)}
        self._chains: dict[tuple[str, tuple[tuple[str, int], ...]], dict[str, int] | None] = {}
        self.stated: dict[str, Fraction] = {}  # every fact's value in its symbol's unit, even one the domain refuses

    # ------------------------------------------------------------ helpers
    def refuse(self, name: str, reason: str, detail: str, root: Refusal | None = None) -> None:
        if name not in self.refusals:
            refusal = Refusal(reason, detail)
            self.refusals[name] = refusal
            self.roots[name] = root if root is not None else refusal
            self.values.pop(name, None)
            self.trace.append(TraceStep("refuse", name, note=f"{reason}: {detail}"))

    def refuse_dependent(self, name: str, bad_dep: str) -> None:
        """Refuse ``name`` as ``refused_dependency``, naming the root cause however deep the chain."""
        root = self.refusals[bad_dep]
        if root.reason == "refused_dependency" and "; cause: " in root.detail:
            cause = root.detail.split("; cause: ", 1)[1]
        else:
            cause = f"{bad_dep} ({root.reason}: {root.detail})"
        self.refuse(
            name, "refused_dependency", f"depends on {bad_dep}; cause: {cause}"[:400], self.roots.get(bad_dep, root)
        )

    def root_cause(self, name: str) -> Refusal:
        """What an answer reading the refused ``name`` reports: the root cause, naming the path."""
        refusal = self.refusals[name]
        root = self.roots.get(name, refusal)
        if root is refusal:
            return refusal
        return Refusal(root.reason, f"{root.detail} (reached {name} through its dependencies)"[:500])

    def refuse_support(self, roots: list[str], detail: str) -> None:
        """Refuse every symbol a contradiction rests on (the transitive dependencies of ``roots``).

        A system with no solution fixes none of its symbols: which stated value is wrong
        cannot be known, so none of them is answered (their dependents are then refused
        by :meth:`propagate`).
        """
        stack = list(roots)
        seen: set[str] = set(stack)
        while stack:
            eq = self.by_lhs.get(stack.pop())
            if eq is None:
                continue
            for dep in sorted(eq.dependencies):
                if dep not in seen:
                    seen.add(dep)
                    self.refuse(dep, "inconsistent", detail)
                    stack.append(dep)

    def declared_unit(self, name: str) -> UnitRef | Refusal | None:
        unit = self.symbols[name].unit
        if unit is None:
            return None
        try:
            return self.vocab.resolve(unit, path=f"{name}.unit")
        except UnitRefusal as exc:
            return Refusal(exc.reason, exc.explain())

    def domain(self, name: str, value: Fraction, ref: UnitRef | None, kind: str | None) -> Refusal | None:
        """Range and count checks of one value (``kind``: the producing equation's kind)."""
        if value.numerator.bit_length() > MAX_VALUE_BITS or value.denominator.bit_length() > MAX_VALUE_BITS:
            return Refusal("value_out_of_range", f"{name} has more than {MAX_VALUE_BITS} bits")
        if ref is not None and ref.dimension == _COUNT:
            in_root = value * ref.scale
            if in_root < 0:
                return Refusal("negative_count", f"{name} = {format_exact(value)} {ref.surface} is a negative count")
            if in_root.denominator != 1:
                reason = "non_exact_division" if kind in SCALING_KINDS else "non_integer_count"
                return Refusal(reason, f"{name} = {format_exact(value)} {ref.surface} is not a whole count")
        elif ref is not None and value < 0 and ref.dimension in _NON_NEGATIVE:
            return Refusal(
                "negative_quantity",
                f"{name} = {format_exact(value)} {ref.surface}: a holding of {ref.dimension} cannot be negative",
            )
        elif ref is not None and ref.kind == (("[temperature]", 1),) and self.kelvin(value, ref) < 0:
            return Refusal("value_out_of_range", f"{name} = {format_exact(value)} {ref.surface} is below absolute zero")
        return None

    def kelvin(self, value: Fraction, ref: UnitRef) -> Fraction:
        """A temperature in kelvin (offsets applied exactly)."""
        return self.vocab.convert(value, ref.lemma, "Kelvin") if ref.is_offset else value * ref.scale

    # ------------------------------------------------------------ facts
    def facts(self) -> None:
        for fact in self.graph.facts:
            name = fact.symbol_id
            if name in self.refusals:
                continue
            declared = self.declared_unit(name)
            if isinstance(declared, Refusal):
                self.refuse(name, declared.reason, declared.detail)
                continue
            value = fact.magnitude
            ref = declared
            if fact.unit is not None and (declared is None or fact.unit != declared.surface):
                try:
                    fref = self.vocab.resolve(fact.unit, path=f"facts[{name}].unit")
                    if declared is not None:
                        check_commensurable(fref, declared)
                        if fref.is_offset or declared.is_offset:
                            value = self.vocab.convert(value, fref.surface, declared.surface)
                        else:
                            value = value * fref.scale / declared.scale
                    elif fref.kind == ():
                        value = value * fref.scale  # "15 percent" on a unitless ratio is the number 3/20
                    else:
                        self.refuse(
                            name,
                            "unit_mismatch",
                            f"the fact gives {name} the unit {fact.unit!r}, but the symbol carries none",
                        )
                        continue
                except UnitRefusal as exc:
                    self.refuse(name, exc.reason, exc.explain())
                    continue
            if name in self.values and self.values[name] != value:
                detail = f"two facts give {name} the values {format_exact(self.values[name])} and {format_exact(value)}"
                self.refuse(name, "inconsistent", detail)
                self.refuse_support([name], f"takes part in a contradiction: {detail}")
                continue
            self.stated.setdefault(name, value)
            bad = self.domain(name, value, ref, None)
            if bad is not None:
                self.refuse(name, bad.reason, bad.detail)
                continue
            self.values[name] = value
            self.units[name] = ref
            self.trace.append(TraceStep("fact", name, value=format_exact(value), unit=_unit_text(ref)))

    # ------------------------------------------------------------ equations
    def order(self) -> list[BoundEquation]:
        """Equations in dependency order (each after the equations defining its inputs), computed once, iteratively."""
        if self._order is not None:
            return self._order
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
                for dep in sorted(eq.dependencies, reverse=True):
                    if dep in self.by_lhs and dep not in done:
                        stack.append((self.by_lhs[dep], False))
        self._order = out
        return out

    def forward(self) -> list[BoundEquation]:
        pending: list[BoundEquation] = []
        for eq in self.order():
            lhs = eq.lhs_symbol_id
            verdict = self.verdicts[lhs]
            if verdict.proof is None:
                assert verdict.refusal is not None
                self.refuse(
                    lhs, verdict.refusal.reason, f"equation {lhs} refused by admissibility: {verdict.refusal.detail}"
                )
                continue
            bad_dep = next((d for d in sorted(eq.dependencies) if d in self.refusals), None)
            if bad_dep is not None:
                self.refuse_dependent(lhs, bad_dep)
                continue
            history = self.history_problem(eq)
            if history is not None:
                self.refuse(lhs, history.reason, history.detail)
                continue
            if all(d in self.values for d in eq.dependencies):
                self.compute(eq, verdict.proof)
            else:
                pending.append(eq)
        return pending

    def compute(self, eq: BoundEquation, proof: UnitProof) -> None:
        lhs = eq.lhs_symbol_id
        factors = proof.factors
        frame = {d: self.values[d] * factors.get(d, Fraction(1)) for d in eq.dependencies}
        try:
            value = evaluate(eq.rhs, frame, constant_scale=factors.get("<literal>", Fraction(1)))
        except EvaluationError as exc:
            self.refuse(lhs, exc.reason, f"{lhs}: {exc.detail}")
            return
        stated = self.stated.get(lhs)
        if stated is not None and stated != value:  # a contradiction outranks any domain refusal of either value
            detail = f"{lhs} is stated as {format_exact(stated)} but its equation gives {format_exact(value)}"
            self.refuse(lhs, "inconsistent", detail)
            self.refuse_support([lhs], f"takes part in a contradiction: {detail}")
            return
        problem = self.check_result(eq, proof, value, frame)
        if problem is not None:
            self.refuse(lhs, problem.reason, problem.detail)
            return
        self.values[lhs] = value
        self.units[lhs] = proof.result_ref
        self.trace.append(
            TraceStep(
                "equation",
                lhs,
                formula=eq.rhs_canonical,
                factors=tuple((k, format_exact(v)) for k, v in sorted(factors.items()) if v != 1),
                inputs=tuple((d, format_exact(self.values[d])) for d in sorted(eq.dependencies)),
                value=format_exact(value),
                unit=_unit_text(proof.result_ref),
                note=eq.operation_kind,
            )
        )

    def check_result(
        self, eq: BoundEquation, proof: UnitProof, value: Fraction, frame: Mapping[str, Fraction]
    ) -> Refusal | None:
        kind = eq.operation_kind
        lhs = eq.lhs_symbol_id
        if kind in {"divide", "unit_partition"}:
            divisor = next((d for d in sorted(eq.dependencies) if d.endswith(("__divisor", "__chunk"))), None)
            if divisor is not None and frame[divisor] == 0:
                return Refusal("division_by_zero", f"{lhs}: the divisor {divisor} is zero")
            if self.policy == "integer" and divisor is not None and frame[divisor].denominator != 1:
                return Refusal(
                    "non_exact_division",
                    f"{lhs}: the divisor {divisor} = {format_exact(frame[divisor])} is not whole (integer policy)",
                )
        if kind == "unit_partition" and value.denominator != 1:
            return Refusal("non_exact_division", f"{lhs}: {format_exact(value)} chunks is not a whole number of parts")
        scalar_fraction = kind in ("multiply", "fraction_portion") and any(
            frame[d].denominator != 1
            for d in eq.dependencies
            if self.symbols[d].semantic_role == "ratio" or d.endswith("__multiplicand")
        )
        if (
            self.policy == "integer"
            and (kind in QUOTIENT_KINDS or scalar_fraction or _fractional_scaling(eq))
            and value.denominator != 1
        ):
            return Refusal(
                "non_exact_division",
                f"{lhs} = {format_exact(value)} is not whole (integer policy: every quotient is integral)",
            )
        return self.domain(lhs, value, proof.result_ref, kind)

    # ------------------------------------------------------------ linear solve
    def solve(self, pending: list[BoundEquation]) -> None:
        """Exact linear solving of what forward substitution left open (with certificates)."""
        exprs: list[tuple[BoundEquation, sympy.Expr]] = []
        for eq in pending:
            zero = next(
                (
                    d
                    for d in sorted(eq.dependencies)
                    if d.endswith(("__divisor", "__chunk")) and self.values.get(d) == 0
                ),
                None,
            )
            if zero is not None and eq.operation_kind in ("divide", "unit_partition"):
                self.refuse(eq.lhs_symbol_id, "division_by_zero", f"{eq.lhs_symbol_id}: the divisor {zero} is zero")
                continue
            proof = self.verdicts[eq.lhs_symbol_id].proof
            assert proof is not None
            factors = proof.factors
            frame_rhs = eq.rhs.xreplace(
                {symbol(d): rational(factors[d]) * symbol(d) for d in eq.dependencies if factors.get(d, 1) != 1}
            )
            lit = factors.get("<literal>", Fraction(1))
            if lit != 1:
                const = (
                    eq.rhs.as_coeff_Add()[0]
                    if isinstance(eq.rhs, sympy.Add)
                    else (eq.rhs if isinstance(eq.rhs, sympy.Rational) else sympy.Integer(0))
                )
                frame_rhs = frame_rhs + (rational(lit) - 1) * const
            known = {symbol(k): rational(v) for k, v in self.values.items()}
            expr = (symbol(eq.lhs_symbol_id) - frame_rhs).xreplace(known)
            if expr.has(sympy.S.ComplexInfinity, sympy.S.NaN, sympy.S.Infinity, sympy.S.NegativeInfinity):
                self.refuse(
                    eq.lhs_symbol_id, "division_by_zero", f"{eq.lhs_symbol_id}: a divisor of {eq.rhs_canonical} is zero"
                )
                continue
            exprs.append((eq, expr))
        unknowns = sorted({s for _, e in exprs for s in e.free_symbols}, key=lambda s: s.name)
        names = [s.name for s in unknowns]
        for eq, expr in exprs:
            poly = expr.as_poly(*unknowns) if unknowns else None
            if unknowns and (poly is None or poly.total_degree() > 1):
                for name in names:
                    self.refuse(
                        name,
                        "nonlinear",
                        f"{eq.lhs_symbol_id}: what is left after substitution is not linear in {', '.join(names)}",
                    )
                return
        if not unknowns:
            return
        matrix, rhs = sympy.linear_eq_to_matrix([e for _, e in exprs], unknowns)
        system = "; ".join(f"{eq.lhs_symbol_id} := {eq.rhs_canonical}" for eq, _ in exprs)
        try:
            solution, params = matrix.gauss_jordan_solve(rhs)
        except ValueError:
            for name in names:
                self.refuse(name, "inconsistent", f"the equations contradict each other: {system}"[:400])
            lhs_ids = [eq.lhs_symbol_id for eq, _ in exprs]
            for lhs in lhs_ids:
                self.refuse(lhs, "inconsistent", f"the equations contradict each other: {system}"[:400])
            self.refuse_support(lhs_ids, f"takes part in a contradiction: {system}"[:400])
            return
        free = set(params)
        solved: dict[str, Fraction] = {}
        for name, expr in zip(names, solution, strict=True):
            if name in self.refusals:
                continue
            if expr.free_symbols & free:
                self.refuse(name, "underdetermined", f"{name} is not fixed by the equations ({system})"[:400])
            else:
                solved[name] = Fraction(int(expr.p), int(expr.q))
        self.values.update(solved)
        certificate = "; ".join(
            sympy.sstr(e, order="lex") for _, e in exprs if not (e.free_symbols - set(map(symbol, solved)))
        )
        self.trace.append(
            TraceStep(
                "solve",
                ",".join(sorted(solved)),
                formula=certificate,
                inputs=tuple((k, format_exact(v)) for k, v in sorted(solved.items())),
                note=f"exact linear solve, rank {matrix.rank()} of {len(names)} unknowns",
            )
        )
        for eq, _ in exprs:
            lhs = eq.lhs_symbol_id
            proof = self.verdicts[lhs].proof
            assert proof is not None
            if lhs in self.values and all(d in self.values for d in eq.dependencies):
                self.units[lhs] = proof.result_ref
                frame = {d: self.values[d] * proof.factors.get(d, Fraction(1)) for d in eq.dependencies}
                problem = self.check_result(eq, proof, self.values[lhs], frame)
                if problem is not None:
                    self.refuse(lhs, problem.reason, problem.detail)
        for name in solved:
            if name not in self.units:
                declared = self.declared_unit(name)
                self.units[name] = declared if isinstance(declared, UnitRef) else None
            bad = self.domain(name, self.values.get(name, Fraction(0)), self.units.get(name), None)
            if bad is not None and name in self.values:
                self.refuse(name, bad.reason, bad.detail)

    def constraints(self) -> None:
        for con in self.graph.constraints:
            value = self.values.get(con.symbol_id)
            if value is not None and not con.holds(value):
                detail = f"{con.symbol_id} = {format_exact(value)} violates the constraint {con.predicate}"
                self.refuse(con.symbol_id, "inconsistent", detail)
                self.refuse_support([con.symbol_id], f"takes part in a contradiction: {detail}")

    def propagate(self) -> None:
        """Refuse every value downstream of a refused one (refused_dependency, naming the cause)."""
        for eq in self.order():  # one pass in dependency order reaches every descendant
            lhs = eq.lhs_symbol_id
            if lhs in self.refusals:
                continue
            bad = next((d for d in sorted(eq.dependencies) if d in self.refusals), None)
            if bad is not None:
                self.refuse_dependent(lhs, bad)

    # ------------------------------------------------------------ answers
    def unit_of(self, name: str) -> UnitRef | None:
        if name in self.units:
            return self.units[name]
        verdict = self.verdicts.get(name)
        if verdict is not None and verdict.proof is not None:  # admitted, value refused: the proof knows its unit
            return verdict.proof.result_ref
        declared = self.declared_unit(name)
        return declared if isinstance(declared, UnitRef) else None

    def state(self, entity: str, asked: UnitRef, index: StateIndex) -> str | Refusal | None:
        """The symbol holding ``entity``'s state of ``asked``'s quantity at ``index`` (None: never set)."""
        kind = asked.quantity_kind
        lhs_index = {eq.lhs_symbol_id: i for i, eq in enumerate(self.graph.equations)}
        initial: list[str] = []
        timeline: list[tuple[int, str]] = []
        blind: list[tuple[int, str]] = []  # refused equations of this entity whose result kind nobody knows
        for sym in self.graph.symbols:
            if sym.entity != entity or sym.semantic_role in ("entity", "unknown"):
                continue
            ref = self.unit_of(sym.symbol_id)
            if ref is None:
                if sym.unit is None and sym.symbol_id in lhs_index and self.verdicts[sym.symbol_id].proof is None:
                    blind.append((lhs_index[sym.symbol_id], sym.symbol_id))
                continue
            if ref.quantity_kind != kind:
                continue
            if sym.symbol_id in lhs_index:
                timeline.append((lhs_index[sym.symbol_id], sym.symbol_id))
            else:
                initial.append(sym.symbol_id)
        if len(initial) > 1:
            return Refusal(
                "ambiguous_reference", f"{entity} holds several initial states of one kind: {', '.join(initial)}"
            )
        timeline.sort()
        if index == "initial":
            return initial[0] if initial else None
        limit = len(self.graph.equations) if index == "terminal" else index.index
        last = max((i for i, _ in timeline if i <= limit), default=-1)
        later = [name for i, name in sorted(blind) if last < i <= limit]
        if later:  # a refused equation may have set this state after the last known one: never skip it
            return (
                self.root_cause(later[-1])
                if later[-1] in self.refusals
                else Refusal("refused_dependency", f"{later[-1]} was refused")
            )
        chosen = [name for i, name in timeline if i <= limit]
        if not chosen:
            if initial and index == "terminal":
                return self.left_behind(entity, initial[0], frozenset(initial))
            return initial[0] if initial else None
        return self.terminal(entity, chosen, initial)

    def state_reads(self, name: str, states: frozenset[str]) -> frozenset[str]:
        """The states (of ``states``) that ``name`` is computed from, looking through non-state symbols only.

        Linear in the size of the graph between consecutive states, so a long chain costs
        linear time overall.
        """
        key = (name, states)
        found = self._reads.get(key)
        if found is not None:
            return found
        out: set[str] = set()
        eq = self.by_lhs.get(name)
        stack = sorted(eq.dependencies) if eq is not None else []
        seen: set[str] = set()
        while stack:
            dep = stack.pop()
            if dep in seen:
                continue
            seen.add(dep)
            if dep in states:
                out.add(dep)
                continue
            inner = self.by_lhs.get(dep)
            if inner is not None:
                stack.extend(inner.dependencies)
        found = frozenset(out)
        self._reads[key] = found
        return found

    def history(self, head: str, states: frozenset[str]) -> set[str]:
        """``head`` and every state of ``states`` it was built from, transitively."""
        out = {head}
        stack = [head]
        while stack:
            for earlier in self.state_reads(stack.pop(), states):
                if earlier not in out:
                    out.add(earlier)
                    stack.append(earlier)
        return out

    def left_behind(self, entity: str, head: str, states: frozenset[str]) -> str | Refusal:
        """Refuse a state that a state-preserving operation of the same entity read but turned into another kind.

        Adding, subtracting, transferring, scaling or taking a portion keeps a holding's kind
        (SPEC §5).  When such an equation of ``entity`` reads ``head`` and its result is of
        another kind (the upstream adapter's unit-bearing divisor makes "split into 6 groups"
        a pure number), the holding's later value is unknown: answering ``head`` would skip
        the operation.
        """
        history = self.history(head, states)
        for eq in self.graph.equations:
            read = history & eq.dependencies
            if eq.operation_kind not in _KIND_KEEPING or not read:
                continue
            if self.symbols[eq.lhs_symbol_id].entity != entity or eq.lhs_symbol_id in history:
                continue
            result = self.unit_of(eq.lhs_symbol_id)
            held = self.unit_of(min(read))
            if result is None or held is None or result.quantity_kind != held.quantity_kind:
                return Refusal(
                    "ambiguous_reference",
                    f"{eq.lhs_symbol_id} ({eq.operation_kind}) reads {min(read)} of {entity} but does not keep its kind",
                )
        return head

    def group(self, name: str) -> tuple[str, tuple[tuple[str, int], ...]] | None:
        """``(entity, quantity kind)`` of a holding symbol, or None for entities, unknowns, rates, ratios and unowned symbols."""
        sym = self.symbols[name]
        if sym.entity is None or sym.semantic_role in ("entity", "unknown", "rate", "ratio"):
            return None
        ref = self.unit_of(name)
        return (sym.entity, ref.quantity_kind) if ref is not None else None

    def holdings(self) -> dict[tuple[str, tuple[tuple[str, int], ...]], list[tuple[int, str]]]:
        """Every holding symbol by (entity, quantity kind): ``(-1, name)`` for an initial state, ``(index, lhs)`` for an equation's."""
        if self._holdings is None:
            index = {eq.lhs_symbol_id: i for i, eq in enumerate(self.graph.equations)}
            out: dict[tuple[str, tuple[tuple[str, int], ...]], list[tuple[int, str]]] = {}
            for sym in self.graph.symbols:
                key = self.group(sym.symbol_id)
                if key is not None:
                    out.setdefault(key, []).append((index.get(sym.symbol_id, -1), sym.symbol_id))
            for states in out.values():
                states.sort()
            self._holdings = out
        return self._holdings

    def history_problem(self, eq: BoundEquation) -> Refusal | None:
        """Refuse an equation that does not fit the order of operations (the equation tuple, ADR-0135).

        * An add, subtract or transfer that updates a holding must read it: writing a new
          value while the entity already holds that quantity silently drops the holding
          (``ambiguous_reference``); a comparison would overwrite it (``redeclared_state``).
        * Every holding an equation reads must be the current one: reading a state that an
          earlier operation had already updated or replaced (the upstream wiring of every
          operation to the initial state) gives a stale value (``ambiguous_reference``).
        """
        index = self._index[eq.lhs_symbol_id]
        key = self.group(eq.lhs_symbol_id)
        holdings = self.holdings()
        if key is not None and eq.operation_kind in (
            "add",
            "subtract",
            "transfer",
            "compare_additive",
            "compare_multiplicative",
        ):
            before = [name for i, name in holdings.get(key, []) if i < index and name != eq.lhs_symbol_id]
            if before and not ({name for _, name in holdings[key]} & eq.dependencies):
                if eq.operation_kind.startswith("compare"):
                    return Refusal(
                        "redeclared_state", f"{eq.lhs_symbol_id} would overwrite {key[0]}'s holding {before[-1]}"
                    )
                return Refusal(
                    "ambiguous_reference",
                    f"{eq.lhs_symbol_id} updates {key[0]}'s holding without reading it ({before[-1]})",
                )
        for dep in sorted(eq.dependencies):
            dep_key = self.group(dep)
            if dep_key is None:
                continue
            stale = self.superseded(dep, dep_key, eq, index)
            if stale is not None:
                return Refusal(
                    "ambiguous_reference",
                    f"{eq.lhs_symbol_id} reads {dep}, but {stale} (an earlier operation) had already changed that holding",
                )
        return None

    def chain(self, key: tuple[str, tuple[tuple[str, int], ...]]) -> dict[str, int] | None:
        """Positions of a holding's states along its chain, when they form one simple chain (else None)."""
        if key in self._chains:
            return self._chains[key]
        states = frozenset(name for _, name in self.holdings()[key])
        parent: dict[str, str] = {}
        roots = []
        for name in states:
            reads = self.state_reads(name, states)
            if len(reads) > 1:
                self._chains[key] = None
                return None
            if reads:
                parent[name] = next(iter(reads))
            else:
                roots.append(name)
        children: dict[str, str] = {}
        for child, par in parent.items():
            if par in children:  # a fork
                self._chains[key] = None
                return None
            children[par] = child
        if len(roots) != 1:
            self._chains[key] = None
            return None
        order: dict[str, int] = {}
        node: str | None = roots[0]
        while node is not None and node not in order:
            order[node] = len(order)
            node = children.get(node)
        self._chains[key] = order if len(order) == len(states) else None
        return self._chains[key]

    def superseded(
        self, dep: str, key: tuple[str, tuple[tuple[str, int], ...]], eq: BoundEquation, index: int
    ) -> str | None:
        """The state that had replaced ``dep`` before operation ``index`` read it, or None when ``dep`` was current.

        A state counts as having replaced ``dep`` when an earlier operation wrote it, it does
        not build on ``dep`` … unless it builds on ``eq``'s own result (a chain listed out of
        order is still one chain).  Linear for a simple chain; general otherwise.
        """
        positions = self.chain(key)
        same = self.group(eq.lhs_symbol_id) == key
        if positions is not None:
            if same or dep not in positions:
                return None
            later = [
                (i, name)
                for i, name in self.holdings()[key]
                if positions.get(name, -1) > positions[dep] and -1 < i < index
            ]
            return min(later)[1] if later else None
        states = frozenset(name for _, name in self.holdings()[key])
        behind = self.history(dep, states)
        for i, name in self.holdings()[key]:
            if (
                -1 < i < index
                and name != dep
                and name not in behind
                and eq.lhs_symbol_id not in self.history(name, states)
            ):
                return name
        return None

    def transfer_gap(self, asked: UnitRef, entity: str | None, limit: int) -> Refusal | None:
        """A transfer whose other side is missing leaves every other holding unknown.

        A transfer moves an amount: the actor loses it and the target gains it (SPEC §5).
        Debits and credits (equations of kind ``transfer`` up to operation ``limit``) are
        paired one to one by amount and unit; an unpaired debit cannot say who received it,
        an unpaired credit who gave it, so any question about another entity's holding of
        that quantity, or the total, is refused.
        """
        open_sides: dict[tuple[sympy.Expr, str | None], list[tuple[str, str, str | None]]] = {}
        for i, eq in enumerate(self.graph.equations):
            if i > limit or eq.operation_kind != "transfer":
                continue
            key = self.group(eq.lhs_symbol_id)
            if key is None or key[1] != asked.quantity_kind:
                continue
            own = [d for d in eq.dependencies if self.group(d) == key]
            delta = eq.rhs - symbol(own[0]) if len(own) == 1 else eq.rhs
            if delta == 0:
                continue
            side = "debit" if delta.could_extract_minus_sign() else "credit"
            waiting = open_sides.setdefault((-delta if side == "debit" else delta, eq.literal_unit), [])
            partner = next((j for j, (s2, _, o2) in enumerate(waiting) if s2 != side and o2 != key[0]), None)
            if partner is not None:
                waiting.pop(partner)
            else:
                waiting.append((side, eq.lhs_symbol_id, key[0]))
        for waiting in open_sides.values():
            for side, lhs, owner in waiting:
                if entity is None or entity != owner:
                    other = "who received it" if side == "debit" else "who gave it"
                    return Refusal(
                        "ambiguous_reference",
                        f"transfer {lhs} ({side} of {owner}) has no other side: {other} is unknown",
                    )
        return None

    def terminal(self, entity: str, chosen: list[str], initial: list[str]) -> str | Refusal:
        """The last state by the dependency chain, not by where the equations sit in the tuple.

        Each operation's result reads the state before it, so the terminal state is the one
        no other state of the same quantity builds on.  Two such heads that both update one
        earlier state (the upstream wiring of every operation to the initial state) fork the
        history: which one is "after" cannot be known, so the answer is refused.  Heads that
        read no common state (a rate's result replacing a holding) follow operation order.
        """
        states = frozenset(chosen) | frozenset(initial)
        read = set().union(*(self.state_reads(other, states) for other in chosen))
        heads = [name for name in chosen if name not in read]
        if len(heads) == 1:
            return self.left_behind(entity, heads[0], states)
        for i, first in enumerate(heads):
            for second in heads[i + 1 :]:
                shared = sorted(self.state_reads(first, states) & self.state_reads(second, states))
                if shared:
                    return Refusal(
                        "ambiguous_reference",
                        f"{first} and {second} both update {shared[0]} of {entity}; neither builds on the other, so no state is the last",
                    )
        return self.left_behind(entity, heads[-1], states)

    def answer(self, unknown_id: str) -> Answer | Refusal:
        """Answer one unknown: its entity's state (or every entity's, for a total) at the state index.

        Order: the entity must exist; the asked unit must resolve; a refused state reports
        its root cause; then the ADR-0135 question form is checked; then the value is
        converted exactly into the asked unit.
        """
        unknown = next(u for u in self.graph.unknowns if u.symbol_id == unknown_id)
        binding = self.symbols[unknown_id]
        known = entities(self.graph)
        if binding.entity is not None and binding.entity not in known:
            return Refusal("unknown_entity_not_in_entities", f"{binding.entity!r} is not an entity of the graph")
        asked_text = unknown.expected_unit or binding.unit
        if asked_text is None:
            return Refusal("unit_unbound", f"{unknown_id} asks for no unit")
        try:
            asked = self.vocab.resolve(asked_text, path=f"{unknown_id}.unit")
        except UnitRefusal as exc:
            return Refusal(exc.reason, exc.explain())
        owners = [binding.entity] if binding.entity is not None else list(known)
        if unknown.state_index != "initial":
            limit = len(self.graph.equations) if unknown.state_index == "terminal" else unknown.state_index.index
            gap = self.transfer_gap(asked, binding.entity, limit)
            if gap is not None:
                return gap
        states: list[str] = []
        for owner in owners:
            name = self.state(owner, asked, unknown.state_index)
            if isinstance(name, Refusal):
                return name
            if name is None:
                continue
            if name in self.refusals:
                return self.root_cause(name)
            if name not in self.values:
                return Refusal("underdetermined", f"nothing fixes {name}")
            states.append(name)
        try:
            target = resolve_target(self.graph, unknown, self.vocab)
        except QuestionTargetError as exc:
            return Refusal(exc.reason, exc.detail)
        if not states:
            who = binding.entity if binding.entity is not None else "no entity"
            return Refusal(
                "state_unset", f"{who} holds no {asked.lemma}-kind state at {state_index_text(unknown.state_index)}"
            )
        if len(states) > 1 and (asked.is_offset or asked.dimension == _TEMPERATURE):
            return Refusal(
                "offset_unit_arithmetic", "a total of temperatures has no meaning (temperatures are not amounts)"
            )
        total = Fraction(0)
        offsets = Fraction(0)
        parts: list[tuple[str, Fraction]] = []
        for name in states:
            ref = self.unit_of(name)
            value = self.values[name]
            assert ref is not None
            try:
                check_commensurable(ref, asked)
            except UnitRefusal as exc:
                return Refusal(exc.reason, f"{name} is in {ref.lemma}, asked in {asked.lemma}: {exc.detail}")
            offset = Fraction(0)
            if (ref.is_offset or asked.is_offset) and ref.lemma != asked.lemma:
                # an affine conversion (Celsius -> Fahrenheit): value * factor + offset, both exact
                offset = self.vocab.convert(Fraction(0), ref.lemma, asked.lemma)
                factor = self.vocab.convert(Fraction(1), ref.lemma, asked.lemma) - offset
            elif ref.is_offset or asked.is_offset:
                factor = Fraction(1)
            else:
                factor = ref.scale / asked.scale
            total += value * factor + offset
            parts.append((name, factor))
            offsets = offset if len(states) == 1 else Fraction(0)
        formula = " + ".join(name for name, _ in parts)
        if offsets:
            formula += f" + ({format_exact(offsets)})"
        self.trace.append(
            TraceStep(
                "answer",
                unknown_id,
                formula=formula,
                factors=tuple((n, format_exact(f)) for n, f in parts if f != 1),
                inputs=tuple((n, format_exact(self.values[n])) for n, _ in parts),
                value=format_exact(total),
                unit=asked.surface,
                note=target.question_form,
            )
        )
        return Answer(rational(total), asked_text, target.question_form, unknown.state_index)


def _fractional_scaling(eq: BoundEquation) -> bool:
    """A compare_multiplicative or multiply whose numeric coefficient is not whole ("half as many")."""
    if eq.operation_kind not in ("compare_multiplicative", "multiply"):
        return False
    coeff = eq.rhs.as_coeff_Mul()[0]
    return isinstance(coeff, sympy.Rational) and int(coeff.q) != 1


def _unit_text(ref: UnitRef | None) -> str | None:
    return ref.surface if ref is not None else None


def verify(graph: BindingGraph, vocab: UnitVocabulary | None = None, policy: str = "count_exact") -> GraphReport:
    """Verify a binding graph: admissibility, exact values and answers, with a trace.

    Args:
        graph: the :class:`~verifier.model.BindingGraph`.
        vocab: the unit vocabulary (default: :func:`units.default_vocabulary`).
        policy: ``"count_exact"`` (counts whole; divisions into counts exact) or
            ``"integer"`` (also every quotient integral with a whole divisor — the
            upstream relational oracle's rule, ADR-0134 amendment).

    Returns:
        A :class:`GraphReport`.  Problems in the graph's *content* are refusals inside
        the report, never exceptions.

    Raises:
        BindingGraphError: ``malformed_input`` when ``graph`` is not a BindingGraph,
            ``vocab`` not a UnitVocabulary, or ``policy`` not one of :data:`POLICIES`.
    """
    if not isinstance(graph, BindingGraph):
        raise BindingGraphError(
            "malformed_input", f"verify takes a BindingGraph, found {type(graph).__name__}", "graph"
        )
    if policy not in POLICIES:
        raise BindingGraphError(
            "malformed_input", f"policy must be one of {sorted(POLICIES)}, found {policy!r:.40}", "policy"
        )
    voc = vocab if vocab is not None else default_vocabulary()
    if not isinstance(voc, UnitVocabulary):
        raise BindingGraphError(
            "malformed_input", f"vocab must be a UnitVocabulary, found {type(voc).__name__}", "vocab"
        )
    run = _Solver(graph, voc, policy)
    symbols = run.symbols
    for eq in graph.equations:
        run.verdicts[eq.lhs_symbol_id] = check_equation(eq, symbols, voc)
    run.facts()
    pending = run.forward()
    if pending:
        run.solve(pending)
    run.constraints()
    run.propagate()
    answers = {u.symbol_id: run.answer(u.symbol_id) for u in graph.unknowns}
    values = {
        name: Value(rational(v), _unit_text(run.unit_of(name)) or symbols[name].unit)
        for name, v in run.values.items()
        if name not in run.refusals
    }
    return GraphReport(
        verdicts=run.verdicts,
        values=values,
        refusals=dict(run.refusals),
        answers=answers,
        trace=tuple(run.trace),
        policy=policy,
    )


__all__ = ["Answer", "GraphReport", "OperationIndex", "ReplayError", "TraceStep", "Value", "replay", "verify"]
