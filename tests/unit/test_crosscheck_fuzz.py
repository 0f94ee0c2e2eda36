"""Differential fuzzing (``verifier.crosscheck.fuzz``) against deliberately broken references.

Each planted bug is written here, on top of our own verdict, so that it differs from ours
in exactly one way; the fuzzer must find that way within the ``ci`` profile's budget (200
examples) and shrink it to the smallest equation that shows it.
"""

from __future__ import annotations

import io
import json
from collections.abc import Mapping
from pathlib import Path

import pytest
import sympy

import verifier.cli
import verifier.kinds
import verifier.model
from adapters import MathGraphError, bind_math_problem_graph, graph_from_dict
from adapters.records import bind_equation_record
from units import default_vocabulary
from verifier import Answer, BindingGraph, verify
from verifier.admissibility import ADDITIVE_KINDS, check_equation
from verifier.cli import main
from verifier.crosscheck import (
    CATEGORIES,
    CATEGORY_INFO,
    FORMER_NAMES,
    FUZZ_COUNT_NOUNS,
    as_reference,
    classify,
    crosscheck,
    crosscheck_file,
    detailed_outcome,
    fuzz,
    outcome,
)
from verifier.errors import BindingGraphError
from verifier.model import BoundEquation, SymbolBinding

BUDGET = 200
"""The ci profile's max_examples (tests/conftest.py)."""

VOCAB = default_vocabulary().with_count_nouns(FUZZ_COUNT_NOUNS)
Symbols = Mapping[str, SymbolBinding]


def _ours(eq: BoundEquation, symbols: Symbols) -> str:
    return outcome(check_equation(eq, symbols, VOCAB))


def admits_length_plus_mass(eq: BoundEquation, symbols: Symbols) -> str:
    """Admits any additive equation whose operands differ in dimension."""
    verdict = check_equation(eq, symbols, VOCAB)
    if (
        verdict.refusal is not None
        and verdict.refusal.reason == "unit_mismatch"
        and eq.operation_kind in ADDITIVE_KINDS
    ):
        return f"{eq.operation_kind}: [length,mass] -> length"
    return outcome(verdict)


def ignores_factors(eq: BoundEquation, symbols: Symbols) -> str:
    """Reports every conversion factor as 1."""
    verdict = check_equation(eq, symbols, VOCAB)
    if verdict.proof is None:
        return outcome(verdict)
    return outcome(verdict) + "; factors " + ", ".join(f"{op.symbol_id}=1" for op in verdict.proof.operands)


def merges_count_kinds(eq: BoundEquation, symbols: Symbols) -> str:
    """Admits count kinds together (one count axis, as a six-vector algebra has)."""
    verdict = check_equation(eq, symbols, VOCAB)
    if verdict.refusal is not None and verdict.refusal.reason == "incommensurable_units":
        units = [symbols[d].unit for d in eq.dependencies if d in symbols]
        if units and all(u is not None and str(VOCAB.dimension(u)) == "count" for u in units):
            return f"{eq.operation_kind}: [count,count] -> count"
    return outcome(verdict)


def raises_on_partitions(eq: BoundEquation, symbols: Symbols) -> str:
    """Raises AttributeError on unit_partition, as upstream's adapter does."""
    if eq.operation_kind == "unit_partition":
        raise AttributeError("'PartitionChunk' object has no attribute 'delta'")
    return _ours(eq, symbols)


def agrees(eq: BoundEquation, symbols: Symbols) -> str:
    """Agrees with ours exactly, conversion factors included."""
    return detailed_outcome(check_equation(eq, symbols, VOCAB))


def _operands(report_minimal: object) -> list[tuple[str, object]]:
    record = report_minimal.record  # type: ignore[attr-defined]
    return [(s["symbol_id"], s["unit"]) for s in record["symbols"]]


