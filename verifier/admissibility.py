"""Per-kind dimensional admissibility of one equation, with unit proofs (SPEC §4, ADR-0134).

``check_equation`` decides, for each of the ten operation kinds, whether the
operands' units fit the kind, using the restricted pint registry of a
:class:`units.UnitVocabulary` (per-unit dimensionalities and exact scales are
computed by pint once and cached on each :class:`units.UnitRef`).  It never
raises for a bad equation: it returns a :class:`Verdict` holding a
:class:`UnitProof` or a typed :class:`Refusal`.

Stricter than the upstream integer-exponent algebra where that algebra would let
a wrong answer through: currencies, count kinds, containers and the unscaled
degree stay apart; offset temperatures take no arithmetic; calendar units need a
declared convention against days; a scalar multiplier is dimensionless; an
apply_rate quantity must have exactly the rate's denominator dimension.
"""

from __future__ import annotations

import functools
import weakref
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from types import MappingProxyType
from typing import TYPE_CHECKING, Final, Literal, NamedTuple, cast

if TYPE_CHECKING:
    import sympy

    from verifier import display
else:
    from verifier.lazy import LazyModule, sympy

    display = LazyModule("verifier.display")  # the notebook views load when a notebook first shows a result

from units import DimensionVector, UnitRef, UnitRefusal, UnitVocabulary, default_vocabulary
from units.dimension import COUNT, DIMENSIONLESS, TEMPERATURE
from units.errors import DetailRefusal, RefusalError, clip
from units.exact import format_exact
from units.reasons import RefusalReason, is_refusal_reason
from units.vocabulary import check_commensurable
from verifier.errors import BindingGraphError, given_vocabulary
from verifier.expr import as_fraction, is_identifier, parse_expression, print_expression, symbol
from verifier.jsonread import (
    json_dimension,
    json_fraction,
    json_list,
    json_object,
    json_optional_text,
    json_text,
)
from verifier.model import OPERATION_KINDS, BindingGraph, BoundEquation, SymbolBinding
from verifier.reasons import REFUSAL_REASONS
from verifier.roles import roles_of

ADDITIVE_KINDS: Final[frozenset[str]] = frozenset({"add", "subtract", "transfer", "compare_additive"})

_COUNT: Final[DimensionVector] = COUNT
_TEMPERATURE: Final[DimensionVector] = TEMPERATURE
_ONE: Final[Fraction] = Fraction(1)
_PAIR: Final[int] = 2  # the operands of a binary operation, or the two factors of a product
_RATIO_MEMO_SIZE: Final[int] = 4096  # distinct unit pairs remembered before the ratio memo starts over
_PURE: Final[UnitRef] = UnitRef(
    surface="<pure number>",
    lemma="<pure number>",
    dimension=DIMENSIONLESS,
    unit=None,  # type: ignore[arg-type]  # a marker, never handed to pint
    kind=(),
    scale=_ONE,
)
"""The unit of a unitless ``ratio`` symbol: a pure number (only for checking an lhs, never resolved)."""
_CARRIER_ROLES: Final[frozenset[str]] = frozenset({"operand", "state", "dividend", "quantity", "reference"})


@dataclass(frozen=True, slots=True, kw_only=True)
class Refusal:
    """A typed "no answer": ``reason`` from :data:`~verifier.reasons.REFUSAL_REASONS` and a short ``detail``.

    Raises:
        ValueError: at construction, for a reason outside the closed vocabulary.
    """

    reason: RefusalReason
    detail: str

    def __post_init__(self) -> None:
        if self.reason not in REFUSAL_REASONS:
            raise ValueError(f"not a refusal reason: {self.reason!r}")

    def __str__(self) -> str:
        return f"{self.reason}: {self.detail}"

    def to_json(self) -> dict[str, object]:
        """``{"reason", "detail"}``; :meth:`from_json` reads it back."""
        return {"reason": self.reason, "detail": self.detail}

    @classmethod
    def from_json(cls, data: object, /, *, path: str = "refusal") -> Refusal:
        """Read :meth:`to_json` output, checking each key and type.

        Raises:
            BindingGraphError: ``malformed_input`` naming ``path``: not an object, a key
                missing or unknown, a value not a string, a reason outside the vocabulary.
        """
        obj = json_object(data, path, {"reason", "detail"}, set())
        reason = obj["reason"]
        if not is_refusal_reason(reason):
            raise BindingGraphError("malformed_input", f"not a refusal reason: {clip(reason)}", f"{path}.reason")
        return cls(reason=reason, detail=json_text(obj["detail"], f"{path}.detail"))

    @classmethod
    def from_error(cls, error: RefusalError) -> Refusal:
        """The refusal a typed error carries: its reason, and its message without the reason.

        Args:
            error: any :class:`units.errors.RefusalError` (a unit, model, adapter,
                question-target or evaluation error).

        Returns:
            ``Refusal(error.reason, error.explain())``.
        """
        return cls(reason=error.reason, detail=error.explain())


class ProofOperand(NamedTuple):
    """One operand as the proof saw it (an immutable named tuple: built for every operand of every check).

    Attributes:
        symbol_id: the dependency (or ``"<literal>"`` for the rhs constant term).
        role: its part in the kind: ``operand``, ``state``, ``scalar``, ``dividend``,
            ``divisor``, ``rate``, ``quantity``, ``reference``, ``chunk``.
        unit: the unit surface as written (``None`` for a unitless ratio).
        dimension: its six-axis dimension as the proof counts it (scalars: dimensionless).
        factor: exact factor applied to its magnitude in the equation's frame
            (e.g. ``1/12`` for inches added to feet).
    """

    symbol_id: str
    role: str
    unit: str | None
    dimension: DimensionVector
    factor: Fraction

    def to_json(self) -> dict[str, object]:
        """Plain JSON data; :meth:`from_json` reads it back equal."""
        return {
            "symbol_id": self.symbol_id,
            "role": self.role,
            "unit": self.unit,
            "dimension": self.dimension.to_canonical_string(),
            "factor": format_exact(self.factor),
        }

    @classmethod
    def from_json(cls, data: object, /, *, path: str = "operand") -> ProofOperand:
        """Read :meth:`to_json` output, checking each key and type.

        Raises:
            BindingGraphError: ``malformed_input`` naming the field: a key missing or
                unknown, a non-string id or role, a unit neither string nor null, a
                dimension not in canonical spelling, a factor not an exact ``"a/b"``.
        """
        obj = json_object(data, path, {"symbol_id", "role", "unit", "dimension", "factor"}, set())
        return cls(
            json_text(obj["symbol_id"], f"{path}.symbol_id"),
            json_text(obj["role"], f"{path}.role"),
            json_optional_text(obj["unit"], f"{path}.unit"),
            json_dimension(obj["dimension"], f"{path}.dimension"),
            json_fraction(obj["factor"], f"{path}.factor"),
        )


