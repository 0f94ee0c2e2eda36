"""The public names of each package are exactly the SPEC's (adding one is a deliberate diff)."""

from __future__ import annotations

import adapters
import units
import verifier
import verifier.crosscheck
from verifier import REFUSAL_REASONS
from verifier.reasons import REASON_STAGES

SPEC_UNITS = {
    "BASE_DIMENSIONS",
    "DimensionVector",
    "UnitVocabulary",
    "UnitRef",
    "UnitRefusal",
    "default_vocabulary",
    "load_lexicon",
}
SPEC_ADAPTERS = {
    "MathProblemGraph",
    "Quantity",
    "Rate",
    "Comparison",
    "PartitionChunk",
    "FractionPortion",
    "InitialPossession",
    "Operation",
    "Unknown",
    "MathGraphError",
    "graph_from_dict",
    "bind_math_problem_graph",
    "bind_relations",
    "parse_canonical_text",
    "count_nouns_of",  # SPEC §5 "Count nouns"
}
SPEC_VERIFIER = {
    "BindingGraph",
    "SymbolBinding",
    "BoundFact",
    "BoundEquation",
    "BoundUnknown",
    "BoundConstraint",
    "SourceSpanLink",
    "OperationIndex",
    "BindingGraphError",
    "check_equation",
    "verify",
    "Verdict",
    "UnitProof",
    "Refusal",
    "GraphReport",
    "Value",
    "Answer",
    "REFUSAL_REASONS",
}
OURS_ERRORS = {"RefusalError"}  # beyond the SPEC: the one base of every typed error (issue #16), in units and verifier
OURS_ADAPTERS = {
    "AdapterError",  # MathGraphError's name for what every adapter raises (MathGraphError is the same class)
    "RecordedVerdict",
    "read_json",
    "FRACTION_REFERENTS",
    "auto_count_nouns",
    "bind_with_auto_count_nouns",
    "clear_memos",
}  # beyond the SPEC: the parser's record type, the exact JSON reader, the closed referent set, the auto mode (and
# its one-call binding),
# the memo clearer benchmarks use


def test_units_public_names() -> None:
    """Units exports exactly the SPEC §3 names, and the errors' one base."""
    assert set(units.__all__) == SPEC_UNITS | OURS_ERRORS


def test_adapters_public_names() -> None:
    """Adapters exports the SPEC §5 names plus the documented extras."""
    assert set(adapters.__all__) == SPEC_ADAPTERS | OURS_ADAPTERS


def test_verifier_public_names() -> None:
    """Verifier exports exactly the SPEC §5 names, and the errors' one base."""
    assert set(verifier.__all__) == SPEC_VERIFIER | OURS_ERRORS


def test_crosscheck_public_names() -> None:
    """verifier.crosscheck exports crosscheck, crosscheck_file and CrosscheckReport (SPEC §5, §7)."""
    assert {"crosscheck", "crosscheck_file", "CrosscheckReport"} <= set(verifier.crosscheck.__all__)


def test_refusal_vocabulary_is_closed_and_pinned() -> None:
    """REFUSAL_REASONS holds exactly these reasons (SPEC §6 plus the upstream ones): adding one changes this test."""
    assert sorted(REFUSAL_REASONS) == sorted(
        {
            "unit_mismatch",
            "unknown_unit",
            "unit_unbound",
            "unknown_symbol",
            "unknown_operation",
            "operand_arity",
            "rate_form_invalid",
            "incommensurable_units",
            "offset_unit_arithmetic",
            "convention_required",
            "not_a_math_problem_graph",
            "unknown_entity_not_in_entities",
            "apply_rate_unit_mismatch",
            "unmappable_question_form",
            "non_exact_division",
            "division_by_zero",
            "negative_count",
            "negative_quantity",
            "non_integer_count",
            "underdetermined",
            "inconsistent",
            "nonlinear",
            "refused_dependency",
            "value_out_of_range",
            "state_unset",
            "redeclared_state",
            "ambiguous_reference",
            "malformed_input",
            "unsafe_expression",
            "input_too_large",
        }
    )


def test_every_reason_is_documented_with_its_stage() -> None:
    """Each reason carries a one-line description naming the stage that raises it."""
    assert set(REASON_STAGES) == set(REFUSAL_REASONS)
    assert all(text.split(":")[0] for text in REASON_STAGES.values())
