"""结算: how a whole round's money is settled, as rule-set data (the YAML `settlement:`).

A rule set that settles rounds (血战到底, 天津) says, as data:

- `kongs`: the money of each kind of kong (`direct` 点杠, `added` 加杠, `concealed` 暗杠):
  who pays (`discarder`: the player whose discard was konged; `each_active`: every other
  player not yet won) and how much, and for an added kong whether it pays only when the
  added tile is the one just drawn (`only_if_fresh`, 及时雨), or whether an added kong of a
  tile held earlier cannot be made at all (`must_be_fresh`: a settle event for one is refused,
  `forbidden_event`, where `only_if_fresh` makes it a legal kong that earns nothing). A kind
  left out earns nothing.
  `golden` (金杠): a concealed kong of four wild tiles, paid its own amount, or as a concealed
  kong when that amount is `off` (only in rule sets with wild tiles).
- `win_ends_round`: the first win ends the round (天津: one winner per hand, and nobody drops
  out); otherwise winners drop out and the others play on (血战到底). Other players may still
  win the discard that ended it (一炮多响), unless `one_winner` (截和: one win per hand, the
  claim nearest the discarder's turn; a second win is refused, `forbidden_event`).
- `seat_factors`: kong money and `follow_dealer` money between two seats are multiplied by
  the payment scheme's seat factor (天津 坐庄 / 拉庄: the dealer's stakes), as the win is.
- `follow_dealer`: {amount}: when every other player follows the dealer's first discard (跟庄,
  天津 铲; a `follow_dealer` event), the dealer pays each other player `amount`, after the rest
  of the round is settled.
- `reveal`: {option, ready_hand}: players may reveal a ready hand (亮倒, `reveal` events);
  every win of the round reads who has revealed so far as that per-seat option (1: revealed),
  which the request may then not set itself. `ready_hand` (default false): a revealed hand is
  ready by definition, so at a drawn game a revealed seat whose hand is not ready is refused
  (`forbidden_event`), never paid as revealed.
- `kong_chain_doubling`: a kong that follows a kong (a kong event's `follows`: on the discard
  right after it, or by its maker straight after the replacement draw) is the next of a chain,
  and the n-th kong of a chain earns 2^(n-1) times its money (杠上杠).
- `kong_tiles`: {tiles, factor, enabled}: a kong of one of `tiles` (tile notation) earns
  `factor` times its money (长春: 1筒, 1条 and the dragons double), while `enabled` (a switch
  or a bool option, default true) is on.
- `special_kongs`: {amount, sets, stand_in}: kongs of three different tiles laid out together
  (长春 幺九杠, 旋风杠, 喜杠), settled as `special` kong events that name their three tiles: each
  set (`{name, of}`) takes three different kinds of `of` (tile notation), or, with `stand_in`
  (a tile), two of them and one `stand_in` tile for the third (长春: 1条). Each other player
  still in the round pays `amount`; three tiles that make no set are refused (`illegal_meld`).
- `robbed_kong_void`: a robbed added kong (抢杠) is void: its money is returned.
- `kong_discard_money`: what a win on the discard after a kong (杠上炮) does to that kong's
  money: `refund` (back to those who paid it, the winner included), `transfer` (呼叫转移: the
  kong's maker passes what it received for that kong to the winner; with several winners on
  that discard, 一炮多响, to the first of them in turn order after the discarder), `keep` (the
  default: the kong money stands), or an enum option choosing one.
- `drawn_game`: the checks when the wall runs out: `max_suits` (holding more numbered suits is
  花猪), `declared_void` (a per-seat option with choices, 定缺: a hand holding a tile of the suit
  its seat's entry names is a pig too), `pig_penalty` (from each pig to each other player not
  yet won who is not a pig),
  `pig_counts_as_not_ready` (a pig then also pays as 没叫), `not_ready_pays` (`best_value`: 查大叫,
  each player not ready pays each ready player that player's best value), `refund_kongs` (退税: a
  player not ready or a pig returns the kong money received, whoever else is ready; with every
  player ready, or none, 查大叫 has nobody to pay), `ready_as` (`discard`, the default: a hand is
  ready when it wins on some discard, and only hand fans give its value; `self_draw`: by
  self-draw, for rule sets that allow no other win) and `kongs_stand` (default true, 荒庄不荒杠;
  false: every kong's money goes back at the draw), and with `reveal`, `revealed_pay`
  ({amount, payers}: each revealed player, or only the first to reveal
  (`all_revealed` | `first_revealed`, or an enum option giving one), pays each player not
  revealed `amount`).

Amounts count in units of the payment's `base` and may be chosen by request options instead,
as payment parameters may (`app.rules.choices`, read by `read_chosen`): `{option:
direct_kong_amount}`, or mapped from an option's values. `only_if_fresh`, `must_be_fresh`,
`kongs_stand` and
`kong_tiles.enabled` may be chosen by a bool option the same way, `kong_discard_money` and
`revealed_pay.payers` by an enum option.

`build_settlement` validates the mapping strictly; the loader passes its error factory, so
every error names the file and the field (`settlement.kongs.added.amount`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from app.domain.errors import HandError
from app.domain.events import CONCEALED, KONG_KINDS, suits_of
from app.domain.hand import Meld
from app.domain.notation import parse_tiles
from app.domain.tiles import TileSet
from app.rules.checks.traits import declared_suit, holds_suit
from app.rules.choices import Chosen
from app.rules.families import TILES
from app.rules.load_options import read_chosen
from app.rules.options import OptionDef
from app.rules.sections import section

# 金杠: a concealed kong of four wild tiles, settled under its own entry when there is one.
GOLDEN = "golden"
# A golden kong amount that means "no amount of its own: paid as a concealed kong".
OFF = "off"
# Who pays a kong: the discarder of the konged tile, or every other player still in the round.
DISCARDER = "discarder"
EACH_ACTIVE = "each_active"
PAYERS = (DISCARDER, EACH_ACTIVE)
BEST_VALUE = "best_value"
# Who pays at a drawn game for having revealed (亮倒): every revealed player, or the first.
ALL_REVEALED = "all_revealed"
FIRST_REVEALED = "first_revealed"
REVEALED_PAYERS = (ALL_REVEALED, FIRST_REVEALED)
# How a waiting hand at a draw is scored to tell whether it is ready.
READY_AS = ("discard", "self_draw")
# 杠上炮: what becomes of the money of the kong whose maker's next discard is won.
REFUND = "refund"  # back to those who paid it (the competition rules' reading)
TRANSFER = "transfer"  # 呼叫转移: from the kong's maker to the winner (most 血战 apps)
KEEP = "keep"  # the kong money stands (the literal reading: 杠上炮 is a fan, nothing more)
KONG_DISCARD_MODES = (REFUND, TRANSFER, KEEP)

# The keys of each part, declared with every section's (`app.rules.sections`).
SETTLEMENT_KEYS = section(TILES, "settlement").allowed
KONG_KEYS = section(TILES, "settlement.kongs.*").allowed
DRAWN_KEYS = section(TILES, "settlement.drawn_game").allowed


# An amount in units of the payment's base, or the option that gives it (for a golden kong,
# an option whose value may be OFF): a value chosen by an option (`app.rules.choices`).
Amount = int | Chosen
# A switch, or the bool option that gives it.
Flag = bool | Chosen


@dataclass(frozen=True)
class KongMoney:
    """刮风下雨: the money one kind of kong earns at once, from each payer."""

    payer: str  # DISCARDER | EACH_ACTIVE
    amount: Amount
    # 及时雨: an added kong pays only when the added tile is the one just drawn.
    only_if_fresh: Flag = False
    # An added kong can only be made with the tile just drawn: one of a tile held earlier is
    # no kong at all (refused), not a kong that earns nothing.
    must_be_fresh: Flag = False


@dataclass(frozen=True)
class RevealedPay:
    """荒庄 with 亮倒: revealed players pay each player who has not revealed `amount` (in
    bases); `payers`: ALL_REVEALED, FIRST_REVEALED, or the enum option choosing one."""

    amount: Amount
    payers: str | Chosen


@dataclass(frozen=True)
class DrawnGameDef:
    """The checks of a drawn game (the wall runs out with two or more players not yet won)."""

    max_suits: int | None = None  # holding more numbered suits = 花猪; None: no pig check
    # A per-seat option naming the suit each seat declared void (定缺): holding it = 花猪.
    declared_void: str | None = None
    pig_penalty: Amount = 0  # from each pig to each non-pig player not yet won
    # An active pig also pays 查大叫 as a 没叫 player (a passive pig always does).
    pig_counts_as_not_ready: bool = False
    not_ready_pays: str | None = None  # BEST_VALUE: 查大叫; None: nothing
    refund_kongs: bool = False  # 退税
    ready_as: str = "discard"  # a READY_AS: the win a waiting hand is scored as
    kongs_stand: Flag = True  # 荒庄不荒杠; false: the draw returns every kong's money
    revealed_pay: RevealedPay | None = None  # needs the settlement's `reveal`

    def is_pig(self, standing: Sequence[int], melds: Sequence[Meld], tileset: TileSet,
               options: Mapping[str, Any], seat: int) -> bool:
        """花猪: the hand of `seat`, melds included, holds more numbered suits than
        `max_suits`, or a tile of the suit the seat declared void (`declared_void`)."""
        if self.max_suits is None:
            return False
        if suits_of(standing, melds, tileset) > self.max_suits:
            return True
        suit = (declared_suit(options, self.declared_void, seat)
                if self.declared_void is not None else None)
        held = {*standing, *(t for m in melds for t in m.tiles)}
        return suit is not None and holds_suit(held, suit, tileset)


@dataclass(frozen=True)
class KongTiles:
    """Kongs of some kinds of tile earn `factor` times their money while `enabled`."""

    tiles: tuple[str, ...]  # tile codes, in the written order
    factor: int
    enabled: Flag = True


@dataclass(frozen=True)
class SpecialKongSet:
    """One kind of special kong: three different kinds of `of` (tile codes)."""

    name: str
    of: tuple[str, ...]


@dataclass(frozen=True)
class SpecialKongs:
    """Kongs of three different tiles (长春 幺九杠, 旋风杠, 喜杠): each other player pays
    `amount`; `stand_in` (a tile code) may stand for one tile of a set."""

    amount: Amount
    sets: tuple[SpecialKongSet, ...]
    stand_in: str | None = None

    def named(self, codes: Sequence[str]) -> str | None:
        """The name of the set three declared tiles (codes) make, or None: three different
        kinds of one set, or two of them and the stand-in for the third."""
        if len(codes) != 3:
            return None
        for kong_set in self.sets:
            if len(set(codes)) == 3 and all(c in kong_set.of for c in codes):
                return kong_set.name
            if self.stand_in is not None and self.stand_in in codes:
                rest = list(codes)
                rest.remove(self.stand_in)
                if len(set(rest)) == 2 and all(c in kong_set.of for c in rest):
                    return kong_set.name
        return None


@dataclass(frozen=True)
class FollowDealer:
    """跟庄 (天津 铲): the dealer pays each other player `amount` (in bases)."""

    amount: Amount


@dataclass(frozen=True)
class SettlementDef:
    kongs: Mapping[str, KongMoney]  # by kind (KONG_KINDS, GOLDEN); a kind absent earns nothing
    robbed_kong_void: bool = False
    kong_discard_money: str | Chosen = KEEP  # a KONG_DISCARD_MODES, or the enum option
    drawn_game: DrawnGameDef = DrawnGameDef()
    win_ends_round: bool = False
    one_winner: bool = False  # 截和: not even a second win on the discard that ended it
    seat_factors: bool = False
    follow_dealer: FollowDealer | None = None
    # 亮倒: the per-seat option that each win reads who has revealed from (reveal events).
    reveal_option: str | None = None
    # A revealed hand is ready: at a drawn game one that is not is refused.
    reveal_ready_hand: bool = False
    kong_chain_doubling: bool = False  # 杠上杠
    kong_tiles: KongTiles | None = None  # kongs of these tiles earn more
    special_kongs: SpecialKongs | None = None  # 幺九杠, 旋风杠, 喜杠


# The loader's error factory: err(field, message) -> an exception naming the file and field.
ErrorFactory = Callable[[str, str], Exception]


def build_settlement(raw: Any, options: tuple[OptionDef, ...], payment_params: Mapping[str, Any],
                     err: ErrorFactory, *, seat_factors: bool = False,
                     wilds: bool = False, tileset: TileSet | None = None) -> SettlementDef:
    """Validate the YAML `settlement:` mapping into a `SettlementDef`. `seat_factors`: the
    payment scheme has a seat factor; `wilds`: the rule set plays with wild tiles."""
    if not isinstance(raw, dict):
        raise err("settlement", "must be a mapping with kongs and drawn_game")
    _known_keys(raw, SETTLEMENT_KEYS, "settlement", err)
    if "base" not in payment_params:
        raise err("settlement", "amounts count in units of the payment's base, but "
                  "payment.params sets no 'base'")
    by_name = {o.name: o for o in options}
    kongs = _kongs(raw.get("kongs"), by_name, err, wilds=wilds)
    drawn_raw = raw.get("drawn_game")
    if not isinstance(drawn_raw, dict):
        raise err("settlement.drawn_game", "must be a mapping (the drawn-game checks)")
    factors = _bool(raw.get("seat_factors", False), "settlement.seat_factors", err)
    if factors and not seat_factors:
        raise err("settlement.seat_factors", "the payment scheme has no seat factor (坐庄 / "
                  "拉庄) to apply")
    follow = None
    if raw.get("follow_dealer") is not None:
        follow = _follow_dealer(raw["follow_dealer"], by_name, err)
    reveal, ready_hand = None, False
    if raw.get("reveal") is not None:
        reveal, ready_hand = _reveal(raw["reveal"], by_name, err)
    ends = _bool(raw.get("win_ends_round", False), "settlement.win_ends_round", err)
    one_winner = _bool(raw.get("one_winner", False), "settlement.one_winner", err)
    if one_winner and not ends:
        raise err("settlement.one_winner", "one winner per hand needs win_ends_round: true "
                  "(winners who drop out while the others play on make several winners)")
    kong_tiles: KongTiles | None = None
    if raw.get("kong_tiles") is not None:
        kong_tiles = _kong_tiles(raw["kong_tiles"], by_name, err, tileset)
    special: SpecialKongs | None = None
    if raw.get("special_kongs") is not None:
        special = _special_kongs(raw["special_kongs"], by_name, err, tileset)
    return SettlementDef(
        kongs=MappingProxyType(kongs),
        kong_tiles=kong_tiles,
        special_kongs=special,
        robbed_kong_void=_bool(raw.get("robbed_kong_void", False),
                               "settlement.robbed_kong_void", err),
        kong_discard_money=_kong_discard(raw.get("kong_discard_money", KEEP), by_name, err),
        drawn_game=_drawn_game(drawn_raw, by_name, err, reveal=reveal is not None),
        win_ends_round=ends,
        one_winner=one_winner,
        seat_factors=factors,
        follow_dealer=follow,
        reveal_option=reveal,
        reveal_ready_hand=ready_hand,
        kong_chain_doubling=_bool(raw.get("kong_chain_doubling", False),
                                  "settlement.kong_chain_doubling", err),
    )


def _kongs(raw: Any, by_name: Mapping[str, OptionDef], err: ErrorFactory, *,
           wilds: bool) -> dict[str, KongMoney]:
    """`settlement.kongs`: each kind of kong's money."""
    if not isinstance(raw, dict):
        raise err("settlement.kongs", "must map kong kinds (direct, added, concealed) to "
                  "{payer, amount}")
    kongs: dict[str, KongMoney] = {}
    for kind, conf in raw.items():
        field = f"settlement.kongs.{kind}"
        if kind not in (*KONG_KINDS, GOLDEN):
            raise err(field, f"unknown kind of kong (known: {', '.join((*KONG_KINDS, GOLDEN))})")
        if kind == GOLDEN and not wilds:
            raise err(field, "a golden kong (金杠) is four wild tiles, but this rule set plays "
                      "without wild tiles (`wild:`)")
        kongs[kind] = _kong(conf, kind, field, by_name, err)
    if GOLDEN in kongs and CONCEALED not in kongs:
        raise err("settlement.kongs.golden", "a golden kong set off is paid as a concealed "
                  "kong, so kongs.concealed must be given too")
    return kongs


