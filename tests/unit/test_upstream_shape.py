"""``benchmarks/upstream_shape.py`` reproduces the upstream hand-rolled adapter's canonical text byte for byte.

With the upstream lexicon, every record of ``../shared/upstream/hand_rolled/adapter_canonical.jsonl``
that has a ``hand_rolled_canonical`` text is reproduced exactly, and the record whose
upstream run raised (``hand_rolled_error``) raises the same exception type with the same
message.  The single-equation check agrees with the 45 upstream verdicts
(``equation_verdicts.jsonl``), proof strings included.  With our own lexicon the
adapter runs over the 50 upstream dev graphs without failing.  Every test skips when
``../shared/upstream`` is absent.
"""

from __future__ import annotations

import builtins
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from units import BASE_DIMENSIONS

REPO = Path(__file__).resolve().parents[2]
UPSTREAM = Path(__file__).resolve().parents[3] / "shared" / "upstream"
HAND_ROLLED = UPSTREAM / "hand_rolled"
UPSTREAM_LEXICON = UPSTREAM / "en_units_v1" / "lexicon.jsonl"
OUR_LEXICON = REPO / "units" / "data" / "en_units_v1.jsonl"
DEV_CASES = UPSTREAM / "gsm8k_parser_dev" / "cases.jsonl"

if str(REPO / "benchmarks") not in sys.path:  # the benchmark helpers are scripts, not a package
    sys.path.insert(0, str(REPO / "benchmarks"))

import upstream_shape  # noqa: E402

pytestmark = pytest.mark.upstream

# No record needs an xfail: all 71 canonical texts and the one error are reproduced.


def _jsonl(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _params(path: Path) -> list[Any]:
    """One param per record, or a single ``None`` that the test skips when the upstream folder is absent."""
    if not path.is_file():
        return [pytest.param(None, id="upstream-absent")]
    return [pytest.param(record, id=str(record["id"])) for record in _jsonl(path)]


def _skip_if_absent(record: object) -> None:
    if record is None:
        pytest.skip("../shared/upstream is absent")


@pytest.fixture(scope="module")
def upstream_table() -> upstream_shape.UnitTable:
    """The unit table built from the upstream lexicon."""
    if not UPSTREAM_LEXICON.is_file():
        pytest.skip("../shared/upstream is absent")
    return upstream_shape.load_unit_table(UPSTREAM_LEXICON)


@pytest.mark.parametrize("record", _params(HAND_ROLLED / "adapter_canonical.jsonl"))
def test_reproduces_the_hand_rolled_canonical_text(
    record: dict[str, Any] | None, upstream_table: upstream_shape.UnitTable
) -> None:
    """The canonical text equals upstream's byte for byte, or the same exception is raised."""
    _skip_if_absent(record)
    assert record is not None
    if "hand_rolled_error" in record:
        name, _, message = record["hand_rolled_error"].partition(": ")
        expected = getattr(builtins, name)
        with pytest.raises(expected) as caught:
            upstream_shape.bind_upstream_shape(record["graph"], upstream_table)
        assert type(caught.value) is expected
        assert str(caught.value) == message
        return
    text = upstream_shape.bind_upstream_shape(record["graph"], upstream_table)
    assert text == record["hand_rolled_canonical"]


@pytest.mark.parametrize("record", _params(HAND_ROLLED / "equation_verdicts.jsonl"))
def test_single_equation_verdicts_match_upstream(
    record: dict[str, Any] | None, upstream_table: upstream_shape.UnitTable
) -> None:
    """The integer-exponent check gives upstream's status, proof string and refusal reason."""
    _skip_if_absent(record)
    assert record is not None
    operands = sorted((s["symbol_id"], s["semantic_role"], s["unit"]) for s in record["symbols"])
    verdict = upstream_shape.check_equation(record["operation_kind"], operands, upstream_table)
    expected = record["hand_rolled"]
    assert verdict.status == expected["status"]
    assert verdict.unit_proof == expected.get("unit_proof", "unverified")
    assert verdict.refusal == expected.get("reason")


def test_our_lexicon_binds_every_dev_graph() -> None:
    """Over our own lexicon the adapter renders each of the 50 dev graphs, with exactly one ``U`` line."""
    if not DEV_CASES.is_file():
        pytest.skip("../shared/upstream is absent")
    table = upstream_shape.load_unit_table(OUR_LEXICON)
    cases = _jsonl(DEV_CASES)
    assert len(cases) == 50
    for case in cases:
        lines = upstream_shape.bind_upstream_shape(case["ground_truth_graph"], table).splitlines()
        assert [line for line in lines if line.startswith("U ")] == [lines[-1]], case["id"]
        assert all(line[:2] in {"S ", "F ", "E ", "U "} for line in lines), case["id"]


def test_the_two_references_render_dimensions_over_the_same_axes() -> None:
    """reference_algebra renders with upstream_shape.render, which is only right while the axis orders agree."""
    assert upstream_shape.AXES == BASE_DIMENSIONS
    assert upstream_shape.render((1, -1, 0, 0, 0, 0)) == "length/time"
