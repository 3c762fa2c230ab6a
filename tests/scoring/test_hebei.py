"""hebei (河北麻将: legality and a flat stake) on random hands, against the rules written out
here on their own: which hands win, who pays and how much, and that no fan is ever counted.

Random hands are built from the 136 tiles: four sets and a pair (chows standing, pungs and
kongs standing or declared), seven pairs (fours included), thirteen orphans, and any of
them with one tile swapped (mostly no win). Whether a hand wins is decided here by a plain
search of its own (four sets and a pair; seven pairs only with the option `seven_pairs`),
never by the engine's decomposer; the money by the rule: the discarder pays base on a
discard, each other player pays base on a self-draw, doubled between the dealer and another
player with `dealer_double`.
"""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path
from typing import Any

from app.domain.errors import HandError
from app.rules.model import RuleSet
from app.scoring.evaluate import score
from app.scoring.waits import waits
from app.service.tiles.requests import build, build_waiting
from tests.loaded import repo_rulesets

ROOT = Path(__file__).resolve().parents[2]
HEBEI: RuleSet = repo_rulesets()["hebei"]
TS = HEBEI.tileset
PLAYERS = 4
KINDS = list(TS.playing)
CHOWS = sorted(TS.chow_starts)
ORPHANS = [t for t in KINDS if TS.kinds[t].is_honor or TS.kinds[t].rank in (1, 9)]

Melds = list[tuple[str, int, bool]]


def _code(t: int) -> str:
    return TS.code(t)


@cache
def _sets(counts: tuple[int, ...]) -> bool:
    """The counts split wholly into pungs and chows (a chow within one suit)."""
    first = next((t for t, n in enumerate(counts) if n), None)
    if first is None:
        return True
    rest = list(counts)
    if rest[first] >= 3:
        rest[first] -= 3
        if _sets(tuple(rest)):
            return True
        rest[first] += 3
    kind = TS.kinds[first]
    if kind.is_number and kind.rank <= 7 and rest[first + 1] and rest[first + 2]:
        for t in (first, first + 1, first + 2):
            rest[t] -= 1
        return _sets(tuple(rest))
    return False


def wins(standing: list[int], n_melds: int, seven_pairs: bool) -> bool:
    """The rule: four sets and a pair, or (with the option, no meld declared) seven pairs."""
    counts = [0] * TS.size
    for t in standing:
        counts[t] += 1
    for t, n in enumerate(counts):
        if n >= 2:
            counts[t] -= 2
            if _sets(tuple(counts)):
                return True
            counts[t] += 2
    return (seven_pairs and n_melds == 0 and len(standing) == 14
            and all(n % 2 == 0 for n in counts))


def random_hand(rng: random.Random) -> tuple[list[int], Melds]:
    """Fourteen tiles' worth: standing tiles and declared melds (kind, tile, concealed),
    never more than four of a kind."""
    while True:
        counts = [0] * TS.size
        standing: list[int] = []
        melds: Melds = []
        shape = rng.random()
        if shape < 0.25:
            for _ in range(7):
                t = rng.choice(KINDS)
                standing += [t, t]
        elif shape < 0.3:
            standing = [*ORPHANS, rng.choice(ORPHANS)]
        else:
            declared = rng.choice([0, 0, 1, 2, 3, 4])
            for i in range(4):
                if i >= declared and rng.random() < 0.6:
                    start = rng.choice(CHOWS)
                    standing += [start, start + 1, start + 2]
                    continue
                t = rng.choice(KINDS)
                if i < declared:
                    kind = rng.choice(["pung", "pung", "kong"])
                    melds.append((kind, t, kind == "kong" and rng.random() < 0.4))
                    counts[t] += 4 if kind == "kong" else 3
                else:
                    standing += [t, t, t]
            t = rng.choice(KINDS)
            standing += [t, t]
        if rng.random() < 0.2:
            standing[rng.randrange(len(standing))] = rng.choice(KINDS)
        for t in standing:
            counts[t] += 1
        if max(counts) <= 4:
            return standing, melds


def notation(standing: list[int], melds: Melds, win: int | None) -> str:
    """A hand string: melds in brackets ({} concealed), then the standing tiles, the winning
    tile last (none for a hand one tile short)."""
    rest = list(standing)
    if win is not None:
        rest.remove(win)
    out = "".join(("{%s}" if c else "[%s]") % (_code(t) * (4 if k == "kong" else 3))
                  for k, t, c in melds)
    return out + "".join(_code(t) for t in sorted(rest)) + (_code(win) if win is not None
                                                               else "")


