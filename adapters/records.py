"""Records of every supported input format, detected and bound for ``verify`` or a cross-check.

A *record* is one JSON object (a line of a JSONL file) or one canonical text:

================  ===========================================================
format            recognised by
================  ===========================================================
``math_graph``    ``entities``/``operations``, or a case's ``ground_truth_graph``
                  or ``graph`` (the upstream dev set and adapter corpus)
``relational``    ``relations`` and ``query``
``binding_graph`` ``symbols`` and ``equations`` (``BindingGraph.to_json``)
``canonical_text`` a string of ``S``/``F``/``E``/``U`` lines, or a record's
                  ``hand_rolled_canonical``
``equation``      ``operation_kind``, ``symbols``, ``lhs_symbol_id`` (one equation
                  with a recorded verdict, the upstream ``equation_verdicts`` layout)
================  ===========================================================
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final, cast

if TYPE_CHECKING:
    import sympy
else:
    from verifier.lazy import sympy

from adapters._common import fields, given_vocabulary, name, record_id, span, upstream_roles, with_roles
from adapters.canonical_text import RecordedVerdict, parse_canonical_text
from adapters.errors import MathGraphError
from adapters.math_graph import GRAPH_FIELDS, bind_math_problem_graph, graph_from_dict
from adapters.nouns import bind_and_verify_with_auto_count_nouns
from adapters.relational import bind_relations
from units import UnitRefusal, UnitVocabulary
from units.errors import clip
from units.exact import is_text, json_kind, loads_exact
from verifier import BindingGraph, BoundEquation, GraphReport, SymbolBinding, verify
from verifier.admissibility import ADDITIVE_KINDS
from verifier.errors import BindingGraphError
from verifier.expr import symbol
from verifier.model import SemanticRole
from verifier.values import Policy, is_policy

FORMATS: Final[tuple[str, ...]] = ("math_graph", "relational", "binding_graph", "canonical_text", "equation")
COUNT_NOUN_MODES: Final[tuple[str, ...]] = ("declared", "auto")
"""How :func:`bind_record` treats count nouns a record does not declare (SPEC §5)."""

_DIVIDING: Final[dict[str, str]] = {"divide": "__divisor", "unit_partition": "__chunk"}
"""The kinds whose two-dependency record divides by the operand of this id suffix (ADR-0133)."""

_DIVIDING_DEPENDENCIES: Final[int] = 2
"""The dependencies of a record :data:`_DIVIDING` reads as a quotient: a dividend and its divisor (ADR-0133)."""

RECORD_METADATA: Final[frozenset[str]] = frozenset({"id", "vocab", "policy"})
"""Keys a record may carry beside its format's own fields."""


@dataclass(frozen=True, slots=True, kw_only=True)
class BoundRecord:
    """A record turned into a graph: what ``verify`` needs, plus what the record says about itself.

    Attributes:
        case_id: the record's ``id`` (or ``""``).
        format: one of :data:`FORMATS`.
        graph: the binding graph.
        policy: ``integer`` for relational records, else ``count_exact``.
        vocab: the vocabulary to verify with (the record's declarations applied).
        recorded: verdicts recorded by canonical text, by lhs (else empty).
        reports: reports binding already made of ``graph`` in ``vocab``, by policy
            (``--count-nouns auto`` verifies the graph while declaring its nouns); not
            part of the record's repr or equality.
    """

    case_id: str
    format: str
    graph: BindingGraph
    policy: Policy
    vocab: UnitVocabulary
    recorded: Mapping[str, RecordedVerdict]
    reports: Mapping[Policy, GraphReport] = field(default_factory=dict, repr=False, compare=False)

    def verify(self, policy: Policy | None = None) -> GraphReport:
        """``verify(self.graph, self.vocab, policy or self.policy)``, reusing a report binding made under that policy.

        Raises:
            BindingGraphError: as :func:`verifier.verify` (``malformed_input`` for a policy
                not in :data:`verifier.values.POLICIES`).
        """
        chosen = policy or self.policy
        made = self.reports.get(chosen)
        return made if made is not None else verify(self.graph, self.vocab, chosen)


LANE_CASE_CARRIED: Final[tuple[str, ...]] = ("id", "vocab", "policy")
"""What a bundled lane case's envelope lends the record inside it (its ``input``)."""


