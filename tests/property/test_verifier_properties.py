"""Model and admissibility properties: order independence, symmetry, round trips, determinism."""

from __future__ import annotations

import contextlib
import dataclasses
import io
import json
import os
import random
import re
import subprocess
import sys
import textwrap
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
import sympy
from hypothesis import given
from hypothesis import strategies as st

import verifier.admissibility
from units import default_vocabulary
from verifier import (
    REFUSAL_REASONS,
    BindingGraph,
    BoundConstraint,
    BoundEquation,
    BoundFact,
    BoundUnknown,
    OperationIndex,
    SourceSpanLink,
    SymbolBinding,
    Verdict,
    check_equation,
)
from verifier.admissibility import ADDITIVE_KINDS
from verifier.expr import symbol
from verifier.model import ADMISSIBILITY_STATUSES, OPERATION_KINDS, QUESTION_FORMS, SEMANTIC_ROLES, SemanticRole

SPAN = SourceSpanLink(source_id="t", start=0, end=1)
SURFACES: tuple[str, ...] = default_vocabulary().surfaces()
UNIT_POOL: tuple[str, ...] = (
    "foot",
    "feet",
    "inch",
    "inches",
    "yard",
    "mile",
    "dollar",
    "dollars",
    "$",
    "cent",
    "euro",
    "Celsius",
    "Fahrenheit",
    "Kelvin",
    "degree",
    "item",
    "items",
    "dozen",
    "pair",
    "person",
    "people",
    "mouse",
    "box",
    "child",
    "month",
    "day",
    "year",
    "week",
    "hour",
    "minutes",
    "percent",
    "pound",
    "ounce",
    "cup",
    "liter",
    "gallon",
    "acre",
    "square_foot",
    "mph",
    "kilometer_per_hour",
    "dollar_per_hour",
    "dollars_per_item",
    "dollars_per_year",
    "pound_per_cubic_foot",
    "t",
    "ton",
)
"""Units for every special case: currencies, offsets, containers, count kinds, calendar, rates."""


def _clear_cache() -> None:
    """Drop admissibility's verdict memo, if it keeps one, so each call runs the rules."""
    clear = getattr(verifier.admissibility, "clear_verdict_cache", None)
    if clear is not None:
        clear()


def _binding(symbol_id: str, unit: str | None, role: SemanticRole = "quantity") -> SymbolBinding:
    return SymbolBinding(
        symbol_id=symbol_id,
        name=symbol_id,
        semantic_role=role,
        source_span=SPAN,
        introduced_by="prop",
        unit=unit,
    )


def _verdict_key(verdict: Verdict) -> tuple[object, ...]:
    if verdict.proof is None:
        assert verdict.refusal is not None
        return (verdict.status, verdict.refusal.reason)
    return (
        verdict.status,
        verdict.unit_proof,
        verdict.proof.result_unit,
        tuple(sorted(verdict.proof.factors.items())),
        verdict.proof.declarations,
    )


# ------------------------------------------------------------ admissibility


KIND_DEP_IDS: tuple[str, ...] = (
    "a",
    "b",
    "q",
    "op_000__multiplicand",
    "op_000__divisor",
    "op_000__chunk",
)
units_or_junk = st.one_of(
    st.sampled_from(UNIT_POOL),
    st.sampled_from(SURFACES),
    st.none(),
    st.sampled_from(["feets", "apples", "zorkmid", "ft in"]),
)


@st.composite
def equations_with_symbols(draw: st.DrawFn) -> tuple[BoundEquation, list[SymbolBinding]]:
    """A random equation over 0-3 dependencies, random units and roles, any kind (or unknown)."""
    kind = draw(st.sampled_from((*OPERATION_KINDS, "frobnicate")))
    ids = draw(st.lists(st.sampled_from(KIND_DEP_IDS), unique=True, max_size=3))
    symbols = [_binding(i, draw(units_or_junk), draw(st.sampled_from(["quantity", "rate", "ratio"]))) for i in ids]
    if draw(st.booleans()):
        symbols.append(_binding("r", draw(units_or_junk)))
    deps = [symbol(i) for i in ids]
    constant = draw(st.sampled_from([0, 1, 3]))
    rhs = (
        (sympy.Add(*deps, constant) if kind in ADDITIVE_KINDS else sympy.Mul(*deps, constant or 1))
        if deps or constant
        else sympy.Integer(2)
    )
    literal = draw(st.one_of(st.none(), st.sampled_from(UNIT_POOL)))
    eq = BoundEquation.create(lhs_symbol_id="r", rhs=rhs, operation_kind=kind, source_span=SPAN, literal_unit=literal)
    return eq, symbols


