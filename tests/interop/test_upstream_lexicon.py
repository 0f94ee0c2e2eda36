"""Our vocabulary against the upstream ``en_units_v1`` pack, read in place from ../shared/upstream.

Never copies upstream files into the project; skips when the folder is absent.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from units import DimensionVector, UnitRefusal, UnitVocabulary, load_lexicon
from units.lexicon import Lexicon

pytestmark = pytest.mark.upstream

DOMAIN_VECTOR: dict[str, dict[str, int]] = {
    "units.count": {"count": 1},
    "units.length": {"length": 1},
    "units.time": {"time": 1},
    "units.mass": {"mass": 1},
    "units.money": {"money": 1},
    "units.temperature": {"temperature": 1},
    "units.volume": {"length": 3},
    "units.area": {"length": 2},
    "units.speed": {"length": 1, "time": -1},
    "units.density": {"mass": 1, "length": -3},
    "units.frequency": {"time": -1},
    "units.wage": {"money": 1, "time": -1},
    "units.unit_price": {"money": 1, "count": -1},
    "units.container": {"count": 1},
    "units.symbol": {},
}
"""The six-axis vector each upstream semantic domain implies (ADR-0134)."""

# SPEC §3 is deliberately stricter than upstream here: these rows do not resolve as units.
RATE_CONNECTORS = frozenset({"per", "an", "every", "each", "by"})
DIMENSION_NAMES = frozenset(
    {
        "count",
        "length",
        "time",
        "mass",
        "money",
        "temperature",
        "volume",
        "area",
        "speed",
        "density",
        "frequency",
        "wage",
        "unit_price",
    }
)
NOT_UNITS = RATE_CONNECTORS | DIMENSION_NAMES


@pytest.fixture(scope="module")
def pack(upstream: Path) -> Path:
    """The upstream en_units_v1 folder (skips when absent)."""
    folder = upstream / "en_units_v1"
    if not (folder / "lexicon.jsonl").is_file():
        pytest.skip("upstream en_units_v1 pack is absent")
    return folder


@pytest.fixture(scope="module")
def rows(pack: Path) -> list[dict[str, object]]:
    """The upstream lexicon rows, parsed (read-only)."""
    with (pack / "lexicon.jsonl").open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


@pytest.fixture(scope="module")
def upstream_lexicon(pack: Path) -> Lexicon:
    """The upstream pack loaded by our loader."""
    return load_lexicon(str(pack))


def _domain(row: dict[str, object]) -> str:
    domains = row["semantic_domains"]
    assert isinstance(domains, list)
    return str(domains[0])


def test_exceptions_are_exactly_the_connector_and_dimension_rows(
    rows: list[dict[str, object]],
) -> None:
    """The named exceptions are exactly the upstream rate-connector-only and dimension-name rows."""
    connectors = {r["surface"] for r in rows if r["morphology_tags"] == ["rate_connector"]}
    dimensions = {r["surface"] for r in rows if _domain(r) == "units.dimension"}
    assert connectors == RATE_CONNECTORS
    assert dimensions == DIMENSION_NAMES


def test_every_upstream_unit_resolves_to_the_same_lemma_and_vector(
    vocab: UnitVocabulary, rows: list[dict[str, object]]
) -> None:
    """Each upstream (surface, lemma) pair resolves in our default vocabulary to that lemma and its domain's vector."""
    checked = 0
    for row in rows:
        surface = row["surface"]
        if surface in NOT_UNITS:
            continue
        ref = vocab.resolve(surface)
        assert ref.lemma == row["lemma"], surface
        assert ref.dimension == DimensionVector.from_axes(DOMAIN_VECTOR[_domain(row)]), surface
        checked += 1
    assert checked == len(rows) - len(NOT_UNITS) == 266


@pytest.mark.parametrize("surface", sorted(NOT_UNITS))
def test_stricter_than_upstream_not_a_unit(vocab: UnitVocabulary, surface: str) -> None:
    """Rate connectors and dimension names, units upstream, are refused here as unknown_unit (SPEC §3)."""
    with pytest.raises(UnitRefusal) as info:
        vocab.resolve(surface)
    assert info.value.reason == "unknown_unit"


def test_our_lexicon_covers_every_upstream_surface(vocab: UnitVocabulary, rows: list[dict[str, object]]) -> None:
    """Every upstream surface and lemma is in our lexicon, with the same lemma."""
    ours = {s: e.lemma for s, e in vocab.lexicon.surfaces()}
    for row in rows:
        assert ours.get(str(row["surface"])) == row["lemma"], row["surface"]


