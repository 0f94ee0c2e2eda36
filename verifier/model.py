"""The binding-graph model: frozen, slotted values that validate on construction.

Mirrors the upstream data model (ADR-0132, -0133, -0134, -0135): symbols,
facts, equations, unknowns, constraints and provenance spans, with the same
canonical line format (``S``, ``F``, ``E``, ``U``, ``C``, ``P``).  Unlike
upstream, an equation's right-hand side is a sympy expression over
``Symbol(symbol_id)`` and exact ``Rational`` numbers; ``rhs_canonical`` and
``dependencies`` are derived from it.

Knows nothing of input formats (``adapters`` builds graphs) and nothing of
units beyond carrying unit surfaces as strings.
"""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from types import MappingProxyType
from typing import TYPE_CHECKING, Final, Literal, TypeVar, get_args

if TYPE_CHECKING:
    import sympy
else:
    from verifier.lazy import sympy

from units.errors import UnitRefusal, clip
from units.exact import breaks_line, is_text, parse_exact, text_kind
from units.reasons import RefusalReason
from verifier.errors import BindingGraphError
from verifier.expr import check_expression, free_names, is_identifier, parse_expression, print_expression
from verifier.jsonread import json_object
from verifier.kinds import OPERATION_KINDS

_T = TypeVar("_T")

SemanticRole = Literal["entity", "quantity", "rate", "duration", "count", "total", "difference", "ratio", "unknown"]
"""A symbol's semantic role (ADR-0132).  A ``ratio`` symbol with no unit is a dimensionless number."""
SEMANTIC_ROLES: Final[frozenset[SemanticRole]] = frozenset(get_args(SemanticRole))
"""Closed semantic-role vocabulary (ADR-0132): the members of :data:`SemanticRole`."""

AdmissibilityStatus = Literal["admitted", "pending", "refused"]
"""An equation's admissibility stamp (``pending`` until checked)."""
ADMISSIBILITY_STATUSES: Final[frozenset[AdmissibilityStatus]] = frozenset(get_args(AdmissibilityStatus))

QuestionForm = Literal["count", "rate", "total", "difference", "ratio", "identity"]
"""An unknown's question form (ADR-0135)."""
QUESTION_FORMS: Final[frozenset[QuestionForm]] = frozenset(get_args(QuestionForm))

STATE_INDEX_LABELS: Final[frozenset[str]] = frozenset({"initial", "terminal"})
_PAIR: Final[int] = 2  # an operand role is a (symbol_id, role) pair
_ON_PATH: Final[int] = 1  # the cycle search's node marks: on the current path ...
_FINISHED: Final[int] = 2  # ... or fully explored


OPERAND_ROLES: Final[frozenset[str]] = frozenset(
    {"state", "operand", "scalar", "divisor", "rate", "quantity", "reference", "chunk", "share"}
)
"""What a dependency is to its equation (``BoundEquation.operand_roles``): ``state`` (the actor's holding the
equation updates or reads), ``operand`` (a term of a sum, or another entity's holding), ``scalar``
(a multiplier), ``divisor``, ``rate``, ``quantity`` (what a rate applies to), ``reference`` (a
comparison's other holding), ``chunk`` (a partition's chunk), ``share`` (what a fraction_portion keeps)."""

UNVERIFIED_PROOF: Final[str] = "unverified"
"""The ``unit_proof`` slot of an equation that is pending or refused (upstream sentinel)."""

MAX_TEXT_CHARS: Final[int] = 512
MAX_GRAPH_ITEMS: Final[int] = 5000
"""Most symbols (and most equations) one graph may hold (``input_too_large`` beyond)."""

_FIELD_TOKEN: Final = re.compile(r"(?:^|\s)[a-z_]+=")
"""A ``key=`` token: names, entities and units may not contain one (the canonical lines are keyed by them)."""
_SOURCE_ID: Final = re.compile(r"[A-Za-z0-9_.:/\-]+")
_PREDICATE: Final = re.compile(
    r"(?P<sym>[A-Za-z_][A-Za-z0-9_]*) (?P<op>>=|<=|==|!=|>|<) (?P<num>-?[0-9]+(?:\.[0-9]+)?(?:/[0-9]+)?)|integer\((?P<isym>[A-Za-z_][A-Za-z0-9_]*)\)"
)


def replace_checked(record: _T, **changes: object) -> _T:
    """A frozen, slotted record with ``changes`` made, without running its ``__post_init__`` checks again.

    For a record whose other fields were checked when it was built and whose changed
    fields the caller has just checked (:meth:`BoundEquation.stamped`,
    ``verifier.values.TraceStep.retargeted``). ``dataclasses.replace`` would check every
    field again: for a step with N pairs, once per copy.
    """
    cls = type(record)
    slots: tuple[str, ...] = cls.__slots__  # type: ignore[attr-defined]  # a slotted dataclass, as documented
    new = object.__new__(cls)
    for name in slots:
        object.__setattr__(new, name, changes[name] if name in changes else getattr(record, name))
    return new


def build_checked(cls: type[_T], **fields: object) -> _T:
    """A frozen, slotted record of class ``cls`` holding ``fields``, without running its ``__post_init__`` checks.

    For a caller that has checked every field itself, by the class's own rules, just
    before (:func:`adapters.graph_from_dict` reads each field with the checks the
    record's ``__post_init__`` would repeat). ``fields`` must name every slot of ``cls``.

    Raises:
        TypeError: when ``fields`` does not name exactly the slots of ``cls`` (a caller's bug).
    """
    slots: tuple[str, ...] = cls.__slots__  # type: ignore[attr-defined]  # a slotted dataclass, as documented
    if len(fields) != len(slots) or any(name not in fields for name in slots):
        raise TypeError(f"build_checked({cls.__name__}) takes exactly the fields {', '.join(slots)}")
    new = object.__new__(cls)
    for name in slots:
        object.__setattr__(new, name, fields[name])
    return new


def _fail(detail: str, path: str, reason: RefusalReason = "malformed_input") -> BindingGraphError:
    return BindingGraphError(reason, detail, path)


