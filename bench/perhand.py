"""Benchmark: what one MCR hand costs, from the engine to the command-line scorer, against the
reference calculator (pymahjonggb's `MahjongFanCalculator`) on the same hands, in one run.

    python bench/perhand.py [--hands N] [--seed S] [--rounds R] [--cli-hands M] [--cli-runs K]

The hands are the differential test's random legal MCR hands (tests/mcr_reference/
generator.py), written as a game server sends them (bench/bodies.py's `mcr_case_bodies`: hand
object, every context field); the reference is called with each case's own arguments, so both
sides score the same hands. In each of R rounds, four things are timed per hand, in two
pairs interleaved hand by hand (which side goes first alternates), the garbage collector
paused:

- the reference calculator (`verbose=True`, as bench/mcr.py calls it) and the engine,
  `evaluate.score` on the hand read beforehand (the pair bench/mcr.py times);
- a score request through Flask's test client (the service as a game server reaches it:
  every operations feature on, the access log written to /dev/null), and the same body
  refused at its last field: the last context field (`discarder` on a discard win,
  `last_of_kind` on a self-drawn one) given a string, refused by the request's schema (422
  invalid_request) once every field before it has been read.

Each figure is a hand's best time over the rounds; the lines print the median over hands.
The service's cost of a hand is median(score request) - median(refused request): what
reading the hand, scoring it and writing its answer add to a request whose JSON was read
to its last field. Then a batch of 1,000 of the hands (`score/batch`, best of the rounds,
per hand) against the single request's median; and the command-line scorer `mahjong-score
--jobs 1` (as `python -m mahjong_scoring.cli`, from this checkout) on a log of M hands (the
same generator, the same seed), its wall time per hand with the process start included
(best of K runs), against the reference's own time on those M hands (each called once, as
the scorer sees each line once; best of K + 1 passes taken around the runs).

Each line says whether its target is met: the engine's median ratio (bench/mcr.py's
figure) <= 5, the service per hand <= 6 times the reference, a batch of 1,000 per hand <=
0.2 of a single request, `mahjong-score --jobs 1` per hand <= 10 times the reference.
Figures are of this run only: compare them with each other. Nothing here asserts.
"""

from __future__ import annotations

# isort: off
import _paths  # noqa: F401  (first: this folder behind the standard library)
# isort: on

import argparse
import gc
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, cast

from bodies import encode, mcr_case_bodies, mcr_generator  # bench/bodies.py

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from app.api import create_app  # noqa: E402
from app.api.observe import shared_access_log  # noqa: E402
from app.rules.model import RuleSet  # noqa: E402
from app.scoring import evaluate  # noqa: E402
from app.scoring.build import engine_build  # noqa: E402
from app.service.tiles.requests import read_score_request  # noqa: E402
from mahjong_scoring.lines import served_rulesets  # noqa: E402

DEFAULT_SEED = 20240601  # the differential test's default (MCR_DIFF_SEED)
SCORE = "/v1/rulesets/mcr/score"
BATCH = "/v1/rulesets/mcr/score/batch"
BATCH_SIZE = 1000
ENGINE_TARGET = 5.0
SERVICE_TARGET = 6.0
BATCH_TARGET = 0.2
CLI_TARGET = 10.0


def refused(body: dict[str, Any]) -> tuple[dict[str, Any], str]:
    """The body with its last context field given a value of the wrong type (a string where
    a boolean or a seat is taken), and that field's pointer: everything before it is read as
    in `body`, and the request is refused (422 invalid_request) before its hand is built."""
    context = dict(body["context"])
    last = list(context)[-1]
    context[last] = "?"
    return {**body, "context": context}, f"/context/{last}"


def verdict(value: float, target: float, at_most: bool = True) -> str:
    met = value <= target if at_most else value >= target
    return f"(target {'<=' if at_most else '>='} {target:g}: {'met' if met else 'NOT MET'})"


