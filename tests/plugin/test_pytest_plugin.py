"""The bgverify pytest plugin, run in throw-away projects with pytester (SPEC §9)."""

from __future__ import annotations

import json

import pytest
import sympy  # noqa: F401 - loaded before any pytester run: one unloaded after a run would leave our caches holding its numbers

import evals.scoring  # noqa: F401 - imported here, so pytester's in-process runs never unload what scoring loads
import units

# pint loads numpy and dask when they are installed; a module a pytester run imported first is unloaded
# after it, and unloading those breaks importlib.metadata for the next run.  Loading them here keeps them.
units.default_vocabulary()

pytestmark = pytest.mark.filterwarnings("ignore::pytest.PytestAssertRewriteWarning")

GRAPH = {
    "entities": ["Sam"],
    "initial_state": [{"entity": "Sam", "quantity": {"unit": "apples", "value": 5}}],
    "operations": [{"actor": "Sam", "kind": "add", "operand": {"unit": "apples", "value": 3}}],
    "unknown": {"entity": "Sam", "unit": "apples"},
}
NOUNS: dict[str, object] = {"count_nouns": {"apples": "apple"}}


def case(case_id: str, expect: dict[str, object], *, vocab: dict[str, object] | None = NOUNS) -> str:
    """One lane line: the apples graph under ``case_id`` with its expectation and, unless None, its vocab."""
    record: dict[str, object] = {"id": case_id, "format": "math_graph", "input": GRAPH, "expect": expect}
    if vocab is not None:
        record["vocab"] = vocab
    return json.dumps(record)


def lane(pytester: pytest.Pytester, *lines: str, name: str = "lanes/cases.jsonl") -> None:
    """Write ``lines`` as a JSONL lane file at ``name`` under the pytester folder."""
    path = pytester.path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def ini(pytester: pytest.Pytester, *options: str) -> None:
    """Write a pytest.ini holding ``options``, one a line."""
    pytester.makeini("[pytest]\n" + "\n".join(options) + "\n")


def test_each_case_is_an_item_and_the_summary_counts_them(pytester: pytest.Pytester) -> None:
    """A correct answer and an expected refusal pass, an unexpected refusal is xfail (the default); ids are path::id."""
    ini(pytester, "bgverify_lanes = lanes/*.jsonl")
    lane(
        pytester,
        case("right", {"answer": "8", "unit": "apples"}),
        case("refused-as-expected", {"refusal": "unknown_unit"}, vocab=None),
        case("refused-unexpectedly", {"answer": "8", "unit": "apples"}, vocab=None),
    )
    result = pytester.runpytest("-v", "-ra")
    result.assert_outcomes(passed=2, xfailed=1)
    result.stdout.fnmatch_lines(
        [
            "*lanes/cases.jsonl::right PASSED*",
            "*lanes/cases.jsonl::refused-as-expected PASSED*",
            "*lanes/cases.jsonl::refused-unexpectedly XFAIL*",
            "*= bgverify lanes =*",
            "lane*correct*wrong*refused as expected*refused unexpectedly*error",
            "lanes/cases.jsonl*1*0*1*1*0",
        ]
    )
    assert result.ret == 0


def test_a_planted_wrong_answer_fails_with_expected_found_and_trace(pytester: pytest.Pytester) -> None:
    """A wrong gold turns the run red, naming the case, the expected and found values with units and the trace."""
    ini(pytester, "bgverify_lanes = lanes/*.jsonl")
    lane(pytester, case("planted", {"answer": "9", "unit": "apples"}))
    result = pytester.runpytest()
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            "*bgverify case planted (cases.jsonl:1): wrong*",
            "*expected: 9 apples*",
            "*found:    8 apples*",
            "*cause:    the value differs*",
            "*trace:*",
            "*op_000_result: admitted add*= 8 apples*",
            "*answer unknown_sam_apples: 8 apples*",
            "FAILED lanes/cases.jsonl::planted*",
        ]
    )
    assert result.ret == 1


def test_unexpected_refusal_option(pytester: pytest.Pytester) -> None:
    """bgverify_unexpected_refusal = fail fails it with the root cause; pass lets it pass; the flag overrides the ini."""
    lane(pytester, case("refused", {"answer": "8", "unit": "apples"}, vocab=None))
    ini(pytester, "bgverify_lanes = lanes/*.jsonl", "bgverify_unexpected_refusal = fail")
    result = pytester.runpytest()
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*refused unexpectedly*", "*found:    refusal unknown_unit*", "*cause:*apples*"])
    pytester.runpytest("--bgverify-unexpected-refusal", "pass").assert_outcomes(passed=1)