def _follow_dealer(conf: Any, by_name: Mapping[str, OptionDef],
                   err: ErrorFactory) -> FollowDealer:
    """`settlement.follow_dealer`: what following the dealer's first discard pays."""
    if not isinstance(conf, dict):
        raise err("settlement.follow_dealer", "must be a mapping with amount")
    _known_keys(conf, section(TILES, "settlement.follow_dealer").allowed,
                "settlement.follow_dealer", err)
    if "amount" not in conf:
        raise err("settlement.follow_dealer.amount", "missing")
    return FollowDealer(_amount(conf["amount"], "settlement.follow_dealer.amount", by_name, err))


def _reveal(conf: Any, by_name: Mapping[str, OptionDef],
            err: ErrorFactory) -> tuple[str, bool]:
    """`settlement.reveal`: the per-seat option that says who has revealed (亮倒), and whether
    a revealed hand must be ready at the drawn game."""
    if not isinstance(conf, dict):
        raise err("settlement.reveal", "must be a mapping with option (a per_seat option "
                  "with entries 0 and 1)")
    _known_keys(conf, section(TILES, "settlement.reveal").allowed, "settlement.reveal", err)
    od = _option_ref({"option": conf.get("option")}, "settlement.reveal.option", by_name, err)
    if od.type != "per_seat" or od.minimum != 0 or od.maximum != 1:
        raise err("settlement.reveal.option", f"option {od.name!r} must be a per_seat "
                  "option with minimum 0 and maximum 1 (1: the seat has revealed)")
    return od.name, _bool(conf.get("ready_hand", False), "settlement.reveal.ready_hand", err)