class _Passed:
    """Exact ``str`` values that passed one check (names repeat across a corpus), bounded; emptied when full.

    A ``str`` subclass is never remembered: it may hash and compare as it likes, so it is
    checked every time.
    """

    __slots__ = ("_seen",)
    LIMIT: Final[int] = 65536

    def __init__(self) -> None:
        self._seen: set[str] = set()

    @property
    def seen(self) -> set[str]:
        """The remembered values (one set for the object's life: emptied, never replaced); test ``type(v) is str`` first."""
        return self._seen

    def add(self, value: object) -> None:
        if type(value) is not str:
            return
        if len(self._seen) >= self.LIMIT:
            self._seen.clear()
        self._seen.add(value)

    def __contains__(self, value: object) -> bool:
        return type(value) is str and value in self._seen


_TEXTS: Final = _Passed()
"""Texts that passed :func:`_text`."""
_IDENTS: Final = _Passed()
"""Identifiers that passed :func:`_ident` (remembered apart: ``"None"`` is an identifier but no text)."""


_SOURCE_IDS: Final = _Passed()
"""Source ids that passed :class:`SourceSpanLink`'s checks (a text that matches ``[A-Za-z0-9_.:/-]+``)."""
_SOURCE_ID_SEEN: Final = _SOURCE_IDS.seen
_TEXT_SEEN: Final = _TEXTS.seen
_IDENT_SEEN: Final = _IDENTS.seen


def _known(value: object) -> bool:
    """True for a ``str`` (exactly) that already passed the text check; anything else takes the full check."""
    return type(value) is str and value in _TEXT_SEEN


def _text(value: object, path: str, *, optional: bool = False) -> None:
    if value is None and optional:
        return
    if _known(value):
        return
    if not is_text(value) or not value:
        raise _fail(f"expected a non-empty string, found {text_kind(value)}", path)
    problem: tuple[RefusalReason, str] | None = (
        _text_problem(value)
        if len(value) <= MAX_TEXT_CHARS
        else ("input_too_large", f"longer than {MAX_TEXT_CHARS} characters")
    )
    if problem is not None:
        raise _fail(problem[1], path, problem[0])
    _TEXTS.add(value)


@functools.lru_cache(maxsize=65536)
def _magnitude(text: str) -> Fraction:
    return parse_exact(text)


def _text_problem(value: str) -> tuple[RefusalReason, str] | None:
    """Why a non-empty string of at most MAX_TEXT_CHARS is not one canonical line (texts that pass are remembered)."""
    if breaks_line(value) or value != value.strip():
        return ("malformed_input", f"must be one trimmed line of text: {clip(value)}")
    if value == "None" or _FIELD_TOKEN.search(value):
        return (
            "malformed_input",
            f"{clip(value)} would be misread in the canonical line format ('None' or a ' key=' token)",
        )
    return None


def _ident(value: object, path: str) -> None:
    if value in _IDENTS:
        return
    if not is_identifier(value):
        raise _fail(f"expected an identifier ([A-Za-z_][A-Za-z0-9_]*), found {clip(value)}", path)
    _IDENTS.add(value)


def _int(value: object, path: str) -> None:
    if type(value) is not int:
        raise _fail(f"expected an int, found {type(value).__name__}", path)


@dataclass(frozen=True, slots=True, kw_only=True)
class SourceSpanLink:
    """A half-open slice ``[start, end)`` of a source text.

    Attributes:
        source_id: the source's id (``[A-Za-z0-9_.:/-]+``), e.g. ``"math_problem_graph"``.
        start: first character, ``>= 0``.
        end: one past the last character, ``> start``.
        text: the spanned text, or ``None`` where the producer does not keep it.

    Raises:
        BindingGraphError: ``malformed_input`` for a bad id, non-int bounds or ``end <= start``.
    """

    source_id: str
    start: int
    end: int
    text: str | None = None

    def __post_init__(self) -> None:
        start, end, text = self.start, self.end, self.text
        if (  # every field already passed the checks below (an adapter makes many spans of one source)
            type(self.source_id) is str
            and self.source_id in _SOURCE_ID_SEEN
            and type(start) is int
            and type(end) is int
            and 0 <= start < end
            and (text is None or _known(text))
        ):
            return
        _text(self.source_id, "source_span.source_id")
        if not _SOURCE_ID.fullmatch(self.source_id):
            raise _fail(f"source_id must match [A-Za-z0-9_.:/-]+, found {self.source_id!r}", "source_span.source_id")
        _int(self.start, "source_span.start")
        _int(self.end, "source_span.end")
        if self.start < 0 or self.end <= self.start:
            raise _fail(f"need 0 <= start < end, found [{self.start}:{self.end}]", "source_span")
        _text(self.text, "source_span.text", optional=True)
        _SOURCE_IDS.add(self.source_id)

    def to_canonical_string(self) -> str:
        """``source_id[start:end]`` (upstream format)."""
        return f"{self.source_id}[{self.start}:{self.end}]"

    def to_json(self) -> dict[str, object]:
        """Plain JSON data; :meth:`from_json` reads it back."""
        out: dict[str, object] = {"source_id": self.source_id, "start": self.start, "end": self.end}
        if self.text is not None:
            out["text"] = self.text
        return out

    @classmethod
    def from_json(cls, data: object, /, *, path: str = "source_span") -> SourceSpanLink:
        """Read :meth:`to_json` output, checking every key and type."""
        obj = json_object(data, path, {"source_id", "start", "end"}, {"text"})
        return _build(cls, path, source_id=obj["source_id"], start=obj["start"], end=obj["end"], text=obj.get("text"))


