"""Benchmark: the served endpoints against a bare Flask JSON route, under the same gunicorn
settings, over real sockets.

    python bench/http.py [--duration S] [--concurrency 1,8,64,200] [--workers N]
                         [--worker-class K] [--threads T] [--seed S] [--pool N] [--close]

It starts the service as `./run serve` does (gunicorn, the project's gunicorn.conf.py,
`app.api:create_app()`) and the bare app (bench/bare_app.py) with the same config file, each on a
free loopback port (only the bind differs; --workers, --worker-class and --threads go to both
on gunicorn's command line). Then, per endpoint and concurrency, it loads the service and the
bare route with the same pool of request bodies, in turn, each run bounded in duration and
connections:

- `mcr score`: random legal MCR hands (the differential test's generator), every context
  field a game server sends;
- `mcr waits`: the same hands one tile short;
- `tianjin score`: hands with 1 to 4 standing wild tiles (`context.wild_indicator`);
- `sichuan settle`: valid 血战到底 rounds (the settlement tests' generator).

The bare route parses the same bodies with `request.get_json()` and answers a fixed payload
of the endpoint's mean response size. Connections are kept alive, or with `--close` made anew
for every request. Each target gets `--duration` seconds per endpoint and concurrency, cut
into `--slices` runs taken in turn with the other target's, so that a change in the machine's
load falls on both. The load generator is `wrk` (Lua scripts written to a temporary directory
rotate over the pool); without it, a Python asyncio generator (when its CPU use nears one
core, it is the bottleneck). Prints requests/s, p50, p99, errors (responses >= 400, connect,
read/write, timeouts), the cores used by the server, the generator and anything else on the
machine, and the ratio of the service to the bare route at the same concurrency.

Two probes follow: whether 4 idle connections holding partial headers keep `/healthz` from
answering within 1 s, and what a request running past gunicorn's `timeout` gets (the bare
app's bench-only `/spin` route, one worker, a short timeout). Servers are stopped on exit, on
Ctrl-C and on SIGTERM. Nothing here asserts: it reports.
"""

from __future__ import annotations

# isort: off
import _paths  # noqa: F401  (first: this folder behind the standard library)
# isort: on

import argparse
import asyncio
import http.client
import os
import re
import resource
import shutil
import socket
import statistics
import subprocess
import tempfile
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

# bench/bodies.py, bench/serving.py and bench/timing.py
import bodies
from serving import HOST, Server, request, run_main, servers_stopped_on_exit
from timing import percentile

DEFAULT_SEED = 20240601
PARTIAL_HEAD = b"POST /v1/rulesets/mcr/score HTTP/1.1\r\nHost: x\r\n"
CLK_TCK = os.sysconf("SC_CLK_TCK")


# --- load --------------------------------------------------------------------------------------


@dataclass
class Load:
    requests: int = 0
    seconds: float = 0.0
    p50_ms: float = 0.0
    p99_ms: float = 0.0
    bad_status: int = 0  # responses >= 400
    connect: int = 0
    read: int = 0  # read and write errors
    timeouts: int = 0
    gen_cpu: float = 0.0  # cores used by the load generator
    srv_cpu: float = 0.0  # cores used by the server (master and workers)
    other_cpu: float = 0.0  # cores used by anything else on the machine meanwhile

    @property
    def rps(self) -> float:
        return self.requests / self.seconds if self.seconds else 0.0


def combine(slices: Sequence[Load]) -> Load:
    """One figure for several slices of a run: requests and errors added up, CPU averaged
    over time, p50 the median of the slices' and p99 the worst slice's."""
    seconds = sum(x.seconds for x in slices)

    def mean(name: str) -> float:
        return sum(getattr(x, name) * x.seconds for x in slices) / seconds if seconds else 0.0

    return Load(requests=sum(x.requests for x in slices), seconds=seconds,
                p50_ms=statistics.median(x.p50_ms for x in slices),
                p99_ms=max(x.p99_ms for x in slices),
                bad_status=sum(x.bad_status for x in slices),
                connect=sum(x.connect for x in slices), read=sum(x.read for x in slices),
                timeouts=sum(x.timeouts for x in slices), gen_cpu=mean("gen_cpu"),
                srv_cpu=mean("srv_cpu"), other_cpu=mean("other_cpu"))


