"""A request may name its rule set (`ruleset`), as every line `./run log` writes does:
a log line is posted as it is, and one naming another rule set than the path's is refused
(422 invalid_field at /ruleset), in single calls and batch items alike."""

from __future__ import annotations

import json

import pytest
from flask.testing import FlaskClient

from tools.loggen import main as loggen_main


def _log_lines(capsys: pytest.CaptureFixture[str], *args: str) -> list[str]:
    assert loggen_main(list(args)) == 0
    return capsys.readouterr().out.splitlines()


@pytest.mark.parametrize(("ruleset", "endpoint", "waits"), [
    ("mcr", "score", False), ("tianjin", "score", False), ("sichuan", "waits", True)])
def test_log_lines_post_as_they_are(client: FlaskClient, capsys: pytest.CaptureFixture[str],
                                    ruleset: str, endpoint: str, waits: bool) -> None:
    args = ["--ruleset", ruleset, "--hands", "20", "--seed", "5"] + (["--waits"] if waits else [])
    lines = _log_lines(capsys, *args)
    assert len(lines) == 20 and all(json.loads(line)["ruleset"] == ruleset for line in lines)
    for line in lines:
        resp = client.post(f"/v1/rulesets/{ruleset}/{endpoint}", data=line,
                           content_type="application/json")
        assert resp.status_code == 200, (line, resp.get_json())
    batch = {"requests": [json.loads(line) for line in lines]}
    resp = client.post(f"/v1/rulesets/{ruleset}/{endpoint}/batch", json=batch)
    assert resp.status_code == 200
    assert all("result" in item for item in resp.get_json()["results"])


@pytest.mark.parametrize("endpoint", ["score", "waits"])
def test_another_rule_set_named_is_refused(client: FlaskClient, endpoint: str) -> None:
    hand = "1112345678999m5m" if endpoint == "score" else "1112345678999m"
    body = {"ruleset": "sichuan", "hand": hand, "context": {"win_type": "self_draw"}}
    resp = client.post(f"/v1/rulesets/mcr/{endpoint}", json=body)
    assert resp.status_code == 422
    problem = resp.get_json()
    assert problem["code"] == "invalid_field"
    assert problem["errors"][0]["pointer"] == "/ruleset"
    assert "'sichuan'" in problem["detail"] and "'mcr'" in problem["detail"]
    # The same body naming the path's rule set, or naming none, is scored.
    for named in ("mcr", None):
        ok = client.post(f"/v1/rulesets/mcr/{endpoint}", json={**body, "ruleset": named})
        assert ok.status_code == 200, ok.get_json()
    item = client.post(f"/v1/rulesets/mcr/{endpoint}/batch",
                       json={"requests": [body]}).get_json()["results"][0]
    assert item["error"]["code"] == "invalid_field"


def test_word_card_requests_may_name_their_rule_set(client: FlaskClient) -> None:
    body = {"hand": "[111x][2710x]8888x 55588d 8x", "context": {"win_type": "self_draw"}}
    plain = client.post("/v1/rulesets/hengyang/score", json=body)
    named = client.post("/v1/rulesets/hengyang/score", json={**body, "ruleset": "hengyang"})
    assert named.status_code == plain.status_code
    other = client.post("/v1/rulesets/hengyang/score", json={**body, "ruleset": "mcr"})
    assert other.status_code == 422 and other.get_json()["code"] == "invalid_field"


@pytest.mark.parametrize("value", [5, True, ["mcr"], "x" * 65])
def test_a_ruleset_that_is_no_id_is_an_invalid_request(client: FlaskClient,
                                                         value: object) -> None:
    body = {"ruleset": value, "hand": "1112345678999m5m", "context": {"win_type": "self_draw"}}
    resp = client.post("/v1/rulesets/mcr/score", json=body)
    assert resp.status_code == 422 and resp.get_json()["code"] == "invalid_request"
