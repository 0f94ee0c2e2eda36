"""``load_lexicon`` on the shipped files and on bad files written to ``tmp_path`` (SPEC §3, §8)."""

from __future__ import annotations

import dataclasses
import json
import pickle
from fractions import Fraction
from importlib import resources
from pathlib import Path

import pytest

from units import UnitRefusal, UnitVocabulary, default_vocabulary, load_lexicon
from units.errors import LexiconError
from units.lexicon import CONVERSIONS_FILE, LEXICON_FILE, MAX_FILE_BYTES, load_embedded

DATA = Path(str(resources.files("units").joinpath("data")))

FOOT = {
    "entry_id": "t-001",
    "surface": "foot",
    "lemma": "foot",
    "morphology_tags": ["unit"],
    "semantic_domains": ["units.length"],
    "dimension": "length",
    "provenance_ids": ["test"],
}


def row(**changes: object) -> dict[str, object]:
    """The foot row with some fields changed (``None`` deletes a field)."""
    out = {**FOOT, **changes}
    return {k: v for k, v in out.items() if v is not None}


def write(path: Path, lines: list[object]) -> Path:
    """Write JSONL (dicts are dumped, strings written verbatim) and return the path."""
    path.write_text(
        "".join((json.dumps(x) if not isinstance(x, str) else x) + "\n" for x in lines),
        encoding="utf-8",
    )
    return path


def lexicon_error(path: object, conversions: object = None) -> LexiconError:
    """load_lexicon must raise LexiconError; return it."""
    with pytest.raises(LexiconError) as info:
        load_lexicon(path, conversions)  # type: ignore[arg-type]
    return info.value


def unit_refusal(path: object, conversions: object = None) -> UnitRefusal:
    """load_lexicon must raise UnitRefusal; return it."""
    with pytest.raises(UnitRefusal) as info:
        load_lexicon(path, conversions)  # type: ignore[arg-type]
    return info.value


# ------------------------------------------------------------ our embedded files


@pytest.mark.parametrize("path", [DATA / LEXICON_FILE, DATA, str(DATA / LEXICON_FILE)], ids=["file", "folder", "str"])
def test_embedded_files_load_by_path(path: object) -> None:
    """Our shipped lexicon loads by file, folder or str path, identical to the embedded load."""
    embedded = load_embedded()
    loaded = load_lexicon(path)  # type: ignore[arg-type]
    assert loaded.entries == embedded.entries
    assert dict(loaded.conversions) == dict(embedded.conversions)
    assert loaded.discrepancies == ()


def test_embedded_lexicon_with_explicit_conversions() -> None:
    """Passing our conversions file explicitly gives the same exact definitions."""
    loaded = load_lexicon(DATA / LEXICON_FILE, DATA / CONVERSIONS_FILE)
    assert loaded.conversions["foot"].factor == Fraction("0.3048")
    assert loaded.conversions["foot"].of == (("meter", 1),)
    assert loaded.conversions["gallon"].of == (("inch", 3),)
    assert loaded.conversions["Fahrenheit"].offset == Fraction(45967, 180)


def test_embedded_lexicon_shape() -> None:
    """The shipped lexicon has unique surfaces, an exact definition for every unit lemma, and the expected roles."""
    lexicon = load_embedded()
    surfaces = [e.surface for e in lexicon.entries]
    assert len(surfaces) == len(set(surfaces)) == 285
    roles = {e.surface: e.role for e in lexicon.entries}
    assert (
        roles["per"],
        roles["length"],
        roles["box"],
        roles["%"],
        roles["foot"],
        roles["cup"],
    ) == (
        "connector",
        "dimension_name",
        "container",
        "number",
        "unit",
        "unit",
    )
    for entry in lexicon.entries:
        if entry.role not in ("dimension_name", "connector"):
            assert entry.lemma in lexicon.conversions, entry.surface
    assert {e.default_size for e in lexicon.entries if e.lemma in ("dozen", "pair", "gross")} == {
        12,
        2,
        144,
    }


def test_every_definition_cites_a_source() -> None:
    """Each exact definition names the public definition it comes from."""
    for lemma, conversion in load_embedded().conversions.items():
        assert conversion.source, lemma


# ------------------------------------------------------------ small good files


