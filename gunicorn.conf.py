"""gunicorn settings for `./run serve` (and the container, which runs the same command)."""

import atexit
import gc
import os
import shutil
import sys
import time
from typing import Any

bind = f"0.0.0.0:{os.environ.get('PORT', '8000')}"
# Scoring is CPU-bound and a process scores one request at a time (the GIL): one worker per
# core the service may use (docs/operations.md).
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
# gevent: a connection costs a greenlet, not a worker, so clients that are slow or idle (a
# request's headers sent in part, or nothing) cannot hold the workers away from everyone else,
# as they do sync workers (and gthread's threads, with no time limit at all). Scoring never
# waits on I/O, so a request still runs to its end without yielding; `post_request` below
# makes a worker take turns between its connections. (bench/README.md has the measurements.)
# Each is gunicorn's worker of that name, answering the requests gunicorn itself refuses (a
# request line or headers over their limits or not HTTP, headers that do not arrive in time)
# with problem documents rather than its HTML pages (app/api/server_faults.py). Any other
# value is given to gunicorn as it is.
_WORKERS = {name: f"app.api.server_faults.{cls}" for name, cls in
            (("gevent", "GeventWorker"), ("sync", "SyncWorker"), ("gthread", "ThreadWorker"))}
_worker = os.environ.get("GUNICORN_WORKER_CLASS", "gevent")
worker_class = _WORKERS.get(_worker, _worker)
# Connections one worker holds at once, idle ones included; past it, new ones wait in the
# listen queue for a worker with room.
worker_connections = int(os.environ.get("GUNICORN_WORKER_CONNECTIONS", "1000"))
# Scoring one hand takes microseconds to about a second (waits with many wilds); a request
# near this is stuck: gunicorn aborts its worker and starts another, so no request holds a
# core for longer (`worker_abort` below makes the app answer it).
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "30"))
graceful_timeout = 10
# Idle keep-alive connections are closed after this many seconds; under gevent it is also how
# long a client may take to send a request's headers before the connection is closed (with
# a 408 problem document when part of a request came: app/api/server_faults.py). (The body
# has a deadline of its own in the app, MAHJONG_BODY_TIMEOUT: app/api/body_deadline.py.)
keepalive = 5
# Recycle each worker after this many requests (plus up to the jitter, so that workers do not
# restart together): past its warm-up (the engine's bounded memos filling) a worker still
# creeps up slowly, and this caps where it stops (bench/memory.py measures it; the figures:
# bench/README.md, docs/operations.md). A restart is cheap: a fork of the preloaded master,
# and never-seen hands score no slower in a fresh worker than in a warm one.
max_requests = int(os.environ.get("GUNICORN_MAX_REQUESTS", "50000"))
max_requests_jitter = int(os.environ.get("GUNICORN_MAX_REQUESTS_JITTER", "5000"))
# Load the rule sets once in the master: a broken rule set stops the service at start-up
# (RuleSetError) instead of workers failing one by one, and workers share the loaded data.
preload_app = True
# The app writes one JSON access-log line per request (app/api/observe.py), with the request
# ID, route, rule set and duration; gunicorn's plain-text line would say it twice. The app's
# own log records are JSON lines on standard output as well; gunicorn's log stays plain text
# on standard error.
accesslog = None
errorlog = "-"
loglevel = os.environ.get("LOG_LEVEL", "info")
# Heartbeat files on tmpfs where there is one (containers often have a slow overlay /tmp).
if os.path.isdir("/dev/shm"):
    worker_tmp_dir = "/dev/shm"


def when_ready(server: Any) -> None:
    # Say which build of the engine serves (setup.py compiles it when a C compiler is at hand).
    from app.scoring.build import engine_build

    server.log.info("engine build: %s", engine_build())
    # Everything loaded so far (the rule sets, their compiled plans, the libraries) lives as
    # long as the process: out of the garbage collector's sight, a worker's full collection
    # walks only what the worker made, and the collector never writes to the master's pages,
    # which the workers then keep sharing instead of copying (docs/operations.md).
    gc.freeze()