@dataclass(frozen=True, slots=True, kw_only=True)
class UnitProof:
    """Witness that one equation is dimensionally admissible.

    Attributes:
        operation_kind: the equation's kind.
        lhs_symbol_id: the symbol defined.
        operands: dependencies in sorted id order (the upstream proof order), then the literal.
        result_unit: the unit of the result (a lemma or composite id), or ``None`` for a pure number.
        result_dimension: its six-axis dimension.
        declarations: caller declarations relied on (count nouns, calendar conventions).
        rhs: the equation's right-hand side (sympy), so ``equation`` can be rebuilt.
        result_ref: the result's :class:`units.UnitRef` as the check resolved it (its
            surface as written), or ``None`` for a pure number.  It holds registry
            objects, so JSON stores ``result_unit`` (the lemma) instead, and it takes no
            part in equality or the hash: :meth:`from_json` resolves the lemma again.
    """

    operation_kind: str
    lhs_symbol_id: str
    operands: tuple[ProofOperand, ...]
    result_unit: str | None
    result_dimension: DimensionVector
    declarations: tuple[str, ...]
    rhs: sympy.Expr
    result_ref: UnitRef | None = field(default=None, compare=False)

    def __repr__(self) -> str:
        return f"UnitProof({self.lhs_symbol_id}: {self.to_canonical_string()})"

    def _repr_html_(self) -> str:
        return display.unit_proof_html(self)

    def _repr_latex_(self) -> str:
        return display.unit_proof_latex(self)

    def to_canonical_string(self) -> str:
        """``"<kind>: [<operand dims in sorted dep order>] -> <result dim>"`` (upstream format)."""
        dims = ",".join(op.dimension.to_canonical_string() for op in self.operands if op.symbol_id != "<literal>")
        return f"{self.operation_kind}: [{dims}] -> {self.result_dimension.to_canonical_string()}"

    @property
    def equation(self) -> sympy.Eq:
        """The sympy equation ``Symbol(lhs) == rhs`` (built on demand, off the hot path)."""
        return sympy.Eq(symbol(self.lhs_symbol_id), self.rhs, evaluate=False)

    @property
    def factors(self) -> dict[str, Fraction]:
        """Exact frame factors by operand id (``"<literal>"`` for the constant term)."""
        return {op.symbol_id: op.factor for op in self.operands}

    def to_json(self) -> dict[str, object]:
        """Plain JSON data (the proof string, units, factors, declarations)."""
        return {
            "proof": self.to_canonical_string(),
            "operation_kind": self.operation_kind,
            "operands": [op.to_json() for op in self.operands],
            "result_unit": self.result_unit,
            "result_dimension": self.result_dimension.to_canonical_string(),
            "declarations": list(self.declarations),
            "equation": f"{self.lhs_symbol_id} = {print_expression(self.rhs)}",  # sympy's sstr(order="lex") text
        }

    @classmethod
    def from_json(cls, data: object, /, *, vocab: UnitVocabulary | None = None, path: str = "proof") -> UnitProof:
        """Read :meth:`to_json` output; ``result_unit`` is resolved again in ``vocab`` for ``result_ref``.

        The equation is read with the safe grammar of :func:`verifier.expr.parse_expression`,
        and the ``proof`` string must be the one the other fields give.

        Args:
            data: the JSON object.
            vocab: the vocabulary the proof was made in (default: :func:`units.default_vocabulary`).
            path: where ``data`` sits, for messages.

        Raises:
            BindingGraphError: ``malformed_input`` (or the unit's own reason, such as
                ``unknown_unit``) naming the field, or for a ``vocab`` that is no vocabulary.
        """
        voc = given_vocabulary(vocab)
        keys = {"proof", "operation_kind", "operands", "result_unit", "result_dimension", "declarations", "equation"}
        obj = json_object(data, path, keys, set())
        lhs, sep, rhs_text = json_text(obj["equation"], f"{path}.equation").partition(" = ")
        if not sep or not is_identifier(lhs):
            raise BindingGraphError("malformed_input", "equation must read '<lhs> = <rhs>'", f"{path}.equation")
        result_unit = json_optional_text(obj["result_unit"], f"{path}.result_unit")
        try:
            result_ref = None if result_unit is None else voc.resolve(result_unit, path=f"{path}.result_unit")
        except UnitRefusal as exc:
            raise BindingGraphError(exc.reason, exc.explain(), f"{path}.result_unit") from None
        proof = cls(
            operation_kind=json_text(obj["operation_kind"], f"{path}.operation_kind"),
            lhs_symbol_id=lhs,
            operands=tuple(
                ProofOperand.from_json(item, path=f"{path}.operands[{i}]")
                for i, item in enumerate(json_list(obj["operands"], f"{path}.operands"))
            ),
            result_unit=result_unit,
            result_dimension=json_dimension(obj["result_dimension"], f"{path}.result_dimension"),
            declarations=tuple(
                json_text(item, f"{path}.declarations[{i}]")
                for i, item in enumerate(json_list(obj["declarations"], f"{path}.declarations"))
            ),
            rhs=parse_expression(rhs_text, path=f"{path}.equation"),
            result_ref=result_ref,
        )
        if obj["proof"] != proof.to_canonical_string():
            raise BindingGraphError(
                "malformed_input", f"proof {clip(obj['proof'])} is not what its fields give", f"{path}.proof"
            )
        return proof


@dataclass(frozen=True, slots=True, kw_only=True)
class Verdict:
    """Admissibility of one equation: ``admitted`` with a proof, or ``refused`` with a refusal.

    Attributes:
        status: ``"admitted"`` or ``"refused"``.
        proof: the :class:`UnitProof` when admitted, else ``None``.
        refusal: the :class:`Refusal` when refused, else ``None``.
    """

    status: Literal["admitted", "refused"]
    proof: UnitProof | None = None
    refusal: Refusal | None = None

    def _repr_html_(self) -> str:
        return display.verdict_html(self)

    def __post_init__(self) -> None:
        if self.status == "admitted":
            if self.proof is None or self.refusal is not None:
                raise ValueError("an admitted verdict holds a proof and no refusal")
        elif self.status == "refused":
            if self.refusal is None or self.proof is not None:
                raise ValueError("a refused verdict holds a refusal and no proof")
        else:
            raise ValueError(f"status must be 'admitted' or 'refused', found {self.status!r}")

    @property
    def unit_proof(self) -> str:
        """The proof string, or the sentinel ``"unverified"`` when refused (upstream slot)."""
        return self.proof.to_canonical_string() if self.proof is not None else "unverified"

    def __str__(self) -> str:
        return f"admitted {self.unit_proof}" if self.proof is not None else f"refused {self.refusal}"

    def __repr__(self) -> str:
        return f"Verdict({self})"

    def to_json(self) -> dict[str, object]:
        """Plain JSON data; :meth:`from_json` reads it back equal."""
        out: dict[str, object] = {"status": self.status, "unit_proof": self.unit_proof}
        if self.proof is not None:
            out["proof"] = self.proof.to_json()
        if self.refusal is not None:
            out["refusal"] = self.refusal.to_json()
        return out

    @classmethod
    def from_json(cls, data: object, /, *, vocab: UnitVocabulary | None = None, path: str = "verdict") -> Verdict:
        """Read :meth:`to_json` output (an admitted verdict's proof through :meth:`UnitProof.from_json`).

        Raises:
            BindingGraphError: ``malformed_input`` naming the field, also for a
                ``unit_proof`` other than the proof's string, or a status that does not
                fit the parts given.
        """
        given_vocabulary(vocab)
        obj = json_object(data, path, {"status", "unit_proof"}, {"proof", "refusal"})
        proof = None if "proof" not in obj else UnitProof.from_json(obj["proof"], vocab=vocab, path=f"{path}.proof")
        refusal = None if "refusal" not in obj else Refusal.from_json(obj["refusal"], path=f"{path}.refusal")
        status = cast("Literal['admitted', 'refused']", json_text(obj["status"], f"{path}.status"))  # checked next
        try:
            verdict = cls(status=status, proof=proof, refusal=refusal)
        except ValueError as exc:
            raise BindingGraphError("malformed_input", str(exc), f"{path}.status") from None
        if obj["unit_proof"] != verdict.unit_proof:
            raise BindingGraphError(
                "malformed_input", f"unit_proof {clip(obj['unit_proof'])} is not the proof's", f"{path}.unit_proof"
            )
        return verdict


