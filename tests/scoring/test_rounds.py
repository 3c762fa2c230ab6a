"""Round settlement (血战到底, and 天津's one-winner rounds with the dealer's stakes, 金杠, 铲 and
the drawn game): docs/api.md's example round, each rule on its own, and properties over thousands of
random valid rounds.

Rounds are written as settle request bodies and go through `build_round` (the domain's
validation) and `settle` (the engine), with the real `sichuan` and `chengdu` rule sets.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.domain.errors import HandError
from app.domain.events import DrawEvent, WinEvent
from app.domain.hand import DISCARD, WinContext
from app.rules.settlement import KEEP, KONG_DISCARD_MODES, REFUND, TRANSFER
from app.scoring.rounds import SettleResult, settle
from app.scoring.waits import waits
from app.service.problems import ApiError
from app.service.tiles.requests import build_waiting
from app.service.tiles.settle_requests import build_round, read_settle_request
from tests.loaded import repo_rulesets
from tests.scoring.round_gen import rounds

ROOT = Path(__file__).resolve().parents[2]
RULESETS = repo_rulesets()
SICHUAN = RULESETS["sichuan"]
CHENGDU = RULESETS["chengdu"]
# Random rounds per property run; SETTLE_ROUNDS deepens it.
ROUNDS = int(os.environ.get("SETTLE_ROUNDS", "600"))


def kong(seat: int, kind: str, tile: str, **extra: Any) -> dict[str, Any]:
    return {"type": "kong", "seat": seat, "kind": kind, "tile": tile, **extra}


def win(seat: int, hand: str, **context: Any) -> dict[str, Any]:
    if "discarder" in context:
        context = {"win_type": "discard", **context}
    return {"type": "win", "seat": seat, "hand": hand,
            "context": context or {"win_type": "self_draw"}}


def draw(*hands: tuple[int, str] | tuple[int, str, bool]) -> dict[str, Any]:
    out = []
    for h in hands:
        entry: dict[str, Any] = {"seat": h[0], "hand": h[1]}
        if len(h) == 3:
            entry["passive_pig"] = h[2]
        out.append(entry)
    return {"type": "draw", "hands": out}


def run(*events: dict[str, Any], ruleset: str = "sichuan", **options: Any) -> SettleResult:
    rs = RULESETS[ruleset]
    return settle(build_round({"options": options, "events": list(events)}, rs), rs)


def moves(result: SettleResult) -> list[tuple[int, int, int, str, int]]:
    return [tuple(t) for t in result.transfers]  # type: ignore[misc]


# The sichuan rule's worked round (docs/api.md's example round), with hands that fit it:
# seat 2's 大对子 (1 fan), seat 0's 清一色 (2 fan), seat 1 ready with its concealed kong of
# 5m (best wait 8m: 杠 + 清一色 = 3 fan = 8; 5m is no wait, all four are in the kong), seat 3
# not ready with two suits.
RULE_PAGE_ROUND = [
    kong(1, "concealed", "5m"),
    win(2, "222m333m777p888p44p", discarder=3),
    win(0, "123456789s23499s"),
    draw((1, "{5555m}111m234m67m99m"), (3, "13579s2468p1357p")),
]


def test_the_rule_page_round() -> None:
    result = run(*RULE_PAGE_ROUND)
    assert moves(result) == [
        # Seat 1's concealed kong: seats 0, 2, 3 pay 2 each.
        (0, 1, 2, "concealed_kong", 0), (2, 1, 2, "concealed_kong", 0),
        (3, 1, 2, "concealed_kong", 0),
        # Seat 2 wins on seat 3's discard with 大对子 (1 fan): seat 3 pays 2.
        (3, 2, 2, "win_discard", 1),
        # Seat 0 self-draws 清一色 (2 fan): seats 1 and 3 pay 4 + 1; seat 2 is out.
        (1, 0, 5, "win_self_draw", 2), (3, 0, 5, "win_self_draw", 2),
        # The wall runs out: seat 3 (not ready, two suits) pays seat 1 its best value.
        (3, 1, 8, "not_ready", 3),
    ]
    assert result.net == (8, 9, 0, -17)
    assert sum(result.net) == 0
    assert result.finished
    assert [(w.seat, w.fan_total, w.value) for w in result.wins] == [(2, 1, 2), (0, 2, 4)]
    assert result.draw is not None
    (one, three) = result.draw.players
    assert (one.seat, one.state, three.seat, three.state) == (1, "ready", 3, "not_ready")
    assert one.best is not None and (one.best.tile, one.best.value) == ("8m", 8)
    assert {f.id for f in one.best.fans} == {"kong", "full_flush"}


def test_winners_drop_out_of_later_payments() -> None:
    result = run(
        win(2, "222m333m777p888p44p", discarder=3),
        kong(1, "concealed", "5s"),
        win(0, "123456789p23499p"),
    )
    assert moves(result) == [
        (3, 2, 2, "win_discard", 0),
        (0, 1, 2, "concealed_kong", 1), (3, 1, 2, "concealed_kong", 1),
        (1, 0, 5, "win_self_draw", 2), (3, 0, 5, "win_self_draw", 2),
    ]
    assert not result.finished  # two seats are still in and the wall has not run out


def test_several_wins_on_one_discard_are_each_paid_by_the_discarder() -> None:
    # 一炮多响 on 5p from seat 3: seat 0 waits on the pair, seat 1 on a pung; both hold 5p,
    # five copies counted per hand, four in the round (the discarded tile counts once).
    result = run(
        win(0, "123m456m789m111p5p5p", discarder=3),
        win(1, "234s567s888s99s5p5p5p", discarder=3),
    )
    assert moves(result) == [(3, 0, 1, "win_discard", 0), (3, 1, 1, "win_discard", 1)]
    assert result.net == (1, 1, 0, -2)


def test_the_same_tile_won_twice_apart_is_two_tiles() -> None:
    with pytest.raises(HandError) as info:
        run(win(0, "123m456m789m111p5p5p", discarder=3),
            kong(2, "concealed", "9s"),
            win(1, "234s567s888s99s5p5p5p", discarder=3))
    assert (info.value.code, info.value.pointer) == ("too_many_copies", "/events/2/hand")


def test_a_robbed_added_kong_is_void() -> None:
    result = run(
        kong(1, "added", "3p", fresh=True),
        win(0, "123s456s789s11s24p3p", discarder=1, kong="robbed"),
        # The robbed kong counts as no kong: seat 1 shows a pung of 3p.
        draw((1, "[333p]2244558899s"), (2, "11223344556m77p"),
             (3, "7899m45678p1256p")),
    )
    assert moves(result)[:7] == [
        (0, 1, 1, "added_kong", 0), (2, 1, 1, "added_kong", 0), (3, 1, 1, "added_kong", 0),
        (1, 0, 1, "kong_void", 1), (1, 2, 1, "kong_void", 1), (1, 3, 1, "kong_void", 1),
        (1, 0, 2, "win_discard", 1),  # 抢杠 1 fan
    ]
    assert {f.id for f in result.wins[0].fans} == {"robbing_the_kong"}
    # Seat 1 is not ready, but nothing of the void kong is left for 退税.
    assert result.draw is not None and result.draw.players[0].state == "not_ready"
    assert not [t for t in result.transfers if t.reason == "tax_refund"]


def test_the_kong_before_a_win_on_its_makers_discard_is_refunded_once() -> None:
    # 杠上炮: seat 1 konged seat 2's 7s, then discarded 3p; seats 3 and 0 both win on it.
    result = run(
        kong(1, "direct", "7s", discarder=2),
        win(3, "123m456m789m22p33p3p", discarder=1, kong="after_kong_discard"),
        win(0, "456m789m111m44m24p3p", discarder=1, kong="after_kong_discard"),
    )
    assert moves(result) == [
        (2, 1, 2, "direct_kong", 0),
        (1, 2, 2, "kong_refund", 1),
        (1, 3, 2, "win_discard", 1),  # 杠上炮 1 fan
        (1, 0, 2, "win_discard", 2),
    ]
    assert {f.id for f in result.wins[0].fans} == {"kong_discard"}


def test_tax_refund_goes_back_to_the_payers_still_in() -> None:
    # 退税: seat 1 konged, then is not ready at the draw: it returns the kong money to seats
    # 2 and 3; seat 0 paid too but has won since and is out of the drawn-game checks.
    result = run(
        kong(1, "concealed", "5m"),
        win(0, "123456789p23499p"),
        draw((1, "{5555m}1379m2468s19s"), (2, "11223344556s77p"),
             (3, "147m369m258s147s9s")),
    )
    assert moves(result)[-4:] == [
        (1, 2, 4, "not_ready", 2), (3, 2, 4, "not_ready", 2),
        (1, 2, 2, "tax_refund", 2), (1, 3, 2, "tax_refund", 2),
    ]
    assert result.net == (13, -7, 3, -9)


def test_pigs() -> None:
    # Seat 0 is a pig (三门, 花猪) with a kong, seat 1 a passive pig, seat 2 ready (best
    # 七对 = 4), seat 3 not ready.
    result = run(
        kong(0, "concealed", "9p"),
        draw((0, "{9999p}1245m268s137p"), (1, "3789m13579s2468p", True),
             (2, "11223344556s77p"), (3, "147m369m258s147s9s")),
    )
    assert moves(result)[3:] == [
        # 查花猪: the pig pays 16 to each non-pig (the passive pig is one).
        (0, 1, 16, "pig_penalty", 1), (0, 2, 16, "pig_penalty", 1),
        (0, 3, 16, "pig_penalty", 1),
        # 查大叫: the passive pig (treated as 没叫) and seat 3 pay seat 2; the active pig does
        # not ("没听牌的玩家（花猪不用）赔给听牌的玩家").
        (1, 2, 4, "not_ready", 1), (3, 2, 4, "not_ready", 1),
        # 退税: the pig returns its kong money.
        (0, 1, 2, "tax_refund", 1), (0, 2, 2, "tax_refund", 1), (0, 3, 2, "tax_refund", 1),
    ]
    assert result.net == (-48, 12, 24, 12)
    assert result.draw is not None
    assert [p.state for p in result.draw.players] == ["pig", "passive_pig", "ready",
                                                      "not_ready"]


def test_a_passive_pig_pays_as_not_ready_and_refunds() -> None:
    # Seat 1 a passive pig with a kong, seat 2 ready (七对 = 4), seat 3 not ready: the passive
    # pig pays no penalty, pays 查大叫 and returns its kong money.
    result = run(
        kong(1, "concealed", "9p"),
        draw((0, "147m369m258p147p8p"), (1, "{9999p}1245m268s137p", True),
             (2, "11223344556s77p"), (3, "147m369m258s147s9s")),
    )
    assert moves(result)[3:] == [
        (0, 2, 4, "not_ready", 1), (1, 2, 4, "not_ready", 1), (3, 2, 4, "not_ready", 1),
        (1, 0, 2, "tax_refund", 1), (1, 2, 2, "tax_refund", 1), (1, 3, 2, "tax_refund", 1),
    ]


def test_tax_refund_is_due_when_nobody_is_ready() -> None:
    # Nobody left is ready: 查大叫 has nobody to pay, but 退税 is unconditional ("如果流局的时候
    # 玩家还没有叫牌，则必须退回全部刮风下雨所得"): seat 1 returns its kong money to seats 2 and 3
    # (seat 0 paid it too, but has won since).
    result = run(kong(1, "concealed", "5m"), win(0, "123456789p23499p"),
                 draw((1, "{5555m}1379m2468s19s"), (2, "1379m123456789s"),
                      (3, "147m369m258s147s9s")))
    assert moves(result)[-2:] == [(1, 2, 2, "tax_refund", 2), (1, 3, 2, "tax_refund", 2)]
    assert not [t for t in result.transfers if t.reason == "not_ready"]
    assert result.draw is not None
    assert {p.state for p in result.draw.players} == {"not_ready"}


def test_nothing_is_paid_at_the_draw_when_everybody_is_ready() -> None:
    result = run(kong(1, "concealed", "5m"), win(0, "123456789p23499p"),
                 draw((1, "{5555m}111m234m67m99m"), (2, "11223344556s77p"),
                      (3, "123p456p789p11s23s")))
    assert result.transfers and all(t.event < 2 for t in result.transfers)
    assert result.draw is not None
    assert {p.state for p in result.draw.players} == {"ready"}


# A draw before anyone has won: seat 0 ready on 3m (平胡, 1) or 6m (七对, 2 fan = 4), the
# others not ready.
BEST_OF_TWO = draw((0, "11223344556m77p"), (1, "147m369m258s147s9s"), (2, "2589m123456789p"),
                   (3, "1358p123456799s"))


def test_the_best_value_is_the_highest_over_the_waits() -> None:
    # 11223344556m77p waits on 3m (平胡, 1) and 6m (七对, 2 fan = 4): 查大叫 pays 4.
    result = run(BEST_OF_TWO)
    rs = SICHUAN
    standing, melds, _ = build_waiting("11223344556m77p", {"win_type": DISCARD, "discarder": 1},
                                       rs)
    ctx = WinContext(win_type=DISCARD, winner=0, discarder=1,
                     options={o.name: o.default for o in rs.options})
    found = waits(standing, melds, ctx, rs)
    assert [(w.tile, w.value) for w in found.waits] == [("3m", 1), ("6m", 4)]
    assert found.best is not None
    assert {t.amount for t in result.transfers if t.reason == "not_ready"} == {found.best.value}
    assert [(t.payer, t.payee) for t in result.transfers] == [(1, 0), (2, 0), (3, 0)]


def test_the_best_value_counts_hand_fans_only() -> None:
    # Self-draw modes and 海底 do not enter 查大叫: the value is that of a discard win.
    for options in ({"self_draw": "add_fan"}, {"self_draw": "add_base"}):
        result = run(BEST_OF_TWO, **options)
        assert [t.amount for t in result.transfers] == [4, 4, 4]


def test_base_and_cap_options() -> None:
    result = run(kong(1, "concealed", "5m"),
                 win(0, "111p222p333p444p5p5p"), base=5, cap="none")
    # 暗杠 2 × 5 each; 清一色 2 + 大对子 1 + ... self-draw: base × 2^fan + base.
    kongs = [t.amount for t in result.transfers if t.reason == "concealed_kong"]
    assert kongs == [10, 10, 10]
    (w,) = result.wins
    assert w.value == 5 * 2 ** w.fan_total
    assert {t.amount for t in result.transfers if t.event == 1} == {w.value + 5}


@pytest.mark.parametrize("ruleset,options,fresh,paid", [
    ("sichuan", {}, True, [1, 1, 1]),
    ("sichuan", {}, False, []),  # 及时雨: an added tile held earlier earns nothing
    # chengdu by default as sichuan (the seed: 弯杠 only at once); paid any time as an option.
    ("chengdu", {}, False, []),
    ("chengdu", {}, True, [1, 1, 1]),
    ("chengdu", {"added_kong_fresh_only": False}, False, [1, 1, 1]),
    ("chengdu", {"added_kong_fresh_only": False, "base": 5}, False, [5, 5, 5]),
    ("chengdu", {"base": 5}, True, [5, 5, 5]),
])
def test_added_kong_money(ruleset: str, options: dict[str, Any], fresh: bool,
                          paid: list[int]) -> None:
    result = run(kong(2, "added", "3p", fresh=fresh), ruleset=ruleset, **options)
    assert [t.amount for t in result.transfers] == paid


@pytest.mark.parametrize("ruleset,options,amount", [
    ("sichuan", {}, 2), ("chengdu", {}, 2), ("chengdu", {"direct_kong_amount": 1}, 1),
    ("chengdu", {"direct_kong_amount": 1, "base": 3}, 3),
])
def test_direct_kong_money(ruleset: str, options: dict[str, Any], amount: int) -> None:
    result = run(kong(2, "direct", "3p", discarder=0), ruleset=ruleset, **options)
    assert moves(result) == [(0, 2, amount, "direct_kong", 0)]


def test_a_non_winning_hand_is_not_a_win() -> None:
    with pytest.raises(HandError) as info:
        run(win(0, "123m456p789s11m222p", discarder=1))  # three suits: 定缺
    assert (info.value.code, info.value.pointer) == ("not_a_win", "/events/0/hand")
    assert "three_suits" in info.value.message and "events[0]" in info.value.message


def test_a_rule_set_without_settlement() -> None:
    with pytest.raises(HandError) as info:
        build_round({"events": []}, RULESETS["mcr"])
    assert info.value.code == "settle_not_supported"


def test_an_empty_round() -> None:
    result = run()
    assert (result.net, result.transfers, result.finished) == ((0, 0, 0, 0), (), False)


# --- properties over random valid rounds -------------------------------------------------

def _check_round(body: dict[str, Any], ruleset: str) -> SettleResult:
    rs = RULESETS[ruleset]
    rnd = build_round(body, rs)
    result = settle(rnd, rs)
    # The nets sum to zero and are the transfers' sums.
    assert sum(result.net) == 0
    net = [0] * rs.players
    for t in result.transfers:
        assert t.amount > 0 and t.payer != t.payee
        net[t.payer] -= t.amount
        net[t.payee] += t.amount
    assert tuple(net) == result.net
    # 血战到底: once a seat has won, no later event moves its money.
    won_at = {e.seat: i for i, e in enumerate(rnd.events) if isinstance(e, WinEvent)}
    for t in result.transfers:
        for seat in (t.payer, t.payee):
            assert won_at.get(seat, len(rnd.events)) >= t.event, (t, won_at)
    assert [w.event for w in result.wins] == list(won_at.values())
    # The transfers come in event order, each naming its event.
    assert [t.event for t in result.transfers] == sorted(t.event for t in result.transfers)
    return result


@settings(max_examples=ROUNDS, deadline=None, database=None,
          suppress_health_check=list(HealthCheck))
@given(rounds())
def test_nets_sum_to_zero_over_random_rounds(body: dict[str, Any]) -> None:
    _check_round(body, "sichuan")


@settings(max_examples=ROUNDS // 3, deadline=None, database=None,
          suppress_health_check=list(HealthCheck))
@given(rounds(), st.booleans(), st.sampled_from([1, 2]))
def test_nets_sum_to_zero_over_random_chengdu_rounds(body: dict[str, Any], fresh_only: bool,
                                                     direct: int) -> None:
    body["options"].update(added_kong_fresh_only=fresh_only, direct_kong_amount=direct)
    _check_round(body, "chengdu")


@settings(max_examples=ROUNDS // 3, deadline=None, database=None,
          suppress_health_check=list(HealthCheck))
@given(rounds(shared_discards=True))
def test_the_kong_money_of_gang_shang_pao_under_each_mode(body: dict[str, Any]) -> None:
    """杠上炮 under refund, transfer and keep: keep moves no kong money at the win; transfer
    moves, from the discarder to a winner of that discard (the first in turn order after the
    discarder), exactly what refund returns to the payers, since the modes part only there."""
    results = {}
    for mode in KONG_DISCARD_MODES:
        body["options"]["gang_shang_pao_kong_money"] = mode
        results[mode] = _check_round(body, "sichuan")
    rnd = build_round(body, SICHUAN)

    def paid(mode: str, reason: str) -> list[tuple[int, int, int, int]]:
        return [(t.payer, t.payee, t.amount, t.event) for t in results[mode].transfers
                if t.reason == reason]

    assert not paid(KEEP, "kong_refund") and not paid(KEEP, "kong_transfer")
    assert not paid(REFUND, "kong_transfer") and not paid(TRANSFER, "kong_refund")
    assert (sum(a for *_, a, _ in paid(REFUND, "kong_refund"))
            == sum(a for *_, a, _ in paid(TRANSFER, "kong_transfer")))
    for payer, payee, _, i in paid(TRANSFER, "kong_transfer"):
        event = rnd.events[i]
        assert isinstance(event, WinEvent) and event.context.kong == "after_kong_discard"
        assert (payer, payee) == (event.context.discarder, event.seat)
        winners = [e.seat for e in rnd.events if isinstance(e, WinEvent)
                   and e.kong_event == event.kong_event]
        assert all((payee - payer) % SICHUAN.players <= (w - payer) % SICHUAN.players
                   for w in winners)


@settings(max_examples=ROUNDS // 3, deadline=None, database=None,
          suppress_health_check=list(HealthCheck))
@given(rounds())
def test_not_ready_pays_the_best_waits_value(body: dict[str, Any]) -> None:
    """查大叫: what each not-ready player pays a ready one is that player's best value from
    the waits logic, under a discard win with no kong flag and not the last tile."""
    rs = SICHUAN
    rnd = build_round(body, rs)
    result = settle(rnd, rs)
    if result.draw is None:
        return
    event = rnd.events[result.draw.event]
    assert isinstance(event, DrawEvent)
    states = {p.seat: p.state for p in result.draw.players}
    paid = [t for t in result.transfers if t.reason == "not_ready"]
    for hand in event.hands:
        other = next(h.seat for h in event.hands if h.seat != hand.seat)
        ctx = WinContext(win_type=DISCARD, winner=hand.seat, discarder=other,
                         options=dict(rnd.options))
        best = waits(hand.standing, hand.melds, ctx, rs).best
        if states[hand.seat] != "ready":
            continue
        assert best is not None and best.value is not None
        to_it = [t for t in paid if t.payee == hand.seat]
        assert all(t.amount == best.value for t in to_it)
        # Every player not ready pays, a passive pig too; an active pig does not.
        assert {t.payer for t in to_it} == {s for s, st_ in states.items()
                                             if st_ in ("not_ready", "passive_pig")}


# --- 天津: one winner, the dealer's stakes (坐庄 / 拉庄), 金杠, 铲, 荒庄 ------------------------

TIANJIN = RULESETS["tianjin"]


def tianjin(*events: dict[str, Any], dealer: int | None = 0, wild: str | None = "3p",
            **options: Any) -> SettleResult:
    body: dict[str, Any] = {"options": options, "events": list(events)}
    if dealer is not None:
        body["dealer"] = dealer
    if wild is not None:
        body["wild_indicator"] = wild
    return settle(build_round(body, TIANJIN), TIANJIN)


def tianjin_error(*events: dict[str, Any], **kwargs: Any) -> HandError:
    with pytest.raises(HandError) as info:
        tianjin(*events, **kwargs)
    return info.value


FOLLOW = {"type": "follow_dealer"}
# Seat 1's 素 (worth 2) won by self-draw, with its direct kong of 9s declared.
SEAT_1_WINS = win(1, "[9999s]234m678m22s35s4s")
TIANJIN_ROUND = [FOLLOW, kong(1, "direct", "9s", discarder=3),
                 kong(2, "concealed", "4p"),  # four wild tiles (indicator 3p): a 金杠
                 kong(3, "added", "1m", fresh=True), SEAT_1_WINS]
# Every seat's hand at a draw, seat 2 with its concealed kong of the wild 4p.
TIANJIN_DRAW = draw((0, "234m678m22s35s777p"), (1, "111m222m333m444m5m"),
                    (2, "{4444p}111s555s666s9s"), (3, "EEESSSWWWNNNC"))


def test_the_seed_example_of_chan() -> None:
    """铲: the dealer sits, A pulls 0, B 1, C 2 (dealer at seat 0): after the normal
    settlement the dealer pays A 2, B 4 and C 8."""
    result = tianjin(FOLLOW, dealer_sits=True, pulls=[0, 0, 1, 2])
    assert moves(result) == [(0, 1, 2, "follow_dealer", 0), (0, 2, 4, "follow_dealer", 0),
                             (0, 3, 8, "follow_dealer", 0)]
    assert result.net == (-14, 2, 4, 8)
    assert not result.finished  # 铲 alone does not end the round


def test_a_tianjin_round_without_stakes() -> None:
    """Kongs from every other player (exposed 1, concealed 2: 金杠 is off by default), the
    win from every other player (no self-draw bonus), then 铲 1 each; the win ends it."""
    result = tianjin(*TIANJIN_ROUND)
    assert moves(result) == [
        (0, 1, 1, "direct_kong", 1), (2, 1, 1, "direct_kong", 1), (3, 1, 1, "direct_kong", 1),
        (0, 2, 2, "concealed_kong", 2), (1, 2, 2, "concealed_kong", 2),
        (3, 2, 2, "concealed_kong", 2),
        (0, 3, 1, "added_kong", 3), (1, 3, 1, "added_kong", 3), (2, 3, 1, "added_kong", 3),
        (0, 1, 2, "win_self_draw", 4), (2, 1, 2, "win_self_draw", 4),
        (3, 1, 2, "win_self_draw", 4),
        (0, 1, 1, "follow_dealer", 0), (0, 2, 1, "follow_dealer", 0),
        (0, 3, 1, "follow_dealer", 0),
    ]
    assert result.finished and sum(result.net) == 0
    assert [(w.seat, w.value) for w in result.wins] == [(1, 2)]


@pytest.mark.parametrize("golden,amount,reason", [
    ("off", 2, "concealed_kong"), (4, 4, "golden_kong")])
def test_the_golden_kong_option(golden: Any, amount: int, reason: str) -> None:
    result = tianjin(kong(2, "concealed", "4p"), golden_kong=golden, base=3)
    assert moves(result) == [(s, 2, 3 * amount, reason, 0) for s in (0, 1, 3)]


def test_a_concealed_kong_of_natural_tiles_is_never_golden() -> None:
    result = tianjin(kong(2, "concealed", "5p"), golden_kong=4)
    assert {t.reason for t in result.transfers} == {"concealed_kong"}


@settings(max_examples=60, deadline=None, database=None)
@given(st.integers(0, 3), st.booleans(), st.lists(st.integers(0, 2), min_size=4, max_size=4),
       st.sampled_from(["off", 4]), st.integers(1, 3))
def test_every_payment_takes_the_dealer_stakes(dealer: int, sits: bool, pulls: list[int],
                                               golden: Any, base: int) -> None:
    """Each transfer of the round (kongs, the win, 铲) is the same transfer without stakes
    times 2^(sits + pulls of the non-dealer) when the dealer is one side, else unchanged."""
    pulls[dealer] = 0
    plain = tianjin(*TIANJIN_ROUND, dealer=dealer, golden_kong=golden, base=base)
    staked = tianjin(*TIANJIN_ROUND, dealer=dealer, golden_kong=golden, base=base,
                     dealer_sits=sits, pulls=pulls)
    assert len(plain.transfers) == len(staked.transfers)
    for p, s in zip(plain.transfers, staked.transfers, strict=True):
        assert (p.payer, p.payee, p.reason, p.event) == (s.payer, s.payee, s.reason, s.event)
        if dealer in (p.payer, p.payee):
            other = p.payee if p.payer == dealer else p.payer
            assert s.amount == p.amount * 2 ** (int(sits) + pulls[other])
        else:
            assert s.amount == p.amount
    assert sum(staked.net) == 0


def test_a_drawn_game_pays_no_hand_money_and_kong_money_stands() -> None:
    """荒庄: nobody pays for hands; the 金杠 money stands (the default); 铲 is still paid,
    after the draw. Readiness is judged by self-draw, the only win (everyone is ready)."""
    result = tianjin(kong(2, "concealed", "4p"), FOLLOW, TIANJIN_DRAW, golden_kong=4)
    assert moves(result) == [
        (0, 2, 4, "golden_kong", 0), (1, 2, 4, "golden_kong", 0), (3, 2, 4, "golden_kong", 0),
        (0, 1, 1, "follow_dealer", 1), (0, 2, 1, "follow_dealer", 1),
        (0, 3, 1, "follow_dealer", 1),
    ]
    assert result.finished and result.draw is not None
    assert [p.state for p in result.draw.players] == ["ready"] * 4


def test_a_drawn_game_can_return_the_kong_money() -> None:
    """荒庄荒杠 (drawn_kongs_stand false): the draw returns every kong's money."""
    result = tianjin(kong(2, "concealed", "4p"), FOLLOW, TIANJIN_DRAW,
                     drawn_kongs_stand=False, dealer_sits=True)
    assert moves(result) == [
        (0, 2, 4, "concealed_kong", 0), (1, 2, 2, "concealed_kong", 0),
        (3, 2, 2, "concealed_kong", 0),
        (2, 0, 4, "drawn_game_refund", 2), (2, 1, 2, "drawn_game_refund", 2),
        (2, 3, 2, "drawn_game_refund", 2),
        (0, 1, 2, "follow_dealer", 1), (0, 2, 2, "follow_dealer", 1),
        (0, 3, 2, "follow_dealer", 1),
    ]
    assert result.net == (-6, 2, 2, 2)


