"""Fans: one entry of a rule set's `fans:` read into a `FanDef` (its keys, value, check and
parameters, exclusions, shapes), and the fans put in the order of their exclusions (不计),
a cycle refused.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from app.domain.tiles import TileSet
from app.rules.checks import CHECKS
from app.rules.choices import Chosen, OptionCondition, resolve
from app.rules.definitions import FanDef
from app.rules.families import TILES
from app.rules.load_fields import as_int
from app.rules.load_options import read_chosen, read_switch
from app.rules.load_params import bind_check, bind_params
from app.rules.options import OptionDef
from app.rules.sections import section

FAN = section(TILES, "fans[]")


def read_fan(f: dict[str, Any], tileset: TileSet, fan_ids: set[str], shape_ids: set[str],
             err: Any, options: tuple[OptionDef, ...]) -> FanDef:
    fid = f["id"]
    fault = FAN.fault(f)  # keys and value types (`app.rules.sections`)
    if fault is not None:
        raise err(*fault, fid)
    value, value_by = _fan_value(f["value"], fid, err, options)
    spec = CHECKS.get(f["check"])
    if spec is None:
        raise err("check", f"unknown check {f['check']!r} (known: {', '.join(sorted(CHECKS))})",
                  fid)
    if value_by is not None and spec.last:
        raise err("value", "a fan decided only when nothing else counts has a fixed value", fid)
    params_raw = f.get("params") or {}
    params = bind_params(spec.signature, params_raw, tileset, fid, err, options)
    excludes = f.get("excludes") or []
    for x in excludes:
        if x not in fan_ids:
            raise err("excludes", f"unknown fan id {x!r}", fid)
        if x == fid:
            raise err("excludes", "a fan cannot exclude itself", fid)
    if excludes and spec.last:
        raise err("excludes", "a fan decided only when nothing else counts cannot exclude "
                  "anything", fid)
    shapes = f.get("shapes")
    if shapes is not None:
        if any(s not in shape_ids for s in shapes):
            raise err("shapes", f"must list shapes of this rule set ({', '.join(shape_ids)})", fid)
    ctm = f.get("counts_toward_minimum", True)
    # `enabled_by: X`: the shorthand of the condition `{option: X, in: [true]}`, read with
    # the fan's other conditions (`when`) once the fans are in order.
    switch: tuple[OptionCondition, ...] = ()
    if f.get("enabled_by") is not None:
        switch = (read_switch(f["enabled_by"], options, "enabled_by", fid, err),)
    needs_other = f.get("needs_other_fan") or False
    if needs_other and spec.last:
        raise err("needs_other_fan", "a fan decided only when nothing else counts cannot "
                  "also need another fan", fid)
    final = f.get("final") or False
    if final and spec.last:
        raise err("final", "a fan decided only when nothing else counts cannot be final", fid)
    bound = bind_check(spec.func, params)
    return FanDef(
        id=fid, name=f["name"], name_en=f["name_en"], value=value, check=f["check"],
        params=MappingProxyType(dict(params_raw)), excludes=tuple(excludes),
        description=" ".join(f["description"].split()),
        shapes=frozenset(shapes) if shapes is not None else None,
        when_nothing_else=spec.last, counts_toward_minimum=ctm, when=switch,
        needs_other_fan=needs_other, final=final, value_by=value_by, bound=bound,
    )


def _fan_value(value: Any, fid: str, err: Any,
               options: tuple[OptionDef, ...]) -> tuple[int, Chosen | None]:
    """A fan's `value`: an integer of at least 0, or one chosen by options: `{option: <an
    int option>}` whose minimum is at least 0, or mapped from an option's values onto such
    integers. The value under the options' defaults stands for it; each request chooses."""

    def amount(v: Any, field: str) -> int:
        return as_int(v, field, err, minimum=0, fan=fid)

    if not isinstance(value, dict):
        return amount(value, "value"), None
    if set(value) == {"option"} or not set(value) <= {"option", "values", "default"}:
        od = next((o for o in options if o.name == value["option"]), None)
        if (set(value) != {"option"} or od is None or od.type != "int" or od.minimum is None
                or od.minimum < 0):
            named = [o.name for o in options if o.type == "int"]
            raise err("value", "must be an integer or {option: <an int option with a minimum "
                      f"of at least 0>}} (got {value!r}; int options: "
                      f"{', '.join(named) or 'none'})", fid)
    chosen = read_chosen(value, options, "value", err, amount, fan=fid)
    defaults = {o.name: o.default for o in options}
    return int(resolve(chosen, defaults)), chosen


def exclusion_order(fans: list[FanDef], err: Any) -> list[FanDef]:
    """Topological order of the exclusion graph, stable in YAML order; rejects cycles."""
    by_id = {f.id: f for f in fans}
    position = {f.id: i for i, f in enumerate(fans)}
    incoming: dict[str, set[str]] = {f.id: set() for f in fans}
    for f in fans:
        for x in f.excludes:
            incoming[x].add(f.id)
    done: list[FanDef] = []
    placed: set[str] = set()
    remaining = sorted(by_id, key=position.__getitem__)
    while remaining:
        ready = [fid for fid in remaining if incoming[fid] <= placed]
        if not ready:
            cycle = _find_cycle(remaining, by_id)
            raise err("excludes", f"exclusion cycle {' -> '.join(cycle)}", cycle[0])
        nxt = ready[0]
        done.append(by_id[nxt])
        placed.add(nxt)
        remaining.remove(nxt)
    return done


def _find_cycle(ids: list[str], by_id: Mapping[str, FanDef]) -> list[str]:
    """A cycle among the fans that could not be ordered, for the error message."""
    pending = set(ids)
    state: dict[str, int] = {}  # 1 = on the current path, 2 = finished
    path: list[str] = []

    def visit(u: str) -> list[str] | None:
        state[u] = 1
        path.append(u)
        for x in by_id[u].excludes:
            if x not in pending:
                continue
            if state.get(x) == 1:
                return [*path[path.index(x):], x]
            if x not in state:
                found = visit(x)
                if found:
                    return found
        state[u] = 2
        path.pop()
        return None

    for u in ids:
        if u not in state:
            found = visit(u)
            if found:
                return found
    return ids[:1]
