"""Reading a corpus: records with their gold answers, from a file or text in any supported layout.

:func:`read_records` turns a JSON, JSONL or canonical-text source into :class:`Record`
objects (SPEC §9): each carries its id, where it was read, the record as written (for
:func:`adapters.records.bind_record`), and its :class:`Gold` when the layout has one.
The layouts read as they are:

====================  ===============================================================
layout                gold
====================  ===============================================================
lane case             ``{"id", "format", "input", "expect": {"answer", "unit"} |
                      {"refusal"} | {"category"}, "vocab"?, "policy"?}`` (``evals/lanes``)
upstream dev set      ``{"id", "ground_truth_graph", "expected_answer", "expected_unit"}``
upstream relational   ``{"relations", "query", "gold"}`` (the query's unit is the gold's)
a bare input          a math graph, relations, binding graph or canonical text (no gold)
====================  ===============================================================

Bad lines are never skipped silently: every one is reported with its line number,
after every good record has been read (see ``errors``).
"""

from __future__ import annotations

import io
import itertools
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Final, Literal

from adapters._common import exact, record_id
from adapters.errors import MathGraphError
from units import UnitRefusal
from units.errors import clip
from units.exact import format_exact, is_text, json_kind, loads_exact, text_kind
from verifier.categories import CATEGORIES
from verifier.reasons import REFUSAL_REASONS

MAX_SOURCE_BYTES: Final[int] = 256 * 1024 * 1024
"""Largest file :func:`read_records` opens (``input_too_large`` beyond)."""

_CANONICAL_STARTS: Final[tuple[str, ...]] = ("S ", "F ", "E ", "U ", "C ", "P ")


@dataclass(frozen=True, slots=True, kw_only=True)
class Gold:
    """What a record's author says the right outcome is: an answer, a refusal, or a cross-check category.

    Attributes:
        value: the exact answer (``Fraction``), or ``None`` for an expected refusal or category.
        unit: the answer's unit surface as written, or ``None`` (a dimensionless answer).
        refusal: the expected refusal reason (SPEC §6), or ``None``.
        category: the expected cross-check category (``verifier.crosscheck.CATEGORIES``), or ``None``.
    """

    value: Fraction | None = None
    unit: str | None = None
    refusal: str | None = None
    category: str | None = None

    def __str__(self) -> str:
        if self.refusal is not None:
            return f"refusal {self.refusal}"
        if self.category is not None:
            return f"category {self.category}"
        text = format_exact(self.value if self.value is not None else Fraction(0))
        return f"{text} {self.unit}" if self.unit else text


@dataclass(frozen=True, slots=True, kw_only=True)
class Record:
    """One record of a corpus.

    Attributes:
        id: the record's ``id``, else ``"<source>:<line>"``.
        source: the file name (or ``"<text>"``).
        line: the 1-based line of a JSONL record; ``0`` for an item of a JSON list or a
            whole-file record.
        data: the record exactly as read (exact numbers), for
            :func:`adapters.records.bind_record`.
        gold: the expected outcome, or ``None`` when the layout carries none.
        format: the record's declared ``format`` (lane cases), or ``None`` (detected when bound).
        lane: a lane case's lane name when the source is a bundled lane file, else ``""``.
        index: the 0-based position of a JSON list's item (then ``line`` is 0), else ``None``.
    """

    id: str
    source: str
    line: int
    data: object = field(repr=False)
    gold: Gold | None
    format: str | None = None
    lane: str = ""
    index: int | None = None

    @property
    def where(self) -> str:
        """``graphs.jsonl:34`` for a line, ``cases.json[5]`` for an item of a JSON list, else the source."""
        return _where(self.source, self.line, self.index)


@dataclass(frozen=True, slots=True, kw_only=True)
class BadRecord:
    """A line that could not be read as a record, with why (``errors="collect"``)."""

    source: str
    line: int
    error: MathGraphError
    id: str = ""
    index: int | None = None

    @property
    def where(self) -> str:
        """``cases.jsonl:7`` (or ``cases.json[5]`` for an item of a JSON list)."""
        return _where(self.source, self.line, self.index)


def _where(source: str, line: int, index: int | None) -> str:
    if index is not None:
        return f"{source}[{index}]"
    return f"{source}:{line}" if line else source


