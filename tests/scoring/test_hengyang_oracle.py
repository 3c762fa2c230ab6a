"""The hengyang brute-force arranger (tests/scoring/hengyang_oracle.py) on the worked examples
and on edge cases of the rules, its speed and invariants on random requests, and the hengyang
case files checked against it (胡息 and groups from the oracle; 囤, 番, score and money from
the scoring formulas written out here)."""

from __future__ import annotations

import random
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from app.rules.load_files import load_yaml
from tests.scoring.hengyang_oracle import (
    CODES,
    WIN_TYPES,
    arrangements,
    best_arrangement,
    best_arrangements,
    canonical,
    group_huxi,
    parse_compact,
    parse_whole_hand,
    random_request,
    rank,
    request_args,
    valid_table_group,
)

CASES = Path(__file__).resolve().parents[1] / "cases" / "hengyang"

# The worked examples: whole-hand string, win type, 胡息 and the arrangement, all from the rules.
EXAMPLES: list[tuple[str, str, str, int, list[str]]] = [
    ("E1", "123d2710x45x888x99x9d6x", "discard", 12,
     ["kan 888x", "shun 123d", "shun 2710x", "shun 456x", "jiao 9x9x9d"]),
    ("E2", "88d101010d345x2710x66d6x8d", "discard", 12,
     ["kan 101010d", "shun 2710x", "shun 345x", "jiao 6x6d6d", "peng 888d"]),
    ("E3", "55x123x2710d456d99d9x5x", "self_draw", 12,
     ["wei 555x", "shun 123x", "shun 2710d", "shun 456d", "jiao 9x9d9d"]),
    ("E4", "[444d][123x]567x789d33d4d", "flip", 12,
     ["pao 4444d", "chi 123x", "shun 567x", "shun 789d", "pair 33d"]),
    ("E5", "{10101010d}[2710x]78x123d55x9x", "self_draw", 21,
     ["ti 10101010d", "chi 2710x", "shun 123d", "shun 789x", "pair 55x"]),
    ("E6", "{777d}[222x]2710d789x10x10d10x", "discard", 13,
     ["wei 777d", "peng 222x", "shun 2710d", "shun 789x", "jiao 10x10x10d"]),
    ("E7", "[9999x]{555d}123x456x8d8d", "flip", 15,
     ["pao 9999x", "wei 555d", "shun 123x", "shun 456x", "pair 88d"]),
    ("E8", "111d345d456x88x99x9d8x", "self_draw", 9,
     ["wei 888x", "kan 111d", "shun 345d", "shun 456x", "jiao 9x9x9d"]),
    ("E9", "[555x]2710x345d678d89x10x", "discard", 4,
     ["peng 555x", "shun 2710x", "shun 345d", "shun 678d", "shun 8910x"]),
    ("E10", "13567x112233678d2x", "discard", 15,
     ["shun 123x", "shun 123d", "shun 123d", "shun 567x", "shun 678d"]),
    ("E11", "333x456x77x123d2710d3x", "discard", 18,
     ["pao 3333x", "pair 77x", "shun 456x", "shun 123d", "shun 2710d"]),
    # E12 is E1's hand under other options: the arrangement does not change
    ("E12", "123d2710x45x888x99x9d6x", "discard", 12,
     ["kan 888x", "shun 123d", "shun 2710x", "shun 456x", "jiao 9x9x9d"]),
]


def _best(text: str, win_type: str, **kw: bool) -> tuple[int, list[str]] | None:
    hand, table, w = parse_whole_hand(text)
    got = best_arrangement(hand, table, w, win_type, **kw)
    return None if got is None else (got[0], canonical(got[1]))


@pytest.mark.parametrize(("name", "text", "win_type", "huxi", "groups"), EXAMPLES,
                         ids=[e[0] for e in EXAMPLES])
def test_worked_examples(name: str, text: str, win_type: str, huxi: int,
                         groups: list[str]) -> None:
    hand, table, w = parse_whole_hand(text)
    best = best_arrangements(hand, table, w, win_type)
    assert best is not None, name
    assert best[0] == huxi, name
    assert best[1] == [sorted(groups)], f"{name}: best arrangements {best[1]}"


def test_e10_reading_b_is_an_arrangement_too() -> None:
    hand, table, w = parse_whole_hand("13567x112233678d2x")
    found = {tuple(canonical(g)): h for h, g in arrangements(hand, table, w, "discard")}
    reading_b = tuple(sorted(["jiao 1x1d1d", "jiao 2x2d2d", "jiao 3x3d3d", "shun 567x",
                              "shun 678d"]))
    assert found[reading_b] == 0
    assert max(found.values()) == 15


