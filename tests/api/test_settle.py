"""POST /v1/rulesets/{ruleset}/settle: docs/api.md's example round, and every way a round can be
refused (each answered as a problem document naming the event)."""

from __future__ import annotations

import copy
import json
import re
from typing import Any

import pytest
from flask.testing import FlaskClient

from app.api.routes import RULESETS_KEY
from app.service.families import settles_rounds
from app.service.problems import ROUND_ERROR_CODES
from tests.api.helpers import REPO_ROOT, problem

URL = "/v1/rulesets/sichuan/settle"

# The sichuan rule's worked round (docs/api.md's example round, the same as
# tests/scoring/test_rounds.py and the `rule_page` example of openapi.yaml).
RULE_PAGE_REQUEST: dict[str, Any] = {
    "options": {"base": 1},
    "events": [
        {"type": "kong", "seat": 1, "kind": "concealed", "tile": "5m"},
        {"type": "win", "seat": 2, "hand": "222m333m777p888p44p",
         "context": {"win_type": "discard", "discarder": 3}},
        {"type": "win", "seat": 0, "hand": "123456789s23499s",
         "context": {"win_type": "self_draw"}},
        {"type": "draw", "hands": [
            {"seat": 1, "hand": "{5555m}111m234m67m99m"},
            {"seat": 3, "hand": "13579s2468p1357p", "passive_pig": False},
        ]},
    ],
}


def fan(fid: str, name: str, name_en: str, value: int = 1) -> dict[str, Any]:
    return {"id": fid, "name": name, "name_en": name_en, "value": value, "count": 1}


RULE_PAGE_RESPONSE: dict[str, Any] = {
    "ruleset": "sichuan",
    "finished": True,
    "net": [8, 9, 0, -17],
    "transfers": [
        {"from": 0, "to": 1, "amount": 2, "reason": "concealed_kong", "event": 0},
        {"from": 2, "to": 1, "amount": 2, "reason": "concealed_kong", "event": 0},
        {"from": 3, "to": 1, "amount": 2, "reason": "concealed_kong", "event": 0},
        {"from": 3, "to": 2, "amount": 2, "reason": "win_discard", "event": 1},
        {"from": 1, "to": 0, "amount": 5, "reason": "win_self_draw", "event": 2},
        {"from": 3, "to": 0, "amount": 5, "reason": "win_self_draw", "event": 2},
        {"from": 3, "to": 1, "amount": 8, "reason": "not_ready", "event": 3},
    ],
    "wins": [
        {"event": 1, "seat": 2, "fans": [fan("all_pungs", "大对子", "All Pungs")],
         "fan_total": 1, "value": 2, "multiplier": 2,
         "decomposition": {"shape": "regular",
                           "melds": ["222m", "333m", "44p", "777p", "888p"], "wilds": []}},
        {"event": 2, "seat": 0, "fans": [fan("full_flush", "清一色", "Full Flush", 2)],
         "fan_total": 2, "value": 4, "multiplier": 4,
         "decomposition": {"shape": "regular",
                           "melds": ["123s", "234s", "456s", "789s", "99s"], "wilds": []}},
    ],
    "draw": {"event": 3, "players": [
        {"seat": 1, "state": "ready",
         "best": {"tile": "8m", "fans": [fan("kong", "杠", "Kong"),
                                         fan("full_flush", "清一色", "Full Flush", 2)],
                  "fan_total": 3, "value": 8}},
        {"seat": 3, "state": "not_ready", "best": None},
    ]},
}


def post(client: FlaskClient, body: Any, url: str = URL) -> Any:
    return client.post(url, json=body)


def refused(client: FlaskClient, body: Any, code: str, pointer: str,
            url: str = URL) -> dict[str, Any]:
    """A 422 problem with this code whose (first) error points here; returns the body."""
    out = problem(post(client, body, url), 422, code)
    assert out["errors"][0]["pointer"] == pointer, out
    if code != "invalid_request" and pointer.startswith("/events/"):
        index = pointer.split("/")[2]
        assert out["detail"].startswith(f"events[{index}]"), out["detail"]
    return out


def kong(seat: int, kind: str, tile: str, **extra: Any) -> dict[str, Any]:
    return {"type": "kong", "seat": seat, "kind": kind, "tile": tile, **extra}


def win(seat: int, hand: Any, **context: Any) -> dict[str, Any]:
    if "discarder" in context:
        context = {"win_type": "discard", **context}
    return {"type": "win", "seat": seat, "hand": hand,
            "context": context or {"win_type": "self_draw"}}


