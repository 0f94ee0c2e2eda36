"""Modules imported on first use, so that ``import verifier`` stays fast (SPEC §10; sympy alone takes about 0.13 s).

``from verifier.lazy import sympy`` gives an object that imports sympy the first time
one of its attributes is read, then serves every attribute as a plain read.  Modules
annotate with the real module under ``TYPE_CHECKING``.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from typing import Any

__all__ = ["LazyModule", "package_hooks", "sympy"]


class LazyModule:
    """A stand-in for the module ``name``: the first attribute read imports it (thread-safe, via the import lock)."""

    def __init__(self, name: str) -> None:
        self.__dict__["_lazy_name"] = name

    def __getattr__(self, attribute: str) -> Any:  # noqa: ANN401 -- a module's attribute is of any type
        module = importlib.import_module(self.__dict__["_lazy_name"])
        value = getattr(module, attribute)
        self.__dict__[attribute] = value  # later reads of this attribute are plain reads
        return value

    def __repr__(self) -> str:
        return f"LazyModule({self.__dict__['_lazy_name']!r})"


sympy = LazyModule("sympy")


def package_hooks(
    package: str, public: Sequence[str], homes: Mapping[str, str] | None = None
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """A package's PEP 562 ``__getattr__`` and ``__dir__``: ``__version__`` read on first use, and lazy names.

    Args:
        package: the package's name, for the error message.
        public: its ``__all__``; ``dir(package)`` is these names and ``__version__``.
        homes: public name -> the module it is imported from on first use (none: all eager).

    Returns:
        ``(__getattr__, __dir__)``; ``__getattr__`` raises ``AttributeError`` for any other name.
    """
    lazy = dict(homes or {})

    def getattr_(name: str) -> Any:  # noqa: ANN401 -- PEP 562: a package attribute is of any type
        if name == "__version__":
            version = importlib.import_module("units.version")  # units loads pint: only when asked
            return version.distribution_version()
        home = lazy.get(name)
        if home is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        return getattr(importlib.import_module(home), name)  # not cached: a reloaded submodule stays the one served

    def dir_() -> list[str]:
        return sorted({*public, "__version__"})

    return getattr_, dir_
