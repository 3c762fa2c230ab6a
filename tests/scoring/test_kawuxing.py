"""kawuxing (卡五星, three players) on random hands: waits against brute force over the 84-tile
set, and the money of every hand against the rules' money written out here on its own.

Random winning hands are built from sets of the 84-tile set (chows of 筒 or 条, pungs and
kongs of any kind, some declared; or seven pairs, fours included), with the 5s and dragons
drawn more often so that 卡五星, 三元 and 四归一 come up; contexts and options are drawn at
random (a context the service refuses is skipped, as a 422 would be).
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from app.domain.errors import HandError
from app.rules.model import RuleSet
from app.scoring.evaluate import score
from app.scoring.waits import waits
from app.service.tiles.requests import build, build_waiting
from tests.loaded import repo_rulesets
from tests.scoring.test_waits import brute_force

ROOT = Path(__file__).resolve().parents[2]
KWX: RuleSet = repo_rulesets()["kawuxing"]
TS = KWX.tileset
PLAYERS = 3
KINDS = list(TS.playing)
# Kinds drawn more often: the 5s (卡五星) and the dragons (三元).
FAVOURED = [t for t in KINDS if TS.kinds[t].rank == 5 and TS.kinds[t].is_number] + [
    t for t in KINDS if TS.kinds[t].is_dragon]
CHOWS = sorted(TS.chow_starts)


def _kind(rng: random.Random) -> int:
    return rng.choice(FAVOURED) if rng.random() < 0.3 else rng.choice(KINDS)


def _code(t: int) -> str:
    return TS.code(t)


def random_hand(rng: random.Random) -> tuple[list[int], list[tuple[str, int, bool]], int]:
    """A winning hand: standing tiles (the winning tile among them), declared melds as
    (kind, tile, concealed), and the winning tile."""
    while True:
        counts = [0] * TS.size
        standing: list[int] = []
        melds: list[tuple[str, int, bool]] = []
        if rng.random() < 0.2:
            for _ in range(7):
                t = _kind(rng)
                counts[t] += 2
                standing += [t, t]
        else:
            declared = rng.choice([0, 0, 0, 1, 2, 3, 4])
            for i in range(4):
                if rng.random() < 0.5 and i >= declared:
                    start = rng.choice(CHOWS)
                    if rng.random() < 0.3:  # a 4-5-6 now and then
                        start = rng.choice([t - 1 for t in FAVOURED if t - 1 in TS.chow_starts])
                    for t in (start, start + 1, start + 2):
                        counts[t] += 1
                        standing.append(t)
                    continue
                t = _kind(rng)
                if i < declared:
                    kind = rng.choice(["pung", "pung", "kong"])
                    concealed = kind == "kong" and rng.random() < 0.4
                    counts[t] += 4 if kind == "kong" else 3
                    melds.append((kind, t, concealed))
                else:
                    counts[t] += 3
                    standing += [t, t, t]
            t = _kind(rng)
            counts[t] += 2
            standing += [t, t]
        if max(counts) <= 4:
            return standing, melds, rng.choice(standing)


def notation(standing: list[int], melds: list[tuple[str, int, bool]], win: int) -> str:
    rest = list(standing)
    rest.remove(win)
    out = ""
    for kind, t, concealed in melds:
        n = 4 if kind == "kong" else 3
        out += ("{%s}" if concealed else "[%s]") % (_code(t) * n)
    return out + "".join(_code(t) for t in sorted(rest)) + _code(win)


def random_options(rng: random.Random) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for o in KWX.options:
        if rng.random() < 0.5:
            continue
        if o.type == "bool":
            out[o.name] = rng.random() < 0.5
        elif o.type == "enum":
            out[o.name] = rng.choice(o.choices)
        elif o.type == "int":
            out[o.name] = rng.choice([1, 2, 5])
        else:
            out[o.name] = [int(rng.random() < 0.4) for _ in range(PLAYERS)]
    return out


def random_context(rng: random.Random) -> dict[str, Any]:
    winner = rng.randrange(PLAYERS)
    ctx: dict[str, Any] = {"winner": winner, "dealer": rng.randrange(PLAYERS),
                           "options": random_options(rng)}
    if rng.random() < 0.5:
        ctx["win_type"] = "self_draw"
        ctx["kong"] = rng.choice([None, None, None, "replacement"])
    else:
        ctx["win_type"] = "discard"
        ctx["discarder"] = rng.choice([s for s in range(PLAYERS) if s != winner])
        ctx["kong"] = rng.choice([None, None, None, "after_kong_discard", "robbed"])
    ctx["last_tile"] = rng.random() < 0.15
    return ctx


def expected_net(fan_total: int, ctx: dict[str, Any]) -> list[int]:
    """The money of one hand as the rules state it, written out apart from the scheme."""
    opts = {**KWX.option_defaults, **ctx["options"]}
    base, cap, revealed = opts["base"], opts["cap"], opts["revealed"]

    def share(factor: int = 1) -> int:
        m = 2 ** fan_total * factor
        return int(base * (m if cap == "none" else min(m, cap)))

    winner = ctx["winner"]
    net = [0] * PLAYERS

    def pays(seat: int, amount: int) -> None:
        net[seat] -= amount
        net[winner] += amount

    def factor(seat: int) -> int:
        doubled = opts["revealed_payer"] == "double" and revealed[seat] and not revealed[winner]
        return 2 if doubled else 1

    if ctx["win_type"] == "self_draw":
        for seat in range(PLAYERS):
            if seat != winner:
                pays(seat, share(factor(seat)))
    else:
        d = ctx["discarder"]
        if revealed[winner] and (opts["baohu_when_both_revealed"] or not revealed[d]):
            pays(d, 2 * share())  # 包胡: two shares, the third player nothing
        else:
            pays(d, share(factor(d)))
    return net


def test_money_and_seats_of_random_hands_and_options() -> None:
    """Thousands of random hands under random contexts and options: every net has three
    entries summing to zero, every seat named is 0-2, value and multiplier are one share,
    and the money is the rules' money."""
    rng = random.Random(84)
    scored = won = refused = 0
    patterns: set[str] = set()
    for _ in range(6000):
        standing, melds, win = random_hand(rng)
        ctx = random_context(rng)
        try:
            hand, context = build(notation(standing, melds, win), ctx, KWX)
        except HandError:
            refused += 1
            continue
        r = score(hand, context, KWX)
        scored += 1
        assert r.fan_total == sum(f.value * f.count for f in r.fans)
        if not r.winning:
            assert r.payments is None
            continue
        won += 1
        patterns.update(f.id for f in r.fans)
        opts = context.options
        assert ("liang_dao" in {f.id for f in r.fans}) == bool(opts["revealed"][ctx["winner"]])
        p = r.payments
        assert p is not None
        assert len(p.net) == PLAYERS and sum(p.net) == 0
        for t in p.transfers:
            assert 0 <= t.payer < PLAYERS and 0 <= t.payee < PLAYERS and t.payer != t.payee
        cap = opts["cap"]
        multiplier = 2 ** r.fan_total if cap == "none" else min(2 ** r.fan_total, cap)
        assert (r.value, r.multiplier) == (opts["base"] * multiplier, multiplier)
        assert list(p.net) == expected_net(r.fan_total, ctx), (notation(standing, melds, win),
                                                              ctx, r.fans)
    assert scored > 4500 and won > 4000, (scored, won, refused)
    # The random hands reach every fan (each ×4 and 四归一 variant at least once).
    assert patterns == {f.id for f in KWX.fans}, sorted({f.id for f in KWX.fans} - patterns)