@pytest.mark.parametrize(
    ("reference", "category", "operands", "also"),
    [
        (admits_length_plus_mass, "theirs_admits_dimension_mismatch", 2, set()),
        (ignores_factors, "theirs_ignores_conversion_factor", 2, set()),
        # one count axis also lets boxes meet items: the same bug, shown by its own category
        (merges_count_kinds, "theirs_merges_count_kinds", 2, {"theirs_admits_container_as_items"}),
        (raises_on_partitions, "theirs_crashes", 1, set()),
    ],
    ids=["length_plus_mass", "ignores_factors", "merges_count_kinds", "raises"],
)
def test_planted_bug_is_found_and_shrunk(reference: object, category: str, operands: int, also: set[str]) -> None:
    """Within the ci budget the planted category is found, and its example is as small as it can be."""
    report = fuzz(reference, max_examples=BUDGET, seed=0)  # type: ignore[arg-type]
    found = {k for k, v in report.counts.items() if v and k != "agree"}
    assert category in found
    assert found <= {category} | also
    minimal = report.minimal[category]
    assert minimal.shrunk
    assert len(minimal.record["symbols"]) == operands  # type: ignore[arg-type]
    assert minimal.category == category
    assert report.seed == 0


@pytest.mark.slow
def test_minimal_examples_are_the_smallest_spellings() -> None:
    """Shrinking reaches the first dimensions and shortest spellings: m + T, m + cm, partition of m."""
    mass = fuzz(admits_length_plus_mass, max_examples=BUDGET, seed=0).minimal["theirs_admits_dimension_mismatch"]
    assert mass.equation in ("r = a + b", "r = a - b")
    assert sorted(u for _, u in _operands(mass)) == ["T", "m"]  # type: ignore[type-var]
    assert mass.ours == "unit_mismatch"
    factors = fuzz(ignores_factors, max_examples=BUDGET, seed=0).minimal["theirs_ignores_conversion_factor"]
    assert len(_operands(factors)) == 2
    theirs = dict(item.split("=") for item in factors.theirs.partition("; factors ")[2].split(", "))
    ours = dict(item.split("=") for item in factors.ours.partition("; factors ")[2].split(", "))
    assert set(theirs.values()) == {"1"}
    assert set(ours) == set(theirs)
    assert ours != theirs
    crash = fuzz(raises_on_partitions, max_examples=BUDGET, seed=0).minimal["theirs_crashes"]
    assert crash.record["operation_kind"] == "unit_partition"
    assert _operands(crash) == [("a", "m")]
    assert crash.theirs.startswith("crash: AttributeError:")


def test_merged_count_kinds_example_holds_two_kinds() -> None:
    """The merge's minimal example holds two count units that are not one kind."""
    minimal = fuzz(merges_count_kinds, max_examples=BUDGET, seed=0).minimal["theirs_merges_count_kinds"]
    first, second = (u for _, u in _operands(minimal))
    assert minimal.ours == "incommensurable_units"
    assert VOCAB.resolve(first).kind != VOCAB.resolve(second).kind
    assert str(VOCAB.dimension(first)) == str(VOCAB.dimension(second)) == "count"


def test_agreeing_reference_finds_only_agree() -> None:
    """A reference that is ours finds nothing else, and no minimal example."""
    report = fuzz(agrees, max_examples=BUDGET, seed=3)
    assert {k for k, v in report.counts.items() if v} == {"agree"}
    assert report.minimal == {}
    assert report.counts["agree"] == len(report.pairs) > BUDGET // 2


def test_same_seed_same_report_and_other_seed_differs() -> None:
    """A seed replays byte for byte; another seed draws other equations."""
    one = json.dumps(fuzz(merges_count_kinds, max_examples=100, seed=5).to_json(), sort_keys=True)
    two = json.dumps(fuzz(merges_count_kinds, max_examples=100, seed=5).to_json(), sort_keys=True)
    other = json.dumps(fuzz(merges_count_kinds, max_examples=100, seed=6).to_json(), sort_keys=True)
    assert one == two
    assert one != other


