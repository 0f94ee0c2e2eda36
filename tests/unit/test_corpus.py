"""adapters.read_records: every layout, every bad line reported with its number, nothing dropped silently."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from adapters import MathGraphError
from adapters.corpus import BadRecord, Gold, Record, RecordsError, read_records


def kinds(source: str | Path) -> list[tuple[str, object]]:
    """Each record read in collect mode: ``("bad", line)`` or ``("ok", id)``."""
    return [
        ("bad", r.line) if isinstance(r, BadRecord) else ("ok", r.id) for r in read_records(source, errors="collect")
    ]


def test_layouts_and_their_gold() -> None:
    """A lane case, an upstream dev record and a relational record each carry their gold."""
    lane = {"id": "l", "format": "math_graph", "input": {}, "expect": {"answer": "5/2", "unit": "feet"}}
    dev = {"id": "d", "ground_truth_graph": {}, "expected_answer": 8, "expected_unit": "apples"}
    rel = {"id": "r", "relations": [], "query": {"entity": "mia", "unit": "stickers"}, "gold": 10}
    refusal = {"id": "x", "input": {}, "expect": {"refusal": "unknown_unit"}}
    text = "\n".join(json.dumps(r) for r in (lane, dev, rel, refusal))
    golds = [r.gold for r in read_records(text) if isinstance(r, Record)]
    assert golds == [
        Gold(value=Fraction(5, 2), unit="feet"),
        Gold(value=Fraction(8), unit="apples"),
        Gold(value=Fraction(10), unit="stickers"),
        Gold(refusal="unknown_unit"),
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('[{"id":"g1"}]\n{"id":"w1"}\n', [("bad", 1), ("ok", "w1")]),  # a list line does not hide what follows
        ('[{"id":"g1"}, {"id":"g2"}]\n', [("ok", "g1"), ("ok", "g2")]),
        ('[{"id":"g1"},\n {"id":"g2"}]\n', [("ok", "g1"), ("ok", "g2")]),  # pretty-printed list
        ('{"id": "a",\n "b": [\n}', [("bad", 1)]),  # one broken document: one error
        ('{"id": "a" broken\n{"id":"b"}\n{bad\n{"id":"c"}\n', [("bad", 1), ("ok", "b"), ("bad", 3), ("ok", "c")]),
        ('\ufeff{"id":"bom"}\n{"id":"x"}\n', [("ok", "bom"), ("ok", "x")]),
        ('{"id":"a"}\r\n\r\n{"id":"b"}\r\n', [("ok", "a"), ("ok", "b")]),
        ('{"id":"a"}\x0c\n{"id":"b"}\n', [("ok", "a"), ("ok", "b")]),  # split as a file is, not by str.splitlines
        ('{"id": true}\n', [("bad", 1)]),
        ('{"id":"x","input":{},"expect":{"answer":1},"expected_answer":2}\n', [("bad", 1)]),  # two golds
        ('{"id":"x","ground_truth_graph":{},"entities":[]}\n', [("bad", 1)]),  # two inputs
    ],
)
def test_every_line_is_read_or_reported(text: str, expected: list[tuple[str, object]]) -> None:
    """Good records come back in order; each bad one is reported at its line."""
    assert kinds(text) == expected


def test_raise_mode_reports_every_bad_line_after_the_good_ones(tmp_path: Path) -> None:
    """errors='raise' yields the good records, then one RecordsError listing every bad line."""
    path = tmp_path / "c.jsonl"
    path.write_text('{"id":"a"}\nnope\n{"id":"b"}\n[1]\n', encoding="utf-8")
    seen: list[str] = []
    with pytest.raises(RecordsError) as info:
        seen.extend(r.id for r in read_records(path) if isinstance(r, Record))
    assert seen == ["a", "b"]
    assert [e.line for e in info.value.errors] == [2, 4]
    assert "1 more bad lines" in str(info.value)


def test_a_missing_file_is_a_typed_refusal(tmp_path: Path) -> None:
    """No such file: malformed_input naming the path."""
    with pytest.raises(MathGraphError, match="no such file"):
        list(read_records(tmp_path / "absent.jsonl"))


def test_list_items_are_placed_by_index_and_bad_ones_keep_their_id() -> None:
    """Items of a JSON list are where'd as file[i]; a record whose gold is malformed keeps its id."""
    text = '[{"id": "a"}, {"id": "b", "input": {}, "expect": {"answer": "5 apples"}}]'
    first, second = read_records(text, errors="collect")
    assert isinstance(first, Record)
    assert first.where == "<text>[0]"
    assert isinstance(second, BadRecord)
    assert (second.id, second.where) == ("b", "<text>[1]")
    assert str(second.error).count("<text>[1]") <= 1