def machine_busy_seconds() -> float:
    """CPU seconds the whole machine has been busy (all cores; /proc/stat)."""
    with open("/proc/stat") as f:
        user, nice, system, _idle, _iowait, irq, softirq, steal = (
            int(x) for x in f.readline().split()[1:9])
    return (user + nice + system + irq + softirq + steal) / CLK_TCK


def lua_string(data: bytes) -> str:
    out = []
    for b in data:
        ch = chr(b)
        out.append(ch if 32 <= b < 127 and ch not in '\\"' else f"\\{b:03d}")
    return '"' + "".join(out) + '"'


def wrk_script(path: Path, url_path: str, pool: Sequence[bytes], close: bool) -> Path:
    """A wrk script that POSTs the pool's bodies in turn, each thread from its own offset,
    and prints the summary as one line that this script parses. `close`: every request asks
    for `Connection: close` (a client that connects anew for each request)."""
    table = ",\n".join(lua_string(b) for b in pool)
    close_header = 'wrk.headers["Connection"] = "close"\n' if close else ""
    path.write_text(f"""-- written by bench/http.py
local bodies = {{
{table}
}}
local n = #bodies
local i = 0
local made = 0
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
{close_header}
function setup(thread)
  thread:set("offset", made * 7919)
  made = made + 1
end

function init(args)
  i = (offset or 0) % n
end

function request()
  i = i % n + 1
  return wrk.format(nil, {lua_string(url_path.encode())}, nil, bodies[i])
end

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format("RESULT %d %d %d %d %d %d %d %.1f %.1f\\n",
    summary.requests, summary.duration, e.connect, e.read, e.write, e.status, e.timeout,
    latency:percentile(50), latency:percentile(99)))
end
""")
    return path


def run_wrk(port: int, script: Path, conns: int, duration: float, timeout: float) -> Load:
    # One wrk thread: it keeps up with this service on one core and leaves the rest to it.
    cmd = ["wrk", "-t1", f"-c{conns}", f"-d{max(1, round(duration))}s",
           f"--timeout={max(1, round(timeout))}s", "-s", str(script), f"http://{HOST}:{port}"]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=duration + timeout + 60)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    line = next((x for x in done.stdout.splitlines() if x.startswith("RESULT ")), None)
    if line is None:
        raise RuntimeError(f"wrk failed ({done.returncode}): {done.stdout}{done.stderr}")
    n, us, conn, read, write, status, tmo, p50, p99 = (float(x) for x in line.split()[1:])
    seconds = us / 1e6
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    return Load(requests=int(n), seconds=seconds, p50_ms=p50 / 1000, p99_ms=p99 / 1000,
                bad_status=int(status), connect=int(conn), read=int(read + write),
                timeouts=int(tmo), gen_cpu=cpu / seconds if seconds else 0.0)


@dataclass
class _PyStats:
    latencies: list[float] = field(default_factory=list)
    bad_status: int = 0
    connect: int = 0
    read: int = 0
    timeouts: int = 0


async def _read_response(reader: asyncio.StreamReader) -> tuple[int, bool]:
    """(status, whether the server closes the connection) of one HTTP/1.1 response."""
    status_line = await reader.readline()
    if not status_line:
        raise ConnectionError("closed before the status line")
    status = int(status_line.split()[1])
    length: int | None = None
    close = False
    while True:
        line = await reader.readline()
        if line in (b"\r\n", b"\n", b""):
            break
        name, _, value = line.decode("latin-1").partition(":")
        name = name.strip().lower()
        if name == "content-length":
            length = int(value)
        elif name == "connection" and value.strip().lower() == "close":
            close = True
    if length is None:
        await reader.read()
        close = True
    else:
        await reader.readexactly(length)
    return status, close


