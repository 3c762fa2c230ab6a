"""Differential test of the discard analysis (`app.scoring.analysis`) on `mcr` against the
reference library (pymahjonggb 1.4.0: `MahjongShanten` and the per-shape functions).

`SHANTEN_DIFF_HANDS` (default 30,000) hands of 13 tiles, in four chunks of a quarter each
(so that the workers share them), a mix of random tiles, near-ready hands (a complete hand
less a tile, then zero to two tiles swapped for random ones) of the regular and the special
shapes, and hands with one or two declared melds. For each:

- `shanten` equals `MahjongShanten`;
- without melds, each shape's shanten equals the reference function of that shape
  (`RegularShanten`, `SevenPairsShanten`, `ThirteenOrphansShanten`,
  `HonorsAndKnittedTilesShanten`, `KnittedStraightShanten`); with melds, the regular one
  (the others are None: no special shape takes a meld but 组合龙's one, which the reference
  does not read from standing tiles alone);
- the useful tiles equal the union of the reference's useful tiles of the shapes at the
  least shanten, less the kinds the hand holds four of (the reference lists them; they
  cannot be drawn). Nine gates (a shape of ours, a regular hand, never below the regular
  shanten) is not in the reference: its shanten is checked against the regular one only.

And `SHANTEN_DIFF_14` (default 1,500) hands of 14 tiles: every discard row's shanten equals
`MahjongShanten` of the 13 tiles left, and the hand's own shanten is the least of them (or
-1 for a complete hand).

    SHANTEN_DIFF_HANDS=4000 SHANTEN_DIFF_SEED=3 .venv/bin/pytest tests/mcr_reference/test_shanten.py
"""

from __future__ import annotations

import os
import random
import time

import pytest
from MahjongGB import (  # type: ignore[import-not-found]
    HonorsAndKnittedTilesShanten,
    KnittedStraightShanten,
    MahjongShanten,
    RegularShanten,
    SevenPairsShanten,
    ThirteenOrphansShanten,
)

from app.domain.hand import CHOW, PUNG, Meld, WinContext
from app.domain.shapes import knitted_arrangements
from app.scoring.analysis import analyse
from tests.loaded import repo_rulesets

from .generator import oracle_tile

N_HANDS = int(os.environ.get("SHANTEN_DIFF_HANDS", "30000"))
N_14 = int(os.environ.get("SHANTEN_DIFF_14", "1500"))
SEED = int(os.environ.get("SHANTEN_DIFF_SEED", "27"))
CHUNKS = 4

RS = repo_rulesets()["mcr"]
CTX = WinContext("self_draw")
REFERENCE = {
    "regular": RegularShanten,
    "seven_pairs": SevenPairsShanten,
    "thirteen_orphans": ThirteenOrphansShanten,
    "honors_and_knitted": HonorsAndKnittedTilesShanten,
    "knitted_straight": KnittedStraightShanten,
}
KINDS = range(34)
WALL = [t for t in KINDS for _ in range(4)]
ORPHANS = [0, 8, 9, 17, 18, 26, *range(27, 34)]


def _fill(rng: random.Random, tiles: list[int], n: int) -> list[int]:
    """`tiles` topped up (or cut) to `n` with random tiles, never a fifth copy."""
    tiles = tiles[:n]
    while len(tiles) < n:
        t = rng.choice(WALL)
        if tiles.count(t) < 4:
            tiles.append(t)
    return tiles


def _swap(rng: random.Random, tiles: list[int], k: int) -> list[int]:
    for _ in range(k):
        tiles.pop(rng.randrange(len(tiles)))
        tiles = _fill(rng, tiles, len(tiles) + 1)
    return tiles


def _set(rng: random.Random, held: list[int]) -> list[int] | None:
    if rng.random() < 0.6:
        start = rng.choice([s + r for s in (0, 9, 18) for r in range(7)])
        group = [start, start + 1, start + 2]
    else:
        group = [rng.choice(KINDS)] * 3
    if any(held.count(t) + group.count(t) > 4 for t in set(group)):
        return None
    return group


def _complete(rng: random.Random, sets: int) -> list[int]:
    """`sets` random sets and a pair."""
    held: list[int] = []
    while len(held) < 3 * sets:
        group = _set(rng, held)
        if group is not None:
            held += group
    while True:
        t = rng.choice(KINDS)
        if held.count(t) <= 2:
            return [*held, t, t]


def _special(rng: random.Random) -> list[int]:
    kind = rng.randrange(4)
    if kind == 0:  # seven pairs
        return [t for t in rng.sample(list(KINDS), 7) for _ in range(2)]
    if kind == 1:  # thirteen orphans
        return [*ORPHANS, rng.choice(ORPHANS)]
    arr = list(rng.choice(knitted_arrangements(RS.tileset)))
    if kind == 2:  # honours and knitted
        return rng.sample(arr, 7) + list(range(27, 34))
    return arr + _complete(rng, 1)  # knitted straight


