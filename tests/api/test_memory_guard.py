"""The memory guard (app/api/memory_guard.py): a worker's resident memory after any request
stays within its allowance, the worker giving back what it can, or being replaced.

- the guard's steps in order, on a fake memory: nothing while within the allowance, a trim
  first, then the memos emptied, then a replacement; a short request is checked only now
  and then;
- served: one worker answers a batch of explained waits of `tianjin` hands holding six or
  seven wild tiles (indicator E: E and S wild), the heaviest kind of request there is; a moment
  later its resident memory is within `BOUND_MIB` of what it held before the batch (the
  allowance's headroom, 40 MiB by default), whether it gave the memory back or was replaced.
"""

from __future__ import annotations

import json
import random
import re
import time
from pathlib import Path

import pytest

from app.api.memory_guard import CHECK_AFTER_S, CHECK_EVERY, MemoryGuard
from tests.api.test_serve import _request, _running

MIB = 2**20


class FakeMemory:
    def __init__(self, resident: int) -> None:
        self.resident = resident
        self.calls: list[str] = []
        self.after_trim = self.after_forget = resident

    def read(self) -> int:
        return self.resident

    def trim(self) -> None:
        self.calls.append("trim")
        self.resident = min(self.resident, self.after_trim)

    def forget(self) -> None:
        self.calls.append("forget")
        self.resident = min(self.resident, self.after_forget)


def _guard(memory: FakeMemory) -> MemoryGuard:
    return MemoryGuard(40 * MIB, read=memory.read, trim=memory.trim, forget=memory.forget)


def test_within_the_allowance_nothing_is_done() -> None:
    memory = FakeMemory(100 * MIB)
    guard = _guard(memory)
    memory.resident = 139 * MIB
    guard.answered(1.0)
    assert guard.check() is False and memory.calls == []


def test_past_it_a_trim_then_the_memos_then_a_replacement() -> None:
    memory = FakeMemory(100 * MIB)
    guard = _guard(memory)
    memory.resident, memory.after_trim = 300 * MIB, 120 * MIB
    guard.answered(1.0)
    assert guard.check() is False and memory.calls == ["trim"]

    memory.calls.clear()
    memory.resident, memory.after_trim, memory.after_forget = 300 * MIB, 200 * MIB, 130 * MIB
    guard.answered(1.0)
    assert guard.check() is False and memory.calls == ["trim", "forget", "trim"]

    memory.calls.clear()
    memory.resident, memory.after_trim, memory.after_forget = 300 * MIB, 250 * MIB, 200 * MIB
    guard.answered(1.0)
    assert guard.check() is True and memory.calls == ["trim", "forget", "trim"]
    assert guard.allowance == 140 * MIB


def test_a_short_request_is_checked_only_now_and_then() -> None:
    memory = FakeMemory(100 * MIB)
    guard = _guard(memory)
    memory.resident, memory.after_trim = 300 * MIB, 100 * MIB
    for _ in range(CHECK_EVERY - 1):
        guard.answered(CHECK_AFTER_S / 2)
        assert guard.check() is False
    assert memory.calls == []
    guard.answered(CHECK_AFTER_S / 2)
    assert guard.check() is False and memory.calls == ["trim"]
    assert guard.check() is False and memory.calls == ["trim"]  # once per time it is due


@pytest.mark.parametrize("value", ["0", "-5", "lots"])
def test_a_headroom_that_is_no_number_of_mib_stops_the_worker(
        monkeypatch: pytest.MonkeyPatch, value: str) -> None:
    monkeypatch.setenv("MAHJONG_MEMORY_HEADROOM_MIB", value)
    with pytest.raises(ValueError, match="MAHJONG_MEMORY_HEADROOM_MIB"):
        MemoryGuard.from_environment()


BOUND_MIB = 20
HEAVY_HANDS = 150
KINDS = [f"{n}{s}" for s in "mps" for n in range(1, 10)] + ["W", "N", "C", "F", "P"]


def _heavy_hand(rng: random.Random) -> str:
    """13 tiles of which six or seven are wild under indicator E (E and S; the indicator is
    one of the four E)."""
    wild = rng.choice([6, 7])
    east = rng.randint(wild - 4, 3)
    tiles = ["E"] * east + ["S"] * (wild - east)
    while len(tiles) < 13:
        kind = rng.choice(KINDS)
        if tiles.count(kind) < 4:
            tiles.append(kind)
    return "".join(tiles)


def _resident_mib(pid: int) -> float:
    status = Path(f"/proc/{pid}/status").read_text()
    found = re.search(r"^VmRSS:\s+(\d+) kB", status, re.M)
    assert found, status
    return int(found.group(1)) / 1024


def _workers(log: Path) -> list[int]:
    return [int(p) for p in re.findall(r"Booting worker with pid: (\d+)", log.read_text())]


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="no /proc to read memory from")
def test_a_heavy_wild_batch_leaves_the_worker_within_its_bound(tmp_path: Path) -> None:
    rng = random.Random(37)
    body = json.dumps({"requests": [
        {"hand": _heavy_hand(rng), "context": {"win_type": "self_draw", "wild_indicator": "E"}}
        for _ in range(HEAVY_HANDS)]}).encode()
    with _running(tmp_path, MAHJONG_TIME_LIMIT="300",
                  MAHJONG_MEMORY_HEADROOM_MIB=str(BOUND_MIB)) as (port, log):
        for _ in range(20):  # warm: the rule sets' common memos
            assert _request(port, "GET", "/v1/rulesets/tianjin")[0] == 200
        (worker,) = _workers(log)
        before = _resident_mib(worker)
        status, _, answer = _request(port, "POST", "/v1/rulesets/tianjin/waits/batch?explain=true",
                                     body, {"Content-Type": "application/json"}, timeout=300)
        assert status == 200
        assert sum("result" in item for item in answer["results"]) == HEAVY_HANDS
        del answer
        deadline = time.monotonic() + 10
        while True:
            now = _workers(log)[-1]
            try:
                after = _resident_mib(now)
            except FileNotFoundError:  # replaced in between: read the new one
                continue
            if after <= before + BOUND_MIB or time.monotonic() > deadline:
                break
            time.sleep(0.2)
        assert after <= before + BOUND_MIB, (before, after, log.read_text()[-2000:])
