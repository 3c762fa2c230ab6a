"""The discard analysis (`app.scoring.analysis`) on every tile rule set, by brute force.

Random hands of 13 tiles (random tiles and near-ready hands, with and without declared melds
of the kinds the rule set declares, and with 2-3 wild tiles where the rule set plays them):

- a tile is listed useful exactly when the hand with it added has a lower shanten
  (`analysis.shanten` of the 14 tiles, worked out again from scratch), and only tiles that
  can still be drawn are listed;
- shanten 0 exactly when `app.scoring.waits` finds a completing tile, a wait the 定缺
  requirement refuses aside (the analysis counts the void suit's tiles as never kept);
- a wild counts as a free tile: the shanten of a hand with one or two wilds is the least
  shanten over every way of replacing them by natural tiles (no fifth copy).

`ANALYSIS_BRUTE_HANDS` (default 150 per rule set) sizes it; mcr is checked against the
reference library in tests/mcr_reference/test_shanten.py.
"""

from __future__ import annotations

import os
import random
from itertools import combinations_with_replacement

import pytest

from app.domain.hand import CHOW, KONG, PUNG, Meld, WinContext
from app.domain.tiles import TileSet
from app.rules.model import RuleSet
from app.scoring.analysis import SUITS_AT_MOST, analyse, shanten
from app.scoring.waits import waits
from tests.loaded import repo_rulesets

N = int(os.environ.get("ANALYSIS_BRUTE_HANDS", "150"))
TILE_RULESETS = [rid for rid, rs in repo_rulesets().items() if isinstance(rs, RuleSet)]


def _wilds(rs: RuleSet, indicator: int | None) -> tuple[int, ...]:
    if rs.wild is None or indicator is None:
        return ()
    return rs.wild.kinds(indicator, rs.tileset.next_kinds)


def _ctx(rs: RuleSet, indicator: int | None) -> WinContext:
    return WinContext("self_draw", wild_indicator=indicator if rs.wild else None,
                      wilds=_wilds(rs, indicator), seat_wind=0, round_wind=0,
                      options=rs.option_defaults)


def _hand(rng: random.Random, rs: RuleSet, indicator: int | None,
          wild_count: int) -> tuple[list[int], tuple[Meld, ...]] | None:
    """A random 13-tile hand for `rs`, or None when the draw breaks a limit."""
    ts: TileSet = rs.tileset
    playing = list(ts.playing)
    wilds = _wilds(rs, indicator)
    naturals = [t for t in playing if t not in wilds]
    melds: list[Meld] = []
    n_melds = rng.choice((0, 0, 0, 1, 2))
    for _ in range(n_melds):
        kind = rng.choice([k for k in rs.meld_kinds if k != KONG] or [PUNG])
        if kind == CHOW:
            starts = sorted(ts.chow_starts)
            s = rng.choice(starts)
            melds.append(Meld(CHOW, (s, s + 1, s + 2)))
        else:
            t = rng.choice(naturals)
            melds.append(Meld(PUNG, (t, t, t)))
    size = 13 - 3 * n_melds
    standing: list[int] = [rng.choice(wilds) for _ in range(wild_count)] if wilds else []
    if rng.random() < 0.5:
        # near-ready: sets and a pair of natural tiles, cut to size
        while len(standing) < size + 1:
            t = rng.choice(naturals)
            if rng.random() < 0.5 and t in ts.chow_starts:
                standing += [t, t + 1, t + 2]
            else:
                standing += [t] * rng.choice((2, 3))
        standing = standing[:size + 1]
        standing.pop(rng.randrange(wild_count, len(standing)))
    else:
        while len(standing) < size:
            standing.append(rng.choice(naturals))
    held = standing + [t for m in melds for t in m.tiles]
    if indicator is not None and rs.wild is not None and rs.wild.indicator_out_of_play:
        held.append(indicator)
    if any(held.count(t) > ts.kinds[t].copies for t in held):
        return None
    return standing, tuple(melds)