@dataclass(frozen=True, slots=True, kw_only=True)
class SymbolBinding:
    """One symbol of the graph: id, role, owner entity, unit and provenance.

    Attributes:
        symbol_id: an identifier, unique in the graph (``q_sam_apples_t0``).
        name: a readable name (``Sam.apples@t0``).
        semantic_role: one of :data:`SEMANTIC_ROLES`.
        source_span: where the symbol comes from.
        introduced_by: what created it (``bind_math_problem_graph``).
        entity: the owner entity's name, or ``None``.
        unit: the unit surface as written (``"feet"``), or ``None``.

    Raises:
        BindingGraphError: ``malformed_input`` naming the field.
    """

    symbol_id: str
    name: str
    semantic_role: SemanticRole
    source_span: SourceSpanLink
    introduced_by: str
    entity: str | None = None
    unit: str | None = None

    def __post_init__(self) -> None:
        seen, entity, unit = _TEXT_SEEN, self.entity, self.unit  # _known inlined: the hot path of every adapter
        if (
            type(self.symbol_id) is str
            and self.symbol_id in _IDENT_SEEN
            and type(self.name) is str
            and self.name in seen
            and type(self.introduced_by) is str
            and self.introduced_by in seen
            and (entity is None or (type(entity) is str and entity in seen))
            and (unit is None or (type(unit) is str and unit in seen))
            and type(self.semantic_role) is str
            and self.semantic_role in SEMANTIC_ROLES
            and isinstance(self.source_span, SourceSpanLink)
        ):
            return  # every field already passed the checks below (names repeat; see _Passed)
        _ident(self.symbol_id, "symbol.symbol_id")
        _text(self.name, f"symbols[{self.symbol_id}].name")
        role: object = self.semantic_role  # typed str, but an untyped caller may pass anything
        if not isinstance(role, str) or role not in SEMANTIC_ROLES:
            raise _fail(
                f"semantic_role must be one of {sorted(SEMANTIC_ROLES)}, found {clip(self.semantic_role)}",
                f"symbols[{self.symbol_id}].semantic_role",
            )
        if not isinstance(self.source_span, SourceSpanLink):
            raise _fail("source_span must be a SourceSpanLink", f"symbols[{self.symbol_id}].source_span")
        _text(self.introduced_by, f"symbols[{self.symbol_id}].introduced_by")
        _text(self.entity, f"symbols[{self.symbol_id}].entity", optional=True)
        _text(self.unit, f"symbols[{self.symbol_id}].unit", optional=True)

    def to_json(self) -> dict[str, object]:
        """Plain JSON data; :meth:`from_json` reads it back."""
        return {
            "symbol_id": self.symbol_id,
            "name": self.name,
            "semantic_role": self.semantic_role,
            "source_span": self.source_span.to_json(),
            "introduced_by": self.introduced_by,
            "entity": self.entity,
            "unit": self.unit,
        }

    @classmethod
    def from_json(cls, data: object, /, *, path: str = "symbol") -> SymbolBinding:
        """Read :meth:`to_json` output, checking every key and type."""
        obj = json_object(
            data, path, {"symbol_id", "name", "semantic_role", "source_span", "introduced_by"}, {"entity", "unit"}
        )
        return _build(
            cls,
            path,
            symbol_id=obj["symbol_id"],
            name=obj["name"],
            semantic_role=obj["semantic_role"],
            source_span=SourceSpanLink.from_json(obj["source_span"], path=f"{path}.source_span"),
            introduced_by=obj["introduced_by"],
            entity=obj.get("entity"),
            unit=obj.get("unit"),
        )


@dataclass(frozen=True, slots=True, kw_only=True)
class BoundFact:
    """A grounded fact ``symbol_id = value [unit]``.

    Attributes:
        symbol_id: the symbol the fact binds.
        value: an exact decimal or fraction string (``"5"``, ``"2.5"``, ``"7/2"``).
        source_span: where the fact comes from.
        unit: the unit surface, or ``None``.

    Raises:
        BindingGraphError: ``malformed_input`` for a value outside the exact grammar
            (``nan``, ``inf``, ``1e5``, floats); ``input_too_large`` for over-long digits.
    """

    symbol_id: str
    value: str
    source_span: SourceSpanLink
    unit: str | None = None

    def __post_init__(self) -> None:
        _ident(self.symbol_id, "fact.symbol_id")
        path = f"facts[{self.symbol_id}].value"
        if not isinstance(self.value, str):
            raise _fail(f"value must be an exact decimal or fraction string, found {type(self.value).__name__}", path)
        try:  # memoized by text (a corpus repeats its numbers); a str subclass is parsed every time
            _magnitude(self.value) if type(self.value) is str else parse_exact(self.value, path=path)
        except UnitRefusal as exc:
            raise BindingGraphError(exc.reason, exc.detail + f" (found {clip(self.value, 60)})", path) from None
        if not isinstance(self.source_span, SourceSpanLink):
            raise _fail("source_span must be a SourceSpanLink", f"facts[{self.symbol_id}].source_span")
        _text(self.unit, f"facts[{self.symbol_id}].unit", optional=True)

    @property
    def magnitude(self) -> Fraction:
        """The exact value (never through ``float``; validated on construction, memoized by text)."""
        return _magnitude(self.value) if type(self.value) is str else parse_exact(self.value)

    def to_json(self) -> dict[str, object]:
        """Plain JSON data; :meth:`from_json` reads it back."""
        return {
            "symbol_id": self.symbol_id,
            "value": self.value,
            "unit": self.unit,
            "source_span": self.source_span.to_json(),
        }

    @classmethod
    def from_json(cls, data: object, /, *, path: str = "fact") -> BoundFact:
        """Read :meth:`to_json` output, checking every key and type."""
        obj = json_object(data, path, {"symbol_id", "value", "source_span"}, {"unit"})
        return _build(
            cls,
            path,
            symbol_id=obj["symbol_id"],
            value=obj["value"],
            unit=obj.get("unit"),
            source_span=SourceSpanLink.from_json(obj["source_span"], path=f"{path}.source_span"),
        )


def _check_stamp(status: object, proof: object, reason: object, where: str) -> None:
    """An equation's admissibility stamp: a known status, a proof only when admitted, a reason only when refused."""
    _text(proof, f"{where}.unit_proof")
    if not isinstance(status, str) or status not in ADMISSIBILITY_STATUSES:
        raise _fail(
            f"admissibility_status must be one of {sorted(ADMISSIBILITY_STATUSES)}", f"{where}.admissibility_status"
        )
    if status == "refused":
        _text(reason, f"{where}.refusal_reason")
    elif reason is not None:
        raise _fail("refusal_reason is only set when the status is 'refused'", f"{where}.refusal_reason")
    if status != "admitted" and proof != UNVERIFIED_PROOF:
        raise _fail(f"a {status} equation's unit_proof is {UNVERIFIED_PROOF!r}", f"{where}.unit_proof")


