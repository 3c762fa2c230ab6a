"""A tile game's rule set: one (already merged) rule-set mapping validated and built into the
frozen `RuleSet` (the card games' is `app.rules.cards.loader`).

Loading is strict: an unknown key, an unknown check, a parameter the check does not take or of
the wrong type, an unknown fan id in `excludes`, a cycle of exclusions, a duplicate id: each
stops start-up with a `RuleSetError` that names the file, the fan and the field. The parts of
the mapping are read by the `app.rules.load_*` modules: fans, shapes, options, requirements,
wild tiles, the payment scheme; the settlement by `app.rules.settlement`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import Any

from app.domain.hand import MELD_KINDS
from app.domain.tiles import TILESETS, TileSet
from app.rules.definitions import FanDef, ShapeDef, StandInDef, WildDef
from app.rules.errors import RuleSetError
from app.rules.families import TILES
from app.rules.load_fans import exclusion_order, read_fan
from app.rules.load_fields import as_int, as_list
from app.rules.load_options import read_conditions
from app.rules.load_payment import read_payment
from app.rules.load_requirements import (
    read_context_rule,
    read_fan_requirement,
    read_requirement,
)
from app.rules.load_shapes import read_shapes, with_every_shape
from app.rules.load_wilds import check_wild_reading, read_stand_in, read_wild
from app.rules.matches import build_match
from app.rules.model import RuleSet
from app.rules.options import OptionDef, read_options
from app.rules.payments import SCHEMES
from app.rules.policies import POLICIES
from app.rules.sections import section
from app.rules.settlement import build_settlement

# The top level's keys and their types, declared with every section's (`app.rules.sections`).
TOP = section(TILES, "")


# err(field, message, fan=None) -> the error naming the file, the fan (when given) and the
# field: `build_ruleset`'s.
ErrorFactory = Callable[..., RuleSetError]


def _errors(source: str, origins: Mapping[str, str] | None) -> ErrorFactory:
    """`build_ruleset`'s error factory for the file `source`; an inherited fan's error names
    the file it comes from too."""

    def err(field: str, msg: str, fan: str | None = None) -> RuleSetError:
        if fan:
            origin = (origins or {}).get(fan, source)
            from_ = f" (from {origin})" if origin != source else ""
            return RuleSetError(f"{source}: fan {fan!r}{from_}: field {field!r}: {msg}")
        return RuleSetError(f"{source}: field {field!r}: {msg}")

    return err


def _fan_limits(data: Mapping[str, Any], err: ErrorFactory) -> tuple[int, int | None, int]:
    """(min_fan, max_fan, max_flowers); max_fan (封顶: the fan total never exceeds it) is None
    when there is no cap."""
    min_fan = as_int(data.get("min_fan", 0), "min_fan", err, minimum=0)
    max_flowers = as_int(data.get("max_flowers", 0), "max_flowers", err, minimum=0)
    max_fan = (None if data.get("max_fan") is None
               else as_int(data["max_fan"], "max_fan", err, minimum=1))
    if max_fan is not None and max_fan < min_fan:
        raise err("max_fan", f"must be at least min_fan ({min_fan})")
    return min_fan, max_fan, max_flowers


def _fan_ids(fans_raw: Sequence[Any], err: ErrorFactory) -> set[str]:
    """The fans' ids, each a string given once."""
    ids: list[str] = []
    for i, f in enumerate(fans_raw):
        if not isinstance(f, dict) or not isinstance(f.get("id"), str):
            raise err(f"fans[{i}]", "each fan must be a mapping with a string 'id'")
        if f["id"] in ids:
            raise err("id", "duplicate fan id", f["id"])
        ids.append(f["id"])
    return set(ids)


def _fan_roles(data: Mapping[str, Any], fans: Sequence[FanDef], shapes: Mapping[str, ShapeDef],
               id_set: set[str], err: ErrorFactory) -> tuple[str | None, str | None, list[str]]:
    """(the flower fan, the combination policy, the tie-break fans): the fans the rule set
    gives a role by id, checked against its fans."""
    flower_fan = data.get("flower_fan")
    if flower_fan is not None and flower_fan not in id_set:
        raise err("flower_fan", f"must be a fan id of this rule set (got {flower_fan!r})")
    # The flower fan and a shape's fixed extras are counted at their loaded values.
    fixed = {flower_fan} | {fid for s in shapes.values()
                            for ids in s.extras_by_win_rank.values() for fid in ids}
    for f in fans:
        if f.value_by is not None and f.id in fixed:
            raise err("value", "the flower fan and a shape's fixed extras have a fixed value",
                      f.id)
    policy = data.get("combination_policy")
    if policy is not None and policy not in POLICIES:
        raise err("combination_policy",
                  f"unknown policy {policy!r} (known: {', '.join(POLICIES)})")
    tie = data.get("tie_break_fans") or []
    if any(t not in id_set for t in tie):
        raise err("tie_break_fans", "must be a list of fan ids of this rule set")
    last = [f.id for f in fans if f.when_nothing_else]
    if len(last) > 1:
        raise err("check", "only one fan may use a check decided when nothing else counts "
                  f"(also {', '.join(last[:-1])})", last[-1])
    return flower_fan, policy, tie


