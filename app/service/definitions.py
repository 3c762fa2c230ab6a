"""The writers every family's rule-set document shares (`app.service.tiles.documents
.tile_ruleset_document` for the tile games, `app.service.cards.documents.card_ruleset_document`
for card games; `app.service.families` picks a rule set's): rule-set data as plain JSON, an
option's definition, and a rule set's summary (what `GET /v1/rulesets` lists of it)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from app.rules.choices import Chosen
from app.rules.families import ServedRuleSet
from app.rules.matches import MatchRules
from app.rules.options import OptionDef


def plain_value(value: Any) -> Any:
    """Rule-set data (mappings, tuples, frozen dataclasses) as plain JSON values; a value
    chosen by an option as the YAML writes it (`{option}`, `{option, values}`)."""
    if isinstance(value, Chosen):
        return plain_value(value.written())
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: plain_value(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Mapping):
        return {str(k): plain_value(v) for k, v in value.items()}
    if isinstance(value, list | tuple | frozenset | set):
        return [plain_value(v) for v in value]
    return value


def option_definition(option: OptionDef) -> dict[str, Any]:
    out: dict[str, Any] = {
        "name": option.name,
        "type": option.type,
        "default": plain_value(option.default),
        "description": option.description,
    }
    if option.choices:
        out["choices"] = plain_value(option.choices)
    if option.minimum is not None:
        out["minimum"] = option.minimum
    if option.maximum is not None:
        out["maximum"] = option.maximum
    if option.dealer_entry is not None:
        out["dealer_entry"] = option.dealer_entry
    return out


def match_definition(rs: ServedRuleSet) -> dict[str, Any] | None:
    """How a match of the rule set is played (its `match:` section), or None."""
    match = getattr(rs, "match", None)
    if not isinstance(match, MatchRules):
        return None
    return {"description": match.description,
            "options": [option_definition(o) for o in match.options],
            "rules": plain_value(dict(match.values))}


def ruleset_summary(rs: ServedRuleSet) -> dict[str, Any]:
    return {"id": rs.id, "name": rs.name, "name_en": rs.name_en, "players": rs.players,
            "description": rs.description}