def _kong_discard(value: Any, options: Mapping[str, OptionDef],
                  err: ErrorFactory) -> str | Chosen:
    """杠上炮's kong money: a mode, or one chosen by an option (an enum of modes)."""
    field = "settlement.kong_discard_money"
    modes = ", ".join(KONG_DISCARD_MODES)

    def mode(v: Any, at: str) -> str:
        if isinstance(v, str) and v in KONG_DISCARD_MODES:
            return v
        raise err(at, f"must be one of {modes} or {{option: name}} (got {v!r})")

    return _chosen(value, field, options, err, mode,  # type: ignore[no-any-return]
                   lambda od: od.type == "enum" and set(od.choices) <= set(KONG_DISCARD_MODES),
                   f"an enum option whose choices are among {modes} to choose what 杠上炮 "
                   "does to the kong money")


def _kong_tiles(conf: Any, options: Mapping[str, OptionDef], err: ErrorFactory,
                tileset: TileSet | None) -> KongTiles:
    field = "settlement.kong_tiles"
    if not isinstance(conf, dict):
        raise err(field, "must be a mapping with tiles, factor and enabled")
    _known_keys(conf, section(TILES, field).allowed, field, err)
    tiles = conf.get("tiles")
    if not isinstance(tiles, str) or tileset is None:
        raise err(f"{field}.tiles", "must be a tile notation string such as '1p1sCFP'")
    try:
        kinds = set(parse_tiles(tiles, tileset))
    except HandError as exc:
        raise err(f"{field}.tiles", f"bad tile notation: {exc.message}") from exc
    codes = tuple(tileset.code(t) for t in tileset.display_order if t in kinds)
    factor = conf.get("factor")
    if not isinstance(factor, int) or not _is_int(factor) or factor < 1:
        raise err(f"{field}.factor", f"must be an integer of at least 1 (got {factor!r})")
    enabled = _flag(conf.get("enabled", True), f"{field}.enabled", options, err)
    return KongTiles(codes, factor, enabled)


