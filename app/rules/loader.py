"""Rule-set YAML -> validated, frozen rule sets: the entry of loading.

`load_rulesets` reads every file of a directory (`app.rules.load_files`: strict YAML, a rule
set that `extends` another of its family merged with it), parents first, so that a mistake in
a parent is reported against the parent's file, and builds each rule set by its family
(`family:`, the tile games when absent; `app.rules.families`): a tile game
(`app.rules.tile_loader`) or a card game scored by groups (`app.rules.cards.loader`). A rule set
that cannot be served stops start-up with a `RuleSetError` (`app.rules.errors`) that names the
file, the fan and the field.
"""

from __future__ import annotations

from pathlib import Path

from app.rules.cards import loader as card_loader
from app.rules.errors import RuleSetError
from app.rules.families import TILES, RuleFamily, family_named, register_family
from app.rules.load_files import parents_first, read_rule_files, resolve
from app.rules.model import AnyRuleSet, RuleSet
from app.rules.tile_loader import build_ruleset


def load_rulesets(directory: Path) -> dict[str, AnyRuleSet]:
    """Load every `*.yaml` in `directory`; the file name (without .yaml) must be the id.
    Its `family:` (`app.rules.families`; the tile games when absent) builds it, once the
    file is read and its parents merged in."""
    raw = read_rule_files(directory)
    built: dict[str, AnyRuleSet] = {}
    families: dict[str, str] = {}
    for rid in parents_first(raw):
        merged, origins = resolve(rid, raw, ())
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


# The two built-in families (`app.rules.families`): the tile games (`app.rules.tile_loader`)
# and the card games scored by groups (`app.rules.cards.loader`).
register_family(RuleFamily(
    TILES, RuleSet, build_ruleset,
    "tile games scored by fans: tiles, melds, wild tiles, additive fans with exclusions"))
register_family(card_loader.FAMILY)