async def _py_connection(port: int, url_path: str, pool: Sequence[bytes], offset: int,
                         stop_at: float, timeout: float, close_each: bool,
                         stats: _PyStats) -> None:
    writer: asyncio.StreamWriter | None = None
    reader: asyncio.StreamReader | None = None
    i = offset
    head = (f"POST {url_path} HTTP/1.1\r\nHost: {HOST}\r\n"
            + ("Connection: close\r\n" if close_each else "")
            + "Content-Type: application/json\r\nContent-Length: %d\r\n\r\n")
    try:
        while time.monotonic() < stop_at:
            if writer is None:
                try:
                    reader, writer = await asyncio.wait_for(
                        asyncio.open_connection(HOST, port), timeout)
                except (OSError, TimeoutError):
                    stats.connect += 1
                    await asyncio.sleep(0.05)
                    continue
            assert reader is not None
            body = pool[i % len(pool)]
            i += 1
            started = time.perf_counter()
            try:
                writer.write((head % len(body)).encode() + body)
                status, close = await asyncio.wait_for(_read_response(reader), timeout)
            except TimeoutError:
                stats.timeouts += 1
                close = True
            except (OSError, ConnectionError, asyncio.IncompleteReadError, ValueError,
                    IndexError):
                stats.read += 1
                close = True
            else:
                stats.latencies.append(time.perf_counter() - started)
                if status >= 400:
                    stats.bad_status += 1
            if close:
                writer.close()
                writer = None
    finally:
        if writer is not None:
            writer.close()


def run_python(port: int, url_path: str, pool: Sequence[bytes], conns: int, duration: float,
               timeout: float, close_each: bool) -> Load:
    stats = _PyStats()

    async def main() -> None:
        stop_at = time.monotonic() + duration
        tasks = [_py_connection(port, url_path, pool, k * 7919, stop_at, timeout, close_each,
                                stats) for k in range(conns)]
        # In-flight requests at the end may finish within their timeout; nothing longer.
        await asyncio.wait_for(asyncio.gather(*tasks), duration + timeout + 5)

    cpu0, wall0 = time.process_time(), time.perf_counter()
    asyncio.run(main())
    cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
    lat = stats.latencies
    return Load(requests=len(lat), seconds=wall,
                p50_ms=1000 * statistics.median(lat) if lat else 0.0,
                p99_ms=1000 * percentile(lat, 99) if lat else 0.0,
                bad_status=stats.bad_status, connect=stats.connect, read=stats.read,
                timeouts=stats.timeouts, gen_cpu=cpu / wall)


# --- probes ------------------------------------------------------------------------------------


def idle_probe(port: int, score_body: bytes, idle: int = 4, wait: float = 5.0) -> str:
    """Hold `idle` connections that sent partial headers, then time /healthz and a score."""
    held = []
    try:
        for _ in range(idle):
            s = socket.create_connection((HOST, port), timeout=wait)
            s.sendall(PARTIAL_HEAD)
            held.append(s)
        time.sleep(0.3)  # let the server take them up

        def timed(method: str, path: str, body: bytes | None) -> str:
            started = time.perf_counter()
            try:
                status = request(port, method, path, body, timeout=wait)[0]
            except (OSError, http.client.HTTPException) as exc:
                return f"no answer within {wait:.0f} s ({type(exc).__name__})"
            ms = 1000 * (time.perf_counter() - started)
            return f"{status} in {ms:.1f} ms ({'within' if ms < 1000 else 'NOT within'} 1 s)"

        health = timed("GET", "/healthz", None)
        score = timed("POST", "/v1/rulesets/mcr/score", score_body)
        return f"{idle} idle connections held: /healthz {health}; mcr score {score}"
    finally:
        for s in held:
            s.close()


