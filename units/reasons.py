"""The closed refusal vocabulary (SPEC §6), one reason per line with the stage that raises it.

It lives in the lowest layer so that one exception base, :class:`units.errors.RefusalError`,
can check every reason any layer raises; :mod:`verifier.reasons` re-exports it.  Adding a
reason is a deliberate change: ``tests/unit/test_public_api.py`` pins the set, and checks
that every unit-level reason (:data:`UNIT_REASONS`) is documented here.
"""

from __future__ import annotations

from typing import Final, Literal, TypeGuard, get_args

UnitReason = Literal[
    "unknown_unit",
    "incommensurable_units",
    "convention_required",
    "offset_unit_arithmetic",
    "malformed_input",
    "input_too_large",
]
"""A reason a unit question has no exact answer (SPEC §6)."""

UNIT_REASONS: Final[frozenset[str]] = frozenset(get_args(UnitReason))


RefusalReason = Literal[
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
]
"""Any reason any stage may refuse with (SPEC §6): the closed vocabulary as a type; :data:`REASON_STAGES` says where each is raised."""

REASON_STAGES: Final[dict[RefusalReason, str]] = {
    # admissibility (upstream ADR-0134)
    "unit_mismatch": "admissibility: operands of different dimensions, or a rate whose form does not fit",
    "unknown_unit": "admissibility/units: a unit surface outside the lexicon (or an undeclared count noun)",
    "unit_unbound": "admissibility: an operand symbol carries no unit",
    "unknown_symbol": "admissibility: a dependency names no symbol of the graph",
    "unknown_operation": "admissibility: an operation kind outside the ten known kinds",
    "operand_arity": "admissibility: the wrong number or shape of operands for the kind",
    "rate_form_invalid": "admissibility: apply_rate without exactly one rate X/Y and one quantity of dimension Y",
    # units, stricter than the six-axis vector (SPEC §3)
    "incommensurable_units": "admissibility/units: same six-axis dimension but different kinds (currencies, count kinds, containers, unscaled degree)",
    "offset_unit_arithmetic": "admissibility/units: arithmetic on an absolute (offset) temperature",
    "convention_required": "admissibility/units: a calendar unit against days or weeks with no declared convention",
    # question target (upstream ADR-0135)
    "not_a_math_problem_graph": "question target: the input is not a math problem graph",
    "unknown_entity_not_in_entities": "question target: the unknown's entity is not an entity of the graph (binding graphs, canonical text; a math problem graph's unknown is checked when it is read: malformed_input)",
    "apply_rate_unit_mismatch": "question target: the unknown's unit is neither the rate's numerator nor its denominator",
    "unmappable_question_form": "question target: no question form fits (or the recorded form disagrees with the graph)",
    # values (SPEC §4)
    "non_exact_division": "values: a division whose result must be whole (a count, or any quotient under the integer policy) is not",
    "division_by_zero": "values: a divisor, chunk or denominator is zero",
    "negative_count": "values: a count quantity is negative",
    "negative_quantity": "values: a holding of length, area, volume, mass or time is negative (money and temperature may be)",
    "non_integer_count": "values: a count quantity is not a whole number",
    "underdetermined": "values: the system leaves the symbol free (no unique solution)",
    "inconsistent": "values: the system contradicts itself (or a constraint)",
    "nonlinear": "values: what is left after substitution is not linear in the unknowns",
    "refused_dependency": "values: the value depends on a refused equation or value",
    "value_out_of_range": "values: a magnitude beyond the documented bound (verifier.values.MAX_VALUE_BITS, about 30 digits)",
    "state_unset": "values: an operation or unknown reads a state that was never set",
    "redeclared_state": "values: a comparison or declaration would overwrite an existing state",
    "ambiguous_reference": "values: a reference holds several kinds, or a fraction's referent is missing",
    # input (SPEC §8)
    "malformed_input": "input: text or data outside the accepted format",
    "unsafe_expression": "input: an expression outside our arithmetic grammar (calls, attributes, strings …)",
    "input_too_large": "input: numbers, exponents, expressions or graphs over the set bounds",
}

REFUSAL_REASONS: Final[frozenset[str]] = frozenset(get_args(RefusalReason))
"""Every reason any stage may refuse with.  A closed set: see :data:`REASON_STAGES`."""


def is_refusal_reason(value: object) -> TypeGuard[RefusalReason]:
    """Whether ``value`` is a reason of the closed vocabulary (a ``str`` in :data:`REFUSAL_REASONS`)."""
    return isinstance(value, str) and value in REFUSAL_REASONS


__all__ = [
    "REASON_STAGES",
    "REFUSAL_REASONS",
    "UNIT_REASONS",
    "RefusalReason",
    "UnitReason",
    "is_refusal_reason",
]
