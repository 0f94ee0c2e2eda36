"""Modules imported on first use, so that ``import verifier`` stays fast (SPEC §10; sympy alone takes about 0.13 s).

``from verifier.lazy import sympy`` gives an object that imports sympy the first time
one of its attributes is read, then serves every attribute as a plain read.  Modules
annotate with the real module under ``TYPE_CHECKING``.
"""

from __future__ import annotations

import importlib
from typing import Any

__all__ = ["LazyModule", "sympy"]


class LazyModule:
    """A stand-in for the module ``name``: the first attribute read imports it (thread-safe, via the import lock)."""

    def __init__(self, name: str) -> None:
        self.__dict__["_lazy_name"] = name

    def __getattr__(self, attribute: str) -> Any:
        module = importlib.import_module(self.__dict__["_lazy_name"])
        value = getattr(module, attribute)
        self.__dict__[attribute] = value  # later reads of this attribute are plain reads
        return value

    def __repr__(self) -> str:
        return f"LazyModule({self.__dict__['_lazy_name']!r})"


sympy = LazyModule("sympy")
