"""The upstream canonical text (``S``/``F``/``E``/``U``/``C``/``P`` lines) read back into a binding graph.

``parse_canonical_text`` reads what the upstream ``to_canonical_string()`` emits
(and what :meth:`verifier.BindingGraph.to_canonical_string` emits) with a grammar
of our own: anchored line patterns, and for right-hand sides either our
arithmetic grammar (``ref + 4``, ``a + b + c``) or the upstream call forms
(``add(Sam, 3 apples)``, ``transfer(Sam->Kim, 7 dollars)``,
``compare_additive(Ann, more(Bo, delta=4 dollars))``,
``compare_multiplicative(Ann, times(Bo, factor=2))``,
``apply_rate(Eve, 15 dollars/hours)``, ``multiply(Sam, 3 dollars)``,
``divide(Sam, 4 dollars)``).  Never ``eval``, ``sympify`` or ``parse_expr``.

A call form names entities; each is resolved to the dependency that entity owns
(an untouched actor starts at 0).  The equation keeps exactly the dependencies
its right-hand side reads, so where the upstream text lists more (a transfer
lists the target's state) or fewer (a multiplicative comparison lists none), the
recorded list is kept, unchanged, in :class:`RecordedVerdict`.

An arithmetic right-hand side carries no unit for its numbers: ``r := q + 4`` parses,
but admissibility refuses the bare constant (``unit_mismatch``) unless the line gives
``literal_unit=…`` (as :meth:`verifier.BindingGraph.to_canonical_string` writes it).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final, cast

if TYPE_CHECKING:
    import sympy
else:
    from verifier.lazy import sympy

from adapters._common import exact, upstream_roles, with_roles
from adapters.errors import MathGraphError
from units import UnitRef, UnitRefusal, default_vocabulary
from units.exact import format_exact, json_kind
from verifier import (
    BindingGraph,
    BoundConstraint,
    BoundEquation,
    BoundFact,
    BoundUnknown,
    SourceSpanLink,
    SymbolBinding,
)
from verifier.errors import BindingGraphError
from verifier.expr import parse_expression, rational, symbol
from verifier.model import SEMANTIC_ROLES, AdmissibilityStatus, QuestionForm, SemanticRole, parse_state_index

MAX_TEXT_BYTES: Final[int] = 1_000_000
MAX_LINES: Final[int] = 20_000

_SPAN = r"(?P<src>[A-Za-z0-9_.:/\-]+)\[(?P<start>[0-9]{1,9}):(?P<end>[0-9]{1,9})\]"
_ROLES = "|".join(sorted(SEMANTIC_ROLES))
_S: Final = re.compile(
    rf"S (?P<id>\S+) (?P<name>.+?) (?P<role>{_ROLES}) entity=(?P<entity>.*?) unit=(?P<unit>.*?) span={_SPAN} by=(?P<by>\S+)"
)
_F: Final = re.compile(rf"F (?P<id>\S+) = (?P<value>\S+) unit=(?P<unit>.*?) span={_SPAN}")
_E: Final = re.compile(
    rf"E (?P<lhs>\S+) := (?P<rhs>.+?) op=(?P<op>\S+) deps=\[(?P<deps>[^\]]*)\](?: literal_unit=(?P<lit>.+?))?"
    r"(?: roles=\[(?P<roles>[^\]]*)\])?(?: operation=(?P<operation>[0-9]{1,6}))? "
    rf"unit_proof=(?P<proof>.+?) status=(?P<status>\S+) refusal=(?P<refusal>\S+) span={_SPAN}"
)
_U: Final = re.compile(
    rf"U (?P<id>\S+) expected_unit=(?P<unit>.*?) state=(?P<state>\S+) form=(?P<form>\S+) qspan={_SPAN}"
)
_C: Final = re.compile(rf"C (?P<id>\S+) pred=(?P<pred>.+?) span={_SPAN}")
_P: Final = re.compile(rf"P {_SPAN} text=(?P<text>.*)")
_CALL: Final = re.compile(r"(?P<kind>[a-z_]+)\((?P<actor>[^,()]+?)(?:->(?P<target>[^,()]+?))?, (?P<arg>.+)\)")
_QTY: Final = re.compile(r"(?P<num>-?[0-9]+(?:\.[0-9]+)?(?:/[0-9]+)?) (?P<unit>[^,()=]+)")
_COMPARE: Final = re.compile(
    r"(?P<dir>more|fewer|times|fraction)\((?P<ref>[^,()]+), (?P<key>delta|factor)=(?P<val>[^()]+)\)"
)


@dataclass(frozen=True, slots=True, kw_only=True)
class RecordedVerdict:
    """What the text recorded for one equation, kept verbatim for cross-checking.

    Attributes:
        lhs_symbol_id: the equation's lhs.
        operation_kind: the recorded ``op=``.
        rhs_canonical: the recorded right-hand side text.
        dependencies: the recorded ``deps=[...]``, in the recorded order.
        status: ``admitted``, ``pending`` or ``refused``.
        unit_proof: the recorded proof string (``unverified`` when refused).
        refusal_reason: the recorded reason, or ``None``.
    """

    lhs_symbol_id: str
    operation_kind: str
    rhs_canonical: str
    dependencies: tuple[str, ...]
    status: str
    unit_proof: str
    refusal_reason: str | None

    @property
    def outcome(self) -> str:
        """The proof string when admitted, else the refusal reason (what a cross-check compares)."""
        return self.unit_proof if self.status == "admitted" else (self.refusal_reason or self.status)


def _none(text: str) -> str | None:
    return None if text == "None" else text


def _span(m: re.Match[str], text: str | None = None) -> SourceSpanLink:
    return SourceSpanLink(source_id=m["src"], start=int(m["start"]), end=int(m["end"]), text=text)


def parse_canonical_text(text: object) -> tuple[BindingGraph, dict[str, RecordedVerdict]]:
    """Read canonical binding-graph text into a graph plus the verdicts it records.

    Args:
        text: the lines of an upstream ``to_canonical_string()`` (or ours).

    Returns:
        ``(graph, recorded)``: the :class:`~verifier.BindingGraph` (equations keep the
        recorded status, proof and refusal) and the recorded verdicts by lhs, unchanged.

    Raises:
        MathGraphError: ``malformed_input`` naming the line (``line 5: ...``) for text that
            does not fit; ``unsafe_expression`` for a right-hand side outside both
            grammars; ``input_too_large`` beyond :data:`MAX_TEXT_BYTES` / :data:`MAX_LINES`;
            ``ambiguous_reference`` / ``state_unset`` when a call form's entity owns no
            single state.
    """
    lines = _text_lines(text)
    read = _Lines()
    for number, line in enumerate(lines, start=1):
        where = f"line {number}"
        if not line.strip():
            continue
        try:
            read.add(number, line, where)
        except BindingGraphError as exc:
            raise MathGraphError(
                exc.reason, exc.detail, f"{where}: {exc.path}" if exc.path and exc.path != where else where
            ) from None
    equations, recorded = _equations(read)
    try:
        graph = BindingGraph(
            symbols=tuple(read.symbols),
            facts=tuple(read.facts),
            equations=tuple(equations),
            unknowns=tuple(read.unknowns),
            constraints=tuple(read.constraints),
            provenance=tuple(read.provenance),
        )
    except BindingGraphError as exc:
        raise MathGraphError(exc.reason, exc.detail, exc.path) from None
    return graph, recorded


def _text_lines(text: object) -> list[str]:
    """The lines of a canonical text, once it is a string within :data:`MAX_TEXT_BYTES` and :data:`MAX_LINES`.

    Raises:
        MathGraphError: ``malformed_input`` for a non-string; ``input_too_large``.
    """
    if not isinstance(text, str):
        raise MathGraphError("malformed_input", f"canonical text must be a string, found {json_kind(text)}", "text")
    if len(text) > MAX_TEXT_BYTES:
        raise MathGraphError("input_too_large", f"text longer than {MAX_TEXT_BYTES} characters", "text")
    lines = text.splitlines()
    if len(lines) > MAX_LINES:
        raise MathGraphError("input_too_large", f"more than {MAX_LINES} lines", "text")
    return lines


@dataclass(slots=True)
class _Lines:
    """What the lines of a canonical text hold, read one by one (``E`` lines are bound once every symbol is read)."""

    symbols: list[SymbolBinding] = field(default_factory=list)
    facts: list[BoundFact] = field(default_factory=list)
    raw_equations: list[tuple[int, re.Match[str]]] = field(default_factory=list)
    unknowns: list[BoundUnknown] = field(default_factory=list)
    constraints: list[BoundConstraint] = field(default_factory=list)
    provenance: list[SourceSpanLink] = field(default_factory=list)

    def add(self, number: int, line: str, where: str) -> None:
        """Read one non-blank line by its tag (:data:`_LINE_READERS`); any other tag is refused.

        Raises:
            MathGraphError: ``malformed_input`` naming ``where``.
            BindingGraphError: a part of the line the model refuses.
        """
        reader = _LINE_READERS.get(line[:2])
        if reader is None:
            raise MathGraphError(
                "malformed_input", f"a line starts with S, F, E, U, C or P; found {line[:20]!r}", where
            )
        reader(self, number, line, where)

    def read_symbol(self, _number: int, line: str, where: str) -> None:
        """An ``S`` line: a symbol binding."""
        m = _full(_S, line, where)
        self.symbols.append(
            SymbolBinding(
                symbol_id=m["id"],
                name=m["name"],
                semantic_role=cast("SemanticRole", m["role"]),  # SymbolBinding refuses any other text
                source_span=_span(m),
                introduced_by=m["by"],
                entity=_none(m["entity"]),
                unit=_none(m["unit"]),
            )
        )

    def read_fact(self, _number: int, line: str, where: str) -> None:
        """An ``F`` line: a fact, its value exact."""
        m = _full(_F, line, where)
        value = exact(m["value"], where)
        self.facts.append(
            BoundFact(
                symbol_id=m["id"],
                value=_exact_text(m["value"], value),
                unit=_none(m["unit"]),
                source_span=_span(m),
            )
        )

    def read_equation(self, number: int, line: str, where: str) -> None:
        """An ``E`` line: kept as matched, bound by :func:`_equations` once every symbol is read."""
        self.raw_equations.append((number, _full(_E, line, where)))

    def read_unknown(self, _number: int, line: str, where: str) -> None:
        """A ``U`` line: an unknown."""
        m = _full(_U, line, where)
        self.unknowns.append(
            BoundUnknown(
                symbol_id=m["id"],
                expected_unit=_none(m["unit"]),
                state_index=parse_state_index(m["state"], where),
                question_form=cast("QuestionForm", m["form"]),  # BoundUnknown refuses any other text
                question_span=_span(m),
            )
        )

    def read_constraint(self, _number: int, line: str, where: str) -> None:
        """A ``C`` line: a constraint."""
        m = _full(_C, line, where)
        self.constraints.append(BoundConstraint(symbol_id=m["id"], predicate=m["pred"], source_span=_span(m)))

    def read_provenance(self, _number: int, line: str, where: str) -> None:
        """A ``P`` line: a provenance span, with its text if any."""
        m = _full(_P, line, where)
        self.provenance.append(_span(m, m["text"] or None))


_LINE_READERS: Final[dict[str, Callable[[_Lines, int, str, str], None]]] = {
    "S ": _Lines.read_symbol,
    "F ": _Lines.read_fact,
    "E ": _Lines.read_equation,
    "U ": _Lines.read_unknown,
    "C ": _Lines.read_constraint,
    "P ": _Lines.read_provenance,
}
"""The reader of each line tag; :meth:`_Lines.add` refuses any other."""


def _equations(read: _Lines) -> tuple[list[BoundEquation], dict[str, RecordedVerdict]]:
    """The ``E`` lines bound against the symbols read, in order, and the verdicts they record by lhs.

    Raises:
        MathGraphError: the first line that does not bind, naming it.
    """
    by_id = {s.symbol_id: s for s in read.symbols}
    facts = {f.symbol_id: f for f in read.facts}
    equations: list[BoundEquation] = []
    recorded: dict[str, RecordedVerdict] = {}
    for number, m in read.raw_equations:
        where = f"line {number}"
        deps = tuple(d for d in m["deps"].split(",") if d)
        try:
            equations.append(_equation(m, deps, by_id, facts, where))
        except BindingGraphError as exc:
            raise MathGraphError(exc.reason, exc.detail, where) from None
        recorded[m["lhs"]] = RecordedVerdict(
            lhs_symbol_id=m["lhs"],
            operation_kind=m["op"],
            rhs_canonical=m["rhs"],
            dependencies=deps,
            status=m["status"],
            unit_proof=m["proof"],
            refusal_reason=_none(m["refusal"]),
        )
    return equations, recorded


def _equation(
    m: re.Match[str],
    deps: tuple[str, ...],
    by_id: dict[str, SymbolBinding],
    facts: dict[str, BoundFact],
    where: str,
) -> BoundEquation:
    """One ``E`` line as an equation; its parts (call form, ``op=``, ``literal_unit=``, owner, facts) must agree."""
    rhs, literal_unit = _rhs(m["rhs"], m["op"], m["lhs"], deps, by_id, facts, where=where)
    if _CALL.fullmatch(m["rhs"]) is None and (
        len(set(deps)) != len(deps) or set(deps) != {s.name for s in rhs.free_symbols}
    ):
        raise MathGraphError(
            "malformed_input",
            f"deps=[{','.join(deps)[:80]}] differ from the symbols the right-hand side reads: the line disagrees with itself",
            where,
        )
    written_lit = _none(m["lit"]) if m["lit"] else None
    if literal_unit is not None and written_lit is not None and written_lit != literal_unit:
        raise MathGraphError(
            "malformed_input",
            f"the call form's quantity is in {literal_unit!r} but literal_unit={written_lit!r}: the line disagrees with itself",
            where,
        )
    equation = BoundEquation.create(
        lhs_symbol_id=m["lhs"],
        rhs=rhs,
        operation_kind=m["op"],
        source_span=_span(m),
        literal_unit=written_lit if written_lit is not None else literal_unit,
        unit_proof=m["proof"],
        admissibility_status=cast("AdmissibilityStatus", m["status"]),  # likewise
        refusal_reason=_none(m["refusal"]),
        operand_roles=_roles(m["roles"], where) if m["roles"] else None,
        operation=int(m["operation"]) if m["operation"] else None,
    )
    if m["roles"] is None:  # upstream text records no roles: its suffix conventions name them
        equation = with_roles(equation, upstream_roles(equation, by_id))
    return equation


def _roles(text: str, where: str) -> dict[str, str]:
    roles: dict[str, str] = {}
    for item in text.split(","):
        dep, sep, role = item.partition(":")
        if not sep or not dep or dep in roles:
            raise MathGraphError(
                "malformed_input", f"roles=[...] lists dependency:role pairs, found {item[:40]!r}", where
            )
        roles[dep] = role
    return roles


def _full(pattern: re.Pattern[str], line: str, where: str) -> re.Match[str]:
    m = pattern.fullmatch(line)
    if m is None:
        raise MathGraphError("malformed_input", f"does not fit the {line[0]} line format: {line[:80]!r}", where)
    return m


def _exact_text(raw: str, value: object) -> str:
    return raw if re.fullmatch(r"-?[0-9]+(?:\.[0-9]+)?|-?[0-9]+/[0-9]+", raw) else format_exact(value)  # type: ignore[arg-type]


def _owned(entity: str, deps: tuple[str, ...], by_id: dict[str, SymbolBinding], where: str) -> str | None:
    owned = [
        d
        for d in deps
        if d in by_id
        and by_id[d].entity == entity
        and not d.endswith(("__multiplicand", "__divisor", "__rate", "__chunk"))
    ]
    if len(owned) > 1:
        raise MathGraphError("ambiguous_reference", f"{entity} owns several dependencies: {', '.join(owned)}", where)
    return owned[0] if owned else None


def _suffixed(deps: tuple[str, ...], suffix: str) -> str | None:
    found = [d for d in deps if d.endswith(suffix)]
    return found[0] if len(found) == 1 else None


def _rhs(  # noqa: PLR0917 -- the parts of one E line, in the line's order
    text: str,
    op: str,
    lhs: str,
    deps: tuple[str, ...],
    by_id: dict[str, SymbolBinding],
    facts: dict[str, BoundFact],
    *,
    where: str,
) -> tuple[sympy.Expr, str | None]:
    """Build the right-hand side from a call form or from arithmetic text.

    A call form is read by its kind's reader (:data:`_CALL_FORMS`), once its kind is known,
    agrees with ``op=`` and its actor owns the lhs; any other kind is ``unsafe_expression``.

    Returns:
        ``(rhs, literal_unit)``: the unit of the call form's quantity, or ``None``.
    """
    match = _CALL.fullmatch(text)
    if match is None:
        return parse_expression(text, path=where), None
    kind, actor = match["kind"], match["actor"]
    reader = _CALL_FORMS.get(kind)
    if reader is None:
        raise MathGraphError("unsafe_expression", f"unknown call form {kind}(...)", where)
    if kind != op:
        raise MathGraphError(
            "malformed_input",
            f"the call form is {kind}(...) but the line says op={op}: it disagrees with itself",
            where,
        )
    owner = by_id[lhs].entity if lhs in by_id else None
    if owner is not None and owner != actor:
        raise MathGraphError(
            "malformed_input", f"{lhs} belongs to {owner}, but the call form's actor is {actor}", where
        )
    state_id = _owned(actor, deps, by_id, where)
    state = symbol(state_id) if state_id else sympy.Integer(0)
    call = _Call(
        kind=kind,
        actor=actor,
        target=match["target"],
        arg=match["arg"],
        state=state,
        deps=deps,
        by_id=by_id,
        facts=facts,
        where=where,
    )
    return reader(call)


@dataclass(frozen=True, slots=True, kw_only=True)
class _Call:
    """A call form of a right-hand side, matched (``transfer(Sam->Kim, 7 dollars)``), with what its reader needs.

    Attributes:
        kind: the call's name, one of :data:`_CALL_FORMS`.
        actor, target: the entities it names (``target``: a transfer's, else ``None``).
        arg: the text after the actor (``7 dollars``, ``more(Bo, delta=4 dollars)``).
        state: the actor's state the call reads (``0`` for an untouched actor).
        deps, by_id: the line's dependencies and the graph's symbols.
        facts: the graph's facts by symbol (a call's number must be its operand's fact).
        where: the line, for errors.
    """

    kind: str
    actor: str
    target: str | None
    arg: str
    state: sympy.Expr
    deps: tuple[str, ...]
    by_id: dict[str, SymbolBinding]
    facts: dict[str, BoundFact]
    where: str

    def quantity(self) -> tuple[sympy.Expr, str]:
        """The call's ``<number> <unit>`` argument: its exact number and its unit.

        Raises:
            MathGraphError: ``malformed_input`` for another argument.
        """
        qty = _QTY.fullmatch(self.arg)
        if qty is None:
            raise MathGraphError(
                "malformed_input",
                f"expected '<number> <unit>' in {self.kind}(...), found {self.arg[:40]!r}",
                self.where,
            )
        return rational(exact(qty["num"], self.where)), qty["unit"]


_RATE_AND_QUANTITY: Final[int] = 2
"""What an ``apply_rate`` call lists: its rate and the one quantity it applies to."""


def _same_unit(a: str | None, b: str | None) -> bool:
    """Whether two unit texts name one unit: equal, or resolving to one lemma in the default vocabulary.

    ``dollars`` and ``dollar``, ``$`` and ``dollars``, ``dollars_per_hours`` and
    ``dollar_per_hour`` are one unit; a declared count noun (``apples``) compares as written.
    """
    if a == b:
        return True
    if a is None or b is None:
        return False
    lemma = _lemma(a)
    return lemma is not None and lemma == _lemma(b)


@functools.lru_cache(maxsize=1024)
def _resolved(unit: str) -> UnitRef | None:
    """What ``unit`` resolves to in the default vocabulary, or ``None`` outside it (resolved once per text)."""
    try:
        return default_vocabulary().resolve(unit)
    except UnitRefusal:
        return None


def _lemma(unit: str) -> str | None:
    """The lemma ``unit`` resolves to in the default vocabulary, or ``None`` outside it."""
    ref = _resolved(unit)
    return ref.lemma if ref is not None else None


def _agree(call: _Call, operand: str, written: sympy.Expr, unit: str, *, shown: str = "") -> None:
    """The call's written ``<number> <unit>`` is its operand's fact (a line whose parts disagree is refused).

    ``multiply(Sam, 3 dollars)`` over ``op_000__multiplicand`` needs that symbol's fact to
    be 3, in dollars when the fact names a unit.  A fact that names none is a pure
    scalar, and then the written unit names the state it scales (upstream's way), so it
    must be that state's unit when the state names one.

    Raises:
        MathGraphError: ``malformed_input`` naming the line.
    """
    value = exact(written, call.where)
    fact = call.facts.get(operand)
    declared = call.by_id[operand].unit if operand in call.by_id else None
    pure = fact is not None and fact.unit is None and declared is None  # a pure-number scalar
    labelled = fact is not None and _same_unit(fact.unit, unit) and (declared is None or _same_unit(declared, unit))
    if fact is None or exact(fact.value, call.where) != value or not (pure or labelled):
        found = "no fact" if fact is None else f"F {operand} = {fact.value} unit={fact.unit} (its symbol in {declared})"
        raise MathGraphError(
            "malformed_input",
            f"{call.kind}(...) writes {format_exact(value)} {shown or unit}, but {found}: the line disagrees with the facts",
            call.where,
        )
    if pure:
        _names_the_state(call, unit)
    elif _is_scaled_number(unit):
        raise MathGraphError(
            "malformed_input",
            f"{call.kind}(...) writes {format_exact(value)} {unit}: a scalar labelled in {unit} is ambiguous"
            f" (a factor of {format_exact(value)}, or of {format_exact(value)} {unit}); write the pure number",
            call.where,
        )


def _is_scaled_number(unit: str) -> bool:
    """Whether ``unit`` is a pure number with a scale (``percent``, ``½``): no dimension, a factor other than 1."""
    ref = _resolved(unit)  # the text itself: a rate of a rate's lemma (a_per_b_per_c) resolves as no unit
    return ref is not None and ref.kind == () and ref.scale != 1


def _names_the_state(call: _Call, unit: str) -> None:
    """A pure-number scalar's written unit names the state it scales (upstream's way): it must be that state's unit.

    Raises:
        MathGraphError: ``malformed_input`` naming the line.
    """
    state = call.by_id.get(str(call.state)) if isinstance(call.state, sympy.Symbol) else None
    if state is not None and state.unit is not None and not _same_unit(state.unit, unit):
        raise MathGraphError(
            "malformed_input",
            f"{call.kind}(...) names {unit}, but the state it scales, {state.symbol_id}, is in {state.unit}",
            call.where,
        )


def _operand(call: _Call, suffix: str) -> str | None:
    """The call's one ``*<suffix>`` dependency; ``None`` when it lists none besides the actor's state.

    Raises:
        MathGraphError: ``malformed_input`` for another dependency, or several of the suffix:
            the written number would silently stand in for what the line lists.
    """
    state = str(call.state) if isinstance(call.state, sympy.Symbol) else None
    others = [d for d in call.deps if d != state]
    found = [d for d in others if d.endswith(suffix)]
    if len(found) == 1 and len(others) == 1:
        return found[0]
    if not others:
        return None
    raise MathGraphError(
        "malformed_input",
        f"{call.kind}(...) reads the actor's state and one *{suffix} dependency; deps=[{','.join(call.deps)[:80]}]",
        call.where,
    )


def _add_call(call: _Call) -> tuple[sympy.Expr, str | None]:
    """``add(A, 3 apples)``: the actor's state plus the quantity."""
    value, unit = call.quantity()
    return call.state + value, unit


def _subtract_call(call: _Call) -> tuple[sympy.Expr, str | None]:
    """``subtract(A, 3 apples)``: the actor's state less the quantity."""
    value, unit = call.quantity()
    return call.state - value, unit


def _transfer_call(call: _Call) -> tuple[sympy.Expr, str | None]:
    """``transfer(A->B, 3 apples)``: the actor's state less the quantity; the target must be another entity."""
    value, unit = call.quantity()
    if call.target == call.actor or not _is_entity(call.target, call.by_id):
        raise MathGraphError(
            "malformed_input",
            f"transfer({call.actor}->{call.target}): the target must be another entity of the graph",
            call.where,
        )
    return call.state - value, unit


def _scaling_operand(call: _Call, suffix: str) -> sympy.Expr:
    """The number a ``multiply``/``divide`` call scales by: its ``*<suffix>`` operand's symbol, else the written number.

    Raises:
        MathGraphError: ``malformed_input`` for a line whose parts disagree (:func:`_agree`,
            :func:`_names_the_state`, :func:`_operand`).
    """
    value, unit = call.quantity()
    listed = _operand(call, suffix)
    if listed:
        _agree(call, listed, value, unit)
        return symbol(listed)
    _names_the_state(call, unit)  # the written number is the scalar: its unit names the state
    return value


def _multiply_call(call: _Call) -> tuple[sympy.Expr, str | None]:
    """``multiply(A, 3 dollars)``: the actor's state times the ``*__multiplicand`` dependency, else the number."""
    return call.state * _scaling_operand(call, "__multiplicand"), None


def _divide_call(call: _Call) -> tuple[sympy.Expr, str | None]:
    """``divide(A, 4 dollars)``: the actor's state over the ``*__divisor`` dependency, else the number (not 0)."""
    divisor = _scaling_operand(call, "__divisor")
    if isinstance(divisor, sympy.Rational) and divisor == 0:
        raise MathGraphError("division_by_zero", "divide(...) by the literal 0", call.where)
    return call.state / divisor, None


def _apply_rate_call(call: _Call) -> tuple[sympy.Expr, str | None]:
    """``apply_rate(A, 15 dollars/hours)``: the ``*__rate`` dependency times the other (the quantity)."""
    rate = _suffixed(call.deps, "__rate")
    quantity = next((d for d in call.deps if d != rate), None)
    if rate is None or quantity is None:
        raise MathGraphError("malformed_input", "apply_rate(...) needs a *__rate and a quantity dependency", call.where)
    value, written = call.quantity()
    numerator, slash, denominator = _rate_sides(written, call.facts.get(rate))
    if not slash or not numerator or not denominator:
        raise MathGraphError(
            "malformed_input", f"expected '<number> X/Y' in apply_rate(...), found {call.arg[:40]!r}", call.where
        )
    _agree(call, rate, value, f"{numerator}_per_{denominator}", shown=written)
    owner = call.by_id[quantity].entity if quantity in call.by_id else None
    if len(call.deps) != _RATE_AND_QUANTITY or (owner is not None and owner != call.actor):
        raise MathGraphError(
            "malformed_input",
            f"apply_rate({call.actor}, ...) applies its rate to one quantity of {call.actor}'s; deps=[{','.join(call.deps)[:80]}]",
            call.where,
        )
    return symbol(rate) * symbol(quantity), None


def _rate_sides(written: str, fact: BoundFact | None) -> tuple[str, str, str]:
    """``X/Y`` split into ``(X, "/", Y)`` at the ``/`` where the rate's fact unit splits, else at the first.

    A side may itself be a rate: ``15 $/hr/people`` over a fact in ``$/hr_per_people`` is
    ``$/hr`` per ``people``, not ``$`` per ``hr/people``.
    """
    if fact is not None:
        for i, char in enumerate(written):
            numerator, denominator = written[:i], written[i + 1 :]
            if char == "/" and numerator and denominator and _same_unit(fact.unit, f"{numerator}_per_{denominator}"):
                return numerator, char, denominator
    return written.partition("/")


def _compare_call(call: _Call) -> tuple[sympy.Expr, str | None]:
    """``compare_additive(A, more(B, delta=4 dollars))`` or ``compare_multiplicative(A, times(B, factor=2))``.

    The reference's state is the dependency it owns, else its one state.
    """
    cmp = _COMPARE.fullmatch(call.arg)
    if cmp is None:
        raise MathGraphError(
            "malformed_input",
            f"expected more|fewer|times|fraction(REF, delta=|factor=...), found {call.arg[:40]!r}",
            call.where,
        )
    _check_direction(call.kind, cmp["dir"], cmp["key"], call.where)
    ref_id = _owned(cmp["ref"], call.deps, call.by_id, call.where) or _single_state(cmp["ref"], call.by_id, call.where)
    ref = symbol(ref_id)
    if cmp["key"] != "delta":
        factor = exact(cmp["val"], call.where)
        if factor <= 0 or (cmp["dir"] == "fraction" and factor >= 1):
            raise MathGraphError(
                "malformed_input",
                f"a factor is positive, and below 1 for 'fraction' ('times' multiplies by more); found {cmp['val'][:40]!r}",
                call.where,
            )
        return rational(factor) * ref, None
    qty = _QTY.fullmatch(cmp["val"])
    if qty is None:
        raise MathGraphError(
            "malformed_input", f"expected delta=<number> <unit>, found {cmp['val'][:40]!r}", call.where
        )
    delta = exact(qty["num"], call.where)
    if delta < 0:
        raise MathGraphError(
            "malformed_input",
            f"a delta is not negative (found {qty['num'][:40]}): the direction more/fewer carries the sign",
            call.where,
        )
    sign = -1 if cmp["dir"] == "fewer" else 1
    return ref + sign * rational(delta), qty["unit"]


_COMPARISON_FORMS: Final[dict[str, tuple[tuple[str, ...], str]]] = {
    "compare_additive": (("more", "fewer"), "delta"),
    "compare_multiplicative": (("times", "fraction"), "factor"),
}
"""Each comparison kind's directions and the one argument it takes (as the math graph's, SPEC §5)."""


def _check_direction(kind: str, direction: str, key: str, where: str) -> None:
    """A comparison's direction and argument fit its kind: ``fewer(B, factor=2)`` is no ``compare_multiplicative``.

    Raises:
        MathGraphError: ``malformed_input`` naming the line (a line whose parts disagree).
    """
    directions, wanted = _COMPARISON_FORMS[kind]
    if direction not in directions or key != wanted:
        raise MathGraphError(
            "malformed_input",
            f"{kind} takes {' or '.join(directions)}(REF, {wanted}=...), found {direction}(..., {key}=...)",
            where,
        )


_CALL_FORMS: Final[dict[str, Callable[[_Call], tuple[sympy.Expr, str | None]]]] = {
    "add": _add_call,
    "subtract": _subtract_call,
    "transfer": _transfer_call,
    "multiply": _multiply_call,
    "divide": _divide_call,
    "apply_rate": _apply_rate_call,
    "compare_additive": _compare_call,
    "compare_multiplicative": _compare_call,
}
"""The reader of each upstream call form (``add(Sam, 3 apples)`` …); :func:`_rhs` refuses any other name."""


def _is_entity(name: str | None, by_id: dict[str, SymbolBinding]) -> bool:
    return name is not None and any(
        s.semantic_role == "entity" and (s.entity or s.name) == name for s in by_id.values()
    )


def _single_state(entity: str, by_id: dict[str, SymbolBinding], where: str) -> str:
    """The one quantity-like symbol an entity owns (for a comparison that lists no dependency)."""
    owned = [s.symbol_id for s in by_id.values() if s.entity == entity and s.semantic_role not in ("entity", "unknown")]
    if not owned:
        raise MathGraphError("state_unset", f"{entity} owns no state to compare with", where)
    if len(owned) > 1:
        raise MathGraphError("ambiguous_reference", f"{entity} owns several states: {', '.join(owned)}", where)
    return owned[0]


__all__ = [
    "MAX_LINES",
    "MAX_TEXT_BYTES",
    "RecordedVerdict",
    "parse_canonical_text",
]
