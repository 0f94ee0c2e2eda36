"""The bgverify command line, called in-process through ``main([...])``."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from evals.runner import LANES
from verifier.cli import main

GRAPH = {
    "id": "feet-and-inches",
    "entities": ["Ana"],
    "initial_state": [{"entity": "Ana", "quantity": {"unit": "feet", "value": 5}}],
    "operations": [{"actor": "Ana", "kind": "add", "operand": {"unit": "inches", "value": 3}}],
    "unknown": {"entity": "Ana", "unit": "inches"},
}


def run(argv: list[str]) -> tuple[int, str]:
    """Call ``main(argv)`` in-process and return its exit code and what it wrote to ``out``."""
    out = io.StringIO()
    code = main(argv, out=out)
    return code, out.getvalue()


def test_check_prints_one_line_per_equation_and_answer(tmp_path: Path) -> None:
    """Check on a one-graph JSON file prints the equation's proof and the exact answer, exit 0."""
    path = tmp_path / "g.json"
    path.write_text(json.dumps(GRAPH))
    code, text = run(["check", str(path)])
    assert code == 0
    assert "op_000_result: admitted add: [length] -> length = 21/4 feet" in text
    assert "answer unknown_ana_inches: 63 inches" in text


def test_check_reads_a_lane_case_without_its_expect(tmp_path: Path) -> None:
    """A lane case with its expect removed is still a lane case: its input is checked (it had been refused)."""
    path = tmp_path / "lane.jsonl"
    path.write_text(json.dumps({"id": "ana-1", "format": "math_graph", "input": GRAPH}) + "\n")
    code, text = run(["check", str(path)])
    assert code == 0
    assert "lane.jsonl (ana-1) [math_graph]" in text
    assert "answer unknown_ana_inches: 63 inches" in text


def test_check_jsonl_with_count_nouns_and_refusals(tmp_path: Path) -> None:
    """Check on JSONL: an undeclared noun refuses (exit 1); declaring it answers (exit 0)."""
    graph = {
        "entities": ["Sam"],
        "initial_state": [{"entity": "Sam", "quantity": {"unit": "apples", "value": 5}}],
        "operations": [{"actor": "Sam", "kind": "add", "operand": {"unit": "apples", "value": 3}}],
        "unknown": {"entity": "Sam", "unit": "apples"},
    }
    path = tmp_path / "g.jsonl"
    path.write_text(json.dumps(graph) + "\n" + json.dumps(graph) + "\n")
    code, text = run(["check", str(path)])
    assert code == 1
    assert "refused unknown_unit" in text
    code, text = run(["check", str(path), "--count-noun", "apples=apple"])
    assert code == 0
    assert text.count("answer unknown_sam_apples: 8 apples") == 2


def test_check_json_output_is_data(tmp_path: Path) -> None:
    """Check --json prints one JSON object per record with the answer as exact text."""
    path = tmp_path / "g.json"
    path.write_text(json.dumps([GRAPH, GRAPH]))
    code, text = run(["check", str(path), "--json"])
    rows = [json.loads(line) for line in text.splitlines()]
    assert code == 0
    assert len(rows) == 2
    assert rows[0]["report"]["answers"]["unknown_ana_inches"]["answer"]["value"] == "63"


def test_check_bad_record_is_one_message(tmp_path: Path) -> None:
    """A record that does not fit refuses with its reason on one line; the run goes on."""
    path = tmp_path / "g.jsonl"
    path.write_text('{"entities": []}\n{"entities": ["A"' + "\n" + json.dumps(GRAPH) + "\n")
    code, text = run(["check", str(path)])
    assert code == 1
    lines = text.splitlines()
    assert lines[0].startswith("g.jsonl:1: refused malformed_input")
    assert lines[1].startswith("g.jsonl:2: refused malformed_input")
    assert "63 inches" in text


