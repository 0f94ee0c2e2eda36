r"""Names, units, ids and texts are text: never a JSON number, never a lone surrogate (bad-input trial).

``adapters.read_json`` keeps a non-integer JSON number as its verbatim text
(:class:`units.exact.JsonNumber`, a ``str`` subclass, so that it never becomes a float).
Every check of "is this a string" had taken it for a name: entities ``[1.5, 2.0]`` bound
and were certified, a unit ``2.5`` became the unit ``"2.5"``, and a relational sum over
``[1.5, 1.5e0]`` had two parts.  A lone surrogate (``"\ud800"`` in JSON) was read as a
name or an id, and printing it ended ``bgverify check`` and ``score`` in a traceback.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from adapters import MathGraphError, bind_relations, graph_from_dict, read_json
from adapters.corpus import BadRecord, Record, read_records
from units.exact import JsonNumber, breaks_line, is_text, json_kind, text_kind
from verifier import BindingGraph, BindingGraphError


def _graph(entity: str = '"Ana"', unit: str = '"feet"', extra: str = "") -> str:
    return (
        f'{{{extra}"entities": [{entity}], "initial_state": [{{"entity": {entity}, "quantity": {{"unit": {unit},'
        f' "value": 5}}}}], "operations": [], "unknown": {{"entity": {entity}, "unit": {unit}}}}}'
    )


@pytest.mark.parametrize(
    ("text", "path", "detail"),
    [
        (_graph(entity="1.5"), "entities[0]", "found the JSON number 1.5"),
        (_graph(unit="2.5"), "initial_state[0].quantity.unit", "found the JSON number 2.5"),
        (_graph(entity='"A\\ud800"'), "entities[0]", "a lone surrogate"),
        (_graph(unit='"fe\\udc80et"'), "initial_state[0].quantity.unit", "a lone surrogate"),
        (_graph(extra='"id": 1.5, '), "graph.id", "an id is a string, found the JSON number 1.5"),
        (_graph(extra='"id": "\\ud800", '), "graph.id", "a lone surrogate"),
    ],
)
def test_a_math_graph_name_is_text(text: str, path: str, detail: str) -> None:
    """A JSON number or a lone surrogate where a name, unit or id goes is malformed_input naming the field."""
    with pytest.raises(MathGraphError) as info:
        graph_from_dict(read_json(text))
    assert info.value.reason == "malformed_input"
    assert info.value.path == path
    assert detail in info.value.detail


def test_a_surrogate_pair_is_text() -> None:
    """A surrogate pair is one character (an emoji), not a lone surrogate: the name is read."""
    graph = graph_from_dict(read_json(_graph(entity='"A\\ud83d\\ude00"')))
    assert graph.entities == ("A\U0001f600",)


def test_relational_parts_are_text() -> None:
    """A relational sum over parts [1.5, 1.5e0] is refused, not read as two entities '1.5' and '1.5e0'."""
    data = read_json(
        '{"relations": [{"kind": "sum_of", "entity": "t", "parts": [1.5, 1.5e0]}], "query": {"entity": "t", "unit": "feet"}}'
    )
    assert isinstance(data, dict)
    with pytest.raises(MathGraphError, match=r"relations\[0\]\.parts\[0\]: expected a non-empty trimmed string"):
        bind_relations(data["relations"], data["query"])


def test_a_binding_graph_text_field_is_text() -> None:
    """BindingGraph.from_json refuses a JSON number as a symbol's name (it had been stored and written back as text)."""
    graph = BindingGraph.from_json(read_json(json.dumps(_binding_graph())))
    assert graph.symbols[0].name == "Ana.feet@t0"
    text = json.dumps(_binding_graph()).replace('"name": "Ana.feet@t0"', '"name": 2.5')
    with pytest.raises(BindingGraphError, match=r"found the JSON number 2\.5"):
        BindingGraph.from_json(read_json(text))