def _codes(value: Any, field: str, err: ErrorFactory, tileset: TileSet | None) -> list[str]:
    """Tile notation as tile codes, in the written order."""
    if not isinstance(value, str) or tileset is None:
        raise err(field, "must be a tile notation string such as '1m1p1s'")
    try:
        return [tileset.code(t) for t in parse_tiles(value, tileset)]
    except HandError as exc:
        raise err(field, f"bad tile notation: {exc.message}") from exc


def _special_kongs(conf: Any, options: Mapping[str, OptionDef], err: ErrorFactory,
                   tileset: TileSet | None) -> SpecialKongs:
    field = "settlement.special_kongs"
    if not isinstance(conf, dict):
        raise err(field, "must be a mapping with amount, sets and stand_in")
    _known_keys(conf, section(TILES, field).allowed, field, err)
    if "amount" not in conf:
        raise err(f"{field}.amount", "missing")
    amount = _amount(conf["amount"], f"{field}.amount", options, err)
    sets_raw = conf.get("sets")
    if not isinstance(sets_raw, list) or not sets_raw:
        raise err(f"{field}.sets", "must be a list of {name, of}: the kinds of special kong")
    sets = []
    for n, entry in enumerate(sets_raw):
        at = f"{field}.sets[{n}]"
        if not isinstance(entry, dict):
            raise err(at, "must be a mapping with name and of")
        _known_keys(entry, section(TILES, f"{field}.sets[]").allowed, at, err)
        name = entry.get("name")
        if not isinstance(name, str) or not name:
            raise err(f"{at}.name", "must be the kong's name, a string")
        of = _codes(entry.get("of"), f"{at}.of", err, tileset)
        if len(set(of)) != len(of) or len(of) < 3:
            raise err(f"{at}.of", "must name at least three different tiles, each once")
        sets.append(SpecialKongSet(name, tuple(of)))
    stand_in: str | None = None
    if conf.get("stand_in") is not None:
        codes = _codes(conf["stand_in"], f"{field}.stand_in", err, tileset)
        if len(codes) != 1:
            raise err(f"{field}.stand_in", "must be one tile")
        stand_in = codes[0]
    return SpecialKongs(amount, tuple(sets), stand_in)


