"""The JSON of the tile games' responses: scored hands, waits, analyses and settled rounds (the
rule-set documents are `app.service.tiles.documents`; the card games' answers are
`app.service.cards.responses`; the fields every family shares, and what they mean, are
`app.service.envelope`).

Each function returns plain dicts and lists in the key order `openapi.yaml` documents; the
routes encode them. Nothing here computes: it writes out what the engine decided.
"""

from __future__ import annotations

from typing import Any, Final

import orjson

from app.domain.money import Payments
from app.rules.model import RuleSet
from app.scoring.analysis import AnalysisResult, Standing13
from app.scoring.result import (
    Decomposition,
    DrawPlayer,
    Explanation,
    FanResult,
    ScoreResult,
    SettleResult,
    WaitEntry,
    WaitsResult,
    WinSummary,
)
from app.service.envelope import fan_json, not_counted_fan, payments_json, reason_json

# --- scored hands ------------------------------------------------------------------------


def _decomposition(d: Decomposition | None, encoded: bool = False) -> dict[str, Any] | None:
    if d is None:
        return None
    # Encoded at once (`score_line_answer`), the melds stay the tuple they are: orjson writes
    # a tuple as the list it holds.
    return {"shape": d.shape, "melds": d.melds if encoded else list(d.melds),
            "wilds": [{"tile": held, "as": read} for held, read in d.wilds]}


def _explanation(e: Explanation) -> dict[str, Any]:
    return {
        "not_counted": [not_counted_fan(n) for n in e.not_counted],
        "readings": [{**(_decomposition(r.decomposition) or {}),
                      "fans": [{"id": fid, "count": n} for fid, n in r.fans],
                      "fan_total": r.fan_total, "meets_requirements": r.meets_requirements,
                      "chosen": r.chosen} for r in e.readings],
        "readings_compared": e.readings_compared,
    }


# An answer encoded at once (`encoded`: the bulk scorer's lines, `score_line_answer`): a fan's
# JSON, and a payments', encoded once and remembered, the same bytes in every answer that
# holds an equal one. Equal fans are one object from the engine's table, and a rule set's
# payments take few values (a winner, a discarder, an amount), so both are remembered in a
# few entries; past the limit a table starts again.
_FANS: Final[dict[FanResult, orjson.Fragment]] = {}
_PAYMENTS: Final[dict[Payments, orjson.Fragment]] = {}
FRAGMENTS_LIMIT: Final = 4096


def _fan_fragment(f: FanResult) -> Any:
    found = _FANS.get(f)
    if found is None:
        try:
            found = orjson.Fragment(orjson.dumps(fan_json(f)))
        except orjson.JSONEncodeError:
            # What orjson does not encode (an integer past 64 bits) stays a dict: the
            # answer's encoder then refuses it as it would the plain answer.
            return fan_json(f)
        if len(_FANS) >= FRAGMENTS_LIMIT:
            _FANS.clear()
        _FANS[f] = found
    return found


def _payments_fragment(p: Payments | None) -> Any:
    if p is None:
        return None
    found = _PAYMENTS.get(p)
    if found is None:
        try:
            found = orjson.Fragment(orjson.dumps(payments_json(p)))
        except orjson.JSONEncodeError:
            return payments_json(p)  # as `_fan_fragment`
        if len(_PAYMENTS) >= FRAGMENTS_LIMIT:
            _PAYMENTS.clear()
        _PAYMENTS[p] = found
    return found


def _fans(fans: tuple[FanResult, ...], encoded: bool) -> list[Any]:
    if encoded:
        return [_fan_fragment(f) for f in fans]
    return [fan_json(f) for f in fans]


def score_response(r: ScoreResult, explanation: Explanation | None = None,
                   encoded: bool = False) -> dict[str, Any]:
    """What the hand scored, in the order each wait of a waits response writes it too
    (`_wait`, after `tile`), then its payments. One dict literal per result type: each
    field is read by its index, where through a union of the two it is looked up by name.

    `encoded`: for an answer encoded with orjson at once and never read again but for
    `winning` (`score_line_answer`): the same JSON once encoded, its fans and payments held
    as encoded fragments (`orjson.Fragment`), which cost less to make and to encode than
    their dicts. Never an answer handed to a caller."""
    reason = r.reason
    out: dict[str, Any] = {
        "ruleset": r.ruleset,
        "winning": r.winning,
        "reason": None if reason is None else reason_json(reason),
        "fans": _fans(r.fans, encoded),
        "fan_total": r.fan_total,
        "value": r.value,
        "multiplier": r.multiplier,
        "decomposition": _decomposition(r.decomposition, encoded),
        "payments": _payments_fragment(r.payments) if encoded else payments_json(r.payments),
    }
    if explanation is not None:
        out["explanation"] = _explanation(explanation)
    return out


