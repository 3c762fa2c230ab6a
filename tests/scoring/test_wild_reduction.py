"""The reduced reading of wild hands (checks' `tells_apart`) scores exactly as the full one.

The tianjin rule set's checks all declare what they tell apart, so its wild hands are read
with free groups tried once per class and equivalent readings scored once. A variant with
one more fan whose check declares nothing (worth 0, so totals are unchanged), marked
`wild.read: full`, is read in full. On random near-complete hands with up to seven wilds
both must agree: the winning flag, the total, and whether a decomposition exists.
"""

from __future__ import annotations

import copy
import os
import random
from pathlib import Path
from typing import Any

import pytest

from app.domain.errors import HandError
from app.domain.tiles import STANDARD
from app.rules.load_files import load_yaml
from app.rules.model import RuleSet
from app.rules.tile_loader import build_ruleset
from app.scoring.evaluate import score
from app.service.tiles.requests import build
from tests.loaded import repo_rulesets

HANDS = int(os.environ.get("WILD_REDUCTION_HANDS", "60"))
ROOT = Path(__file__).resolve().parents[2]
CODES = [STANDARD.code(t) for t in STANDARD.playing]


@pytest.fixture(scope="module")
def tianjin() -> RuleSet:
    return repo_rulesets()["tianjin"]


@pytest.fixture(scope="module")
def exact() -> RuleSet:
    raw: dict[str, Any] = copy.deepcopy(
        load_yaml((ROOT / "rulesets" / "tianjin.yaml").read_text(encoding="utf-8")))
    raw["id"] = "tianjin_exact"
    raw["wild"]["read"] = "full"
    raw["fans"].append({"id": "probe", "name": "探", "name_en": "Probe", "value": 0,
                        "check": "tile_hog", "description": "sees every group"})
    rs = build_ruleset(raw, "tianjin_exact (test variant)")
    # The variant is read in full.
    assert rs.plan.wild is not None and rs.plan.wild.group_keys is None
    return rs


def _hand(rng: random.Random) -> tuple[str, str]:
    """A complete-looking hand of four sets and a pair, some tiles replaced by wilds."""
    indicator = rng.choice(CODES)
    ind = STANDARD.by_code[indicator]
    wild_kinds = {indicator, STANDARD.code(STANDARD.next_kinds[ind])}
    tiles: list[str] = []
    for _ in range(4):
        if rng.random() < 0.6:
            t = rng.choice([x for x in range(27) if x % 9 <= 6])
            tiles += [STANDARD.code(t + k) for k in range(3)]
        else:
            tiles += [rng.choice(CODES)] * 3
    tiles += [rng.choice(CODES)] * 2
    tiles = [t for t in tiles if t not in wild_kinds]
    rng.shuffle(tiles)
    spare = [k for k in sorted(wild_kinds) for _ in range(3 if k == indicator else 4)]
    rng.shuffle(spare)
    wilds = spare[:rng.randint(0, 7)]
    tiles = tiles[:14 - len(wilds)]
    while len(tiles) < 14 - len(wilds):
        tiles.append(rng.choice([c for c in CODES if c not in wild_kinds]))
    hand = tiles + wilds
    rng.shuffle(hand)
    return "".join(hand), indicator


def test_reduced_reading_equals_the_full_one(tianjin: RuleSet, exact: RuleSet) -> None:
    rng = random.Random(20261129)
    checked = wins = 0
    while checked < HANDS:
        hand, indicator = _hand(rng)
        context = {"win_type": "self_draw", "wild_indicator": indicator}
        try:
            h, ctx = build(hand, context, tianjin)
        except HandError:
            continue  # more copies than exist: not a hand
        a = score(h, ctx, tianjin)
        b = score(*build(hand, context, exact), exact)
        assert (a.winning, a.fan_total, a.decomposition is None) == (
            b.winning, b.fan_total, b.decomposition is None), (hand, indicator)
        checked += 1
        wins += a.winning
    print(f"{checked} hands, {wins} winning: reduced == full")
    assert wins > checked // 2


def test_hand_fans_are_shared_by_the_substitutions_only_when_every_hand_check_sees_no_group(
        tianjin: RuleSet) -> None:
    """Tianjin's hand fans (素, 杠开) look at the physical tiles and the context only: one set
    of hand fans serves every substitution. A hand fan that reads the tiles as substituted
    (清一色 tells suits apart) makes each substitution decide its own."""
    assert tianjin.plan.wild is not None and tianjin.plan.wild.physical_hand_fans
    raw: dict[str, Any] = copy.deepcopy(
        load_yaml((ROOT / "rulesets" / "tianjin.yaml").read_text(encoding="utf-8")))
    raw["id"] = "tianjin_one_suit"
    raw["fans"].append({"id": "one_suit", "name": "清一色", "name_en": "Full Flush",
                        "value": 1, "check": "one_suit", "params": {"honors": False},
                        "description": "one numbered suit only"})
    rs = build_ruleset(raw, "tianjin_one_suit (test variant)")
    assert rs.plan.wild is not None and not rs.plan.wild.physical_hand_fans
    # 中 and 发 wild (the indicator 中), standing for 3p-4p: 清一色 only as substituted.
    h, ctx = build("1p1p1p5p6p7p7p8p9p9p9pCF2p", {"win_type": "self_draw",
                                                 "wild_indicator": "C"}, rs)
    assert any(f.id == "one_suit" for f in score(h, ctx, rs).fans)
