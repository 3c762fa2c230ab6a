"""The log generator (`tools.loggen`): deterministic, legal for every rule set (checked
through the service's own reading and scoring), consistent contexts, waits one tile short,
malformed lines refused in the way they claim, and the command line (`./run log`)."""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from app import settings
from app.domain.errors import HandError
from app.domain.hand import DISCARD, KONG, KONG_AFTER_DISCARD, KONG_REPLACEMENT, KONG_ROBBED
from app.rules.cards.model import CardRuleSet
from app.rules.load_files import load_yaml
from app.rules.model import RuleSet
from app.rules.tile_loader import build_ruleset
from app.scoring.evaluate import score
from app.service.problems import ApiError
from app.service.tiles.requests import read_score_request, read_waits_request
from tests.loaded import repo_rulesets
from tools import loggen
from tools.loggen import (
    MALFORMED_KINDS,
    NOT_AN_OBJECT_KINDS,
    NOT_JSON_KINDS,
    RequestGenerator,
    log_lines,
    main,
    malformed_line,
    requests,
)
from tools.loggen.malformed import GARBAGE

ROOT = Path(__file__).resolve().parents[3]
# The rule sets it makes logs for: every tile game (a card game is refused, tested below).
RULESETS: dict[str, RuleSet] = loggen.tile_rulesets(repo_rulesets())
IDS = sorted(RULESETS)
# Hands per rule set: wild hands (混) score slowly, so fewer of them keep the tests fast.
N = {rid: 60 if rs.wild is not None else 200 for rid, rs in RULESETS.items()}
NON_WINNING = 0.2

# What the service answers each refused kind of malformed line with.
EXPECTED_CODE = {
    "unknown_tile": "unknown_tile",
    "wrong_tile_count": "wrong_tile_count",
    "unknown_field": "invalid_request",
    "wrong_type": "invalid_request",
    "seat_out_of_range": "seat_out_of_range",
    "unknown_option": "unknown_option",
}


@pytest.fixture(scope="module")
def generated() -> dict[str, tuple[RequestGenerator, list[dict[str, Any]]]]:
    out = {}
    for rid, rs in RULESETS.items():
        gen = RequestGenerator(rs, 7, non_winning=NON_WINNING)
        out[rid] = (gen, [gen.next() for _ in range(N[rid])])
    return out


def _refusal(body: Any, rs: RuleSet, waits: bool = False) -> tuple[str, int] | None:
    """(code, HTTP status) of the service's refusal of `body`, or None when it accepts it."""
    try:
        if waits:
            read_waits_request(body, rs)
        else:
            read_score_request(body, rs)
    except HandError as exc:
        return str(exc.code), 422
    except ApiError as exc:
        return exc.code, exc.status
    return None


def _line_refusal(line: str, waits: bool = False) -> tuple[str, int] | None:
    """How a log line is refused: not JSON (400), an unknown rule set (404), or the
    service's answer to the request; None when the line is a valid request."""
    try:
        data = json.loads(line)
    except ValueError:
        return "malformed_json", 400
    if not isinstance(data, dict):
        refused = _refusal(data, RULESETS[IDS[0]], waits)
        assert refused is not None
        return refused
    rid = data.pop("ruleset")
    if rid not in RULESETS:
        return "unknown_ruleset", 404
    return _refusal(data, RULESETS[rid], waits)


# --- determinism ---------------------------------------------------------------------------


def test_the_same_seed_gives_the_same_lines_and_another_seed_others() -> None:
    first = list(log_lines(RULESETS, IDS, 40, 3, malformed=0.2))
    assert list(log_lines(RULESETS, IDS, 40, 3, malformed=0.2)) == first
    assert list(log_lines(RULESETS, IDS, 40, 4, malformed=0.2)) != first
    assert requests(RULESETS["mcr"], 20, 5) == requests(RULESETS["mcr"], 20, 5)
    assert requests(RULESETS["mcr"], 20, 5) != requests(RULESETS["mcr"], 20, 6)


def test_another_process_writes_the_same_log(tmp_path: Path) -> None:
    # Another hash seed in another process: nothing may depend on hash or set order.
    out = tmp_path / "log.jsonl"
    env = {**os.environ, "PYTHONHASHSEED": "12345", "PYTHONPATH": str(ROOT)}
    subprocess.run([sys.executable, "-m", "tools.loggen", "--hands", "30",
                    "--seed", "9", "--malformed", "0.2", "-o", str(out)],
                   check=True, env=env, cwd=ROOT, timeout=120)
    here = list(log_lines(RULESETS, IDS, 30, 9, malformed=0.2))
    assert out.read_text(encoding="utf-8").splitlines() == here


