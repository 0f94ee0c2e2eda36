"""evals.score and the Scoreboard: outcomes, rows, JSON identical in process, on a pool and on Dask (SPEC §9)."""

from __future__ import annotations

import io
import itertools
import json
from collections.abc import Iterable, Iterator, Mapping
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

import evals
from adapters.corpus import RecordsError, read_records
from evals.scoreboard import ROW_FIELDS, Scoreboard
from evals.scoring import CaseResult
from units import UnitVocabulary, default_vocabulary
from units.lexicon import CONVERSIONS_FILE, LEXICON_FILE
from verifier.cli import main

GRAPH: dict[str, Any] = {
    "entities": ["Sam"],
    "initial_state": [{"entity": "Sam", "quantity": {"unit": "apples", "value": 5}}],
    "operations": [{"actor": "Sam", "kind": "add", "operand": {"unit": "apples", "value": "1/2"}}],
    "unknown": {"entity": "Sam", "unit": "apples"},
}
CORPUS: list[dict[str, Any]] = [
    {"id": "right", "ground_truth_graph": {**GRAPH, "operations": []}, "expected_answer": 5, "expected_unit": "apples"},
    {"id": "wrong", "ground_truth_graph": {**GRAPH, "operations": []}, "expected_answer": 6, "expected_unit": "apples"},
    {"id": "halved", "ground_truth_graph": GRAPH, "expected_answer": "11/2", "expected_unit": "apples"},
    {"id": "refused", "format": "math_graph", "input": GRAPH, "expect": {"refusal": "unknown_unit"}},
]


def corpus(tmp_path: Path, copies: int = 1) -> Path:
    """Write ``copies`` of CORPUS (ids suffixed by copy) and one line that is not JSON; return the file's path."""
    path = tmp_path / "corpus.jsonl"
    lines = [json.dumps({**r, "id": f"{r['id']}-{i}"}) for i in range(copies) for r in CORPUS]
    path.write_text("\n".join([*lines, "not json"]) + "\n", encoding="utf-8")
    return path


def test_outcomes_rows_and_reasons(tmp_path: Path) -> None:
    """Each case lands in its outcome; rows keep exact values as text plus numerator and denominator."""
    board = evals.score(corpus(tmp_path), count_nouns="auto")
    assert board.counts == {
        "correct": 1,
        "wrong": 1,
        "refused_expected": 0,
        "refused_unexpected": 2,  # 5 + 1/2 apples is no whole count (twice: 'halved' and 'refused')
        "error": 1,  # the line that is not JSON
    }
    assert board.counts_by_reason == {"non_integer_count": {"expected": 0, "unexpected": 2}}
    rows = board.rows()
    assert list(rows[0]) == list(ROW_FIELDS)
    assert rows[1]["outcome"] == "wrong"
    assert (rows[1]["value"], rows[1]["numerator"], rows[1]["denominator"], rows[1]["unit"]) == ("5", 5, 1, "apples")
    assert board.cases("error")[-1]["where"] == "corpus.jsonl:5"
    assert not board.ok
    with pytest.raises(ValueError, match="outcome must be one of"):
        board.cases("nope")


def test_declared_counts_and_refusal_reasons(tmp_path: Path) -> None:
    """Under declared nouns the undeclared 'apples' is refused: expected where the gold says so."""
    board = evals.score(corpus(tmp_path))
    assert board.counts["refused_expected"] == 1
    assert board.counts_by_reason["unknown_unit"]["expected"] == 1
    assert board.counts_by_reason["unknown_unit"]["unexpected"] == 3


def test_a_pool_gives_byte_identical_json(tmp_path: Path) -> None:
    """processes=2 scores the same board, in the same order, as one process."""
    path = corpus(tmp_path, copies=100)  # several batches
    one = json.dumps(evals.score(path, count_nouns="auto").to_json(), sort_keys=True)
    two = json.dumps(evals.score(path, count_nouns="auto", processes=2).to_json(), sort_keys=True)
    assert one == two


