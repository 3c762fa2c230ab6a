"""The pricing of counted fans that a request's scorings share (`evaluate._pricing`): one per
options object, never changing an answer."""

from __future__ import annotations

import random

from app.domain.hand import Hand, WinContext
from app.rules.model import RuleSet
from app.scoring import evaluate
from app.scoring.evaluate import score
from tests.loaded import repo_rulesets

RULESETS = repo_rulesets()


def _wild_hands(rs: RuleSet, n: int, seed: int) -> list[tuple[Hand, WinContext]]:
    """Random winning tianjin hands holding three wilds (indicator 1m: 1m and 2m wild): three
    sets of natural tiles, and two single naturals that the wilds make a set and the pair."""
    rng = random.Random(seed)
    naturals = [t for t in range(34) if t not in (0, 1)]
    out = []
    while len(out) < n:
        tiles: list[int] = []
        for _ in range(3):
            t = rng.choice(naturals)
            chow = t < 27 and t % 9 < 7 and rng.random() < 0.5
            tiles += [t, t + 1, t + 2] if chow else [t] * 3
        tiles += [rng.choice(naturals), rng.choice(naturals), 0, 1, 1]
        if any(tiles.count(t) > 3 for t in tiles) or 0 in tiles[:9] or 1 in tiles[:9]:
            continue
        rng.shuffle(tiles)
        out.append((Hand(tuple(tiles), (), tiles[-1]),
                    WinContext("self_draw", wild_indicator=0, wilds=(0, 1),
                               options=rs.option_defaults)))
    return out


def test_one_pricing_per_options_object() -> None:
    rs = RULESETS["tianjin"]
    evaluate._PRICINGS.clear()
    hands = _wild_hands(rs, 30, 3)
    for hand, ctx in hands:
        score(hand, ctx, rs)
    # Every hand was scored under the rule set's default options: one pricing, its worths
    # and best choices shared.
    assert len(evaluate._PRICINGS) == 1
    (pricing,) = evaluate._PRICINGS.values()
    assert pricing.options is rs.option_defaults and pricing.plan is rs.plan
    assert pricing.worths and pricing.choices
    # Options of other values (another table, another base) price apart.
    other = {**rs.option_defaults, "table": "tjmj", "base": 3}
    hand, ctx = hands[0]
    priced = score(hand, ctx._replace(options=other), rs)
    assert len(evaluate._PRICINGS) == 2
    assert evaluate._PRICINGS[id(other)].params["base"] == 3
    assert priced.value == 3 * (priced.multiplier or 0)


def test_shared_pricing_changes_no_answer() -> None:
    rs = RULESETS["tianjin"]
    hands = _wild_hands(rs, 60, 11)
    for table in ("default", "tjmj"):
        options = {**rs.option_defaults, "table": table}
        shared = [score(h, c._replace(options=options), rs) for h, c in hands]
        alone = []
        for h, c in hands:
            evaluate._PRICINGS.clear()  # each hand priced from scratch
            alone.append(score(h, c._replace(options=options), rs))
        assert shared == alone
        assert all(r.winning and r.value for r in shared)


def test_pricings_are_bounded() -> None:
    rs = RULESETS["tianjin"]
    evaluate._PRICINGS.clear()
    hand, ctx = _wild_hands(rs, 1, 5)[0]
    for base in range(1, 3 * evaluate.PRICINGS_LIMIT):
        score(hand, ctx._replace(options={**rs.option_defaults, "base": base}), rs)
        assert len(evaluate._PRICINGS) <= evaluate.PRICINGS_LIMIT


def test_options_changed_in_place_price_anew() -> None:
    # A caller of the engine may change its options between two scorings: the second is
    # priced under the values it holds then.
    rs = RULESETS["tianjin"]
    evaluate._PRICINGS.clear()
    hand, ctx = _wild_hands(rs, 1, 7)[0]
    options = dict(rs.option_defaults)
    first = score(hand, ctx._replace(options=options), rs)
    options["base"] = 5
    second = score(hand, ctx._replace(options=options), rs)
    assert first.value is not None and second.value == 5 * first.value
    # A per-seat option's list changed in place too (坐庄 off, then each player's 拉庄).
    pulls = [0] * rs.players
    options["pulls"] = pulls
    before = score(hand, ctx._replace(options=options), rs)
    pricing = evaluate._PRICINGS[id(options)]
    pulls[1] = 1
    after = score(hand, ctx._replace(options=options), rs)
    assert evaluate._PRICINGS[id(options)] is not pricing
    assert before.value == after.value  # pulls move money between seats, not the value