def _kong(conf: Any, kind: str, field: str, options: Mapping[str, OptionDef],
          err: ErrorFactory) -> KongMoney:
    if not isinstance(conf, dict):
        raise err(field, "must be a mapping with payer and amount")
    _known_keys(conf, KONG_KEYS, field, err)
    payer = conf.get("payer")
    if payer not in PAYERS:
        raise err(f"{field}.payer", f"must be one of {', '.join(PAYERS)} (got {payer!r})")
    if payer == DISCARDER and kind != "direct":
        raise err(f"{field}.payer", "only a direct kong (点杠) is made on a discard; "
                  f"an {kind} kong has no discarder")
    if "amount" not in conf:
        raise err(f"{field}.amount", "missing")
    amount = _amount(conf["amount"], f"{field}.amount", options, err, off=kind == GOLDEN)
    fresh: dict[str, Flag] = {}
    for key in ("only_if_fresh", "must_be_fresh"):
        if key in conf:
            if kind != "added":
                raise err(f"{field}.{key}", "only an added kong (加杠) can be fresh")
            fresh[key] = _flag(conf[key], f"{field}.{key}", options, err)
    return KongMoney(payer=payer, amount=amount, only_if_fresh=fresh.get("only_if_fresh", False),
                     must_be_fresh=fresh.get("must_be_fresh", False))


