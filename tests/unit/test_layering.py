"""The package boundaries, read from the imports (STYLE §1).

No package reaches into another's private module: a module whose name starts with
``_`` (``units._pint``, ``adapters._common``, ``verifier._fuzzing``) belongs to its
package; every shared helper has a public home (``units.exact``, ``units.version``,
``verifier.expr``, ``verifier.lazy``).

And imports point one way: adapters → verifier → units.  ``units`` imports no other
package; the verifier's core imports neither ``adapters`` nor ``evals``; ``adapters``
imports no ``evals``.  The verifier modules that read input formats sit on top, beside
the CLI, because the SPEC names them there (:data:`VERIFIER_TOP`); nothing below
imports them.  Imports under ``if TYPE_CHECKING:`` do not run, so they do not count.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("units", "adapters", "verifier", "evals")


def _imports(path: Path, *, runtime_only: bool = False) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    if runtime_only:
        for node in ast.walk(tree):
            if isinstance(node, ast.If) and ast.unparse(node.test) in ("TYPE_CHECKING", "typing.TYPE_CHECKING"):
                node.body = []
    out: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.append(node.module)
            out += [f"{node.module}.{alias.name}" for alias in node.names]
        elif isinstance(node, ast.Import):
            out += [alias.name for alias in node.names]
    return out


MODULES = sorted(p for package in PACKAGES for p in (ROOT / package).rglob("*.py"))


@pytest.mark.parametrize("path", MODULES, ids=[str(p.relative_to(ROOT)) for p in MODULES])
def test_no_private_module_of_another_package_is_imported(path: Path) -> None:
    """A package module imports no ``_``-prefixed module of another package."""
    own = path.relative_to(ROOT).parts[0]
    bad = []
    for name in _imports(path):
        parts = name.split(".")
        if parts[0] in PACKAGES and parts[0] != own and any(p.startswith("_") and p != "__init__" for p in parts[1:]):
            bad.append(name)
    assert bad == [], f"{path.relative_to(ROOT)} imports private modules of another package: {bad}"


@pytest.mark.parametrize("path", sorted((ROOT / "units").rglob("*.py")), ids=lambda p: p.name)
def test_units_imports_no_other_package(path: Path) -> None:
    """A units module imports none of adapters, verifier or evals."""
    others = [n for n in _imports(path) if n.split(".")[0] in PACKAGES and n.split(".")[0] != "units"]
    assert others == [], f"units/{path.name} imports {others}"


VERIFIER_TOP = frozenset(
    {
        "verifier.__main__",
        "verifier.cli",
        "verifier.crosscheck",  # crosscheck_file reads the upstream corpus layouts (SPEC §7)
        "verifier._fuzzing",
        "verifier.testing",  # SPEC §9: assertion helpers over graphs in any format
        "verifier.strategies",  # SPEC §9: shipped strategies that draw math graphs
        "verifier.pytest_plugin",  # SPEC §9: gates on lane files
    }
)
"""The verifier modules on top of the adapters (they read input formats); the SPEC names them in ``verifier``."""


def _module(path: Path) -> str:
    return ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")


def _upward(path: Path) -> list[str]:
    """The imports of ``path`` that point up the arrow adapters → verifier → units."""
    module = _module(path)
    package = module.split(".")[0]
    names = _imports(path, runtime_only=True)
    if package == "verifier" and module not in VERIFIER_TOP:
        return [n for n in names if n.split(".")[0] in ("adapters", "evals") or _in_top(n)]
    if package == "adapters":
        return [n for n in names if n.split(".")[0] == "evals" or _in_top(n)]
    return []


def _in_top(name: str) -> bool:
    return any(name == top or name.startswith(top + ".") for top in VERIFIER_TOP)


LAYERED = sorted(p for package in ("adapters", "verifier") for p in (ROOT / package).rglob("*.py"))


@pytest.mark.parametrize("path", LAYERED, ids=[str(p.relative_to(ROOT)) for p in LAYERED])
def test_imports_point_one_way(path: Path) -> None:
    """An adapters or core verifier module imports nothing up the arrow adapters → verifier → units."""
    assert _upward(path) == [], f"{path.relative_to(ROOT)} imports up the arrow: {_upward(path)}"


def test_the_arrow_check_sees_an_upward_import(tmp_path: Path) -> None:
    """A core verifier module that imports the adapters, even inside a function, is found; a TYPE_CHECKING one is not."""
    planted = tmp_path / "m.py"
    planted.write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from adapters import MathGraphError\n"
        "def f():\n    from adapters.records import bind_record\n    import verifier.crosscheck\n"
    )
    names = _imports(planted, runtime_only=True)
    assert "adapters.records.bind_record" in names
    assert "verifier.crosscheck" in names
    assert "adapters.MathGraphError" not in names
    assert _in_top("verifier.crosscheck.CATEGORIES")
    assert not _in_top("verifier.categories")


def test_the_check_sees_a_private_import(tmp_path: Path) -> None:
    """The reader finds a planted violation (so the tests above can fail)."""
    planted = tmp_path / "m.py"
    planted.write_text("from units._pint import build_registry\nimport verifier._fuzzing\n")
    assert "units._pint.build_registry" in _imports(planted)
    assert "verifier._fuzzing" in _imports(planted)
