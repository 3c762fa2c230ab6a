"""Payments: the base_plus_fan scheme (国标), the points scheme (天津: tables of the counted fans,
坐庄 / 拉庄), transfers, and nets that always sum to zero."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from app.domain.hand import WinContext
from app.domain.money import Transfer, payments_of
from app.rules.choices import Chosen
from app.rules.options import OptionDef
from app.rules.payments import (
    SCHEMES,
    dealer_factor,
    pay,
    seat_factor,
    value,
)
from app.rules.payments import base_plus_fan_pay as base_plus_fan
from app.scoring.evaluate import score
from app.scoring.result import ScoreResult
from app.service.tiles.requests import build
from tests.loaded import repo_rulesets

ROOT = Path(__file__).resolve().parents[2]
MCR = repo_rulesets()["mcr"]


def arrangements(players: int) -> list[tuple[int, int | None]]:
    """Every (winner, discarder) pair: discarder None for a self-draw."""
    out: list[tuple[int, int | None]] = []
    for w in range(players):
        out.append((w, None))
        out += [(w, d) for d in range(players) if d != w]
    return out


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("total", [0, 8, 91])
def test_base_plus_fan_every_seat_arrangement(players: int, total: int) -> None:
    for winner, discarder in arrangements(players):
        ctx = WinContext("self_draw" if discarder is None else "discard", winner=winner,
                         discarder=discarder)
        p = base_plus_fan(total, ctx, players, base=8)
        assert sum(p.net) == 0
        assert len(p.net) == players
        assert all(t.payee == winner and t.payer != winner for t in p.transfers)
        assert len(p.transfers) == players - 1
        if discarder is None:
            assert p.net[winner] == (players - 1) * (8 + total)
            assert all(p.net[s] == -(8 + total) for s in range(players) if s != winner)
            assert {t.reason for t in p.transfers} == {"self_draw"}
        else:
            assert p.net[discarder] == -(8 + total)
            assert p.net[winner] == 8 + total + 8 * (players - 2)
            others = [s for s in range(players) if s not in (winner, discarder)]
            assert all(p.net[s] == -8 for s in others)
            assert p.transfers[0] == Transfer(discarder, winner, 8 + total, "discarder")


def test_the_design_example() -> None:
    """The README's example (and docs/api.md's): 九莲宝灯 91 fan won on seat 2's discard."""
    p = base_plus_fan(91, WinContext("discard", winner=0, discarder=2), 4, base=8)
    assert p.net == (115, -8, -99, -8)
    assert p.transfers == (
        Transfer(2, 0, 99, "discarder"), Transfer(1, 0, 8, "base"), Transfer(3, 0, 8, "base"))


def test_the_base_is_a_parameter() -> None:
    p = base_plus_fan(10, WinContext("self_draw", winner=1), 4, base=2)
    assert p.net == (-12, 36, -12, -12)


def test_payments_of_nets() -> None:
    p = payments_of(3, [Transfer(0, 1, 5, "x"), Transfer(2, 1, 3, "y"), Transfer(1, 0, 1, "z")])
    assert p.net == (-4, 7, -3)
    assert sum(p.net) == 0
    assert payments_of(4, []).net == (0, 0, 0, 0)


def test_pay_dispatches_by_scheme_name() -> None:
    ctx = WinContext("discard", winner=3, discarder=0)
    assert pay("base_plus_fan", {"base": 8}, 20, ctx, 4) == base_plus_fan(20, ctx, 4, base=8)
    assert "base_plus_fan" in SCHEMES


@pytest.mark.parametrize(("winner", "discarder"), arrangements(4))
def test_scored_payments_sum_to_zero_for_every_seat_arrangement(
        winner: int, discarder: int | None) -> None:
    ctx: dict[str, object] = {"win_type": "self_draw" if discarder is None else "discard",
                              "winner": winner, "discarder": discarder, "flowers": 2}
    hand, context = build("1112345678999m5m", ctx, MCR)
    r = score(hand, context, MCR)
    assert r.winning and r.payments is not None
    assert sum(r.payments.net) == 0
    won = r.payments.net[winner]
    assert won == -sum(n for s, n in enumerate(r.payments.net) if s != winner)
    if discarder is None:
        assert won == 3 * (8 + r.fan_total)
    else:
        assert r.payments.net[discarder] == -(8 + r.fan_total)
        assert won == 8 + r.fan_total + 16


