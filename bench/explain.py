"""Benchmark: what `?explain=true` costs: `score` against `explained` on the same hands.

    python bench/explain.py [--hands N] [--seed S] [--repeat R]

N random legal MCR hands (default 2000, the differential test's generator) are scored both
ways, interleaved hand by hand (alternating which goes first) so that machine noise hits
both alike; each hand is timed R times per side (default 5) and the minimum kept, with the
garbage collector paused. Prints the median and p99 in microseconds of each side and their
ratio (explained / plain): the price of an explanation, relative to the plain score measured
in the same run.
"""

from __future__ import annotations

# isort: off
import _paths  # noqa: F401  (first: this folder behind the standard library)
# isort: on

import argparse
import gc
import time
from collections.abc import Sequence
from pathlib import Path

from bodies import mcr_generator  # bench/bodies.py (this folder is on the path)
from timing import percentile

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_SEED = 20240601


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--hands", type=int, default=2000, help="number of hands (default 2000)")
    ap.add_argument("--seed", type=int, default=DEFAULT_SEED, help=f"default {DEFAULT_SEED}")
    ap.add_argument("--repeat", type=int, default=5, help="timings per hand, min kept (default 5)")
    args = ap.parse_args(argv)

    from app.rules.loader import load_rulesets
    from app.scoring.build import engine_build
    from app.scoring.evaluate import score
    from app.scoring.explain import explained

    print(f"engine build: {engine_build()}")
    rs = load_rulesets(ROOT / "rulesets")["mcr"]
    cases = mcr_generator().generate(args.hands, args.seed).cases
    plain: list[float] = []
    explaining: list[float] = []
    clock = time.perf_counter
    gc.disable()
    try:
        for i, case in enumerate(cases):
            hand, ctx = case.hand, case.ctx
            best = {"plain": float("inf"), "explained": float("inf")}
            sides = [("plain", score), ("explained", explained)]
            if i % 2:
                sides.reverse()
            for _ in range(args.repeat):
                for name, fn in sides:
                    t0 = clock()
                    fn(hand, ctx, rs)
                    best[name] = min(best[name], clock() - t0)
            plain.append(best["plain"] * 1e6)
            explaining.append(best["explained"] * 1e6)
    finally:
        gc.enable()
    print(f"{len(cases)} hands, seed {args.seed}, {args.repeat} repetitions per hand")
    print(f"{'':>10} {'median µs':>10} {'p99 µs':>10}")
    for name, values in (("plain", plain), ("explained", explaining)):
        print(f"{name:>10} {percentile(values, 50):>10.1f} {percentile(values, 99):>10.1f}")
    median = percentile(explaining, 50) / percentile(plain, 50)
    p99 = percentile(explaining, 99) / percentile(plain, 99)
    print(f"ratio explained / plain: median {median:.2f}, p99 {p99:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
