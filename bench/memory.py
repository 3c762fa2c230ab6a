"""Benchmark: how the workers' memory grows over many different requests.

    python bench/memory.py [--requests N] [--seed S] [--interval K] [--max-requests M]

It starts the service as `./run serve` does (gunicorn, the project's gunicorn.conf.py,
`app:create_app()`) on a free loopback port and sends N different requests (default 8000)
from 4 connections: half `tianjin` score requests whose hands hold 1 to 7 wild tiles (the
engine memoises what it learns about wild hands), the rest an even mix of `mcr`, `sichuan`,
`chengdu` and `tianjin` (0 to 3 wilds) score and waits requests (bench/bodies.py). No two
requests are the same.

Each worker's memory is read from /proc before the first request, every K requests (default
1000) and after the last: RSS (`VmRSS`, which counts the pages shared with the master since
the fork) and private memory (`Private_Clean + Private_Dirty` of `smaps_rollup`: what the
worker alone holds, i.e. what it grew by). It prints them and each worker's growth. A worker
that gunicorn replaced (`max_requests` recycling) shows up as a new pid; `--max-requests 0`
turns recycling off to see the growth it would otherwise bound. The run is bounded in count
and in time (`--max-seconds`). Nothing here asserts: it reports.
"""

from __future__ import annotations

# isort: off
import _paths  # noqa: F401  (first: this folder behind the standard library)
# isort: on

import argparse
import contextlib
import http.client
import random
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

# bench/bodies.py and bench/serving.py
import bodies
from bodies import encode
from serving import HOST, Server, run_main, servers_stopped_on_exit

DEFAULT_SEED = 20261201