@pytest.mark.slow
def test_dask_gives_byte_identical_json(tmp_path: Path) -> None:
    """A Dask LocalCluster started here scores the same board as one process."""
    distributed = pytest.importorskip("dask.distributed")
    path = corpus(tmp_path, copies=100)
    one = json.dumps(evals.score(path, count_nouns="auto").to_json(), sort_keys=True)
    with (
        distributed.LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None) as cluster,
        distributed.Client(cluster) as client,
    ):
        on_dask = json.dumps(evals.score(path, count_nouns="auto", scheduler=client).to_json(), sort_keys=True)
    assert one == on_dask


def test_to_pandas_keeps_exact_values(tmp_path: Path) -> None:
    """Exact values are strings; numerator and denominator are integer columns."""
    pytest.importorskip("pandas")
    frame = evals.score(corpus(tmp_path), count_nouns="auto").to_pandas()
    assert list(frame.columns) == list(ROW_FIELDS)
    assert str(frame["numerator"].dtype) == "Int64"
    assert frame.loc[frame["id"] == "wrong-0", "value"].item() == "5"


def test_html_repr_shows_counts_and_the_bad_cases(tmp_path: Path) -> None:
    """The notebook view is a table of outcomes, refusals and the wrong cases."""
    html = evals.score(corpus(tmp_path), count_nouns="auto")._repr_html_()
    assert "<th>wrong</th>" in html
    assert "<td>wrong-0</td>" in html


def test_bad_arguments() -> None:
    """Bad options are ValueErrors naming them."""
    for kwargs in (
        {"count_nouns": "some"},
        {"policy": "floor"},
        {"processes": 0},
        {"processes": 2, "scheduler": object()},
    ):
        with pytest.raises(ValueError, match=r"count_nouns|policy|processes"):
            evals.score([], **kwargs)
    assert evals.score([]).total == 0
    assert isinstance(evals.score([]), Scoreboard)


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        # a vocab that is no vocabulary had refused every case: a board of refused_unexpected a wrong == 0 gate passes
        ({"vocab": "x"}, ValueError, "vocab must be a UnitVocabulary or None, found str"),
        ({"vocab": {}}, ValueError, "vocab must be a UnitVocabulary or None, found dict"),  # had been the default
        ({"processes": 10**9}, ValueError, "processes must be an int from 1 to 256"),
        ({"progress": 5}, TypeError, "progress must be a callable"),
        ({"progress": lambda _results: None}, TypeError, "progress must return an iterable"),
    ],
)
def test_arguments_are_checked_before_any_record(
    kwargs: dict[str, object], error: type[Exception], message: str
) -> None:
    """Score refuses an argument of the wrong type up front, naming it."""
    with pytest.raises(error, match=message):
        evals.score(read_records(json.dumps(CORPUS[0])), **kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("progress", "message"),
    [
        (lambda results: itertools.islice(results, 1), "it stopped before the results did"),
        (lambda results: (r for result in results for r in (result, result)), "it repeated or replaced one"),
        (lambda results: reversed(list(results)), "it repeated or replaced one"),
    ],
)
def test_a_progress_wrapper_must_pass_every_result_once(progress: object, message: str) -> None:
    """A progress wrapper that drops, repeats or reorders results is a RuntimeError, not a board of other cases."""
    records = list(read_records("\n".join(json.dumps(case) for case in CORPUS)))
    assert len(records) > 1
    with pytest.raises(RuntimeError, match=message):
        evals.score(records, progress=progress)  # type: ignore[arg-type]
    assert evals.score(records, progress=lambda results: results).total == len(records)


def _swallows(results: Iterable[CaseResult]) -> Iterator[CaseResult]:
    """A progress wrapper that ends quietly when reading the results raises."""
    try:
        yield from results
    except Exception:  # noqa: BLE001 -- the misbehaviour under test
        return


def test_a_progress_wrapper_that_swallows_an_error_is_caught() -> None:
    """A wrapper that swallows the corpus's own error leaves a partial board: a RuntimeError, not ok=True."""
    lines = [json.dumps(CORPUS[0]), "not json"]
    with pytest.raises(RuntimeError, match="it stopped before the results did"):
        evals.score(read_records("\n".join(lines) + "\n"), progress=_swallows)


def test_an_empty_board_passes_no_gate() -> None:
    """A board of no case is not ok (an empty corpus passes no gate); one correct case is."""
    assert not evals.score([]).ok
    assert evals.score(read_records(json.dumps(CORPUS[0]))).ok