@pytest.mark.parametrize(
    ("line", "named"),
    [
        ("null", "null"),
        ("true", "true"),
        ("[1, 2]", "an array"),
        ("3.5", "the JSON number 3.5"),
        ("3", "the JSON number 3"),
    ],
)
def test_a_record_of_another_json_kind_is_named_in_json_words(tmp_path: Path, line: str, named: str) -> None:
    """A line holding null, true, an array or a number: ``check`` and ``score`` name it as JSON does, not ``NoneType``."""
    path = tmp_path / "g.jsonl"
    path.write_text(line + "\n" + json.dumps(GRAPH) + "\n")
    code, text = run(["check", str(path)])
    assert code == 1
    assert text.splitlines()[0] == (
        f"g.jsonl:1: refused malformed_input at record: a record is a JSON object or canonical text, found {named}"
    )
    assert "63 inches" in text  # the run goes on
    _, scored = run(["score", str(path)])
    if line != "[1, 2]":  # score reads a JSONL line holding a list as a misplaced JSON array file
        assert f"a record is a JSON object, found {named}" in scored
    assert "NoneType" not in text + scored


@pytest.mark.parametrize("content", ["", "not json at all {", "\x00\x01"])
def test_check_bad_file_exit_2_without_traceback(
    tmp_path: Path, content: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """An empty or unreadable file is exit 2 (empty) or per-record refusals, never a traceback."""
    path = tmp_path / "bad.json"
    path.write_text(content)
    code, text = run(["check", str(path)])
    err = capsys.readouterr().err
    assert "Traceback" not in text + err
    assert code in (1, 2)


def test_missing_file_is_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    """A path that does not exist: exit 2 and one message on stderr."""
    code, _ = run(["check", "/nonexistent/file.json"])
    assert code == 2
    assert capsys.readouterr().err.strip() == "bgverify check: error: /nonexistent/file.json: no such file"


@pytest.mark.parametrize("command", [["check", "-"], ["score", "-"], ["crosscheck", "-"]])
def test_dash_is_not_standard_input(command: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    """``-`` as the file is a usage error that says standard input is not read (it had said "no such file")."""
    code, _ = run(command)
    assert code == 2
    err = capsys.readouterr().err.strip()
    assert (
        err
        == f"bgverify {command[0]}: error: -: standard input is not read; write the records to a file and pass its path"
    )


def test_lanes_table_and_json() -> None:
    """Lanes prints the table with an overall row; --json gives counts per lane."""
    code, text = run(["lanes", "--lane", "graphs"])
    assert "overall" in text
    assert code == 0  # the bundled lanes score no wrong and no error
    code_json, data = run(["lanes", "--lane", "graphs", "--json"])
    parsed = json.loads(data)
    assert set(parsed["lanes"]) == {"graphs"}
    assert parsed["lanes"]["graphs"]["wrong"] == 0
    assert code_json == 0


def test_unknown_lane_is_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    """An unknown lane name is exit 2 with the list of lanes."""
    code, _ = run(["lanes", "--lane", "nope"])
    assert code == 2
    assert "graphs, soundness, relational, bad_inputs, crosscheck" in capsys.readouterr().err


def test_crosscheck_command() -> None:
    """Crosscheck on our fixture prints the category table; --json gives counts; exit 0 (nothing unclassified)."""
    path = Path(__file__).resolve().parents[1] / "data" / "crosscheck_equations.jsonl"
    code, text = run(["crosscheck", str(path)])
    assert code == 0
    assert "theirs_admits_incommensurable_currencies" in text
    code, text = run(["crosscheck", str(path), "--json"])
    report = json.loads(text)
    assert report["counts"]["agree"] == 2
    kelvin = next(p for p in report["pairs"] if p["case_id"] == "own-add-kelvin")
    # a sum of two temperature readings is refused, Kelvin too (temperatures are not amounts): theirs admits it
    assert (kelvin["ours"], kelvin["category"]) == (
        "offset_unit_arithmetic",
        "theirs_admits_offset_temperature_arithmetic",
    )


@pytest.mark.parametrize("command", [[], ["lanes"], ["check"], ["crosscheck"]])
def test_help_for_every_command(command: list[str]) -> None:
    """--help works for the program and each command (argparse exits 0)."""
    with pytest.raises(SystemExit) as info:
        main([*command, "--help"], out=io.StringIO())
    assert info.value.code == 0


def test_no_command_prints_help() -> None:
    """No command: the help text and exit 2."""
    code, text = run([])
    assert code == 2
    assert "lanes" in text


def test_python_dash_m_verifier() -> None:
    """Python -m verifier runs the same command line."""
    proc = subprocess.run(
        [sys.executable, "-m", "verifier", "--help"], capture_output=True, text=True, check=False, timeout=60
    )
    assert proc.returncode == 0
    assert proc.stdout.startswith("usage: python -m verifier")


def test_check_reads_bundled_lane_cases() -> None:
    """Check accepts the bundled lane files (their input, vocab and policy are unwrapped)."""
    lanes = Path(__file__).resolve().parents[2] / "evals" / "lanes"
    code, text = run(["check", str(lanes / "relational.jsonl")])
    assert code == 1  # the lane holds expected refusals
    assert "(relational-001) [relational]" in text
    code, text = run(["crosscheck", str(lanes / "crosscheck.jsonl")])
    assert code == 0


def test_conventions_and_count_nouns_are_not_silently_overridden(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Two --convention anchors, or one noun declared twice, are usage errors (exit 2), not a silent last-wins."""
    path = tmp_path / "g.json"
    path.write_text(json.dumps(GRAPH))
    assert run(["check", str(path), "--convention", "year=365 day", "--convention", "month=30 day"])[0] == 2
    assert run(["check", str(path), "--count-noun", "apples=apple", "--count-noun", "apples=item"])[0] == 2
    assert "declared twice" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "usage"),
    [
        (["check", "--count-noun-auto", "x.json"], " check [-h]"),
        (["lanes", "--bogus"], " lanes [-h]"),
        (["--bogus"], " [-h] [--version]"),
    ],
)
def test_an_unknown_option_shows_its_commands_usage(
    argv: list[str], usage: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """An unknown option is a usage error (exit 2) under the usage of the command it was given to."""
    with pytest.raises(SystemExit) as info:
        main(argv, out=io.StringIO())
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert usage in err.splitlines()[0]  # the program's name depends on how it is run (bgverify, python -m verifier)
    assert f"unrecognized arguments: {argv[-2] if argv[0] == 'check' else argv[-1]}" in err


def test_version() -> None:
    """--version prints the installed version."""
    with pytest.raises(SystemExit) as info:
        main(["--version"], out=io.StringIO())
    assert info.value.code == 0


def test_check_count_nouns_auto_declares_per_graph_and_refuses_typos(tmp_path: Path) -> None:
    """--count-nouns auto answers a graph of undeclared nouns (apple/apples as one kind); a typo'd noun is unknown_unit."""
    good = {
        "entities": ["Sam"],
        "initial_state": [{"entity": "Sam", "quantity": {"unit": "jumping jacks", "value": 5}}],
        "operations": [{"actor": "Sam", "kind": "add", "operand": {"unit": "jumping jack", "value": 3}}],
        "unknown": {"entity": "Sam", "unit": "jumping jacks"},
    }
    typo = json.loads(json.dumps(good))
    typo["operations"][0]["operand"]["unit"] = "jumpign jacks"
    path = tmp_path / "nouns.jsonl"
    path.write_text(json.dumps(good) + "\n" + json.dumps(typo) + "\n")
    code, text = run(["check", str(path)])
    assert code == 1
    assert "unknown_unit" in text
    assert ": 8 jumping jacks" not in text
    code, text = run(["check", "--count-nouns", "auto", str(path)])
    assert code == 1
    assert "answer unknown_sam_jumping_jacks: 8 jumping jacks" in text
    assert "nouns.jsonl:2: refused unknown_unit" in text
    assert "did you mean 'jumping jacks'" in text


def test_version_names_the_owner_of_each_import_name_and_warns_of_a_clash(tmp_path: Path) -> None:
    """--version lists who provides units, adapters, verifier and evals; another distribution of 'adapters' is warned of."""
    info = tmp_path / "adapterhub_fake-9.9.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: adapterhub-fake\nVersion: 9.9\n")
    (info / "top_level.txt").write_text("adapters\n")
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-m", "verifier", "--version"], capture_output=True, text=True, check=True, env=env
    )
    assert "import units: binding-graph-verifier" in done.stdout
    assert "import adapters: adapterhub-fake, binding-graph-verifier" in done.stdout
    assert "warning: adapterhub-fake also provides 'adapters'" in done.stdout
    assert "warning" not in done.stdout.split("import adapters")[0]


EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--rows", "/nonexistent/x.jsonl"], "/nonexistent/x.jsonl: the folder /nonexistent does not exist"),
        (["--rows", "{tmp}"], "{tmp}: is a folder, not a file to write"),
    ],
)
def test_score_refuses_a_rows_file_it_cannot_write_before_scoring(
    extra: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A bad --rows path is a usage error (exit 2, one line), not a traceback after the whole corpus is scored."""
    argv = [a.replace("{tmp}", str(tmp_path)) for a in extra]
    code, out = run(["score", str(EXAMPLES / "corpus.jsonl"), *argv])
    assert code == 2
    assert out == ""
    assert capsys.readouterr().err.strip() == f"bgverify score: error: {message.replace('{tmp}', str(tmp_path))}"


def test_score_of_a_folder_says_it_is_not_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Score given a folder is a usage error (exit 2) saying the path is not a regular file."""
    code, _ = run(["score", str(tmp_path)])
    assert code == 2
    assert capsys.readouterr().err.strip() == f"bgverify score: error: {tmp_path}: not a regular file"


def test_lanes_help_names_every_lane(capsys: pytest.CaptureFixture[str]) -> None:
    """Lanes --help names every lane the runner knows."""
    with pytest.raises(SystemExit):
        main(["lanes", "--help"], out=io.StringIO())
    text = " ".join(capsys.readouterr().out.split())
    assert all(lane in text for lane in LANES)


def test_score_on_a_dask_address_that_is_none_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    """Score with a --dask address no scheduler can be reached at is a usage error (exit 2) naming the cause."""
    pytest.importorskip("dask.distributed")
    code, _ = run(["score", str(EXAMPLES / "corpus.jsonl"), "--dask", "nope://x:1"])
    assert code == 2
    assert "cannot reach a Dask scheduler (ValueError: unknown address scheme 'nope'" in capsys.readouterr().err


USAGE_ERRORS = [
    # (argv after the file placeholder {g}, the one-line error it must print)
    (["check", "{g}", "--count-noun", "apples"], "--count-noun takes SURFACE=LEMMA or SURFACE=LEMMA:divisible"),
    (["check", "{g}", "--count-noun", "pies=pie:whole"], "--count-noun takes SURFACE=LEMMA or SURFACE=LEMMA:divisible"),
    (["check", "{g}", "--count-noun", "pies=pie:divisable"], "the one flag after ':' is 'divisible', not 'divisable'"),
    (["check", "{g}", "--count-noun", "a=x", "--count-noun", "a=y"], "--count-noun a is declared twice (x and y)"),
    (
        ["check", "{g}", "--count-noun", "apples=apple,pears=pear"],
        "--count-noun takes one SURFACE=LEMMA, found 'apples=apple,pears=pear': repeat the flag for each noun",
    ),
    (["check", "{g}", "--convention", "year"], "--convention takes UNIT=AMOUNT, found 'year'"),
    (
        ["check", "{g}", "--convention", "year=365 day", "--convention", "month=30 day"],
        "declare exactly one --convention",
    ),
    (["check", "{g}", "--convention", "year=lots of day"], "bad declaration:"),
    (["crosscheck", "{g}", "--fuzz", "10"], "--fuzz needs --against MODULE:FUNCTION and no FILE"),
    (["crosscheck", "{g}", "--kind", "add"], "--kind applies to a fuzz run"),
    (["crosscheck"], "give FILE, or --against MODULE:FUNCTION to fuzz a live implementation"),
    (["crosscheck", "--against", "nocolon"], "--against takes MODULE:FUNCTION"),
    (["crosscheck", "--against", "no_such_module_xyz:f"], "--against: cannot import 'no_such_module_xyz'"),
    (["crosscheck", "--against", "json:no_such_name"], "--against: 'json' has no attribute 'no_such_name'"),
    (["crosscheck", "--against", "json:__doc__"], "--against: json:__doc__ is a str, not a callable"),
    (["score", "{g}", "--processes", "0"], "--processes must be from 1 to 256, found 0"),
    (["score", "{g}", "--processes", "100000"], "--processes must be from 1 to 256, found 100000"),
    (["score", "{g}", "--examples", "-1"], "--examples must be at least 0, found -1"),
    (["score", "{g}", "--rows", "{g}"], "is an input file: writing the rows would overwrite the corpus"),
    (["score", "{g}", "--processes", "2", "--dask", "tcp://x:1"], "give --processes or --dask, not both"),
]


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("-5", "expected 1 to 1,000,000 equations, found -5"),
        ("0", "expected 1 to 1,000,000 equations, found 0"),
        ("many", "expected a whole number"),
    ],
)
def test_a_bad_fuzz_count_names_the_flag(value: str, message: str, capsys: pytest.CaptureFixture[str]) -> None:
    """``--fuzz -5`` is refused by argparse naming ``--fuzz`` (it had named crosscheck's ``max_examples`` keyword)."""
    with pytest.raises(SystemExit) as info:
        main(["crosscheck", "--against", "json:loads", "--fuzz", value], out=io.StringIO())
    assert info.value.code == 2  # argparse's usage exit
    err = capsys.readouterr().err
    assert f"argument --fuzz: {message}" in err
    assert "max_examples" not in err


