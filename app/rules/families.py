"""The families of game, as the rules layer knows them: a family's name, how a rule set of it
is built from its YAML, and the class of the rule sets it builds.

A rule set names its family in its YAML (`family: cards`); a file that names none is a tile
game (`TILES`), so the tile rule sets need no such line. Every family shares the reading of
the file (`app.rules.loader`: one file per rule set, a strict YAML reader, `extends:` with its
parents merged in) and the error format (`app.rules.errors`); the family builds the merged
mapping into its rule-set object, and its builder alone knows its keys. A rule set extends
only a rule set of its own family.

Two families are built in, registered by `app.rules.loader`:

- `tiles`: tile games scored by fans (`app.rules.model.RuleSet`, built by
  `app.rules.loader.build_ruleset`): tile notation, melds, wild tiles and the compiled
  decomposition; additive fans with exclusions; rounds settled where the rule set says how;
- `cards`: card games scored by groups (`app.rules.cards.CardRuleSet`, built by
  `app.rules.cards.loader`): a deck and an exact-cover arrangement of the hand into groups;
  胡息 → 囤 → 名堂 scoring steps; no rounds.

Each layer above registers what it owns under the same name (the service: `app.service
.families`, request readers, engine calls and writers). `family_of(ruleset)` is the one way
to ask which family a loaded rule set is of: nothing outside the registries asks its class.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from app.rules.errors import RuleSetError

__all__ = [
    "CARDS",
    "TILES",
    "Builder",
    "RuleFamily",
    "ServedRuleSet",
    "family_named",
    "family_of",
    "register_family",
    "rule_families",
    "rule_family",
    "unregister_family",
]

TILES = "tiles"  # the family of a rule set whose YAML names none
CARDS = "cards"


class ServedRuleSet(Protocol):
    """What a loaded rule set of every family has: what the rule-set list shows of it
    (`GET /v1/rulesets`), and whether it is compiled for scoring (`/readyz`)."""

    @property
    def id(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def name_en(self) -> str: ...
    @property
    def description(self) -> str: ...
    @property
    def players(self) -> int: ...
    @property
    def ready(self) -> bool: ...
    # Its match rules (an `app.rules.matches.MatchRules`), or None. Typed loosely: the
    # registry imports none of the modules that read a rule set, which import it.
    @property
    def match(self) -> Any: ...


# (the file's mapping with its parents merged in, `family:` and `extends:` taken out; the
# file's name; the file each tile fan comes from) -> the rule set, compiled for scoring.
Builder = Callable[[Mapping[str, Any], str, Mapping[str, str]], Any]


@dataclass(frozen=True)
class RuleFamily:
    """A family of game as the rules layer knows it."""

    name: str  # what `family:` says in the YAML
    ruleset_type: type[Any]  # the class of its rule sets (`family_of` looks it up)
    build: Builder  # raises `RuleSetError` naming the file and the field at fault
    description: str  # one line: what sets the family apart


_FAMILIES: dict[str, RuleFamily] = {}
_BY_TYPE: dict[type[Any], str] = {}


def register_family(family: RuleFamily) -> None:
    """Add a family; `ValueError` when its name or its rule-set class is taken."""
    if family.name in _FAMILIES:
        raise ValueError(f"a family named {family.name!r} is registered already")
    if family.ruleset_type in _BY_TYPE:
        raise ValueError(f"{family.ruleset_type.__name__} is the rule set of family "
                         f"{_BY_TYPE[family.ruleset_type]!r} already")
    _FAMILIES[family.name] = family
    _BY_TYPE[family.ruleset_type] = family.name


def unregister_family(name: str) -> None:
    """Remove a family (a test's own, when it is done)."""
    family = _FAMILIES.pop(name)
    del _BY_TYPE[family.ruleset_type]


def rule_families() -> tuple[str, ...]:
    """The names of the registered families, in the order they were registered."""
    return tuple(_FAMILIES)


def rule_family(name: str) -> RuleFamily:
    """The family of that name; `KeyError` when none is registered."""
    return _FAMILIES[name]


def family_named(data: Mapping[str, Any], source: str) -> RuleFamily:
    """The family a rule set's mapping names (`family:`, `TILES` when absent);
    `RuleSetError` when it names none registered."""
    name = data.get("family", TILES)
    family = _FAMILIES.get(name) if isinstance(name, str) else None
    if family is None:
        raise RuleSetError(f"{source}: field 'family': unknown family {name!r} "
                           f"(known: {', '.join(_FAMILIES)})")
    return family


def family_of(ruleset: object) -> str:
    """The name of the family a loaded rule set is of; `LookupError` for an object that is
    the rule set of no registered family."""
    found = _BY_TYPE.get(type(ruleset))
    if found is not None:
        return found
    for cls in type(ruleset).__mro__[1:]:  # a subclass of a family's rule-set class
        found = _BY_TYPE.get(cls)
        if found is not None:
            return found
    raise LookupError(f"a {type(ruleset).__name__} is the rule set of no registered family")
