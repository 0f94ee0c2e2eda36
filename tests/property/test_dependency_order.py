"""Equations in topological tuple order are their own dependency order (verifier.model.in_topological_order).

The solver takes that order without searching, and find_cycle finds no cycle; the
search they skip would give the very same order (checked here against it).
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from units import default_vocabulary
from verifier import BindingGraph, BoundEquation, SourceSpanLink, SymbolBinding
from verifier.expr import symbol
from verifier.model import find_cycle, in_topological_order
from verifier.solve import _Run

_SPAN = SourceSpanLink(source_id="t", start=0, end=1)


def _graph(reads: list[list[int]]) -> BindingGraph:
    """Equation i defines e{i} as the sum of the symbols it reads (indices: i or more is a later lhs, or itself)."""
    n = len(reads)
    names = [f"e{i}" for i in range(n)] + ["base"]
    symbols = tuple(
        SymbolBinding(symbol_id=name, name=name, semantic_role="quantity", source_span=_SPAN, introduced_by="t")
        for name in names
    )
    equations = tuple(
        BoundEquation.create(
            lhs_symbol_id=f"e{i}",
            rhs=sum((symbol(names[j]) for j in sorted(set(read))), symbol("base")),
            operation_kind="add",
            source_span=_SPAN,
        )
        for i, read in enumerate(reads)
    )
    return BindingGraph(symbols=symbols, equations=equations)


@st.composite
def _acyclic_reads(draw: st.DrawFn) -> list[list[int]]:
    """Each equation reads some earlier lhs (and the base), then the tuple is maybe shuffled."""
    n = draw(st.integers(1, 8))
    reads = [draw(st.lists(st.integers(0, i - 1), max_size=3)) if i else [] for i in range(n)]
    order = draw(st.permutations(range(n)))
    renamed = {old: new for new, old in enumerate(order)}
    return [[renamed[j] for j in reads[old]] for old in order]


@settings(max_examples=300)
@given(_acyclic_reads())
def test_a_topological_tuple_is_its_own_dependency_order(reads: list[list[int]]) -> None:
    """When the check holds, the search gives the tuple order; when it fails, the graph is still acyclic here."""
    graph = _graph(reads)
    assert find_cycle(graph.equations) == []
    searched = _Run(graph, {}, {}, default_vocabulary(), "count_exact")._dependency_order()  # noqa: SLF001  # the search the check skips
    assert graph.equations_in_dependency_order == in_topological_order(graph.equations)  # settled when built
    if in_topological_order(graph.equations):
        assert searched == list(graph.equations)
    assert all(reads[i] == [] or max(reads[i]) < i for i in range(len(reads))) == in_topological_order(graph.equations)
