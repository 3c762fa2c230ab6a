"""What the HTTP benchmarks share (bench/http.py, bench/memory.py): a gunicorn server started as
`./run serve` starts it (the project's gunicorn.conf.py), bound to a free loopback port, that
is stopped on every way out, and a one-shot HTTP request.

A script importing this must have put the standard library's `http` ahead of this folder on
sys.path first (bench/http.py shares its name).
"""

from __future__ import annotations

import contextlib
import http.client
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from types import FrameType

ROOT = Path(__file__).resolve().parents[1]
HOST = "127.0.0.1"
CLK_TCK = os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


def gunicorn_command(port: int, app: str, extra: Sequence[str]) -> list[str]:
    """gunicorn as `./run serve` runs it (the project's config file), bound to loopback."""
    script = Path(sys.executable).parent / "gunicorn"
    start = [str(script)] if script.exists() else [sys.executable, "-m", "gunicorn"]
    return [*start, "-c", "gunicorn.conf.py", "--bind", f"{HOST}:{port}", *extra, app]


class Server:
    """A gunicorn master in its own session (so stopping it stops its workers)."""

    def __init__(self, name: str, app: str, extra: Sequence[str], logdir: Path) -> None:
        self.name = name
        self.port = free_port()
        self.log = logdir / f"{name}.log"
        with self.log.open("wb") as out:
            self.proc = subprocess.Popen(gunicorn_command(self.port, app, extra), cwd=ROOT,
                                         stdout=out, stderr=subprocess.STDOUT,
                                         start_new_session=True)

    def wait_ready(self, method: str, path: str, body: bytes | None = None,
                   limit: float = 60.0) -> None:
        deadline = time.monotonic() + limit
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(f"{self.name} exited:\n{self.tail()}")
            with contextlib.suppress(OSError, http.client.HTTPException):
                if request(self.port, method, path, body, timeout=2.0)[0] == 200:
                    return
            if time.monotonic() > deadline:
                raise RuntimeError(f"{self.name} not ready after {limit:.0f} s:\n{self.tail()}")
            time.sleep(0.2)

    def tail(self, lines: int = 20) -> str:
        return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])

    def pids(self) -> list[int]:
        """The master and its workers (workers are the master's children)."""
        out = [self.proc.pid]
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                with contextlib.suppress(OSError, IndexError, ValueError):
                    stat = (entry / "stat").read_text()
                    if int(stat.rsplit(")", 1)[1].split()[1]) == self.proc.pid:
                        out.append(int(entry.name))
        return out

    def cpu_seconds(self) -> float:
        """CPU seconds used so far by the master and its workers, those gunicorn replaced
        included (a reaped worker's time moves into the master's children's time)."""
        total = 0
        for pid in self.pids():
            with contextlib.suppress(OSError, IndexError, ValueError):
                fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
                total += int(fields[11]) + int(fields[12])  # utime, stime
                if pid == self.proc.pid:
                    total += int(fields[13]) + int(fields[14])  # cutime, cstime
        return total / CLK_TCK

    def stop(self) -> None:
        if self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()


@contextlib.contextmanager
def servers_stopped_on_exit(running: list[Server]) -> Iterator[None]:
    """Stop every server on the way out: normal end, exception, Ctrl-C or SIGTERM."""
    def on_term(signum: int, frame: FrameType | None) -> None:
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, on_term)
    try:
        yield
    finally:
        for s in running:
            s.stop()
        signal.signal(signal.SIGTERM, previous)


def request(port: int, method: str, path: str, body: bytes | None = None,
            timeout: float = 10.0) -> tuple[int, str, bytes]:
    conn = http.client.HTTPConnection(HOST, port, timeout=timeout)
    try:
        headers = {"Content-Type": "application/json"} if body is not None else {}
        conn.request(method, path, body=body, headers=headers)
        response = conn.getresponse()
        return response.status, response.getheader("Content-Type", ""), response.read()
    finally:
        conn.close()


def run_main(main: Callable[[], int]) -> None:
    """Run a benchmark's `main` as a script: its exit code, or 130 on Ctrl-C (the servers are
    stopped on the way out)."""
    try:
        raise SystemExit(main())
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        raise SystemExit(130) from None
