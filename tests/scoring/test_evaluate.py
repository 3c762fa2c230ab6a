"""score() and describe(): choosing the reading, special shapes, minimum, flowers, the result.

Variants of the mcr rule set are built from its YAML (`build_ruleset`) to show what each piece
of rule-set data does to the choice; the real mcr answers are those of the reference calculator
(docs/mcr-reference.md).
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from app.domain.hand import KONG, PUNG, Hand
from app.domain.readings import Group, Reading
from app.domain.shapes import SEVEN_PAIRS
from app.rules.checks import bound_params
from app.rules.load_files import load_yaml
from app.rules.model import RuleSet
from app.rules.tile_loader import build_ruleset
from app.scoring.describe import describe
from app.scoring.evaluate import BELOW_MINIMUM, NO_WINNING_SHAPE, Trace, score
from app.scoring.result import ScoreResult
from app.service.tiles.requests import build
from app.service.tiles.responses import score_response
from tests.api.helpers import NINE_GATES_RESPONSE
from tests.loaded import repo_rulesets

ROOT = Path(__file__).resolve().parents[2]
MCR_DATA: dict[str, Any] = load_yaml((ROOT / "rulesets" / "mcr.yaml").read_text("utf-8"))
MCR: RuleSet = repo_rulesets()["mcr"]
T = MCR.tileset


def variant(change: Any) -> RuleSet:
    data = copy.deepcopy(MCR_DATA)
    data["id"] = "mcr-variant"
    change(data)
    return build_ruleset(data, "mcr-variant.yaml")


def scored(text: str, rs: RuleSet = MCR, **ctx: Any) -> ScoreResult:
    ctx.setdefault("win_type", "discard")
    if ctx["win_type"] == "discard":
        ctx.setdefault("discarder", 1)
    hand, context = build(text, ctx, rs)
    return score(hand, context, rs)


def fans(result: ScoreResult) -> dict[str, int]:
    return {f.id: f.count for f in result.fans}


def total(result: ScoreResult) -> int:
    return sum(f.value * f.count for f in result.fans)


# ---------------------------------------------------------------------------------------------
# Choosing the reading


def test_the_highest_total_wins() -> None:
    r = scored("111222333m44m55p4m", win_type="self_draw")
    # 111 222 333 444 (一色四节高 + 四暗刻) over 123×3 + 444.
    assert fans(r)["four_pure_shifted_pungs"] == 1
    assert r.fan_total == 116


def test_regular_reading_equal_to_seven_pairs_wins() -> None:
    text = "445566m445566s5p5p"
    only_pairs = variant(lambda d: d["shapes"].pop("regular"))
    sp = scored(text, only_pairs)
    assert sp.decomposition is not None and sp.decomposition.shape == SEVEN_PAIRS
    assert sp.fan_total == 48
    r = scored(text)
    assert r.decomposition is not None and r.decomposition.shape == "regular"
    assert r.fan_total == 48
    # Self-drawn the regular reading is higher anyway (50 against 49).
    r = scored(text, win_type="self_draw")
    assert (r.decomposition and r.decomposition.shape, r.fan_total) == ("regular", 50)


def test_seven_pairs_preferred_on_a_tie_when_its_priority_is_lower() -> None:
    def swap(d: dict[str, Any]) -> None:
        d["shapes"]["seven_pairs"]["priority"] = 0
        d["shapes"]["regular"] = {"priority": 1}

    r = scored("445566m445566s5p5p", variant(swap))
    assert r.decomposition is not None and r.decomposition.shape == SEVEN_PAIRS
    assert r.fan_total == 48


def test_pure_triple_chow_preferred_on_a_tie() -> None:
    # 222 333 444 55m (一色三节高 + 双暗刻) and 234×3 55m (一色三同顺 + 平和) both total 31;
    # the pung reading comes first.
    text = "2223334455m678s4m"
    r = scored(text)
    assert r.fan_total == 31
    assert "pure_triple_chow" in fans(r)
    assert r.decomposition is not None
    assert r.decomposition.melds == ("234m", "234m", "234m", "55m", "678s")
    no_tie = scored(text, variant(lambda d: d.update(tie_break_fans=[])))
    assert no_tie.fan_total == 31
    assert "pure_shifted_pungs" in fans(no_tie) and "pure_triple_chow" not in fans(no_tie)
    # The preference is data: prefer the pungs instead.
    other = scored(text, variant(lambda d: d.update(tie_break_fans=["pure_shifted_pungs"])))
    assert "pure_shifted_pungs" in fans(other)


def _pung_rule_set(tie: list[str]) -> RuleSet:
    """三同刻 and 双同刻 at one fan each, 三同刻 leaving out 双同刻."""
    return build_ruleset({
        "id": "pungs", "name": "刻", "name_en": "Pungs", "description": "Two pung fans.",
        "players": 4, "tiles": "standard", "shapes": {"regular": {}},
        "payment": {"scheme": "base_plus_fan", "params": {"base": 8}},
        "tie_break_fans": tie,
        "fans": [
            {"id": "triple_pung", "name": "三同刻", "name_en": "Triple Pung", "value": 1,
             "check": "same_rank_pungs", "params": {"count": 3}, "excludes": ["double_pung"],
             "description": "Three pungs of one rank."},
            {"id": "double_pung", "name": "双同刻", "name_en": "Double Pung", "value": 1,
             "check": "same_rank_pungs", "params": {"count": 2},
             "description": "Two pungs of one rank."},
        ],
    }, "pungs.yaml")


def test_triple_pung_preferred_on_a_tie() -> None:
    # 444m 444p with 11123444s: 111s 234s 44s (双同刻, found first) or 11s 123s 444s (三同刻),
    # one fan each.
    text = "444m444p11123444s"
    r = scored(text, _pung_rule_set(["triple_pung"]))
    assert fans(r) == {"triple_pung": 1}
    assert r.decomposition is not None and "444s" in r.decomposition.melds
    r = scored(text, _pung_rule_set([]))
    assert fans(r) == {"double_pung": 1}
    assert r.decomposition is not None and "111s" in r.decomposition.melds


def test_mcr_tie_break_fans() -> None:
    assert set(MCR.tie_break_fans) == {"pure_triple_chow", "triple_pung"}


def test_ties_are_deterministic() -> None:
    text = "2223334455m678s4m"
    first = scored(text)
    for _ in range(3):
        assert scored(text) == first


# ---------------------------------------------------------------------------------------------
# Special shapes


# A fan of regular readings worth more than any special form: what a final form outranks.
HUGE_REGULAR_FAN = {
    "id": "huge", "name": "巨", "name_en": "Huge", "value": 500, "check": "one_suit",
    "params": {"honors": False}, "shapes": ["regular"],
    "description": "A test fan for regular readings only."}


def test_final_special_shapes_end_the_comparison() -> None:
    """九莲宝灯 is final: a regular reading of the same tiles is not compared, even when a rule
    set would score it higher."""
    text = "1112345678999m5m"
    r = scored(text)
    assert r.decomposition is not None and r.decomposition.shape == "nine_gates"
    assert fans(r) == {"nine_gates": 1, "two_concealed_pungs": 1, "pung_of_terminals_or_honors": 1}

    def huge_regular(final: bool) -> Any:
        def change(d: dict[str, Any]) -> None:
            d["fans"].insert(0, HUGE_REGULAR_FAN)
            d["shapes"]["nine_gates"]["final"] = final
        return change

    r = scored(text, variant(huge_regular(True)))
    assert r.decomposition is not None and r.decomposition.shape == "nine_gates"
    assert "huge" not in fans(r)
    r = scored(text, variant(huge_regular(False)))
    assert r.decomposition is not None and r.decomposition.shape == "regular"
    assert fans(r)["huge"] == 1


def test_a_final_fan_ends_the_comparison() -> None:
    """连七对 is final: a reading counting it is the hand's, whatever another reading of the
    same tiles would score; an explanation still lists the other readings."""
    text = "22334455667788p"
    r = scored(text)
    assert r.decomposition is not None and r.decomposition.shape == "seven_pairs"
    assert "seven_shifted_pairs" in fans(r)

    def huge_regular(final: bool) -> Any:
        def change(d: dict[str, Any]) -> None:
            d["fans"].insert(0, HUGE_REGULAR_FAN)
            for f in d["fans"]:
                if f["id"] == "seven_shifted_pairs":
                    f["final"] = final
        return change

    final = variant(huge_regular(True))
    r = scored(text, final)
    assert r.decomposition is not None and r.decomposition.shape == "seven_pairs"
    assert "huge" not in fans(r)
    trace = Trace()
    hand, context = build(text, {"win_type": "discard", "discarder": 1}, final)
    assert score(hand, context, final, trace).fan_total == r.fan_total
    assert [v.shape for v, _, _ in trace.readings].count("regular") >= 1
    r = scored(text, variant(huge_regular(False)))
    assert r.decomposition is not None and r.decomposition.shape == "regular"
    assert fans(r)["huge"] == 1


def test_nine_gates_extras_by_win_rank() -> None:
    assert fans(scored("1112345678999m1m")) == {"nine_gates": 1, "pure_straight": 1,
                                                "tile_hog": 1}
    assert fans(scored("1112345678999p4p", win_type="self_draw")) == {
        "nine_gates": 1, "self_drawn": 1, "short_straight": 1}


@pytest.mark.parametrize(
    ("text", "shape", "expected"),
    [
        ("19m19p19sESWNCFPP", "thirteen_orphans", {"thirteen_orphans": 1}),
        ("147m258s369pESWNC", "honors_and_knitted",
         {"lesser_honors_and_knitted_tiles": 1, "knitted_straight": 1}),
        ("147m25s36pESWNCFP", "honors_and_knitted", {"greater_honors_and_knitted_tiles": 1}),
        ("147m258s369p123m55p", "knitted_straight",
         {"knitted_straight": 1, "concealed_hand": 1, "all_chows": 1, "single_wait": 1}),
        ("11223344556677m", "seven_pairs", {"seven_shifted_pairs": 1}),
    ],
)
def test_special_shapes(text: str, shape: str, expected: dict[str, int]) -> None:
    r = scored(text)
    assert r.decomposition is not None and r.decomposition.shape == shape
    assert fans(r) == expected
    assert r.winning


# ---------------------------------------------------------------------------------------------
# Not winning


def test_no_winning_shape() -> None:
    r = scored("123m456p789s11sEWN", flowers=3)
    assert not r.winning
    assert r.reason is not None and r.reason.code == NO_WINNING_SHAPE and r.reason.message
    assert (r.fans, r.fan_total, r.decomposition, r.payments) == ((), 0, None, None)


def test_below_minimum_lists_fans_and_decomposition_but_no_payments() -> None:
    r = scored("[234m][567p][456s]78s55m6s")
    assert not r.winning
    assert r.reason is not None and r.reason.code == BELOW_MINIMUM
    assert "8" in r.reason.message
    assert fans(r) == {"all_chows": 1, "all_simples": 1}
    assert r.fan_total == 4
    assert r.decomposition is not None
    assert r.decomposition.melds == ("[234m]", "55m", "[567p]", "[456s]", "678s")
    assert r.payments is None


def test_a_rule_set_without_a_minimum_pays_any_win() -> None:
    r = scored("[234m][567p][456s]78s55m6s", variant(lambda d: d.update(min_fan=0)))
    assert r.winning and r.payments is not None


# ---------------------------------------------------------------------------------------------
# Flowers


def test_flowers_are_added_after_the_choice_and_never_spoil_a_chicken_hand() -> None:
    ctx = {"seat_wind": "S", "round_wind": "W"}
    plain = scored("[234m][567p][456s]78sCC6s", **ctx)
    assert fans(plain) == {"chicken_hand": 1}
    assert plain.winning and plain.fan_total == 8
    flowered = scored("[234m][567p][456s]78sCC6s", flowers=2, **ctx)
    assert fans(flowered) == {"chicken_hand": 1, "flower_tiles": 2}
    assert flowered.fans[-1].id == "flower_tiles"
    assert flowered.fan_total == 10
    assert flowered.decomposition == plain.decomposition
    assert flowered.payments is not None and flowered.payments.net[0] == 8 * 2 + 18


def test_flowers_do_not_count_toward_the_minimum() -> None:
    r = scored("[234m][567p][456s]78s55m6s", flowers=8)
    assert not r.winning
    assert r.reason is not None and r.reason.code == BELOW_MINIMUM
    assert fans(r) == {"all_chows": 1, "all_simples": 1, "flower_tiles": 8}
    assert r.fan_total == 12
    assert r.payments is None


def test_flowers_count_in_the_total_that_is_paid() -> None:
    r = scored("123m456p789s11sEEE", flowers=3, seat_wind="S", round_wind="W",
               win_type="self_draw")
    assert r.winning and r.payments is not None
    assert r.fan_total == total(r)
    assert r.payments.net[1:] == (-(8 + r.fan_total),) * 3


def test_no_flower_fan_without_flowers() -> None:
    assert "flower_tiles" not in fans(scored("123m456p789s11sEEE"))


# ---------------------------------------------------------------------------------------------
# describe


def test_describe_declared_melds_in_brackets_concealed_kong_in_braces() -> None:
    r = scored("[123p]{5555s}[EEEE]1m789m1m", win_type="self_draw")
    assert r.decomposition is not None
    assert r.decomposition.shape == "regular"
    # Display order: m, p, s, honours.
    assert r.decomposition.melds == ("11m", "789m", "[123p]", "{5555s}", "[EEEE]")
    assert fans(r)["concealed_kong_and_melded_kong"] == 1


def test_describe_puts_a_pair_before_a_set_of_the_same_first_tile() -> None:
    r = scored("11123m456p789sEEE")
    assert r.decomposition is not None
    assert r.decomposition.melds == ("11m", "123m", "456p", "789s", "EEE")


def test_describe_a_declared_pung_and_a_standing_pung() -> None:
    r = scored("[777p]11m123s456sNN1m", win_type="self_draw")
    assert r.decomposition is not None
    assert r.decomposition.melds == ("111m", "[777p]", "123s", "456s", "NN")


def test_describe_directly() -> None:
    hand = Hand(tuple(sorted([0, 0, 27, 27, 27])), (), 27)
    reading = Reading("regular", (Group(KONG, 9, True, True), Group(PUNG, 18, True, False),
                                  Group("chow", 21, True, False), Group(PUNG, 27),
                                  Group("pair", 0)))
    view = describe(reading, hand, T)
    assert view.shape == "regular"
    assert view.melds == ("11m", "[111p]", "[456p]", "{1111s}", "EEE")


def test_describe_shapes_without_groups_write_the_tiles() -> None:
    r = scored("19m19p19sESWNCFPP")
    assert r.decomposition is not None
    assert r.decomposition.melds == ("19m19p19sESWNCFPP",)
    r = scored("147m258s369pESWNC")
    assert r.decomposition is not None
    assert r.decomposition.melds == ("147m369p258sESWNC",)


def test_describe_seven_pairs_with_four_of_a_kind() -> None:
    r = scored("11112233m445566p", variant(lambda d: d["shapes"].pop("regular")))
    assert r.decomposition is not None and r.decomposition.shape == SEVEN_PAIRS
    assert r.decomposition.melds == ("11m", "11m", "22m", "33m", "44p", "55p", "66p")


# ---------------------------------------------------------------------------------------------
# Results are values


def test_results_are_immutable_values() -> None:
    r = scored("123m456p789s11sEEE", win_type="self_draw", flowers=1)
    with pytest.raises(AttributeError):
        r.fan_total = 0  # type: ignore[misc]
    with pytest.raises(AttributeError):
        r.fans[0].count = 9  # type: ignore[misc]
    assert isinstance(r.fans, tuple)
    assert r.decomposition is not None and isinstance(r.decomposition.melds, tuple)
    assert r.payments is not None
    assert isinstance(r.payments.net, tuple) and isinstance(r.payments.transfers, tuple)
    with pytest.raises(AttributeError):
        r.payments.transfers[0].amount = 1  # type: ignore[misc]
    # The JSON form is a fresh copy: changing it changes nothing.
    d = score_response(r)
    d["fans"].clear()
    d["payments"]["net"][0] = 0
    assert score_response(r) != d
    assert r == scored("123m456p789s11sEEE", win_type="self_draw", flowers=1)


def test_scoring_does_not_change_the_rule_set() -> None:
    def snapshot() -> list[tuple[Any, ...]]:
        return [(f.id, f.value, f.excludes, dict(f.params), f.shapes, f.bound,
                 dict(bound_params(f.bound)) if f.bound else None) for f in MCR.fans]

    before = snapshot()
    payment = dict(MCR.payment.params)
    for text, ctx in [("1112345678999m5m", {}), ("445566m445566s5p5p", {"flowers": 4}),
                      ("123m456p789s11sEWN", {}), ("2223334455m678s4m", {"win_type": "self_draw"})]:
        scored(text, **ctx)
    assert snapshot() == before
    assert dict(MCR.payment.params) == payment


def test_json_shape() -> None:
    # The README's first example, the same document the API test expects over HTTP.
    assert score_response(scored("1112345678999m5m", discarder=2)) == NINE_GATES_RESPONSE


def test_describe_writes_every_group_in_the_written_order() -> None:
    """describe() of every reading (pieces end to end when the parts lie apart, else sorted)
    against its groups written out one by one and sorted."""
    from app.domain.readings import written
    from app.domain.shapes import decompose
    from tests.mcr_reference.generator import generate

    ts = MCR.tileset
    for case in generate(1500, 41).cases:
        for r in decompose(case.hand, MCR.plan.shape_names, ts):
            if not r.groups:
                continue
            want = [text for _, text in sorted((written(g, ts) for g in r.groups),
                                               key=lambda keyed: keyed[0])]
            assert list(describe(r, case.hand, ts).melds) == want, (case.notation, r)


@pytest.mark.parametrize(("ruleset", "tiles", "context"), [
    ("mcr", "123m456m789m123p55s", {"win_type": "discard", "discarder": 2}),
    ("sichuan", "111m234m567m888m22m", {"win_type": "self_draw", "void_suit": "p"}),
    ("tianjin", "1p1p1p5p6p7p7p8p9p9p9pCF2p", {"win_type": "self_draw",
                                               "wild_indicator": "C"}),
])
def test_without_transfers_only_the_payments_are_left_out(ruleset: str, tiles: str,
                                                          context: dict[str, Any]) -> None:
    """`transfers=False` (what a wait's entry uses) leaves `payments` out and nothing else."""
    rs = repo_rulesets()[ruleset]
    hand, ctx = build(tiles, context, rs)
    full = score(hand, ctx, rs)
    bare = score(hand, ctx, rs, transfers=False)
    assert full.winning and full.payments is not None
    assert bare == full._replace(payments=None)
