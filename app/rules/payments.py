"""Payment schemes: what a winning hand is worth and who pays whom, named by the rule set.

A scheme has two functions with the same keyword parameters (the YAML `payment.params`,
bound by the loader to `value`'s signature; a parameter may be chosen by request options,
`{option: base}`, resolved per request: `app.rules.choices`):

- `value(total, **params) -> (value, multiplier)`: what one payer pays for the hand when it
  is won on that payer's discard, and for doubling games the multiplier 2^fan (else None);
- `pay(total, ctx, players, payers, **params) -> Payments`: the money of one win; `payers`
  are the seats still in the round (all others, for a single hand; 血战到底 drops winners).

A scheme may also declare (see `Scheme`):

- `by_fans`: it prices a hand by the fans it counts, not only by their total: `value` and
  `pay` then also take the keyword `fans`, the counted fans as (fan id, count) pairs (天津's
  tjmj table: 捉五 and 龙 add, 混儿吊 素 杠开 本混 multiply);
- `seat_factor(payer, payee, dealer, **params) -> int`: the factor on any money between two
  seats (坐庄 / 拉庄), which round settlement also applies to kong money;
- `prepare(params, options, fan_ids) -> params`: checks of its parameters beyond their types
  at load time (a table that names no fan of the rule set, an option of the wrong kind), and
  their conversion; it raises `SchemeParamError`;
- `paid_by(ctx) -> key`: what `pay` reads of the context when every other seat pays
  (`payers` None): for one total and one set of parameters, contexts with the same key pay
  alike. The engine then remembers a rule set's payments of fixed parameters by (total,
  key) (`FixedPayment`, a bounded memo). A promise about `pay`, tested for every scheme
  that makes it.

Nothing here assumes four players or that the discarder pays: those are the scheme's choice.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, NewType

from app.domain.hand import KONG_ROBBED, SELF_DRAW, WinContext
from app.domain.money import Payments, Transfer, payments_of
from app.rules.choices import BoundParams, Chosen
from app.rules.options import OptionDef

NO_CAP = "none"
# The counted fans of a hand, as (fan id, count) pairs: what a `by_fans` scheme prices.
CountedFans = tuple[tuple[str, int], ...]

# Hot-path named tuples are built with `tuple.__new__(Type, fields)`: a NamedTuple's own
# constructor runs a Python-level __new__ that costs about twice as much.
_new = tuple.__new__


def _others(ctx: WinContext, players: int, payers: Sequence[int] | None) -> list[int]:
    seats = range(players) if payers is None else payers
    return [s for s in seats if s != ctx.winner]


# ---- 国标: base + fan -------------------------------------------------------------------

def base_plus_fan_value(total: int, *, base: int) -> tuple[int, int | None]:
    """国标: the discarder pays base + fan."""
    return base + total, None


def base_plus_fan_pay(total: int, ctx: WinContext, players: int,
                      payers: Sequence[int] | None = None, *, base: int) -> Payments:
    """国标: self-draw, every other player pays base + fan; discard, the discarder pays
    base + fan and every other player pays base. No dealer bonus."""
    winner = ctx.winner
    seats = range(players) if payers is None else payers
    transfers = []
    if ctx.win_type == SELF_DRAW:
        amount = base + total
        for seat in seats:
            if seat != winner:
                transfers.append(_new(Transfer, (seat, winner, amount, "self_draw")))
        if payers is None:
            # Every other seat pays the same (the nets of `payments_of`, worked out).
            net = [-amount] * players
            net[winner] = amount * (players - 1)
            return _new(Payments, (tuple(net), tuple(transfers)))
    else:
        discarder = ctx.discarder
        assert discarder is not None
        transfers.append(_new(Transfer, (discarder, winner, base + total, "discarder")))
        for seat in seats:
            if seat != winner and seat != discarder:
                transfers.append(_new(Transfer, (seat, winner, base, "base")))
        if payers is None and 0 <= discarder < players and discarder != winner:
            net = [-base] * players
            net[discarder] = -(base + total)
            net[winner] = base * (players - 2) + base + total
            return _new(Payments, (tuple(net), tuple(transfers)))
    return payments_of(players, transfers)


def seats_paying(ctx: WinContext) -> tuple[str, int, int | None]:
    """What `base_plus_fan_pay` and `doubling_pay` read of the context: the win type, the
    winner and the discarder (`Scheme.paid_by`)."""
    return ctx.win_type, ctx.winner, ctx.discarder


# ---- doubling: base × 2^fan -------------------------------------------------------------

def _capped(total: int, cap: int | str) -> int:
    return total if cap == NO_CAP else min(total, int(cap))


def doubling_value(total: int, *, base: int, cap: int | str,
                   self_draw: str = "add_base") -> tuple[int, int | None]:
    """番 doubles: a hand of n fan is worth base × 2^min(n, cap); 0 fan (平胡) is base."""
    multiplier = 2 ** _capped(total, cap)
    return base * multiplier, multiplier


def doubling_pay(total: int, ctx: WinContext, players: int,
                 payers: Sequence[int] | None = None, *, base: int, cap: int | str,
                 self_draw: str = "add_base") -> Payments:
    """Discard: the discarder alone pays base × 2^min(fan, cap). Self-draw: every payer pays
    that plus one base (自摸加底, `add_base`), or the value of one more fan (自摸加番,
    `add_fan`, still under the cap)."""
    transfers: list[Transfer] = []
    if ctx.self_drawn:
        if self_draw == "add_fan":
            amount = base * 2 ** _capped(total + 1, cap)
        else:
            amount = base * 2 ** _capped(total, cap) + base
        for seat in _others(ctx, players, payers):
            transfers.append(Transfer(seat, ctx.winner, amount, "self_draw"))
    else:
        assert ctx.discarder is not None
        transfers.append(Transfer(ctx.discarder, ctx.winner, base * 2 ** _capped(total, cap),
                                  "discarder"))
    return payments_of(players, transfers)


# ---- per_fan: base × fan, capped ----------------------------------------------------------

def _per_fan_amount(total: int, ctx: WinContext, base: int, cap: int | str,
                    self_draw_fan: int, robbed_as_self_draw: bool) -> int:
    as_self_draw = ctx.self_drawn or (robbed_as_self_draw and ctx.kong == KONG_ROBBED)
    return base * _capped(total + self_draw_fan if as_self_draw else total, cap)


def per_fan_value(total: int, *, base: int, cap: int | str, self_draw_fan: int = 0,
                  robbed_as_self_draw: bool = False) -> tuple[int, int | None]:
    """按番计分: a hand of n fan is worth base × min(n, cap); the multiplier is min(n, cap)."""
    multiplier = _capped(total, cap)
    return base * multiplier, multiplier


def per_fan_pay(total: int, ctx: WinContext, players: int, payers: Sequence[int] | None = None,
                *, base: int, cap: int | str, self_draw_fan: int = 0,
                robbed_as_self_draw: bool = False) -> Payments:
    """按番计分: discard, the discarder alone pays base × min(fan, cap); self-draw, every payer
    pays base × min(fan + `self_draw_fan`, cap). With `robbed_as_self_draw`, a win robbing a
    kong (抢杠) is priced as a self-draw, still paid by the kong's maker alone."""
    amount = _per_fan_amount(total, ctx, base, cap, self_draw_fan, robbed_as_self_draw)
    if ctx.self_drawn:
        transfers = [Transfer(seat, ctx.winner, amount, "self_draw")
                     for seat in _others(ctx, players, payers)]
    else:
        assert ctx.discarder is not None
        transfers = [Transfer(ctx.discarder, ctx.winner, amount, "discarder")]
    return payments_of(players, transfers)


