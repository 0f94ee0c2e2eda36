"""Scoring a corpus: :func:`score` over records, in one process, a pool, or a Dask cluster, into a :class:`Scoreboard`.

Each record is scored by :func:`evals.scoring.score_record` (``correct``, ``wrong``,
``refused_expected``, ``refused_unexpected``, ``error``).  Records stream: the input
is read lazily and only one compact row per case is kept (``keep_rows=False`` keeps
only the counts).  The board is the same, byte for byte in :meth:`Scoreboard.to_json`,
whichever way the work was spread: results are gathered in input order.
"""

from __future__ import annotations

import collections
import html
import itertools
import json
import multiprocessing
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, TextIO

from adapters.corpus import BadRecord, Record, read_records
from evals.scoring import OUTCOMES, CaseResult, score_record
from units import UnitVocabulary, default_vocabulary
from units.exact import format_exact

if TYPE_CHECKING:
    from multiprocessing.pool import Pool

    import pandas as pd
    from distributed import Client

    from verifier.values import Policy

ROW_FIELDS: Final[tuple[str, ...]] = (
    "id",
    "where",
    "outcome",
    "expected",
    "found",
    "value",
    "numerator",
    "denominator",
    "unit",
    "reason",
    "cause",
)
"""The keys of every :meth:`Scoreboard.rows` dict, in order."""

BATCH: Final[int] = 256
"""Records per task sent to a pool worker or a Dask worker."""


def _row(result: CaseResult) -> tuple[object, ...]:
    value = result.value
    return (
        result.case_id,
        result.where,
        result.outcome,
        result.expected,
        result.got,
        None if value is None else format_exact(value),
        None if value is None else value.numerator,
        None if value is None else value.denominator,
        result.unit,
        result.reason,
        result.cause[:500],
    )


