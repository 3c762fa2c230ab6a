"""Benchmark: a whole match in one request against one score request, in-process (Flask's
test client).

    python bench/match.py [--rounds R]

Three requests, each timed R times (best kept; the three interleaved round by round, the
garbage collector paused):

- one `mcr` score request (a hand of the 16-hand match below, as `score` takes it);
- a 16-hand 国标 match (`POST /v1/rulesets/mcr/match`): wins on discards and self-draws by
  every player, a 错和 beside a win, a drawn hand, claims of one discard (截和), the players
  changing seats after each 圈. Target: <= 20 times the score request;
- a 20-round 血战 match (`POST /v1/rulesets/sichuan/match`): each round a concealed kong, two
  wins and a drawn game with 查大叫, as `settle` takes it. Target: <= 40 times the score
  request.

Prints each best time, the ratios and whether each target is met. Nothing here asserts.
"""

from __future__ import annotations

# isort: off
import _paths  # noqa: F401  (first: this folder behind the standard library)
# isort: on

import argparse
import gc
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from app.api import create_app  # noqa: E402

Body = dict[str, Any]
N9 = "[123m][456p]789s23sNN4s"  # 花龙: 8 on a discard, 9 self-drawn
TARGET_MCR = 20.0
TARGET_SICHUAN = 40.0


def _win(hand: str, winner: int, discarder: int | None) -> Body:
    context: Body = {"win_type": "self_draw" if discarder is None else "discard",
                     "winner": winner}
    if discarder is not None:
        context["discarder"] = discarder
    return {"win": {"hand": hand, "context": context}}


def mcr_match() -> Body:
    """16 hands: every kind of hand a 国标 match holds, every player winning."""
    hands: list[Body] = []
    for i in range(16):
        winner, other = i % 4, (i + 1) % 4
        kind = i % 5
        if kind == 0:
            hands.append(_win("123m123p123s789s5p5p", winner, other))
        elif kind == 1:
            hands.append(_win(N9, winner, None))
        elif kind == 2:
            hand = _win(N9, winner, None)
            hand["false_wins"] = [{"player": other, "win": {
                "hand": "[234m][567s]345p888s9m9m",
                "context": {"win_type": "discard", "winner": other, "discarder": winner}}}]
            hands.append(hand)
        elif kind == 3:
            hands.append({"drawn": {}})
        else:
            third = (i + 2) % 4
            hands.append({"claims": {"discarder": other, "claims": [
                _win(N9, winner, other), _win(N9, third, other)]}})
    return {"hands": hands}


SICHUAN_ROUND: Body = {
    "options": {"base": 1},
    "events": [{"type": "kong", "seat": 1, "kind": "concealed", "tile": "5m"},
               {"type": "win", "seat": 2, "hand": "222m333m777p888p44p",
                "context": {"win_type": "discard", "discarder": 3}},
               {"type": "win", "seat": 0, "hand": "123456789s23499s",
                "context": {"win_type": "self_draw"}},
               {"type": "draw", "hands": [
                   {"seat": 1, "hand": "{5555m}111m234m67m99m"},
                   {"seat": 3, "hand": "13579s2468p1357p", "passive_pig": False}]}]}


def sichuan_match() -> Body:
    return {"hands": [{"round": SICHUAN_ROUND} for _ in range(20)]}


def _best(client: Any, path: str, body: Body, best: float) -> float:
    start = time.perf_counter()
    answer = client.post(path, json=body)
    took = time.perf_counter() - start
    if answer.status_code != 200:
        raise SystemExit(f"{path}: {answer.status_code} {answer.get_data(as_text=True)[:300]}")
    return min(best, took)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--rounds", type=int, default=30, help="timings of each (default 30)")
    args = ap.parse_args(argv)
    client = create_app({"ACCESS_LOG": False}).test_client()
    score = mcr_match()["hands"][0]["win"]
    mcr, sichuan = mcr_match(), sichuan_match()
    requests = (("/v1/rulesets/mcr/score", score), ("/v1/rulesets/mcr/match", mcr),
                ("/v1/rulesets/sichuan/match", sichuan))
    best = [float("inf")] * 3
    for path, body in requests:  # warm every path once, untimed
        _best(client, path, body, 0.0)
    gc.collect()
    gc.disable()
    try:
        for _ in range(args.rounds):
            for i, (path, body) in enumerate(requests):
                best[i] = _best(client, path, body, best[i])
    finally:
        gc.enable()
    single, whole, rounds = (b * 1e3 for b in best)
    print(f"{'one mcr score request':44}{single:9.3f} ms")
    for name, took, target in (("a 16-hand mcr match", whole, TARGET_MCR),
                               ("a 20-round sichuan match", rounds, TARGET_SICHUAN)):
        ratio = took / single
        verdict = "met" if ratio <= target else "NOT met"
        print(f"{name:44}{took:9.3f} ms  {ratio:6.1f} x one score request "
              f"(target <= {target:.0f}: {verdict})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