def test_minimal_example_replays_from_a_file(tmp_path: Path) -> None:
    """The replay line is an equation-verdict record that crosscheck_file puts in the same category.

    Both from its recorded verdict and against the live callable; declared nouns travel in its vocab.
    """
    report = fuzz(merges_count_kinds, max_examples=BUDGET, seed=0)
    lines = [json.dumps(dict(m.record)) for m in report.minimal.values()]
    path = tmp_path / "replay.jsonl"
    path.write_text("\n".join(lines) + "\n")
    recorded = crosscheck_file(path)
    live = crosscheck_file(path, against=merges_count_kinds)
    assert [p.category for p in recorded.pairs] == list(report.minimal)
    assert [p.category for p in live.pairs] == list(report.minimal)


def test_declared_noun_travels_with_its_example(tmp_path: Path) -> None:
    """A category shown with a declared noun carries the declaration, so the replay resolves it."""

    def refuses_oranges(eq: BoundEquation, symbols: Symbols) -> str:
        if any(symbols[d].unit == "oranges" for d in eq.dependencies if d in symbols):
            return "unknown_unit"
        return _ours(eq, symbols)

    report = fuzz(refuses_oranges, max_examples=BUDGET, seed=0)
    minimal = report.minimal["count_noun_undeclared_to_theirs"]
    assert minimal.record["vocab"] == {"count_nouns": {"oranges": "orange"}}
    path = tmp_path / "replay.jsonl"
    path.write_text(json.dumps(dict(minimal.record)) + "\n")
    assert [p.category for p in crosscheck_file(path).pairs] == ["count_noun_undeclared_to_theirs"]


def test_unclassified_pairs_are_counted_and_printed_in_full() -> None:
    """A disagreement no category fits is unclassified, counted, and every one is printed."""

    def odd_proofs(eq: BoundEquation, symbols: Symbols) -> str:
        text = _ours(eq, symbols)
        return text.replace("->", "-> weird ->") if eq.operation_kind == "add" and "->" in text else text

    report = fuzz(odd_proofs, max_examples=100, seed=1)
    assert report.counts["unclassified"] == len(report.unclassified) > 0
    table = report.table()
    for pair in report.unclassified:
        assert f"{pair.case_id} r: ours {pair.ours!r}" in table


def test_kinds_restrict_the_draw() -> None:
    """kinds= fuzzes only those operation kinds (an unknown kind too)."""
    report = fuzz(agrees, max_examples=50, seed=0, kinds=["divide"])
    assert all(p.ours.startswith("divide") or ":" not in p.ours for p in report.pairs)
    unknown = fuzz(agrees, max_examples=20, seed=0, kinds=["teleport"])
    assert {p.ours for p in unknown.pairs} == {"unknown_operation"}


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"max_examples": 0}, "max_examples"),
        ({"max_examples": True}, "max_examples"),
        ({"max_examples": 10**7}, "max_examples"),
        ({"seed": -1}, "seed"),
        ({"seed": "1"}, "seed"),
        ({"kinds": []}, "kinds"),
        ({"kinds": [""]}, "kinds"),
        ({"vocab": "default"}, "vocab"),
    ],
)
def test_bad_arguments_are_typed_refusals(kwargs: dict[str, object], field: str) -> None:
    """A bad max_examples, seed, kinds or vocab is malformed_input naming the argument."""
    with pytest.raises(BindingGraphError) as info:
        fuzz(agrees, **kwargs)  # type: ignore[arg-type]
    assert info.value.reason == "malformed_input"
    assert info.value.path == field


def test_not_callable_is_refused() -> None:
    """A reference that is not callable is refused before any example is drawn."""
    with pytest.raises(BindingGraphError, match="must be callable"):
        fuzz("check_admissibility")  # type: ignore[arg-type]


class _AdmissibilityError(Exception):
    def __init__(self, reason: str) -> None:
        super().__init__(f"{reason}: refused")
        self.reason = reason


