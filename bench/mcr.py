"""Benchmark: our `mcr` scoring against the reference calculator (pymahjonggb 1.4.0).

    python bench/mcr.py [--hands N] [--seed S] [--repeat R]

Uses the differential test's random legal hands (tests/mcr_reference/generator.py, same default
seed). Rule sets are loaded once and every hand and every oracle argument tuple is built before
timing. Each hand is timed with time.perf_counter_ns, R times, keeping the per-hand minimum;
ours and the reference are interleaved per hand (alternating which goes first) so that machine
noise hits both alike. Prints median and p99 microseconds per hand for both and the ratios, and
the ratio of each kind of hand. Targets: the median ratio (ours / reference) <= 5, and no kind
of hand above 12. Nothing here asserts: it reports.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from bodies import mcr_generator  # bench/bodies.py (this folder is on the path)
from timing import percentile

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_SEED = 20240601  # the differential test's default (MCR_DIFF_SEED)
TARGET_MEDIAN_RATIO = 5.0
TARGET_KIND_RATIO = 12.0


def _load_engine() -> tuple[Callable[..., Any], Any] | None:
    try:
        from app.rules.loader import load_rulesets
        from app.scoring.evaluate import score
    except ImportError as exc:
        print(f"our engine is not available ({exc}); timing the reference only")
        return None
    from app.scoring.build import engine_build

    # setup.py compiles the engine with mypyc when a C compiler is at hand (docs/extending.md).
    print(f"engine build: {engine_build()}")
    return score, load_rulesets(ROOT / "rulesets")["mcr"]


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--hands", type=int, default=2000, help="number of hands (default 2000)")
    ap.add_argument("--seed", type=int, default=DEFAULT_SEED, help=f"default {DEFAULT_SEED}")
    ap.add_argument("--repeat", type=int, default=5, help="timings per hand, min kept (default 5)")
    args = ap.parse_args(argv)

    gen = mcr_generator()
    calc = gen.MahjongFanCalculator
    t0 = time.perf_counter()
    generation = gen.generate(args.hands, args.seed)
    cases = generation.cases
    print(f"{len(cases)} hands, seed {args.seed}, {args.repeat} repetitions per hand "
          f"(generated in {time.perf_counter() - t0:.2f} s; oracle rejections "
          f"{generation.rejected})")

    engine = _load_engine()
    oracle_args = [c.oracle_args for c in cases]
    inputs = [(c.hand, c.ctx) for c in cases]
    ours_ns: list[int] = []
    ref_ns: list[int] = []
    perf = time.perf_counter_ns

    gc.collect()
    gc.disable()  # a collection landing inside one side's timing would bias that hand
    try:
        for i, a in enumerate(oracle_args):
            best_ref = best_ours = 1 << 62
            hand, ctx = inputs[i]
            for r in range(args.repeat):
                ours_first = (i + r) % 2 == 0
                if engine is not None and ours_first:
                    s = perf()
                    engine[0](hand, ctx, engine[1])
                    best_ours = min(best_ours, perf() - s)
                s = perf()
                calc(*a, verbose=True)
                best_ref = min(best_ref, perf() - s)
                if engine is not None and not ours_first:
                    s = perf()
                    engine[0](hand, ctx, engine[1])
                    best_ours = min(best_ours, perf() - s)
            ref_ns.append(best_ref)
            if engine is not None:
                ours_ns.append(best_ours)
            if i % 1000 == 999:
                gc.enable()
                gc.collect()
                gc.disable()
    finally:
        gc.enable()

    def us(values: Sequence[int]) -> tuple[float, float]:
        return statistics.median(values) / 1000, percentile(values, 99) / 1000

    ref_med, ref_p99 = us(ref_ns)
    print(f"{'':12}{'median µs':>12}{'p99 µs':>12}")
    print(f"{'reference':12}{ref_med:12.2f}{ref_p99:12.2f}")
    if engine is None:
        return 0
    our_med, our_p99 = us(ours_ns)
    print(f"{'ours':12}{our_med:12.2f}{our_p99:12.2f}")
    ratio = our_med / ref_med
    per_hand = statistics.median(o / r for o, r in zip(ours_ns, ref_ns, strict=True))
    print(f"{'ratio':12}{ratio:12.1f}{our_p99 / ref_p99:12.1f}   (ours / reference)")
    print(f"median of per-hand ratios: {per_hand:.1f}")

    by_kind: dict[str, list[int]] = defaultdict(list)
    for c, o, r in zip(cases, ours_ns, ref_ns, strict=True):
        by_kind[c.kind].append(o)
        by_kind[c.kind + "@ref"].append(r)
    print(f"\n{'kind':24}{'hands':>7}{'ours med µs':>14}{'ref med µs':>12}{'ratio':>8}")
    kind_ratios: dict[str, float] = {}
    for kind in sorted(k for k in by_kind if not k.endswith("@ref")):
        o_med = statistics.median(by_kind[kind]) / 1000
        r_med = statistics.median(by_kind[kind + "@ref"]) / 1000
        kind_ratios[kind] = o_med / r_med
        print(f"{kind:24}{len(by_kind[kind]):7}{o_med:14.2f}{r_med:12.2f}{o_med / r_med:8.1f}")

    verdict = "OK" if ratio <= TARGET_MEDIAN_RATIO else "NOT MET"
    print(f"\ntarget: median ratio {ratio:.1f} <= {TARGET_MEDIAN_RATIO:.0f}: {verdict}")
    worst = max(kind_ratios, key=kind_ratios.__getitem__)
    verdict = "OK" if kind_ratios[worst] <= TARGET_KIND_RATIO else "NOT MET"
    print(f"target: the slowest kind ({worst}) {kind_ratios[worst]:.1f} <= "
          f"{TARGET_KIND_RATIO:.0f}: {verdict}")
    _print_memos()
    return 0


def _print_memos() -> None:
    """The engine's memos after the run: entries held and each bound."""
    try:
        from app.scoring.memory import memory_bounds
    except ImportError:
        return
    print(f"\n{'engine memo':32}{'entries':>10}{'bound':>10}")
    for name, (bound, size) in memory_bounds().items():
        print(f"{name:32}{size:10}{bound:10}")


if __name__ == "__main__":
    raise SystemExit(main())
