"""The check parameters the two-player rule sets brought in, on hand-picked hands: 平和's
two-sided wait, 混老头's honours and terminals, 全带幺 with honours and a chow, 大车轮's one
suit of simples, 地和 / 人和 by the win type, and 幺九刻 without seat or round winds."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from app.domain.shapes import SEVEN_PAIRS, decompose
from app.rules.checks import CHECKS, run
from app.rules.model import RuleSet
from app.rules.view import HandFacts, View
from app.service.tiles.requests import build
from tests.loaded import repo_rulesets
from tests.rules.test_checks import tg

ROOT = Path(__file__).resolve().parents[2]
RULESETS = repo_rulesets()
ERREN: RuleSet = RULESETS["erren"]
MCR: RuleSet = RULESETS["mcr"]


def views(text: str, rs: RuleSet = ERREN, **ctx: Any) -> list[View]:
    ctx.setdefault("win_type", "discard")
    if ctx["win_type"] == "discard":
        ctx.setdefault("discarder", 1)
    hand, context = build(text, ctx, rs)
    shapes = frozenset(rs.shapes)
    facts = HandFacts(hand, context, rs.tileset, shapes)
    return [View(r, facts, None) for r in decompose(hand, shapes, rs.tileset)]


def best(name: str, text: str, rs: RuleSet = ERREN, shape: str | None = None,
         ctx: dict[str, Any] | None = None, **params: Any) -> int:
    """The check's most over the readings (of `shape`, if given) of a hand won in `ctx`
    (as in a request; default on seat 1's discard)."""
    found = [run(CHECKS[name], v, v.ctx, params) for v in views(text, rs, **(ctx or {}))
             if shape is None or v.shape == shape]
    assert found, text
    return max(found)


def test_all_chows_two_sided() -> None:
    # 78m won on 9m: 78 waits on 6 and 9.
    assert best("all_chows", "123m456m123p55s78m9m", two_sided=True) == 1
    # 89m won on 7m: an edge wait; 13m won on 2m: a closed one; the pair: a single wait.
    assert best("all_chows", "123m456m123p55s89m7m", two_sided=True) == 0
    assert best("all_chows", "123m456m789p55s13m2m", two_sided=True) == 0
    assert best("all_chows", "123m456m789p234s5s5s", two_sided=True) == 0
    # 12m won on 3m is an edge, but 45m won on 3m is two-sided: 123 345 678 places it both
    # ways, and the hand may be read the better way.
    assert best("all_chows", "12345678m123p55s3m", two_sided=True) == 1
    # Claimed chows count among the four.
    assert best("all_chows", "[123m]456m123p55s78m9m", two_sided=True) == 1
    # Without two_sided, as mcr's 平和.
    assert best("all_chows", "123m456m123p55s89m7m") == 1


def test_all_pungs_mixed() -> None:
    within = tg("19m19p19sESWNCFP")
    assert best("all_pungs", "[111m]999pEEE99sNNN", within=within, mixed=True) == 1
    assert best("all_pungs", "[111m][999m]111p999s1s1s", within=within, mixed=True) == 0
    assert best("all_pungs", "[111m][999m]111p999s1s1s", within=within) == 1
    assert best("all_pungs", "EEESSSWWWCCCFF", within=within, mixed=True,
                ctx={"win_type": "self_draw"}) == 0


def test_every_group_has_honors_and_chow_if() -> None:
    outside, terminals = tg("19m19p19sESWNCFP"), tg("19m19p19s")
    chow = {"ctx": {"options": {"outside_needs_chow": True}}}
    any_sets = {"ctx": {"options": {"outside_needs_chow": False}}}
    assert best("every_group_has", "123m789mEEE123p99p", tiles=outside, honors=True) == 1
    assert best("every_group_has", "123m789m123p999s11p", tiles=outside, honors=True) == 0
    assert best("every_group_has", "123m789m123p999s11p", tiles=terminals) == 1
    all_pungs = "[111m][999m]111p999s1s1s"
    assert best("every_group_has", all_pungs, tiles=terminals,
                chow_if="outside_needs_chow", **chow) == 0
    assert best("every_group_has", all_pungs, tiles=terminals,
                chow_if="outside_needs_chow", **any_sets) == 1
    assert best("every_group_has", "123m789m123p999s11p", tiles=terminals,
                chow_if="outside_needs_chow", **chow) == 1


def test_one_suit_within() -> None:
    simples = tg("2345678m2345678p2345678s")
    assert best("one_suit_within", "22334455667788p", shape=SEVEN_PAIRS, tiles=simples) == 1
    assert best("one_suit_within", "11223344556677p", shape=SEVEN_PAIRS, tiles=simples) == 0
    assert best("one_suit_within", "22334455667788m", tiles=tg("2345678p")) == 0
    assert best("one_suit_within", "22334455m667788p", shape=SEVEN_PAIRS, tiles=simples) == 0
    assert best("one_suit_within", "223344556677mCC", shape=SEVEN_PAIRS,
                tiles=tg("2345678mC")) == 0  # 清一色: never honours


def test_first_turn_by_win_type() -> None:
    hand = "123m456p789s234s5m5m"
    self_drawn = {"win_type": "self_draw", "winner": 1, "first_turn": True}
    on_discard = {"win_type": "discard", "winner": 1, "discarder": 0, "first_turn": True}
    for ctx, drawn, discard in ((self_drawn, 1, 0), (on_discard, 0, 1)):
        assert best("first_turn", hand, MCR, ctx=ctx, winner="other") == 1
        assert best("first_turn", hand, MCR, ctx=ctx, winner="other",
                    win_type="self_draw") == drawn
        assert best("first_turn", hand, MCR, ctx=ctx, winner="other",
                    win_type="discard") == discard
        assert best("first_turn", hand, MCR, ctx={**ctx, "first_turn": False},
                    winner="other") == 0
    dealer = {"win_type": "self_draw", "first_turn": True}
    assert best("first_turn", hand, MCR, ctx=dealer, winner="dealer") == 1
    assert best("first_turn", hand, MCR, ctx=dealer, winner="other", win_type="self_draw") == 0


def test_terminal_and_wind_pungs_without_wind_fans() -> None:
    for seat, rnd in (("E", "E"), ("S", "W")):
        ctx = {"win_type": "self_draw", "seat_wind": seat, "round_wind": rnd}
        assert best("terminal_and_wind_pungs", "111m999pEEE123s55s", MCR, ctx=ctx,
                    wind_fans=False) == 3
        # Three wind pungs are 三风刻: only the terminal.
        assert best("terminal_and_wind_pungs", "EEESSSWWW999m55s", MCR, ctx=ctx,
                    wind_fans=False) == 1
    ctx = {"win_type": "self_draw", "seat_wind": "E", "round_wind": "S"}
    assert best("terminal_and_wind_pungs", "111m999pEEE123s55s", MCR, ctx=ctx) == 2
