"""The rule sets' `settlement:` section: strict validation naming file and field, options as
amounts, inheritance, and the real sichuan, chengdu and tianjin data."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from app.rules.choices import Chosen, resolve
from app.rules.loader import load_rulesets
from app.rules.settlement import (
    KEEP,
    KONG_DISCARD_MODES,
    REFUND,
    TRANSFER,
    DrawnGameDef,
    FollowDealer,
    KongMoney,
    SettlementDef,
    SpecialKongs,
    build_settlement,
)
from tests.loaded import repo_rulesets
from tests.rules.test_loader import assert_names, load_error, mini, write

SETTLEMENT: dict[str, Any] = {
    "kongs": {
        "direct": {"payer": "discarder", "amount": 2},
        "added": {"payer": "each_active", "amount": 1, "only_if_fresh": True},
        "concealed": {"payer": "each_active", "amount": {"option": "cap"}},
    },
    "robbed_kong_void": True,
    "kong_discard_money": "refund",
    "drawn_game": {"max_suits": 2, "pig_penalty": 16, "pig_counts_as_not_ready": True,
                   "not_ready_pays": "best_value", "refund_kongs": True},
}


def _changed(data: dict[str, Any], changes: dict[str, Any]) -> dict[str, Any]:
    """`data` with `changes` made: dotted paths (`a__b`) -> value (None drops the key)."""
    for path, value in changes.items():
        *parents, last = path.split("__")
        node = data
        for p in parents:
            node = node[p]
        if value is None:
            node.pop(last, None)
        else:
            node[last] = value
    return data


def with_settlement(**changes: Any) -> dict[str, Any]:
    """`mini` with a settlement section; `changes` are dotted paths -> value (None drops)."""
    data = _changed(copy.deepcopy(SETTLEMENT), changes)
    rs = mini(settlement=data)
    rs["options"] = [{**rs["options"][0], "minimum": 0},
                     {"name": "fresh", "type": "bool", "default": False,
                      "description": "a switch"},
                     {"name": "style", "type": "enum", "default": "a", "choices": ["a", "b"],
                      "description": "a choice"},
                     {"name": "amount", "type": "enum", "default": 1, "choices": [1, 2],
                      "description": "an amount"},
                     {"name": "gsp", "type": "enum", "default": "keep",
                      "choices": ["transfer", "keep"], "description": "杠上炮's kong money"}]
    return rs


def test_a_settlement_section_loads(tmp_path: Path) -> None:
    rs = load_rulesets(write(tmp_path, with_settlement()))["mini"]
    assert rs.settlement == SettlementDef(
        kongs={"direct": KongMoney("discarder", 2), "added": KongMoney("each_active", 1, True),
               "concealed": KongMoney("each_active", Chosen("cap"))},
        robbed_kong_void=True, kong_discard_money=REFUND,
        drawn_game=DrawnGameDef(max_suits=2, pig_penalty=16, pig_counts_as_not_ready=True,
                                not_ready_pays="best_value", refund_kongs=True),
    )
    assert resolve(rs.settlement.kongs["concealed"].amount, {"cap": 3}) == 3


def test_defaults_and_no_settlement(tmp_path: Path) -> None:
    minimal = {"kongs": {}, "drawn_game": {}}
    rs = load_rulesets(write(tmp_path, mini(settlement=minimal)))["mini"]
    assert rs.settlement == SettlementDef(kongs={}, drawn_game=DrawnGameDef())
    assert load_rulesets(write(tmp_path, mini()))["mini"].settlement is None


@pytest.mark.parametrize("changes,field", [
    ({"extra": 1}, "settlement.extra"),
    ({"kongs": None}, "settlement.kongs"),
    ({"kongs": [1]}, "settlement.kongs"),
    ({"drawn_game": None}, "settlement.drawn_game"),
    ({"kongs__melded": {"payer": "discarder", "amount": 1}}, "settlement.kongs.melded"),
    ({"kongs__direct": 2}, "settlement.kongs.direct"),
    ({"kongs__direct__payer": "winner"}, "settlement.kongs.direct.payer"),
    ({"kongs__added__payer": "discarder"}, "settlement.kongs.added.payer"),
    ({"kongs__direct__amount": None}, "settlement.kongs.direct.amount"),
    ({"kongs__direct__amount": -1}, "settlement.kongs.direct.amount"),
    ({"kongs__direct__amount": True}, "settlement.kongs.direct.amount"),
    ({"kongs__direct__amount": "2"}, "settlement.kongs.direct.amount"),
    ({"kongs__direct__amount": {"option": "nope"}}, "settlement.kongs.direct.amount"),
    ({"kongs__direct__amount": {"option": "fresh"}}, "settlement.kongs.direct.amount"),
    ({"kongs__direct__amount": {"option": "style"}}, "settlement.kongs.direct.amount"),
    ({"kongs__direct__amount": {"option": "cap", "x": 1}}, "settlement.kongs.direct.amount.x"),
    ({"kongs__direct__only_if_fresh": True}, "settlement.kongs.direct.only_if_fresh"),
    ({"kongs__added__only_if_fresh": "yes"}, "settlement.kongs.added.only_if_fresh"),
    ({"kongs__added__only_if_fresh": {"option": "cap"}}, "settlement.kongs.added.only_if_fresh"),
    ({"kongs__added__extra": 1}, "settlement.kongs.added.extra"),
    ({"kongs__concealed__must_be_fresh": True}, "settlement.kongs.concealed.must_be_fresh"),
    ({"kongs__added__must_be_fresh": "yes"}, "settlement.kongs.added.must_be_fresh"),
    ({"kongs__added__must_be_fresh": {"option": "cap"}}, "settlement.kongs.added.must_be_fresh"),
    ({"robbed_kong_void": "yes"}, "settlement.robbed_kong_void"),
    ({"kong_discard_money": 1}, "settlement.kong_discard_money"),
    ({"kong_discard_money": True}, "settlement.kong_discard_money"),
    ({"kong_discard_money": "transfers"}, "settlement.kong_discard_money"),
    ({"kong_discard_money": {"option": "nope"}}, "settlement.kong_discard_money"),
    ({"kong_discard_money": {"option": "gsp", "x": 1}}, "settlement.kong_discard_money.x"),
    ({"drawn_game__max_suits": 0}, "settlement.drawn_game.max_suits"),
    ({"drawn_game__max_suits": None}, "settlement.drawn_game.max_suits"),
    ({"drawn_game__pig_penalty": -16}, "settlement.drawn_game.pig_penalty"),
    ({"drawn_game__not_ready_pays": "worst_value"}, "settlement.drawn_game.not_ready_pays"),
    ({"drawn_game__refund_kongs": "no"}, "settlement.drawn_game.refund_kongs"),
    # 定缺 declared: a per-seat option with choices, beside max_suits.
    ({"drawn_game__declared_void": "nope"}, "settlement.drawn_game.declared_void"),
    ({"drawn_game__declared_void": "cap"}, "settlement.drawn_game.declared_void"),
    ({"drawn_game__declared_void": 2}, "settlement.drawn_game.declared_void"),
    ({"drawn_game__all_alike_pays_nothing": True},
     "settlement.drawn_game.all_alike_pays_nothing"),
    ({"drawn_game__pig_counts_as_not_ready": None, "drawn_game__pig_penalty": None,
      "drawn_game__extra": 1}, "settlement.drawn_game.extra"),
])
def test_rejections_name_file_and_field(tmp_path: Path, changes: dict[str, Any],
                                        field: str) -> None:
    msg = load_error(tmp_path, with_settlement(**changes))
    assert_names(msg, "mini.yaml", field)


def test_an_option_amount_from_an_enum_of_integers(tmp_path: Path) -> None:
    data = with_settlement(kongs__direct__amount={"option": "amount"},
                           kongs__added__only_if_fresh={"option": "fresh"})
    rs = load_rulesets(write(tmp_path, data))["mini"]
    assert rs.settlement is not None
    assert rs.settlement.kongs["direct"].amount == Chosen("amount")
    assert rs.settlement.kongs["added"].only_if_fresh == Chosen("fresh")


@pytest.mark.parametrize("value,mode", [
    *((m, m) for m in KONG_DISCARD_MODES),
    ({"option": "gsp"}, Chosen("gsp")),
])
def test_the_kong_money_of_a_win_after_a_kong(tmp_path: Path, value: Any, mode: Any) -> None:
    # 杠上炮: a mode or an enum option of modes.
    assert KONG_DISCARD_MODES == (REFUND, TRANSFER, KEEP)
    rs = load_rulesets(write(tmp_path, with_settlement(kong_discard_money=value)))["mini"]
    assert rs.settlement is not None and rs.settlement.kong_discard_money == mode


def test_no_word_on_the_kong_money_of_a_win_after_a_kong_keeps_it(tmp_path: Path) -> None:
    # (`None` drops the key.)
    rs = load_rulesets(write(tmp_path, with_settlement(kong_discard_money=None)))["mini"]
    assert rs.settlement is not None and rs.settlement.kong_discard_money == KEEP


@pytest.mark.parametrize("option", ["style", "fresh", "amount", "cap"])
def test_the_option_for_the_kong_money_after_a_kong_is_an_enum_of_modes(
        tmp_path: Path, option: str) -> None:
    # `style` is an enum of other words, the others are no enum of words at all.
    msg = load_error(tmp_path, with_settlement(kong_discard_money={"option": option}))
    assert_names(msg, "mini.yaml", "settlement.kong_discard_money")
    assert "refund, transfer, keep" in msg


def test_a_child_redeclaring_the_mode_option_is_checked_against_the_parents_settlement(
        tmp_path: Path) -> None:
    child = {"id": "kid", "extends": "mini", "name": "子", "name_en": "Kid",
             "options": [{"name": "gsp", "type": "enum", "default": "keep",
                          "choices": ["keep", "split"], "description": "split the money"}]}
    msg = load_error(tmp_path, with_settlement(kong_discard_money={"option": "gsp"}), child)
    assert_names(msg, "kid.yaml", "settlement.kong_discard_money")


def test_a_bad_kong_money_mode_says_the_modes(tmp_path: Path) -> None:
    msg = load_error(tmp_path, with_settlement(kong_discard_money="transfers"))
    assert_names(msg, "mini.yaml", "settlement.kong_discard_money")
    assert "refund, transfer, keep or {option: name}" in msg
    assert "'transfers'" in msg


def test_amounts_need_the_payments_base() -> None:
    def err(field: str, message: str) -> Exception:
        return ValueError(f"field {field!r}: {message}")

    with pytest.raises(ValueError, match="'settlement': amounts count in units of the "
                                         "payment's base"):
        build_settlement(SETTLEMENT, (), {"cap": 3}, err)


def test_an_int_option_amount_needs_a_minimum_of_zero(tmp_path: Path) -> None:
    data = with_settlement()
    del data["options"][0]["minimum"]
    assert_names(load_error(tmp_path, data), "mini.yaml", "settlement.kongs.concealed.amount")


def test_a_child_inherits_or_replaces_the_settlement(tmp_path: Path) -> None:
    child = {"id": "kid", "extends": "mini", "name": "子", "name_en": "Kid"}
    rulesets = load_rulesets(write(tmp_path, with_settlement(), child))
    assert rulesets["kid"].settlement == rulesets["mini"].settlement
    dropped = load_rulesets(write(tmp_path, with_settlement(), {**child, "settlement": None}))
    assert dropped["kid"].settlement is None
    # The parent's section names an option the child declares again, of another type.
    switch = {"name": "cap", "type": "bool", "default": True, "description": "now a switch"}
    msg = load_error(tmp_path, with_settlement(), {**child, "options": [switch]})
    assert_names(msg, "kid.yaml", "settlement.kongs.concealed.amount")


def test_the_real_rule_sets() -> None:
    real = repo_rulesets()
    assert real["mcr"].settlement is None
    sichuan, chengdu = real["sichuan"].settlement, real["chengdu"].settlement
    assert sichuan is not None and chengdu is not None
    assert sichuan.kongs["direct"] == KongMoney("discarder", 2)
    assert sichuan.kongs["added"] == KongMoney("each_active", 1, True)
    assert sichuan.kongs["concealed"] == KongMoney("each_active", 2)
    assert chengdu.kongs["direct"].amount == Chosen("direct_kong_amount")
    assert chengdu.kongs["added"].only_if_fresh == Chosen("added_kong_fresh_only")
    # An active pig pays its penalty and refunds its kong money, but not 查大叫; holding the
    # suit its seat declared void (定缺) makes a pig too.
    assert sichuan.drawn_game == chengdu.drawn_game == DrawnGameDef(
        max_suits=2, declared_void="void_suit", pig_penalty=16, pig_counts_as_not_ready=False,
        not_ready_pays="best_value", refund_kongs=True)
    options = {o.name: o.default for o in real["chengdu"].options}
    assert (options["added_kong_fresh_only"], options["direct_kong_amount"]) == (True, 2)
    # chengdu's own option list replaces sichuan's: the inherited ones are still there.
    assert {"base", "cap", "self_draw", "gang_shang_pao_kong_money"} <= set(options)
    # 杠上炮's kong money: the request chooses; refunded unless it says otherwise.
    gsp = Chosen("gang_shang_pao_kong_money")
    assert sichuan.kong_discard_money == chengdu.kong_discard_money == gsp
    for rs in (real["sichuan"], real["chengdu"]):
        od = rs.option_by_name["gang_shang_pao_kong_money"]
        assert (od.type, od.choices, od.default) == ("enum", (REFUND, TRANSFER, KEEP), REFUND)
    # kawuxing's `false` (the rules say nothing else) keeps the kong money.
    assert real["kawuxing"].settlement is not None
    assert real["kawuxing"].settlement.kong_discard_money == KEEP
    # A stale 加杠 is legal and earns nothing in sichuan and chengdu, and cannot be made in
    # kawuxing ("必须当时就杠，否则，不能再杠").
    assert not sichuan.kongs["added"].must_be_fresh
    assert not chengdu.kongs["added"].must_be_fresh
    assert real["kawuxing"].settlement.kongs["added"].must_be_fresh is True


# --- 天津: one winner, the dealer's stakes, 金杠, 跟庄, kong money on a drawn game ------------

WILD = {"indicator": "self_and_next", "explicit": False, "indicator_out_of_play": True,
        "read": "full"}  # the mini fans' checks do not say what they tell apart
GOLDEN_OPTION = {"name": "golden", "type": "enum", "choices": ["off", 4], "default": "off",
                 "description": "金杠"}
STAND_OPTION = {"name": "stand", "type": "bool", "default": True, "description": "荒庄不荒杠"}


def tianjin_like(**changes: Any) -> dict[str, Any]:
    """A settlement as tianjin's, on `mini` with wilds and the points scheme (which has the
    dealer's stakes as its seat factor); `changes` as in `with_settlement`."""
    settlement: dict[str, Any] = {
        "win_ends_round": True, "seat_factors": True,
        "kongs": {"direct": {"payer": "each_active", "amount": 1},
                  "concealed": {"payer": "each_active", "amount": 2},
                  "golden": {"payer": "each_active", "amount": {"option": "golden"}}},
        "follow_dealer": {"amount": 1},
        "drawn_game": {"ready_as": "self_draw", "kongs_stand": {"option": "stand"}},
    }
    _changed(settlement, changes)
    return mini(settlement=settlement, wild=WILD, options=[GOLDEN_OPTION, STAND_OPTION],
                payment={"scheme": "points",
                         "params": {"base": 1, "table": "t", "tables": {"t": "doubling"}}})