class RecordsError(MathGraphError):
    """Every bad line of a source, raised after its good records were yielded (``errors="raise"``).

    Attributes:
        errors: the :class:`BadRecord` of each bad line, in file order.
    """

    def __init__(self, source: str, errors: tuple[BadRecord, ...]) -> None:
        first = errors[0]
        more = f" (and {len(errors) - 1} more bad lines)" if len(errors) > 1 else ""
        super().__init__(first.error.reason, f"{first.error.detail}{more}", first.error.path or first.where)
        self.args = (first.error.reason, self.detail, self.path)
        self.errors = errors
        self.source = source

    def __reduce__(self) -> tuple[type[RecordsError], tuple[object, ...]]:
        return (RecordsError, (self.source, self.errors))


def _gold(record: Mapping[str, object], where: str) -> Gold | None:
    """The gold of one record in any of the module's layouts, or ``None``."""
    layouts = [key for key in ("expect", "expected_answer", "gold") if key in record]
    if len(layouts) > 1:
        raise MathGraphError(
            "malformed_input", f"a record holds one gold; found {', '.join(layouts)} (which one is meant?)", where
        )
    expect = record.get("expect")
    if expect is not None and "input" in record:
        if not isinstance(expect, Mapping) or len({"answer", "refusal", "category"} & set(expect)) != 1:
            raise MathGraphError(
                "malformed_input", "expect holds exactly one of answer, refusal or category", f"{where}.expect"
            )
        key = next(k for k in ("answer", "refusal", "category") if k in expect)
        unknown = sorted(set(map(str, expect)) - ({"answer", "unit"} if key == "answer" else {key}))
        if unknown:  # a misspelled "unit" would otherwise leave a gold with no unit
            raise MathGraphError(
                "malformed_input",
                f"unknown key in expect: {', '.join(map(repr, unknown))[:80]} (an answer takes answer and unit; a"
                " refusal or a category, that key alone)",
                f"{where}.expect",
            )
        if key == "answer":
            unit = expect.get("unit")
            return Gold(value=exact(expect["answer"], f"{where}.expect.answer"), unit=_unit(unit, where))
        text = expect[key]
        names = REFUSAL_REASONS if key == "refusal" else frozenset(CATEGORIES)
        if not isinstance(text, str) or text not in names:
            raise MathGraphError(
                "malformed_input",
                f"expect.{key} {clip(text)} is not a {key} name (SPEC §6{'' if key == 'refusal' else ', §7'})",
                f"{where}.expect.{key}",
            )
        return Gold(refusal=text) if key == "refusal" else Gold(category=text)
    if "expected_answer" in record:
        return Gold(
            value=exact(record["expected_answer"], f"{where}.expected_answer"),
            unit=_unit(record.get("expected_unit"), where),
        )
    if "gold" in record and "relations" in record:
        query = record.get("query")
        unit = query.get("unit") if isinstance(query, Mapping) else None
        return Gold(value=exact(record["gold"], f"{where}.gold"), unit=_unit(unit, where))
    return None


def _unit(unit: object, where: str) -> str | None:
    if unit is None or (is_text(unit) and unit):
        return unit
    raise MathGraphError("malformed_input", f"a gold unit is a unit surface, found {text_kind(unit)}", f"{where}.unit")


def to_record(
    item: object, source: str = "<record>", line: int = 0, lane: str = "", index: int | None = None
) -> Record:
    """One record read as :func:`read_records` reads each (a JSON object or a canonical text).

    Raises:
        MathGraphError: ``malformed_input`` for a record that is not an object or text, a
            bad ``id`` or ``format``, or a gold that is not exact (see :class:`Gold`).
    """
    where = _where(source, line, index)
    if is_text(item):  # a JSON number's text (1.5) is a number: refused below
        return Record(
            id=where, source=source, line=line, data=item, gold=None, format="canonical_text", lane=lane, index=index
        )
    if not isinstance(item, Mapping):
        raise MathGraphError("malformed_input", f"a record is a JSON object, found {json_kind(item)}", where)
    raw_id = record_id(item.get("id"), f"{where}.id")
    graphs = [
        key for key in ("input", "ground_truth_graph", "graph", "entities", "relations", "symbols") if key in item
    ]
    if len(graphs) > 1 and graphs != ["relations"]:
        raise MathGraphError(
            "malformed_input", f"a record holds one input; found {', '.join(graphs)} (which one is meant?)", where
        )
    fmt = item.get("format") if "input" in item else None
    if fmt is not None and not isinstance(fmt, str):
        raise MathGraphError("malformed_input", f"a format is a name, found {clip(fmt)}", f"{where}.format")
    return Record(
        id=str(raw_id) if raw_id is not None else where,
        source=source,
        line=line,
        data=dict(item),
        gold=_gold(item, where),
        format=fmt,
        lane=lane,
        index=index,
    )


