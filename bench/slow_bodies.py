"""Slow request bodies: clients that send a request's headers, then its body a byte at a time,
against the service started as `./run serve` starts it, while a health probe checks it still
answers.

    .venv/bin/python bench/slow_bodies.py                   # 300 clients, a byte a second
    .venv/bin/python bench/slow_bodies.py --clients 2100 --max-seconds 40
    .venv/bin/python bench/slow_bodies.py --body-timeout 0  # the service without a deadline

First, in-process, what the body deadline (app/api/body_deadline.py) costs per request: a
trivial WSGI app called directly and through the middleware, for a request without a body and
for a small body read whole (without a timer, and with gevent's when gevent is installed).

Then the served part. gunicorn as configured by the project's gunicorn.conf.py (gevent
workers; `--workers`, default 2, each holding up to `worker_connections`, default 1000,
connections at once), the access log off. `--clients` connections (300) each send the headers
of `POST /v1/rulesets/mcr/score` with the Content-Length of a real score request, then one
byte of that body every `--interval` seconds (1). Meanwhile a health probe opens a fresh
connection every 0.25 s and asks `GET /healthz`, with a 1 s timeout, as an orchestrator does.
The run ends when every client is cut off, or after `--max-seconds` (25).

It prints how many clients were cut off and how (a 408 answer, or the connection closed or
reset without one), when (seconds from a client's headers to its answer and to its
connection's close: median and max), how many were still connected at the end, and the
probes: how many answered 200 within 1 s, the slowest, and when the others were sent. Each
connection is a file descriptor in this process and in a server worker: the soft limit
(`ulimit -n`) is raised for this process (and the server it starts) when the clients need
more. It reports; it asserts nothing.
"""

from __future__ import annotations

# isort: off
import _paths  # noqa: F401  (first: this folder behind the standard library)
# isort: on

import argparse
import asyncio
import io
import json
import os
import resource
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from serving import HOST, ROOT, Server, run_main, servers_stopped_on_exit

if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

SCORE_PATH = "/v1/rulesets/mcr/score"
BODY = json.dumps({"hand": "1112345678999m5m",
                   "context": {"win_type": "discard", "discarder": 2}}).encode()
HEAD = (f"POST {SCORE_PATH} HTTP/1.1\r\nHost: {HOST}\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(BODY)}\r\n\r\n").encode()
PROBE = f"GET /healthz HTTP/1.1\r\nHost: {HOST}\r\nConnection: close\r\n\r\n".encode()
PROBE_EVERY = 0.25
PROBE_TIMEOUT = 1.0
DEFAULT_WORKER_CONNECTIONS = 1000  # gunicorn.conf.py, GUNICORN_WORKER_CONNECTIONS


# --- the middleware's own cost, in-process ---------------------------------------------------

def _cost_ns(call: Callable[[], object], repeat: int, number: int) -> float:
    """The best of `repeat` runs of `number` calls, in ns per call."""
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter_ns()
        for _ in range(number):
            call()
        best = min(best, (time.perf_counter_ns() - started) / number)
    return best