def test_a_rule_set_s_lines_do_not_depend_on_the_others_in_the_log() -> None:
    lines = [json.loads(x) for x in log_lines(RULESETS, IDS, 80, 2)]
    mcr = [x for x in lines if x.pop("ruleset") == "mcr"]
    assert mcr == requests(RULESETS["mcr"], len(mcr), 2)


def test_no_rule_set_is_named_in_the_generator() -> None:
    # Generic over rule sets: driven by their data only.
    modules = sorted(Path(loggen.__file__).parent.glob("*.py"))
    assert len(modules) > 1
    for module in modules:
        source = module.read_text(encoding="utf-8")
        for rid, rs in RULESETS.items():
            assert not re.search(rf"\b{re.escape(rid)}\b", source, re.IGNORECASE), (module, rid)
            assert rs.name not in source, module


# --- legal requests ------------------------------------------------------------------------


@pytest.mark.parametrize("rid", IDS)
def test_every_request_is_accepted_and_the_winning_share_is_as_asked(
        rid: str, generated: dict[str, tuple[RequestGenerator, list[dict[str, Any]]]]) -> None:
    rs = RULESETS[rid]
    gen, bodies = generated[rid]
    winning = 0
    for body in bodies:
        hand, ctx = read_score_request(body, rs)
        winning += score(hand, ctx, rs).winning
    share = 1 - winning / len(bodies)
    # Each request is drawn to win or not: the share is binomial, within 4 deviations.
    assert abs(share - NON_WINNING) <= 4 * (NON_WINNING * (1 - NON_WINNING) / len(bodies)) ** 0.5
    assert gen.not_winning == len(bodies) - winning
    # Refused candidates are dropped and drawn again; almost none should be.
    assert gen.refused <= 0.01 * gen.drawn, gen.refusals


def test_non_winning_zero_gives_winning_hands_only() -> None:
    rs = RULESETS["mcr"]
    for body in requests(rs, 40, 1, non_winning=0.0):
        assert score(*read_score_request(body, rs), rs).winning


@pytest.mark.parametrize("rid", IDS)
def test_the_context_is_consistent(
        rid: str, generated: dict[str, tuple[RequestGenerator, list[dict[str, Any]]]]) -> None:
    rs = RULESETS[rid]
    copies = rs.tileset.copies
    seen: Counter[str] = Counter()
    for body in generated[rid][1]:
        hand, ctx = read_score_request(body, rs)
        seen["string" if isinstance(body["hand"], str) else "object"] += 1
        seen[ctx.win_type] += 1
        assert (ctx.discarder is not None) == (ctx.win_type == DISCARD)
        assert ctx.discarder != ctx.winner
        assert ctx.seat_wind == (ctx.winner - ctx.dealer) % rs.players
        win = hand.win_tile
        in_melds = sum(m.tiles.count(win) for m in hand.melds)
        if ctx.kong == KONG_REPLACEMENT:
            assert ctx.win_type != DISCARD and any(m.kind == KONG for m in hand.melds)
        if ctx.kong == KONG_ROBBED:
            assert ctx.win_type == DISCARD
            assert hand.concealed.count(win) == 1 and in_melds == 0
        if ctx.kong == KONG_AFTER_DISCARD:
            assert ctx.win_type == DISCARD
        if ctx.last_of_kind:
            assert hand.concealed.count(win) == 1 and ctx.kong != KONG_ROBBED
        if ctx.first_turn:
            assert not hand.melds
        for tile in set(hand.concealed) | {t for m in hand.melds for t in m.tiles}:
            held = hand.concealed.count(tile) + sum(m.tiles.count(tile) for m in hand.melds)
            assert held <= copies[tile]
        assert all(m.kind in rs.meld_kinds for m in hand.melds)
        assert ctx.flowers <= rs.max_flowers
        assert bool(ctx.wilds) == (rs.wild is not None)
        if ctx.wilds:
            seen["holds wilds"] += any(t in ctx.wilds for t in hand.concealed)
        seen["melds"] += bool(hand.melds)
        seen["kong flag"] += ctx.kong is not None
    # The mix: both ways of writing a hand, both win types, declared melds.
    assert seen["string"] and seen["object"] and seen["melds"], seen
    assert seen["self_draw"] and seen["discard"], seen
    if rs.wild is not None:
        assert seen["holds wilds"], seen