def test_a_tianjin_like_settlement_loads(tmp_path: Path) -> None:
    rs = load_rulesets(write(tmp_path, tianjin_like()))["mini"]
    sd = rs.settlement
    assert sd is not None
    assert (sd.win_ends_round, sd.seat_factors) == (True, True)
    assert sd.kongs["golden"] == KongMoney("each_active", Chosen("golden"))
    assert sd.follow_dealer == FollowDealer(1)
    assert (sd.drawn_game.ready_as, sd.drawn_game.kongs_stand) == ("self_draw",
                                                                   Chosen("stand"))
    # 血战到底's checks are all off.
    assert sd.drawn_game == DrawnGameDef(ready_as="self_draw", kongs_stand=Chosen("stand"))
    assert not sd.robbed_kong_void and sd.kong_discard_money == KEEP


def test_the_new_keys_default_to_blood_battle(tmp_path: Path) -> None:
    rs = load_rulesets(write(tmp_path, with_settlement()))["mini"]
    sd = rs.settlement
    assert sd is not None
    assert (sd.win_ends_round, sd.seat_factors, sd.follow_dealer) == (False, False, None)
    assert (sd.drawn_game.ready_as, sd.drawn_game.kongs_stand) == ("discard", True)


@pytest.mark.parametrize("changes,field,words", [
    ({"win_ends_round": "yes"}, "settlement.win_ends_round", "true or false"),
    ({"one_winner": "yes"}, "settlement.one_winner", "true or false"),
    ({"one_winner": True, "win_ends_round": False}, "settlement.one_winner", "win_ends_round"),
    ({"seat_factors": 1}, "settlement.seat_factors", "true or false"),
    ({"follow_dealer": 1}, "settlement.follow_dealer", "amount"),
    ({"follow_dealer__amount": None}, "settlement.follow_dealer.amount", "missing"),
    ({"follow_dealer__amount": -1}, "settlement.follow_dealer.amount", "non-negative"),
    ({"follow_dealer__extra": 1}, "settlement.follow_dealer.extra", "unknown key"),
    ({"kongs__golden__amount": {"option": "stand"}}, "settlement.kongs.golden.amount",
     "(or 'off')"),
    ({"kongs__concealed": None}, "settlement.kongs.golden", "kongs.concealed"),
    ({"drawn_game__ready_as": "discard_or_not"}, "settlement.drawn_game.ready_as",
     "discard, self_draw"),
    ({"drawn_game__kongs_stand": {"option": "golden"}}, "settlement.drawn_game.kongs_stand",
     "bool option"),
])
def test_tianjin_like_rejections(tmp_path: Path, changes: dict[str, Any], field: str,
                                 words: str) -> None:
    msg = load_error(tmp_path, tianjin_like(**changes))
    assert_names(msg, "mini.yaml", field)
    assert words in msg