def test_minimal_lexicon_uses_embedded_definitions(tmp_path: Path) -> None:
    """A one-row lexicon with no conversions file beside it takes the embedded exact definitions."""
    vocab = UnitVocabulary.from_lexicon(write(tmp_path / "lex.jsonl", [FOOT]))
    assert vocab.factor("foot", "meter") == Fraction("0.3048")
    assert vocab.surfaces() == ("foot",)
    with pytest.raises(UnitRefusal) as info:
        vocab.resolve("feet")
    assert info.value.reason == "unknown_unit"


def test_blank_lines_are_skipped(tmp_path: Path) -> None:
    """Blank lines between rows are not errors."""
    lexicon = load_lexicon(write(tmp_path / "lex.jsonl", ["", FOOT, "   ", row(entry_id="t-002", surface="feet")]))
    assert [e.surface for e in lexicon.entries] == ["foot", "feet"]


# ------------------------------------------------------------ bad lexicon rows


@pytest.mark.parametrize(
    ("bad", "path_suffix", "subject"),
    [
        ("{not json", ":2", "{not json"),
        ("[1, 2]", ":2", "list"),
        ('{"surface": NaN}', ":2", "NaN"),
        (row(entry_id="t-2", surface=True), ":2.surface", True),
        (row(entry_id="t-2", surface=""), ":2.surface", ""),
        (row(entry_id="t-2", surface=" feet"), ":2.surface", " feet"),
        (row(entry_id="t-2", surface="x" * 300), ":2.surface", "x" * 300),
        (row(entry_id=7, surface="feet"), ":2.entry_id", 7),
        (
            '{"entry_id": "t-2", "surface": 1.5, "lemma": "foot", "morphology_tags": [], "semantic_domains": []}',
            ":2.surface",
            "1.5",
        ),
        (
            '{"entry_id": "t-2", "surface": "feet", "lemma": "foot", "morphology_tags": [2.5], "semantic_domains": []}',
            ":2.morphology_tags",
            ["2.5"],
        ),
        (row(entry_id="t-2", surface="feet", default_size="12"), ":2.default_size", "12"),
        (row(entry_id="t-2", surface="feet", default_size=0), ":2.default_size", 0),
        (row(entry_id="t-2", surface="feet", default_size=True), ":2.default_size", True),
        (row(entry_id="t-2", surface="feet", is_derived="no"), ":2.is_derived", "no"),
        (row(entry_id="t-2", surface="feet", morphology_tags="unit"), ":2.morphology_tags", "unit"),
        (row(entry_id="t-2", surface="feet", semantic_domains=[1]), ":2.semantic_domains", [1]),
        (row(entry_id="t-2", surface="feet", lemma="foot bar"), ":2.lemma", "foot bar"),
        (row(entry_id="t-2", surface="feet", colour="red"), ":2", "colour"),
        (row(entry_id="t-2", surface="feet", lemma=None), ":2", "lemma"),
    ],
    ids=lambda v: repr(v)[:30],
)
def test_bad_lexicon_row_named_by_line_and_field(
    tmp_path: Path, bad: object, path_suffix: str, subject: object
) -> None:
    """A bad row raises LexiconError whose one error names the line, the field and the offending value."""
    path = write(tmp_path / "lex.jsonl", [FOOT, bad])
    error = lexicon_error(path)
    assert len(error.errors) == 1
    (only,) = error.errors
    assert only.reason in ("malformed_input", "input_too_large")
    assert only.path == f"{path}{path_suffix}"
    assert only.subject == subject


def test_every_bad_row_is_reported(tmp_path: Path) -> None:
    """All bad rows of a file are reported together, each by its line; good rows are not."""
    path = write(
        tmp_path / "lex.jsonl",
        [
            FOOT,
            "{not json",
            row(entry_id="t-3", surface=True),
            row(entry_id="t-4", surface="x", default_size="12"),
            row(entry_id="t-5", surface="y", colour="red"),
            row(entry_id="t-6", surface="feet"),
        ],
    )
    error = lexicon_error(path)
    assert [e.path for e in error.errors] == [
        f"{path}:2",
        f"{path}:3.surface",
        f"{path}:4.default_size",
        f"{path}:5",
    ]
    assert error.reason == "malformed_input"
    assert error.subject == str(path)
    assert "4 bad row(s)" in error.detail


