"""The context of a generated win: physically consistent with the hand (a discarder other
than the winner, the seat wind from the winner and the dealer, kong flags only when they can
happen, last of its kind only when no other copy is held), written as clients write it (every
field, or only what differs from the defaults), with now and then an option set."""

from __future__ import annotations

import random
from typing import Any

from app.domain.hand import (
    DISCARD,
    KONG,
    KONG_AFTER_DISCARD,
    KONG_REPLACEMENT,
    KONG_ROBBED,
    SELF_DRAW,
    WINDS,
)
from app.rules.model import RuleSet
from app.rules.options import OptionDef
from tools.loggen.tiles import Body, Draw, Hand, Tables, Weighted

__all__ = ["ContextMaker"]

# How many flowers a player shows, by weight (cut at the rule set's maximum).
_FLOWER_WEIGHTS = (30, 25, 18, 12, 7, 4, 2, 1, 1)
_ROUND_WINDS = Weighted(range(4), (6, 3, 2, 1))


class ContextMaker:
    """Contexts for the hands of one rule set, drawn with the generator's `rng` (shared)."""

    def __init__(self, ruleset: RuleSet, rng: random.Random, tables: Tables) -> None:
        self.ruleset = ruleset
        self.rng = rng
        self.t = tables
        self.players = ruleset.players
        weights = _FLOWER_WEIGHTS[:max(0, ruleset.max_flowers) + 1]
        self._flower_counts = Weighted(range(len(weights)), weights)

    def context(self, hand: Hand, draw: Draw, avoid: str | None) -> Body:
        """The context of the win; `avoid`: a win type not to draw (one that never wins in
        this rule set, as the generator learns from the engine's answers)."""
        rng = self.rng
        players = self.players
        win = hand.win
        winner = rng.randrange(players)
        dealer = rng.randrange(players)
        self_draw = players < 2 or rng.random() < 0.45
        if avoid is not None:
            self_draw = avoid == DISCARD
        discarder = None if self_draw else rng.choice(
            [s for s in range(players) if s != winner])
        in_melds = sum(m[1].count(win) for m in hand.melds)
        held = hand.standing.count(win) + in_melds
        kong: str | None = None
        r = rng.random()
        if self_draw:
            # 杠上开花: the winning tile is the replacement drawn after one's own kong.
            if r < 0.18 and any(m[0] == KONG for m in hand.melds):
                kong = KONG_REPLACEMENT
        elif r < 0.04:
            # 抢杠和: the winning tile is the fourth of another player's pung, so the winner
            # holds no other copy, and it cannot be a wild tile (wilds are never melded).
            if held == 1 and win not in draw.wilds and draw.limit[win] >= 4:
                kong = KONG_ROBBED
        elif r < 0.07:
            kong = KONG_AFTER_DISCARD  # 杠上炮: the discard made after a kong
        last_tile = rng.random() < 0.03
        last_of_kind = False
        if kong != KONG_ROBBED and hand.standing.count(win) == 1:
            # 和绝张: no other copy among the standing tiles; when the winner's own melds hold
            # every other copy, it is the last of its kind for sure.
            last_of_kind = in_melds == draw.limit[win] - 1 or rng.random() < 0.08
        first_turn = False
        if (not hand.melds and kong is None and not last_tile and rng.random() < 0.015
                and (self_draw or (winner != dealer and discarder == dealer))):
            # 天胡 / 地胡: nothing claimed yet; the dealer wins on the deal (a self-draw), any
            # other player on the first draw or on the dealer's first discard.
            first_turn = True

        full = rng.random() < 0.3  # a client that sends every field, defaults included
        names = _wind_names(rng)
        ctx: Body = {"win_type": SELF_DRAW if self_draw else DISCARD}

        def put(key: str, value: Any, default: Any) -> None:
            if full or value != default:
                ctx[key] = value

        put("winner", winner, 0)
        put("discarder", discarder, None)
        put("dealer", dealer, 0)
        if players <= len(WINDS):
            # The dealer is East; the seats after it follow in wind order.
            put("seat_wind", names[(winner - dealer) % players], names[0])
            if self.t.has_winds or full:
                wind = _ROUND_WINDS.pick(rng)
                ctx["round_wind"] = names[wind if wind < players else 0]
        put("kong", kong, None)
        put("last_tile", last_tile, False)
        put("last_of_kind", last_of_kind, False)
        put("first_turn", first_turn, False)
        put("flowers", self._flowers(), 0)
        if draw.indicator is not None:
            ctx["wild_indicator"] = self.t.codes[draw.indicator]
        elif draw.wilds:
            ctx["wilds"] = [self.t.codes[w] for w in draw.wilds]
        elif full:
            ctx["wild_indicator"] = None
        put("options", self._options(dealer, winner), {})
        return ctx

    def _flowers(self) -> int | str | list[str]:
        maximum = self.ruleset.max_flowers
        if maximum <= 0:
            return 0
        rng = self.rng
        n: int = self._flower_counts.pick(rng)
        flowers = self.t.flowers
        if n == 0 or len(flowers) < n or rng.random() < 0.4:
            return n
        shown = [self.t.codes[f] for f in rng.sample(flowers, n)]
        return shown if rng.random() < 0.5 else "".join(shown)

    def _options(self, dealer: int, winner: int) -> dict[str, Any]:
        """Mostly the defaults; now and then one or two options set to a valid value."""
        rng = self.rng
        options = self.ruleset.options
        if not options or rng.random() >= 0.25:
            return {}
        chosen = rng.sample(options, min(len(options), rng.choice((1, 1, 2))))
        picked = {od.name: _option_value(od, rng, self.players, dealer, winner)
                  for od in chosen}
        # An option that brings a context rule into force (冲宝 and 摸宝: a ready player's
        # self-draw) would make most contexts drawn here refused: such choices are left at
        # their defaults, so the log stays a log of requests the service accepts.
        full = {od.name: od.default for od in options} | picked
        for rule in self.ruleset.context_rules:
            if all(c.holds(full) for c in rule.when):
                for c in rule.when:
                    picked.pop(c.option, None)
        return picked


