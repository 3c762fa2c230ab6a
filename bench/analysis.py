"""Benchmark: the discard analysis (牌效, `app.scoring.analysis`) per hand.

    python bench/analysis.py [--hands N] [--seed S] [--heavy-only]

Six timings, each per hand, median and p99 in milliseconds, every hand timed once on its
first analysis (the engine's memos warm from a warm-up on other hands, never from the hand
itself: what a serving worker sees):

1. a 14-tile `mcr` hand without scoring the waits of the discards that leave it ready
   (`analyse(..., score_waits=False)`): the shanten, useful tiles and copies left of every
   discard. Target: median <= 2 ms;
2. the same hands with the waits scored (what `POST .../analysis` answers). Target: p99 <=
   20 ms;
3. 14-tile `tianjin` hands holding 2 and 3 wild tiles, without and with the waits scored
   (other hands each way). Target (3 wilds): p99 <= 50 ms;
4. the shanten number alone (`analysis.shanten`) of 13-tile `mcr` hands against the reference
   library's `MahjongShanten` (pymahjonggb 1.4.0) on the same hands, interleaved per hand (each
   the minimum of 5 timings: the number alone is a few microseconds), and the ratio of the
   medians (ours / reference);
5. 14-tile `tianjin` hands holding 5, 6 and 7 wild tiles (a third each), waits scored.
   Target: p99 <= 50 ms. With the ratios of its median and p99 to those of the same hands
   analysed without scoring the waits (timed just before, the memos then warm alike);
6. `waits` of 13-tile `tianjin` hands holding 7 wild tiles (every tile completes most of
   them). Target: p99 <= 50 ms. With the ratios to the same hands' analysis without scoring.
7. timings 5 and 6 on other hands of the same kinds, the garbage collector on (every other
   timing here pauses it): as a serving worker runs it (`app.service.collector`: young
   generations only during a request, a full collection between two requests when due),
   then as CPython runs it by default (a full collection every ten of the middle
   generation, wherever it falls). What a client of the service sees.

`--heavy-only` runs timings 5 to 7 alone. `--slowest N` lists, after timing 5, its N slowest
hands (their place in the timing, wilds, tiles and time): the p99 is made by a few of them.
The first line names the build and the folder the engine was imported from (run from another
checkout with `PYTHONPATH=.` to time that one).

Hands: half random tiles, half near-ready (four sets and a pair, one to two tiles swapped for
random ones), seeded. Nothing here asserts: it reports, and says whether each target is met.
"""

from __future__ import annotations

# isort: off
import _paths  # noqa: F401  (first: this folder behind the standard library)
# isort: on

import argparse
import gc
import random
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, cast

from timing import percentile

import app
from app.domain.hand import WinContext
from app.rules.loader import load_rulesets
from app.rules.model import RuleSet
from app.scoring.analysis import analyse, shanten
from app.scoring.build import engine_build
from app.scoring.waits import waits
from app.service import collector

ROOT = Path(__file__).resolve().parents[1]
WALL = [t for t in range(34) for _ in range(4)]
WARM_UP = 200
DEFAULT_SEED = 27
# CPython's default thresholds of the garbage collector's three generations.
CPYTHON_THRESHOLDS = (700, 10, 10)


def _near(rng: random.Random, size: int, kinds: Sequence[int],
          limit: Callable[[list[int], int], bool]) -> list[int]:
    """Sets and a pair (to `size` + 1 tiles), one tile dropped, 1-2 swapped for random."""
    tiles: list[int] = []
    while len(tiles) < size + 1:
        t = rng.choice(kinds)
        group = [t, t + 1, t + 2] if t % 9 < 7 and t < 27 and rng.random() < 0.6 else [t] * 3
        if all(limit(tiles + group, x) for x in group):
            tiles += group
    tiles = tiles[:size - 2] + [tiles[0]] * 0
    while len(tiles) < size:
        t = rng.choice(kinds)
        if limit([*tiles, t, t], t):
            tiles += [t, t]
    tiles = tiles[:size]
    for _ in range(rng.choice((1, 2))):
        tiles.pop(rng.randrange(len(tiles)))
        while True:
            t = rng.choice(kinds)
            if limit([*tiles, t], t):
                tiles.append(t)
                break
    return tiles


def mcr_hands(n: int, size: int, seed: int) -> list[list[int]]:
    rng = random.Random(seed)

    def fits(tiles: list[int], t: int) -> bool:
        return tiles.count(t) <= 4

    return [rng.sample(WALL, size) if i % 2 else _near(rng, size, range(34), fits)
            for i in range(n)]


def tianjin_hands(n: int, wilds: int, seed: int,
                  size: int = 14) -> list[tuple[list[int], WinContext]]:
    """`size`-tile hands holding exactly `wilds` wild tiles; the indicator out of play."""
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        indicator = rng.randrange(34)
        after = indicator + 1 if indicator % 9 != 8 or indicator >= 27 else indicator - 8
        if indicator >= 27:
            after = {30: 27, 33: 31}.get(indicator, indicator + 1)
        wild = sorted({indicator, after})
        naturals = [t for t in range(34) if t not in wild]

        def fits(tiles: list[int], t: int, ind: int = indicator) -> bool:
            return tiles.count(t) + (t == ind) <= 4

        base = (_near(rng, size - wilds, naturals, fits) if rng.random() < 0.5
                else rng.sample([t for t in WALL if t in naturals], size - wilds))
        hand = base + [rng.choice(wild) for _ in range(wilds)]
        if all(fits(hand, t) for t in hand):
            out.append((hand, WinContext("self_draw", wild_indicator=indicator,
                                         wilds=tuple(wild))))
    return out