def _lines(source: str | Path) -> tuple[str, Iterator[str]]:
    """``(name, lines)`` of a path (read lazily) or of text given directly (a str that looks like content)."""
    text = source.lstrip("\ufeff") if isinstance(source, str) else None
    if text is not None and (text.lstrip()[:1] in ("{", "[") or text.lstrip().startswith(_CANONICAL_STARTS)):
        return "<text>", iter(io.StringIO(text, newline=None))  # split as a file is: on \n, \r\n and \r only
    given: object = source  # typed, but an untyped caller may pass anything
    if not isinstance(given, (str, Path)) or given == "":
        raise MathGraphError("malformed_input", f"a source is a path or text, found {clip(source)}", "source")
    path = Path(source)
    try:
        if not path.is_file():
            raise MathGraphError("malformed_input", "no such file" if not path.exists() else "not a file", str(path))
        if path.stat().st_size > MAX_SOURCE_BYTES:
            raise MathGraphError("input_too_large", f"larger than {MAX_SOURCE_BYTES // 2**20} MiB", str(path))
        handle = path.open(encoding="utf-8-sig")  # a byte-order mark is not part of the first record
    except OSError as exc:
        raise MathGraphError("malformed_input", f"cannot open ({type(exc).__name__})", str(path)) from None

    def lines() -> Iterator[str]:
        with handle:
            try:
                yield from handle
            except UnicodeDecodeError:
                raise MathGraphError("malformed_input", "not UTF-8 text", str(path)) from None

    return path.name, lines()


def _parse(line: str) -> object:
    """The exact JSON value of a line or document, or the :class:`UnitRefusal` saying why it is not one."""
    try:
        return loads_exact(line.strip())
    except UnitRefusal as exc:
        return exc


def read_records(
    source: str | Path, *, errors: Literal["raise", "collect"] = "raise", lane: str = ""
) -> Iterator[Record | BadRecord]:
    """The records of a JSON, JSONL or canonical-text source, in order.

    Args:
        source: a path (``str`` or :class:`~pathlib.Path`), or the text itself (a ``str``
            starting with ``{``, ``[`` or a canonical ``S``/``F``/``E``/``U`` line).  A
            source whose first line is not a JSON value on its own (a pretty-printed
            object or list) is read whole, as one document; otherwise each non-blank
            line is one JSON record (JSONL), read as it streams, and a one-line list
            yields its items.  A canonical text is one record.
        errors: ``"raise"`` (default): yield every good record, then raise one
            :class:`RecordsError` listing every bad line; ``"collect"``: yield a
            :class:`BadRecord` in place of each bad line.
        lane: a lane name to stamp on every record (the pytest plugin passes the file's).

    Yields:
        :class:`Record` (and, with ``errors="collect"``, :class:`BadRecord`), lazily: a
        JSONL file of a million lines is never held in memory at once.

    Raises:
        MathGraphError: ``malformed_input`` for a missing or unreadable file, text that
            is not UTF-8, or a source of another type; ``input_too_large`` beyond
            :data:`MAX_SOURCE_BYTES`; :class:`RecordsError` after the good records
            (``errors="raise"``).
    """
    if errors not in ("raise", "collect"):
        raise MathGraphError("malformed_input", f"errors is 'raise' or 'collect', found {clip(errors)}", "errors")
    name, lines = _lines(source)
    start = _first_line(lines)
    if start is None:
        return
    number, first = start
    if first.lstrip().startswith(_CANONICAL_STARTS):
        yield to_record(first + "".join(lines), name, 0, lane)
        return
    bad = _BadLines(name, collect=errors == "collect")
    head, items, numbered = _document(first, enumerate(lines, start=number + 1))
    if items is not None:
        yield from _document_records(head, items, number, bad=bad, lane=lane)
    else:
        yield from _jsonl_records(head, number, first, numbered, bad=bad, lane=lane)
    if bad.records and errors == "raise":
        raise RecordsError(name, tuple(bad.records))