def build_requests(n: int, seed: int) -> list[tuple[str, bytes]]:
    """n different (path, body) pairs in a seeded random order."""
    half = n // 2
    parts = 7
    share = [(n - half) // parts + (1 if k < (n - half) % parts else 0) for k in range(parts)]
    # A few more than needed where two hands can make the same body (a waits hand is a
    # winning hand less a tile: two hands may give the same one).
    mcr_score, mcr_waits = bodies.mcr_bodies(max(share[0], share[1]) + 50, seed)
    groups: list[tuple[str, int, list[bodies.Body]]] = [
        ("/v1/rulesets/tianjin/score", half, bodies.tianjin_bodies(half, seed, (1, 7))),
        ("/v1/rulesets/mcr/score", share[0], mcr_score),
        ("/v1/rulesets/mcr/waits", share[1], mcr_waits),
        ("/v1/rulesets/sichuan/score", share[2], bodies.suit_hand_bodies(share[2], seed)),
        ("/v1/rulesets/sichuan/waits", share[3],
         bodies.suit_hand_bodies(share[3], seed + 1, True)),
        ("/v1/rulesets/chengdu/score", share[4], bodies.suit_hand_bodies(share[4], seed + 2)),
        ("/v1/rulesets/chengdu/waits", share[5],
         bodies.suit_hand_bodies(share[5], seed + 3, True)),
        # Waits with wilds try every tile: up to three wilds keeps the run to minutes.
        ("/v1/rulesets/tianjin/waits", share[6],
         bodies.tianjin_bodies(share[6], seed + 4, (0, 3), waits=True)),
    ]
    out: list[tuple[str, bytes]] = []
    for path, count, group in groups:
        out += [(path, body) for body in dict.fromkeys(encode(b) for b in group)][:count]
    random.Random(seed).shuffle(out)
    return out


def memory_kib(pid: int) -> tuple[int, int] | None:
    """(RSS, private) in KiB, or None when the process is gone."""
    try:
        rss = next(int(line.split()[1]) for line in
                   Path(f"/proc/{pid}/status").read_text().splitlines()
                   if line.startswith("VmRSS:"))
        private = sum(int(line.split()[1]) for line in
                      Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines()
                      if line.startswith(("Private_Clean:", "Private_Dirty:")))
    except (OSError, StopIteration, ValueError):
        return None
    return rss, private


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--requests", type=int, default=8000, help="requests (default 8000)")
    ap.add_argument("--seed", type=int, default=DEFAULT_SEED, help=f"default {DEFAULT_SEED}")
    ap.add_argument("--interval", type=int, default=1000,
                    help="read the workers' memory every K requests (default 1000)")
    ap.add_argument("--max-requests", type=int,
                    help="gunicorn max_requests (default: the config's; 0: no recycling)")
    ap.add_argument("--max-seconds", type=float, default=1200.0,
                    help="stop sending after this long (default 1200 s)")
    args = ap.parse_args(argv)

    started = time.perf_counter()
    work = build_requests(args.requests, args.seed)
    kinds = Counter(path.rsplit("/", 3)[-2] + " " + path.rsplit("/", 1)[-1] for path, _ in work)
    print(f"{len(work)} different requests, seed {args.seed}, built in "
          f"{time.perf_counter() - started:.1f} s: "
          + ", ".join(f"{k} {v}" for k, v in sorted(kinds.items())))

    extra = [] if args.max_requests is None else ["--max-requests", str(args.max_requests)]
    running: list[Server] = []
    with servers_stopped_on_exit(running), tempfile.TemporaryDirectory() as tmp:
        server = Server("service", "app:create_app()", extra, Path(tmp))
        running.append(server)
        server.wait_ready("GET", "/healthz")
        master = server.proc.pid
        seen: dict[int, tuple[int, int]] = {}  # pid -> first reading
        rows: list[tuple[int, dict[int, tuple[int, int] | None]]] = []

        def sample(done: int) -> None:
            reading: dict[int, tuple[int, int] | None] = {}
            for pid in server.pids():
                if pid == master:
                    continue
                m = memory_kib(pid)
                reading[pid] = m
                if m is not None:
                    seen.setdefault(pid, m)
            for pid in seen:
                reading.setdefault(pid, None)  # gone: recycled or killed
            rows.append((done, reading))
            shown = "  ".join(f"{pid}: " + (f"{m[0] / 1024:6.1f} / {m[1] / 1024:6.1f}"
                                             if m else "gone") for pid, m in reading.items())
            print(f"{done:>8}  {shown}", flush=True)

        print(f"served on :{server.port}; per worker: RSS MiB / private MiB")
        sample(0)
        lock = threading.Lock()
        state = {"next": 0, "done": 0, "next_sample": args.interval}
        statuses: Counter[str] = Counter()
        deadline = time.monotonic() + args.max_seconds

        def client() -> None:
            conn: http.client.HTTPConnection | None = None
            while time.monotonic() < deadline:
                with lock:
                    i = state["next"]
                    if i >= len(work):
                        break
                    state["next"] = i + 1
                path, body = work[i]
                try:
                    if conn is None:
                        conn = http.client.HTTPConnection(HOST, server.port, timeout=60)
                    conn.request("POST", path, body=body,
                                 headers={"Content-Type": "application/json"})
                    response = conn.getresponse()
                    response.read()
                    outcome = str(response.status)
                    if response.will_close:
                        conn.close()
                        conn = None
                except (OSError, http.client.HTTPException) as exc:
                    outcome = type(exc).__name__
                    if conn is not None:
                        conn.close()
                    conn = None
                with lock:
                    statuses[outcome] += 1
                    state["done"] += 1
                    if state["done"] >= state["next_sample"]:
                        state["next_sample"] += args.interval
                        sample(state["done"])
            if conn is not None:
                conn.close()

        sent_at = time.perf_counter()
        threads = [threading.Thread(target=client) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        took = time.perf_counter() - sent_at
        if rows[-1][0] != state["done"]:
            sample(state["done"])
        print(f"{state['done']} requests in {took:.0f} s; answers: "
              + ", ".join(f"{k} {v}" for k, v in sorted(statuses.items()))
              + ("" if state["done"] == len(work) else
                 f" (stopped after --max-seconds {args.max_seconds:g})"))
        with contextlib.suppress(OSError):
            log = server.log.read_text(errors="replace")
            boots = log.count("Booting worker")
            print(f"worker boots: {boots} ({boots - len(rows[0][1])} replacements)")

        first, last = rows[0][1], rows[-1][1]
        print("\ngrowth, first reading to last (MiB):")
        for pid, m0 in seen.items():
            m1 = last.get(pid)
            since = "start" if pid in first else "its first reading"
            if m1 is None:
                print(f"  {pid}: gone before the end (from {m0[0] / 1024:.1f} RSS)")
                continue
            print(f"  {pid}: RSS {m0[0] / 1024:.1f} -> {m1[0] / 1024:.1f} "
                  f"({(m1[0] - m0[0]) / 1024:+.1f}); private {m0[1] / 1024:.1f} -> "
                  f"{m1[1] / 1024:.1f} ({(m1[1] - m0[1]) / 1024:+.1f}) since {since}")
        m = memory_kib(master)
        if m:
            print(f"  master {master}: RSS {m[0] / 1024:.1f}, private {m[1] / 1024:.1f}")
    return 0


if __name__ == "__main__":
    run_main(main)