class _Refuse(DetailRefusal):
    """An equation's refusal inside the checks (caught by :func:`check_equation`, never raised past it)."""


class _Operand:
    """One operand as the checks see it (private; a plain slotted class: built on every check)."""

    __slots__ = ("binding", "ref", "role", "symbol_id")

    def __init__(self, symbol_id: str, binding: SymbolBinding | None, ref: UnitRef | None, role: str = "") -> None:
        self.symbol_id = symbol_id
        self.binding = binding
        self.ref = ref  # None: a unitless ratio (a pure number)
        self.role = role  # the operand role the equation records (verifier.roles)

    @property
    def dimension(self) -> DimensionVector:
        return self.ref.dimension if self.ref is not None else DIMENSIONLESS

    @property
    def unit(self) -> str | None:
        return self.binding.unit if self.binding is not None else (self.ref.surface if self.ref else None)


def _symbol_table(symbols: object) -> Mapping[str, SymbolBinding]:
    if isinstance(symbols, Mapping):
        return symbols
    if isinstance(symbols, Iterable) and not isinstance(symbols, (str, bytes)):
        table: dict[str, SymbolBinding] = {}
        for item in symbols:
            if not isinstance(item, SymbolBinding):
                raise _Refuse("malformed_input", f"symbols must be SymbolBinding objects, found {type(item).__name__}")
            table[item.symbol_id] = item
        return table
    raise _Refuse(
        "malformed_input", f"symbols must be a mapping or an iterable of SymbolBinding, found {type(symbols).__name__}"
    )


def resolve_written(
    vocab: UnitVocabulary, surface: object, path: str, written: Callable[[], Iterable[object]]
) -> UnitRef:
    """``vocab.resolve(surface, path=path)``; a refusal is worded with the input's other unit surfaces.

    ``written()`` (the surfaces the same graph writes) is called only when ``surface``
    does not resolve: a near miss of one of them (``aples`` beside ``apples``) is then
    named as a likely typo (:meth:`units.UnitVocabulary.resolve`, ``context``).

    Raises:
        UnitRefusal: as :meth:`units.UnitVocabulary.resolve`.
    """
    try:
        return vocab.resolve(surface, path=path)
    except UnitRefusal:
        pass
    return vocab.resolve(surface, path=path, context=written())


def graph_units(graph: BindingGraph) -> Iterator[str | None]:
    """Every unit surface a binding graph writes, lazily: its symbols', facts' and equations' literal units, in that order."""
    yield from (s.unit for s in graph.symbols)
    yield from (f.unit for f in graph.facts)
    yield from (e.literal_unit for e in graph.equations)


def _table_units(table: Mapping[str, SymbolBinding] | None) -> Iterator[str | None]:
    """The units of a symbol table's bindings, lazily (a caller's mapping may hold anything: other values are skipped)."""
    for item in (table or {}).values():
        found: object = item
        if isinstance(found, SymbolBinding):
            yield found.unit


def _resolve(vocab: UnitVocabulary, unit: str, where: str, table: Mapping[str, SymbolBinding] | None = None) -> UnitRef:
    """``unit`` resolved; a refusal names a near miss among the units of ``table``'s symbols (a caller's mapping may hold anything)."""
    try:
        return resolve_written(vocab, unit, where, lambda: _table_units(table))
    except UnitRefusal as exc:
        raise _Refuse(exc.reason, exc.explain()) from None


def _binding(table: Mapping[str, SymbolBinding], symbol_id: str) -> SymbolBinding | None:
    binding = table.get(symbol_id)
    found: object = binding  # a caller's mapping may hold anything
    if found is not None and (not isinstance(found, SymbolBinding) or found.symbol_id != symbol_id):
        raise _Refuse(
            "malformed_input",
            f"symbols[{symbol_id!r}] must be the SymbolBinding of {symbol_id!r}, found {clip(binding)}",
        )
    return binding


def _operand(vocab: UnitVocabulary, table: Mapping[str, SymbolBinding], dep: str, role: str) -> _Operand:
    binding = _binding(table, dep)
    if binding is None:
        raise _Refuse("unknown_symbol", f"dependency {dep!r} names no symbol")
    if binding.unit is None:
        if binding.semantic_role == "ratio":
            return _Operand(dep, binding, None, role)
        raise _Refuse("unit_unbound", f"{dep} carries no unit")
    return _Operand(dep, binding, _resolve(vocab, binding.unit, f"{dep}.unit", table), role)


def _same_kind(a: _Operand, b: _Operand) -> None:
    """Refuse unless two operands are of one quantity kind (dimensionless matches dimensionless)."""
    if a.ref is None or b.ref is None:
        if a.dimension == b.dimension and (a.ref is None or a.ref.kind == ()) and (b.ref is None or b.ref.kind == ()):
            return
        raise _Refuse("unit_mismatch", f"{a.symbol_id} is {a.dimension}, {b.symbol_id} is {b.dimension}")
    if a.ref.dimension != b.ref.dimension:
        raise _Refuse("unit_mismatch", f"{a.symbol_id} is {a.dimension}, {b.symbol_id} is {b.dimension}")
    try:
        check_commensurable(a.ref, b.ref)
    except UnitRefusal as exc:
        raise _Refuse(
            exc.reason, f"{a.symbol_id} ({a.ref.lemma}) vs {b.symbol_id} ({b.ref.lemma}): {exc.detail}"
        ) from None


def _scale(ref: UnitRef | None) -> Fraction:
    return ref.scale if ref is not None else _ONE


def _ratio(a: UnitRef | None, b: UnitRef | None) -> Fraction:
    """``scale(a) / scale(b)``, without Fraction arithmetic when the two scales are one, memoized per pair."""
    if a is b or (a is not None and b is not None and a.lemma == b.lemma):
        return _ONE
    key = (id(a), id(b))
    hit = _RATIOS.get(key)
    if hit is not None and hit[0] is a and hit[1] is b:  # the entry holds both refs, so their ids are not reused
        return hit[2]
    value = _scale(a) / _scale(b)
    if len(_RATIOS) >= _RATIO_MEMO_SIZE:
        _RATIOS.clear()
    _RATIOS[key] = (a, b, value)
    return value


_RATIOS: dict[tuple[int, int], tuple[UnitRef | None, UnitRef | None, Fraction]] = {}


def _no_offset(*operands: _Operand) -> None:
    for op in operands:
        if op.ref is not None and op.ref.is_offset:
            raise _Refuse(
                "offset_unit_arithmetic",
                f"{op.symbol_id} is an absolute temperature ({op.ref.lemma}); arithmetic on it is ambiguous",
            )