def per_fan_prepare(params: dict[str, Any], options: Mapping[str, OptionDef],
                    fan_ids: frozenset[str]) -> dict[str, Any]:
    """The per_fan scheme's parameters: `cap` a number of fan of at least 1 or none,
    `self_draw_fan` at least 0 (or an int option whose minimum is)."""
    cap = params.get("cap")
    if not (cap == NO_CAP or (isinstance(cap, int) and not isinstance(cap, bool) and cap >= 1)):
        raise SchemeParamError("cap", f"must be a number of fan of at least 1 or {NO_CAP!r}")
    bonus = _option_of(params, "self_draw_fan", options)
    if bonus is not None:
        if bonus.type != "int" or bonus.minimum is None or bonus.minimum < 0:
            raise SchemeParamError("self_draw_fan", f"option {bonus.name!r} must be an int "
                                   "option with a minimum of at least 0")
    elif params.get("self_draw_fan", 0) < 0:
        raise SchemeParamError("self_draw_fan", "must be at least 0")
    return params


def per_fan_paid_by(ctx: WinContext) -> tuple[str, int, int | None, bool]:
    """What `per_fan_pay` reads of the context: the seats paying and whether a kong was
    robbed (`Scheme.paid_by`)."""
    return ctx.win_type, ctx.winner, ctx.discarder, ctx.kong == KONG_ROBBED