@dataclass
class Scoreboard:
    """The outcome of scoring a corpus.

    Attributes:
        counts: outcome → number of cases (every outcome of :data:`evals.scoring.OUTCOMES`).
        counts_by_reason: refusal reason → ``{"expected": n, "unexpected": n}``.

    ``rows()`` gives one flat dict per case (keys :data:`ROW_FIELDS`; exact values as
    strings plus integer ``numerator`` and ``denominator``), ``to_pandas()`` a
    DataFrame of them, ``cases(outcome=...)`` the rows of one outcome, ``to_json()``
    everything as deterministic JSON data; in a notebook the board shows as a table.
    """

    counts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(OUTCOMES, 0))
    counts_by_reason: dict[str, dict[str, int]] = field(default_factory=dict)
    _rows: list[tuple[object, ...]] = field(default_factory=list, repr=False)
    keep_rows: bool = True

    def add(self, result: CaseResult) -> None:
        """Count one case (and keep its row)."""
        self.counts[result.outcome] = self.counts.get(result.outcome, 0) + 1
        if result.outcome in ("refused_expected", "refused_unexpected") and result.reason:
            by = self.counts_by_reason.setdefault(result.reason, {"expected": 0, "unexpected": 0})
            by["expected" if result.outcome == "refused_expected" else "unexpected"] += 1
        if self.keep_rows:
            self._rows.append(_row(result))

    @property
    def total(self) -> int:
        """The number of cases scored."""
        return sum(self.counts.values())

    @property
    def ok(self) -> bool:
        """At least one case, and no ``wrong`` and no ``error`` (what a gate checks: an empty board passes none)."""
        return self.total > 0 and self.counts.get("wrong", 0) == 0 and self.counts.get("error", 0) == 0

    def rows(self) -> list[dict[str, object]]:
        """One dict per case, in input order (empty when ``keep_rows=False``)."""
        return [dict(zip(ROW_FIELDS, row, strict=True)) for row in self._rows]

    def cases(self, outcome: str | None = None) -> list[dict[str, object]]:
        """The rows of one outcome (``"wrong"``, ``"error"``, …), or all rows.

        Raises:
            ValueError: an outcome outside :data:`evals.scoring.OUTCOMES`.
        """
        if outcome is not None and outcome not in OUTCOMES:
            raise ValueError(f"outcome must be one of {list(OUTCOMES)}, found {outcome!r}")
        return [row for row in self.rows() if outcome is None or row["outcome"] == outcome]

    def to_json(self, *, cases: bool = True) -> dict[str, object]:
        """``{"counts", "counts_by_reason", "total", "cases"}`` (no timings, so byte-stable); ``cases=False`` leaves the rows out."""
        out: dict[str, object] = {
            "total": self.total,
            "counts": {o: self.counts.get(o, 0) for o in OUTCOMES},
            "counts_by_reason": {k: self.counts_by_reason[k] for k in sorted(self.counts_by_reason)},
        }
        if cases:
            out["cases"] = self.rows()
        return out

    def write_json(self, handle: TextIO) -> None:
        """Write :meth:`to_json` as JSON text to a text stream, one case a line (no whole-document copy in memory).

        The text is deterministic and parses to exactly ``to_json()``.
        """
        data = self.to_json(cases=False)
        cases = self._rows
        handle.write('{"cases": [')
        handle.writelines(
            ("\n" if i == 0 else ",\n")
            + json.dumps(dict(zip(ROW_FIELDS, row, strict=True)), sort_keys=True, ensure_ascii=False)
            for i, row in enumerate(cases)
        )
        handle.write("\n]")
        handle.writelines(
            f", {json.dumps(key)}: {json.dumps(data[key], sort_keys=True, ensure_ascii=False)}"
            for key in ("counts", "counts_by_reason", "total")
        )
        handle.write("}\n")

    def to_pandas(self) -> pd.DataFrame:
        """A ``pandas.DataFrame`` of :meth:`rows` (exact values as strings; ``numerator``/``denominator`` as Int64).

        Raises:
            ImportError: pandas is not installed (``pip install 'binding-graph-verifier[pandas]'``).
        """
        try:
            import pandas as pd
        except ImportError as exc:
            raise ImportError(
                "Scoreboard.to_pandas needs pandas: pip install 'binding-graph-verifier[pandas]'"
            ) from exc
        frame = pd.DataFrame(self.rows(), columns=list(ROW_FIELDS))
        for column in ("numerator", "denominator"):
            frame[column] = frame[column].astype("Int64")
        return frame

    def summary(self) -> str:
        """``50 cases: 50 correct, 0 wrong, ...``."""
        parts = ", ".join(f"{self.counts.get(o, 0)} {o.replace('_', ' ')}" for o in OUTCOMES)
        return f"{self.total} cases: {parts}"

    def __repr__(self) -> str:
        return f"Scoreboard({self.summary()})"

    def _repr_html_(self) -> str:
        cells = "".join(f"<th>{html.escape(o.replace('_', ' '))}</th>" for o in OUTCOMES)
        values = "".join(f"<td>{self.counts.get(o, 0)}</td>" for o in OUTCOMES)
        out = [
            f"<table><thead><tr><th>cases</th>{cells}</tr></thead><tbody><tr><td>{self.total}</td>{values}</tr></tbody></table>"
        ]
        if self.counts_by_reason:
            rows = "".join(
                f"<tr><td>{html.escape(reason)}</td><td>{c['expected']}</td><td>{c['unexpected']}</td></tr>"
                for reason, c in sorted(self.counts_by_reason.items())
            )
            out.append(
                f"<table><thead><tr><th>refusal</th><th>expected</th><th>unexpected</th></tr></thead><tbody>{rows}</tbody></table>"
            )
        bad = [row for row in self.rows() if row["outcome"] in ("wrong", "error")][:10]
        if bad:
            rows = "".join(
                "<tr>"
                + "".join(
                    f"<td>{html.escape(str(row[k]))}</td>" for k in ("id", "outcome", "expected", "found", "cause")
                )
                + "</tr>"
                for row in bad
            )
            out.append(
                "<table><thead><tr><th>id</th><th>outcome</th><th>expected</th><th>found</th><th>cause</th></tr></thead>"
                f"<tbody>{rows}</tbody></table>"
            )
        return "\n".join(out)


# ------------------------------------------------------------------ the work, in any process

_WORKER: dict[str, Any] = {}


def _vocab_spec(vocab: UnitVocabulary | None) -> str | None:
    """What rebuilds ``vocab`` in another process: its declarations over the default vocabulary, as JSON text."""
    if vocab is None:
        return None
    return json.dumps(vocab.declarations(), sort_keys=True)


def _rebuild(spec: str | None) -> UnitVocabulary:

    vocab = default_vocabulary()
    if spec is not None:
        declared = json.loads(spec)
        if declared["count_nouns"]:
            vocab = vocab.with_count_nouns(declared["count_nouns"])
        if declared["conventions"]:
            vocab = vocab.with_conventions(declared["conventions"])
    return vocab


def _score_any(item: Record | BadRecord, vocab: UnitVocabulary, count_nouns: str, policy: Policy | None) -> CaseResult:
    """One case's result: an unreadable record is an ``error``; a record is scored.

    Raises:
        TypeError: an item that is neither (a dict or a path inside the iterable: read
            the corpus with :func:`adapters.corpus.read_records`, or pass its path).
    """
    given: object = item  # typed, but an untyped caller may pass anything
    if not isinstance(given, (Record, BadRecord)):
        raise TypeError(
            f"score takes a corpus path or Record/BadRecord items (adapters.corpus.read_records), found {type(given).__name__}"
        )
    if isinstance(item, BadRecord):
        return CaseResult(
            lane=item.source,
            case_id=item.id or item.where,
            outcome="error",
            expected="(unreadable record)",
            got="(not run)",
            seconds=0.0,
            cause=str(item.error),
            trace=(),
            where=item.where,
        )
    return score_record(item, vocab=vocab, count_nouns=count_nouns, policy=policy, trace=False)  # rows keep no trace


