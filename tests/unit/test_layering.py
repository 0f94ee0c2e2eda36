"""The package boundaries, read from the imports (STYLE §1): no package reaches into another's private module.

A module whose name starts with ``_`` (``units._pint``, ``adapters._common``,
``verifier._fuzzing``) belongs to its package; every shared helper has a public home
(``units.exact``, ``units.version``, ``verifier.expr``, ``verifier.lazy``).  And
``units`` knows nothing of graphs: it imports no other package of the project.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("units", "adapters", "verifier", "evals")


def _imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
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
    own = path.relative_to(ROOT).parts[0]
    bad = []
    for name in _imports(path):
        parts = name.split(".")
        if parts[0] in PACKAGES and parts[0] != own and any(p.startswith("_") and p != "__init__" for p in parts[1:]):
            bad.append(name)
    assert bad == [], f"{path.relative_to(ROOT)} imports private modules of another package: {bad}"


@pytest.mark.parametrize("path", sorted((ROOT / "units").rglob("*.py")), ids=lambda p: p.name)
def test_units_imports_no_other_package(path: Path) -> None:
    others = [n for n in _imports(path) if n.split(".")[0] in PACKAGES and n.split(".")[0] != "units"]
    assert others == [], f"units/{path.name} imports {others}"


def test_the_check_sees_a_private_import(tmp_path: Path) -> None:
    """The reader finds a planted violation (so the tests above can fail)."""
    planted = tmp_path / "m.py"
    planted.write_text("from units._pint import build_registry\nimport verifier._fuzzing\n")
    assert "units._pint.build_registry" in _imports(planted)
    assert "verifier._fuzzing" in _imports(planted)
