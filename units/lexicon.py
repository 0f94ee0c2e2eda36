"""The ``en_units_v1`` lexicon and its exact conversion definitions, read from JSONL.

Owns :class:`LexiconEntry`, :class:`Conversion`, :class:`Lexicon` and
:func:`load_lexicon`.  Knows nothing of pint (``units._pint`` builds the
registry) and nothing of graphs.

Two layouts are read:

* ours (shipped as ``units/data/en_units_v1.jsonl`` plus
  ``en_units_v1.conversions.jsonl``): entries in the upstream field layout and
  exact definitions such as ``{"lemma": "foot", "definition": "0.3048 meter"}``;
* the upstream pack (a folder with ``lexicon.jsonl`` and ``conversions.jsonl``):
  entries in the same layout and float conversion edges.  Float ratios never
  enter the registry: every lemma takes its exact definition from ours, and each
  upstream edge is compared with it; an edge that disagrees beyond float
  rounding is reported in :attr:`Lexicon.discrepancies`, with the unit names.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from fractions import Fraction
from importlib import resources
from pathlib import Path
from typing import Final

from units.dimension import BASE_DIMENSIONS
from units.errors import LexiconError, UnitRefusal
from units.exact import JsonNumber, format_exact, loads_exact, parse_exact

MAX_FILE_BYTES: Final[int] = 8 * 1024 * 1024
"""Largest lexicon or conversions file read (``input_too_large`` beyond)."""

MAX_FIELD_CHARS: Final[int] = 256
"""Longest string accepted in any lexicon field."""

FLOAT_TOLERANCE: Final[Fraction] = Fraction(1, 2**50)
"""Relative difference below which an upstream float ratio is float rounding of the exact value."""

_STR_FIELDS: Final = frozenset(
    {"entry_id", "surface", "lemma", "language", "pos", "part_of_speech", "epistemic_status", "gloss", "canonical_unit"}
)
_OPT_STR_FIELDS: Final = frozenset({"singular", "plural", "symbol", "dimension", "formula"})
_LIST_FIELDS: Final = frozenset({"morphology_tags", "semantic_domains", "provenance_ids"})
_BOOL_FIELDS: Final = frozenset({"is_derived", "is_canonical_for_dimension", "case_sensitive"})
_ENTRY_FIELDS: Final = _STR_FIELDS | _OPT_STR_FIELDS | _LIST_FIELDS | _BOOL_FIELDS | {"default_size"}
_REQUIRED_ENTRY: Final = ("entry_id", "surface", "lemma", "morphology_tags", "semantic_domains")
_CONVERSION_FIELDS: Final = frozenset({"lemma", "definition", "offset", "base_dimension", "axis", "source"})
_EDGE_FIELDS: Final = frozenset({"edge_id", "from", "to", "ratio", "offset", "dimension", "provenance_ids"})
_LEMMA: Final = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
_TERM: Final = re.compile(r"(?P<lemma>[A-Za-z][A-Za-z0-9_]*)(?:\^(?P<power>-?[0-9]))?")

_DATA: Final = "data"
LEXICON_FILE: Final = "en_units_v1.jsonl"
CONVERSIONS_FILE: Final = "en_units_v1.conversions.jsonl"


@dataclass(frozen=True, slots=True, kw_only=True)
class LexiconEntry:
    """One surface of the closed unit lexicon (upstream field layout, ADR-0127).

    Attributes:
        entry_id: stable id of the row.
        surface: the text exactly as it may appear in input (``"feet"``, ``"ft"``).
        lemma: the headword the surface resolves to (``"foot"``).
        morphology_tags: e.g. ``("unit", "symbol")``; ``"rate_connector"``, ``"container"``, ``"dimension"``.
        semantic_domains: e.g. ``("units.length",)``.
        singular, plural, symbol: the lemma's forms, where the row gives them.
        dimension: the upstream domain name (``"length"``, ``"wage"``), or ``None``.
        default_size: items per container (``12`` for a dozen), or ``None`` for none stated.
        gloss: a one-line description, or ``None``.
        provenance_ids: where the row comes from.
    """

    entry_id: str
    surface: str
    lemma: str
    morphology_tags: tuple[str, ...]
    semantic_domains: tuple[str, ...]
    singular: str | None = None
    plural: str | None = None
    symbol: str | None = None
    dimension: str | None = None
    default_size: int | None = None
    gloss: str | None = None
    provenance_ids: tuple[str, ...] = ()

    @property
    def role(self) -> str:
        """What the row names: ``unit``, ``container``, ``number``, ``dimension_name`` or ``connector``."""
        if "units.dimension" in self.semantic_domains:
            return "dimension_name"
        if "unit" not in self.morphology_tags and "rate_connector" in self.morphology_tags:
            return "connector"
        if self.semantic_domains and self.semantic_domains[0] == "units.container":
            return "container"
        if self.semantic_domains and self.semantic_domains[0] == "units.symbol":
            return "number"
        return "unit"


@dataclass(frozen=True, slots=True, kw_only=True)
class Conversion:
    """The exact definition of one lemma.

    Either a base (``base_dimension`` set: the lemma is the reference unit of its
    own registry dimension, projected onto ``axis``), or ``factor`` times a
    product of other lemmas' powers (``of``), plus an ``offset`` for the
    non-multiplicative temperatures (``value_in_ref = value * factor + offset``).

    Attributes:
        lemma: the lemma defined.
        factor: exact scale, e.g. ``Fraction(381, 1250)`` for the foot in meters.
        of: ``(("meter", 1),)``; ``()`` for a pure number such as ``percent``.
        offset: exact offset; ``0`` for multiplicative units.
        base_dimension: registry dimension name for a base lemma (``"length"``, ``"USD"``).
        axis: one of the six base dimensions, for a base lemma.
        source: the public definition the factor comes from (NIST SP 811, ISO 4217, …).
    """

    lemma: str
    factor: Fraction = Fraction(1)
    of: tuple[tuple[str, int], ...] = ()
    offset: Fraction = Fraction(0)
    base_dimension: str | None = None
    axis: str | None = None
    source: str = ""


@dataclass(frozen=True, slots=True)
class Discrepancy:
    """An upstream conversion edge that disagrees with the exact definitions.

    Attributes:
        edge_id: the upstream row id.
        from_unit, to_unit: the edge's surfaces.
        upstream: the upstream ratio (and offset) as written.
        exact: the exact ratio from our definitions, or ``None`` when none exists.
        reason: why they disagree (``"beyond float rounding"``, ``"no fixed rate"``, …).
    """

    edge_id: str
    from_unit: str
    to_unit: str
    upstream: str
    exact: str | None
    reason: str

    def __str__(self) -> str:
        exact = self.exact if self.exact is not None else "none"
        return f"{self.edge_id}: {self.from_unit} -> {self.to_unit}: upstream {self.upstream}, exact {exact}: {self.reason}"


@dataclass(frozen=True, slots=True)
class Lexicon:
    """A loaded lexicon: entries, exact definitions and the upstream discrepancies.

    Attributes:
        entries: every row, in file order.
        conversions: exact definitions by lemma.
        discrepancies: upstream float edges that disagree with the exact definitions.
        source: the path (or ``"<embedded en_units_v1>"``) it was read from.
    """

    entries: tuple[LexiconEntry, ...]
    conversions: Mapping[str, Conversion]
    discrepancies: tuple[Discrepancy, ...] = ()
    source: str = ""

    def __hash__(self) -> int:
        """A hash agreeing with ``==``: ``conversions`` is hashed as a set of items (its order is no part of equality)."""
        return hash((self.entries, frozenset(self.conversions.items()), self.discrepancies, self.source))

    def surfaces(self) -> Iterator[tuple[str, LexiconEntry]]:
        """Yield ``(surface, entry)`` pairs in file order."""
        for entry in self.entries:
            yield entry.surface, entry


def _read_jsonl(path: Path | None, text: str | None, label: str) -> Iterator[tuple[int, object]]:
    if text is None:
        if path is None:
            raise TypeError("a JSONL source needs a path or a text")
        try:
            size = path.stat().st_size
        except OSError as exc:
            raise UnitRefusal("malformed_input", f"cannot read: {exc.strerror}", str(path)) from None
        if not path.is_file():
            raise UnitRefusal("malformed_input", "not a regular file", str(path))
        if size > MAX_FILE_BYTES:
            raise UnitRefusal("input_too_large", f"file larger than {MAX_FILE_BYTES} bytes", str(path))
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise UnitRefusal("malformed_input", f"cannot read as UTF-8 text: {exc}", str(path)) from None
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            yield number, loads_exact(line)
        except UnitRefusal as exc:
            yield number, UnitRefusal(exc.reason, exc.detail, exc.subject, f"{label}:{number}")


def _required_str(row: Mapping[str, object], key: str, where: str) -> str:
    value = _check_str(row, key, where, optional=False)
    if value is None:  # unreachable: optional=False refuses a missing value
        raise UnitRefusal("malformed_input", f"field {key!r} is required", None, where)
    return value


def _check_str(row: Mapping[str, object], key: str, where: str, *, optional: bool) -> str | None:
    value = row.get(key)
    if value is None and optional:
        return None
    # ``type() is str``: a JSON number arrives as a JsonNumber (a str subclass) and is not text.
    if type(value) is not str or not value or len(value) > MAX_FIELD_CHARS or value != value.strip():
        raise UnitRefusal("malformed_input", f"field {key!r} must be a non-empty trimmed string", value, where)
    return value


def _entry_from_row(row: object, where: str) -> LexiconEntry:
    """One lexicon row as an entry: its fields checked (:func:`_check_entry_fields`), then its lemma."""
    if not isinstance(row, dict):
        raise UnitRefusal("malformed_input", "each line must be a JSON object", type(row).__name__, where)
    _check_entry_fields(row, where)
    lists = _entry_lists(row, where)
    size = row.get("default_size")
    if size is not None and (type(size) is not int or size <= 0):
        raise UnitRefusal(
            "malformed_input", "default_size must be a positive integer or null", size, f"{where}.default_size"
        )
    lemma = _required_str(row, "lemma", f"{where}.lemma")
    if not _LEMMA.fullmatch(lemma):
        raise UnitRefusal(
            "malformed_input", "a lemma is a letter followed by letters, digits or '_'", lemma, f"{where}.lemma"
        )
    return LexiconEntry(
        entry_id=str(row["entry_id"]),
        surface=str(row["surface"]),
        lemma=lemma,
        morphology_tags=lists["morphology_tags"],
        semantic_domains=lists["semantic_domains"],
        singular=_check_str(row, "singular", where, optional=True),
        plural=_check_str(row, "plural", where, optional=True),
        symbol=_check_str(row, "symbol", where, optional=True),
        dimension=_check_str(row, "dimension", where, optional=True),
        default_size=size,
        gloss=_check_str(row, "gloss", where, optional=True),
        provenance_ids=lists["provenance_ids"],
    )


def _check_entry_fields(row: Mapping[str, object], where: str) -> None:
    """Refuse an unknown or missing field, and a string or bool field of the wrong type, in that order.

    Raises:
        UnitRefusal: ``malformed_input`` naming the field.
    """
    unknown = sorted(set(row) - _ENTRY_FIELDS)
    if unknown:
        raise UnitRefusal("malformed_input", f"unknown field(s) {unknown}", unknown[0], where)
    for key in _REQUIRED_ENTRY:
        if key not in row:
            raise UnitRefusal("malformed_input", f"missing field {key!r}", key, where)
    for key in _STR_FIELDS & set(row):
        _check_str(row, key, f"{where}.{key}", optional=False)
    for key in _OPT_STR_FIELDS & set(row):
        _check_str(row, key, f"{where}.{key}", optional=True)
    for key in _BOOL_FIELDS & set(row):
        if not isinstance(row[key], bool):
            raise UnitRefusal("malformed_input", f"field {key!r} must be true or false", row[key], f"{where}.{key}")


def _entry_lists(row: Mapping[str, object], where: str) -> dict[str, tuple[str, ...]]:
    """The list fields of a row (:data:`_LIST_FIELDS`) as tuples of strings; an absent one is empty.

    Raises:
        UnitRefusal: ``malformed_input`` for a field that is not a list of non-empty strings.
    """
    lists: dict[str, tuple[str, ...]] = {}
    for key in _LIST_FIELDS:
        value = row.get(key, [])
        if not isinstance(value, list) or not all(type(v) is str and v for v in value):
            raise UnitRefusal("malformed_input", f"field {key!r} must be a list of strings", value, f"{where}.{key}")
        lists[key] = tuple(value)
    return lists


def parse_definition(text: str, *, path: str = "") -> tuple[Fraction, tuple[tuple[str, int], ...]]:
    """Parse a definition such as ``"0.3048 meter"``, ``"231 inch^3"``, ``"1 pound/foot^3"`` or ``"1/100"``.

    Grammar: an exact number (see :func:`units.exact.parse_exact`), then
    optionally one space and lemma powers joined by ``*`` with at most one ``/``;
    a power is ``^`` and one signed digit.

    Returns:
        ``(factor, ((lemma, power), ...))``.

    Raises:
        UnitRefusal: ``malformed_input`` for text outside the grammar.
    """
    number, _, rest = text.partition(" ")
    factor = parse_exact(number, path=path)
    if not rest:
        return factor, ()
    powers: list[tuple[str, int]] = []
    numerator, slash, denominator = rest.partition("/")
    if "/" in denominator:
        raise UnitRefusal("malformed_input", "at most one '/' in a definition", text, path)
    for sign, part in ((1, numerator), (-1, denominator if slash else "")):
        if not part and sign == -1:
            continue
        for term in part.split("*"):
            match = _TERM.fullmatch(term)
            if match is None:
                raise UnitRefusal("malformed_input", "expected lemma or lemma^n", term, path)
            powers.append((match["lemma"], sign * int(match["power"] or 1)))
    return factor, tuple(powers)


_MAX_NAME_CHARS: Final[int] = 64
"""Longest lemma or base-dimension name a conversions row may define (our bound on what pint is handed)."""


def _check_name(row: Mapping[str, object], key: str, where: str) -> str:
    """A lemma or base-dimension name: ``[A-Za-z][A-Za-z0-9_]*``, at most 64 characters, checked before pint sees it."""
    text = _required_str(row, key, f"{where}.{key}")
    if len(text) > _MAX_NAME_CHARS or not _LEMMA.fullmatch(text):
        raise UnitRefusal(
            "malformed_input", "a name is a letter then letters, digits or '_' (at most 64)", text, f"{where}.{key}"
        )
    return text


def _conversion_from_row(row: object, where: str) -> Conversion:
    if not isinstance(row, dict):
        raise UnitRefusal("malformed_input", "each line must be a JSON object", type(row).__name__, where)
    unknown = sorted(set(row) - _CONVERSION_FIELDS)
    if unknown:
        raise UnitRefusal("malformed_input", f"unknown field(s) {unknown}", unknown[0], where)
    lemma = _check_name(row, "lemma", where)
    source = _check_str(row, "source", f"{where}.source", optional=True) or ""
    if "base_dimension" in row:
        base = _check_name(row, "base_dimension", where)
        axis = _check_str(row, "axis", f"{where}.axis", optional=False)
        if axis not in BASE_DIMENSIONS:
            raise UnitRefusal("malformed_input", f"axis must be one of {list(BASE_DIMENSIONS)}", axis, f"{where}.axis")
        if set(row) & {"definition", "offset"}:
            raise UnitRefusal("malformed_input", "a base has no definition or offset", lemma, where)
        return Conversion(lemma=lemma, base_dimension=base, axis=axis, source=source)
    definition = _required_str(row, "definition", f"{where}.definition")
    factor, of = parse_definition(definition, path=f"{where}.definition")
    if factor <= 0:
        raise UnitRefusal("malformed_input", "a conversion factor must be positive", definition, f"{where}.definition")
    offset = parse_exact(row["offset"], path=f"{where}.offset") if "offset" in row else Fraction(0)
    return Conversion(lemma=lemma, factor=factor, of=of, offset=offset, source=source)


def _collect(rows: Iterator[tuple[int, object]], label: str, build: object) -> tuple[list[object], list[UnitRefusal]]:
    good: list[object] = []
    bad: list[UnitRefusal] = []
    for number, row in rows:
        if isinstance(row, UnitRefusal):
            bad.append(row)
            continue
        try:
            good.append(build(row, f"{label}:{number}"))  # type: ignore[operator]
        except UnitRefusal as exc:
            bad.append(exc)
    return good, bad


def _parse_entries(path: Path | None, text: str | None, label: str) -> tuple[LexiconEntry, ...]:
    good, bad = _collect(_read_jsonl(path, text, label), label, _entry_from_row)
    entries = tuple(e for e in good if isinstance(e, LexiconEntry))
    seen: dict[str, str] = {}
    for entry in entries:
        if entry.surface in seen:
            bad.append(
                UnitRefusal(
                    "malformed_input",
                    f"duplicate surface (also {seen[entry.surface]})",
                    entry.surface,
                    f"{label}:{entry.entry_id}",
                )
            )
        seen[entry.surface] = entry.entry_id
    if not entries and not bad:
        bad.append(UnitRefusal("malformed_input", "the lexicon has no entries", label, label))
    if bad:
        raise LexiconError(label, tuple(bad))
    return entries


def _parse_conversions(path: Path | None, text: str | None, label: str) -> dict[str, Conversion]:
    good, bad = _collect(_read_jsonl(path, text, label), label, _conversion_from_row)
    table: dict[str, Conversion] = {}
    for conv in good:
        if not isinstance(conv, Conversion):  # _collect yields what the row reader returned
            raise TypeError(f"expected a Conversion, found {type(conv).__name__}")
        if conv.lemma in table:
            bad.append(UnitRefusal("malformed_input", "lemma defined twice", conv.lemma, label))
        table[conv.lemma] = conv
    for conv in table.values():
        for lemma, _ in conv.of:
            if lemma not in table:
                bad.append(
                    UnitRefusal(
                        "malformed_input", f"definition of {conv.lemma!r} refers to an undefined lemma", lemma, label
                    )
                )
    if bad:
        raise LexiconError(label, tuple(bad))
    if _cycle(table):
        raise LexiconError(
            label, (UnitRefusal("malformed_input", "definitions refer to each other in a cycle", _cycle(table), label),)
        )
    return table


_VISITING: Final[int] = 1  # depth-first search: the lemma is on the current path (seeing it again is a cycle)
_VISITED: Final[int] = 2  # depth-first search: every definition below the lemma is acyclic


def _cycle(table: Mapping[str, Conversion]) -> str:
    """The first lemma, in sorted order, from which the definitions refer back in a cycle, or ``""``."""
    state: dict[str, int] = {}

    def visit(lemma: str) -> bool:
        if state.get(lemma) == _VISITING:
            return True
        if state.get(lemma) == _VISITED:
            return False
        state[lemma] = _VISITING
        if any(visit(dep) for dep, _ in table[lemma].of if dep in table):
            return True
        state[lemma] = _VISITED
        return False

    for lemma in sorted(table):
        if visit(lemma):
            return lemma
    return ""


def root_scale(conversions: Mapping[str, Conversion], lemma: str) -> tuple[Fraction, dict[str, int]]:
    """Exact scale of ``lemma`` in base lemmas, computed directly from the definitions.

    An independent cross-check of the registry (SPEC §11, "check once after
    building"): no pint, only :class:`~fractions.Fraction` arithmetic.

    Returns:
        ``(scale, {base_dimension: power})`` with ``1 lemma == scale * prod(base ** power)``.
    """
    conv = conversions[lemma]
    if conv.base_dimension is not None:
        return Fraction(1), {conv.base_dimension: 1}
    scale = conv.factor
    dims: dict[str, int] = {}
    for dep, power in conv.of:
        dep_scale, dep_dims = root_scale(conversions, dep)
        scale *= dep_scale**power
        for dim, p in dep_dims.items():
            dims[dim] = dims.get(dim, 0) + p * power
    return scale, {d: p for d, p in dims.items() if p}


def _embedded_text(name: str) -> str:
    return resources.files("units").joinpath(_DATA, name).read_text(encoding="utf-8")


def load_embedded() -> Lexicon:
    """Load the ``en_units_v1`` lexicon shipped with this package (ours)."""
    entries = _parse_entries(None, _embedded_text(LEXICON_FILE), LEXICON_FILE)
    conversions = _parse_conversions(None, _embedded_text(CONVERSIONS_FILE), CONVERSIONS_FILE)
    return Lexicon(entries, conversions, (), "<embedded en_units_v1>")


def load_lexicon(path: str | Path, conversions: str | Path | None = None) -> Lexicon:
    """Read a lexicon from disk: ours, or the upstream pack's own files.

    Args:
        path: a lexicon JSONL file, or a pack folder holding ``lexicon.jsonl``
            (upstream) or ``en_units_v1.jsonl`` (ours).
        conversions: a conversions JSONL file.  Ours holds exact definitions
            (``{"lemma", "definition"}``); the upstream one holds float edges
            (``{"from", "to", "ratio", "offset"}``), which are compared with the exact
            definitions and reported, never used.  ``None`` looks beside the lexicon
            and falls back to the embedded exact definitions.

    Returns:
        A :class:`Lexicon` whose conversions are exact; upstream edges that disagree
        beyond float rounding are listed in :attr:`Lexicon.discrepancies`.

    Raises:
        UnitRefusal: ``malformed_input`` for an unreadable path or a non-string path;
            ``input_too_large`` for a file over :data:`MAX_FILE_BYTES`;
            :class:`~units.errors.LexiconError` listing every bad row (line and field).
    """
    given: object = path  # typed, but an untyped caller may pass anything
    if not isinstance(given, (str, Path)) or (isinstance(given, str) and not given):
        raise UnitRefusal("malformed_input", "path must be a non-empty str or Path", path)
    beside: object = conversions
    if beside is not None and (not isinstance(beside, (str, Path)) or beside == ""):
        detail = "conversions must be None or a non-empty str or Path"
        raise UnitRefusal("malformed_input", detail, conversions, "conversions")
    folder, lexicon_path = _lexicon_file(path)
    entries = _parse_entries(lexicon_path, None, str(lexicon_path))
    conv_path = Path(conversions) if conversions is not None else _conversions_beside(folder)
    embedded = _parse_conversions(None, _embedded_text(CONVERSIONS_FILE), CONVERSIONS_FILE)
    if conv_path is None:
        return _complete(entries, embedded, (), str(lexicon_path))
    rows = list(_read_jsonl(conv_path, None, str(conv_path)))
    first = next((row for _, row in rows if isinstance(row, dict)), None)
    if isinstance(first, dict) and "ratio" in first:
        discrepancies = _snap_edges(rows, entries, embedded, str(conv_path))
        return _complete(entries, embedded, discrepancies, str(lexicon_path))
    table = _parse_conversions(conv_path, None, str(conv_path))
    return _complete(entries, table, (), str(lexicon_path))


def _lexicon_file(path: str | Path) -> tuple[Path, Path]:
    """``(folder, lexicon file)`` of a lexicon path: a file and its folder, or a pack folder and its lexicon.

    Raises:
        UnitRefusal: ``malformed_input`` for a folder holding neither ``lexicon.jsonl`` nor
            :data:`LEXICON_FILE`.
    """
    lexicon_path = Path(path)
    if not lexicon_path.is_dir():
        return lexicon_path.parent, lexicon_path
    for name in ("lexicon.jsonl", LEXICON_FILE):
        if (lexicon_path / name).is_file():
            return lexicon_path, lexicon_path / name
    raise UnitRefusal("malformed_input", f"folder has no lexicon.jsonl or {LEXICON_FILE}", str(path))


def _conversions_beside(folder: Path) -> Path | None:
    """The conversions file in a lexicon's folder (upstream ``conversions.jsonl``, else ours), or ``None``."""
    for name in ("conversions.jsonl", CONVERSIONS_FILE):
        if (folder / name).is_file():
            return folder / name
    return None


def _complete(
    entries: tuple[LexiconEntry, ...],
    conversions: dict[str, Conversion],
    discrepancies: tuple[Discrepancy, ...],
    source: str,
) -> Lexicon:
    """Give every unit lemma an exact definition, or refuse the lemmas that have none."""
    table = dict(conversions)
    bad: list[UnitRefusal] = []
    for entry in entries:
        if entry.lemma in table or entry.role in ("dimension_name", "connector"):
            continue
        if entry.role == "container" and entry.default_size is None:
            table[entry.lemma] = Conversion(
                lemma=entry.lemma, base_dimension=entry.lemma, axis="count", source="container of unstated size"
            )
        elif entry.role == "container" and entry.default_size is not None and "item" in table:
            table[entry.lemma] = Conversion(
                lemma=entry.lemma, factor=Fraction(entry.default_size), of=(("item", 1),), source="default_size"
            )
        elif entry.role == "unit" and entry.semantic_domains[:1] == ("units.count",):
            table[entry.lemma] = Conversion(
                lemma=entry.lemma, base_dimension=entry.lemma, axis="count", source="count lemma: its own kind"
            )
        else:
            bad.append(
                UnitRefusal(
                    "malformed_input",
                    "no exact definition for this lemma; supply a conversions file",
                    entry.lemma,
                    f"{source}:{entry.entry_id}",
                )
            )
    if bad:
        raise LexiconError(source, tuple(dict.fromkeys(bad, None)))
    return Lexicon(entries, table, discrepancies, source)


def _snap_edges(
    rows: list[tuple[int, object]],
    entries: tuple[LexiconEntry, ...],
    conversions: Mapping[str, Conversion],
    label: str,
) -> tuple[Discrepancy, ...]:
    """Compare upstream float edges with the exact definitions; return the disagreements."""
    lemma_of = {e.surface: e.lemma for e in entries}
    bad: list[UnitRefusal] = []
    found: list[Discrepancy] = []
    for number, row in rows:
        where = f"{label}:{number}"
        if isinstance(row, UnitRefusal):
            bad.append(row)
            continue
        if not isinstance(row, dict) or set(row) - _EDGE_FIELDS or not {"from", "to", "ratio"} <= set(row):
            bad.append(
                UnitRefusal(
                    "malformed_input",
                    f"an edge needs from, to, ratio (fields: {sorted(_EDGE_FIELDS)})",
                    row if not isinstance(row, dict) else sorted(row),
                    where,
                )
            )
            continue
        try:
            ratio = _parse_float_text(row["ratio"], path=f"{where}.ratio")
            offset = _parse_float_text(row.get("offset", 0), path=f"{where}.offset")
        except UnitRefusal as exc:
            bad.append(exc)
            continue
        src, dst = row["from"], row["to"]
        if not isinstance(src, str) or not isinstance(dst, str):
            bad.append(
                UnitRefusal("malformed_input", "an edge's from and to are surfaces (strings)", [src, dst], where)
            )
            continue
        edge_id = str(row.get("edge_id", where))
        upstream = format_decimal(row["ratio"]) + (f" offset {format_decimal(row['offset'])}" if offset else "")
        if src not in lemma_of or dst not in lemma_of:
            found.append(Discrepancy(edge_id, str(src), str(dst), upstream, None, "surface not in the lexicon"))
            continue
        verdict = _exact_edge(conversions, lemma_of[src], lemma_of[dst])
        if isinstance(verdict, str):
            found.append(Discrepancy(edge_id, src, dst, upstream, None, verdict))
            continue
        exact_ratio, exact_offset = verdict
        exact_text = format_exact(exact_ratio) + (f" offset {format_exact(exact_offset)}" if exact_offset else "")
        if not (_close(ratio, exact_ratio) and _close(offset, exact_offset)):
            found.append(Discrepancy(edge_id, src, dst, upstream, exact_text, "differs beyond float rounding"))
    if bad:
        raise LexiconError(label, tuple(bad))
    return tuple(found)


_FLOAT_EXPONENT: Final = re.compile(r"(?P<mantissa>[^eE]+)[eE](?P<exp>[+-]?[0-9]{1,3})")
MAX_FLOAT_EXPONENT: Final[int] = 400
"""Largest decimal exponent read from an upstream float ratio (a double stops near 308)."""


def _parse_float_text(value: object, *, path: str) -> Fraction:
    """The exact value of an upstream float ratio's JSON text, exponents allowed (``9.9e-05``).

    Only the upstream pack's float edges are read this way, to be compared with the
    exact definitions; the value never enters the registry.  The exponent is capped
    at :data:`MAX_FLOAT_EXPONENT`, so no input can make the arithmetic hang.
    """
    match = _FLOAT_EXPONENT.fullmatch(value) if isinstance(value, JsonNumber) else None
    if match is None:
        return parse_exact(value, path=path)
    exponent = int(match["exp"])
    if abs(exponent) > MAX_FLOAT_EXPONENT:
        detail = f"exponent beyond {MAX_FLOAT_EXPONENT}"
        raise UnitRefusal("input_too_large", detail, str(value), path)
    return parse_exact(JsonNumber(match["mantissa"]), path=path) * Fraction(10) ** exponent


def format_decimal(value: object) -> str:
    """The verbatim text of a JSON number (or ``repr`` of anything else)."""
    return str(value) if isinstance(value, (JsonNumber, int)) else repr(value)


def _close(upstream: Fraction, exact: Fraction) -> bool:
    if exact == 0:
        return abs(upstream) <= FLOAT_TOLERANCE
    return abs(upstream - exact) <= FLOAT_TOLERANCE * abs(exact)


def _exact_edge(conversions: Mapping[str, Conversion], src: str, dst: str) -> tuple[Fraction, Fraction] | str:
    """Exact ``(ratio, offset)`` with ``value_dst = value_src * ratio + offset``, or why none exists."""
    if src not in conversions or dst not in conversions:
        return "no exact definition"
    s_scale, s_dims = root_scale(conversions, src)
    d_scale, d_dims = root_scale(conversions, dst)
    if s_dims != d_dims:
        kinds = {d for d in (*s_dims, *d_dims) if d == "calendar"}
        if kinds and {"time"} & {*s_dims, *d_dims}:
            return "calendar units convert to days or weeks only under a declared convention"
        return (
            "not convertible: different kinds (" + ", ".join(sorted(s_dims)) + " vs " + ", ".join(sorted(d_dims)) + ")"
        )
    ratio = s_scale / d_scale
    s_off = _total_offset(conversions, src)
    d_off = _total_offset(conversions, dst)
    # value_ref = v_src * s_scale + s_off = v_dst * d_scale + d_off
    return ratio, (s_off - d_off) / d_scale


def _total_offset(conversions: Mapping[str, Conversion], lemma: str) -> Fraction:
    conv = conversions[lemma]
    return conv.offset if conv.offset and len(conv.of) == 1 else Fraction(0)


__all__ = [
    "CONVERSIONS_FILE",
    "FLOAT_TOLERANCE",
    "LEXICON_FILE",
    "MAX_FIELD_CHARS",
    "MAX_FILE_BYTES",
    "MAX_FLOAT_EXPONENT",
    "Conversion",
    "Discrepancy",
    "Lexicon",
    "LexiconEntry",
    "format_decimal",
    "load_embedded",
    "load_lexicon",
    "parse_definition",
    "root_scale",
]
