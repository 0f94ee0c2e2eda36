"""Adapters: each input format becomes a ``verifier.BindingGraph``.  See SPEC §5."""

from adapters._common import clear_memos
from adapters.canonical_text import RecordedVerdict, parse_canonical_text
from adapters.errors import AdapterError, MathGraphError
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
from adapters.nouns import auto_count_nouns, bind_with_auto_count_nouns, count_nouns_of
from adapters.relational import bind_relations
from units.exact import loads_exact as read_json
from verifier.lazy import package_hooks

__all__ = [
    "FRACTION_REFERENTS",
    "AdapterError",
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
    "bind_with_auto_count_nouns",
    "clear_memos",
    "count_nouns_of",
    "graph_from_dict",
    "parse_canonical_text",
    "read_json",
]


__getattr__, __dir__ = package_hooks(__name__, __all__)  # __version__ on first use
