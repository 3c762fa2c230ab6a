"""The container image: it builds from the Dockerfile, serves as `./run serve` does under a
numeric non-root uid, and holds the service only (no tests, no benchmarks).

It needs a container engine (docker or podman) that can build; without one it is skipped,
saying so. Building takes a few minutes (the engine is compiled in the build stage).
"""

from __future__ import annotations

import http.client
import json
import shutil
import socket
import subprocess
import time
import uuid
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ENGINE = next((e for e in ("docker", "podman") if shutil.which(e)), None)


def _engine_works() -> bool:
    if ENGINE is None:
        return False
    return subprocess.run([ENGINE, "info"], capture_output=True, timeout=60).returncode == 0


pytestmark = pytest.mark.skipif(
    not _engine_works(),
    reason="no container engine here (docker or podman that answers `info`): the image is "
           "built and run where one is")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_the_image_builds_serves_and_holds_the_service_only() -> None:
    assert ENGINE is not None
    tag = f"mahjong-scoring-test:{uuid.uuid4().hex[:8]}"
    subprocess.run([ENGINE, "build", "-t", tag, str(ROOT)], check=True, timeout=1800)
    port = _free_port()
    name = f"mahjong-{uuid.uuid4().hex[:8]}"
    try:
        listing = subprocess.run([ENGINE, "run", "--rm", tag, "ls", "/srv/mahjong"],
                                 check=True, capture_output=True, text=True).stdout.split()
        assert {"app", "rulesets", "run"} <= set(listing)
        assert not {"tests", "bench", "docs", ".git"} & set(listing)
        who = subprocess.run([ENGINE, "run", "--rm", tag, "id", "-u"], check=True,
                             capture_output=True, text=True).stdout.strip()
        assert who == "10001"
        subprocess.run([ENGINE, "run", "-d", "--name", name, "-p", f"127.0.0.1:{port}:8000",
                        tag], check=True, timeout=120)
        deadline = time.monotonic() + 120
        while True:
            try:
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
                conn.request("GET", "/readyz")
                response = conn.getresponse()
                if response.status == 200:
                    break
            except OSError:
                pass
            assert time.monotonic() < deadline, "the container did not become ready"
            time.sleep(1)
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        body = json.dumps({"hand": "1112345678999m5m", "context": {"win_type": "self_draw"}})
        conn.request("POST", "/v1/rulesets/mcr/score", body=body,
                     headers={"Content-Type": "application/json"})
        scored = conn.getresponse()
        assert scored.status == 200 and json.loads(scored.read())["winning"] is True
        # The code is root's: the service's user cannot change it.
        touched = subprocess.run([ENGINE, "exec", name, "touch", "/srv/mahjong/app/x"],
                                 capture_output=True)
        assert touched.returncode != 0
    finally:
        subprocess.run([ENGINE, "rm", "-f", name], capture_output=True)
        subprocess.run([ENGINE, "rmi", "-f", tag], capture_output=True)