# ---- points: a table of the counted fans, and the dealer's stakes -----------------------

@dataclass(frozen=True)
class PointsTable:
    """How the counted fans of a hand become points, the multiple of the base it is worth.

    `doubling`: 2^(sum of the fans' values) (天津's default table: each 番 doubles).
    Otherwise the fans in `add` add up (a fan counted twice adds twice), a hand where none
    adds is worth 1, and each fan in `times` then multiplies (天津 tjmj: 捉五 3 + 龙 4 = 7,
    × 2 for 混儿吊). A fan in neither is worth nothing here (提溜: 1).
    """

    doubling: bool = False
    add: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))
    times: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))

    def points(self, total: int, fans: CountedFans) -> int:
        if self.doubling:
            return int(2 ** total)
        points = sum(self.add.get(f, 0) * n for f, n in fans) or 1
        for f, n in fans:
            points *= self.times.get(f, 1) ** n
        return points


# Points tables by name, the `tables` parameter of the points scheme (converted by `prepare`).
PointsTables = NewType("PointsTables", Mapping)  # type: ignore[type-arg]
DOUBLING = "doubling"


def dealer_factor(payer: int, payee: int, dealer: int, *, dealer_sits: bool = False,
                  pulls: Sequence[int] = ()) -> int:
    """坐庄 / 拉庄: money between the dealer and another player doubles when the dealer sits
    (`dealer_sits`), and once more for each time that player pulls (`pulls`, by seat; the
    dealer's own entry is 0); money between two other players is never affected."""
    if payer == payee or dealer not in (payer, payee):
        return 1
    other = payee if payer == dealer else payer
    pulled = pulls[other] if other < len(pulls) else 0
    return int(2 ** (int(dealer_sits) + pulled))


def points_value(total: int, *, fans: CountedFans = (), base: int, table: str,
                 tables: PointsTables, dealer_sits: bool = False,
                 pulls: Sequence[int] = ()) -> tuple[int, int | None]:
    """The hand's points in the chosen table (the multiplier) and base × points, what one
    payer pays before the dealer's stakes."""
    points = tables[table].points(total, fans)
    return base * points, points


def points_pay(total: int, ctx: WinContext, players: int, payers: Sequence[int] | None = None,
               *, fans: CountedFans = (), base: int, table: str, tables: PointsTables,
               dealer_sits: bool = False, pulls: Sequence[int] = ()) -> Payments:
    """Self-draw: every payer pays base × points, no self-draw bonus; discard: the discarder
    alone pays it. Each amount is multiplied by the dealer's stakes between payer and winner
    (`dealer_factor`)."""
    worth = base * tables[table].points(total, fans)
    transfers: list[Transfer] = []
    if ctx.self_drawn:
        for seat in _others(ctx, players, payers):
            factor = dealer_factor(seat, ctx.winner, ctx.dealer, dealer_sits=dealer_sits,
                                   pulls=pulls)
            transfers.append(Transfer(seat, ctx.winner, worth * factor, "self_draw"))
    else:
        assert ctx.discarder is not None
        factor = dealer_factor(ctx.discarder, ctx.winner, ctx.dealer, dealer_sits=dealer_sits,
                               pulls=pulls)
        transfers.append(Transfer(ctx.discarder, ctx.winner, worth * factor, "discarder"))
    return payments_of(players, transfers)


def points_seat_factor(payer: int, payee: int, dealer: int, **params: Any) -> int:
    """The dealer's stakes of the points scheme, for money other than the hand's."""
    return dealer_factor(payer, payee, dealer, dealer_sits=bool(params.get("dealer_sits")),
                         pulls=params.get("pulls") or ())


# ---- shares: base × min(2^fan, cap) a share, with per-seat stakes -----------------------

MARKED_PAYER = ("never", "double")


