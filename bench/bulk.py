"""Benchmark: scoring many MCR hands, every way the project offers, on the same hands in one run.

    python bench/bulk.py [--hands N] [--cli-hands M] [--seed S] [--workers W] [--conns C]
                         [--duration D] [--skip-http]

The hands are the log generator's (`./run log`, `tools.loggen`): N random legal MCR score
requests with a consistent context, mostly winning (default 10,000). Printed, as hands/s and
µs per hand:

1. the engine alone: the requests read into hands beforehand, `evaluate.score` on each, once
   (cold: the hands never seen before) and again (warm: the engine's memos filled);
2. in-process, through Flask's test client: each hand as a single `score` call (the median
   of the calls), and as batches of 1, 10, 100 and 1,000 (`score/batch`, the median batch
   over the hands' batches, divided by its size);
3. over HTTP, a gunicorn service as `./run serve` starts it (`--workers`, default the
   config's): the same on one keep-alive connection, one request at a time (latency), then
   hands/s under load from `wrk` (`--conns` connections, `--duration` s per figure; skipped
   without wrk) for single calls and each batch size;
4. the command-line scorer `mahjong-score` on a log of M hands (`--cli-hands`, default
   100,000; the first N are the hands above) with `--jobs 1` and with every core, written
   to /dev/null: hands/s from its wall time, and the output's line count checked against the
   input's.

The acceptance figures come last: a batch of 1,000's cost per hand over a single call's
median, in-process and over HTTP (needs ≤ 0.3), and the command-line scorer's hands/s on all
cores over one (needs ≥ 1.6 on 2 cores). Figures are of this run only: compare them with each
other, not with another machine's. The garbage collector is paused while timing in-process.
Nothing here asserts.
"""

from __future__ import annotations

# isort: off
import _paths  # noqa: F401  (first: this folder behind the standard library)
# isort: on

import argparse
import gc
import http.client
import importlib.util
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

from serving import HOST, Server, run_main, servers_stopped_on_exit

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from app.api import create_app  # noqa: E402
from app.scoring import evaluate  # noqa: E402
from app.scoring.build import engine_build  # noqa: E402
from app.service.tiles.requests import read_score_request  # noqa: E402
from mahjong_scoring.cli import cores  # noqa: E402
from mahjong_scoring.lines import served_rulesets  # noqa: E402
from tools import loggen  # noqa: E402

BATCH_SIZES = (1, 10, 100, 1000)
DEFAULT_SEED = 20261201
SCORE = "/v1/rulesets/mcr/score"
BATCH = "/v1/rulesets/mcr/score/batch"
Body = dict[str, Any]


def _bench_http() -> ModuleType:
    """bench/http.py (its wrk driver), loaded under another name: `http` is the standard
    library's."""
    spec = importlib.util.spec_from_file_location("bench_http", Path(__file__).with_name("http.py"))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_http"] = module
    spec.loader.exec_module(module)
    return module


def encode(body: Any) -> bytes:
    return json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode()


def batches(hands: Sequence[Body], size: int) -> list[bytes]:
    return [encode({"requests": list(hands[i:i + size])})
            for i in range(0, len(hands) - size + 1, size)]


class Row:
    def __init__(self, name: str, per_hand_us: float, note: str = "") -> None:
        self.name, self.per_hand_us, self.note = name, per_hand_us, note

    def line(self, single_us: float | None) -> str:
        rate = 1e6 / self.per_hand_us if self.per_hand_us else 0.0
        ratio = f"{self.per_hand_us / single_us:9.3f}" if single_us else " " * 9
        return f"  {self.name:<40} {rate:>11,.0f} {self.per_hand_us:>12.1f} {ratio}  {self.note}"


def header(title: str) -> None:
    print(f"\n{title}\n  {'':<40} {'hands/s':>11} {'µs per hand':>12} {'vs single':>9}")


# --- 1. the engine alone -----------------------------------------------------------------------