def reference_pass(calc: Callable[..., Any], args: Sequence[tuple[Any, ...]]) -> float:
    """Seconds the reference takes on every hand once."""
    gc.disable()
    try:
        start = time.perf_counter()
        for a in args:
            calc(*a, verbose=True)
        return time.perf_counter() - start
    finally:
        gc.enable()


def cli_run(log: Path, lines: int) -> float:
    """Wall seconds of `mahjong-score --jobs 1` on `log`, process start included."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "out.jsonl"
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "mahjong_scoring.cli", "--ruleset", "mcr",
                        "--jobs", "1", "--no-progress", "--quiet", str(log), "-o", str(out)],
                       check=True, cwd=ROOT)
        elapsed = time.perf_counter() - start
        with out.open("rb") as f:
            written = sum(1 for _ in f)
    if written != lines:
        print(f"  mahjong-score wrote {written} lines for {lines}", file=sys.stderr)
    return elapsed


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--hands", type=int, default=2000,
                    help="hands timed one by one (default 2000; at least 1000, a batch)")
    ap.add_argument("--seed", type=int, default=DEFAULT_SEED, help=f"default {DEFAULT_SEED}")
    ap.add_argument("--rounds", type=int, default=5,
                    help="times each hand is timed on each side, best kept (default 5)")
    ap.add_argument("--cli-hands", type=int, default=100_000,
                    help="lines of the command-line scorer's log (default 100,000; 0: skip)")
    ap.add_argument("--cli-runs", type=int, default=2,
                    help="runs of the command-line scorer, best kept (default 2)")
    args = ap.parse_args(argv)
    if args.hands < BATCH_SIZE:
        ap.error(f"--hands takes {BATCH_SIZE} or more (a batch of {BATCH_SIZE})")

    gen = mcr_generator()
    calc = gen.MahjongFanCalculator
    mcr = cast(RuleSet, served_rulesets()["mcr"])
    cases = gen.generate(args.hands, args.seed).cases
    oracle = [c.oracle_args for c in cases]
    bodies = [mcr_case_bodies(c)[0] for c in cases]
    scores = [encode(b) for b in bodies]
    wrong = [refused(b) for b in bodies]
    refusals = [encode(b) for b, _ in wrong]
    read = [read_score_request(b, mcr) for b in bodies]
    batches = [encode({"requests": bodies[i:i + BATCH_SIZE]})
               for i in range(0, len(bodies) - BATCH_SIZE + 1, BATCH_SIZE)]
    print(f"{len(cases)} MCR hands (seed {args.seed}), {args.rounds} rounds; engine build: "
          f"{engine_build()}")

    client = create_app().test_client()
    shared_access_log().fd = os.open(os.devnull, os.O_WRONLY)

    def post(url: str, data: bytes) -> int:
        response = client.post(url, data=data, content_type="application/json")
        response.get_data()
        return response.status_code

    # Warm up (Flask's first requests, the engine's memos as a serving worker has them) and
    # check that each body is answered as meant.
    for i, (good, bad) in enumerate(zip(scores, refusals, strict=True)):
        if post(SCORE, good) != 200:
            print(f"hand {i}: the score request was not answered 200", file=sys.stderr)
            return 1
        answer = client.post(SCORE, data=bad, content_type="application/json")
        problem = answer.get_json()
        if answer.status_code != 422 or problem["errors"][0]["pointer"] != wrong[i][1]:
            print(f"hand {i}: the refused request answered {answer.status_code} "
                  f"{answer.get_data()[:200]!r}", file=sys.stderr)
            return 1

    perf = time.perf_counter_ns
    n = len(cases)
    best = {side: [1 << 62] * n for side in ("reference", "engine", "score", "refused")}
    batch_best = [1 << 62] * len(batches)

    def timed_reference(i: int) -> None:
        t0 = perf()
        calc(*oracle[i], verbose=True)
        t = perf() - t0
        if t < best["reference"][i]:
            best["reference"][i] = t

    def timed_engine(i: int) -> None:
        hand, ctx = read[i]
        t0 = perf()
        evaluate.score(hand, ctx, mcr)
        t = perf() - t0
        if t < best["engine"][i]:
            best["engine"][i] = t

    def timed_score(i: int) -> None:
        t0 = perf()
        post(SCORE, scores[i])
        t = perf() - t0
        if t < best["score"][i]:
            best["score"][i] = t

    def timed_refused(i: int) -> None:
        t0 = perf()
        post(SCORE, refusals[i])
        t = perf() - t0
        if t < best["refused"][i]:
            best["refused"][i] = t

    # Two pairs, each interleaved hand by hand: the reference and the engine (as bench/mcr.py
    # times them, neither side's caches emptied by a request between them), then the score
    # request and its refusal.
    pairs = [(timed_reference, timed_engine), (timed_score, timed_refused)]
    gc.collect()
    gc.disable()
    try:
        for r in range(args.rounds):
            for first, second in pairs:
                for i in range(n):
                    sides = (first, second) if (i + r) % 2 else (second, first)
                    for side in sides:
                        side(i)
                    if i % 500 == 499:
                        gc.enable()
                        gc.collect()
                        gc.disable()
            for k, data in enumerate(batches):
                t0 = perf()
                post(BATCH, data)
                batch_best[k] = min(batch_best[k], perf() - t0)
                gc.enable()
                gc.collect()
                gc.disable()
    finally:
        gc.enable()

    def median_us(values: Sequence[int]) -> float:
        return statistics.median(values) / 1000

    ref = median_us(best["reference"])
    engine = median_us(best["engine"])
    score = median_us(best["score"])
    refusal = median_us(best["refused"])
    service = score - refusal
    batch = statistics.median(batch_best) / BATCH_SIZE / 1000
    print(f"\n{'':44}{'µs per hand':>12}{'ratio':>9}")
    print(f"{'reference calculator':44}{ref:12.2f}")
    print(f"{'engine (evaluate.score on read hands)':44}{engine:12.2f}{engine / ref:9.2f}  "
          f"x reference {verdict(engine / ref, ENGINE_TARGET)}")
    print(f"{'score request (test client)':44}{score:12.2f}{score / ref:9.2f}  x reference")
    print(f"{'same body refused at its last field':44}{refusal:12.2f}{refusal / ref:9.2f}  "
          f"x reference")
    print(f"{'service per hand (score - refused)':44}{service:12.2f}{service / ref:9.2f}  "
          f"x reference {verdict(service / ref, SERVICE_TARGET)}")
    print(f"{f'batch of {BATCH_SIZE:,}, per hand':44}{batch:12.2f}{batch / score:9.3f}  "
          f"x a single request {verdict(batch / score, BATCH_TARGET)}")

    if args.cli_hands:
        cli_cases = gen.generate(args.cli_hands, args.seed).cases
        cli_oracle = [c.oracle_args for c in cli_cases]
        with tempfile.TemporaryDirectory() as tmp:
            log = Path(tmp) / "log.jsonl"
            log.write_bytes(b"".join(json.dumps(mcr_case_bodies(c)[0], separators=(",", ":"))
                                     .encode() + b"\n" for c in cli_cases))
            passes = [reference_pass(calc, cli_oracle)]
            runs = []
            for _ in range(args.cli_runs):
                runs.append(cli_run(log, len(cli_cases)))
                passes.append(reference_pass(calc, cli_oracle))
        ref_cli = min(passes) / len(cli_cases) * 1e6
        cli = min(runs) / len(cli_cases) * 1e6
        print(f"\n{len(cli_cases):,} hands for the command-line scorer "
              f"(best of {args.cli_runs} runs, {min(runs):.2f} s)")
        print(f"{'reference calculator, each hand once':44}{ref_cli:12.2f}")
        print(f"{'mahjong-score --jobs 1, start included':44}{cli:12.2f}{cli / ref_cli:9.2f}  "
              f"x reference {verdict(cli / ref_cli, CLI_TARGET)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
