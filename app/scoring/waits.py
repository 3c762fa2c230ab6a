"""waits(standing, melds, context, rule set) -> WaitsResult: the tiles that complete a hand
one tile short of a win (听), and what each scores.

Every tile that completes a winning shape of the rule set is tried (found from the counts,
the same way the engine finds 独听, and never missing one: the tests compare with scoring
every tile), in the written order of tiles (m, p, s, honours), except a tile the hand
already holds every copy of (standing tiles and melds together): it cannot be drawn or
claimed. The hand with the tile added, won on that tile, is
scored by `app.scoring.evaluate.score` with the request's context, so an entry is exactly
what the score endpoint answers for that completed hand. A tile is a wait when the completed
hand has a winning shape, whether or not it reaches the rule set's minimum (the entry then
says `winning: false` and why). A context flag that cannot hold for some tile (抢杠和 on a
tile the hand holds another copy of) simply does not score its fan there, as in `score`.

With wild tiles (混) in the hand every tile is tried, since a wild stands for whatever is
missing; a hand without wilds that is ready also waits on the wild kinds (a drawn wild stands
for any completing tile). The flipped indicator counts as a copy in sight where the rule set
puts it out of play.

Trying tiles through `score` keeps this generic: any shape a rule set enables, wild tiles,
requirements such as 四川's missing suit all come through unchanged.
"""

from __future__ import annotations

from collections.abc import Sequence

from app.domain.hand import Hand, Meld, WinContext
from app.domain.shapes import completing_tiles
from app.rules.model import RuleSet
from app.scoring.evaluate import score
from app.scoring.explain import explained
from app.scoring.result import WaitEntry, WaitsResult


def waits(standing: tuple[int, ...], melds: tuple[Meld, ...], ctx: WinContext,
          rs: RuleSet, explain: bool = False,
          within: frozenset[int] | None = None) -> WaitsResult:
    """Every tile that completes ``standing`` + ``melds`` (one tile short of a win) into a
    winning shape, each with the score of the completed hand won on it under ``ctx`` (and,
    with `explain`, its explanation: `app.scoring.explain`).

    `within`: a caller that knows a superset of the completing tiles (the discard analysis,
    from its shanten counts) names it, and no other tile is scored; the answer is the same."""
    tileset = rs.tileset
    kinds = tileset.kinds
    gone = copies_gone(standing, melds, ctx, rs)
    # Only tiles that complete a shape of the rule set (worked out from the standing tiles'
    # counts, without building readings) can be waits; only those are scored.
    before = [0] * tileset.size
    for t in standing:
        before[t] += 1
    wild_kinds = set(ctx.wilds) if rs.wild is not None else set()
    if wild_kinds & set(standing):
        # A wild can stand for whatever a tile lacks: every tile is a candidate (a lone wild
        # beside four sets waits on every tile).
        candidates: frozenset[int] | set[int] = set(tileset.playing)
    else:
        candidates = completing_tiles(before, len(melds), rs.plan.shapes_for(ctx.options),
                                      tileset)
        # Drawing a wild completes a ready hand: it stands for any tile that would.
        if candidates and wild_kinds:
            candidates = candidates | wild_kinds
    if within is not None:
        candidates = candidates & within
    entries: list[WaitEntry] = []
    best: WaitEntry | None = None
    for t in tileset.display_order:
        if t not in candidates or gone[t] >= kinds[t].copies:
            continue
        completed = Hand((*standing, t), melds, t)
        why = None
        if explain:
            result, why = explained(completed, ctx, rs)
        else:
            result = score(completed, ctx, rs, transfers=False)  # an entry lists no payments
        if result.decomposition is None:
            continue
        entry = WaitEntry.of(kinds[t].code, result, why)
        entries.append(entry)
        if entry.winning and (best is None or _worth(entry) > _worth(best)):
            best = entry
    return WaitsResult(rs.id, tuple(entries), best)


def copies_gone(standing: Sequence[int], melds: Sequence[Meld], ctx: WinContext,
                rs: RuleSet) -> list[int]:
    """Per kind of the rule set's tiles, the copies no draw or claim can bring: those in the
    hand (standing tiles and melds) and the flipped wild indicator where the rule set puts it
    out of play (天津: one copy fewer of its kind)."""
    gone = [0] * len(rs.tileset.kinds)
    for t in standing:
        gone[t] += 1
    for m in melds:
        for t in m.tiles:
            gone[t] += 1
    if rs.wild is not None and rs.wild.indicator_out_of_play and ctx.wild_indicator is not None:
        gone[ctx.wild_indicator] += 1
    return gone


def _worth(entry: WaitEntry) -> tuple[int, int]:
    return (entry.value if entry.value is not None else -1, entry.fan_total)
