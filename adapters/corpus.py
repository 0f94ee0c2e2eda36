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

from adapters._common import exact
from adapters.errors import MathGraphError
from units import UnitRefusal
from units.errors import clip
from units.exact import format_exact, loads_exact

MAX_SOURCE_BYTES: Final[int] = 256 * 1024 * 1024
"""Largest file :func:`read_records` opens (``input_too_large`` beyond)."""

_CANONICAL_STARTS: Final[tuple[str, ...]] = ("S ", "F ", "E ", "U ", "C ", "P ")


@dataclass(frozen=True, slots=True)
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


@dataclass(frozen=True, slots=True)
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


@dataclass(frozen=True, slots=True)
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
        if "answer" in expect:
            unit = expect.get("unit")
            return Gold(value=exact(expect["answer"], f"{where}.expect.answer"), unit=_unit(unit, where))
        key = "refusal" if "refusal" in expect else "category"
        text = expect[key]
        from verifier.categories import CATEGORIES
        from verifier.reasons import REFUSAL_REASONS

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
    if unit is None or (isinstance(unit, str) and unit):
        return unit
    raise MathGraphError("malformed_input", f"a gold unit is a unit surface, found {clip(unit)}", f"{where}.unit")


def to_record(
    item: object, source: str = "<record>", line: int = 0, lane: str = "", index: int | None = None
) -> Record:
    """One record read as :func:`read_records` reads each (a JSON object or a canonical text).

    Raises:
        MathGraphError: ``malformed_input`` for a record that is not an object or text, a
            bad ``id`` or ``format``, or a gold that is not exact (see :class:`Gold`).
    """
    where = _where(source, line, index)
    if isinstance(item, str):
        return Record(
            id=where, source=source, line=line, data=item, gold=None, format="canonical_text", lane=lane, index=index
        )
    if not isinstance(item, Mapping):
        raise MathGraphError("malformed_input", f"a record is a JSON object, found {type(item).__name__}", where)
    raw_id = item.get("id")
    if raw_id is not None and (not isinstance(raw_id, (str, int)) or isinstance(raw_id, bool)):
        raise MathGraphError("malformed_input", f"an id is a string, found {clip(raw_id)}", f"{where}.id")
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
    if not isinstance(source, (str, Path)) or source == "":
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
    bad: list[BadRecord] = []

    def fail(
        number: int, exc: MathGraphError | UnitRefusal, value: object = None, index: int | None = None
    ) -> BadRecord:
        error = (
            exc
            if isinstance(exc, MathGraphError)
            else MathGraphError(exc.reason, exc.explain(), _where(name, number, index))
        )
        raw = value.get("id") if isinstance(value, Mapping) else None
        record_id = str(raw) if isinstance(raw, (str, int)) and not isinstance(raw, bool) else ""
        bad.append(BadRecord(name, number, error, record_id, index))
        return bad[-1]

    number, first = 0, ""
    for number, first in enumerate(lines, start=1):  # noqa: B007 - the first non-blank line is kept
        if first.strip():
            break
    else:
        return
    if first.lstrip().startswith(_CANONICAL_STARTS):
        yield to_record(first + "".join(lines), name, 0, lane)
        return
    head = _parse(first)
    numbered: Iterator[tuple[int, str]] = enumerate(lines, start=number + 1)
    items: list[tuple[int, object]] | None = None  # a whole document's records, else None (JSONL)
    if isinstance(head, list) or (isinstance(head, UnitRefusal) and first.lstrip()[:1] in ("{", "[")):
        rest = [(n, line) for n, line in numbered if line.strip()]
        numbered = iter(rest)
        if isinstance(head, list) and not rest:
            items = list(enumerate(head, start=1))
        elif isinstance(head, UnitRefusal):  # a pretty-printed document, or JSONL whose first line is broken
            whole = _parse(first + "".join(line for _, line in rest))
            if not isinstance(whole, UnitRefusal):
                items = list(enumerate(whole, start=1)) if isinstance(whole, list) else [(0, whole)]
            elif not any(isinstance(_parse(line), dict) for _, line in rest[:50]):
                items = []  # one broken document: one error, at its first line
                head = whole
    if items is not None:
        if isinstance(head, UnitRefusal) and not items:
            item = fail(number, head)
            if errors == "collect":
                yield item
        for index, value in items:
            position = index - 1 if index else None  # a list's items by 0-based index; a whole object by its source
            try:
                yield to_record(value, name, 0, lane, position)
            except MathGraphError as exc:
                item = fail(0, exc, value, position)
                if errors == "collect":
                    yield item
    else:
        for n, line in itertools.chain([(number, first)], numbered):
            if not line.strip():
                continue
            value = head if n == number else _parse(line)
            try:
                if isinstance(value, UnitRefusal):
                    raise value
                if isinstance(value, list):
                    raise MathGraphError(
                        "malformed_input", "a JSONL line holds one JSON object, not a list", f"{name}:{n}"
                    )
                yield to_record(value, name, n, lane)
            except (MathGraphError, UnitRefusal) as exc:
                item = fail(n, exc, value)
                if errors == "collect":
                    yield item
    if bad and errors == "raise":
        raise RecordsError(name, tuple(bad))


__all__ = ["BadRecord", "Gold", "Record", "RecordsError", "read_records", "to_record"]