def test_one_winner_and_the_round_is_over() -> None:
    """天津: the winner does not drop out, because nothing comes after its win."""
    su = win(1, "234m678m22s35s777p4s")
    error = tianjin_error(su, kong(2, "concealed", "5p"))
    assert (error.code, error.pointer) == ("round_over", "/events/1")
    assert "a win ends the round" in error.message
    assert tianjin_error(su, FOLLOW).code == "round_over"
    assert tianjin_error(su, win(2, "234m678m22s35s777p4s")).code == "round_over"


def test_the_dealer_follows_once() -> None:
    error = tianjin_error(FOLLOW, FOLLOW)
    assert (error.code, error.pointer) == ("inconsistent_event", "/events/1/type")


def test_follow_dealer_only_where_the_settlement_pays_it() -> None:
    with pytest.raises(HandError) as info:
        run(FOLLOW)
    assert (info.value.code, info.value.pointer) == ("invalid_field", "/events/0/type")
    assert "follow_dealer" in info.value.message


def test_the_rounds_dealer_and_wild_tiles_reach_the_win() -> None:
    rnd = build_round({"dealer": 2, "wild_indicator": "E", "events": [
        win(1, "1234567mS9m333pE2p")]}, TIANJIN)
    event = rnd.events[0]
    assert isinstance(event, WinEvent)
    assert (event.context.dealer, event.context.wild_indicator) == (2, rnd.wild_indicator)
    assert (rnd.dealer, len(rnd.wilds)) == (2, 2)
    # Repeating them in the win's context is allowed.
    same = build_round({"dealer": 2, "wild_indicator": "E", "events": [
        win(1, "1234567mS9m333pE2p", win_type="self_draw", dealer=2, wild_indicator="东")]},
        TIANJIN)
    assert same.events == rnd.events


