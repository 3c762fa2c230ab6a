"""POST /v1/rulesets/kawuxing/settle: a 卡五星 hand as events. The rules' worked examples of kong
money (杠上杠) and of the drawn game with 亮倒, 包胡 and 一炮双响 in a round, and every way the
new events can be wrong."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.api.helpers import problem
from tests.api.test_settle import draw, events, kong, post, refused, win

URL = "/v1/rulesets/kawuxing/settle"


def reveal(seat: int) -> dict[str, Any]:
    return {"type": "reveal", "seat": seat}


def settled(client: FlaskClient, body: dict[str, Any]) -> dict[str, Any]:
    response = post(client, body, URL)
    assert response.status_code == 200, response.get_json()
    out: dict[str, Any] = response.get_json()
    assert sum(out["net"]) == 0 and len(out["net"]) == 3
    assert all(0 <= t[k] <= 2 for t in out["transfers"] for k in ("from", "to"))
    return out


def moves(out: dict[str, Any]) -> list[tuple[int, int, int, str, int]]:
    return [(t["from"], t["to"], t["amount"], t["reason"], t["event"]) for t in out["transfers"]]


# Three hands one tile short that fit any round below (no tile of them in its kongs).
SEAT_0 = "123p456p789p11s23s"
SEAT_1 = "123s456s789s55p67p"
SEAT_2 = "CCCFFFPP246p8s9s"  # not ready
READY_2 = "CCCFFFPP24p789s"  # ready: waits on 3p


def test_kong_chain(client: FlaskClient) -> None:
    """The rules' example: 直杠 by seat 1 on seat 0's 7p (seat 0 pays 2); seat 2 kongs seat 1's
    discard after that kong (杠上杠, the chain's 2nd: seat 1 pays 2 × 2); seat 2 then adds to
    its 碰 of C with the tile just drawn (the 3rd: 明杠 1 × 4 from each other)."""
    out = settled(client, events(
        kong(1, "direct", "7p", discarder=0),
        kong(2, "direct", "4s", discarder=1, follows="kong_discard"),
        kong(2, "added", "C", fresh=True, follows="kong_replacement"),
    ))
    assert moves(out) == [(0, 1, 2, "direct_kong", 0), (1, 2, 4, "direct_kong", 1),
                          (0, 2, 4, "added_kong", 2), (1, 2, 4, "added_kong", 2)]
    assert out["net"] == [-6, -6, 12]
    assert out["finished"] is False


def test_kong_money_never_doubles_for_revealing(client: FlaskClient) -> None:
    # 喜钱不翻番: a revealed player's concealed kong earns 2 from each other, as anyone's.
    out = settled(client, events(reveal(1), kong(1, "concealed", "5s")))
    assert moves(out) == [(0, 1, 2, "concealed_kong", 1), (2, 1, 2, "concealed_kong", 1)]


def test_an_added_kong_of_a_tile_held_earlier_cannot_be_made(client: FlaskClient) -> None:
    # 明杠 must be made at once, with the tile just drawn ("必须当时就杠，否则，不能再杠"): one of
    # a tile held earlier is no kong, so it neither earns 0 nor starts a 杠上杠 chain.
    body = refused(client, events(kong(1, "added", "5s", fresh=False)), "forbidden_event",
                   "/events/0/fresh", URL)
    assert body["errors"][0]["message"].startswith("events[0] (added kong by seat 1)")
    refused(client, events(kong(1, "added", "5s", fresh=False),
                           kong(2, "direct", "4s", discarder=1, follows="kong_discard")),
            "forbidden_event", "/events/0/fresh", URL)
    # The same 直杠 without that first event is the first of its chain: 2 from the discarder.
    out = settled(client, events(kong(2, "direct", "4s", discarder=1)))
    assert out["net"] == [0, -2, 2]


def test_a_stale_added_kong_is_legal_where_it_only_earns_nothing(client: FlaskClient) -> None:
    # sichuan: adding a tile held earlier is a kong that earns nothing (及时雨 pays fresh only).
    out = post(client, events(kong(1, "added", "5m", fresh=False)),
               "/v1/rulesets/sichuan/settle").get_json()
    assert out["transfers"] == []


@pytest.mark.parametrize("first,payers,net", [
    (0, "all_revealed", [-1, -1, 2]),
    (1, "first_revealed", [0, -1, 1]),
    (0, "first_revealed", [-1, 0, 1]),
])
def test_the_drawn_game_with_revealed_players(client: FlaskClient, first: int, payers: str,
                                              net: list[int]) -> None:
    """荒庄: seats 0 and 1 have revealed, seat 2 has not; each revealed player pays seat 2 one
    base, or only the first to reveal does (drawn_payers first_revealed)."""
    out = settled(client, events(
        reveal(first), reveal(1 - first), kong(2, "concealed", "P"),
        draw((0, SEAT_0), (1, SEAT_1), (2, "{PPPP}CCCFF2468p9s")),
        drawn_payers=payers))
    assert out["net"][:2] == [n - 2 for n in net[:2]] and out["net"][2] == net[2] + 4
    revealed = [m for m in moves(out) if m[3] == "revealed_draw"]
    assert sum(m[2] for m in revealed) == net[2]
    assert out["finished"] is True
    # Kong money stands on a drawn game (荒庄不荒杠).
    assert [m[3] for m in moves(out)][:2] == ["concealed_kong", "concealed_kong"]


def test_nobody_pays_at_the_draw_when_nobody_or_everybody_revealed(client: FlaskClient) -> None:
    none = settled(client, events(draw((0, SEAT_0), (1, SEAT_1), (2, SEAT_2))))
    assert none["transfers"] == []
    everyone = settled(client, events(reveal(0), reveal(1), reveal(2),
                                      draw((0, SEAT_0), (1, SEAT_1), (2, READY_2))))
    assert everyone["transfers"] == []


def test_a_revealed_hand_that_is_not_ready_is_refused_at_the_draw(client: FlaskClient) -> None:
    """A revealed (亮倒) hand is ready by definition: seat 2 revealed, but shows a hand that
    completes with no tile. Refused, never marked not ready and paid as revealed."""
    body = refused(client, events(reveal(2), draw((2, SEAT_2), (0, SEAT_0), (1, SEAT_1))),
                   "forbidden_event", "/events/1/hands/0/hand", URL)
    assert "seat 2" in body["errors"][0]["message"]
    # Not revealed, the same hand is simply not ready (kawuxing has no 查大叫: nobody pays).
    out = settled(client, events(reveal(0), draw((2, SEAT_2), (0, SEAT_0), (1, SEAT_1))))
    assert [p["state"] for p in out["draw"]["players"]] == ["ready", "ready", "not_ready"]
    assert out["net"] == [-2, 1, 1]


def test_a_revealed_hand_is_judged_ready_as_revealed(client: FlaskClient) -> None:
    # With min_hand discard_needs_2 a 屁胡 cannot win on a discard, but a revealed hand always
    # has 亮倒 (×2): seat 0's 屁胡 wait is ready once revealed.
    out = settled(client, events(reveal(0), draw((0, SEAT_0), (1, SEAT_1), (2, SEAT_2)),
                                 min_hand="discard_needs_2"))
    assert out["draw"]["players"][0]["state"] == "ready"
    assert out["net"] == [-2, 1, 1]
    # Not revealed, the same 屁胡 wait is not ready under that option.
    out = settled(client, events(draw((0, SEAT_0), (1, SEAT_1), (2, SEAT_2)),
                                 min_hand="discard_needs_2"))
    assert out["draw"]["players"][0]["state"] == "not_ready"


def test_baohu_in_a_round(client: FlaskClient) -> None:
    """The rules' 包胡 example in a round: seat 0 reveals, seat 2 discards C: 碰碰胡 + 亮倒 = ×4,
    and seat 2 pays two shares, seat 1 nothing."""
    out = settled(client, events(reveal(0), win(0, "[999p]222s777p33pCCC", discarder=2)))
    assert out["net"] == [8, 0, -8]
    assert {f["id"] for f in out["wins"][0]["fans"]} == {"peng_peng_hu", "liang_dao"}
    # The same win without the reveal: one share of ×2.
    out = settled(client, events(win(0, "[999p]222s777p33pCCC", discarder=2)))
    assert out["net"] == [2, 0, -2]


def test_two_winners_on_one_discard(client: FlaskClient) -> None:
    """一炮双响: seats 0 and 2 both win seat 1's 5s; each is paid separately by the
    discarder, and the round is over."""
    first = win(0, "123p789p234p46s99s5s", discarder=1)  # 卡五星, ×2
    second = win(2, "[CCC][FFF]123p88p67s5s", discarder=1)  # 屁胡, ×1
    out = settled(client, events(first, second))
    assert moves(out) == [(1, 0, 2, "win_discard", 0), (1, 2, 1, "win_discard", 1)]
    assert out["finished"] is True
    refused(client, events(first, second, kong(1, "concealed", "3s")), "round_over",
            "/events/2", URL)


def test_a_win_ends_the_round_but_for_the_same_discard(client: FlaskClient) -> None:
    first = win(0, "123p789p234p46s99s5s", discarder=1)
    # A self-draw, or a win on another discard, cannot follow the first win.
    refused(client, events(first, win(2, "[CCC][FFF]123p88p67s5s")), "round_over",
            "/events/1", URL)
    refused(client, events(first, win(2, "[CCC][FFF]123p88p567s", discarder=1)),
            "round_over", "/events/1", URL)
    refused(client, events(first, reveal(2)), "round_over", "/events/1", URL)


def test_a_reveal_separates_no_kong_from_its_win(client: FlaskClient) -> None:
    # Seat 1 kongs 7p from seat 0, reveals as it discards, and seat 2 wins that discard:
    # 杠上炮 still follows the kong.
    out = settled(client, events(
        kong(1, "direct", "7p", discarder=0), reveal(1),
        win(2, "[CCC][FFF]123p88p67s5s", discarder=1, kong="after_kong_discard")))
    assert {f["id"] for f in out["wins"][0]["fans"]} == {"gang_shang_pao"}
    # Without the flag it is refused, as a discard win right after the discarder's kong.
    refused(client, events(kong(1, "direct", "7p", discarder=0), reveal(1),
                           win(2, "[CCC][FFF]123p88p67s5s", discarder=1)),
            "inconsistent_event", "/events/2/context/kong", URL)


# --- what cannot happen ----------------------------------------------------------------------

@pytest.mark.parametrize("body,code,pointer", [
    # 亮倒 is said by events in a round, not by the option.
    ({"options": {"revealed": [1, 0, 0]}, "events": []}, "invalid_option", "/options/revealed"),
    (events(reveal(0), reveal(0)), "inconsistent_event", "/events/1/seat"),
    (events(reveal(3)), "seat_out_of_range", "/events/0/seat"),
    (events(kong(3, "concealed", "5s")), "seat_out_of_range", "/events/0/seat"),
    (events(kong(1, "direct", "5s", discarder=3)), "seat_out_of_range", "/events/0/discarder"),
    # A follows needs the kong it follows right before it.
    (events(kong(1, "concealed", "5s", follows="kong_replacement")), "inconsistent_event",
     "/events/0/follows"),
    (events(kong(1, "concealed", "5s"), reveal(0), kong(2, "concealed", "6s",
                                                       follows="kong_replacement")),
     "inconsistent_event", "/events/2/follows"),
    (events(kong(1, "concealed", "5s"), kong(2, "direct", "6s", discarder=0,
                                             follows="kong_discard")),
     "inconsistent_event", "/events/1/follows"),
    (events(kong(1, "concealed", "5s"), kong(1, "direct", "6s", discarder=0,
                                             follows="kong_replacement")),
     "inconsistent_event", "/events/1/follows"),
    # A kong of a chain cannot be robbed.
    (events(kong(1, "concealed", "5s"), kong(1, "added", "4s", fresh=True,
                                             follows="kong_replacement"),
            win(0, "123p456p789p11s35s4s", discarder=1, kong="robbed")),
     "inconsistent_event", "/events/2/context/kong"),
    (events(kong(0, "concealed", "1m")), "unknown_tile", "/events/0/tile"),
    (events({"type": "reveal"}), "invalid_request", "/events/0/seat"),
    (events(kong(1, "concealed", "5s", follows="after")), "invalid_request",
     "/events/0/follows"),
])
def test_impossible_rounds_are_refused(client: FlaskClient, body: dict[str, Any], code: str,
                                       pointer: str) -> None:
    refused(client, body, code, pointer, URL)


def test_reveal_is_only_for_rule_sets_that_read_it(client: FlaskClient) -> None:
    refused(client, events(reveal(0)), "invalid_field", "/events/0/type",
            "/v1/rulesets/sichuan/settle")


def test_follows_is_a_fact_elsewhere_and_pays_nothing_more(client: FlaskClient) -> None:
    # sichuan accepts how a kong follows another, checks it, and pays a chain as usual.
    body = events(kong(1, "concealed", "5m"), kong(1, "concealed", "6m",
                                                   follows="kong_replacement"))
    out = post(client, body, "/v1/rulesets/sichuan/settle").get_json()
    assert [t["amount"] for t in out["transfers"]] == [2] * 6
    problem(post(client, events(kong(1, "concealed", "5m", follows="kong_discard")),
                 "/v1/rulesets/sichuan/settle"), 422, "inconsistent_event")