class _Proof:
    def to_canonical_string(self) -> str:
        return "add: [length,length] -> length"


@pytest.mark.parametrize(
    ("reference", "expected"),
    [
        (lambda _eq, _symbols: "unit_mismatch", "unit_mismatch"),
        (lambda _eq, *, symbols: "keyword " + ",".join(sorted(symbols)), "keyword a,b"),
        (lambda _eq, _symbols: _Proof(), "add: [length,length] -> length"),
        (lambda _eq, _symbols: (_ for _ in ()).throw(_AdmissibilityError("unit_mismatch")), "unit_mismatch"),
        (lambda _eq, _symbols: 1 / 0, "crash: ZeroDivisionError: division by zero"),
        (lambda _eq, _symbols: 42, "crash: returned int"),
        (lambda _eq, _symbols: None, "crash: returned NoneType"),
    ],
    ids=["string", "keyword_symbols", "proof_object", "typed_refusal", "raises", "int", "none"],
)
def test_as_reference_reads_every_shape(reference: object, expected: str) -> None:
    """Strings and proof objects are outcomes, a raised .reason a refusal, anything else a crash."""
    eq, symbols = bind_equation_record(
        {
            "id": "x",
            "lhs_symbol_id": "r",
            "operation_kind": "add",
            "symbols": [
                {"symbol_id": "a", "semantic_role": "quantity", "unit": "m"},
                {"symbol_id": "b", "semantic_role": "quantity", "unit": "cm"},
            ],
        }
    )
    assert as_reference(reference)(eq, symbols) == expected  # type: ignore[arg-type]


def test_every_category_names_its_side() -> None:
    """A category that blames a side starts with it; every former name maps onto a current one."""
    assert set(CATEGORY_INFO) == set(CATEGORIES)
    for name, info in CATEGORY_INFO.items():
        assert info.wrong in ("theirs", "ours", "neither", "unknown")
        if info.wrong in ("theirs", "ours"):
            assert name.startswith(f"{info.wrong}_"), name
        assert info.spec.startswith("SPEC §"), name
    assert set(FORMER_NAMES.values()) <= set(CATEGORIES)
    assert not set(FORMER_NAMES) & set(CATEGORIES)


def _cli(argv: list[str]) -> tuple[int, str]:
    out = io.StringIO()
    return main(argv, out=out), out.getvalue()


