"""The ``bgverify`` pytest plugin: lane files become test items that gate on ``wrong == 0`` (SPEC §9).

Installed with the package (entry point ``pytest11``), it does nothing until a lane is
configured.  Configure lanes with an ini line: in ``pyproject.toml``'s
``[tool.pytest.ini_options]`` a list, ``bgverify_lanes = ["evals/*.jsonl"]``; in
``pytest.ini``, ``tox.ini`` or ``setup.cfg`` space-separated globs,
``bgverify_lanes = evals/*.jsonl more/*.jsonl``.  Globs are relative to the rootdir
(``./`` and absolute paths work too); a glob that names no file is a usage error, so a
gate can never pass by collecting nothing.

or on the command line, ``--bgverify-lane PATH`` (repeatable).  Every record of a lane
file (any layout :func:`adapters.corpus.read_records` reads) is one test item, with
the id ``path::case-id``:

* a correct answer or an expected refusal **passes**;
* a wrong answer, an untyped error, or an unreadable record **fails**, with the
  expected and found values and units, the root cause and the verifier's trace;
* an unexpected refusal (the library refused where the gold has an answer) is never
  hidden: by default it is reported as **xfail** (shown in the ``-ra`` summary and in
  the plugin's table, but not failing the run, since a refusal is never a wrong
  answer); ``bgverify_unexpected_refusal = fail`` makes it fail, ``pass`` lets it pass.

Options (ini name / command line):

====================================  ==========================================  ===========
``bgverify_lanes``                    ``--bgverify-lane PATH``                    globs / paths
``bgverify_count_nouns``              ``--bgverify-count-nouns``                  ``declared`` (default) or ``auto``
``bgverify_policy``                   ``--bgverify-policy``                       ``count_exact`` or ``integer`` (default: each record's own)
``bgverify_unexpected_refusal``       ``--bgverify-unexpected-refusal``           ``xfail`` (default), ``fail`` or ``pass``
====================================  ==========================================  ===========

A record's own ``vocab`` declarations and ``policy`` apply as well.  At the end the
plugin prints one table: lane, correct, wrong, refused as expected, refused
unexpectedly, error.

Fixtures: ``bgverify_vocabulary`` (the default vocabulary) and ``bgverify_verify`` (a
callable that verifies a graph in any supported form, with count nouns handled as
configured).  Nothing heavy is imported until a lane item runs or a fixture is used.
"""

from __future__ import annotations

import glob
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Final, cast

import pytest

pytest.register_assert_rewrite("verifier.testing")

if TYPE_CHECKING:
    from _pytest._code.code import TracebackStyle  # the type of Item.repr_failure's style; pytest does not re-export it

    from adapters.corpus import BadRecord, Record
    from evals.scoring import CaseResult
    from units import UnitVocabulary
    from verifier.values import GraphReport, Policy

COUNT_NOUN_CHOICES: Final[tuple[str, ...]] = ("declared", "auto")
POLICY_CHOICES: Final[tuple[str, ...]] = ("count_exact", "integer")
UNEXPECTED_CHOICES: Final[tuple[str, ...]] = ("xfail", "fail", "pass")
_RESULTS: Final = pytest.StashKey[dict[str, Counter[str]]]()
_LANES: Final = pytest.StashKey[set[Path]]()
_SETTINGS: Final = pytest.StashKey[dict[str, str]]()
_COLUMNS: Final[tuple[tuple[str, str], ...]] = (
    ("correct", "correct"),
    ("wrong", "wrong"),
    ("refused_expected", "refused as expected"),
    ("refused_unexpected", "refused unexpectedly"),
    ("error", "error"),
)


def pytest_addoption(parser: pytest.Parser) -> None:
    """The ini options and their ``--bgverify-…`` command-line forms."""
    group = parser.getgroup("bgverify", "binding-graph verifier lanes")
    group.addoption(
        "--bgverify-lane", action="append", default=[], metavar="PATH", help="a lane file to collect (repeatable)"
    )
    group.addoption(
        "--bgverify-count-nouns", choices=COUNT_NOUN_CHOICES, help="count-noun handling (default: declared)"
    )
    group.addoption("--bgverify-policy", choices=POLICY_CHOICES, help="division policy (default: each record's own)")
    group.addoption(
        "--bgverify-unexpected-refusal",
        choices=UNEXPECTED_CHOICES,
        help="how an unexpected refusal counts (default: xfail)",
    )
    parser.addini("bgverify_lanes", "globs of lane files, relative to the rootdir", type="args", default=[])
    parser.addini("bgverify_count_nouns", "declared (default) or auto", default="declared")
    parser.addini("bgverify_policy", "count_exact or integer (default: each record's own)", default="")
    parser.addini("bgverify_unexpected_refusal", "xfail (default), fail or pass", default="xfail")