def _share(total: int, cap: int | str, factor: int = 1) -> int:
    # A multiplier: 2^fan times the payer's factor, then the cap (a multiplier too).
    multiplier: int = 2 ** total * factor
    return multiplier if cap == NO_CAP else min(multiplier, int(cap))


def shares_value(total: int, *, base: int, cap: int | str, marked: Sequence[int] = (),
                 marked_payer: str = "never", pays_for_others: bool = False,
                 pays_for_others_when_marked: bool = True) -> tuple[int, int | None]:
    """一份: one share of a hand of n fan is base × min(2^n, cap), `cap` a multiplier (8, 16
    ...) or none; the multiplier is min(2^n, cap)."""
    multiplier = _share(total, cap)
    return base * multiplier, multiplier


def _marked(marked: Sequence[int], seat: int | None) -> bool:
    return seat is not None and seat < len(marked) and bool(marked[seat])


def shares_pay(total: int, ctx: WinContext, players: int, payers: Sequence[int] | None = None,
               *, base: int, cap: int | str, marked: Sequence[int] = (),
               marked_payer: str = "never", pays_for_others: bool = False,
               pays_for_others_when_marked: bool = True) -> Payments:
    """Self-draw: every payer pays one share; discard: the discarder alone pays one share. No
    self-draw bonus. `marked` (by seat, e.g. a per-seat option; not 0 = marked) changes the
    stakes: with `marked_payer` double, a marked payer pays a double share, doubled before
    the cap, to a winner who is not marked; with `pays_for_others`, a discard won by a
    marked winner is paid by the discarder for every payer (包胡: the share, capped, times
    the number of payers), the others paying nothing, unless the discarder is marked too
    and `pays_for_others_when_marked` is false."""
    winner = ctx.winner
    winner_marked = _marked(marked, winner)
    doubles = marked_payer == "double" and not winner_marked

    def share(seat: int) -> int:
        return base * _share(total, cap, 2 if doubles and _marked(marked, seat) else 1)

    transfers: list[Transfer] = []
    others = _others(ctx, players, payers)
    if ctx.self_drawn:
        for seat in others:
            transfers.append(Transfer(seat, winner, share(seat), "self_draw"))
    else:
        discarder = ctx.discarder
        assert discarder is not None
        if pays_for_others and winner_marked and (pays_for_others_when_marked
                                                  or not _marked(marked, discarder)):
            transfers.append(Transfer(discarder, winner,
                                      base * _share(total, cap) * len(others),
                                      "pays_for_others"))
        else:
            transfers.append(Transfer(discarder, winner, share(discarder), "discarder"))
    return payments_of(players, transfers)


def shares_prepare(params: dict[str, Any], options: Mapping[str, OptionDef],
                   fan_ids: frozenset[str]) -> dict[str, Any]:
    """The shares scheme's parameters: `cap` a multiplier of at least 1 or none (or an enum
    option of those), `marked` a per_seat option (or a list of 0s and 1s), `marked_payer`
    never or double (or an enum option of those)."""
    def caps_ok(values: Sequence[Any]) -> bool:
        return all(v == NO_CAP or (isinstance(v, int) and not isinstance(v, bool) and v >= 1)
                   for v in values)

    cap = _option_of(params, "cap", options)
    if cap is not None:
        if cap.type != "enum" or not caps_ok(cap.choices):
            raise SchemeParamError("cap", f"option {cap.name!r} must be an enum of multipliers "
                                   f"(integers of at least 1) and {NO_CAP!r}")
    elif not caps_ok([params.get("cap")]):
        raise SchemeParamError("cap", f"must be a multiplier of at least 1 or {NO_CAP!r}")
    marked = _option_of(params, "marked", options)
    if marked is not None and marked.type != "per_seat":
        raise SchemeParamError("marked", f"option {marked.name!r} must be a per_seat option")
    payer = _option_of(params, "marked_payer", options)
    if payer is not None:
        if payer.type != "enum" or any(c not in MARKED_PAYER for c in payer.choices):
            raise SchemeParamError("marked_payer", f"option {payer.name!r} must be an enum of "
                                   f"{', '.join(MARKED_PAYER)}")
    elif params.get("marked_payer", "never") not in MARKED_PAYER:
        raise SchemeParamError("marked_payer", f"must be one of {', '.join(MARKED_PAYER)}")
    for name in ("pays_for_others", "pays_for_others_when_marked"):
        chosen = _option_of(params, name, options)
        if chosen is not None and chosen.type != "bool":
            raise SchemeParamError(name, f"option {chosen.name!r} must be a bool option")
    return params