def _hands(rs: RuleSet, seed: int, n: int, wild_counts: tuple[int, ...] = (0,)):  # type: ignore[no-untyped-def]
    rng = random.Random(seed)
    made = 0
    while made < n:
        indicator = rng.choice(rs.tileset.playing) if rs.wild is not None else None
        got = _hand(rng, rs, indicator, rng.choice(wild_counts) if rs.wild else 0)
        if got is None:
            continue
        made += 1
        yield got[0], got[1], _ctx(rs, indicator)


def _void_reason(rs: RuleSet) -> str | None:
    return next((r.reason for r in rs.requirements if r.check == SUITS_AT_MOST), None)


@pytest.mark.parametrize("rid", TILE_RULESETS)
def test_useful_exactly_when_adding_lowers_the_shanten(rid: str) -> None:
    rs = repo_rulesets()[rid]
    assert isinstance(rs, RuleSet)
    wild_counts = (0, 2, 3) if rs.wild else (0,)
    checked = 0
    for standing, melds, ctx in _hands(rs, 11, N, wild_counts):
        result = analyse(standing, melds, ctx, rs, score_waits=False)
        assert result.hand is not None
        before = result.shanten
        if before is None:
            continue
        useful = {u.tile for u in result.hand.useful}
        held = standing + [t for m in melds for t in m.tiles]
        for t in rs.tileset.playing:
            code = rs.tileset.code(t)
            gone = held.count(t) + (1 if ctx.wild_indicator == t and rs.wild is not None
                                    and rs.wild.indicator_out_of_play else 0)
            if gone >= rs.tileset.kinds[t].copies:
                assert code not in useful, (standing, melds, code)
                continue
            after = shanten([*standing, t], melds, ctx, rs)
            assert after is not None
            assert (after < before) == (code in useful), (rid, standing, melds, code)
        checked += 1
    assert checked > N // 2


@pytest.mark.parametrize("rid", TILE_RULESETS)
def test_ready_exactly_when_waits_finds_a_completing_tile(rid: str) -> None:
    rs = repo_rulesets()[rid]
    assert isinstance(rs, RuleSet)
    void = _void_reason(rs)
    wild_counts = (0, 2, 3) if rs.wild else (0,)
    ready = 0
    for standing, melds, ctx in _hands(rs, 12, N, wild_counts):
        got = shanten(standing, melds, ctx, rs)
        entries = waits(tuple(standing), melds, ctx, rs).waits
        kept = [w for w in entries if void is None or w.reason is None or w.reason.code != void]
        if got == 0:
            # Ready: a completing tile exists, unless every one is a fifth copy.
            held = standing + [t for m in melds for t in m.tiles]
            assert kept or any(held.count(t) == 4 for t in set(held)), (rid, standing, melds)
        else:
            assert not kept, (rid, standing, melds, got, [w.tile for w in kept])
        ready += got == 0
    assert ready, "no ready hand was drawn"


