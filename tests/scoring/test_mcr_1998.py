"""mcr-1998 against mcr on random legal hands: every difference is one of the 1998 rules.

Each hand (`tests.mcr_reference.generator`) is scored under both rule sets, and every reading
of it as well (the engine's own steps: facts, readings, the fans of each reading). The test
holds that

- every reading's 1998 fans are its mcr fans as the rules below change them, one small function
  per rule (D1 no 明暗杠, D2 七对 without set-based fans, D3 缺一门 under six fans, D4 清幺九
  without 三同刻, D5 四暗刻 with 不求人, D6 九莲宝灯 with its regular reading, D7 一色四同顺
  without 平和); a 九莲宝灯 hand's 1998 readings are explained from mcr's reading of the same
  tiles as sets and a pair (mcr read without its nine-gates shape), since mcr reads it as a
  shape of its own with fixed extras;
- each rule set's answer is its best reading (so where a rule makes another reading of the
  same tiles the best, as a seven-pairs hand losing 全大, the 1998 answer is that reading);
- a hand no rule touches scores the same under both, and the 1998 names of the wait fans
  (D8) are the ones shown;

and counts, for each rule, the hands whose answer it changed (printed with -s).
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from app.domain.hand import Hand, WinContext
from app.domain.shapes import SEVEN_PAIRS, decompose
from app.rules.load_files import load_yaml
from app.rules.model import RuleSet
from app.rules.tile_loader import build_ruleset
from app.rules.view import HandFacts, View
from app.scoring.evaluate import score
from app.scoring.fans import tally
from app.scoring.result import ScoreResult
from tests.loaded import repo_rulesets
from tests.mcr_reference.generator import context_summary, format_hand, random_hands

ROOT = Path(__file__).resolve().parents[2]
RULESETS = repo_rulesets()
MCR, M98 = RULESETS["mcr"], RULESETS["mcr-1998"]
N_HANDS = int(os.environ.get("MCR_1998_HANDS", "10000"))
SEED = int(os.environ.get("MCR_1998_SEED", "1998"))
NINE_GATES_SHAPE = "nine_gates"


def _mcr_without_nine_gates() -> RuleSet:
    """mcr reading 1112345678999 + X as sets and a pair, as any other hand."""
    data = load_yaml((ROOT / "rulesets" / "mcr.yaml").read_text(encoding="utf-8"))
    del data["shapes"][NINE_GATES_SHAPE]
    data["fans"] = [f for f in data["fans"] if f["id"] != "nine_gates"]
    return build_ruleset(data, "mcr.yaml")


MCR_REGULAR = _mcr_without_nine_gates()

Key = tuple[str, tuple[Any, ...]]  # a reading: its shape and its groups


def readings(hand: Hand, ctx: WinContext, rs: RuleSet) -> dict[Key, Counter[str]]:
    """The fans (ids, counts; flowers aside) of every reading the rule set compares."""
    plan = rs.plan
    facts = HandFacts(hand, ctx, rs.tileset, plan.shape_names)
    found = decompose(hand, plan.shape_names, rs.tileset, facts.standing,
                      facts.declared().groups)
    if any(r.shape in plan.finals for r in found):
        found = [r for r in found if r.shape in plan.finals]
    out: dict[Key, Counter[str]] = {}
    for r in found:
        t = tally(View(r, facts, plan.policy), ctx, plan, plan.shapes[r.shape], None, 0,
                  hand.win_tile)
        out[(r.shape, tuple(sorted(r.groups)))] = Counter(
            {plan.fans[p].id: n for p, n in t.counted})
    return out


def total(rs: RuleSet, fans: Counter[str]) -> int:
    return sum(rs.fan_by_id[f].value * n for f, n in fans.items())


def restore(fans: Counter[str], fid: str) -> None:
    """A fan left out only by a fan a rule removed counts again, unless a 1998 fan still
    counted leaves it out."""
    if not any(fid in M98.fan_by_id[f].excludes for f in fans):
        fans[fid] = 1


# ---- the rules: each maps mcr's fans of one reading to what 1998 counts --------------------

Rule = Callable[[Key, Counter[str], Hand, WinContext], Counter[str]]


def d1_no_mixed_kongs(key: Key, fans: Counter[str], hand: Hand, ctx: WinContext) -> Counter[str]:
    """明暗杠 5 -> 暗杠 2 + 明杠 1."""
    if "concealed_kong_and_melded_kong" in fans:
        del fans["concealed_kong_and_melded_kong"]
        fans["concealed_kong"] = fans["melded_kong"] = 1
    return fans


SET_BASED = {"all_green", "all_honors", "all_terminals", "all_terminals_and_honors",
             "upper_tiles", "middle_tiles", "lower_tiles", "upper_four", "lower_four"}
GREEN_DRAGON = 32  # 发, in the standard tile set


def d2_seven_pairs(key: Key, fans: Counter[str], hand: Hand, ctx: WinContext) -> Counter[str]:
    """七对 loses the nine set-based fans; what they alone left out counts again: 断幺 under
    全中, 混一色 under 绿一色 with 发, then 无字 (a numbered hand) and 缺一门 (字一色)."""
    gone = SET_BASED & set(fans)
    if key[0] != SEVEN_PAIRS or not gone:
        return fans
    for f in gone:
        del fans[f]
    if "middle_tiles" in gone:
        restore(fans, "all_simples")
    if "all_green" in gone and GREEN_DRAGON in hand.concealed:
        restore(fans, "half_flush")
    if gone & {"upper_tiles", "lower_tiles", "upper_four", "lower_four", "all_terminals"}:
        restore(fans, "no_honors")
    if "all_honors" in gone:
        restore(fans, "one_voided_suit")
    return fans


VOID_LEAVERS = {"big_three_dragons", "little_three_dragons", "big_three_winds",
                "quadruple_chow", "four_pure_shifted_pungs", "four_pure_shifted_chows"}


def d3_voided_suit(key: Key, fans: Counter[str], hand: Hand, ctx: WinContext) -> Counter[str]:
    """No 缺一门 beside 大三元, 小三元, 三风刻, 一色四同顺, 一色四节高, 一色四步高."""
    if "one_voided_suit" in fans and VOID_LEAVERS & set(fans):
        del fans["one_voided_suit"]
    return fans


def d4_terminals(key: Key, fans: Counter[str], hand: Hand, ctx: WinContext) -> Counter[str]:
    """No 三同刻 beside 清幺九."""
    if "all_terminals" in fans and "triple_pung" in fans:
        del fans["triple_pung"]
    return fans


def d5_concealed_pungs(key: Key, fans: Counter[str], hand: Hand,
                       ctx: WinContext) -> Counter[str]:
    """A self-drawn 四暗刻 scores 不求人 4 (which leaves out 自摸) where mcr gives 自摸 1."""
    if "four_concealed_pungs" in fans and ctx.self_drawn:
        fans.pop("self_drawn", None)
        fans["fully_concealed"] = 1
    return fans


NINE_GATES_LEAVES = ("full_flush", "fully_concealed", "concealed_hand",
                     "pung_of_terminals_or_honors", "one_voided_suit", "no_honors")


def d6_nine_gates(key: Key, fans: Counter[str], hand: Hand, ctx: WinContext) -> Counter[str]:
    """九莲宝灯 (the fans given are mcr's of the regular reading): 88 beside them, less
    清一色, 不求人, 门前清, 幺九刻, 缺一门, 无字; with 不求人 gone a self-draw is 自摸."""
    if not is_nine_gates(hand):
        return fans
    dropped = [f for f in NINE_GATES_LEAVES if f in fans]
    for f in dropped:
        del fans[f]
    fans["nine_gates"] = 1
    if "fully_concealed" in dropped:
        restore(fans, "self_drawn")
    return fans


def d7_quadruple_chow(key: Key, fans: Counter[str], hand: Hand,
                      ctx: WinContext) -> Counter[str]:
    """No 平和 beside 一色四同顺; 平和 left out 无字, which may count again."""
    if "quadruple_chow" in fans and "all_chows" in fans:
        del fans["all_chows"]
        restore(fans, "no_honors")
    return fans


RULES: dict[str, Rule] = {"D1": d1_no_mixed_kongs, "D2": d2_seven_pairs,
                          "D3": d3_voided_suit, "D4": d4_terminals, "D5": d5_concealed_pungs,
                          "D6": d6_nine_gates, "D7": d7_quadruple_chow}
WAIT_FANS = ("edge_wait", "closed_wait", "single_wait")


def is_nine_gates(hand: Hand) -> bool:
    """1112345678999 of one suit standing before the win, nothing declared (written out
    here, apart from the check)."""
    if hand.melds:
        return False
    before = Counter(hand.concealed)
    before[hand.win_tile] -= 1
    suit = hand.win_tile // 9 * 9
    return hand.win_tile < 27 and all(
        before[suit + r] == n for r, n in enumerate((3, 1, 1, 1, 1, 1, 1, 1, 3)))


def explain(key: Key, fans: Counter[str], hand: Hand,
            ctx: WinContext) -> tuple[Counter[str], set[str]]:
    """What 1998 counts for a reading mcr counts `fans` for, and the rules that changed it."""
    applied = set()
    out = Counter(fans)
    for name, rule in RULES.items():
        before = Counter(out)
        out = rule(key, out, hand, ctx)
        if out != before:
            applied.add(name)
    return out, applied


def ids(result: ScoreResult) -> Counter[str]:
    return Counter({f.id: f.count for f in result.fans if f.id != "flower_tiles"})


def check_hand(hand: Hand, ctx: WinContext, counts: Counter[str]) -> None:
    """Every assertion of the module on one hand; `counts` collects the rules that changed
    its answer."""
    label = f"{format_hand(hand)} ({context_summary(ctx)})"
    nine = is_nine_gates(hand)
    theirs = readings(hand, ctx, MCR_REGULAR if nine else MCR)
    ours = readings(hand, ctx, M98)
    assert set(ours) == set(theirs), label
    expected: dict[Key, Counter[str]] = {}
    applied: dict[Key, set[str]] = {}
    for key, fans in theirs.items():
        expected[key], applied[key] = explain(key, fans, hand, ctx)
        assert ours[key] == expected[key], f"{label} {key[0]}: 1998 {dict(ours[key])}, " \
            f"explained {dict(expected[key])} from mcr {dict(fans)}"
    got, was = score(hand, ctx, M98), score(hand, ctx, MCR)
    flowers = ctx.flowers
    best = max(total(M98, f) for f in expected.values())
    assert got.fan_total == best + flowers, label
    chosen = [k for k, f in expected.items() if f == ids(got) and total(M98, f) == best]
    assert chosen, f"{label}: 1998 chose {dict(ids(got))}, not a best reading"
    # mcr's own answer is its best reading too (these readings are the engine's).
    mcr_all = readings(hand, ctx, MCR) if nine else theirs
    assert was.fan_total == max(total(MCR, f) for f in mcr_all.values()) + flowers, label
    names = {f.id: f.name for f in got.fans}
    for fid in WAIT_FANS:
        if fid in names:
            assert names[fid] == M98.fan_by_id[fid].name != MCR.fan_by_id[fid].name
            counts["D8"] += 1
            break
    if ids(got) == ids(was) and got.fan_total == was.fan_total:
        return
    # The answer changed: by the rules that changed the reading 1998 chose, or the one mcr
    # chose (a rule making mcr's best reading worth less lets another one win).
    changed = set().union(*(applied[k] for k in chosen))
    mcr_key = next((k for k, f in theirs.items() if f == ids(was)), None)
    if mcr_key is not None:
        changed |= applied[mcr_key]
    if nine:
        changed.add("D6")  # mcr's fixed extras by the winning rank are replaced
    assert changed, f"{label}: mcr {dict(ids(was))} {was.fan_total}, 1998 " \
        f"{dict(ids(got))} {got.fan_total}, and no rule explains it"
    if not nine and mcr_key is not None and mcr_key not in chosen:
        counts["reading changed"] += 1
    for name in changed:
        counts[name] += 1


# Hands the random generator seldom or never makes, for each rule at least one (the cases
# of tests/cases/mcr-1998 show them with their totals).
TARGETED = [
    ("{CCCC}[7777m]123m456m9m9m", {"win_type": "discard", "discarder": 1}),
    ("778899m778899p9s9s", {"win_type": "self_draw"}),
    ("EESSWWNNCCFFPP", {"win_type": "discard", "discarder": 1}),
    ("[CCC][FFF]PPP123m5p5p", {"win_type": "discard", "discarder": 1}),
    ("[111m][111p][111s]99s99p9p", {"win_type": "discard", "discarder": 3}),
    ("111m333p555s777m9p9p", {"win_type": "self_draw"}),
    ("1112345678999m5m", {"win_type": "discard", "discarder": 1}),
    ("[123s][123s]123123s6p6p", {"win_type": "discard", "discarder": 1}),
    ("111122223333m5p5p", {"win_type": "self_draw"}),
]


def test_every_difference_is_a_1998_rule() -> None:
    from app.service.tiles.requests import build

    counts: Counter[str] = Counter()
    cases = random_hands(N_HANDS, SEED)
    for case in cases:
        check_hand(case.hand, case.ctx, counts)
    random_counts = Counter(counts)
    for text, context in TARGETED:
        hand, ctx = build(text, context, M98)
        check_hand(hand, ctx, counts)
    print(f"\n{len(cases)} random hands (seed {SEED}), then {len(TARGETED)} targeted: "
          f"hands whose answer each rule changed: random {dict(sorted(random_counts.items()))},"
          f" with the targeted {dict(sorted(counts.items()))}")
    for name in (*RULES, "D8"):
        assert counts[name] > 0, f"{name} never changed an answer"
    if N_HANDS >= 10000:
        # Those the generator makes often enough to be seen among 10,000 random hands.
        for name in ("D1", "D2", "D3", "D4", "D5", "D6", "D7", "D8"):
            assert random_counts[name] > 0, f"{name}: not seen among the random hands"
