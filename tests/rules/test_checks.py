"""The check vocabulary: docstrings, the `needs` promise, and each check on hand-picked hands.

The `needs` promise: a check that declares `needs=(...)` returns 0 on every reading that lacks
one of those features. The engine relies on it to skip such checks; here it is tested for every
fan of the mcr rule set (its own params) on random decomposed hands.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from app.domain.errors import HandError
from app.domain.hand import Hand, WinContext
from app.domain.notation import parse_tiles
from app.domain.readings import Reading
from app.domain.shapes import HONORS_AND_KNITTED, KNITTED_STRAIGHT, REGULAR, SEVEN_PAIRS, decompose
from app.rules.checks import CHECKS, TileGroup, bound_params, run
from app.rules.model import RuleSet
from app.rules.policies import mcr_account_once
from app.rules.view import FEATURES, HandFacts, View
from app.service.tiles.requests import build
from tests.loaded import repo_rulesets
from tests.mcr_reference.generator import generate

ROOT = Path(__file__).resolve().parents[2]
MCR: RuleSet = repo_rulesets()["mcr"]
T = MCR.tileset
SHAPES = frozenset(MCR.shapes)


def tg(text: str) -> frozenset[int]:
    return frozenset(parse_tiles(text, T))


def views(text: str, **ctx: Any) -> list[View]:
    """Every reading of a hand (whole-hand notation) as a View; context as in a request."""
    ctx.setdefault("win_type", "discard")
    if ctx["win_type"] == "discard":
        ctx.setdefault("discarder", 1)
    hand, context = build(text, ctx, MCR)
    facts = HandFacts(hand, context, T, SHAPES)
    return [View(r, facts, mcr_account_once) for r in decompose(hand, SHAPES, T)]


def view(text: str, pick: Callable[[Reading], bool] | None = None, **ctx: Any) -> View:
    """The one reading of the hand (or the one `pick` selects)."""
    found = [v for v in views(text, **ctx) if pick is None or pick(v.reading)]
    assert len(found) == 1, f"{text}: {len(found)} readings"
    return found[0]


def call(name: str, v: View, **params: Any) -> int:
    return run(CHECKS[name], v, v.ctx, params)


def is_shape(shape: str) -> Callable[[Reading], bool]:
    return lambda r: r.shape == shape


# ---------------------------------------------------------------------------------------------
# Registry


def test_every_check_has_a_docstring_starting_with_its_chinese_name() -> None:
    assert len(CHECKS) >= 25
    for name, spec in CHECKS.items():
        doc = spec.doc.strip()
        assert doc, name
        assert "CJK" in unicodedata.name(doc[0], ""), f"{name}: {doc[:20]!r}"


def test_every_check_takes_plain_parameters_after_view_and_ctx() -> None:
    # Plain (not keyword-only): the engine passes a check's parameters by position.
    for name, spec in CHECKS.items():
        params = list(spec.signature.parameters.values())
        assert [p.kind for p in params[:2]] == [params[0].POSITIONAL_OR_KEYWORD] * 2, name
        assert all(p.kind is p.POSITIONAL_OR_KEYWORD for p in params[2:]), name
        assert set(spec.needs) <= set(FEATURES), name
        assert spec.scope in ("reading", "hand"), name


# Features that come from the win context, the same for every reading of a hand.
CONTEXT_FEATURES = {"last_tile", "kong_win"}


def test_hand_scope_checks_need_only_context_features() -> None:
    # A hand-scope result is computed once and shared by every reading, so what it needs must
    # not differ from one reading to the next.
    for name, spec in CHECKS.items():
        if spec.scope == "hand":
            assert set(spec.needs) <= CONTEXT_FEATURES, name


def test_context_features_are_the_same_in_every_reading() -> None:
    masks = [FEATURES[n] for n in CONTEXT_FEATURES if n in FEATURES]
    for case in generate(300, 5).cases:
        facts = HandFacts(case.hand, case.ctx, T, SHAPES)
        seen = {tuple(View(r, facts, mcr_account_once).features & m for m in masks)
                for r in decompose(case.hand, SHAPES, T)}
        assert len(seen) <= 1, case.notation


def test_every_mcr_fan_uses_a_registered_check() -> None:
    for f in MCR.fans:
        assert f.check in CHECKS, f.id


# ---------------------------------------------------------------------------------------------
# The needs promise


def _params(fan_params: Any, check: str) -> dict[str, Any]:
    sig = CHECKS[check].signature
    out = {}
    for name, value in fan_params.items():
        ann = sig.parameters[name].annotation
        if isinstance(value, str) and (ann is TileGroup or TileGroup in getattr(ann, "__args__",
                                                                                ())):
            out[name] = tg(value)
        else:
            out[name] = value
    return out


NEEDY = [(f, _params(f.params, f.check)) for f in MCR.fans if CHECKS[f.check].needs]


def test_needs_promise_on_random_hands() -> None:
    """A check whose needed features a reading lacks returns 0, for every mcr fan using it."""
    assert NEEDY
    lacking: dict[str, int] = {}
    for case in generate(1500, 77).cases:
        facts = HandFacts(case.hand, case.ctx, T, SHAPES)
        for reading in decompose(case.hand, SHAPES, T):
            v = View(reading, facts, mcr_account_once)
            for f, params in NEEDY:
                missing = [n for n in CHECKS[f.check].needs if not v.features & FEATURES[n]]
                if missing:
                    lacking[f.id] = lacking.get(f.id, 0) + 1
                    got = CHECKS[f.check].func(v, case.ctx, **params)
                    assert got == 0, (f.id, missing, case.notation, case.context)
    # Every needy fan met readings that lack what it needs.
    assert set(lacking) == {f.id for f, _ in NEEDY}


def test_features_describe_the_reading() -> None:
    from app.rules.view import CHOW_PAIRS, CHOWS, KONGS, PUNGS, WAIT

    v = view("[123m]{5555s}456m89pEE7p", win_type="self_draw")  # 89-7: edge
    assert v.features == CHOWS | CHOW_PAIRS | KONGS | PUNGS | WAIT
    v = view("19m19p19sESWNCFPC")
    assert v.features == 0
    v = view("123m456m11p789pEEE")
    assert v.features == CHOWS | CHOW_PAIRS | PUNGS
    if "last_tile" in FEATURES:
        v = view("123m456m11p789pEEE", last_tile=True)
        assert v.features == CHOWS | CHOW_PAIRS | PUNGS | FEATURES["last_tile"]


# ---------------------------------------------------------------------------------------------
# traits (whole-hand checks)


def test_tiles_within_counts_the_melds_too() -> None:
    green = view("[234s][666s]888sFF2s3s4s")
    assert call("tiles_within", green, tiles=tg("23468sF")) == 1
    assert call("tiles_within", view("[123s][666s]888sFF2s3s4s"), tiles=tg("23468sF")) == 0


def test_one_suit_with_and_without_honours() -> None:
    full = view("123456789m11m234m")
    half = view("123456789mEE234m")
    assert (call("one_suit", full, honors=False), call("one_suit", full, honors=True)) == (1, 0)
    assert (call("one_suit", half, honors=False), call("one_suit", half, honors=True)) == (0, 1)
    assert call("one_suit", view("123456789m11p234m"), honors=False) == 0


def test_voided_suit_no_honors_all_types() -> None:
    two_suits = view("123456789m11p234m")
    assert call("voided_suit", two_suits) == 1
    assert call("no_honors", two_suits) == 1
    five = view("123m456p789sEEECC")
    assert (call("voided_suit", five), call("no_honors", five), call("all_types", five)) == (
        0, 0, 1)
    assert call("all_types", view("123m456p789sEEESS")) == 0  # no dragon


def test_tile_hog_counts_each_and_never_a_kong() -> None:
    v = view("[1111m]234m123p55p1p2p3p", win_type="self_draw")
    assert call("tile_hog", v) == 0  # the four 1m are a kong: no 四归一
    v = view("111m123m222p33p345p")
    assert call("tile_hog", v) == 1  # 1m four times (pung + chow), not a kong
    v = view("11112222m334455p")
    assert call("tile_hog", v) == 2


def test_flowers_is_the_context_count() -> None:
    v = view("123m456p789s111sEE", flowers=3)
    assert call("flowers", v) == 3


# ---------------------------------------------------------------------------------------------
# sets


def test_pungs_among_exactly_and_pair_among() -> None:
    v = view("EEESSSWWWNN123m", win_type="self_draw")
    winds = tg("ESWN")
    assert call("pungs_among", v, tiles=winds) == 3
    assert call("pungs_among", v, tiles=winds, exactly=3) == 1
    assert call("pungs_among", v, tiles=winds, exactly=3, pair_among=True) == 1
    assert call("pungs_among", v, tiles=winds, exactly=4) == 0
    v = view("EEESSSWWW11m123m")
    assert call("pungs_among", v, tiles=winds, exactly=3, pair_among=True) == 0
    # A kong is a pung here.
    v = view("[CCCC]FFFPP123m456m")
    assert call("pungs_among", v, tiles=tg("CFP"), exactly=2, pair_among=True) == 1


def test_wind_pung_seat_and_round() -> None:
    v = view("SSS123m456p789s11s", seat_wind="S", round_wind="E")
    assert call("wind_pung", v, wind="seat") == 1
    assert call("wind_pung", v, wind="round") == 0
    v = view("SSS123m456p789s11s", seat_wind="E", round_wind="S")
    assert (call("wind_pung", v, wind="seat"), call("wind_pung", v, wind="round")) == (0, 1)


@pytest.mark.parametrize(
    ("text", "seat", "rnd", "expected"),
    [
        ("111m999pEEE123s55s", "S", "S", 3),  # E scores no wind fan of its own: counted
        ("111m999pEEE123s55s", "E", "S", 2),  # seat wind: 门风刻 instead
        ("111m999pEEE123s55s", "S", "E", 2),  # round wind: 圈风刻 instead
        ("111mCCCEEE123s55s", "S", "S", 2),  # a dragon pung is 箭刻, never 幺九刻
        ("EEESSSWWW999m55s", "N", "N", 1),  # three wind pungs: only the terminal counts
        ("EEESSSWWWNNN55s", "N", "N", 0),
    ],
)
def test_terminal_and_wind_pungs(text: str, seat: str, rnd: str, expected: int) -> None:
    v = view(text, seat_wind=seat, round_wind=rnd, win_type="self_draw")
    assert call("terminal_and_wind_pungs", v) == expected


def test_all_pungs_and_within() -> None:
    v = view("[222m]444p666s888s88p", win_type="self_draw")
    assert call("all_pungs", v) == 1
    assert call("all_pungs", v, within=tg("2468m2468p2468s")) == 1
    v = view("[222m]444p666s888s55p", win_type="self_draw")
    assert call("all_pungs", v) == 1
    assert call("all_pungs", v, within=tg("2468m2468p2468s")) == 0
    assert call("all_pungs", view("123m444p666s888s55p")) == 0


def test_all_chows_needs_a_numbered_pair_and_counts_knits() -> None:
    assert call("all_chows", view("123m456p789s234s55m")) == 1
    assert call("all_chows", view("123m456p789s234sEE")) == 0
    assert call("all_chows", view("123m456p789s222s55m")) == 0
    knitted = view("147m258p369s123m55s", is_shape(KNITTED_STRAIGHT))
    assert call("all_chows", knitted) == 1
    assert call("all_chows", view("147m258p369sEEE55s", is_shape(KNITTED_STRAIGHT))) == 0


def test_every_group_has() -> None:
    outside = tg("19m19p19sESWNCFP")
    assert call("every_group_has", view("123m789p123s999sEE"), tiles=outside) == 1
    assert call("every_group_has", view("123m789p234s999sEE"), tiles=outside) == 0
    fives = tg("5m5p5s")
    assert call("every_group_has", view("345m456p567s555s55m"), tiles=fives) == 1
    # Special shapes without groups have no sets at all: never.
    assert call("every_group_has", view("19m19p19sESWNCFPP"), tiles=outside) == 0
    # A knit holds one of three tiles: 147m holds no 5.
    ks = view("147m258p369s456m55s", is_shape(KNITTED_STRAIGHT))
    assert call("every_group_has", ks, tiles=fives) == 0


def test_kongs_total_and_concealed() -> None:
    v = view("{1111m}[2222p]123s456s9m9m", win_type="self_draw")
    assert call("kongs", v, total=2) == 1
    assert call("kongs", v, total=2, concealed=1) == 1
    assert call("kongs", v, total=2, concealed=2) == 0
    assert call("kongs", v, total=1) == 0


def test_concealed_pungs_on_a_discard() -> None:
    # 555p completed by the discarded 5p: a claimed pung, so one concealed pung left.
    assert call("concealed_pungs", view("111m55p123s789sEE5p"), exactly=1) == 1
    # Self-drawn, both are concealed.
    v = view("111m55p123s789sEE5p", win_type="self_draw")
    assert call("concealed_pungs", v, exactly=2) == 1
    # A concealed kong counts; a claimed kong does not.
    v = view("{1111m}[2222p]333s46sEE5s")
    assert call("concealed_pungs", v, exactly=2) == 1


def test_chow_combination_reads_the_policy() -> None:
    v = view("112233456789mEE")
    assert call("chow_combination", v, kind="pure_straight") == 1
    assert call("chow_combination", v, kind="identical") == 1
    assert call("chow_combination", v, kind="shift_3") == 0


def test_shifted_pungs_same_and_mixed() -> None:
    v = view("222333444m55p789s", lambda r: sum(g.kind == "pung" for g in r.groups) == 3)
    assert call("shifted_pungs", v, count=3, suits="same") == 1
    assert call("shifted_pungs", v, count=4, suits="same") == 0
    assert call("shifted_pungs", v, count=3, suits="mixed") == 0
    v = view("222m333p444s789s55p")
    assert call("shifted_pungs", v, count=3, suits="mixed") == 1
    assert call("shifted_pungs", v, count=3, suits="same") == 0
    # Two pungs in one suit and one in another: no three suits.
    assert call("shifted_pungs", view("222m333m444s789s55p"), count=3, suits="mixed") == 0
    # Honours are no ranks.
    assert call("shifted_pungs", view("EEESSSWWW789s55p"), count=3, suits="same") == 0


def test_same_rank_pungs() -> None:
    v = view("111m111p111s789s55p")
    assert call("same_rank_pungs", v, count=3) == 1
    v = view("111m111p999m999s55p")
    assert call("same_rank_pungs", v, count=2) == 2
    assert call("same_rank_pungs", v, count=3) == 0
    assert call("same_rank_pungs", view("111m222p999m789s55p"), count=2) == 0


def test_terminal_chows_pure_and_mixed() -> None:
    pure = view("12378912378955m", lambda r: len([g for g in r.groups if g.kind == "chow"]) == 4)
    assert call("terminal_chows", pure, mixed=False) == 1
    assert call("terminal_chows", pure, mixed=True) == 0
    mixed = view("123789m123789s55p")
    assert call("terminal_chows", mixed, mixed=True) == 1
    assert call("terminal_chows", mixed, mixed=False) == 0
    # The 5s pair in a suit holding chows: not 三色双龙会.
    assert call("terminal_chows", view("123789m123789s55s"), mixed=True) == 0


# ---------------------------------------------------------------------------------------------
# shapes


def test_shape_is() -> None:
    v = view("19m19p19sESWNCFPP")
    assert call("shape_is", v, shape="thirteen_orphans") == 1
    assert call("shape_is", v, shape="seven_pairs") == 0
    sp = view("1133557799m1133p", is_shape(SEVEN_PAIRS))
    assert call("shape_is", sp, shape="seven_pairs") == 1


def test_shifted_pairs() -> None:
    assert call("shifted_pairs", view("22334455667788s", is_shape(SEVEN_PAIRS))) == 1
    # Four of a kind is two pairs, not seven different ones.
    assert call("shifted_pairs", view("11112233445566s", is_shape(SEVEN_PAIRS))) == 0
    assert call("shifted_pairs", view("1133557799m1133p")) == 0
    # Not a seven-pairs reading.
    for v in views("22334455667788s"):
        if v.shape == REGULAR:
            assert call("shifted_pairs", v) == 0


def test_greater_knitted_and_knitted_straight() -> None:
    greater = view("147m25p36sESWNCFP")
    assert greater.shape == HONORS_AND_KNITTED
    assert call("greater_knitted", greater) == 1
    assert call("knitted_straight", greater) == 0  # only 7 numbered tiles
    lesser = view("147m258p369sESWNC")
    assert call("greater_knitted", lesser) == 0
    assert call("knitted_straight", lesser) == 1  # all 9 knitted tiles
    ks = view("147m258p369s123m55s")
    assert call("knitted_straight", ks) == 1
    assert call("knitted_straight", view("123m456p789s111sEE")) == 0


# ---------------------------------------------------------------------------------------------
# win


def test_self_drawn_and_last_tile() -> None:
    v = view("123m456p789s111sEE", win_type="self_draw", last_tile=True)
    assert call("self_drawn", v) == 1
    assert call("last_tile", v, win_type="self_draw") == 1
    assert call("last_tile", v, win_type="discard") == 0
    v = view("123m456p789s111sEE", last_tile=True)
    assert (call("self_drawn", v), call("last_tile", v, win_type="discard")) == (0, 1)


def test_exposed_melds_concealed_kong_is_not_claimed() -> None:
    v = view("{1111m}234m456p789sEE", win_type="self_draw")
    assert call("exposed_melds", v, exactly=0) == 1
    assert call("exposed_melds", v, exactly=0, win_type="self_draw") == 1
    assert call("exposed_melds", v, exactly=0, win_type="discard") == 0
    v = view("[123m][456m][789m][111s]EE")
    assert call("exposed_melds", v, exactly=4, win_type="discard") == 1


def test_kong_win() -> None:
    v = view("[1111m]234m456p78sEE9s", win_type="self_draw", kong="replacement")
    assert call("kong_win", v, kind="replacement") == 1
    assert call("kong_win", v, kind="robbed") == 0
    # The robbed tile is the fourth of a pung someone else holds: the winner holds no other.
    v = view("123m456p111s78sEE9s", kong="robbed")
    assert call("kong_win", v, kind="robbed") == 1
    v = view("123m456p789s789sEE", kong="after_kong_discard")
    assert call("kong_win", v, kind="after_kong_discard") == 1


def test_kong_win_impossible_flags_score_nothing() -> None:
    # The check is the last line of defence when the request layer lets a flag through:
    # a replacement win without a kong, or a robbed tile the winner also holds.
    hand, _ = build("123m456p789s111sEE", {"win_type": "self_draw"}, MCR)
    facts = HandFacts(hand, WinContext("self_draw", kong="replacement"), T, SHAPES)
    (r,) = decompose(hand, SHAPES, T)
    v = View(r, facts, mcr_account_once)
    assert CHECKS["kong_win"].func(v, facts.ctx, kind="replacement") == 0
    ctx2 = WinContext("discard", kong="robbed", discarder=1)
    # Won on 9s while holding two more.
    h = Hand(tuple(sorted(parse_tiles("123m456p789s99sEEE", T))), (), parse_tiles("9s", T)[0])
    facts = HandFacts(h, ctx2, T, SHAPES)
    v = View(decompose(h, SHAPES, T)[0], facts, mcr_account_once)
    assert CHECKS["kong_win"].func(v, ctx2, kind="robbed") == 0


def test_last_of_kind() -> None:
    assert call("last_of_kind", view("123m456p111s78sEE9s", last_of_kind=True)) == 1
    assert call("last_of_kind", view("123m456p111s78sEE9s")) == 0
    # The winner's own melds hold the other three: always the last of its kind.
    assert call("last_of_kind", view("[999s]123m456p78sEE9s")) == 1
    # Holding another copy among the standing tiles: never. A score request saying so is
    # refused (inconsistent_context); a waits request's flag reaches the check for each
    # completing tile, held or not.
    with pytest.raises(HandError, match="和绝张"):
        view("123m456p111s78s99s9s", last_of_kind=True)
    v = view("123m456p111s78s99s9s")
    assert run(CHECKS["last_of_kind"], v, v.ctx._replace(last_of_kind=True),
               {}) == 0


@pytest.mark.parametrize(
    ("text", "position"),
    [
        ("12m456p789s111sEE3m", "edge"),  # 12-3
        ("89m456p789s111sEE7m", "edge"),  # 7-89
        ("13m456p789s111sEE2m", "closed"),  # 1-3
        ("123m456p789s111sEE", "single"),
        ("4556m123p789s111s5m", "closed"),  # 4556 -> 5: closed beats single (1998 example)
    ],
)
def test_wait_unique(text: str, position: str) -> None:
    v = view(text)
    assert v.wait == position
    assert call("wait", v, position=position) == 1
    others = {"edge", "closed", "single"} - {position}
    assert all(call("wait", v, position=p) == 0 for p in others)


@pytest.mark.parametrize(
    "text",
    [
        "12345m789s111sEE3m",  # 12345 -> 3: also waits on 6m
        "45567m789s111sEE6m",  # 45567 -> 6: also waits on 3m
        "4444s666s[123m][456m]5s",  # 4444666 -> 5: a fifth 4s is a formal wait too
    ],
)
def test_wait_not_unique_scores_nothing(text: str) -> None:
    for v in views(text):
        assert call("wait", v, position="edge") == 0
        assert call("wait", v, position="closed") == 0
        assert call("wait", v, position="single") == 0


def test_nothing_else_is_always_one() -> None:
    assert call("nothing_else", view("123m456p789s111sEE")) == 1
    assert CHECKS["nothing_else"].last
    assert sum(1 for s in CHECKS.values() if s.last) == 1


# ---------------------------------------------------------------------------------------------
# A regular reading's view is made from its parts' cuts (`Reading.pieces`): the same view as
# from its groups.

VIEW_ATTRIBUTES = ("shape", "groups", "chows", "pungs", "kongs", "pairs", "pair", "knits",
                   "concealed_pungs", "wait", "combos", "features", "win_group")


def test_a_view_from_pieces_is_the_view_from_groups() -> None:
    compared = 0
    for case in generate(1500, 91).cases:
        facts = HandFacts(case.hand, case.ctx, T, SHAPES)
        for reading in decompose(case.hand, SHAPES, T):
            if not reading.pieces:
                continue
            fast = View(reading, facts, mcr_account_once)
            plain = View(reading._replace(pieces=()), facts, mcr_account_once)
            for name in VIEW_ATTRIBUTES:
                assert getattr(fast, name) == getattr(plain, name), (name, case.notation)
            assert fast.suit_pungs() == plain.suit_pungs()
            compared += 1
    assert compared > 1000


# ---------------------------------------------------------------------------------------------
# The `depends_on` and `each_kind` promises: the engine decides such fans once per key, or
# from a table of kinds, so each check must answer as its declaration says, for every fan of
# every served rule set that uses it.

# The tile games: a card game's patterns (名堂) have checks of their own
# (`app.rules.cards.checks`), tested in tests/rules/test_card_checks.py.
ALL_RULESETS = {rid: rs for rid, rs in repo_rulesets().items()
                if isinstance(rs, RuleSet)}


def _fans_declaring(attribute: str) -> list[tuple[str, Any, Any]]:
    return [(f"{rs.id}.{f.id}", f.bound, CHECKS[f.check])
            for rs in ALL_RULESETS.values() for f in rs.fans
            if getattr(CHECKS[f.check], attribute) is not None]


def _random_views() -> list[View]:
    out = []
    for case in generate(1200, 2024).cases:
        facts = HandFacts(case.hand, case.ctx, T, SHAPES)
        out += [View(r, facts, mcr_account_once) for r in decompose(case.hand, SHAPES, T)]
    return out


def test_depends_on_promise_on_random_hands() -> None:
    fans = _fans_declaring("depends_on")
    assert {spec.name for _, _, spec in fans} >= {"chow_combination", "kongs", "one_suit",
                                                   "exposed_melds", "wait", "shifted_pungs",
                                                   "same_rank_pungs"}
    views = _random_views()
    for name, bound, spec in fans:
        answers: dict[Any, int] = {}
        keys = 0
        for v in views:
            if spec.needs and any(not v.features & FEATURES[n] for n in spec.needs):
                continue  # the engine never asks (the needs promise, tested above)
            key = spec.depends_on(v, v.ctx)
            got = bound(v, v.ctx)
            if key not in answers:
                answers[key] = got
                keys += 1
            assert answers[key] == got, (name, key, v.reading)
        assert keys > 1 or spec.name == "wait", name


def test_each_kind_promise_on_random_hands() -> None:
    fans = _fans_declaring("each_kind")
    assert {spec.name for _, _, spec in fans} == {"tiles_within"}
    views = _random_views()
    for name, bound, spec in fans:
        params = bound_params(bound)
        met = 0
        for v in views:
            want = all(spec.each_kind(t, T, **params) for t in v.facts.kinds)
            assert bound(v, v.ctx) == int(want), (name, v.reading)
            met += want
        assert met, name


def test_pungs_of_promise_on_random_hands() -> None:
    fans = _fans_declaring("pungs_of")
    assert {spec.name for _, _, spec in fans} >= {"pungs_among", "wind_pung"}
    views = _random_views()
    for name, bound, spec in fans:
        gate = spec.pungs_of(T, **bound_params(bound))
        if gate is None:
            continue
        lacking = 0
        for v in views:
            if gate.isdisjoint(v.pungs):
                lacking += 1
                assert bound(v, v.ctx) == 0, (name, v.reading)
        assert lacking, name


def test_pair_of_promise_on_random_hands() -> None:
    fans = _fans_declaring("pair_of")
    assert {spec.name for _, _, spec in fans} >= {"every_group_has"}
    views = _random_views()
    for name, bound, spec in fans:
        gate = spec.pair_of(T, **bound_params(bound))
        if gate is None:
            continue
        lacking = 0
        for v in views:
            if v.pair >= 0 and v.pair not in gate:
                lacking += 1
                assert bound(v, v.ctx) == 0, (name, v.reading)
        assert lacking, name


def test_hand_facts_count_the_whole_hand() -> None:
    """HandFacts' one pass over the melds: kinds, categories, kinds held four times, kongs,
    claimed melds and what the melds put in every reading, against a plain count."""
    from collections import Counter

    from app.domain.hand import CHOW, KONG
    from app.domain.shapes import declared_groups

    for case in generate(1500, 12).cases:
        h = case.hand
        facts = HandFacts(h, case.ctx, T, SHAPES)
        held = Counter([*h.concealed, *(t for m in h.melds for t in m.tiles)])
        assert facts.kinds == frozenset(held)
        assert facts.fours == tuple(sorted(t for t, n in held.items() if n == 4))
        assert facts.categories == sum({1 << T.category[t] for t in held})
        assert facts.kong_tiles == tuple(m.tiles[0] for m in h.melds if m.kind == KONG)
        assert facts.exposed_melds == sum(1 for m in h.melds
                                          if m.kind != KONG or not m.concealed)
        d = facts.declared()
        assert d.groups == declared_groups(h)
        assert d.chows == tuple(m.tiles[0] for m in h.melds if m.kind == CHOW)
        assert d.pungs == tuple(m.tiles[0] for m in h.melds if m.kind != CHOW)
        assert d.kongs == tuple((m.tiles[0], m.concealed) for m in h.melds if m.kind == KONG)
        assert d.concealed == sum(1 for m in h.melds if m.kind == KONG and m.concealed)
        assert d.numbered_pungs == sum(1 for m in h.melds
                                       if m.kind != CHOW and T.suit_no[m.tiles[0]] >= 0)


# ---------------------------------------------------------------------------------------------
# The checks of 卡五星 (kawuxing), on its 84-tile set

KWX: RuleSet = ALL_RULESETS["kawuxing"]


def kwx_views(text: str, **ctx: Any) -> list[View]:
    ctx.setdefault("win_type", "self_draw")
    hand, context = build(text, ctx, KWX)
    facts = HandFacts(hand, context, KWX.tileset, frozenset(KWX.shapes))
    return [View(r, facts, None) for r in decompose(hand, frozenset(KWX.shapes), KWX.tileset)]


def test_winner_flag_reads_the_winners_entry() -> None:
    v = kwx_views("123p456p789s234s5s5s", winner=1, options={"revealed": [1, 0, 1]})[0]
    assert call("winner_flag", v, option="revealed") == 0
    v = kwx_views("123p456p789s234s5s5s", winner=2, options={"revealed": [1, 0, 1]})[0]
    assert call("winner_flag", v, option="revealed") == 1
    assert call("winner_flag", v, option="no_such_option") == 0


def test_fourth_of_declared_pung_the_winning_tile_or_any() -> None:
    [v] = kwx_views("[555s]123p789p99p46s5s")
    assert call("fourth_of_declared_pung", v) == 1
    [v] = kwx_views("[555s]123p789p456s9p9p")
    assert call("fourth_of_declared_pung", v) == 0
    assert call("fourth_of_declared_pung", v, any_kind=True) == 1
    [v] = kwx_views("[5555p]123s789s456s9p9p")
    assert call("fourth_of_declared_pung", v, any_kind=True) == 0  # a kong is no pung


def test_fourth_of_standing_and_the_pung_reading() -> None:
    # 333s + 3s: 333s 345s in one reading; 33s 345s 345s keeps no pung.
    [v] = kwx_views("333s45s123p789p99p3s", win_type="discard", discarder=2)
    assert call("fourth_of_standing", v) == 1 and call("fourth_of_standing_pung", v) == 1
    [v] = kwx_views("333s4455s123p789p3s", win_type="discard", discarder=2)
    assert call("fourth_of_standing", v) == 1 and call("fourth_of_standing_pung", v) == 0
    assert not v.features & FEATURES["pungs"]  # the needs promise, on a reading without
    [v] = kwx_views("7777p8p123s456s55s9p", win_type="discard", discarder=2)
    assert call("fourth_of_standing", v) == 0
    assert call("fourth_of_standing", v, any_kind=True) == 1


def test_seven_pairs_fours_counts_exactly() -> None:
    [v] = [r for r in kwx_views("3333s1111p77p88sCC") if r.shape == SEVEN_PAIRS]
    assert [call("seven_pairs_fours", v, count=n) for n in (1, 2, 3)] == [0, 1, 0]
    [v] = kwx_views("11s33s55s77p99p22pCC", win_type="discard", discarder=1)
    assert call("seven_pairs_fours", v, count=1) == 0


# ---------------------------------------------------------------------------------------------
# The checks of the extended 国标 table (lianzhong)

LZ = ALL_RULESETS["lianzhong"]


def lz_views(text: str, **ctx: Any) -> list[View]:
    ctx.setdefault("win_type", "self_draw")
    hand, context = build(text, ctx, LZ)
    facts = HandFacts(hand, context, LZ.tileset, frozenset(LZ.shapes))
    return [View(r, facts, None) for r in decompose(hand, frozenset(LZ.shapes), LZ.tileset)]


def test_pungs_among_with_a_pair_of_other_tiles() -> None:
    winds, green = tg("ESWN"), tg("F")
    v = view("EEESSSWWWNNNFF", win_type="self_draw")
    assert call("pungs_among", v, tiles=winds, exactly=4, pair=green) == 1
    v = view("EEESSSWWWNNNPP", win_type="self_draw")
    assert call("pungs_among", v, tiles=winds, exactly=4, pair=green) == 0
    assert call("pungs_among", v, tiles=winds, exactly=4) == 1


def test_pair_is() -> None:
    v = view("123m456p789s234s5m5m", win_type="self_draw")
    assert call("pair_is", v, tiles=tg("258m258p258s")) == 1
    assert call("pair_is", v, tiles=tg("19m19p19s")) == 0
    # Seven pairs have no one pair.
    v = view("1122m3344p5566s7s7s", is_shape(SEVEN_PAIRS), win_type="self_draw")
    assert call("pair_is", v, tiles=tg("123456789m123456789p123456789s")) == 0


def test_concealed_pungs_within() -> None:
    params = {"within": tg("ESWNCFP"), "among": tg("CFP"), "count": 3}
    assert call("concealed_pungs_within", view("CCCFFFPPPEEESS", win_type="self_draw"),
                **params) == 1
    # The last pung completed by a discard is not concealed.
    assert call("concealed_pungs_within", view("CCCFFFPPPSSEEE"), **params) == 0
    # A claimed pung, or a numbered tile, or two dragon pungs only: no.
    assert call("concealed_pungs_within", view("[CCC]FFFPPPEEESS", win_type="self_draw"),
                **params) == 0
    assert call("concealed_pungs_within", view("CCCFFFPPP111mSS", win_type="self_draw"),
                **params) == 0
    assert call("concealed_pungs_within", view("CCCFFFWWWEEESS", win_type="self_draw"),
                **params) == 0


def test_shifted_pungs_in_some_suits() -> None:
    def some(text: str, count: int) -> int:
        return call("shifted_pungs", view(text, lambda r: sum(
            g.kind == "pung" for g in r.groups) == 4, win_type="self_draw"), count=count,
            suits="some")

    assert some("222m333p444m555p9s9s", 4) == 1  # 混四节, two suits
    assert some("222m333p444p555s9s9s", 4) == 1  # three suits, no three in a row of three
    assert some("222m333p444s555m9s9s", 4) == 0  # holds 三色三节高
    assert some("222m333m444m555p9s9s", 4) == 0  # holds 一色三节高
    assert some("222m333p444m666p9s9s", 3) == 1  # 混三节
    assert some("222m333p444s666p9s9s", 3) == 0  # three suits: 三色三节高 only
    assert some("222m333m444m666p9s9s", 3) == 0  # one suit: 一色三节高 only
    assert some("222m333p444m666p9s9s", 4) == 0


@pytest.mark.parametrize(
    ("ctx", "expected"),
    [
        ({"win_type": "self_draw", "winner": 0, "dealer": 0}, "dealer"),
        ({"win_type": "self_draw", "winner": 1, "dealer": 0}, "after_dealer"),
        ({"win_type": "self_draw", "winner": 0, "dealer": 3}, "after_dealer"),  # wraps round
        ({"win_type": "self_draw", "winner": 2, "dealer": 0}, "rest"),
        ({"win_type": "discard", "winner": 1, "discarder": 0, "dealer": 0}, "rest"),
        ({"win_type": "discard", "winner": 0, "discarder": 1, "dealer": 0}, "rest"),
    ],
)
def test_first_turn_three_ways(ctx: dict[str, Any], expected: str) -> None:
    [v] = lz_views("123m456p789s234s5m5m", first_turn=True, **ctx)
    got = {w for w in ("dealer", "after_dealer", "rest") if call("first_turn", v, winner=w)}
    assert got == {expected}
    assert call("first_turn", v, winner="other") == (ctx["winner"] != ctx["dealer"])
    [v] = lz_views("123m456p789s234s5m5m", **ctx)
    assert not any(call("first_turn", v, winner=w) for w in ("dealer", "after_dealer", "rest"))

    # After a claim in the first go-round (联众 人和, `first_turn_claims`): never on the deal
    # or a first draw, so only `rest`.
    [v] = lz_views("[123m]456p789s234s5m5m", first_turn=True, **ctx)
    got = {w for w in ("dealer", "after_dealer", "other", "rest")
           if call("first_turn", v, winner=w)}
    assert got == {"rest"}
    # A concealed kong is no claim.
    [v] = lz_views("{1111s}123m456p789s5m5m", first_turn=True, **ctx)
    got = {w for w in ("dealer", "after_dealer", "rest") if call("first_turn", v, winner=w)}
    assert got == {expected}


def test_option_on() -> None:
    [v] = lz_views("123m456p789s234s5m5m", options={"tian_ting": True})
    assert call("option_on", v, option="tian_ting") == 1
    [v] = lz_views("123m456p789s234s5m5m")
    assert call("option_on", v, option="tian_ting") == 0
