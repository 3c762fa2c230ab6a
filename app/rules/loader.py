"""Rule-set YAML -> validated, frozen rule sets: the files and `extends:` of every family, and
the tile games' `RuleSet`s.

Every file is read here alike (a strict YAML reader, its parents merged in); its family
(`family:`, the tile games when absent; `app.rules.families`) builds the merged mapping.
Loading a tile rule set is strict: an unknown key, an unknown check, a parameter the check
does not take or of the wrong type, an unknown fan id in `excludes`, a cycle of exclusions, a
duplicate id: each stops start-up with a `RuleSetError` (`app.rules.errors`) that names the
file, the fan and the field.

A rule set may `extends: <id>` another of its family in the same directory: it starts from the
parent's definition, so that a variant holds only what differs. Top-level keys it gives
replace the parent's, but for three lists and maps that merge entry by entry (the last,
`options`, for every family):

- `fans`: an entry whose id the parent has is laid over the parent's fan key by key (a key
  given replaces the parent's, a key given as null drops it); other entries are added.
  `remove_fans: [...]` drops parent fans.
- `shapes`: a shape given replaces the parent's entry for that shape; a shape given as null
  is no longer admitted.

A fan given `every_shape: true` is looked for in every shape, a shape that lists the fans it
admits (`only_fans`) included: the loader adds it to each such list (天和, a fan about how the
game went rather than the tiles, in a variant that adds it beside special forms).
- `options`: an option whose name the parent has replaces it; others are added.
"""

from __future__ import annotations

import collections.abc
import dataclasses
import inspect
import types
import typing
from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any

import yaml

from app.domain.errors import HandError
from app.domain.hand import DISCARD, MELD_KINDS, SELF_DRAW
from app.domain.notation import parse_tiles
from app.domain.shapes import SHAPES
from app.domain.tiles import TILESETS, TileSet
from app.rules import card_loader
from app.rules.checks import CHECKS, BoolOption, PerSeatOption, TileGroup
from app.rules.definitions import (
    WILD_RULES,
    ContextRule,
    FanDef,
    FanRequirement,
    OptionCondition,
    PaymentDef,
    Requirement,
    ShapeDef,
    StandInDef,
    WildDef,
)
from app.rules.errors import RuleSetError
from app.rules.families import TILES, RuleFamily, family_named, register_family
from app.rules.model import AnyRuleSet, RuleSet
from app.rules.options import OptionDef, read_options
from app.rules.payments import RESERVED_PARAMS, SCHEMES, SchemeParamError
from app.rules.policies import POLICIES
from app.rules.settlement import build_settlement


class _StrictLoader(yaml.SafeLoader):
    """yaml.safe_load that refuses a key given twice in one mapping (PyYAML keeps the last)."""


def _no_duplicates(loader: _StrictLoader, node: yaml.MappingNode, deep: bool = False) -> Any:
    seen: set[Any] = set()
    for key_node, _ in node.value:
        key = loader.construct_object(key_node, deep=deep)
        if key in seen:
            raise yaml.constructor.ConstructorError(
                None, None, f"key {key!r} is given twice", key_node.start_mark)
        seen.add(key)
    return loader.construct_mapping(node, deep)


_StrictLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _no_duplicates)


TOP_KEYS = {
    "id", "name", "name_en", "description", "players", "tiles", "extends", "min_fan",
    "max_flowers", "flower_fan", "shapes", "combination_policy", "tie_break_fans", "options",
    "payment", "fans", "remove_fans", "meld_kinds", "requires", "settlement",
    "wild", "requires_fans", "stand_in", "context_rules", "max_fan", "first_turn_claims",
}
REQUIRED_TOP = ("id", "name", "name_en", "description", "players", "tiles", "shapes", "payment",
                "fans")
FAN_KEYS = {"id", "name", "name_en", "value", "check", "params", "excludes", "description",
            "shapes", "counts_toward_minimum", "enabled_by", "when", "needs_other_fan",
            "every_shape"}
REQUIRE_KEYS = {"check", "params", "reason", "message"}
REQUIRED_FAN = ("id", "name", "name_en", "value", "check", "description")
SHAPE_KEYS = {"only_fans", "extras_by_win_rank", "final", "priority", "enabled_by"}
FAN_REQUIRE_KEYS = {"some_fan_besides", "when", "win_type", "reason", "message"}
PAYMENT_KEYS = {"scheme", "params", "description"}