def _check_rebuildable(vocab: UnitVocabulary) -> None:
    """Refuse a vocabulary a worker cannot rebuild (one not made from the default by declarations).

    Raises:
        ValueError: a surface resolves differently in the rebuilt vocabulary.
    """
    rebuilt = _rebuild(_vocab_spec(vocab))
    mine = sorted(vocab.surfaces())
    if mine != sorted(rebuilt.surfaces()) or any(
        (vocab.resolve(s).lemma, vocab.resolve(s).scale, vocab.resolve(s).divisible)
        != (rebuilt.resolve(s).lemma, rebuilt.resolve(s).scale, rebuilt.resolve(s).divisible)
        for s in mine
    ):
        raise ValueError(
            "with processes or a scheduler, vocab must be the default vocabulary plus declarations"
            " (count nouns, conventions): a worker rebuilds it from those; score this one with processes=1"
        )


def _init_worker(spec: str | None, count_nouns: str, policy: Policy | None) -> None:
    _WORKER.update(vocab=_rebuild(spec), count_nouns=count_nouns, policy=policy)


def _score_batch(batch: list[Record | BadRecord]) -> list[CaseResult]:
    return [_score_any(item, _WORKER["vocab"], _WORKER["count_nouns"], _WORKER["policy"]) for item in batch]


def _score_batch_with(
    batch: list[Record | BadRecord], spec: str | None, count_nouns: str, policy: Policy | None
) -> list[CaseResult]:
    """A Dask task: builds its vocabulary once per worker process and scores one batch."""
    key = repr((spec, count_nouns, policy))
    if _WORKER.get("key") != key:
        _init_worker(spec, count_nouns, policy)
        _WORKER["key"] = key
    return _score_batch(batch)


def _batches(items: Iterable[Record | BadRecord]) -> Iterator[list[Record | BadRecord]]:
    iterator = iter(items)
    while batch := list(itertools.islice(iterator, BATCH)):
        yield batch


def score(
    records: Iterable[Record | BadRecord] | str | Path,
    *,
    vocab: UnitVocabulary | None = None,
    count_nouns: str = "declared",
    policy: Policy | None = None,
    processes: int = 1,
    scheduler: Client | None = None,
    progress: Callable[[Iterable[CaseResult]], Iterable[CaseResult]] | None = None,
    keep_rows: bool = True,
) -> Scoreboard:
    """Score every record of a corpus against its gold.

    Args:
        records: :class:`adapters.corpus.Record` objects (and ``BadRecord``, scored
            ``error``), or a path or text that :func:`adapters.corpus.read_records` reads
            (every bad line is then an ``error`` row naming its line).
        vocab: the base vocabulary (default: :func:`units.default_vocabulary`).  With
            ``processes`` or ``scheduler`` it must be the default vocabulary plus
            declarations (count nouns, conventions), which each worker rebuilds once.
        count_nouns: ``"declared"`` or ``"auto"`` (see :func:`adapters.auto_count_nouns`).
        policy: ``"count_exact"`` or ``"integer"`` for every record, or ``None`` for each record's own.
        processes: worker processes (1: in this process).
        scheduler: a ``dask.distributed.Client``: records are sent in batches of
            :data:`BATCH` to its workers (Dask is an optional extra).
        progress: wraps the stream of results (e.g. a progress bar); it must yield them all.
        keep_rows: keep one row per case (``False``: counts only, for very large corpora).

    Returns:
        The :class:`Scoreboard`, identical whichever way the work was spread.

    Raises:
        ValueError: a bad ``count_nouns``, ``policy`` or ``processes`` (an int from 1 to
            :data:`MAX_PROCESSES`), a ``vocab`` that is no vocabulary (it had refused every
            case, an empty board of ``refused_unexpected`` that a ``wrong == 0`` gate passes),
            or both ``processes`` > 1 and a ``scheduler``.
        TypeError: ``records`` is no iterable, or ``progress`` is not callable.
        RuntimeError: ``progress`` did not yield every result, once each, in order (the
            board would count other cases than were scored).
        MathGraphError: ``records`` is a path that cannot be read.
    """
    _check_arguments(
        vocab, count_nouns=count_nouns, policy=policy, processes=processes, scheduler=scheduler, progress=progress
    )
    if isinstance(records, (str, Path)):
        records = read_records(records, errors="collect")
    elif not isinstance(records, Iterable):
        raise TypeError(f"records must be an iterable of records, a path or text, found {type(records).__name__}")
    results: Iterable[CaseResult]
    if scheduler is not None:
        spec = _vocab_spec(vocab)
        futures = (
            scheduler.submit(_score_batch_with, batch, spec, count_nouns, policy, pure=False)
            for batch in _batches(records)
        )
        results = (result for future in _bounded(futures, 8) for result in future.result())
    elif processes > 1:
        context = multiprocessing.get_context()  # the platform's default (fork on Linux): works from any __main__
        pool = context.Pool(processes, initializer=_init_worker, initargs=(_vocab_spec(vocab), count_nouns, policy))
        results = _from_pool(pool, records)
    else:
        voc = vocab if vocab is not None else default_vocabulary()
        results = (_score_any(item, voc, count_nouns, policy) for item in records)
    board = Scoreboard(keep_rows=keep_rows)
    for result in _through(progress, results) if progress is not None else results:
        board.add(result)
    return board