def check_equation(equation: BoundEquation, symbols: object, vocab: UnitVocabulary | None = None) -> Verdict:
    """Decide the dimensional admissibility of one equation.

    Args:
        equation: the equation; its kind, dependencies and ``literal_unit`` are read.
        symbols: the graph's symbols, as a mapping by id or an iterable of :class:`SymbolBinding`.
        vocab: the unit vocabulary (default: :func:`units.default_vocabulary`).

    Returns:
        A :class:`Verdict`.  Never raises for a bad equation: every problem becomes a
        refusal with a reason from the closed vocabulary (``unknown_operation``,
        ``unknown_symbol``, ``unit_unbound``, ``unknown_unit``, ``unit_mismatch``,
        ``incommensurable_units``, ``convention_required``, ``offset_unit_arithmetic``,
        ``operand_arity``, ``rate_form_invalid``, ``malformed_input``).

    Rules (SPEC §4 table; ADR-0134, made stricter):
        add, subtract, transfer, compare_additive: all operands of one kind; the result
        takes the lhs symbol's unit if it has one, else the first operand's.
        multiply: one state times dimensionless scalars (``scalar``-role or unitless
        ``ratio`` symbols are scalars whatever their label).
        divide: one dep over a dimensionless literal; or a dividend over a ``*__divisor``
        (a unitless divisor keeps the dividend's unit, a unit-bearing one gives the quotient).
        compare_multiplicative: the reference's state times a dimensionless factor.
        apply_rate: one ``rate`` symbol ``X/Y`` and one quantity of exactly ``Y``'s kind → ``X``.
        unit_partition: a state over a ``chunk``-role operand of its kind → a count.
        fraction_portion: a count state times ``n/d``.
    """
    if not isinstance(equation, BoundEquation):
        return Verdict(
            status="refused",
            refusal=Refusal(
                reason="malformed_input", detail=f"expected a BoundEquation, found {type(equation).__name__}"
            ),
        )
    voc = vocab if vocab is not None else default_vocabulary()
    if not isinstance(voc, UnitVocabulary):
        wrong = _Refuse("malformed_input", f"vocab must be a UnitVocabulary, found {type(voc).__name__}")
        return Verdict(status="refused", refusal=Refusal.from_error(wrong))
    try:
        table = _symbol_table(symbols)
    except _Refuse as exc:
        return Verdict(status="refused", refusal=Refusal.from_error(exc))
    try:
        return Verdict(status="admitted", proof=_check(equation, table, voc))
    except _Refuse as exc:
        return Verdict(status="refused", refusal=Refusal.from_error(exc))


def remember_verdicts(graph: BindingGraph, vocab: UnitVocabulary, verdicts: Mapping[str, Verdict]) -> None:
    """Record the verdicts an adapter computed for exactly this graph's equations and symbols under ``vocab``.

    :func:`graph_verdicts` returns them for the same graph *object* and the same
    vocabulary *object* (both immutable), and checks afresh otherwise.  The caller must
    have checked every equation of ``graph`` against ``graph``'s own symbols.
    """
    if len(verdicts) != len(graph.equations) or any(eq.lhs_symbol_id not in verdicts for eq in graph.equations):
        return
    key = id(graph)
    # the entry goes when the graph does (a weakref callback: a tenth of weakref.finalize's cost)
    _REMEMBERED[key] = (weakref.ref(graph, functools.partial(_forget, key)), weakref.ref(vocab), dict(verdicts))


def _forget(key: int, ref: weakref.ref[BindingGraph]) -> None:
    """Drop the entry of the graph ``ref`` pointed to (and only that one: its id may be taken again later)."""
    entry = _REMEMBERED.get(key)
    if entry is not None and entry[0] is ref:
        del _REMEMBERED[key]


def graph_verdicts(graph: BindingGraph, vocab: UnitVocabulary) -> dict[str, Verdict]:
    """The verdict of every equation of ``graph`` (lhs → :class:`Verdict`), reusing :func:`remember_verdicts`."""
    entry = _REMEMBERED.get(id(graph))
    if entry is not None and entry[0]() is graph and entry[1]() is vocab:
        return dict(entry[2])
    symbols = graph.symbols_by_id
    return {eq.lhs_symbol_id: check_equation(eq, symbols, vocab) for eq in graph.equations}


_REMEMBERED: dict[int, tuple[weakref.ref[BindingGraph], weakref.ref[UnitVocabulary], dict[str, Verdict]]] = {}


def _check(eq: BoundEquation, table: Mapping[str, SymbolBinding], vocab: UnitVocabulary) -> UnitProof:
    kind = eq.operation_kind
    if kind not in OPERATION_KINDS:
        raise _Refuse("unknown_operation", f"{kind!r} is not one of {', '.join(OPERATION_KINDS)}")
    roles = roles_of(eq, table)
    # the right-hand side is read once, as its kind reads it: a signed sum, or a product of powers
    terms = _signed_sum(eq.rhs) if kind in ADDITIVE_KINDS else None
    shape = None if kind in ADDITIVE_KINDS else _monomial(eq.rhs)
    problem = _shape_problem(eq, roles, shape, terms)
    if problem:
        raise _Refuse(
            "operand_arity", f"the right-hand side {eq.rhs_canonical} is not the shape {kind} takes: {problem}"
        )
    deps = [_operand(vocab, table, dep, roles.get(dep, "operand")) for dep in sorted(eq.dependencies)]
    literal = None
    if eq.literal_unit is not None:
        literal = _Operand(
            "<literal>", None, _resolve(vocab, eq.literal_unit, f"{eq.lhs_symbol_id}.literal_unit", table)
        )
    lhs = _binding(table, eq.lhs_symbol_id)
    lhs_ref = None
    if lhs is not None and lhs.unit is not None and lhs.symbol_id not in eq.dependencies:
        lhs_ref = _resolve(vocab, lhs.unit, f"{lhs.symbol_id}.unit", table)
    elif lhs is not None and lhs.semantic_role == "ratio" and lhs.symbol_id not in eq.dependencies:
        lhs_ref = _PURE  # a unitless ratio is a pure number: 5 % + 10 % defines it as 3/20
    if terms is not None:  # an additive kind whose right-hand side is a signed sum (_shape_problem passed)
        return _additive(eq, deps, literal, lhs_ref, terms)
    _no_cancelled_units(eq, deps, shape)
    if literal is not None and kind != "unit_partition":
        raise _Refuse("unit_mismatch", f"{kind} takes dimensionless numbers; the literal carries {eq.literal_unit!r}")
    return _PRODUCT_CHECKS[kind](_KindInputs(eq, deps, literal, lhs_ref, vocab))


class _SignedSum(NamedTuple):
    """A right-hand side read as a signed sum (``a - b + 4``): each symbol's net sign, and the constant term.

    ``net`` counts signs per symbol, so a written operand that cancels (``q + w - w``) has
    net 0; ``constant`` adds every number of the sum (one kept as written holds several:
    ``0 + 3 + q``).
    """

    net: dict[str, int]
    constant: Fraction


