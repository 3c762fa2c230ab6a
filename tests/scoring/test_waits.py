"""waits(): the tiles that complete a hand one tile short, each scored as `score` scores it.

The property tests build waiting hands from the random legal MCR hands of
tests/mcr_reference/generator.py (a winning hand minus one standing tile, sometimes with one
or two standing tiles swapped for random junk, so that many are not ready) and check waits()
against brute force over every tile calling `score` directly, and the set of waits and their
totals against the reference calculator, which nobody here wrote.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from app.domain.errors import HandError
from app.domain.hand import Hand, Meld, WinContext
from app.rules.model import RuleSet
from app.scoring.evaluate import score
from app.scoring.waits import WaitEntry, WaitsResult, waits
from app.service.tiles.requests import build_waiting
from app.service.tiles.responses import score_response, waits_response
from tests.loaded import repo_rulesets
from tests.mcr_reference.generator import ALL_TILES, call_oracle, oracle_args, random_hands

ROOT = Path(__file__).resolve().parents[2]
# The tile games: the waits of word cards are tests/scoring/test_card_explain.py's and their
# waits cases'.
RULESETS = {rid: rs for rid, rs in repo_rulesets().items()
            if isinstance(rs, RuleSet)}
MCR: RuleSet = RULESETS["mcr"]
T = MCR.tileset

Waiting = tuple[tuple[int, ...], tuple[Meld, ...], WinContext]


def waits_of(hand: Any, rs: RuleSet = MCR, **ctx: Any) -> WaitsResult:
    ctx.setdefault("win_type", "discard")
    if ctx["win_type"] == "discard":
        ctx.setdefault("discarder", 1)
    standing, melds, context = build_waiting(hand, ctx, rs)
    return waits(standing, melds, context, rs)


def tiles(result: WaitsResult) -> list[str]:
    return [w.tile for w in result.waits]


def fan_ids(entry: WaitEntry) -> dict[str, int]:
    return {f.id: f.count for f in entry.fans}


def held(standing: tuple[int, ...], melds: tuple[Meld, ...], t: int) -> int:
    return standing.count(t) + sum(m.tiles.count(t) for m in melds)


def brute_force(standing: tuple[int, ...], melds: tuple[Meld, ...], ctx: WinContext,
                rs: RuleSet) -> list[WaitEntry]:
    """Every playing tile, scored directly; kept when it has a winning shape and the hand
    does not already hold all its copies."""
    out = []
    for t in rs.tileset.display_order:
        kind = rs.tileset.kinds[t]
        if kind.is_flower or held(standing, melds, t) >= kind.copies:
            continue
        result = score(Hand((*standing, t), melds, t), ctx, rs)
        if result.decomposition is not None:
            out.append(WaitEntry.of(kind.code, result))
    return out


# ---------------------------------------------------------------------------------------------
# Worked hands


def test_nine_gates_waits_on_every_tile_of_its_suit() -> None:
    r = waits_of("1112345678999m", discarder=2)
    assert r.ready
    assert tiles(r) == [f"{n}m" for n in range(1, 10)]
    assert all(w.winning and fan_ids(w).get("nine_gates") == 1 for w in r.waits)
    assert all(w.decomposition is not None and w.decomposition.shape == "nine_gates"
               for w in r.waits)
    # 5m is the README's example: 九莲宝灯 88 + 双暗刻 2 + 幺九刻 1.
    five = r.waits[4]
    assert (five.tile, five.fan_total, five.value) == ("5m", 91, 99)
    # 1m and 9m add 清龙 and 四归一 (106, worth 114); the first in tile order is best.
    assert [w.fan_total for w in r.waits] == [106, 92, 89, 89, 91, 89, 89, 92, 106]
    assert r.best == r.waits[0]


def test_one_wait() -> None:
    r = waits_of("[123m][EEE,3]4567895m", discarder=3)
    assert tiles(r) == ["5m"]
    w = r.waits[0]
    assert w.winning and w.reason is None
    assert fan_ids(w) == {"pure_straight": 1, "half_flush": 1, "prevalent_wind": 1,
                          "seat_wind": 1, "closed_wait": 1}
    assert (w.fan_total, w.value, w.multiplier) == (27, 35, None)
    assert r.best == w


def test_ready_but_under_the_minimum() -> None:
    r = waits_of("123456m234p678s5s")
    assert r.ready and tiles(r) == ["5s", "8s"]
    for w in r.waits:
        assert not w.winning and w.reason is not None and w.reason.code == "below_minimum"
        assert w.value is None and w.fan_total == 5
    assert r.best is None


def test_not_ready() -> None:
    r = waits_of("1112345678m9pEE", win_type="self_draw")
    assert r == WaitsResult("mcr", (), None)
    assert not r.ready
    assert waits_response(r) == {"ruleset": "mcr", "ready": False, "can_win": False,
                                 "waits": [], "best": None}


def test_thirteen_orphans_waits_on_all_thirteen_in_written_order() -> None:
    r = waits_of("19m19p19sESWNCFP")
    assert tiles(r) == ["1m", "9m", "1p", "9p", "1s", "9s", "E", "S", "W", "N", "C", "F", "P"]
    assert all(fan_ids(w) == {"thirteen_orphans": 1} for w in r.waits)


def test_waits_come_in_written_order_not_index_order() -> None:
    # Tile indices run m, s, p; waits are listed m, p, s, honours, as the notation writes.
    r = waits_of("11m55p99sEECCFFP")  # six pairs and a single: 七对 on P only
    assert tiles(r) == ["P"]
    r = waits_of("1m1p1s2m2p2s3m3p3s5s6sEE")
    assert tiles(r) == ["4s", "7s"]
    r = waits_of("123m456p789s1s2pEE", win_type="self_draw")
    assert tiles(r) == []  # two singles: not ready


def test_a_tile_held_four_times_is_never_a_wait() -> None:
    # 111m + 1m would wait on the fifth 1m: formally a wait, but no such tile exists.
    assert not waits_of("1111m456p789p123s").ready
    # The same with the other three copies in a declared pung.
    assert not waits_of("[EEE]E456p789p123s").ready
    # Other waits stay: 11123m waits on 1m and 4m (and on E, as 11m + 123m + EEE), but the
    # declared chow holds the fourth 1m.
    r = waits_of("[123m]11123m456pEE")
    assert tiles(r) == ["4m", "E"]


def test_best_prefers_value_then_fan_total() -> None:
    # 2m, 5m and 8m complete it, for different totals: best is the one worth most.
    r = waits_of("2345678m345p666s", win_type="self_draw")
    winning = [w for w in r.waits if w.winning]
    assert winning and r.best is not None
    top = max((w.value or 0, w.fan_total) for w in winning)
    assert (r.best.value, r.best.fan_total) == top
    assert r.best == next(w for w in winning if (w.value, w.fan_total) == top)


def test_robbed_while_holding_another_copy_scores_no_robbing_fan() -> None:
    # 抢杠和 only on a tile the hand holds nowhere else: 5m (held) completes without it,
    # 2m and 8m (not held) complete with it.
    r = waits_of("34567m234p678sEE", discarder=1, kong="robbed")
    by_tile = {w.tile: w for w in r.waits}
    assert set(by_tile) == {"2m", "5m", "8m"}
    assert "robbing_the_kong" not in fan_ids(by_tile["5m"])
    assert fan_ids(by_tile["2m"]).get("robbing_the_kong") == 1
    assert fan_ids(by_tile["8m"]).get("robbing_the_kong") == 1


def test_replacement_needs_a_declared_kong_as_for_score() -> None:
    with pytest.raises(HandError) as err:
        build_waiting("123m456p789s1122s", {"win_type": "self_draw", "kong": "replacement"},
                      MCR)
    assert err.value.code == "inconsistent_context"
    r = waits_of("[5555s]123m456p99sEE", win_type="self_draw", kong="replacement")
    assert tiles(r) == ["9s", "E"]
    assert all(fan_ids(w).get("out_with_replacement_tile") == 1 for w in r.waits)


def test_json_is_the_score_of_the_completed_hand() -> None:
    context = {"win_type": "discard", "discarder": 3}
    standing, melds, ctx = build_waiting("[123m][EEE]4567895m", context, MCR)
    d = waits_response(waits(standing, melds, ctx, MCR))
    assert set(d) == {"ruleset", "ready", "can_win", "waits", "best"}
    entry = d["waits"][0]
    five = T.by_code["5m"]
    scored = score_response(score(Hand((*standing, five), melds, five), ctx, MCR))
    assert list(entry) == ["tile", "winning", "reason", "fans", "fan_total", "value",
                           "multiplier", "decomposition"]
    assert entry == {"tile": "5m", **{k: scored[k] for k in entry if k != "tile"}}
    assert d["best"] == entry


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
def test_every_rule_set_answers(ruleset: str) -> None:
    rs = RULESETS[ruleset]
    suit = rs.tileset.suits[0]  # 万 where the rule set has it (卡五星 has 条 and 筒 only)
    hand = f"1112345678999{suit}"
    r = waits_of(hand, rs, win_type="self_draw")
    assert r.ruleset == ruleset
    assert tiles(r) == [f"{n}{suit}" for n in range(1, 10)]
    standing, melds, ctx = build_waiting(hand, {"win_type": "self_draw"}, rs)
    assert list(r.waits) == brute_force(standing, melds, ctx, rs)


def test_sichuan_lists_a_three_suit_completion_as_not_winning() -> None:
    # 定缺: a hand holding all three suits has the shape but is no win in 四川.
    r = waits_of("123m456p789s1122s", RULESETS["sichuan"], win_type="self_draw")
    assert r.ready and tiles(r) == ["1s", "2s"]
    assert all(not w.winning and w.reason is not None for w in r.waits)
    assert r.best is None


# ---------------------------------------------------------------------------------------------
# Properties: random waiting hands against brute force and against the reference


def waiting_from(seed: int, drop: int, swaps: list[tuple[int, int]]) -> Waiting | None:
    """A random legal MCR hand (deterministic for `seed`) minus one standing tile, with some
    standing tiles swapped for junk; None when that breaks the four-copies limit."""
    case = random_hands(1, seed)[0]
    standing = list(case.hand.concealed)
    del standing[drop % len(standing)]
    for index, tile in swaps:
        standing[index % len(standing)] = tile
    melds = case.hand.melds
    if any(held(tuple(standing), melds, t) > 4 for t in set(standing)):
        return None
    random.Random(seed).shuffle(standing)
    return tuple(standing), melds, case.ctx


@st.composite
def waiting_hands(draw: st.DrawFn) -> Waiting:
    seed = draw(st.integers(0, 2**32 - 1))
    drop = draw(st.integers(0, 13))
    swaps = draw(st.lists(st.tuples(st.integers(0, 12), st.sampled_from(ALL_TILES)),
                          max_size=2))
    hand = waiting_from(seed, drop, swaps)
    assume(hand is not None)
    assert hand is not None
    return hand


PROPERTY = settings(max_examples=150, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


@PROPERTY
@given(hand=waiting_hands())
def test_waits_equal_brute_force(hand: Waiting) -> None:
    standing, melds, ctx = hand
    result = waits(standing, melds, ctx, MCR)
    assert list(result.waits) == brute_force(standing, melds, ctx, MCR)
    listed = {T.by_code[w.tile] for w in result.waits}
    assert all(held(standing, melds, t) < 4 for t in listed)
    assert result.ready == bool(result.waits)
    winning = [w for w in result.waits if w.winning]
    if winning:
        assert result.best in winning
        assert result.best is not None
        assert all((w.value or 0, w.fan_total) <= (result.best.value or 0, result.best.fan_total)
                   for w in winning)
    else:
        assert result.best is None


@PROPERTY
@given(hand=waiting_hands())
def test_waits_agree_with_the_reference(hand: Waiting) -> None:
    """The tiles that complete the hand and the total on each are the reference calculator's.

    Flags that depend on the completing tile (抢杠和, 和绝张) are cleared: the reference takes
    them as given, our engine drops them where they cannot hold."""
    standing, melds, ctx = hand
    ctx = ctx._replace(kong=None if ctx.kong == "robbed" else ctx.kong, last_of_kind=False)
    ours = {w.tile: w.fan_total for w in waits(standing, melds, ctx, MCR).waits}
    theirs: dict[str, int] = {}
    for t in ALL_TILES:
        if held(standing, melds, t) >= 4:
            continue
        try:
            ref = call_oracle(oracle_args(Hand((*standing, t), melds, t), ctx))
        except TypeError:  # ERROR_NOT_WIN
            continue
        theirs[T.code(t)] = ref.total
    assert ours == theirs


def test_the_property_hands_are_both_ready_and_not() -> None:
    """The generator mix really exercises both sides (and brute force agrees on a sample)."""
    rng = random.Random(7)
    ready = not_ready = 0
    for seed in range(60):
        hand = waiting_from(seed, rng.randrange(14),
                            [(rng.randrange(13), rng.choice(ALL_TILES))] if seed % 2 else [])
        if hand is None:
            continue
        result = waits(*hand, MCR)
        assert list(result.waits) == brute_force(*hand, MCR)
        ready += result.ready
        not_ready += not result.ready
    assert ready >= 20 and not_ready >= 10, (ready, not_ready)