@given(equations_with_symbols(), st.randoms(use_true_random=False))
def test_verdict_independent_of_symbol_order(
    case: tuple[BoundEquation, list[SymbolBinding]], rng: random.Random
) -> None:
    """The verdict does not depend on the order of the symbols (list, shuffled list, mapping)."""
    eq, symbols = case
    _clear_cache()
    first = check_equation(eq, symbols)
    shuffled = list(symbols)
    rng.shuffle(shuffled)
    _clear_cache()
    second = check_equation(eq, shuffled)
    _clear_cache()
    third = check_equation(eq, {s.symbol_id: s for s in reversed(shuffled)})
    assert _verdict_key(first) == _verdict_key(second) == _verdict_key(third)
    assert first.to_json() == second.to_json() == third.to_json()


@given(
    st.sampled_from(OPERATION_KINDS),
    st.lists(
        st.tuples(
            st.sampled_from(KIND_DEP_IDS),
            st.sampled_from(UNIT_POOL),
            st.sampled_from(["quantity", "rate"]),
        ),
        unique_by=lambda t: t[0],
        min_size=1,
        max_size=3,
    ),
    st.randoms(use_true_random=False),
)
def test_verdict_independent_of_dependency_order(
    kind: str, specs: list[tuple[str, str, SemanticRole]], rng: random.Random
) -> None:
    """Building the rhs from the dependencies in any order gives the same equation and verdict."""
    symbols = [_binding(*spec) for spec in specs]
    order = [symbol(s.symbol_id) for s in symbols]
    shuffled = list(order)
    rng.shuffle(shuffled)
    combine = sympy.Add if kind in ADDITIVE_KINDS else sympy.Mul
    eq1 = BoundEquation.create(lhs_symbol_id="r", rhs=combine(*order), operation_kind=kind, source_span=SPAN)
    eq2 = BoundEquation.create(lhs_symbol_id="r", rhs=combine(*shuffled), operation_kind=kind, source_span=SPAN)
    assert eq1 == eq2
    assert eq1.rhs_canonical == eq2.rhs_canonical
    _clear_cache()
    first = check_equation(eq1, symbols)
    _clear_cache()
    second = check_equation(eq2, list(reversed(symbols)))
    assert first.to_json() == second.to_json()


@given(st.sampled_from(sorted(ADDITIVE_KINDS)), st.sampled_from(UNIT_POOL), st.sampled_from(UNIT_POOL))
def test_additive_kinds_symmetric(kind: str, unit_a: str, unit_b: str) -> None:
    """Swapping two units keeps status, reason and dimension strings; factors invert exactly."""
    eq = BoundEquation.create(lhs_symbol_id="r", rhs=symbol("a") + symbol("b"), operation_kind=kind, source_span=SPAN)
    forward = check_equation(eq, [_binding("a", unit_a), _binding("b", unit_b)])
    backward = check_equation(eq, [_binding("a", unit_b), _binding("b", unit_a)])
    assert forward.status == backward.status
    assert forward.unit_proof == backward.unit_proof
    if forward.refusal is not None:
        assert backward.refusal is not None
        assert forward.refusal.reason == backward.refusal.reason
    else:
        assert forward.proof is not None
        assert backward.proof is not None
        assert forward.proof.factors["b"] * backward.proof.factors["b"] == 1
        assert forward.proof.result_dimension == backward.proof.result_dimension