def test_duplicate_surface_refused(tmp_path: Path) -> None:
    """Two rows with one surface are refused, naming the surface and both entry ids."""
    path = write(tmp_path / "lex.jsonl", [FOOT, row(entry_id="t-002")])
    error = lexicon_error(path)
    (only,) = error.errors
    assert only.subject == "foot"
    assert "duplicate surface" in only.detail
    assert "t-001" in only.detail
    assert "t-002" in only.path


def test_lemma_without_definition_refused(tmp_path: Path) -> None:
    """A unit lemma with no exact definition anywhere is refused, not guessed."""
    path = write(tmp_path / "lex.jsonl", [row(surface="furlong", lemma="furlong")])
    (only,) = lexicon_error(path).errors
    assert only.subject == "furlong"
    assert "no exact definition" in only.detail


@pytest.mark.parametrize("lines", [[], ["", "   "]], ids=["empty", "blank-lines"])
def test_empty_lexicon_refused(tmp_path: Path, lines: list[object]) -> None:
    """A lexicon file with no entries is refused, not loaded as an empty vocabulary."""
    path = write(tmp_path / "lex.jsonl", lines)
    error = lexicon_error(path)
    assert len(error.errors) == 1
    assert "no entries" in error.errors[0].detail


def test_huge_file_refused_before_reading(tmp_path: Path) -> None:
    """A file over MAX_FILE_BYTES is refused as input_too_large."""
    path = tmp_path / "lex.jsonl"
    with path.open("wb") as handle:
        handle.truncate(MAX_FILE_BYTES + 1)
    error = unit_refusal(path)
    assert error.reason == "input_too_large"
    assert error.subject == str(path)


def test_non_utf8_file_refused(tmp_path: Path) -> None:
    """Bytes that are not UTF-8 are malformed_input."""
    path = tmp_path / "lex.jsonl"
    path.write_bytes(b'{"surface": "\xff"}\n')
    assert unit_refusal(path).reason == "malformed_input"


def test_lexicon_error_is_a_unit_refusal(tmp_path: Path) -> None:
    """`except UnitRefusal` catches a LexiconError, which prints and pickles with its errors."""
    path = write(tmp_path / "lex.jsonl", ["{not json"])
    try:
        load_lexicon(path)
    except UnitRefusal as exc:
        caught = exc
    else:
        pytest.fail("load_lexicon accepted a malformed file")
    assert isinstance(caught, LexiconError)
    assert isinstance(caught, ValueError)
    assert "invalid JSON" in str(caught)
    again = pickle.loads(pickle.dumps(caught))  # noqa: S301
    assert isinstance(again, LexiconError)
    assert [e.path for e in again.errors] == [f"{path}:1"]


# ------------------------------------------------------------ bad paths


@pytest.mark.parametrize("path", [None, 5, "", b"lex.jsonl", ["lex.jsonl"], 1.5], ids=repr)
def test_non_string_or_empty_path_refused(path: object) -> None:
    """A path that is not a non-empty str or Path is malformed_input."""
    assert unit_refusal(path).reason == "malformed_input"


def test_missing_file_refused(tmp_path: Path) -> None:
    """A path that does not exist is malformed_input naming it."""
    error = unit_refusal(tmp_path / "nope.jsonl")
    assert error.reason == "malformed_input"
    assert error.subject == str(tmp_path / "nope.jsonl")


def test_folder_without_lexicon_refused(tmp_path: Path) -> None:
    """A folder holding neither lexicon.jsonl nor en_units_v1.jsonl is malformed_input."""
    assert unit_refusal(tmp_path).reason == "malformed_input"


@pytest.mark.parametrize("conversions", [5, "", b"c.jsonl", ["c.jsonl"]], ids=repr)
def test_non_string_or_empty_conversions_path_refused(tmp_path: Path, conversions: object) -> None:
    """A conversions argument that is not None or a non-empty str/Path is malformed_input, not a TypeError."""
    lexicon = write(tmp_path / "lex.jsonl", [FOOT])
    assert unit_refusal(lexicon, conversions).reason == "malformed_input"


# ------------------------------------------------------------ our conversions layout