# How the garbage collector runs while items are timed: paused (every timing but 7), as a
# serving worker runs it (app.service.collector: a full collection between two items when
# one is due, outside the timing), or as CPython runs it by default.
PAUSED, SERVED, CPYTHON = "paused", "served", "cpython"


def _times(run: Callable[[Any], object], items: Sequence[Any],
           collector_mode: str = PAUSED) -> list[float]:
    """Milliseconds per item, each item timed once, the collector as `collector_mode` says."""
    perf = time.perf_counter_ns
    out = []
    thresholds = gc.get_threshold()
    gc.collect()
    if collector_mode == PAUSED:
        gc.disable()
    elif collector_mode == SERVED:
        collector.tune()
    else:
        gc.set_threshold(*CPYTHON_THRESHOLDS)
    between = collector.between if collector_mode == SERVED else None
    try:
        for item in items:
            start = perf()
            run(item)
            out.append((perf() - start) / 1e6)
            if between is not None:
                between()
    finally:
        gc.enable()
        gc.set_threshold(*thresholds)
    return out


def _line(name: str, ms: list[float], target: str = "") -> None:
    print(f"{name:<44} median {percentile(ms, 50):7.3f} ms   p99 {percentile(ms, 99):7.3f} ms"
          f"   ({len(ms)} hands){target}")