def is_lane_case(record: object) -> bool:
    """True for a lane case (``evals/lanes/*.jsonl``): an object with ``input`` and ``expect`` or ``format``.

    A case without ``expect`` carries no gold: ``check`` verifies it, ``score`` counts it an error.
    """
    return isinstance(record, dict) and "input" in record and ("expect" in record or "format" in record)


def lane_case_input(record: Mapping[str, object], *, decode: bool = True) -> object:
    """The record inside a lane case, with the envelope's ``id``, ``vocab`` and ``policy`` (:data:`LANE_CASE_CARRIED`).

    The one place that knows the envelope: the readers, the cross-check and the scorer all
    unwrap through it, so a case means the same wherever it is read.

    Args:
        record: a lane case (see :func:`is_lane_case`).
        decode: read an ``input`` given as JSON text into its object (not for canonical text).

    Raises:
        MathGraphError: ``malformed_input`` / ``input_too_large`` for JSON text that does not read.
    """
    inner = record["input"]
    if isinstance(inner, str) and decode:
        try:
            inner = loads_exact(inner)
        except UnitRefusal as exc:
            raise MathGraphError(exc.reason, exc.detail, "input") from None
    if isinstance(inner, dict):
        inner = {**inner, **{k: record[k] for k in LANE_CASE_CARRIED if k in record}}
    return inner


def detect_format(record: object) -> str:
    """The format of a record (see the module table).

    Raises:
        MathGraphError: ``malformed_input`` when no format fits.
    """
    if is_text(record):  # a JSON number's text (1.5) is a number, not a canonical text
        return "canonical_text"
    if isinstance(record, dict) and is_lane_case(record):
        fmt = record.get("format")
        return fmt if isinstance(fmt, str) and fmt in FORMATS else detect_format(record["input"])
    if not isinstance(record, dict):
        raise MathGraphError(
            "malformed_input", f"a record is a JSON object or canonical text, found {json_kind(record)}", "record"
        )
    fmt = next((fmt for fmt, signs in _FORMAT_KEYS if any(all(k in record for k in keys) for keys in signs)), None)
    if fmt is None:
        held = GRAPH_FIELDS & record.keys()
        closest = (
            f"; a math_graph lacks only {sorted(GRAPH_FIELDS - held)}"
            if len(held) >= _MOST_OF_A_GRAPH
            else f"; a record holds the keys of one format: {_FORMAT_FIELDS}"
        )
        found = f"the keys {sorted(record)[:8]} fit" if record else "an empty object fits"
        raise MathGraphError("malformed_input", f"{found} no supported format{closest}", "record")
    return fmt


_MOST_OF_A_GRAPH: Final[int] = 2
"""A record holding this many of a math graph's fields (:data:`~adapters.math_graph.GRAPH_FIELDS`) is named one lacking the rest."""


_GRAPH_ORDER: Final[tuple[str, ...]] = ("entities", "initial_state", "operations", "unknown")
"""A math graph's fields in the order the upstream layout writes them (for messages)."""

_FORMAT_KEYS: Final[tuple[tuple[str, tuple[tuple[str, ...], ...]], ...]] = (
    ("relational", (("relations", "query"),)),
    ("binding_graph", (("symbols", "equations"),)),
    ("equation", (("operation_kind", "symbols"),)),
    ("math_graph", (("entities",), ("ground_truth_graph",), ("graph",))),
    ("canonical_text", (("hand_rolled_canonical",), ("canonical_text",))),
)
"""How :func:`detect_format` recognises an object's format: the first whose keys, in one of its sets, it all has."""

_FORMAT_FIELDS: Final[str] = "; ".join(
    f"{fmt} "
    + " or ".join(
        "{" + ", ".join(sorted(GRAPH_FIELDS, key=_GRAPH_ORDER.index) if keys == ("entities",) else keys) + "}"
        for keys in signs
    )
    for fmt, signs in _FORMAT_KEYS
)
"""What a refusal of an object of no format lists: each format with the keys that make it (:data:`_FORMAT_KEYS`)."""


def printable_id(record: object) -> str:
    """A record's ``id`` as its report prints it, for a record refused before it was read: ``""`` when absent or bad.

    Never raises: a refusal line names what it can (:func:`bind_record` refuses a bad id).
    """
    if not isinstance(record, dict):
        return ""
    try:
        given = record_id(record.get("id"), "id")
    except MathGraphError:
        return ""
    return "" if given is None else str(given)


