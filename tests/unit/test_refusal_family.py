"""One refusal family (issue #16): every typed error is a ``units.errors.RefusalError``.

So one ``except RefusalError`` catches a unit, model, adapter, question-target or
evaluation error; each pickles as itself with its fields; each keeps its message; and
``Refusal.from_error`` turns any of them into the refusal a report carries.
"""

from __future__ import annotations

import pickle
from fractions import Fraction
from typing import get_args

import pytest
import sympy

import units
import verifier
from adapters import AdapterError, MathGraphError, graph_from_dict, parse_canonical_text
from adapters.corpus import BadRecord, RecordsError
from units import RefusalError, UnitRefusal, default_vocabulary
from units.errors import LazyDetailRefusal, LexiconError
from units.reasons import REASON_STAGES, RefusalReason, is_refusal_reason
from verifier import BindingGraphError, Refusal, SourceSpanLink
from verifier.expr import EvaluationError, evaluate
from verifier.reasons import REFUSAL_REASONS
from verifier.targets import QuestionTargetError


def _raised(action: object) -> RefusalError:
    try:
        action()  # type: ignore[operator]
    except RefusalError as exc:  # the one except this family is for
        return exc
    raise AssertionError("nothing was raised")


CASES = {
    "unit": lambda: default_vocabulary().resolve("feets", path="facts[0].unit"),
    "model": lambda: SourceSpanLink(source_id="s", start=3, end=1),
    "adapter": lambda: graph_from_dict({"entities": "Sam"}),
    "evaluation": lambda: evaluate(sympy.Symbol("a") / sympy.Symbol("b"), {"a": Fraction(1), "b": Fraction(0)}),
    "question target": lambda: (_ for _ in ()).throw(QuestionTargetError("unmappable_question_form", "no form fits")),
}
TYPES = {
    "unit": UnitRefusal,
    "model": BindingGraphError,
    "adapter": MathGraphError,
    "evaluation": EvaluationError,
    "question target": QuestionTargetError,
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_one_except_catches_every_typed_error(case: str) -> None:
    """Each stage's typed error is caught by ``except RefusalError``, is still a ValueError, and has a known reason."""
    exc = _raised(CASES[case])
    assert isinstance(exc, TYPES[case])
    assert isinstance(exc, ValueError)  # every one was a ValueError before, and still is
    assert exc.reason in REFUSAL_REASONS


@pytest.mark.parametrize("case", sorted(CASES))
def test_each_error_pickles_as_itself(case: str) -> None:
    """Each typed error pickles back as its own type with the same fields and message."""
    exc = _raised(CASES[case])
    back = pickle.loads(pickle.dumps(exc))  # noqa: S301 - our own bytes
    assert type(back) is (UnitRefusal if isinstance(exc, LazyDetailRefusal) else type(exc))
    assert (back.reason, back.detail, back.subject, back.path) == (exc.reason, exc.detail, exc.subject, exc.path)
    assert str(back) == str(exc)


def test_the_messages_keep_their_shapes() -> None:
    """Each error's message keeps its shape: reason, subject, path, then the detail."""
    unit = _raised(CASES["unit"])
    assert str(unit).startswith("unknown_unit: 'feets' at facts[0].unit: ")
    model = _raised(CASES["model"])
    assert str(model) == "malformed_input at source_span: need 0 <= start < end, found [3:1]"
    assert str(_raised(CASES["question target"])) == "unmappable_question_form: no form fits"
    assert str(_raised(CASES["evaluation"])).startswith("division_by_zero: ")


def test_from_error_gives_the_message_without_its_reason() -> None:
    """Refusal.from_error keeps the reason and the message without its reason as the detail."""
    unit = _raised(CASES["unit"])
    assert Refusal.from_error(unit) == Refusal(reason="unknown_unit", detail=unit.explain())
    assert Refusal.from_error(unit).detail.startswith("'feets' at facts[0].unit: ")
    target = _raised(CASES["question target"])
    assert Refusal.from_error(target) == Refusal(reason="unmappable_question_form", detail="no form fits")
    model = _raised(CASES["model"])
    assert Refusal.from_error(model) == Refusal(reason="malformed_input", detail=f"at source_span: {model.detail}")


def test_a_reason_outside_the_vocabulary_is_refused_at_construction() -> None:
    """An error built with a reason outside the closed vocabulary (or of another stage) is a ValueError."""
    with pytest.raises(ValueError, match="not a refusal reason"):
        BindingGraphError("because", "x")  # type: ignore[arg-type]  # the runtime check is what is tested
    with pytest.raises(ValueError, match="not a unit refusal reason"):
        UnitRefusal("division_by_zero", "x")  # a reason, but not a unit one
    with pytest.raises(ValueError, match="not a refusal reason"):
        RefusalError("because", "x")  # type: ignore[arg-type]  # the runtime check is what is tested


def test_the_special_unit_errors_pickle_too() -> None:
    """A lazy-detail refusal pickles as a plain UnitRefusal with its detail; a LexiconError keeps its rows."""
    lazy = LazyDetailRefusal("unknown_unit", lambda: "did you mean 'feet'?", "feets", "u")
    back = pickle.loads(pickle.dumps(lazy))  # noqa: S301 - our own bytes
    assert type(back) is UnitRefusal  # documented: it pickles as a plain UnitRefusal with the computed detail
    assert back.detail == "did you mean 'feet'?"
    rows = (UnitRefusal("malformed_input", "bad row", "x", "line 3"),)
    lexicon = LexiconError("lexicon.jsonl", rows)
    again = pickle.loads(pickle.dumps(lexicon))  # noqa: S301 - our own bytes
    assert type(again) is LexiconError
    assert [str(e) for e in again.errors] == [str(e) for e in rows]
    assert again.subject == "lexicon.jsonl"


def test_the_base_is_public_in_units_and_verifier() -> None:
    """units.RefusalError and verifier.RefusalError are one class."""
    assert units.RefusalError is verifier.RefusalError is RefusalError


def test_a_records_error_pickles_with_its_bad_lines() -> None:
    """A RecordsError pickles back with its fields and each bad line's source, number and error."""
    bad = BadRecord(source="cases.jsonl", line=7, error=MathGraphError("malformed_input", "not JSON", "line"))
    exc = RecordsError("cases.jsonl", (bad,))
    back = pickle.loads(pickle.dumps(exc))  # noqa: S301 - our own bytes
    assert type(back) is RecordsError
    assert (back.reason, back.detail, back.path, back.source) == (exc.reason, exc.detail, exc.path, "cases.jsonl")
    assert [(b.source, b.line, str(b.error)) for b in back.errors] == [("cases.jsonl", 7, str(bad.error))]
    assert isinstance(back, RefusalError)


def test_every_adapter_raises_one_error_class_under_two_names() -> None:
    """AdapterError is MathGraphError, and both graph readers raise it."""
    assert AdapterError is MathGraphError
    exc = _raised(lambda: parse_canonical_text("Q nonsense"))
    assert isinstance(exc, AdapterError)
    assert isinstance(_raised(CASES["adapter"]), AdapterError)


def test_every_reason_of_the_type_says_where_it_is_raised() -> None:
    """The Literal type and the stage table name the same closed set of reasons, each once."""
    assert set(REASON_STAGES) == set(get_args(RefusalReason)) == REFUSAL_REASONS
    assert len(get_args(RefusalReason)) == len(REFUSAL_REASONS)
    assert is_refusal_reason("unit_mismatch")
    assert not is_refusal_reason("because")
    assert not is_refusal_reason(3)