def test_seat_factors_need_a_scheme_that_has_them(tmp_path: Path) -> None:
    data = with_settlement(seat_factors=True)
    msg = load_error(tmp_path, data)
    assert_names(msg, "mini.yaml", "settlement.seat_factors")
    assert "no seat factor" in msg


def test_a_golden_kong_needs_wild_tiles(tmp_path: Path) -> None:
    data = tianjin_like()
    del data["wild"]
    msg = load_error(tmp_path, data)
    assert_names(msg, "mini.yaml", "settlement.kongs.golden")
    assert "without wild tiles" in msg


def test_the_real_tianjin_settlement() -> None:
    sd = repo_rulesets()["tianjin"].settlement
    assert sd is not None
    assert sd.win_ends_round and sd.seat_factors
    assert {k: (m.payer, m.amount) for k, m in sd.kongs.items()} == {
        "direct": ("each_active", 1), "added": ("each_active", 1),
        "concealed": ("each_active", 2), "golden": ("each_active", Chosen("golden_kong"))}
    assert sd.follow_dealer == FollowDealer(1)
    assert sd.drawn_game == DrawnGameDef(ready_as="self_draw",
                                         kongs_stand=Chosen("drawn_kongs_stand"))


# --- special kongs (长春 幺九杠, 旋风杠, 喜杠) ------------------------------------------------

