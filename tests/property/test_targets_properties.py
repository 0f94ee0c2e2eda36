"""Properties of the question-target helpers (verifier.targets)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from verifier import SourceSpanLink, SymbolBinding
from verifier.model import SEMANTIC_ROLES
from verifier.targets import entities, names_entity

_NAMES = ("Sam", "Ana", "Bo", "total", "Sam.apples@t0")
_SPAN = SourceSpanLink(source_id="test", start=0, end=1)


@st.composite
def _symbols(draw: st.DrawFn) -> list[SymbolBinding]:
    return [
        SymbolBinding(
            symbol_id=f"s{i}",
            name=draw(st.sampled_from(_NAMES)),
            semantic_role=draw(st.sampled_from(sorted(SEMANTIC_ROLES))),
            source_span=_SPAN,
            introduced_by="test",
            entity=draw(st.none() | st.sampled_from(_NAMES)),
        )
        for i in range(draw(st.integers(0, 6)))
    ]


@given(_symbols(), st.sampled_from(_NAMES))
def test_names_entity_is_membership_in_entities(symbols: list[SymbolBinding], name: str) -> None:
    """names_entity(symbols, e) is e in the listed entities: one rule, decided without listing them."""
    assert names_entity(symbols, name) == (name in entities_of(symbols))


def entities_of(symbols: list[SymbolBinding]) -> tuple[str, ...]:
    """The entities a graph of these symbols lists (verifier.targets.entities reads them off a graph)."""

    class _Graph:
        def __init__(self, symbols: list[SymbolBinding]) -> None:
            self.symbols = tuple(symbols)

    return entities(_Graph(symbols))  # type: ignore[arg-type]  # entities reads only .symbols
