"""POST /v1/rulesets/changchun/settle: kong money (点杠 1, 加杠 1, 暗杠 2 from each other
player, doubled for 1筒, 1条 and the dragons unless honor_kong_double is false), the win as
/score pays it (per-payer 番, 包庄), the drawn game (no hand money, kong money stands), and the
special kongs 幺九杠, 旋风杠 and 喜杠 (special_kong_amount from each other player)."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.api.test_settle import draw, events, kong, post, refused, win

URL = "/v1/rulesets/changchun/settle"


def settled(client: FlaskClient, body: dict[str, Any]) -> dict[str, Any]:
    response = post(client, body, URL)
    assert response.status_code == 200, response.get_json()
    out: dict[str, Any] = response.get_json()
    assert sum(out["net"]) == 0 and len(out["net"]) == 4
    return out


def moves(out: dict[str, Any]) -> list[tuple[int, int, int, str]]:
    return [(t["from"], t["to"], t["amount"], t["reason"]) for t in out["transfers"]]


KONGS = (kong(2, "direct", "5m", discarder=0), kong(3, "concealed", "C"),
         kong(2, "added", "1p", fresh=True), kong(3, "concealed", "7s"))


def test_kong_money_each_other_player_pays_doubled_for_1p_1s_and_dragons(
        client: FlaskClient) -> None:
    out = settled(client, events(*KONGS))
    assert moves(out) == [
        (0, 2, 1, "direct_kong"), (1, 2, 1, "direct_kong"), (3, 2, 1, "direct_kong"),
        (0, 3, 4, "concealed_kong"), (1, 3, 4, "concealed_kong"), (2, 3, 4, "concealed_kong"),
        (0, 2, 2, "added_kong"), (1, 2, 2, "added_kong"), (3, 2, 2, "added_kong"),
        (0, 3, 2, "concealed_kong"), (1, 3, 2, "concealed_kong"), (2, 3, 2, "concealed_kong")]
    assert out["net"] == [-9, -9, 3, 15]
    assert out["finished"] is False


def test_honor_kong_double_false_pays_every_kong_alike(client: FlaskClient) -> None:
    out = settled(client, events(*KONGS, honor_kong_double=False))
    assert out["net"] == [-6, -6, 2, 10]


def test_base_multiplies_kong_money(client: FlaskClient) -> None:
    out = settled(client, events(*KONGS, base=5))
    assert out["net"] == [-45, -45, 15, 75]


def test_a_win_after_a_kong_pays_as_score_does(client: FlaskClient) -> None:
    # Worked example 1 (夹 off the dealer's discard) after seat 2's concealed kong of 中.
    out = settled(client, events(kong(2, "concealed", "C"),
                                 win(1, "[123m]999p789s22p46s5s", discarder=0)))
    assert out["net"] == [-12, 8, 10, -6]
    assert out["finished"] is True
    assert moves(out)[3:] == [(0, 1, 8, "win_discard"), (2, 1, 2, "win_discard"),
                              (3, 1, 2, "win_discard")]


def test_bao_zhuang_in_a_round(client: FlaskClient) -> None:
    # Worked example 3: seat 2 had not declared ready and pays for the whole table.
    out = settled(client, events(win(1, "11m99m22p55p33s77sCC", discarder=2),
                                 ready=[1, 1, 0, 1]))
    assert out["net"] == [0, 40, -40, 0]
    assert moves(out) == [(2, 1, 16, "win_discard"), (2, 1, 16, "win_discard"),
                          (2, 1, 8, "win_discard")]


def test_a_drawn_game_pays_no_hand_money_and_kong_money_stands(client: FlaskClient) -> None:
    out = settled(client, events(
        kong(2, "concealed", "C"),
        draw((0, "123m456m789m123p4p"), (1, "123s456s789s11p2p3p"),
             (2, "{CCCC}123m456p789s1s"), (3, "EEESSSWWWNNNF"))))
    assert out["net"] == [-4, -4, 12, -4]
    assert [t["reason"] for t in out["transfers"]] == ["concealed_kong"] * 3


# --- 幺九杠, 旋风杠, 喜杠 -------------------------------------------------------------------

def special(seat: int, tiles: str) -> dict[str, Any]:
    return {"type": "kong", "seat": seat, "kind": "special", "tiles": tiles}


def test_special_kongs_each_other_player_pays_the_amount(client: FlaskClient) -> None:
    # 幺九杠 (1m1p1s), 旋风杠 (ESW), 喜杠 (中发 with 1条 for 白): 1 each from every other
    # player; no 庄 +1, and no doubling for 1条 or the dragons.
    out = settled(client, events(special(1, "1m1p1s"), special(2, "ESW"), special(0, "CF1s")))
    assert [m[3] for m in moves(out)] == ["special_kong"] * 9
    assert out["net"] == [1, 1, 1, -3]
    out = settled(client, events(special(1, "9m9p9s"), special_kong_amount=8))
    assert out["net"] == [-8, 24, -8, -8]


@pytest.mark.parametrize("tiles", ["1m1p9s", "EEW", "CFE", "1s1s1s", "ESWN", "CF", "1m1p1s1s"])
def test_three_tiles_that_make_no_special_kong_are_refused(client: FlaskClient,
                                                           tiles: str) -> None:
    body = refused(client, events(special(1, tiles)), "illegal_meld", "/events/0/tiles", URL)
    assert "幺九杠" in body["errors"][0]["message"]


@pytest.mark.parametrize("body,code,pointer", [
    (events(special(1, "1m1p1x")), "invalid_notation", "/events/0/tiles"),
    (events(special(1, "1f1m1p")), "unknown_tile", "/events/0/tiles"),
    (events({"type": "kong", "seat": 1, "kind": "special", "tile": "1m"}), "invalid_request",
     "/events/0/tiles"),
    (events(special(4, "CFP")), "seat_out_of_range", "/events/0/seat"),
    (events(special(1, "CFP"), special_kong_amount=0), "invalid_option",
     "/options/special_kong_amount"),
    # The laid-out tiles count among the round's: with 1s1m1p and 9m9p1s laid out by seat 2,
    # seat 1 cannot also hold four 1条 (a pung of them and the 1s of a chow).
    (events(special(2, "1s1m1p"), special(2, "9m9p1s"),
            win(1, "[111s]123s999p22p46m5m", discarder=0)),
     "too_many_copies", "/events/2/hand"),
])
def test_special_kong_problems_point_into_the_event(client: FlaskClient, body: dict[str, Any],
                                                    code: str, pointer: str) -> None:
    refused(client, body, code, pointer, URL)


def test_special_kongs_are_only_for_rule_sets_that_define_them(client: FlaskClient) -> None:
    refused(client, events(special(1, "1m1p1s")), "invalid_field", "/events/0/kind",
            "/v1/rulesets/sichuan/settle")
    # changchun's kongs of four are unchanged: a concealed kong of 1s still doubles.
    out = settled(client, events(kong(1, "concealed", "1s")))
    assert out["net"] == [-4, 12, -4, -4]