def load_rulesets(directory: Path) -> dict[str, AnyRuleSet]:
    """Load every `*.yaml` in `directory`; the file name (without .yaml) must be the id.
    Its `family:` (`app.rules.families`; the tile games when absent) builds it, once the
    file is read and its parents merged in."""
    raw: dict[str, tuple[Path, dict[str, Any]]] = {}
    for path in sorted(directory.glob("*.yaml")):
        try:
            with path.open(encoding="utf-8") as fh:
                data = yaml.load(fh, Loader=_StrictLoader)  # a SafeLoader: no arbitrary objects
        except yaml.YAMLError as exc:
            raise RuleSetError(f"{path.name}: not valid YAML: {exc}") from exc
        if not isinstance(data, dict):
            raise RuleSetError(f"{path.name}: the top level must be a mapping")
        rid = data.get("id")
        if rid != path.stem:
            raise RuleSetError(f"{path.name}: field 'id' must be {path.stem!r} (got {rid!r})")
        raw[rid] = (path, data)
    if not raw:
        raise RuleSetError(f"no rule sets (*.yaml) found in {directory}")
    # Parents first, so that a mistake in a parent is reported against the parent's file.
    order: list[str] = []
    for rid in raw:
        _, origins = _resolve(rid, raw, ())  # also rejects unknown parents and cycles
        chain = [rid]
        parent = raw[rid][1].get("extends")
        while isinstance(parent, str):
            chain.append(parent)
            parent = raw[parent][1].get("extends")
        order.extend(r for r in reversed(chain) if r not in order)
    built: dict[str, AnyRuleSet] = {}
    families: dict[str, str] = {}
    for rid in order:
        merged, origins = _resolve(rid, raw, ())
        source = raw[rid][0].name
        family = family_named(merged, source)
        parent = raw[rid][1].get("extends")
        if parent is not None and families[parent] != family.name:
            raise RuleSetError(f"{source}: field 'family': {family.name!r}, but {parent!r}, "
                               f"which it extends, is of family {families[parent]!r}")
        families[rid] = family.name
        built[rid] = family.build(
            {k: v for k, v in merged.items() if k not in ("family", "extends")}, source, origins)
    return {rid: built[rid] for rid in raw}


def _resolve(rid: str, raw: Mapping[str, tuple[Path, dict[str, Any]]],
             chain: tuple[str, ...]) -> tuple[dict[str, Any], dict[str, str]]:
    """The rule set with its parents merged in, and the file each fan comes from."""
    path, data = raw[rid]
    parent = data.get("extends")
    own = {f["id"]: path.name for f in data.get("fans") or []
           if isinstance(f, dict) and isinstance(f.get("id"), str)}
    if parent is None:
        if "remove_fans" in data:
            raise RuleSetError(f"{path.name}: field 'remove_fans': only a rule set that "
                               "`extends` another can remove fans")
        return dict(data), own
    if not isinstance(parent, str):
        raise RuleSetError(f"{path.name}: field 'extends' must be a rule set id")
    if parent in chain or parent == rid:
        start = chain.index(parent) if parent in chain else len(chain)
        loop = (*chain[start:], rid, parent)
        raise RuleSetError(f"{path.name}: field 'extends': cycle {' -> '.join(loop)}")
    if parent not in raw:
        raise RuleSetError(f"{path.name}: field 'extends': unknown rule set {parent!r}")
    base, origins = _resolve(parent, raw, (*chain, rid))
    merged = {k: v for k, v in base.items() if k not in ("fans", "remove_fans", "extends")}
    merged.update({k: v for k, v in data.items() if k not in ("fans", "remove_fans")})
    if isinstance(base.get("shapes"), dict) and isinstance(data.get("shapes"), dict):
        shapes = {**base["shapes"], **data["shapes"]}
        merged["shapes"] = {k: v for k, v in shapes.items() if v is not None}
    if isinstance(base.get("options"), list) and isinstance(data.get("options"), list):
        merged["options"] = _merge_by(base["options"], data["options"], "name")
    if not ("fans" in base or "fans" in data or "remove_fans" in data):
        return merged, {**origins, **own}  # a family without fans (the card games)
    fans = list(base.get("fans") or [])
    removed = data.get("remove_fans") or []
    if not isinstance(removed, list):
        raise RuleSetError(f"{path.name}: field 'remove_fans' must be a list of fan ids")
    known = {f.get("id") for f in fans if isinstance(f, dict)}
    for fid in removed:
        if not isinstance(fid, str) or fid not in known:
            raise RuleSetError(f"{path.name}: field 'remove_fans': unknown fan {fid!r}")
    fans = [f for f in fans if not (isinstance(f, dict) and f.get("id") in removed)]
    merged["fans"] = _merge_by(fans, data.get("fans") or [], "id", key_by_key=True)
    return merged, {**origins, **own}


def _merge_by(base: list[Any], given: list[Any], key: str,
              key_by_key: bool = False) -> list[Any]:
    """`base` with the entries of `given` in: an entry whose `key` an entry of `base` has
    takes its place (laid over it `key_by_key`, a null value dropping the key), the others
    are added at the end. Entries that are not mappings are kept for validation to refuse."""
    out = list(base)
    index = {e.get(key): i for i, e in enumerate(out) if isinstance(e, dict)}
    for entry in given:
        name = entry.get(key) if isinstance(entry, dict) else None
        if name is not None and name in index:
            old = out[index[name]]
            if key_by_key:
                laid = {**old, **entry}
                entry = {k: v for k, v in laid.items() if v is not None}
            out[index[name]] = entry
        else:
            out.append(entry)
    return out


