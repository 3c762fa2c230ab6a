"""waits with wild tiles (混): a lone wild waits on every tile, a ready hand also waits on the
wild kinds, the flipped indicator is a copy in sight, and every listed tile is what `score`
says of the completed hand."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from app.domain.errors import HandError
from app.domain.hand import Hand
from app.domain.tiles import STANDARD
from app.rules.model import RuleSet
from app.scoring.evaluate import score
from app.scoring.waits import waits
from app.service.tiles.requests import build_waiting
from tests.loaded import repo_rulesets

ROOT = Path(__file__).resolve().parents[2]
TS = STANDARD


@pytest.fixture(scope="module")
def tianjin() -> RuleSet:
    return repo_rulesets()["tianjin"]


def _waits(hand: str, indicator: str, rs: RuleSet) -> list[str]:
    standing, melds, ctx = build_waiting(
        hand, {"win_type": "self_draw", "wild_indicator": indicator}, rs)
    return [w.tile for w in waits(standing, melds, ctx, rs).waits]


def test_a_lone_wild_beside_four_sets_waits_on_every_tile(tianjin: RuleSet) -> None:
    # 3p is wild (indicator 3p): the wild pairs with whatever is drawn. 1p is not a wait:
    # the hand holds three 1p, and a fourth with the wild as a fifth 1p would be too many.
    got = _waits("123m456m789m111p3p", "3p", tianjin)
    assert set(got) == {TS.code(t) for t in TS.playing} - {"1p"}


def test_a_ready_hand_without_wilds_also_waits_on_the_wilds(tianjin: RuleSet) -> None:
    got = _waits("123m456m789m111p5s", "E", tianjin)  # E and S are wild
    assert set(got) == {"5s", "E", "S"}


def test_the_flipped_indicator_is_a_copy_in_sight(tianjin: RuleSet) -> None:
    # Three 9s held and the fourth flipped: 9s cannot be drawn.
    assert "9s" not in _waits("123m456m789m9s9s9s5p", "9s", tianjin)
    assert "9s" in _waits("123m456m789m9s9s9s5p", "8s", tianjin)


def test_every_wait_is_a_winning_shape_and_no_other_tile_is(tianjin: RuleSet) -> None:
    """On random hands one tile short, with up to three wilds: the waits are exactly the
    tiles whose completed hand `score` reads (copies allowing)."""
    rng = random.Random(7)
    codes = [TS.code(t) for t in TS.playing]
    checked = ready = 0
    while checked < 60:
        indicator = rng.choice(codes)
        ind = TS.by_code[indicator]
        wild_kinds = {ind, TS.next_kinds[ind]}
        base = rng.choice(["123m456m789m11p555s", "234s555p678p99m123m", "111m222s333pEE789m",
                           "345m345m678s22p999p", "11m22m33m456s77p789p"])
        tiles = [TS.by_code[c] for c in _codes(base)]
        rng.shuffle(tiles)
        tiles = tiles[:13]
        for _ in range(rng.randint(0, 3)):
            tiles[rng.randrange(13)] = rng.choice(sorted(wild_kinds))
        notation = "".join(TS.code(t) for t in tiles)
        try:
            standing, melds, ctx = build_waiting(
                notation, {"win_type": "self_draw", "wild_indicator": indicator}, tianjin)
        except HandError:
            continue
        listed = {w.tile for w in waits(standing, melds, ctx, tianjin).waits}
        held = {t: standing.count(t) + (t == ind) for t in TS.playing}
        expected = set()
        for t in TS.playing:
            if held[t] >= 4:
                continue
            if score(Hand((*standing, t), melds, t), ctx, tianjin).decomposition is not None:
                expected.add(TS.code(t))
        assert listed == expected, notation
        checked += 1
        ready += bool(listed)
    assert ready > 20


def _codes(notation: str) -> list[str]:
    out: list[str] = []
    digits = ""
    for ch in notation:
        if ch.isdigit():
            digits += ch
        elif ch in "mps":
            out += [d + ch for d in digits]
            digits = ""
        else:
            out.append(ch)
    return out
