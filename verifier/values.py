"""``verify`` and its result types (SPEC §4 Values, State, Certification, Question targets).

``verify`` runs the stages in order — units (every unit the graph writes resolves),
admissibility (:func:`verifier.admissibility.check_equation` per equation), the
holdings model (:mod:`verifier.holdings`), the exact solve (:mod:`verifier.solve`) —
then answers each unknown (:mod:`verifier.answer`), certifying an answer only when
the whole graph is sound.  This module owns the result types (:class:`Value`,
:class:`Answer`, :class:`TraceStep`, :class:`GraphReport`) and :func:`replay`.
Knows nothing of input formats.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Final, Literal, TypeGuard, get_args

if TYPE_CHECKING:
    import sympy

    from verifier import display
else:
    from verifier.lazy import LazyModule, sympy

    display = LazyModule("verifier.display")  # the notebook views load when a notebook first shows a result

from units import UnitRef, UnitRefusal, UnitVocabulary
from units.errors import clip
from units.exact import format_exact
from verifier.admissibility import Refusal, Verdict, graph_units, graph_verdicts, resolve_written
from verifier.answer import Reading, certify, read_unknown
from verifier.errors import BindingGraphError, given_vocabulary
from verifier.expr import as_fraction, evaluate, parse_expression, rational, rational_text
from verifier.holdings import Holdings
from verifier.jsonread import (
    json_fraction,
    json_list,
    json_members,
    json_object,
    json_optional_text,
    json_pairs,
    json_text,
)
from verifier.model import (
    QUESTION_FORMS,
    BindingGraph,
    OperationIndex,
    StateIndex,
    parse_state_index,
    replace_checked,
    state_index_text,
)
from verifier.roles import roles_of
from verifier.solve import (  # noqa: F401  # MAX_VALUE_BITS: documented here (reasons.py)
    MAX_VALUE_BITS,
    UNCHECKED,
    Problem,
    Solution,
    StepRecord,
    constraint_unchecked,
    constraint_violated,
    solve,
)

TRACE_ACTIONS: Final[tuple[str, ...]] = ("fact", "equation", "solve", "answer", "refuse")
"""The actions a :class:`TraceStep` records, in the order a trace meets them."""

Policy = Literal["count_exact", "integer"]
"""A division policy (see :data:`POLICIES`)."""

POLICIES: Final[frozenset[Policy]] = frozenset(get_args(Policy))
"""``count_exact``: counts are whole and divisions into counts exact.  ``integer``: also every
solved value whole, with whole non-zero divisors (the upstream relational oracle's rule)."""


def is_policy(value: object) -> TypeGuard[Policy]:
    """Whether ``value`` is a division policy of :data:`POLICIES`."""
    return isinstance(value, str) and value in POLICIES


@dataclass(frozen=True, slots=True, kw_only=True)
class Value:
    """An exact solved value: ``magnitude`` (``sympy.Rational``) in ``unit`` (a surface or lemma; ``None`` for a pure number)."""

    magnitude: sympy.Rational
    unit: str | None

    def __str__(self) -> str:
        return rational_text(self.magnitude) + (f" {self.unit}" if self.unit else "")

    def to_json(self) -> dict[str, object]:
        """``{"magnitude": "7/2", "unit": "feet"}``; :meth:`from_json` reads it back equal."""
        return {"magnitude": rational_text(self.magnitude), "unit": self.unit}

    @classmethod
    def from_json(cls, data: object, /, *, path: str = "value") -> Value:
        """Read :meth:`to_json` output, checking each key and type.

        Raises:
            BindingGraphError: ``malformed_input`` naming the field.
        """
        obj = json_object(data, path, {"magnitude", "unit"}, set())
        return cls(
            magnitude=rational(json_fraction(obj["magnitude"], f"{path}.magnitude")),
            unit=json_optional_text(obj["unit"], f"{path}.unit"),
        )


@dataclass(frozen=True, slots=True, kw_only=True)
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
        return rational_text(self.value) + (f" {self.unit}" if self.unit else "")

    @property
    def fraction(self) -> Fraction:
        """The value as a :class:`fractions.Fraction` (plain ints inside)."""
        return as_fraction(self.value)

    def to_json(self) -> dict[str, object]:
        """Plain JSON data; :meth:`from_json` reads it back equal."""
        return {
            "value": rational_text(self.value),
            "unit": self.unit,
            "question_form": self.question_form,
            "state_index": state_index_text(self.state_index),
        }

    @classmethod
    def from_json(cls, data: object, /, *, path: str = "answer") -> Answer:
        """Read :meth:`to_json` output, checking each key and type.

        Raises:
            BindingGraphError: ``malformed_input`` naming the field (a question form
                outside :data:`verifier.model.QUESTION_FORMS`, a state index that
                :func:`verifier.model.parse_state_index` does not read).
        """
        obj = json_object(data, path, {"value", "unit", "question_form", "state_index"}, set())
        form = json_text(obj["question_form"], f"{path}.question_form")
        if form not in QUESTION_FORMS:
            raise BindingGraphError(
                "malformed_input", f"question_form must be one of {sorted(QUESTION_FORMS)}", f"{path}.question_form"
            )
        return cls(
            value=rational(json_fraction(obj["value"], f"{path}.value")),
            unit=json_optional_text(obj["unit"], f"{path}.unit"),
            question_form=form,
            state_index=parse_state_index(obj["state_index"], f"{path}.state_index"),
        )


@dataclass(frozen=True, slots=True, kw_only=True)
class TraceStep:
    """One step of the solution, replayable from the recorded data alone.

    Attributes:
        action: ``fact``, ``equation``, ``solve``, ``answer`` or ``refuse``.
        target: the symbol (or unknown) the step sets.
        formula: canonical expression text (``equation``: the rhs; ``answer``: a sum of states).
        factors: exact frame factors by input name (``<literal>`` scales the constant term),
            sorted by name.
        inputs: the exact input values used, by name, sorted by name.
        value: the exact result (``"7/2"``), or ``""`` for a refusal.
        unit: the unit of ``value``.
        note: a reason or remark.

    Raises:
        ValueError: ``factors`` or ``inputs`` not sorted by name with each name once
            (so a step has one JSON text, whatever the key order it is written with).
    """

    action: str
    target: str
    formula: str = ""
    factors: tuple[tuple[str, str], ...] = ()
    inputs: tuple[tuple[str, str], ...] = ()
    value: str = ""
    unit: str | None = None
    note: str = ""

    def __post_init__(self) -> None:
        for name, pairs in (("factors", self.factors), ("inputs", self.inputs)):
            if len(pairs) > 1 and any(a[0] >= b[0] for a, b in itertools.pairwise(pairs)):
                raise ValueError(f"TraceStep.{name} must be sorted by name, each name once: {pairs!r}")

    def retargeted(self, target: str) -> TraceStep:
        """This step with another ``target`` (its pairs were checked when it was built, and are not checked again).

        The answer stage gives each unknown asking the same thing its own copy of one step;
        checking the pairs again for each copy made N totals over N holdings quadratic.
        """
        if target == self.target:  # the one unknown asking: the step itself (immutable)
            return self
        return replace_checked(self, target=target)

    def to_json(self) -> dict[str, object]:
        """Plain JSON data; :meth:`from_json` reads it back equal (also from JSON written with sorted keys)."""
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

    @classmethod
    def from_json(cls, data: object, /, *, path: str = "step") -> TraceStep:
        """Read :meth:`to_json` output, checking each key and type (``factors`` and ``inputs`` keep their order).

        Raises:
            BindingGraphError: ``malformed_input`` naming the field (an action outside
                :data:`TRACE_ACTIONS`, a non-string value, a value, factor or input that
                is not an exact number as a trace writes it: ``"7/2"``, ``"-3"``).
        """
        keys = {"action", "target", "formula", "factors", "inputs", "value", "unit", "note"}
        obj = json_object(data, path, keys, set())
        action = json_text(obj["action"], f"{path}.action")
        if action not in TRACE_ACTIONS:
            raise BindingGraphError("malformed_input", f"action must be one of {list(TRACE_ACTIONS)}", f"{path}.action")
        value = json_text(obj["value"], f"{path}.value")
        if value or action not in {"refuse", "solve"}:  # these record no value (a solve, its inputs); others do
            _exact_text(value, f"{path}.value")
        factors = tuple(sorted(json_pairs(obj["factors"], f"{path}.factors")))
        inputs = tuple(sorted(json_pairs(obj["inputs"], f"{path}.inputs")))
        for part, pairs in (("factors", factors), ("inputs", inputs)):
            for name, text in pairs:
                _exact_text(text, f"{path}.{part}.{name}")
        return cls(
            action=action,
            target=json_text(obj["target"], f"{path}.target"),
            formula=json_text(obj["formula"], f"{path}.formula"),
            factors=factors,
            inputs=inputs,
            value=value,
            unit=json_optional_text(obj["unit"], f"{path}.unit"),
            note=json_text(obj["note"], f"{path}.note"),
        )


class ReplayError(AssertionError):
    """A trace that does not reproduce its own recorded values."""


def replay(trace: tuple[TraceStep, ...]) -> dict[str, Fraction]:
    """Recompute every value of a trace from its recorded formulas and inputs.

    Returns:
        The recomputed values by target.

    Raises:
        ReplayError: when a step's recomputed value differs from the recorded one, a
            ``solve`` step's values do not satisfy its recorded equations, or a step cannot
            be recomputed (it reads a value no earlier step computed, or its formula does not
            read or has no exact value): the message names the step.
    """
    values: dict[str, Fraction] = {}
    for index, step in enumerate(trace):
        try:
            _replay_one(step, values)
        except KeyError as exc:  # a doctored trace: an input no earlier step computed
            raise ReplayError(
                f"step {index} ({step.target}): reads {clip(exc.args[0])}, which no earlier step computes"
            ) from None
        except (BindingGraphError, ArithmeticError, ValueError) as exc:  # a formula or number that does not read
            raise ReplayError(f"step {index} ({step.target}): {exc}") from None
    return values


def _replay_one(step: TraceStep, values: dict[str, Fraction]) -> None:
    """Recompute one step into ``values`` (see :func:`replay`)."""
    if step.action == "refuse":
        return
    if step.action == "fact":
        values[step.target] = _parse(step.value)
    elif step.action == "solve":
        _replay_solve(step, values)
    else:
        values[step.target] = _replay_step(step, values)


def _replay_solve(step: TraceStep, values: dict[str, Fraction]) -> None:
    """Record a ``solve`` step's values, then check that they satisfy its recorded equations.

    Raises:
        ReplayError: an equation ``e`` of the step with ``e != 0`` at the recorded solution.
    """
    for name, text in step.inputs:
        values[name] = _parse(text)
    for line in step.formula.split(";"):
        if line.strip() and evaluate(parse_expression(line.strip()), values) != 0:
            raise ReplayError(f"solve step: {line.strip()} != 0 with the recorded solution")


def _replay_step(step: TraceStep, values: Mapping[str, Fraction]) -> Fraction:
    """Recompute one evaluation step from its formula, its recorded inputs and their factors.

    Raises:
        ReplayError: an input recorded with another value than the one computed before, or a
            recomputed value other than the recorded one.
    """
    factors = {name: _parse(text) for name, text in step.factors}
    frame = {name: values[name] * factors.get(name, Fraction(1)) for name, _ in step.inputs}
    for name, text in step.inputs:
        if values.get(name) != _parse(text):
            raise ReplayError(f"{step.target}: input {name} is {values.get(name)}, recorded {text}")
    got = evaluate(parse_expression(step.formula), frame, constant_scale=factors.get("<literal>", Fraction(1)))
    if got != _parse(step.value):
        raise ReplayError(f"{step.target}: recomputed {got}, recorded {step.value}")
    return got


def _parse(text: str) -> Fraction:
    return Fraction(text)  # our own format_exact output: "a" or "a/b"


@dataclass(frozen=True, slots=True, kw_only=True)
class GraphReport:
    """Everything ``verify`` found about one graph.

    Attributes:
        verdicts: ``lhs_symbol_id`` → :class:`~verifier.admissibility.Verdict`.
        values: ``symbol_id`` → :class:`Value` for every solved symbol.
        refusals: ``symbol_id`` → :class:`~verifier.admissibility.Refusal` for every refused symbol.
        answers: unknown ``symbol_id`` → :class:`Answer` or :class:`Refusal`.
        trace: the ordered steps; :meth:`replay` recomputes them.
        policy: the division policy used.
        labels: symbol id → its readable name (``Ana.feet@t0``), for display only.

    In a notebook a report shows as its answers and its trace, in labels, with every
    exact input, factor and value (``_repr_html_``).
    """

    verdicts: Mapping[str, Verdict]
    values: Mapping[str, Value]
    refusals: Mapping[str, Refusal]
    answers: Mapping[str, Answer | Refusal]
    trace: tuple[TraceStep, ...] = field(repr=False)
    policy: Policy = "count_exact"
    labels: Mapping[str, str] = field(default_factory=dict, repr=False, compare=False)

    def __hash__(self) -> int:
        """A hash agreeing with ``==``: the mappings are hashed as sets of items (their order is no part of equality)."""
        return hash(
            (
                frozenset(self.verdicts.items()),
                frozenset(self.values.items()),
                frozenset(self.refusals.items()),
                frozenset(self.answers.items()),
                self.trace,
                self.policy,
            )
        )

    def replay(self) -> dict[str, sympy.Rational]:
        """Recompute the trace (see :func:`replay`) and check it reproduces every answer.

        Returns:
            Every recomputed value by target, as ``sympy.Rational`` like every exact
            number in a report (``Fraction(x)`` gives a :class:`fractions.Fraction`).

        Raises:
            ReplayError: on any mismatch.
        """
        values = replay(self.trace)
        for name, answer in self.answers.items():
            if isinstance(answer, Answer) and values.get(name) != answer.fraction:
                raise ReplayError(f"answer {name}: replayed {values.get(name)}, reported {answer.value}")
        return {name: rational(value) for name, value in values.items()}

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
        equations = f"{len(self.verdicts)} equation{'' if len(self.verdicts) == 1 else 's'}"
        return (
            f"GraphReport({equations}, {admitted} admitted; "
            f"{len(self.values)} values, {len(self.refusals)} refused; answers: {answers or 'none'})"
        )

    def _repr_html_(self) -> str:
        return display.graph_report_html(self)

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

    @classmethod
    def from_json(cls, data: object, /, *, vocab: UnitVocabulary | None = None) -> GraphReport:
        """Read :meth:`to_json` output; proofs resolve their result units in ``vocab`` (:meth:`UnitProof.from_json`).

        ``labels`` are for display and not in the JSON, so the report read back has none
        (they take no part in equality).

        Raises:
            BindingGraphError: ``malformed_input`` naming the field (a policy outside
                :data:`POLICIES`, an answer that is neither ``{"answer"}`` nor ``{"refusal"}``),
                or a ``vocab`` that is no vocabulary.
        """
        given_vocabulary(vocab)
        obj = json_object(data, "report", {"policy", "verdicts", "values", "refusals", "answers", "trace"}, set())
        policy = json_text(obj["policy"], "report.policy")
        if not is_policy(policy):
            raise BindingGraphError("malformed_input", f"policy must be one of {sorted(POLICIES)}", "report.policy")
        return cls(
            verdicts={
                k: Verdict.from_json(v, vocab=vocab, path=f"report.verdicts.{k}")
                for k, v in json_members(obj["verdicts"], "report.verdicts")
            },
            values={
                k: Value.from_json(v, path=f"report.values.{k}")
                for k, v in json_members(obj["values"], "report.values")
            },
            refusals={
                k: Refusal.from_json(v, path=f"report.refusals.{k}")
                for k, v in json_members(obj["refusals"], "report.refusals")
            },
            answers={
                k: _answer_from_json(v, f"report.answers.{k}")
                for k, v in json_members(obj["answers"], "report.answers")
            },
            trace=tuple(
                TraceStep.from_json(step, path=f"report.trace[{i}]")
                for i, step in enumerate(json_list(obj["trace"], "report.trace"))
            ),
            policy=policy,
        )


def _exact_text(text: str, path: str) -> None:
    """``text`` is an exact number as :func:`units.exact.format_exact` writes it (``"7/2"``), so replay reads it.

    Raises:
        BindingGraphError: ``malformed_input`` naming ``path``.
    """
    if format_exact(json_fraction(text, path)) != text:
        raise BindingGraphError("malformed_input", f"{clip(text)} is not an exact number as a trace writes it", path)


def _answer_from_json(data: object, path: str) -> Answer | Refusal:
    """``{"answer": ...}`` as an :class:`Answer`, ``{"refusal": ...}`` as a :class:`Refusal`."""
    obj = json_object(data, path, set(), {"answer", "refusal"})
    if len(obj) != 1:
        raise BindingGraphError("malformed_input", "an answer is {'answer': ...} or {'refusal': ...}", path)
    if "answer" in obj:
        return Answer.from_json(obj["answer"], path=f"{path}.answer")
    return Refusal.from_json(obj["refusal"], path=f"{path}.refusal")


def verify(graph: BindingGraph, vocab: UnitVocabulary | None = None, policy: Policy = "count_exact") -> GraphReport:
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
            "malformed_input",
            f"verify takes a BindingGraph, found {type(graph).__name__} (an adapter binds one:"
            " adapters.bind_math_problem_graph, bind_relations or parse_canonical_text)",
            "graph",
        )
    if not is_policy(policy):
        raise BindingGraphError(
            "malformed_input", f"policy must be one of {sorted(POLICIES)}, found {clip(policy)}", "policy"
        )
    voc = given_vocabulary(vocab)
    symbols = graph.symbols_by_id
    declared, problems = _units_stage(graph, voc)
    verdicts = graph_verdicts(graph, voc)
    for i, eq in enumerate(graph.equations):
        refusal = verdicts[eq.lhs_symbol_id].refusal
        if refusal is not None:
            problems.append(Problem(2, 1, i, eq.lhs_symbol_id, eq.lhs_symbol_id, refusal))
    holdings = _holdings_stage(graph, declared, verdicts, problems)
    solution = solve(graph, verdicts, declared, voc, policy)
    problems.extend(solution.problems)
    readings = _readings(graph, voc, holdings, solution)
    problems.extend(_answer_constraints(graph, voc, readings, solution))  # before certifying: the graph's claims too
    answers, answer_steps = _answer_stage(graph, readings, certify(problems))
    refusals = dict(solution.refusals)
    for hp in holdings.problems:  # a broken history rule refuses the equation; its value stays listed
        refusals.setdefault(hp.equation, hp.refusal)
    return GraphReport(
        verdicts=verdicts,
        values={
            name: Value(magnitude=rational(v), unit=_unit_text(solution.units.get(name)) or symbols[name].unit)
            for name, v in solution.values.items()
            if name not in solution.refusals
        },
        refusals=refusals,
        answers=answers,
        trace=(*(_trace_step(step) for step in solution.steps), *answer_steps),
        policy=policy,
        labels={s.symbol_id: s.name for s in graph.symbols},
    )