def engine_alone(hands: Sequence[Body]) -> list[Row]:
    mcr = served_rulesets()["mcr"]
    read = [read_score_request(h, mcr) for h in hands]
    rows = []
    for name in ("engine alone, first pass (cold)", "engine alone, again (warm)"):
        gc.disable()
        start = time.perf_counter()
        for hand, ctx in read:
            evaluate.score(hand, ctx, mcr)
        elapsed = time.perf_counter() - start
        gc.enable()
        rows.append(Row(name, elapsed / len(read) * 1e6))
    return rows


# --- 2. in-process -----------------------------------------------------------------------------


def timed(call: Callable[[], Any]) -> float:
    start = time.perf_counter()
    call()
    return time.perf_counter() - start


def in_process(hands: Sequence[Body]) -> tuple[float, list[Row]]:
    app = create_app()
    client = app.test_client()

    def post(url: str, data: bytes) -> None:
        response = client.post(url, data=data, content_type="application/json")
        assert response.status_code == 200, response.get_data(as_text=True)[:300]

    singles = [encode(h) for h in hands]
    for data in singles[:200]:  # Flask's first requests set things up
        post(SCORE, data)
    gc.disable()
    single = statistics.median(timed(lambda d=d: post(SCORE, d)) for d in singles) * 1e6
    rows = [Row("single call (median)", single)]
    for size in BATCH_SIZES:
        times = [timed(lambda b=b: post(BATCH, b)) for b in batches(hands, size)]
        rows.append(Row(f"batch of {size:,} (median batch / {size:,})",
                        statistics.median(times) / size * 1e6))
    gc.enable()
    return single, rows


# --- 3. over HTTP ------------------------------------------------------------------------------


def one_connection(port: int, url: str, bodies: Sequence[bytes], per: int) -> float:
    """Median µs per hand of `bodies` sent one at a time on one keep-alive connection."""
    conn = http.client.HTTPConnection(HOST, port, timeout=60)
    times = []
    try:
        for body in bodies:
            start = time.perf_counter()
            conn.request("POST", url, body=body, headers={"Content-Type": "application/json"})
            response = conn.getresponse()
            data = response.read()
            times.append(time.perf_counter() - start)
            if response.status != 200:
                raise RuntimeError(f"{url} answered {response.status}: {data[:300]!r}")
    finally:
        conn.close()
    return statistics.median(times) / per * 1e6


