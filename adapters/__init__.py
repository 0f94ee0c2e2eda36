"""Adapters: each input format becomes a ``verifier.BindingGraph``.  See SPEC §5."""

from adapters.canonical_text import RecordedVerdict, parse_canonical_text
from adapters.errors import MathGraphError
from adapters.math_graph import (
    FRACTION_REFERENTS,
    Comparison,
    FractionPortion,
    InitialPossession,
    MathProblemGraph,
    Operation,
    PartitionChunk,
    Quantity,
    Rate,
    Unknown,
    bind_math_problem_graph,
    graph_from_dict,
)
from adapters.nouns import auto_count_nouns, count_nouns_of
from adapters.relational import bind_relations
from units.exact import loads_exact as read_json

__all__ = [
    "FRACTION_REFERENTS",
    "Comparison",
    "FractionPortion",
    "InitialPossession",
    "MathGraphError",
    "MathProblemGraph",
    "Operation",
    "PartitionChunk",
    "Quantity",
    "Rate",
    "RecordedVerdict",
    "Unknown",
    "auto_count_nouns",
    "bind_math_problem_graph",
    "bind_relations",
    "count_nouns_of",
    "graph_from_dict",
    "parse_canonical_text",
    "read_json",
]


def __getattr__(name: str) -> str:
    if name == "__version__":  # the distribution's version, read on first use
        from units.version import distribution_version

        return distribution_version()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    """The public names (``__all__`` and ``__version__``), not the submodules imported on the way."""
    return sorted({*__all__, "__version__"})
