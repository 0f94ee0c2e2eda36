"""Validating once must refuse what validating every time refused (the review of the speed-ups, issue #13).

The model remembers texts and identifiers that passed their checks, the adapters check
keys on a fast path, a fact's value is parsed through a memo, and the registry is built
from definition objects.  Each test pins one way a memo could have let an input through
that the full check refuses, or changed a unit or a refusal.
"""

from __future__ import annotations

import dataclasses
import json
from fractions import Fraction
from pathlib import Path

import pytest
import sympy

import adapters
from adapters import MathGraphError, bind_math_problem_graph, graph_from_dict
from adapters._common import span
from units import UnitRefusal, UnitVocabulary, default_vocabulary
from units._pint import build_registry
from units.lexicon import Conversion
from verifier import BindingGraph, BindingGraphError, BoundEquation, BoundFact, SourceSpanLink, SymbolBinding, verify

SPAN = SourceSpanLink(source_id="s", start=0, end=1)


def _symbol(symbol_id: str, name: str, **kw: object) -> SymbolBinding:
    fields: dict[str, object] = {"semantic_role": "quantity", "source_span": SPAN, "introduced_by": "test", **kw}
    return SymbolBinding(symbol_id=symbol_id, name=name, **fields)  # type: ignore[arg-type]


def test_an_identifier_seen_before_is_still_no_text() -> None:
    """'None' is an identifier but no text (the canonical lines would misread it), however often it was an id."""
    _symbol("None", "a name")  # passes: 'None' is an identifier
    for field, value in (("name", "None"), ("entity", "None"), ("unit", "None")):
        kw = {"name": "x", field: value}
        with pytest.raises(BindingGraphError) as info:
            _symbol("q", **kw)
        assert info.value.reason == "malformed_input", field
        assert "misread" in info.value.detail
    with pytest.raises(BindingGraphError, match="misread"):
        SourceSpanLink(source_id="s", start=0, end=1, text="None")


def test_a_math_graph_entity_named_none_stays_refused_after_a_symbol_id_none() -> None:
    """An entity named 'None' is still malformed_input after 'None' passed as a symbol id."""
    _symbol("None", "n")
    graph = graph_from_dict(
        {
            "entities": ["None"],
            "initial_state": [{"entity": "None", "quantity": {"unit": "feet", "value": 7}}],
            "operations": [],
            "unknown": {"entity": "None", "unit": "feet"},
        }
    )
    with pytest.raises((MathGraphError, BindingGraphError)) as info:
        bind_math_problem_graph(graph, default_vocabulary())
    assert info.value.reason == "malformed_input"


def test_a_remembered_text_is_remembered_only_as_itself() -> None:
    """A name that passed once passes again, but the same name with a bad entity or role is still refused."""
    _symbol("q_ok", "Sam.apples@t0", entity="Sam", unit="apples")
    again = _symbol("q_ok", "Sam.apples@t0", entity="Sam", unit="apples")  # the fast path
    assert again.name == "Sam.apples@t0"
    with pytest.raises(BindingGraphError) as info:
        _symbol("q_ok", "Sam.apples@t0", entity="Sam key=1", unit="apples")
    assert info.value.reason == "malformed_input"
    with pytest.raises(BindingGraphError):
        _symbol("q_ok", "Sam.apples@t0", entity="Sam", unit="apples", semantic_role="no_role")


class _Loose(str):
    """A hostile str: every instance hashes alike and compares equal, so a memo keyed by it would mix them up."""

    __slots__ = ()

    def __hash__(self) -> int:
        return 7

    def __eq__(self, other: object) -> bool:
        return True


def test_a_str_subclass_is_checked_every_time() -> None:
    """A str subclass that hashes and compares equal to anything is checked every time, so a memo cannot pass it."""
    assert BoundFact(symbol_id="a", value=_Loose("5"), source_span=SPAN).magnitude == 5
    for bad in ("1e5", "nan", "5."):
        with pytest.raises(BindingGraphError) as info:
            BoundFact(symbol_id="a", value=_Loose(bad), source_span=SPAN)
        assert info.value.reason == "malformed_input", bad
    _symbol("q_loose", "fine")
    with pytest.raises(BindingGraphError):
        _symbol("q_loose", _Loose("line\nbreak"))


