"""examples/corpus.ipynb runs top to bottom and shows each result's view (SPEC §9); skipped without nbclient."""

from __future__ import annotations

from pathlib import Path

import pytest

pytestmark = [
    pytest.mark.filterwarnings("ignore::DeprecationWarning"),
    pytest.mark.filterwarnings("ignore::UserWarning"),
]

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.mark.slow
def test_the_corpus_notebook_executes_and_renders_every_view() -> None:
    """Every code cell runs; the Scoreboard, report, verdict and cross-check show as HTML, the proof as LaTeX."""
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel")
    notebook = nbformat.read(EXAMPLES / "corpus.ipynb", as_version=4)
    client = nbclient.NotebookClient(
        notebook, timeout=180, kernel_name="python3", resources={"metadata": {"path": str(EXAMPLES)}}
    )
    client.execute()
    outputs = [o for cell in notebook.cells if cell.cell_type == "code" for o in cell.outputs]
    assert not [o for o in outputs if o.get("output_type") == "error"]
    html = [o["data"]["text/html"] for o in outputs if "text/html" in o.get("data", {})]
    assert any("<th>wrong</th>" in h and "planted-wrong-gold" in h for h in html)  # the Scoreboard
    assert any("<caption>trace</caption>" in h and "Ana.feet@t0" in h for h in html)  # the GraphReport
    assert any("<caption>theirs_admits_incommensurable_currencies</caption>" in h for h in html)  # the cross-check
    latex = [o["data"]["text/latex"] for o in outputs if "text/latex" in o.get("data", {})]
    assert any(r"\frac{1}{12}" in t for t in latex)  # the proof, with its inches-to-feet factor
