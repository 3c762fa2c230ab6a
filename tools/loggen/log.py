"""A log: the requests of one rule set (`requests`), or lines of several rule sets
interleaved at random with a share of malformed lines mixed in (`log_lines`)."""

from __future__ import annotations

import random
from collections.abc import Collection, Iterator, Mapping, Sequence
from typing import Any, cast

from app.rules.families import TILES, family_of
from app.rules.model import AnyRuleSet, RuleSet
from tools.loggen.generator import RequestGenerator
from tools.loggen.malformed import MALFORMED_KINDS, malformed_line
from tools.loggen.tiles import dumps

__all__ = ["log_lines", "not_tiles", "requests", "tile_rulesets"]


def requests(ruleset: RuleSet, n: int, seed: int, *, waits: bool = False,
             non_winning: float = 0.1) -> list[dict[str, Any]]:
    """`n` score request bodies for `ruleset` (waits bodies with ``waits``: the same hands
    one tile short), each accepted by the service; a share ``non_winning`` of them (about)
    do not win. The same for the same arguments, in any process."""
    gen = RequestGenerator(ruleset, seed, waits=waits, non_winning=non_winning)
    return [gen.next() for _ in range(n)]


def tile_rulesets(rulesets: Mapping[str, AnyRuleSet]) -> dict[str, RuleSet]:
    """The rule sets of `rulesets` the generator makes logs for: the tile games (a card game
    scored by groups is left out), in the same order."""
    return {rid: cast(RuleSet, rs) for rid, rs in rulesets.items() if family_of(rs) == TILES}


def not_tiles(rid: str) -> str:
    """Why the generator refuses a card rule set's id."""
    return (f"rule set {rid!r} is a card game scored by groups: the log generator makes "
            "mahjong requests only")


def log_lines(rulesets: Mapping[str, AnyRuleSet], ids: Sequence[str], n: int, seed: int, *,
              waits: bool = False, malformed: float = 0.0, name_ruleset: bool = True,
              non_winning: float = 0.1) -> Iterator[str]:
    """`n` lines of a log (without the newline): requests of the rule sets `ids` (keys of
    `rulesets`; each line's rule set drawn at random), a share ``malformed`` of the lines
    (about) malformed (`MALFORMED_KINDS`, in equal shares). With ``name_ruleset`` each
    request carries its rule set's id as a top-level ``"ruleset"`` key.

    The valid lines of one rule set are `requests(rulesets[id], k, seed, ...)` in order,
    whatever else the log holds. An id of a card rule set is refused (mahjong only)."""
    if not ids:
        raise ValueError("ids must name at least one rule set")
    unknown = [i for i in ids if i not in rulesets]
    if unknown:
        raise ValueError(f"unknown rule set(s) {', '.join(unknown)}; known: "
                         f"{', '.join(sorted(rulesets))}")
    tiles = tile_rulesets(rulesets)
    cards = [i for i in ids if i not in tiles]
    if cards:
        raise ValueError(not_tiles(cards[0]))
    if not 0.0 <= malformed <= 1.0:
        raise ValueError(f"malformed must be a share from 0 to 1, not {malformed!r}")
    if not 0.0 <= non_winning <= 1.0:
        raise ValueError(f"non_winning must be a share from 0 to 1, not {non_winning!r}")
    if n < 0:
        raise ValueError(f"n must be 0 or more, not {n}")
    return _log_lines(tiles, list(ids), n, seed, waits, malformed, name_ruleset,
                      non_winning, known=rulesets)


def _log_lines(rulesets: Mapping[str, RuleSet], ids: list[str], n: int, seed: int,
               waits: bool, malformed: float, name_ruleset: bool,
               non_winning: float, known: Collection[str]) -> Iterator[str]:
    rng = random.Random(f"{seed}:log")
    kinds = MALFORMED_KINDS if name_ruleset else tuple(
        k for k in MALFORMED_KINDS if k != "unknown_ruleset")
    gens: dict[str, RequestGenerator] = {}
    # Malformed lines are made from requests of separate streams, so that they take nothing
    # from the valid lines' streams.
    bases: dict[str, RequestGenerator] = {}
    for _ in range(n):
        rid = rng.choice(ids)
        if malformed and rng.random() < malformed:
            base = bases.get(rid)
            if base is None:
                base = bases[rid] = RequestGenerator(rulesets[rid], f"{seed}:malformed",
                                                     waits=waits, non_winning=non_winning)
            yield malformed_line(rng.choice(kinds), base.next(), rulesets[rid], rng,
                                 waits=waits, name_ruleset=name_ruleset, known=known)
            continue
        gen = gens.get(rid)
        if gen is None:
            gen = gens[rid] = RequestGenerator(rulesets[rid], seed, waits=waits,
                                               non_winning=non_winning)
        body = gen.next()
        yield dumps({"ruleset": rid, **body} if name_ruleset else body)