# ---- payer_fans: each payer's own 番, doubled -------------------------------------------

DISCARD_PAYERS = ("discarder", "everyone")
# When the dealer's +1 applies to a payment between the dealer and another player: `always`;
# `not_on_discard`, never when the dealer wins on a discard; `discarder_only_on_discard`,
# when the dealer wins on a discard, only on the discarder's payment (the other payers' not).
DEALER_BONUS = ("always", "not_on_discard", "discarder_only_on_discard")


def payer_fans_value(total: int, *, base: int, cap: int | str, discard_payers: str = "discarder",
                     dealer_fan: int = 0, dealer_bonus: str = "always", discarder_fan: int = 0,
                     self_draw_fan: int = 0, declared: Sequence[int] = (),
                     undeclared_discarder_pays_all: bool = False) -> tuple[int, int | None]:
    """The hand's basic score: base × 2^min(n, cap) for n hand 番 (before any payer's own
    番); the multiplier is 2^min(n, cap)."""
    multiplier = 2 ** _capped(total, cap)
    return base * multiplier, multiplier


def payer_fan(total: int, ctx: WinContext, payer: int, *, dealer_fan: int = 0,
              dealer_bonus: str = "always", discarder_fan: int = 0,
              self_draw_fan: int = 0) -> int:
    """One payer's 番 (uncapped): the hand's, + `self_draw_fan` on a self-draw, +
    `discarder_fan` for the discarder, + `dealer_fan` when the dealer is the winner or the
    payer. When the dealer wins on a discard, `dealer_bonus` not_on_discard gives no payer
    the `dealer_fan`, and discarder_only_on_discard gives it to the discarder alone."""
    fan = total
    if ctx.self_drawn:
        fan += self_draw_fan
    elif payer == ctx.discarder:
        fan += discarder_fan
    dealer = ctx.dealer
    if dealer == payer:
        fan += dealer_fan
    elif dealer == ctx.winner:
        if (ctx.self_drawn or dealer_bonus == "always"
                or (dealer_bonus == "discarder_only_on_discard" and payer == ctx.discarder)):
            fan += dealer_fan
    return fan


def payer_fans_pay(total: int, ctx: WinContext, players: int,
                   payers: Sequence[int] | None = None, *, base: int, cap: int | str,
                   discard_payers: str = "discarder", dealer_fan: int = 0,
                   dealer_bonus: str = "always", discarder_fan: int = 0,
                   self_draw_fan: int = 0, declared: Sequence[int] = (),
                   undeclared_discarder_pays_all: bool = False) -> Payments:
    """Each payer pays base × 2^min(its own 番, cap) (`payer_fan`). Self-draw: every payer;
    discard: the discarder alone, or with `discard_payers` everyone, every payer. With
    `undeclared_discarder_pays_all`, a discarder whose entry of `declared` (by seat, e.g. a
    per-seat option: had declared ready) is 0 pays every payer's amount himself (包庄), each
    as it would have been."""
    winner = ctx.winner

    def amount(payer: int) -> int:
        fan = payer_fan(total, ctx, payer, dealer_fan=dealer_fan, dealer_bonus=dealer_bonus,
                        discarder_fan=discarder_fan, self_draw_fan=self_draw_fan)
        return int(base * 2 ** _capped(fan, cap))

    transfers: list[Transfer] = []
    others = _others(ctx, players, payers)
    if ctx.self_drawn:
        for seat in others:
            transfers.append(Transfer(seat, winner, amount(seat), "self_draw"))
        return payments_of(players, transfers)
    discarder = ctx.discarder
    assert discarder is not None
    transfers.append(Transfer(discarder, winner, amount(discarder), "discarder"))
    if discard_payers == "everyone":
        covers = undeclared_discarder_pays_all and not _marked(declared, discarder)
        for seat in others:
            if seat != discarder:
                if covers:
                    transfers.append(Transfer(discarder, winner, amount(seat),
                                              "pays_for_others"))
                else:
                    transfers.append(Transfer(seat, winner, amount(seat), "base"))
    return payments_of(players, transfers)