def _binding_graph() -> dict[str, object]:
    span = {"source_id": "s", "start": 0, "end": 1}
    return {
        "symbols": [
            {
                "symbol_id": "q",
                "name": "Ana.feet@t0",
                "semantic_role": "quantity",
                "source_span": span,
                "introduced_by": "test",
                "entity": "Ana",
                "unit": "feet",
            }
        ],
        "facts": [{"symbol_id": "q", "value": "5", "unit": "feet", "source_span": span}],
        "equations": [],
        "unknowns": [],
    }


def test_text_predicates() -> None:
    """is_text: a str that is no JsonNumber; text_kind names a JSON number as one."""
    assert is_text("2.5")
    assert not is_text(JsonNumber("2.5"))
    assert not is_text(2)
    assert text_kind(JsonNumber("2.5")) == "the JSON number 2.5"
    assert text_kind([1]) == "[1]"


def test_a_bad_record_id_is_not_kept() -> None:
    """A record whose id is a lone surrogate is a BadRecord named by where it is, never by that id."""
    good = _graph(extra='"id": "ribbon", ')
    bad = _graph(extra='"id": "a\\ud800", ')
    records = list(read_records(good + "\n" + bad + "\n", errors="collect"))
    assert isinstance(records[0], Record)
    assert records[0].id == "ribbon"
    assert isinstance(records[1], BadRecord)
    assert records[1].id == ""
    assert "an id holds a control character or a lone surrogate" in records[1].error.detail


@pytest.mark.parametrize("command", [["check"], ["check", "--json"], ["score"], ["score", "--json"]])
def test_the_cli_reports_a_surrogate_without_a_traceback(command: list[str], tmp_path: Path) -> None:
    """``check`` and ``score`` refuse a record with a lone-surrogate id: a typed refusal in valid UTF-8, no traceback."""
    corpus = tmp_path / "g.json"
    corpus.write_text(_graph(extra='"id": "a\\ud800", '), encoding="utf-8")
    done = subprocess.run(  # noqa: S603  # our own interpreter and module, fixed arguments
        [sys.executable, "-m", "verifier", command[0], str(corpus), *command[1:]],
        capture_output=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == 1
    assert b"Traceback" not in done.stderr
    out = done.stdout.decode("utf-8")  # strict: the output is valid UTF-8
    assert "an id holds a control character or a lone surrogate" in out


@pytest.mark.parametrize(
    ("text", "breaks"),
    [
        ("Ana", False),
        ("Mrs. Lee", False),
        ("café ☕", False),
        ("a\x1bb", False),  # other control characters are the id and outcome checks' to refuse
        ("a\nb", True),
        ("a\rb", True),
        ("a\tb", True),
        ("a\x00b", True),
        ("a\ud800", True),
        ("\udfff", True),
    ],
)
def test_breaks_line_is_the_one_line_rule_of_names_and_canonical_texts(text: str, breaks: bool) -> None:  # noqa: FBT001
    """``units.exact.breaks_line`` is the rule both the adapters' names and the binding graph's texts apply."""
    assert breaks_line(text) is breaks
    graph = _graph(entity=json.dumps(f"A{text}"))
    if breaks:
        with pytest.raises(MathGraphError) as caught:
            graph_from_dict(read_json(graph))
        assert caught.value.reason == "malformed_input"
        assert caught.value.path == "entities[0]"
    else:
        assert graph_from_dict(read_json(graph)).entities == (f"A{text}",)


@pytest.mark.parametrize(
    ("value", "named"),
    [
        (None, "null"),
        (True, "true"),
        (False, "false"),
        (3, "the JSON number 3"),
        (JsonNumber("2.5"), "the JSON number 2.5"),
        ("feet", "a string"),
        ([1], "an array"),
        ({"a": 1}, "an object"),
        (b"feet", "bytes"),
    ],
)
def test_json_kind_names_a_value_in_json_words(value: object, named: str) -> None:
    """A value of the wrong kind is named as JSON names it (null, true, an array), a non-JSON value by its type."""
    assert json_kind(value) == named