def build_ruleset(data: Mapping[str, Any], source: str,
                  origins: Mapping[str, str] | None = None) -> RuleSet:
    """Validate one (already merged) rule-set mapping and build the frozen model.

    `origins` maps fan ids to the file that defines them (a parent's, for inherited fans): an
    error in an inherited fan names both files.
    """

    def err(field: str, msg: str, fan: str | None = None) -> RuleSetError:
        if fan:
            origin = (origins or {}).get(fan, source)
            from_ = f" (from {origin})" if origin != source else ""
            return RuleSetError(f"{source}: fan {fan!r}{from_}: field {field!r}: {msg}")
        return RuleSetError(f"{source}: field {field!r}: {msg}")

    unknown = set(data) - TOP_KEYS
    if unknown:
        raise err(sorted(unknown)[0], f"unknown key (allowed: {', '.join(sorted(TOP_KEYS))})")
    for key in REQUIRED_TOP:
        if key not in data:
            raise err(key, "missing")
    for key in ("id", "name", "name_en", "description", "tiles"):
        if not isinstance(data[key], str) or not data[key]:
            raise err(key, "must be a non-empty string")
    players = data["players"]
    if not isinstance(players, int) or isinstance(players, bool) or not 2 <= players <= 4:
        raise err("players", "must be an integer from 2 to 4")
    tileset = TILESETS.get(data["tiles"])
    if tileset is None:
        raise err("tiles", f"unknown tile set {data['tiles']!r} (known: {', '.join(TILESETS)})")
    min_fan = _int(data.get("min_fan", 0), "min_fan", err, minimum=0)
    max_flowers = _int(data.get("max_flowers", 0), "max_flowers", err, minimum=0)
    # 封顶: the fan total never exceeds it (None: no cap).
    max_fan = (None if data.get("max_fan") is None
               else _int(data["max_fan"], "max_fan", err, minimum=1))
    if max_fan is not None and max_fan < min_fan:
        raise err("max_fan", f"must be at least min_fan ({min_fan})")
    first_turn_claims = data.get("first_turn_claims", False)
    if not isinstance(first_turn_claims, bool):
        raise err("first_turn_claims", "must be true or false")

    fans_raw = data["fans"]
    # An empty list is a rule set that counts no fan: it decides legality and money only.
    if not isinstance(fans_raw, list):
        raise err("fans", "must be a list of fans (empty: the rule set counts no fan)")
    ids: list[str] = []
    for i, f in enumerate(fans_raw):
        if not isinstance(f, dict) or not isinstance(f.get("id"), str):
            raise err(f"fans[{i}]", "each fan must be a mapping with a string 'id'")
        if f["id"] in ids:
            raise err("id", "duplicate fan id", f["id"])
        ids.append(f["id"])
    id_set = set(ids)

    options = read_options(data.get("options"), err, players)
    shapes = _shapes(data["shapes"], id_set, err, options)
    fans = [_fan(f, tileset, id_set, set(shapes), err, options) for f in fans_raw]
    shapes = _every_shape(fans_raw, shapes, err)
    # Conditions on options (`when`), checked once the options are read.
    raw_when = {f["id"]: f["when"] for f in fans_raw if f.get("when") is not None}
    fans = _order(fans, err)

    flower_fan = data.get("flower_fan")
    if flower_fan is not None and (not isinstance(flower_fan, str) or flower_fan not in id_set):
        raise err("flower_fan", f"must be a fan id of this rule set (got {flower_fan!r})")
    # The flower fan and a shape's fixed extras are counted at their loaded values.
    fixed = {flower_fan} | {fid for s in shapes.values()
                            for ids in s.extras_by_win_rank.values() for fid in ids}
    for f in fans:
        if f.value_option is not None and f.id in fixed:
            raise err("value", "the flower fan and a shape's fixed extras have a fixed value",
                      f.id)
    policy = data.get("combination_policy")
    if policy is not None and (not isinstance(policy, str) or policy not in POLICIES):
        raise err("combination_policy",
                  f"unknown policy {policy!r} (known: {', '.join(POLICIES)})")
    tie = data.get("tie_break_fans") or []
    if not isinstance(tie, list) or any(not isinstance(t, str) or t not in id_set for t in tie):
        raise err("tie_break_fans", "must be a list of fan ids of this rule set")
    last = [f.id for f in fans if f.when_nothing_else]
    if len(last) > 1:
        raise err("check", "only one fan may use a check decided when nothing else counts "
                  f"(also {', '.join(last[:-1])})", last[-1])

    bool_options = {o.name for o in options if o.type == "bool"}
    for f in fans:
        if f.enabled_by is not None and f.enabled_by not in bool_options:
            raise err("enabled_by", f"must name a bool option of this rule set "
                      f"(got {f.enabled_by!r})", f.id)
    fans = [dataclasses.replace(f, when=_conditions(raw_when.get(f.id), options, f.id, err))
            if f.id in raw_when else f for f in fans]
    meld_kinds = data.get("meld_kinds", list(MELD_KINDS))
    if (not isinstance(meld_kinds, list) or not meld_kinds
            or any(k not in MELD_KINDS for k in meld_kinds)):
        raise err("meld_kinds", "must be a non-empty list of chow, pung, kong")
    requirements = tuple(_requirement(r, i, tileset, err, options)
                         for i, r in enumerate(_list(data.get("requires"), "requires", err)))
    fan_requirements = tuple(
        _fan_requirement(r, i, id_set, options, err)
        for i, r in enumerate(_list(data.get("requires_fans"), "requires_fans", err)))
    payment = _payment(data["payment"], options, err, frozenset(id_set))
    wild = _wild(data.get("wild"), set(shapes), err)
    stand_in = _stand_in(data.get("stand_in"), options, err)
    if stand_in is not None and wild is not None:
        raise err("stand_in", "a rule set with wild tiles cannot also have a stand-in "
                  "winning tile")
    context_rules = tuple(_context_rule(r, i, options, err) for i, r in enumerate(
        _list(data.get("context_rules"), "context_rules", err)))
    if wild is not None:
        _check_wild_reading(wild, fans, requirements, err)
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
    )
    _ = ruleset.plan  # compiled now, so that no request pays for it
    _ = ruleset.fixed_payment_params, ruleset.payment_scheme, ruleset.fixed_payment
    return ruleset