@pytest.mark.parametrize(("argv", "message"), USAGE_ERRORS, ids=[" ".join(a) for a, _ in USAGE_ERRORS])
def test_each_usage_error_is_exit_2_with_one_line(
    argv: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Bad flags, declarations and references: exit 2, one line on stderr that names what is wrong, no traceback."""
    path = tmp_path / "g.json"
    path.write_text(json.dumps(GRAPH))
    code, out = run([a.replace("{g}", str(path)) for a in argv])
    err = capsys.readouterr().err.strip()
    assert code == 2, err
    assert out == ""
    assert message in err
    assert len(err.splitlines()) == 1
    assert "Traceback" not in err


def test_check_reads_a_json_list_and_a_canonical_text_file(tmp_path: Path) -> None:
    """A JSON list is one record per item (labelled [i]); a canonical text file is one record."""
    listed = tmp_path / "two.json"
    listed.write_text(json.dumps([GRAPH, GRAPH]))
    code, text = run(["check", str(listed)])
    assert code == 0
    assert "two.json[0]" in text
    assert "two.json[1]" in text
    canonical = tmp_path / "g.txt"
    canonical.write_text(
        "S q_a_feet_t0 a quantity entity=A unit=feet span=t[0:1] by=t\n"
        "S u u unknown entity=A unit=feet span=t[0:1] by=t\n"
        "F q_a_feet_t0 = 5 unit=feet span=t[0:1]\n"
        "U u expected_unit=feet state=initial form=identity qspan=t[0:1]\n"
    )
    code, text = run(["check", str(canonical)])
    assert "5 feet" in text, text
    assert code == 0


def test_a_file_that_is_not_utf8_or_empty_is_a_usage_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A file that is not UTF-8, or holds only blank lines, is a usage error (exit 2) for check and crosscheck."""
    binary = tmp_path / "b.json"
    binary.write_bytes(b"\xff\xfe\x00")
    assert run(["check", str(binary)])[0] == 2
    assert "cannot read as UTF-8 text" in capsys.readouterr().err
    empty = tmp_path / "e.json"
    empty.write_text("\n\n")
    assert run(["check", str(empty)])[0] == 2
    assert "the file is empty" in capsys.readouterr().err
    assert run(["crosscheck", str(empty)])[0] == 2
    assert "the file is empty" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("extra", "advice"),
    [
        ([], "declare them with --count-noun apples=apple, or --count-nouns auto for math graphs"),
        (["--count-nouns", "auto"], "--count-nouns auto declares only each math graph's own nouns"),
    ],
)
def test_score_says_how_to_declare_nouns_when_undeclared_units_are_refused(
    extra: list[str], advice: str, tmp_path: Path
) -> None:
    """Unexpected unknown_unit refusals with no --count-noun end the tables with how to declare a noun."""
    record = {
        "id": "pears",
        "format": "relational",
        "input": {
            "relations": [{"kind": "fact", "entity": "sam", "value": 4}],
            "query": {"entity": "sam", "unit": "pears"},
        },
        "expect": {"answer": "4", "unit": "pears"},
    }
    corpus = tmp_path / "c.jsonl"
    corpus.write_text(json.dumps(record) + "\n", encoding="utf-8")
    code, out = run(["score", str(corpus), *extra])
    assert code == 0
    assert out.rstrip().splitlines()[-1] == (
        "1 unexpected unknown_unit refusal(s): a count noun outside en_units_v1 must be declared;"
        f" {advice}"
        + ("; declare the others with --count-noun apples=apple or a record's 'vocab'" if extra else "")
        + " (--rows FILE.jsonl lists each case)"
    )
    code, out = run(["score", str(corpus), "--count-noun", "pears=pear"])
    assert "unknown_unit" not in out