def _meets(ok: bool, what: str) -> str:
    return f"   target {what}: {'met' if ok else 'NOT met'}"


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--hands", type=int, default=1000, help="hands per timing (default 1000)")
    ap.add_argument("--seed", type=int, default=DEFAULT_SEED, help=f"default {DEFAULT_SEED}")
    ap.add_argument("--heavy-only", action="store_true",
                    help="only the tianjin hands of 5-7 wilds (timings 5 to 7)")
    ap.add_argument("--slowest", type=int, default=0, metavar="N",
                    help="list the N slowest hands of timing 5")
    args = ap.parse_args(argv)
    print(f"engine build: {engine_build()}, the app from {Path(app.__file__).parents[1]}")
    rulesets = load_rulesets(ROOT / "rulesets")
    mcr, tianjin = cast(RuleSet, rulesets["mcr"]), cast(RuleSet, rulesets["tianjin"])
    if args.heavy_only:
        heavy(tianjin, args.hands, args.seed, args.slowest)
        return 0
    ctx = WinContext("self_draw", options=mcr.option_defaults)

    warm = mcr_hands(WARM_UP, 14, args.seed + 1000)
    for h in warm:
        analyse(h, (), ctx, mcr)
    hands = mcr_hands(args.hands, 14, args.seed)
    bare = _times(lambda h: analyse(h, (), ctx, mcr, score_waits=False), hands)
    _line("mcr 14 tiles, waits not scored", bare,
          _meets(percentile(bare, 50) <= 2, "median <= 2 ms"))
    more = mcr_hands(args.hands, 14, args.seed + 1)  # fresh hands: none seen above
    scored = _times(lambda h: analyse(h, (), ctx, mcr), more)
    _line("mcr 14 tiles, waits scored", scored,
          _meets(percentile(scored, 99) <= 20, "p99 <= 20 ms"))

    topts = tianjin.option_defaults
    for h, c in tianjin_hands(WARM_UP // 4, 2, args.seed + 2000):
        analyse(h, (), c._replace(options=topts), tianjin)
    for wilds in (2, 3):
        tj = [(h, c._replace(options=topts))
              for h, c in tianjin_hands(max(args.hands // 4, 50), wilds, args.seed + wilds)]
        ms = _times(lambda hc: analyse(hc[0], (), hc[1], tianjin, score_waits=False), tj)
        target = _meets(percentile(ms, 99) <= 50, "p99 <= 50 ms") if wilds == 3 else ""
        _line(f"tianjin 14 tiles, {wilds} wilds, waits not scored", ms, target)
        tj = [(h, c._replace(options=topts))
              for h, c in tianjin_hands(max(args.hands // 4, 50), wilds, args.seed + 10 + wilds)]
        ms = _times(lambda hc: analyse(hc[0], (), hc[1], tianjin), tj)
        target = _meets(percentile(ms, 99) <= 50, "p99 <= 50 ms") if wilds == 3 else ""
        _line(f"tianjin 14 tiles, {wilds} wilds, waits scored", ms, target)

    heavy(tianjin, args.hands, args.seed, args.slowest)
    shanten_alone(mcr, ctx, mcr_hands(args.hands, 13, args.seed + 3))
    return 0


def heavy(tianjin: RuleSet, hands: int, seed: int, slowest: int = 0) -> None:
    """Timings 5 to 7: `tianjin` hands holding many wilds, after a warm-up on others; the
    `slowest` hands of timing 5 listed."""
    topts = tianjin.option_defaults
    for h, c in tianjin_hands(WARM_UP // 4, 6, seed + 3000):
        analyse(h, (), c._replace(options=topts), tianjin)
    tj = [(h, c._replace(options=topts))
          for i in range(3)
          for h, c in tianjin_hands(max(hands // 12, 20), 5 + i, seed + 20 + i)]
    bare = _times(lambda hc: analyse(hc[0], (), hc[1], tianjin, score_waits=False), tj)
    ms = _times(lambda hc: analyse(hc[0], (), hc[1], tianjin), tj)
    _line("tianjin 14 tiles, 5-7 wilds, waits scored", ms,
          _meets(percentile(ms, 99) <= 50, "p99 <= 50 ms"))
    _ratio("  against the same hands, waits not scored", ms, bare)
    for i in sorted(range(len(ms)), key=lambda i: -ms[i])[:slowest]:
        hand, ctx = tj[i]
        wilds = sum(1 for t in hand if t in ctx.wilds)
        print(f"    hand {i}: {wilds} wilds, tiles {sorted(hand)}, {ms[i]:.3f} ms")
    tj = [(h, c._replace(options=topts))
          for h, c in tianjin_hands(max(hands // 4, 50), 7, seed + 30, size=13)]
    bare = _times(lambda hc: analyse(hc[0], (), hc[1], tianjin, score_waits=False), tj)
    ms = _times(lambda hc: waits(tuple(hc[0]), (), hc[1], tianjin), tj)
    _line("tianjin 13 tiles, 7 wilds, waits", ms,
          _meets(percentile(ms, 99) <= 50, "p99 <= 50 ms"))
    _ratio("  against their analysis, waits not scored", ms, bare)
    # The same kinds of hand (others, for memos alike) with the collector on: as served,
    # then as CPython collects by default.
    for tuned, mode, how in ((1, SERVED, "as served"), (0, CPYTHON, "CPython's default")):
        tj = [(h, c._replace(options=topts))
              for i in range(3)
              for h, c in tianjin_hands(max(hands // 12, 20), 5 + i, seed + 40 + 10 * tuned + i)]
        ms = _times(lambda hc: analyse(hc[0], (), hc[1], tianjin), tj, mode)
        _line(f"  gc {how}: 14 tiles, 5-7 wilds", ms)
        tj = [(h, c._replace(options=topts))
              for h, c in tianjin_hands(max(hands // 4, 50), 7, seed + 60 + tuned, size=13)]
        ms = _times(lambda hc: waits(tuple(hc[0]), (), hc[1], tianjin), tj, mode)
        _line(f"  gc {how}: 13 tiles, waits", ms)


def _ratio(name: str, ms: list[float], reference: list[float]) -> None:
    """The ratios of the medians and of the p99s to a reference timed in the same run."""
    print(f"{name:<44} ratio of the medians {percentile(ms, 50) / percentile(reference, 50):6.1f}"
          f"   of the p99s {percentile(ms, 99) / percentile(reference, 99):6.1f}")


def shanten_alone(mcr: RuleSet, ctx: WinContext, hands: list[list[int]]) -> None:
    try:
        from MahjongGB import MahjongShanten  # type: ignore[import-not-found]
    except ImportError as exc:
        print(f"the reference library is not available ({exc}): shanten alone not compared")
        return
    suit = "WTB"
    honours = ("F1", "F2", "F3", "F4", "J1", "J2", "J3")
    ref_args = [tuple(f"{suit[t // 9]}{t % 9 + 1}" if t < 27 else honours[t - 27] for t in h)
                for h in hands]
    perf = time.perf_counter_ns
    ours: list[float] = []
    ref: list[float] = []
    gc.collect()
    gc.disable()
    try:
        for i, h in enumerate(hands):
            a = ref_args[i]
            best_ours = best_ref = 1 << 62
            for r in range(5):
                for side in ((0, 1) if (i + r) % 2 else (1, 0)):
                    start = perf()
                    if side == 0:
                        got = shanten(h, (), ctx, mcr)
                        best_ours = min(best_ours, perf() - start)
                    else:
                        want = MahjongShanten((), a)
                        best_ref = min(best_ref, perf() - start)
            if r == 4 and i < 50:
                assert got == want, (h, got, want)  # the same numbers (checked on a few)
            ours.append(best_ours / 1e3)
            ref.append(best_ref / 1e3)
    finally:
        gc.enable()
    mo, mr = percentile(ours, 50), percentile(ref, 50)
    print(f"{'shanten alone, 13 tiles: ours':<44} median {mo:7.1f} us   p99 "
          f"{percentile(ours, 99):7.1f} us")
    print(f"{'shanten alone: MahjongShanten (reference)':<44} median {mr:7.1f} us   p99 "
          f"{percentile(ref, 99):7.1f} us")
    print(f"ratio of the medians (ours / reference): {mo / mr:.1f}")


if __name__ == "__main__":
    raise SystemExit(main())