def test_waits_equal_brute_force_over_the_84_tiles() -> None:
    """A winning hand less one standing tile (sometimes with a tile swapped for another):
    waits() lists exactly the tiles of the 84-tile set that complete it, each scored as
    `score` scores the completed hand."""
    rng = random.Random(21)
    checked = ready = 0
    for _ in range(1500):
        standing, melds, _ = random_hand(rng)
        short = list(standing)
        short.remove(rng.choice(short))
        if rng.random() < 0.3:
            short[rng.randrange(len(short))] = rng.choice(KINDS)
        ctx = random_context(rng)
        ctx["kong"] = None
        text = "".join(("{%s}" if c else "[%s]") % (_code(t) * (4 if k == "kong" else 3))
                       for k, t, c in melds) + "".join(_code(t) for t in sorted(short))
        try:
            tiles, declared, context = build_waiting(text, ctx, KWX)
        except HandError:
            continue
        result = waits(tiles, declared, context, KWX)
        expected = brute_force(tiles, declared, context, KWX)
        assert [(w.tile, w.fan_total, w.winning) for w in result.waits] == [
            (w.tile, w.fan_total, w.winning) for w in expected], text
        checked += 1
        ready += bool(result.waits)
    assert checked > 1200 and ready > 800, (checked, ready)


def test_every_wait_is_a_tile_of_the_84() -> None:
    codes = {TS.code(t) for t in TS.playing}
    assert len(codes) == 21 and sum(TS.copies[t] for t in TS.playing) == 84
    r = waits(*build_waiting("1112345678999p", {"win_type": "self_draw"}, KWX), KWX)
    assert {w.tile for w in r.waits} <= codes