def test_upstream_pack_loads(upstream_lexicon: Lexicon, rows: list[dict[str, object]]) -> None:
    """load_lexicon(folder) reads every upstream row, with exact (not float) definitions."""
    assert [e.surface for e in upstream_lexicon.entries] == [r["surface"] for r in rows]
    assert upstream_lexicon.conversions["foot"].factor == Fraction("0.3048")
    assert upstream_lexicon.source.endswith("lexicon.jsonl")


def _edges(lexicon: Lexicon) -> dict[tuple[str, str], object]:
    return {(d.from_unit, d.to_unit): d for d in lexicon.discrepancies}


@pytest.mark.parametrize(
    ("src", "dst"),
    [
        ("euro", "cent"),
        ("€", "cent"),
        ("pound sterling", "cent"),
        ("yen", "cent"),
        ("peso", "cent"),
        ("cent", "₱"),
        ("month", "minute"),
        ("year", "minute"),
        ("minute", "millennium"),
        ("degree", "Fahrenheit"),
        ("Fahrenheit", "°"),
        ("child", "item"),
        ("item", "people"),
        ("mice", "item"),
    ],
)
def test_discrepancy_without_exact_value(upstream_lexicon: Lexicon, src: str, dst: str) -> None:
    """Upstream edges with no exact counterpart (rates, calendars, unscaled degree, count kinds) are reported."""
    found = _edges(upstream_lexicon)[(src, dst)]
    assert found.exact is None  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("src", "dst", "exact"),
    [
        ("hectare", "square foot", "15625000000/145161"),
        ("sq m", "square foot", "1562500/145161"),
        ("square foot", "square meter", "145161/1562500"),
        ("fps", "mile per hour", "15/22"),
        ("mile per hour", "foot per second", "22/15"),
        ("kph", "mile per hour", "15625/25146"),
        ("L", "cup", "2000000000/473176473"),
        ("cup", "mL", "473176473/2000000"),
        ("g/cm³", "pound per cubic foot", "14158423296/226796185"),
    ],
)
def test_discrepancy_beyond_float_rounding(upstream_lexicon: Lexicon, src: str, dst: str, exact: str) -> None:
    """Upstream ratios rounded beyond float precision are reported with the exact value."""
    found = _edges(upstream_lexicon)[(src, dst)]
    assert found.exact == exact  # type: ignore[attr-defined]
    assert found.reason == "differs beyond float rounding"  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("src", "dst"),
    [
        ("inch", "foot"),
        ("foot", "inch"),
        ("meter", "foot"),
        ("minute", "week"),
        ("hertz", "MHz"),
        ("milligram", "pound"),
        ("kilogram", "pound"),
        ("dollar", "cent"),
        ("acre", "square foot"),
        ("cup", "teaspoon"),
        ("Celsius", "Fahrenheit"),
        ("Fahrenheit", "Kelvin"),
        ("cent per hour", "dollar per hour"),
    ],
)
def test_exact_edges_not_reported(upstream_lexicon: Lexicon, src: str, dst: str, pack: Path) -> None:
    """Edges equal to the exact definition up to float rounding are not reported as discrepancies."""
    text = (pack / "conversions.jsonl").read_text(encoding="utf-8")
    assert f'"from": "{src}", "to": "{dst}"' in text  # the edge exists upstream
    assert (src, dst) not in _edges(upstream_lexicon)


def test_discrepancies_name_only_known_reasons(upstream_lexicon: Lexicon) -> None:
    """Every discrepancy is one of the documented kinds, and all are listed in file order."""
    reasons = {d.reason.split(":")[0].split(" (")[0] for d in upstream_lexicon.discrepancies}
    assert reasons <= {
        "differs beyond float rounding",
        "calendar units convert to days or weeks only under a declared convention",
        "not convertible",
    }
    ids = [d.edge_id for d in upstream_lexicon.discrepancies]
    assert ids == sorted(ids)
    assert all(str(d) for d in upstream_lexicon.discrepancies)


def test_vocabulary_from_upstream_pack(pack: Path, vocab: UnitVocabulary, rows: list[dict[str, object]]) -> None:
    """UnitVocabulary.from_lexicon(upstream folder) is exact and agrees with the default vocabulary."""
    built = UnitVocabulary.from_lexicon(pack)
    assert built.factor("foot", "inch") == 12
    assert built.factor("cup", "mL") == Fraction("236.5882365")
    with pytest.raises(UnitRefusal) as info:
        built.factor("euro", "cent")
    assert info.value.reason == "incommensurable_units"
    for row in rows:
        surface = str(row["surface"])
        if surface in NOT_UNITS:
            continue
        ours, theirs = vocab.resolve(surface), built.resolve(surface)
        assert (theirs.lemma, theirs.dimension, theirs.scale) == (
            ours.lemma,
            ours.dimension,
            ours.scale,
        ), surface
