"""A match drawn as its scoresheet (`POST .../match` with `Accept: image/svg+xml`, or
`.../match/picture`): a standalone, well-formed, deterministic SVG with a column per player and
a row per hand, each hand's dealer, winds, net and running total, its false wins and
penalties, and the standings with the ranks and table points, for every rule set of both
families (two, three and four players). Its drawing in a real browser is
tests/api/test_browser_pages.py."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from app.api.routes import RULESETS_KEY
from app.service.families import served_family, service_families
from tests.api.match_samples import SAMPLES, sample_match
from tests.api.picture_hands import SVG_NS, svg_text

SVG = {"Accept": "image/svg+xml"}
WINDS = {"E": "东", "S": "南", "W": "西", "N": "北"}


def _cells(root: ET.Element, cls: str) -> dict[int, list[str]]:
    """Each hand's cells of a class (`net`, `total`, `marks`), by hand number, in player
    order."""
    out = {}
    for g in root.iter(f"{SVG_NS}g"):
        if g.attrib.get("class") == "hand":
            texts = [t for t in g.iter(f"{SVG_NS}text") if t.attrib.get("class") == cls]
            assert [int(t.attrib["data-player"]) for t in texts] == list(range(len(texts)))
            out[int(g.attrib["data-number"])] = [t.text or "" for t in texts]
    return out


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


def test_every_family_draws_a_match() -> None:
    for name in service_families():
        assert "match" in served_family(name).pictures, name


@pytest.mark.parametrize("ruleset", sorted(SAMPLES))
def test_a_match_is_drawn_as_its_scoresheet(client: FlaskClient, app: Flask,
                                            ruleset: str) -> None:
    body = sample_match(client, ruleset)
    if app.extensions[RULESETS_KEY][ruleset].match is None:
        assert body is None
        got = client.post(f"/v1/rulesets/{ruleset}/match", json={"hands": [{"drawn": {}}]},
                          headers=SVG)
        assert got.mimetype == "application/problem+json"
        return
    assert body is not None, f"{ruleset}: no sample match is answered"
    answer = client.post(f"/v1/rulesets/{ruleset}/match", json=body).get_json()
    got = client.post(f"/v1/rulesets/{ruleset}/match", json=body, headers=SVG)
    assert got.status_code == 200 and got.mimetype == "image/svg+xml"
    assert "Accept" in got.headers["Vary"]
    svg = got.get_data()
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG_NS}svg"
    assert root.attrib["viewBox"] == f"0 0 {root.attrib['width']} {root.attrib['height']}"
    assert root.find(f"{SVG_NS}title") is not None and root.find(f"{SVG_NS}desc") is not None
    players = len(answer["standings"]["totals"])
    heads = [t.text for t in root.iter(f"{SVG_NS}text") if t.attrib.get("class") == "player"]
    assert heads == [f"P{p}" for p in range(players)]
    nets, totals, marks = (_cells(root, c) for c in ("net", "total", "marks"))
    assert sorted(nets) == [h["number"] for h in answer["hands"]]
    for hand in answer["hands"]:
        n = hand["number"]
        assert nets[n] == [_signed(v) for v in hand["net"]]
        assert totals[n] == [f"= {t}" for t in hand["totals"]]
        assert "庄" in marks[n][hand["dealer"]].split()
        assert all("庄" not in m for p, m in enumerate(marks[n]) if p != hand["dealer"])
        for winner in hand["winners"]:
            assert "和" in marks[n][winner]
        if hand["seat_winds"] is not None:
            assert [m.split()[0] for m in marks[n]] == [WINDS[w] for w in hand["seat_winds"]]
        for p, deducted in enumerate(hand["deducted"]):
            assert (f"扣{deducted}" in marks[n][p].split()) == (deducted > 0)
    text = svg_text(svg)
    standings = answer["standings"]
    shown = [(t.text or "").split(" ")[0] for t in root.iter(f"{SVG_NS}text")
             if t.attrib.get("class") == "standing"]
    for p in range(players):
        assert str(standings["points"][p]) in shown
        assert str(standings["ranks"][p]) in shown
    if standings["table_points"] is not None:
        assert "标准分" in text
        assert all(f"{t:g}" in shown for t in standings["table_points"])
    assert "penalty 罚分" in text and "slow play" in text
    assert ("false win" in text) == any(h["false_wins"] for h in answer["hands"])
    # the same answer, the same bytes; the picture operation draws the same
    assert client.post(f"/v1/rulesets/{ruleset}/match", json=body, headers=SVG).get_data() == svg
    assert client.post(f"/v1/rulesets/{ruleset}/match/picture", json=body).get_data() == svg


def test_the_games_have_two_three_and_four_players(client: FlaskClient) -> None:
    counts = set()
    for ruleset in SAMPLES:
        body = sample_match(client, ruleset)
        if body is not None:
            answer = client.post(f"/v1/rulesets/{ruleset}/match", json=body).get_json()
            counts.add(len(answer["standings"]["totals"]))
    assert {2, 3, 4} <= counts


# The worked 国标 match: 截和 (two claims on one discard), a false win, a drawn hand, and
# a new 圈 where the players change seats.
N9 = "[123m][456p]789s23sNN4s"
MCR_MATCH: dict[str, Any] = {"hands": [
    {"win": {"hand": "123m123p123s789s5p5p",
             "context": {"win_type": "discard", "winner": 1, "discarder": 2}}},
    {"win": {"hand": N9, "context": {"win_type": "self_draw", "winner": 3}}},
    {"win": {"hand": N9, "context": {"win_type": "self_draw", "winner": 2}},
     "false_wins": [{"player": 0, "win": {"hand": "[234m][567s]345p888s9m9m", "context": {
         "win_type": "discard", "winner": 0, "discarder": 1}}}]},
    {"drawn": {}},
    {"win": {"hand": "[SSS]123456789m5p5p",
             "context": {"win_type": "discard", "winner": 0, "discarder": 3}}},
    {"claims": {"discarder": 2, "claims": [
        {"win": {"hand": N9, "context": {"win_type": "discard", "winner": 3, "discarder": 2}}},
        {"win": {"hand": N9, "context": {"win_type": "discard", "winner": 1,
                                          "discarder": 2}}}]}},
]}


def test_the_mcr_scoresheet_shows_claims_false_wins_and_the_next_hand(
        client: FlaskClient) -> None:
    answer = client.post("/v1/rulesets/mcr/match", json=MCR_MATCH).get_json()
    svg = client.post("/v1/rulesets/mcr/match/picture", json=MCR_MATCH).get_data()
    text = svg_text(svg)
    assert "claims: P1 won, P3 passed" in text
    assert "false win 错和 by P0 (wrong_shape): P0 -30, P1 +10, P2 +10, P3 +10" in text
    assert "南 S" in text  # the second 圈's round wind
    nxt = answer["next"]
    assert f"Next: hand {nxt['number']}, P{nxt['dealer']} deals" in text
    assert "标准分" in text and "points (500 +)" in text


def test_a_continued_match_is_drawn_from_its_state(client: FlaskClient) -> None:
    """The hands after a state are numbered on, their totals running on from it."""
    first = client.post("/v1/rulesets/mcr/match",
                        json={"hands": MCR_MATCH["hands"][:3]}).get_json()
    rest = {"hands": MCR_MATCH["hands"][3:], "state": first["state"]}
    svg = client.post("/v1/rulesets/mcr/match", json=rest, headers=SVG).get_data()
    whole = client.post("/v1/rulesets/mcr/match", json=MCR_MATCH).get_json()
    root = ET.fromstring(svg)
    totals = _cells(root, "total")
    assert sorted(totals) == [4, 5, 6]
    assert totals[6] == [f"= {t}" for t in whole["standings"]["totals"]]
    assert "hands 4–6" in svg_text(svg)


def test_a_narrow_scoresheet_keeps_within_its_width(client: FlaskClient) -> None:
    for width in (358, 300):
        svg = client.post(f"/v1/rulesets/mcr/match/picture?width={width}",
                          json=MCR_MATCH).get_data()
        assert float(ET.fromstring(svg).attrib["width"]) <= width
    wide = client.post("/v1/rulesets/mcr/match/picture", json=MCR_MATCH).get_data()
    assert float(ET.fromstring(wide).attrib["width"]) < 900


def test_a_match_s_errors_stay_problems(client: FlaskClient) -> None:
    bad = client.post("/v1/rulesets/mcr/match", headers=SVG, json={"hands": [
        {"win": {"hand": "123456m234p678s5s5s",
                 "context": {"win_type": "discard", "winner": 0, "discarder": 1}}}]})
    assert bad.status_code == 422 and bad.mimetype == "application/problem+json"
    assert bad.get_json()["code"] == "not_a_win"
    picture = client.post("/v1/rulesets/mcr/match/picture", json={"hands": "none"})
    assert picture.status_code in (400, 422)
    assert picture.mimetype == "application/problem+json"