def test_e11_keeping_the_kan_has_no_arrangement() -> None:
    hand, table, w = parse_whole_hand("333x456x77x123d2710d3x")
    kinds = {tuple(sorted(k for k, _ in g)) for _, g in arrangements(hand, table, w, "discard")}
    assert all("pao" in k for k in kinds) and kinds


def test_a_held_kan_is_locked() -> None:
    # 三三三 + 四五 + 五: 三四五 + 对三 would win beside the table 跑, but the 坎 is locked
    assert _best("[9999d]333x4x123d2710d5x", "discard") is None
    # with only two 三 held the same cards win: 三四五 + 对三
    assert _best("[9999d]33x45x123d2710d3x", "discard") == (
        21, sorted(["pao 9999d", "shun 345x", "pair 33x", "shun 123d", "shun 2710d"]))


def test_a_discard_onto_a_held_kan_may_keep_the_kan() -> None:
    text = "333x45x123d2710d678x3x"
    assert _best(text, "discard") == (
        15, sorted(["kan 333x", "shun 345x", "shun 123d", "shun 2710d", "shun 678x"]))
    assert _best(text, "flip") == _best(text, "discard")
    # a self-drawn 4th must 提, and then 四五 is left over
    assert _best(text, "self_draw") is None


def test_the_pair_rule() -> None:
    # no 4-card group: no pair at all (three pairs and three 3-card groups)
    assert _best("11x44x77d123d456d789x", "discard") is None
    # a table 跑: exactly one pair, not four
    assert _best("[9999x]11x22d33d44x555d", "discard") is None
    # the same cards finished by 四 instead: 碰 四 (1), the pair 一一
    assert _best("[9999x]222d333d11x44x4x", "discard") == (
        6 + 6 + 6 + 1, sorted(["pao 9999x", "pair 11x", "kan 222d", "kan 333d", "peng 444x"]))
    assert _best("[9999x]222d333d444x11x", "discard") == (
        6 + 6 + 6 + 3, sorted(["pao 9999x", "pair 11x", "kan 222d", "kan 333d", "kan 444x"]))


def test_no_pao_onto_a_table_peng_from_a_discard() -> None:
    # E4's cards on a discard: the 肆 cannot join the 碰, and 叁叁肆 is no group
    assert _best("[444d][123x]567x789d33d4d", "discard") is None
    assert _best("[444d][123x]567x789d33d4d", "flip") is not None
    assert _best("[444d][123x]567x789d33d4d", "self_draw") == _best(
        "[444d][123x]567x789d33d4d", "flip")


def test_a_table_wei_takes_a_self_drawn_fourth_as_ti() -> None:
    got = _best("{555d}[123x]456x789x9d9d5d", "self_draw")
    assert got is not None and "ti 5555d" in got[1] and got[0] == 12 + 3 + 0 + 0
    got = _best("{555d}[123x]456x789x9d9d5d", "flip")
    assert got is not None and "pao 5555d" in got[1] and got[0] == 9 + 3


def test_forced_wei() -> None:
    text = "123d2710d34455667x5x"
    assert _best(text, "self_draw") is None
    assert _best(text, "self_draw", forced_wei=False) == (
        12, sorted(["shun 123d", "shun 2710d", "shun 345x", "shun 456x", "shun 567x"]))
    assert _best(text, "flip") == _best(text, "self_draw", forced_wei=False)


def test_a_held_pair_finished_by_another_is_peng_or_free() -> None:
    # E2 on a discard is 碰 (3 for big); self-drawn, the same 捌 is a 偎 (6)
    assert _best("88d101010d345x2710x66d6x8d", "self_draw") == (
        15, sorted(["kan 101010d", "shun 2710x", "shun 345x", "jiao 6x6d6d", "wei 888d"]))


def test_yi_wu_shi_and_mixed_sequences() -> None:
    text = "15d123x2710x456x789d10d"
    assert _best(text, "discard") is None
    got = _best(text, "discard", yi_wu_shi=True)
    assert got is not None and got[0] == 12 and "shun 1510d" in got[1]
    # 一二叁 is never a group: 一 二 叁 with 叁叁 cannot be read as 一二叁 + 绞
    assert _best("1x2x3d3d3x 123d2710d456x789x".replace(" ", ""), "discard") is None