@pytest.mark.parametrize("rid", [r for r in TILE_RULESETS if repo_rulesets()[r].wild])
def test_a_wild_counts_as_any_tile(rid: str) -> None:
    """The shanten with wilds equals the least over every natural stand-in for them."""
    rs = repo_rulesets()[rid]
    assert isinstance(rs, RuleSet)
    naturals_ctx = WinContext("self_draw", options=rs.option_defaults)
    for standing, melds, ctx in _hands(rs, 13, max(N // 3, 10), (1, 2)):
        wilds = [t for t in standing if t in ctx.wilds]
        rest = [t for t in standing if t not in ctx.wilds]
        held = rest + [t for m in melds for t in m.tiles]
        best = None
        for stand_in in combinations_with_replacement(rs.tileset.playing, len(wilds)):
            hand = rest + list(stand_in)
            if any((held + list(stand_in)).count(t) > 4 for t in stand_in):
                continue
            got = shanten(hand, melds, naturals_ctx, rs)
            if got is not None and (best is None or got < best):
                best = got
        assert shanten(standing, melds, ctx, rs) == best, (rid, standing, melds, ctx.wilds)


def _fourteen(rs: RuleSet, seed: int, n: int):  # type: ignore[no-untyped-def]
    """Random 14-tile hands: a 13-tile hand of `_hands` and one more drawable tile."""
    rng = random.Random(seed)
    for standing, melds, ctx in _hands(rs, seed, n, (0, 1, 2) if rs.wild else (0,)):
        held = standing + [t for m in melds for t in m.tiles]
        if ctx.wild_indicator is not None and rs.wild is not None \
                and rs.wild.indicator_out_of_play:
            held.append(ctx.wild_indicator)
        free = [t for t in rs.tileset.playing if held.count(t) < rs.tileset.kinds[t].copies]
        yield [*standing, rng.choice(free)], melds, ctx


@pytest.mark.parametrize("rid", TILE_RULESETS)
def test_a_discard_row_counts_its_own_discard_as_seen(rid: str) -> None:
    """Each row's useful tiles are the kinds that lower the shanten of the 13 left and can be
    drawn by them, with the copies left counting the discard as seen (so the last copy
    discarded is listed with 0 left); a ready row's useful tiles are exactly its waits'."""
    rs = repo_rulesets()[rid]
    assert isinstance(rs, RuleSet)
    ts = rs.tileset
    out_of_play = rs.wild is not None and rs.wild.indicator_out_of_play
    for standing, melds, ctx in _fourteen(rs, 21, max(N // 5, 12)):
        result = analyse(standing, melds, ctx, rs)
        held = standing + [t for m in melds for t in m.tiles]
        if out_of_play and ctx.wild_indicator is not None:
            held.append(ctx.wild_indicator)
        for row in result.discards:
            if row.left.shanten is None:
                continue
            if row.left.waits is not None:
                assert [u.tile for u in row.left.useful] == [w.tile for w in row.left.waits], \
                    (rid, standing, melds, row.tile)
                continue
            gone = held[:]
            gone.remove(ts.by_code[row.tile])
            rest = standing[:]
            rest.remove(ts.by_code[row.tile])
            want = {}
            for t in ts.playing:
                if gone.count(t) >= ts.kinds[t].copies:
                    continue
                after = shanten([*rest, t], melds, ctx, rs)
                if after is not None and after < row.left.shanten:
                    want[ts.code(t)] = ts.kinds[t].copies - held.count(t)
            assert {u.tile: u.left for u in row.left.useful} == want, (rid, standing, row.tile)


def _suits(held: list[int], ts: TileSet) -> set[str]:
    return {ts.kinds[t].suit for t in held if ts.kinds[t].is_number}


@pytest.mark.parametrize("rid", [r for r in TILE_RULESETS
                                 if any(q.check == SUITS_AT_MOST
                                        for q in repo_rulesets()[r].requirements)])
def test_void_rows_are_the_declared_suit_or_none_in_two_suits(rid: str) -> None:
    """定缺: undeclared, a hand of at most two suits has no void row, and one of three has
    void rows of one suit only; declared, the void rows are exactly the declared suit's tiles,
    the shanten is never lower than undeclared, the same for a hand holding none of that
    suit, and none at all when a declared meld holds it."""
    rs = repo_rulesets()[rid]
    assert isinstance(rs, RuleSet)
    ts = rs.tileset
    two = three = 0
    for standing, melds, ctx in _fourteen(rs, 22, max(N // 3, 20)):
        held = standing + [t for m in melds for t in m.tiles]
        void = {r.tile for r in analyse(standing, melds, ctx, rs, score_waits=False).discards
                if r.void}
        if len(_suits(held, ts)) <= 2:
            assert not void, (rid, standing, melds)
            two += 1
        else:
            assert len(_suits([ts.by_code[c] for c in void], ts)) == 1, (rid, standing, void)
            three += 1
        undeclared = shanten(standing, melds, ctx, rs)
        for suit in ts.suits:
            options = {**ctx.options, "void_suit": (suit, None, None, None)}
            declared = WinContext(ctx.win_type, options=options)
            got = analyse(standing, melds, declared, rs, score_waits=False)
            assert {r.tile for r in got.discards if r.void} == \
                {ts.code(t) for t in standing if ts.kinds[t].suit == suit}
            if any(ts.kinds[t].suit == suit for m in melds for t in m.tiles):
                assert got.shanten is None, (rid, standing, melds, suit)
            elif suit not in _suits(held, ts):
                assert got.shanten == undeclared, (rid, standing, melds, suit)
            elif undeclared is not None:
                assert got.shanten is not None and got.shanten >= undeclared
    assert two and three
