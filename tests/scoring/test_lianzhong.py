"""lianzhong against its parent: on random legal 国标 hands (no first turn, no 天听), a hand
without any of lianzhong's extra fans scores exactly as under mcr (fans, total, money), and a
hand with some differs exactly by them and by what they leave out."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from app.domain.hand import Hand, WinContext
from app.domain.shapes import decompose
from app.rules.model import RuleSet
from app.rules.view import HandFacts, View
from app.scoring.evaluate import score
from app.scoring.fans import tally
from app.service.option_reading import build_options
from tests.loaded import repo_rulesets
from tests.mcr_reference.generator import random_hands

# Random hands without any of lianzhong's extra fans, each scored exactly as under mcr.
PLAIN_HANDS = 10_000

ROOT = Path(__file__).resolve().parents[2]
RULESETS = repo_rulesets()
MCR, LZ = RULESETS["mcr"], RULESETS["lianzhong"]
EXTRA = {f.id for f in LZ.fans} - {f.id for f in MCR.fans}
# The pair fans of chows, which the account-once count leaves out beside a three- or
# four-chow fan (混三步, 混四步) without their being listed as exclusions.
PAIR_CHOW_FANS = {"pure_double_chow", "mixed_double_chow", "short_straight",
                  "two_terminal_chows"}
CHOW_EXTRAS = {"hun_san_bu", "hun_si_bu"}


def left_out_by(extras: set[str]) -> set[str]:
    """What the extra fans leave out: their exclusions, and for the chow fans the pair fans."""
    out: set[str] = set()
    for fid in extras:
        f = LZ.fan_by_id[fid]
        out |= set(f.excludes)
        if f.counts_toward_minimum:
            out.add("chicken_hand")  # 无番和: only with no other fan
        if fid in CHOW_EXTRAS:
            out |= PAIR_CHOW_FANS
    return out


def counts(result: object) -> Counter[str]:
    return Counter({f.id: f.count for f in result.fans})  # type: ignore[attr-defined]


def per_reading(hand: Hand, ctx: WinContext, rs: RuleSet) -> list[Counter[str]]:
    """The fans each reading of the hand counts under `rs` (every reading, in the engine's
    order; flowers aside), from the engine's own tally."""
    plan = rs.plan
    facts = HandFacts(hand, ctx, rs.tileset, plan.shape_names)
    readings = decompose(hand, plan.shape_names, rs.tileset)
    if any(r.shape in plan.finals for r in readings):
        readings = [r for r in readings if r.shape in plan.finals]
    disabled = 0
    for bit, option in plan.gates:
        if not ctx.options.get(option, True):
            disabled |= bit
    for bit, conditions in plan.conditions:
        if not all(c.holds(ctx.options) for c in conditions):
            disabled |= bit
    out = []
    for r in readings:
        view = View(r, facts, plan.policy)
        t = tally(view, ctx, plan, plan.shapes[r.shape], None, disabled, hand.win_tile)
        out.append(Counter({plan.fans[p].id: n for p, n in t.counted}))
    return out


def differs_only_by_extras(a: Counter[str], b: Counter[str]) -> bool:
    """b (lianzhong) is a (mcr) with extra fans added and only what they leave out removed."""
    gone = left_out_by(set(b) & EXTRA)
    return all(fid in EXTRA or a[fid] == b[fid] or (fid in gone and b[fid] < a[fid])
               for fid in set(a) | set(b))


def test_random_hands_score_as_mcr_but_for_the_extra_fans() -> None:
    seen: Counter[str] = Counter()
    plain = moved = lost_wins = gained_wins = drawn = 0
    # Until 10,000 hands without any extra fan are compared (about two in three have none).
    for case in random_hands(PLAIN_HANDS * 8 // 5, 20261201):
        if plain == PLAIN_HANDS:
            break
        drawn += 1
        ctx = case.ctx
        assert not ctx.first_turn
        lz_ctx = ctx._replace(options=build_options(None, LZ, dealer=ctx.dealer))
        mcr = score(case.hand, ctx, MCR)
        lz = score(case.hand, lz_ctx, LZ)
        a, b = counts(mcr), counts(lz)
        extras = set(b) & EXTRA
        seen.update(extras)
        where = (case.notation, case.context)
        if not extras:
            plain += 1
            assert a == b, where
            assert (lz.fan_total, lz.winning) == (mcr.fan_total, mcr.winning), where
            assert (lz.payments and lz.payments.net) == (mcr.payments and mcr.payments.net), where
            continue
        assert "tian_ting" not in extras and not extras & {"tian_he", "di_he", "ren_he"}, where
        # Reading by reading, a fan of mcr is missing (or fewer) only where an extra fan
        # leaves it out; the best reading may then be another one, never worth less.
        for ra, rb in zip(per_reading(case.hand, ctx, MCR), per_reading(case.hand, lz_ctx, LZ),
                          strict=True):
            assert differs_only_by_extras(ra, rb), (where, ra, rb)
        if lz.decomposition == mcr.decomposition:
            assert differs_only_by_extras(a, b), (where, a, b)
        else:
            moved += 1
        # Every extra fan counts toward the 8-fan minimum (only flowers do not).
        assert all(LZ.fan_by_id[f].counts_toward_minimum for f in extras), where
        if a["chicken_hand"]:
            # 无番和 is a hand with no fan at all: beside an extra fan it is not counted, and
            # the hand scores what its extra fans are worth.
            assert not b["chicken_hand"], (where, a, b)
            lost_wins += not lz.winning
        else:
            # A win under mcr stays one (the extra fans only add, a fan they leave out being
            # worth less than they are); a hand short under mcr may reach the 8 with them.
            assert lz.fan_total >= mcr.fan_total, (where, a, b)
            assert lz.winning or not mcr.winning, (where, a, b)
            gained_wins += lz.winning and not mcr.winning
        if "quan_jia_fu" in extras:
            # Without the display name: the three fans of mcr, for the same total.
            off = lz_ctx._replace(options={**lz_ctx.options, "named_combinations": False})
            again = score(case.hand, off, LZ)
            assert counts(again) == a and again.fan_total == mcr.fan_total, where
    # Most hands have none of the extra fans, and the frequent ones come up.
    assert plain == PLAIN_HANDS, (plain, drawn)
    assert {"hun_san_bu", "hun_san_jie", "er_wu_ba_jiang", "yao_jiu_tou"} <= set(seen), seen
    print(f"\nlianzhong extra fans over {drawn} random hands:", dict(sorted(seen.items())),
          "no extra fan:", plain, "another reading chosen:", moved,
          "a win under mcr only (无番和 given up):", lost_wins,
          "a win under lianzhong only:", gained_wins)