@dataclass(frozen=True, slots=True, kw_only=True)
class BoundEquation:
    """A derived relation ``lhs_symbol_id := rhs``.

    Build with :meth:`create` (which derives ``rhs_canonical`` and ``dependencies``).

    Attributes:
        lhs_symbol_id: the symbol defined.
        rhs: a sympy expression over ``Symbol(symbol_id)`` and exact ``Rational`` numbers.
        rhs_canonical: the deterministic text of ``rhs`` (derived).
        dependencies: the names of ``rhs``'s free symbols (derived).
        operation_kind: one of :data:`OPERATION_KINDS` (any identifier is stored;
            admissibility refuses unknown kinds with ``unknown_operation``).
        source_span: where the equation comes from.
        literal_unit: unit of the additive constant term of ``rhs`` (the upstream
            ``add(Sam, 3 apples)`` form keeps its literal in the expression), or ``None``
            when every number in ``rhs`` is dimensionless.
        unit_proof: the recorded proof string, or :data:`UNVERIFIED_PROOF`.
        admissibility_status: ``admitted``, ``pending`` or ``refused``.
        refusal_reason: required when refused, ``None`` otherwise.
        operand_roles: ``(dependency id, role)`` pairs sorted by id, one per dependency,
            roles from :data:`OPERAND_ROLES`; ``()`` when the producer records none (then
            :func:`verifier.roles.roles_of` derives them from the symbols' semantic data).
        operation: the index of the source operation this equation belongs to (a
            transfer's debit and credit share one), or ``None`` when each equation is its
            own operation, in tuple order.

    Raises:
        BindingGraphError: ``malformed_input``/``unsafe_expression``/``input_too_large``
            naming the field.
    """

    lhs_symbol_id: str
    rhs: sympy.Expr
    rhs_canonical: str
    dependencies: frozenset[str]
    operation_kind: str  # any identifier: admissibility refuses a kind outside OPERATION_KINDS (unknown_operation)
    source_span: SourceSpanLink
    literal_unit: str | None = None
    unit_proof: str = UNVERIFIED_PROOF
    admissibility_status: AdmissibilityStatus = "pending"
    refusal_reason: str | None = None
    operand_roles: tuple[tuple[str, str], ...] = ()
    operation: int | None = None

    @classmethod
    def create(
        cls,
        *,
        lhs_symbol_id: str,
        rhs: sympy.Expr,
        operation_kind: str,
        source_span: SourceSpanLink,
        literal_unit: str | None = None,
        unit_proof: str = UNVERIFIED_PROOF,
        admissibility_status: AdmissibilityStatus = "pending",
        refusal_reason: str | None = None,
        operand_roles: Mapping[str, str] | None = None,
        operation: int | None = None,
    ) -> BoundEquation:
        """Build an equation, deriving ``rhs_canonical`` and ``dependencies`` from ``rhs``.

        ``operand_roles`` maps each dependency to its role (see :data:`OPERAND_ROLES`).
        """
        path = f"equations[{lhs_symbol_id}].rhs"
        check_expression(rhs, path=path)
        if operand_roles is not None and not isinstance(operand_roles, Mapping):
            raise _fail(
                "operand_roles must be a mapping dependency -> role", f"equations[{lhs_symbol_id}].operand_roles"
            )
        fields = {
            "lhs_symbol_id": lhs_symbol_id,
            "rhs": rhs,
            "rhs_canonical": print_expression(rhs),
            "dependencies": free_names(rhs),
            "operation_kind": operation_kind,
            "source_span": source_span,
            "literal_unit": literal_unit,
            "unit_proof": unit_proof,
            "admissibility_status": admissibility_status,
            "refusal_reason": refusal_reason,
            "operand_roles": tuple(sorted(operand_roles.items())) if operand_roles else (),
            "operation": operation,
        }
        if cls is not BoundEquation:  # a subclass may check more in its own __post_init__
            return cls(**fields)
        new = object.__new__(cls)
        for name, value in fields.items():
            object.__setattr__(new, name, value)
        new._validate(derived=False)  # rhs_canonical and dependencies were derived from the checked rhs just now
        return new

    def __post_init__(self) -> None:
        self._validate(derived=True)

    def _validate(self, *, derived: bool) -> None:
        """The class docstring's rules; ``derived=False`` skips re-deriving what :meth:`create` derived from ``rhs``."""
        _ident(self.lhs_symbol_id, "equation.lhs_symbol_id")
        where = f"equations[{self.lhs_symbol_id}]"
        if derived:
            self._check_derived(where)
        _ident(self.operation_kind, f"{where}.operation_kind")
        if not isinstance(self.source_span, SourceSpanLink):
            raise _fail("source_span must be a SourceSpanLink", f"{where}.source_span")
        _text(self.literal_unit, f"{where}.literal_unit", optional=True)
        _check_stamp(self.admissibility_status, self.unit_proof, self.refusal_reason, where)
        self._check_roles(where)
        if self.operation is not None:
            _int(self.operation, f"{where}.operation")
            if self.operation < 0:
                raise _fail(f"operation must be >= 0, found {self.operation}", f"{where}.operation")

    def _check_derived(self, where: str) -> None:
        check_expression(self.rhs, path=f"{where}.rhs")
        canonical: object = self.rhs_canonical  # typed str, but an untyped caller may pass anything
        if not isinstance(canonical, str) or canonical != print_expression(self.rhs):
            raise _fail(
                "rhs_canonical must be the canonical text of rhs (use BoundEquation.create)", f"{where}.rhs_canonical"
            )
        dependencies: object = self.dependencies
        if not isinstance(dependencies, frozenset) or dependencies != free_names(self.rhs):
            raise _fail(
                "dependencies must equal the free symbols of rhs (use BoundEquation.create)", f"{where}.dependencies"
            )

    def _check_roles(self, where: str) -> None:
        roles = self.operand_roles
        raw: object = roles  # typed pairs of str, but an untyped caller may pass anything
        if not isinstance(raw, tuple) or not all(
            isinstance(p, tuple) and len(p) == _PAIR and all(isinstance(x, str) for x in p) for p in raw
        ):
            raise _fail("operand_roles must be a tuple of (dependency, role) string pairs", f"{where}.operand_roles")
        if not roles:
            return
        ids = [dep for dep, _ in roles]
        if ids != sorted(set(ids)) or set(ids) != self.dependencies:
            raise _fail(
                f"operand_roles must name each dependency once, sorted; found {clip(ids)}", f"{where}.operand_roles"
            )
        for dep, role in roles:
            if role not in OPERAND_ROLES:
                raise _fail(
                    f"role of {dep} must be one of {sorted(OPERAND_ROLES)}, found {clip(role)}",
                    f"{where}.operand_roles",
                )

    def stamped(self, status: AdmissibilityStatus, unit_proof: str, refusal_reason: str | None) -> BoundEquation:
        """This equation with its admissibility stamp replaced (``admitted``/``pending``/``refused``).

        Only the three stamp fields are checked (by the rules of the class docstring);
        every other field was validated when this equation was built and is shared, so
        an adapter that stamps what it built validates each equation once.

        Raises:
            BindingGraphError: ``malformed_input`` for a stamp the class refuses.
        """
        _check_stamp(status, unit_proof, refusal_reason, f"equations[{self.lhs_symbol_id}]")
        return replace_checked(self, admissibility_status=status, unit_proof=unit_proof, refusal_reason=refusal_reason)

    def roles_text(self) -> str:
        """``a:state,b:scalar`` (the canonical ``roles=[...]`` token's content)."""
        return ",".join(f"{dep}:{role}" for dep, role in self.operand_roles)

    def to_json(self) -> dict[str, object]:
        """Plain JSON data (``rhs`` as its canonical text); :meth:`from_json` reads it back."""
        return {
            "lhs_symbol_id": self.lhs_symbol_id,
            "rhs_canonical": self.rhs_canonical,
            "dependencies": sorted(self.dependencies),
            "operation_kind": self.operation_kind,
            "literal_unit": self.literal_unit,
            "unit_proof": self.unit_proof,
            "admissibility_status": self.admissibility_status,
            "refusal_reason": self.refusal_reason,
            "source_span": self.source_span.to_json(),
            "operand_roles": dict(self.operand_roles),
            "operation": self.operation,
        }

    @classmethod
    def from_json(cls, data: object, /, *, path: str = "equation") -> BoundEquation:
        """Read :meth:`to_json` output, parsing ``rhs_canonical`` with our safe grammar."""
        obj = json_object(
            data,
            path,
            {"lhs_symbol_id", "rhs_canonical", "operation_kind", "source_span"},
            {
                "dependencies",
                "literal_unit",
                "unit_proof",
                "admissibility_status",
                "refusal_reason",
                "operand_roles",
                "operation",
            },
        )
        roles = obj.get("operand_roles")
        if roles is not None and not isinstance(roles, dict):
            raise _fail("operand_roles must be an object dependency -> role", f"{path}.operand_roles")
        rhs = parse_expression(obj["rhs_canonical"], path=f"{path}.rhs_canonical")
        deps = obj.get("dependencies")
        if deps is not None and (not isinstance(deps, list) or sorted(free_names(rhs)) != deps):
            raise _fail(f"dependencies {clip(deps)} differ from the symbols of rhs_canonical", f"{path}.dependencies")
        return _build(
            cls.create,
            path,
            lhs_symbol_id=obj["lhs_symbol_id"],
            rhs=rhs,
            operation_kind=obj["operation_kind"],
            source_span=SourceSpanLink.from_json(obj["source_span"], path=f"{path}.source_span"),
            literal_unit=obj.get("literal_unit"),
            unit_proof=obj.get("unit_proof", UNVERIFIED_PROOF),
            admissibility_status=obj.get("admissibility_status", "pending"),
            refusal_reason=obj.get("refusal_reason"),
            operand_roles=roles,
            operation=obj.get("operation"),
        )