def _holdings_stage(
    graph: BindingGraph,
    declared: Mapping[str, UnitRef | None],
    verdicts: Mapping[str, Verdict],
    problems: list[Problem],
) -> Holdings:
    """Build the holdings model; each broken rule is a values-stage problem at its equation."""
    kinds = dict(declared)
    for eq in graph.equations:  # an lhs declaring no unit holds what its proof computes
        proof = verdicts[eq.lhs_symbol_id].proof
        if kinds.get(eq.lhs_symbol_id) is None and proof is not None:
            kinds[eq.lhs_symbol_id] = proof.result_ref
    symbols = graph.symbols_by_id
    holdings = Holdings.build(graph, kinds, {eq.lhs_symbol_id: roles_of(eq, symbols) for eq in graph.equations})
    problems.extend(
        Problem(3, 1 if hp.position >= 0 else 0, max(hp.position, 0), hp.equation, hp.equation, hp.refusal)
        for hp in holdings.problems
    )
    return holdings


def _readings(
    graph: BindingGraph, vocab: UnitVocabulary, holdings: Holdings, solution: Solution
) -> dict[str, tuple[tuple[object, ...], Reading | Refusal]]:
    """Every unknown's reading (before certification), keyed by its symbol, with the key of what it asks.

    Unknowns asking the same thing (entity, unit, state, form) read it once.
    """
    out: dict[str, tuple[tuple[object, ...], Reading | Refusal]] = {}
    by_key: dict[tuple[object, ...], Reading | Refusal] = {}
    for unknown in graph.unknowns:
        binding = graph.symbol(unknown.symbol_id)
        key = (binding.entity, binding.unit, unknown.expected_unit, str(unknown.state_index), unknown.question_form)
        if key not in by_key:
            by_key[key] = read_unknown(graph, unknown, vocab, holdings, solution)
        out[unknown.symbol_id] = (key, by_key[key])
    return out


