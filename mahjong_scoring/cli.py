"""`mahjong-score`: score a JSON Lines log of requests on every core, in input order.

The lines are cut into chunks that worker processes score (`--jobs`, default every core the
process may use); the chunks' results are written in input order as they come back, with at
most a few chunks per worker in flight, so memory stays bounded on logs of any length. With
`--jobs 1` the lines are scored in this process. Each line's item is `LineScorer`'s
(`mahjong_scoring.lines`), the same bytes the library call `score_lines` gives.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import os
import stat
import sys
import time
from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from typing import IO, TYPE_CHECKING, Any

from app.rules.errors import RuleSetError
from app.scoring.memory import BULK_WIDTH, widen
from app.service import collector
from mahjong_scoring.lines import LineScorer, served_rulesets
from mahjong_scoring.matches import line_scorer

# Lines per chunk sent to a worker: enough that sending a chunk and its answer costs little
# beside scoring it (a few ms of work), few enough that the progress bar moves smoothly.
CHUNK_LINES = 250
# Chunks in flight per worker: enough that no worker waits for the next, few enough that a
# long log is never read into memory ahead of its writing.
CHUNKS_PER_WORKER = 4

if TYPE_CHECKING:
    from concurrent.futures import Future

# A chunk's answer: (its items as JSON lines, lines, won or ready, errors).
Scored = tuple[bytes, int, int, int]

# The progress bar (tqdm), the worker pool (multiprocessing) are imported when used: a run
# without them (`--jobs 1`, no terminal) starts sooner.

_scorer: LineScorer | None = None  # a worker process's own, made by `_start_worker`

DESCRIPTION = """\
Score a JSON Lines log of mahjong hands, one request per line, as the service's
POST /v1/rulesets/{ruleset}/score takes it (or /waits, with --waits, or /analysis, with
--analysis: shanten, useful tiles and the value of each discard; or /match, with --match:
a whole match a line, scored hand by hand). A line may name its
rule set in a "ruleset" field; --ruleset gives the rule set of the lines that do not.

Writes one JSON line per input line, in input order: {"result": ...}, what the service
answers, or {"error": ...}, the problem document the service would answer, with "line", the
input line's number. A line that is empty, not JSON or not a request becomes an error item:
the output always has as many lines as the input. Word-card rule sets are scored the same
way, each line in their own request form.

Shows a progress bar (hands/s, ETA) on stderr when it is a terminal, and prints a summary
(hands, wins, errors, hands/s) at the end. Exit status: 0 when every line was answered
(error items included), 1 when the input or output failed, 2 for a usage error.
"""

EPILOG = """\
examples:
  mahjong-score --ruleset mcr games.jsonl -o scored.jsonl
  cat day1.jsonl day2.jsonl | mahjong-score --ruleset sichuan > scored.jsonl
  mahjong-score --waits --jobs 1 --ruleset tianjin hands.jsonl
  mahjong-score --analysis --ruleset mcr hands.jsonl   # 13 or 14 tiles a line
  mahjong-score --match --ruleset mcr matches.jsonl   # a whole match a line
  ./run log --ruleset mcr --hands 1000 | mahjong-score   # a generated log (a checkout)
