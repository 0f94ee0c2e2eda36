"""Adapters: each input format becomes a ``verifier.BindingGraph``.  See SPEC §5."""

from adapters.errors import MathGraphError
from adapters.math_graph import (
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

__all__ = [
    "Comparison",
    "FractionPortion",
    "InitialPossession",
    "MathGraphError",
    "MathProblemGraph",
    "Operation",
    "PartitionChunk",
    "Quantity",
    "Rate",
    "Unknown",
    "bind_math_problem_graph",
    "graph_from_dict",
]