def _answer_constraints(
    graph: BindingGraph,
    vocab: UnitVocabulary,
    readings: Mapping[str, tuple[tuple[object, ...], Reading | Refusal]],
    solution: Solution,
) -> list[Problem]:
    """Each constraint on an unknown's symbol, checked against its answer (values stage, constraints section).

    The holdings give an unknown its value, not the solver, which checks every other
    constraint (:func:`verifier.solve.solve`).  The predicate's number is in the unit the
    symbol declares, so the answer is converted into it when another unit is asked.  A
    refused answer leaves the constraint unchecked, and the graph is refused
    (:func:`verifier.solve.constraint_unchecked`; ranked after the problem that refused a
    state the answer reads, :data:`verifier.solve.UNCHECKED`).
    """
    problems: list[Problem] = []
    for i, con in enumerate(graph.constraints):
        read = readings.get(con.symbol_id)
        if read is None:  # no unknown's symbol: the solver checked it
            continue
        answer = _in_declared_unit(vocab, graph.symbol(con.symbol_id).unit, read[1])
        if isinstance(answer, Refusal):
            refusal = constraint_unchecked(con.symbol_id, con.predicate, answer)
            caused = any(answer is solution.refusals[name] for name in solution.roots)  # a state refused by a problem
            problems.append(Problem(3, UNCHECKED if caused else 2, i, con.symbol_id, "", refusal))
        elif not con.holds(answer):
            refusal = constraint_violated(con.symbol_id, answer, con.predicate)
            problems.append(Problem(3, 2, i, con.symbol_id, "", refusal))
    return problems


