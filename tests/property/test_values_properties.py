"""Properties of ``verifier.verify`` on random forward-substitutable graphs (SPEC §4, §8).

The reference is a direct computation written here: each entity's holding of
each count noun, updated operation by operation (an untouched holding starts at
0).  verify must agree with it exactly, refuse exactly when it goes negative,
ignore the order of symbols and facts, and print the same bytes every run.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from adapters import MathGraphError, bind_math_problem_graph, graph_from_dict
from units import UnitVocabulary, default_vocabulary
from verifier import Answer, BindingGraph, Refusal, verify

ENTITIES = ("Ann", "Bo", "Cy")
NOUNS = ("apples", "marbles")
VOCAB: UnitVocabulary = default_vocabulary().with_count_nouns({"apples": "apple", "marbles": "marble"})
ROOT = Path(__file__).resolve().parents[2]


@dataclass
class Direct:
    """The reference: holdings by (entity, noun), and why each holding is refused (if it is)."""

    held: dict[tuple[str, str], int] = field(default_factory=dict)
    refused: dict[tuple[str, str], str | None] = field(default_factory=dict)
    unset: bool = False  # an operation read a holding never set (binding must refuse: state_unset)

    def apply(self, op: dict[str, object]) -> None:
        """Apply one JSON operation."""
        actor, kind = str(op["actor"]), op["kind"]
        operand = op["operand"]
        assert isinstance(operand, dict)
        noun, value = str(operand["unit"]), int(operand["value"])
        key = (actor, noun)
        if kind == "multiply":
            if key not in self.held:
                self.unset = True
                return
            self.set(key, self.held[key] * value)
        elif kind == "add":
            self.set(key, self.held.get(key, 0) + value)
        elif kind in ("subtract", "transfer"):
            self.set(key, self.held.get(key, 0) - value)
            if kind == "transfer":
                target = (str(op["target"]), noun)
                self.set(target, self.held.get(target, 0) + value)

    def set(self, key: tuple[str, str], value: int) -> None:
        """Record a new holding: once refused it stays refused for its root cause; negative_count when it goes below 0."""
        if not self.refused.get(key):
            self.refused[key] = "negative_count" if value < 0 else None
        self.held[key] = value


@st.composite
def forward_graphs(draw: st.DrawFn) -> dict[str, object]:
    """A math problem graph of small integers: adds, subtracts, multiplies and transfers over 1-3 entities."""
    entities = list(ENTITIES[: draw(st.integers(1, 3))])
    keys = draw(st.lists(st.tuples(st.sampled_from(entities), st.sampled_from(NOUNS)), unique=True, max_size=4))
    initial = [{"entity": e, "quantity": {"unit": n, "value": draw(st.integers(0, 20))}} for e, n in keys]
    kinds = ["add", "subtract", "multiply"] + (["transfer"] if len(entities) > 1 else [])
    operations = []
    for _ in range(draw(st.integers(0, 6))):
        kind = draw(st.sampled_from(kinds))
        actor = draw(st.sampled_from(entities))
        value = draw(st.integers(0, 4) if kind == "multiply" else st.integers(0, 12))
        op: dict[str, object] = {
            "actor": actor,
            "kind": kind,
            "operand": {"unit": draw(st.sampled_from(NOUNS)), "value": value},
        }
        if kind == "transfer":
            op["target"] = draw(st.sampled_from([e for e in entities if e != actor]))
        operations.append(op)
    unknown = {
        "entity": draw(st.sampled_from([*entities, None])),
        "unit": draw(st.sampled_from(NOUNS)),
    }
    return {
        "entities": entities,
        "initial_state": initial,
        "operations": operations,
        "unknown": unknown,
    }


def direct(data: dict[str, object]) -> Direct:
    """Run the reference over a JSON graph."""
    ref = Direct()
    for poss in data["initial_state"]:  # type: ignore[attr-defined]
        ref.set((poss["entity"], poss["quantity"]["unit"]), poss["quantity"]["value"])
    for op in data["operations"]:  # type: ignore[attr-defined]
        ref.apply(op)
    return ref


def bind(data: dict[str, object]) -> BindingGraph | MathGraphError:
    """Bind, returning the MathGraphError instead of raising it."""
    try:
        return bind_math_problem_graph(graph_from_dict(data), VOCAB)
    except MathGraphError as exc:
        return exc


def answer_json(graph: BindingGraph) -> str:
    """The answers of a graph as canonical JSON text."""
    report = verify(graph, VOCAB)
    return json.dumps({k: v.to_json() for k, v in report.answers.items()}, sort_keys=True)


@given(forward_graphs())
def test_verify_agrees_with_direct_computation(data: dict[str, object]) -> None:
    """Verify answers what the direct computation gives, and refuses every answer when any holding went negative."""
    ref = direct(data)
    bound = bind(data)
    if ref.unset:
        assert isinstance(bound, MathGraphError)
        assert bound.reason == "state_unset"
        return
    assert isinstance(bound, BindingGraph), bound
    (result,) = verify(bound, VOCAB).answers.values()
    unknown = data["unknown"]
    assert isinstance(unknown, dict)
    noun = unknown["unit"]
    owners = [unknown["entity"]] if unknown["entity"] is not None else list(data["entities"])  # type: ignore[call-overload]
    keys = [(o, noun) for o in owners if (o, noun) in ref.held]
    if any(ref.refused.values()):  # certification: a negative count anywhere refuses every answer
        assert isinstance(result, Refusal), result
        assert result.reason == "negative_count"
    elif not keys:
        assert isinstance(result, Refusal)
        assert result.reason == "state_unset"
    else:
        assert isinstance(result, Answer), result
        assert result.value == sum(ref.held[k] for k in keys)
        assert result.unit == noun


@given(forward_graphs(), st.randoms(use_true_random=False))
def test_symbol_and_fact_order_never_changes_an_answer(data: dict[str, object], rnd: object) -> None:
    """Rebuilding the binding graph with its symbols and facts permuted gives the same answers."""
    bound = bind(data)
    if not isinstance(bound, BindingGraph):
        return
    symbols, facts = list(bound.symbols), list(bound.facts)
    rnd.shuffle(symbols)  # type: ignore[attr-defined]
    rnd.shuffle(facts)  # type: ignore[attr-defined]
    permuted = BindingGraph(
        symbols=tuple(symbols),
        facts=tuple(facts),
        equations=bound.equations,
        unknowns=bound.unknowns,
    )
    ours, theirs = verify(bound, VOCAB), verify(permuted, VOCAB)
    for name, result in ours.answers.items():
        other = theirs.answers[name]
        assert type(other) is type(result)
        if isinstance(result, Answer):
            assert other == result
        else:  # a total reports the first refused owner, in the graph's entity order
            assert isinstance(other, Refusal)
            assert other.reason == result.reason or bound.symbol(name).entity is None
    assert {k: v.magnitude for k, v in ours.values.items()} == {k: v.magnitude for k, v in theirs.values.items()}
    assert {k: r.reason for k, r in ours.refusals.items()} == {k: r.reason for k, r in theirs.refusals.items()}


@given(forward_graphs())
def test_reports_are_byte_identical_across_runs(data: dict[str, object]) -> None:
    """Verifying the same graph twice (bound twice) gives byte-identical answers and to_json() text."""
    first, second = bind(data), bind(data)
    if not isinstance(first, BindingGraph):
        assert isinstance(second, MathGraphError)
        assert (second.reason, second.path) == (first.reason, first.path)
        return
    assert isinstance(second, BindingGraph)
    one, two = verify(first, VOCAB), verify(second, VOCAB)
    assert json.dumps(one.to_json()) == json.dumps(two.to_json())
    assert repr(one) == repr(two)
    assert answer_json(first) == answer_json(second)


@given(forward_graphs())
def test_replay_reproduces_answers(data: dict[str, object]) -> None:
    """Every report's trace replays to its answers exactly."""
    bound = bind(data)
    if not isinstance(bound, BindingGraph):
        return
    report = verify(bound, VOCAB)
    replayed = report.replay()
    for name, result in report.answers.items():
        if isinstance(result, Answer):
            assert replayed[name] == Fraction(int(result.value.p), int(result.value.q))


