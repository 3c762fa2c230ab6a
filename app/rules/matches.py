"""A rule set's match rules (its YAML's `match:` section): who deals each hand of a match, how
the players sit and which winds they hold, when the match ends, what a false win costs and how
the standings are reckoned. Read once by either family's loader (`build_match`); the match
itself is played out by `app.scoring.matches`.

Every value may be chosen by one of the match's own options (`match.options`, declared as a
rule set's options are, and set by a match request's `match_options`), written `{option: X}`
or `{option: X, values: {...}}` (`app.rules.choices`):

- `dealer`: where the deal goes after a hand. `dealer_wins` (the dealer won), `other_wins`
  (another player won first), `drawn` (nobody won): `stays`, `next` (the dealer's next seat
  in turn order) or `winner` (the hand's first winner); `drawn` may also be `kong_passes`
  (stays, unless the dealer made no kong and another player did: then next) or
  `last_drawer` (whoever drew the last tile, which the hand says). `several_winners`: after
  a hand whose first win was several players winning one discard (一炮多响), `discarder`
  (the discarder deals), `any_discarder` (the discarder of the hand's first such win deals,
  whether or not it was the first win) or `winner` (the rules above, the winner being the
  first after the discarder in turn order).
- `length`: `{hands: N}` (the match is N hands), `{dealerships: N}` (it ends when the deal
  would pass to an N+1th dealer), or `open` (it ends when the client stops sending hands).
- `seating`: for games whose players change seats (国标 换位), the players at each seat (东位
  南位 西位 北位 …) in each 圈, a list per 圈 of `players` hands; the deal passes seat by seat,
  and a new 圈 seats the players as its entry says. Without it, player p sits at seat p.
- `winds`: true when the hands are scored with winds: the prevailing wind is the 圈's (东 for
  the first, then 南 西 北), and a seat's wind counts from the dealer's seat (庄家 东).
- `one_winner`: true when one discard wins for one player only (截和): of several claims, the
  first in turn order from the discarder stands.
- `false_win`: what a false win (诈和 and its kinds) costs, by kind — `wrong_shape` (a
  complete hand that does not win: 错和), `wrong_tile` (a ready hand claiming a tile it does
  not wait on: 和错牌), `not_ready` (诈和) — each `{each: N}` (paid to every other player) or
  `{deduct: N}` (deducted, paid to nobody); null where the game has no such penalty (a match
  request then states the points as a penalty). `false_win_voids_kongs`: true where the
  offender's kong money of that hand goes back to those who paid it (四川 SBR, 长春).
  `offender_plays_on`: true where the offender plays the hand on but may not win it (国标
  陪打): a hand won by a player who false-won in it is refused.
- `base_points` (each player's points at the start: 国标's 基础比赛分) and `table_points`
  (what each place earns: 国标's 标准分 4/2/1/0, the SBR 盘分 4/3/2/1; null for none).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from app.rules.choices import resolve
from app.rules.errors import FieldError
from app.rules.load_options import read_chosen
from app.rules.options import DeclaresOptions, OptionDef, read_options
from app.rules.sections import declared

__all__ = ["FALSE_WIN_KINDS", "MATCH", "MatchRules", "Rules", "build_match"]

DEALER_MOVES = ("stays", "next", "winner")
DRAWN_MOVES = (*DEALER_MOVES, "kong_passes", "last_drawer")
SEVERAL_MOVES = ("discarder", "any_discarder", "winner")
FALSE_WIN_KINDS = ("wrong_shape", "wrong_tile", "not_ready")

MATCH = declared("dealer:map length seating winds one_winner false_win "
                 "false_win_voids_kongs offender_plays_on base_points table_points "
                 "options:list "
                 "description:text", "dealer")
_DEALER = declared("dealer_wins other_wins drawn several_winners",
                   "dealer_wins other_wins drawn")


@dataclass(frozen=True)
class Rules:
    """The match rules under one choice of the match's options: plain values."""

    dealer_wins: str
    other_wins: str
    drawn: str
    several_winners: str
    hands: int | None  # the match's length in hands, or None
    dealerships: int | None  # the match's length in dealerships, or None
    seating: tuple[tuple[int, ...], ...] | None  # players at each seat, per 圈
    winds: bool
    one_winner: bool
    false_win: Mapping[str, tuple[str, int]] | None  # kind -> ("each" | "deduct", points)
    false_win_voids_kongs: bool  # the offender's kong money of that hand goes back
    offender_plays_on: bool  # 陪打: the offender may not win the hand
    base_points: int
    table_points: tuple[float, ...] | None


@dataclass(frozen=True)
class MatchRules(DeclaresOptions):
    """A rule set's `match:` section as read: values, or values chosen by its options."""

    players: int
    options: tuple[OptionDef, ...]
    values: Mapping[str, Any]  # each key of `Rules`, plain or chosen
    description: str

    def rules(self, options: Mapping[str, Any]) -> Rules:
        """The rules under a match's options (validated: every option present)."""
        return Rules(**{k: resolve(v, options) for k, v in self.values.items()})


