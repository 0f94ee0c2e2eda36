"""Every public module declares its public names (``__all__``), and packages show only those in ``dir()``."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("units", "adapters", "verifier", "evals")
MODULES = sorted(
    p
    for package in PACKAGES
    for p in (ROOT / package).glob("*.py")
    if not p.name.startswith("_") or p.name == "__init__.py"
)


def _module_name(path: Path) -> str:
    rel = path.relative_to(ROOT).with_suffix("")
    parts = rel.parts[:-1] if rel.name == "__init__" else rel.parts
    return ".".join(parts)


@pytest.mark.parametrize("path", MODULES, ids=[_module_name(p) for p in MODULES])
def test_public_module_declares_all_and_every_name_exists(path: Path) -> None:
    """A public module's ``__all__`` is a list without duplicates, and every name in it exists."""
    name = _module_name(path)
    module = importlib.import_module(name)
    assert isinstance(module.__all__, list), name
    assert module.__all__ == sorted(set(module.__all__), key=module.__all__.index), f"{name}: duplicates"
    missing = [n for n in module.__all__ if not hasattr(module, n)]
    assert missing == [], f"{name}.__all__ names what it does not define: {missing}"


@pytest.mark.parametrize("path", [p for p in MODULES if p.name != "__init__.py"], ids=_module_name)
def test_every_public_definition_is_in_all(path: Path) -> None:
    """A public function or class the module defines is listed (so nothing public is left unsaid)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    defined = [
        n.name
        for n in tree.body
        if isinstance(n, (ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef)) and not n.name.startswith("_")
    ]
    listed = set(importlib.import_module(_module_name(path)).__all__)
    assert [n for n in defined if n not in listed] == []


@pytest.mark.parametrize("package", PACKAGES)
def test_dir_of_a_package_is_its_public_names(package: str) -> None:
    """``dir()`` of a package is its ``__all__`` plus ``__version__``, no private name."""
    module = importlib.import_module(package)
    assert dir(module) == sorted({*module.__all__, "__version__"})
    assert not [n for n in dir(module) if n.startswith("_") and n != "__version__"]