def _setting(config: pytest.Config, name: str, choices: tuple[str, ...], *, allow_empty: bool = False) -> str:
    value = config.getoption(f"--bgverify-{name.replace('_', '-')}") or config.getini(f"bgverify_{name}")
    value = str(value).strip()
    if (value or not allow_empty) and value not in choices:
        raise pytest.UsageError(f"bgverify_{name} must be one of {', '.join(choices)}; found {value!r}")
    return value


def _lane_globs(config: pytest.Config) -> list[str]:
    return [str(g) for g in config.getini("bgverify_lanes")]


def _lane_files(config: pytest.Config) -> list[Path]:
    """The files the ini globs name, relative to the rootdir (or absolute), in sorted order.

    Raises:
        pytest.UsageError: a glob that names no file (a silent gate is no gate).
    """
    found: list[Path] = []
    for pattern in _lane_globs(config):
        cleaned = pattern.strip().strip(",").strip("[]").strip().strip("'\"")
        base = cleaned if Path(cleaned).is_absolute() else str(config.rootpath / cleaned)
        # glob.glob, not Path.glob: a lane option is a shell-style pattern, absolute or relative, whose
        # trailing ** also names the files below and whose ** follows linked folders (PTH207 would change that)
        matches = glob.glob(base, recursive=True)  # noqa: PTH207
        files = sorted(Path(p).resolve() for p in matches if Path(p).is_file())
        if not files:
            raise pytest.UsageError(f"bgverify_lanes: {pattern!r} names no file (relative to {config.rootpath})")
        found += [f for f in files if f not in found]
    return found


def pytest_configure(config: pytest.Config) -> None:
    """Check the options; add the configured lane files to what pytest collects."""
    config.stash[_SETTINGS] = {  # read and checked once; items and fixtures use these
        "count_nouns": _setting(config, "count_nouns", COUNT_NOUN_CHOICES),
        "policy": _setting(config, "policy", POLICY_CHOICES, allow_empty=True),
        "unexpected_refusal": _setting(config, "unexpected_refusal", UNEXPECTED_CHOICES),
    }
    config.stash[_RESULTS] = {}
    explicit = [Path(p).resolve() for p in config.getoption("--bgverify-lane")]
    for path in explicit:
        if not path.is_file():
            raise pytest.UsageError(f"--bgverify-lane {path}: no such file")
    from_ini = _lane_files(config)
    config.stash[_LANES] = {*explicit, *from_ini}
    added = explicit if config.args_source == pytest.Config.ArgsSource.ARGS else [*explicit, *from_ini]
    for path in added:  # an explicit argument list runs only what it names, plus --bgverify-lane files
        if str(path) not in config.args:
            config.args.append(str(path))


def _is_lane(config: pytest.Config, path: Path) -> bool:
    return path.resolve() in config.stash.get(_LANES, set())


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    """A configured lane file becomes a :class:`LaneFile`."""
    if _is_lane(parent.config, file_path):
        root = parent.config.rootpath
        if file_path.is_relative_to(root):
            return LaneFile.from_parent(parent, path=file_path)
        # outside the rootdir pytest would give the file an empty node id (its items "::case-id"): name it in full
        return LaneFile.from_parent(parent, path=file_path, nodeid=file_path.as_posix())
    return None


class LaneFailure(Exception):
    """A lane case that scored ``wrong`` or ``error`` (or an unexpected refusal under ``fail``)."""

    def __init__(self, result: CaseResult | None, message: str) -> None:
        super().__init__(message)
        self.result = result
        self.message = message


class LaneFile(pytest.File):
    """A lane file: one :class:`LaneItem` per record (and per unreadable line)."""

    def collect(self) -> Iterator[pytest.Item]:
        """Read the file with :func:`adapters.corpus.read_records`, collecting bad lines as failing items."""
        from adapters import MathGraphError
        from adapters.corpus import BadRecord, read_records

        lane = self.path.stem
        try:
            records = list(read_records(self.path, errors="collect", lane=lane))
        except MathGraphError as exc:
            records = [BadRecord(source=self.path.name, line=0, error=exc)]
        if not records:  # an empty lane gates nothing: say so
            records = [
                BadRecord(
                    source=self.path.name,
                    line=0,
                    error=MathGraphError("malformed_input", "the lane holds no record", ""),
                )
            ]
        ids = Counter(r.id for r in records if not isinstance(r, BadRecord))
        for record in records:
            if isinstance(record, BadRecord):
                name = f"line-{record.line}"
            else:  # a repeated id is told apart by its line, which no other item has
                place = f"[{record.index}]" if record.index is not None else f"line{record.line}"
                name = record.id if ids[record.id] == 1 else f"{record.id}@{place}"
            yield LaneItem.from_parent(self, name=name, record=record)