def timeout_probe(extra: Sequence[str], logdir: Path, worker_timeout: int) -> list[str]:
    """One worker, gunicorn timeout `worker_timeout`: a request spinning three times as long,
    a bystander sent half a second after it, and a request after both."""
    server = Server("timeout-probe", "bench.bare_app:create_app()",
                    [*extra, "--workers", "1",
                     "--timeout", str(worker_timeout)], logdir)
    lines: list[str] = []
    try:
        server.wait_ready("POST", "/bare/100", b"{}")
        spin = 3 * worker_timeout
        outcome: dict[str, str] = {}

        def call(name: str, method: str, path: str, body: bytes | None) -> None:
            started = time.perf_counter()
            try:
                status, ctype, data = request(server.port, method, path, body,
                                              timeout=spin + 15)
                what = f"{status} {ctype.split(';')[0]} {data[:40]!r}"
            except (OSError, http.client.HTTPException) as exc:
                what = f"{type(exc).__name__}: {exc}"
            outcome[name] = f"{what} after {time.perf_counter() - started:.1f} s"

        spinner = threading.Thread(target=call, args=("spin", "GET", f"/spin?seconds={spin}",
                                                      None))
        spinner.start()
        time.sleep(0.5)
        bystander = threading.Thread(target=call, args=("bystander", "POST", "/bare/100",
                                                        b"{}"))
        bystander.start()
        spinner.join()
        bystander.join()
        call("after", "POST", "/bare/100", b"{}")
        log = server.log.read_text(errors="replace")
        events = [x for x in ("WORKER TIMEOUT", "SIGKILL", "SIGABRT", "Booting worker")
                  if x in log]
        lines = [f"spinning {spin} s (timeout {worker_timeout} s): {outcome['spin']}",
                 f"bystander on the same worker: {outcome['bystander']}",
                 f"next request: {outcome['after']}",
                 f"gunicorn log mentions: {', '.join(events) or 'nothing of it'}; "
                 f"worker boots: {log.count('Booting worker')}"]
    finally:
        server.stop()
    return lines


# --- main --------------------------------------------------------------------------------------


@dataclass
class Endpoint:
    name: str
    path: str
    pool: list[bytes]
    size: int = 0  # mean response size, bytes