def _signed_sum(rhs: sympy.Expr) -> _SignedSum | None:
    """A sum of symbols with signs + or - and rational constants (``a - b + 4``), read once; None for any other shape."""
    net: dict[str, int] = {}
    numbers: list[sympy.Rational] = []
    for term in rhs.args if isinstance(rhs, sympy.Add) else (rhs,):
        if isinstance(term, sympy.Symbol):
            net[term.name] = net.get(term.name, 0) + 1
        elif isinstance(term, sympy.Rational):
            numbers.append(term)
        elif (
            isinstance(term, sympy.Mul)
            and len(term.args) == _PAIR
            and term.args[0] is sympy.S.NegativeOne
            and isinstance(term.args[1], sympy.Symbol)
        ):
            name = term.args[1].name
            net[name] = net.get(name, 0) - 1
        else:
            return None
    if not numbers:
        return _SignedSum(net, _ZERO)
    if len(numbers) == 1:  # the common case: one constant
        return _SignedSum(net, as_fraction(numbers[0]))
    return _SignedSum(net, sum((as_fraction(a) for a in numbers), _ZERO))


def _direction_problem(kind: str, terms: _SignedSum, roles: Mapping[str, str]) -> str:
    """The signs must say what the kind does (``q + 3 op=subtract``, ``-q + 13 op=add`` disagree with themselves).

    Signs are counted net per symbol, so a written operand that cancels (``q + w - w``)
    moves no sign, though it is still a checked dependency.  add: every term adds.
    subtract: one operand (the state) is added, everything else taken away.
    compare_additive: no operand is taken away (the reference, plus or minus a delta).
    """
    constant, net = terms.constant, terms.net
    plus = minus = 0
    for n in net.values():  # one pass: most sums have one or two terms
        if n > 1 or n < -1:
            return "each operand once, with sign + or -"
        if n > 0:
            plus += 1
        elif n < 0:
            minus += 1
    if kind == "add" and (constant < 0 or minus):
        return "an add adds every term (a negative term is a subtract)"
    if kind == "subtract" and (constant > 0 or plus > 1 or (minus and not plus)):
        return "a subtract is its state minus what is taken away"
    if kind == "subtract" and any(n > 0 and roles.get(name, "state") != "state" for name, n in net.items()):
        return "a subtract adds only the state it updates (what it takes away has sign -)"
    if kind == "compare_additive" and minus:
        return "the reference, plus or minus a delta"
    return ""


def _no_cancelled_units(eq: BoundEquation, deps: list[_Operand], shape: _Monomial | None) -> None:
    """A unit-bearing operand of a product or quotient may not cancel out (``a*b/b``, ``m*h__divisor/h__divisor``).

    It would be counted in the proof's dimensions while it moves no unit in the value; a
    pure number that cancels (``q*k/k``) is kept and checked (``k = 0`` is a division by zero).
    """
    powers = shape[1] if shape is not None else {}
    cancelled = [
        op.symbol_id for op in deps if powers.get(op.symbol_id) == 0 and op.ref is not None and op.ref.kind != ()
    ]
    if cancelled:
        raise _Refuse(
            "operand_arity",
            f"{', '.join(cancelled)} in {eq.rhs_canonical} is written and divided away: a unit-bearing operand that"
            " cancels says nothing of the result's unit; write the expression without it",
        )


def _no_temperature_change(eq: BoundEquation, result: UnitRef | None) -> None:
    """A product, a scaled reading or a rate whose result is a temperature: a change of temperature, with no unit here.

    A temperature is a reading (SPEC §3): 2 x 300 K, 300 K / 2 or 2 K per hour x 3 h is no reading.
    """
    if result is not None and result.dimension == _TEMPERATURE:  # Kelvin, and the unscaled degree too
        raise _Refuse(
            "unit_mismatch",
            f"{eq.lhs_symbol_id} would be a temperature computed by {eq.operation_kind}: that is a change of"
            " temperature, and the vocabulary has no unit of temperature difference (only readings)",
        )


def _no_reading_as_factor(eq: BoundEquation, *operands: _Operand) -> None:
    """A temperature reading is no factor, dividend or divisor of quantities, nor what a rate applies to.

    300 K over 2 hours is no "150 K per hour", and 2 dollars per K times 300 K no price:
    a reading is a level, not an amount (SPEC §3).

    Raises:
        _Refuse: ``unit_mismatch`` naming the reading.
    """
    for op in operands:
        if op.ref is not None and op.dimension == _TEMPERATURE:
            raise _Refuse(
                "unit_mismatch",
                f"{op.symbol_id} is a temperature reading ({op.ref.lemma}): {eq.operation_kind} does not take a"
                " reading as an amount (temperatures are not amounts)",
            )


def _no_sum_of_readings(eq: BoundEquation, operands: list[_Operand], terms: _SignedSum) -> None:
    """Temperatures are not amounts: a sum over temperatures is one reading plus changes, and nothing moves.

    Every temperature symbol is a reading (the vocabulary has no unit of temperature
    difference), and a literal is a change.  So the readings' coefficients must add up
    to exactly 1: ``a + 5`` and ``a - 5`` are readings; ``a + b`` (two readings), ``a - b``
    (a difference, no reading) and ``a - b - c`` are not, and neither is a literal alone
    (a reading does not start from 0).  A transfer of a temperature is refused outright.

    Raises:
        _Refuse: ``offset_unit_arithmetic`` (the reason of a total of temperatures).
    """
    temperatures = [op for op in operands if op.ref is not None and op.dimension == _TEMPERATURE]
    if not temperatures:
        return
    lemma = temperatures[0].ref.lemma if temperatures[0].ref is not None else "temperature"
    if eq.operation_kind == "transfer":
        raise _Refuse(
            "offset_unit_arithmetic",
            f"a transfer of {lemma}: a temperature is a reading, not an amount that moves between entities",
        )
    readings = {op.symbol_id for op in temperatures if op.symbol_id != "<literal>"}
    total = Fraction(sum(terms.net.get(name, 0) for name in readings))  # a signed sum: each coefficient is its net sign
    if total != 1:
        raise _Refuse(
            "offset_unit_arithmetic",
            f"{eq.rhs_canonical} is no reading (its readings' coefficients add up to {format_exact(total)}, not 1):"
            " a temperature is one reading plus or minus changes; readings do not add, and a difference of"
            " readings is no reading",
        )


_Monomial = tuple["sympy.Rational", dict[str, int]]
"""``(coefficient, {symbol: net power})``: a product of symbol powers, as :func:`_monomial` reads it."""


def _monomial(rhs: sympy.Expr) -> _Monomial | None:
    """``(coefficient, {symbol: net power})`` of a product of symbol powers, or None for any other shape.

    A product kept as written (``q*z/z``) gives ``z`` the net power 0: it is still a
    dependency, checked like any other, though it moves no unit.
    """
    coeff: sympy.Rational = sympy.S.One
    powers: dict[str, int] = {}
    stack = [rhs]
    while stack:
        factor = stack.pop()
        if isinstance(factor, sympy.Mul):
            stack.extend(factor.args)
        elif isinstance(factor, sympy.Symbol):
            powers[factor.name] = powers.get(factor.name, 0) + 1
        elif isinstance(factor, sympy.Rational):
            coeff = coeff * factor
        elif (
            isinstance(factor, sympy.Pow)
            and isinstance(factor.base, sympy.Symbol)
            and isinstance(factor.exp, sympy.Integer)
        ):
            powers[factor.base.name] = powers.get(factor.base.name, 0) + int(factor.exp)
        elif (
            isinstance(factor, sympy.Pow)
            and isinstance(factor.exp, sympy.Integer)
            and isinstance(factor.base, sympy.Mul)
        ):
            # a product kept as written under a power, (k*z)**-1: each of its factors to that power
            stack.extend(sympy.Pow(arg, factor.exp, evaluate=False) for arg in factor.base.args)
        elif (
            isinstance(factor, sympy.Pow)
            and isinstance(factor.exp, sympy.Integer)
            and isinstance(factor.base, sympy.Rational)
        ):
            coeff = coeff * factor.base ** int(factor.exp)
        else:
            return None
    return coeff, powers