def test_score_command(tmp_path: Path) -> None:
    """Bgverify score: tables and the first wrong case, exit 1; --json and --rows write the board; 2 for usage."""
    path = corpus(tmp_path)
    out = io.StringIO()
    assert main(["score", str(path), "--count-nouns", "auto"], out=out) == 1
    text = out.getvalue()
    assert "wrong wrong-0 (corpus.jsonl:2): expected 6 apples; found 5 apples" in text
    rows = tmp_path / "rows.jsonl"
    out = io.StringIO()
    assert main(["score", str(path), "--count-nouns", "auto", "--json", "--rows", str(rows)], out=out) == 1
    assert json.loads(out.getvalue())["counts"]["wrong"] == 1
    assert len(rows.read_text().splitlines()) == 5
    assert main(["score", str(tmp_path / "absent.jsonl")], out=io.StringIO()) == 2
    good = tmp_path / "good.jsonl"
    good.write_text(json.dumps(CORPUS[0]) + "\n")
    assert main(["score", str(good), "--count-nouns", "auto", "--processes", "2"], out=io.StringIO()) == 0


def test_dev_set_scores_fifty_correct(upstream: Path) -> None:
    """The upstream dev set under --count-nouns auto: 50 correct, in process and on a pool."""
    path = upstream / "gsm8k_parser_dev" / "cases.jsonl"
    one = evals.score(path, count_nouns="auto")
    assert one.counts["correct"] == 50
    assert one.to_json() == evals.score(path, count_nouns="auto", processes=2).to_json()


def test_streamed_json_parses_to_the_board(tmp_path: Path) -> None:
    """write_json (what score --json prints) parses back to exactly to_json()."""
    board = evals.score(corpus(tmp_path, copies=3), count_nouns="auto")
    out = io.StringIO()
    board.write_json(out)
    assert json.loads(out.getvalue()) == board.to_json()
    empty = io.StringIO()
    evals.score([]).write_json(empty)
    assert json.loads(empty.getvalue()) == evals.score([]).to_json()


def test_score_command_on_dask_prints_the_same_json(tmp_path: Path) -> None:
    """Bgverify score --dask ADDRESS gives the same --json as one process."""
    distributed = pytest.importorskip("dask.distributed")
    path = corpus(tmp_path, copies=3)
    one = io.StringIO()
    main(["score", str(path), "--count-nouns", "auto", "--json"], out=one)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, dashboard_address=None) as cluster:
        on_dask = io.StringIO()
        main(["score", str(path), "--count-nouns", "auto", "--json", "--dask", cluster.scheduler_address], out=on_dask)
    assert on_dask.getvalue() == one.getvalue()


def _one(tmp_path: Path, record: Mapping[str, object]) -> dict[str, object]:
    path = tmp_path / "one.jsonl"
    path.write_text(json.dumps(record) + "\n", encoding="utf-8")
    (row,) = evals.score(path, count_nouns="auto").rows()
    return row


def test_bad_gold_is_an_error_not_a_wrong_answer_or_an_excused_refusal(tmp_path: Path) -> None:
    """A misspelt expected refusal, a gold unit that is no unit, or a malformed answer: error, naming the record."""
    graph = {**GRAPH, "operations": []}
    misspelt = _one(
        tmp_path, {"id": "m", "format": "math_graph", "input": graph, "expect": {"refusal": "unknown_units"}}
    )
    assert (misspelt["id"], misspelt["outcome"]) == ("m", "error")
    assert "is not a refusal name" in str(misspelt["cause"])
    typo = _one(tmp_path, {"id": "t", "ground_truth_graph": graph, "expected_answer": 5, "expected_unit": "appls"})
    assert typo["outcome"] == "error"
    assert "the gold unit 'appls' is not a unit" in str(typo["cause"])
    text = _one(tmp_path, {"id": "x", "format": "math_graph", "input": graph, "expect": {"answer": "5 apples"}})
    assert (text["id"], text["outcome"]) == ("x", "error")


