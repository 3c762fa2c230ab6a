"""Benchmark: how the workers' memory grows over many requests.

    python bench/memory.py [--per-worker N] [--workers W] [--connections C]
                           [--mix all|scoring|heavy]
                           [--seed S] [--interval K] [--warm-up U] [--requests T]
                           [--max-requests M] [--max-seconds X]

It starts the service as `./run serve` does (gunicorn, the project's gunicorn.conf.py,
`app.api:create_app()`, a metrics directory of its own) on a free loopback port with W workers
(default 2) and sends N requests per worker (default 20,000: 40,000 in all; `--requests`
gives the total instead) from C keep-alive connections (default 12), each made anew every
100 requests (and whenever the server closes it). So that the requests split evenly between
the workers, each worker holds at most its share of the connections (`--worker-connections`
C / W; a new connection waits for a worker with room).

`--mix all` (the default) covers every endpoint (bench/bodies.py builds the hands):

- score and waits requests of most rule sets: `mcr`, `tianjin` (score: 1 to 7 wild tiles;
  waits: 0 to 3, which try every tile), `sichuan`, `chengdu`, the word-card game `hengyang`,
  and the other tile rule sets from the log generator; some with `?explain=true`;
- `score/batch` and `waits/batch` of 2 to 10 hands of one rule set, and `sichuan` / `chengdu`
  rounds to `settle`;
- `GET /healthz`, `/readyz`, `/v1/rulesets`, `/v1/rulesets/{id}`, `/openapi.yaml` (half of
  them gzipped), `/metrics`, `/docs` and its assets;
- hostile requests: bodies that are not JSON or not an object, wrong types, unknown fields,
  impossible hands, unknown rule sets (a new name each time) and paths, bodies over the limit,
  gzip bodies (valid, broken, and bombs that inflate past the limit), other codings and media
  types, a bad `explain`, settling a rule set that settles nothing, and bad batches.

Nearly all the hands are different (the engine memoises what it learns about hands); the
rounds to settle repeat (a pool of a few hundred). It prints how many requests of each kind
were sent and what they were answered. `--mix heavy` is the memory guard's case (docs/
operations.md#memory): single `mcr` scores, and one request in 40 a batch of 250 explained
waits of `tianjin` hands holding six or seven wild tiles, the heaviest request there is.
`--mix scoring` is the earlier mix: score and waits
only, half `tianjin` score requests holding 1 to 7 wild tiles, the rest `mcr`, `sichuan`,
`chengdu` and `tianjin` (0 to 3 wilds) score and waits, no two the same.

Each worker's memory is read from /proc before the first request (once the workers have
started and their memory holds still), every K requests (default 2000) and after the last:
RSS (`VmRSS`, which counts the pages shared with the master since the fork) and private
memory (USS: `Private_Clean + Private_Dirty` of `smaps_rollup`, what the worker alone
holds, i.e. what it grew by), with the requests it has answered (its own count of
`mahjong_http_requests_total`, read from its file in the metrics directory). At the end, per
worker: the figures at the start, after warm-up (the first reading once the worker
has answered U requests, default 5000), at the end, and the growth per 1,000 requests after
warm-up and over the whole run. A worker that gunicorn replaced (`max_requests` recycling)
shows up as a new pid; `--max-requests 0` turns recycling off to see the growth it would
otherwise bound. The run is bounded in count and in time (`--max-seconds`). Nothing here
asserts: it reports.
"""

from __future__ import annotations

# isort: off
import _paths  # noqa: F401  (first: this folder behind the standard library)
# isort: on

import argparse
import contextlib
import gzip
import http.client
import json
import os
import random
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import NamedTuple

# bench/bodies.py and bench/serving.py
import bodies
from bodies import Body, encode
from serving import HOST, Server, run_main, servers_stopped_on_exit

DEFAULT_SEED = 20261201
JSON = (("Content-Type", "application/json"),)
# The counter each worker keeps of the requests it answered (app/api/metrics.py).
REQUESTS_METRIC = "mahjong_http_requests_total"


class Req(NamedTuple):
    kind: str
    method: str
    path: str
    body: bytes | None = None
    headers: tuple[tuple[str, str], ...] = ()


# --- the earlier mix: score and waits, no two the same -------------------------------------------


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


# --- the whole API, hostile requests included ----------------------------------------------------

