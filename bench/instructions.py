"""Benchmark: machine instructions per scored `mcr` hand, counted by valgrind's callgrind.

    python bench/instructions.py [--hands N] [--passes P] [--against DIR]
    python bench/instructions.py --command-line [--lines N] [--against DIR]
    python bench/instructions.py --heavy-analysis [--hands N] [--against DIR]
    python bench/instructions.py --wild-hands [--hands N] [--warm P] [--against DIR]

Wall-clock figures on a shared machine move by a few per cent from run to run (bench/mcr.py's
median ratio between runs of the same build), which hides a change of 1 %. The instructions
the engine executes do not depend on the machine's load: this counts them for `score(hand,
ctx, ruleset)` over the differential test's random legal hands (bench/mcr.py's hands, same
default seed).

Each count is a child process of this script under `valgrind --tool=callgrind` that counts
only inside the compiled `score` (`--collect-atstart=no --toggle-collect=` its mypyc entry
point), with `PYTHONHASHSEED=0` and address randomisation off (`setarch -R`) so that a run is
repeatable to about 0.3 %. The child scores every hand once (filling the engine's memos), then
`--passes` more times with the garbage collector paused; a second child scores them once only,
and the difference, divided by the hands scored in the extra passes, is the instructions per
warm hand. With `--against DIR` (a checkout of another commit, built with `python setup.py
build_ext --inplace`) the same is counted for that tree in the same run and the ratio printed
(this tree / DIR): a change that moves code around without changing what runs should stay
near 1.00.

`--command-line` counts `mahjong-score --jobs 1` instead (`python -m mahjong_scoring.cli`,
the whole process) on a log of N lines and on one of 2N, the first N the same (bench/
perhand.py's log: the same generator and seed, each hand once): the difference, divided by
N, is what a line costs the scorer when its hand is new and the engine's memos are as warm as
N other hands made them (reading, scoring, writing; the process start cancels out). A count
is repeatable to about 0.1 %, unlike the scorer's wall time on this machine. Each tree's scorer
first runs once on the short log, not counted: a tree whose changed sources have no bytecode
cached yet writes it then (unless PYTHONDONTWRITEBYTECODE is set, when every run compiles them
alike), instead of in the first counted run, which would count compiling them.

`--heavy-analysis` counts `analyse` on `analysis.py`'s heavy hands instead: 14 tianjin tiles
holding 5, 6 and 7 wilds, waits scored (the first N of each of its three sets, same seed),
after its warm-up. A child process makes the warm-up and the N hands, analysing them or not;
the difference of the two whole-process counts, divided by 3N, is what one heavy analysis
costs with the engine's memos as warm as the warm-up and the hands before it made them.

`--wild-hands` counts `score` on new tianjin hands of 0 to 4 wilds: N random hands of each
count as `wilds.py` makes them (two in three built winning), each scored once, the
difference of two whole-process counts (scoring them or only building them) per hand; with
`--warm P`, the hands scored again, P more passes after the first, per hand and pass.

Needs the compiled engine (`./run install` builds it where a C compiler is at hand), valgrind
and setarch (Debian: `apt-get install valgrind util-linux`). Nothing here asserts: it reports.
"""

from __future__ import annotations

import argparse
import gc
import importlib.util
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import cast

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_SEED = 20240601  # the differential test's default (MCR_DIFF_SEED)
WILD_SEED = 5  # --wild-hands
ENTRY = "CPyPy_evaluate___score"  # mypyc's Python-callable wrapper of app.scoring.evaluate.score
COLLECTED = re.compile(r"Collected\s*:\s*(\d+)")