def random_context(rng: random.Random) -> dict[str, Any]:
    winner = rng.randrange(PLAYERS)
    options: dict[str, Any] = {}
    if rng.random() < 0.5:
        options["dealer_double"] = rng.random() < 0.5
    if rng.random() < 0.5:
        options["seven_pairs"] = rng.random() < 0.5
    if rng.random() < 0.4:
        options["base"] = rng.choice([1, 2, 5, 100])
    ctx: dict[str, Any] = {"winner": winner, "dealer": rng.randrange(PLAYERS),
                           "options": options}
    if rng.random() < 0.5:
        ctx["win_type"] = "self_draw"
    else:
        ctx["win_type"] = "discard"
        ctx["discarder"] = rng.choice([s for s in range(PLAYERS) if s != winner])
    return ctx


def expected_transfers(ctx: dict[str, Any]) -> list[tuple[int, int]]:
    """(payer, amount) of a win, as the rule says."""
    opts = {**HEBEI.option_defaults, **ctx["options"]}
    winner, dealer = ctx["winner"], ctx["dealer"]

    def amount(payer: int) -> int:
        doubled = opts["dealer_double"] and dealer in (payer, winner)
        return int(opts["base"]) * (2 if doubled else 1)

    payers = ([s for s in range(PLAYERS) if s != winner] if ctx["win_type"] == "self_draw"
              else [ctx["discarder"]])
    return [(s, amount(s)) for s in payers]


def test_random_hands_win_as_the_rule_says_and_pay_a_flat_stake() -> None:
    """Thousands of random hands under random contexts and options: a hand wins exactly when
    the rule's own search says so; no fan is ever counted; a win's nets sum to zero, its
    payers are the discarder alone or every other player, each paying base (doubled between
    the dealer and another player with dealer_double)."""
    rng = random.Random(136)
    scored = won = lost = doubled = sevens = 0
    for _ in range(5000):
        standing, melds = random_hand(rng)
        ctx = random_context(rng)
        win = rng.choice(standing)
        try:
            hand, context = build(notation(standing, melds, win), ctx, HEBEI)
        except HandError:  # a kong and a pung of one kind, say: a 422, not a hand
            continue
        r = score(hand, context, HEBEI)
        scored += 1
        label = (notation(standing, melds, win), ctx)
        assert r.fans == () and r.fan_total == 0, label
        want = wins(standing, len(melds), bool(context.options["seven_pairs"]))
        assert r.winning is want, label
        if not r.winning:
            lost += 1
            assert r.payments is None and r.value is None, label
            assert r.reason is not None and r.reason.code == "no_winning_shape", label
            continue
        won += 1
        sevens += r.decomposition is not None and r.decomposition.shape == "seven_pairs"
        p = r.payments
        assert p is not None
        assert len(p.net) == PLAYERS and sum(p.net) == 0, label
        assert all(t.payee == ctx["winner"] for t in p.transfers), label
        got = sorted((t.payer, t.amount) for t in p.transfers)
        assert got == expected_transfers(ctx), label
        assert p.net[ctx["winner"]] == sum(a for _, a in got), label
        assert (r.value, r.multiplier) == (context.options["base"], 1), label
        doubled += any(a > context.options["base"] for _, a in got)
    assert scored > 4500 and won > 2500 and lost > 700, (scored, won, lost)
    assert doubled > 300 and sevens > 150, (doubled, sevens)


def test_waits_list_every_completing_tile_at_no_fan() -> None:
    """A random hand less one standing tile: waits() lists exactly the tiles the rule's own
    search completes (seven pairs only with the option), none the hand holds all four of,
    each a win of 0 fan worth base."""
    rng = random.Random(34)
    checked = ready = sevens = 0
    for _ in range(1500):
        standing, melds = random_hand(rng)
        short = list(standing)
        short.remove(rng.choice(short))
        ctx = random_context(rng)
        try:
            tiles, declared, context = build_waiting(notation(short, melds, None), ctx, HEBEI)
        except HandError:
            continue
        result = waits(tiles, declared, context, HEBEI)
        seven = bool(context.options["seven_pairs"])
        held = [0] * TS.size
        for t in short:
            held[t] += 1
        for kind, t, _concealed in melds:
            held[t] += 4 if kind == "kong" else 3
        expected = [_code(t) for t in TS.display_order
                    if t in KINDS and held[t] < 4 and wins([*short, t], len(melds), seven)]
        label = (notation(short, melds, None), ctx)
        assert [w.tile for w in result.waits] == expected, label
        assert all(w.winning and w.fans == () and w.fan_total == 0
                   and w.value == context.options["base"] for w in result.waits), label
        assert (result.best is None) == (not expected), label
        checked += 1
        ready += bool(expected)
        sevens += seven and not melds and bool(expected) and not any(
            wins([*short, t], 0, False) for t in KINDS)
    assert sevens > 10, sevens
    assert checked > 1200 and ready > 500, (checked, ready)
