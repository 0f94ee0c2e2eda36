"""``benchmarks.pipeline.record_floor`` rebuilds exactly the records the pipeline returns for a graph.

The floor is a diagnostic beside ``pipeline_us`` (issue #13): what building the output
records again costs, with no logic.  These tests pin *which* records it counts, on a
graph small enough to count by hand.  They run in a child interpreter: the benchmarks
are scripts importing one another as the ``benchmarks`` package, which the type-checked
tests import only as scripts (as ``tests/unit/test_bench_memos.py`` does).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

SAM = json.dumps(
    {
        "entities": ["Sam"],
        "initial_state": [{"entity": "Sam", "quantity": {"value": 5, "unit": "apples"}}],
        "operations": [{"kind": "add", "actor": "Sam", "operand": {"value": 3, "unit": "apples"}}],
        "unknown": {"entity": "Sam", "unit": "apples"},
    }
)
"""Sam has 5 apples and gets 3 more; how many apples does Sam have?"""

BY_HAND = {
    # read: the typed graph, its possession, operation, unknown, and the two quantities
    "MathProblemGraph": 1,
    "InitialPossession": 1,
    "Operation": 1,
    "Unknown": 1,
    "Quantity": 2,
    # bind: entity, t0 state, the add's result and the unknown; one span per distinct label
    # (the fact shares its state's span, the equation its result's); one fact, one equation
    "BindingGraph": 1,
    "SymbolBinding": 4,
    "SourceSpanLink": 4,
    "BoundFact": 1,
    "BoundEquation": 1,
    "BoundUnknown": 1,
    # verify: the add's verdict and proof, two values (5 and 8), three trace steps
    # (the fact, the equation, the answer) and the answer
    "GraphReport": 1,
    "Verdict": 1,
    "UnitProof": 1,
    "Value": 2,
    "TraceStep": 3,
    "Answer": 1,
}

_PROGRAM = """
import collections, json, sys
import units
from adapters import bind_math_problem_graph, graph_from_dict, read_json
from benchmarks.pipeline import _records, record_floor
from verifier import verify
text = sys.argv[1]
vocab = units.default_vocabulary().with_count_nouns({"apples": "apple"})
graph = graph_from_dict(read_json(text))
bound = bind_math_problem_graph(graph, vocab)
report = verify(bound, vocab)
(answer,) = report.answers.values()
found, seen = [], set()
for root in (graph, bound, report):
    _records(root, found, seen)
print(json.dumps({
    "answer": [str(answer.value), answer.unit],
    "classes": collections.Counter(type(r).__name__ for r in found),
    "floor": record_floor([text, text], vocab, 3),
}))
"""


@pytest.fixture(scope="module")
def child() -> dict[str, object]:
    """The child interpreter's answer, record classes and floor for :data:`SAM`."""
    proc = subprocess.run(  # noqa: S603 - the current interpreter on a fixed program
        [sys.executable, "-c", _PROGRAM, SAM], capture_output=True, text=True, cwd=REPO, timeout=120, check=False
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    result: dict[str, object] = json.loads(proc.stdout)
    return result


@pytest.mark.slow
def test_the_records_of_one_graph_are_the_ones_counted_by_hand(child: dict[str, object]) -> None:
    """Every record of ours reachable from the typed graph, the binding graph and the report, each object once."""
    assert child["answer"] == ["8", "apples"]
    assert child["classes"] == BY_HAND


@pytest.mark.slow
def test_record_floor_reports_the_count_and_a_time_per_round(child: dict[str, object]) -> None:
    """``records_per_graph`` is the hand count; each round gives a positive time, and the median is one of them."""
    floor = child["floor"]
    assert isinstance(floor, dict)
    assert floor["records_per_graph"] == sum(BY_HAND.values()) == 27
    rounds = floor["rounds_us"]
    assert len(rounds) == 3
    assert all(t > 0 for t in rounds)
    assert floor["median_us"] == sorted(rounds)[1]