def test_the_shapes_and_flags_of_a_larger_sample() -> None:
    rs = RULESETS["mcr"]
    seen: Counter[str] = Counter()
    for body in requests(rs, 600, 3):
        hand, ctx = read_score_request(body, rs)
        result = score(hand, ctx, rs)
        if result.decomposition is not None:
            seen[result.decomposition.shape] += 1
        seen[str(ctx.kong)] += 1
        seen["concealed kong"] += any(m.concealed for m in hand.melds)
        seen["flowers"] += ctx.flowers > 0
        seen["options"] += bool(body["context"].get("options"))
    for key in ("regular", "seven_pairs", KONG_REPLACEMENT, KONG_AFTER_DISCARD,
                "concealed kong", "flowers"):
        assert seen[key], (key, seen)


def _variant(name: str, **changes: Any) -> RuleSet:
    data = load_yaml((settings.DEFAULT_RULESETS_DIR / f"{name}.yaml").read_text(encoding="utf-8"))
    data.update(changes)
    return build_ruleset(data, f"{name} variant")


# Rule sets unlike the served ones: the generator reads what they allow from their data.
VARIANTS = {
    "explicit wilds": lambda: _variant(
        "tianjin", id="explicit", wild={"indicator": None, "explicit": True}),
    # Other players than the file's: its match rules (seats, table points) are the file's
    # players', so the variant plays no matches.
    "three players": lambda: _variant("sichuan", id="three", players=3, match=None),
    "options of every type": lambda: _variant("mcr", id="options", players=2, match=None, options=[
        {"name": "cap", "type": "int", "default": 0, "minimum": 0, "maximum": 3,
         "description": "An integer from 0 to 3."},
        {"name": "strict", "type": "bool", "default": False, "description": "A switch."},
        {"name": "style", "type": "enum", "default": "a", "choices": ["a", "b"],
         "description": "A choice."},
    ]),
}


@pytest.mark.parametrize("variant", VARIANTS)
def test_rule_sets_unlike_the_served_ones(variant: str) -> None:
    rs = VARIANTS[variant]()
    gen = RequestGenerator(rs, 1)
    options: Counter[str] = Counter()
    for _ in range(60):
        body = gen.next()
        _, ctx = read_score_request(body, rs)
        assert ctx.discarder != ctx.winner and ctx.winner < rs.players
        assert ctx.seat_wind == (ctx.winner - ctx.dealer) % rs.players
        options.update(list(body["context"].get("options") or {}))
        if rs.wild is not None:
            assert "wilds" in body["context"] and "wild_indicator" not in body["context"]
    assert gen.refused == 0, gen.refusals
    if rs.options:
        assert options, "no request sets an option"


# --- waits ---------------------------------------------------------------------------------


@pytest.mark.parametrize("rid", IDS)
def test_waits_are_the_same_hands_one_tile_short(rid: str) -> None:
    rs = RULESETS[rid]
    n = 15 if rs.wild is not None else 40
    scores = requests(rs, n, 4)
    waits = requests(rs, n, 4, waits=True)
    for score_body, waits_body in zip(scores, waits, strict=True):
        hand, ctx = read_score_request(score_body, rs)
        standing, melds, waits_ctx = read_waits_request(waits_body, rs)
        assert waits_ctx == ctx and melds == hand.melds
        assert len(standing) == 13 - 3 * len(melds)
        assert sorted([*standing, hand.win_tile]) == sorted(hand.concealed)
        assert isinstance(waits_body["hand"], str) or "win_tile" not in waits_body["hand"]


# --- malformed lines -----------------------------------------------------------------------


@pytest.mark.parametrize("waits", [False, True])
def test_the_malformed_share_and_every_malformed_line_is_refused(waits: bool) -> None:
    n, share = (240, 0.3) if not waits else (100, 0.3)
    lines = list(log_lines(RULESETS, IDS, n, 13, waits=waits, malformed=share))
    assert len(lines) == n
    refused = [r for r in (_line_refusal(x, waits) for x in lines) if r is not None]
    assert abs(len(refused) / n - share) <= 0.1, len(refused)
    # Each refused the way a client would be answered: a 4xx problem.
    assert all(400 <= status < 500 for _, status in refused)
    assert len({code for code, _ in refused}) >= 5


@pytest.mark.parametrize("kind", MALFORMED_KINDS)
@pytest.mark.parametrize("rid", IDS)
def test_each_malformed_kind_is_refused(kind: str, rid: str) -> None:
    rs = RULESETS[rid]
    for waits in (False, True):
        for k, body in enumerate(requests(rs, 4, 8, waits=waits)):
            line = malformed_line(kind, body, rs, random.Random(k), waits=waits,
                                  known=RULESETS)
            if kind in NOT_JSON_KINDS:
                with pytest.raises(ValueError):
                    json.loads(line)
                continue
            data = json.loads(line)
            if kind in NOT_AN_OBJECT_KINDS:
                assert not isinstance(data, dict)
                assert _refusal(data, rs, waits) == ("invalid_request", 422)
                continue
            named = data.pop("ruleset")
            if kind == "unknown_ruleset":
                assert named not in RULESETS
                assert _refusal(data, rs, waits) is None  # only the rule set is wrong
                continue
            assert named == rid
            assert _refusal(data, rs, waits) == (EXPECTED_CODE[kind], 422), line


