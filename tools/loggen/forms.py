"""A generated hand written in the mixed ways clients write it: a whole-hand notation string,
or a hand object whose standing tiles are a string or a list of codes (now and then Chinese or
riichi-style names), with or without ``win_tile``; and the same hand one tile short for a
waits request, written the same way."""

from __future__ import annotations

import random

from app.domain.notation import format_meld, format_tiles
from app.rules.model import RuleSet
from tools.loggen.tiles import Body, Hand, Meld, Tables

__all__ = ["HandWriter"]


class HandWriter:
    """Writes the hands of one rule set, its choices drawn with the generator's `rng`
    (shared)."""

    def __init__(self, ruleset: RuleSet, rng: random.Random, tables: Tables) -> None:
        self.ruleset = ruleset
        self.rng = rng
        self.t = tables

    def _code(self, tile: int) -> str:
        return self.t.codes[tile]

    def forms(self, hand: Hand) -> tuple[str | Body, str | Body]:
        """The hand as a client writes it, for score and for waits: the waits form is the
        same written the same way, without the winning tile (and without ``win_tile``)."""
        rng = self.rng
        ts = self.ruleset.tileset
        rest = hand.standing[:-1]  # the standing tiles but the winning tile (written last)
        win = hand.win
        style = rng.random()
        if style < 0.3:
            # Whole-hand notation: melds in brackets, then the standing tiles, the winning
            # tile last (a waiting hand has none: every tile outside brackets stands).
            melds = "".join(self._meld_notation(m, rng) for m in hand.melds)
            written = melds + format_tiles(rest, ts)
            return written + self._code(win), written
        # Now and then a client writing other names (Chinese, riichi-style 1z..7z): one
        # choice among each tile's names for the whole hand; -1: the canonical codes.
        naming = rng.randrange(6) if rng.random() < 0.08 else -1
        with_win = rng.random() < 0.7
        for_score: Body = {}
        waits: Body = {}
        if style >= 0.65:
            # A list of codes: as drawn, or in the order shown on screen.
            shown = rng.random() < 0.5
            pairs = [(x, self._name(x, naming)) for x in rest]
            if shown:
                pairs.sort(key=lambda p: ts.display_rank[p[0]])
            waits["concealed"] = [n for _, n in pairs]
            pairs.append((win, self._name(win, naming)))
            if shown and with_win:
                pairs.sort(key=lambda p: ts.display_rank[p[0]])
            for_score["concealed"] = [n for _, n in pairs]
        else:
            waits["concealed"] = format_tiles(rest, ts)
            # With win_tile given the tiles are written in order; without it, win last.
            for_score["concealed"] = (format_tiles(hand.standing, ts) if with_win
                                      else waits["concealed"] + self._code(win))
        full = rng.random() < 0.3
        if hand.melds or full:
            for_score["melds"] = waits["melds"] = [self._meld_object(m, rng, full, naming)
                                                   for m in hand.melds]
        if with_win:
            for_score["win_tile"] = self._name(win, naming)
        return for_score, waits

    def _name(self, tile: int, naming: int) -> str:
        names = self.t.aliases[tile]
        if naming >= 0 and names:
            return names[naming % len(names)]
        return self.t.codes[tile]

    def _meld_notation(self, meld: Meld, rng: random.Random) -> str:
        _, tiles, concealed = meld
        body = format_meld(tiles, self.ruleset.tileset)
        if concealed:
            return f"[{body},0]" if rng.random() < 0.15 else f"{{{body}}}"
        if rng.random() < 0.1:
            return f"[{body},{rng.randint(1, 3)}]"  # the seat it was claimed from (ignored)
        return f"[{body}]"

    def _meld_object(self, meld: Meld, rng: random.Random, full: bool, naming: int) -> Body:
        kind, tiles, concealed = meld
        written: str | list[str]
        if rng.random() < 0.5:
            written = format_meld(tiles, self.ruleset.tileset)
        else:
            written = [self._name(x, naming) for x in tiles]
        out: Body = {"kind": kind, "tiles": written}
        if concealed or full:
            out["concealed"] = concealed
        return out
