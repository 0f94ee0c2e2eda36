"""An unknown unit that is a typo of another unit the same input writes is named as one, not offered as a noun.

Following the old advice (``--count-noun aples=aple`` beside ``apples``) made the typo a
kind of its own, and the graph then answered 3 apples where its reader meant 5.
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from adapters import MathGraphError, bind_math_problem_graph, graph_from_dict
from units import UnitRefusal, default_vocabulary
from units.nouns import WRITTEN_CONTEXT_LIMIT, WRITTEN_DISTINCT_LIMIT, edit_distance, noun_forms, written_near_miss
from verifier import Answer, BindingGraph, Refusal, check_equation, verify
from verifier.cli import main

APLES = {
    "entities": ["Tom"],
    "initial_state": [{"entity": "Tom", "quantity": {"value": 3, "unit": "apples"}}],
    "operations": [{"kind": "add", "actor": "Tom", "operand": {"value": 2, "unit": "aples"}}],
    "unknown": {"entity": "Tom", "unit": "apples"},
}


@pytest.mark.parametrize(
    ("noun", "others", "twin"),
    [
        ("aples", ["apples", "apples"], "apples"),
        ("appels", ["apples"], "apples"),
        ("feeet", ["inches", "feet"], "feet"),
        ("aples", ["aples", "apples"], "apples"),
        ("apples", ["apples", "apples", "aples"], "aples"),  # either may be the typo: the message says so
        ("aples", ["pies", "apples"], "apples"),  # fewest edits first, not first written
        ("apple", ["apples"], None),  # one noun, singular and plural
        ("aples", ["pears", "plums"], None),
        ("aples", [None, 3, "", "aples"], None),  # non-strings, empty text and the noun itself are skipped
        ("aples", [], None),
        ("None", ["boxes"], None),  # near only through other spellings (nones, boxes): no typo as written
        ("ss", ["d"], None),
        ("d", ["ss"], None),
        ("puppie", ["puppy"], "puppy"),  # one spelling shared (puppies), though two edits apart as written
    ],
)
def test_written_near_miss_names_the_surface_a_typo_misses(noun: str, others: list[object], twin: str | None) -> None:
    """The first other surface of the input that the noun misses, unless that one is written less often."""
    assert written_near_miss(noun, others) == twin


def _detail(surface: str, context: list[object], vocab: object = None) -> str:
    voc = default_vocabulary() if vocab is None else vocab
    with pytest.raises(UnitRefusal) as info:
        voc.resolve(surface, path="u", context=context)  # type: ignore[attr-defined]
    assert info.value.reason == "unknown_unit"
    return info.value.detail


TWO_UNDECLARED = (
    "not in en_units_v1; a near miss of {!r}, which the same input writes too: one of the two is likely a typo;"
    " correct it, then declare the noun meant"
)


def test_a_typo_of_an_undeclared_noun_names_the_noun_and_offers_no_declaration() -> None:
    """The typo aples beside apples names apples (not the lexicon's piles), and gives no --count-noun to paste.

    A newcomer pasted the declaration the first wording offered beside apples=apple,
    and got 3 apples certified for 3 apples and 2 aples.  Neither surface resolves, so
    either may be the typo: the message says so, for each of the two.
    """
    assert _detail("aples", ["apples", "aples", "apples"]) == TWO_UNDECLARED.format("apples")
    assert _detail("apples", ["apples", "aples", "apples"]) == TWO_UNDECLARED.format("aples")
    assert "piles" in _detail("aples", [])  # without the input's surfaces: the lexicon's nearest, as before


def test_a_typo_of_a_unit_that_resolves_offers_no_declaration() -> None:
    """A typo such as feeet beside feet, or aples beside a declared apples: the typo is corrected, never declared."""
    assert _detail("feeet", ["feet", "feeet"]) == (
        "not in en_units_v1; a near miss of 'feet', which the same input writes: did you mean 'feet'?"
    )
    declared = default_vocabulary().with_count_nouns({"apples": "apple"})
    assert _detail("aples", ["apples", "aples"], declared) == (
        "not in en_units_v1; a near miss of 'apples', which the same input writes: did you mean 'apples'?"
    )


def test_a_lexicon_near_miss_the_input_does_not_write_keeps_the_old_wording() -> None:
    """The typos inchs (inches), minuts beside pints (minutes, not pints): the lexicon's spelling comes first.

    The declaration follows as the other choice (newcomer trial: feeet was told to declare itself, beside feet).
    """
    assert _detail("inchs", ["feet"]).startswith(
        "not in en_units_v1; did you mean 'inches'? If 'inchs' is a count noun of its own, declare it:"
    )
    assert _detail("minuts", ["pints", "minuts"]).startswith("not in en_units_v1; did you mean 'minutes'?")
    assert _detail("minuts", ["minutes", "minuts"]).startswith(
        "not in en_units_v1; a near miss of 'minutes', which the same input writes"
    )


def test_a_noun_beside_no_near_miss_is_told_how_to_declare_it() -> None:
    """The surface apples beside pears is told how to declare apples, as before."""
    detail = _detail("apples", ["apples", "pears"])
    assert "near miss" not in detail
    assert "--count-noun apples=apple" in detail


def test_the_context_is_read_only_when_the_message_is() -> None:
    """A refusal raised and caught without being read never looks at the input's surfaces."""

    class Untouchable:
        def __iter__(self) -> object:
            raise AssertionError("context read before the message")

    with pytest.raises(UnitRefusal) as info:
        default_vocabulary().resolve("aples", context=Untouchable())  # type: ignore[arg-type]
    assert info.value.reason == "unknown_unit"


def test_the_graph_refusals_name_the_typo_in_admissibility_and_values() -> None:
    """The equation's verdict and the values stage both name apples; the answer is refused, not 3 apples."""
    vocab = default_vocabulary()
    bound = bind_math_problem_graph(graph_from_dict(APLES), vocab)
    (equation,) = bound.equations
    verdict = check_equation(equation, bound.symbols, vocab)
    assert verdict.refusal is not None
    assert "a near miss of 'apples', which the same input writes" in verdict.refusal.detail
    report = verify(bound, vocab)
    (answer,) = report.answers.values()
    assert isinstance(answer, Refusal)
    assert not isinstance(answer, Answer)
    assert answer.reason == "unknown_unit"
    declared = vocab.with_count_nouns({"apples": "apple"})
    report = verify(bind_math_problem_graph(graph_from_dict(APLES), declared), declared)
    (answer,) = report.answers.values()
    assert isinstance(answer, Refusal)
    assert "'aples' at op_000_result.unit: not in en_units_v1; a near miss of 'apples'" in answer.detail


def test_the_cli_names_the_typo_not_a_lexicon_word(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The command bgverify check on the graph: exit 1, 'did you mean apples', no 'piles'."""
    path = tmp_path / "aples.json"
    path.write_text(json.dumps(APLES), encoding="utf-8")
    assert main(["check", str(path)]) == 1
    out = capsys.readouterr().out
    assert TWO_UNDECLARED.format("apples") in out
    assert "piles" not in out


def test_a_binding_refusal_reports_the_typo_as_one() -> None:
    """A multiply of aples (Tom holds apples) cannot bind; the unit refusal it reports names apples."""
    graph = {**APLES, "operations": [{"kind": "multiply", "actor": "Tom", "operand": {"value": 2, "unit": "aples"}}]}
    vocab = default_vocabulary().with_count_nouns({"apples": "apple"})
    with pytest.raises(MathGraphError) as info:
        bind_math_problem_graph(graph_from_dict(graph), vocab)
    assert info.value.reason == "unknown_unit"
    assert info.value.path == "operations[0].operand.unit"
    assert "a near miss of 'apples', which the same input writes: did you mean 'apples'?" in info.value.detail


def test_the_context_read_is_bounded() -> None:
    """An input with many unknown units words a refusal for each: each reads a bounded prefix of its context.

    An endless iterator of surfaces is read only as far as WRITTEN_CONTEXT_LIMIT; more
    than WRITTEN_DISTINCT_LIMIT distinct surfaces name no twin (a review's 300 distinct
    typo'd units had taken 7 s to verify, against 0.5 s before the hint).
    """
    endless = itertools.chain(["apples"], (f"unit{i}" for i in itertools.count()))
    assert written_near_miss("aples", endless) is None  # 256 read, 256 distinct: too many to compare
    assert next(endless) == f"unit{WRITTEN_CONTEXT_LIMIT - 1}"  # the rest was never read
    few = ["apples", *(f"unit{i}" for i in range(WRITTEN_DISTINCT_LIMIT - 1))]
    assert written_near_miss("aples", few) == "apples"
    assert written_near_miss("aples", [*few, "one more"]) is None
    with pytest.raises(UnitRefusal) as info:
        default_vocabulary().resolve("aples", context=itertools.chain(["apples"], itertools.repeat("pears")))
    assert "a near miss of 'apples', which the same input writes" in info.value.detail


def test_a_graph_and_its_json_copy_get_the_same_report() -> None:
    """The binder checks each equation against the graph's own symbols (its unknown's included), as verify does.

    A review found a transfer of 'aples' worded two ways: the binder had checked before
    adding the unknown's symbol, a fresh check after.
    """
    graph = {
        "entities": ["Tom", "Ann"],
        "initial_state": [{"entity": "Tom", "quantity": {"value": 3, "unit": "aples"}}],
        "operations": [{"kind": "transfer", "actor": "Tom", "target": "Ann", "operand": {"value": 1, "unit": "aples"}}],
        "unknown": {"entity": "Ann", "unit": "apples"},  # the one place apples is written
    }
    vocab = default_vocabulary().with_count_nouns({"apples": "apple"})
    bound = bind_math_problem_graph(graph_from_dict(graph), vocab)
    copy = BindingGraph.from_json(json.loads(json.dumps(bound.to_json())))
    assert copy == bound
    report = verify(bound, vocab)
    assert report == verify(copy, vocab)
    refusal = report.verdicts["op_000_result"].refusal
    assert refusal is not None
    assert "a near miss of 'apples', which the same input writes" in refusal.detail


def test_a_caller_s_odd_objects_never_break_the_message() -> None:
    """A symbol table holding a non-binding whose unit raises, or a context whose items compare oddly: a refusal."""

    class Junk:
        @property
        def unit(self) -> str:
            raise RuntimeError("unit property")

        def __eq__(self, other: object) -> bool:
            raise RuntimeError("eq")

        __hash__ = object.__hash__

    vocab = default_vocabulary()
    bound = bind_math_problem_graph(graph_from_dict(APLES), vocab)
    table: dict[str, object] = {**bound.symbols_by_id, "junk": Junk()}
    verdict = check_equation(bound.equations[0], table, vocab)
    assert verdict.refusal is not None
    assert verdict.refusal.reason == "unknown_unit"
    assert _detail("aples", [Junk(), "apples", Junk()]) == TWO_UNDECLARED.format("apples")


_LETTERS = "abdeilnorsx"


@given(
    noun=st.text(alphabet=_LETTERS, min_size=1, max_size=7),
    edits=st.lists(st.tuples(st.integers(0, 7), st.sampled_from(_LETTERS)), max_size=2),
    plural=st.booleans(),
)
def test_a_named_twin_is_a_typo_apart_as_written(noun: str, edits: list[tuple[int, str]], *, plural: bool) -> None:
    """A surface is named only when it is at most two edits from the noun as written, or shares a spelling with it.

    The near-miss rule compares every spelling of each (plurals, singulars); without this
    bound ``None`` was told ``did you mean 'boxes'?`` (``boxes`` is two edits from ``nones``,
    three from ``none``).  The other surface is drawn near one of the noun's spellings.
    """
    other = list(noun + "s" if plural else noun)
    for at, letter in edits:
        other[at % len(other)] = letter
    written = "".join(other)
    if written_near_miss(noun, [written]) == written:
        assert edit_distance(noun, written, 6) <= 2 or noun_forms(noun) & noun_forms(written)
