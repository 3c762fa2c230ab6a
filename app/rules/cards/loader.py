"""YAML -> `CardRuleSet`: a card game scored by groups (a rule set of `family: cards`).

The file is read, and its parents merged in (`extends:`), as every family's is
(`app.rules.loader`); this module builds the merged mapping. Every key is checked and every
name resolved at start-up: group kinds, checks, steps and their parameters (bound by the one
binder, `app.rules.load_params.bind`), values chosen by options and conditions on them (read
by the option model's readers, `app.rules.load_options`, as every family's are). A mistake
stops the service before it serves a request with a `RuleSetError` naming the file and the
field at fault, as for every family (`app.rules.errors`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import Any

from app.domain.arrange import FORMS, Form
from app.domain.deck import Deck, Suit
from app.rules.cards.checks import CHECKS
from app.rules.cards.model import (
    FREE,
    CardRuleSet,
    FormRule,
    GroupKind,
    HandRule,
    PatternDef,
    Placement,
    PointsRule,
    StepDef,
    WinTypeDef,
)
from app.rules.cards.steps import STEPS
from app.rules.choices import BoundParams, Chosen
from app.rules.errors import FieldError, field_errors
from app.rules.families import CARDS, RuleFamily
from app.rules.load_options import read_chosen, read_condition
from app.rules.load_params import bind, keyword_params
from app.rules.matches import build_match
from app.rules.options import OptionDef, read_options
from app.rules.sections import (
    OPTION_KEYS,
    declared,
    missing_key,
    register_sections,
    section,
    unknown_key,
)

# The keys each section of a card game's YAML may and must hold (`app.rules.sections`).
register_sections(CARDS, {
    "": declared("id:text name:text name_en:text description:text players:int "
                 "players_option:text deck:map groups:map hand:map win_card:list "
                 "win_types:map context_flags:texts context_cards:texts figures:map names:map "
                 "rank_by scoring patterns:list options:list match:map",
                 "id name name_en description players"),
    "options[]": OPTION_KEYS,
    "deck": declared("name ranks copies suits attributes aliases", "ranks copies suits"),
    "deck.suits[]": declared("letter name name_en cards", "letter name name_en cards"),
    "groups.*": declared("name name_en description cards points made_of table flags"),
    "hand": declared("groups locked pair cards per_extra", "groups locked pair cards per_extra"),
    "win_types.*": declared("name payer pays shares reason", "pays"),
    "patterns[]": declared("id name name_en description check params value", "id check"),
    "names": declared("points units"),
})
TOP = section(CARDS, "")
RANKINGS = ("points", "score")


def build_card_ruleset(data: Mapping[str, Any], source: str,
                       origins: Mapping[str, str] | None = None) -> CardRuleSet:
    """The rule set of `data` (the file's mapping with its parents merged in), from the file
    named `source`. `origins` (the file each tile fan comes from) is the tile games' concern:
    a card rule set's errors name its own file."""
    err = field_errors(source)
    fault = TOP.fault(data)  # keys and value types (`app.rules.sections`)
    if fault is not None:
        raise err(*fault)
    players = data["players"]
    if not 2 <= players <= 8:
        raise err("players", f"must be from 2 to 8 (got {players})")
    options = read_options(data.get("options", []), err, players)
    by_name = {o.name: o for o in options}
    players_option = data.get("players_option")
    if players_option is not None:
        od = by_name.get(players_option)
        if od is None or od.type != "enum" or od.default != players or not all(
                isinstance(c, int) and 2 <= c <= 8 for c in od.choices):
            raise err("players_option", "must name an enum option of player counts (2-8) "
                      "whose default is `players`")
    deck = _deck(data.get("deck"), err)
    groups = _groups(data.get("groups"), deck, by_name, err)
    hand = _hand(data.get("hand"), groups, by_name, err)
    win_types = _win_types(data.get("win_types"), by_name, err)
    placements = _placements(data.get("win_card", []), groups, hand, win_types, by_name, err)
    flags = _names(data.get("context_flags", []), "context_flags", err)
    cards = _names(data.get("context_cards", []), "context_cards", err)
    figures = data.get("figures", {})
    if not isinstance(figures, dict) or any(
            not isinstance(k, str) or v not in deck.attributes for k, v in figures.items()):
        raise err("figures", "must map response fields to attributes of the deck")
    names = data.get("names", {})
    if not isinstance(names, dict) or unknown_key(names, section(CARDS, "names")) or not all(
            isinstance(v, str) for v in names.values()):
        raise err("names", "may name `points` and `units`, each a string")
    rank_by = _choice(data.get("rank_by", list(RANKINGS)), by_name, "rank_by", err,
                      lambda v, f: _ranking(v, f, err))
    steps = _choice(data.get("scoring"), by_name, "scoring", err,
                    lambda v, f: _steps(v, f, by_name, set(cards), err))
    patterns = _patterns(data.get("patterns", []), by_name, set(flags), err)
    ruleset = CardRuleSet(
        id=data["id"], name=data["name"], name_en=data["name_en"],
        description=data["description"], players=players, players_option=players_option,
        deck=deck, groups=groups, hand=hand, placements=placements, win_types=win_types,
        figures=dict(figures), rank_by=rank_by, steps=steps, patterns=patterns,
        options=options, context_flags=flags, context_cards=cards, source=source,
        names=dict(names), match=build_match(data.get("match"), players, err))
    # Compiled now, so that no request pays for them.
    _ = ruleset._arrangers, ruleset._groups_by_switches
    return ruleset


def _names(value: Any, field: str, err: FieldError) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise err(field, "must be a list of names")
    return tuple(value)


def _int(value: Any, field: str, err: FieldError) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise err(field, "must be an integer")
    return value


def _choice(value: Any, options: Mapping[str, OptionDef], field: str, err: FieldError,
            convert: Callable[[Any, str], Any]) -> Any:
    """A value, or one chosen by options (`{option}`, `{option, values, default}`, nested):
    the option model's reader, every plain value through `convert`."""
    return read_chosen(value, options, field, err, convert)


def _deck(value: Any, err: FieldError) -> Deck:
    if not isinstance(value, dict):
        raise err("deck", "must be a mapping")
    extra = set(value) - section(CARDS, "deck").allowed
    if extra:
        raise err(f"deck.{sorted(extra)[0]}", "unknown key")
    ranks = value.get("ranks")
    if (not isinstance(ranks, list) or not ranks or len(set(ranks)) != len(ranks)
            or not all(isinstance(r, int) and not isinstance(r, bool) and r > 0 for r in ranks)):
        raise err("deck.ranks", "must list distinct positive integers")
    copies = _int(value.get("copies"), "deck.copies", err)
    suits = []
    for i, s in enumerate(value.get("suits") or []):
        f = f"deck.suits[{i}]"
        suit = section(CARDS, "deck.suits[]")
        if not isinstance(s, dict) or unknown_key(s, suit) or missing_key(s, suit):
            raise err(f, "must give letter, name, name_en and cards")
        letter, chars = s["letter"], s["cards"]
        if not (isinstance(letter, str) and len(letter) == 1 and letter.islower()):
            raise err(f"{f}.letter", "must be one lowercase letter")
        if not isinstance(chars, str) or len(chars) != len(ranks):
            raise err(f"{f}.cards", f"must be a string of {len(ranks)} characters, one per rank")
        suits.append(Suit(letter, str(s["name"]), str(s["name_en"]), tuple(chars)))
    if not suits or len({s.letter for s in suits}) != len(suits):
        raise err("deck.suits", "must list suits with distinct letters")
    attrs = value.get("attributes", {})
    if not isinstance(attrs, dict) or not all(
            isinstance(v, list) and set(v) <= set(ranks) for v in attrs.values()):
        raise err("deck.attributes", "must map attribute names to lists of ranks")
    deck = Deck(str(value.get("name", "")), tuple(suits), tuple(ranks), copies,
                {k: frozenset(v) for k, v in attrs.items()}, {})
    aliases = value.get("aliases", {})
    if not isinstance(aliases, dict) or not all(
            isinstance(k, str) and len(k) == 1 and v in deck.by_code for k, v in aliases.items()):
        raise err("deck.aliases", "must map single characters to card codes")
    chars = [c for s in suits for c in s.rank_names] + list(aliases)
    if len(set(chars)) != len(chars):
        raise err("deck", "a character names two cards")
    return Deck(deck.name, deck.suits, deck.ranks, copies, deck.attributes, dict(aliases))


def _form(value: Any, field: str, options: Mapping[str, OptionDef], err: FieldError) -> FormRule:
    if not isinstance(value, dict):
        raise err(field, "must be a mapping such as {same: 3}")
    when = value.get("when")
    condition = (None if when is None
                 else read_condition(when, options, f"{field}.when", None, err))
    keys = set(value) - {"when"}
    if len(keys) != 1 or next(iter(keys)) not in FORMS:
        raise err(field, f"must give one of {', '.join(FORMS)}")
    form = next(iter(keys))
    arg = value[form]
    if form == "ranks":
        if not isinstance(arg, list) or not arg:
            raise err(f"{field}.ranks", "must list ranks")
        return FormRule(Form(form, len(arg), tuple(sorted(arg))), condition)
    return FormRule(Form(form, _int(arg, f"{field}.{form}", err)), condition)


def _groups(value: Any, deck: Deck, options: Mapping[str, OptionDef], err: FieldError
            ) -> dict[str, GroupKind]:
    if not isinstance(value, dict) or not value:
        raise err("groups", "must map group kinds to their definitions")
    allowed = section(CARDS, "groups.*").allowed
    out: dict[str, GroupKind] = {}
    letters = {s.letter for s in deck.suits}
    for kid, g in value.items():
        f = f"groups.{kid}"
        if not isinstance(g, dict):
            raise err(f, "must be a mapping")
        extra = set(g) - allowed
        if extra:
            raise err(f"{f}.{sorted(extra)[0]}", "unknown key")
        made_of = tuple(g.get("made_of") or ())
        raw_forms = g.get("cards")
        if bool(made_of) == (raw_forms is not None):
            raise err(f, "needs either cards or made_of")
        forms: tuple[FormRule, ...] = ()
        if raw_forms is not None:
            items = raw_forms if isinstance(raw_forms, list) else [raw_forms]
            forms = tuple(_form(x, f"{f}.cards", options, err) for x in items)
            if len({fr.form.size for fr in forms}) != 1:
                raise err(f"{f}.cards", "all forms of a kind must have one size")
        points = None
        rp = g.get("points")
        if rp is not None:
            if made_of or not isinstance(rp, dict) or not set(rp) - {"ranks"} <= letters:
                raise err(f"{f}.points", "must give points per suit letter (and ranks)")
            sets = rp.get("ranks", [])
            if not isinstance(sets, list) or not all(isinstance(s, list) for s in sets):
                raise err(f"{f}.points.ranks", "must list rank sets")
            points = PointsRule({k: _int(v, f"{f}.points.{k}", err) for k, v in rp.items()
                                 if k != "ranks"}, tuple(frozenset(s) for s in sets))
        table = g.get("table")
        if table not in (None, "concealed", "exposed"):
            raise err(f"{f}.table", "must be concealed or exposed")
        out[kid] = GroupKind(kid, str(g.get("name", kid)), str(g.get("name_en", "")),
                             str(g.get("description", "")), forms, points, made_of,
                             forms[0].form.size if forms else 0, table,
                             tuple(g.get("flags") or ()))
    for kid, kind in out.items():
        for sub in kind.made_of:
            if sub not in out or out[sub].made_of:
                raise err(f"groups.{kid}.made_of", f"{sub!r} is not a kind with cards")
        if kind.made_of:
            sizes = {out[sub].size for sub in kind.made_of}
            if len(sizes) != 1:
                raise err(f"groups.{kid}.made_of", "the kinds must have one size")
            out[kid] = dataclasses.replace(kind, size=sizes.pop())
    return out


def _hand(value: Any, groups: Mapping[str, GroupKind], options: Mapping[str, OptionDef],
          err: FieldError) -> HandRule:
    hand = section(CARDS, "hand")
    if not isinstance(value, dict) or unknown_key(value, hand) or missing_key(value, hand):
        raise err("hand", "must give groups, locked, pair, cards and per_extra")
    kinds = tuple(value["groups"])
    for k in kinds:
        if k not in groups or groups[k].made_of:
            raise err("hand.groups", f"{k!r} is not a group kind with cards")
    locked, pair = value["locked"], value["pair"]
    if not isinstance(locked, dict) or locked.get("kind") not in kinds:
        raise err("hand.locked.kind", "must name one of the hand's group kinds")
    if not isinstance(pair, dict) or pair.get("kind") not in kinds:
        raise err("hand.pair.kind", "must name one of the hand's group kinds")
    cards = _choice(value["cards"], options, "hand.cards", err,
                    lambda v, f: _int(v, f, err))
    return HandRule(kinds, locked["kind"], _int(locked.get("held"), "hand.locked.held", err),
                    pair["kind"], _int(pair.get("when_size"), "hand.pair.when_size", err),
                    cards, _int(value["per_extra"], "hand.per_extra", err))


def _win_types(value: Any, options: Mapping[str, OptionDef], err: FieldError
               ) -> dict[str, WinTypeDef]:
    if not isinstance(value, dict) or not value:
        raise err("win_types", "must map win types to who pays")
    out = {}
    for wid, w in value.items():
        f = f"win_types.{wid}"
        if not isinstance(w, dict) or unknown_key(w, section(CARDS, "win_types.*")):
            raise err(f, "may give name, payer, pays, shares and reason")
        if w.get("pays") not in ("each_other", "payer"):
            raise err(f"{f}.pays", "must be each_other or payer")
        if w["pays"] == "payer" and not w.get("payer"):
            raise err(f"{f}.payer", "a win paid by its payer must name the payer's field")

        def shares(v: Any, field: str) -> Any:
            if v != "others":
                _int(v, field, err)
            return v

        out[wid] = WinTypeDef(wid, str(w.get("name", wid)), w.get("payer"), w["pays"],
                              _choice(w.get("shares", 1), options, f"{f}.shares", err, shares),
                              str(w.get("reason", wid)))
    return out


def _placements(value: Any, groups: Mapping[str, GroupKind], hand: HandRule,
                win_types: Mapping[str, WinTypeDef], options: Mapping[str, OptionDef],
                err: FieldError) -> tuple[Placement, ...]:
    out = []
    for i, p in enumerate(value):
        f = f"win_card[{i}]"
        if not isinstance(p, dict) or ("held" in p) == ("table" in p):
            raise err(f, "must give either held (a count) or table (a group kind)")
        held = p.get("held")
        table = p.get("table")
        if table is not None and (table not in groups or groups[table].table is None):
            raise err(f"{f}.table", f"{table!r} is not a kind of table group")
        size = (held if held is not None else groups[str(table)].size) + 1
        by: dict[str, Any] = {}
        for wt, kinds in p.items():
            if wt in ("held", "table"):
                continue
            if wt not in win_types:
                raise err(f"{f}.{wt}", "is not a win type")

            def kinds_of(v: Any, field: str, size: int = size) -> tuple[str, ...]:
                if not isinstance(v, list) or not v:
                    raise err(field, "must list group kinds (or free)")
                for k in v:
                    if k != FREE and (k not in groups or groups[k].size != size):
                        raise err(field, f"{k!r} is not a kind of {size} cards")
                return tuple(v)

            by[wt] = _choice(kinds, options, f"{f}.{wt}", err, kinds_of)
        out.append(Placement(held, table, by))
    return tuple(out)


def _ranking(value: Any, field: str, err: FieldError) -> tuple[str, ...]:
    if not isinstance(value, list) or not value or not set(value) <= set(RANKINGS):
        raise err(field, "must list points and score in the order they rank readings")
    return tuple(value)


def _bind(func: Callable[..., Any], raw: Mapping[str, Any], field: str,
          options: Mapping[str, OptionDef], err: FieldError) -> BoundParams:
    """`raw` bound to the keyword-only parameters of `func` by the one binder: all required
    ones given, no unknown ones; a value may be chosen by options."""
    return bind(func.__name__, keyword_params(func), raw, field, err, options,
                lambda _param, value, _field: value)


def _steps(value: Any, field: str, options: Mapping[str, OptionDef], cards: set[str],
           err: FieldError) -> tuple[StepDef, ...]:
    """The steps in order; a step's `card` parameter must be `win_card` or a context card."""
    if not isinstance(value, list) or not value:
        raise err(field, "must list scoring steps")
    out = []
    for i, s in enumerate(value):
        f = f"{field}[{i}]"
        if not isinstance(s, dict) or s.get("step") not in STEPS:
            raise err(f"{f}.step", f"must name a step: {', '.join(STEPS)}")
        raw = {k: v for k, v in s.items() if k != "step"}
        params = _bind(STEPS[s["step"]], raw, f, options, err)
        card = params.get("card")
        for named in (card.values.values() if isinstance(card, Chosen) else [card]):
            if named is not None and named != "win_card" and named not in cards:
                raise err(f"{f}.card", f"{named!r} is neither win_card nor a context card "
                          f"({', '.join(sorted(cards)) or 'none'})")
        out.append(StepDef(s["step"], STEPS[s["step"]], params))
    names = [s.name for s in out]
    if "score" not in names or names[-1] != "score":
        raise err(field, "must end with the score step")
    return tuple(out)


def _patterns(value: Any, options: Mapping[str, OptionDef], flags: set[str], err: FieldError
              ) -> tuple[PatternDef, ...]:
    if not isinstance(value, list):
        raise err("patterns", "must be a list")
    out = []
    for i, p in enumerate(value):
        f = f"patterns[{i}]"
        allowed = section(CARDS, "patterns[]").allowed
        if not isinstance(p, dict) or set(p) - allowed or not isinstance(p.get("id"), str):
            raise err(f, f"must give id, name, check, params, value (allowed: {sorted(allowed)})")
        check = CHECKS.get(p.get("check", ""))
        if check is None:
            raise err(f"{f}.check", f"must name a check: {', '.join(CHECKS)}")
        params = _bind(check, p.get("params") or {}, f"{f}.params", options, err)
        value_ = _choice(p.get("value"), options, f"{f}.value", err,
                         lambda v, fld: _int(v, fld, err))
        out.append(PatternDef(p["id"], str(p.get("name", p["id"])), str(p.get("name_en", "")),
                              str(p.get("description", "")), check, p["check"], params, value_))
    ids = [p.id for p in out]
    if len(set(ids)) != len(ids):
        raise err("patterns", "ids must be distinct")
    return tuple(out)


# The card games' entry in the family registry (`app.rules.families`), registered with the
# tile games' by `app.rules.loader`.
FAMILY = RuleFamily(
    CARDS, CardRuleSet, build_card_ruleset,
    "card games scored by groups: a deck, exact-cover arrangements, 胡息 → 囤 → 名堂 steps")