# ---- points (天津): a table of the counted fans and the dealer's stakes ---------------------

TIANJIN = repo_rulesets()["tianjin"]
TABLES = TIANJIN.payment.params["tables"]
# Indicator 3p, no wild in hand, 4s drawn: 素 (1 番), worth 2 under both tables.
SU_HAND = "234m678m22s35s777p4s"


def tianjin(hand: str, **context: object) -> ScoreResult:
    h, ctx = build(hand, {"win_type": "self_draw", "wild_indicator": "3p", **context}, TIANJIN)
    return score(h, ctx, TIANJIN)


def test_the_default_table_doubles_per_fan() -> None:
    default = TABLES["default"]
    assert [default.points(n, ()) for n in range(6)] == [1, 2, 4, 8, 16, 32]


@pytest.mark.parametrize(("fans", "points"), [
    ((("ti_liu", 1),), 1),                                            # 提溜
    ((("hun_diao", 1),), 2),                                          # 混儿吊 ×2
    ((("su", 1),), 2),                                                # 素 ×2
    ((("zhuo_wu", 1),), 3),                                           # 捉五 3
    ((("long", 1),), 4),                                              # 龙 4
    ((("zhuo_wu", 1), ("hun_diao", 1)), 6),                           # 双混儿捉五 2 × 3
    ((("long", 1), ("zhuo_wu", 1)), 7),                               # 捉五龙 3 + 4
    ((("ben_hun_long", 1),), 8),                                      # 本混龙 4 × 2
    ((("su", 1), ("gang_kai", 1)), 4),                                # 素 杠开 2 × 2
    ((("ben_hun_long", 1), ("zhuo_wu", 1), ("hun_diao", 1)), 28),     # (3 + 4) × 2 × 2
])
def test_the_tjmj_table(fans: tuple[tuple[str, int], ...], points: int) -> None:
    """The 2011 page's points: 捉五 and 龙 add (a hand where none adds is 1), 混儿吊 素 杠开
    本混 each double."""
    total = sum(TIANJIN.fan_by_id[f].value * n for f, n in fans)
    assert TABLES["tjmj"].points(total, fans) == points


def test_tjmj_never_ranks_a_hand_of_more_fan_below_one_of_fewer() -> None:
    """Over every combination of the fans a reading decides (捉五, 龙 or 本混龙, 混儿吊), the
    tjmj points of n 番 all lie below those of n + 1 番: choosing a reading by its 番 total
    never loses tjmj money to a reading of fewer 番 (equal totals can differ: 龙 4 and 双混儿
    捉五 6 are both 2 番)."""
    by_total: dict[int, list[int]] = {}
    for zhuo in (0, 1):
        for dragon in (None, "long", "ben_hun_long"):
            for diao in (0, 1):
                fans = [("zhuo_wu", zhuo), ("hun_diao", diao)]
                if dragon:
                    fans.append((dragon, 1))
                counted = tuple((f, n) for f, n in fans if n)
                total = sum(TIANJIN.fan_by_id[f].value * n for f, n in counted)
                by_total.setdefault(total, []).append(TABLES["tjmj"].points(total, counted))
    totals = sorted(by_total)
    for low, high in itertools.pairwise(totals):
        assert max(by_total[low]) < min(by_total[high]), (low, by_total)


@pytest.mark.parametrize("dealer", range(4))
@pytest.mark.parametrize("winner", range(4))
@pytest.mark.parametrize("sits", [False, True])
def test_dealer_stakes_every_combination(dealer: int, winner: int, sits: bool) -> None:
    """坐庄 and 拉庄 for one hand (素, worth 2), every seat as dealer and as winner, every
    pull of the three non-dealers: between the dealer and another player the money is
    2 × 2^(sits + that player's pulls); between two non-dealers it stays 2."""
    others = [s for s in range(4) if s != dealer]
    for a in range(3):
        for b in range(3):
            for c in range(3):
                pulls = [0] * 4
                for seat, n in zip(others, (a, b, c), strict=True):
                    pulls[seat] = n
                r = tianjin(SU_HAND, winner=winner, dealer=dealer,
                            options={"dealer_sits": sits, "pulls": pulls})
                assert r.winning and r.payments is not None and r.value == 2
                paid = {t.payer: t.amount for t in r.payments.transfers}
                assert set(paid) == set(range(4)) - {winner}
                assert {t.payee for t in r.payments.transfers} == {winner}
                for payer, amount in paid.items():
                    if dealer in (payer, winner):
                        other = winner if payer == dealer else payer
                        assert amount == 2 * 2 ** (int(sits) + pulls[other]), (payer, pulls)
                    else:
                        assert amount == 2, (payer, pulls)
                assert sum(r.payments.net) == 0