def test_group_values() -> None:
    assert group_huxi(("ti", ("10d",) * 4)) == 12 and group_huxi(("ti", ("1x",) * 4)) == 9
    assert group_huxi(("pao", ("3d",) * 4)) == 9 and group_huxi(("pao", ("3x",) * 4)) == 6
    assert group_huxi(("kan", ("3d",) * 3)) == 6 and group_huxi(("wei", ("3x",) * 3)) == 3
    assert group_huxi(("peng", ("3d",) * 3)) == 3 and group_huxi(("peng", ("3x",) * 3)) == 1
    assert group_huxi(("chi", ("2d", "7d", "10d"))) == 6
    assert group_huxi(("shun", ("1x", "2x", "3x"))) == 3
    assert group_huxi(("shun", ("4x", "5x", "6x"))) == 0
    assert group_huxi(("jiao", ("2x", "2x", "2d"))) == 0


def test_compact_notation() -> None:
    assert parse_compact("110x") == ["1x", "10x"]
    assert parse_compact("1110x") == ["1x", "1x", "10x"]
    assert parse_compact("1010x") == ["10x", "10x"]
    assert parse_compact("9x9d9d") == ["9x", "9d", "9d"]
    with pytest.raises(ValueError):
        parse_compact("100x")


def _check_request(req: dict[str, Any]) -> None:
    hand, table, w, _ = request_args(req)
    assert w in hand and hand[-1] == w
    assert all(valid_table_group(k, cs) for k, cs in table)
    fours = sum(1 for _, cs in table if len(cs) == 4)
    assert len(hand) + sum(len(cs) for _, cs in table) == 15 + max(0, fours - 1)
    every = Counter(hand) + Counter(c for _, cs in table for c in cs)
    assert set(every) <= set(CODES) and max(every.values()) <= 4
    held = Counter(hand)
    held[w] -= 1
    assert max(held.values()) <= 3
    ctx = req["context"]
    assert ctx["winner"] not in (ctx["discarder"], ctx["flipper"])


def test_random_requests_speed_and_invariants() -> None:
    rng = random.Random(20240614)
    n, wins = 3000, 0
    spent = 0.0
    for i in range(n):
        win_type = WIN_TYPES[i % 3]
        req = random_request(rng, win_type)
        _check_request(req)
        hand, table, w, wt = request_args(req)
        start = time.perf_counter()
        got = best_arrangement(hand, table, w, wt)
        spent += time.perf_counter() - start
        if got is None:
            continue
        wins += 1
        huxi, groups = got
        assert huxi == sum(group_huxi(g) for g in groups)
        used = Counter(c for _, cs in groups for c in cs)
        assert used == Counter(hand) + Counter(c for _, cs in table for c in cs)
        assert sum(k == "pair" for k, _ in groups) == int(
            any(k in ("ti", "pao") for k, _ in groups))
    assert 0.3 * n < wins < 0.7 * n, wins
    assert spent < 60, f"{spent:.1f} s for {n} hands"


# --- the case files -------------------------------------------------------------------------

DEFAULTS: dict[str, Any] = {
    "players": 4, "deal": 15, "min_huxi": 6, "tun_mode": "three_per_tun", "di_fen": 1,
    "red_black": "xy", "self_draw_double": True, "discard_pays": "all_shares", "xing": "none",
    "tian_di_hu": False, "hai_di": False, "yi_wu_shi": False, "forced_wei": True,
}
RED_TIMES = {"xy": {"xiao_hong": 2, "da_hong": 4, "yi_dian_hong": 3, "quan_hei": 5},
             "hzy": {"xiao_hong": 3, "da_hong": 5, "yi_dian_hong": 4, "quan_hei": 5}}


def _case_request(case: dict[str, Any]) -> tuple[list[str], list[tuple[str, list[str]]], str]:
    h = case["hand"]
    if isinstance(h, str):
        return parse_whole_hand(h)
    cards = h["cards"]
    hand = parse_compact(cards) if isinstance(cards, str) else list(cards)
    table = [(g["kind"], parse_compact(g["cards"])) for g in h.get("groups", [])]
    return hand, table, h["win_card"]


def _hzy_dun(huxi: int) -> int:
    return ((15 if huxi == 10 else huxi) - 6) // 3


def _red_fan(red: int) -> str | None:
    if red >= 10:
        return "da_hong"
    if red >= 8:
        return "xiao_hong"
    if red == 1:
        return "yi_dian_hong"
    if red == 0:
        return "quan_hei"
    return None


