"""The README's examples stay true: the outputs it shows are what the tools print."""

from __future__ import annotations

import io
from pathlib import Path

from verifier.cli import main

REPO = Path(__file__).resolve().parents[2]
README = (REPO / "README.md").read_text(encoding="utf-8")


def test_readme_check_example_output_is_exact() -> None:
    """Every line the README shows for `bgverify check examples/ribbon.json` is printed, in order."""
    out = io.StringIO()
    assert main(["check", str(REPO / "examples" / "ribbon.json")], out=out) == 0
    shown = README.split("$ bgverify check examples/ribbon.json\n", 1)[1].split("```", 1)[0].strip().splitlines()
    assert out.getvalue().strip().splitlines() == shown


def test_readme_refusal_example_line_is_printed() -> None:
    """The refusal line the README shows for the odd halving is printed verbatim."""
    out = io.StringIO()
    code = main(["check", str(REPO / "examples" / "apples.jsonl"), "--count-noun", "apples=apple"], out=out)
    assert code == 1
    shown = README.split("--count-noun apples=apple\n...\n", 1)[1].split("\n", 1)[0]
    assert shown in out.getvalue().splitlines()


def test_readme_notebook_snippet_runs() -> None:
    """The notebook snippet runs and its commented results hold."""
    snippet = README.split("## From a notebook\n\n```python\n", 1)[1].split("```", 1)[0]
    namespace: dict[str, object] = {}
    exec(compile(snippet, "README.md", "exec"), namespace)  # noqa: S102 - our own README, a test of the docs
    report = namespace["report"]
    assert repr(report).startswith("GraphReport(1 equation, 1 admitted;")
    assert str(report.answers["unknown_nia_apples"]) == "15 apples"  # type: ignore[attr-defined]
    assert namespace["vocab"].factor("mile", "meter").numerator == 201168  # type: ignore[attr-defined]