def _child(tree: Path, hands: int, seed: int, passes: int) -> None:
    """Score the hands once, then `passes` more times (run under callgrind by the parent)."""
    sys.path.insert(0, str(tree))
    from app.rules.loader import load_rulesets
    from app.rules.model import RuleSet
    from app.scoring.build import COMPILED, engine_build
    from app.scoring.evaluate import score

    # The hands come from this checkout's generator, with `tree`'s engine: both trees score
    # the same hands.
    spec = importlib.util.spec_from_file_location(
        "mcr_reference_generator", ROOT / "tests" / "mcr_reference" / "generator.py")
    assert spec is not None and spec.loader is not None
    generator = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = generator
    spec.loader.exec_module(generator)

    if engine_build() != COMPILED:
        sys.exit(f"{tree}: the engine is not compiled (python setup.py build_ext --inplace)")
    rs = cast(RuleSet, load_rulesets(tree / "rulesets")["mcr"])
    inputs = [(c.hand, c.ctx) for c in generator.generate(hands, seed).cases]
    for hand, ctx in inputs:
        score(hand, ctx, rs)
    gc.collect()
    gc.disable()
    for _ in range(passes):
        for hand, ctx in inputs:
            score(hand, ctx, rs)


def _heavy_child(tree: Path, hands: int, analysed: bool) -> None:
    """bench/analysis.py's warm-up and its first `hands` heavy hands of each wild count,
    analysed when `analysed` (run under callgrind by the parent)."""
    sys.path.insert(0, str(tree))
    sys.path.insert(1, str(Path(__file__).resolve().parent))
    import analysis as bench  # bench/analysis.py: its hands, with `tree`'s engine

    from app.rules.loader import load_rulesets
    from app.rules.model import RuleSet
    from app.scoring.analysis import analyse

    rs = cast(RuleSet, load_rulesets(tree / "rulesets")["tianjin"])
    options = rs.option_defaults
    seed = bench.DEFAULT_SEED
    for h, c in bench.tianjin_hands(bench.WARM_UP // 4, 6, seed + 3000):
        analyse(h, (), c._replace(options=options), rs)
    heavy = [(h, c._replace(options=options)) for i in range(3)
             for h, c in bench.tianjin_hands(hands, 5 + i, seed + 20 + i)]
    gc.collect()
    gc.disable()
    if analysed:
        for h, c in heavy:
            analyse(h, (), c, rs)


def _wild_child(tree: Path, hands: int, scored: bool, passes: int) -> None:
    """`hands` random tianjin hands of each count of wilds 0..4 (bench/wilds.py's), built,
    and scored once each when `scored`, then `passes` more times (run under callgrind by the
    parent)."""
    sys.path.insert(0, str(tree))
    sys.path.insert(1, str(Path(__file__).resolve().parent))
    import wilds  # bench/wilds.py: its hands, with `tree`'s engine

    from app.domain.errors import HandError
    from app.rules.loader import load_rulesets
    from app.rules.model import RuleSet
    from app.scoring.evaluate import score
    from app.service.tiles.requests import build

    rs = cast(RuleSet, load_rulesets(tree / "rulesets")["tianjin"])
    rng = random.Random(WILD_SEED)
    built = []
    for n in range(5):
        while len(built) < hands * (n + 1):
            notation, context = wilds.random_hand(rng, n, False)
            try:
                built.append(build(notation, context, rs))
            except HandError:  # four of a kind with the flipped indicator: drawn again
                pass
    gc.collect()
    gc.disable()
    if scored:
        for _ in range(1 + passes):
            for hand, ctx in built:
                score(hand, ctx, rs)


def per_wild_hand(tree: Path, hands: int, warm: int) -> float:
    """Instructions per tianjin hand of 0..4 wilds scored in `tree`: new, or with `warm`,
    scored again (over that many more passes)."""
    def count(scored: bool, passes: int) -> int:
        return _valgrind([sys.executable, __file__, "--wild-child", str(tree), "--hands",
                          str(hands), "--passes", str(passes),
                          *(["--analysed"] if scored else [])], tree, "the wild hands")
    if warm:
        return (count(True, warm) - count(True, 0)) / (5 * hands * warm)
    return (count(True, 0) - count(False, 0)) / (5 * hands)


def wild_hands(hands: int, warm: int, against: Path | None) -> None:
    how = f"scored again, {warm} passes" if warm else "each scored once"
    print(f"score, tianjin hands of 0-4 wilds: {5 * hands} hands (bench/wilds.py's, "
          f"seed {WILD_SEED}), {how}")
    ours = per_wild_hand(ROOT, hands, warm)
    print(f"{'this tree':12}{ours / 1000:10.1f}k instructions per hand", flush=True)
    if against is not None:
        other = per_wild_hand(against.resolve(), hands, warm)
        print(f"{'against':12}{other / 1000:10.1f}k instructions per hand  ({against})")
        print(f"{'ratio':12}{ours / other:10.3f}   (this tree / against)")


def per_heavy_analysis(tree: Path, hands: int) -> float:
    """Instructions per heavy analysis in `tree` (3 × `hands` of them)."""
    def count(analysed: bool) -> int:
        return _valgrind([sys.executable, __file__, "--heavy-child", str(tree), "--hands",
                          str(hands), *(["--analysed"] if analysed else [])], tree,
                         "the heavy analyses")
    return (count(True) - count(False)) / (3 * hands)


def heavy_analysis(hands: int, against: Path | None) -> None:
    print(f"analyse, tianjin 14 tiles with 5-7 wilds, waits scored: {3 * hands} hands "
          "(bench/analysis.py's, after its warm-up)")
    ours = per_heavy_analysis(ROOT, hands)
    print(f"{'this tree':12}{ours / 1e6:10.1f}M instructions per analysis", flush=True)
    if against is not None:
        other = per_heavy_analysis(against.resolve(), hands)
        print(f"{'against':12}{other / 1e6:10.1f}M instructions per analysis  ({against})")
        print(f"{'ratio':12}{ours / other:10.3f}   (this tree / against)")


def _collected(tree: Path, hands: int, seed: int, passes: int) -> int:
    command = ["valgrind", "--tool=callgrind", "--collect-atstart=no",
               f"--toggle-collect={ENTRY}", "--callgrind-out-file=/dev/null",
               sys.executable, __file__, "--child", str(tree), "--hands", str(hands),
               "--seed", str(seed), "--passes", str(passes)]
    if shutil.which("setarch"):
        command[:0] = ["setarch", "-R"]
    env = {**os.environ, "PYTHONHASHSEED": "0", "PYTHONPATH": str(tree)}
    done = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    found = COLLECTED.search(done.stderr)
    if done.returncode != 0 or found is None:
        sys.exit(f"callgrind run failed for {tree} (exit {done.returncode}):\n"
                 f"{done.stderr[-2000:]}")
    return int(found.group(1))


def per_hand(tree: Path, hands: int, seed: int, passes: int) -> float:
    """Instructions per warm scored hand in `tree`."""
    return (_collected(tree, hands, seed, passes) - _collected(tree, hands, seed, 0)) / (
        hands * passes)


def _valgrind(command: list[str], tree: Path, what: str) -> int:
    """Instructions callgrind collected running `command` (from `tree`, which it imports)."""
    command = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *command]
    if shutil.which("setarch"):
        command[:0] = ["setarch", "-R"]
    env = {**os.environ, "PYTHONHASHSEED": "0", "PYTHONPATH": str(tree)}
    done = subprocess.run(command, capture_output=True, text=True, env=env, check=False,
                          cwd=tree)
    found = COLLECTED.search(done.stderr)
    if done.returncode != 0 or found is None:
        sys.exit(f"callgrind run of {what} failed for {tree} (exit {done.returncode}):\n"
                 f"{done.stderr[-2000:]}")
    return int(found.group(1))