def _money(case: dict[str, Any], huxi: int, cards: list[str], w: str) -> dict[str, Any]:
    """囤, 名堂, score and net of a winning case, from the scoring rules."""
    ctx = case["context"]
    opt = {**DEFAULTS, **ctx.get("options", {})}
    red = sum(1 for c in cards if rank(c) in (2, 7, 10))
    xing_card = {"none": None, "follow": w, "flip": ctx.get("xing_card")}[opt["xing"]]
    xing = cards.count(xing_card) if xing_card else 0
    fans: dict[str, int] = {}
    times = 1
    red_fan = _red_fan(red)
    if opt["tun_mode"] == "one_per_huxi":
        tun = huxi + xing
        if red_fan in ("da_hong", "yi_dian_hong", "quan_hei"):
            fans[red_fan] = 1
            times *= 2
    else:
        if opt["tun_mode"] == "hzy":
            over = red - 10 if red >= 10 else red - 8 if red >= 8 else 0
            tun = _hzy_dun(huxi) + cards.count(w) + over + xing
        else:
            tun = opt["di_fen"] + (huxi - 6) // 3 + xing
        if red_fan is not None and opt["red_black"] != "off":
            fans[red_fan] = 1
            times *= RED_TIMES[opt["red_black"]][red_fan]
    winner, dealer = ctx.get("winner", 0), ctx.get("dealer", 0)
    if ctx["win_type"] == "self_draw" and opt["self_draw_double"]:
        fans["zi_mo"] = 1
        times *= 2
    if opt["tian_di_hu"] and ctx.get("first_turn"):
        if winner == dealer and ctx["win_type"] == "self_draw":
            fans["tian_hu"] = 1
            times *= 2
        elif winner != dealer:
            fans["di_hu"] = 1
            times *= 2
    if opt["hai_di"] and ctx.get("last_card"):
        fans["hai_di"] = 1
        times *= 2
    score = tun * times
    net = [0] * opt["players"]
    if ctx["win_type"] == "discard":
        shares = 3 if opt["discard_pays"] == "three" else opt["players"] - 1
        net[ctx["discarder"]] -= shares * score
        net[winner] += shares * score
    else:
        for seat in range(opt["players"]):
            if seat != winner:
                net[seat] -= score
                net[winner] += score
    return {"tun": tun, "red_cards": red, "fans": fans, "multiplier": times, "score": score,
            "net": net}


def _scoring_cases() -> list[Any]:
    out = []
    for path in sorted(CASES.glob("*.yaml")):
        for i, case in enumerate(load_yaml(path.read_text(encoding="utf-8"))["cases"]):
            if "error" not in case["expect"]:
                out.append(pytest.param(case, id=f"{path.stem}/{i}"))
    return out


@pytest.mark.parametrize("case", _scoring_cases())
def test_case_files_agree_with_oracle(case: dict[str, Any]) -> None:
    exp = case["expect"]
    opt = {**DEFAULTS, **case["context"].get("options", {})}
    hand, table, w = _case_request(case)
    found: dict[int, set[tuple[str, ...]]] = {}
    for huxi, groups in arrangements(hand, table, w, case["context"]["win_type"],
                                     opt["yi_wu_shi"], opt["forced_wei"]):
        found.setdefault(huxi, set()).add(tuple(canonical(groups)))
    name = case["name"]
    if not found:
        assert exp["winning"] is False and exp["reason"] == "no_shape", name
        return
    # the arrangement counted: the highest 胡息; by score first (then 胡息) in the hzy mode,
    # where the score rises with hzy's 敦 and everything else does not depend on it
    key = (lambda x: (_hzy_dun(x), x)) if opt["tun_mode"] == "hzy" else (lambda x: x)
    huxi = max(found, key=key)
    assert exp.get("huxi", huxi) == huxi, f"{name}: the oracle gives {huxi} 息"
    if huxi < opt["min_huxi"]:
        assert exp["winning"] is False and exp["reason"] == "below_min_huxi", name
        return
    assert exp["winning"] is True, name
    if "groups" in exp:
        best = sorted(found[huxi])
        want = tuple(sorted(exp["groups"]))
        if len(best) == 1:
            assert want == best[0], f"{name}: the oracle gives {best[0]}"
        else:
            assert want in best, f"{name}: not one of the best {best}"
    cards = hand + [c for _, cs in table for c in cs]
    money = _money(case, huxi, cards, w)
    for k, v in money.items():
        if k in exp:
            assert exp[k] == v, f"{name}: {k} should be {v}"
    assert sum(exp["net"]) == 0, name


ERROR_CODES = {"unknown_card", "too_many_copies", "illegal_group", "win_card_missing",
               "undeclared_four", "wrong_card_count", "seat_out_of_range",
               "inconsistent_context", "unknown_option", "invalid_notation",
               "invalid_request"}  # a field the request schema refuses


def test_error_cases_use_known_codes_and_cover_them_all() -> None:
    data = load_yaml((CASES / "errors.yaml").read_text(encoding="utf-8"))
    codes = [c["expect"]["error"] for c in data["cases"]]
    assert set(codes) == ERROR_CODES
    assert all(set(c["expect"]) == {"error"} for c in data["cases"])