@dataclass(frozen=True, slots=True)
class OperationIndex:
    """The state after the source's operation ``index``, counted from 0 (ADR-0135's ``Operation`` variant).

    A transfer's two equations are one operation (``BoundEquation.operation``).

    Raises:
        BindingGraphError: ``malformed_input`` for a non-int or negative index.
    """

    index: int

    def __post_init__(self) -> None:
        _int(self.index, "state_index.index")
        if self.index < 0:
            raise _fail(f"operation index must be >= 0, found {self.index}", "state_index.index")

    def __str__(self) -> str:
        return f"op({self.index})"


StateIndex = Literal["initial", "terminal"] | OperationIndex


def state_index_text(state: StateIndex) -> str:
    """``initial``, ``terminal`` or ``op(i)`` (upstream canonical token)."""
    return str(state)


def parse_state_index(value: object, path: str = "state_index") -> StateIndex:
    """Read ``"initial"``, ``"terminal"``, ``"op(3)"`` or ``{"operation_index": 3}``.

    Raises:
        BindingGraphError: ``malformed_input`` for anything else.
    """
    if isinstance(value, OperationIndex):
        return value
    if isinstance(value, str) and value in STATE_INDEX_LABELS:
        return value  # type: ignore[return-value]
    if isinstance(value, str):
        match = re.fullmatch(r"op\(([0-9]{1,6})\)", value)
        if match:
            return OperationIndex(int(match.group(1)))
    if isinstance(value, dict) and set(value) == {"operation_index"}:
        index = value["operation_index"]
        _int(index, path)
        return OperationIndex(index)
    raise _fail(f"state index must be 'initial', 'terminal' or 'op(i)', found {clip(value)}", path)


@dataclass(frozen=True, slots=True, kw_only=True)
class BoundUnknown:
    """The question's target: a symbol at a state index, with a question form (ADR-0135).

    Attributes:
        symbol_id: the unknown symbol (its binding carries the entity and unit asked).
        question_span: where the question is.
        state_index: ``"initial"``, ``"terminal"`` or :class:`OperationIndex`.
        question_form: one of :data:`QUESTION_FORMS`.
        expected_unit: the unit the answer is asked in, or ``None``.

    Raises:
        BindingGraphError: ``malformed_input`` naming the field.
    """

    symbol_id: str
    question_span: SourceSpanLink
    state_index: StateIndex
    question_form: QuestionForm
    expected_unit: str | None = None

    def __post_init__(self) -> None:
        _ident(self.symbol_id, "unknown.symbol_id")
        where = f"unknowns[{self.symbol_id}]"
        if not isinstance(self.question_span, SourceSpanLink):
            raise _fail("question_span must be a SourceSpanLink", f"{where}.question_span")
        index: object = self.state_index  # typed, but an untyped caller may pass anything
        if not isinstance(index, OperationIndex) and (not isinstance(index, str) or index not in STATE_INDEX_LABELS):
            raise _fail(
                f"state_index must be 'initial', 'terminal' or OperationIndex, found {clip(self.state_index)}",
                f"{where}.state_index",
            )
        form: object = self.question_form
        if not isinstance(form, str) or form not in QUESTION_FORMS:
            raise _fail(
                f"question_form must be one of {sorted(QUESTION_FORMS)}, found {clip(self.question_form)}",
                f"{where}.question_form",
            )
        _text(self.expected_unit, f"{where}.expected_unit", optional=True)

    def to_json(self) -> dict[str, object]:
        """Plain JSON data; :meth:`from_json` reads it back."""
        return {
            "symbol_id": self.symbol_id,
            "expected_unit": self.expected_unit,
            "state_index": state_index_text(self.state_index),
            "question_form": self.question_form,
            "question_span": self.question_span.to_json(),
        }

    @classmethod
    def from_json(cls, data: object, /, *, path: str = "unknown") -> BoundUnknown:
        """Read :meth:`to_json` output, checking every key and type."""
        obj = json_object(data, path, {"symbol_id", "state_index", "question_form", "question_span"}, {"expected_unit"})
        return _build(
            cls,
            path,
            symbol_id=obj["symbol_id"],
            expected_unit=obj.get("expected_unit"),
            state_index=parse_state_index(obj["state_index"], f"{path}.state_index"),
            question_form=obj["question_form"],
            question_span=SourceSpanLink.from_json(obj["question_span"], path=f"{path}.question_span"),
        )