def vocabulary_for(record: object, base: UnitVocabulary | None = None) -> UnitVocabulary:
    """The vocabulary a record asks for: ``base`` plus its ``count_nouns`` and ``conventions``.

    A record may carry ``{"vocab": {"count_nouns": {...}, "conventions": {...}}}``.

    An empty ``count_nouns`` (``{}``, ``[]`` or ``null``) or ``conventions`` (``{}`` or
    ``null``) declares nothing; any other value is declared, so a wrongly typed one (``0``,
    ``false``, ``""``) is refused.

    Raises:
        MathGraphError: the declarations' own refusals, as ``malformed_input``; also
            ``malformed_input`` for a ``base`` that is no :class:`~units.UnitVocabulary`.
    """
    vocab = given_vocabulary(base, "base")
    spec = record.get("vocab") if isinstance(record, dict) else None
    if spec is None:
        return vocab
    obj = fields(spec, "vocab", set(), {"count_nouns", "conventions"})
    nouns, conventions = obj.get("count_nouns"), obj.get("conventions")
    try:
        if nouns is not None and nouns not in ({}, []):
            vocab = vocab.with_count_nouns(nouns)  # type: ignore[arg-type]  # refused unless a mapping or list
        if conventions is not None and conventions != {}:
            vocab = vocab.with_conventions(conventions)  # type: ignore[arg-type]  # refused unless a mapping
    except UnitRefusal as exc:
        raise MathGraphError(exc.reason, exc.explain(), "vocab") from None
    return vocab


def bind_record(
    record: object, fmt: str | None = None, vocab: UnitVocabulary | None = None, *, count_nouns: str = "declared"
) -> BoundRecord:
    """Detect (or take) a record's format and bind it into a graph.

    Args:
        record: a JSON object or a canonical text.
        fmt: force a format from :data:`FORMATS` (``equation`` is for cross-checks only).
        vocab: the base vocabulary (default: the strict default vocabulary).
        count_nouns: ``"declared"`` (only declared nouns resolve) or ``"auto"``: a math
            graph's undeclared count nouns are declared for it by
            :func:`adapters.bind_with_auto_count_nouns` (near misses refused ``unknown_unit``);
            other formats carry their declarations in the record.

    Raises:
        MathGraphError: a typed refusal naming the field (``malformed_input``,
            ``input_too_large``, ``unsafe_expression``, ``state_unset`` …).
    """
    kind = fmt or detect_format(record)
    if isinstance(record, dict) and is_lane_case(record):
        record = lane_case_input(record, decode=kind != "canonical_text")
    given: object = kind  # typed, but an untyped caller may pass anything (a list would not hash)
    binder = _BINDERS.get(given) if isinstance(given, str) else None
    if binder is None:
        raise MathGraphError(
            "malformed_input", f"cannot verify format {clip(kind)}; use one of {list(FORMATS[:4])}", "format"
        )
    if count_nouns not in COUNT_NOUN_MODES:
        raise MathGraphError(
            "malformed_input",
            f"count_nouns must be one of {list(COUNT_NOUN_MODES)}, found {clip(count_nouns)}",
            "count_nouns",
        )
    given_id = record_id(record.get("id"), "id") if isinstance(record, dict) else None
    case_id = str(given_id) if given_id is not None else ""
    voc = vocabulary_for(record, vocab)
    try:
        bound = binder(record, voc, count_nouns)
    except BindingGraphError as exc:
        raise MathGraphError(exc.reason, exc.detail, exc.path) from None
    policy = bound.policy
    if isinstance(record, dict) and "policy" in record:
        given = record["policy"]
        if not is_policy(given):
            raise MathGraphError(
                "malformed_input", f"policy must be 'count_exact' or 'integer', found {clip(given)}", "policy"
            )
        policy = given
    return BoundRecord(
        case_id=case_id,
        format=kind,
        graph=bound.graph,
        policy=policy,
        vocab=bound.vocab,
        recorded=bound.recorded,
        reports=bound.reports,
    )