def build_match(raw: Any, players: int, err: FieldError) -> MatchRules | None:
    """The `match:` section of a rule set with `players` players, read and checked."""
    if raw is None:
        return None
    if not isinstance(raw, dict):
        raise err("match", "must be a mapping")
    fault = MATCH.fault(raw)
    if fault is not None:
        raise err(f"match.{fault[0]}", fault[1])
    options = read_options(raw.get("options"), _under(err), players)
    dealer = raw["dealer"]
    fault = _DEALER.fault(dealer)
    if fault is not None:
        raise err(f"match.dealer.{fault[0]}", fault[1])

    def chosen(value: Any, field: str, convert: Any) -> Any:
        return read_chosen(value, options, f"match.{field}", err, convert)

    values: dict[str, Any] = {
        "dealer_wins": chosen(dealer["dealer_wins"], "dealer.dealer_wins",
                              _one_of(DEALER_MOVES, err)),
        "other_wins": chosen(dealer["other_wins"], "dealer.other_wins",
                             _one_of(DEALER_MOVES, err)),
        "drawn": chosen(dealer["drawn"], "dealer.drawn", _one_of(DRAWN_MOVES, err)),
        "several_winners": chosen(dealer.get("several_winners", "winner"),
                                  "dealer.several_winners", _one_of(SEVERAL_MOVES, err)),
        "winds": chosen(raw.get("winds", False), "winds", _bool(err)),
        "one_winner": chosen(raw.get("one_winner", False), "one_winner", _bool(err)),
        "base_points": chosen(raw.get("base_points", 0), "base_points", _count(err)),
        "table_points": chosen(raw.get("table_points"), "table_points",
                               _table_points(players, err)),
        "false_win": chosen(raw.get("false_win"), "false_win", _false_win(err)),
        "false_win_voids_kongs": chosen(raw.get("false_win_voids_kongs", False),
                                        "false_win_voids_kongs", _bool(err)),
        "offender_plays_on": chosen(raw.get("offender_plays_on", False), "offender_plays_on",
                                    _bool(err)),
        "seating": chosen(raw.get("seating"), "seating", _seating(players, err)),
    }
    length = chosen(raw.get("length", "open"), "length", _length(err))
    values["hands"] = _part_of(length, "hands")
    values["dealerships"] = _part_of(length, "dealerships")
    description = raw.get("description", "")
    return MatchRules(players, options, values, description)


def _under(err: FieldError) -> FieldError:
    def named(field: str, message: str, *rest: Any) -> Exception:
        return err(f"match.{field}", message, *rest)
    return named  # type: ignore[return-value]


def _part_of(length: Any, key: str) -> Any:
    """The hands or dealerships of a length, itself maybe chosen by an option."""
    from app.rules.choices import Chosen

    if isinstance(length, Chosen):
        values = {k: (v or {}).get(key) for k, v in length.values.items()}
        default = (length.default or {}).get(key) if length.has_default else None
        return Chosen(length.option, values, default, length.has_default)
    return (length or {}).get(key)


def _one_of(allowed: tuple[str, ...], err: FieldError) -> Any:
    def convert(value: Any, field: str) -> str:
        if value not in allowed:
            raise err(field, f"must be one of {', '.join(allowed)} (got {value!r})")
        return str(value)
    return convert


def _bool(err: FieldError) -> Any:
    def convert(value: Any, field: str) -> bool:
        if not isinstance(value, bool):
            raise err(field, "must be true or false")
        return value
    return convert


def _count(err: FieldError) -> Any:
    def convert(value: Any, field: str) -> int:
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise err(field, f"must be an integer of at least 0 (got {value!r})")
        return value
    return convert


def _length(err: FieldError) -> Any:
    def convert(value: Any, field: str) -> dict[str, int] | None:
        if value == "open":
            return None
        if (isinstance(value, dict) and len(value) == 1
                and next(iter(value)) in ("hands", "dealerships")):
            n = next(iter(value.values()))
            if isinstance(n, int) and not isinstance(n, bool) and n >= 1:
                return dict(value)
        raise err(field, f"must be open, {{hands: N}} or {{dealerships: N}} (got {value!r})")
    return convert


def _table_points(players: int, err: FieldError) -> Any:
    def convert(value: Any, field: str) -> tuple[float, ...] | None:
        if value is None:
            return None
        if (not isinstance(value, list) or len(value) != players
                or any(not isinstance(v, (int, float)) or isinstance(v, bool) for v in value)):
            raise err(field, f"must be null or a list of {players} numbers, the points of "
                      "each place from the first")
        return tuple(value)
    return convert


def _false_win(err: FieldError) -> Any:
    def convert(value: Any, field: str) -> Mapping[str, tuple[str, int]] | None:
        if value is None:
            return None
        if not isinstance(value, dict) or set(value) != set(FALSE_WIN_KINDS):
            raise err(field, f"must be null or map each of {', '.join(FALSE_WIN_KINDS)} to "
                      "{each: N} or {deduct: N}")
        out = {}
        for kind, cost in value.items():
            if (not isinstance(cost, dict) or len(cost) != 1
                    or next(iter(cost)) not in ("each", "deduct")
                    or not isinstance(next(iter(cost.values())), int)
                    or next(iter(cost.values())) < 1):
                raise err(f"{field}.{kind}", "must be {each: N} or {deduct: N}, N >= 1")
            how, points = next(iter(cost.items()))
            out[kind] = (how, points)
        return out
    return convert


def _seating(players: int, err: FieldError) -> Any:
    def convert(value: Any, field: str) -> tuple[tuple[int, ...], ...] | None:
        if value is None:
            return None
        every = list(range(players))
        if (not isinstance(value, list) or not value
                or any(not isinstance(row, list) or sorted(row) != every for row in value)):
            raise err(field, f"must be null or a list of 圈, each the players 0-{players - 1} "
                      "in seat order (东位 first), each player once")
        return tuple(tuple(row) for row in value)
    return convert
