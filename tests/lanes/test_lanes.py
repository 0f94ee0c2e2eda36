"""Every bundled lane scores no ``wrong`` and no ``error``; every case is its own test item."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import evals
from evals.runner import lane_cases, run_case

# Every bundled case is a test item of its own through our pytest plugin (pyproject's bgverify_lanes);
# these tests check the lane files' shape and the runner.


def test_soundness_lane_is_bundled_and_large() -> None:
    """The soundness lane runs with the others and has at least 40 cases, answers as well as refusals."""
    cases = lane_cases("soundness")
    assert len(cases) >= 40
    kinds = {("answer" if "answer" in c["expect"] else "refusal") for c in cases}  # type: ignore[operator]
    assert kinds == {"answer", "refusal"}


NUMBER_FIELDS = {"value", "factor", "numerator", "denominator", "delta", "divisor"}


def _as_floats(node: object, counter: list[int]) -> object:
    """The case as a reader's ``as_json()`` writes it: decimal strings in number fields become Python floats."""
    if isinstance(node, dict):
        out: dict[object, object] = {}
        for key, value in node.items():
            digits = value.replace(".", "", 1).lstrip("-") if isinstance(value, str) else ""
            if key in NUMBER_FIELDS and digits.isdigit() and len(digits.strip("0")) <= 15:  # what a float can hold
                counter.append(1)
                out[key] = float(value)
            else:
                out[key] = _as_floats(value, counter)
        return out
    if isinstance(node, list):
        return [_as_floats(x, counter) for x in node]
    return node


@pytest.mark.parametrize("lane", ["graphs", "soundness", "relational"])
def test_lanes_with_python_floats_score_the_same(lane: str) -> None:
    """A lane read by ``json.loads``, its decimal strings turned into floats, scores as it does read exactly.

    Numbers then arrive as Python floats and ints, as a reader's ``as_json()`` gives them
    in process (SPEC §4 "Numbers": a float is the decimal of its shortest repr).
    """
    path = Path(evals.__file__).parent / "lanes" / f"{lane}.jsonl"
    counter: list[int] = []
    plain = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    plain = [_as_floats(c, counter) if c.get("format") in ("math_graph", "relational") else c for c in plain]
    exact = lane_cases(lane)
    assert [c["id"] for c in plain] == [c["id"] for c in exact]
    for a, b in zip(plain, exact, strict=True):
        assert run_case(lane, a).outcome == run_case(lane, b).outcome, a["id"]
    if lane == "graphs":
        assert len(counter) >= 5  # the lane's decimals (0.2, 2.5, ...) really went in as floats