@pytest.mark.slow
def test_cli_fuzzes_a_callable_from_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """--against MODULE:FUNCTION imports the callable; the table shows the bug-report text."""
    (tmp_path / "planted_refs.py").write_text(
        "from verifier.admissibility import ADDITIVE_KINDS, check_equation\n"
        "from verifier.crosscheck import outcome\n"
        "def check(eq, *, symbols):\n"
        "    v = check_equation(eq, symbols)\n"
        "    if v.refusal is not None and v.refusal.reason == 'unit_mismatch' and eq.operation_kind in ADDITIVE_KINDS:\n"
        "        return eq.operation_kind + ': [length,mass] -> length'\n"
        "    return outcome(v)\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    code, text = _cli(["crosscheck", "--against", "planted_refs:check", "--fuzz", "120", "--seed", "2"])
    assert code == 0
    assert "theirs_admits_dimension_mismatch" in text
    assert "seed 2" in text
    assert "rule:     add, subtract, transfer and compare_additive are admitted" in text
    assert "(SPEC §4 Admissibility)" in text
    assert "replay:   {" in text
    code, raw = _cli(["crosscheck", "--against", "planted_refs:check", "--fuzz", "120", "--seed", "2", "--json"])
    data = json.loads(raw)
    assert code == 0
    assert data["seed"] == 2
    # the module judges with the default vocabulary, so the fuzzer's declared nouns show too (no side at fault)
    assert "theirs_admits_dimension_mismatch" in data["minimal"]
    assert set(data["minimal"]) <= {
        "theirs_admits_dimension_mismatch",
        "count_noun_undeclared_to_theirs",
        "refusal_reason_differs",
    }


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["crosscheck"], "give FILE, or --against"),
        (["crosscheck", "--fuzz", "10"], "--fuzz needs --against"),
        (["crosscheck", "--against", "nocolon"], "MODULE:FUNCTION"),
        (["crosscheck", "--against", "no_such_module_xyz:f"], "cannot import 'no_such_module_xyz'"),
        (["crosscheck", "--against", "json:no_such_name"], "has no attribute 'no_such_name'"),
        (["crosscheck", "--against", "json.decoder:JSONDecodeError.__doc__"], "not a callable"),
    ],
)
def test_cli_usage_errors(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    """A crosscheck fuzz run missing or misnaming its reference is exit 2 with the error on stderr."""
    code, _ = _cli(argv)
    assert code == 2
    assert message in capsys.readouterr().err


@pytest.mark.slow
def test_readme_worked_run_is_true(monkeypatch: pytest.MonkeyPatch) -> None:
    """The README's worked fuzz run prints, category for category, the table the README shows."""
    root = Path(__file__).resolve().parents[2]
    readme = (root / "README.md").read_text(encoding="utf-8")
    command = "$ bgverify crosscheck --against examples.naive_admissibility:check --kind add --fuzz 2000\n"
    block = readme.split(command, 1)[1].split("\n\n", 1)[0]
    monkeypatch.chdir(root)
    monkeypatch.syspath_prepend(str(root))
    code, text = _cli(command.split()[2:])
    assert code == 0
    assert text.split("\n\n", 1)[0] == block
    shown = readme.split(command, 1)[1].split("\n\n", 2)[1]
    printed = text.split("\n\n", 2)[1]
    assert shown.splitlines()[:6] == printed.splitlines()[:6]  # then the README shortens the replay line


# ---------------------------------------------------------------- the review's findings, pinned


def _record(kind: str, *operands: tuple[str, str | None]) -> tuple[BoundEquation, dict[str, SymbolBinding]]:
    symbols = [
        {"symbol_id": sid, "semantic_role": "quantity" if unit else "ratio", "unit": unit} for sid, unit in operands
    ]
    return bind_equation_record({"id": "x", "lhs_symbol_id": "r", "operation_kind": kind, "symbols": symbols})


def test_a_reference_cannot_change_what_ours_judges() -> None:
    """The reference gets a read-only copy: writing to it is its own crash, and ours still judges m + kg."""

    def rewrites(_eq: BoundEquation, symbols: Symbols) -> str:
        symbols["a"] = symbols["b"]  # type: ignore[index]
        return "add: [length,length] -> length"

    eq, symbols = _record("add", ("a", "m"), ("b", "kg"))
    assert as_reference(rewrites)(eq, symbols).startswith("crash: TypeError")
    assert symbols["a"].unit == "m"
    report = fuzz(rewrites, max_examples=30, seed=0)
    assert {p.category for p in report.pairs} == {"theirs_crashes"}


def _sam_adds_3_feet(entity: str = "Sam") -> BindingGraph:
    """``entity``'s 5 feet plus 3 feet, bound (a fresh graph: its expression is sympy's shared one)."""
    return bind_math_problem_graph(
        graph_from_dict(
            {
                "entities": [entity],
                "initial_state": [{"entity": entity, "quantity": {"unit": "feet", "value": 5}}],
                "operations": [{"actor": entity, "kind": "add", "operand": {"unit": "feet", "value": 3}}],
                "unknown": {"entity": entity, "unit": "feet"},
            }
        )
    )


def test_a_reference_writing_through_frozen_records_changes_nothing_of_ours() -> None:
    """A reference that rewrites the equation and symbols it gets (object.__setattr__) works on copies.

    A review made ours certify a changed sum this way: the reference rewrote the caller's
    equation before ours judged it, and the caller's graph kept the change.
    """

    def rewrites(eq: BoundEquation, symbols: Symbols) -> str:
        object.__setattr__(eq, "rhs", eq.rhs + 100)
        object.__setattr__(symbols["b"], "unit", "kg")
        object.__setattr__(symbols["b"].source_span, "text", "changed")
        return "add: [length,length] -> length"

    eq, symbols = _record("add", ("a", "m"), ("b", "m"))
    rhs, span = eq.rhs, symbols["b"].source_span.text
    assert as_reference(rewrites)(eq, symbols) == "add: [length,length] -> length"
    assert (eq.rhs, symbols["b"].unit, symbols["b"].source_span.text) == (rhs, "m", span)
    graph = _sam_adds_3_feet()

    def adds_100(eq: BoundEquation, _symbols: Symbols) -> str:
        object.__setattr__(eq, "rhs", eq.rhs + 100)
        return "add: [length] -> length"

    report = crosscheck(graph, adds_100)
    assert [(p.ours, p.category) for p in report.pairs] == [("add: [length] -> length", "agree")]
    (answer,) = verify(graph).answers.values()
    assert isinstance(answer, Answer)
    assert (answer.value, answer.unit) == (8, "feet")


def test_a_reference_changing_the_shared_expression_stops_the_run() -> None:
    """A reference that rewrites sympy's private args of the expression it gets is detected: a RuntimeError.

    sympy caches every expression it builds, so the change would reach every equation built
    alike in the process (a review made ours certify 9 apples for 5 + 3 this way).
    """
    changed: list[tuple[sympy.Expr, tuple[sympy.Basic, ...]]] = []

    def rewrites_args(eq: BoundEquation, _symbols: Symbols) -> str:
        changed.append((eq.rhs, eq.rhs.args))
        eq.rhs._args = tuple(sympy.Integer(4) if isinstance(a, sympy.Integer) else a for a in eq.rhs.args)  # noqa: SLF001
        return "add: [length] -> length"

    graph = _sam_adds_3_feet(entity="Mutated")  # an expression no other test builds
    try:
        with pytest.raises(RuntimeError, match="the reference changed the expression it was given"):
            crosscheck(graph, rewrites_args)
    finally:
        for expr, args in changed:  # the object is sympy's: mend it for the rest of this process
            expr._args = args  # noqa: SLF001


@pytest.mark.parametrize("raised", [SystemExit(0), GeneratorExit(), UnicodeDecodeError("utf-8", b"\xff", 0, 1, "bad")])
def test_base_exceptions_and_reasons_outside_the_vocabulary_are_crashes(raised: BaseException) -> None:
    """SystemExit, GeneratorExit and an exception whose .reason is no refusal reason are crashes, not refusals."""

    def raises(_eq: BoundEquation, _symbols: Symbols) -> str:
        raise raised

    eq, symbols = _record("add", ("a", "m"), ("b", "m"))
    assert as_reference(raises)(eq, symbols).startswith(f"crash: {type(raised).__name__}")


@pytest.mark.parametrize(
    ("returned", "expected"),
    [
        ("", "crash: returned '', which is no outcome"),
        ("<absent>", "crash: returned '<absent>', which is no outcome"),
        ("add: [a]\n-> b", "add: [a]\\n-> b"),
        ("x" * 5000, "x" * 1997 + "..."),
        ("add\x00: \x1b[31m[a]", "add\\x00: \\x1b[31m[a]"),  # a NUL and a terminal escape had been printed raw
    ],
    ids=["empty", "reserved", "newline", "long", "control"],
)
def test_returned_strings_are_one_clipped_line(returned: str, expected: str) -> None:
    """A returned string that is empty or reserved is a crash; one with newlines is escaped; a long one is clipped."""
    eq, symbols = _record("add", ("a", "m"), ("b", "m"))
    assert as_reference(lambda _e, _s: returned)(eq, symbols) == expected


def test_a_str_subclass_is_read_as_its_text() -> None:
    """A returned str subclass whose methods raise comes back as a plain str of its text."""

    class Sly(str):
        __slots__ = ()

        def partition(self, _sep: str) -> tuple[str, str, str]:
            raise RuntimeError("no")

    eq, symbols = _record("add", ("a", "m"), ("b", "m"))
    text = as_reference(lambda _e, _s: Sly("add: [length,length] -> length"))(eq, symbols)
    assert type(text) is str
    assert text == "add: [length,length] -> length"


@pytest.mark.parametrize(
    ("kind", "operands", "theirs", "category"),
    [
        ("add", [("a", "apples"), ("b", "apples")], "add: [count,count] -> dimensionless", "unclassified"),
        ("divide", [("a", "m"), ("b__divisor", None)], "divide: [length,dimensionless] -> mass", "unclassified"),
        ("multiply", [("a", "m"), ("b", "kg")], "multiply: [length,mass] -> length", "unclassified"),
        (
            "multiply",
            [("a", "m"), ("b", "kg")],
            "multiply: [length,mass] -> length*mass",
            "product_without_declared_unit",
        ),
        (
            "compare_multiplicative",
            [("a", "m"), ("b", "m")],
            "compare_multiplicative: [length,length] -> length",
            "theirs_admits_operand_arity",
        ),
        ("fraction_portion", [("a", "m")], "fraction_portion: [length] -> length", "theirs_admits_wrong_dimension"),
        ("add", [("a", "pack"), ("b", "oranges"), ("c", "£")], "add: [x] -> x", "theirs_admits_container_as_items"),
        ("unit_partition", [("a", "m"), ("b", "m")], "unknown_unit", "refusal_reason_differs"),
    ],
    ids=[
        "count_label_only_for_partitions",
        "odd_divide",
        "kg_as_scalar",
        "real_product",
        "arity",
        "wrong_dimension",
        "failing_pair",
        "both_refuse",
    ],
)
def test_categories_blame_the_right_side(
    kind: str, operands: list[tuple[str, str | None]], theirs: str, category: str
) -> None:
    """The review's misattributions: each lands where its evidence points, or is unclassified."""
    eq, symbols = _record(kind, *operands)
    verdict = check_equation(eq, symbols, VOCAB)
    assert classify(verdict, theirs, eq, symbols, vocab=VOCAB)[0] == category


def test_factors_are_compared_as_exact_numbers() -> None:
    """Factors agree when equal as exact numbers (0.01 is 1/100); a factor of 1 for cm is ignoring conversion."""
    eq, symbols = _record("add", ("a", "m"), ("b", "cm"))
    verdict = check_equation(eq, symbols, VOCAB)
    head = outcome(verdict)
    assert classify(verdict, f"{head}; factors a=1, b=0.01", eq, symbols, vocab=VOCAB)[0] == "agree"
    assert (
        classify(verdict, f"{head}; factors a=1, b=1", eq, symbols, vocab=VOCAB)[0]
        == "theirs_ignores_conversion_factor"
    )


@pytest.mark.slow
def test_replay_carries_composite_nouns_and_conventions(tmp_path: Path) -> None:
    """A declared noun inside X_per_Y, and the run's calendar conventions, travel with the example."""
    vocab = VOCAB.with_conventions({"year": "365 day"})

    def lenient(eq: BoundEquation, symbols: Symbols) -> str:
        verdict = check_equation(eq, symbols, vocab)
        return outcome(verdict) if verdict.proof is not None else "add: [x] -> x"

    report = fuzz(lenient, vocab=vocab, max_examples=BUDGET, seed=1)
    lines = [json.dumps(dict(m.record)) for m in report.minimal.values()]
    assert all('"conventions": {"year": "365 day"}' in line for line in lines)
    path = tmp_path / "replay.jsonl"
    path.write_text("\n".join(lines) + "\n")
    assert [p.category for p in crosscheck_file(path).pairs] == list(report.minimal)


@pytest.mark.parametrize("kinds", ["add", 5, ["a b"], [" add"]])
def test_kinds_must_be_a_collection_of_names(kinds: object) -> None:
    """kinds= given as one string, a non-iterable, or names with spaces is malformed_input at ``kinds``."""
    with pytest.raises(BindingGraphError) as info:
        fuzz(agrees, kinds=kinds)  # type: ignore[arg-type]
    assert info.value.path == "kinds"


def test_int_like_arguments_and_sets_of_kinds() -> None:
    """An int-like (operator.index) is an int; a set of kinds is sorted, so the run replays."""

    class IntLike:
        def __index__(self) -> int:
            return 20

    one = fuzz(agrees, max_examples=IntLike(), seed=IntLike(), kinds={"divide", "add"})  # type: ignore[arg-type]
    two = fuzz(agrees, max_examples=20, seed=20, kinds=["add", "divide"])
    assert one.to_json() == two.to_json()


def test_cli_against_a_module_that_exits_or_prints(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """sys.exit at import is a usage error (2); what a reference prints goes to stderr, never into --json."""
    (tmp_path / "exits_mod.py").write_text("import sys\nsys.exit(0)\n")
    (tmp_path / "prints_mod.py").write_text(
        "print('hello from import')\n"
        "def check(eq, symbols):\n"
        "    print('hello from check')\n"
        "    return 'unit_mismatch'\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    code, _ = _cli(["crosscheck", "--against", "exits_mod:check"])
    assert code == 2
    assert "SystemExit" in capsys.readouterr().err
    code, raw = _cli(["crosscheck", "--against", "prints_mod:check", "--fuzz", "20", "--json"])
    assert json.loads(raw)["seed"] == 0
    assert "hello from check" in capsys.readouterr().err


def test_against_refuses_layouts_it_cannot_judge(tmp_path: Path) -> None:
    """crosscheck_file with against= refuses a canonical text file: it judges equation-verdict records only."""
    path = tmp_path / "g.txt"
    path.write_text("S a A.m quantity entity=A unit=m span=t[0:1] by=lane\n")
    with pytest.raises(MathGraphError, match="equation-verdict records only"):
        crosscheck_file(path, against=agrees)


def test_cli_kind_choices_are_the_model_kinds(capsys: pytest.CaptureFixture[str]) -> None:
    """--kind takes the ten kinds only (a typo would fuzz unknown_operation and pass green)."""
    assert (
        verifier.cli.OPERATION_KINDS  # type: ignore[attr-defined]
        is verifier.model.OPERATION_KINDS
        is verifier.kinds.OPERATION_KINDS
    )
    with pytest.raises(SystemExit) as info:
        _cli(["crosscheck", "--against", "json:loads", "--kind", "frobnicate"])
    assert info.value.code == 2
    assert "invalid choice: 'frobnicate'" in capsys.readouterr().err


@pytest.mark.slow
def test_cli_fail_on_disagreement(monkeypatch: pytest.MonkeyPatch) -> None:
    """The worked run exits 0 (nothing unclassified), 1 with --fail-on-disagreement (theirs is wrong)."""
    root = Path(__file__).resolve().parents[2]
    monkeypatch.chdir(root)
    monkeypatch.syspath_prepend(str(root))
    argv = ["crosscheck", "--against", "examples.naive_admissibility:check", "--kind", "add", "--fuzz", "100"]
    assert _cli(argv)[0] == 0
    assert _cli([*argv, "--fail-on-disagreement"])[0] == 1
    agreeing = ["crosscheck", "--against", "test_crosscheck_fuzz:agrees", "--fuzz", "50", "--fail-on-disagreement"]
    monkeypatch.syspath_prepend(str(Path(__file__).parent))
    assert _cli(agreeing)[0] == 0