def _under_gevent(worker: Any) -> bool:
    ggevent = sys.modules.get("gunicorn.workers.ggevent")  # imported for a gevent worker
    return ggevent is not None and isinstance(worker, ggevent.GeventWorker)


# The worker's memory guard (app/api/memory_guard.py), made as the worker starts.
_memory_guard: Any = None
# `app.service.collector.between`, once the worker has tuned its collector (`post_fork`).
_collector_between: Any = None
MEMORY_CHECK_DELAY_S = 0.5


def pre_request(worker: Any, req: Any) -> None:
    _check_memory(worker)  # after the previous request, if it is still to be done
    req.mahjong_started = time.perf_counter()


def _check_memory(worker: Any) -> None:
    if _memory_guard is not None and _memory_guard.check() and worker.alive:
        worker.log.warning("worker %s: its memory stays past its allowance (%.0f MiB) "
                           "after trimming and emptying its memos; it is replaced",
                           worker.pid, _memory_guard.allowance / 2**20)
        worker.alive = False


def post_request(worker: Any, req: Any, environ: dict[str, Any], resp: Any) -> None:
    """Once a response is sent, the memory guard looks at the worker's memory, when the
    response has been let go (its body may be most of what the request made): under gevent
    a moment later, otherwise as the next request comes. A worker
    that stays past its allowance after giving back what it can is replaced (as
    `max_requests` does: it finishes what it holds, then exits, and the master starts
    another).

    Under gevent, once a response is sent, wait for the worker's event loop to have nothing
    else to do before reading this connection's next request. Scoring never waits on I/O, so
    without it a client that sends its next request at once finds the worker reading it before
    anything else can run, and keeps the worker to itself; with `gevent.sleep(0)` the
    connections take turns but a new connection's first request still waits behind them all
    to be read (bench/README.md gives the figures). `idle` serves every connection, new ones
    included, in turn."""
    started = getattr(req, "mahjong_started", None)
    if _memory_guard is not None and started is not None:
        _memory_guard.answered(time.perf_counter() - started)
    if _under_gevent(worker):
        import gevent

        if _memory_guard is not None and _memory_guard.due:
            # Later, not at once: this request's greenlet still holds its response until it
            # reads the connection's next request.
            gevent.spawn_later(MEMORY_CHECK_DELAY_S, _check_memory, worker)
        gevent.idle()
    # A full collection, when one is due, now that the answer is sent (and, under gevent,
    # the other connections served): never inside a request (app/service/collector.py).
    if _collector_between is not None:
        _collector_between()


def post_fork(server: Any, worker: Any) -> None:
    """The worker's memory guard starts from what the worker holds now, and its garbage
    collector collects in full only between requests (`post_request`).

    Under gevent, long work takes turns with the worker's other connections: the engine's
    time-limit check (called between the hands it scores) waits, once a request has run for a
    slice of `MAHJONG_TURN_SLICE_MS` (10 ms) and as long has passed since the last wait, for
    the worker's event loop to have nothing
    else to do (`gevent.idle`: every connection ready to go served, new ones included), so a
    batch or a waits search on wild tiles no longer holds health probes and short requests
    until it ends (app/domain/deadline.py). `gevent.sleep(0)` gives each other connection
    only one step per slice (accept, read, answer), so a probe waited many slices.

    Under gevent too, a read of a request body still waiting at the body's deadline is cut
    short there (`gevent.Timeout`); without a timer it would be refused only once the read
    returns, when the rest of the body has come (app/api/body_deadline.py)."""
    global _memory_guard, _collector_between
    from app.api.memory_guard import MemoryGuard
    from app.service import collector

    _memory_guard = MemoryGuard.from_environment()
    # The garbage collector's full collections only between requests (`post_request`).
    collector.tune()
    _collector_between = collector.between
    if _under_gevent(worker):
        import gevent

        from app.api import body_deadline
        from app.domain import deadline

        slice_ms = float(os.environ.get("MAHJONG_TURN_SLICE_MS", "10"))
        deadline.set_pause(gevent.idle, slice_ms / 1000)
        body_deadline.set_timer(gevent.Timeout)