def test_count_nouns_auto(pytester: pytest.Pytester) -> None:
    """With bgverify_count_nouns = auto, a case without declarations is answered."""
    lane(pytester, case("auto", {"answer": "8", "unit": "apples"}, vocab=None))
    ini(pytester, "bgverify_lanes = lanes/*.jsonl", "bgverify_count_nouns = auto")
    pytester.runpytest().assert_outcomes(passed=1)
    pytester.runpytest("--bgverify-count-nouns", "declared").assert_outcomes(xfailed=1)


def test_lane_from_the_command_line_and_an_unreadable_line(pytester: pytest.Pytester) -> None:
    """--bgverify-lane adds a file; a line that is not JSON is a failing item naming its line."""
    lane(pytester, case("ok", {"answer": "8", "unit": "apples"}), "{not json", name="extra/more.jsonl")
    result = pytester.runpytest("--bgverify-lane", "extra/more.jsonl", "extra/more.jsonl")
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(["*more.jsonl:2: unreadable record: malformed_input*"])


def test_upstream_layout_and_policy(pytester: pytest.Pytester) -> None:
    """An upstream dev-set record (ground_truth_graph / expected_answer) is scored as it is; a bad policy is a usage error."""
    record = {"id": "gpd", "ground_truth_graph": GRAPH, "expected_answer": 8, "expected_unit": "apples"}
    lane(pytester, json.dumps(record))
    ini(pytester, "bgverify_lanes = lanes/*.jsonl", "bgverify_count_nouns = auto", "bgverify_policy = integer")
    pytester.runpytest().assert_outcomes(passed=1)
    result = pytester.runpytest("-o", "bgverify_policy=floor")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*bgverify_policy must be one of count_exact, integer*"])


def test_a_users_hypothesis_suite_and_fixtures_run_green(pytester: pytest.Pytester) -> None:
    """The README's setup: an ini line, a lane file, and one @given(math_problem_cases()) test, with no conftest."""
    ini(pytester, "bgverify_lanes = lanes/*.jsonl")
    lane(pytester, case("right", {"answer": "8", "unit": "apples"}))
    pytester.makepyfile(
        test_mine="""
        from hypothesis import given, settings
        from verifier.strategies import math_problem_cases
        from verifier.testing import assert_answer, assert_refused

        @settings(max_examples=25, deadline=None)
        @given(math_problem_cases())
        def test_cases(case):
            graph, expected = case
            assert_answer(graph, expected)

        def test_fixtures(bgverify_verify, bgverify_vocabulary):
            graph = {"entities": ["Ana"], "initial_state": [{"entity": "Ana", "quantity": {"unit": "feet", "value": 5}}],
                     "operations": [{"actor": "Ana", "kind": "add", "operand": {"unit": "inches", "value": 3}}],
                     "unknown": {"entity": "Ana", "unit": "inches"}}
            assert_answer(bgverify_verify(graph), "63", "inches", vocab=bgverify_vocabulary)
            assert_refused({**graph, "unknown": {"entity": "Ana", "unit": "feets"}}, "unknown_unit")
        """
    )
    pytester.runpytest().assert_outcomes(passed=3)


def test_assert_answer_failure_is_rewritten_and_readable(pytester: pytest.Pytester) -> None:
    """assert_answer's failure names expected and found and lists the trace."""
    pytester.makepyfile(
        test_fail="""
        from verifier.testing import assert_answer

        def test_it():
            graph = {"entities": ["Ana"], "initial_state": [{"entity": "Ana", "quantity": {"unit": "feet", "value": 5}}],
                     "operations": [], "unknown": {"entity": "Ana", "unit": "inches"}}
            assert_answer(graph, 61, "inches")
        """
    )
    result = pytester.runpytest()
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        ["*expected 61 inches, found 60 inches for unknown_ana_inches*", "*answer unknown_ana_inches: 60 inches*"]
    )


@pytest.mark.parametrize("glob", ["./lanes/*.jsonl", "lanes/*.jsonl", '["lanes/*.jsonl"]', "{root}/lanes/*.jsonl"])
def test_every_way_of_writing_the_glob_gates(pytester: pytest.Pytester, glob: str) -> None:
    """./, a bracketed list written in pytest.ini, or an absolute path: the wrong answer still fails the run."""
    ini(pytester, f"bgverify_lanes = {glob.format(root=pytester.path)}")
    lane(pytester, case("planted", {"answer": "9", "unit": "apples"}))
    result = pytester.runpytest()
    result.assert_outcomes(failed=1)


