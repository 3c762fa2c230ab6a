"""The keys of each section of a rule set's YAML, for both families, declared as data in one
place: what a section may hold (`allowed`) and must hold (`required`). The loaders read their
key sets from here and refuse with `unknown_key` / `missing_key`, so that what a file may say
is read off one table (the value types stay with each section's reader).

A section is named by its path in the YAML, a list's entries by `[]` and a mapping's values
by `.*` (`fans[]`, `settlement.kongs.*`, `groups.*`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType

from app.rules.families import CARDS, TILES

__all__ = ["SECTIONS", "Section", "missing_key", "section", "unknown_key"]


@dataclass(frozen=True)
class Section:
    """The keys a section may hold and those it must."""

    allowed: frozenset[str]
    required: tuple[str, ...] = ()

    def words(self) -> str:
        """The allowed keys, sorted, as error messages list them."""
        return ", ".join(sorted(self.allowed))


def _s(allowed: str, required: str = "") -> Section:
    return Section(frozenset(allowed.split()), tuple(required.split()))


# Options are declared alike in every family (`app.rules.options.read_options`).
_OPTION = _s("name type default description choices minimum maximum dealer_entry",
             "name type default description")

SECTIONS: Mapping[str, Mapping[str, Section]] = MappingProxyType({
    TILES: MappingProxyType({
        "": _s("id name name_en description players tiles extends min_fan max_flowers "
               "flower_fan shapes combination_policy tie_break_fans options payment fans "
               "remove_fans meld_kinds requires settlement wild requires_fans stand_in "
               "context_rules max_fan first_turn_claims",
               "id name name_en description players tiles shapes payment fans"),
        "options[]": _OPTION,
        "fans[]": _s("id name name_en value check params excludes description shapes "
                     "counts_toward_minimum enabled_by when needs_other_fan every_shape",
                     "id name name_en value check description"),
        "shapes.*": _s("only_fans extras_by_win_rank final priority enabled_by"),
        "payment": _s("scheme params description", "scheme"),
        "requires[]": _s("check params reason message", "check reason message"),
        "requires_fans[]": _s("some_fan_besides when win_type reason message",
                              "some_fan_besides reason message"),
        "context_rules[]": _s("when win_type winner_set message", "when message"),
        "wild": _s("indicator explicit indicator_out_of_play description read"),
        "stand_in": _s("when description", "when"),
        "settlement": _s("kongs robbed_kong_void kong_discard_money drawn_game win_ends_round "
                         "seat_factors follow_dealer reveal kong_chain_doubling kong_tiles",
                         "kongs drawn_game"),
        "settlement.kongs.*": _s("payer amount only_if_fresh", "payer amount"),
        "settlement.drawn_game": _s("max_suits pig_penalty pig_counts_as_not_ready "
                                    "not_ready_pays refund_kongs ready_as kongs_stand "
                                    "revealed_pay"),
        "settlement.drawn_game.revealed_pay": _s("amount payers", "amount"),
        "settlement.follow_dealer": _s("amount", "amount"),
        "settlement.reveal": _s("option", "option"),
        "settlement.kong_tiles": _s("tiles factor enabled", "tiles factor"),
    }),
    CARDS: MappingProxyType({
        "": _s("id name name_en description players players_option deck groups hand "
               "win_card win_types context_flags context_cards figures names rank_by scoring "
               "patterns options", "id name name_en description players"),
        "options[]": _OPTION,
        "deck": _s("name ranks copies suits attributes aliases", "ranks copies suits"),
        "deck.suits[]": _s("letter name name_en cards", "letter name name_en cards"),
        "groups.*": _s("name name_en description cards points made_of table flags"),
        "hand": _s("groups locked pair cards per_extra", "groups locked pair cards per_extra"),
        "win_types.*": _s("name payer pays shares reason", "pays"),
        "patterns[]": _s("id name name_en description check params value", "id check"),
        "names": _s("points units"),
    }),
})


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
