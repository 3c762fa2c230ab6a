"""GET /metrics: exact counts and labels in-process (a fresh app, its own registry), and exact
totals across two gunicorn workers under `./run serve` (prometheus_client's multiprocess
mode), the in-flight gauge back at 0, and the multiprocess directory's life cycle."""

from __future__ import annotations

import http.client
import json
import os
import re
import signal
import subprocess
import time
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from prometheus_client.parser import text_string_to_metric_families

from app.api import create_app
from app.api.metrics import LATENCY_BUCKETS, METRICS_KEY, UNMATCHED
from app.rules.load_files import load_yaml
from app.scoring import evaluate
from app.settings import RULESETS_ENV
from tests.api.helpers import NINE_GATES_REQUEST, OPENAPI_FILE, REPO_ROOT, SCORE_URL
from tests.api.test_serve import RUN, _broken_rulesets, _free_port, _running, _serve_env

REQUESTS = "mahjong_http_requests_total"
LATENCY = "mahjong_http_request_duration_seconds"
HANDS = "mahjong_hands_scored_total"
IN_FLIGHT = "mahjong_http_requests_in_flight"

SCORE_ROUTE = "/v1/rulesets/<ruleset>/score"
WAITS_BODY = {"hand": "1112345678999m", "context": {"win_type": "self_draw"}}
BAD_HAND = {"hand": "1112345678999m5m5m", "context": {"win_type": "self_draw"}}  # 17 tiles


def _settle_example() -> Any:
    spec = load_yaml(OPENAPI_FILE.read_text(encoding="utf-8"))
    content = spec["paths"]["/v1/rulesets/{ruleset}/settle"]["post"]["requestBody"]["content"]
    return content["application/json"]["examples"]["rule_page"]["value"]


Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]


def _parse(text: str) -> Samples:
    """Every sample of an exposition: (sample name, labels) -> value."""
    samples: Samples = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            samples[sample.name, frozenset(sample.labels.items())] = sample.value
    return samples


def _of(samples: Samples, name: str, **match: str) -> dict[frozenset[tuple[str, str]], float]:
    """The samples named `name` whose labels include `match`."""
    return {labels: value for (n, labels), value in samples.items()
            if n == name and set(match.items()) <= labels}


def _labels(**labels: str) -> frozenset[tuple[str, str]]:
    return frozenset(labels.items())


def _request_labels(route: str, ruleset: str, method: str,
                    status: int) -> frozenset[tuple[str, str]]:
    return _labels(route=route, ruleset=ruleset, method=method, status=str(status))


# --- in-process: one fresh app per test, so every count starts at 0 --------------------------

@pytest.fixture()
def fresh() -> Iterator[tuple[Flask, FlaskClient]]:
    app = create_app()
    with app.test_client() as client:
        yield app, client


def _scrape(client: FlaskClient) -> Samples:
    response = client.get("/metrics")
    assert response.status_code == 200
    assert response.headers["Content-Type"] == CONTENT_TYPE_LATEST
    return _parse(response.get_data(as_text=True))


