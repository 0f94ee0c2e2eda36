"""Every bundled lane scores no ``wrong`` and no ``error``; every case is its own test item."""

from __future__ import annotations

import pytest

from evals.runner import LANES, lane_cases, run_case

CASES = [(lane, case) for lane in LANES for case in lane_cases(lane)]


@pytest.mark.parametrize(("lane", "case"), CASES, ids=[f"{lane}::{case['id']}" for lane, case in CASES])
def test_lane_case_is_not_wrong(lane: str, case: dict[str, object]) -> None:
    """A bundled case is correct or refused; a wrong answer or an error fails, naming expected and found."""
    result = run_case(lane, case)
    assert result.outcome not in ("wrong", "error"), f"{result.case_id}: expected {result.expected}, got {result.got}"


def test_soundness_lane_is_bundled_and_large() -> None:
    """The soundness lane runs with the others and has at least 40 cases, answers as well as refusals."""
    cases = lane_cases("soundness")
    assert len(cases) >= 40
    kinds = {("answer" if "answer" in c["expect"] else "refusal") for c in cases}  # type: ignore[operator]
    assert kinds == {"answer", "refusal"}