_SCRIPT = textwrap.dedent(
    """
    import hashlib, json
    from adapters import bind_math_problem_graph, bind_relations, graph_from_dict, parse_canonical_text
    from units import default_vocabulary
    from verifier import verify
    vocab = default_vocabulary().with_count_nouns({"apples": "apple", "sections": "section"})
    graphs = [
        bind_math_problem_graph(graph_from_dict({
            "entities": ["Sam", "Kim", "Ann"],
            "initial_state": [{"entity": "Sam", "quantity": {"unit": "apples", "value": 9}},
                              {"entity": "Ann", "quantity": {"unit": "feet", "value": 100}},
                              {"entity": "Kim", "quantity": {"unit": "minutes", "value": 90}}],
            "operations": [{"actor": "Sam", "kind": "transfer", "target": "Kim", "operand": {"unit": "apples", "value": 4}},
                           {"actor": "Ann", "kind": "add", "operand": {"unit": "inches", "value": 9}},
                           {"actor": "Ann", "kind": "unit_partition", "operand": {"value": 25, "unit": "feet", "result_unit": "sections"}},
                           {"actor": "Kim", "kind": "apply_rate", "operand": {"value": 15, "numerator_unit": "dollars", "denominator_unit": "hours"}},
                           {"actor": "Sam", "kind": "subtract", "operand": {"unit": "apples", "value": 7}}],
            "unknown": {"entity": None, "unit": "dollars"}}), vocab),
        bind_relations([{"kind": "more_than", "entity": "nia", "ref": "omar", "delta": 9},
                        {"kind": "sum_of", "entity": "both", "parts": ["nia", "omar"]},
                        {"kind": "fact", "entity": "both", "value": 25}], {"entity": "omar", "unit": "apples"}),
    ]
    graphs.append(parse_canonical_text(graphs[0].to_canonical_string())[0])
    out = []
    for g in graphs:
        report = verify(g, vocab)
        out.append(g.to_canonical_string())
        out.append(json.dumps(report.to_json()))
        out.append(repr(report))
    print(hashlib.sha256("\\n".join(out).encode()).hexdigest())
    print(out[1][:200])
    """
)


@pytest.mark.slow
@pytest.mark.parametrize("seeds", [("0", "1", "4242")])
def test_output_is_identical_across_hash_seeds(seeds: tuple[str, ...]) -> None:
    """Canonical strings and report JSON are byte-identical whatever PYTHONHASHSEED is."""
    outputs = []
    for seed in seeds:
        env = {**os.environ, "PYTHONHASHSEED": seed}
        done = subprocess.run(  # noqa: S603 - our own interpreter running our own script
            [sys.executable, "-c", _SCRIPT],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert done.returncode == 0, done.stderr
        outputs.append(done.stdout)
    assert len(set(outputs)) == 1
    assert len(outputs[0].splitlines()[0]) == 64