def test_check_reads_files_as_score_does(tmp_path: Path) -> None:
    """Check reads a byte-order mark as no part of the first record, and splits JSONL on line ends only (as score)."""
    ribbon = (EXAMPLES / "ribbon.json").read_text(encoding="utf-8")
    bom = tmp_path / "bom.json"
    bom.write_bytes(b"\xef\xbb\xbf" + ribbon.encode("utf-8"))
    code, out = run(["check", str(bom)])
    assert (code, out.splitlines()[0]) == (0, "bom.json (ribbon) [math_graph]")
    line = json.dumps(json.loads(ribbon), ensure_ascii=False)
    separated = tmp_path / "sep.jsonl"  # U+2028 inside a JSON string is a character, not a line end
    separated.write_text(line.replace('"ribbon"', '"rib\u2028bon"') + "\n" + line + "\n", encoding="utf-8")
    code, out = run(["check", str(separated)])
    assert code == 0
    assert [row for row in out.split("\n") if row and not row.startswith(" ")] == [
        "sep.jsonl:1 (rib\u2028bon) [math_graph]",
        "sep.jsonl:2 (ribbon) [math_graph]",
    ]


def test_a_json_number_line_is_no_record(tmp_path: Path) -> None:
    """A JSONL line holding a number is refused as no record (its text had been read as a canonical text)."""
    corpus = tmp_path / "n.jsonl"
    corpus.write_text("1.5\n", encoding="utf-8")
    code, out = run(["check", str(corpus)])
    assert code == 1
    assert out.strip() == (
        "n.jsonl:1: refused malformed_input at record: a record is a JSON object or canonical text,"
        " found the JSON number 1.5"
    )