def over_http(hands: Sequence[Body], workers: int | None, conns: int, duration: float
              ) -> tuple[float, list[Row], list[Row]]:
    extra = ["--workers", str(workers)] if workers else []
    running: list[Server] = []
    with servers_stopped_on_exit(running), tempfile.TemporaryDirectory() as tmp:
        service = Server("service", "app.api:create_app()", extra, Path(tmp))
        running.append(service)
        service.wait_ready("GET", "/healthz")
        singles = [encode(h) for h in hands]
        one_connection(service.port, SCORE, singles[:500], 1)  # warm up every worker's engine
        single = one_connection(service.port, SCORE, singles, 1)
        latency = [Row("single call (median)", single)]
        for size in BATCH_SIZES:
            latency.append(Row(f"batch of {size:,} (median batch / {size:,})",
                               one_connection(service.port, BATCH, batches(hands, size), size)))
        load: list[Row] = []
        if shutil.which("wrk"):
            bench_http = _bench_http()
            pools = [("single calls", SCORE, singles[:2000], 1)]
            pools += [(f"batches of {size:,}", BATCH, batches(hands, size)[:max(8, 2000 // size)],
                       size) for size in BATCH_SIZES]
            for name, url, pool, size in pools:
                script = bench_http.wrk_script(Path(tmp) / "load.lua", url, pool, close=False)
                result = bench_http.run_wrk(service.port, script, conns, duration, 60.0)
                bad = result.bad_status + result.connect + result.read + result.timeouts
                hands_per_s = result.rps * size
                load.append(Row(f"{name}, {conns} connections", 1e6 / hands_per_s
                                if hands_per_s else 0.0,
                                f"{result.requests:,} requests, {bad} errors, p50 "
                                f"{result.p50_ms:.1f} ms"))
        return single, latency, load


# --- 4. the command-line scorer ----------------------------------------------------------------


def command_line(log: Path, lines: int, jobs: int) -> Row:
    script = Path(sys.executable).parent / "mahjong-score"
    command = [str(script)] if script.exists() else [sys.executable, "-m", "mahjong_scoring.cli"]
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "out.jsonl"
        start = time.perf_counter()
        subprocess.run([*command, "--ruleset", "mcr", "--jobs", str(jobs), "--no-progress",
                        "--quiet", str(log), "-o", str(out)], check=True)
        elapsed = time.perf_counter() - start
        with out.open("rb") as f:
            written = sum(1 for _ in f)
    note = f"{lines:,} lines in, {written:,} out" + ("" if written == lines else "  MISMATCH")
    return Row(f"mahjong-score --jobs {jobs} ({elapsed:.1f} s)", elapsed / lines * 1e6, note)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--hands", type=int, default=10_000,
                    help="hands for the engine, in-process and HTTP figures (default 10,000)")
    ap.add_argument("--cli-hands", type=int, default=100_000,
                    help="lines of the command-line scorer's log (default 100,000)")
    ap.add_argument("--seed", type=int, default=DEFAULT_SEED, help=f"default {DEFAULT_SEED}")
    ap.add_argument("--workers", type=int, help="gunicorn workers (default: the config's)")
    ap.add_argument("--conns", type=int, default=4,
                    help="wrk connections for the HTTP load figures (default 4)")
    ap.add_argument("--duration", type=float, default=5.0,
                    help="seconds of wrk load per figure (default 5)")
    ap.add_argument("--skip-http", action="store_true", help="no HTTP figures")
    args = ap.parse_args(argv)
    if args.hands < 1000 or args.cli_hands < args.hands:
        ap.error("--hands takes 1,000 or more (a batch of 1,000), --cli-hands at least --hands")

    started = time.perf_counter()
    mcr = served_rulesets()["mcr"]
    log_hands = loggen.requests(mcr, args.cli_hands, args.seed)
    hands = log_hands[:args.hands]
    print(f"{args.hands:,} MCR hands (seed {args.seed}; {args.cli_hands:,} for the command "
          f"line), generated in {time.perf_counter() - started:.1f} s; engine build: "
          f"{engine_build()}; {cores()} cores")

    header("the engine alone")
    for row in engine_alone(hands):
        print(row.line(None))

    single_in, rows = in_process(hands)
    header("in-process (Flask's test client)")
    for row in rows:
        print(row.line(single_in))
    batch_in = rows[-1].per_hand_us

    batch_http = single_http = None
    if not args.skip_http:
        single_http, latency, load = over_http(hands, args.workers, args.conns, args.duration)
        header(f"over HTTP, one connection, one request at a time (gunicorn, "
               f"{args.workers or 'the config'} workers)")
        for row in latency:
            print(row.line(single_http))
        batch_http = latency[-1].per_hand_us
        if load:
            header("over HTTP under load (wrk)")
            for row in load:
                print(row.line(load[0].per_hand_us))
        else:
            print("\n  (wrk is not installed: no load figures; Debian: apt-get install wrk)")

    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "log.jsonl"
        log.write_bytes(b"".join(encode(h) + b"\n" for h in log_hands))
        header(f"the command-line scorer, {args.cli_hands:,} hands")
        one = command_line(log, args.cli_hands, 1)
        every = command_line(log, args.cli_hands, cores())
        for row in (one, every):
            print(row.line(None))

    print("\nacceptance")
    print(f"  batch of 1,000 per hand / single call, in-process: {batch_in / single_in:.3f} "
          f"(needs <= 0.3: {'yes' if batch_in / single_in <= 0.3 else 'NO'})")
    if batch_http is not None and single_http:
        print(f"  batch of 1,000 per hand / single call, over HTTP:  "
              f"{batch_http / single_http:.3f} "
              f"(needs <= 0.3: {'yes' if batch_http / single_http <= 0.3 else 'NO'})")
    speedup = one.per_hand_us / every.per_hand_us
    print(f"  mahjong-score, {cores()} cores / 1: {speedup:.2f} "
          f"(needs >= 1.6 on 2 cores: {'yes' if speedup >= 1.6 else 'NO'})")
    print(f"\n{time.perf_counter() - started:.0f} s in all")
    return 0


if __name__ == "__main__":
    run_main(main)
