"""Shared fixtures and hypothesis profiles ("dev" by default, "ci" with more examples)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from units import UnitVocabulary, default_vocabulary

settings.register_profile("dev", max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("ci", max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("dev")

UPSTREAM = Path(__file__).resolve().parents[1].parent / "shared" / "upstream"


@pytest.fixture(scope="session")
def vocab() -> UnitVocabulary:
    """The default (strict) vocabulary."""
    return default_vocabulary()


@pytest.fixture(scope="session")
def upstream() -> Path:
    """The upstream reference folder; skips the test when it is absent."""
    if not UPSTREAM.is_dir():
        pytest.skip("../shared/upstream is absent")
    return UPSTREAM