@pytest.mark.parametrize("context,pointer", [
    ({"dealer": 1}, "/events/0/context/dealer"),
    ({"wild_indicator": "4p"}, "/events/0/context/wild_indicator"),
])
def test_a_win_may_not_name_another_dealer_or_other_wilds(context: dict[str, Any],
                                                          pointer: str) -> None:
    error = tianjin_error(win(1, "[9999s]234m678m22s35s4s", win_type="self_draw", **context))
    assert (error.code, error.pointer) == ("inconsistent_event", pointer)


def test_a_win_may_not_bring_wilds_the_round_does_not_have() -> None:
    error = tianjin_error(win(1, "[9999s]234m678m22s35s4s", win_type="self_draw",
                              wild_indicator="3p"), wild=None)
    assert (error.code, error.pointer) == ("inconsistent_event",
                                           "/events/0/context/wild_indicator")


@pytest.mark.parametrize("event,code,pointer", [
    (kong(1, "direct", "4p", discarder=2), "illegal_meld", "/events/0/kind"),
    (kong(1, "added", "3p", fresh=True), "illegal_meld", "/events/0/kind"),
    (kong(1, "concealed", "3p"), "too_many_copies", "/events/0/tile"),
])
def test_wild_tiles_in_kong_events(event: dict[str, Any], code: str, pointer: str) -> None:
    """Wilds are never claimed; the flipped indicator's kind has only three in play."""
    error = tianjin_error(event)
    assert (error.code, error.pointer) == (code, pointer)