def test_no_garbage_line_is_json() -> None:
    for text in GARBAGE:
        with pytest.raises(ValueError):
            json.loads(text)


def test_without_the_ruleset_field_lines_are_bare_requests() -> None:
    lines = list(log_lines(RULESETS, ["sichuan"], 30, 5, malformed=0.3, name_ruleset=False))
    for line in lines:
        try:
            data = json.loads(line)
        except ValueError:
            continue
        assert not isinstance(data, dict) or "ruleset" not in data


# --- the command line ----------------------------------------------------------------------


def test_the_command_line_writes_the_log(tmp_path: Path) -> None:
    out = tmp_path / "log.jsonl"
    assert main(["--ruleset", "mcr", "--ruleset", "sichuan", "--hands", "25", "--seed", "4",
                 "-o", str(out)]) == 0
    lines = out.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 25
    assert lines == list(log_lines(RULESETS, ["mcr", "sichuan"], 25, 4))
    assert {json.loads(x)["ruleset"] for x in lines} <= {"mcr", "sichuan"}

    bare = tmp_path / "bare.jsonl"
    assert main(["--ruleset", "chengdu", "--hands", "10", "--waits", "--no-ruleset-field",
                 "--output", str(bare)]) == 0
    for line in bare.read_text(encoding="utf-8").splitlines():
        body = json.loads(line)
        assert "ruleset" not in body
        read_waits_request(body, RULESETS["chengdu"])


def test_run_log_writes_where_it_is_called_from(tmp_path: Path) -> None:
    # `./run log` (the repository's entry point) from another directory: a relative output
    # path lands there, and the log is the same as the function's.
    env = {**os.environ, "RUN_NO_INSTALL": "1"}
    done = subprocess.run([str(ROOT / "run"), "log", "--ruleset", "sichuan", "--hands", "12",
                           "--seed", "6", "-o", "here.jsonl"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    lines = (tmp_path / "here.jsonl").read_text(encoding="utf-8").splitlines()
    assert lines == list(log_lines(RULESETS, ["sichuan"], 12, 6))


def test_the_command_line_help_and_errors(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["--help"])
    assert done.value.code == 0
    text = capsys.readouterr().out
    for option in ("--ruleset", "--hands", "--seed", "--waits", "--malformed",
                   "--no-ruleset-field", "--output"):
        assert option in text
    with pytest.raises(SystemExit) as done:
        main(["--ruleset", "no-such-rules"])
    assert done.value.code == 2
    with pytest.raises(SystemExit) as done:
        main(["--malformed", "1.5"])
    assert done.value.code == 2


# --- card games are not generated ----------------------------------------------------------

ALL_RULESETS = repo_rulesets()
CARD_IDS = sorted(set(ALL_RULESETS) - set(RULESETS))


def test_card_rule_sets_are_refused_and_left_out(capsys: pytest.CaptureFixture[str]) -> None:
    assert CARD_IDS, "no card rule set is served: this test has nothing to check"
    assert all(isinstance(ALL_RULESETS[rid], CardRuleSet) for rid in CARD_IDS)
    assert list(loggen.tile_rulesets(ALL_RULESETS)) == [
        rid for rid in ALL_RULESETS if rid not in CARD_IDS]
    with pytest.raises(ValueError, match=rf"{CARD_IDS[0]!r} is a card game scored by groups"):
        log_lines(ALL_RULESETS, ["mcr", CARD_IDS[0]], 5, 1)
    # Given all the rule sets, the tile ones' lines are as before.
    assert list(log_lines(ALL_RULESETS, IDS, 30, 2, malformed=0.2)) == list(
        log_lines(RULESETS, IDS, 30, 2, malformed=0.2))
    with pytest.raises(SystemExit) as done:
        main(["--ruleset", CARD_IDS[0]])
    assert done.value.code == 2
    assert "the log generator makes mahjong requests only" in capsys.readouterr().err


def test_all_leaves_out_the_card_rule_sets_saying_so(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "log.jsonl"
    assert main(["--hands", "20", "--seed", "5", "-o", str(out)]) == 0
    err = capsys.readouterr().err
    assert f"leaving out {', '.join(CARD_IDS)}: card games scored by groups" in err
    lines = out.read_text(encoding="utf-8").splitlines()
    assert lines == list(log_lines(RULESETS, IDS, 20, 5))
    assert not {json.loads(x)["ruleset"] for x in lines} & set(CARD_IDS)