def test_counts_and_labels_are_exact(fresh: tuple[Flask, FlaskClient],
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    _, client = fresh
    for _ in range(3):
        assert client.post(SCORE_URL, json=NINE_GATES_REQUEST).status_code == 200
    assert client.post(SCORE_URL, json=BAD_HAND).status_code == 422
    for _ in range(2):
        assert client.post("/v1/rulesets/mcr/waits", json=WAITS_BODY).status_code == 200
    # A batch counts its items answered with a result: 2 of these 3.
    batch = {"requests": [NINE_GATES_REQUEST, BAD_HAND, NINE_GATES_REQUEST]}
    assert client.post("/v1/rulesets/mcr/score/batch", json=batch).status_code == 200
    assert client.post("/v1/rulesets/mcr/waits/batch",
                       json={"requests": [WAITS_BODY] * 4}).status_code == 200
    # A round counts its wins (2) and the hands of its drawn game (2).
    assert client.post("/v1/rulesets/sichuan/settle", json=_settle_example()).status_code == 200
    assert client.get("/v1/rulesets/mcr").status_code == 200
    assert client.get("/healthz").status_code == 200
    # Errors: an unknown rule set, paths no rule matches, a method not allowed, a 500.
    assert client.post("/v1/rulesets/riichi/score", json=NINE_GATES_REQUEST).status_code == 404
    assert client.get("/no/such/path").status_code == 404
    assert client.get("/v1/rulesets/mcr/score/extra").status_code == 404
    assert client.get(SCORE_URL).status_code == 405
    assert client.open(SCORE_URL, method="BREW").status_code == 405

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("a bug")

    monkeypatch.setattr(evaluate, "score", broken)
    assert client.post("/v1/rulesets/tianjin/score", json=NINE_GATES_REQUEST).status_code == 500
    monkeypatch.undo()

    samples = _scrape(client)
    assert _of(samples, REQUESTS) == {
        _request_labels(SCORE_ROUTE, "mcr", "POST", 200): 3,
        _request_labels(SCORE_ROUTE, "mcr", "POST", 422): 1,
        _request_labels(SCORE_ROUTE, "unknown", "POST", 404): 1,
        _request_labels(SCORE_ROUTE, "tianjin", "POST", 500): 1,
        _request_labels("/v1/rulesets/<ruleset>/waits", "mcr", "POST", 200): 2,
        _request_labels("/v1/rulesets/<ruleset>/score/batch", "mcr", "POST", 200): 1,
        _request_labels("/v1/rulesets/<ruleset>/waits/batch", "mcr", "POST", 200): 1,
        _request_labels("/v1/rulesets/<ruleset>/settle", "sichuan", "POST", 200): 1,
        _request_labels("/v1/rulesets/<ruleset>", "mcr", "GET", 200): 1,
        _request_labels("/healthz", "", "GET", 200): 1,
        _request_labels(UNMATCHED, "", "GET", 404): 2,
        _request_labels(UNMATCHED, "", "GET", 405): 1,
        _request_labels(UNMATCHED, "", "other", 405): 1,
    }
    assert _of(samples, HANDS) == {
        _labels(ruleset="mcr", endpoint="score"): 3,
        _labels(ruleset="mcr", endpoint="waits"): 2,
        _labels(ruleset="mcr", endpoint="score_batch"): 2,
        _labels(ruleset="mcr", endpoint="waits_batch"): 4,
        _labels(ruleset="sichuan", endpoint="settle"): 4,
    }
    # One latency observation per request, by route; the buckets run from 1 ms to 10 s.
    assert _of(samples, f"{LATENCY}_count") == {
        _labels(route=SCORE_ROUTE): 6,
        _labels(route="/v1/rulesets/<ruleset>/waits"): 2,
        _labels(route="/v1/rulesets/<ruleset>/score/batch"): 1,
        _labels(route="/v1/rulesets/<ruleset>/waits/batch"): 1,
        _labels(route="/v1/rulesets/<ruleset>/settle"): 1,
        _labels(route="/v1/rulesets/<ruleset>"): 1,
        _labels(route="/healthz"): 1,
        _labels(route=UNMATCHED): 4,
    }
    buckets = _of(samples, f"{LATENCY}_bucket", route=SCORE_ROUTE)
    by_bound = {float(dict(labels)["le"]): value for labels, value in buckets.items()}
    assert sorted(by_bound) == [*LATENCY_BUCKETS, float("inf")]
    counts = [by_bound[bound] for bound in sorted(by_bound)]
    assert counts == sorted(counts) and counts[-1] == 6
    assert _of(samples, IN_FLIGHT) == {frozenset(): 0}

    # The scrape itself is counted once it is answered.
    assert _of(_scrape(client), REQUESTS, route="/metrics") == {
        _request_labels("/metrics", "", "GET", 200): 1}


def test_raw_paths_and_client_rule_sets_never_become_label_values(
        fresh: tuple[Flask, FlaskClient]) -> None:
    _, client = fresh

    def probe(i: int) -> None:
        assert client.get(f"/probe-{i}/x{i}").status_code == 404
        assert client.post(f"/v1/rulesets/client-id-{i}/score",
                           json=NINE_GATES_REQUEST).status_code == 404
        assert client.get(f"/v1/rulesets/client-id-{i}").status_code == 404

    probe(0)
    client.get("/metrics")
    before = _scrape(client)
    for i in range(1, 21):
        probe(i)
    text = client.get("/metrics").get_data(as_text=True)
    assert "probe" not in text and "client-id" not in text
    after = _parse(text)
    # Twenty more paths and rule set ids, no new series: the same label sets, higher counts.
    assert set(after) == set(before)
    assert after[REQUESTS, _request_labels(UNMATCHED, "", "GET", 404)] == 21
    assert after[REQUESTS, _request_labels(SCORE_ROUTE, "unknown", "POST", 404)] == 21
    assert after[REQUESTS, _request_labels("/v1/rulesets/<ruleset>", "unknown", "GET", 404)] == 21
    routes = {dict(labels)["route"] for (name, labels) in after if name == REQUESTS}
    rulesets = {dict(labels)["ruleset"] for (name, labels) in after if name == REQUESTS}
    assert routes == {UNMATCHED, SCORE_ROUTE, "/v1/rulesets/<ruleset>", "/metrics"}
    assert rulesets == {"", "unknown"}


def test_in_flight_counts_the_request_being_answered(fresh: tuple[Flask, FlaskClient],
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    app, client = fresh
    registry = app.extensions[METRICS_KEY].registry
    seen: list[float] = []
    real_score = evaluate.score

    def watched(*args: Any, **kwargs: Any) -> Any:
        gauge = _of(_parse(generate_latest(registry).decode()), IN_FLIGHT)
        seen.append(gauge[frozenset()])
        return real_score(*args, **kwargs)

    monkeypatch.setattr(evaluate, "score", watched)
    assert client.post(SCORE_URL, json=NINE_GATES_REQUEST).status_code == 200
    assert client.post(SCORE_URL, json={"hand": "123456m234p678s5s5s", "context": {
        "win_type": "discard", "discarder": 1}}).status_code == 200
    assert seen == [1, 1]
    # Back to 0 after answers, error answers included (422, 404, 500).
    assert client.post(SCORE_URL, json=BAD_HAND).status_code == 422
    assert client.get("/nowhere").status_code == 404

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("a bug")

    monkeypatch.setattr(evaluate, "score", broken)
    assert client.post(SCORE_URL, json=NINE_GATES_REQUEST).status_code == 500
    assert _of(_scrape(client), IN_FLIGHT) == {frozenset(): 0}


def test_the_documented_example_is_what_the_service_says(
        fresh: tuple[Flask, FlaskClient]) -> None:
    """Every line of getMetrics' example is in the exposition after one hand scored."""
    _, client = fresh
    spec = load_yaml(OPENAPI_FILE.read_text(encoding="utf-8"))
    content = spec["paths"]["/metrics"]["get"]["responses"]["200"]["content"]["text/plain"]
    example = next(iter(content["examples"].values()))["value"]
    assert client.post(SCORE_URL, json=NINE_GATES_REQUEST).status_code == 200
    live = client.get("/metrics").get_data(as_text=True).splitlines()
    for line in example.splitlines():
        assert line in live, line


# --- under gunicorn, 2 workers: multiprocess mode ---------------------------------------------

def _get(port: int, url: str) -> tuple[int, str]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request("GET", url)
        response = conn.getresponse()
        return response.status, response.read().decode()
    finally:
        conn.close()


def _score_over_one_connection(port: int, count: int) -> list[int]:
    """`count` score requests over one keep-alive connection: their statuses."""
    body = json.dumps(NINE_GATES_REQUEST).encode()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    statuses = []
    try:
        for _ in range(count):
            conn.request("POST", SCORE_URL, body=body,
                         headers={"Content-Type": "application/json"})
            response = conn.getresponse()
            response.read()
            statuses.append(response.status)
    finally:
        conn.close()
    return statuses


def _worker_pids(directory: Path) -> set[int]:
    """The processes that counted something: one `counter_<pid>.db` file each."""
    return {int(m.group(1)) for p in directory.iterdir()
            if (m := re.fullmatch(r"counter_(\d+)\.db", p.name))}


CONNECTIONS = 8
PER_CONNECTION = 5
MAX_ROUNDS = 20


def test_totals_are_exact_across_two_gunicorn_workers(tmp_path: Path) -> None:
    directory = tmp_path / "metrics"
    directory.mkdir()
    (directory / "counter_1.db").write_bytes(b"an earlier server's file")  # to be cleared
    with _running(tmp_path, WEB_CONCURRENCY="2",
                  PROMETHEUS_MULTIPROC_DIR=str(directory)) as (port, log):
        assert not (directory / "counter_1.db").exists()
        sent = 0
        statuses: Counter[int] = Counter()
        # Concurrent connections until both workers have served some (each round sends 40).
        with ThreadPoolExecutor(CONNECTIONS) as pool:
            for _ in range(MAX_ROUNDS):
                for result in pool.map(_score_over_one_connection, [port] * CONNECTIONS,
                                       [PER_CONNECTION] * CONNECTIONS):
                    statuses.update(result)
                sent += CONNECTIONS * PER_CONNECTION
                if len(_worker_pids(directory)) >= 2:
                    break
        assert statuses == {200: sent}
        workers = _worker_pids(directory)
        assert len(workers) == 2, (workers, log.read_text(errors="replace"))

        # Whichever worker answers the scrape, it answers for both.
        route = _request_labels(SCORE_ROUTE, "mcr", "POST", 200)
        for _ in range(4):
            status, text = _get(port, "/metrics")
            assert status == 200
            samples = _parse(text)
            assert _of(samples, REQUESTS, route=SCORE_ROUTE) == {route: sent}
            assert _of(samples, HANDS) == {_labels(ruleset="mcr", endpoint="score"): sent}
            assert _of(samples, f"{LATENCY}_count", route=SCORE_ROUTE) == {
                _labels(route=SCORE_ROUTE): sent}
            assert _of(samples, IN_FLIGHT) == {frozenset(): 0}

        # A worker that exits (and is replaced) keeps its counts in the totals; its in-flight
        # gauge leaves the sum (gunicorn.conf.py's child_exit).
        gone = min(workers)
        os.kill(gone, signal.SIGTERM)
        deadline = time.monotonic() + 15
        while (directory / f"gauge_livesum_{gone}.db").exists():
            assert time.monotonic() < deadline, sorted(p.name for p in directory.iterdir())
            time.sleep(0.1)
        # Until its replacement has served some (so that it is not stopped while booting).
        deadline = time.monotonic() + 30
        while len(_worker_pids(directory)) < 3:
            assert time.monotonic() < deadline, sorted(p.name for p in directory.iterdir())
            with ThreadPoolExecutor(CONNECTIONS) as pool:
                for result in pool.map(_score_over_one_connection, [port] * CONNECTIONS,
                                       [1] * CONNECTIONS):
                    assert result == [200]
            sent += CONNECTIONS
        samples = _parse(_get(port, "/metrics")[1])
        assert _of(samples, REQUESTS, route=SCORE_ROUTE) == {route: sent}
        assert _of(samples, HANDS) == {_labels(ruleset="mcr", endpoint="score"): sent}
        assert _of(samples, IN_FLIGHT) == {frozenset(): 0}
    # A directory given to `./run serve` is left where it is, only emptied at the next start.
    assert directory.is_dir()


def test_run_serve_makes_and_removes_its_own_directory(tmp_path: Path) -> None:
    temp = tmp_path / "tmp"
    temp.mkdir()
    # No directory given (an empty value counts as none): `./run serve` makes one in TMPDIR.
    env = {"TMPDIR": str(temp), "PROMETHEUS_MULTIPROC_DIR": ""}
    with _running(tmp_path, **env) as (port, _):
        made = list(temp.glob("mahjong-metrics.*"))
        assert len(made) == 1 and made[0].is_dir()
        assert _score_over_one_connection(port, 3) == [200] * 3
        (worker,) = _worker_pids(made[0])
        # A worker's exit leaves the directory to the server (the master removes it).
        os.kill(worker, signal.SIGTERM)
        deadline = time.monotonic() + 15
        while (made[0] / f"gauge_livesum_{worker}.db").exists():
            assert time.monotonic() < deadline
            time.sleep(0.1)
        assert _score_over_one_connection(port, 2) == [200] * 2  # by its replacement
        assert made[0].is_dir() and len(_worker_pids(made[0])) == 2
        samples = _parse(_get(port, "/metrics")[1])
        assert _of(samples, HANDS) == {_labels(ruleset="mcr", endpoint="score"): 5}
    assert not made[0].exists()


def test_run_serve_removes_its_directory_when_start_up_fails(tmp_path: Path) -> None:
    temp = tmp_path / "tmp"
    temp.mkdir()
    env = _serve_env(_free_port(), TMPDIR=str(temp), PROMETHEUS_MULTIPROC_DIR="",
                     **{RULESETS_ENV: str(_broken_rulesets(tmp_path))})
    done = subprocess.run([str(RUN), "serve"], cwd=REPO_ROOT, env=env, capture_output=True,
                          timeout=120, start_new_session=True)
    assert done.returncode != 0 and b"RuleSetError" in done.stdout + done.stderr
    assert not list(temp.glob("mahjong-metrics.*"))
