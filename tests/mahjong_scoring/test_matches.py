"""Matches in bulk: `mahjong_scoring.match` answers one match request as
`POST /v1/rulesets/{ruleset}/match` does, and `mahjong-score --match` (or
`score_lines(..., match=True)`) answers a log of them a line each, in order, the endpoint's
answers, never a line lost."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from app.api import create_app
from mahjong_scoring import cli, match, score_lines
from tests.api.match_samples import SAMPLES, match_body

N9 = "[123m][456p]789s23sNN4s"
MCR: dict[str, Any] = {"hands": [
    {"win": {"hand": "123m123p123s789s5p5p",
             "context": {"win_type": "discard", "winner": 1, "discarder": 2}}},
    {"win": {"hand": N9, "context": {"win_type": "self_draw", "winner": 3}}},
    {"drawn": {}},
    {"claims": {"discarder": 2, "claims": [
        {"win": {"hand": N9, "context": {"win_type": "discard", "winner": 3, "discarder": 2}}},
        {"win": {"hand": N9, "context": {"win_type": "discard", "winner": 1,
                                          "discarder": 2}}}]}},
]}
NOT_A_WIN = {"hands": [{"win": {"hand": "123456m234p678s5s5s", "context": {
    "win_type": "discard", "winner": 0, "discarder": 1}}}]}


@pytest.fixture(scope="module")
def app() -> Flask:
    return create_app({"REQUEST_TIME_LIMIT": 600, "ACCESS_LOG": False})


def _endpoint(app: Flask, ruleset: str, body: Any) -> dict[str, Any]:
    """What the endpoint answers, as an item: its answer, or its problem."""
    response = app.test_client().post(f"/v1/rulesets/{ruleset}/match", json=body)
    got = response.get_json()
    if response.status_code == 200:
        return {"result": got}
    got.pop("request_id", None)
    return {"error": got}


def _sample(ruleset: str) -> dict[str, Any]:
    win = SAMPLES[ruleset]
    context = {k: v for k, v in win["context"].items()
               if k not in ("dealer", "seat_wind", "round_wind")}
    return match_body({**win, "context": context}, False)


def test_match_answers_as_the_endpoint(app: Flask) -> None:
    got = match(MCR, "mcr")
    assert got == _endpoint(app, "mcr", MCR)
    assert got["result"]["standings"]["totals"] == got["result"]["hands"][-1]["totals"]
    # its docstring's example
    assert match({"hands": MCR["hands"][:1]}, "mcr")["result"]["standings"]["totals"] == [
        -8, 38, -22, -8]
    refused = match(NOT_A_WIN, "mcr")
    assert refused == _endpoint(app, "mcr", NOT_A_WIN)
    assert refused["error"]["code"] == "not_a_win"
    with pytest.raises(ValueError, match="no rule set 'riichi'"):
        match(MCR, "riichi")


def _log(tmp_path: Path) -> tuple[Path, list[tuple[str, Any]]]:
    """A log of matches: mcr lines naming no rule set, a word-card game's, a game of three
    and one of two, a match continued from its state, and lines that are no match."""
    first = match({"hands": MCR["hands"][:2]}, "mcr")["result"]
    lines: list[tuple[str, Any]] = [
        ("mcr", MCR),
        ("hengyang", {"ruleset": "hengyang", **_sample("hengyang")}),
        ("kawuxing", {"ruleset": "kawuxing", **_sample("kawuxing")}),
        ("erren", {"ruleset": "erren", **_sample("erren")}),
        ("mcr", {"hands": MCR["hands"][2:], "state": first["state"]}),
        ("mcr", NOT_A_WIN),
        ("mcr", "not json"),
        ("mcr", [1, 2]),
        ("mcr", {"ruleset": "riichi", "hands": []}),
    ]
    path = tmp_path / "matches.jsonl"
    path.write_text("".join((body if isinstance(body, str) else json.dumps(body)) + "\n"
                            for _, body in lines), encoding="utf-8")
    return path, lines


def test_the_command_line_scores_a_log_of_matches(
        app: Flask, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log, lines = _log(tmp_path)
    out = tmp_path / "out.jsonl"
    assert cli.main([str(log), "-o", str(out), "--match", "-r", "mcr", "--jobs", "1",
                     "--no-progress"]) == 0
    assert f"mahjong-score: {len(lines)} hands, " in capsys.readouterr().err
    items = [json.loads(line) for line in out.read_bytes().splitlines()]
    assert len(items) == len(lines)
    players = set()
    for number, ((ruleset, body), item) in enumerate(zip(lines, items, strict=True), 1):
        if "error" in item:
            assert item["error"].pop("line") == number
        if isinstance(body, dict) and body.get("ruleset", ruleset) == ruleset:
            sent = {k: v for k, v in body.items() if k != "ruleset"}
            assert item == _endpoint(app, ruleset, sent), number
        if "result" in item:
            players.add(len(item["result"]["standings"]["totals"]))
    assert players == {2, 3, 4}
    # the continued match ends where the whole one does
    whole = match(MCR, "mcr")["result"]
    assert items[4]["result"]["standings"] == whole["standings"]
    assert [i["error"]["code"] for i in items[5:]] == [
        "not_a_win", "malformed_json", "malformed_json", "unknown_ruleset"]
    # every job count, and the library call, write the same bytes
    again = tmp_path / "again.jsonl"
    assert cli.main([str(log), "-o", str(again), "--match", "-r", "mcr", "--jobs", "2",
                     "--quiet", "--no-progress"]) == 0
    assert again.read_bytes() == out.read_bytes()
    with log.open("rb") as source:
        library = "".join(f"{item}\n" for item in score_lines(source, "mcr", match=True))
    assert library.encode() == out.read_bytes()


def test_a_match_line_is_one_kind_of_request(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(ValueError, match="not both"):
        score_lines([], "mcr", match=True, waits=True)
    with pytest.raises(SystemExit):
        cli.main(["--match", "--analysis", str(tmp_path / "x.jsonl")])
    assert "not allowed with argument" in capsys.readouterr().err
    assert "--match" in cli.parser().format_help()