"""


def cores() -> int:
    """The cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="mahjong-score", description=DESCRIPTION, epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("input", nargs="?", default="-",
                   help="the JSON Lines file to score (default: standard input, also '-')")
    p.add_argument("-o", "--output", default="-",
                   help="where to write the results (default: standard output, also '-')")
    p.add_argument("-r", "--ruleset",
                   help="the rule set of lines without a \"ruleset\" field, such as mcr; without "
                        "it every line must name its own")
    kind = p.add_mutually_exclusive_group()
    kind.add_argument("--waits", action="store_true",
                      help="the lines are waits requests (a hand one tile short): list every "
                           "winning tile with its score")
    kind.add_argument("--analysis", action="store_true",
                      help="the lines are analysis requests (13 or 14 tiles, optional "
                           "\"visible\"): shanten, useful tiles with the copies left, and for "
                           "14 tiles one row per discard, best first")
    kind.add_argument("--match", action="store_true",
                      help="the lines are match requests, as POST .../match takes them: each "
                           "hand's table, nets and running totals, the standings")
    p.add_argument("--explain", action="store_true",
                   help="explain each result as ?explain=true does: the fans the hand had but "
                        "did not count, and why, and the readings compared")
    p.add_argument("-j", "--jobs", type=int, default=0,
                   help="worker processes (default 0: one per core this process may use, "
                        f"{cores()} here); 1 scores in this process")
    p.add_argument("--time-limit", type=float, metavar="SECONDS",
                   help="the most one line may take; a line past it becomes a "
                        "time_limit_exceeded error item (default: no limit)")
    p.add_argument("--rulesets-dir", metavar="DIR",
                   help="load the rule sets from DIR (default: $MAHJONG_RULESETS_DIR, else the "
                        "project's rulesets/)")
    shown = p.add_mutually_exclusive_group()
    shown.add_argument("--progress", dest="progress", action="store_true", default=None,
                       help="show the progress bar even when stderr is not a terminal")
    shown.add_argument("--no-progress", dest="progress", action="store_false",
                       help="never show the progress bar")
    p.add_argument("-q", "--quiet", action="store_true",
                   help="print no summary at the end")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    p = parser()
    args = p.parse_args(argv)
    jobs = args.jobs or cores()
    if jobs < 0:
        p.error(f"--jobs takes 0 (every core) or more, not {args.jobs}")
    if args.time_limit is not None and not args.time_limit > 0:
        p.error(f"--time-limit takes a number of seconds above 0, not {args.time_limit}")
    endpoint = ("waits" if args.waits else "analysis" if args.analysis
                else "match" if args.match else "score")
    try:
        rulesets = served_rulesets(args.rulesets_dir)
    except (OSError, RuleSetError) as exc:
        print(f"mahjong-score: the rule sets cannot be loaded: {exc}", file=sys.stderr)
        return 1
    try:
        line_scorer(rulesets, args.ruleset, endpoint, args.time_limit, args.explain)
    except ValueError as exc:
        p.error(str(exc))
    show = sys.stderr.isatty() if args.progress is None else args.progress
    settings = (args.rulesets_dir, args.ruleset, endpoint, args.time_limit, args.explain)
    with contextlib.ExitStack() as files:
        # Standard input and output stay open: only files opened here are closed.
        source = _open(files, args.input, "rb", sys.stdin.buffer)
        if source is None:
            return 1
        sink = _open(files, args.output, "wb", sys.stdout.buffer)
        if sink is None:
            return 1
        try:
            hands, won, errors, seconds = _run(source, sink, settings, jobs, show)
        except KeyboardInterrupt:
            print("mahjong-score: interrupted; the output holds the lines scored so far, in "
                  "order", file=sys.stderr)
            return 130
        except BrokenPipeError:
            # The reader stopped early (`| head`): not a failure of the scoring. Python would
            # report the closed pipe again when it flushes standard output on its way out.
            os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
            return 0
        except OSError as exc:
            print(f"mahjong-score: {exc}", file=sys.stderr)
            return 1
    if not args.quiet:
        rate = hands / seconds if seconds > 0 else 0.0
        # analysis: shanten 0 or -1; a match line counts when its match has ended
        what = {"score": "winning", "match": "ended"}.get(endpoint, "ready")
        print(f"mahjong-score: {hands} hands, {won} {what}, {errors} errors in {seconds:.2f} s: "
              f"{rate:,.0f} hands/s ({jobs} job{'s' if jobs != 1 else ''})", file=sys.stderr)
    return 0


def _open(files: contextlib.ExitStack, path: str, mode: str, standard: IO[bytes]
          ) -> IO[bytes] | None:
    """`path` opened for reading ("rb") or writing ("wb"), `standard` for "-", or None
    (said on stderr) when it cannot be."""
    if path == "-":
        return standard
    try:
        opened: IO[bytes] = files.enter_context(open(path, mode))
    except OSError as exc:
        doing = "read" if mode == "rb" else "write"
        print(f"mahjong-score: cannot {doing} {path}: {exc.strerror}", file=sys.stderr)
        return None
    return opened


def _run(source: IO[bytes], sink: IO[bytes], settings: tuple[Any, ...], jobs: int,
         show: bool) -> tuple[int, int, int, float]:
    """Score every line of `source` into `sink`: (lines, won or ready, errors, seconds)."""
    total = _line_count(source) if show else None
    start = time.perf_counter()
    hands = won = errors = 0
    with _progress(total, show) as bar:
        for encoded, n, w, e in _scored_chunks(_chunks(source), settings, jobs):
            sink.write(encoded)
            hands += n
            won += w
            errors += e
            bar.update(n)
    sink.flush()
    return hands, won, errors, time.perf_counter() - start