def _wind_names(rng: random.Random) -> tuple[str, ...]:
    """The winds as this client writes them: letters mostly, else 东 or 东风."""
    r = rng.random()
    if r < 0.85:
        return WINDS
    zh = ("东", "南", "西", "北")
    return zh if r < 0.95 else tuple(w + "风" for w in zh)


def _option_value(od: OptionDef, rng: random.Random, players: int, dealer: int,
                  winner: int) -> Any:
    """A valid value of a declared option, other than its default when it has others."""
    default = list(od.default) if isinstance(od.default, tuple) else od.default
    value = _any_option_value(od, rng, players, dealer, winner)
    for _ in range(8):
        if value != default:
            break
        value = _any_option_value(od, rng, players, dealer, winner)
    return value


def _any_option_value(od: OptionDef, rng: random.Random, players: int, dealer: int,
                      winner: int) -> Any:
    if od.type == "bool":
        return rng.random() < 0.5
    if od.type == "per_seat" and od.choices:
        # One of the choices or null per seat (定缺: the suit each seat declared void). The
        # winner's entry stays null: a declared suit its hand holds would make the win no
        # win, and the share of hands that do not win is drawn elsewhere.
        return [None if seat == winner else rng.choice((*od.choices, None))
                for seat in range(players)]
    if od.choices:
        return rng.choice(od.choices)
    low = od.minimum if od.minimum is not None else 0
    high = od.maximum if od.maximum is not None else low + 100
    if od.type == "per_seat":
        values = [rng.randint(low, high) for _ in range(players)]
        if od.dealer_entry is not None:
            values[dealer] = od.dealer_entry
        return values
    # An integer: small values mostly (a money unit of 1 to 10), now and then any.
    if rng.random() < 0.85:
        return rng.randint(low, min(high, low + 9))
    return rng.randint(low, high)
