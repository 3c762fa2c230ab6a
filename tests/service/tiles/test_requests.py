"""Reading a decoded request into Hand and WinContext: every input form and every error.

Type errors are the request schema's (`invalid_request`, with the field's pointer); what needs
the rule set is `build`'s, which trusts the schema."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.domain.errors import HandError, NotationError
from app.domain.hand import CHOW, KONG, PUNG, Meld
from app.domain.tiles import STANDARD
from app.rules.definitions import PaymentDef, WildDef
from app.rules.model import OptionDef, RuleSet
from app.service.problems import ApiError
from app.service.reading import field_name
from app.service.tiles.requests import build, build_waiting, read_score_request

T = STANDARD
c = T.by_code

RULES = RuleSet(
    id="test",
    name="测试",
    name_en="Test",
    description="a minimal rule set for request tests",
    players=4,
    tileset=STANDARD,
    fans=(),
    shapes={},
    options=(OptionDef("x", "bool", False, "d"),),
    payment=PaymentDef("none"),
    max_flowers=8,
)

RULES_WITH_OPTIONS = replace(
    RULES,
    options=(
        OptionDef("x", "bool", False, "d"),
        OptionDef("cap", "int", 3, "cap", minimum=1, maximum=6),
        OptionDef("mode", "enum", "a", "mode", choices=("a", "b")),
        OptionDef("level", "enum", 1, "level", choices=(1, 2)),
    ),
)


# Wilds from an indicator (天津: its kind and the next), or listed explicitly.
RULES_WITH_WILDS = replace(RULES, wild=WildDef("self_and_next", False, True))
RULES_EXPLICIT_WILDS = replace(RULES, wild=WildDef(None, True, False))

NINE_GATES = "1112345678999m5m"
DISCARD = {"win_type": "discard", "discarder": 2}
SELF = {"win_type": "self_draw"}


def tiles(*codes: str) -> tuple[int, ...]:
    return tuple(c[x] for x in codes)


def error(hand: Any, context: Any = DISCARD, rules: RuleSet = RULES) -> HandError:
    with pytest.raises(HandError) as exc:
        build(hand, context, rules)
    err = exc.value
    assert err.message
    return err


def refused(hand: Any, context: Any = DISCARD, rules: RuleSet = RULES) -> tuple[str, str]:
    """What the request schema answers first: (pointer, field error code)."""
    with pytest.raises(ApiError) as exc:
        read_score_request({"hand": hand, "context": context}, rules)
    err = exc.value
    assert err.code == "invalid_request" and err.errors
    first = err.errors[0]
    assert err.detail.startswith(f"{field_name(first['pointer'])}: {first['message']}")
    return err.errors[0]["pointer"], err.errors[0]["code"]


# ---------------------------------------------------------------------------------------------
# Hand: input forms


def test_dict_with_string_concealed() -> None:
    hand, ctx = build({"concealed": NINE_GATES, "melds": [], "win_tile": "5m"}, DISCARD, RULES)
    assert hand.concealed == tuple(T.by_code[f"{d}m"] for d in "11123456789995")
    assert hand.melds == ()
    assert hand.win_tile == c["5m"]
    assert ctx.win_type == "discard"
    assert ctx.discarder == 2


def test_concealed_keeps_written_order() -> None:
    hand, _ = build({"concealed": "5m" + NINE_GATES[:-2]}, SELF, RULES)
    assert hand.concealed[0] == c["5m"]
    assert hand.win_tile == c["9m"]  # default: the last tile written


def test_dict_with_list_concealed_and_aliases() -> None:
    codes = ["1m", "一万", "1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "9m", "九万",
             "5m"]
    hand, _ = build({"concealed": codes, "win_tile": "五万"}, DISCARD, RULES)
    assert hand.concealed == tiles("1m", "1m", "1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m",
                                   "9m", "9m", "9m", "5m")
    assert hand.win_tile == c["5m"]


def test_win_tile_defaults_to_last_list_item() -> None:
    hand, _ = build({"concealed": ["E", "E", "E", "S", "S", "S", "W", "W", "W", "N", "N", "N",
                                   "C", "C"]}, SELF, RULES)
    assert hand.win_tile == c["C"]


def test_dict_with_melds_in_both_forms() -> None:
    hand, _ = build(
        {
            "concealed": "1112345m5m",
            "melds": [
                {"kind": "chow", "tiles": "312p"},
                {"kind": "kong", "tiles": ["5s", "5s", "5s", "5s"], "concealed": True},
            ],
        },
        SELF,
        RULES,
    )
    assert hand.melds == (Meld(CHOW, tiles("1p", "2p", "3p")),
                          Meld(KONG, tiles("5s", "5s", "5s", "5s"), True))
    assert hand.win_tile == c["5m"]


def test_riichi_and_chinese_honours_in_melds() -> None:
    hand, _ = build(
        {"concealed": "1112345m5m",
         "melds": [{"kind": "pung", "tiles": "7z7z7z"}, {"kind": "pung", "tiles": "白白白"}]},
        SELF, RULES,
    )
    assert [m.tiles for m in hand.melds] == [tiles("C", "C", "C"), tiles("P", "P", "P")]


def test_hand_string() -> None:
    hand, _ = build("[123p][555s]1112345m5m", DISCARD, RULES)
    assert hand.concealed == tiles("1m", "1m", "1m", "2m", "3m", "4m", "5m", "5m")
    assert hand.melds == (Meld(CHOW, tiles("1p", "2p", "3p")), Meld(PUNG, tiles("5s", "5s", "5s")))
    assert hand.win_tile == c["5m"]


def test_hand_string_concealed_kong() -> None:
    hand, _ = build("{5555s}[5555p,0][EEEE]1112m2m", SELF, RULES)
    assert [(m.kind, m.concealed) for m in hand.melds] == [(KONG, True), (KONG, True),
                                                           (KONG, False)]


def test_four_kongs_count_as_three_each() -> None:
    hand, _ = build({"concealed": "EE", "melds": [{"kind": "kong", "tiles": t * 4}
                                                  for t in ("1m", "2m", "3m", "4m")]},
                    SELF, RULES)
    assert len(hand.melds) == 4


# ---------------------------------------------------------------------------------------------
# Hand: errors


@pytest.mark.parametrize(
    ("hand", "code", "pointer"),
    [
        # notation, pointing at the field
        ({"concealed": "111234567899m0m"}, "unknown_tile", "/hand/concealed"),
        ({"concealed": "1112345678999m5"}, "invalid_notation", "/hand/concealed"),
        ({"concealed": ["1m"] * 13 + ["0m"]}, "unknown_tile", "/hand/concealed/13"),
        ({"concealed": ["1m"] * 13 + ["12m"]}, "invalid_notation", "/hand/concealed/13"),
        ({"concealed": NINE_GATES, "win_tile": "X"}, "unknown_tile", "/hand/win_tile"),
        ({"concealed": NINE_GATES, "win_tile": "55m"}, "invalid_notation", "/hand/win_tile"),
        ({"concealed": "11123m5m", "melds": [{"kind": "chow", "tiles": "12q"}]},
         "invalid_notation", "/hand/melds/0/tiles"),
        ("[123p]0m", "unknown_tile", "/hand"),
        # flowers
        ({"concealed": "111234567899m1f"}, "flower_in_hand", "/hand/concealed"),
        ({"concealed": ["春"] + ["1m"] * 13}, "flower_in_hand", "/hand/concealed/0"),
        ({"concealed": "11123m5m", "melds": [{"kind": "pung", "tiles": "1f1f1f"}]},
         "flower_in_hand", "/hand/melds/0/tiles"),
        ({"concealed": NINE_GATES, "win_tile": "1f"}, "flower_in_hand", "/hand/win_tile"),
        ("1112345678999m1f", "flower_in_hand", "/hand"),
        # the first fault in the order they are checked, whatever comes after it
        ({"concealed": "11123m1f", "melds": [{"kind": "chow", "tiles": "124p"}]},
         "flower_in_hand", "/hand/concealed"),
        ({"concealed": "1112345678999m1f5m"}, "flower_in_hand", "/hand/concealed"),
        ({"concealed": "1112345678999m", "win_tile": "1f"}, "flower_in_hand",
         "/hand/win_tile"),
        ({"concealed": "11111m234567899m", "win_tile": "E"}, "too_many_copies",
         "/hand/concealed"),
        # melds
        ({"concealed": "11123m5m", "melds": [{"kind": "chow", "tiles": "124p"}]},
         "illegal_meld", "/hand/melds/0/tiles"),
        ({"concealed": "11123m5m", "melds": [{"kind": "chow", "tiles": "89m1s"}]},
         "illegal_meld", "/hand/melds/0/tiles"),
        ({"concealed": "11123m5m", "melds": [{"kind": "chow", "tiles": "ESW"}]},
         "illegal_meld", "/hand/melds/0/tiles"),
        ({"concealed": "11123m5m", "melds": [{"kind": "chow", "tiles": "555p"}]},
         "illegal_meld", "/hand/melds/0/tiles"),
        ({"concealed": "11123m5m", "melds": [{"kind": "pung", "tiles": "556p"}]},
         "illegal_meld", "/hand/melds/0/tiles"),
        ({"concealed": "11123m5m", "melds": [{"kind": "pung", "tiles": "123p"}]},
         "illegal_meld", "/hand/melds/0/tiles"),
        ({"concealed": "11123m5m", "melds": [{"kind": "kong", "tiles": "5556p"}]},
         "illegal_meld", "/hand/melds/0/tiles"),
        ({"concealed": "11123m5m", "melds": [{"kind": "kong", "tiles": "555p"}]},
         "illegal_meld", "/hand/melds/0/tiles"),
        ({"concealed": "11123m5m", "melds": [{"kind": "pung", "tiles": "5555p"}]},
         "illegal_meld", "/hand/melds/0/tiles"),
        ({"concealed": "11123m5m", "melds": [{"kind": "pung", "tiles": []}]},
         "illegal_meld", "/hand/melds/0/tiles"),
        ({"concealed": "11123m5m", "melds": [{"kind": "pung", "tiles": "555p",
                                              "concealed": True}]},
         "illegal_meld", "/hand/melds/0/concealed"),
        ({"concealed": "11123m5m", "melds": [{"kind": "chow", "tiles": "123p",
                                              "concealed": True}]},
         "illegal_meld", "/hand/melds/0/concealed"),
        ("[124p]11123m5m", "illegal_meld", "/hand"),
        ("[555p,0]11123m5m", "illegal_meld", "/hand"),
        # number of melds
        ({"concealed": "EE", "melds": [{"kind": "pung", "tiles": f"{r}{r}{r}m"}
                                       for r in range(1, 6)]}, "too_many_melds", "/hand/melds"),
        ("[111m][222m][333m][444m][555m]E", "too_many_melds", "/hand"),
        # tile count
        ({"concealed": "1112345678999m"}, "wrong_tile_count", "/hand/concealed"),
        ({"concealed": NINE_GATES + "5m"}, "wrong_tile_count", "/hand/concealed"),
        ({"concealed": NINE_GATES, "melds": [{"kind": "chow", "tiles": "123p"}]},
         "wrong_tile_count", "/hand/concealed"),
        ({"concealed": ""}, "wrong_tile_count", "/hand/concealed"),
        ({"concealed": []}, "wrong_tile_count", "/hand/concealed"),
        ("[123p]" + NINE_GATES, "wrong_tile_count", "/hand"),
        # copies
        ({"concealed": "11111m234567899m"}, "too_many_copies", "/hand/concealed"),
        ({"concealed": "1112345678m5m", "melds": [{"kind": "pung", "tiles": "111m"}]},
         "too_many_copies", "/hand/melds/0/tiles"),
        ({"concealed": "EE", "melds": [{"kind": "kong", "tiles": "EEEE"}, {"kind": "pung",
          "tiles": "111m"}, {"kind": "pung", "tiles": "222m"}, {"kind": "pung",
          "tiles": "333m"}]}, "too_many_copies", "/hand/melds/0/tiles"),
        ("[EEE][EEE]1112345m5m", "too_many_copies", "/hand"),
        # winning tile
        ({"concealed": NINE_GATES, "win_tile": "E"}, "win_tile_missing", "/hand/win_tile"),
        ("[123m][456m][789m][EEE]", "win_tile_missing", "/hand"),
    ],
)
def test_hand_errors(hand: Any, code: str, pointer: str) -> None:
    err = error(hand)
    assert (err.code, err.pointer) == (code, pointer)


def test_a_waiting_hand_refuses_a_flower_as_its_winning_tile_too() -> None:
    with pytest.raises(HandError) as caught:
        build_waiting({"concealed": "1112345678999m", "win_tile": "1f"}, SELF, RULES)
    assert (caught.value.code, caught.value.pointer) == ("flower_in_hand", "/hand/win_tile")


def test_wrong_tile_count_message_says_given_and_needed() -> None:
    err = error({"concealed": "1112345678999m", "melds": [{"kind": "chow", "tiles": "123p"}]})
    assert "13" in err.message and "11" in err.message
    assert "1 declared meld" in err.message


def test_too_many_copies_message_names_tile_and_count() -> None:
    err = error({"concealed": "1112345678m5m", "melds": [{"kind": "kong", "tiles": "1111m"}]})
    assert err.code == "too_many_copies"
    assert "1m" in err.message and "7 times" in err.message and "4" in err.message


def test_illegal_meld_message_names_the_meld() -> None:
    err = error({"concealed": "11123m5m", "melds": [{"kind": "chow", "tiles": "ESW"}]})
    assert "hand.melds[0]" in err.message and "ESW" in err.message
    assert "honours" in err.message


def test_a_schema_refusal_names_the_first_field_in_its_detail() -> None:
    with pytest.raises(ApiError) as exc:
        read_score_request({"hand": {"concealed": NINE_GATES, "melds": [{"tiles": "123p"}]},
                            "context": {"win_type": "tsumo"}}, RULES)
    assert exc.value.detail == ("hand.melds[0].kind: Required: chow, pung or kong. "
                                "(1 more in errors)")


def test_flower_error_has_a_position_in_strings() -> None:
    err = error({"concealed": "111234567899m1f"})
    assert isinstance(err, NotationError)
    assert err.position == 13


def test_notation_error_position_is_relative_to_the_field() -> None:
    err = error({"concealed": "11123m", "melds": [{"kind": "pung", "tiles": "55 0s"}]})
    assert (err.code, err.pointer, err.position) == ("invalid_notation",
                                                     "/hand/melds/0/tiles", 0)


# JSON types are the schema's: build trusts them.
@pytest.mark.parametrize(
    ("hand", "code", "pointer"),
    [
        (None, "invalid_type", "/hand"),
        (5, "invalid_type", "/hand"),
        ({}, "required", "/hand/concealed"),
        ({"concealed": 5}, "invalid_type", "/hand/concealed"),
        ({"concealed": [5]}, "invalid_type", "/hand/concealed/0"),
        ({"concealed": NINE_GATES, "melds": "123p"}, "invalid_type", "/hand/melds"),
        ({"concealed": NINE_GATES, "melds": [5]}, "invalid_type", "/hand/melds/0"),
        ({"concealed": NINE_GATES, "melds": [{"tiles": "123p"}]}, "required",
         "/hand/melds/0/kind"),
        ({"concealed": NINE_GATES, "melds": [{"kind": "pair", "tiles": "11p"}]},
         "invalid_value", "/hand/melds/0/kind"),
        ({"concealed": NINE_GATES, "melds": [{"kind": "chow"}]}, "required",
         "/hand/melds/0/tiles"),
        ({"concealed": NINE_GATES, "melds": [{"kind": "chow", "tiles": "123p",
                                             "concealed": "yes"}]},
         "invalid_type", "/hand/melds/0/concealed"),
        ({"concealed": NINE_GATES, "win_tile": 5}, "invalid_type", "/hand/win_tile"),
    ],
)
def test_hand_type_errors(hand: Any, code: str, pointer: str) -> None:
    assert refused(hand) == (pointer, code)


# ---------------------------------------------------------------------------------------------
# Context: values and defaults


def test_context_defaults() -> None:
    _, ctx = build(NINE_GATES, {"win_type": "self_draw"}, RULES)
    assert ctx.win_type == "self_draw"
    assert ctx.kong is None
    assert (ctx.last_tile, ctx.last_of_kind) == (False, False)
    assert (ctx.seat_wind, ctx.round_wind) == (0, 0)
    assert (ctx.flowers, ctx.flower_tiles) == (0, ())
    assert (ctx.wild_indicator, ctx.wilds) == (None, ())
    assert (ctx.winner, ctx.discarder, ctx.dealer) == (0, None, 0)
    assert ctx.options == {"x": False}


def test_every_context_field_lands_in_its_own_field() -> None:
    # The context is built from a tuple in the fields' order: each field given a value
    # unlike every other, then compared field by field.
    _, ctx = build("111234567m99p789s", {
        "win_type": "discard", "kong": "robbed", "last_tile": True, "last_of_kind": False,
        "first_turn": True, "seat_wind": "N", "round_wind": "S", "flowers": "12f",
        "wild_indicator": "9p", "winner": 1, "discarder": 3, "dealer": 2,
        "options": {"x": True}}, RULES_WITH_WILDS)
    assert ctx._asdict() == {
        "win_type": "discard", "kong": "robbed", "last_tile": True, "last_of_kind": False,
        "first_turn": True, "seat_wind": 3, "round_wind": 1, "flowers": 2,
        "flower_tiles": tiles("1f", "2f"), "wild_indicator": c["9p"],
        "wilds": tiles("1p", "9p"), "winner": 1, "discarder": 3, "dealer": 2,
        "options": {"x": True}}


def test_context_nulls_mean_defaults() -> None:
    _, ctx = build(NINE_GATES, {"win_type": "self_draw", "kong": None, "last_tile": None,
                                "seat_wind": None, "flowers": None, "winner": None,
                                "discarder": None, "options": None, "wilds": None}, RULES)
    assert ctx.winner == 0 and ctx.options == {"x": False}


def test_context_full() -> None:
    _, ctx = build(
        "[5555s]1112345678m9m",
        {"win_type": "self_draw", "kong": "replacement", "last_tile": True,
         "last_of_kind": True, "seat_wind": "W", "round_wind": "南", "flowers": 3,
         "winner": 2, "dealer": 3, "options": {"x": True}},
        RULES,
    )
    assert ctx.kong == "replacement"
    assert (ctx.last_tile, ctx.last_of_kind) == (True, True)
    assert (ctx.seat_wind, ctx.round_wind) == (2, 1)
    assert ctx.flowers == 3 and ctx.flower_tiles == ()
    assert (ctx.winner, ctx.dealer) == (2, 3)
    assert ctx.options == {"x": True}


@pytest.mark.parametrize(("wind", "index"), [("E", 0), ("S", 1), ("W", 2), ("N", 3),
                                              ("东", 0), ("南", 1), ("西", 2), ("北", 3),
                                              ("北风", 3)])
def test_winds(wind: str, index: int) -> None:
    _, ctx = build(NINE_GATES, {**SELF, "seat_wind": wind, "round_wind": wind}, RULES)
    assert (ctx.seat_wind, ctx.round_wind) == (index, index)


@pytest.mark.parametrize(
    ("flowers", "tiles_"),
    [(["1f", "5f"], ("1f", "5f")), ("15f", ("1f", "5f")), ("春梅", ("1f", "5f")),
     (["春", "8f"], ("1f", "8f")), ([], ()), ("", ()), (["15f"], ("1f", "5f"))],
)
def test_flower_lists(flowers: Any, tiles_: tuple[str, ...]) -> None:
    _, ctx = build(NINE_GATES, {**SELF, "flowers": flowers}, RULES)
    assert ctx.flower_tiles == tiles(*tiles_)
    assert ctx.flowers == len(tiles_)


def test_all_eight_flowers() -> None:
    _, ctx = build(NINE_GATES, {**SELF, "flowers": "12345678f"}, RULES)
    assert ctx.flowers == 8


@pytest.mark.parametrize(
    ("flowers", "code", "pointer"),
    [
        (9, "flowers_out_of_range", "/context/flowers"),
        (-1, "flowers_out_of_range", "/context/flowers"),
        (["1f", "1f"], "too_many_copies", "/context/flowers/1"),
        ("春春", "too_many_copies", "/context/flowers"),
        (["1m"], "not_a_flower", "/context/flowers/0"),
        ("E", "not_a_flower", "/context/flowers"),
        (["9f"], "unknown_tile", "/context/flowers/0"),
        ("1", "invalid_notation", "/context/flowers"),
    ],
)
def test_flower_errors(flowers: Any, code: str, pointer: str) -> None:
    err = error(NINE_GATES, {**SELF, "flowers": flowers})
    assert (err.code, err.pointer) == (code, pointer)


@pytest.mark.parametrize(("flowers", "pointer"), [(True, "/context/flowers"),
                                                  ([1], "/context/flowers/0"),
                                                  (1.5, "/context/flowers")])
def test_flower_type_errors(flowers: Any, pointer: str) -> None:
    assert refused(NINE_GATES, {**SELF, "flowers": flowers}) == (pointer, "invalid_type")


def test_flowers_in_a_game_without_flowers() -> None:
    no_flowers = replace(RULES, max_flowers=0)
    assert build(NINE_GATES, {**SELF, "flowers": 0}, no_flowers)[1].flowers == 0
    err = error(NINE_GATES, {**SELF, "flowers": ["1f"]}, no_flowers)
    assert err.code == "flowers_out_of_range"
    assert "without flowers" in err.message


def test_too_many_flowers_in_a_list() -> None:
    four = replace(RULES, max_flowers=4)
    err = error(NINE_GATES, {**SELF, "flowers": "12345f"}, four)
    assert (err.code, err.pointer) == ("flowers_out_of_range", "/context/flowers")


# ---------------------------------------------------------------------------------------------
# Wilds


@pytest.mark.parametrize(("key", "value"), [("wild_indicator", "5m"), ("wilds", ["5m"]),
                                            ("wilds", "5m")])
def test_wilds_not_supported(key: str, value: Any) -> None:
    err = error(NINE_GATES, {**SELF, key: value})
    assert (err.code, err.pointer) == ("wilds_not_supported", f"/context/{key}")
    assert "test" in err.message


def test_empty_wilds_mean_none() -> None:
    _, ctx = build(NINE_GATES, {**SELF, "wilds": [], "wild_indicator": None}, RULES)
    assert ctx.wilds == ()


@pytest.mark.parametrize(("indicator", "wild"), [("5z", "7z"), ("9m", "1m"), ("N", "E"),
                                                  ("P", "C"), ("C", "F"), ("3p", "4p")])
def test_an_indicator_makes_its_kind_and_the_next_wild(indicator: str, wild: str) -> None:
    _, ctx = build("123456789p11sEEE", {**SELF, "wild_indicator": indicator}, RULES_WITH_WILDS)
    assert ctx.wild_indicator == tiles(indicator)[0]
    assert ctx.wilds == tuple(sorted(tiles(indicator, wild)))


def test_explicit_wilds_are_parsed_where_the_rule_set_takes_them() -> None:
    _, ctx = build(NINE_GATES, {**SELF, "wilds": ["6m", "5m", "5m"]}, RULES_EXPLICIT_WILDS)
    assert (ctx.wild_indicator, ctx.wilds) == (None, tiles("5m", "6m"))


def test_the_flipped_indicator_is_a_copy_in_sight() -> None:
    err = error("1111m23456789p11s", {**SELF, "wild_indicator": "1m"}, RULES_WITH_WILDS)
    assert (err.code, err.pointer) == ("too_many_copies", "/context/wild_indicator")
    build("111m234567899p11s", {**SELF, "wild_indicator": "1m"}, RULES_WITH_WILDS)


def test_wild_tiles_are_never_melded_but_may_be_a_concealed_kong() -> None:
    err = error("[222m]345678p11sEEE", {**SELF, "wild_indicator": "1m"}, RULES_WITH_WILDS)
    assert (err.code, err.pointer) == ("illegal_meld", "/hand")
    build("{2222m}345678p11sEEE", {**SELF, "wild_indicator": "1m"}, RULES_WITH_WILDS)


@pytest.mark.parametrize(
    ("rules", "context", "code", "pointer"),
    [(RULES_WITH_WILDS, {"wild_indicator": "5m", "wilds": ["5m"]}, "inconsistent_context",
      "/context/wilds"),
     (RULES_WITH_WILDS, {"wilds": ["5m"]}, "wilds_not_supported", "/context/wilds"),
     (RULES_EXPLICIT_WILDS, {"wild_indicator": "5m"}, "wilds_not_supported",
      "/context/wild_indicator")],
)
def test_wilds_given_the_way_the_rule_set_does_not_take_them(
        rules: RuleSet, context: dict[str, Any], code: str, pointer: str) -> None:
    err = error(NINE_GATES, {**SELF, **context}, rules)
    assert (err.code, err.pointer) == (code, pointer)


@pytest.mark.parametrize(
    ("key", "value", "code", "pointer"),
    [("wild_indicator", "1f", "invalid_field", "/context/wild_indicator"),
     ("wild_indicator", "12m", "invalid_notation", "/context/wild_indicator"),
     ("wilds", ["1f"], "invalid_field", "/context/wilds/0"),
     ("wilds", ["0m"], "unknown_tile", "/context/wilds/0")],
)
def test_wild_errors(key: str, value: Any, code: str, pointer: str) -> None:
    rules = RULES_WITH_WILDS if key == "wild_indicator" else RULES_EXPLICIT_WILDS
    err = error(NINE_GATES, {**SELF, key: value}, rules)
    assert (err.code, err.pointer) == (code, pointer)


@pytest.mark.parametrize("key", ["wild_indicator", "wilds"])
def test_wild_type_errors(key: str) -> None:
    rules = RULES_WITH_WILDS if key == "wild_indicator" else RULES_EXPLICIT_WILDS
    assert refused(NINE_GATES, {**SELF, key: 5}, rules) == (f"/context/{key}", "invalid_type")


# ---------------------------------------------------------------------------------------------
# Seats


@pytest.mark.parametrize(
    ("context", "pointer"),
    [({**SELF, "winner": 4}, "/context/winner"),
     ({**SELF, "winner": -1}, "/context/winner"),
     ({**SELF, "dealer": 4}, "/context/dealer"),
     ({"win_type": "discard", "discarder": 7}, "/context/discarder")],
)
def test_seat_out_of_range(context: dict[str, Any], pointer: str) -> None:
    err = error(NINE_GATES, context)
    assert (err.code, err.pointer) == ("seat_out_of_range", pointer)
    assert "0..3" in err.message


def test_seats_follow_the_player_count() -> None:
    two = replace(RULES, players=2)
    build(NINE_GATES, {"win_type": "discard", "winner": 1, "discarder": 0}, two)
    err = error(NINE_GATES, {"win_type": "discard", "discarder": 2}, two)
    assert err.code == "seat_out_of_range"
    assert "0..1" in err.message


# ---------------------------------------------------------------------------------------------
# Options


def test_option_defaults_are_filled_in() -> None:
    _, ctx = build(NINE_GATES, SELF, RULES_WITH_OPTIONS)
    assert ctx.options == {"x": False, "cap": 3, "mode": "a", "level": 1}


def test_options_are_set() -> None:
    _, ctx = build(NINE_GATES, {**SELF, "options": {"cap": 6, "mode": "b", "level": 2}},
                   RULES_WITH_OPTIONS)
    assert ctx.options == {"x": False, "cap": 6, "mode": "b", "level": 2}


@pytest.mark.parametrize(
    ("options", "code", "pointer"),
    [
        ({"y": 1}, "unknown_option", "/context/options/y"),
        ({"a/b~": 1}, "unknown_option", "/context/options/a~1b~0"),
        ({"x": 1}, "invalid_option", "/context/options/x"),
        ({"x": "true"}, "invalid_option", "/context/options/x"),
        ({"cap": True}, "invalid_option", "/context/options/cap"),
        ({"cap": 2.5}, "invalid_option", "/context/options/cap"),
        ({"cap": 0}, "invalid_option", "/context/options/cap"),
        ({"cap": 7}, "invalid_option", "/context/options/cap"),
        ({"mode": "c"}, "invalid_option", "/context/options/mode"),
        ({"level": True}, "invalid_option", "/context/options/level"),  # true is not 1
        ({"level": 3}, "invalid_option", "/context/options/level"),
    ],
)
def test_option_errors(options: dict[str, Any], code: str, pointer: str) -> None:
    err = error(NINE_GATES, {**SELF, "options": options}, RULES_WITH_OPTIONS)
    assert (err.code, err.pointer) == (code, pointer)


def test_unknown_option_lists_known_ones() -> None:
    err = error(NINE_GATES, {**SELF, "options": {"y": 1}})
    assert "'y'" in err.message and "x" in err.message


def test_invalid_option_says_what_is_allowed() -> None:
    err = error(NINE_GATES, {**SELF, "options": {"cap": 7}}, RULES_WITH_OPTIONS)
    assert "at most 6" in err.message
    err = error(NINE_GATES, {**SELF, "options": {"mode": "c"}}, RULES_WITH_OPTIONS)
    assert '"a", "b"' in err.message


# ---------------------------------------------------------------------------------------------
# Context consistency


@pytest.mark.parametrize(
    ("hand", "context", "pointer", "fields"),
    [
        (NINE_GATES, {"win_type": "discard"}, "/context/discarder",
         ("win_type", "discarder")),
        (NINE_GATES, {"win_type": "self_draw", "discarder": 1}, "/context/discarder",
         ("win_type", "discarder")),
        (NINE_GATES, {"win_type": "discard", "discarder": 0}, "/context/discarder",
         ("winner", "discarder")),
        (NINE_GATES, {"win_type": "discard", "discarder": 3, "winner": 3},
         "/context/discarder", ("winner", "discarder")),
        ("123456789m12355p", {"win_type": "self_draw", "kong": "robbed"}, "/context/kong",
         ("kong", "win_type")),
        ("[5555s]1112345678m9m", {"win_type": "discard", "discarder": 1, "kong": "replacement"},
         "/context/kong", ("kong", "win_type")),
        (NINE_GATES, {"win_type": "self_draw", "kong": "replacement"}, "/context/kong",
         ("kong", "melds")),
        ("[123s]1112345678m9m", {"win_type": "self_draw", "kong": "replacement"}, "/context/kong",
         ("kong", "melds")),
        (NINE_GATES, {"win_type": "self_draw", "kong": "after_kong_discard"}, "/context/kong",
         ("kong", "win_type")),
        # robbed: the winning 5m also stands elsewhere in the hand
        ("123456789m1115p5p", {**DISCARD, "kong": "robbed"}, "/context/kong",
         ("kong", "win_tile")),
        ("[345m]123789m5599p5m", {**DISCARD, "kong": "robbed"}, "/context/kong",
         ("kong", "win_tile")),
    ],
)
def test_inconsistent_context(
    hand: str, context: dict[str, Any], pointer: str, fields: tuple[str, ...]
) -> None:
    err = error(hand, context)
    assert (err.code, err.pointer) == ("inconsistent_context", pointer)
    for f in fields:
        assert f in err.message


@pytest.mark.parametrize(
    ("hand", "context"),
    [
        ("[5555s]1112345678m9m", {"win_type": "self_draw", "kong": "replacement"}),
        ("{5555s}1112345678m9m", {"win_type": "self_draw", "kong": "replacement"}),
        ("123456789m55p123s", {**DISCARD, "kong": "robbed"}),
        ("123456789m12355p", {**DISCARD, "kong": "after_kong_discard"}),
        (NINE_GATES, {"win_type": "discard", "discarder": 0, "winner": 1}),
    ],
)
def test_consistent_context(hand: str, context: dict[str, Any]) -> None:
    # A context that agrees with its hand is read as given: the kong, the win type and the
    # seats it names, and a hand of 14 tiles with its winning tile among the standing ones.
    read, ctx = build(hand, context, RULES)
    assert (ctx.win_type, ctx.kong) == (context["win_type"], context.get("kong"))
    assert ctx.winner == context.get("winner", 0)
    assert ctx.discarder == context.get("discarder")
    assert len(read.concealed) + sum(min(len(m.tiles), 3) for m in read.melds) == 14
    assert read.win_tile in read.concealed


@pytest.mark.parametrize(
    ("context", "code", "pointer"),
    [
        (None, "invalid_type", "/context"),
        ({}, "required", "/context/win_type"),
        ({"win_type": "tsumo"}, "invalid_value", "/context/win_type"),
        ({**SELF, "kong": "yes"}, "invalid_value", "/context/kong"),
        ({**SELF, "last_tile": 1}, "invalid_type", "/context/last_tile"),
        ({**SELF, "last_of_kind": "true"}, "invalid_type", "/context/last_of_kind"),
        ({**SELF, "seat_wind": "X"}, "invalid_value", "/context/seat_wind"),
        ({**SELF, "round_wind": 1}, "invalid_type", "/context/round_wind"),
        ({**SELF, "winner": True}, "invalid_type", "/context/winner"),
        ({**SELF, "dealer": "0"}, "invalid_type", "/context/dealer"),
        ({**SELF, "options": []}, "invalid_type", "/context/options"),
    ],
)
def test_context_type_errors(context: Any, code: str, pointer: str) -> None:
    assert refused(NINE_GATES, context) == (pointer, code)


# ---------------------------------------------------------------------------------------------
# Properties: nothing but a request error comes out, whatever the (JSON-shaped) input


json_scalars = st.one_of(st.none(), st.booleans(), st.integers(-3, 10), st.text(max_size=8),
                         st.sampled_from(["5m", "E", "1f", "123m", "discard", "self_draw",
                                          "robbed", "replacement", "after_kong_discard"]))
json_values = st.recursive(
    json_scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=5),
                            st.dictionaries(st.text(max_size=5), inner, max_size=4)),
    max_leaves=12,
)
tile_codes = st.sampled_from([T.code(t) for t in range(len(T.kinds))] + ["5z", "中", "0m"])
meld_data = st.fixed_dictionaries(
    {"kind": st.sampled_from(["chow", "pung", "kong"]),
     "tiles": st.one_of(st.lists(tile_codes, max_size=5), st.text(max_size=8))},
    optional={"concealed": st.one_of(st.booleans(), json_scalars)},
)
playing_codes = st.sampled_from([T.code(t) for t in T.playing])


@st.composite
def well_shaped_hands(draw: st.DrawFn) -> dict[str, Any]:
    """Right tile count and meld shapes, so that most draws get as far as the context."""
    n = draw(st.integers(0, 4))
    melds = []
    for _ in range(n):
        kind = draw(st.sampled_from(["chow", "pung", "kong"]))
        if kind == "chow":
            suit = draw(st.sampled_from("mps"))
            r = draw(st.integers(1, 7))
            tiles_ = [f"{r + k}{suit}" for k in range(3)]
        else:
            tiles_ = [draw(playing_codes)] * (3 if kind == "pung" else 4)
        melds.append({"kind": kind, "tiles": tiles_,
                      "concealed": kind == "kong" and draw(st.booleans())})
    standing = draw(st.lists(playing_codes, min_size=14 - 3 * n, max_size=14 - 3 * n))
    return {"concealed": standing, "melds": melds}


hand_data = st.one_of(
    well_shaped_hands(),
    st.text(max_size=30),
    st.fixed_dictionaries(
        {"concealed": st.one_of(st.lists(tile_codes, max_size=15), st.text(max_size=20),
                                json_values)},
        optional={"melds": st.one_of(st.lists(meld_data, max_size=5), json_values),
                  "win_tile": st.one_of(tile_codes, json_scalars)},
    ),
    json_values,
)
context_data = st.one_of(
    st.fixed_dictionaries(
        {"win_type": st.sampled_from(["self_draw", "discard"])},
        optional={
            "kong": st.sampled_from([None, "replacement", "robbed", "after_kong_discard"]),
            "discarder": st.one_of(st.none(), st.integers(-1, 4)),
            "winner": st.integers(-1, 4),
            "dealer": st.integers(-1, 4),
            "seat_wind": st.sampled_from(["E", "S", "W", "N", "东", "X"]),
            "flowers": st.one_of(st.integers(-1, 9), st.lists(tile_codes, max_size=9),
                                 st.text(max_size=9)),
            "wild_indicator": st.one_of(st.none(), tile_codes),
            "options": st.dictionaries(st.sampled_from(["x", "y"]), json_scalars, max_size=2),
        },
    ),
    json_values,
)


@given(hand_data, context_data)
def test_reading_only_raises_request_errors(hand: Any, context: Any) -> None:
    try:
        h, ctx = read_score_request({"hand": hand, "context": context}, RULES)
    except HandError as err:
        assert err.code and err.message
        assert err.pointer.startswith(("/hand", "/context"))
    except ApiError as err:
        assert err.code == "invalid_request" and err.errors
        assert all(e["pointer"].startswith(("/hand", "/context")) for e in err.errors)
    else:
        assert len(h.concealed) + 3 * len(h.melds) == 14
        assert h.win_tile in h.concealed
        assert 0 <= ctx.winner < 4


@given(st.lists(st.sampled_from(T.playing), min_size=14, max_size=14))
def test_any_legal_fourteen_tiles_build(xs: list[int]) -> None:
    # Any 14 playing tiles with at most 4 of a kind make a hand (scoring decides whether it
    # wins); the standing tiles keep their written order.
    if any(xs.count(t) > 4 for t in xs):
        return
    hand, _ = build({"concealed": [T.code(t) for t in xs]}, SELF, RULES)
    assert list(hand.concealed) == xs
    assert hand.win_tile == xs[-1]
