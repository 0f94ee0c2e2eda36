"""The closed ``en_units_v1`` unit vocabulary as a restricted pint registry.

Knows nothing of graphs; never imports sympy.  See SPEC §3.
"""

from units.dimension import BASE_DIMENSIONS, DimensionVector
from units.errors import RefusalError, UnitRefusal
from units.lexicon import load_lexicon
from units.version import distribution_version
from units.vocabulary import UnitRef, UnitVocabulary, default_vocabulary

__all__ = [
    "BASE_DIMENSIONS",
    "DimensionVector",
    "RefusalError",
    "UnitRef",
    "UnitRefusal",
    "UnitVocabulary",
    "default_vocabulary",
    "load_lexicon",
]


def __getattr__(name: str) -> str:
    """``__version__``: the distribution's version, read on first use (PEP 562)."""
    if name == "__version__":
        return distribution_version()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    """The public names (``__all__`` and ``__version__``), not the submodules imported on the way."""
    return sorted({*__all__, "__version__"})