def score_answer(r: ScoreResult, rs: RuleSet, explanation: Explanation | None) -> dict[str, Any]:
    """`score_response` as the family's `write_score` takes it (the rule set is not needed):
    defined here, compiled, so that writing an answer makes no interpreted call."""
    return score_response(r, explanation)


def score_line_answer(r: ScoreResult, rs: RuleSet) -> dict[str, Any]:
    """`score_answer` (unexplained) encoded at once (`score_response`'s `encoded`), as the
    family's `write_score_encoded` takes it. One that orjson refuses is made again as
    `score_answer` makes it."""
    return score_response(r, None, True)


def _wait(w: WaitEntry, encoded: bool = False) -> dict[str, Any]:
    reason = w.reason
    out: dict[str, Any] = {
        "tile": w.tile,
        "winning": w.winning,
        "reason": None if reason is None else reason_json(reason),
        "fans": _fans(w.fans, encoded),
        "fan_total": w.fan_total,
        "value": w.value,
        "multiplier": w.multiplier,
        "decomposition": _decomposition(w.decomposition, encoded),
    }
    if w.explanation is not None:
        out["explanation"] = _explanation(w.explanation)
    return out


def waits_response(r: WaitsResult, encoded: bool = False) -> dict[str, Any]:
    """The waits of a hand one tile short; `encoded` as `score_response`'s (each wait's fans
    as encoded fragments)."""
    best = r.best
    return {"ruleset": r.ruleset, "ready": r.ready, "can_win": r.can_win,
            "waits": [_wait(w, encoded) for w in r.waits],
            "best": _wait(best, encoded) if best is not None else None}


def waits_line_answer(r: WaitsResult, rs: RuleSet) -> dict[str, Any]:
    """`waits_response` encoded at once, as the family's `write_waits_encoded` takes it."""
    return waits_response(r, True)


def _left13(a: Standing13) -> dict[str, Any]:
    """What a hand one tile short answers: its shanten, useful tiles and, when ready, its
    scored waits."""
    ready = a.shanten == 0 and a.waits is not None
    return {"shanten": a.shanten,
            "useful": [{"tile": u.tile, "left": u.left} for u in a.useful],
            "useful_left": a.useful_left,
            "waits": [_wait(w) for w in a.waits] if ready and a.waits is not None else None,
            "best": _wait(a.best) if a.best is not None else None,
            "can_win": (a.best is not None) if ready else None}


def analysis_response(r: AnalysisResult) -> dict[str, Any]:
    """The discard analysis of a hand of 13 tiles (its own useful tiles and waits) or of 14
    (a row per distinct discard, best first, and its score when it is a win already)."""
    out: dict[str, Any] = {"ruleset": r.ruleset, "tiles": r.tiles, "shanten": r.shanten,
                           "shapes": dict(r.shapes)}
    if r.hand is not None:
        out.update(_left13(r.hand))
        out.update(win=None, discards=None)
    else:
        out.update(useful=None, useful_left=None, waits=None, best=None, can_win=None,
                   win=score_response(r.win) if r.win is not None else None,
                   discards=[{"tile": d.tile, "void": d.void, **_left13(d.left)}
                             for d in r.discards])
    return out


def _win(w: WinSummary) -> dict[str, Any]:
    return {"event": w.event, "seat": w.seat, "fans": [fan_json(f) for f in w.fans],
            "fan_total": w.fan_total, "value": w.value, "multiplier": w.multiplier,
            "decomposition": _decomposition(w.decomposition)}


def _draw_player(p: DrawPlayer) -> dict[str, Any]:
    best = None
    if p.best is not None:
        best = {"tile": p.best.tile, "fans": [fan_json(f) for f in p.best.fans],
                "fan_total": p.best.fan_total, "value": p.best.value}
    return {"seat": p.seat, "state": p.state, "best": best}


def settle_response(r: SettleResult) -> dict[str, Any]:
    return {
        "ruleset": r.ruleset,
        "finished": r.finished,
        "net": list(r.net),
        "transfers": [{"from": t.payer, "to": t.payee, "amount": t.amount,
                       "reason": t.reason, "event": t.event} for t in r.transfers],
        "wins": [_win(w) for w in r.wins],
        "draw": None if r.draw is None else {
            "event": r.draw.event, "players": [_draw_player(p) for p in r.draw.players]},
    }
