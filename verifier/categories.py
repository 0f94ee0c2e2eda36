"""The closed set of cross-check categories (SPEC §7): who is wrong, why, and the rule with its source.

Data only, in the verifier's core: :mod:`verifier.crosscheck` classifies pairs into
these categories, and the adapters' corpus reader checks a record's expected
category against them, without importing the cross-check machinery.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final


@dataclass(frozen=True, slots=True, kw_only=True)
class Category:
    """One cross-check category: what differs, which side is wrong, and the rule that decides it.

    Attributes:
        name: the category's name; it starts with the side at fault (``theirs_``,
            ``ours_``) unless neither side is (``agree``, ``only_ours``, …).
        wrong: ``"theirs"``, ``"ours"`` (a limitation of ours: theirs may be right),
            ``"neither"`` (no fault: alignment or configuration) or ``"unknown"``.
        meaning: one sentence a maintainer can paste into a bug report.
        rule: the rule that decides it.
        spec: where the rule is written (SPEC section, ADR, NIST SP 811, ISO 4217).
    """

    name: str
    wrong: str
    meaning: str
    rule: str
    spec: str


def _category(name: str, wrong: str, meaning: str, rule: str, spec: str) -> Category:
    return Category(name=name, wrong=wrong, meaning=meaning, rule=rule, spec=spec)


_ADDITIVE_RULE = "add, subtract, transfer and compare_additive are admitted when all operands are commensurable"
CATEGORY_INFO: Final[Mapping[str, Category]] = {
    c.name: c
    for c in (
        _category("agree", "neither", "both sides give the same verdict on the same equation", "-", "SPEC §7"),
        _category(
            "theirs_admits_incommensurable_currencies",
            "theirs",
            "theirs admits a sum of two currencies",
            "currencies without a fixed rate are incommensurable with each other (dollar and cent convert)",
            "SPEC §3 Registry; ISO 4217",
        ),
        _category(
            "theirs_admits_offset_temperature_arithmetic",
            "theirs",
            "theirs does arithmetic on absolute temperatures (Celsius, Fahrenheit), or adds two readings (Kelvin too)",
            "offset temperatures follow pint's non-multiplicative rules: adding two absolute temperatures is refused;"
            " a temperature is a reading, not an amount, so no two readings add, in any unit",
            "SPEC §3 Registry",
        ),
        _category(
            "theirs_admits_container_as_items",
            "theirs",
            "theirs counts containers of unstated size as items (or people, or another noun)",
            "containers without a fixed size (box, bag, crate) do not convert to items",
            "SPEC §3 Registry",
        ),
        _category(
            "theirs_merges_count_kinds",
            "theirs",
            "theirs adds different count kinds (people and mice, apples and oranges, a bag and a box)",
            "each count lemma, and each declared count noun, is its own kind",
            "SPEC §3 Registry",
        ),
        _category(
            "theirs_admits_unscaled_degree",
            "theirs",
            "theirs adds a bare degree to a scaled temperature",
            "the bare degree has no scale and converts to nothing",
            "SPEC §3 Registry",
        ),
        _category(
            "theirs_admits_calendar_without_convention",
            "theirs",
            "theirs relates months or years to days or weeks",
            "calendar units convert to days or weeks only under a convention the caller declares",
            "SPEC §3 Registry",
        ),
        _category(
            "theirs_admits_dimension_mismatch",
            "theirs",
            "theirs admits operands of different dimensions",
            _ADDITIVE_RULE,
            "SPEC §4 Admissibility",
        ),
        _category(
            "theirs_admits_rate_kind_mismatch",
            "theirs",
            "theirs applies a rate to a quantity of another kind (per item over apples)",
            "apply_rate: a rate X/Y times a quantity of exactly Y's kind",
            "SPEC §4 Admissibility",
        ),
        _category(
            "theirs_admits_malformed_rate",
            "theirs",
            "theirs admits a rate whose quantity does not have exactly the rate's denominator dimension",
            "apply_rate: one rate X/Y times one quantity of dimension exactly Y",
            "SPEC §4 Admissibility",
        ),
        _category(
            "theirs_admits_wrong_dimension",
            "theirs",
            "theirs admits an operand of a dimension the kind does not take (a fraction_portion of a length)",
            "each kind's row says what its operands are (fraction_portion: a count; unit_partition: a state over"
            " a chunk of its kind)",
            "SPEC §4 Admissibility",
        ),
        _category(
            "theirs_admits_unbound_unit",
            "theirs",
            "theirs admits an equation with an operand that carries no unit",
            "every unit-bearing operand is bound to a unit (unit_unbound otherwise)",
            "SPEC §4 Admissibility; ADR-0134",
        ),
        _category(
            "theirs_admits_unknown_unit",
            "theirs",
            "theirs admits a unit outside the lexicon (and not declared)",
            "only surfaces in the lexicon, and declared count nouns, resolve",
            "SPEC §3 Registry",
        ),
        _category(
            "theirs_admits_operand_arity",
            "theirs",
            "theirs admits operands of a number or shape the kind does not take",
            "each kind takes the operands of its row (divide: one dep, or a dividend and a *__divisor)",
            "SPEC §4 Admissibility; ADR-0134",
        ),
        _category(
            "product_without_declared_unit",
            "neither",
            "theirs admits a product of unit-bearing quantities into the unit it infers; ours admits a product only"
            " into a unit the lhs declares, and this equation declares none",
            "multiply: a product of unit-bearing quantities into the unit the lhs declares (12 ft x 10 ft into"
            " square yards = 40/3), else a state times dimensionless scalars",
            "SPEC §4 Admissibility",
        ),
        _category(
            "theirs_scalar_as_unit_bearing",
            "theirs",
            "theirs treats a scalar multiplier or divisor as unit-bearing (money x money -> money^2)",
            "multiply scales one state by dimensionless scalars; the scalar is a pure number",
            "SPEC §4 Admissibility",
        ),
        _category(
            "theirs_multiplicative_comparison_dimensionless",
            "theirs",
            "theirs labels a multiplicative comparison dimensionless (or reads no reference)",
            "compare_multiplicative: the reference's state times a dimensionless factor, in the reference's unit",
            "SPEC §4 Admissibility",
        ),
        _category(
            "theirs_refuses_lexicon_surface",
            "theirs",
            "theirs refuses a lexicon surface it cannot depluralize (feet, people, $, t, mph)",
            "only surfaces in the lexicon resolve, matched exactly as written there",
            "SPEC §3 Registry",
        ),
        _category(
            "count_noun_undeclared_to_theirs",
            "neither",
            "theirs refuses a count noun our vocabulary declares for this run; theirs takes no declarations,"
            " so this is a difference of configuration",
            "count nouns outside the lexicon resolve only when the caller declares them",
            "SPEC §3 Registry",
        ),
        _category(
            "theirs_refuses_admissible",
            "theirs",
            "theirs refuses an equation ours admits with a proof (ours is right unless its proof is wrong)",
            "the kind's row of the admissibility table admits it",
            "SPEC §4 Admissibility",
        ),
        _category(
            "theirs_unknown_operation_kind",
            "theirs",
            "theirs does not know the operation kind (unit_partition, fraction_portion)",
            "there are ten operation kinds, each with its admissibility rule",
            "SPEC §4 Admissibility; ADR-0115",
        ),
        _category(
            "theirs_wires_initial_state",
            "theirs",
            "theirs reads the actor's initial (t0) state instead of its current one",
            "each operation reads the previous result of the holding it updates",
            "SPEC §4 State",
        ),
        _category(
            "theirs_transfer_target_as_dependency",
            "theirs",
            "theirs lists the transfer target's state as a dependency of the actor's new state",
            "the giver's new state reads only the giver's state and the amount",
            "SPEC §4 State",
        ),
        _category(
            "theirs_crashes",
            "theirs",
            "theirs raises an exception (not a typed refusal) where ours returns a verdict",
            "every entry point refuses bad input with a typed error and never crashes",
            "SPEC §8",
        ),
        _category(
            "theirs_ignores_conversion_factor",
            "theirs",
            "theirs applies a different conversion factor than the exact one",
            "conversion factors are exact Fractions from the public definitions",
            "SPEC §3; NIST SP 811",
        ),
        _category(
            "only_ours",
            "neither",
            "an equation only ours has (e.g. the transfer target's new state, which theirs does not model)",
            "-",
            "SPEC §7",
        ),
        _category("only_theirs", "neither", "an equation only theirs has", "-", "SPEC §7"),
        _category(
            "count_label_differs",
            "neither",
            "both admit with the same operands; one writes the result, a pure number of chunks, as count and"
            " the other as dimensionless",
            "unit_partition: a state in U over a chunk in U gives a number of chunks",
            "SPEC §4 Admissibility",
        ),
        _category(
            "refusal_reason_differs",
            "neither",
            "both refuse, for different reasons (each names its own first failing check)",
            "-",
            "SPEC §6",
        ),
        _category("unclassified", "unknown", "fits no category: study it", "-", "SPEC §7"),
    )
}
"""Every category, by name (see :class:`Category`): who is wrong, why, and the rule with its source."""

CATEGORIES: Final[dict[str, str]] = {name: c.meaning for name, c in CATEGORY_INFO.items()}
"""The closed set of pair categories: name → meaning (who is wrong, and how)."""

FORMER_NAMES: Final[Mapping[str, str]] = {
    "admits_incommensurable_currencies": "theirs_admits_incommensurable_currencies",
    "admits_offset_temperature_arithmetic": "theirs_admits_offset_temperature_arithmetic",
    "admits_container_as_items": "theirs_admits_container_as_items",
    "merges_count_kinds": "theirs_merges_count_kinds",
    "admits_unscaled_degree": "theirs_admits_unscaled_degree",
    "admits_calendar_without_convention": "theirs_admits_calendar_without_convention",
    "admits_dimension_mismatch": "theirs_admits_dimension_mismatch",
    "admits_rate_kind_mismatch": "theirs_admits_rate_kind_mismatch",
    "admits_malformed_rate": "theirs_admits_malformed_rate",
    "admits_product_of_quantities": "product_without_declared_unit",
    "scalar_as_unit_bearing": "theirs_scalar_as_unit_bearing",
    "multiplicative_comparison_dimensionless": "theirs_multiplicative_comparison_dimensionless",
    "refuses_lexicon_surface": "theirs_refuses_lexicon_surface",
    "refuses_admissible": "theirs_refuses_admissible",
    "unknown_operation_kind": "theirs_unknown_operation_kind",
    "wires_initial_state": "theirs_wires_initial_state",
    "transfer_target_as_dependency": "theirs_transfer_target_as_dependency",
    "crashes": "theirs_crashes",
    "ignores_conversion_factor": "theirs_ignores_conversion_factor",
}
"""Former category names → their names now, which say which side is at fault (renamed in 0.2, see CHANGELOG)."""


__all__ = [
    "CATEGORIES",
    "CATEGORY_INFO",
    "FORMER_NAMES",
    "Category",
]
