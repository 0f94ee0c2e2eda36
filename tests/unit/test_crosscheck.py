"""Cross-checking another implementation's verdicts (verifier.crosscheck, SPEC §7)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path

import pytest

from adapters.records import equation_from_record, is_lane_case, lane_case_input
from verifier import BindingGraph, BindingGraphError, SymbolBinding, check_equation
from verifier.crosscheck import CATEGORIES, CrosscheckReport, crosscheck, crosscheck_file, detailed_outcome, outcome
from verifier.model import BoundEquation

DATA = Path(__file__).resolve().parents[1] / "data"

UPSTREAM_EQUATION_COUNTS = {
    "agree": 27,
    "theirs_admits_incommensurable_currencies": 1,
    "theirs_admits_offset_temperature_arithmetic": 2,
    "theirs_admits_container_as_items": 1,
    "theirs_merges_count_kinds": 1,
    "theirs_admits_unscaled_degree": 1,
    "theirs_admits_calendar_without_convention": 2,
    "product_without_declared_unit": 1,
    "theirs_scalar_as_unit_bearing": 1,
    "theirs_multiplicative_comparison_dimensionless": 2,
    "theirs_refuses_lexicon_surface": 5,
    "theirs_unknown_operation_kind": 1,
}
UPSTREAM_ADAPTER_COUNTS = {
    "agree": 43,
    "theirs_admits_offset_temperature_arithmetic": 1,
    "theirs_scalar_as_unit_bearing": 4,
    "theirs_multiplicative_comparison_dimensionless": 2,
    "theirs_refuses_lexicon_surface": 2,
    "theirs_wires_initial_state": 21,
    "theirs_transfer_target_as_dependency": 13,
    "theirs_crashes": 1,
    "only_ours": 16,
}


def _nonzero(report: CrosscheckReport) -> dict[str, int]:
    return {k: v for k, v in report.counts.items() if v}


def test_upstream_equation_verdicts_counts(upstream: Path) -> None:
    """The 45 upstream equation records fall into the pinned categories, none unclassified."""
    report = crosscheck_file(upstream / "hand_rolled" / "equation_verdicts.jsonl")
    assert len(report.pairs) == 45
    assert _nonzero(report) == UPSTREAM_EQUATION_COUNTS
    assert report.unclassified == ()


def test_upstream_adapter_corpus_counts(upstream: Path) -> None:
    """Our binding of the 72 upstream graphs against their canonical texts: pinned counts, none unclassified."""
    report = crosscheck_file(upstream / "hand_rolled" / "adapter_canonical.jsonl")
    assert _nonzero(report) == UPSTREAM_ADAPTER_COUNTS
    assert report.unclassified == ()


def test_upstream_specific_pairs(upstream: Path) -> None:
    """Named upstream pairs land where the README says they should."""
    report = crosscheck_file(upstream / "hand_rolled" / "equation_verdicts.jsonl")
    by_id = {p.case_id: p for p in report.pairs}
    assert by_id["eq-add-dollar-euro"].category == "theirs_admits_incommensurable_currencies"
    assert by_id["eq-add-box-item"].category == "theirs_admits_container_as_items"
    assert by_id["eq-add-month-day"].category == "theirs_admits_calendar_without_convention"
    assert by_id["eq-multiply-dollar-scalar-as-dollar"].ours == "multiply: [money,dimensionless] -> money"
    assert by_id["eq-apply-rate-mph-symbol"].category == "theirs_refuses_lexicon_surface"


def test_own_equation_fixture_counts() -> None:
    """Our own equation-record fixture covers the currency, offset, container, count-kind, calendar and scalar categories."""
    report = crosscheck_file(DATA / "crosscheck_equations.jsonl")
    by_id = {p.case_id: p.category for p in report.pairs}
    assert by_id == {
        "own-add-pesos-yen": "theirs_admits_incommensurable_currencies",
        "own-add-kelvin": "theirs_admits_offset_temperature_arithmetic",  # two readings do not add, Kelvin too
        "own-sub-fahrenheit": "theirs_admits_offset_temperature_arithmetic",
        "own-add-crate-dozen": "theirs_admits_container_as_items",
        "own-add-children-geese": "theirs_merges_count_kinds",
        "own-add-decade-day": "theirs_admits_calendar_without_convention",
        "own-add-yard-mile": "agree",
        "own-rate-kph-symbol": "theirs_refuses_lexicon_surface",
        "own-multiply-scalar-cups": "theirs_scalar_as_unit_bearing",
        "own-fraction-portion": "theirs_unknown_operation_kind",
        "own-add-same-grams": "agree",
    }


def test_own_adapter_fixture_counts() -> None:
    """Our own adapter-corpus fixture: initial-state wiring, transfer target, an unparsed lexicon surface and a crash are named."""
    report = crosscheck_file(DATA / "crosscheck_adapter.jsonl")
    got = sorted((p.case_id, p.lhs_symbol_id, p.category) for p in report.pairs)
    assert got == [
        ("own-double-feet", "op_000_result", "theirs_refuses_lexicon_surface"),
        ("own-partition", "op_000_result", "theirs_crashes"),
        ("own-transfer", "op_000_result", "theirs_transfer_target_as_dependency"),
        ("own-transfer", "op_000_target_result", "only_ours"),
        ("own-two-steps", "op_000_result", "agree"),
        ("own-two-steps", "op_001_result", "theirs_wires_initial_state"),
    ]
    assert report.unclassified == ()


RECORDS = [json.loads(line) for line in (DATA / "crosscheck_equations.jsonl").read_text().splitlines() if line.strip()]


def _single_graph(record: Mapping[str, object], lhs: str) -> BindingGraph:
    equation, symbols, _ = equation_from_record({**record, "lhs_symbol_id": lhs})
    return BindingGraph(
        symbols=(
            *symbols.values(),
            SymbolBinding(
                symbol_id=lhs,
                name=lhs,
                semantic_role="quantity",
                source_span=next(iter(symbols.values())).source_span,
                introduced_by="test",
            ),
        ),
        equations=(equation,),
    )


def test_broken_callable_admitting_length_plus_mass_is_caught() -> None:
    """A reference that admits everything additive lands length + mass in theirs_admits_dimension_mismatch."""
    record = {
        "id": "x",
        "lhs_symbol_id": "r",
        "operation_kind": "add",
        "hand_rolled": {"status": "refused", "reason": "unit_mismatch"},
        "symbols": [
            {"semantic_role": "quantity", "symbol_id": "a", "unit": "feet"},
            {"semantic_role": "quantity", "symbol_id": "b", "unit": "pounds"},
        ],
    }
    graph = _single_graph(record, "total")

    def lenient(equation: BoundEquation, _symbols: Mapping[str, SymbolBinding]) -> str:
        return f"{equation.operation_kind}: [length,mass] -> length"

    report = crosscheck(graph, lenient)
    assert [p.category for p in report.pairs] == ["theirs_admits_dimension_mismatch"]
    assert report.pairs[0].ours == "unit_mismatch"


def test_broken_callable_ignoring_conversion_factors_is_caught() -> None:
    """A reference whose factors ignore the inch-to-foot conversion lands in theirs_ignores_conversion_factor."""
    record = {
        "id": "x",
        "lhs_symbol_id": "r",
        "operation_kind": "add",
        "hand_rolled": {"status": "refused", "reason": "unit_mismatch"},
        "symbols": [
            {"semantic_role": "quantity", "symbol_id": "a", "unit": "feet"},
            {"semantic_role": "quantity", "symbol_id": "b", "unit": "inches"},
        ],
    }
    graph = _single_graph(record, "total")

    def no_factors(_equation: BoundEquation, _symbols: Mapping[str, SymbolBinding]) -> str:
        return "add: [length,length] -> length; factors a=1, b=1"

    def exact(equation: BoundEquation, symbols: Mapping[str, SymbolBinding]) -> str:
        return detailed_outcome(check_equation(equation, symbols))

    assert [p.category for p in crosscheck(graph, no_factors).pairs] == ["theirs_ignores_conversion_factor"]
    assert [p.category for p in crosscheck(graph, exact).pairs] == ["agree"]
    assert crosscheck(graph, exact).pairs[0].ours.endswith("factors a=1, b=1/12")


def test_crashing_callable_is_a_crashes_pair() -> None:
    """An exception raised by the other side is recorded as a theirs_crashes pair, not raised."""
    graph = _single_graph(RECORDS[1], "total")

    def boom(_equation: BoundEquation, _symbols: Mapping[str, SymbolBinding]) -> str:
        raise AttributeError("'PartitionChunk' object has no attribute 'delta'")

    (pair,) = crosscheck(graph, boom).pairs
    assert pair.category == "theirs_crashes"
    assert "AttributeError" in pair.theirs


def test_mapping_of_outcomes_and_missing_equations() -> None:
    """Outcomes given as a mapping align by lhs; an lhs only theirs has is only_theirs."""
    graph = _single_graph(RECORDS[6], "total")
    equation = graph.equations[0]
    ours = outcome(check_equation(equation, graph.symbol_map))
    report = crosscheck(graph, {"total": ours, "ghost": "add: [money] -> money"})
    assert sorted((p.lhs_symbol_id, p.category) for p in report.pairs) == [("ghost", "only_theirs"), ("total", "agree")]


def test_canonical_text_subject(upstream: Path) -> None:
    """A bare canonical text is re-checked against what it records."""
    line = next(
        json.loads(raw)
        for raw in (upstream / "hand_rolled" / "adapter_canonical.jsonl").read_text().splitlines()
        if json.loads(raw)["id"] == "probe-add-celsius"
    )
    report = crosscheck(line["hand_rolled_canonical"], case_id="probe-add-celsius")
    assert [p.category for p in report.pairs] == ["theirs_admits_offset_temperature_arithmetic"]


def test_report_data_shapes() -> None:
    """Counts list every category; rows, JSON and the table are usable as data and text."""
    report = crosscheck_file(DATA / "crosscheck_equations.jsonl")
    assert set(report.counts) == set(CATEGORIES)
    assert sum(report.counts.values()) == len(report.pairs) == len(report.rows())
    assert set(report.rows()[0]) == {"case_id", "lhs_symbol_id", "ours", "theirs", "category", "detail"}
    data = json.loads(json.dumps(report.to_json()))
    assert data["counts"]["agree"] == 2
    assert "theirs_admits_incommensurable_currencies" in report.table()
    assert repr(report).startswith("CrosscheckReport(11 pairs")


def test_every_category_is_documented() -> None:
    """Each category carries a one-line explanation of who is right."""
    assert all(len(text) > 20 for text in CATEGORIES.values())
    assert "unclassified" in CATEGORIES
    assert "agree" in CATEGORIES


def test_crosscheck_refuses_wrong_subjects() -> None:
    """A subject that is neither text nor a graph, a graph without the other side, or non-text outcomes: malformed_input."""
    for args in ((42,), (BindingGraph(),), (BindingGraph(), {"op_000_result": 5})):
        with pytest.raises(BindingGraphError) as info:
            crosscheck(*args)
        assert info.value.reason == "malformed_input"


def test_a_lane_file_cross_checks_with_each_case_s_declarations() -> None:
    """crosscheck_file reads a bundled lane case as the lanes runner does: its id, and its vocab (conventions, nouns).

    The envelope's vocab had been dropped, so the year=52 week case and the declared-widgets
    case came out as if nothing was declared.
    """
    lane = Path(__file__).resolve().parents[2] / "evals" / "lanes" / "crosscheck.jsonl"
    cases = {c["id"]: c for c in map(json.loads, lane.read_text(encoding="utf-8").splitlines()) if c}
    report = crosscheck_file(lane)
    assert {p.case_id for p in report.pairs} == set(cases)
    got = {p.case_id: p.category for p in report.pairs}
    assert got == {case_id: case["expect"]["category"] for case_id, case in cases.items()}
    declared = [case_id for case_id, case in cases.items() if "vocab" in case]
    assert len(declared) == 2
    assert {got[c] for c in declared} == {"agree", "count_noun_undeclared_to_theirs"}


def test_the_lane_case_envelope_lends_its_id_vocab_and_policy() -> None:
    """A lane case needs input and expect; its id and vocab override the input's; text input is decoded unless decode=False."""
    case = {
        "id": "c1",
        "vocab": {"count_nouns": {"pies": "pie"}},
        "input": {"entities": ["A"], "id": "inner"},
        "expect": {},
    }
    assert is_lane_case(case)
    assert not is_lane_case({"input": {}})
    assert is_lane_case({"format": "math_graph", "input": {}})  # no gold, but the envelope of one
    inner = lane_case_input(case)
    assert inner == {"entities": ["A"], "id": "c1", "vocab": {"count_nouns": {"pies": "pie"}}}
    assert lane_case_input({"input": '{"a": 1}', "expect": {}}) == {"a": 1}
    assert lane_case_input({"input": "S x", "expect": {}}, decode=False) == "S x"
