"""Where the benchmark's inputs are: the checkout, our lexicon and the upstream files beside it."""

from __future__ import annotations

from pathlib import Path
from typing import Final

REPO: Final[Path] = Path(__file__).resolve().parents[1]
LEXICON_PATH: Final[Path] = REPO / "units" / "data" / "en_units_v1.jsonl"
UPSTREAM_DEV: Final[Path] = REPO.parent / "shared" / "upstream" / "gsm8k_parser_dev" / "cases.jsonl"
UPSTREAM_LEXICON: Final[Path] = REPO.parent / "shared" / "upstream" / "en_units_v1" / "lexicon.jsonl"