def test_the_seed_example_of_the_stakes() -> None:
    """The seed's 铲 example as a hand: the dealer sits, A pulls 0, B 1, C 2; a unit of 1
    (提溜) won by each of them is paid by the dealer 2, 4 and 8."""
    plain = "234m678m22s35s77p4p4s"  # 提溜: a wild as 7p, 4s drawn into a natural 35s
    for winner, expected in ((1, 2), (2, 4), (3, 8)):
        r = tianjin(plain, winner=winner, dealer=0,
                    options={"dealer_sits": True, "pulls": [0, 0, 1, 2]})
        assert r.value == 1 and r.payments is not None
        assert {t.payer: t.amount for t in r.payments.transfers}[0] == expected


def test_value_and_multiplier_are_before_the_stakes_and_scale_with_the_base() -> None:
    r = tianjin("123m44m789m777pEE5m", wild_indicator="3m", winner=1,
                options={"table": "tjmj", "base": 3, "dealer_sits": True})
    assert (r.fan_total, r.multiplier, r.value) == (5, 28, 84)
    assert r.payments is not None and r.payments.net == (-168, 336, -84, -84)


def test_the_points_scheme_reads_the_counted_fans_it_is_given() -> None:
    """`pay` and `value` hand a `by_fans` scheme the counted fans; a scheme that is not
    `by_fans` never sees them."""
    params = {"base": 1, "table": "tjmj", "tables": TABLES}
    ctx = WinContext("self_draw", winner=2, dealer=0)
    fans = (("long", 1), ("zhuo_wu", 1))
    assert value("points", params, 3, ctx, fans) == (7, 7)
    assert pay("points", params, 3, ctx, 4, fans=fans).net == (-7, -7, 21, -7)
    assert value("points", {**params, "table": "default"}, 3, ctx, fans) == (8, 8)
    assert SCHEMES["points"].by_fans and not SCHEMES["doubling"].by_fans
    assert pay("doubling", {"base": 1, "cap": 3}, 2, ctx, 4, fans=fans).net == (-5, -5, 15, -5)


def test_the_points_scheme_on_a_discard_charges_the_discarder_with_the_stakes() -> None:
    """天津 never gets here (self-draw only), but the scheme is generic: on a discard win the
    discarder alone pays, times the dealer's stakes between the two."""
    params = {"base": 1, "table": "default", "tables": TABLES, "dealer_sits": True,
              "pulls": (0, 2, 0, 0)}
    p = pay("points", params, 1, WinContext("discard", winner=0, discarder=1, dealer=0), 4)
    assert p.transfers == (Transfer(1, 0, 2 * 8, "discarder"),)


@pytest.mark.parametrize(("payer", "payee", "dealer", "factor"), [
    (1, 0, 0, 2 * 4), (0, 1, 0, 2 * 4), (2, 0, 0, 2), (0, 3, 0, 2 * 2),
    (1, 2, 0, 1), (2, 3, 0, 1), (0, 0, 0, 1), (1, 3, 3, 2 * 4),
])
def test_dealer_factor(payer: int, payee: int, dealer: int, factor: int) -> None:
    assert dealer_factor(payer, payee, dealer, dealer_sits=True, pulls=(0, 2, 0, 1)) == factor


def test_seat_factor_is_one_for_schemes_without_stakes() -> None:
    assert seat_factor("doubling", {"base": 1, "cap": 3}, 0, 1, 0) == 1
    assert seat_factor("points", {"dealer_sits": True, "pulls": (0, 1, 0, 0)}, 0, 1, 0) == 4


def test_tjmj_money_takes_the_best_reading_of_equal_fan() -> None:
    """Indicator 3p: 5m drawn into a natural 4m-6m is 捉五龙 (7); the same tiles read with
    5m paired to the wild 3p and the wild 4p as the 5m of 456m are 龙 + 混儿吊 (8). Under a
    scheme that prices the fans, the reading paying more is the best."""
    r = tianjin("123m46m789m777s3p4p5m", options={"table": "tjmj"})
    assert r.value == 8