class _BadLines:
    """The bad lines of one source, kept for the :class:`RecordsError` raised at its end."""

    __slots__ = ("collect", "name", "records")

    def __init__(self, name: str, *, collect: bool) -> None:
        """Bad lines of the source ``name``; ``collect``: each is yielded where it stood (``errors="collect"``)."""
        self.name = name
        self.collect = collect
        self.records: list[BadRecord] = []

    def add(
        self, number: int, exc: MathGraphError | UnitRefusal, value: object = None, index: int | None = None
    ) -> tuple[BadRecord, ...]:
        """Keep one bad line (with its id, when ``value`` names one).

        Returns:
            What to yield in the line's place: its :class:`BadRecord` when collecting, else nothing.
        """
        error = (
            exc
            if isinstance(exc, MathGraphError)
            else MathGraphError(exc.reason, exc.explain(), _where(self.name, number, index))
        )
        raw = value.get("id") if isinstance(value, Mapping) else None
        try:  # the id is kept only when it is one (printable text or an int)
            given = record_id(raw, "id")
        except MathGraphError:
            given = None
        kept = str(given) if given is not None else ""
        self.records.append(BadRecord(source=self.name, line=number, error=error, id=kept, index=index))
        return (self.records[-1],) if self.collect else ()


def _first_line(lines: Iterator[str]) -> tuple[int, str] | None:
    """``(number, line)`` of the first non-blank line (the lines before it are consumed), or ``None``."""
    for number, line in enumerate(lines, start=1):
        if line.strip():
            return number, line
    return None


def _document(
    first: str, numbered: Iterator[tuple[int, str]]
) -> tuple[object, list[tuple[int, object]] | None, Iterator[tuple[int, str]]]:
    """Whether a source is one JSON document or JSONL, from its first non-blank line.

    Returns:
        ``(head, items, numbered)``: the first line's value (or why it is none), the
        document's records (``(1-based index, value)``, ``(0, value)`` for a whole object)
        or ``None`` for JSONL, and the numbered lines left to read.  A one-line list is a
        document when nothing follows; a first line that does not parse (a pretty-printed
        object or list, or a broken JSONL line) is read together with the rest as one
        document, and when that fails too and no JSON object follows (within 50 lines) it
        is one broken document: no items, its error as ``head``.
    """
    head = _parse(first)
    if not (isinstance(head, list) or (isinstance(head, UnitRefusal) and first.lstrip()[:1] in ("{", "["))):
        return head, None, numbered
    rest = [(n, line) for n, line in numbered if line.strip()]
    items: list[tuple[int, object]] | None = None
    if isinstance(head, list) and not rest:
        items = list(enumerate(head, start=1))
    elif isinstance(head, UnitRefusal):  # a pretty-printed document, or JSONL whose first line is broken
        whole = _parse(first + "".join(line for _, line in rest))
        if not isinstance(whole, UnitRefusal):
            items = list(enumerate(whole, start=1)) if isinstance(whole, list) else [(0, whole)]
        elif not any(isinstance(_parse(line), dict) for _, line in rest[:50]):
            items = []  # one broken document: one error, at its first line
            head = whole
    return head, items, iter(rest)


def _document_records(
    head: object, items: list[tuple[int, object]], number: int, *, bad: _BadLines, lane: str
) -> Iterator[Record | BadRecord]:
    """The records of a whole JSON document (a list's items, or one object); a broken one is one bad line."""
    if isinstance(head, UnitRefusal) and not items:
        yield from bad.add(number, head)
    for index, value in items:
        position = index - 1 if index else None  # a list's items by 0-based index; a whole object by its source
        try:
            yield to_record(value, bad.name, 0, lane, position)
        except MathGraphError as exc:
            yield from bad.add(0, exc, value, position)


def _jsonl_records(
    head: object, number: int, first: str, numbered: Iterator[tuple[int, str]], *, bad: _BadLines, lane: str
) -> Iterator[Record | BadRecord]:
    """The records of JSONL lines, from the first non-blank one (line ``number``, already read as ``head``)."""
    for n, line in itertools.chain([(number, first)], numbered):
        if not line.strip():
            continue
        value = head if n == number else _parse(line)
        try:
            yield _jsonl_record(value, bad.name, n, lane)
        except (MathGraphError, UnitRefusal) as exc:
            yield from bad.add(n, exc, value)


def _jsonl_record(value: object, name: str, n: int, lane: str) -> Record:
    """The record of one JSONL line's value (a :class:`UnitRefusal` is why the line did not parse).

    Raises:
        UnitRefusal: the line's own refusal.
        MathGraphError: ``malformed_input`` for a list, or as :func:`to_record`.
    """
    if isinstance(value, UnitRefusal):
        raise value
    if isinstance(value, list):
        raise MathGraphError("malformed_input", "a JSONL line holds one JSON object, not a list", f"{name}:{n}")
    return to_record(value, name, n, lane)


__all__ = ["BadRecord", "Gold", "Record", "RecordsError", "read_records", "to_record"]