def worker_exit(server: Any, worker: Any) -> None:
    """Write the access-log lines the worker still holds (they wait up to a quarter second to
    be written together, app/api/observe.py) before it goes, and let it exit cleanly."""
    from app.api.observe import flush_access_log

    flush_access_log()
    # Hand what `when_ready` froze back to the collector, so that the interpreter's shutdown
    # frees it while every module still stands. Left frozen, what only the collector can free
    # (reference cycles, the loaded modules and logging's handlers among them) is freed last,
    # as the interpreter clears the modules one by one: a handler freed then runs its weak
    # reference's callback, which takes logging's lock, which gevent's monkey-patching made
    # call `gevent.thread.get_ident`, whose module is cleared by then ("Exception ignored in
    # _removeHandlerRef ... TypeError: 'NoneType' object is not callable" on standard error,
    # at each worker's exit).
    gc.unfreeze()


class WorkerTimeout(Exception):
    """Raised into a request that ran past `timeout`, for the app to answer."""


def worker_abort(worker: Any) -> None:
    """gunicorn stops a worker whose request ran past `timeout` with SIGABRT, whose handler
    runs inside that request. Raise there: the app logs the request's traceback (where it was
    stuck) and answers its problem document (500 internal_error), where gunicorn would drop
    the connection without a word (gevent) or send its own HTML page (sync). The worker still
    exits once the request is answered (gunicorn has marked it not alive) and a new one
    starts."""
    raise WorkerTimeout(f"the request ran past the worker timeout ({worker.cfg.timeout} s)")


def child_exit(server: Any, worker: Any) -> None:
    """Metrics (app/api/metrics.py): drop an exited worker's in-flight gauge from the sum; its
    counters and histograms stay, so totals survive worker restarts."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(worker.pid)


def _remove_metrics_dir(made: str, master: int) -> None:
    if os.getpid() == master:  # not in a worker (forked, it runs the master's atexit too)
        shutil.rmtree(made, ignore_errors=True)


# The metrics directory `./run serve` made for this server alone goes with the master however
# it exits, a failed start included.
_made = os.environ.get("RUN_METRICS_TMPDIR")
if _made and _made == os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
    atexit.register(_remove_metrics_dir, _made, os.getpid())


# No `Server: gunicorn` banner: gunicorn has no setting for it, so its default headers are
# sent without that one line (which names the server software to anyone who asks).
def _without_server_banner() -> None:
    from gunicorn.http import wsgi

    default_headers = wsgi.Response.default_headers

    def headers(self: Any) -> list[str]:
        return [h for h in default_headers(self) if not h.startswith("Server:")]

    wsgi.Response.default_headers = headers  # type: ignore[method-assign]


_without_server_banner()


# An answer the app sends with `Connection: close` closes the connection. gunicorn drops that
# header as hop-by-hop and keeps the connection open; before the next request it would then
# read what is left of the body, for up to `keepalive` seconds. The app says it where the
# rest of the body must not be read: a body past its deadline (408 request_timeout).
def _closing_when_the_app_says_so() -> None:
    from gunicorn.http import wsgi

    process_headers = wsgi.Response.process_headers

    def process(self: Any, headers: list[tuple[str, str]]) -> None:
        process_headers(self, headers)
        for name, value in headers:
            if name.lower() == "connection" and value.strip(" \t").lower() == "close":
                self.force_close()

    wsgi.Response.process_headers = process  # type: ignore[method-assign]


_closing_when_the_app_says_so()
