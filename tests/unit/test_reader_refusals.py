"""Every refusal of the corpus reader and of crosscheck_file, by table: typed, naming the field or line.

A reader given a bad source, line or gold refuses with ``malformed_input`` (or
``input_too_large``) and a path, never an untyped exception and never a guessed record.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from adapters import AdapterError
from adapters.corpus import BadRecord, Record, read_records
from adapters.records import vocabulary_for
from units import default_vocabulary
from verifier.crosscheck import crosscheck_file

GRAPH = {
    "entities": ["Sam"],
    "initial_state": [{"entity": "Sam", "quantity": {"unit": "feet", "value": 5}}],
    "operations": [],
    "unknown": {"entity": "Sam", "unit": "feet"},
}


def _first(source: object) -> Record | BadRecord:
    return next(iter(read_records(source, errors="collect")))  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("record", "detail", "path"),
    [
        ({"id": "a", "input": GRAPH, "expect": {"answer": 5, "refusal": "x"}}, "exactly one of answer", "expect"),
        ({"id": "a", "input": GRAPH, "expect": ["answer"]}, "exactly one of answer", "expect"),
        ({"id": "a", "input": GRAPH, "expect": {"refusal": "because"}}, "is not a refusal name", "expect.refusal"),
        ({"id": "a", "input": GRAPH, "expect": {"category": "nope"}}, "is not a category name", "expect.category"),
        ({"id": "a", "input": GRAPH, "expect": {"answer": 5, "unit": ""}}, "a gold unit is a unit surface", "unit"),
        ({"id": "a", "input": GRAPH, "expect": {"answer": 5, "unit": 2.5}}, "found the JSON number 2.5", "unit"),
        # a misspelled unit key had been dropped, leaving a gold with no unit
        (
            {"id": "a", "input": GRAPH, "expect": {"answer": 5, "unti": "feet"}},
            "unknown key in expect: 'unti'",
            "expect",
        ),
        ({"id": "a", "input": GRAPH, "expect": {"refusal": "unit_mismatch", "unit": "feet"}}, "'unit'", "expect"),
        ({"id": "a", "format": 3, "input": GRAPH, "expect": {"answer": 5}}, "a format is a name", "format"),
    ],
)
def test_a_bad_gold_or_format_is_a_bad_record_naming_its_field(record: object, detail: str, path: str) -> None:
    """A record with a malformed expect, refusal, category, gold unit or format is a BadRecord naming that field."""
    bad = _first(json.dumps(record))
    assert isinstance(bad, BadRecord)
    assert bad.error.reason == "malformed_input"
    assert detail in bad.error.detail
    assert bad.error.path.endswith(path)


def test_a_line_that_is_not_an_object_is_a_bad_record() -> None:
    """A line holding a JSON number is a BadRecord; the good line before it is still read."""
    bad = list(read_records(json.dumps(GRAPH) + "\n7\n", errors="collect"))
    assert isinstance(bad[0], Record)
    assert isinstance(bad[1], BadRecord)
    assert "a record is a JSON object, found" in bad[1].error.detail


@pytest.mark.parametrize(
    ("source", "detail"),
    [
        (42, "a source is a path or text"),
        ("", "a source is a path or text"),
        (Path("/nonexistent/cases.jsonl"), "no such file"),
        (Path("/"), "not a file"),
    ],
)
def test_a_bad_source_is_refused_before_any_record(source: object, detail: str) -> None:
    """A source that is no path or text, a missing file or a folder is malformed_input before any record."""
    with pytest.raises(AdapterError) as info:
        list(read_records(source))  # type: ignore[arg-type]
    assert info.value.reason == "malformed_input"
    assert detail in info.value.detail


def test_errors_must_be_raise_or_collect() -> None:
    """An errors= mode other than 'raise' or 'collect' is refused."""
    with pytest.raises(AdapterError, match="errors is 'raise' or 'collect'"):
        list(read_records(json.dumps(GRAPH), errors="ignore"))  # type: ignore[arg-type]


def test_a_file_that_is_not_utf8_is_refused(tmp_path: Path) -> None:
    """A file with bytes that are not UTF-8 is malformed_input."""
    path = tmp_path / "bad.jsonl"
    path.write_bytes(json.dumps(GRAPH).encode() + b"\n\xff\xfe\n")
    with pytest.raises(AdapterError) as info:
        list(read_records(path))
    assert info.value.reason == "malformed_input"


@pytest.mark.parametrize(
    ("content", "detail"),
    [
        ("[1, 2]\n", "each line must be a JSON object"),
        ("{not json\n", ""),
        (json.dumps({"id": "x", "graph": GRAPH}) + "\n", "not an upstream corpus record"),
    ],
)
def test_crosscheck_file_refuses_a_line_it_cannot_read_naming_it(tmp_path: Path, content: str, detail: str) -> None:
    """A line crosscheck_file cannot read is malformed_input with a path naming the file and line."""
    path = tmp_path / "c.jsonl"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(AdapterError) as info:
        crosscheck_file(path)
    assert info.value.reason == "malformed_input"
    assert f"{path}:1" in info.value.path
    assert detail in info.value.detail


def test_crosscheck_file_refuses_what_is_no_file_and_a_live_reference_on_canonical_text(tmp_path: Path) -> None:
    """An empty path or a folder is refused, and so is against= on canonical text, bare or inside a record."""
    with pytest.raises(AdapterError, match="path must be a non-empty str or Path"):
        crosscheck_file("")
    with pytest.raises(AdapterError, match="is not a regular file"):
        crosscheck_file(tmp_path)
    text = tmp_path / "g.txt"
    text.write_text("S q q quantity entity=A unit=feet span=t[0:1] by=t\n", encoding="utf-8")
    with pytest.raises(AdapterError, match="against= judges equation-verdict records only, not canonical text"):
        crosscheck_file(text, against=lambda _equation, _symbols: "unverified")
    record = {"id": "g", "graph": GRAPH, "hand_rolled_canonical": "S x"}
    lines = tmp_path / "r.jsonl"
    lines.write_text(json.dumps(record) + "\n", encoding="utf-8")
    with pytest.raises(AdapterError, match="against= judges equation-verdict records only"):
        crosscheck_file(lines, against=lambda _equation, _symbols: "unverified")


@pytest.mark.parametrize(
    ("spec", "detail"),
    [
        ({"count_nouns": 0}, "count nouns must be a mapping"),  # these had declared nothing, silently
        ({"count_nouns": False}, "count nouns must be a mapping"),
        ({"count_nouns": ""}, "count nouns must be a mapping"),
        ({"conventions": []}, "conventions must be a mapping"),
        ({"conventions": 0}, "conventions must be a mapping"),
    ],
)
def test_a_wrongly_typed_declaration_is_refused(spec: dict[str, object], detail: str) -> None:
    """A record's vocab declaration of the wrong type is malformed_input, not read as no declaration."""
    with pytest.raises(AdapterError) as info:
        vocabulary_for({"vocab": spec})
    assert info.value.reason == "malformed_input"
    assert detail in info.value.detail
    assert not info.value.detail.startswith("malformed_input")  # the reason is said once


@pytest.mark.parametrize(
    "spec",
    [{"count_nouns": {}}, {"count_nouns": []}, {"count_nouns": None}, {"conventions": {}}, {"conventions": None}],
)
def test_an_empty_declaration_declares_nothing(spec: dict[str, object]) -> None:
    """An empty or null count_nouns or conventions is the vocabulary it was given (null is absent, as in JSON)."""
    base = default_vocabulary()
    assert vocabulary_for({"vocab": spec}, base) is base


def test_vocabulary_for_refuses_a_base_that_is_no_vocabulary() -> None:
    """A base that is no UnitVocabulary is malformed_input (it had raised AttributeError)."""
    with pytest.raises(AdapterError, match="base must be a UnitVocabulary, found int"):
        vocabulary_for({}, base=5)  # type: ignore[arg-type]
