"""The `tells_apart` promise of checks (see app.rules.checks): a check's result depends on a
reading's groups only through the keys it declares, the winning tile's group included.

For every fan of every served rule set whose check declares a key function, random readings
of wild hands are scored twice, once with one group swapped for another identity of the
same key; the check must answer the same. A check declaring "nothing" must answer the same
whatever the groups.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from app.domain.hand import CHOW, PUNG, Hand, WinContext
from app.domain.readings import PAIR, Group, Reading
from app.domain.shapes import REGULAR
from app.domain.tiles import STANDARD
from app.domain.wildcards import group_tiles
from app.rules.checks import CHECKS, bound_params
from app.rules.model import RuleSet
from app.rules.view import HandFacts, View
from tests.loaded import repo_rulesets

ROOT = Path(__file__).resolve().parents[2]
# The tile games (a card game's patterns have no tile checks to tell readings apart).
RULESETS = {rid: rs for rid, rs in repo_rulesets().items()
            if isinstance(rs, RuleSet)}
TS = STANDARD
IDENTITIES = [(PUNG, t) for t in TS.playing] + [(CHOW, t) for t in sorted(TS.chow_starts)]

DECLARING = sorted(
    {(rs.id, f.id) for rs in RULESETS.values() for f in rs.fans
     if CHECKS[f.check].tells_apart is not None})


def _view(groups: list[Group], win: int, win_as: int, ctx: WinContext) -> View:
    tiles = sorted(t for g in groups for t in group_tiles(g.kind, g.tile))
    facts = HandFacts(Hand(tuple(tiles), (), win_as), ctx, TS, frozenset({REGULAR}))
    facts.wild_count = sum(len(g.subs) for g in groups)
    # The winning tile is one of its group's wilds when the group reads a wild as it.
    facts.win_wild = win_as in groups[win].subs
    return View(Reading(REGULAR, tuple(groups), win, win_as), facts, None)


def _group(kind: str, tile: int, rng: random.Random) -> Group:
    tiles = group_tiles(kind, tile)
    subs = tuple(sorted(rng.sample(tiles, rng.randint(0, len(tiles)))))
    return Group(kind, tile, subs=subs)


def _key(fn: Any, g: Group, win: tuple[int, int] | None, params: dict[str, Any]) -> Any:
    return fn(g.kind, g.tile, TS, win, **params)


@pytest.mark.parametrize(("ruleset", "fan"), DECLARING)
def test_a_check_sees_groups_only_through_its_keys(ruleset: str, fan: str) -> None:
    rs = RULESETS[ruleset]
    f = rs.fan_by_id[fan]
    spec = CHECKS[f.check]
    params = bound_params(f.bound)  # type: ignore[arg-type]
    rng = random.Random(fan)
    compared = 0
    for _ in range(400):
        indicator = rng.choice(TS.playing)
        wilds = tuple(sorted({indicator, TS.next_kinds[indicator]}))
        ctx = WinContext(win_type="self_draw", wild_indicator=indicator, wilds=wilds)
        groups = [_group(*rng.choice(IDENTITIES), rng) for _ in range(4)]
        pair_tile = rng.choice(TS.playing)
        groups.append(_group(PAIR, pair_tile, rng))
        win = rng.randrange(5)
        win_as = rng.choice(group_tiles(groups[win].kind, groups[win].tile))
        before = f.bound(_view(groups, win, win_as, ctx), ctx)  # type: ignore[misc]
        # Swap a set other than the winning tile's group (whose place the engine compares
        # through the keys with `win`, exercised by tests/scoring/test_wild_reduction.py).
        j = rng.choice([i for i in range(4) if i != win])
        old = groups[j]
        for kind, tile in rng.sample(IDENTITIES, len(IDENTITIES)):
            new = Group(kind, tile, subs=group_tiles(kind, tile)[:len(old.subs)])
            if (kind, tile) == (old.kind, old.tile):
                continue
            if spec.tells_apart == "nothing" or _key(spec.tells_apart, new, None, params) == _key(
                    spec.tells_apart, old, None, params):
                swapped = [*groups[:j], new, *groups[j + 1:]]
                after = f.bound(_view(swapped, win, win_as, ctx), ctx)  # type: ignore[misc]
                assert after == before, (fan, groups, new)
                compared += 1
                break
    assert compared > 100


READINGS_APART = sorted(
    {(rs.id, f.id) for rs in RULESETS.values() for f in rs.fans
     if CHECKS[f.check].tells_readings_apart is not None})


def _told(spec: Any, groups: list[Group], win: int, win_as: int,
          params: dict[str, Any]) -> Any:
    """The check's `tells_readings_apart` of a reading: every group's key, the winning
    tile's group's with `win`."""
    keys = [_key(spec.tells_apart, g, (win_as, len(g.subs)) if i == win else None, params)
            for i, g in enumerate(groups)]
    return spec.tells_readings_apart(tuple(keys), TS, **params)


@pytest.mark.parametrize(("ruleset", "fan"), READINGS_APART)
def test_a_check_tells_readings_apart_as_it_says(ruleset: str, fan: str) -> None:
    """A set swapped for any identity (of another key, mostly) that leaves the check's
    `tells_readings_apart` of the reading as it was: the check answers the same."""
    rs = RULESETS[ruleset]
    f = rs.fan_by_id[fan]
    spec = CHECKS[f.check]
    params = bound_params(f.bound)  # type: ignore[arg-type]
    rng = random.Random(f"{fan} readings")
    compared = counted = 0
    for _ in range(600):
        indicator = rng.choice(TS.playing)
        wilds = tuple(sorted({indicator, TS.next_kinds[indicator]}))
        ctx = WinContext(win_type="self_draw", wild_indicator=indicator, wilds=wilds)
        # Chows of 123, 456 and 789 often, a whole 龙 (of the wild tiles' suit, mostly)
        # half the time, so that the answer is often not 0.
        starts = [t for t in sorted(TS.chow_starts) if TS.kinds[t].rank in (1, 4, 7)]
        groups = [_group(*(rng.choice(IDENTITIES) if rng.random() < 0.4
                           else (CHOW, rng.choice(starts))), rng) for _ in range(4)]
        if rng.random() < 0.5:
            wild_suit = TS.kinds[wilds[0]]
            first = (TS.suit_starts[wild_suit.suit] if wild_suit.is_number
                     and rng.random() < 0.7 else rng.choice(list(TS.suit_starts.values())))
            groups[:3] = [_group(CHOW, first + 3 * k, rng) for k in range(3)]
            rng.shuffle(groups)
        groups.append(_group(PAIR, rng.choice(TS.playing), rng))
        win = rng.randrange(5)
        win_as = rng.choice(group_tiles(groups[win].kind, groups[win].tile))
        before = f.bound(_view(groups, win, win_as, ctx), ctx)  # type: ignore[misc]
        counted += before > 0
        told = _told(spec, groups, win, win_as, params)
        j = rng.choice([i for i in range(4) if i != win])
        old = groups[j]
        for kind, tile in rng.sample(IDENTITIES, len(IDENTITIES)):
            if (kind, tile) == (old.kind, old.tile):
                continue
            new = Group(kind, tile, subs=group_tiles(kind, tile)[:len(old.subs)])
            swapped = [*groups[:j], new, *groups[j + 1:]]
            if _told(spec, swapped, win, win_as, params) == told:
                after = f.bound(_view(swapped, win, win_as, ctx), ctx)  # type: ignore[misc]
                assert after == before, (fan, groups, new)
                compared += 1
                break
    assert compared > 300 and counted > 20, (compared, counted)