def _drawn_game(raw: dict[str, Any], options: Mapping[str, OptionDef],
                err: ErrorFactory, *, reveal: bool = False) -> DrawnGameDef:
    field = "settlement.drawn_game"
    _known_keys(raw, DRAWN_KEYS, field, err)
    max_suits = raw.get("max_suits")
    if max_suits is not None and (not isinstance(max_suits, int) or isinstance(max_suits, bool)
                                  or max_suits < 1):
        raise err(f"{field}.max_suits", f"must be a positive integer or null (got {max_suits!r})")
    not_ready_pays = raw.get("not_ready_pays")
    if not_ready_pays not in (None, BEST_VALUE):
        raise err(f"{field}.not_ready_pays",
                  f"must be {BEST_VALUE} or null (got {not_ready_pays!r})")
    penalty = _amount(raw.get("pig_penalty", 0), f"{field}.pig_penalty", options, err)
    counts_as_not_ready = _bool(raw.get("pig_counts_as_not_ready", False),
                                f"{field}.pig_counts_as_not_ready", err)
    if max_suits is None and (penalty != 0 or counts_as_not_ready):
        raise err(f"{field}.max_suits", "a pig penalty or pig rule needs max_suits (who is a pig)")
    declared_void = raw.get("declared_void")
    if declared_void is not None:
        od = options.get(declared_void) if isinstance(declared_void, str) else None
        if od is None or od.type != "per_seat" or not od.choices or max_suits is None:
            raise err(f"{field}.declared_void", "must name a per_seat option with choices (the "
                      "suit each seat declared void), beside max_suits "
                      f"(got {declared_void!r})")
    ready_as = raw.get("ready_as", "discard")
    if ready_as not in READY_AS:
        raise err(f"{field}.ready_as", f"must be one of {', '.join(READY_AS)} (got {ready_as!r})")
    return DrawnGameDef(
        max_suits=max_suits, declared_void=declared_void, pig_penalty=penalty,
        pig_counts_as_not_ready=counts_as_not_ready,
        not_ready_pays=not_ready_pays,
        refund_kongs=_bool(raw.get("refund_kongs", False), f"{field}.refund_kongs", err),
        ready_as=ready_as,
        kongs_stand=_flag(raw.get("kongs_stand", True), f"{field}.kongs_stand", options, err),
        revealed_pay=_revealed_pay(raw.get("revealed_pay"), f"{field}.revealed_pay", options,
                                   err, reveal),
    )


