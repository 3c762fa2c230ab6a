"""The envelope every family's scored hand shares: the fields that mean the same thing in every
family of game, and their writers.

A scored hand (the score response, each wait of a waits response, a batch item's result) of
every family carries these fields, each with one meaning; what stays a family's own (a tile
game's `decomposition` into melds, a card game's groups, 胡息 and 囤) sits beside them:

- `ruleset`: the rule set's id.
- `winning`: whether the hand is a legal win under the rule set.
- `reason`: null when winning, else why not, `{code, message}` (`reason_json`).
- `fans`: what the hand counts, each `{id, name, name_en, value, count}` (`fan_json`):
  `value` of one occurrence, `count` how many times. The tile games' fans, the card games'
  名堂 (multiplying patterns).
- `fan_total`: what the counted fans come to under the family's arithmetic: the tile games
  add them (value × count, flowers where the rule set counts them); the card games multiply
  them (the product of the 名堂, 1 with none, so the same as `multiplier`).
- `value`: what one paying share of the hand is worth: the tile games' payment scheme's
  value for the hand won on that payer's discard, the card games' score (番 × 囤); null when
  the hand does not win.
- `multiplier`: what the hand's base amount is multiplied by to make `value`: the tile
  games' doubling (2^fan, capped) or points, null for an additive table and when the hand
  does not win; the card games' 番 (the product of the 名堂), given even when it does not
  win.
- `payments`: null unless winning, else `{net, transfers}` (`payments_json`).
- `explanation` (asked for with `?explain=true`): `not_counted`, what the chosen reading had
  but did not count (`not_counted_fan`); `readings`, the readings compared, each in the
  family's own form; `readings_compared`, how many.

`openapi.yaml` documents them for each family (`ScoreResponse`, `CardScoreResponse`), in
each family's key order.
"""

from __future__ import annotations

from typing import Any

from app.domain.money import Payments
from app.scoring.result import FanResult, NotCounted, Reason


def fan_json(f: FanResult) -> dict[str, Any]:
    """A counted fan (a tile game's fan, a card game's 名堂)."""
    return {"id": f.id, "name": f.name, "name_en": f.name_en, "value": f.value,
            "count": f.count}


def reason_json(r: Reason | None) -> dict[str, str] | None:
    """Why a hand does not win (null: it wins)."""
    return None if r is None else {"code": r.code, "message": r.message}


def payments_json(p: Payments | None) -> dict[str, Any] | None:
    """Who pays whom for a win (null: no win)."""
    if p is None:
        return None
    return {"net": list(p.net),
            "transfers": [{"from": t.payer, "to": t.payee, "amount": t.amount,
                           "reason": t.reason} for t in p.transfers]}


def not_counted_fan(n: NotCounted) -> dict[str, Any]:
    """A fan the chosen reading had but did not count (an explanation's `not_counted`)."""
    return {"id": n.id, "name": n.name, "name_en": n.name_en, "value": n.value,
            "count": n.count, "rule": n.rule, "by": n.by, "message": n.message}