def test_an_object_of_no_format_lists_the_keys_each_format_takes(tmp_path: Path) -> None:
    """Newcomer trial (2026-12-07): ``{}`` was told "the keys []" and a list of format names, not the keys to write."""
    path = tmp_path / "o.jsonl"
    path.write_text("{}\n" + json.dumps({"foo": 1}) + "\n")
    code, text = run(["check", str(path)])
    assert code == 1
    first, second = text.splitlines()
    assert first.startswith("o.jsonl:1: refused malformed_input at record: an empty object fits no supported format;")
    assert second.startswith("o.jsonl:2: refused malformed_input at record: the keys ['foo'] fit no supported format;")
    for line in (first, second):
        assert "math_graph {entities, initial_state, operations, unknown}" in line
        assert "relational {relations, query}" in line
        assert "canonical_text {hand_rolled_canonical} or {canonical_text}" in line


def test_a_refused_record_names_its_id_and_what_is_misspelled(tmp_path: Path) -> None:
    """Newcomer trial (2026-12-03): a refused record named no id, nor what a graph lacked or misspelled.

    A graph lacking ``entities``, or with ``operands`` for ``operand``, was told neither
    which format nor which key.
    """
    no_entities = {key: value for key, value in GRAPH.items() if key != "entities"}
    misspelled = json.loads(json.dumps(GRAPH))
    misspelled["id"] = "misspelled"
    misspelled["operations"][0]["operands"] = misspelled["operations"][0].pop("operand")
    path = tmp_path / "bad.jsonl"
    path.write_text(json.dumps(no_entities) + "\n" + json.dumps(misspelled) + "\n")
    code, text = run(["check", str(path)])
    assert code == 1
    first = (
        "bad.jsonl:1 (feet-and-inches): refused malformed_input at record: the keys"
        " ['id', 'initial_state', 'operations', 'unknown'] fit no supported format; a math_graph lacks only ['entities']"
    )
    second = (
        "bad.jsonl:2 (misspelled): refused malformed_input at operations[0]: missing field(s) ['operand'];"
        " found the unknown field(s) ['operands']"
    )
    assert text.splitlines() == [first, second]
    code, text = run(["check", "--json", str(path)])
    assert [(row["record"], row["id"], row["refusal"]["reason"]) for row in map(json.loads, text.splitlines())] == [
        ("bad.jsonl:1", "feet-and-inches", "malformed_input"),
        ("bad.jsonl:2", "misspelled", "malformed_input"),
    ]


def test_an_auto_typo_refusal_names_no_pair_twice(tmp_path: Path) -> None:
    """Newcomer trial: ``appels`` beside ``apples`` added "(near misses too: 'apples' of 'appels')", the same pair."""
    graph = {
        "entities": ["Ann"],
        "initial_state": [{"entity": "Ann", "quantity": {"unit": "apples", "value": 3}}],
        "operations": [
            {"actor": "Ann", "kind": "add", "operand": {"unit": unit, "value": 2}} for unit in ("appels", "apples")
        ],
        "unknown": {"entity": "Ann", "unit": "apples"},
    }
    path = tmp_path / "apples.json"
    path.write_text(json.dumps(graph))
    code, text = run(["check", "--count-nouns", "auto", str(path)])
    assert code == 1
    assert "did you mean 'apples'? Declare it explicitly (--count-noun appels=appel)" in text
    assert "near misses too" not in text


def test_check_of_a_file_of_no_records_is_a_usage_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Review (2026-12-03): ``[]`` printed nothing and exited 0, as if every record had been answered."""
    path = tmp_path / "empty.json"
    path.write_text("[]")
    code, text = run(["check", str(path)])
    assert (code, text) == (2, "")
    assert "holds no records" in capsys.readouterr().err
