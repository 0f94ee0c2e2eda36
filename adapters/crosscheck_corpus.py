"""Cross-check corpus files: read one, tell its layout, and give its records line by line.

The upstream hand-rolled algebra's outputs come in three layouts (``bgverify
crosscheck FILE``; :func:`verifier.crosscheck.crosscheck_file` pairs them with ours):

* ``canonical_text``: a text of canonical ``S``/``F``/``E``/``U`` lines;
* ``equation_verdicts``: JSON lines with ``operation_kind``, ``symbols`` and the
  upstream verdict ``hand_rolled`` (and optionally the ``vocab`` declarations);
* ``adapter_corpus``: JSON lines with a ``graph`` and upstream's binding of it,
  ``hand_rolled_canonical`` or ``hand_rolled_error``.

A bundled lane case (:func:`adapters.records.is_lane_case`) stands for the record inside
it, so a lane file is read as the corpus it wraps.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Final, Literal

from adapters.errors import MathGraphError
from adapters.records import is_lane_case, lane_case_input
from units import UnitRefusal
from units.exact import loads_exact

RecordLayout = Literal["equation_verdicts", "adapter_corpus"]
"""The layout of one JSON record of a cross-check corpus."""

CANONICAL_TEXT_START: Final[str] = "S "
"""How a canonical text begins (its first symbol line), after leading white space."""


@dataclass(frozen=True, slots=True, kw_only=True)
class CorpusLine:
    """One record of a JSON cross-check corpus.

    Attributes:
        number: its line number in the file (1-based).
        where: ``file:line``, for messages.
        record: the JSON object (a lane case's inner record, with the case's ``id`` and ``vocab``).
        layout: the layout it is in, or ``None`` for neither.
    """

    number: int
    where: str
    record: Mapping[str, object]
    layout: RecordLayout | None


def read_corpus_file(path: object) -> tuple[Path, str]:
    """The corpus file and its whole text.

    Raises:
        MathGraphError: ``malformed_input`` for a path that is not a non-empty ``str`` or
            ``Path``, not a regular file, or not readable as UTF-8.
    """
    if not isinstance(path, (str, Path)) or not str(path):
        raise MathGraphError(
            "malformed_input", f"path must be a non-empty str or Path, found {type(path).__name__}", "path"
        )
    file = Path(path)
    if not file.is_file():
        raise MathGraphError("malformed_input", f"{file} is not a regular file", str(file))
    try:
        text = file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise MathGraphError("malformed_input", f"cannot read {file}: {exc}", str(file)) from None
    return file, text


def is_canonical_text(text: str) -> bool:
    """Whether a corpus text is in the ``canonical_text`` layout (it starts with a symbol line)."""
    return text.lstrip().startswith(CANONICAL_TEXT_START)


def record_layout(record: Mapping[str, object]) -> RecordLayout | None:
    """The layout of one JSON record by its keys: equation verdicts first, then the adapter corpus; else ``None``."""
    if "hand_rolled" in record and "operation_kind" in record:
        return "equation_verdicts"
    if "graph" in record and ("hand_rolled_canonical" in record or "hand_rolled_error" in record):
        return "adapter_corpus"
    return None


def corpus_lines(file: Path, text: str) -> Iterator[CorpusLine]:
    """The records of a JSON-lines corpus, in file order (blank lines skipped).

    Raises:
        MathGraphError: a line that is not one JSON object (exact numbers; no float is
            read as one), at ``file:line``, when the iteration reaches it.
    """
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        where = f"{file}:{number}"
        record = _record(line, where)
        yield CorpusLine(number=number, where=where, record=record, layout=record_layout(record))


def _record(line: str, where: str) -> Mapping[str, object]:
    """One line as a JSON object (a bundled lane case: the record inside it)."""
    try:
        record = loads_exact(line)
    except UnitRefusal as exc:
        raise MathGraphError(exc.reason, exc.detail, where) from None
    if not isinstance(record, dict):
        raise MathGraphError("malformed_input", "each line must be a JSON object", where)
    if is_lane_case(record):
        inner = lane_case_input(record)
        record = inner if isinstance(inner, dict) else record
    return record


__all__ = [
    "CANONICAL_TEXT_START",
    "CorpusLine",
    "RecordLayout",
    "corpus_lines",
    "is_canonical_text",
    "read_corpus_file",
    "record_layout",
]