def test_a_factor_written_twice_multiplies_and_one_divided_away_cancels() -> None:
    """meter*meter is an area and meter/meter a pure number, as pint's text parser reads them."""
    table = dict(default_vocabulary().lexicon.conversions)
    table["sq_twice"] = Conversion(lemma="sq_twice", factor=Fraction(1), of=(("meter", 1), ("meter", 1)))
    table["m_over_m"] = Conversion(lemma="m_over_m", factor=Fraction(3), of=(("meter", 1), ("meter", -1)))
    registry = build_registry(table)
    assert dict(registry.Unit("sq_twice").dimensionality) == {"[length]": 2}
    assert dict(registry.Unit("m_over_m").dimensionality) == {}
    assert registry.Quantity(Fraction(1), "m_over_m").to_root_units().magnitude == 3


def test_a_custom_pack_with_a_repeated_factor_keeps_its_area(tmp_path: Path) -> None:
    """The embedded pack with square_meter written as meter*meter: still an area, and no length."""
    pack = Path(__file__).resolve().parents[2] / "units" / "data"
    rows = [json.loads(line) for line in (pack / "en_units_v1.conversions.jsonl").read_text("utf-8").splitlines()]
    edited = [{**row, "definition": "1 meter*meter"} if row.get("lemma") == "square_meter" else row for row in rows]
    assert edited != rows
    (tmp_path / "conversions.jsonl").write_text("".join(json.dumps(r) + "\n" for r in edited), encoding="utf-8")
    vocab = UnitVocabulary.from_lexicon(pack / "en_units_v1.jsonl", tmp_path / "conversions.jsonl")
    assert vocab.resolve("square meters").dimension == default_vocabulary().resolve("square meters").dimension
    assert vocab.factor("square meters", "square feet") == default_vocabulary().factor("square meters", "square feet")
    with pytest.raises(UnitRefusal) as info:
        vocab.factor("square meters", "m")
    assert info.value.reason == "incommensurable_units"


@pytest.mark.parametrize("make", [lambda n: sympy.Symbol(n, positive=True), sympy.Dummy])
def test_a_transfer_over_another_symbol_of_the_same_name_is_still_refused(make: object) -> None:
    """A state symbol with assumptions (or a Dummy) is not the state: the debit and credit do not read it."""
    graph = bind_math_problem_graph(
        graph_from_dict(
            {
                "entities": ["Ana", "Ben"],
                "initial_state": [
                    {"entity": "Ana", "quantity": {"unit": "feet", "value": 5}},
                    {"entity": "Ben", "quantity": {"unit": "feet", "value": 1}},
                ],
                "operations": [
                    {"actor": "Ana", "kind": "transfer", "operand": {"unit": "feet", "value": 2}, "target": "Ben"}
                ],
                "unknown": {"entity": "Ben", "unit": "feet"},
            }
        ),
        default_vocabulary(),
    )
    assert [getattr(a, "value", None) for a in verify(graph).answers.values()] == [3]
    equations = []
    for eq in graph.equations:
        rhs = eq.rhs.xreplace({s: make(s.name) for s in eq.rhs.free_symbols})  # type: ignore[operator]
        equations.append(
            BoundEquation.create(
                lhs_symbol_id=eq.lhs_symbol_id,
                rhs=rhs,
                operation_kind=eq.operation_kind,
                source_span=eq.source_span,
                literal_unit=eq.literal_unit,
                operand_roles=dict(eq.operand_roles) or None,
                operation=eq.operation,
            )
        )
    swapped = dataclasses.replace(graph, equations=tuple(equations))
    assert isinstance(swapped, BindingGraph)
    answers = list(verify(swapped).answers.values())
    assert answers
    assert all(getattr(a, "reason", None) == "ambiguous_reference" for a in answers), answers


def test_adapters_clear_memos_forgets_spans() -> None:
    """adapters.clear_memos empties the span memo: the next span of the same text is a new, equal object."""
    first = span("src", "Sam.apples@t0")
    assert span("src", "Sam.apples@t0") is first
    adapters.clear_memos()
    again = span("src", "Sam.apples@t0")
    assert again == first
    assert again is not first