def test_an_answer_in_another_unit_is_wrong_because_of_the_unit(tmp_path: Path) -> None:
    """60 inches of gold against an answer of 5 feet: wrong, and the cause says the unit differs."""
    feet = {
        "entities": ["Ana"],
        "initial_state": [{"entity": "Ana", "quantity": {"unit": "feet", "value": 5}}],
        "operations": [],
        "unknown": {"entity": "Ana", "unit": "feet"},
    }
    row = _one(tmp_path, {"id": "u", "ground_truth_graph": feet, "expected_answer": 60, "expected_unit": "inches"})
    assert row["outcome"] == "wrong"
    assert row["cause"] == "the unit differs (feet vs inches)"


def test_score_command_usage(tmp_path: Path) -> None:
    """An empty file is exit 2; --count-noun declares for every record; --count-noun is never read as --count-nouns."""
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    assert main(["score", str(empty)], out=io.StringIO()) == 2
    path = tmp_path / "good.jsonl"
    path.write_text(json.dumps(CORPUS[0]) + "\n")
    out = io.StringIO()
    assert main(["score", str(path), "--count-noun", "apples=apple", "--json"], out=out) == 0
    assert json.loads(out.getvalue())["counts"]["correct"] == 1


def test_a_pool_fed_by_a_raising_reader_raises_instead_of_hanging(tmp_path: Path) -> None:
    """read_records' RecordsError crosses the pool (it pickles), so processes=2 raises as processes=1 does."""
    path = tmp_path / "mixed.jsonl"
    path.write_text(json.dumps(CORPUS[0]) + "\n{bad\n", encoding="utf-8")
    for processes in (1, 2):
        with pytest.raises(RecordsError):
            evals.score(read_records(path), count_nouns="auto", processes=processes)


def test_a_vocabulary_a_worker_cannot_rebuild_is_refused_for_a_pool(tmp_path: Path) -> None:
    """A vocabulary from another lexicon is scored in process only; processes=2 would silently use the default."""
    data = resources.files("units").joinpath("data")
    rows = [
        r for r in data.joinpath(LEXICON_FILE).read_text(encoding="utf-8").splitlines() if '"surface": "ft"' not in r
    ]
    (tmp_path / LEXICON_FILE).write_text("\n".join(rows) + "\n", encoding="utf-8")
    (tmp_path / CONVERSIONS_FILE).write_text(
        data.joinpath(CONVERSIONS_FILE).read_text(encoding="utf-8"), encoding="utf-8"
    )
    other = UnitVocabulary.from_lexicon(tmp_path / LEXICON_FILE, tmp_path / CONVERSIONS_FILE)
    with pytest.raises(ValueError, match="default vocabulary plus declarations"):
        evals.score([], vocab=other, processes=2)
    declared = evals.score([], vocab=evals_default().with_count_nouns({"apples": "apple"}), processes=2)
    assert declared.total == 0


def evals_default() -> UnitVocabulary:
    """The default vocabulary, the one a worker process can rebuild."""
    return default_vocabulary()


def test_a_lane_input_holding_a_second_graph_or_the_wrong_format_is_an_error(tmp_path: Path) -> None:
    """An input with an inner 'graph' beside its own, or a math graph labelled relational, is not scored as a refusal."""
    inner = {**GRAPH, "graph": {**GRAPH, "operations": []}}
    two = _one(
        tmp_path, {"id": "two", "format": "math_graph", "input": inner, "expect": {"answer": "5", "unit": "apples"}}
    )
    assert two["outcome"] in ("error", "refused_unexpected")
    assert "one graph" in str(two["cause"])
    labelled = {"id": "lab", "format": "relational", "input": GRAPH, "expect": {"refusal": "malformed_input"}}
    row = _one(tmp_path, labelled)
    assert row["outcome"] == "error"
    assert "its format is 'relational' but its input is a math_graph record" in str(row["cause"])


def test_an_empty_file_among_several_is_a_usage_error(tmp_path: Path) -> None:
    """Bgverify score good.jsonl empty.jsonl names the empty file (exit 2) instead of skipping it."""
    good = tmp_path / "good.jsonl"
    good.write_text(json.dumps(CORPUS[0]) + "\n")
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n")
    assert main(["score", str(good), str(empty), "--count-nouns", "auto"], out=io.StringIO()) == 2
