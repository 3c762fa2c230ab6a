"""`?explain=true` over HTTP: off by default (the response exactly as without it), on for
score, waits and both batches, refused with 400 invalid_query for any other value."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

HAND = {"hand": "[CCC][FFF]PPP123m5p5p", "context": {"win_type": "discard", "discarder": 1}}
WAITING = {"hand": "[CCC][FFF]PPP123m5p", "context": {"win_type": "self_draw"}}


def _post(client: FlaskClient, path: str, body: Any, query: str = "") -> Any:
    response = client.post(f"/v1/rulesets/mcr/{path}{query}", json=body)
    assert response.status_code == 200, response.get_json()
    return response.get_json()


@pytest.mark.parametrize("path,body", [("score", HAND), ("waits", WAITING)])
def test_off_by_default_and_with_false(client: FlaskClient, path: str, body: Any) -> None:
    plain = _post(client, path, body)
    assert "explanation" not in str(plain)
    assert _post(client, path, body, "?explain=false") == plain


def test_score_explained(client: FlaskClient) -> None:
    plain = _post(client, "score", HAND)
    explained = _post(client, "score", HAND, "?explain=true")
    why = explained.pop("explanation")
    assert explained == plain
    assert why["not_counted"] == [{
        "id": "dragon_pung", "name": "箭刻", "name_en": "Dragon Pung", "value": 2, "count": 3,
        "rule": "fan", "by": "big_three_dragons",
        "message": "not counted (不计) with 大三元 (Big Three Dragons), which counts"}]
    assert why["readings"][0]["chosen"] and why["readings"][0]["fan_total"] == 90
    assert why["readings_compared"] == 1


def test_seven_pairs_against_its_regular_reading(client: FlaskClient) -> None:
    body = {"hand": "778899m778899p9s9s", "context": {"win_type": "self_draw"}}
    why = _post(client, "score", body, "?explain=true")["explanation"]
    assert [(r["shape"], r["fan_total"], r["chosen"]) for r in why["readings"]] == [
        ("seven_pairs", 49, True), ("regular", 38, False)]
    rules = {n["id"]: (n["rule"], n["by"]) for n in why["not_counted"]}
    assert rules["concealed_hand"] == ("shape", "seven_pairs")
    assert rules["upper_four"] == ("fan", "upper_tiles")


def test_waits_explained_entry_by_entry(client: FlaskClient) -> None:
    plain = _post(client, "waits", WAITING)
    explained = _post(client, "waits", WAITING, "?explain=true")
    assert [w.pop("explanation")["readings"][0]["chosen"] for w in explained["waits"]] == [
        True] * len(plain["waits"])
    explained["best"].pop("explanation")
    assert explained == plain


@pytest.mark.parametrize("path,body", [("score", HAND), ("waits", WAITING)])
def test_batches_answer_as_the_single_calls(client: FlaskClient, path: str, body: Any) -> None:
    single = _post(client, path, body, "?explain=true")
    batch = _post(client, f"{path}/batch", {"requests": [body, body]}, "?explain=true")
    assert batch["results"] == [{"result": single}] * 2
    plain = _post(client, f"{path}/batch", {"requests": [body]})
    assert plain["results"] == [{"result": _post(client, path, body)}]


@pytest.mark.parametrize("query", ["?explain=yes", "?explain=1", "?explain=", "?explain=True",
                                   "?explain=true&explain=true"])
@pytest.mark.parametrize("path", ["score", "waits", "score/batch", "waits/batch"])
def test_any_other_value_is_refused(client: FlaskClient, path: str, query: str) -> None:
    response = client.post(f"/v1/rulesets/mcr/{path}{query}", json=HAND)
    assert response.status_code == 400
    problem = response.get_json()
    assert problem["code"] == "invalid_query"
    assert "'explain'" in problem["detail"] and "true or false" in problem["detail"]
