"""Benchmark: one score request in-process (Flask's test client) against a bare JSON route.

    python bench/request.py [--hands N] [--seed S] [--rounds R]

The bare route is the framework's own cost: a plain Flask app (default settings) whose one
POST route parses the JSON body with `request.get_json()` and answers `jsonify(payload)`,
where the payload is this service's own answer to the same request (so both responses have
the same JSON size). Both are called through Flask's test client with the same bytes: random
legal MCR hands as a game server sends them (bench/bodies.py: hand object, every context
field), each hand once per round, bare and service interleaved hand by hand (alternating which
goes first) so that machine noise hits both alike; the garbage collector is paused while
timing. Prints the median and p99 microseconds per request of each and the ratio
median(bare) / median(score): the share of a score request that is the framework's own cost
(1.0 would be a service that costs nothing on top of Flask). It reports; it asserts nothing.
"""

from __future__ import annotations

# isort: off
import _paths  # noqa: F401  (first: this folder behind the standard library)
# isort: on

import argparse
import gc
import json
import os
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from flask import Flask, jsonify, request
from flask.testing import FlaskClient
from timing import percentile  # bench/timing.py (this folder is on the path)

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bodies import encode, mcr_bodies  # noqa: E402

from app.api import create_app  # noqa: E402
from app.api.observe import shared_access_log  # noqa: E402

SCORE_URL = "/v1/rulesets/mcr/score"


def bare_app(payloads: list[Any]) -> Flask:
    """A plain Flask app: parse the body, answer the payload of the same index."""
    bare = Flask("bare")

    @bare.post("/bare/<int:index>")
    def answer(index: int) -> Any:
        request.get_json()
        return jsonify(payloads[index])

    return bare


def _post(client: FlaskClient, url: str, data: bytes) -> int:
    response = client.post(url, data=data, content_type="application/json")
    response.get_data()
    return response.status_code


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--hands", type=int, default=1000, help="random MCR hands (default 1000)")
    ap.add_argument("--seed", type=int, default=20240601, help="default 20240601")
    ap.add_argument("--rounds", type=int, default=5,
                    help="times each hand is sent to each side (default 5)")
    args = ap.parse_args(argv)

    bodies = [encode(b) for b in mcr_bodies(args.hands, args.seed)[0]]
    service = create_app().test_client()
    # Every operations feature stays on; the access log's lines go where a log collector's
    # pipe would take them without delay, not to this terminal (whose drawing costs more).
    shared_access_log().fd = os.open(os.devnull, os.O_WRONLY)
    payloads = []
    for data in bodies:
        response = service.post(SCORE_URL, data=data, content_type="application/json")
        payloads.append(response.get_json())
    bare = bare_app(payloads).test_client()
    sizes = [len(json.dumps(p, ensure_ascii=False).encode()) for p in payloads]
    print(f"{len(bodies)} MCR hands (seed {args.seed}), {args.rounds} rounds; request "
          f"{statistics.median(len(b) for b in bodies):.0f} B and response "
          f"{statistics.median(sizes):.0f} B (medians)")
    # Warm both paths up (imports, caches of the framework) before timing.
    for i, data in enumerate(bodies[:50]):
        _post(bare, f"/bare/{i}", data)
        _post(service, SCORE_URL, data)

    perf = time.perf_counter_ns
    bare_ns: list[int] = []
    score_ns: list[int] = []
    gc.collect()
    gc.disable()
    try:
        for r in range(args.rounds):
            for i, data in enumerate(bodies):
                sides = [(bare, f"/bare/{i}", bare_ns), (service, SCORE_URL, score_ns)]
                if (i + r) % 2:
                    sides.reverse()
                for client, url, out in sides:
                    t0 = perf()
                    status = _post(client, url, data)
                    out.append(perf() - t0)
                    if status != 200:
                        print(f"hand {i}: {url} answered {status}", file=sys.stderr)
                        return 1
    finally:
        gc.enable()

    def us(values: list[int], q: float | None = None) -> float:
        return (statistics.median(values) if q is None else percentile(values, q)) / 1000

    print(f"{'':18}{'median µs':>12}{'p99 µs':>12}")
    print(f"{'bare JSON route':18}{us(bare_ns):12.1f}{us(bare_ns, 99):12.1f}")
    print(f"{'score request':18}{us(score_ns):12.1f}{us(score_ns, 99):12.1f}")
    ratio = statistics.median(bare_ns) / statistics.median(score_ns)
    print(f"median(bare) / median(score) = {ratio:.2f}   (acceptance: >= 0.65)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
