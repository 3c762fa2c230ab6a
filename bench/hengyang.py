"""Benchmark: the time to score one 衡阳六胡抢 hand (word cards), with references measured in
the same run.

    python bench/hengyang.py [--hands N] [--seed S] [--repeat R]

N random legal requests (default 3000, a third per win type; the brute-force test's
generator, tests/scoring/hengyang_oracle.py: about 40% can be arranged) are read into the
engine's values before timing, then scored with `score(hand, ctx, ruleset)`; each hand is
timed R times (default 5) and the minimum kept, with the garbage collector paused. Printed:
the median, p99 and worst in microseconds, the worst hand itself, and two ratios against
references timed alike and interleaved hand by hand, so that machine noise hits all sides:

- the brute force (every assignment of cards to groups) on the same hands;
- the MCR engine on as many random 国标 hands (the differential test's generator), the cost of
  a mahjong hand on this machine.
"""

from __future__ import annotations

# isort: off
import _paths  # noqa: F401  (first: this folder behind the standard library)
# isort: on

import argparse
import gc
import importlib.util
import random
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, cast

from bodies import mcr_generator  # bench/bodies.py (this folder is on the path)
from timing import percentile

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_SEED = 20261201


def _oracle() -> Any:
    spec = importlib.util.spec_from_file_location(
        "hengyang_oracle", ROOT / "tests" / "scoring" / "hengyang_oracle.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["hengyang_oracle"] = module
    spec.loader.exec_module(module)
    return module


def _best(fn: Callable[[], object], repeat: int, clock: Callable[[], float]) -> float:
    best = float("inf")
    for _ in range(repeat):
        t0 = clock()
        fn()
        best = min(best, clock() - t0)
    return best * 1e6


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--hands", type=int, default=3000, help="number of hands (default 3000)")
    ap.add_argument("--seed", type=int, default=DEFAULT_SEED, help=f"default {DEFAULT_SEED}")
    ap.add_argument("--repeat", type=int, default=5, help="timings per hand, min kept (default 5)")
    args = ap.parse_args(argv)

    sys.path.insert(0, str(ROOT))
    from app.domain.arrange import Piece
    from app.domain.card_hand import CardHand, CardWin
    from app.rules.cards.model import CardRuleSet
    from app.rules.families import CARDS, family_of
    from app.rules.loader import load_rulesets
    from app.scoring.arranged import score
    from app.scoring.build import engine_build
    from app.scoring.evaluate import score as mcr_score

    print(f"engine build: {engine_build()}")
    loaded = load_rulesets(ROOT / "rulesets")
    rs = cast(CardRuleSet, next(r for r in loaded.values() if family_of(r) == CARDS))
    mcr = loaded["mcr"]
    oracle = _oracle()
    deck = rs.deck
    rng = random.Random(args.seed)
    inputs = []
    for i in range(args.hands):
        wt = oracle.WIN_TYPES[i % len(oracle.WIN_TYPES)]
        req = oracle.random_request(rng, wt)
        h, c = req["hand"], req["context"]
        table = tuple(Piece(g["kind"], tuple(sorted(deck.parse_cards(g["cards"], ""))))
                      for g in h["groups"])
        payer = c["discarder"] if wt == "discard" else c["flipper"]
        ctx = CardWin(wt, c["winner"], c["dealer"], payer, rs.players,
                      {}, {}, dict(rs.option_defaults))
        hand = CardHand(deck.parse_codes(h["cards"], ""), table, deck.by_code[h["win_card"]])
        inputs.append((hand, ctx, oracle.request_args(req)))
    mcr_cases = mcr_generator().generate(args.hands, args.seed).cases

    ours: list[float] = []
    brute: list[float] = []
    mahjong: list[float] = []
    worst = (0.0, None)
    clock = time.perf_counter
    gc.disable()
    try:
        for (hand, ctx, brute_args), case in zip(inputs, mcr_cases, strict=True):
            t = _best(lambda: score(hand, ctx, rs), args.repeat, clock)  # noqa: B023
            ours.append(t)
            if t > worst[0]:
                worst = (t, hand)
            brute.append(_best(lambda: oracle.best_arrangement(*brute_args),  # noqa: B023
                               args.repeat, clock))
            mahjong.append(_best(lambda: mcr_score(case.hand, case.ctx, mcr),  # noqa: B023
                                 args.repeat, clock))
    finally:
        gc.enable()
    print(f"{len(inputs)} hands, seed {args.seed}, {args.repeat} repetitions per hand")
    print(f"{'':>12} {'median µs':>10} {'p99 µs':>10} {'worst µs':>10}")
    for name, values in (("hengyang", ours), ("brute force", brute), ("mcr", mahjong)):
        print(f"{name:>12} {percentile(values, 50):>10.1f} {percentile(values, 99):>10.1f} "
              f"{max(values):>10.1f}")
    if worst[1] is not None:
        hand = worst[1]
        groups = " ".join(f"[{deck.format_group(g.cards)}]" for g in hand.table)
        print(f"worst hand: {groups}{deck.format_hand(hand.cards)}, "
              f"winning card {deck.cards[hand.win_card].code}")
    for name, ref in (("brute force", brute), ("mcr", mahjong)):
        print(f"ratio hengyang / {name}: median {percentile(ours, 50) / percentile(ref, 50):.2f}"
              f", p99 {percentile(ours, 99) / percentile(ref, 99):.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
