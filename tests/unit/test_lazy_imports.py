"""Start-up stays light: importing the packages and building the default vocabulary loads no sympy (SPEC §10)."""

from __future__ import annotations

import subprocess
import sys

CODE = """
import sys
import units, adapters, verifier
units.default_vocabulary()
print("sympy" in sys.modules)
from adapters import bind_math_problem_graph, graph_from_dict
g = graph_from_dict({"entities": ["A"], "initial_state": [{"entity": "A", "quantity": {"unit": "feet", "value": 5}}],
                     "operations": [{"actor": "A", "kind": "add", "operand": {"unit": "inches", "value": 3}}],
                     "unknown": {"entity": "A", "unit": "inches"}})
print(verifier.verify(bind_math_problem_graph(g)).answers["unknown_a_inches"])
"""


def test_import_and_default_vocabulary_load_no_sympy() -> None:
    """The packages import sympy on first use (an answer's Rational, an expression), not on import."""
    out = subprocess.run(  # noqa: S603 - our own constant script, in a fresh interpreter
        [sys.executable, "-c", CODE], capture_output=True, text=True, check=True
    ).stdout.split("\n")
    assert out[0] == "False"
    assert out[1] == "63 inches"


def test_the_pytest_plugin_imports_nothing_heavy() -> None:
    """Loading the plugin (as pytest does for every suite once the package is installed) loads no pint, sympy or vocabulary."""
    code = "import sys, verifier.pytest_plugin; print(sorted(m for m in ('pint', 'sympy', 'units', 'adapters') if m in sys.modules))"
    out = subprocess.run(  # noqa: S603 - our own constant script, in a fresh interpreter
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert out == "[]"