def _shape_problem(
    eq: BoundEquation, roles: Mapping[str, str], shape: _Monomial | None, terms: _SignedSum | None
) -> str:
    """Why the right-hand side is not the expression its kind computes (``""`` when it is).

    The proof speaks of operands; the value comes from the expression.  They must agree,
    or a product labelled ``add`` would be admitted as a sum (SPEC §4 table).
    """
    kind = eq.operation_kind
    if kind in ADDITIVE_KINDS:
        if terms is None:
            return "a sum of operands, each with sign + or -, and a constant"
        return _direction_problem(kind, terms, roles)
    return _product_shape_problem(kind, roles, shape)


def _product_shape_problem(kind: str, roles: Mapping[str, str], shape: _Monomial | None) -> str:
    """Why a product kind's right-hand side is not its product (``""`` when it is): ``_shape_problem``'s other half."""
    if shape is None:
        return "a product of operands"
    coeff, written = shape
    powers = {n: p for n, p in written.items() if p != 0}
    if kind == "divide" and coeff.p != 1:
        return "a dividend over a divisor, with no multiplier"
    for kind_, role in (("divide", "divisor"), ("unit_partition", "chunk")):
        if kind == kind_ and len(powers) == _PAIR:
            ok = sorted(powers.values()) == [-1, 1] and all(
                (p == -1) == (roles.get(n) == role) for n, p in powers.items()
            )
            return "" if ok and coeff == 1 else f"dividend / {role}"
    if any(p != 1 for p in powers.values()):
        return "each operand to the first power"
    if kind == "apply_rate" and coeff != 1:
        return "rate * quantity, with no other number"
    return ""


def _proof(
    eq: BoundEquation,
    parts: list[tuple[_Operand, str, DimensionVector, Fraction]],
    result: UnitRef | None,
    result_dim: DimensionVector,
    lhs_ref: UnitRef | None,
) -> UnitProof:
    """Assemble the proof; a declared lhs unit must be of the result's kind (its factor is folded in).

    The result unit must have the dimension the operands compute (``result_dim``): a unit
    found by name that disagrees with its own computation is refused, never carried on.
    """
    if result is not None and result is not _PURE and result.dimension != result_dim:
        raise _Refuse(
            "unit_mismatch",
            f"{eq.operation_kind} computes {result_dim}, but its result unit {result.lemma} is {result.dimension}",
        )
    out_ref = result
    rescale = _ONE
    if lhs_ref is not None and (result is None or lhs_ref.lemma != result.lemma):
        if result is None:
            if lhs_ref.kind != ():
                raise _Refuse(
                    "unit_mismatch", f"lhs {eq.lhs_symbol_id} claims {lhs_ref.lemma} but the result is a pure number"
                )
        else:
            lhs_op = _Operand(eq.lhs_symbol_id, None, lhs_ref)
            _same_kind(_Operand("<result>", None, result), lhs_op)
            _no_offset(lhs_op)
        rescale = _ratio(result, lhs_ref)
        out_ref = lhs_ref
    elif lhs_ref is not None:
        out_ref = lhs_ref
    if out_ref is _PURE:
        out_ref = None
    # A sum rescales every term; a product or quotient only the one operand carrying the unit.
    if rescale is _ONE:
        operands = tuple(ProofOperand(op.symbol_id, role, op.unit, dim, factor) for op, role, dim, factor in parts)
    else:
        operands = tuple(
            ProofOperand(op.symbol_id, role, op.unit, dim, factor * rescale if role in _CARRIER_ROLES else factor)
            for op, role, dim, factor in parts
        )
    declarations: list[str] = []
    for ref in (*(op.ref for op, _, _, _ in parts), result, lhs_ref):
        if ref is not None and ref.declarations:
            declarations.extend(ref.declarations)
    return UnitProof(
        operation_kind=eq.operation_kind,
        lhs_symbol_id=eq.lhs_symbol_id,
        operands=operands,
        result_unit=out_ref.lemma if out_ref is not None else None,
        result_dimension=result_dim,
        declarations=tuple(dict.fromkeys(declarations)) if declarations else (),
        rhs=eq.rhs,
        result_ref=out_ref,
    )


def _additive(
    eq: BoundEquation, deps: list[_Operand], literal: _Operand | None, lhs_ref: UnitRef | None, terms: _SignedSum
) -> UnitProof:
    operands = [*deps, *([literal] if literal is not None else [])]
    if not operands:
        raise _Refuse("operand_arity", f"{eq.operation_kind} needs at least one operand")
    if literal is None and terms.constant != 0 and any(op.ref is not None and op.ref.kind != () for op in deps):
        raise _Refuse(
            "unit_mismatch",
            f"the constant {terms.constant} in {eq.rhs_canonical} carries no unit; an additive literal needs literal_unit",
        )
    first = operands[0]
    for other in operands[1:]:
        _same_kind(first, other)
    _no_offset(*operands)
    _no_sum_of_readings(eq, operands, terms)
    result = first.ref
    parts = [(op, "operand", op.dimension, _ratio(op.ref, result)) for op in operands]
    return _proof(eq, parts, result, first.dimension, lhs_ref)


_ZERO: Final[Fraction] = Fraction(0)


def _is_scalar(op: _Operand) -> bool:
    return op.role == "scalar" or op.ref is None


def _multiply(c: _KindInputs) -> UnitProof:
    eq, deps, lhs_ref = c.eq, c.deps, c.lhs_ref
    states = [op for op in deps if not _is_scalar(op)]
    if len(states) > 1:  # unit-bearing by kind: item_per_box is dimensionless in six axes, but no pure number
        bearing = [op for op in states if op.ref is not None and op.ref.kind != ()]
        if len(bearing) > 1:
            return _product(eq, deps, bearing, lhs_ref)
        states = bearing or states[:1]
    if not states:
        raise _Refuse("operand_arity", "multiply needs one state to scale (all operands are scalars)")
    state = states[0]
    _no_offset(state)
    _no_temperature_change(eq, state.ref)  # a reading is not scaled: 2 x 300 K is no temperature
    parts = []
    for op in deps:
        if op is state:
            parts.append((op, "state", op.dimension, _ONE))
            continue
        factor = _ONE
        if op.ref is not None and op.ref.kind == ():
            factor = op.ref.scale  # a dimensionless unit such as percent: 50 % scales by 1/2
        elif op.ref is not None and op.ref.kind != ():
            _same_kind(state, op)  # the label names the state scaled (SPEC §5)
        parts.append((op, "scalar", DIMENSIONLESS, factor))
    return _proof(eq, parts, state.ref, state.dimension, lhs_ref)