@given(st.sampled_from(SURFACES), st.sampled_from(SURFACES))
def test_additive_symmetry_over_the_whole_lexicon(unit_a: str, unit_b: str) -> None:
    """For any two lexicon surfaces, a + b and b + a get the same status and proof string."""
    eq = BoundEquation.create(lhs_symbol_id="r", rhs=symbol("a") + symbol("b"), operation_kind="add", source_span=SPAN)
    forward = check_equation(eq, [_binding("a", unit_a), _binding("b", unit_b)])
    backward = check_equation(eq, [_binding("a", unit_b), _binding("b", unit_a)])
    assert (forward.status, forward.unit_proof) == (backward.status, backward.unit_proof)


@given(equations_with_symbols())
def test_refused_verdict_shape(case: tuple[BoundEquation, list[SymbolBinding]]) -> None:
    """A refusal has no proof, unit_proof 'unverified' and a closed reason; admitted, a proof."""
    eq, symbols = case
    verdict = check_equation(eq, symbols)
    if verdict.status == "refused":
        assert verdict.proof is None
        assert verdict.unit_proof == "unverified"
        assert verdict.refusal is not None
        assert verdict.refusal.reason in REFUSAL_REASONS
        assert verdict.refusal.detail
    else:
        assert verdict.status == "admitted"
        assert verdict.refusal is None
        assert verdict.proof is not None
        assert verdict.unit_proof.startswith(f"{eq.operation_kind}: [")
        assert all(type(f) is Fraction for f in verdict.proof.factors.values())
        assert isinstance(verdict.proof.equation, sympy.Equality)


# ------------------------------------------------------------ graphs


