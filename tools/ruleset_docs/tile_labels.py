"""The labels a tile rule set's page writes everywhere: a fan, an option with its default, an
amount of the settlement, a switch; and the keys of the rule-set document the page knows."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, cast

from app.rules.families import TILES, family_of
from app.rules.model import RuleSet
from app.rules.settlement import OFF
from tools.ruleset_docs.common import DOCUMENT_SKIPPED, DocsError, code, flow, known, md
from tools.ruleset_docs.sources import Source

__all__ = ["DOCUMENT_KEYS", "FAN_KEYS", "FAN_REQUIREMENT_KEYS", "PAYMENT_KEYS",
           "REQUIREMENT_KEYS", "SHAPE_DEF_FIELDS", "TileLabels"]

# The keys of the rule-set document (`ruleset_document`) this page renders (and those it
# leaves out on purpose, `common.DOCUMENT_SKIPPED`).
DOCUMENT_KEYS = frozenset({
    "id", "name", "name_en", "players", "description", "tiles", "min_fan", "max_fan",
    "first_turn_claims", "max_flowers", "fans", "options", "meld_kinds", "requirements",
    "fan_requirements", "payment", "settlement", "wild", "match"})
FAN_KEYS = frozenset({"id", "name", "name_en", "value", "excludes", "description"})
REQUIREMENT_KEYS = frozenset({"check", "params", "reason", "message"})
FAN_REQUIREMENT_KEYS = frozenset({"some_fan_besides", "when", "win_type", "reason",
                                  "message"})
PAYMENT_KEYS = frozenset({"scheme", "params", "description"})
# The fields of a rule set's shape (`app.rules.definitions.ShapeDef`) the Shapes section says.
SHAPE_DEF_FIELDS = frozenset({"id", "only_fans", "extras_by_win_rank", "final", "priority",
                              "enabled_by"})


class TileLabels:
    """What every section of a tile rule set's page looks up, and its labels."""

    def __init__(self, src: Source) -> None:
        if family_of(src.ruleset) != TILES:
            raise DocsError(f"{src.ruleset.id}: not a tile rule set; its family has a page of "
                            "its own")
        self.src = src
        self.rs = cast(RuleSet, src.ruleset)
        self.doc = src.document
        known(self.doc, DOCUMENT_KEYS | DOCUMENT_SKIPPED, "the rule-set document")
        self.options = {o["name"]: o for o in self.doc["options"]}

    def fan(self, fid: str) -> str:
        f = self.rs.fan_by_id.get(fid)
        if f is None:
            raise DocsError(f"{self.rs.id}: no fan {fid!r}")
        return f"{md(f.name)} {code(fid)}"

    def fans(self, ids: Iterable[str]) -> str:
        wanted = set(ids)
        ordered = [f.id for f in self.rs.fans if f.id in wanted]
        return ", ".join(self.fan(fid) for fid in ordered)

    def fan_key(self, name: str, where: str) -> str:
        """A fan a case names by id or by Chinese name, as the case tests read it."""
        if name in self.rs.fan_by_id:
            return name
        for f in self.rs.fans:
            if f.name == name:
                return f.id
        raise DocsError(f"{where}: unknown fan {name!r} of rule set {self.rs.id}")

    def option(self, name: str) -> str:
        o = self.options.get(name)
        if o is None:
            raise DocsError(f"{self.rs.id}: no option {name!r}")
        return f"the option {code(name)} (default {code(flow(o['default']))})"

    def amount(self, value: Any, golden: bool = False) -> str:
        """An amount of the settlement: bases, or the option that gives them."""
        if isinstance(value, Mapping) and set(value) == {"option"}:
            text = f"{self.option(value['option'])} × base"
            if golden and OFF in self.options[value["option"]].get("choices", ()):
                text += f"; {code(OFF)}: paid as a concealed kong"
            return text
        if isinstance(value, int) and not isinstance(value, bool):
            return f"{value} × base"
        raise DocsError(f"{self.rs.id}: an amount must be an integer or an option, "
                        f"not {value!r}")

    def flag(self, value: Any, yes: str, no: str) -> str:
        """A switch of the settlement, as a sentence: fixed (`yes` or `no`), or the bool
        option that gives it (both)."""
        if isinstance(value, Mapping) and set(value) == {"option"}:
            return f"As {self.option(value['option'])} says: true, {yes}; false, {no}."
        if isinstance(value, bool):
            text = yes if value else no
            return text[0].upper() + text[1:] + "."
        raise DocsError(f"{self.rs.id}: a switch must be true, false or an option, "
                        f"not {value!r}")