@pytest.mark.parametrize(
    ("bad", "subject"),
    [
        ({"lemma": "foot", "definition": "0.3048 furlong"}, "furlong"),
        ({"lemma": "foot", "definition": "0.3048 meter meter"}, "meter meter"),
        ({"lemma": "foot", "definition": "1e3 meter"}, "1e3"),
        ({"lemma": "foot", "definition": "0 meter"}, "0 meter"),
        ({"lemma": "foot", "definition": "-1 meter"}, "-1 meter"),
        ({"lemma": "foot", "definition": 0.3048}, "0.3048"),  # a JSON number is not definition text
        ({"lemma": "foot", "definition": "1 meter/second/second"}, "1 meter/second/second"),
        ({"lemma": "foot", "definition": "1 meter", "colour": "red"}, "colour"),
        (
            {
                "lemma": "foot",
                "base_dimension": "length",
                "axis": "length",
                "definition": "1 meter",
            },
            "foot",
        ),
        ({"lemma": "meter", "definition": "1 meter"}, "meter"),
    ],
    ids=lambda v: repr(v)[:40],
)
def test_bad_conversion_row_refused(tmp_path: Path, bad: dict[str, object], subject: object) -> None:
    """A bad exact-definition row raises LexiconError naming the offending text."""
    base = {"lemma": "meter", "base_dimension": "length", "axis": "length"}
    lexicon = write(tmp_path / "lex.jsonl", [FOOT])
    conversions = write(tmp_path / "conv.jsonl", [base, bad])
    error = lexicon_error(lexicon, conversions)
    assert subject in [e.subject for e in error.errors]


def test_definition_cycle_refused(tmp_path: Path) -> None:
    """Definitions that refer to each other in a cycle are refused."""
    lexicon = write(tmp_path / "lex.jsonl", [FOOT])
    conversions = write(
        tmp_path / "conv.jsonl",
        [{"lemma": "foot", "definition": "12 inch"}, {"lemma": "inch", "definition": "1/12 foot"}],
    )
    error = lexicon_error(lexicon, conversions)
    assert "cycle" in error.errors[0].detail


def test_own_conversions_file_is_used(tmp_path: Path) -> None:
    """A conversions file in our layout replaces the embedded definitions."""
    lexicon = write(tmp_path / "lex.jsonl", [FOOT, row(entry_id="t-2", surface="inch", lemma="inch")])
    conversions = write(
        tmp_path / "conv.jsonl",
        [
            {"lemma": "meter", "base_dimension": "length", "axis": "length"},
            {"lemma": "foot", "definition": "3/10 meter"},
            {"lemma": "inch", "definition": "1/10 foot"},
        ],
    )
    vocab = UnitVocabulary.from_lexicon(lexicon, conversions)
    assert vocab.factor("foot", "inch") == 10
    assert vocab.factor("foot", "meter") == Fraction(3, 10)


# ------------------------------------------------------------ upstream layout (our own small rows)


def upstream_pack(folder: Path, edges: list[object]) -> Path:
    """Write a two-surface pack in the upstream layout (lexicon.jsonl + float conversions.jsonl)."""
    folder.mkdir()
    write(folder / "lexicon.jsonl", [FOOT, row(entry_id="t-2", surface="inch", lemma="inch")])
    write(folder / "conversions.jsonl", edges)
    return folder


def edge(src: str, dst: str, ratio: str, n: int = 1) -> str:
    """One upstream edge line with the ratio written verbatim as a JSON number."""
    return f'{{"edge_id": "e-{n}", "from": "{src}", "to": "{dst}", "ratio": {ratio}, "offset": 0.0}}'


def test_upstream_float_edges_are_snapped_not_used(tmp_path: Path) -> None:
    """Float ratios within rounding of the exact value are not reported; the registry keeps the exact value."""
    pack = upstream_pack(
        tmp_path / "pack",
        [
            edge("inch", "foot", "0.08333333333333333"),
            edge("foot", "inch", "12.0", 2),
            edge("inch", "foot", "8.333333333333333e-02", 3),
        ],
    )
    lexicon = load_lexicon(pack)
    assert lexicon.discrepancies == ()
    assert UnitVocabulary.from_loaded(lexicon).factor("inch", "foot") == Fraction(1, 12)