def _product(eq: BoundEquation, deps: list[_Operand], bearing: list[_Operand], lhs_ref: UnitRef | None) -> UnitProof:
    """A product of unit-bearing quantities (12 ft x 10 ft), admitted into the unit the lhs declares.

    The lhs must declare a unit whose registry dimensionality is the product's (square
    yards for feet times feet); the exact factor from the product of the operands' units
    to it (``1/9`` there, so 12 ft x 10 ft = 40/3 sq yd) is carried by the first
    unit-bearing operand.  No lhs unit, or one of another dimension, is ``unit_mismatch``;
    offset temperatures take no products.  Other operands are dimensionless scalars.
    """
    names = ", ".join(f"{op.symbol_id} ({op.dimension})" for op in bearing)
    if lhs_ref is None or lhs_ref is _PURE:
        raise _Refuse(
            "unit_mismatch",
            f"a product of unit-bearing {names} needs an lhs that declares its unit; {eq.lhs_symbol_id} declares none"
            " (multiply otherwise scales one state by dimensionless scalars)",
        )
    _no_offset(*bearing)
    _no_reading_as_factor(eq, *bearing)
    powers: dict[str, int] = {}
    dimension = DIMENSIONLESS
    scale = _ONE
    for op in bearing:
        if op.ref is None:  # a unit-bearing operand has a resolved unit (the caller picked them by ref.kind)
            raise _Refuse("unit_unbound", f"{op.symbol_id} carries no unit to multiply")
        for base, power in op.ref.kind:
            powers[base] = powers.get(base, 0) + power
        dimension = dimension * op.dimension
        scale *= op.ref.scale
    kind = tuple(sorted((base, power) for base, power in powers.items() if power))
    if kind != lhs_ref.kind:
        raise _Refuse(
            "unit_mismatch",
            f"{eq.lhs_symbol_id} declares {lhs_ref.lemma} ({lhs_ref.dimension}), not the product of {names}",
        )
    _no_offset(_Operand(eq.lhs_symbol_id, None, lhs_ref))
    _no_temperature_change(eq, lhs_ref)
    first = bearing[0]
    parts = []
    for op in deps:
        if any(op is b for b in bearing):
            parts.append((op, "factor", op.dimension, scale / lhs_ref.scale if op is first else _ONE))
        elif op.ref is not None and op.ref.kind != ():
            raise _Refuse(
                "unit_mismatch", f"scalar {op.symbol_id} is labelled {op.ref.lemma} beside a product of {names}"
            )
        else:  # a pure number, or a dimensionless unit such as percent (50 % scales by 1/2)
            parts.append((op, "scalar", DIMENSIONLESS, op.ref.scale if op.ref is not None else _ONE))
    return _proof(eq, parts, lhs_ref, dimension, lhs_ref)


def _divide(c: _KindInputs) -> UnitProof:
    eq, deps, lhs_ref, vocab = c.eq, c.deps, c.lhs_ref, c.vocab
    if len(deps) == 1:
        (dividend,) = deps
        _no_offset(dividend)
        _no_temperature_change(eq, dividend.ref)
        return _proof(eq, [(dividend, "dividend", dividend.dimension, _ONE)], dividend.ref, dividend.dimension, lhs_ref)
    if len(deps) != _PAIR:
        raise _Refuse(
            "operand_arity",
            f"divide takes 1 dependency (over a literal) or 2 (dividend, divisor); found {len(deps)}",
        )
    divisors = [op for op in deps if op.role == "divisor"]
    if len(divisors) != 1:
        raise _Refuse("operand_arity", "a two-dependency divide needs exactly one operand in the divisor role")
    divisor = divisors[0]
    dividend = deps[0] if deps[1] is divisor else deps[1]
    _no_offset(dividend, divisor)
    if divisor.ref is None or divisor.ref.kind == ():
        _no_temperature_change(eq, dividend.ref)  # over a pure number the quotient is the dividend's unit
        parts = [
            (dividend, "dividend", dividend.dimension, _ONE),
            (divisor, "divisor", DIMENSIONLESS, _scale(divisor.ref)),
        ]
        return _proof(eq, sorted(parts, key=lambda p: p[0].symbol_id), dividend.ref, dividend.dimension, lhs_ref)
    _no_reading_as_factor(eq, dividend, divisor)
    quotient_dim = dividend.dimension / divisor.dimension
    if dividend.ref is not None and dividend.ref.kind == divisor.ref.kind:
        result = None  # like over like: a pure number
        parts = [
            (dividend, "dividend", dividend.dimension, dividend.ref.scale / divisor.ref.scale),
            (divisor, "divisor", divisor.dimension, _ONE),
        ]
    else:
        if dividend.ref is None:
            raise _Refuse("unit_mismatch", "a unitless dividend over a unit-bearing divisor")
        result = _resolve(vocab, f"{dividend.ref.lemma}_per_{divisor.ref.lemma}", "quotient unit")
        parts = [(dividend, "dividend", dividend.dimension, _ONE), (divisor, "divisor", divisor.dimension, _ONE)]
    return _proof(eq, sorted(parts, key=lambda p: p[0].symbol_id), result, quotient_dim, lhs_ref)


def _compare_multiplicative(c: _KindInputs) -> UnitProof:
    eq, deps, lhs_ref = c.eq, c.deps, c.lhs_ref
    if len(deps) != 1:
        raise _Refuse(
            "operand_arity",
            f"compare_multiplicative scales exactly one reference state; found {len(deps)} dependencies",
        )
    (ref,) = deps
    _no_offset(ref)
    _no_temperature_change(eq, ref.ref)  # "twice as warm" scales a reading
    return _proof(eq, [(ref, "reference", ref.dimension, _ONE)], ref.ref, ref.dimension, lhs_ref)


def _rate_units(rate: UnitRef, vocab: UnitVocabulary) -> tuple[UnitRef | None, UnitRef | None, DimensionVector]:
    """Split a rate into its numerator unit X and denominator unit Y (``X_per_Y``).

    A composite gives the two units it was resolved from (``UnitRef.per``), so
    ``dollar_per_mph`` is dollars per mile-per-hour and ``mph_per_hours`` is miles-per-hour
    per hour; a lexicon lemma ``X_per_Y`` whose two sides resolve gives both units.
    Otherwise (``hertz``, ``pound_per_cubic_foot``) the registry dimensionality is split
    by the sign of each power: the numerator is named when ``X_per_…``'s head resolves
    to it, and the denominator is known by its kind only (``None``).

    Returns:
        ``(numerator or None for a pure number, denominator or None, denominator dimension)``.

    Raises:
        _Refuse: ``rate_form_invalid`` for a ratio of one kind to itself, or a lemma with
            more than one ``_per_`` whose sides are not known (where it splits is ambiguous).
    """
    num: UnitRef | None
    den: UnitRef | None
    if rate.per is not None:
        num, den = rate.per
    elif rate.lemma.count("_per_") > 1:
        raise _Refuse("rate_form_invalid", f"{rate.lemma} does not say which of its '_per_' divides")
    else:
        head, sep, tail = rate.lemma.partition("_per_")
        try:
            num, den = (vocab.resolve(head), vocab.resolve(tail)) if sep else (None, None)
        except UnitRefusal:
            num = den = None
    if num is not None and den is not None:
        if num.quantity_kind == den.quantity_kind:
            raise _Refuse(
                "rate_form_invalid", f"{rate.lemma} relates one quantity kind to itself: a ratio, not a rate X/Y"
            )
        return num, den, den.dimension
    num_kind = tuple((d, p) for d, p in rate.kind if p > 0)
    den_axes = DimensionVector(tuple(-e if e < 0 else 0 for e in rate.dimension.exponents))  # type: ignore[arg-type]
    if den_axes == DIMENSIONLESS:
        raise _Refuse("rate_form_invalid", f"{rate.lemma} is not a rate X/Y")
    return _numerator_unit(rate, num_kind, vocab), None, den_axes