def _in_declared_unit(vocab: UnitVocabulary, unit: str | None, reading: Reading | Refusal) -> Fraction | Refusal:
    """An answer's value in ``unit`` (its symbol's declared unit; ``None``: the unit asked), or why there is none."""
    if isinstance(reading, Refusal) or unit is None or unit == reading.unit:
        return reading if isinstance(reading, Refusal) else reading.value
    try:
        return vocab.convert(reading.value, reading.unit, unit)
    except UnitRefusal as exc:
        return Refusal.from_error(exc)


def _answer_stage(
    graph: BindingGraph, readings: Mapping[str, tuple[tuple[object, ...], Reading | Refusal]], root: Refusal | None
) -> tuple[dict[str, Answer | Refusal], list[TraceStep]]:
    """Every unknown's answer (``root`` instead, when the graph is not sound) and the answer steps of the trace."""
    answers: dict[str, Answer | Refusal] = {}
    trace: list[TraceStep] = []
    steps: dict[tuple[object, ...], TraceStep] = {}
    for unknown in graph.unknowns:
        key, reading = readings[unknown.symbol_id]
        if root is not None or isinstance(reading, Refusal):
            answers[unknown.symbol_id] = root if root is not None else reading  # type: ignore[assignment]
            continue
        answers[unknown.symbol_id] = Answer(
            value=rational(reading.value),
            unit=reading.unit,
            question_form=reading.question_form,
            state_index=reading.state_index,
        )
        if key not in steps:
            steps[key] = _answer_step(unknown.symbol_id, reading)
        trace.append(steps[key].retargeted(unknown.symbol_id))  # one step per question, a copy per unknown
    return answers, trace