def test_upstream_edge_beyond_rounding_is_reported(tmp_path: Path) -> None:
    """An upstream ratio off by more than float rounding is reported with both values."""
    pack = upstream_pack(tmp_path / "pack", [edge("foot", "inch", "12.000001"), edge("foot", "furlong", "0.0015", 2)])
    first, second = load_lexicon(pack).discrepancies
    assert (first.edge_id, first.from_unit, first.to_unit, first.upstream, first.exact) == (
        "e-1",
        "foot",
        "inch",
        "12.000001",
        "12",
    )
    assert (second.to_unit, second.exact, second.reason) == (
        "furlong",
        None,
        "surface not in the lexicon",
    )
    assert "upstream 12.000001, exact 12" in str(first)


@pytest.mark.parametrize(
    ("ratio", "reason"),
    [
        ("1e999999999", "malformed_input"),
        ("1e500", "input_too_large"),
        ("NaN", "malformed_input"),
        ("1" * 60, "input_too_large"),
    ],
)
def test_upstream_edge_with_unreadable_ratio_refused(tmp_path: Path, ratio: str, reason: str) -> None:
    """An edge ratio that is not a bounded JSON number is refused, naming the line."""
    pack = upstream_pack(tmp_path / "pack", [edge("foot", "inch", ratio)])
    error = lexicon_error(pack)
    (only,) = error.errors
    assert only.reason == reason
    assert only.path.startswith(str(pack / "conversions.jsonl") + ":1")


def _embedded_text(name: str) -> str:
    return resources.files("units").joinpath("data", name).read_text(encoding="utf-8")


def test_conversion_rows_are_checked_before_pint_sees_them(tmp_path: Path) -> None:
    """Lemma and base-dimension names that pint would parse as statements are refused, every bad row in one LexiconError.

    The rows are the ones that used to raise untyped ValueError, KeyError or AssertionError
    from ``pint.define`` (issue #12).
    """
    bad_rows = [
        {"lemma": "evil = 2 meter #", "definition": "2 meter", "source": "x"},
        {"lemma": "widget", "axis": "count", "base_dimension": "money] #", "source": "x"},
        {"lemma": "kilo-", "axis": "count", "base_dimension": "kilo_thing", "source": "x"},
        {"lemma": "gizmo", "axis": "angle", "base_dimension": "gizmo", "source": "x"},
    ]
    conversions = _embedded_text(CONVERSIONS_FILE).rstrip("\n") + "\n" + "\n".join(json.dumps(r) for r in bad_rows)
    (tmp_path / CONVERSIONS_FILE).write_text(conversions + "\n", encoding="utf-8")
    (tmp_path / LEXICON_FILE).write_text(_embedded_text(LEXICON_FILE), encoding="utf-8")
    with pytest.raises(LexiconError) as info:
        UnitVocabulary.from_lexicon(tmp_path / LEXICON_FILE, tmp_path / CONVERSIONS_FILE)
    fields = [e.path.rsplit(".", 1)[-1] for e in info.value.errors]
    assert fields == ["lemma", "base_dimension", "lemma", "axis"]
    assert all(e.reason == "malformed_input" for e in info.value.errors)


def test_an_upstream_edge_to_a_list_is_a_typed_row_error(upstream: Path, tmp_path: Path) -> None:
    """An upstream float edge whose ``to`` is a list (not a surface) is reported by line, not a TypeError."""
    pack = upstream / "en_units_v1"
    rows = (pack / "conversions.jsonl").read_text(encoding="utf-8").splitlines()
    edge = json.loads(rows[0])
    edge["to"] = ["inch"]
    (tmp_path / "lexicon.jsonl").write_text((pack / "lexicon.jsonl").read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "conversions.jsonl").write_text("\n".join([json.dumps(edge), *rows[1:]]) + "\n", encoding="utf-8")
    with pytest.raises(LexiconError) as info:
        load_lexicon(tmp_path)
    (error,) = info.value.errors
    assert error.path.endswith(":1")
    assert "strings" in error.detail


def test_a_lexicon_hashes_as_it_compares() -> None:
    """The lexicon is a hashable value: equal lexicons (conversions in any order) hash equal."""
    lexicon = default_vocabulary().lexicon
    reordered = dataclasses.replace(lexicon, conversions=dict(reversed(list(lexicon.conversions.items()))))
    assert reordered == lexicon
    assert hash(reordered) == hash(lexicon)
    assert len({lexicon, reordered}) == 1
