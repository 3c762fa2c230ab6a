"""Prometheus metrics, served at `GET /metrics` in the text exposition format.

What is measured:

- `mahjong_http_requests_total{route, ruleset, method, status}`: every request the app
  answers, error answers included (422, 404, 500...). `route` is the URL rule
  (`/v1/rulesets/<ruleset>/score`), never the raw path: a request no rule matches (404, 405)
  is `unmatched`. `ruleset` is the `ruleset` path argument when it names a loaded rule set,
  `unknown` when it names another, `""` on routes without one. `method` is one of the
  standard methods or `other`. So what a client writes in a URL never becomes a label value.
- `mahjong_http_request_duration_seconds{route}`: a histogram of the time from the request
  reaching the app to its response being ready, from 1 ms to 10 s.
- `mahjong_hands_scored_total{ruleset, endpoint}`: hands scored, counted by the routes
  (`count_hands`): a score or a waits request answered is 1, a batch counts its items
  answered with a result, a round counts its wins and the hands of its drawn game.
- `mahjong_http_requests_in_flight`: requests being answered now (a scrape does not count
  itself).

Why multiprocess mode: gunicorn serves with several worker processes, each counting what it
serves, and a scrape reaches one of them. With `PROMETHEUS_MULTIPROC_DIR` set (`./run serve`
sets it), prometheus_client keeps every process's values in files in that directory and
`/metrics` adds up all of them (`MultiProcessCollector`), so any worker answers for the whole
service; the in-flight gauge sums the live workers only (`livesum`: gunicorn.conf.py marks a
worker dead when it exits). Without the variable (in-process, the tests), each app counts
into a registry of its own.
"""

from __future__ import annotations

import os
from collections.abc import Collection
from typing import Any

from flask import Flask, Response, current_app
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    disable_created_metrics,
    generate_latest,
    multiprocess,
)

__all__ = [
    "LATENCY_BUCKETS",
    "METRICS_KEY",
    "MULTIPROCESS",
    "MULTIPROC_ENV",
    "UNMATCHED",
    "count_hands",
    "register_metrics",
]

METRICS_KEY = "mahjong_metrics"
MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"
METRICS_ENDPOINT = "metrics"
UNMATCHED = "unmatched"
UNKNOWN_RULESET = "unknown"
# prometheus_client chooses its mode when imported, by this variable: so does this module.
MULTIPROCESS = MULTIPROC_ENV in os.environ
METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"})
# From a health check's time to the service's default time limit per request.
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0,
                   10.0)


class Metrics:
    """One app's metrics. `registry` is None in multiprocess mode: the values live in the
    directory's files, and `/metrics` reads them all.

    Counted by the observing middleware (app/api/observe.py) once a request is answered, from
    the URL rule Flask matched. Each series' child is looked up once and kept: prometheus_client's
    `labels()` takes a lock and checks the values on every call, and costs more than the
    update itself."""

    def __init__(self, registry: CollectorRegistry | None, rulesets: Collection[str]) -> None:
        self.registry = registry
        self.rulesets = frozenset(rulesets)
        self.requests = Counter(
            "mahjong_http_requests", "HTTP requests answered, by route template, rule set, "
            "method and status.", ["route", "ruleset", "method", "status"], registry=registry)
        self.latency = Histogram(
            "mahjong_http_request_duration_seconds", "Time to answer a request, by route "
            "template.", ["route"], buckets=LATENCY_BUCKETS, registry=registry)
        self.hands = Counter(
            "mahjong_hands_scored", "Hands scored, by rule set and endpoint (a batch counts "
            "the items answered with a result).", ["ruleset", "endpoint"], registry=registry)
        self.in_flight = Gauge(
            "mahjong_http_requests_in_flight", "Requests being answered now.",
            registry=registry, multiprocess_mode="livesum")
        # The label values are bounded (routes, loaded rule sets, methods, statuses), and so
        # are these.
        self._requests: dict[tuple[str | None, str | None, str, int], Any] = {}
        self._latency: dict[str | None, Any] = {}
        self._hands: dict[tuple[str, str], Any] = {}

    def count_request(self, route: str | None, ruleset: str | None, method: str, status: int,
                      seconds: float) -> None:
        """Count a request answered: `route` the URL rule it matched (None: none did),
        `ruleset` its `ruleset` argument if it has one, as sent."""
        key = (route, ruleset, method, status)
        counter = self._requests.get(key)
        if counter is None:
            counter = self._requests[key] = self.requests.labels(
                route if route is not None else UNMATCHED, self._ruleset_label(route, ruleset),
                method if method in METHODS else "other", str(status))
        counter.inc()
        latency = self._latency.get(route)
        if latency is None:
            latency = self._latency[route] = self.latency.labels(
                route if route is not None else UNMATCHED)
        latency.observe(seconds)

    def _ruleset_label(self, route: str | None, ruleset: str | None) -> str:
        # What a client writes in a URL never becomes a label value.
        if route is None or ruleset is None:
            return ""
        return ruleset if ruleset in self.rulesets else UNKNOWN_RULESET

    def count_hands(self, ruleset: str, endpoint: str, hands: int) -> None:
        counter = self._hands.get((ruleset, endpoint))
        if counter is None:
            counter = self._hands[ruleset, endpoint] = self.hands.labels(ruleset, endpoint)
        counter.inc(hands)

    def serve(self) -> Response:
        return Response(self.exposition(), content_type=CONTENT_TYPE_LATEST)

    def exposition(self) -> bytes:
        if self.registry is not None:
            return generate_latest(self.registry)
        # Multiprocess mode: a fresh registry per scrape, as prometheus_client prescribes.
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
        return generate_latest(registry)


def count_hands(ruleset: str, endpoint: str, hands: int = 1) -> None:
    """Count `hands` scored under `ruleset` (a loaded rule set's id) by `endpoint`."""
    if hands:
        metrics: Metrics = current_app.extensions[METRICS_KEY]
        metrics.count_hands(ruleset, endpoint, hands)


def register_metrics(app: Flask, rulesets: Collection[str]) -> Metrics:
    """Serve `GET /metrics` for `app` and make the metrics its requests are counted into
    (by `register_observe`); `rulesets`: the ids of the loaded rule sets, the only values the
    `ruleset` label takes besides `unknown` and `""`."""
    if MULTIPROCESS and not os.path.isdir(os.environ[MULTIPROC_ENV]):
        raise ValueError(f"{MULTIPROC_ENV} must name an existing directory, not "
                         f"{os.environ[MULTIPROC_ENV]!r}")
    # `_created` samples exist in single-process mode only: off, for one exposition either way.
    disable_created_metrics()
    registry = None if MULTIPROCESS else CollectorRegistry()
    metrics = Metrics(registry, rulesets)
    app.extensions[METRICS_KEY] = metrics
    app.add_url_rule("/metrics", METRICS_ENDPOINT, metrics.serve, methods=["GET"])
    return metrics
