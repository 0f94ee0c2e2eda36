"""Reading cross-check corpus files (adapters.crosscheck_corpus): the layout of a record, the file, its lines."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from adapters import MathGraphError
from adapters.crosscheck_corpus import corpus_lines, is_canonical_text, read_corpus_file, record_layout


@pytest.mark.parametrize(
    ("record", "layout"),
    [
        ({"operation_kind": "add", "symbols": [], "hand_rolled": "add: [] -> dimensionless"}, "equation_verdicts"),
        ({"graph": {}, "hand_rolled_canonical": "S ..."}, "adapter_corpus"),
        ({"graph": {}, "hand_rolled_error": "unit_mismatch"}, "adapter_corpus"),
        (  # both layouts' keys: the equation verdict is read first
            {"operation_kind": "add", "hand_rolled": "x", "graph": {}, "hand_rolled_error": "y"},
            "equation_verdicts",
        ),
        ({"hand_rolled": "x"}, None),
        ({"graph": {}}, None),
        ({}, None),
    ],
)
def test_record_layout(record: dict[str, object], layout: str | None) -> None:
    """A record's layout is told by its keys alone."""
    assert record_layout(record) == layout


@pytest.mark.parametrize(
    ("text", "canonical"),
    [("S a A.x quantity ...", True), ("\n  S a", True), ('{"graph": {}}', False), ("", False), ("F a = 3", False)],
)
def test_canonical_text_is_told_by_its_first_symbol_line(text: str, canonical: bool) -> None:  # noqa: FBT001
    """A corpus text is canonical when, past white space, it opens with an ``S`` line."""
    assert is_canonical_text(text) is canonical


def test_lines_are_records_with_their_place(tmp_path: Path) -> None:
    """Each non-blank line is one record, numbered as in the file, exact numbers kept, a lane case unwrapped."""
    inner = {"operation_kind": "add", "symbols": [], "hand_rolled": "x", "value": 0.1}
    lane_case = {"id": "c1", "input": {"graph": {}, "hand_rolled_error": "e"}, "expect": {"refusal": "unit_mismatch"}}
    file = tmp_path / "corpus.jsonl"
    file.write_text(json.dumps(inner) + "\n\n" + json.dumps(lane_case) + "\n", encoding="utf-8")
    found, text = read_corpus_file(file)
    lines = list(corpus_lines(found, text))
    assert [(line.number, line.where, line.layout) for line in lines] == [
        (1, f"{file}:1", "equation_verdicts"),
        (3, f"{file}:3", "adapter_corpus"),
    ]
    assert lines[0].record["value"] == "0.1"  # a float is kept as the decimal written (SPEC §4), never as binary
    assert lines[1].record["id"] == "c1"


@pytest.mark.parametrize(
    ("line", "detail"), [("[1, 2]", "each line must be a JSON object"), ("{oops", ""), ('"text"', "JSON object")]
)
def test_a_line_that_is_no_object_is_refused_at_its_place(tmp_path: Path, line: str, detail: str) -> None:
    """A line that is not one JSON object is malformed_input at ``file:line``."""
    file = tmp_path / "corpus.jsonl"
    file.write_text('{"hand_rolled": "x", "operation_kind": "add"}\n' + line + "\n", encoding="utf-8")
    with pytest.raises(MathGraphError) as info:
        list(corpus_lines(*read_corpus_file(file)))
    assert info.value.reason == "malformed_input"
    assert info.value.path == f"{file}:2"
    assert detail in info.value.detail


@pytest.mark.parametrize("path", ["", 3, None])
def test_a_path_that_is_no_path_is_refused(path: object) -> None:
    """Only a non-empty str or Path names a corpus file."""
    with pytest.raises(MathGraphError) as info:
        read_corpus_file(path)
    assert (info.value.reason, info.value.path) == ("malformed_input", "path")


def test_a_folder_or_binary_file_is_refused(tmp_path: Path) -> None:
    """A folder is no regular file, and a file that is not UTF-8 cannot be read: both name the file."""
    with pytest.raises(MathGraphError, match="not a regular file"):
        read_corpus_file(tmp_path)
    binary = tmp_path / "corpus.jsonl"
    binary.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(MathGraphError, match="cannot read") as info:
        read_corpus_file(binary)
    assert info.value.path == str(binary)
