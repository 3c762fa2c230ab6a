"""Rule-set YAML -> validated, frozen rule sets: the entry of loading.

`load_rulesets` reads every file of a directory (`app.rules.load_files`: strict YAML, a rule
set that `extends` another merged with it), parents first, so that a mistake in a parent is
reported against the parent's file, and builds each rule set by its family
(`build_by_family`): a tile game (`app.rules.tile_loader`) or a card game scored by groups
(`app.rules.card_loader`). A rule set that cannot be served stops start-up with a
`RuleSetError` (`app.rules.load_errors`) that names the file, the fan and the field.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from app.rules.card_loader import build_card_ruleset
from app.rules.load_errors import RuleSetError
from app.rules.load_files import parents_first, read_rule_files, resolve
from app.rules.load_options import read_options
from app.rules.model import AnyRuleSet
from app.rules.tile_loader import build_ruleset


def load_rulesets(directory: Path) -> dict[str, AnyRuleSet]:
    """Load every `*.yaml` in `directory`; the file name (without .yaml) must be the id."""
    raw = read_rule_files(directory)
    built: dict[str, AnyRuleSet] = {}
    for rid in parents_first(raw):
        merged, origins = resolve(rid, raw, ())
        built[rid] = build_by_family(merged, raw[rid][0].name, origins)
    return {rid: built[rid] for rid in raw}


def build_by_family(merged: Mapping[str, Any], source: str,
                    origins: Mapping[str, str]) -> AnyRuleSet:
    """One merged rule set built by its family: a rule set with a `deck:` is a card game
    scored by groups (`app.rules.card_loader`), any other a tile game."""
    if "deck" in merged:
        return build_card_ruleset(merged, source, RuleSetError, read_options)
    return build_ruleset(merged, source, origins)