@dataclass(frozen=True, slots=True)
class _Bound:
    """What one format's binder makes of a record: the graph, the vocabulary it needs, its recorded verdicts, the policy."""

    graph: BindingGraph
    vocab: UnitVocabulary
    recorded: Mapping[str, RecordedVerdict] = field(default_factory=dict)
    policy: Policy = "count_exact"
    reports: Mapping[Policy, GraphReport] = field(default_factory=dict)


def _bind_math_graph(record: object, vocab: UnitVocabulary, count_nouns: str) -> _Bound:
    """A math graph record: the case's ``ground_truth_graph`` or ``graph``, else the record itself.

    With ``count_nouns="auto"`` its undeclared count nouns are declared for it.

    Raises:
        MathGraphError: ``malformed_input`` for a record holding two graphs; as :func:`graph_from_dict`.
    """
    if isinstance(record, dict):
        inputs = [key for key in ("ground_truth_graph", "graph", "entities") if key in record]
        if len(inputs) > 1:
            raise MathGraphError(
                "malformed_input",
                f"a record holds one graph; found {', '.join(inputs)} (which one is meant?)",
                "record",
            )
    data = record.get("ground_truth_graph", record.get("graph", record)) if isinstance(record, dict) else record
    if data is record and isinstance(record, dict):
        data = {k: v for k, v in record.items() if k not in RECORD_METADATA}
    problem = graph_from_dict(data)
    if count_nouns == "auto":
        graph, derived, report = bind_and_verify_with_auto_count_nouns(problem, vocab)
        return _Bound(graph, derived, reports={"count_exact": report} if report is not None else {})
    return _Bound(bind_math_problem_graph(problem, vocab), vocab)


def _bind_relational(record: object, vocab: UnitVocabulary, _count_nouns: str) -> _Bound:
    """A relational record (``relations``, ``query``, ``units``), answered under the ``integer`` policy."""
    obj = record if isinstance(record, dict) else {}
    graph = bind_relations(obj.get("relations"), obj.get("query"), obj.get("units"), vocab=vocab)
    return _Bound(graph, vocab, policy="integer")


def _bind_binding_graph(record: object, vocab: UnitVocabulary, _count_nouns: str) -> _Bound:
    """A :meth:`BindingGraph.to_json` record (its metadata keys left out)."""
    graph = BindingGraph.from_json(
        {k: v for k, v in record.items() if k not in RECORD_METADATA} if isinstance(record, dict) else record
    )
    return _Bound(graph, vocab)


def _bind_canonical_text(record: object, vocab: UnitVocabulary, _count_nouns: str) -> _Bound:
    """A canonical text, or a record's ``hand_rolled_canonical`` (else ``canonical_text``), with its recorded verdicts.

    Raises:
        MathGraphError: ``malformed_input`` for a record with no canonical text, or an empty one (only
            blanks: no graph, where :func:`parse_canonical_text` reads the empty graph); as
            :func:`parse_canonical_text`.
    """
    text = (
        record
        if isinstance(record, str)
        else (record.get("hand_rolled_canonical") or record.get("canonical_text"))
        if isinstance(record, dict)
        else None
    )
    if not isinstance(text, str):
        raise MathGraphError("malformed_input", "no canonical text in the record", "hand_rolled_canonical")
    if not text.strip():  # an empty record is no graph: checking it would answer nothing and pass
        raise MathGraphError("malformed_input", "the record's canonical text is empty: there is no graph", "record")
    graph, recorded = parse_canonical_text(text)
    return _Bound(graph, vocab, recorded)


_BINDERS: Final[dict[str, Callable[[object, UnitVocabulary, str], _Bound]]] = {
    "math_graph": _bind_math_graph,
    "relational": _bind_relational,
    "binding_graph": _bind_binding_graph,
    "canonical_text": _bind_canonical_text,
}
"""The binder of each format :func:`bind_record` verifies (:data:`FORMATS` but ``equation``); it refuses any other."""