@dataclass(frozen=True, slots=True, kw_only=True)
class BoundConstraint:
    """A predicate on one symbol's value: ``"x >= 0"``, ``"x != 3/2"`` or ``"integer(x)"``.

    Attributes:
        symbol_id: the constrained symbol (must be the one named in ``predicate``).
        predicate: the canonical predicate text.
        source_span: where it comes from.

    Raises:
        BindingGraphError: ``malformed_input`` for a predicate outside that grammar.
    """

    symbol_id: str
    predicate: str
    source_span: SourceSpanLink

    def __post_init__(self) -> None:
        _ident(self.symbol_id, "constraint.symbol_id")
        where = f"constraints[{self.symbol_id}].predicate"
        _text(self.predicate, where)
        match = _PREDICATE.fullmatch(self.predicate)
        if match is None or (match["sym"] or match["isym"]) != self.symbol_id:
            raise _fail(f"predicate must be '{self.symbol_id} <op> <number>' or 'integer({self.symbol_id})'", where)
        if match["num"]:
            try:
                parse_exact(match["num"], path=where)
            except UnitRefusal as exc:
                raise BindingGraphError(exc.reason, exc.detail, where) from None
        if not isinstance(self.source_span, SourceSpanLink):
            raise _fail("source_span must be a SourceSpanLink", f"constraints[{self.symbol_id}].source_span")

    def holds(self, value: Fraction) -> bool:
        """Whether an exact value satisfies the predicate."""
        match = _PREDICATE.fullmatch(self.predicate)
        if match is None:  # the predicate was checked on construction; a constraint never holds by accident
            raise _fail(f"predicate {clip(self.predicate)} is not a comparison", f"constraints[{self.symbol_id}]")
        if match["isym"]:
            return value.denominator == 1
        bound = parse_exact(match["num"])
        return {
            ">=": value >= bound,
            "<=": value <= bound,
            ">": value > bound,
            "<": value < bound,
            "==": value == bound,
            "!=": value != bound,
        }[match["op"]]

    def to_json(self) -> dict[str, object]:
        """Plain JSON data; :meth:`from_json` reads it back."""
        return {"symbol_id": self.symbol_id, "predicate": self.predicate, "source_span": self.source_span.to_json()}

    @classmethod
    def from_json(cls, data: object, /, *, path: str = "constraint") -> BoundConstraint:
        """Read :meth:`to_json` output, checking every key and type."""
        obj = json_object(data, path, {"symbol_id", "predicate", "source_span"}, set())
        return _build(
            cls,
            path,
            symbol_id=obj["symbol_id"],
            predicate=obj["predicate"],
            source_span=SourceSpanLink.from_json(obj["source_span"], path=f"{path}.source_span"),
        )