def test_base_plus_fan_nets_are_the_transfers_nets() -> None:
    from app.domain.hand import WinContext
    from app.domain.money import net_of
    from app.rules.payments import base_plus_fan_pay

    for players in (2, 3, 4):
        for winner in range(players):
            for total in (0, 8, 17, 88):
                ctx = WinContext("self_draw", winner=winner)
                p = base_plus_fan_pay(total, ctx, players, base=8)
                assert p.net == net_of(players, p.transfers)
                for discarder in range(players):
                    if discarder == winner:
                        continue
                    ctx = WinContext("discard", winner=winner, discarder=discarder)
                    p = base_plus_fan_pay(total, ctx, players, base=8)
                    assert p.net == net_of(players, p.transfers)
                    assert sum(p.net) == 0


def _contexts(players: int) -> list[WinContext]:
    """Contexts differing in everything a scheme might read: seats, win type, dealer, kong
    flags, winds, flowers."""
    out = []
    for (winner, discarder), dealer, kong in itertools.product(
            arrangements(players), range(players), (None, "replacement", "robbed")):
        out.append(WinContext("self_draw" if discarder is None else "discard", kong=kong,
                              winner=winner, discarder=discarder, dealer=dealer,
                              seat_wind=(winner - dealer) % players, flowers=dealer))
    return out


@pytest.mark.parametrize("name", sorted(n for n, s in SCHEMES.items() if s.paid_by))
@pytest.mark.parametrize("players", [2, 3, 4])
def test_paid_by_keys_what_pay_reads_of_the_context(name: str, players: int) -> None:
    """`Scheme.paid_by`: contexts with the same key pay alike, whatever else differs."""
    scheme = SCHEMES[name]
    assert scheme.paid_by is not None
    params = {"base_plus_fan": [{"base": 8}, {"base": 1}],
              "doubling": [{"base": 1, "cap": 3}, {"base": 5, "cap": "none",
                                                   "self_draw": "add_fan"}],
              "per_fan": [{"base": 1, "cap": 13},
                          {"base": 3, "cap": "none", "self_draw_fan": 1,
                           "robbed_as_self_draw": True}]}[name]
    for p in params:
        for total in (0, 1, 8, 91):
            by_key: dict[object, object] = {}
            for ctx in _contexts(players):
                paid = scheme.pay(total, ctx, players, None, **p)
                assert by_key.setdefault(scheme.paid_by(ctx), paid) == paid, (ctx, total, p)


def test_a_fixed_payment_remembers_what_pay_and_value_say() -> None:
    bound = MCR.fixed_payment
    assert bound is not None and bound.memo is not None
    bound.memo.clear()
    for ctx in _contexts(4):
        for total in (8, 9, 88):
            for _ in range(2):  # the second time from the memo
                paid = bound.paid(total, ctx, 4)
                assert paid.payments == base_plus_fan(total, ctx, 4, base=8)
                assert (paid.value, paid.multiplier) == (8 + total, None)
    assert 0 < len(bound.memo) <= 3 * len(arrangements(4))


# ---------------------------------------------------------------------------------------------
# shares (卡五星): one share = base × min(2^fan, cap), cap a multiplier; per-seat marks


def test_shares_value_caps_the_multiplier() -> None:
    from app.rules.payments import shares_value
    assert shares_value(4, base=1, cap=8) == (8, 8)
    assert shares_value(4, base=2, cap="none") == (32, 16)
    assert shares_value(0, base=3, cap=8) == (3, 1)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_shares_pay_sums_to_zero_and_marks_change_the_stakes(players: int) -> None:
    from app.rules.payments import shares_pay
    for winner, discarder in arrangements(players):
        for marks in itertools.product((0, 1), repeat=players):
            for total in range(6):
                ctx = WinContext(win_type="discard" if discarder is not None else "self_draw",
                                 winner=winner, discarder=discarder)
                p = shares_pay(total, ctx, players, base=1, cap=8, marked=marks,
                               marked_payer="double", pays_for_others=True,
                               pays_for_others_when_marked=True)
                assert len(p.net) == players and sum(p.net) == 0
                share = min(2 ** total, 8)
                if discarder is not None and marks[winner]:
                    # 包胡: the discarder pays the share of every other seat.
                    assert p.net[discarder] == -share * (players - 1)
                elif discarder is not None:
                    factor = 2 if marks[discarder] else 1
                    assert p.net[discarder] == -min(2 ** total * factor, 8)
                else:
                    for seat in range(players):
                        if seat != winner:
                            factor = 2 if marks[seat] and not marks[winner] else 1
                            assert p.net[seat] == -min(2 ** total * factor, 8)