def middleware_cost(number: int = 100_000, repeat: int = 7) -> list[tuple[str, float, float]]:
    """(case, ns per call bare, ns per call through the middleware) for a trivial WSGI app."""
    from app.api import body_deadline

    def reads(environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
        length = environ.get("CONTENT_LENGTH")
        body = environ["wsgi.input"].read(int(length)) if length else b""
        start_response("200 OK", [])
        return [body]

    def start_response(status: str, headers: list[tuple[str, str]], exc: Any = None) -> Any:
        return None

    wrapped = body_deadline.with_body_deadline(reads, 10.0)
    get = {"REQUEST_METHOD": "GET", "wsgi.input": io.BytesIO()}
    stream = io.BytesIO(BODY)
    post = {"REQUEST_METHOD": "POST", "CONTENT_LENGTH": str(len(BODY)), "wsgi.input": stream}

    def bare_post() -> object:
        stream.seek(0)
        post["wsgi.input"] = stream
        return reads(post, start_response)

    def wrapped_post() -> object:
        stream.seek(0)
        post["wsgi.input"] = stream
        return wrapped(post, start_response)

    cases = [("no body (GET)", lambda: reads(get, start_response),
              lambda: wrapped(get, start_response)),
             ("a body, no timer", bare_post, wrapped_post)]
    out = [(name, _cost_ns(bare, repeat, number), _cost_ns(through, repeat, number))
           for name, bare, through in cases]
    try:
        import gevent  # type: ignore[import-untyped]
    except ImportError:
        return out
    body_deadline.set_timer(gevent.Timeout)
    try:
        out.append(("a body, gevent's timer", _cost_ns(bare_post, repeat, number),
                    _cost_ns(wrapped_post, repeat, number)))
    finally:
        body_deadline.set_timer(None)
    return out


# --- the served part -------------------------------------------------------------------------

@dataclass
class Client:
    """What happened to one slow client: times in seconds from its headers being sent."""

    status: int | None = None  # the answer's status, if one came
    answered: float | None = None
    closed: float | None = None  # the connection closed (or reset) by the server
    reset: bool = False
    connect_error: str | None = None
    sent: int = 0  # body bytes sent


async def _slow_client(out: Client, port: int, interval: float, stop: float) -> None:
    loop = asyncio.get_running_loop()
    try:
        reader, writer = await asyncio.wait_for(asyncio.open_connection(HOST, port), 10)
    except (OSError, TimeoutError) as exc:
        out.connect_error = type(exc).__name__
        return
    started = loop.time()
    try:
        writer.write(HEAD)
        await writer.drain()
        first = asyncio.ensure_future(reader.read(65536))
        while out.sent < len(BODY) and loop.time() < stop:
            done, _ = await asyncio.wait({first}, timeout=min(interval, stop - loop.time()))
            if done:
                break
            writer.write(BODY[out.sent:out.sent + 1])
            await writer.drain()
            out.sent += 1
        data = await asyncio.wait_for(first, max(0.0, stop - loop.time()))
        when = loop.time() - started
        if data.startswith(b"HTTP/"):
            out.status, out.answered = int(data.split(None, 2)[1]), when
            while data:  # the rest of the answer, then the close
                data = await asyncio.wait_for(reader.read(65536), max(0.0, stop - loop.time()))
            out.closed = loop.time() - started
        else:  # closed without an answer
            out.closed = when
    except (ConnectionResetError, BrokenPipeError):
        out.closed, out.reset = loop.time() - started, True
    except TimeoutError:
        pass  # still connected when the run ended
    finally:
        writer.close()


async def _probe(port: int) -> float | None:
    """Seconds for /healthz to answer 200 on a fresh connection, None past the timeout or on
    any other answer."""
    loop = asyncio.get_running_loop()
    started = loop.time()

    async def ask() -> bool:
        reader, writer = await asyncio.open_connection(HOST, port)
        try:
            writer.write(PROBE)
            await writer.drain()
            line = await reader.readline()
            return line.split(None, 2)[1:2] == [b"200"]
        finally:
            writer.close()

    try:
        ok = await asyncio.wait_for(ask(), PROBE_TIMEOUT)
    except (OSError, TimeoutError, IndexError):
        return None
    return loop.time() - started if ok else None



async def _served(port: int, clients: int, interval: float, max_seconds: float
                  ) -> tuple[list[Client], list[tuple[float, float | None]], float]:
    """Run the clients and the probe; each probe as (seconds from the start, its latency or
    None)."""
    loop = asyncio.get_running_loop()
    started = loop.time()
    stop = started + max_seconds
    outs = [Client() for _ in range(clients)]
    tasks = [asyncio.ensure_future(_slow_client(c, port, interval, stop)) for c in outs]
    probes: list[tuple[float, float | None]] = []
    while not all(t.done() for t in tasks) and loop.time() < stop:
        began = loop.time()
        probes.append((began - started, await _probe(port)))
        await asyncio.sleep(max(0.0, PROBE_EVERY - (loop.time() - began)))
    await asyncio.gather(*tasks, return_exceptions=True)
    return outs, probes, loop.time() - started


def _raise_fd_limit(needed: int) -> tuple[int, int]:
    """Raise the soft limit on open files to `needed` (at most the hard limit); the limit
    before and after."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = needed if hard == resource.RLIM_INFINITY else min(needed, hard)
    if soft != resource.RLIM_INFINITY and soft < want:
        resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
    return soft, resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def _seconds(values: list[float]) -> str:
    if not values:
        return "-"
    return f"median {statistics.median(values):.2f} s, max {max(values):.2f} s"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=300)
    parser.add_argument("--interval", type=float, default=1.0,
                        help="seconds between two body bytes of a client (default 1)")
    parser.add_argument("--max-seconds", type=float, default=25.0)
    parser.add_argument("--workers", type=int, default=2, help="WEB_CONCURRENCY (default 2)")
    parser.add_argument("--body-timeout", default=None,
                        help="the server's MAHJONG_BODY_TIMEOUT (default: the service's own)")
    parser.add_argument("--no-cost", action="store_true",
                        help="skip the in-process measure of the middleware's cost")
    args = parser.parse_args()

    if not args.no_cost:
        print("the body deadline's cost per call, in-process (a trivial WSGI app, best of 7):")
        for name, bare, through in middleware_cost():
            print(f"  {name:24} bare {bare:7.0f} ns, through the middleware {through:7.0f} ns "
                  f"(+{through - bare:.0f} ns)")

    # Each client is a socket here and in the worker that holds it; the server inherits the
    # limit from this process.
    before, after = _raise_fd_limit(args.clients + 1024)
    env = {"WEB_CONCURRENCY": str(args.workers), "MAHJONG_ACCESS_LOG": "off"}
    if args.body_timeout is not None:
        env["MAHJONG_BODY_TIMEOUT"] = args.body_timeout
    os.environ.update(env)
    slots = int(os.environ.get("GUNICORN_WORKER_CONNECTIONS", DEFAULT_WORKER_CONNECTIONS))
    print(f"open files: soft limit {before}" + (f", raised to {after}" if after != before else "")
          + f"; {args.workers} workers x {slots} worker_connections = {args.workers * slots} "
          f"connection slots; body deadline "
          f"{args.body_timeout if args.body_timeout is not None else 'the default'}")

    running: list[Server] = []
    with servers_stopped_on_exit(running), tempfile.TemporaryDirectory() as tmp:
        server = Server("service", "app.api:create_app()", [], Path(tmp))
        running.append(server)
        server.wait_ready("GET", "/healthz")
        outs, probes, took = asyncio.run(
            _served(server.port, args.clients, args.interval, args.max_seconds))

    answered = [c for c in outs if c.status is not None]
    statuses: dict[int, int] = {}
    for c in answered:
        statuses[c.status or 0] = statuses.get(c.status or 0, 0) + 1
    closed = [c for c in outs if c.closed is not None]
    unanswered = [c for c in closed if c.status is None]
    connect_errors = [c for c in outs if c.connect_error]
    still = len(outs) - len(closed) - len(connect_errors)
    ok = [p for _, p in probes if p is not None]
    failed = [when for when, p in probes if p is None]
    print(f"{args.clients} clients, a body byte every {args.interval:g} s, run {took:.1f} s "
          f"(at most {args.max_seconds:g})")
    print(f"  cut off: {len(closed)} (answered "
          + (", ".join(f"{n} x {s}" for s, n in sorted(statuses.items())) or "none")
          + f"; closed without an answer {len(unanswered)}, "
          f"{sum(c.reset for c in unanswered)} of them reset); still connected at the end: "
          f"{still}; could not connect: {len(connect_errors)}")
    answer_times = [c.answered for c in answered if c.answered is not None]
    close_times = [c.closed for c in closed if c.closed is not None]
    print(f"  from a client's headers to its answer: {_seconds(answer_times)}; "
          f"to its connection's close: {_seconds(close_times)}")
    print(f"  body bytes sent per client: max {max((c.sent for c in outs), default=0)}")
    print(f"  /healthz probes answered 200 within {PROBE_TIMEOUT:g} s: {len(ok)} of "
          f"{len(probes)}" + (f" (slowest {1000 * max(ok):.0f} ms)" if ok else "")
          + (f"; the others sent from {min(failed):.1f} s to {max(failed):.1f} s"
             if failed else ""))
    return 0


if __name__ == "__main__":
    run_main(main)
