"""Requirements: what a hand or its context must meet besides its fans: `requires:` (a check
every winning hand must pass), `requires_fans:` (some fan besides the ones listed) and
`context_rules:` (a win type or a per-seat flag that options call for).
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Any

from app.domain.hand import DISCARD, SELF_DRAW
from app.domain.tiles import TileSet
from app.rules.checks import CHECKS
from app.rules.definitions import ContextRule, FanRequirement, Requirement
from app.rules.families import TILES
from app.rules.load_options import read_condition
from app.rules.load_params import bind_check, bind_params
from app.rules.options import OptionDef
from app.rules.sections import section

REQUIRE = section(TILES, "requires[]")
FAN_REQUIRE = section(TILES, "requires_fans[]")
CONTEXT_RULE = section(TILES, "context_rules[]")


def read_context_rule(r: Any, i: int, options: tuple[OptionDef, ...], err: Any) -> ContextRule:
    """`context_rules:` an entry: while `when` holds, the win is of `win_type` and the
    winner's entry of the per-seat option `winner_set` is set."""
    field = f"context_rules[{i}]"
    if not isinstance(r, dict) or "when" not in r:
        raise err(field, "must be a mapping with when, message and win_type or winner_set")
    fault = CONTEXT_RULE.fault(r)  # keys and value types (`app.rules.sections`)
    if fault is not None:
        raise err(f"{field}.{fault[0]}", fault[1])
    win_type = r.get("win_type")
    if win_type is not None and win_type not in (SELF_DRAW, DISCARD):
        raise err(f"{field}.win_type", f"must be {SELF_DRAW} or {DISCARD} (got {win_type!r})")
    winner_set = r.get("winner_set")
    if winner_set is not None and winner_set not in {o.name for o in options
                                                     if o.type == "per_seat"}:
        raise err(f"{field}.winner_set", f"must name a per_seat option (got {winner_set!r})")
    if win_type is None and winner_set is None:
        raise err(field, "must give win_type or winner_set")
    when = r["when"]
    items = when if isinstance(when, list) else [when]
    if not items:
        raise err(f"{field}.when", "must be {option, in} or a non-empty list of them")
    return ContextRule(tuple(read_condition(w, options, f"{field}.when", None, err)
                             for w in items), " ".join(r["message"].split()),
                       win_type, winner_set)


def read_requirement(r: Any, i: int, tileset: TileSet, err: Any,
                     options: tuple[OptionDef, ...]) -> Requirement:
    field = f"requires[{i}]"
    if not isinstance(r, dict):
        raise err(field, "must be a mapping with check, reason and message")
    fault = REQUIRE.fault(r)  # keys and value types (`app.rules.sections`)
    if fault is not None:
        raise err(f"{field}.{fault[0]}", fault[1])
    spec = CHECKS.get(r["check"])
    # A check of one reading may be a requirement too: the engine then prefers the readings
    # that meet every requirement (a hand wins when some reading does).
    if spec is None or spec.last:
        raise err(f"{field}.check", f"must name a check (got {r['check']!r})")
    params_raw = r.get("params") or {}
    if not isinstance(params_raw, dict):
        raise err(f"{field}.params", "must be a mapping")
    params = bind_params(spec.signature, params_raw, tileset, r["check"], err, options)
    return Requirement(check=r["check"], params=MappingProxyType(dict(params_raw)),
                       reason=r["reason"], message=r["message"],
                       bound=bind_check(spec.func, params),
                       per_hand=spec.scope == "hand" and spec.tells_apart == "nothing")


def read_fan_requirement(r: Any, i: int, fan_ids: set[str], options: tuple[OptionDef, ...],
                         err: Any) -> FanRequirement:
    """`requires_fans:` an entry: the hand must count some fan besides `some_fan_besides`,
    `when` (optional) the option `option` has one of the values `in`."""
    field = f"requires_fans[{i}]"
    if not isinstance(r, dict):
        raise err(field, "must be a mapping with some_fan_besides, reason and message")
    fault = FAN_REQUIRE.fault(r)  # keys and value types (`app.rules.sections`)
    if fault is not None:
        raise err(f"{field}.{fault[0]}", fault[1])
    besides = r.get("some_fan_besides")
    # An empty list: the hand must count some fan, whichever.
    if (not isinstance(besides, list)
            or any(not isinstance(f, str) or f not in fan_ids for f in besides)):
        raise err(f"{field}.some_fan_besides", "must be a list of fan ids of this rule set "
                  f"(got {besides!r})")
    option: str | None = None
    values: tuple[Any, ...] = ()
    when = r.get("when")
    if when is not None:
        cond = read_condition(when, options, f"{field}.when", None, err)
        option, values = cond.option, cond.values
    win_type = r.get("win_type")
    if win_type is not None and win_type not in (SELF_DRAW, DISCARD):
        raise err(f"{field}.win_type", f"must be {SELF_DRAW} or {DISCARD} (got {win_type!r})")
    return FanRequirement(besides=frozenset(besides), reason=r["reason"],
                          message=" ".join(r["message"].split()), option=option, values=values,
                          win_type=win_type)
