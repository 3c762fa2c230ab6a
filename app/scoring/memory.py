"""What the engine remembers between requests, and the bound of each memo.

Every memo of the engine is bounded: a worker serving any traffic holds at most the sum of
these bounds. `memory_bounds()` reports each memo's bound and its current size (entries).
The bounds were chosen from measurements (bench/README.md, "The bounds of the engine's
memos", says how they are made and what they found):

- entries reached on realistic traffic: random legal MCR hands
  (tests/mcr_reference/generator.py), random tianjin hands with 0..7 wilds (as
  bench/wilds.py makes them), random sichuan and chengdu hands, and random tiles (mostly not
  winning) for mcr and tianjin;
- bytes per entry (each entry's objects, counted once);
- the hit rate and the time per hand at candidate sizes, on fresh hands after a warm-up.

Varied hands fill the parts (`app.domain.standing`), the suit patterns and the wild searches
(`wildcards.MEMO_LIMIT` entries, their states within `wildcards.STATES_LIMIT`) to or near
their bounds, the wild searches holding the most memory; the shared answers and the probe
sets grow with the rule sets served. The full listings
of `wildcards.suit_options` are used only by a rule set read in full (`wild.read: full`, a
test variant). The payments of rule sets with fixed payment parameters
(`app.rules.model.FixedPayment`, by fan total and seats) add at most
`app.rules.model.PAYMENTS_LIMIT` entries per such rule set (of the served ones, mcr alone
has fixed parameters). The wild searches keep many entries because a hand seen again then
scores from the memo. bench/memory.py measures what a served worker grows by.

A process that scores many different hands one after another and holds no other work (the
command-line scorer) widens the memos every new hand fills (`widen`, `BULK_WIDTH`).

The memos are plain dicts emptied when full (cheaper on the hot path than an LRU; the parts
in two generations, see `app.domain.standing`) or `functools.lru_cache` where the hot path
never reaches them. Memos kept per tile set
(`lru_cache(maxsize=8)`, one entry per tile set) and tables of a rule set's plan that are
bounded by the rule set itself (probes per set of features: at most 2 ** len(FEATURES)) are
listed too.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, NamedTuple

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
from app.rules.checks import registry, wild_use
from app.rules.view import FEATURES
from app.scoring import ceiling, describe, evaluate, wild_readings


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
    return {**_module_memos(), **_plan_memos()}


def _module_memos() -> dict[str, MemoBound]:
    """The memos held by the engine's modules, by name: bound and size."""
    return {
        "standing.parts": MemoBound(2 * standing.parts_limit(), standing.parts_held()),
        # Tile strings read by token, per tile set (a request's notation, read at the API).
        "notation.tokens": MemoBound(notation.tokens_limit() * len(notation._GRAMMARS),
                                     sum(len(g.tokens) for _, g in notation._GRAMMARS.values())),
        # Declared melds read from notation strings, per tile set (read at the API).
        "notation.melds": MemoBound(notation.MELDS_LIMIT * len(notation._GRAMMARS),
                                    sum(len(g.melds) for _, g in notation._GRAMMARS.values())),
        "decompose.suit_splits": _lru(decompose.suit_splits),
        "decompose.suit_groups": _lru(decompose._suit_groups),
        "decompose.part_ranks": _lru(decompose.part_ranks),
        "standing.layout": MemoBound(standing.LAYOUTS_LIMIT, len(standing._LAYOUTS)),
        "readings.groups": MemoBound(readings.GROUPS_LIMIT, len(readings._GROUPS)),
        "readings.written": MemoBound(readings.WRITTEN_LIMIT, len(readings._WRITTEN)),
        "standing.segments": MemoBound(standing.SEGMENTS_LIMIT, len(standing._SEGMENTS)),
        "shapes.readers": MemoBound(shapes._READERS_LIMIT, len(shapes._READERS)),
        "shapes.completers": MemoBound(shapes._READERS_LIMIT, len(shapes._COMPLETERS)),
        "wildcards.suit_options": _lru(wildcards._suit_options),
        "suit_search.cuts_near": MemoBound(suit_search.CUTS_LIMIT, suit_search.cuts_held()),
        "suit_search.unpacked": MemoBound(suit_search.UNPACKED_LIMIT,
                                          suit_search.unpacked_held()),
        "wildcards.honour_buckets": MemoBound(wildcards.HONOURS_LIMIT, len(wildcards._HONOURS)),
        "free_groups.every_identity": _lru(free_groups.every_identity),
        "view.no_melds": MemoBound(view.NO_MELDS_LIMIT, len(view._NO_MELDS)),
        # Groups written out, by tile set (each a table of that tile set's groups).
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
        # What the sources of compiled checks say, and their defaults: one entry per module
        # and per check function, read at start-up and when probes are arranged.
        "checks.sources": _lru(registry._parsed),
        "checks.compiled_defaults": _lru(registry._compiled_defaults),
        "checks.positional_names": _lru(registry._positional_names),
        "checks.keyword_calls": _lru(registry._keyword_call),
        # The regular needs the wild checks' `most` works out (app.rules.checks.wild_use).
        "checks.wild_needs": MemoBound(wild_use.NEEDS_LIMIT, wild_use.needs_held()),
    }


def _plan_memos() -> dict[str, MemoBound]:
    """The memos held by rule sets' plans and rule sets, by name, summed over those in use:
    bound and size."""
    out: dict[str, MemoBound] = {}
    live = list(plans.LIVE_PLANS)
    probe_sets = tables = shared = shared_bound = 0
    suit_memo = states = keys = described = merged = describers = 0
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
            merged += len(wp.merged) + len(wp.told_ids) + len(wp.merged_held)
            describers += sum(len(d.mine) + len(d.infos) + len(d.near or ())
                              + len(d.coded or ()) for d in wp.describers.values())
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
    # What the wild readings' describers remember of groups, and of the searches' cuts by
    # neighbourhood, per winning tile.
    out["plan.wild_describers"] = MemoBound(
        (2 * wild_readings.DESCRIBED_LIMIT + 2 * suit_search.NEAR_LIMIT)
        * wild_readings.DESCRIBERS_LIMIT * n_wild, describers)
    # What the checks tell apart of each signature of a reading (app.scoring.wild_readings),
    # the number of each (at most one per signature), and those numbers by weights and bit.
    out["plan.wild_readings_told"] = MemoBound(3 * plans.KEYS_LIMIT * n_wild, merged)
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
    wild_use.forget_needs()
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


# How many times its served bound each memo that new hands fill may hold in a process that
# scores many different hands one after another (the bulk scorer, `mahjong_scoring.cli`):
# such a process meets each suit pattern and tile string again after more hands than a
# served worker keeps, and holds no other work's memory.
BULK_WIDTH: Final = 4


def widen(width: int) -> None:
    """Let the memos that every new hand fills `width` times their served bound: its parts
    (`app.domain.standing`) and the tokens of its tile strings (`app.domain.notation`).
    `memory_bounds()` reports the bounds as widened; `widen(1)` restores the served ones.
    The other memos are filled by what repeats across hands (tile sets, rule sets, melds,
    groups) or by wild hands, whose searches are bounded by size as they are."""
    if width < 1:
        raise ValueError(f"a memo is widened by a whole factor of at least 1, not {width}")
    standing.set_parts_limit(standing.PARTS_LIMIT * width)
    notation.set_tokens_limit(notation.TOKENS_LIMIT * width)