def payer_fans_prepare(params: dict[str, Any], options: Mapping[str, OptionDef],
                       fan_ids: frozenset[str]) -> dict[str, Any]:
    """The payer_fans scheme's parameters: `cap` a number of 番 or none (or an enum option
    of those), `discard_payers` discarder or everyone, `dealer_bonus` always,
    not_on_discard or discarder_only_on_discard (or enum options mapped onto those),
    `declared` a per_seat option."""
    def caps_ok(values: Sequence[Any]) -> bool:
        return all(v == NO_CAP or (isinstance(v, int) and not isinstance(v, bool) and v >= 0)
                   for v in values)

    cap = _option_of(params, "cap", options)
    if cap is not None:
        if cap.type != "enum" or not caps_ok(_chosen(params["cap"], cap)):
            raise SchemeParamError("cap", f"option {cap.name!r} must be an enum of numbers "
                                   f"of 番 (integers of at least 0) and {NO_CAP!r}")
    elif not caps_ok([params.get("cap")]):
        raise SchemeParamError("cap", f"must be a number of 番 or {NO_CAP!r}")
    for name, allowed in (("discard_payers", DISCARD_PAYERS), ("dealer_bonus", DEALER_BONUS)):
        chosen = _option_of(params, name, options)
        values = (_chosen(params[name], chosen) if chosen is not None
                  else [params.get(name, allowed[0])])
        if (chosen is not None and chosen.type != "enum") or any(v not in allowed
                                                                 for v in values):
            raise SchemeParamError(name, f"must be one of {', '.join(allowed)} (or an enum "
                                   "option of those, or mapped onto them)")
    declared = _option_of(params, "declared", options)
    if declared is not None and declared.type != "per_seat":
        raise SchemeParamError("declared", f"option {declared.name!r} must be a per_seat "
                               "option")
    return params


def _chosen(value: Chosen, option: OptionDef) -> list[Any]:
    """The values a parameter chosen by `option` can take: its choices, or what `values`
    maps them onto (its default for those it leaves out)."""
    choices = list(option.choices or ())
    if not value.values and not value.has_default:
        return choices
    return [value.pick({option.name: c}) for c in choices]


class SchemeParamError(Exception):
    """A scheme parameter the scheme refuses at load time: the parameter's name (or a dotted
    path under it) and why."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


def _option_of(params: Mapping[str, Any], name: str,
               options: Mapping[str, OptionDef]) -> OptionDef | None:
    """The option that chooses a parameter's value, if one does."""
    value = params.get(name)
    return options[value.option] if isinstance(value, Chosen) else None


def points_prepare(params: dict[str, Any], options: Mapping[str, OptionDef],
                   fan_ids: frozenset[str]) -> dict[str, Any]:
    """The points scheme's parameters: `tables` maps a name to `doubling` or to `{add,
    times}` of the rule set's fan ids; `table` names one of them (or is an enum option whose
    choices all do); `dealer_sits` a bool option, `pulls` a per-seat option of non-negative
    entries."""
    raw = params.get("tables")
    if not isinstance(raw, dict) or not raw:
        raise SchemeParamError("tables", "must map table names to `doubling` or to "
                               "{add: {fan: n}, times: {fan: n}}")
    tables: dict[str, PointsTable] = {}
    for name, conf in raw.items():
        where = f"tables.{name}"
        if not isinstance(name, str):
            raise SchemeParamError(where, "a table's name must be a string")
        if conf == DOUBLING:
            tables[name] = PointsTable(doubling=True)
            continue
        if not isinstance(conf, dict) or not set(conf) <= {"add", "times"} or not conf:
            raise SchemeParamError(where, "must be `doubling` or a mapping with add and/or "
                                   "times (fan id -> integer)")
        maps: dict[str, Mapping[str, int]] = {}
        for key in ("add", "times"):
            weights = conf.get(key) or {}
            if not isinstance(weights, dict):
                raise SchemeParamError(f"{where}.{key}", "must map fan ids to integers")
            for fid, n in weights.items():
                if fid not in fan_ids:
                    raise SchemeParamError(f"{where}.{key}.{fid}",
                                           "names no fan of this rule set")
                least = 0 if key == "add" else 1
                if not isinstance(n, int) or isinstance(n, bool) or n < least:
                    raise SchemeParamError(f"{where}.{key}.{fid}",
                                           f"must be an integer of at least {least}")
            maps[key] = MappingProxyType(dict(weights))
        tables[name] = PointsTable(add=maps.get("add", MappingProxyType({})),
                                   times=maps.get("times", MappingProxyType({})))
    table = params.get("table")
    chosen = _option_of(params, "table", options)
    if chosen is not None:
        if chosen.type != "enum" or any(c not in tables for c in chosen.choices):
            raise SchemeParamError("table", f"option {chosen.name!r} must be an enum whose "
                                   f"choices are tables ({', '.join(tables)})")
    elif table not in tables:
        raise SchemeParamError("table", f"must name a table ({', '.join(tables)}) or "
                               "{option: name}")
    sits = _option_of(params, "dealer_sits", options)
    if sits is not None and sits.type != "bool":
        raise SchemeParamError("dealer_sits", f"option {sits.name!r} must be a bool option")
    pulls = _option_of(params, "pulls", options)
    if pulls is not None and (pulls.type != "per_seat" or pulls.minimum is None
                              or pulls.minimum < 0 or pulls.dealer_entry != 0):
        raise SchemeParamError("pulls", f"option {pulls.name!r} must be a per_seat option "
                               "with minimum 0 and dealer_entry 0 (the dealer pulls nobody)")
    fixed = params.get("pulls")
    if isinstance(fixed, list) and any(not isinstance(n, int) or isinstance(n, bool) or n < 0
                                       for n in fixed):
        raise SchemeParamError("pulls", "must list non-negative integers, one per seat")
    return {**params, "tables": MappingProxyType(tables)}