def _units_stage(graph: BindingGraph, vocab: UnitVocabulary) -> tuple[dict[str, UnitRef | None], list[Problem]]:
    """Resolve every unit the graph writes (symbols, facts, literals); each failure is a units-stage problem."""
    declared: dict[str, UnitRef | None] = {}
    problems: list[Problem] = []
    units_written = functools.partial(graph_units, graph)  # read only to word a refusal (a typo of another is named)
    for i, sym in enumerate(graph.symbols):
        declared[sym.symbol_id] = None
        if sym.unit is None:
            continue
        try:
            declared[sym.symbol_id] = resolve_written(vocab, sym.unit, f"{sym.symbol_id}.unit", units_written)
        except UnitRefusal as exc:
            problems.append(Problem(1, 0, i, sym.symbol_id, "", Refusal.from_error(exc)))
    written = [(0, i, f.symbol_id, "", f.unit) for i, f in enumerate(graph.facts)]
    written += [(1, i, e.lhs_symbol_id, e.lhs_symbol_id, e.literal_unit) for i, e in enumerate(graph.equations)]
    for section, i, name, equation, unit in written:
        if unit is None:
            continue
        try:
            resolve_written(vocab, unit, f"{name}.unit", units_written)
        except UnitRefusal as exc:
            problems.append(Problem(1, section, i, name, equation, Refusal.from_error(exc)))
    return declared, problems