def test_shares_parameters_are_checked_at_load_time() -> None:
    from app.rules.options import OptionDef
    from app.rules.payments import SchemeParamError, shares_prepare
    flags = OptionDef("flags", "bool", False, "")
    with pytest.raises(SchemeParamError, match="marked"):
        shares_prepare({"base": 1, "cap": 8, "marked": Chosen("flags")}, {"flags": flags},
                       frozenset())
    with pytest.raises(SchemeParamError, match="cap"):
        shares_prepare({"base": 1, "cap": 0}, {}, frozenset())
    with pytest.raises(SchemeParamError, match="marked_payer"):
        shares_prepare({"base": 1, "cap": 8, "marked_payer": "triple"}, {}, frozenset())


# ---------------------------------------------------------------------------------------------
# per_fan (二人麻将): base × min(fan, cap), the self-draw bonus under the cap


def test_per_fan_value_caps_the_fan() -> None:
    from app.rules.payments import per_fan_value
    assert per_fan_value(6, base=1, cap=13) == (6, 6)
    assert per_fan_value(32, base=5, cap=13) == (65, 13)
    assert per_fan_value(32, base=2, cap="none") == (64, 32)
    # The value is a discard's: the self-draw bonus is not in it.
    assert per_fan_value(2, base=1, cap=13, self_draw_fan=1) == (2, 2)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_per_fan_pay_who_pays_what(players: int) -> None:
    from app.domain.money import net_of
    from app.rules.payments import per_fan_pay
    for winner, discarder in arrangements(players):
        for kong in (None, "robbed"):
            if discarder is None and kong is not None:
                continue
            ctx = WinContext("self_draw" if discarder is None else "discard", kong=kong,
                             winner=winner, discarder=discarder)
            for total in (1, 12, 13, 20):
                for bonus, robbed in ((0, False), (1, False), (1, True)):
                    p = per_fan_pay(total, ctx, players, base=2, cap=13,
                                    self_draw_fan=bonus, robbed_as_self_draw=robbed)
                    as_self_draw = discarder is None or (robbed and kong == "robbed")
                    amount = 2 * min(total + (bonus if as_self_draw else 0), 13)
                    payers = ([s for s in range(players) if s != winner]
                              if discarder is None else [discarder])
                    assert sorted((t.payer, t.amount) for t in p.transfers) == [
                        (s, amount) for s in payers]
                    assert all(t.payee == winner for t in p.transfers)
                    assert p.net == net_of(players, p.transfers) and sum(p.net) == 0


def test_per_fan_pays_only_the_payers_still_in() -> None:
    from app.rules.payments import per_fan_pay
    ctx = WinContext("self_draw", winner=0)
    p = per_fan_pay(3, ctx, 4, [0, 2, 3], base=1, cap=13)
    assert p.net == (6, 0, -3, -3)


def test_per_fan_parameters_are_checked_at_load() -> None:
    from app.rules.payments import SchemeParamError, per_fan_prepare
    int_option = OptionDef("bonus", "int", 0, "", minimum=0, maximum=1)
    negative = OptionDef("neg", "int", 0, "", minimum=-1, maximum=1)
    flag = OptionDef("flag", "bool", False, "")
    options = {o.name: o for o in (int_option, negative, flag)}
    assert per_fan_prepare({"base": 1, "cap": 13}, options, frozenset()) == {"base": 1,
                                                                             "cap": 13}
    per_fan_prepare({"base": 1, "cap": "none", "self_draw_fan": Chosen("bonus")},
                    options, frozenset())
    for bad in ({"base": 1, "cap": 0}, {"base": 1, "cap": "ten"},
                {"base": 1, "cap": 13, "self_draw_fan": -1},
                {"base": 1, "cap": 13, "self_draw_fan": Chosen("neg")},
                {"base": 1, "cap": 13, "self_draw_fan": Chosen("flag")}):
        with pytest.raises(SchemeParamError):
            per_fan_prepare(dict(bad), options, frozenset())
