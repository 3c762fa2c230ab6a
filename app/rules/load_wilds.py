"""Wild tiles: a rule set's `wild:` (混: how wild kinds are made, and how hands holding them
are read) and `stand_in:` (宝, a stand-in winning tile under some options).
"""

from __future__ import annotations

from typing import Any

from app.domain.shapes import SHAPES
from app.rules.checks import CHECKS
from app.rules.definitions import WILD_RULES, FanDef, Requirement, StandInDef, WildDef
from app.rules.families import TILES
from app.rules.load_options import read_condition
from app.rules.options import OptionDef
from app.rules.sections import section

# Shapes the wild-tile decomposer reads (app.domain.wildcards); a rule set with wilds may not
# admit another shape, since its readings would silently ignore the wilds.
WILD_SHAPES = frozenset(name for name, s in SHAPES.items() if s.wilds)


def read_wild(value: Any, shapes: set[str], err: Any) -> WildDef | None:
    """`wild:` 混. `indicator` names how a flipped tile makes wild kinds (WILD_RULES) or is
    null; `explicit` lets requests list wild kinds in `context.wilds`."""
    if value is None:
        return None
    if not isinstance(value, dict):
        raise err("wild", "must be a mapping with indicator, explicit, indicator_out_of_play")
    fault = section(TILES, "wild").fault(value)  # keys and value types
    if fault is not None:
        raise err(f"wild.{fault[0]}", fault[1])
    read = value.get("read", "reduced")
    if read not in ("reduced", "full"):
        raise err("wild.read", "must be reduced or full")
    indicator = value.get("indicator")
    if indicator is not None and indicator not in WILD_RULES:
        raise err("wild.indicator", f"must be one of {', '.join(WILD_RULES)} or null")
    explicit = value.get("explicit") or False
    out_of_play = value.get("indicator_out_of_play") or False
    if indicator is None and not explicit:
        raise err("wild", "a rule set with wilds must accept an indicator or explicit wilds")
    other = sorted(shapes - WILD_SHAPES)
    if other:
        raise err("shapes", f"wild tiles are read in the shapes {', '.join(sorted(WILD_SHAPES))}"
                  f" only; this rule set also admits {', '.join(other)}")
    description = value.get("description") or ""
    return WildDef(indicator, explicit, out_of_play, description.strip(), read)


def check_wild_reading(wild: WildDef, fans: list[FanDef],
                       requirements: tuple[Requirement, ...], err: Any) -> None:
    """A rule set reading wild hands reduced needs every check it uses to say what it tells
    apart (app.rules.checks); without that a hand with many wilds would be read in full,
    which can take minutes: better to stop at start-up."""
    if wild.read != "reduced":
        return
    silent = [f"fan {f.id} ({f.check})" for f in fans if CHECKS[f.check].tells_apart is None]
    silent += [f"requirement {r.reason} ({r.check})" for r in requirements
               if CHECKS[r.check].tells_apart is None]
    if silent:
        raise err("wild.read", f"{', '.join(silent)} use checks that do not declare what they "
                  "tell apart (tells_apart): declare it on the check, or set wild.read: full "
                  "(every reading, slow with many wilds)")


def read_stand_in(value: Any, options: tuple[OptionDef, ...], err: Any) -> StandInDef | None:
    """`stand_in:` 宝: `{when: <conditions on options>, description}`."""
    if value is None:
        return None
    fault = section(TILES, "stand_in").fault(value)  # keys and value types
    if fault is not None:
        raise err(f"stand_in.{fault[0]}", fault[1])
    description = value.get("description") or ""
    when = value["when"]
    items = when if isinstance(when, list) else [when]
    if not items:
        raise err("stand_in.when", "must be {option, in} or a non-empty list of them")
    return StandInDef(tuple(read_condition(w, options, "stand_in.when", None, err)
                            for w in items), " ".join(description.split()))
