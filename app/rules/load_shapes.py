"""Shapes: a rule set's `shapes:` (the shapes a hand may be read in, each with what it
admits), and the fans given `every_shape: true`.

A fan given `every_shape: true` is looked for in every shape, a shape that lists the fans it
admits (`only_fans`) included: the loader adds it to each such list (天和, a fan about how the
game went rather than the tiles, in a variant that adds it beside special forms).
"""

from __future__ import annotations

import dataclasses
from types import MappingProxyType
from typing import Any

from app.domain.shanten import SHAPE_NEEDS
from app.domain.shapes import SHAPES
from app.rules.definitions import ShapeDef
from app.rules.families import TILES
from app.rules.load_fields import as_int
from app.rules.load_options import read_switch
from app.rules.options import OptionDef
from app.rules.sections import section

SHAPE = section(TILES, "shapes.*")


def read_shapes(value: Any, fan_ids: set[str], err: Any,
                options: tuple[OptionDef, ...]) -> dict[str, ShapeDef]:
    """`shapes:` the shapes a hand may be read in. `enabled_by` names a bool option that
    switches a shape on (a house rule: 七对 wins only where the table plays it); at least
    one shape must not depend on an option, so that some hand always wins."""
    if not isinstance(value, dict) or not value:
        raise err("shapes", f"must map shape names to settings (shapes: {', '.join(SHAPES)})")
    out = {}
    for name, conf in value.items():
        if name not in SHAPES:
            raise err("shapes", f"unknown shape {name!r} (known: {', '.join(SHAPES)})")
        if name not in SHAPE_NEEDS:
            # The discard analysis counts every shape a rule set plays: a shape without its
            # shanten count cannot be served.
            raise err("shapes", f"shape {name!r} has no shanten count (app.domain.shanten)")
        conf = conf or {}
        if not isinstance(conf, dict):
            raise err(f"shapes.{name}", "must be a mapping")
        fault = SHAPE.fault(conf)  # keys and value types (`app.rules.sections`)
        if fault is not None:
            raise err(f"shapes.{name}.{fault[0]}", fault[1])
        only = conf.get("only_fans")
        if only is not None:
            if not isinstance(only, list) or any(f not in fan_ids for f in only):
                missing = [f for f in (only or []) if f not in fan_ids] if isinstance(
                    only, list) else only
                raise err(f"shapes.{name}.only_fans", f"unknown fan ids {missing!r}")
        extras: dict[int, tuple[str, ...]] = {}
        extras_raw = conf.get("extras_by_win_rank") or {}
        for rank, fans in extras_raw.items():
            if (not isinstance(rank, int) or isinstance(rank, bool) or not 1 <= rank <= 9
                    or not isinstance(fans, list)
                    or any(not isinstance(f, str) or f not in fan_ids for f in fans)):
                raise err(f"shapes.{name}.extras_by_win_rank",
                          "must map a rank (1 to 9) to a list of fan ids of this rule set")
            extras[rank] = tuple(fans)
        final = conf.get("final") or False
        enabled_by = conf.get("enabled_by")
        if enabled_by is not None:  # the switch shorthand, read as a fan's is
            enabled_by = read_switch(enabled_by, options, f"shapes.{name}.enabled_by", None,
                                     err).option
        out[name] = ShapeDef(
            id=name, only_fans=frozenset(only) if only is not None else None,
            extras_by_win_rank=MappingProxyType(extras), final=final,
            priority=as_int(conf.get("priority", 0), f"shapes.{name}.priority", err),
            enabled_by=enabled_by,
        )
    if all(s.enabled_by is not None for s in out.values()):
        raise err("shapes", "every shape is switched by an option (enabled_by): at least one "
                  "must always be a winning shape")
    return out


def with_every_shape(fans_raw: list[dict[str, Any]], shapes: dict[str, ShapeDef],
                     err: Any) -> dict[str, ShapeDef]:
    """`every_shape: true` on a fan: the fan joins every shape's `only_fans`."""
    every = set()
    for f in fans_raw:
        flag = f.get("every_shape", False)
        if not isinstance(flag, bool):
            raise err("every_shape", "must be true or false", f["id"])
        if flag and f.get("shapes") is not None:
            raise err("every_shape", "a fan looked for in every shape lists no shapes", f["id"])
        if flag:
            every.add(f["id"])
    if not every:
        return shapes
    return {name: sd if sd.only_fans is None
            else dataclasses.replace(sd, only_fans=sd.only_fans | every)
            for name, sd in shapes.items()}
