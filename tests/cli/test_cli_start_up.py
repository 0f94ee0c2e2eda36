"""The command line starts light: ``bgverify --help`` and ``--version`` load no units, pint or sympy.

Each command imports what it runs inside its function (pyproject's per-file ignore of
PLC0415 for ``verifier/cli.py`` rests on this test).
"""

from __future__ import annotations

import subprocess
import sys

HEAVY = ("adapters", "evals", "pint", "sympy", "units")


def _loaded_after(code: str) -> list[str]:
    """The heavy modules a fresh interpreter has loaded after running ``code``."""
    script = f"import sys\n{code}\nprint(sorted(m for m in {HEAVY!r} if m in sys.modules))"
    out = subprocess.run(  # noqa: S603 -- our own constant script, in a fresh interpreter
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    return [name.strip(" '") for name in out.stdout.strip().strip("[]").split(",") if name.strip()]


def test_importing_the_cli_loads_nothing_heavy() -> None:
    """``import verifier.cli`` (what the ``bgverify`` script does first) loads none of the heavy modules."""
    assert _loaded_after("import verifier.cli") == []


def test_help_loads_nothing_heavy() -> None:
    """``bgverify --help`` builds its parser and exits without loading units, pint or sympy."""
    code = (
        "import contextlib, io\n"
        "import verifier.cli\n"
        "with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):\n"
        "    verifier.cli.main(['--help'])"
    )
    assert _loaded_after(code) == []


def test_a_command_loads_what_it_runs() -> None:
    """The two tests above can fail: running ``lanes`` loads the packages it needs."""
    code = (
        "import contextlib, io\n"
        "import verifier.cli\n"
        "with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):\n"
        "    verifier.cli.main(['lanes'])"
    )
    assert set(_loaded_after(code)) >= {"adapters", "evals", "pint", "units"}