_ID = st.from_regex(r"[a-z][a-z0-9_]{0,6}", fullmatch=True)
_TEXT = (
    st.text(st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp")), min_size=1, max_size=10)
    .map(str.strip)
    .filter(bool)
    .filter(lambda t: t != "None" and not re.search(r"(?:^|\s)[a-z_]+=", t))  # the model refuses canonical-line keys
)
_UNIT = st.one_of(st.none(), st.sampled_from(UNIT_POOL))


@st.composite
def spans(draw: st.DrawFn) -> SourceSpanLink:
    """A valid source span."""
    start = draw(st.integers(0, 200))
    return SourceSpanLink(
        source_id=draw(st.from_regex(r"[A-Za-z0-9_.:/\-]{1,12}", fullmatch=True)),
        start=start,
        end=start + draw(st.integers(1, 50)),
        text=draw(st.one_of(st.none(), _TEXT)),
    )


_EXACT = st.one_of(
    st.integers(-(10**6), 10**6).map(str),
    st.tuples(st.integers(0, 999), st.integers(0, 999)).map(lambda t: f"{t[0]}.{t[1]}"),
    st.tuples(st.integers(-99, 99), st.integers(1, 99)).map(lambda t: f"{t[0]}/{t[1]}"),
)
_COEFF = st.one_of(
    st.integers(-5, 5),
    st.tuples(st.integers(-9, 9), st.integers(1, 9)).map(lambda t: sympy.Rational(*t)),
)


@st.composite
def binding_graphs(draw: st.DrawFn) -> BindingGraph:
    """A small valid graph: acyclic equations (one per lhs, deps on earlier symbols), all parts."""
    ids = draw(st.lists(_ID, min_size=1, max_size=6, unique=True))
    symbols = tuple(
        SymbolBinding(
            symbol_id=i,
            name=draw(_TEXT),
            semantic_role=draw(st.sampled_from(sorted(SEMANTIC_ROLES))),
            source_span=draw(spans()),
            introduced_by=draw(_TEXT),
            entity=draw(st.one_of(st.none(), _TEXT)),
            unit=draw(_UNIT),
        )
        for i in ids
    )
    stateful = [s.symbol_id for s in symbols if s.semantic_role not in ("unknown", "entity")]  # facts and lhs need one
    asked_roles = {s.symbol_id for s in symbols if s.semantic_role == "unknown"}
    facts = tuple(
        BoundFact(symbol_id=i, value=draw(_EXACT), source_span=draw(spans()), unit=draw(_UNIT))
        for i in (draw(st.lists(st.sampled_from(stateful), max_size=4)) if stateful else [])
    )
    equations = []
    positions = [p for p in range(1, len(ids)) if ids[p] in stateful]
    for position in draw(st.lists(st.sampled_from(positions), unique=True, max_size=4)) if positions else []:
        earlier = [i for i in ids[:position] if i not in asked_roles]  # an equation reads no unknown
        deps = draw(st.lists(st.sampled_from(earlier), unique=True, max_size=3)) if earlier else []
        terms = [draw(_COEFF) * symbol(d) ** draw(st.sampled_from([1, 1, 2, -1])) for d in deps]
        rhs = (
            sympy.Add(*terms, draw(_COEFF))
            if draw(st.booleans())
            else sympy.Mul(*terms, draw(_COEFF.filter(lambda c: c != 0)))
        )
        status = draw(st.sampled_from(sorted(ADMISSIBILITY_STATUSES)))
        equations.append(
            BoundEquation.create(
                lhs_symbol_id=ids[position],
                rhs=rhs,
                operation_kind=draw(st.sampled_from(OPERATION_KINDS)),
                source_span=draw(spans()),
                literal_unit=draw(_UNIT),
                admissibility_status=status,
                unit_proof=draw(_TEXT) if status == "admitted" else "unverified",
                refusal_reason=draw(st.sampled_from(sorted(REFUSAL_REASONS))) if status == "refused" else None,
            )
        )
    states: list[Any] = ["initial", "terminal", *(OperationIndex(i) for i in range(len(equations)))]
    unknowns = tuple(
        BoundUnknown(
            symbol_id=asked,
            question_span=draw(spans()),
            state_index=draw(st.sampled_from(states)),
            question_form=draw(st.sampled_from(sorted(QUESTION_FORMS))),
            expected_unit=draw(_UNIT),
        )
        for asked in (
            draw(st.lists(st.sampled_from(sorted(asked_roles)), unique=True, max_size=2)) if asked_roles else []
        )
    )  # one unknown per symbol, of role unknown
    constraints = tuple(
        BoundConstraint(
            symbol_id=i,
            predicate=draw(st.sampled_from([f"{i} >= 0", f"integer({i})", f"{i} != 3/2", f"{i} < -2.5"])),
            source_span=draw(spans()),
        )
        for i in draw(st.lists(st.sampled_from(ids), max_size=2))
    )
    provenance = tuple(draw(st.lists(spans(), max_size=2)))
    return BindingGraph(
        symbols=symbols,
        facts=facts,
        equations=tuple(equations),
        unknowns=unknowns,
        constraints=constraints,
        provenance=provenance,
    )


@given(binding_graphs())
def test_graph_json_round_trip(graph: BindingGraph) -> None:
    """from_json(to_json(g)) == g through JSON text, with equal hash, JSON and canonical string."""
    text = json.dumps(graph.to_json(), sort_keys=True, ensure_ascii=False)
    again = BindingGraph.from_json(json.loads(text))
    assert again == graph
    assert hash(again) == hash(graph)
    assert json.dumps(again.to_json(), sort_keys=True, ensure_ascii=False) == text
    assert again.to_canonical_string() == graph.to_canonical_string()


@given(binding_graphs())
def test_canonical_string_stable(graph: BindingGraph) -> None:
    """The canonical string is a pure function of the graph: rebuilt parts print the same bytes."""
    rebuilt = BindingGraph(
        symbols=tuple(SymbolBinding.from_json(s.to_json()) for s in graph.symbols),
        facts=tuple(BoundFact.from_json(f.to_json()) for f in graph.facts),
        equations=tuple(BoundEquation.from_json(e.to_json()) for e in graph.equations),
        unknowns=tuple(BoundUnknown.from_json(u.to_json()) for u in graph.unknowns),
        constraints=tuple(BoundConstraint.from_json(c.to_json()) for c in graph.constraints),
        provenance=tuple(SourceSpanLink.from_json(p.to_json()) for p in graph.provenance),
    )
    canonical = graph.to_canonical_string()
    assert rebuilt.to_canonical_string() == canonical == graph.to_canonical_string()
    lines = canonical.split("\n") if canonical else []
    parts = (
        graph.symbols,
        graph.facts,
        graph.equations,
        graph.unknowns,
        graph.constraints,
        graph.provenance,
    )
    assert [line[0] for line in lines] == [tag for tag, items in zip("SFEUCP", parts, strict=True) for _ in items]


# ------------------------------------------------------------ hash-seed independence


_SEED_SCRIPT = textwrap.dedent(
    """
    import json
    import sympy
    from verifier import (BindingGraph, BoundEquation, BoundUnknown, OperationIndex,
                          SourceSpanLink, SymbolBinding, check_equation)
    from verifier.expr import symbol
    span = SourceSpanLink(source_id="seed", start=0, end=4)
    ids = ["zeta", "alpha", "mid", "E", "I", "beta", "op_000__multiplicand", "total"]
    units = {"zeta": "feet", "alpha": "inches", "mid": "yard", "beta": "dollars",
             "op_000__multiplicand": "dollars"}
    symbols = tuple(
        SymbolBinding(symbol_id=i, name=i + ".name", semantic_role="quantity",
                      source_span=span, introduced_by="seed", unit=units.get(i))
        for i in ids
    ) + (SymbolBinding(symbol_id="asked", name="asked", semantic_role="unknown", source_span=span,
                       introduced_by="seed", unit="feet"),)
    total = sympy.Add(*[symbol(i) for i in {"zeta", "alpha", "mid"}])  # set order: seed-dependent
    scaled = symbol("beta") * symbol("op_000__multiplicand") + symbol("E") / 3
    equations = (
        BoundEquation.create(lhs_symbol_id="total", rhs=total, operation_kind="add",
                             source_span=span),
        BoundEquation.create(lhs_symbol_id="I", rhs=scaled, operation_kind="multiply",
                             source_span=span),
    )
    unknown = BoundUnknown(symbol_id="asked", question_span=span,
                           state_index=OperationIndex(1), question_form="total")
    graph = BindingGraph(symbols=symbols, equations=equations, unknowns=(unknown,))
    print(graph.to_canonical_string())
    print(json.dumps(graph.to_json(), sort_keys=True))
    print(check_equation(equations[0], set(symbols)).to_json())
    """
)


@pytest.mark.slow
def test_canonical_string_independent_of_hash_seed() -> None:
    """Canonical text, JSON and proofs are byte-identical under two PYTHONHASHSEED values."""
    root = Path(__file__).resolve().parents[2]
    outputs = []
    for seed in ("0", "123456789"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        done = subprocess.run(  # noqa: S603 - runs this file's constant script with this interpreter
            [sys.executable, "-c", _SEED_SCRIPT],
            capture_output=True,
            text=True,
            env=env,
            cwd=root,
            check=False,
            timeout=120,
        )
        assert done.returncode == 0, done.stderr
        outputs.append(done.stdout)
    here = io.StringIO()
    with contextlib.redirect_stdout(here):
        exec(_SEED_SCRIPT, {})  # noqa: S102 - the same constant script, in this process's hash seed
    assert outputs[0] == outputs[1] == here.getvalue()
    first_line = outputs[0].split("\n")[0]
    assert first_line == "S zeta zeta.name quantity entity=None unit=feet span=seed[0:4] by=seed"
    assert "E total := alpha + mid + zeta op=add deps=[alpha,mid,zeta]" in outputs[0]
    assert "'unit_proof': 'add: [length,length,length] -> length'" in outputs[0]


@given(binding_graphs(), st.data())
def test_verdicts_depend_only_on_their_inputs(graph: BindingGraph, data: st.DataObject) -> None:
    """A verdict is the same after the same equations were checked against other roles and units (nothing is remembered)."""
    vocab = default_vocabulary()
    variant = {
        s.symbol_id: dataclasses.replace(
            s,
            semantic_role=data.draw(st.sampled_from(["quantity", "ratio", "rate", "count", "total"])),
            unit=data.draw(_UNIT),
        )
        for s in graph.symbols
    }
    for eq in graph.equations:
        before = check_equation(eq, graph.symbol_map, vocab)
        check_equation(eq, variant, vocab)
        assert check_equation(eq, graph.symbol_map, vocab) == before