def test_a_glob_naming_no_file_is_a_usage_error(pytester: pytest.Pytester) -> None:
    """A gate that would collect nothing does not pass silently."""
    ini(pytester, "bgverify_lanes = lanes/*.jsonl")
    result = pytester.runpytest()
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*bgverify_lanes: 'lanes/*.jsonl' names no file*"])


def test_an_empty_lane_and_a_list_line_fail(pytester: pytest.Pytester) -> None:
    """An empty lane is a failing item; a first line holding a list does not hide the lines after it."""
    ini(pytester, "bgverify_lanes = lanes/*.jsonl")
    lane(pytester, "", name="lanes/empty.jsonl")
    listed = json.dumps([json.loads(case("good", {"answer": "8", "unit": "apples"}))])
    lane(pytester, listed, case("planted", {"answer": "9", "unit": "apples"}), name="lanes/mixed.jsonl")
    result = pytester.runpytest("-rf")
    result.assert_outcomes(failed=3)
    result.stdout.fnmatch_lines(
        ["*the lane holds no record*", "*a JSONL line holds one JSON object*", "*expected: 9 apples*"]
    )


def test_a_malformed_record_is_an_error_not_an_excused_refusal(pytester: pytest.Pytester) -> None:
    """A misspelt format or policy, or two golds in one record, fails even under the default xfail for refusals."""
    ini(pytester, "bgverify_lanes = lanes/*.jsonl")
    misspelt = json.loads(case("misspelt", {"answer": "8", "unit": "apples"}))
    misspelt["format"] = "math_grpah"
    bad_policy = json.loads(case("bad-policy", {"answer": "8", "unit": "apples"}))
    bad_policy["policy"] = "integr"
    two_golds = json.loads(case("two-golds", {"answer": "8", "unit": "apples"}))
    two_golds["expected_answer"] = 99
    lane(pytester, *(json.dumps(r) for r in (misspelt, bad_policy, two_golds)))
    result = pytester.runpytest()
    result.assert_outcomes(failed=3)
    result.stdout.fnmatch_lines(["*the record itself is malformed*", "*a record holds one gold*"])


def test_runxfail_shows_an_unexpected_refusal_failing(pytester: pytest.Pytester) -> None:
    """--runxfail turns the default xfail of an unexpected refusal into a failure, never a pass."""
    ini(pytester, "bgverify_lanes = lanes/*.jsonl")
    lane(pytester, case("refused", {"answer": "8", "unit": "apples"}, vocab=None))
    pytester.runpytest().assert_outcomes(xfailed=1)
    pytester.runpytest("--runxfail").assert_outcomes(failed=1)


def test_repeated_ids_in_a_json_list_get_distinct_items(pytester: pytest.Pytester) -> None:
    """Two items of a JSON list with one id are told apart by index, so --lf cannot lose the wrong one."""
    ini(pytester, "bgverify_lanes = lanes/*.json")
    twins = [
        json.loads(case("x", {"answer": "9", "unit": "apples"})),
        json.loads(case("x", {"answer": "8", "unit": "apples"})),
    ]
    lane(pytester, json.dumps(twins), name="lanes/dup.json")
    result = pytester.runpytest("-v")
    result.assert_outcomes(failed=1, passed=1)
    result.stdout.fnmatch_lines(["*dup.json::x@[[]0[]] FAILED*", "*dup.json::x@[[]1[]] PASSED*"])


def test_a_lane_outside_the_rootdir_adds_to_the_ini_lanes_under_its_full_name(
    pytester: pytest.Pytester, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """--bgverify-lane=PATH outside the rootdir: the ini's lanes stay, and its items are named by the full path."""
    lane(pytester, case("inside", {"answer": "8", "unit": "apples"}))
    ini(pytester, "bgverify_lanes = lanes/*.jsonl")
    outside = tmp_path_factory.mktemp("elsewhere") / "extra.jsonl"
    outside.write_text(case("outside", {"answer": "8", "unit": "apples"}) + "\n", encoding="utf-8")
    result = pytester.runpytest("--co", "-q", f"--bgverify-lane={outside}")
    result.stdout.fnmatch_lines(["lanes/cases.jsonl::inside", f"{outside.as_posix()}::outside"])
    assert not any(line.startswith("::") for line in result.stdout.lines)