SPECIAL = {"amount": {"option": "amount"}, "stand_in": "1s",
           "sets": [{"name": "幺九杠", "of": "1m1p1s"}, {"name": "旋风杠", "of": "ESWN"}]}


def test_special_kongs_load_and_name_three_tiles(tmp_path: Path) -> None:
    rs = load_rulesets(write(tmp_path, with_settlement(special_kongs=SPECIAL)))["mini"]
    assert rs.settlement is not None and rs.settlement.special_kongs is not None
    special = rs.settlement.special_kongs
    assert special.amount == Chosen("amount") and special.stand_in == "1s"
    named = special.named
    assert named(["1m", "1p", "1s"]) == named(["1s", "1m", "1p"]) == "幺九杠"
    assert named(["E", "S", "W"]) == named(["E", "N", "1s"]) == "旋风杠"
    # 1条 stands in for one tile only; a set is three different tiles.
    assert named(["E", "1s", "1s"]) is None
    assert named(["E", "E", "S"]) is None
    assert named(["E", "S", "W", "N"]) is None
    assert named(["1m", "1p"]) is None
    assert named(["1m", "E", "S"]) is None
    # Without a stand-in, 1条 is only itself.
    assert SpecialKongs(1, special.sets).named(["E", "S", "1s"]) is None
    plain = load_rulesets(write(tmp_path, with_settlement()))["mini"].settlement
    assert plain is not None and plain.special_kongs is None