# Shapes the wild-tile decomposer reads (app.domain.wildcards); a rule set with wilds may not
# admit another shape, since its readings would silently ignore the wilds.
WILD_SHAPES = frozenset(name for name, s in SHAPES.items() if s.wilds)


def _wild(value: Any, shapes: set[str], err: Any) -> WildDef | None:
    """`wild:` 混. `indicator` names how a flipped tile makes wild kinds (WILD_RULES) or is
    null; `explicit` lets requests list wild kinds in `context.wilds`."""
    if value is None:
        return None
    if not isinstance(value, dict):
        raise err("wild", "must be a mapping with indicator, explicit, indicator_out_of_play")
    unknown = set(value) - {"indicator", "explicit", "indicator_out_of_play", "description",
                            "read"}
    if unknown:
        raise err(f"wild.{sorted(unknown)[0]}", "unknown key (allowed: indicator, explicit, "
                  "indicator_out_of_play, read, description)")
    read = value.get("read", "reduced")
    if read not in ("reduced", "full"):
        raise err("wild.read", "must be reduced or full")
    indicator = value.get("indicator")
    if indicator is not None and indicator not in WILD_RULES:
        raise err("wild.indicator", f"must be one of {', '.join(WILD_RULES)} or null")
    explicit = value.get("explicit", False)
    out_of_play = value.get("indicator_out_of_play", False)
    for key, flag in (("explicit", explicit), ("indicator_out_of_play", out_of_play)):
        if not isinstance(flag, bool):
            raise err(f"wild.{key}", "must be true or false")
    if indicator is None and not explicit:
        raise err("wild", "a rule set with wilds must accept an indicator or explicit wilds")
    other = sorted(shapes - WILD_SHAPES)
    if other:
        raise err("shapes", f"wild tiles are read in the shapes {', '.join(sorted(WILD_SHAPES))}"
                  f" only; this rule set also admits {', '.join(other)}")
    description = value.get("description", "")
    if not isinstance(description, str):
        raise err("wild.description", "must be a string")
    return WildDef(indicator, explicit, out_of_play, description.strip(), read)


