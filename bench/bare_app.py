"""The bare reference app of bench/http.py: what a plain Flask JSON POST costs under the same
gunicorn settings as the service, with no scoring in it.

    gunicorn -c gunicorn.conf.py --bind 127.0.0.1:PORT "bench.bare_app:create_app()"

(from the repository root; `bench` is then a namespace package).

`POST /bare/<size>` parses the JSON body with `request.get_json()` and answers
`jsonify(payload)`, where `payload` is a fixed dict (made once per size) whose JSON response
body is exactly `size` bytes: the benchmark compares each endpoint with a bare route answering
as many bytes as that endpoint's responses do on average. JSON is written with the service's
settings (UTF-8 as is, keys in order), so the bytes on the wire are comparable.

`GET /spin?seconds=S` keeps the CPU busy for S seconds (at most 120), as a scoring request
past gunicorn's `timeout` would: it exists only to watch what each worker model does then. It
is bench-only and never part of the service.
"""

from __future__ import annotations

import time

from flask import Flask, Response, jsonify, request

MAX_SIZE = 1 << 20
MAX_SPIN = 120.0


def create_app() -> Flask:
    app = Flask(__name__)
    app.json.ensure_ascii = False  # type: ignore[attr-defined]
    app.json.sort_keys = False  # type: ignore[attr-defined]
    # jsonify writes the dict compactly plus a newline: the frame around the padding.
    frame = len(app.json.dumps({"pad": ""}).encode()) + 1
    payloads: dict[int, dict[str, str]] = {}

    @app.post("/bare/<int:size>")
    def bare(size: int) -> Response:
        request.get_json()
        payload = payloads.get(size)
        if payload is None:
            payload = payloads[size] = {"pad": "x" * max(0, min(size, MAX_SIZE) - frame)}
        return jsonify(payload)

    @app.get("/spin")
    def spin() -> Response:
        seconds = min(float(request.args.get("seconds", "1")), MAX_SPIN)
        # Busy, not sleeping: the engine holds the CPU (and the GIL), it never waits.
        end = time.perf_counter() + seconds
        n = 0
        while time.perf_counter() < end:
            n += 1
        return jsonify({"spun": seconds, "loops": n})

    return app