def _check_arguments(
    vocab: object, *, count_nouns: object, policy: object, processes: object, scheduler: object, progress: object
) -> None:
    """:func:`score`'s arguments, checked before any record is read (see its ``Raises``)."""
    if vocab is not None and not isinstance(vocab, UnitVocabulary):
        raise ValueError(f"vocab must be a UnitVocabulary or None, found {type(vocab).__name__}")
    if progress is not None and not callable(progress):
        raise TypeError(f"progress must be a callable wrapping the results, found {type(progress).__name__}")
    if count_nouns not in ("declared", "auto"):
        raise ValueError(f"count_nouns must be 'declared' or 'auto', found {count_nouns!r}")
    if policy not in (None, "count_exact", "integer"):
        raise ValueError(f"policy must be None, 'count_exact' or 'integer', found {policy!r}")
    if not isinstance(processes, int) or isinstance(processes, bool) or not 1 <= processes <= MAX_PROCESSES:
        raise ValueError(f"processes must be an int from 1 to {MAX_PROCESSES}, found {processes!r}")
    if processes > 1 and scheduler is not None:
        raise ValueError("give processes or a scheduler, not both")
    if vocab is not None and (processes > 1 or scheduler is not None):
        _check_rebuildable(vocab)


def _through(
    progress: Callable[[Iterable[CaseResult]], Iterable[CaseResult]], results: Iterable[CaseResult]
) -> Iterator[CaseResult]:
    """The results as ``progress`` passes them on, checked to be every result once, in order.

    Only the results ``progress`` holds back at a time are kept (a bar holds none).

    Raises:
        RuntimeError: ``progress`` dropped, repeated, reordered or replaced a result, or ended
            before the results did (also by swallowing an error raised while they were read).
    """
    pending: collections.deque[CaseResult] = collections.deque()
    finished = False

    def tracked() -> Iterator[CaseResult]:
        nonlocal finished
        for result in results:
            pending.append(result)
            yield result
        finished = True

    wrapped = progress(tracked())
    if not isinstance(wrapped, Iterable):
        raise TypeError(f"progress must return an iterable of the results, found {type(wrapped).__name__}")
    for result in wrapped:
        if not pending or result is not pending.popleft():
            raise RuntimeError("progress must yield every result once, in order (it repeated or replaced one)")
        yield result
    if pending or not finished:
        raise RuntimeError("progress must yield every result once, in order (it stopped before the results did)")


MAX_PROCESSES: Final[int] = 256
"""Most worker processes :func:`score` starts (each is started up front; more is a typo, not a plan)."""


def _from_pool(pool: Pool, records: Iterable[Record | BadRecord]) -> Iterator[CaseResult]:
    with pool:
        for batch in pool.imap(_score_batch, _batches(records)):
            yield from batch


def _bounded(futures: Iterator[Any], ahead: int) -> Iterator[Any]:
    """Futures in submission order, never more than ``ahead`` in flight (so the input streams)."""
    window: list[Any] = []
    for future in futures:
        window.append(future)
        if len(window) > ahead:
            yield window.pop(0)
    yield from window


def write_rows(board: Scoreboard, path: str | Path) -> None:
    """Write the board's rows as JSONL (one case a line, keys sorted)."""
    with Path(path).open("w", encoding="utf-8", errors="backslashreplace") as handle:  # a lone surrogate as \\udXXX
        handle.writelines(json.dumps(row, sort_keys=True, ensure_ascii=False) + "\n" for row in board.rows())


__all__ = ["MAX_PROCESSES", "ROW_FIELDS", "Scoreboard", "score", "write_rows"]
