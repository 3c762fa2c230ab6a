"""A busy worker still answers: one gunicorn worker (`WEB_CONCURRENCY=1`, the project's
gunicorn.conf.py) scores a waits batch of wild-tile tianjin hands while a health probe opens a
fresh connection every 0.25 s with a 1 s timeout, as an orchestrator probes, and a plain mcr
score request is sent now and then.

    .venv/bin/python bench/busy.py                    # 200 hands (seven wild tiles each)
    .venv/bin/python bench/busy.py --hands 50 --slice-ms 10

Each hand holds seven natural tiles and six wild ones (indicator 3s: 3s and 4s are wild), one
tile short, so waits scores every completing tile, tens to hundreds of ms of search a hand.
It prints how long the batch took, how many probes answered 200 within 1 s (and the slowest),
and the score requests' times. `--slice-ms` is the server's `MAHJONG_TURN_SLICE_MS`: a
large value (`--slice-ms 100000`) shows the worker without taking turns.
"""

from __future__ import annotations

# isort: off
import _paths  # noqa: F401  (first: this folder behind the standard library)
# isort: on

import argparse
import json
import os
import sys
import tempfile
import threading
import time
from pathlib import Path

from serving import ROOT, Server, request, run_main, servers_stopped_on_exit

if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.api.helpers import wild_waits_requests

SCORE = json.dumps({"hand": "1112345678999m5m",
                    "context": {"win_type": "discard", "discarder": 2}}).encode()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=200)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--slice-ms", type=float, default=10.0)
    parser.add_argument("--time-limit", type=float, default=60.0,
                        help="the server's MAHJONG_TIME_LIMIT (default 60: the whole batch)")
    args = parser.parse_args()
    os.environ.update({"WEB_CONCURRENCY": "1", "MAHJONG_TURN_SLICE_MS": str(args.slice_ms),
                       "MAHJONG_TIME_LIMIT": str(args.time_limit),
                       "GUNICORN_TIMEOUT": str(int(args.time_limit) + 30),
                       "MAHJONG_ACCESS_LOG": "off"})
    body = json.dumps({"requests": wild_waits_requests(args.hands, args.seed)}).encode()
    running: list[Server] = []
    with servers_stopped_on_exit(running), tempfile.TemporaryDirectory() as tmp:
        server = Server("service", "app.api:create_app()", [], Path(tmp))
        running.append(server)
        server.wait_ready("GET", "/healthz")
        done: dict[str, float] = {}

        def batch() -> None:
            started = time.monotonic()
            status = request(server.port, "POST", "/v1/rulesets/tianjin/waits/batch", body,
                             timeout=args.time_limit + 30)[0]
            done["took"], done["status"] = time.monotonic() - started, status

        worker = threading.Thread(target=batch)
        worker.start()
        probes: list[float | None] = []
        scores: list[float | None] = []
        while worker.is_alive():
            started = time.monotonic()
            try:
                ok = request(server.port, "GET", "/healthz", timeout=1.0)[0] == 200
                probes.append(time.monotonic() - started if ok else None)
            except OSError:
                probes.append(None)
            if len(probes) % 4 == 1:
                started = time.monotonic()
                try:
                    ok = request(server.port, "POST", "/v1/rulesets/mcr/score", SCORE,
                                 timeout=1.0)[0] == 200
                    scores.append(time.monotonic() - started if ok else None)
                except OSError:
                    scores.append(None)
            time.sleep(max(0.0, 0.25 - (time.monotonic() - started)))
        worker.join()
    answered = [p for p in probes if p is not None and p < 1.0]
    scored = [s for s in scores if s is not None and s < 1.0]
    print(f"waits batch of {args.hands} seven-wild tianjin hands, one worker, slice "
          f"{args.slice_ms:g} ms: status {done.get('status'):.0f}, {done.get('took', 0):.1f} s")
    print(f"/healthz probes answered 200 within 1 s: {len(answered)} of {len(probes)}"
          + (f" (slowest {1000 * max(answered):.0f} ms)" if answered else ""))
    print(f"mcr score requests within 1 s: {len(scored)} of {len(scores)}"
          + (f" (slowest {1000 * max(scored):.0f} ms)" if scored else ""))
    return 0


if __name__ == "__main__":
    run_main(main)
