"""The command line: ``./run log ARGS`` or ``python -m tools.loggen ARGS`` (`main`) writes a
log to standard output or to a file."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from app import settings
from app.rules.loader import load_rulesets
from tools.loggen.hands import no_shape, shapes_left_out
from tools.loggen.log import log_lines, not_tiles, tile_rulesets

__all__ = ["PROG", "main"]

PROG = "./run log"


def _share(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"a share is from 0 to 1, not {text}")
    return value


def _count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, not {text}")
    return value


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=PROG,
        description=(
            "Write a log of realistic mahjong score requests, one JSON object per line "
            "(JSON Lines), for testing and benchmarking bulk scoring. Every request is "
            "checked against the scoring service's own rules, so the hands are legal and "
            "most of them win. The same options and seed always give the same log."),
    )
    parser.add_argument(
        "--ruleset", action="append", metavar="ID",
        help="a rule set to make requests for (its id, as in rulesets/); repeat it to mix "
             "several in one log, lines interleaved at random; 'all' (the default) uses "
             "every mahjong rule set (card games scored by groups, such as word-card "
             "rule sets, are not generated)")
    parser.add_argument("--hands", type=_count, default=1000, metavar="N",
                        help="how many lines to write (default 1000)")
    parser.add_argument("--seed", type=int, default=1, metavar="S",
                        help="the random seed: the same seed gives the same log (default 1)")
    parser.add_argument(
        "--waits", action="store_true",
        help="write waits requests instead: the same hands one tile short, with no winning "
             "tile, asking which tiles complete them")
    parser.add_argument(
        "--malformed", type=_share, default=0.0, metavar="SHARE",
        help="the share of lines (0 to 1) that are broken on purpose: not JSON, not a JSON "
             "object, or a request the service refuses (default 0)")
    parser.add_argument(
        "--non-winning", type=_share, default=0.1, metavar="SHARE",
        help="the share of requests (0 to 1) whose hand is complete but does not win, e.g. "
             "below the rule set's minimum (default 0.1)")
    parser.add_argument(
        "--no-ruleset-field", action="store_true",
        help="leave out the \"ruleset\" key that names each line's rule set (then a line is "
             "exactly a request body; use it with one rule set)")
    parser.add_argument(
        "--rulesets-dir", type=Path, metavar="DIR",
        help="where the rule-set files are (default: $MAHJONG_RULESETS_DIR, else the "
             "project's rulesets/)")
    parser.add_argument("-o", "--output", type=Path, metavar="FILE",
                        help="the file to write (default: standard output)")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """The command line (`./run log`): write a log; 0 on success (2 on a usage error, from
    argparse)."""
    parser = _parser()
    args = parser.parse_args(argv)
    rulesets = load_rulesets(settings.rulesets_dir({"RULESETS_DIR": args.rulesets_dir}))
    tiles = tile_rulesets(rulesets)
    asked: list[str] = args.ruleset or ["all"]
    ids: list[str] = []
    for rid in asked:
        if rid == "all":
            ids += sorted(tiles)
            left = sorted(set(rulesets) - set(tiles))
            if left:
                print(f"{PROG}: leaving out {', '.join(left)}: card games scored by groups "
                      "are not generated", file=sys.stderr)
        elif rid in tiles:
            ids.append(rid)
        elif rid in rulesets:
            parser.error(not_tiles(rid))
        else:
            parser.error(f"unknown rule set {rid!r}; known: {', '.join(sorted(rulesets))}, "
                         f"or all")
    ids = list(dict.fromkeys(ids))  # each once, in the order asked
    for rid in ids:
        # A shape the generator builds no hand in (no builder, or not with these tiles).
        left_out = shapes_left_out(tiles[rid])
        if len(left_out) == len(tiles[rid].shapes):
            parser.error(no_shape(rid, left_out))
        for shape, why in left_out.items():
            print(f"{PROG}: rule set {rid}: no hands of shape {shape}: {why}", file=sys.stderr)
    lines = log_lines(rulesets, ids, args.hands, args.seed, waits=args.waits,
                      malformed=args.malformed, name_ruleset=not args.no_ruleset_field,
                      non_winning=args.non_winning)
    if args.output is None:
        # UTF-8 whatever the terminal's encoding (tiles may be written in Chinese).
        out = sys.stdout.buffer
        try:
            for text in lines:
                out.write(text.encode("utf-8") + b"\n")
            out.flush()
        except BrokenPipeError:
            # The reader stopped early (`| head`): not an error of ours.
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    with args.output.open("w", encoding="utf-8", newline="\n") as file:
        for text in lines:
            file.write(text + "\n")
    return 0
