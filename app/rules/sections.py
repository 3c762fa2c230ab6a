"""The keys of each section of a rule set's YAML, declared as data per family (the tile
games' here, a card game's by its loader: `register_sections`): what a section may hold
(`allowed`), must hold (`required`) and, where a key's value has one type whatever the rule
set, that type (`key:type`, `TYPES`). The loaders check a section against its declaration
before reading it and refuse with the field and a message, so that what a file may say is
read off one table per family: `Section.fault` (keys, required keys, types) for the top level
of both families, fans, options, shapes, payment, requirements, wild tiles and 宝;
`unknown_key` / `missing_key` for the settlement's and the card deck's inner sections, whose
values are mostly chosen by options or read as tiles and cards.

A key declared without a type is checked by its reader: a value an option may choose
(`{option: ...}`), a tile string, a value whose meaning depends on another key. The readers
keep what a type cannot say: ranges, references to other fans or options, tile notation.

A section is named by its path in the YAML, a list's entries by `[]` and a mapping's values
by `.*` (`fans[]`, `settlement.kongs.*`, `groups.*`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from app.rules.families import TILES

__all__ = [
    "OPTION_KEYS",
    "SECTIONS",
    "TYPES",
    "Section",
    "declared",
    "missing_key",
    "register_sections",
    "section",
    "unknown_key",
]


def _integer(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


# The value types a key may declare: each a test and the message of a value that fails it.
TYPES: Mapping[str, tuple[Callable[[Any], bool], str]] = MappingProxyType({
    "text": (lambda v: isinstance(v, str) and bool(v.strip()), "must be a non-empty string"),
    "int": (_integer, "must be an integer"),
    "bool": (lambda v: isinstance(v, bool), "must be true or false"),
    "list": (lambda v: isinstance(v, list), "must be a list"),
    "texts": (lambda v: isinstance(v, list) and all(isinstance(x, str) for x in v),
              "must be a list of strings"),
    "map": (lambda v: isinstance(v, dict), "must be a mapping"),
})


@dataclass(frozen=True)
class Section:
    """The keys a section may hold, those it must, and the type of those that have one."""

    allowed: frozenset[str]
    required: tuple[str, ...] = ()
    types: Mapping[str, str] = field(default_factory=dict)

    def words(self) -> str:
        """The allowed keys, sorted, as error messages list them."""
        return ", ".join(sorted(self.allowed))

    def fault(self, raw: Mapping[Any, Any]) -> tuple[str, str] | None:
        """The first fault of a section's mapping as (key, message), or None: a key it does
        not allow (sorted first), a key it requires and lacks (in the declared order), a value
        not of its key's declared type (in the declared order; an optional key given as null
        counts as absent)."""
        bad = unknown_key(raw, self)
        if bad is not None:
            return bad, f"unknown key (allowed: {self.words()})"
        lacking = missing_key(raw, self)
        if lacking is not None:
            return lacking, "missing"
        for key, type_ in self.types.items():
            if key not in raw or (raw[key] is None and key not in self.required):
                continue
            test, message = TYPES[type_]
            if not test(raw[key]):
                return key, f"{message} (got {_shown(raw[key])})"
        return None


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def declared(allowed: str, required: str = "") -> Section:
    """A section from its keys (`key` or `key:type`, `TYPES`) and its required keys."""
    words = [w.partition(":") for w in allowed.split()]
    for key, _, type_ in words:
        assert not type_ or type_ in TYPES, f"unknown type {type_!r} of {key!r}"
    return Section(frozenset(k for k, _, _ in words), tuple(required.split()),
                   MappingProxyType({k: t for k, _, t in words if t}))


_s = declared  # short, for the table below

# Options are declared alike in every family (`app.rules.options.read_options`).
OPTION_KEYS = _s("name:text type:text default description:text choices:list minimum:int "
                 "maximum:int dealer_entry:int",
                 "name type default description")

# Each family's sections, by family (`register_sections`); the tile games' are declared here.
SECTIONS: dict[str, Mapping[str, Section]] = {
    TILES: MappingProxyType({
        "": _s("id:text name:text name_en:text description:text players:int tiles:text "
               "extends:text min_fan:int max_flowers:int flower_fan:text shapes:map "
               "combination_policy:text tie_break_fans:texts options:list payment:map "
               "fans:list remove_fans:texts meld_kinds:texts requires:list settlement:map "
               "wild:map requires_fans:list stand_in:map context_rules:list max_fan:int "
               "first_turn_claims:bool match:map",
               "id name name_en description players tiles shapes payment fans"),
        "options[]": OPTION_KEYS,
        "fans[]": _s("id:text name:text name_en:text value check:text params:map "
                     "excludes:texts description:text shapes:texts counts_toward_minimum:bool "
                     "enabled_by when needs_other_fan:bool every_shape:bool final:bool",
                     "id name name_en value check description"),
        "shapes.*": _s("only_fans:texts extras_by_win_rank:map final:bool priority:int "
                       "enabled_by"),
        "payment": _s("scheme:text params:map description:text", "scheme"),
        "requires[]": _s("check:text params:map reason:text message:text",
                         "check reason message"),
        "requires_fans[]": _s("some_fan_besides:texts when win_type:text reason:text "
                              "message:text", "some_fan_besides reason message"),
        "context_rules[]": _s("when win_type:text winner_set:text message:text",
                              "when message"),
        "wild": _s("indicator:text explicit:bool indicator_out_of_play:bool description:text "
                   "read:text"),
        "stand_in": _s("when description:text", "when"),
        "settlement": _s("kongs robbed_kong_void kong_discard_money drawn_game win_ends_round "
                         "seat_factors follow_dealer reveal kong_chain_doubling kong_tiles "
                         "one_winner special_kongs",
                         "kongs drawn_game"),
        "settlement.kongs.*": _s("payer amount only_if_fresh must_be_fresh", "payer amount"),
        "settlement.drawn_game": _s("max_suits declared_void pig_penalty "
                                    "pig_counts_as_not_ready not_ready_pays refund_kongs "
                                    "ready_as kongs_stand revealed_pay"),
        "settlement.drawn_game.revealed_pay": _s("amount payers", "amount"),
        "settlement.follow_dealer": _s("amount", "amount"),
        "settlement.reveal": _s("option ready_hand", "option"),
        "settlement.kong_tiles": _s("tiles factor enabled", "tiles factor"),
        "settlement.special_kongs": _s("amount sets stand_in", "amount sets"),
        "settlement.special_kongs.sets[]": _s("name of", "name of"),
    }),
}


def register_sections(family: str, sections: Mapping[str, Section]) -> None:
    """Declare the sections of a family's YAML (its loader does, when it is imported)."""
    if family in SECTIONS:
        raise ValueError(f"the sections of family {family!r} are declared already")
    SECTIONS[family] = MappingProxyType(dict(sections))


def section(family: str, path: str) -> Section:
    """The declared keys of a section of a family's YAML (`""`: the top level)."""
    return SECTIONS[family][path]


def unknown_key(keys: Iterable[object], declared: Section) -> str | None:
    """The first key (sorted) the section does not allow, or None."""
    bad = sorted(str(k) for k in keys if k not in declared.allowed)
    return bad[0] if bad else None


def missing_key(keys: Iterable[object], declared: Section) -> str | None:
    """The first key the section requires and `keys` lack, in the declared order, or None."""
    present = set(keys)
    return next((k for k in declared.required if k not in present), None)
