"""The command line: ``bgverify lanes | check FILE | crosscheck FILE`` (also ``python -m verifier``).

Sits on top of the project: imports ``adapters`` and ``evals`` inside its commands.
Exit codes: 0 success; 1 something was refused (``check``), a lane scored wrong or
error (``lanes``), or a pair is unclassified (``crosscheck``); 2 a bad file or usage.
A bad file or record gives one clear message, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import TextIO, TypeVar

_T = TypeVar("_T")

MAX_FILE_BYTES = 256 * 1024 * 1024
"""Largest input file ``check`` reads."""

PROGRESS_THRESHOLD = 200
"""Runs with more items than this show a progress bar (on a terminal only)."""


class _Usage(Exception):
    pass


def _progress(items: Sequence[_T], total: int, label: str) -> Iterable[_T]:
    if total <= PROGRESS_THRESHOLD or not sys.stderr.isatty():
        return items
    from rich.progress import track

    return track(items, total=total, description=label, console=None, transient=True)


def _prog() -> str:
    return "python -m verifier" if sys.argv and sys.argv[0].endswith("__main__.py") else "bgverify"


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("binding-graph-verifier")
    except PackageNotFoundError:  # running from a checkout that is not installed
        return "unknown"


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=_prog(),
        description="Verify binding graphs: dimensional admissibility, exact values, answers or typed refusals.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    lanes = sub.add_parser(
        "lanes",
        help="run the bundled eval lanes (the main job)",
        description="Run every bundled eval lane and print the score table; exit 1 on any wrong or error.",
    )
    lanes.add_argument(
        "--lane",
        action="append",
        metavar="NAME",
        help="run only this lane (repeatable): graphs, relational, bad_inputs, crosscheck",
    )
    lanes.add_argument("--json", action="store_true", help="print the results as JSON")
    lanes.add_argument(
        "--verbose", "-v", action="store_true", help="also list every case that is not correct or refused as expected"
    )
    check = sub.add_parser(
        "check",
        help="verify every graph in a JSON, JSONL or canonical-text file",
        description="Verify every record of FILE (JSON object or list, JSONL, or canonical S/F/E/U text); one line per equation and per answer. Exit 1 if anything was refused.",
        epilog="Input formats, operation kinds, question forms and refusal reasons: docs/formats.md.",
    )
    check.add_argument("file", metavar="FILE")
    check.add_argument(
        "--format",
        choices=["math_graph", "relational", "binding_graph", "canonical_text"],
        help="the records' format (default: detected per record)",
    )
    check.add_argument("--json", action="store_true", help="print reports as JSON lines")
    check.add_argument(
        "--count-noun",
        action="append",
        default=[],
        metavar="SURFACE=LEMMA",
        help="declare a count noun, e.g. apples=apple (repeatable)",
    )
    check.add_argument(
        "--count-nouns",
        choices=["declared", "auto"],
        default="declared",
        help="declared (default): only nouns declared by --count-noun or a record's 'vocab' resolve; auto: each math"
        " graph's undeclared nouns are declared for it (apple and apples as one kind), refusing any one edit from a"
        " lexicon unit or another unit of the same graph as unknown_unit",
    )
    check.add_argument(
        "--convention",
        action="append",
        default=[],
        metavar="UNIT=AMOUNT",
        help="declare the calendar convention, e.g. 'year=365 day' (one anchor fixes every calendar unit)",
    )
    check.add_argument(
        "--policy",
        choices=["count_exact", "integer"],
        help="division policy (default: integer for relational records, else count_exact)",
    )
    cross = sub.add_parser(
        "crosscheck",
        help="compare another implementation's verdicts with ours",
        description="Cross-check FILE (the upstream adapter corpus, equation-verdict records, or canonical text) pair by pair; exit 1 if any pair is unclassified.",
    )
    cross.add_argument("file", metavar="FILE")
    cross.add_argument("--json", action="store_true", help="print the report as JSON")
    cross.add_argument("--examples", type=int, default=2, metavar="N", help="examples shown per category (default 2)")
    return parser


def _records(path: Path) -> Iterator[tuple[str, object]]:
    """``(label, record)`` pairs from a JSON, JSONL or canonical-text file."""
    from units import UnitRefusal
    from units._numbers import loads_exact

    if not path.exists():
        raise _Usage(f"{path}: no such file")
    if not path.is_file():
        raise _Usage(f"{path}: not a regular file")
    if path.stat().st_size > MAX_FILE_BYTES:
        raise _Usage(f"{path}: larger than {MAX_FILE_BYTES // (1024 * 1024)} MiB")
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise _Usage(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise _Usage(f"{path}: cannot read as UTF-8 text ({exc})") from None
    stripped = text.lstrip()
    if not stripped:
        raise _Usage(f"{path}: the file is empty")
    if stripped[:2] in ("S ", "F ", "E ", "U "):
        yield path.name, text
        return
    try:
        whole = loads_exact(text)
    except UnitRefusal:
        whole = None
    if isinstance(whole, list):
        for i, item in enumerate(whole):
            yield f"{path.name}[{i}]", item
        return
    if isinstance(whole, dict):
        yield path.name, whole
        return
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            yield f"{path.name}:{number}", loads_exact(line)
        except UnitRefusal as exc:
            yield f"{path.name}:{number}", exc


def _vocab(args: argparse.Namespace) -> object:
    from units import UnitRefusal, default_vocabulary

    vocab = default_vocabulary()
    try:
        if args.count_noun:
            nouns: dict[str, str] = {}
            for item in args.count_noun:
                surface, sep, lemma = item.partition("=")
                if not sep or not surface or not lemma:
                    raise _Usage(f"--count-noun takes SURFACE=LEMMA, found {item!r}")
                if nouns.get(surface, lemma) != lemma:
                    raise _Usage(f"--count-noun {surface} is declared twice ({nouns[surface]} and {lemma})")
                nouns[surface] = lemma
            vocab = vocab.with_count_nouns(nouns)
        if args.convention:
            conventions: dict[str, str] = {}
            for item in args.convention:
                key, sep, amount = item.partition("=")
                if not sep:
                    raise _Usage(f"--convention takes UNIT=AMOUNT, found {item!r}")
                conventions[key] = amount
            if len(args.convention) > 1:
                raise _Usage("declare exactly one --convention: one calendar anchor fixes every calendar unit")
            vocab = vocab.with_conventions(conventions)
    except UnitRefusal as exc:
        raise _Usage(f"bad declaration: {exc}") from None
    return vocab


def _check(args: argparse.Namespace, out: TextIO) -> int:
    from adapters import MathGraphError
    from adapters.records import bind_record
    from units import UnitRefusal
    from verifier import Answer, verify
    from verifier.errors import BindingGraphError

    vocab = _vocab(args)
    records = list(_records(Path(args.file)))
    refused = False
    for label, record in _progress(records, len(records), "check"):
        try:
            if isinstance(record, UnitRefusal):
                raise record
            bound = bind_record(record, args.format, vocab, count_nouns=args.count_nouns)  # type: ignore[arg-type]
            report = verify(bound.graph, bound.vocab, args.policy or bound.policy)
        except (MathGraphError, BindingGraphError, UnitRefusal) as exc:
            refused = True
            if args.json:
                out.write(
                    json.dumps(
                        {"record": label, "refusal": {"reason": exc.reason, "detail": str(exc)}}, ensure_ascii=False
                    )
                    + "\n"
                )
            else:
                out.write(f"{label}: refused {exc}\n")
            continue
        if any(not isinstance(a, Answer) for a in report.answers.values()) or report.refusals:
            refused = True
        if args.json:
            out.write(
                json.dumps(
                    {"record": label, "id": bound.case_id, "format": bound.format, "report": report.to_json()},
                    sort_keys=True,
                    ensure_ascii=False,
                )
                + "\n"
            )
        else:
            name = f" ({bound.case_id})" if bound.case_id else ""
            out.write(f"{label}{name} [{bound.format}]\n")
            for line in report.lines():
                out.write(f"  {line}\n")
    return 1 if refused else 0


def _crosscheck(args: argparse.Namespace, out: TextIO) -> int:
    from adapters import MathGraphError
    from verifier.crosscheck import crosscheck_file

    path = Path(args.file)
    if not path.exists():
        raise _Usage(f"{path}: no such file")
    if not path.is_file():
        raise _Usage(f"{path}: not a regular file")
    if not path.read_text(encoding="utf-8", errors="replace").strip():
        raise _Usage(f"{path}: the file is empty")
    try:
        report = crosscheck_file(path)
    except MathGraphError as exc:
        raise _Usage(f"{exc}") from None
    if args.json:
        out.write(json.dumps(report.to_json(), sort_keys=True, indent=2, ensure_ascii=False) + "\n")
    else:
        out.write(report.table(examples=args.examples) + "\n")
    return 1 if report.unclassified else 0


def _lanes(args: argparse.Namespace, out: TextIO) -> int:
    from evals.runner import LANES, format_table, results_json, run_lanes

    lanes = args.lane or list(LANES)
    unknown = [name for name in lanes if name not in LANES]
    if unknown:
        raise _Usage(f"unknown lane {unknown[0]!r}; lanes: {', '.join(LANES)}")
    results = run_lanes(lanes, progress=_progress)
    if args.json:
        out.write(results_json(results) + "\n")
    else:
        out.write(format_table(results) + "\n")
        if args.verbose:
            for lane in results:
                for case in lane.results:
                    if case.outcome not in ("correct", "refused_expected"):
                        out.write(f"{case.outcome:>18}  {case.case_id}: expected {case.expected}; got {case.got}\n")
    return 0 if all(lane.ok for lane in results) else 1


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    """Run the command line; returns the exit code (see the module docstring)."""
    stream = out if out is not None else sys.stdout
    parser = _parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help(stream)
        return 2
    try:
        return {"lanes": _lanes, "check": _check, "crosscheck": _crosscheck}[args.command](args, stream)
    except _Usage as exc:
        sys.stderr.write(f"bgverify {args.command}: error: {exc}\n")
        return 2
    except BrokenPipeError:  # e.g. piped into head: stop quietly
        sys.stderr.close()
        return 0
    except KeyboardInterrupt:
        sys.stderr.write("bgverify: interrupted\n")
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