def _revealed_pay(raw: Any, field: str, options: Mapping[str, OptionDef], err: ErrorFactory,
                  reveal: bool) -> RevealedPay | None:
    if raw is None:
        return None
    if not reveal:
        raise err(field, "needs settlement.reveal: who has revealed comes from reveal events")
    if not isinstance(raw, dict):
        raise err(field, "must be a mapping with amount and payers")
    _known_keys(raw, section(TILES, "settlement.drawn_game.revealed_pay").allowed, field, err)
    if "amount" not in raw:
        raise err(f"{field}.amount", "missing")

    def who(v: Any, at: str) -> str:
        if v in REVEALED_PAYERS:
            return str(v)
        raise err(at, f"must be one of {', '.join(REVEALED_PAYERS)} or {{option: name}} "
                  f"(got {v!r})")

    chosen = _chosen(raw.get("payers", ALL_REVEALED), f"{field}.payers", options, err, who,
                     lambda od: od.type == "enum" and set(od.choices) <= set(REVEALED_PAYERS),
                     f"an enum of {', '.join(REVEALED_PAYERS)}")
    return RevealedPay(_amount(raw["amount"], f"{field}.amount", options, err), chosen)


def _known_keys(raw: dict[str, Any], allowed: frozenset[str], field: str,
                err: ErrorFactory) -> None:
    bad = set(raw) - allowed
    if bad:
        raise err(f"{field}.{sorted(map(str, bad))[0]}",
                  f"unknown key (allowed: {', '.join(sorted(allowed))})")


def _bool(value: Any, field: str, err: ErrorFactory) -> bool:
    if not isinstance(value, bool):
        raise err(field, f"must be true or false (got {value!r})")
    return value


def _option_ref(value: dict[str, Any], field: str, options: Mapping[str, OptionDef],
                err: ErrorFactory) -> OptionDef:
    if set(value) != {"option"} or not isinstance(value["option"], str):
        raise err(field, "must be a value or {option: <a declared option>}")
    od = options.get(value["option"])
    if od is None:
        known = ", ".join(sorted(options)) or "none"
        raise err(field, f"names no option of this rule set: {value['option']!r} (options: "
                  f"{known})")
    return od


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _chosen(value: Any, field: str, options: Mapping[str, OptionDef], err: ErrorFactory,
            plain: Callable[[Any, str], Any], fits: Callable[[OptionDef], bool],
            wanted: str) -> Any:
    """A value, or one chosen by options (the option model's reader, `read_chosen`; each
    plain value through `plain`); an option whose own value it is must `fits` (`wanted`
    says what it must be)."""
    if isinstance(value, dict) and set(value) == {"option"}:
        od = _option_ref(value, field, options, err)
        if not fits(od):
            raise err(field, f"option {od.name!r} must be {wanted}")
    return read_chosen(value, options, field, err, plain)


def _amount(value: Any, field: str, options: Mapping[str, OptionDef],
            err: ErrorFactory, off: bool = False) -> Amount:
    """An amount or one chosen by options; with `off`, OFF too (a golden kong paid as a
    concealed one)."""

    def plain(v: Any, at: str) -> Any:
        if off and v == OFF:
            return v
        if not _is_int(v) or v < 0:
            raise err(at, f"must be a non-negative integer (units of the base) or "
                      f"{{option: name}} (got {v!r})")
        return v

    also = f" (or {OFF!r})" if off else ""
    return _chosen(  # type: ignore[no-any-return]
        value, field, options, err, plain,
        lambda od: (od.type == "int" and od.minimum is not None and od.minimum >= 0) or (
            od.type == "enum" and all((_is_int(c) and c >= 0) or (off and c == OFF)
                                      for c in od.choices)),
        f"an int option with minimum 0 or an enum of non-negative integers{also} to give an "
        "amount")


def _flag(value: Any, field: str, options: Mapping[str, OptionDef], err: ErrorFactory) -> Flag:
    return _chosen(value, field, options, err,  # type: ignore[no-any-return]
                   lambda v, at: _bool(v, at, err), lambda od: od.type == "bool",
                   "a bool option to give a switch")