def _trace_step(step: StepRecord) -> TraceStep:
    return TraceStep(
        action=step.action,
        target=step.target,
        formula=step.formula,
        factors=tuple(sorted((k, format_exact(v)) for k, v in step.factors)),
        inputs=tuple(sorted((k, format_exact(v)) for k, v in step.inputs)),
        value=format_exact(step.value) if step.value is not None else "",
        unit=step.unit,
        note=step.note,
    )


def _answer_step(unknown_id: str, reading: Reading) -> TraceStep:
    formula = " + ".join(name for name, _, _ in reading.parts)
    if reading.offset:
        formula += f" + ({format_exact(reading.offset)})"
    return TraceStep(
        action="answer",
        target=unknown_id,
        formula=formula,
        factors=tuple(sorted((n, format_exact(f)) for n, _, f in reading.parts if f != 1)),
        inputs=tuple(sorted((n, format_exact(v)) for n, v, _ in reading.parts)),
        value=format_exact(reading.value),
        unit=reading.unit,
        note=reading.question_form,
    )


def _unit_text(ref: UnitRef | None) -> str | None:
    return ref.surface if ref is not None else None


__all__ = [
    "POLICIES",
    "TRACE_ACTIONS",
    "Answer",
    "GraphReport",
    "OperationIndex",
    "Policy",
    "ReplayError",
    "TraceStep",
    "Value",
    "is_policy",
    "replay",
    "verify",
]
