"""What the engine remembers between requests, and the bound of each memo.

Every memo of the engine is bounded: a worker serving any traffic holds at most the sum of
these bounds. `memory_bounds()` reports each memo's bound and its current size (entries).
The bounds were chosen from measurements (the comment beside each memo says which):

- entries reached on realistic traffic: random legal MCR hands
  (tests/mcr_reference/generator.py), random tianjin hands with 0..7 wilds (as
  bench/wilds.py makes them), random sichuan and chengdu hands, and random tiles (mostly not
  winning) for mcr and tianjin;
- bytes per entry (each entry's objects, counted once);
- the hit rate and the time per hand at candidate sizes, on fresh hands after a warm-up.

Worst case, measured: parts, suit patterns and the wild searches filled to (or near) their
bounds by varied hands (30,000 random-tile mcr and sichuan hands, then 3,000 tianjin hands
with 3..7 wilds) grow a process's RSS by 11 MiB; at their realistic entry sizes (bench/
memory.py's mix) parts hold at most 5.9 MB (8,192 of 0.72 KB), suit patterns under 1 MB,
the wild searches 12-15 MB (1,024 entries of 4.5-7.8 KB, 4,000 states of 1.8-2.6 KB). The shared
answers add under 5 MB, the probe sets 1.4 MB on realistic traffic (195 sets): about 20 MB
for the served rule sets in all,
about 28 MB with the wild searches at 1,024 entries (`wildcards.MEMO_LIMIT`). The full
listings of `wildcards.suit_options` (17 MB) are
used only by a rule set read in full (`wild.read: full`, a test variant). The payments of
rule sets with fixed payment parameters (`app.rules.model.FixedPayment`, by fan total and
seats) add at most 4,096 entries of about 500 bytes per such rule set (2 MB each;
of the served ones, mcr alone has fixed parameters); realistic traffic fills a fraction of
that (see `app.rules.model.PAYMENTS_LIMIT`). Over bench/memory.py's 8,000 requests (4,000 a
worker) a served worker grew by 12-14 MiB with the wild searches at 256 entries; at 1,024
(kept: a hand seen again scores from the memo, 2.5 times faster over HTTP), one worker
serving all 8,000 grew by 20.6 MiB RSS, levelling off from ~3,000.

Where the memory went before (4,000 requests of that mix in one process, +28 MiB RSS):
parts 11 MB (1.25 KB each: their groups, writing and segments were their own copies, and
16,384 were kept), the wild searches 6 MB (1,024 entries, 4,000 states), the suit patterns'
`lru_cache`s 3-4 MB (4,096 entries each, most of them missed once and never asked again).

The memos are plain dicts emptied when full (cheaper on the hot path than an LRU; the parts
in two generations, see `app.domain.standing`) or `functools.lru_cache` where the hot path
never reaches them. Memos kept per tile set
(`lru_cache(maxsize=8)`, one entry per tile set) and tables of a rule set's plan that are
bounded by the rule set itself (probes per set of features: at most 2 ** len(FEATURES)) are
listed too.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from app.domain import (
    decompose,
    free_groups,
    notation,
    readings,
    shanten,
    shapes,
    standing,
    suit_search,
    wildcards,
)
from app.rules import model, view
from app.rules import plan as plans
from app.rules.view import FEATURES
from app.scoring import ceiling, describe, evaluate


class MemoBound(NamedTuple):
    """One memo of the engine: how many entries it may hold, how many it holds now."""

    bound: int
    size: int


def _lru(fn: Any) -> MemoBound:
    info = fn.cache_info()
    return MemoBound(info.maxsize, info.currsize)


def memory_bounds() -> dict[str, MemoBound]:
    """Every memo of the engine, by name: its bound and its current size (entries). Memos
    held by rule sets' plans are summed over the plans in use (one per rule set loaded)."""
    out: dict[str, MemoBound] = {
        "standing.parts": MemoBound(2 * standing.PARTS_LIMIT, standing.parts_held()),
        # Tile strings read by token, per tile set (a request's notation, read at the API).
        "notation.tokens": MemoBound(notation.TOKENS_LIMIT * len(notation._GRAMMARS),
                                     sum(len(g.tokens) for _, g in notation._GRAMMARS.values())),
        # Declared melds read from notation strings, per tile set (read at the API).
        "notation.melds": MemoBound(notation.MELDS_LIMIT * len(notation._GRAMMARS),
                                    sum(len(g.melds) for _, g in notation._GRAMMARS.values())),
        "decompose.suit_splits": _lru(decompose.suit_splits),
        "decompose.suit_groups": _lru(decompose._suit_groups),
        "decompose.part_ranks": _lru(decompose.part_ranks),
        "standing.layout": _lru(standing.layout),
        "readings.groups": MemoBound(readings.GROUPS_LIMIT, len(readings._GROUPS)),
        "readings.written": MemoBound(readings.WRITTEN_LIMIT, len(readings._WRITTEN)),
        "standing.segments": MemoBound(standing.SEGMENTS_LIMIT, len(standing._SEGMENTS)),
        "shapes.readers": MemoBound(shapes._READERS_LIMIT, len(shapes._READERS)),
        "shapes.completers": MemoBound(shapes._READERS_LIMIT, len(shapes._COMPLETERS)),
        "wildcards.suit_options": _lru(wildcards._suit_options),
        "suit_search.cuts_near": MemoBound(suit_search.CUTS_LIMIT, suit_search.cuts_held()),
        "wildcards.honour_buckets": MemoBound(wildcards.HONOURS_LIMIT, len(wildcards._HONOURS)),
        "free_groups.every_identity": _lru(free_groups.every_identity),
        "view.no_melds": _lru(view._no_melds),
        "describe.written": MemoBound(describe.WRITTEN_LIMIT, len(describe._WRITTEN)),
        "evaluate.shown": MemoBound(evaluate._SHOWN_LIMIT, len(evaluate._SHOWN)),
        # Priced choices of counted fans, per request options (schemes pricing the fans).
        "evaluate.pricings": MemoBound(
            evaluate.PRICINGS_LIMIT * 2 * ceiling.PRICED_LIMIT,
            sum(len(p.worths) + len(p.choices) for p in evaluate._PRICINGS.values())),
        # The discard analysis (app.domain.shanten): a part's splits, their sums, needs.
        "shanten.part_front": _lru(shanten.part_front),
        "shanten.combine": _lru(shanten.combine),
        "shanten.regular_need_of": _lru(shanten.regular_need_of),
        "shanten.need_beside": _lru(shanten._need_beside),
        "shanten.parts": _lru(shanten.parts),
    }
    live = list(plans.LIVE_PLANS)
    probe_sets = tables = shared = shared_bound = 0
    suit_memo = states = keys = described = 0
    for p in live:
        for sp in p.shapes.values():
            probe_sets += len(sp.by_context) + len(sp.by_features) + len(sp.every_by_features)
            tables += len(sp._kind_tables)
            shared += sum(len(m) for m in sp._memos.values())
            shared_bound += plans.SHARED_LIMIT * len(sp._memos)
        wp = p.wild
        if wp is not None:
            suit_memo += len(wp.suit_memo)
            states += sum(len(s) for s in wp.search_states.values())
            keys += max(len(wp.key_cache), len(wp.numbers))
            described += len(wp.described)
    n_shapes = sum(len(p.shapes) for p in live)
    n_wild = sum(1 for p in live if p.wild is not None)
    paid = list(model.PAID_MEMOS)
    out["rules.payments"] = MemoBound(model.PAYMENTS_LIMIT * len(paid),
                                      sum(len(m) for m in paid))
    out["plan.valued"] = MemoBound(plans.VALUED_LIMIT * len(live),
                                   sum(len(p._valued) for p in live))
    out["plan.probe_sets"] = MemoBound(3 * 2 ** len(FEATURES) * n_shapes, probe_sets)
    # A 限定牌 table is made for a probe set, or shared between several.
    out["plan.kind_tables"] = MemoBound(3 * 2 ** len(FEATURES) * n_shapes, tables)
    out["plan.shared_answers"] = MemoBound(shared_bound, shared)
    out["plan.wild_suit_memo"] = MemoBound(wildcards.MEMO_LIMIT * n_wild, suit_memo)
    out["plan.wild_search_states"] = MemoBound((wildcards.STATES_LIMIT + 1) * n_wild, states)
    out["plan.wild_group_keys"] = MemoBound((plans.KEYS_LIMIT + 1) * n_wild, keys)
    out["plan.wild_groups_described"] = MemoBound(plans.KEYS_LIMIT * n_wild, described)
    return out


def forget_everything() -> None:
    """Empty every memo of the engine (measurements start from here)."""
    standing.forget_parts()
    for _, grammar in notation._GRAMMARS.values():
        grammar.tokens.clear()
        grammar.melds.clear()
    for table in (readings._GROUPS, readings._WRITTEN, standing._SEGMENTS):
        table.clear()
    for fn in (decompose.suit_splits, decompose._suit_groups,
               decompose.part_ranks, wildcards._suit_options,
               shanten.part_front, shanten.combine, shanten.regular_need_of,
               shanten._need_beside):
        clear: Callable[[], None] = fn.cache_clear
        clear()
    wildcards.clear_cache()
    describe._WRITTEN.clear()
    evaluate._PRICINGS.clear()
    for paid in list(model.PAID_MEMOS):
        paid.clear()
    for p in list(plans.LIVE_PLANS):
        p._valued.clear()
        for sp in p.shapes.values():
            for memo in sp._memos.values():
                memo.clear()
        if p.wild is not None:
            p.wild.forget(keys=True)