def _log(lines: int, seed: int, path: Path) -> None:
    """bench/perhand.py's command-line log: `lines` random legal MCR hands, one per line."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import _paths  # noqa: F401  (this folder behind the standard library)
    from bodies import mcr_case_bodies, mcr_generator  # bench/bodies.py

    cases = mcr_generator().generate(lines, seed).cases
    path.write_bytes(b"".join(json.dumps(mcr_case_bodies(c)[0], separators=(",", ":"))
                              .encode() + b"\n" for c in cases))


def per_line(tree: Path, short: Path, long: Path, lines: int) -> float:
    """Instructions `mahjong-score --jobs 1` in `tree` spends on each of the last `lines`
    lines of `long` (whose first lines are `short`)."""
    def command(log: Path) -> list[str]:
        return [sys.executable, "-m", "mahjong_scoring.cli", "--ruleset", "mcr", "--jobs",
                "1", "--no-progress", "--quiet", str(log), "-o", os.devnull]

    def count(log: Path) -> int:
        return _valgrind(command(log), tree, "mahjong-score")

    # Not counted: any bytecode the tree's sources lack is written now (see the docstring).
    subprocess.run(command(short), cwd=tree, env={**os.environ, "PYTHONPATH": str(tree)},
                   check=True)
    return (count(long) - count(short)) / lines


def command_line(lines: int, seed: int, against: Path | None) -> None:
    print(f"mahjong-score --jobs 1: lines {lines + 1:,} to {2 * lines:,} of a log of new "
          f"hands (seed {seed})")
    with tempfile.TemporaryDirectory() as tmp:
        short, long = Path(tmp) / "short.jsonl", Path(tmp) / "long.jsonl"
        _log(2 * lines, seed, long)
        with long.open("rb") as f:
            short.write_bytes(b"".join(f.readline() for _ in range(lines)))
        ours = per_line(ROOT, short, long, lines)
        print(f"{'this tree':12}{ours / 1000:10.1f}k instructions per line", flush=True)
        if against is not None:
            other = per_line(against.resolve(), short, long, lines)
            print(f"{'against':12}{other / 1000:10.1f}k instructions per line  ({against})")
            print(f"{'ratio':12}{ours / other:10.3f}   (this tree / against)")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--hands", type=int, default=500, help="number of hands (default 500)")
    ap.add_argument("--seed", type=int, default=DEFAULT_SEED, help=f"default {DEFAULT_SEED}")
    ap.add_argument("--passes", type=int, default=4,
                    help="warm passes over the hands counted (default 4)")
    ap.add_argument("--against", type=Path, help="another built checkout to compare with")
    ap.add_argument("--command-line", action="store_true",
                    help="count mahjong-score --jobs 1 per line instead of score per hand")
    ap.add_argument("--lines", type=int, default=3000,
                    help="with --command-line: lines counted, after as many (default 3000)")
    ap.add_argument("--heavy-analysis", action="store_true",
                    help="count analyse on analysis.py's heavy tianjin hands per analysis "
                         "(--hands: how many of each wild count, default 20)")
    ap.add_argument("--wild-hands", action="store_true",
                    help="count score on new tianjin hands of 0-4 wilds per hand "
                         "(--hands: how many of each wild count, default 150)")
    ap.add_argument("--warm", type=int, default=0,
                    help="with --wild-hands: count the hands scored again, over this many "
                         "passes (default 0: new hands)")
    ap.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    ap.add_argument("--heavy-child", type=Path, help=argparse.SUPPRESS)
    ap.add_argument("--wild-child", type=Path, help=argparse.SUPPRESS)
    ap.add_argument("--analysed", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child is not None:
        _child(args.child, args.hands, args.seed, args.passes)
        return 0
    if args.heavy_child is not None:
        _heavy_child(args.heavy_child, args.hands, args.analysed)
        return 0
    if args.wild_child is not None:
        _wild_child(args.wild_child, args.hands, args.analysed, args.passes)
        return 0
    if shutil.which("valgrind") is None:
        sys.exit("valgrind is not installed (Debian: apt-get install valgrind)")
    if args.command_line:
        command_line(args.lines, args.seed, args.against)
        return 0
    if args.wild_hands:
        wild_hands(150 if args.hands == ap.get_default("hands") else args.hands, args.warm,
                   args.against)
        return 0
    if args.heavy_analysis:
        heavy_analysis(20 if args.hands == ap.get_default("hands") else args.hands,
                       args.against)
        return 0
    print(f"{args.hands} hands, seed {args.seed}, {args.passes} warm passes counted")
    ours = per_hand(ROOT, args.hands, args.seed, args.passes)
    print(f"{'this tree':12}{ours / 1000:10.1f}k instructions per hand", flush=True)
    if args.against is not None:
        other = per_hand(args.against.resolve(), args.hands, args.seed, args.passes)
        print(f"{'against':12}{other / 1000:10.1f}k instructions per hand  ({args.against})")
        print(f"{'ratio':12}{ours / other:10.3f}   (this tree / against)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
