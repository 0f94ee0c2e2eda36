"""Verifier of binding graphs: model, per-kind admissibility with unit proofs, exact values and answers.

Knows nothing of input formats (``adapters`` builds graphs).  See SPEC §4-§6.
"""

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
    "SourceSpanLink",
    "SymbolBinding",
    "UnitProof",
    "Value",
    "Verdict",
    "check_equation",
    "verify",
]
