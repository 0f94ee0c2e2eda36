"""Verifier of binding graphs: model, per-kind admissibility with unit proofs, exact values and answers.

Knows nothing of input formats (``adapters`` builds graphs).  See SPEC §4-§6.

The public names load on first use (PEP 562), so ``import verifier`` (and the pytest
plugin ``verifier.pytest_plugin``) costs nothing until a name is asked for.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from verifier.lazy import package_hooks

if TYPE_CHECKING:
    from units.errors import RefusalError
    from verifier.admissibility import Refusal, UnitProof, Verdict, check_equation
    from verifier.errors import BindingGraphError
    from verifier.model import (
        BindingGraph,
        BoundConstraint,
        BoundEquation,
        BoundFact,
        BoundUnknown,
        OperationIndex,
        SourceSpanLink,
        SymbolBinding,
    )
    from verifier.reasons import REFUSAL_REASONS
    from verifier.values import Answer, GraphReport, Value, verify

_HOMES = {
    "Refusal": "verifier.admissibility",
    "UnitProof": "verifier.admissibility",
    "Verdict": "verifier.admissibility",
    "check_equation": "verifier.admissibility",
    "BindingGraphError": "verifier.errors",
    "RefusalError": "units.errors",
    "BindingGraph": "verifier.model",
    "BoundConstraint": "verifier.model",
    "BoundEquation": "verifier.model",
    "BoundFact": "verifier.model",
    "BoundUnknown": "verifier.model",
    "OperationIndex": "verifier.model",
    "SourceSpanLink": "verifier.model",
    "SymbolBinding": "verifier.model",
    "REFUSAL_REASONS": "verifier.reasons",
    "Answer": "verifier.values",
    "GraphReport": "verifier.values",
    "Value": "verifier.values",
    "verify": "verifier.values",
}

__all__ = [
    "REFUSAL_REASONS",
    "Answer",
    "BindingGraph",
    "BindingGraphError",
    "BoundConstraint",
    "BoundEquation",
    "BoundFact",
    "BoundUnknown",
    "GraphReport",
    "OperationIndex",
    "Refusal",
    "RefusalError",
    "SourceSpanLink",
    "SymbolBinding",
    "UnitProof",
    "Value",
    "Verdict",
    "check_equation",
    "verify",
]


__getattr__, __dir__ = package_hooks(__name__, __all__, _HOMES)