def _check_wild_reading(wild: WildDef, fans: list[FanDef],
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


def _stand_in(value: Any, options: tuple[OptionDef, ...], err: Any) -> StandInDef | None:
    """`stand_in:` 宝: `{when: <conditions on options>, description}`."""
    if value is None:
        return None
    if not isinstance(value, dict) or "when" not in value or set(value) - {"when",
                                                                          "description"}:
        raise err("stand_in", "must be a mapping with when (and description)")
    description = value.get("description", "")
    if not isinstance(description, str):
        raise err("stand_in.description", "must be a string")
    when = value["when"]
    items = when if isinstance(when, list) else [when]
    if not items:
        raise err("stand_in.when", "must be {option, in} or a non-empty list of them")
    return StandInDef(tuple(_condition(w, options, "stand_in.when", None, err)
                            for w in items), " ".join(description.split()))


CONTEXT_RULE_KEYS = {"when", "win_type", "winner_set", "message"}


def _context_rule(r: Any, i: int, options: tuple[OptionDef, ...], err: Any) -> ContextRule:
    """`context_rules:` an entry: while `when` holds, the win is of `win_type` and the
    winner's entry of the per-seat option `winner_set` is set."""
    field = f"context_rules[{i}]"
    if not isinstance(r, dict) or "when" not in r:
        raise err(field, "must be a mapping with when, message and win_type or winner_set")
    bad = set(r) - CONTEXT_RULE_KEYS
    if bad:
        raise err(f"{field}.{sorted(map(str, bad))[0]}",
                  f"unknown key (allowed: {', '.join(sorted(CONTEXT_RULE_KEYS))})")
    if not isinstance(r.get("message"), str) or not r["message"].strip():
        raise err(f"{field}.message", "must be a non-empty string")
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
    return ContextRule(tuple(_condition(w, options, f"{field}.when", None, err)
                             for w in items), " ".join(r["message"].split()),
                       win_type, winner_set)


def _requirement(r: Any, i: int, tileset: TileSet, err: Any,
                 options: tuple[OptionDef, ...]) -> Requirement:
    field = f"requires[{i}]"
    if not isinstance(r, dict):
        raise err(field, "must be a mapping with check, reason and message")
    bad = set(r) - REQUIRE_KEYS
    if bad:
        raise err(f"{field}.{sorted(bad)[0]}", "unknown key")
    for key in ("check", "reason", "message"):
        if not isinstance(r.get(key), str) or not r[key].strip():
            raise err(f"{field}.{key}", "must be a non-empty string")
    spec = CHECKS.get(r["check"])
    # A check of one reading may be a requirement too: the engine then prefers the readings
    # that meet every requirement (a hand wins when some reading does).
    if spec is None or spec.last:
        raise err(f"{field}.check", f"must name a check (got {r['check']!r})")
    params_raw = r.get("params") or {}
    if not isinstance(params_raw, dict):
        raise err(f"{field}.params", "must be a mapping")
    params = _bind(spec.signature, params_raw, tileset, r["check"], err, options)
    return Requirement(check=r["check"], params=MappingProxyType(dict(params_raw)),
                       reason=r["reason"], message=r["message"],
                       bound=bind_check(spec.func, params))


def _fan_requirement(r: Any, i: int, fan_ids: set[str], options: tuple[OptionDef, ...],
                     err: Any) -> FanRequirement:
    """`requires_fans:` an entry: the hand must count some fan besides `some_fan_besides`,
    `when` (optional) the option `option` has one of the values `in`."""
    field = f"requires_fans[{i}]"
    if not isinstance(r, dict):
        raise err(field, "must be a mapping with some_fan_besides, reason and message")
    bad = set(r) - FAN_REQUIRE_KEYS
    if bad:
        raise err(f"{field}.{sorted(map(str, bad))[0]}",
                  f"unknown key (allowed: {', '.join(sorted(FAN_REQUIRE_KEYS))})")
    for key in ("reason", "message"):
        if not isinstance(r.get(key), str) or not r[key].strip():
            raise err(f"{field}.{key}", "must be a non-empty string")
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
        cond = _condition(when, options, f"{field}.when", None, err)
        option, values = cond.option, cond.values
    win_type = r.get("win_type")
    if win_type is not None and win_type not in (SELF_DRAW, DISCARD):
        raise err(f"{field}.win_type", f"must be {SELF_DRAW} or {DISCARD} (got {win_type!r})")
    return FanRequirement(besides=frozenset(besides), reason=r["reason"],
                          message=" ".join(r["message"].split()), option=option, values=values,
                          win_type=win_type)


def _condition(when: Any, options: tuple[OptionDef, ...], field: str, fan: str | None,
               err: Any) -> OptionCondition:
    """`{option: <a bool or enum option>, in: [values]}`: the option has one of the values."""
    if not isinstance(when, dict) or set(when) != {"option", "in"}:
        raise err(field, "must be {option: <a bool or enum option>, in: [values]}", fan)
    od = next((o for o in options if o.name == when["option"]), None)
    if od is None or od.type not in ("bool", "enum"):
        raise err(f"{field}.option", f"must name a bool or enum option of this rule "
                  f"set (got {when['option']!r})", fan)
    allowed = (True, False) if od.type == "bool" else od.choices
    chosen = when["in"]
    if (not isinstance(chosen, list) or not chosen
            or any(not any(type(c) is type(a) and c == a for a in allowed)
                   for c in chosen)):
        raise err(f"{field}.in", f"must list values of option {od.name!r} "
                  f"({', '.join(map(str, allowed))})", fan)
    return OptionCondition(od.name, tuple(chosen))


def _conditions(value: Any, options: tuple[OptionDef, ...], fan: str,
                err: Any) -> tuple[OptionCondition, ...]:
    """A fan's `when`: one condition on an option, or a list of them (all must hold)."""
    items = value if isinstance(value, list) else [value]
    if not items:
        raise err("when", "must be {option, in} or a non-empty list of them", fan)
    return tuple(_condition(w, options, "when" if not isinstance(value, list)
                            else f"when[{i}]", fan, err) for i, w in enumerate(items))


def _list(value: Any, field: str, err: Any) -> list[Any]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise err(field, "must be a list")
    return value


def _int(value: Any, field: str, err: Any, minimum: int | None = None,
         fan: str | None = None) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise err(field, f"must be an integer (got {value!r})", fan)
    if minimum is not None and value < minimum:
        raise err(field, f"must be at least {minimum} (got {value})", fan)
    return value


def _shapes(value: Any, fan_ids: set[str], err: Any,
            options: tuple[OptionDef, ...]) -> dict[str, ShapeDef]:
    """`shapes:` the shapes a hand may be read in. `enabled_by` names a bool option that
    switches a shape on (a house rule: 七对 wins only where the table plays it); at least
    one shape must not depend on an option, so that some hand always wins."""
    if not isinstance(value, dict) or not value:
        raise err("shapes", f"must map shape names to settings (shapes: {', '.join(SHAPES)})")
    bool_options = [o.name for o in options if o.type == "bool"]
    out = {}
    for name, conf in value.items():
        if name not in SHAPES:
            raise err("shapes", f"unknown shape {name!r} (known: {', '.join(SHAPES)})")
        conf = conf or {}
        if not isinstance(conf, dict):
            raise err(f"shapes.{name}", "must be a mapping")
        bad = set(conf) - SHAPE_KEYS
        if bad:
            raise err(f"shapes.{name}.{sorted(bad)[0]}", "unknown key")
        only = conf.get("only_fans")
        if only is not None:
            if not isinstance(only, list) or any(f not in fan_ids for f in only):
                missing = [f for f in (only or []) if f not in fan_ids] if isinstance(
                    only, list) else only
                raise err(f"shapes.{name}.only_fans", f"unknown fan ids {missing!r}")
        extras: dict[int, tuple[str, ...]] = {}
        extras_raw = conf.get("extras_by_win_rank") or {}
        if not isinstance(extras_raw, dict):
            raise err(f"shapes.{name}.extras_by_win_rank",
                      "must map a rank (1 to 9) to a list of fan ids")
        for rank, fans in extras_raw.items():
            if (not isinstance(rank, int) or isinstance(rank, bool) or not 1 <= rank <= 9
                    or not isinstance(fans, list)
                    or any(not isinstance(f, str) or f not in fan_ids for f in fans)):
                raise err(f"shapes.{name}.extras_by_win_rank",
                          "must map a rank (1 to 9) to a list of fan ids of this rule set")
            extras[rank] = tuple(fans)
        final = conf.get("final", False)
        if not isinstance(final, bool):
            raise err(f"shapes.{name}.final", "must be true or false")
        enabled_by = conf.get("enabled_by")
        if enabled_by is not None and enabled_by not in bool_options:
            raise err(f"shapes.{name}.enabled_by", "must name a bool option of this rule set "
                      f"(got {enabled_by!r}; bool options: {', '.join(bool_options) or 'none'})")
        out[name] = ShapeDef(
            id=name, only_fans=frozenset(only) if only is not None else None,
            extras_by_win_rank=MappingProxyType(extras), final=final,
            priority=_int(conf.get("priority", 0), f"shapes.{name}.priority", err),
            enabled_by=enabled_by,
        )
    if all(s.enabled_by is not None for s in out.values()):
        raise err("shapes", "every shape is switched by an option (enabled_by): at least one "
                  "must always be a winning shape")
    return out


def _every_shape(fans_raw: list[dict[str, Any]], shapes: dict[str, ShapeDef],
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


def _fan(f: dict[str, Any], tileset: TileSet, fan_ids: set[str], shape_ids: set[str],
         err: Any, options: tuple[OptionDef, ...]) -> FanDef:
    fid = f["id"]
    bad = set(f) - FAN_KEYS
    if bad:
        raise err(sorted(bad)[0], f"unknown key (allowed: {', '.join(sorted(FAN_KEYS))})", fid)
    for key in REQUIRED_FAN:
        if key not in f:
            raise err(key, "missing", fid)
    for key in ("name", "name_en", "description", "check"):
        if not isinstance(f[key], str) or not f[key].strip():
            raise err(key, "must be a non-empty string", fid)
    value, value_option = _fan_value(f["value"], fid, err, options)
    spec = CHECKS.get(f["check"])
    if spec is None:
        raise err("check", f"unknown check {f['check']!r} (known: {', '.join(sorted(CHECKS))})",
                  fid)
    if value_option is not None and spec.last:
        raise err("value", "a fan decided only when nothing else counts has a fixed value", fid)
    params_raw = f.get("params") or {}
    if not isinstance(params_raw, dict):
        raise err("params", "must be a mapping", fid)
    params = _bind(spec.signature, params_raw, tileset, fid, err, options)
    excludes = f.get("excludes") or []
    if not isinstance(excludes, list) or any(not isinstance(x, str) for x in excludes):
        raise err("excludes", "must be a list of fan ids", fid)
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
        if not isinstance(shapes, list) or any(
                not isinstance(s, str) or s not in shape_ids for s in shapes):
            raise err("shapes", f"must list shapes of this rule set ({', '.join(shape_ids)})", fid)
    ctm = f.get("counts_toward_minimum", True)
    if not isinstance(ctm, bool):
        raise err("counts_toward_minimum", "must be true or false", fid)
    enabled_by = f.get("enabled_by")
    if enabled_by is not None and not isinstance(enabled_by, str):
        raise err("enabled_by", "must name a bool option", fid)
    needs_other = f.get("needs_other_fan", False)
    if not isinstance(needs_other, bool):
        raise err("needs_other_fan", "must be true or false", fid)
    if needs_other and spec.last:
        raise err("needs_other_fan", "a fan decided only when nothing else counts cannot "
                  "also need another fan", fid)
    bound = bind_check(spec.func, params)
    return FanDef(
        id=fid, name=f["name"], name_en=f["name_en"], value=value, check=f["check"],
        params=MappingProxyType(dict(params_raw)), excludes=tuple(excludes),
        description=" ".join(f["description"].split()),
        shapes=frozenset(shapes) if shapes is not None else None,
        when_nothing_else=spec.last, counts_toward_minimum=ctm, enabled_by=enabled_by,
        needs_other_fan=needs_other, value_option=value_option, bound=bound,
    )


def _fan_value(value: Any, fid: str, err: Any,
               options: tuple[OptionDef, ...]) -> tuple[int, str | None]:
    """A fan's `value`: an integer of at least 0, or `{option: <an int option>}` whose
    minimum is at least 0 (the value each request chooses; its default stands for it)."""
    if not isinstance(value, dict):
        return _int(value, "value", err, minimum=0, fan=fid), None
    od = next((o for o in options if o.name == value.get("option")), None)
    if (set(value) != {"option"} or od is None or od.type != "int" or od.minimum is None
            or od.minimum < 0):
        named = [o.name for o in options if o.type == "int"]
        raise err("value", "must be an integer or {option: <an int option with a minimum of "
                  f"at least 0>}} (got {value!r}; int options: {', '.join(named) or 'none'})",
                  fid)
    return od.default, od.name


def bind_check(func: Any, params: dict[str, Any]) -> Any:
    """`func` with its keyword parameters fixed: a function of (view, ctx).

    A copy of the check's own function object whose keyword-only defaults are the YAML
    parameters. Calling it runs the check's body directly: a `functools.partial` with
    keywords costs several times more per call, and the engine calls these for every fan of
    every reading.
    """
    if not params:
        return func
    bound = types.FunctionType(func.__code__, func.__globals__, func.__name__,
                               func.__defaults__, func.__closure__)
    bound.__kwdefaults__ = {**(func.__kwdefaults__ or {}), **params}
    bound.__doc__ = func.__doc__
    bound.__qualname__ = func.__qualname__
    bound.__module__ = func.__module__
    return bound


def _bind(sig: inspect.Signature, raw: dict[str, Any], tileset: TileSet, fid: str,
          err: Any, options: tuple[OptionDef, ...] = ()) -> dict[str, Any]:
    """Check YAML params against the check's keyword-only parameters and convert them."""
    accepted = {n: p for n, p in sig.parameters.items() if p.kind is p.KEYWORD_ONLY}
    out: dict[str, Any] = {}
    for name, value in raw.items():
        if name not in accepted:
            allowed = ", ".join(accepted) or "none"
            raise err(f"params.{name}", f"not a parameter of this check (takes: {allowed})", fid)
        out[name] = _convert(accepted[name].annotation, value, tileset, f"params.{name}", fid,
                             err, options)
    for name, p in accepted.items():
        if name not in out and p.default is inspect.Parameter.empty:
            raise err(f"params.{name}", "missing required parameter", fid)
    return out


# Check parameters that name an option of the rule set, by the option type they need.
_OPTION_PARAMS: dict[Any, str] = {BoolOption: "bool", PerSeatOption: "per_seat"}


def _convert(ann: Any, value: Any, tileset: TileSet, field: str, fid: str, err: Any,
             options: tuple[OptionDef, ...] = ()) -> Any:
    origin = typing.get_origin(ann)
    if origin in (types.UnionType, typing.Union):
        args = [a for a in typing.get_args(ann) if a is not type(None)]
        if value is None:
            return None
        return _convert(args[0], value, tileset, field, fid, err, options)
    kind = _OPTION_PARAMS.get(ann)
    if kind is not None:
        named = [o.name for o in options if o.type == kind]
        if value not in named:
            raise err(field, f"must name a {kind} option of this rule set (got {value!r}; "
                      f"{kind} options: {', '.join(named) or 'none'})", fid)
        return value
    if ann is TileGroup:
        if not isinstance(value, str):
            raise err(field, "must be a tile notation string such as '19m19p19sESWNCFP'", fid)
        try:
            tiles = frozenset(parse_tiles(value, tileset))
        except HandError as exc:
            raise err(field, f"bad tile notation: {exc.message}", fid) from exc
        if not tiles:
            raise err(field, "names no tile", fid)
        flowers = [tileset.code(t) for t in tiles if tileset.kinds[t].is_flower]
        if flowers:
            raise err(field, f"flowers are not hand tiles ({', '.join(flowers)})", fid)
        return tiles
    if origin is typing.Literal:
        choices = typing.get_args(ann)
        if value not in choices:
            raise err(field, f"must be one of {', '.join(map(str, choices))} (got {value!r})",
                      fid)
        return value
    if ann is bool:
        if not isinstance(value, bool):
            raise err(field, f"must be true or false (got {value!r})", fid)
        return value
    if ann is int:
        return _int(value, field, err, fan=fid)
    if ann is str:
        if not isinstance(value, str):
            raise err(field, f"must be a string (got {value!r})", fid)
        return value
    raise err(field, f"the check declares an unsupported parameter type {ann!r}", fid)


def _order(fans: list[FanDef], err: Any) -> list[FanDef]:
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


def _accepts(ann: Any, value: Any) -> bool:
    """Whether a YAML value fits a scheme parameter annotated int, str, bool, int | str or
    Sequence[int] (a list of integers)."""
    if typing.get_origin(ann) is collections.abc.Sequence:
        return isinstance(value, list) and all(
            isinstance(v, int) and not isinstance(v, bool) for v in value)
    kinds = typing.get_args(ann) if typing.get_origin(ann) in (types.UnionType,
                                                               typing.Union) else (ann,)
    if isinstance(value, bool):
        return bool in kinds
    return any(isinstance(value, k) for k in kinds if isinstance(k, type))


def _is_mapping(ann: Any) -> bool:
    """A scheme parameter that takes a mapping (its scheme's `prepare` checks it)."""
    base = getattr(ann, "__supertype__", ann)
    return base is collections.abc.Mapping or typing.get_origin(base) in (
        collections.abc.Mapping, dict)


def _type_words(ann: Any) -> str:
    kinds = typing.get_args(ann) if typing.get_origin(ann) in (types.UnionType,
                                                               typing.Union) else (ann,)
    words = {int: "an integer", str: "a string", bool: "true or false"}
    return " or ".join(words.get(k, str(k)) for k in kinds)


def _payment(p: Any, options: tuple[OptionDef, ...], err: Any,
             fan_ids: frozenset[str]) -> PaymentDef:
    if not isinstance(p, dict):
        raise err("payment", "must be a mapping with a 'scheme'")
    bad = set(p) - PAYMENT_KEYS
    if bad:
        raise err(f"payment.{sorted(bad)[0]}", "unknown key")
    scheme = p.get("scheme")
    if not isinstance(scheme, str) or scheme not in SCHEMES:
        raise err("payment.scheme", f"unknown scheme {scheme!r} (known: {', '.join(SCHEMES)})")
    params = p.get("params") or {}
    if not isinstance(params, dict):
        raise err("payment.params", "must be a mapping")
    sig = inspect.signature(SCHEMES[scheme].value, eval_str=True)
    accepted = {n for n, q in sig.parameters.items()
                if q.kind is q.KEYWORD_ONLY and n not in RESERVED_PARAMS}
    option_names = {o.name for o in options}
    for name, value in params.items():
        field = f"payment.params.{name}"
        if name not in accepted:
            raise err(field, f"not a parameter of scheme {scheme!r} (takes: "
                      f"{', '.join(sorted(accepted))})")
        ann = sig.parameters[name].annotation
        if isinstance(value, dict) and _is_mapping(ann):
            continue  # a mapping parameter (points tables): the scheme's `prepare` checks it
        if isinstance(value, dict):
            # A parameter the request chooses: {option: <name of a declared option>}, or
            # {option: <an enum or bool option>, values: {choice: value}}, the value each
            # choice stands for.
            if set(value) == {"option", "values"}:
                od = next((o for o in options if o.name == value["option"]), None)
                choices = (None if od is None else [True, False] if od.type == "bool"
                           else od.choices if od.type == "enum" else None)
                mapped = value["values"]
                if (choices is None or not isinstance(mapped, dict)
                        or set(mapped) != set(choices)):
                    raise err(field, "{option, values}: option must name an enum or bool "
                              "option and values map each of its choices to a value")
                if not all(_accepts(ann, v) for v in mapped.values()):
                    raise err(field, f"values must be {_type_words(ann)}")
                continue
            if set(value) != {"option"} or value["option"] not in option_names:
                raise err(field, "must be a value or {option: <a declared option>}")
        elif not _accepts(ann, value):
            raise err(field, f"must be {_type_words(ann)} or {{option: name}} (got {value!r})")
    for name in accepted:
        if name not in params and sig.parameters[name].default is inspect.Parameter.empty:
            raise err(f"payment.params.{name}", "missing required parameter")
    prepare = SCHEMES[scheme].prepare
    if prepare is not None:
        try:
            params = prepare(dict(params), {o.name: o for o in options}, fan_ids)
        except SchemeParamError as exc:
            raise err(f"payment.params.{exc.field}", exc.message) from None
    return PaymentDef(scheme=scheme, params=MappingProxyType(dict(params)),
                      description=str(p.get("description", "")))


# The two built-in families (`app.rules.families`): the tile games, this module's, and the
# card games scored by groups (`app.rules.card_loader`).
register_family(RuleFamily(
    TILES, RuleSet, build_ruleset,
    "tile games scored by fans: tiles, melds, wild tiles, additive fans with exclusions"))
register_family(card_loader.FAMILY)
