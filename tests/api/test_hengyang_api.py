"""hengyang (衡阳六胡抢, word cards) through the HTTP API: worked examples E1 and E5 as whole
answers, batches answering what the single calls answer, and the operations a card rule set
does not serve (settle, explain)."""

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
SCORE = ("/v1/rulesets/{ruleset}/score", "post")


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


def _single(client: FlaskClient, endpoint: str, item: Any) -> dict[str, Any]:
    response = client.post(f"{BASE}/{endpoint}", data=json.dumps(item),
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
    validate_live(spec, f"/v1/rulesets/{{ruleset}}/{endpoint}/batch", "post", response)
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


@pytest.mark.parametrize("endpoint", ["score", "waits", "score/batch", "waits/batch"])
def test_explain_is_refused(client: FlaskClient, spec: dict[str, Any], endpoint: str) -> None:
    body: dict[str, Any] = E5_REQUEST if "batch" not in endpoint else {"requests": [E5_REQUEST]}
    response = client.post(f"{BASE}/{endpoint}?explain=true", json=body)
    validate_live(spec, f"/v1/rulesets/{{ruleset}}/{endpoint}", "post", response)
    result = problem(response, 400, "explain_not_supported")
    assert "tile games" in result["detail"]
    # explain=false is the plain answer.
    assert client.post(f"{BASE}/{endpoint}?explain=false", json=body).status_code in (200, 422)


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