def build_endpoints(pool: int, seed: int) -> list[Endpoint]:
    scores, waits = bodies.mcr_bodies(pool, seed)
    out = [
        Endpoint("mcr score", "/v1/rulesets/mcr/score", [bodies.encode(b) for b in scores]),
        Endpoint("mcr waits", "/v1/rulesets/mcr/waits", [bodies.encode(b) for b in waits]),
        Endpoint("tianjin score", "/v1/rulesets/tianjin/score",
                 [bodies.encode(b) for b in bodies.tianjin_bodies(pool, seed, (1, 4))]),
        Endpoint("sichuan settle", "/v1/rulesets/sichuan/settle",
                 [bodies.encode(b) for b in bodies.settle_bodies(pool, seed)]),
    ]
    # Every body must be answered 200 (checked in-process); the mean size sets the bare
    # route's payload.
    from app.api import create_app

    client = create_app().test_client()
    for ep in out:
        sizes = []
        for body in ep.pool:
            r = client.post(ep.path, data=body, content_type="application/json")
            if r.status_code != 200:
                raise RuntimeError(f"{ep.name}: {r.status_code} for {body!r}: {r.data!r}")
            sizes.append(len(r.data))
        ep.size = round(statistics.fmean(sizes))
    return out


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--duration", type=float, default=6.0,
                    help="seconds of load per target, endpoint and concurrency (default 6)")
    ap.add_argument("--slices", type=int, default=3,
                    help="runs the duration is cut into, service and bare in turn (default 3)")
    ap.add_argument("--concurrency", default="1,8,64,200",
                    help="connections per run, comma-separated (default 1,8,64,200)")
    ap.add_argument("--workers", type=int, help="gunicorn workers (default: the config's)")
    ap.add_argument("--worker-class", help="gunicorn worker class (default: the config's)")
    ap.add_argument("--threads", type=int, help="gunicorn threads per worker (gthread)")
    ap.add_argument("--seed", type=int, default=DEFAULT_SEED, help=f"default {DEFAULT_SEED}")
    ap.add_argument("--pool", type=int, default=300,
                    help="request bodies per endpoint (default 300)")
    ap.add_argument("--timeout", type=float, default=10.0,
                    help="a request slower than this counts as a timeout (default 10 s)")
    ap.add_argument("--warmup", type=float, default=1.0,
                    help="seconds of unreported load per endpoint and server (default 1)")
    ap.add_argument("--endpoints", help="comma-separated subset, e.g. 'mcr score,mcr waits'")
    ap.add_argument("--generator", choices=["auto", "wrk", "python"], default="auto")
    ap.add_argument("--probe-timeout", type=int, default=3,
                    help="gunicorn timeout for the timeout probe (default 3 s)")
    ap.add_argument("--close", action="store_true",
                    help="a new connection for every request (Connection: close), as clients "
                         "without keep-alive do; default: keep-alive")
    ap.add_argument("--no-probes", action="store_true", help="only the load table")
    ap.add_argument("--breakdown", action="store_true",
                    help="also serve the service with the scoring taken out of /score "
                         "(bench/unscored_app.py) and give its ratio to the bare route: the "
                         "share of the gap that is reading and writing the request")
    args = ap.parse_args(argv)
    levels = [int(x) for x in args.concurrency.split(",") if x.strip()]

    use_wrk = args.generator == "wrk" or (args.generator == "auto" and shutil.which("wrk"))
    if not use_wrk:
        if args.generator == "wrk":
            print("wrk is not installed (Debian/Ubuntu: apt-get install wrk)")
            return 2
        if args.generator == "auto":
            print("wrk is not installed (Debian/Ubuntu: apt-get install wrk); using the Python "
                  "load generator: it shares the CPU with the servers and tops out far below "
                  "wrk, so watch its CPU column")

    extra: list[str] = []
    if args.workers is not None:
        extra += ["--workers", str(args.workers)]
    if args.worker_class:
        extra += ["--worker-class", args.worker_class]
    if args.threads is not None:
        extra += ["--threads", str(args.threads)]

    started = time.perf_counter()
    endpoints = build_endpoints(args.pool, args.seed)
    if args.endpoints:
        wanted = {x.strip() for x in args.endpoints.split(",")}
        endpoints = [e for e in endpoints if e.name in wanted]
    print(f"bodies: {args.pool} per endpoint, seed {args.seed}, built and checked in "
          f"{time.perf_counter() - started:.1f} s; gunicorn.conf.py with "
          f"{' '.join(extra) or 'nothing'} on the command line; generator "
          f"{'wrk (1 thread)' if use_wrk else 'python'}; {args.duration:g} s per target in "
          f"{args.slices} slices, service and bare in turn; "
          f"{'a new connection per request' if args.close else 'keep-alive connections'}")

    running: list[Server] = []
    with servers_stopped_on_exit(running), tempfile.TemporaryDirectory() as tmp:
        tmpdir = Path(tmp)
        service = Server("service", "app.api:create_app()", extra, tmpdir)
        running.append(service)
        bare = Server("bare", "bench.bare_app:create_app()", extra, tmpdir)
        running.append(bare)
        unscored: Server | None = None
        if args.breakdown:
            unscored = Server("unscored", "bench.unscored_app:create_app()", extra, tmpdir)
            running.append(unscored)
            unscored.wait_ready("GET", "/healthz")
        service.wait_ready("GET", "/healthz")
        bare.wait_ready("POST", "/bare/100", b"{}")
        boot = re.findall(r"Using worker: (\S+)", service.tail(50))
        print(f"service on :{service.port}, bare on :{bare.port}; worker: "
              f"{boot[0] if boot else '?'}")

        scripts: dict[str, Path] = {}

        def load(server: Server, path: str, pool: Sequence[bytes], conns: int,
                 duration: float) -> Load:
            cpu0, busy0 = server.cpu_seconds(), machine_busy_seconds()
            wall0 = time.perf_counter()
            if use_wrk:
                if path not in scripts:
                    scripts[path] = wrk_script(tmpdir / f"{len(scripts)}.lua", path, pool,
                                               args.close)
                result = run_wrk(server.port, scripts[path], conns, duration, args.timeout)
            else:
                result = run_python(server.port, path, pool, conns, duration, args.timeout,
                                    args.close)
            wall = time.perf_counter() - wall0
            result.srv_cpu = (server.cpu_seconds() - cpu0) / wall
            busy = (machine_busy_seconds() - busy0) / wall
            result.other_cpu = max(0.0, busy - result.srv_cpu - result.gen_cpu)
            return result

        print(f"{'endpoint':15}{'conns':>6} {'target':11}{'req/s':>7}{'p50 ms':>9}"
              f"{'p99 ms':>9}{'>=400':>6}{'conn':>5}{'r/w':>5}{'tmo':>5}"
              f"{'cpu: srv':>9}{'gen':>5}{'other':>6}{'ratio':>7}")
        ratios: dict[tuple[str, int], float] = {}
        unscored_ratios: dict[tuple[str, int], float] = {}
        slice_s = max(1.0, round(args.duration / max(1, args.slices)))
        for ep in endpoints:
            bare_path = f"/bare/{ep.size}"
            with_unscored = unscored is not None and ep.path.endswith("/score")
            for server, path in ((service, ep.path), (bare, bare_path)):
                load(server, path, ep.pool, 8, args.warmup)
            if with_unscored:
                assert unscored is not None
                load(unscored, ep.path, ep.pool, 8, args.warmup)
            for conns in levels:
                ours_s: list[Load] = []
                ref_s: list[Load] = []
                for k in range(max(1, args.slices)):
                    # Alternate which goes first, so that a change in the machine's load
                    # falls on both alike.
                    runs = [(service, ep.path, ours_s), (bare, bare_path, ref_s)]
                    for server, path, into in runs if k % 2 == 0 else runs[::-1]:
                        into.append(load(server, path, ep.pool, conns, slice_s))
                ratio = statistics.median(o.rps / r.rps if r.rps else float("nan")
                                          for o, r in zip(ours_s, ref_s, strict=True))
                ratios[(ep.name, conns)] = ratio
                rows = [("service", combine(ours_s), f"{ratio:7.2f}"),
                        (f"bare {ep.size}B", combine(ref_s), "")]
                if with_unscored:
                    assert unscored is not None
                    free = combine([load(unscored, ep.path, ep.pool, conns, slice_s)
                                    for _ in range(max(1, args.slices))])
                    bare_rps = rows[1][1].rps
                    unscored_ratios[(ep.name, conns)] = (free.rps / bare_rps if bare_rps
                                                         else float("nan"))
                    rows.append(("unscored", free,
                                 f"{unscored_ratios[(ep.name, conns)]:7.2f}"))
                for label, r, shown in rows:
                    print(f"{ep.name if label == 'service' else '':15}"
                          f"{conns if label == 'service' else '':>6} {label:11}"
                          f"{r.rps:7.0f}{r.p50_ms:9.2f}{r.p99_ms:9.1f}{r.bad_status:6}"
                          f"{r.connect:5}{r.read:5}{r.timeouts:5}{r.srv_cpu:9.2f}"
                          f"{r.gen_cpu:5.2f}{r.other_cpu:6.2f}{shown}", flush=True)

        print(f"\nratio service / bare (req/s; median of the slices' ratios), by "
              f"concurrency\n{'endpoint':15}"
              + "".join(f"{c:>8}" for c in levels))
        for ep in endpoints:
            print(f"{ep.name:15}" + "".join(f"{ratios[(ep.name, c)]:8.2f}" for c in levels))
            if (ep.name, levels[0]) in unscored_ratios:
                print(f"{'  unscored':15}"
                      + "".join(f"{unscored_ratios[(ep.name, c)]:8.2f}" for c in levels))

        if not args.no_probes:
            print("\nidle connections (partial headers, never finished), service:")
            print("  " + idle_probe(service.port, endpoints[0].pool[0] if endpoints else
                                    bodies.encode({"hand": "1112345678999m5m",
                                                   "context": {"win_type": "self_draw"}})))
            print(f"\na request past gunicorn's timeout (bare app, 1 worker, "
                  f"--timeout {args.probe_timeout}):")
            for line in timeout_probe(extra, tmpdir, args.probe_timeout):
                print("  " + line)
    print(f"\ntotal {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    run_main(main)