def bind_equation_record(record: object) -> tuple[BoundEquation, dict[str, SymbolBinding]]:
    """One equation in the upstream ``equation_verdicts`` layout, bound; a recorded verdict is not needed.

    The record holds ``id``, ``lhs_symbol_id``, ``operation_kind`` and ``symbols`` (each with
    ``symbol_id``, ``semantic_role`` and ``unit``, which may be ``null``); ``hand_rolled`` and
    ``vocab`` (the declarations to judge it with, see :func:`vocabulary_for`) are allowed and
    ignored here.  The right-hand side is the sum of the dependencies for additive
    kinds (the first less the others for subtract), dividend over ``*__divisor`` (``*__chunk``)
    for a two-dependency divide (unit_partition), else their product: only the dependencies matter to
    admissibility.  Operand roles come from the upstream id suffixes
    (:data:`adapters._common.UPSTREAM_ROLE_SUFFIXES`).

    Returns:
        ``(equation, symbols by id)``.

    Raises:
        MathGraphError: ``malformed_input`` naming the field.
    """
    obj = fields(record, "record", {"id", "lhs_symbol_id", "operation_kind", "symbols"}, {"hand_rolled", "vocab"})
    if not isinstance(obj["symbols"], list):
        raise MathGraphError("malformed_input", "symbols must be a list", "symbols")
    symbols: dict[str, SymbolBinding] = {}
    try:
        for i, item in enumerate(obj["symbols"]):
            sym = fields(item, f"symbols[{i}]", {"symbol_id", "semantic_role", "unit"}, set())
            sid = name(sym["symbol_id"], f"symbols[{i}].symbol_id")
            unit = sym["unit"]
            symbols[sid] = SymbolBinding(
                symbol_id=sid,
                name=sid,
                semantic_role=cast("SemanticRole", str(sym["semantic_role"])),  # SymbolBinding refuses any other value
                source_span=span("record", sid),
                introduced_by="equation_record",
                unit=None if unit is None else name(unit, f"symbols[{i}].unit"),
            )
        kind = name(obj["operation_kind"], "operation_kind")
        deps = [symbol(s) for s in sorted(symbols)]
        if kind == "subtract" and len(deps) > 1:  # the first dependency less the others (only dependencies matter)
            rhs = deps[0] - sympy.Add(*deps[1:])
        elif kind in ADDITIVE_KINDS:
            rhs = sympy.Add(*deps) if deps else sympy.Integer(0)
        elif (
            (suffix := _DIVIDING.get(kind))
            and len(deps) == _DIVIDING_DEPENDENCIES
            and any(d.name.endswith(suffix) for d in deps)
        ):
            divisor = next(d for d in deps if d.name.endswith(suffix))
            rhs = next(d for d in deps if d is not divisor) / divisor
        else:
            rhs = sympy.Mul(*deps) if deps else sympy.Integer(1)
        equation = BoundEquation.create(
            lhs_symbol_id=name(obj["lhs_symbol_id"], "lhs_symbol_id"),
            rhs=rhs,
            operation_kind=kind,
            source_span=span("record", str(obj["id"])),
        )
        equation = with_roles(equation, upstream_roles(equation, symbols))
    except BindingGraphError as exc:
        raise MathGraphError(exc.reason, exc.detail, exc.path) from None
    return equation, symbols


def equation_from_record(record: object) -> tuple[BoundEquation, dict[str, SymbolBinding], str]:
    """One equation with a recorded verdict (the upstream ``equation_verdicts`` layout).

    Returns:
        ``(equation, symbols, theirs)`` where ``theirs`` is the recorded proof string when
        admitted, else the recorded refusal reason (the equation as
        :func:`bind_equation_record` binds it).

    Raises:
        MathGraphError: ``malformed_input`` naming the field (``hand_rolled`` is required here).
    """
    obj = fields(record, "record", {"id", "lhs_symbol_id", "operation_kind", "symbols", "hand_rolled"}, {"vocab"})
    equation, symbols = bind_equation_record(obj)
    verdict = fields(obj["hand_rolled"], "hand_rolled", {"status"}, {"unit_proof", "reason"})
    theirs = verdict.get("unit_proof") if verdict["status"] == "admitted" else verdict.get("reason")
    if not isinstance(theirs, str):
        raise MathGraphError(
            "malformed_input", "an admitted record needs unit_proof, a refused one a reason", "hand_rolled"
        )
    return equation, symbols, theirs


__all__ = [
    "COUNT_NOUN_MODES",
    "FORMATS",
    "LANE_CASE_CARRIED",
    "RECORD_METADATA",
    "BoundRecord",
    "bind_equation_record",
    "bind_record",
    "detect_format",
    "equation_from_record",
    "is_lane_case",
    "lane_case_input",
    "printable_id",
    "vocabulary_for",
]
