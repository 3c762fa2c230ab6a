"""长春麻将 (`changchun`) over many random hands: the per-payer money always nets to zero and
follows its formula, and `/waits`' readiness in the rule set's sense (`can_win`) agrees with
`/score` over every tile.

Hands are built as requests (notation strings and contexts) and go through `build` and
`build_waiting`, the validation of the API, so every request is one a client could send.
"""

from __future__ import annotations

import os
import random
from pathlib import Path
from typing import Any

from app.domain.errors import HandError
from app.domain.hand import Hand
from app.scoring.evaluate import score
from app.scoring.rounds import settle
from app.scoring.waits import waits
from app.service.tiles.requests import build, build_waiting
from app.service.tiles.settle_requests import build_round
from tests.loaded import repo_rulesets

ROOT = Path(__file__).resolve().parents[2]
CC = repo_rulesets()["changchun"]
HANDS = int(os.environ.get("CHANGCHUN_HANDS", "3000"))
SUITS = "mps"
HONOURS = "ESWNCFP"


def _group(rng: random.Random, counts: dict[str, int]) -> tuple[str, list[str]] | None:
    """A random chow or pung (as its kind and tile codes) that keeps every kind at 4 or fewer."""
    for _ in range(20):
        if rng.random() < 0.5:
            suit = rng.choice(SUITS)
            start = rng.randint(1, 7)
            tiles = [f"{start + i}{suit}" for i in range(3)]
            kind = "chow"
        else:
            code = (f"{rng.randint(1, 9)}{rng.choice(SUITS)}" if rng.random() < 0.8
                    else rng.choice(HONOURS))
            tiles = [code] * 3
            kind = "pung"
        if all(counts.get(t, 0) + tiles.count(t) <= 4 for t in set(tiles)):
            for t in tiles:
                counts[t] = counts.get(t, 0) + 1
            return kind, tiles
    return None


def random_hand(rng: random.Random) -> tuple[list[str], list[str]] | None:
    """A complete hand: (melds written in brackets, standing tile codes, the winning tile
    last), regular (some sets declared) or seven pairs."""
    counts: dict[str, int] = {}
    melds: list[str] = []
    standing: list[str] = []
    if rng.random() < 0.15:
        kinds = rng.sample([f"{r}{s}" for r in range(1, 10) for s in SUITS] + list(HONOURS), 7)
        for k in kinds:
            standing += [k, k]
    else:
        for _ in range(4):
            found = _group(rng, counts)
            if found is None:
                return None
            _, tiles = found
            if rng.random() < 0.3:
                melds.append("[" + "".join(t[0] for t in tiles) + tiles[0][1:] + "]"
                             if len(tiles[0]) == 2 else "[" + "".join(tiles) + "]")
            else:
                standing += tiles
        pair = (f"{rng.randint(1, 9)}{rng.choice(SUITS)}" if rng.random() < 0.85
                else rng.choice(HONOURS))
        if counts.get(pair, 0) + 2 > 4:
            return None
        standing += [pair, pair]
    rng.shuffle(standing)
    return melds, standing


def random_context(rng: random.Random) -> dict[str, Any]:
    winner = rng.randrange(4)
    dealer = rng.randrange(4)
    options: dict[str, Any] = {
        "ready": [rng.randint(0, 1) for _ in range(4)],
        "dealer_bonus": rng.choice(["mil", "not_on_discard", "seed"]),
        "cap": rng.choice([6, 6, "none"]),
        "base": rng.choice([1, 1, 5]),
    }
    if rng.random() < 0.5:
        discarder = rng.choice([s for s in range(4) if s != winner])
        return {"win_type": "discard", "winner": winner, "discarder": discarder,
                "dealer": dealer, "options": options}
    if rng.random() < 0.3:
        options["bao"] = rng.choice(["draw", "indicator"])
        options["ready"][winner] = 1
    return {"win_type": "self_draw", "winner": winner, "dealer": dealer, "options": options}


def expected_net(fan_total: int, ctx: dict[str, Any]) -> list[int]:
    """The rulebook's money, worked out here independently of the scheme."""
    options = ctx["options"]
    winner, dealer = ctx["winner"], ctx["dealer"]
    discarder = ctx.get("discarder")
    cap = options["cap"]
    net = [0] * 4
    amounts = {}
    for payer in range(4):
        if payer == winner:
            continue
        fan = fan_total
        if discarder is None:
            fan += 1
        elif payer == discarder:
            fan += 1
        dealer_on = dealer in (payer, winner)
        if (options["dealer_bonus"] == "not_on_discard" and dealer == winner
                and discarder is not None):
            dealer_on = False
        # seed: the dealer's discard win gives the +1 to the discarder's payment alone.
        if (options["dealer_bonus"] == "seed" and dealer == winner
                and discarder is not None and payer != discarder):
            dealer_on = False
        fan += int(dealer_on)
        if cap != "none":
            fan = min(fan, cap)
        amounts[payer] = options["base"] * 2 ** fan
    covered = discarder is not None and not options["ready"][discarder]
    for payer, amount in amounts.items():
        net[discarder if covered else payer] -= amount  # type: ignore[index]
        net[winner] += amount
    return net