# The tile rule sets the log generator writes hands for (the others have generators of their
# own in bench/bodies.py).
LOG_RULESETS = ("mcr-1998", "erren", "erren-gb", "changchun", "hebei", "kawuxing", "lianzhong")
# Rule sets taking turns in the explained requests and the batches.
SPREAD = ("mcr", "tianjin", "sichuan", "chengdu", "hengyang", *LOG_RULESETS)


def hand_bodies(ruleset: str, n: int, seed: int, waits: bool = False) -> list[Body]:
    """n different score (or waits) bodies of `ruleset`."""
    if n <= 0:
        return []
    if ruleset == "mcr":
        score, short = bodies.mcr_bodies(n + n // 10 + 20, seed)
        return bodies.unique(short if waits else score)[:n]
    if ruleset == "tianjin":
        return bodies.tianjin_bodies(n, seed, (0, 3) if waits else (1, 7), waits=waits)
    if ruleset in ("sichuan", "chengdu"):
        return bodies.suit_hand_bodies(n, seed, waits)
    if ruleset == "hengyang":
        return bodies.hengyang_bodies(n, seed, waits)
    return bodies.unique(bodies.log_bodies(ruleset, n, seed, waits))


def spread(n: int, seed: int, waits: bool) -> list[tuple[str, Body]]:
    """n (rule set, body) pairs, the rule sets of SPREAD in turn."""
    counts = Counter(SPREAD[i % len(SPREAD)] for i in range(n))
    out: list[tuple[str, Body]] = []
    for k, (rid, count) in enumerate(sorted(counts.items())):
        out += [(rid, b) for b in hand_bodies(rid, count, seed + 101 * k, waits)]
    return out


def post(kind: str, path: str, body: Body | bytes, headers: tuple[tuple[str, str], ...] = JSON
         ) -> Req:
    return Req(kind, "POST", path, body if isinstance(body, bytes) else encode(body), headers)


def single(ruleset: str, endpoint: str) -> Callable[[int, int], list[Req]]:
    def make(n: int, seed: int) -> list[Req]:
        path = f"/v1/rulesets/{ruleset}/{endpoint}"
        return [post(f"{endpoint} {ruleset}", path, b)
                for b in hand_bodies(ruleset, n, seed, endpoint == "waits")]
    return make


def explained(endpoint: str) -> Callable[[int, int], list[Req]]:
    def make(n: int, seed: int) -> list[Req]:
        return [post(f"{endpoint} ?explain=true", f"/v1/rulesets/{rid}/{endpoint}?explain=true",
                     b) for rid, b in spread(n, seed, endpoint == "waits")]
    return make


def batches(endpoint: str) -> Callable[[int, int], list[Req]]:
    """Batches of 2 to 10 hands of one rule set (the rule sets in turn), now and then
    explained, now and then with a request that is no hand among them."""
    def make(n: int, seed: int) -> list[Req]:
        rng = random.Random(seed)
        sizes = [rng.randint(2, 10) for _ in range(n)]
        rids = [SPREAD[i % len(SPREAD)] for i in range(n)]
        need = Counter[str]()
        for rid, size in zip(rids, sizes, strict=True):
            need[rid] += size
        pools = {rid: hand_bodies(rid, count, seed + 7 + k, endpoint == "waits")
                 for k, (rid, count) in enumerate(sorted(need.items()))}
        taken = Counter[str]()
        out: list[Req] = []
        for i, (rid, size) in enumerate(zip(rids, sizes, strict=True)):
            pool = pools[rid]
            items: list[object] = [pool[(taken[rid] + j) % len(pool)] for j in range(size)]
            taken[rid] += size
            if i % 10 == 9:
                items[rng.randrange(size)] = rng.choice([[1, 2], {"hand": 5}, "hand"])
            query = "?explain=true" if i % 8 == 7 else ""
            out.append(post(f"{endpoint}/batch", f"/v1/rulesets/{rid}/{endpoint}/batch{query}",
                            {"requests": items}))
        return out
    return make


def settle(n: int, seed: int) -> list[Req]:
    """sichuan and chengdu rounds, from a pool of at most 300 (the generator is slow)."""
    pool = bodies.settle_bodies(min(n, 300), seed)
    return [post("settle", f"/v1/rulesets/{('sichuan', 'chengdu')[i % 2]}/settle",
                 pool[i % len(pool)]) for i in range(n)]


def gets(n: int, seed: int) -> list[Req]:
    """The GET endpoints, the cheap ones (what probes and scrapers call) most."""
    rids = sorted(bodies.rulesets())
    gz = (("Accept-Encoding", "gzip"),)
    weighted: list[tuple[int, Callable[[int], Req]]] = [
        (25, lambda i: Req("GET /healthz", "GET", "/healthz")),
        (20, lambda i: Req("GET /readyz", "GET", "/readyz")),
        (12, lambda i: Req("GET /v1/rulesets", "GET", "/v1/rulesets", None, gz[: i % 2])),
        (20, lambda i: Req("GET /v1/rulesets/{id}", "GET", f"/v1/rulesets/{rids[i % len(rids)]}",
                           None, gz[: i % 2])),
        (8, lambda i: Req("GET /openapi.yaml", "GET", "/openapi.yaml", None, gz[: i % 2])),
        (10, lambda i: Req("GET /metrics", "GET", "/metrics")),
        (3, lambda i: Req("GET /docs", "GET", "/docs")),
        (2, lambda i: Req("GET /docs/assets", "GET",
                          ("/docs/assets/swagger-ui.css",
                           "/docs/assets/swagger-ui-bundle.js")[i % 2], None, gz)),
    ]
    rng = random.Random(seed)
    makers = rng.choices([m for _, m in weighted], [w for w, _ in weighted], k=n)
    return [make(i) for i, make in enumerate(makers)]


def hostile(n: int, seed: int) -> list[Req]:
    """Requests the service refuses, in turn: each kind of fault about as often."""
    from tools.loggen import malformed_line

    rng = random.Random(seed)
    rss = bodies.rulesets()
    valid = {rid: hand_bodies(rid, 40, seed + k) for k, rid in enumerate(("mcr", "sichuan",
                                                                          "changchun"))}
    plain = valid["mcr"][0]
    limit = 64 * 1024  # the service's body limit (app.MAX_CONTENT_LENGTH)
    # Built once: 16 MiB of JSON that gzip writes in ~16 KB.
    bomb = gzip.compress(b'{"hand": "' + b"1" * (16 << 20) + b'"}', 9)
    oversized = encode({**plain, "pad": "x" * (limit + 1024)})

    def refused(kind: str) -> Callable[[int], Req]:
        def make(i: int) -> Req:
            rid = ("mcr", "sichuan", "changchun")[i % 3]
            body = rng.choice(valid[rid])
            line = malformed_line(kind, body, rss[rid], rng, name_ruleset=False)
            return post(f"hostile {kind}", f"/v1/rulesets/{rid}/score", line.encode())
        return make

    not_json = (b"", b"{", b'{"hand": "123m",}', b"\xff\xfe{}", b"NaN", b"{hand: 123m}",
                encode(plain)[:40])
    kinds: list[Callable[[int], Req]] = [
        lambda i: post("hostile not JSON", "/v1/rulesets/mcr/score", not_json[i % len(not_json)]),
        lambda i: post("hostile not an object", ("/v1/rulesets/sichuan/waits",
                       "/v1/rulesets/mcr/score/batch")[i % 2], (b"[1, 2]", b"42", b"null")[i % 3]),
        refused("wrong_type"),
        refused("unknown_field"),
        refused("unknown_tile"),
        refused("wrong_tile_count"),
        refused("seat_out_of_range"),
        refused("unknown_option"),
        lambda i: post("hostile unknown rule set", f"/v1/rulesets/house-{i}/score", plain),
        lambda i: Req("hostile unknown rule set", "GET", f"/v1/rulesets/house-{i}"),
        lambda i: Req("hostile unknown path", "GET", f"/v2/rulesets/{i}"),
        lambda i: Req("hostile wrong method", "GET", "/v1/rulesets/mcr/score"),
        lambda i: post("hostile oversized body", "/v1/rulesets/mcr/score", oversized),
        lambda i: post("gzip body", "/v1/rulesets/mcr/score",
                       gzip.compress(encode(valid["mcr"][i % 40])),
                       (*JSON, ("Content-Encoding", "gzip"))),
        lambda i: post("hostile gzip bomb", "/v1/rulesets/mcr/score", bomb,
                       (*JSON, ("Content-Encoding", "gzip"))),
        lambda i: post("hostile broken gzip", "/v1/rulesets/mcr/score",
                       gzip.compress(encode(plain))[:-12], (*JSON, ("Content-Encoding", "gzip"))),
        lambda i: post("hostile other coding", "/v1/rulesets/mcr/score", encode(plain),
                       (*JSON, ("Content-Encoding", ("br", "deflate", "zstd")[i % 3]))),
        lambda i: post("hostile not JSON media type", "/v1/rulesets/mcr/score", encode(plain),
                       (("Content-Type", "text/plain"),)),
        lambda i: post("hostile bad explain", "/v1/rulesets/mcr/score?explain="
                       + ("yes", "true&explain=false", "1")[i % 3], plain),
        lambda i: post("hostile settle unsupported", ("/v1/rulesets/mcr/settle",
                       "/v1/rulesets/hengyang/settle")[i % 2], plain),
        lambda i: post("hostile bad round", "/v1/rulesets/sichuan/settle",
                       {"events": [{"type": "win", "winner": 9}], "players": "four"}),
        lambda i: post("hostile bad batch", "/v1/rulesets/mcr/score/batch",
                       ({"requests": []}, {"requests": [plain], "extra": 1},
                        {"requests": "all"})[i % 3]),
    ]
    return [kinds[i % len(kinds)](i) for i in range(n)]


# What `--mix all` sends: (share of the requests, maker of n requests from a seed).
MIX: tuple[tuple[float, Callable[[int, int], list[Req]]], ...] = (
    (7, single("mcr", "score")),
    (9, single("tianjin", "score")),
    (3, single("sichuan", "score")),
    (3, single("chengdu", "score")),
    (5, single("hengyang", "score")),
    *((1.5, single(rid, "score")) for rid in LOG_RULESETS),
    (3, single("mcr", "waits")),
    (2, single("tianjin", "waits")),
    (1, single("sichuan", "waits")),
    (1, single("chengdu", "waits")),
    (1.5, single("hengyang", "waits")),
    *((0.5, single(rid, "waits")) for rid in LOG_RULESETS),
    (4, explained("score")),
    (1, explained("waits")),
    (3, batches("score")),
    (1, batches("waits")),
    (4, settle),
    (12, gets),
    (13, hostile),
)


# The heaviest request there is, as `--mix heavy` sends it: a batch of explained waits of
# tianjin hands holding six or seven wild tiles.
HEAVY_BATCH = 250


def heavy_batches(n: int, seed: int) -> list[Req]:
    pool = bodies.tianjin_bodies(n * HEAVY_BATCH, seed, (6, 7), waits=True)
    return [post("waits/batch tianjin 6-7 wilds ?explain=true",
                 "/v1/rulesets/tianjin/waits/batch?explain=true",
                 {"requests": pool[i * HEAVY_BATCH:(i + 1) * HEAVY_BATCH]}) for i in range(n)]


# What `--mix heavy` sends: mostly single mcr scores, and the heaviest batches among them.
HEAVY_MIX: tuple[tuple[float, Callable[[int, int], list[Req]]], ...] = (
    (1, heavy_batches),
    (39, single("mcr", "score")),
)


def build_mix(n: int, seed: int,
              mix: tuple[tuple[float, Callable[[int, int], list[Req]]], ...] = MIX) -> list[Req]:
    """n requests of the mix's kinds, in their shares, in a seeded random order."""
    total = sum(share for share, _ in mix)
    exact = [n * share / total for share, _ in mix]
    counts = [int(x) for x in exact]
    by_remainder = sorted(range(len(mix)), key=lambda k: counts[k] - exact[k])
    for k in by_remainder[:n - sum(counts)]:
        counts[k] += 1
    out: list[Req] = []
    for k, ((_, make), count) in enumerate(zip(mix, counts, strict=True)):
        made = make(count, seed + 1000 * k)
        # A generator short of different hands repeats them rather than send fewer.
        out += [made[i % len(made)] for i in range(count)] if made else []
    random.Random(seed).shuffle(out)
    return out


# --- memory --------------------------------------------------------------------------------------


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


def answered(metrics_dir: Path, pid: int) -> int | None:
    """The requests worker `pid` answered: its count of REQUESTS_METRIC, read from its file in
    the metrics directory (prometheus_client's multiprocess mode); None without one."""
    from prometheus_client.mmap_dict import MmapedDict

    path = metrics_dir / f"counter_{pid}.db"
    try:
        values = MmapedDict.read_all_values_from_file(str(path))
    except FileNotFoundError:
        return 0  # nothing counted yet
    except (OSError, ValueError):
        return None
    return int(sum(value for key, value, *_ in values if json.loads(key)[1] == REQUESTS_METRIC))


def settled(server: Server, workers: int, limit: float = 20.0) -> None:
    """Wait (at most `limit` seconds) for every worker to have started and its memory to
    hold still, so that the first reading is not of a worker still starting (its private
    memory grows as it writes the pages it shares with the master)."""
    deadline = time.monotonic() + limit
    last: dict[int, tuple[int, int] | None] = {}
    while time.monotonic() < deadline:
        time.sleep(0.5)
        now = {pid: memory_kib(pid) for pid in server.pids() if pid != server.proc.pid}
        if len(now) >= workers and now.keys() == last.keys() and all(
                m is not None and (m0 := last[pid]) is not None
                and abs(m[1] - m0[1]) < 256 for pid, m in now.items()):
            return
        last = now


class Reading(NamedTuple):
    done: int  # requests answered by the whole service
    rss: int  # KiB
    private: int  # KiB
    served: int | None  # requests this worker answered


def mib(kib: float) -> str:
    return f"{kib / 1024:.1f}"


def per_thousand(first: Reading, last: Reading) -> str:
    """Growth of RSS and private memory per 1,000 requests the worker answered between two
    readings."""
    if first.served is None or last.served is None or last.served <= first.served:
        return "-"
    k = (last.served - first.served) / 1000
    return (f"RSS {(last.rss - first.rss) / 1024 / k:+.3f}, "
            f"private {(last.private - first.private) / 1024 / k:+.3f} MiB")


def report(readings: dict[int, list[Reading]], warm_up: int) -> None:
    print(f"\nper worker (warm-up: its first {warm_up} requests):")
    for pid, rows in readings.items():
        first, last = rows[0], rows[-1]
        warm = next((r for r in rows if r.served is not None and r.served >= warm_up), None)

        def at(r: Reading) -> str:
            served = "?" if r.served is None else f"{r.served}"
            return f"RSS {mib(r.rss)}, private {mib(r.private)} MiB ({served} requests)"

        print(f"  worker {pid}:")
        print(f"    start          {at(first)}")
        print(f"    after warm-up  {at(warm) if warm else '-'}")
        print(f"    end            {at(last)}")
        print(f"    growth         RSS {(last.rss - first.rss) / 1024:+.1f}, "
              f"private {(last.private - first.private) / 1024:+.1f} MiB")
        print(f"    per 1,000 requests after warm-up: "
              f"{per_thousand(warm, last) if warm else '-'}; overall: "
              f"{per_thousand(first, last)}")


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--per-worker", type=int, default=20000,
                    help="requests per worker (default 20000)")
    ap.add_argument("--workers", type=int, default=2, help="gunicorn workers (default 2)")
    ap.add_argument("--requests", type=int,
                    help="requests in all (default: --per-worker times --workers)")
    ap.add_argument("--connections", type=int, default=12, help="connections (default 12)")
    ap.add_argument("--mix", choices=("all", "scoring", "heavy"), default="all",
                    help="all: every endpoint, hostile requests included (default); scoring: "
                    "score and waits only, half tianjin hands of 1 to 7 wilds; heavy: mcr "
                    f"scores and one in 40 a batch of {HEAVY_BATCH} explained waits of "
                    "tianjin hands with 6 or 7 wilds")
    ap.add_argument("--seed", type=int, default=DEFAULT_SEED, help=f"default {DEFAULT_SEED}")
    ap.add_argument("--interval", type=int, default=2000,
                    help="read the workers' memory every K requests (default 2000)")
    ap.add_argument("--warm-up", type=int, default=5000,
                    help="requests of a worker's warm-up (default 5000)")
    ap.add_argument("--reconnect", type=int, default=100,
                    help="make a connection anew after this many requests (default 100)")
    ap.add_argument("--max-requests", type=int,
                    help="gunicorn max_requests (default: the config's; 0: no recycling)")
    ap.add_argument("--max-seconds", type=float, default=1200.0,
                    help="stop sending after this long (default 1200 s)")
    args = ap.parse_args(argv)
    total = args.requests if args.requests is not None else args.per_worker * args.workers

    started = time.perf_counter()
    if args.mix == "all":
        work = build_mix(total, args.seed)
    elif args.mix == "heavy":
        work = build_mix(total, args.seed, HEAVY_MIX)
    else:
        work = [post(path.rsplit("/", 2)[-1] + " " + path.rsplit("/", 2)[-2], path, body)
                for path, body in build_requests(total, args.seed)]
    kinds = Counter(r.kind for r in work)
    print(f"{len(work)} requests ({args.mix} mix), seed {args.seed}, built in "
          f"{time.perf_counter() - started:.1f} s")

    # A worker holds at most its share of the connections (gevent's pool; the project's
    # setting is 1000): otherwise the first worker to accept takes them all.
    extra = ["--workers", str(args.workers),
             "--worker-connections", str(-(-args.connections // args.workers))]
    if args.max_requests is not None:
        extra += ["--max-requests", str(args.max_requests)]
    running: list[Server] = []
    with servers_stopped_on_exit(running), tempfile.TemporaryDirectory() as tmp:
        # Metrics as `./run serve` keeps them: each worker's counts in its own file.
        metrics_dir = Path(tmp) / "metrics"
        metrics_dir.mkdir()
        os.environ["PROMETHEUS_MULTIPROC_DIR"] = str(metrics_dir)
        server = Server("service", "app.api:create_app()", extra, Path(tmp))
        running.append(server)
        server.wait_ready("GET", "/readyz")
        master = server.proc.pid
        settled(server, args.workers)
        readings: dict[int, list[Reading]] = {}
        gone: set[int] = set()

        def sample(done: int) -> None:
            live = [pid for pid in server.pids() if pid != master]
            shown: list[str] = []
            for pid in live:
                m = memory_kib(pid)
                if m is None:
                    continue
                served = answered(metrics_dir, pid)
                readings.setdefault(pid, []).append(Reading(done, m[0], m[1], served))
                shown.append(f"{pid}: {served if served is not None else 0:>6} "
                             f"{mib(m[0]):>6} / {mib(m[1]):>6}")
            for pid in readings:
                if pid not in live and pid not in gone:
                    gone.add(pid)  # recycled or killed
                    shown.append(f"{pid}: gone")
            print(f"{done:>8}  " + "  ".join(shown), flush=True)

        print(f"served on :{server.port}, {args.workers} workers, {args.connections} "
              "connections; per worker: requests answered, RSS MiB / private MiB")
        sample(0)
        lock = threading.Lock()
        state = {"next": 0, "done": 0, "next_sample": args.interval}
        statuses: Counter[tuple[str, str]] = Counter()
        deadline = time.monotonic() + args.max_seconds

        def client() -> None:
            conn: http.client.HTTPConnection | None = None
            used = 0
            while time.monotonic() < deadline:
                with lock:
                    i = state["next"]
                    if i >= len(work):
                        break
                    state["next"] = i + 1
                req = work[i]
                try:
                    if conn is None:
                        conn = http.client.HTTPConnection(HOST, server.port, timeout=60)
                        used = 0
                    conn.request(req.method, req.path, body=req.body, headers=dict(req.headers))
                    response = conn.getresponse()
                    response.read()
                    outcome = str(response.status)
                    used += 1
                    if response.will_close or used >= args.reconnect:
                        conn.close()
                        conn = None
                except (OSError, http.client.HTTPException) as exc:
                    outcome = type(exc).__name__
                    if conn is not None:
                        conn.close()
                    conn = None
                with lock:
                    statuses[req.kind, outcome] += 1
                    state["done"] += 1
                    if state["done"] >= state["next_sample"]:
                        state["next_sample"] += args.interval
                        sample(state["done"])
            if conn is not None:
                conn.close()

        sent_at = time.perf_counter()
        threads = [threading.Thread(target=client) for _ in range(args.connections)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        took = time.perf_counter() - sent_at
        time.sleep(0.5)  # the last requests' counts written
        sample(state["done"])
        print(f"{state['done']} requests in {took:.0f} s"
              + ("" if state["done"] == len(work) else
                 f" (stopped after --max-seconds {args.max_seconds:g})"))
        with contextlib.suppress(OSError):
            log = server.log.read_text(errors="replace")
            boots = log.count("Booting worker")
            print(f"worker boots: {boots} ({boots - args.workers} replacements)")
            build = next((line.split("engine build:", 1)[1].strip()
                          for line in log.splitlines() if "engine build:" in line), "?")
            print(f"engine build: {build}")

        print("\nrequests by kind, and their answers:")
        for kind, count in sorted(kinds.items()):
            answers = sorted((o, c) for (k, o), c in statuses.items() if k == kind)
            print(f"  {kind:<34} {count:>6}  " + ", ".join(f"{o} {c}" for o, c in answers))
        overall = Counter[str]()
        for (_, outcome), c in statuses.items():
            overall[outcome] += c
        print("  all: " + ", ".join(f"{o} {c}" for o, c in sorted(overall.items())))

        report(readings, args.warm_up)
        m = memory_kib(master)
        if m:
            print(f"  master {master}: RSS {mib(m[0])}, private {mib(m[1])}")
    return 0


if __name__ == "__main__":
    run_main(main)