def _apply_rate(c: _KindInputs) -> UnitProof:
    eq, deps, lhs_ref, vocab = c.eq, c.deps, c.lhs_ref, c.vocab
    if len(deps) != _PAIR:
        raise _Refuse("operand_arity", f"apply_rate takes a rate and a quantity; found {len(deps)} dependencies")
    rates = [op for op in deps if op.binding is not None and op.binding.semantic_role == "rate"]
    if len(rates) != 1:
        raise _Refuse("rate_form_invalid", "apply_rate needs exactly one dependency with semantic_role 'rate'")
    rate = rates[0]
    quantity = deps[0] if deps[1] is rate else deps[1]
    if rate.ref is None or quantity.ref is None:
        raise _Refuse("rate_form_invalid", "the rate and the quantity must both carry units")
    _no_offset(quantity)
    _no_reading_as_factor(eq, quantity)
    result, den, den_dim = _rate_units(rate.ref, vocab)
    if quantity.dimension != den_dim:
        raise _Refuse(
            "rate_form_invalid",
            f"{quantity.symbol_id} is {quantity.dimension}; the rate {rate.ref.lemma} is per {den_dim}",
        )
    if den is not None:
        _same_kind(quantity, _Operand("<denominator>", None, den))
        factor = quantity.ref.scale / den.scale
    else:
        den_kind = tuple(sorted((d, -p) for d, p in rate.ref.kind if p < 0))
        if quantity.ref.kind != den_kind:
            if quantity.ref.is_calendar != rate.ref.is_calendar:
                raise _Refuse(
                    "convention_required",
                    f"{quantity.ref.lemma} against {rate.ref.lemma}: calendar units need a declared convention",
                )
            raise _Refuse(
                "incommensurable_units", f"{quantity.ref.lemma} is not the kind the rate {rate.ref.lemma} is per"
            )
        factor = rate.ref.scale * quantity.ref.scale / _scale(result)
    result_dim = rate.ref.dimension * quantity.dimension
    if result_dim != (result.dimension if result is not None else DIMENSIONLESS):  # X/Y times Y is X
        raise _Refuse(
            "rate_form_invalid",
            f"{rate.ref.lemma} times {quantity.ref.lemma} is {result_dim}, not the rate's numerator"
            f" {result.lemma if result is not None else 'a pure number'}",
        )
    _no_temperature_change(eq, result)
    parts = [(rate, "rate", rate.dimension, _ONE), (quantity, "quantity", quantity.dimension, factor)]
    return _proof(eq, sorted(parts, key=lambda p: p[0].symbol_id), result, result_dim, lhs_ref)


def _numerator_unit(rate: UnitRef, num_kind: tuple[tuple[str, int], ...], vocab: UnitVocabulary) -> UnitRef | None:
    """The rate's numerator unit X (``pound`` of ``pound_per_cubic_foot``), or ``None`` for a pure number (hertz)."""
    if not num_kind:
        return None
    head = rate.lemma.partition("_per_")[0]
    if head and head != rate.lemma:
        try:
            ref = vocab.resolve(head)
        except UnitRefusal:
            ref = None
        if ref is not None and ref.kind == tuple(sorted(num_kind)):
            return ref
    raise _Refuse("rate_form_invalid", f"cannot name the numerator unit of {rate.lemma}")


def _unit_partition(c: _KindInputs) -> UnitProof:
    eq, deps, literal, lhs_ref = c.eq, c.deps, c.literal, c.lhs_ref
    chunks = [op for op in deps if op.role == "chunk"]
    if literal is not None and len(deps) == 1 and not chunks:
        state, chunk = deps[0], literal
    elif len(deps) == _PAIR and len(chunks) == 1 and literal is None:
        chunk = chunks[0]
        state = deps[0] if deps[1] is chunk else deps[1]
    else:
        raise _Refuse(
            "operand_arity", "unit_partition divides a state by one operand in the chunk role (or a literal chunk)"
        )
    _same_kind(state, chunk)
    _no_offset(state, chunk)
    if state.ref is not None and state.dimension == _TEMPERATURE:  # Kelvin and the unscaled degree alike
        raise _Refuse(
            "unit_mismatch", f"{state.symbol_id} is a temperature reading: a reading is not split into chunks"
        )
    if lhs_ref is not None and lhs_ref.dimension != _COUNT:
        raise _Refuse("unit_mismatch", f"unit_partition makes a count; {eq.lhs_symbol_id} claims {lhs_ref.lemma}")
    pieces = _scale(state.ref) / _scale(
        chunk.ref
    )  # the number of chunks *is* the R-count (SPEC §5): 48 socks / 2 socks = 24 pairs
    parts = [(state, "state", state.dimension, pieces), (chunk, "chunk", chunk.dimension, _ONE)]
    parts = sorted(parts, key=lambda p: p[0].symbol_id) if chunk is not literal else parts
    result_dim = _COUNT if lhs_ref is not None else DIMENSIONLESS
    return _proof(eq, parts, None if lhs_ref is None else lhs_ref, result_dim, None)


def _fraction_portion(c: _KindInputs) -> UnitProof:
    eq, deps, lhs_ref = c.eq, c.deps, c.lhs_ref
    shares = [op for op in deps if op.role == "share" and op.ref is None]
    states = [op for op in deps if op not in shares]
    if len(states) != 1 or len(shares) > 1:
        raise _Refuse(
            "operand_arity",
            f"fraction_portion takes one count (its referent) and at most one unitless share; found {len(deps)} dependencies",
        )
    (state,) = states
    if state.dimension != _COUNT:
        raise _Refuse("unit_mismatch", f"fraction_portion takes a count; {state.symbol_id} is {state.dimension}")
    parts = [(state, "state", state.dimension, _ONE), *((share, "scalar", DIMENSIONLESS, _ONE) for share in shares)]
    return _proof(eq, sorted(parts, key=lambda p: p[0].symbol_id), state.ref, state.dimension, lhs_ref)


class _KindInputs(NamedTuple):
    """What a product kind's check reads: the equation, its operands and literal, the lhs unit it claims, the vocabulary.

    Only ``unit_partition`` reads a literal (a literal chunk): ``_check`` refuses one with a unit for the others.
    """

    eq: BoundEquation
    deps: list[_Operand]
    literal: _Operand | None
    lhs_ref: UnitRef | None
    vocab: UnitVocabulary


_PRODUCT_CHECKS: Final[Mapping[str, Callable[[_KindInputs], UnitProof]]] = MappingProxyType(
    {
        "multiply": _multiply,
        "divide": _divide,
        "compare_multiplicative": _compare_multiplicative,
        "apply_rate": _apply_rate,
        "unit_partition": _unit_partition,
        "fraction_portion": _fraction_portion,
    }
)
"""The check of each product kind (``_check`` refuses a literal with a unit before it, but for ``unit_partition``)."""


__all__ = [
    "ADDITIVE_KINDS",
    "ProofOperand",
    "Refusal",
    "UnitProof",
    "Verdict",
    "check_equation",
    "graph_units",
    "graph_verdicts",
    "remember_verdicts",
    "resolve_written",
]