@dataclass(frozen=True)
class Scheme:
    value: Callable[..., tuple[int, int | None]]
    pay: Callable[..., Payments]
    # `value` and `pay` also take `fans`, the counted fans (see the module's docstring).
    by_fans: bool = False
    seat_factor: Callable[..., int] | None = None
    prepare: Callable[[dict[str, Any], Mapping[str, OptionDef], frozenset[str]],
                      dict[str, Any]] | None = None
    paid_by: Callable[[WinContext], Hashable] | None = None


SCHEMES: dict[str, Scheme] = {
    "base_plus_fan": Scheme(base_plus_fan_value, base_plus_fan_pay, paid_by=seats_paying),
    "doubling": Scheme(doubling_value, doubling_pay, paid_by=seats_paying),
    "points": Scheme(points_value, points_pay, by_fans=True, seat_factor=points_seat_factor,
                     prepare=points_prepare),
    "shares": Scheme(shares_value, shares_pay, prepare=shares_prepare),
    "payer_fans": Scheme(payer_fans_value, payer_fans_pay, prepare=payer_fans_prepare),
    "per_fan": Scheme(per_fan_value, per_fan_pay, prepare=per_fan_prepare,
                      paid_by=per_fan_paid_by),
}
# Keyword parameters the engine passes itself; a rule set cannot set them.
RESERVED_PARAMS = frozenset({"fans"})


def resolve_params(params: Mapping[str, Any], ctx: WinContext) -> dict[str, Any]:
    """The scheme's keywords under the request's options (`BoundParams.resolve`): fixed
    ones as bound at load, those an option chooses as it does."""
    bound = params if isinstance(params, BoundParams) else BoundParams(params)
    return bound.resolve(ctx.options)


def _fans_kw(scheme: Scheme, fans: CountedFans) -> dict[str, Any]:
    return {"fans": fans} if scheme.by_fans else {}


def pay(scheme: str, params: Mapping[str, Any], total: int, ctx: WinContext, players: int,
        payers: Sequence[int] | None = None, fans: CountedFans = ()) -> Payments:
    s = SCHEMES[scheme]
    return s.pay(total, ctx, players, payers, **resolve_params(params, ctx), **_fans_kw(s, fans))


def value(scheme: str, params: Mapping[str, Any], total: int, ctx: WinContext,
          fans: CountedFans = ()) -> tuple[int, int | None]:
    s = SCHEMES[scheme]
    return s.value(total, **resolve_params(params, ctx), **_fans_kw(s, fans))


def seat_factor(scheme: str, params: Mapping[str, Any], payer: int, payee: int,
                dealer: int) -> int:
    """The scheme's factor on money between two seats (resolved `params`); 1 without one."""
    fn = SCHEMES[scheme].seat_factor
    return 1 if fn is None else fn(payer, payee, dealer, **params)
