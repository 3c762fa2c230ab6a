"""hengyang (衡阳六胡抢, word cards) through the HTTP API: worked examples E1 and E5 as whole
answers, batches answering what the single calls answer, explanations (`?explain=true`: the
arrangements compared, the 名堂 an option leaves out; without it the answer unchanged), and
the operation a card rule set does not serve (settle)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.api.helpers import problem, validate_live
from tests.scoring.hengyang_oracle import WIN_TYPES, random_request

BASE = "/v1/rulesets/hengyang"

E1_REQUEST = {"hand": {"cards": "123d 2710x 45x 888x 99x 9d 6x", "groups": [], "win_card": "6x"},
              "context": {"win_type": "discard", "winner": 1, "dealer": 0, "discarder": 2,
                          "flipper": None, "first_turn": False, "last_card": False,
                          "xing_card": None, "options": {}}}
# 坎 八 3 + 壹贰叁 6 + 二七十 3 + 四五六 0 + 绞 九九玖 0 = 12 息; 囤 1 + (12 − 6) / 3 = 3; red
# 贰 二 七 十 = 4 (no 名堂): score 3, the discarder pays 3 × 3.
E1_RESPONSE = {
    "ruleset": "hengyang", "winning": True, "reason": None,
    "huxi": 12, "tun": 3, "tun_parts": {"di_fen": 1, "from_huxi": 2, "xing": 0}, "red_cards": 4,
    "fans": [], "fan_total": 1, "multiplier": 1, "value": 3, "score": 3,
    "decomposition": {"groups": [
        {"kind": "shun", "cards": "2710x", "huxi": 3, "on_table": False, "has_win_card": False},
        {"kind": "shun", "cards": "456x", "huxi": 0, "on_table": False, "has_win_card": True},
        {"kind": "kan", "cards": "888x", "huxi": 3, "on_table": False, "has_win_card": False},
        {"kind": "jiao", "cards": "9x9x9d", "huxi": 0, "on_table": False,
         "has_win_card": False},
        {"kind": "shun", "cards": "123d", "huxi": 6, "on_table": False, "has_win_card": False},
    ]},
    "payments": {"net": [0, 9, -9, 0],
                 "transfers": [{"from": 2, "to": 1, "amount": 9, "reason": "discarder"}]},
}
E5_REQUEST = {"hand": "{10101010d}[2710x]78x123d55x9x",
              "context": {"win_type": "self_draw", "winner": 0, "dealer": 0}}
# 提 拾 12 + 吃 二七十 3 + 壹贰叁 6 + 七八九 0 + pair 五五 = 21 息; 囤 1 + 15 / 3 = 6; red
# 拾×4 + 二七十 + 七 + 贰 = 9: 小红 ×2, 自摸 ×2, 番 4, 24 from each other seat.
E5_RESPONSE = {
    "ruleset": "hengyang", "winning": True, "reason": None,
    "huxi": 21, "tun": 6, "tun_parts": {"di_fen": 1, "from_huxi": 5, "xing": 0}, "red_cards": 9,
    "fans": [{"id": "xiao_hong", "name": "小红", "name_en": "8 or 9 red cards", "value": 2,
              "count": 1},
             {"id": "zi_mo", "name": "自摸", "name_en": "self-draw", "value": 2, "count": 1}],
    "fan_total": 4, "multiplier": 4, "value": 24, "score": 24,
    "decomposition": {"groups": [
        {"kind": "ti", "cards": "10101010d", "huxi": 12, "on_table": True,
         "has_win_card": False},
        {"kind": "chi", "cards": "2710x", "huxi": 3, "on_table": True, "has_win_card": False},
        {"kind": "pair", "cards": "55x", "huxi": 0, "on_table": False, "has_win_card": False},
        {"kind": "shun", "cards": "789x", "huxi": 0, "on_table": False, "has_win_card": True},
        {"kind": "shun", "cards": "123d", "huxi": 6, "on_table": False, "has_win_card": False},
    ]},
    "payments": {"net": [72, -24, -24, -24],
                 "transfers": [{"from": s, "to": 0, "amount": 24, "reason": "self_draw"}
                               for s in (1, 2, 3)]},
}
# hengyang is a game of word cards: its operations are paths of its own in the contract.
SCORE = (f"{BASE}/score", "post")


@pytest.mark.parametrize("request_body,expected", [(E1_REQUEST, E1_RESPONSE),
                                                   (E5_REQUEST, E5_RESPONSE)])
def test_worked_examples_answer_in_full(client: FlaskClient, spec: dict[str, Any],
                                        request_body: dict[str, Any],
                                        expected: dict[str, Any]) -> None:
    response = client.post(f"{BASE}/score", json=request_body)
    validate_live(spec, *SCORE, response)
    assert response.status_code == 200
    body = response.get_json()
    assert body == expected
    assert list(body) == list(expected)  # the documented key order


def test_below_the_minimum_is_no_win(client: FlaskClient, spec: dict[str, Any]) -> None:
    """E9: 碰 五 1 + 二七十 3 + 0 + 0 + 0 = 4 息, under 起胡 6."""
    response = client.post(f"{BASE}/score", json={
        "hand": "[555x]2710x345d678d89x10x",
        "context": {"win_type": "discard", "winner": 0, "discarder": 1}})
    validate_live(spec, *SCORE, response)
    body = response.get_json()
    assert (body["winning"], body["reason"]["code"], body["huxi"]) == (
        False, "below_min_huxi", 4)
    assert body["payments"] is None and body["score"] is None


def _single(client: FlaskClient, endpoint: str, item: Any, query: str = "") -> dict[str, Any]:
    response = client.post(f"{BASE}/{endpoint}{query}", data=json.dumps(item),
                           content_type="application/json")
    body = response.get_json()
    if response.status_code == 200:
        return {"result": body}
    body.pop("request_id")
    return {"error": body}


def _items(n: int, seed: int, waits: bool) -> list[Any]:
    rng = random.Random(seed)
    items: list[Any] = []
    for i in range(n):
        req = random_request(rng, WIN_TYPES[i % 3])
        if waits:
            hand = req["hand"]
            assert isinstance(hand, dict)
            del hand["win_card"]
            hand["cards"] = hand["cards"][:-1]
        items.append(req)
    # Malformed items: not an object, a schema violation, a domain error.
    items += [[1, 2], {"hand": 5, "context": {}},
              {"hand": "123x", "context": {"win_type": "self_draw"}}]
    return items


@pytest.mark.parametrize("endpoint,n", [("score", 150), ("waits", 20)])
def test_batch_items_are_the_single_calls_answers(client: FlaskClient, spec: dict[str, Any],
                                                  endpoint: str, n: int) -> None:
    items = _items(n, seed=14, waits=endpoint == "waits")
    response = client.post(f"{BASE}/{endpoint}/batch", json={"requests": items})
    validate_live(spec, f"{BASE}/{endpoint}/batch", "post", response)
    assert response.status_code == 200
    results = response.get_json()["results"]
    assert len(results) == len(items)
    for item, got in zip(items, results, strict=True):
        assert got == _single(client, endpoint, item), item
    errors = sum("error" in r for r in results)
    assert errors == 3
    if endpoint == "score":
        assert 0 < sum(r["result"]["winning"] for r in results if "result" in r) < n


def test_settle_is_refused(client: FlaskClient, spec: dict[str, Any]) -> None:
    response = client.post(f"{BASE}/settle", json={"events": []})
    validate_live(spec, "/v1/rulesets/{ruleset}/settle", "post", response)
    assert "hengyang" in problem(response, 422, "settle_not_supported")["detail"]


# E10: seat 3 wins on seat 1's discarded 二; 一二三 + 壹贰叁 ×2 + 五六七 + 陆柒捌 = 15 息, or the
# three 绞 一壹壹 二贰贰 三叁叁 + 五六七 + 陆柒捌 = 0 息 (under 起胡).
E10_REQUEST = {"hand": {"cards": "13567x 112233678d 2x", "groups": [], "win_card": "2x"},
               "context": {"win_type": "discard", "winner": 3, "dealer": 0, "discarder": 1}}
# E8: seat 1 self-draws 八 onto 八八 (偎): no red card, 全黑 ×5 and 自摸 ×2.
E8_REQUEST = {"hand": "111d345d456x88x99x9d8x",
              "context": {"win_type": "self_draw", "winner": 1, "dealer": 0}}


def _post(client: FlaskClient, spec: dict[str, Any], endpoint: str, body: Any,
          query: str = "") -> dict[str, Any]:
    response = client.post(f"{BASE}/{endpoint}{query}", json=body)
    validate_live(spec, f"{BASE}/{endpoint}", "post", response)
    assert response.status_code == 200, response.get_json()
    answer: dict[str, Any] = response.get_json()
    return answer


def _cards(groups: list[dict[str, Any]]) -> list[tuple[str, str]]:
    return [(g["kind"], g["cards"]) for g in groups]


def test_explained_score_compares_the_arrangements(client: FlaskClient,
                                                   spec: dict[str, Any]) -> None:
    plain = _post(client, spec, "score", E10_REQUEST)
    explained = _post(client, spec, "score", E10_REQUEST, "?explain=true")
    why = explained.pop("explanation")
    assert explained == plain
    assert why["readings_compared"] == 2 and why["not_counted"] == []
    chosen, other = why["readings"]
    assert (chosen["chosen"], chosen["huxi"], chosen["score"], chosen["reason"]) == (
        True, 15, 4, None)
    assert chosen["groups"] == plain["decomposition"]["groups"]
    assert (other["chosen"], other["huxi"], other["score"], other["reason"]) == (
        False, 0, None, "below_min_huxi")
    # The other reading's groups, in the documented order (by their cards).
    assert _cards(other["groups"]) == [("jiao", "1x1d1d"), ("jiao", "2x2d2d"),
                                       ("jiao", "3x3d3d"), ("shun", "567x"), ("shun", "678d")]
    assert [g["has_win_card"] for g in other["groups"]] == [False, True, False, False, False]


def test_explained_score_names_the_option_that_leaves_a_pattern_out(
        client: FlaskClient, spec: dict[str, Any]) -> None:
    body = json.loads(json.dumps(E8_REQUEST))
    body["context"]["options"] = {"red_black": "off"}
    answer = _post(client, spec, "score", body, "?explain=true")
    # 偎 八 3 + 坎 壹 6 = 9 息, 囤 2; only 自摸 ×2 counts: 4.
    assert (answer["huxi"], answer["tun"], answer["score"]) == (9, 2, 4)
    assert [f["id"] for f in answer["fans"]] == ["zi_mo"]
    (left,) = answer["explanation"]["not_counted"]
    assert {k: left[k] for k in ("id", "name", "value", "count", "rule", "by")} == {
        "id": "quan_hei", "name": "全黑", "value": 5, "count": 1, "rule": "option",
        "by": "red_black"}
    assert "red_black" in left["message"]
    # Under the default options 全黑 counts and nothing is left out.
    default = _post(client, spec, "score", E8_REQUEST, "?explain=true")
    assert default["explanation"]["not_counted"] == []
    assert {f["id"] for f in default["fans"]} == {"quan_hei", "zi_mo"}


def test_explained_score_of_a_hand_with_no_arrangement(client: FlaskClient,
                                                       spec: dict[str, Any]) -> None:
    body = json.loads(json.dumps(E10_REQUEST))
    body["hand"]["cards"] = "13567x 112234678d 2x"  # 叁 swapped for 肆: no arrangement
    answer = _post(client, spec, "score", body, "?explain=true")
    assert answer["reason"]["code"] == "no_shape"
    assert answer["explanation"] == {"not_counted": [], "readings": [], "readings_compared": 0}


def test_explained_waits_entry_by_entry(client: FlaskClient, spec: dict[str, Any]) -> None:
    # E10 before the 二: every card that finishes it, on each win type.
    body = {"hand": "13567x112233678d", "context": {"winner": 3}}
    plain = _post(client, spec, "waits", body)
    explained = _post(client, spec, "waits", body, "?explain=true")
    assert explained["waits"] and explained["best"] is not None
    for entry in (*explained["waits"], explained["best"]):
        why = entry.pop("explanation")
        first = why["readings"][0]
        assert first["chosen"] and not any(r["chosen"] for r in why["readings"][1:])
        assert first["groups"] == entry["decomposition"]["groups"]
        assert (first["huxi"], first["score"]) == (entry["huxi"], entry["score"])
        assert 1 <= len(why["readings"]) <= min(5, why["readings_compared"])
    assert explained == plain
    # 二 on a discard: the two arrangements of E10.
    two = _post(client, spec, "waits", {**body, "context": {"winner": 3, "discarder": 1,
                                                            "win_type": "discard"}},
                "?explain=true")
    (entry,) = [w for w in two["waits"] if w["card"] == "2x"]
    assert entry["explanation"]["readings_compared"] == 2
    assert [r["huxi"] for r in entry["explanation"]["readings"]] == [15, 0]


@pytest.mark.parametrize("endpoint,n", [("score", 40), ("waits", 8)])
def test_explained_batch_items_are_the_single_explained_calls(
        client: FlaskClient, spec: dict[str, Any], endpoint: str, n: int) -> None:
    items = _items(n, seed=15, waits=endpoint == "waits")
    results = _post(client, spec, f"{endpoint}/batch", {"requests": items},
                    "?explain=true")["results"]
    assert len(results) == len(items)
    for item, got in zip(items, results, strict=True):
        assert got == _single(client, endpoint, item, "?explain=true"), item
    assert sum("error" in r for r in results) == 3
    explained = [r["result"] for r in results if "result" in r]
    if endpoint == "score":
        assert all("explanation" in r for r in explained)
    else:
        assert all("explanation" in w for r in explained for w in r["waits"])


@pytest.mark.parametrize("endpoint", ["score", "waits", "score/batch", "waits/batch"])
def test_explain_false_is_the_plain_answer(client: FlaskClient, endpoint: str) -> None:
    waiting = {"hand": "13567x112233678d", "context": {"winner": 3}}
    one = E10_REQUEST if endpoint.startswith("score") else waiting
    body: dict[str, Any] = {"requests": [one, one]} if "batch" in endpoint else one
    plain = client.post(f"{BASE}/{endpoint}", json=body)
    off = client.post(f"{BASE}/{endpoint}?explain=false", json=body)
    assert plain.status_code == off.status_code == 200
    assert off.data == plain.data
    assert b"explanation" not in plain.data
    on = client.post(f"{BASE}/{endpoint}?explain=true", json=body)
    assert on.status_code == 200 and b"explanation" in on.data


def test_the_rule_set_is_listed_and_described(client: FlaskClient, spec: dict[str, Any]) -> None:
    listed = {r["id"]: r for r in client.get("/v1/rulesets").get_json()["rulesets"]}
    assert listed["hengyang"]["players"] == 4
    assert listed["hengyang"]["name"] == "衡阳六胡抢"
    response = client.get(BASE)
    validate_live(spec, "/v1/rulesets/{ruleset}", "get", response)
    document = response.get_json()
    assert {o["name"] for o in document["options"]} >= {"players", "deal", "xing", "tun_mode"}
    assert client.get("/readyz").status_code == 200


def test_three_players_and_follow_xing(client: FlaskClient) -> None:
    """E12: E1 with 3 players and 跟醒: one 六 in 四五六 adds a 囤 (4); the discarder pays two
    shares."""
    body = json.loads(json.dumps(E1_REQUEST))
    body["context"]["options"] = {"players": 3, "xing": "follow"}
    answer = client.post(f"{BASE}/score", json=body).get_json()
    assert (answer["tun"], answer["tun_parts"]["xing"], answer["score"]) == (4, 1, 4)
    assert answer["payments"]["net"] == [0, 8, -8]