@dataclass(frozen=True, slots=True, kw_only=True, weakref_slot=True)
class BindingGraph:
    """A complete binding graph; every cross-reference is checked on construction.

    Attributes:
        symbols: unique symbol bindings, in introduction order.
        facts: grounded facts.
        equations: equations in operation order (``OperationIndex(i)`` is ``equations[i]``).
        unknowns: the question targets.
        constraints: predicates on symbol values.
        provenance: source spans of the input text.

    Raises:
        BindingGraphError: ``malformed_input`` for wrong types, duplicate symbol ids, a
            reference to no symbol, a symbol defined by two equations, a fact or an equation
            that states, defines or reads an unknown, an unknown asking a symbol of another
            role, an operation index out of range or a dependency cycle; ``input_too_large`` beyond
            :data:`MAX_GRAPH_ITEMS`.
    """

    symbols: tuple[SymbolBinding, ...] = ()
    facts: tuple[BoundFact, ...] = ()
    equations: tuple[BoundEquation, ...] = ()
    unknowns: tuple[BoundUnknown, ...] = ()
    constraints: tuple[BoundConstraint, ...] = ()
    provenance: tuple[SourceSpanLink, ...] = ()
    _by_id: dict[str, SymbolBinding] = field(init=False, repr=False, compare=False, hash=False, default_factory=dict)
    _in_order: bool = field(init=False, repr=False, compare=False, hash=False, default=False)

    def __post_init__(self) -> None:
        self._check_item_types()
        self._index_symbols()
        self._check_facts()
        self._check_equations()
        operations = self._check_operations()
        self._check_unknowns(operations)
        for i, con in enumerate(self.constraints):
            self._known(con.symbol_id, f"constraints[{i}].symbol_id")
        in_order = in_topological_order(self.equations)  # settled once here, for the solver too
        object.__setattr__(self, "_in_order", in_order)
        cycle = [] if in_order else find_cycle(self.equations)
        if cycle:
            raise _fail("dependency cycle: " + " -> ".join(cycle), "equations")

    @property
    def equations_in_dependency_order(self) -> bool:
        """True when the equations' tuple order reads only lhs defined before (:func:`in_topological_order`).

        Then that order is the dependency order, with no search (worked out when the graph was built).
        """
        return self._in_order

    def _check_item_types(self) -> None:
        """Each part is a tuple of at most ``MAX_GRAPH_ITEMS`` items of its type (the first bad one is named)."""
        for name, item_type in (
            ("symbols", SymbolBinding),
            ("facts", BoundFact),
            ("equations", BoundEquation),
            ("unknowns", BoundUnknown),
            ("constraints", BoundConstraint),
            ("provenance", SourceSpanLink),
        ):
            items = getattr(self, name)
            if not isinstance(items, tuple):
                raise _fail(f"must be a tuple, found {type(items).__name__}", name)
            if len(items) > MAX_GRAPH_ITEMS:
                raise _fail(f"more than {MAX_GRAPH_ITEMS} items", name, "input_too_large")
            for i, item in enumerate(items):
                if not isinstance(item, item_type):
                    raise _fail(f"must be a {item_type.__name__}, found {type(item).__name__}", f"{name}[{i}]")

    def _index_symbols(self) -> None:
        """Fill ``_by_id``; a symbol id given twice is refused."""
        by_id = self._by_id
        for i, sym in enumerate(self.symbols):
            if sym.symbol_id in by_id:
                raise _fail(f"duplicate symbol id {sym.symbol_id!r}", f"symbols[{i}].symbol_id")
            by_id[sym.symbol_id] = sym

    def _check_facts(self) -> None:
        """Each fact states a known symbol that is not an unknown."""
        by_id = self._by_id
        for i, fact in enumerate(self.facts):
            if fact.symbol_id not in by_id:
                self._known(fact.symbol_id, f"facts[{i}].symbol_id")
            if by_id[fact.symbol_id].semantic_role == "unknown":
                raise _fail(f"{fact.symbol_id!r} is an unknown: a fact cannot state it", f"facts[{i}].symbol_id")

    def _check_equations(self) -> None:
        """Each equation defines one known, definable symbol no other equation defines, from known symbols.

        No equation defines or reads an unknown (as no fact states one): an unknown's value
        is its answer, read from the holdings.
        """
        by_id = self._by_id
        lhs_seen: set[str] = set()
        for i, eq in enumerate(self.equations):
            if eq.lhs_symbol_id not in by_id:
                self._known(eq.lhs_symbol_id, f"equations[{i}].lhs_symbol_id")
            if by_id[eq.lhs_symbol_id].semantic_role in ("unknown", "entity"):
                raise _fail(
                    f"{eq.lhs_symbol_id!r} is an {by_id[eq.lhs_symbol_id].semantic_role}: an equation cannot define it",
                    f"equations[{i}].lhs_symbol_id",
                )
            if eq.lhs_symbol_id in lhs_seen:
                raise _fail(f"{eq.lhs_symbol_id!r} is defined by two equations", f"equations[{i}].lhs_symbol_id")
            lhs_seen.add(eq.lhs_symbol_id)
            if not eq.dependencies <= by_id.keys():
                for dep in sorted(eq.dependencies):
                    self._known(dep, f"equations[{i}].dependencies")
            asked = sorted(dep for dep in eq.dependencies if by_id[dep].semantic_role == "unknown")
            if asked:  # read as a value, its answer would have to agree with the solved one (z := u + 1, z = 20)
                raise _fail(
                    f"{asked[0]!r} is an unknown: an equation cannot read it (an unknown is the question asked,"
                    " ADR-0135, not a value the graph computes with)",
                    f"equations[{i}].dependencies",
                )

    def _check_unknowns(self, operations: int) -> None:
        """Each unknown names a known symbol of role ``unknown`` no other unknown names, and an operation in range.

        Two unknowns of one symbol would ask two questions of one answer (another state
        or unit): the graph is refused rather than one of them chosen.
        """
        asked: set[str] = set()
        for i, unk in enumerate(self.unknowns):
            self._known(unk.symbol_id, f"unknowns[{i}].symbol_id")
            role = self._by_id[unk.symbol_id].semantic_role
            if role != "unknown":  # a value of the graph asked: its answer could disagree with it (op_000_result = 8)
                article = "an" if role[0] in "aeiou" else "a"
                raise _fail(
                    f"{unk.symbol_id!r} is {article} {role} symbol: an unknown asks a symbol of role 'unknown' (the"
                    " question's handle, ADR-0135; its value is the answer read from the holdings)",
                    f"unknowns[{i}].symbol_id",
                )
            if unk.symbol_id in asked:
                raise _fail(f"{unk.symbol_id!r} is asked by two unknowns", f"unknowns[{i}].symbol_id")
            asked.add(unk.symbol_id)
            if isinstance(unk.state_index, OperationIndex) and unk.state_index.index >= operations:
                raise _fail(
                    f"operation index {unk.state_index.index} >= {operations} operations",
                    f"unknowns[{i}].state_index",
                )

    def __repr__(self) -> str:
        unknowns = ", ".join(u.symbol_id for u in self.unknowns) or "none"
        counts = ", ".join(
            f"{n} {name if n == 1 else name + 's'}"
            for n, name in ((len(self.symbols), "symbol"), (len(self.facts), "fact"), (len(self.equations), "equation"))
        )
        return f"BindingGraph({counts}, unknowns: {unknowns})"

    def _check_operations(self) -> int:
        """Operation indices are all given or all absent, non-decreasing in tuple order; returns how many operations."""
        given = [eq.operation for eq in self.equations if eq.operation is not None]
        if not given:
            return len(self.equations)
        if len(given) != len(self.equations):
            raise _fail("either every equation names its operation or none does", "equations")
        if any(b < a for a, b in itertools.pairwise(given)):
            raise _fail("operation indices must not decrease along the equations (source order)", "equations")
        return given[-1] + 1

    def _known(self, symbol_id: str, path: str) -> None:
        if symbol_id not in self._by_id:
            raise _fail(f"{symbol_id!r} names no symbol of the graph", path)

    def symbol(self, symbol_id: str) -> SymbolBinding:
        """The binding of ``symbol_id`` (``KeyError`` if absent)."""
        return self._by_id[symbol_id]

    @property
    def symbol_map(self) -> dict[str, SymbolBinding]:
        """Symbols by id (a fresh dict)."""
        return dict(self._by_id)

    @property
    def symbols_by_id(self) -> Mapping[str, SymbolBinding]:
        """Symbols by id, read-only (a view of the graph's own index: no copy, unlike :attr:`symbol_map`)."""
        return MappingProxyType(self._by_id)

    def to_canonical_string(self) -> str:
        """The upstream line format, byte-deterministic (given order; ``deps`` sorted)."""
        lines = [
            f"S {sym.symbol_id} {sym.name} {sym.semantic_role} entity={sym.entity} unit={sym.unit} "
            f"span={sym.source_span.to_canonical_string()} by={sym.introduced_by}"
            for sym in self.symbols
        ]
        lines.extend(
            f"F {fact.symbol_id} = {fact.value} unit={fact.unit} span={fact.source_span.to_canonical_string()}"
            for fact in self.facts
        )
        for eq in self.equations:
            lit = f" literal_unit={eq.literal_unit}" if eq.literal_unit is not None else ""
            lit += f" roles=[{eq.roles_text()}]" if eq.operand_roles else ""
            lit += f" operation={eq.operation}" if eq.operation is not None else ""
            lines.append(
                f"E {eq.lhs_symbol_id} := {eq.rhs_canonical} op={eq.operation_kind} deps=[{','.join(sorted(eq.dependencies))}]"
                f"{lit} unit_proof={eq.unit_proof} status={eq.admissibility_status} refusal={eq.refusal_reason} "
                f"span={eq.source_span.to_canonical_string()}"
            )
        lines.extend(
            f"U {unk.symbol_id} expected_unit={unk.expected_unit} state={state_index_text(unk.state_index)} "
            f"form={unk.question_form} qspan={unk.question_span.to_canonical_string()}"
            for unk in self.unknowns
        )
        lines.extend(
            f"C {con.symbol_id} pred={con.predicate} span={con.source_span.to_canonical_string()}"
            for con in self.constraints
        )
        lines.extend(f"P {span.to_canonical_string()} text={span.text}" for span in self.provenance)
        return "\n".join(lines)

    def to_json(self) -> dict[str, object]:
        """Plain JSON data; :meth:`from_json` reads it back exactly."""
        return {
            "symbols": [s.to_json() for s in self.symbols],
            "facts": [f.to_json() for f in self.facts],
            "equations": [e.to_json() for e in self.equations],
            "unknowns": [u.to_json() for u in self.unknowns],
            "constraints": [c.to_json() for c in self.constraints],
            "provenance": [p.to_json() for p in self.provenance],
        }

    @classmethod
    def from_json(cls, data: object, /) -> BindingGraph:
        """Read :meth:`to_json` output, checking every key and type.

        Raises:
            BindingGraphError: naming the first bad field (``equations[2].rhs_canonical``).
        """
        obj = json_object(data, "graph", {"symbols"}, {"facts", "equations", "unknowns", "constraints", "provenance"})
        parts: dict[str, tuple[object, ...]] = {}
        for key, reader in (
            ("symbols", SymbolBinding.from_json),
            ("facts", BoundFact.from_json),
            ("equations", BoundEquation.from_json),
            ("unknowns", BoundUnknown.from_json),
            ("constraints", BoundConstraint.from_json),
            ("provenance", SourceSpanLink.from_json),
        ):
            items = obj.get(key, [])
            if not isinstance(items, list):
                raise _fail(f"must be a list, found {type(items).__name__}", key)
            if len(items) > MAX_GRAPH_ITEMS:
                raise _fail(f"more than {MAX_GRAPH_ITEMS} items", key, "input_too_large")
            parts[key] = tuple(reader(item, path=f"{key}[{i}]") for i, item in enumerate(items))
        return cls(**parts)  # type: ignore[arg-type]