@pytest.mark.parametrize("changes,field", [
    ({"special_kongs": 1}, "settlement.special_kongs"),
    ({"special_kongs": {**SPECIAL, "extra": 1}}, "settlement.special_kongs.extra"),
    ({"special_kongs": {k: v for k, v in SPECIAL.items() if k != "amount"}},
     "settlement.special_kongs.amount"),
    ({"special_kongs": {**SPECIAL, "amount": -1}}, "settlement.special_kongs.amount"),
    ({"special_kongs": {**SPECIAL, "sets": []}}, "settlement.special_kongs.sets"),
    ({"special_kongs": {**SPECIAL, "sets": [1]}}, "settlement.special_kongs.sets[0]"),
    ({"special_kongs": {**SPECIAL, "sets": [{"name": "x", "of": "1m1p"}]}},
     "settlement.special_kongs.sets[0].of"),
    ({"special_kongs": {**SPECIAL, "sets": [{"name": "x", "of": "1m1m1p"}]}},
     "settlement.special_kongs.sets[0].of"),
    ({"special_kongs": {**SPECIAL, "sets": [{"name": "x", "of": "1m1p1x"}]}},
     "settlement.special_kongs.sets[0].of"),
    ({"special_kongs": {**SPECIAL, "sets": [{"of": "1m1p1s"}]}},
     "settlement.special_kongs.sets[0].name"),
    ({"special_kongs": {**SPECIAL, "sets": [{"name": "x", "of": "1m1p1s", "y": 1}]}},
     "settlement.special_kongs.sets[0].y"),
    ({"special_kongs": {**SPECIAL, "stand_in": "1s2s"}}, "settlement.special_kongs.stand_in"),
])
def test_special_kong_rejections(tmp_path: Path, changes: dict[str, Any], field: str) -> None:
    msg = load_error(tmp_path, with_settlement(**changes))
    assert_names(msg, "mini.yaml", field)


def test_the_real_special_kongs() -> None:
    changchun = repo_rulesets()["changchun"]
    assert changchun.settlement is not None and changchun.settlement.one_winner
    special = changchun.settlement.special_kongs
    assert special is not None and special.amount == Chosen("special_kong_amount")
    od = changchun.option_by_name["special_kong_amount"]
    assert (od.type, od.default, od.minimum, od.maximum) == ("int", 1, 1, 8)
    assert [(s.name, "".join(s.of)) for s in special.sets] == [
        ("幺九杠", "1m1p1s"), ("幺九杠", "9m9p9s"), ("旋风杠", "ESWN"), ("喜杠", "CFP")]
    assert special.named(["9m", "9p", "1s"]) == "幺九杠"
    assert special.named(["C", "F", "1s"]) == "喜杠"
