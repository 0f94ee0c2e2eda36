"""The command line: ``bgverify lanes | check FILE | score FILE... | crosscheck FILE | formats`` (also ``python -m verifier``).

Sits on top of the project: imports ``adapters`` and ``evals`` inside its commands.
Exit codes: 0 success; 1 something was refused (``check``), a lane or a corpus scored
wrong or error (``lanes``, ``score``), or a pair is unclassified (``crosscheck``); 2 a
bad file or usage.
A bad file or record gives one clear message, never a traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import io
import itertools
import json
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Final, TextIO, TypeVar, cast

from verifier.kinds import OPERATION_KINDS

if TYPE_CHECKING:
    from distributed import Client

    from evals.scoreboard import Scoreboard
    from verifier.crosscheck import CrosscheckReport
    from verifier.values import Policy

_T = TypeVar("_T")

MAX_FILE_BYTES = 256 * 1024 * 1024
"""Largest input file ``check`` reads."""

PROGRESS_DELAY_S = 1.0
"""A run that has taken longer than this shows a progress bar on stderr (a terminal only)."""


class _Usage(Exception):
    pass


def _progress(items: Iterable[_T], total: int | None, label: str) -> Iterator[_T]:
    """The items, with a progress bar on stderr once the run has taken more than a second (terminals only).

    The bar never writes to stdout, so ``--json > file`` stays clean, and it is erased
    when the run ends.
    """
    start = time.perf_counter()
    iterator = iter(items)
    if not sys.stderr.isatty():
        yield from iterator
        return
    done = 0
    for item in iterator:
        yield item
        done += 1
        if time.perf_counter() - start > PROGRESS_DELAY_S:
            break
    else:
        return
    from rich.console import Console
    from rich.progress import Progress

    with Progress(console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task(label, total=total, completed=done)
        for item in iterator:
            yield item
            bar.advance(task)


def _prog() -> str:
    return "python -m verifier" if sys.argv and sys.argv[0].endswith("__main__.py") else "bgverify"


def _version() -> str:
    from units.version import distribution_version

    return distribution_version()


def _version_text() -> str:
    """``bgverify 0.1.0``, then which distribution provides each import name, warning about any other."""
    from units.version import DISTRIBUTION, import_name_owners

    lines = [f"{_prog()} {_version()}"]
    for name, owners in import_name_owners().items():
        others = [d for d in owners if d != DISTRIBUTION]
        lines.append(f"  import {name}: {', '.join(owners) or 'not installed (a checkout on sys.path)'}")
        if others:
            lines.append(
                f"  warning: {', '.join(others)} also provides '{name}'; pip lets one overwrite the other's files"
                " (install them in separate environments)"
            )
    return "\n".join(lines)


class _VersionAction(argparse.Action):
    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: object) -> None:
        super().__init__(option_strings, dest, nargs=0, help=str(kwargs.get("help", "")))

    def __call__(  # argparse calls it positionally: (parser, namespace, values, option_string)
        self, parser: argparse.ArgumentParser, _namespace: object, _values: object, _option: object = None
    ) -> None:
        sys.stdout.write(_version_text() + "\n")
        parser.exit()


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=_prog(),
        allow_abbrev=False,
        description="Verify binding graphs: dimensional admissibility, exact values, answers or typed refusals.",
    )
    parser.add_argument("--version", action=_VersionAction, help="show the version and who provides each import name")
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
        help="run only this lane (repeatable): graphs, soundness, relational, bad_inputs, crosscheck",
    )
    lanes.add_argument("--json", action="store_true", help="print the results as JSON")
    lanes.add_argument(
        "--verbose", "-v", action="store_true", help="also list every case that is not correct or refused as expected"
    )
    check = sub.add_parser(
        "check",
        help="verify every graph in a JSON, JSONL or canonical-text file",
        description="Verify every record of FILE (JSON object or list, JSONL, or canonical S/F/E/U text); one line per equation and per answer. Exit 1 if anything was refused; 2 for bad usage or an unreadable file.",
        epilog="Input formats, operation kinds, question forms and refusal reasons: bgverify formats.",
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
        metavar="SURFACE=LEMMA[:divisible]",
        help="declare a count noun, e.g. apples=apple, or a divisible one, pies=pie:divisible (repeatable)",
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
    score = sub.add_parser(
        "score",
        help="score a corpus against its gold: correct, wrong, refused (by reason), error",
        description="Score every record of FILE... (JSONL, JSON, canonical text; the lane, upstream dev and relational layouts) against its gold. Prints the outcome and refusal tables, then the first wrong and error cases. Exit 1 on any wrong or error, else 0; 2 for bad usage.",
        epilog="Record layouts and refusal reasons: bgverify formats.",
    )
    score.add_argument("files", nargs="+", metavar="FILE")
    score.add_argument("--json", action="store_true", help="print the Scoreboard as JSON (the tables are not printed)")
    score.add_argument("--rows", metavar="FILE.jsonl", help="also write one row per case to this JSONL file")
    score.add_argument("--processes", type=int, default=1, metavar="N", help="worker processes (default 1)")
    score.add_argument("--dask", metavar="ADDRESS", help="score on a Dask cluster (the scheduler's address)")
    score.add_argument(
        "--count-nouns",
        choices=["declared", "auto"],
        default="declared",
        help="declared (default): only declared nouns resolve; auto: each math graph's own nouns are declared for"
        " it (other layouts, such as relations, declare theirs with --count-noun or a record's 'vocab')",
    )
    score.add_argument(
        "--count-noun",
        action="append",
        default=[],
        metavar="SURFACE=LEMMA[:divisible]",
        help="declare a count noun for every record, e.g. apples=apple or pies=pie:divisible (repeatable)",
    )
    score.add_argument(
        "--policy", choices=["count_exact", "integer"], help="division policy (default: each record's own)"
    )
    score.add_argument("--examples", type=int, default=5, metavar="N", help="wrong and error cases shown (default 5)")
    sub.add_parser(
        "formats",
        help="print the input-format reference",
        description="Print the input-format reference (verifier/formats.md, shipped in the package).",
    )
    cross = sub.add_parser(
        "crosscheck",
        help="compare another implementation's verdicts with ours (recorded, or live and fuzzed)",
        description=(
            "Cross-check FILE (the upstream adapter corpus, equation-verdict records, or canonical text) "
            "pair by pair; or, with --against MODULE:FUNCTION and no FILE, fuzz that live callable against "
            "ours and show the smallest example of each disagreement category.  Exit 1 if any pair is "
            "unclassified."
        ),
        epilog=(
            "examples:\n"
            "  bgverify crosscheck ../shared/upstream/hand_rolled/equation_verdicts.jsonl\n"
            "  bgverify crosscheck --against mypkg.admissibility:check_admissibility --fuzz 10000 --seed 7\n"
            "  bgverify crosscheck records.jsonl --against mypkg.admissibility:check_admissibility"
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    cross.add_argument("file", metavar="FILE", nargs="?", help="a corpus file (optional with --against)")
    cross.add_argument(
        "--against",
        metavar="MODULE:FUNCTION",
        help="a live reference, (equation, symbols) -> proof string | reason, imported from the current environment",
    )
    cross.add_argument(
        "--fuzz",
        type=_fuzz_count,
        metavar="N",
        help="with --against and no FILE: equations to draw (default 1000; a repeat is counted once, so the"
        " report may hold fewer pairs)",
    )
    cross.add_argument("--seed", type=int, default=0, metavar="S", help="the fuzz run's seed (default 0)")
    cross.add_argument(
        "--kind",
        action="append",
        choices=OPERATION_KINDS,
        metavar="KIND",
        help=f"fuzz only this operation kind (repeatable; default all ten: {', '.join(OPERATION_KINDS)})",
    )
    cross.add_argument(
        "--fail-on-disagreement",
        action="store_true",
        help="exit 1 when any pair blames a side (theirs_* or ours_*) or is unclassified, not only on unclassified",
    )
    cross.add_argument("--json", action="store_true", help="print the report as JSON")
    cross.add_argument(
        "--examples",
        type=_count,
        default=2,
        metavar="N",
        help="examples shown per category of a FILE (default 2); a fuzz run shows each category's smallest one",
    )
    for subparser in sub.choices.values():  # an unknown option is reported with its command's usage
        subparser.set_defaults(command_parser=subparser)
    return parser


def _count(text: str) -> int:
    """A whole number 0 or more (argparse type)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, found {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected 0 or more, found {value}")
    return value


MAX_FUZZ: Final[int] = 1_000_000
"""The most equations ``crosscheck --fuzz`` draws (the ``max_examples`` bound of :func:`verifier.crosscheck.fuzz`)."""


def _fuzz_count(text: str) -> int:
    """``--fuzz N``: a whole number from 1 to :data:`MAX_FUZZ` (argparse type; the flag is named, not the keyword)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, found {text!r}") from None
    if not 1 <= value <= MAX_FUZZ:
        raise argparse.ArgumentTypeError(f"expected 1 to {MAX_FUZZ:,} equations, found {value}")
    return value


def _input_file(name: str | Path) -> Path:
    """An input file that exists and is a regular file (a usage error naming it otherwise).

    ``-`` is refused with a message saying so: the commands read files (a record's line
    numbers and the file's name label the output), never standard input.
    """
    path = Path(name)
    if str(name) == "-" and not path.exists():
        raise _Usage("-: standard input is not read; write the records to a file and pass its path")
    if not path.exists():
        raise _Usage(f"{path}: no such file")
    if not path.is_file():
        raise _Usage(f"{path}: not a regular file")
    return path


def _output_file(name: str) -> Path:
    """A file to write: its folder exists and it is not a folder itself (checked before any work is done)."""
    path = Path(name)
    if path.is_dir():
        raise _Usage(f"{path}: is a folder, not a file to write")
    if not path.parent.is_dir():
        raise _Usage(f"{path}: the folder {path.parent} does not exist")
    return path


def _records(path: Path) -> Iterator[tuple[str, object]]:
    """``(label, record)`` pairs from a JSON, JSONL or canonical-text file."""
    path = _input_file(path)
    text = _input_text(path)
    if text.lstrip()[:2] in _CANONICAL_STARTS:
        yield path.name, text
        return
    yield from _json_records(path.name, text)


_CANONICAL_STARTS: Final[tuple[str, ...]] = ("S ", "F ", "E ", "U ")
"""How a canonical-text file begins: a symbol, fact, equation or unknown line (verifier/formats.md)."""


def _input_text(path: Path) -> str:
    """The text of an input file: at most :data:`MAX_FILE_BYTES`, UTF-8, not blank (a usage error otherwise)."""
    if path.stat().st_size > MAX_FILE_BYTES:
        raise _Usage(f"{path}: larger than {MAX_FILE_BYTES // (1024 * 1024)} MiB")
    try:
        text = path.read_text(encoding="utf-8-sig")  # a byte-order mark is not part of the first record
    except FileNotFoundError:
        raise _Usage(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise _Usage(f"{path}: cannot read as UTF-8 text ({exc})") from None
    if not text.lstrip():
        raise _Usage(f"{path}: the file is empty")
    return text


def _json_records(name: str, text: str) -> Iterator[tuple[str, object]]:
    """The records of JSON text: a list's items, one object, else one per JSONL line (a bad line as its refusal)."""
    from units import UnitRefusal
    from units.exact import loads_exact

    try:
        whole = loads_exact(text)
    except UnitRefusal:
        whole = None
    if isinstance(whole, list):
        for i, item in enumerate(whole):
            yield f"{name}[{i}]", item
        return
    if isinstance(whole, dict):
        yield name, whole
        return
    for number, line in enumerate(io.StringIO(text, newline=None), start=1):  # lines as score reads them
        if not line.strip():
            continue
        try:
            yield f"{name}:{number}", loads_exact(line.strip())  # as score reads a line
        except UnitRefusal as exc:
            yield f"{name}:{number}", exc


def _vocab(args: argparse.Namespace) -> object:
    """The default vocabulary with the ``--count-noun`` and ``--convention`` declarations (a usage error if bad)."""
    from units import UnitRefusal, default_vocabulary

    vocab = default_vocabulary()
    try:
        if args.count_noun:
            vocab = vocab.with_count_nouns(_count_noun_specs(args.count_noun))
        if args.convention:
            vocab = vocab.with_conventions(_conventions(args.convention))
    except UnitRefusal as exc:
        raise _Usage(f"bad declaration: {exc}") from None
    return vocab


def _count_noun_specs(items: Sequence[str]) -> dict[str, object]:
    """``--count-noun SURFACE=LEMMA[:divisible]`` items as ``with_count_nouns`` specs (a usage error if bad)."""
    nouns: dict[str, str] = {}
    divisible: set[str] = set()
    for item in items:
        surface, sep, lemma = item.partition("=")
        lemma, colon, flag = lemma.partition(":")
        if not sep or not surface or not lemma:
            raise _Usage(f"--count-noun takes SURFACE=LEMMA or SURFACE=LEMMA:divisible, found {item!r}")
        if "," in item:  # no lemma holds one; a list was meant
            raise _Usage(
                f"--count-noun takes one SURFACE=LEMMA, found {item!r}: repeat the flag for each noun"
                " (--count-noun apples=apple --count-noun pears=pear)"
            )
        if colon and flag != "divisible":
            raise _Usage(
                f"--count-noun takes SURFACE=LEMMA or SURFACE=LEMMA:divisible, found {item!r}:"
                f" the one flag after ':' is 'divisible', not {flag!r}"
            )
        if nouns.get(surface, lemma) != lemma:
            raise _Usage(f"--count-noun {surface} is declared twice ({nouns[surface]} and {lemma})")
        nouns[surface] = lemma
        if colon:
            divisible.add(lemma)
    return {s: {"lemma": lem, "divisible": True} if lem in divisible else lem for s, lem in nouns.items()}


def _conventions(items: Sequence[str]) -> dict[str, str]:
    """``--convention UNIT=AMOUNT`` items as ``with_conventions`` declarations: exactly one (a usage error if bad)."""
    conventions: dict[str, str] = {}
    for item in items:
        key, sep, amount = item.partition("=")
        if not sep:
            raise _Usage(f"--convention takes UNIT=AMOUNT, found {item!r}")
        conventions[key] = amount
    if len(items) > 1:
        raise _Usage("declare exactly one --convention: one calendar anchor fixes every calendar unit")
    return conventions


def _check(args: argparse.Namespace, out: TextIO) -> int:
    from adapters import MathGraphError
    from adapters.records import bind_record, printable_id
    from units import UnitRefusal
    from verifier import Answer
    from verifier.errors import BindingGraphError

    vocab = _vocab(args)
    records = list(_records(Path(args.file)))
    if not records:  # an empty list checks nothing: exit 0 would say everything was answered
        raise _Usage(f"{args.file}: holds no records")
    refused = False
    for label, record in _progress(records, len(records), "check"):
        try:
            if isinstance(record, UnitRefusal):
                raise record
            bound = bind_record(record, args.format, vocab, count_nouns=args.count_nouns)  # type: ignore[arg-type]
            report = bound.verify(cast("Policy | None", args.policy))  # choices=
        except (MathGraphError, BindingGraphError, UnitRefusal) as exc:
            refused = True
            case_id = printable_id(record)
            if args.json:
                refusal = {"reason": exc.reason, "detail": str(exc)}
                out.write(json.dumps({"record": label, "id": case_id, "refusal": refusal}, ensure_ascii=False) + "\n")
            else:
                name = f" ({case_id})" if case_id else ""
                out.write(f"{label}{name}: refused {exc}\n")
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
            out.writelines(f"  {line}\n" for line in report.lines())
    return 1 if refused else 0


def _reference(spec: str) -> Callable[..., object]:
    """The callable named ``MODULE:FUNCTION`` (``FUNCTION`` may be dotted), imported as ``python -m`` would.

    Raises:
        _Usage: a malformed spec, a module that does not import, or a name that is missing
            or not callable.
    """
    module_name, sep, attribute = spec.partition(":")
    if not sep or not module_name or not attribute or ":" in attribute:
        raise _Usage(f"--against takes MODULE:FUNCTION (e.g. mypkg.admissibility:check), found {spec!r}")
    if "" not in sys.path and str(Path.cwd()) not in sys.path:
        sys.path.insert(0, str(Path.cwd()))
    try:
        with contextlib.redirect_stdout(sys.stderr):  # what the module prints must not mix with our output
            target: object = importlib.import_module(module_name)
    except KeyboardInterrupt:
        raise
    except BaseException as exc:  # noqa: BLE001 -- the user's module may fail in any way (sys.exit too): one clear message
        raise _Usage(f"--against: cannot import {module_name!r}: {type(exc).__name__}: {exc}") from None
    for part in attribute.split("."):
        try:
            target = getattr(target, part)
        except AttributeError:
            raise _Usage(f"--against: {module_name!r} has no attribute {attribute!r}") from None
        except Exception as exc:  # noqa: BLE001 -- a lazy attribute of the user's module may raise anything: one clear message
            raise _Usage(f"--against: looking up {attribute!r} raised {type(exc).__name__}: {exc}") from None
    if not callable(target):
        raise _Usage(f"--against: {spec} is a {type(target).__name__}, not a callable")
    return target


def _crosscheck(args: argparse.Namespace, out: TextIO) -> int:
    from adapters import MathGraphError
    from verifier.crosscheck import crosscheck_file

    if args.fuzz is not None and (args.against is None or args.file is not None):
        raise _Usage("--fuzz needs --against MODULE:FUNCTION and no FILE")
    if args.kind and args.file is not None:
        raise _Usage("--kind applies to a fuzz run (--against with no FILE)")
    against = _reference(args.against) if args.against is not None else None
    if args.file is None:
        if against is None:
            raise _Usage("give FILE, or --against MODULE:FUNCTION to fuzz a live implementation")
        return _fuzz(against, args, out)
    path = _input_file(args.file)
    if not path.read_text(encoding="utf-8", errors="replace").strip():
        raise _Usage(f"{path}: the file is empty")
    try:
        with contextlib.redirect_stdout(sys.stderr):
            report = crosscheck_file(path, against=against)
    except MathGraphError as exc:
        raise _Usage(f"{exc}") from None
    return _write_report(report, args, out)


def _write_report(report: CrosscheckReport, args: argparse.Namespace, out: TextIO) -> int:
    """Print a cross-check report (``--json`` or the table).

    Exit 1 when a pair is unclassified, or, with ``--fail-on-disagreement``, when any pair's
    category blames a side (:attr:`verifier.crosscheck.Category.wrong`); else 0.
    """
    from verifier.crosscheck import CATEGORY_INFO

    if args.json:
        out.write(json.dumps(report.to_json(), sort_keys=True, indent=2, ensure_ascii=False) + "\n")
    else:
        out.write(report.table(examples=args.examples) + "\n")
    blamed = any(n and CATEGORY_INFO[c].wrong in ("theirs", "ours", "unknown") for c, n in report.counts.items())
    return 1 if report.unclassified or (args.fail_on_disagreement and blamed) else 0


def _fuzz(against: Callable[..., object], args: argparse.Namespace, out: TextIO) -> int:
    from verifier.crosscheck import fuzz
    from verifier.errors import BindingGraphError

    try:
        with contextlib.redirect_stdout(sys.stderr):  # what the reference prints must not mix with the report
            report = fuzz(
                against, max_examples=1000 if args.fuzz is None else args.fuzz, kinds=args.kind, seed=args.seed
            )
    except BindingGraphError as exc:
        raise _Usage(f"{exc}") from None
    except ImportError as exc:
        raise _Usage(f"{exc}") from None
    return _write_report(report, args, out)


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


def _score(args: argparse.Namespace, out: TextIO) -> int:
    """Score the corpus files against their gold; exit 1 on any wrong or error (see the module docstring)."""
    from adapters import MathGraphError
    from adapters.corpus import read_records
    from evals.scoreboard import score

    rows = _score_usage(args)
    scheduler = _dask_client(args.dask) if args.dask else None
    records = itertools.chain.from_iterable(read_records(name, errors="collect") for name in args.files)
    args.convention = []
    vocab = _vocab(args)
    try:
        board = score(
            records,
            vocab=vocab if args.count_noun else None,  # type: ignore[arg-type]
            count_nouns=args.count_nouns,
            policy=args.policy,
            processes=args.processes,
            scheduler=scheduler,
            progress=lambda results: _progress(results, None, "score"),
        )
    except MathGraphError as exc:
        raise _Usage(str(exc)) from None
    finally:
        if scheduler is not None:
            scheduler.close()  # type: ignore[no-untyped-call]
    if board.total == 0:
        raise _Usage(f"no record to score in {', '.join(args.files)} (empty files)")
    _write_board(board, rows, args, out)
    return 0 if board.ok else 1


def _score_usage(args: argparse.Namespace) -> Path | None:
    """Check ``score``'s options and files before any work: the ``--rows`` file to write, if any.

    Raises:
        _Usage: processes outside 1 to :data:`evals.scoreboard.MAX_PROCESSES`, a negative ``--examples``,
            both ``--processes`` and ``--dask``, a ``--rows`` file that cannot be written
            or that is one of the inputs, or an input file that is missing or empty.
    """
    from evals.scoreboard import MAX_PROCESSES

    if not 1 <= args.processes <= MAX_PROCESSES:
        raise _Usage(f"--processes must be from 1 to {MAX_PROCESSES}, found {args.processes}")
    if args.examples < 0:
        raise _Usage(f"--examples must be at least 0, found {args.examples}")
    if args.dask and args.processes > 1:
        raise _Usage("give --processes or --dask, not both")
    rows = _output_file(args.rows) if args.rows else None
    for name in args.files:
        path = _input_file(name)
        if not _has_content(path):
            raise _Usage(f"{name}: the file is empty (no record to score)")
        if rows is not None and rows.resolve() == path.resolve():
            raise _Usage(f"--rows {args.rows} is an input file: writing the rows would overwrite the corpus")
    return rows


def _dask_client(address: str) -> Client:
    """A client of the Dask scheduler at ``address`` (a usage error without dask, or with no scheduler there)."""
    try:
        from dask.distributed import Client
    except ImportError:
        raise _Usage("--dask needs dask: pip install 'binding-graph-verifier[dask]'") from None
    try:
        return Client(address)  # type: ignore[no-untyped-call]  # distributed is untyped here
    except (OSError, TimeoutError, ValueError) as exc:  # no scheduler there, or not an address
        raise _Usage(f"--dask {address}: cannot reach a Dask scheduler ({type(exc).__name__}: {exc})") from None


def _write_board(board: Scoreboard, rows: Path | None, args: argparse.Namespace, out: TextIO) -> None:
    """Write the rows file, if asked, then the Scoreboard (``--json``) or its tables."""
    from evals.scoreboard import write_rows

    if rows is not None:
        try:
            write_rows(board, rows)
        except OSError as exc:
            raise _Usage(f"--rows {rows}: cannot write ({exc})") from None
    if args.json:
        board.write_json(out)
    else:
        _score_tables(board, out, args.examples)
        undeclared = board.counts_by_reason.get("unknown_unit", {}).get("unexpected", 0)
        if undeclared and not args.count_noun:
            how = (
                "--count-nouns auto declares only each math graph's own nouns; declare the others with"
                " --count-noun apples=apple or a record's 'vocab'"
                if args.count_nouns == "auto"
                else "declare them with --count-noun apples=apple, or --count-nouns auto for math graphs"
            )
            out.write(
                f"{undeclared} unexpected unknown_unit refusal(s): a count noun outside en_units_v1 must be"
                f" declared; {how} (--rows FILE.jsonl lists each case)\n"
            )


def _has_content(path: Path) -> bool:
    """Whether a file holds anything but blank lines (read line by line, never whole)."""
    with path.open(encoding="utf-8-sig", errors="replace") as handle:
        return any(line.strip() for line in handle)


def _score_tables(board: Scoreboard, out: TextIO, examples: int) -> None:
    from rich.console import Console
    from rich.table import Table

    from evals.scoring import OUTCOMES

    console = Console(file=out, width=120, highlight=False)
    outcomes = Table(title=f"{board.total} case{'' if board.total == 1 else 's'}")
    for name in ("outcome", "cases"):
        outcomes.add_column(name, justify="right" if name == "cases" else "left")
    for outcome in OUTCOMES:
        outcomes.add_row(outcome, str(board.counts.get(outcome, 0)))
    console.print(outcomes)
    by_reason = board.counts_by_reason
    if by_reason:
        reasons = Table(title="refusals by reason")
        for name in ("reason", "expected", "unexpected"):
            reasons.add_column(name, justify="left" if name == "reason" else "right")
        for reason in sorted(by_reason):
            reasons.add_row(reason, str(by_reason[reason]["expected"]), str(by_reason[reason]["unexpected"]))
        console.print(reasons)
    for outcome in ("wrong", "error"):
        rows = board.cases(outcome)
        for row in rows[:examples]:
            where = f" ({row['where']})" if row["where"] != row["id"] else ""
            console.print(f"{outcome} {row['id']}{where}: expected {row['expected']}; found {row['found']}")
            if row["cause"]:
                console.print(f"    {row['cause']}")
        if len(rows) > examples:
            console.print(f"... and {len(rows) - examples} more {outcome} cases (--rows FILE.jsonl lists every case)")


def _formats(_args: argparse.Namespace, out: TextIO) -> int:
    """Print the input-format reference (every command takes ``(args, out)``; this one reads no argument)."""
    out.write(resources.files("verifier").joinpath("formats.md").read_text(encoding="utf-8"))
    return 0


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    """Run the command line; returns the exit code (see the module docstring)."""
    for std in (sys.stdout, sys.stderr):  # text no encoding can write (a lone surrogate) is escaped, never a traceback
        if isinstance(std, io.TextIOWrapper):
            std.reconfigure(errors="backslashreplace")
    stream = out if out is not None else sys.stdout
    parser = _parser()
    args, extras = parser.parse_known_args(argv)
    if extras:  # argparse would name them under the top-level usage; the command's usage says what it takes
        getattr(args, "command_parser", parser).error(f"unrecognized arguments: {' '.join(extras)}")
    if args.command is None:
        parser.print_help(stream)
        return 2
    try:
        commands = {"lanes": _lanes, "check": _check, "crosscheck": _crosscheck, "score": _score, "formats": _formats}
        return commands[args.command](args, stream)
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

__all__ = [
    "main",
]