def in_topological_order(equations: Sequence[BoundEquation]) -> bool:
    """True when each lhs is defined once and every equation reads only lhs defined before it.

    Such a tuple has no dependency cycle, and it is its own dependency order. Adapters
    write equations in source order, so this one pass settles most graphs:
    :func:`find_cycle` and the solver's ordering search only when it fails.
    """
    pending = {eq.lhs_symbol_id for eq in equations}
    if len(pending) != len(equations):
        return False
    for eq in equations:
        if not pending.isdisjoint(eq.dependencies):
            return False  # reads its own lhs or a later one
        pending.discard(eq.lhs_symbol_id)
    return True


def find_cycle(equations: tuple[BoundEquation, ...]) -> list[str]:
    """A dependency cycle among equations (``[a, b, a]``), or ``[]`` when acyclic."""
    if in_topological_order(equations):
        return []
    graph = {eq.lhs_symbol_id: sorted(eq.dependencies) for eq in equations}
    state: dict[str, int] = {}
    for start in graph:
        if state.get(start):
            continue
        stack: list[tuple[str, int]] = [(start, 0)]
        path: list[str] = []
        while stack:
            node, i = stack.pop()
            if i == 0:
                if state.get(node) == _ON_PATH:
                    return [*path[path.index(node) :], node]
                if state.get(node) == _FINISHED:
                    continue
                state[node] = _ON_PATH
                path.append(node)
            deps = graph.get(node, [])
            if i < len(deps):
                stack.append((node, i + 1))
                stack.append((deps[i], 0))
            else:
                state[node] = _FINISHED
                path.pop()
    return []


def _build(factory: Callable[..., _T], path: str, **kwargs: object) -> _T:
    try:
        return factory(**kwargs)
    except BindingGraphError as exc:
        raise BindingGraphError(exc.reason, exc.detail, f"{path}.{exc.path}" if exc.path else path) from None
    except TypeError as exc:  # a wrong type reaching sympy or a comparison
        raise _fail(f"wrong type: {exc}", path) from None


__all__ = [
    "ADMISSIBILITY_STATUSES",
    "MAX_GRAPH_ITEMS",
    "MAX_TEXT_CHARS",
    "OPERAND_ROLES",
    "OPERATION_KINDS",
    "QUESTION_FORMS",
    "SEMANTIC_ROLES",
    "STATE_INDEX_LABELS",
    "UNVERIFIED_PROOF",
    "AdmissibilityStatus",
    "BindingGraph",
    "BoundConstraint",
    "BoundEquation",
    "BoundFact",
    "BoundUnknown",
    "OperationIndex",
    "QuestionForm",
    "SemanticRole",
    "SourceSpanLink",
    "SymbolBinding",
    "build_checked",
    "find_cycle",
    "in_topological_order",
    "parse_state_index",
    "replace_checked",
    "state_index_text",
]