def draw(*hands: tuple[int, str] | tuple[int, str, bool]) -> dict[str, Any]:
    return {"type": "draw", "hands": [
        {"seat": h[0], "hand": h[1], **({"passive_pig": h[2]} if len(h) == 3 else {})}
        for h in hands]}


def events(*items: dict[str, Any], **options: Any) -> dict[str, Any]:
    return {"options": options, "events": list(items)}


WIN_2 = win(2, "222m333m777p888p44p", discarder=3)
WIN_0 = win(0, "123456789p23499p")
WIN_1 = win(1, "111s222s333s444s5s5s")
# Four hands one tile short, none holding a tile of WIN_2 (so they fit any of these rounds).
DRAW_HANDS = [(0, "1112223334445s"), (1, "5556667778889s"), (2, "1112223334445p"),
              (3, "5556667778889p")]


# --- success -------------------------------------------------------------------------------

def test_the_rule_page_round(client: FlaskClient) -> None:
    response = post(client, RULE_PAGE_REQUEST)
    assert response.status_code == 200, response.get_json()
    assert response.mimetype == "application/json"
    assert response.get_json() == RULE_PAGE_RESPONSE


def test_the_documented_round_is_the_rule_page_round(client: FlaskClient) -> None:
    """The curl example of docs/api.md's settle section is this round and answers it."""
    text = (REPO_ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    section = text[text.index("## Settle"):]
    found = re.search(r"-d '(\{.*?\})' \\\n", section, re.DOTALL)
    assert found is not None
    shown = json.loads(section.split("```json\n", 1)[1].split("```", 1)[0])
    assert post(client, json.loads(found.group(1))).get_json() == shown == RULE_PAGE_RESPONSE


def test_the_settle_section_names_every_rule_set_that_settles(client: FlaskClient) -> None:
    """docs/api.md's sentence listing the rule sets that settle rounds names exactly those
    with a `settlement:` section, so a new one cannot be left out."""
    text = (REPO_ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    sentence = re.search(r"Only rule sets with a `settlement:` section settle rounds \(([^)]*)\)",
                         text)
    assert sentence is not None
    named = re.findall(r"`([a-z0-9-]+)`", sentence.group(1))
    settling = {rs.id for rs in client.application.extensions[RULESETS_KEY].values()
                if settles_rounds(rs)}
    assert len(named) == len(set(named)) and set(named) == settling


def test_chengdu_settles_with_its_options(client: FlaskClient) -> None:
    body = events(kong(2, "direct", "3p", discarder=0), kong(1, "added", "7s", fresh=False),
                  direct_kong_amount=1, base=5, added_kong_fresh_only=False)
    response = post(client, body, "/v1/rulesets/chengdu/settle")
    assert response.status_code == 200
    assert response.get_json()["net"] == [-10, 15, 0, -5]
    # By default an added kong of a tile held earlier earns nothing, as in sichuan.
    body = events(kong(2, "direct", "3p", discarder=0), kong(1, "added", "7s", fresh=False),
                  direct_kong_amount=1, base=5)
    assert post(client, body, "/v1/rulesets/chengdu/settle").get_json()["net"] == [-5, 0, 5, 0]


@pytest.mark.parametrize("ruleset", ["sichuan", "chengdu"])
def test_the_rule_set_document_offers_the_kong_money_of_gang_shang_pao(
        client: FlaskClient, ruleset: str) -> None:
    """杠上炮's kong money is a request option (chengdu inherits it), and the settlement says
    it reads it; its rounds are cases under tests/cases/<ruleset>/rounds/."""
    doc = client.get(f"/v1/rulesets/{ruleset}").get_json()
    option = next(o for o in doc["options"] if o["name"] == "gang_shang_pao_kong_money")
    assert {k: option[k] for k in ("type", "default", "choices")} == {
        "type": "enum", "default": "refund", "choices": ["refund", "transfer", "keep"]}
    assert "呼叫转移" in option["description"]
    assert doc["settlement"]["kong_discard_money"] == {"option": "gang_shang_pao_kong_money"}


def test_an_empty_round_and_null_options(client: FlaskClient) -> None:
    response = post(client, {"options": None, "events": []})
    assert response.get_json() == {"ruleset": "sichuan", "finished": False, "net": [0, 0, 0, 0],
                                   "transfers": [], "wins": [], "draw": None}


# --- request-level problems ----------------------------------------------------------------

def test_a_rule_set_without_settlement(client: FlaskClient) -> None:
    body = problem(post(client, RULE_PAGE_REQUEST, "/v1/rulesets/mcr/settle"), 422,
                   "settle_not_supported")
    assert body["title"] == "Round settlement not supported"
    # The detail lists the rule sets that do settle rounds, whichever are loaded.
    settling = sorted(rs.id for rs in client.application.extensions[RULESETS_KEY].values()
                      if settles_rounds(rs))
    assert {"chengdu", "sichuan", "tianjin"} <= set(settling)
    assert f"rule sets that settle rounds: {', '.join(settling)}." in body["detail"]


def test_unknown_ruleset(client: FlaskClient) -> None:
    problem(post(client, RULE_PAGE_REQUEST, "/v1/rulesets/riichi/settle"), 404,
            "unknown_ruleset")


def test_malformed_and_wrong_media(client: FlaskClient) -> None:
    problem(client.post(URL, data=b"{", content_type="application/json"), 400,
            "malformed_json")
    problem(client.post(URL, data=json.dumps(RULE_PAGE_REQUEST), content_type="text/plain"),
            415, "unsupported_media_type")
    problem(client.get(URL), 405, "method_not_allowed")


# Bodies the schema refuses (openapi.yaml refuses them too: tests/api/test_contract.py).
SCHEMA_VIOLATIONS: list[tuple[Any, str, str]] = [
    ({}, "/events", "required"),
    ({"events": [], "extra": 1}, "/extra", "unknown_field"),
    ({"events": {}}, "/events", "invalid_type"),
    ({"events": [{"type": "draw", "hands": []}] * 33}, "/events", "invalid_value"),
    ({"events": [3]}, "/events/0", "invalid_type"),
    ({"events": [{"seat": 1}]}, "/events/0/type", "required"),
    ({"events": [{"type": "pung"}]}, "/events/0/type", "invalid_value"),
    ({"events": [kong(1, "direct", "5m")]}, "/events/0/discarder", "required"),
    ({"events": [kong(1, "added", "5m")]}, "/events/0/fresh", "required"),
    ({"events": [kong(1, "concealed", "5m", fresh=True)]}, "/events/0/fresh", "unknown_field"),
    ({"events": [kong(1, "added", "5m", fresh=True, discarder=0)]}, "/events/0/discarder",
     "unknown_field"),
    ({"events": [kong(1, "melded", "5m")]}, "/events/0/kind", "invalid_value"),
    ({"events": [kong(True, "concealed", "5m")]}, "/events/0/seat", "invalid_type"),
    ({"events": [kong(1, "concealed", "5m", extra=1)]}, "/events/0/extra", "unknown_field"),
    ({"events": [win(1, "x", winner=1, win_type="self_draw")]}, "/events/0/context/winner",
     "unknown_field"),
    ({"events": [win(1, "x", options={}, win_type="self_draw")]},
     "/events/0/context/options", "unknown_field"),
    ({"events": [{"type": "win", "seat": 1, "hand": "x"}]}, "/events/0/context", "required"),
    ({"events": [{"type": "draw", "hands": [{"seat": 1, "hand": {"concealed": "1m",
                                                                  "win_tile": "1m"}}]}]},
     "/events/0/hands/0/hand/win_tile", "unknown_field"),
    ({"events": [{"type": "draw", "hands": [{"seat": 1, "hand": "1m"}] * 5}]},
     "/events/0/hands", "invalid_value"),
    ({"events": [{"type": "draw", "hands": [{"seat": 1, "hand": "1m", "passive_pig": 1}]}]},
     "/events/0/hands/0/passive_pig", "invalid_type"),
    ({"events": [], "options": []}, "/options", "invalid_type"),
]


@pytest.mark.parametrize("body,pointer,field_code", SCHEMA_VIOLATIONS)
def test_schema_violations(client: FlaskClient, body: dict[str, Any], pointer: str,
                           field_code: str) -> None:
    out = refused(client, body, "invalid_request", pointer)
    assert out["errors"][0]["code"] == field_code


# --- the round's own codes -----------------------------------------------------------------

@pytest.mark.parametrize("body,pointer", [
    (events(WIN_2, kong(2, "concealed", "9s")), "/events/1/seat"),
    (events(WIN_2, win(2, "111s222s333s444s5s5s")), "/events/1/seat"),
    (events(WIN_2, kong(1, "direct", "9s", discarder=2)), "/events/1/discarder"),
    (events(WIN_2, win(1, "111s222s333s444s5s5s", discarder=2)),
     "/events/1/context/discarder"),
    (events(WIN_2, draw(*DRAW_HANDS)), "/events/1/hands/2/seat"),
])
def test_a_seat_that_has_won_cannot_act(client: FlaskClient, body: dict[str, Any],
                                        pointer: str) -> None:
    out = refused(client, body, "seat_already_won", pointer)
    assert "won in events[0]" in out["detail"]
    assert out["title"] == "Not a valid round"


@pytest.mark.parametrize("body,pointer", [
    (events(draw(*DRAW_HANDS), kong(1, "concealed", "9m")), "/events/1"),
    (events(WIN_2, WIN_0, WIN_1, kong(3, "concealed", "9m")), "/events/3"),
    (events(WIN_2, WIN_0, WIN_1, draw((3, "1112223334445m"))), "/events/3"),
])
def test_nothing_follows_the_end_of_the_round(client: FlaskClient, body: dict[str, Any],
                                              pointer: str) -> None:
    refused(client, body, "round_over", pointer)


@pytest.mark.parametrize("body,pointer", [
    (events(WIN_2, draw(*DRAW_HANDS[:2])), "/events/1/hands"),
    (events(draw(DRAW_HANDS[0], (0, DRAW_HANDS[1][1]))), "/events/0/hands/1/seat"),
    (events(draw()), "/events/0/hands"),
])
def test_a_draw_shows_every_seat_not_yet_won(client: FlaskClient, body: dict[str, Any],
                                             pointer: str) -> None:
    refused(client, body, "wrong_draw_players", pointer)


@pytest.mark.parametrize("body,pointer,words", [
    (events(kong(1, "direct", "5m", discarder=1)), "/events/0/discarder", "own seat"),
    (events(win(0, "{5555m}111p222p333p4p4p", kong="replacement", win_type="self_draw")),
     "/events/0/context/kong", "杠上开花"),
    (events(kong(0, "concealed", "5m"), win(1, "{5555p}111s222s333s4s4s", kong="replacement",
                                            win_type="self_draw")),
     "/events/1/context/kong", "杠上开花"),
    (events(kong(1, "concealed", "5m"), win(0, "111p222p333p444p5p5p", discarder=2,
                                            kong="after_kong_discard")),
     "/events/1/context/kong", "杠上炮"),
    (events(kong(1, "concealed", "5m"), win(0, "111p222p333p99s46s5s", discarder=1,
                                            kong="robbed")),
     "/events/1/context/kong", "抢杠"),
    (events(kong(1, "added", "5s", fresh=True), win(0, "111p222p333p99s24s3s", discarder=1,
                                                    kong="robbed")),
     "/events/1/context/kong", "added kong of 3s"),
    (events(kong(0, "concealed", "5m"), win(0, "{5555m}111p222p333p4p4p")),
     "/events/1/context/kong", "give kong: replacement"),
    (events(kong(1, "concealed", "5m"), win(0, "111p222p333p444p5p5p", discarder=1)),
     "/events/1/context/kong", "give kong: after_kong_discard"),
    (events(draw((*DRAW_HANDS[0], True), *DRAW_HANDS[1:])), "/events/0/hands/0/passive_pig",
     "not a pig"),
    (events(*(kong(1, "concealed", t) for t in ("1m", "2m", "3m", "4m", "5m"))),
     "/events/4/tile", "at most 4 melds"),
])
def test_events_that_cannot_follow_each_other(client: FlaskClient, body: dict[str, Any],
                                              pointer: str, words: str) -> None:
    out = refused(client, body, "inconsistent_event", pointer)
    assert words in out["detail"]


@pytest.mark.parametrize("body,pointer", [
    # The kong is not declared in the winner's hand, or declared but never made.
    (events(kong(0, "concealed", "5m"), win(2, "222m333m777p888p44p", discarder=3),
            win(0, "111p222p333p444p5p5p")), "/events/2/hand"),
    (events(win(0, "{5555m}111p222p333p4p4p")), "/events/0/hand"),
    # Concealed in the events, exposed in the hand.
    (events(kong(0, "concealed", "5m"), win(2, "222m333m777p888p44p", discarder=3),
            win(0, "[5555m]111p222p333p4p4p")), "/events/2/hand"),
    # A robbed kong is void: its maker shows a pung, not a kong.
    (events(kong(1, "added", "3p", fresh=True),
            win(0, "123s456s789s11s24p3p", discarder=1, kong="robbed"),
            draw((1, "[3333p]2244558899s"), (2, "11223344556m77p"), (3, "7899m45678p1256p"))),
     "/events/2/hands/0/hand"),
])
def test_hands_declare_exactly_their_seats_kongs(client: FlaskClient, body: dict[str, Any],
                                                 pointer: str) -> None:
    refused(client, body, "kong_mismatch", pointer)


@pytest.mark.parametrize("body,pointer", [
    (events(kong(0, "concealed", "5m"), kong(1, "direct", "5m", discarder=2)),
     "/events/1/tile"),
    (events(WIN_2, kong(1, "concealed", "2m")), "/events/1/tile"),
    (events(kong(1, "concealed", "2m"), WIN_2), "/events/1/hand"),
    (events(win(0, "111m222m333m444m5m5m"), win(1, "111m222m333m444m5m5m")),
     "/events/1/hand"),
])
def test_no_fifth_copy(client: FlaskClient, body: dict[str, Any], pointer: str) -> None:
    refused(client, body, "too_many_copies", pointer)


@pytest.mark.parametrize("hand,reason", [
    ("111p222p333p444p5p7p", "no_winning_shape"),
    ("123m456p789s11m222p", "three_suits"),
])
def test_a_win_that_is_not_a_win(client: FlaskClient, hand: str, reason: str) -> None:
    out = refused(client, events(kong(3, "concealed", "9m"), win(0, hand, discarder=1)),
                  "not_a_win", "/events/1/hand")
    assert reason in out["detail"]


# --- the hand's codes, moved into the event ------------------------------------------------

@pytest.mark.parametrize("body,code,pointer", [
    (events(kong(4, "concealed", "5m")), "seat_out_of_range", "/events/0/seat"),
    (events(kong(1, "direct", "5m", discarder=7)), "seat_out_of_range", "/events/0/discarder"),
    (events(win(4, "111p222p333p444p5p5p")), "seat_out_of_range", "/events/0/seat"),
    (events(win(0, "111p222p333p444p5p5p", discarder=5)), "seat_out_of_range",
     "/events/0/context/discarder"),
    (events(draw((9, "1112223334445s"))), "seat_out_of_range", "/events/0/hands/0/seat"),
    (events(kong(1, "concealed", "0m")), "unknown_tile", "/events/0/tile"),
    (events(kong(1, "concealed", "E")), "unknown_tile", "/events/0/tile"),
    (events(kong(1, "concealed", "55m")), "invalid_notation", "/events/0/tile"),
    (events(win(0, "111p222p333p444p5p")), "wrong_tile_count", "/events/0/hand"),
    (events(win(0, {"concealed": "222p333p444p5p5p", "melds": [{"kind": "chow",
                                                               "tiles": "123p"}]})),
     "illegal_meld", "/events/0/hand/melds/0"),
    (events(win(0, "111p222p333p444p5p5p", discarder=0)), "inconsistent_context",
     "/events/0/context/discarder"),
    (events(win(0, "111p222p333p444p5p5p", win_type="self_draw", wilds="5p")),
     "wilds_not_supported", "/events/0/context/wilds"),
    (events(draw((0, "1112223334445s5s"))), "wrong_tile_count", "/events/0/hands/0/hand"),
    (events(base=0), "invalid_option", "/options/base"),
    (events(bonus=True), "unknown_option", "/options/bonus"),
])
def test_hand_and_option_problems_point_into_the_event(client: FlaskClient,
                                                       body: dict[str, Any], code: str,
                                                       pointer: str) -> None:
    refused(client, body, code, pointer)


def test_a_problem_names_its_event(client: FlaskClient) -> None:
    body = copy.deepcopy(RULE_PAGE_REQUEST)
    body["events"][2]["hand"] = "123456789s23499x"
    out = refused(client, body, "invalid_notation", "/events/2/hand")
    assert out["detail"].startswith("events[2] (win by seat 0): ")
    assert out["errors"][0]["position"] == 10


def test_an_event_the_rules_forbid(client: FlaskClient) -> None:
    # kawuxing: a tile held earlier can no longer be added to a pung ("否则，不能再杠").
    refused(client, events(kong(1, "added", "5s", fresh=False)), "forbidden_event",
            "/events/0/fresh", "/v1/rulesets/kawuxing/settle")


def test_every_round_error_code_is_covered() -> None:
    """Each code of the round has its test above, from a real request."""
    covered = {"seat_already_won", "round_over", "wrong_draw_players", "inconsistent_event",
               "kong_mismatch", "not_a_win", "forbidden_event"}
    assert covered == set(ROUND_ERROR_CODES)