def build_ruleset(data: Mapping[str, Any], source: str,
                  origins: Mapping[str, str] | None = None) -> RuleSet:
    """Validate one (already merged) rule-set mapping and build the frozen model.

    `origins` maps fan ids to the file that defines them (a parent's, for inherited fans): an
    error in an inherited fan names both files.
    """
    err = _errors(source, origins)
    # Keys, required keys and value types: declared in `app.rules.sections`.
    fault = TOP.fault(data)
    if fault is not None:
        raise err(*fault)
    players = data["players"]
    if not 2 <= players <= 4:
        raise err("players", f"must be from 2 to 4 (got {players})")
    tileset = TILESETS.get(data["tiles"])
    if tileset is None:
        raise err("tiles", f"unknown tile set {data['tiles']!r} (known: {', '.join(TILESETS)})")
    min_fan, max_fan, max_flowers = _fan_limits(data, err)
    first_turn_claims = data.get("first_turn_claims") or False

    # An empty list of fans is a rule set that counts no fan: it decides legality and money.
    id_set = _fan_ids(data["fans"], err)
    options = read_options(data.get("options"), err, players)
    fans, shapes, (flower_fan, policy, tie) = _fans_and_shapes(data, tileset, id_set, options,
                                                               err)
    meld_kinds = data.get("meld_kinds", list(MELD_KINDS))
    if not meld_kinds or any(k not in MELD_KINDS for k in meld_kinds):
        raise err("meld_kinds", "must be a non-empty list of chow, pung, kong")
    requirements = tuple(read_requirement(r, i, tileset, err, options)
                         for i, r in enumerate(as_list(data.get("requires"), "requires", err)))
    fan_requirements = tuple(
        read_fan_requirement(r, i, id_set, options, err)
        for i, r in enumerate(as_list(data.get("requires_fans"), "requires_fans", err)))
    payment = read_payment(data["payment"], options, err, frozenset(id_set))
    wild, stand_in = _wild_and_stand_in(data, shapes, options, err)
    context_rules = tuple(read_context_rule(r, i, options, err) for i, r in enumerate(
        as_list(data.get("context_rules"), "context_rules", err)))
    if wild is not None:
        check_wild_reading(wild, fans, requirements, err)
    settlement = (build_settlement(data["settlement"], options, payment.params, err,
                                   seat_factors=SCHEMES[payment.scheme].seat_factor is not None,
                                   wilds=wild is not None, tileset=tileset)
                  if data.get("settlement") is not None else None)
    ruleset = RuleSet(
        id=data["id"], name=data["name"], name_en=data["name_en"],
        description=data["description"], players=players, tileset=tileset,
        fans=tuple(fans), shapes=MappingProxyType(shapes),
        options=options,
        payment=payment, min_fan=min_fan, max_fan=max_fan, max_flowers=max_flowers,
        first_turn_claims=first_turn_claims,
        flower_fan=flower_fan, combination_policy=policy, tie_break_fans=tuple(tie),
        meld_kinds=tuple(meld_kinds), requirements=requirements,
        fan_requirements=fan_requirements, settlement=settlement,
        wild=wild, stand_in=stand_in, context_rules=context_rules, source=source,
        match=build_match(data.get("match"), players, err),
    )
    _ = ruleset.plan  # compiled now, so that no request pays for it
    _ = ruleset.fixed_payment_params, ruleset.payment_scheme, ruleset.fixed_payment
    return ruleset


def _fans_and_shapes(data: Mapping[str, Any], tileset: TileSet, id_set: set[str],
                     options: tuple[OptionDef, ...], err: ErrorFactory
                     ) -> tuple[list[FanDef], dict[str, ShapeDef],
                                tuple[str | None, str | None, list[str]]]:
    """The rule set's fans (in evaluation order, their conditions on options read), its
    shapes, and the fans' roles (`_fan_roles`: the flower fan, the combination policy, the
    tie-break fans)."""
    fans_raw = data["fans"]
    shapes = read_shapes(data["shapes"], id_set, err, options)
    fans = [read_fan(f, tileset, id_set, set(shapes), err, options) for f in fans_raw]
    shapes = with_every_shape(fans_raw, shapes, err)
    # Conditions on options (`when`), checked once the options are read.
    raw_when = {f["id"]: f["when"] for f in fans_raw if f.get("when") is not None}
    fans = exclusion_order(fans, err)
    roles = _fan_roles(data, fans, shapes, id_set, err)
    # A fan's `when` follows its `enabled_by` (already read, the shorthand of a condition).
    fans = [dataclasses.replace(f, when=(*f.when, *read_conditions(raw_when[f.id], options,
                                                                   f.id, err)))
            if f.id in raw_when else f for f in fans]
    return fans, shapes, roles


def _wild_and_stand_in(data: Mapping[str, Any], shapes: Mapping[str, ShapeDef],
                       options: tuple[OptionDef, ...], err: ErrorFactory
                       ) -> tuple[WildDef | None, StandInDef | None]:
    """The rule set's wild tiles and its stand-in winning tile (one at most of the two)."""
    wild = read_wild(data.get("wild"), set(shapes), err)
    stand_in = read_stand_in(data.get("stand_in"), options, err)
    if stand_in is not None and wild is not None:
        raise err("stand_in", "a rule set with wild tiles cannot also have a stand-in "
                  "winning tile")
    return wild, stand_in