class _NoBar:
    """No progress bar: what `_run` asks of one, doing nothing."""

    def __enter__(self) -> _NoBar:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def update(self, n: int) -> None:
        return None


def _progress(total: int | None, show: bool) -> Any:
    """The progress bar on stderr (hands/s, and the ETA when `total` is known), or none."""
    if not show:
        return _NoBar()
    from tqdm import tqdm

    tqdm.monitor_interval = 0  # no monitor thread: the workers are forked after the bar starts
    return tqdm(total=total, unit=" hands", file=sys.stderr, dynamic_ncols=True, smoothing=0.1)


def _line_count(source: IO[bytes]) -> int | None:
    """The lines of a regular file, counted ahead for the progress bar's ETA (None for a pipe:
    then the bar shows the rate alone)."""
    try:
        if not stat.S_ISREG(os.fstat(source.fileno()).st_mode):
            return None
        position = source.tell()
    except (OSError, ValueError):
        return None
    count, last = 0, b"\n"
    while block := source.read(1 << 20):
        count += block.count(b"\n")
        last = block[-1:]
    source.seek(position)
    return count + (last != b"\n")


def _chunks(source: Iterable[bytes]) -> Iterator[tuple[int, list[bytes]]]:
    """(number of the first line, the lines) for consecutive chunks of `source`."""
    chunk: list[bytes] = []
    first = 1
    for line in source:
        chunk.append(line)
        if len(chunk) == CHUNK_LINES:
            yield first, chunk
            first += len(chunk)
            chunk = []
    if chunk:
        yield first, chunk


def _score_chunk(scorer: LineScorer, first: int, lines: list[bytes]) -> Scored:
    # No collection inside a chunk: what its lines make is freed as they are written, but a
    # young collection would walk the chunk's requests and answers still held. The few
    # reference cycles a chunk makes (`app.service.collector`) wait for the collection that
    # starts once the collector is on again, at most a chunk's worth.
    gc.disable()
    try:
        encoded, won, errors = scorer.chunk(lines, first)
    finally:
        gc.enable()
    collector.between()
    return encoded, len(lines), won, errors


def _start_worker(settings: tuple[Any, ...]) -> None:
    global _scorer
    directory, default, endpoint, seconds, explain = settings
    _scorer = line_scorer(served_rulesets(directory), default, endpoint, seconds, explain)
    # A process scoring a log meets each suit pattern and tile string again after more
    # hands than a served worker remembers: its memos of them are wider.
    widen(BULK_WIDTH)
    # What is loaded now (the rule sets, their plans, the libraries) lives as long as the
    # process: out of the garbage collector's sight, its full collections walk only what the
    # scoring made since; and those run only between chunks (`_score_chunk`).
    gc.freeze()
    collector.tune(paused_in_units=True)


def _worker_chunk(first: int, lines: list[bytes]) -> Scored:
    assert _scorer is not None
    return _score_chunk(_scorer, first, lines)


def _scored_chunks(chunks: Iterator[tuple[int, list[bytes]]], settings: tuple[Any, ...],
                   jobs: int) -> Iterator[Scored]:
    """Each chunk's answer, in order: here with one job, else from `jobs` workers."""
    if jobs == 1:
        _start_worker(settings)
        for first, lines in chunks:
            yield _worker_chunk(first, lines)
        return
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    # fork where there is one: a worker starts with the rule sets and the engine already
    # loaded here, instead of importing and loading them again (about a second).
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else None)
    _start_worker(settings)
    pending: deque[Future[Scored]] = deque()
    with ProcessPoolExecutor(jobs, mp_context=context, initializer=_start_worker,
                             initargs=(settings,)) as pool:
        try:
            for first, lines in chunks:
                pending.append(pool.submit(_worker_chunk, first, lines))
                if len(pending) >= jobs * CHUNKS_PER_WORKER:
                    yield pending.popleft().result()
                    collector.between()  # this process's own, tuned as the workers'
            while pending:
                yield pending.popleft().result()
        finally:
            for future in pending:
                future.cancel()


if __name__ == "__main__":
    raise SystemExit(main())