def test_a_draw_hand_holding_four_of_the_indicator_is_refused() -> None:
    error = tianjin_error(draw((0, "3333p678m22s35s77p"), (1, "111m222m333m444m5m"),
                               (2, "111s555s666s9s789p"), (3, "EEESSSWWWNNNC")))
    assert (error.code, error.pointer) == ("too_many_copies", "/events/0/hands/0/hand")


@pytest.mark.parametrize("body,code,pointer", [
    ({"dealer": 4}, "seat_out_of_range", "/dealer"),
    ({"wild_indicator": "0p"}, "unknown_tile", "/wild_indicator"),
    ({"dealer": 1, "options": {"pulls": [0, 1, 0, 0]}}, "invalid_option", "/options/pulls/1"),
    ({"options": {"pulls": [0, 1, 0]}}, "invalid_option", "/options/pulls"),
])
def test_the_rounds_own_fields(body: dict[str, Any], code: str, pointer: str) -> None:
    with pytest.raises(HandError) as info:
        build_round({**body, "events": []}, TIANJIN)
    assert (info.value.code, info.value.pointer) == (code, pointer)


def test_the_rounds_own_fields_are_typed_by_the_schema() -> None:
    with pytest.raises(ApiError) as info:
        read_settle_request({"dealer": True, "events": []}, TIANJIN)
    assert info.value.errors[0]["pointer"] == "/dealer"
    assert info.value.errors[0]["code"] == "invalid_type"


def test_wilds_in_a_rule_set_without_them() -> None:
    with pytest.raises(HandError) as info:
        build_round({"wild_indicator": "3p", "events": []}, SICHUAN)
    assert (info.value.code, info.value.pointer) == ("wilds_not_supported", "/wild_indicator")
    assert "context." not in info.value.message