def hand13(rng: random.Random) -> tuple[list[int], tuple[Meld, ...]]:
    """A 13-tile hand (standing tiles, declared melds) of the mix."""
    r = rng.random()
    if r < 0.4:
        return rng.sample(WALL, 13), ()
    if r < 0.9:
        full = _complete(rng, 4) if r < 0.75 else _special(rng)
        full.pop(rng.randrange(len(full)))
        return _swap(rng, full, rng.choice((0, 1, 1, 2))), ()
    n = rng.choice((1, 2))
    full = _complete(rng, 4)
    melds = []
    for k in range(n):
        group = sorted(full[3 * k:3 * k + 3])
        melds.append(Meld(CHOW if group[0] != group[1] else PUNG, tuple(group)))
    standing = full[3 * n:]
    standing.pop(rng.randrange(len(standing)))
    held = [t for m in melds for t in m.tiles]
    standing = _swap(rng, standing, rng.choice((0, 1)))
    if any(standing.count(t) + held.count(t) > 4 for t in set(standing)):
        return rng.sample(WALL, 13), ()
    return standing, tuple(melds)


def _pack(m: Meld) -> tuple[str, str, int]:
    return ("CHI" if m.kind == CHOW else "PENG", oracle_tile(m.tiles[1]), 1)


def _check13(standing: list[int], melds: tuple[Meld, ...]) -> str | None:
    """None when our analysis agrees with the reference, else what differs."""
    ref = tuple(oracle_tile(t) for t in standing)
    ours = analyse(standing, melds, CTX, RS, score_waits=False)
    want = MahjongShanten(tuple(_pack(m) for m in melds), ref)
    if ours.shanten != want:
        return f"shanten {ours.shanten} != {want}"
    shapes = dict(ours.shapes)
    if melds:
        got, useful = RegularShanten(ref)
        if shapes["regular"] != got:
            return f"regular {shapes['regular']} != {got}"
        if shapes["regular"] == want:
            expected = set(useful)
        else:
            return None  # the least is 组合龙 with a meld: shanten checked above
    else:
        answers = {name: fn(ref) for name, fn in REFERENCE.items()}
        for name, (got, _) in answers.items():
            if shapes[name] != got:
                return f"{name} {shapes[name]} != {got}"
        nine = shapes["nine_gates"]
        if nine is None or nine < shapes["regular"]:  # type: ignore[operator]
            return f"nine_gates {nine} below regular {shapes['regular']}"
        expected = set()
        for got, useful in answers.values():
            if got == want:
                expected |= set(useful)
    held = list(standing) + [t for m in melds for t in m.tiles]
    expected -= {oracle_tile(t) for t in set(held) if held.count(t) == 4}
    assert ours.hand is not None
    found = {oracle_tile(RS.tileset.by_code[u.tile]) for u in ours.hand.useful}
    if found != expected:
        return f"useful: ours less reference {sorted(found - expected)}, " \
               f"reference less ours {sorted(expected - found)}"
    return None


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_thirteen_tiles_against_the_reference(chunk: int) -> None:
    rng = random.Random(SEED * 100 + chunk)
    n = N_HANDS // CHUNKS + (chunk < N_HANDS % CHUNKS)
    failures = []
    started = time.perf_counter()
    for _ in range(n):
        standing, melds = hand13(rng)
        why = _check13(standing, melds)
        if why is not None:
            failures.append((standing, melds, why))
    took = time.perf_counter() - started
    print(f"chunk {chunk}: {n} hands in {took:.1f} s (seed {SEED})")
    assert not failures, f"{len(failures)} of {n} hands differ, e.g. {failures[:5]}"


def test_fourteen_tiles_every_discard_against_the_reference() -> None:
    rng = random.Random(SEED)
    for _ in range(N_14):
        standing, melds = hand13(rng)
        standing = _fill(rng, standing, len(standing) + 1)
        held = list(standing) + [t for m in melds for t in m.tiles]
        if any(held.count(t) > 4 for t in held):
            continue
        ours = analyse(standing, melds, CTX, RS, score_waits=False)
        packs = tuple(_pack(m) for m in melds)
        rows = {r.tile: r.left.shanten for r in ours.discards}
        assert len(rows) == len(set(standing))
        for t in set(standing):
            rest = list(standing)
            rest.remove(t)
            want = MahjongShanten(packs, tuple(oracle_tile(x) for x in rest))
            assert rows[RS.tileset.code(t)] == want, (standing, melds, t)
        least = min(r for r in rows.values() if r is not None)
        assert ours.shanten == (-1 if ours.win is not None else least), (standing, melds)
        if ours.win is not None:
            assert least == 0 and ours.win.decomposition is not None