def test_random_hands_net_to_zero_and_follow_the_formula() -> None:
    rng = random.Random(20261201)
    scored = won = 0
    while scored < HANDS:
        made = random_hand(rng)
        if made is None:
            continue
        melds, standing = made
        text = "".join(melds) + "".join(standing)
        ctx_data = random_context(rng)
        try:
            hand, ctx = build(text, ctx_data, CC)
        except HandError:
            continue
        result = score(hand, ctx, CC)
        scored += 1
        if not result.winning:
            assert result.payments is None
            continue
        won += 1
        assert result.payments is not None
        assert sum(result.payments.net) == 0, text
        assert list(result.payments.net) == expected_net(result.fan_total, ctx_data), (
            text, ctx_data, result.fan_total)
        if ctx_data["options"].get("bao") == "draw":
            assert result.decomposition is not None
            assert len(result.decomposition.wilds) == 1
            assert result.decomposition.wilds[0][0] == CC.tileset.code(hand.win_tile)
    # Enough of them win for the money to be measured.
    assert won > HANDS // 5, (won, scored)


def test_waits_readiness_agrees_with_score_on_every_tile() -> None:
    rng = random.Random(7)
    checked = can = cannot = 0
    while checked < HANDS // 3:
        made = random_hand(rng)
        if made is None:
            continue
        melds, standing = made
        standing.pop(rng.randrange(len(standing)))  # one tile short
        # Now and then a random tile instead, for hands that are not ready.
        if rng.random() < 0.3:
            standing[rng.randrange(len(standing))] = rng.choice(
                [f"{r}{s}" for r in range(1, 10) for s in SUITS] + list(HONOURS))
        text = "".join(melds) + "".join(standing)
        ctx_data = {"win_type": "discard", "winner": 1, "discarder": 2}
        try:
            held, declared, ctx = build_waiting(text, ctx_data, CC)
        except HandError:
            continue
        checked += 1
        result = waits(held, declared, ctx, CC)
        assert result.can_win == (result.best is not None)
        tileset = CC.tileset
        wins = []
        playing = set(tileset.playing)
        for t in tileset.display_order:
            if t not in playing:
                continue
            copies = held.count(t) + sum(m.tiles.count(t) for m in declared)
            if copies >= tileset.kinds[t].copies:
                continue
            if score(Hand((*held, t), declared, t), ctx, CC).winning:
                wins.append(tileset.code(t))
        assert result.can_win == bool(wins), (text, wins)
        assert [w.tile for w in result.waits if w.winning] == wins, text
        can += result.can_win
        cannot += not result.can_win
    # Both kinds of hands are met.
    assert can > 50 and cannot > 50, (can, cannot)


def test_random_rounds_net_to_zero_kong_money_and_the_win_add_up() -> None:
    """Random rounds: kongs by players other than the winner (tiles the winning hand does
    not hold), then the win or a drawn game. The net is the kong money (1, 1, 2 from each
    other player, doubled for 1p, 1s and the dragons) plus what /score pays for the win."""
    rng = random.Random(99)
    doubled = {"1p", "1s", "C", "F", "P"}
    done = 0
    while done < HANDS // 3:
        made = random_hand(rng)
        if made is None:
            continue
        melds, standing = made
        text = "".join(melds) + "".join(standing)
        ctx_data = random_context(rng)
        options = ctx_data.pop("options")
        options.pop("bao", None)
        try:
            hand, ctx = build(text, {**ctx_data, "options": options}, CC)
        except HandError:
            continue
        result = score(hand, ctx, CC)
        if not result.winning or result.payments is None:
            continue
        winner = ctx_data["winner"]
        held = {CC.tileset.code(t) for t in hand.concealed} | {
            CC.tileset.code(t) for m in hand.melds for t in m.tiles}
        free = [c for c in [f"{r}{s}" for r in range(1, 10) for s in SUITS] + list(HONOURS)
                if c not in held]
        rng.shuffle(free)
        kongs = []
        expected = [0] * 4
        for tile in free[:rng.randint(0, 3)]:
            # Neither the winner nor the discarder (a win right after the discarder's kong
            # would be 杠上炮, which must be flagged).
            seat = rng.choice([s for s in range(4)
                               if s not in (winner, ctx_data.get("discarder"))])
            kind = rng.choice(["direct", "added", "concealed"])
            extra: dict[str, Any] = {}
            if kind == "direct":
                extra["discarder"] = rng.choice([s for s in range(4) if s != seat])
            if kind == "added":
                extra["fresh"] = rng.random() < 0.5
            kongs.append({"type": "kong", "seat": seat, "kind": kind, "tile": tile, **extra})
            amount = (2 if kind == "concealed" else 1) * options["base"]
            if tile in doubled:
                amount *= 2
            for payer in range(4):
                if payer != seat:
                    expected[payer] -= amount
                    expected[seat] += amount
        context = {k: v for k, v in ctx_data.items() if k not in ("winner", "dealer")}
        body = {"options": options, "dealer": ctx_data["dealer"], "events": [
            *kongs, {"type": "win", "seat": winner, "hand": text, "context": context}]}
        out = settle(build_round(body, CC), CC)
        assert sum(out.net) == 0
        want = [k + w for k, w in zip(expected, result.payments.net, strict=True)]
        assert list(out.net) == want, (body, out.net, want)
        done += 1