class LaneItem(pytest.Item):
    """One lane case, scored by :func:`evals.scoring.score_record`."""

    def __init__(  # pytest.Item's keywords, named so that each keeps its type
        self,
        *,
        record: Record | BadRecord,
        name: str,
        parent: pytest.Collector | None = None,
        config: pytest.Config | None = None,
        session: pytest.Session | None = None,
        nodeid: str | None = None,
        **kwargs: object,
    ) -> None:
        super().__init__(name=name, parent=parent, config=config, session=session, nodeid=nodeid, **kwargs)
        self.record = record

    def runtest(self) -> None:
        """Score the case; fail on wrong or error, and treat an unexpected refusal as configured."""
        from adapters.corpus import BadRecord
        from evals.scoring import score_record

        config = self.config
        lane = (
            str(self.path.relative_to(config.rootpath)) if self.path.is_relative_to(config.rootpath) else self.path.name
        )
        counts = config.stash[_RESULTS].setdefault(lane, Counter())
        record = self.record
        if isinstance(record, BadRecord):
            counts["error"] += 1
            raise LaneFailure(None, f"{record.where}: unreadable record: {record.error}")
        result = score_record(
            record,
            vocab=_vocabulary(),
            count_nouns=config.stash[_SETTINGS]["count_nouns"],
            policy=cast("Policy | None", config.stash[_SETTINGS]["policy"] or None),  # checked in pytest_configure
            lane=lane,
        )
        counts[result.outcome] += 1
        self.user_properties.append(("bgverify_outcome", result.outcome))
        if result.outcome in ("wrong", "error"):
            raise LaneFailure(result, _message(result))
        if result.outcome == "refused_unexpected":
            mode = config.stash[_SETTINGS]["unexpected_refusal"]
            if mode == "fail":
                raise LaneFailure(result, _message(result))
            if mode == "xfail":  # raised, not pytest.xfail(), so --runxfail shows it failing instead of passing
                raise pytest.xfail.Exception(f"refused unexpectedly: expected {result.expected}, got {result.got}")

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: TracebackStyle | None = None) -> str:
        """The case, expected and found, root cause and trace (a plain message, no Python traceback)."""
        if isinstance(excinfo.value, LaneFailure):
            return excinfo.value.message
        return str(super().repr_failure(excinfo, style=style))

    def reportinfo(self) -> tuple[Path, int | None, str]:
        """Where the case is: its file and line."""
        line = getattr(self.record, "line", 0)
        return self.path, (line - 1 if line else None), f"bgverify case {self.name}"


_WORDS: Final[dict[str, str]] = {
    "refused_unexpected": "refused unexpectedly",
    "refused_expected": "refused as expected",
}


def _message(result: CaseResult) -> str:
    lines = [
        f"bgverify case {result.case_id} ({result.where}): {_WORDS.get(result.outcome, result.outcome)}",
        f"  expected: {result.expected}",
        f"  found:    {result.got}",
    ]
    if result.cause:
        lines.append(f"  cause:    {result.cause}")
    if result.trace:
        lines.append("  trace:")
        lines += [f"    {line}" for line in result.trace]
    return "\n".join(lines)


def _vocabulary() -> UnitVocabulary:
    from units import default_vocabulary

    return default_vocabulary()


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter, config: pytest.Config) -> None:
    """One table of lane outcomes, when any lane ran."""
    results = config.stash.get(_RESULTS, {})
    if not results:
        return
    terminalreporter.section("bgverify lanes")
    width = max(len("lane"), *(len(lane) for lane in results), len("overall"))
    header = f"{'lane':<{width}}" + "".join(f"{title:>22}" for _, title in _COLUMNS)
    terminalreporter.write_line(header)
    total: Counter[str] = Counter()
    for lane in sorted(results):
        counts = results[lane]
        total.update(counts)
        terminalreporter.write_line(f"{lane:<{width}}" + "".join(f"{counts.get(k, 0):>22}" for k, _ in _COLUMNS))
    if len(results) > 1:
        terminalreporter.write_line(f"{'overall':<{width}}" + "".join(f"{total.get(k, 0):>22}" for k, _ in _COLUMNS))


@pytest.fixture(scope="session")
def bgverify_vocabulary() -> UnitVocabulary:
    """The default vocabulary (``units.default_vocabulary()``; built once, cached)."""
    from units import default_vocabulary

    return default_vocabulary()


@pytest.fixture
def bgverify_verify(
    request: pytest.FixtureRequest, bgverify_vocabulary: UnitVocabulary
) -> Callable[[object], GraphReport]:
    """A callable verifying a graph in any supported form, with count nouns handled as configured.

    ``bgverify_verify(graph)`` takes a ``BindingGraph``, a ``MathProblemGraph`` or a
    record (dict or canonical text) and returns its :class:`~verifier.GraphReport`.
    """
    from verifier.testing import report_of

    mode = request.config.stash[_SETTINGS]["count_nouns"]

    def run(subject: object) -> GraphReport:
        return report_of(subject, vocab=bgverify_vocabulary, count_nouns=mode)

    return run


__all__ = [
    "COUNT_NOUN_CHOICES",
    "POLICY_CHOICES",
    "UNEXPECTED_CHOICES",
    "LaneFailure",
    "LaneFile",
    "LaneItem",
    "bgverify_verify",
    "bgverify_vocabulary",
    "pytest_addoption",
    "pytest_collect_file",
    "pytest_configure",
    "pytest_terminal_summary",
]
