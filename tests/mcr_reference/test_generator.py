"""The random-hand generator makes only legal, winning, consistently flagged hands, covers every
hand kind, and is deterministic for a seed."""

from __future__ import annotations

from collections import Counter

import pytest

from app.domain.hand import (
    CHOW,
    DISCARD,
    KONG,
    KONG_REPLACEMENT,
    KONG_ROBBED,
    PUNG,
    SELF_DRAW,
)

from .generator import (
    KINDS,
    Case,
    Generation,
    call_oracle,
    format_hand,
    generate,
    oracle,
    oracle_args,
    oracle_tile,
    random_hands,
)

SAMPLE = 2000
SEED = 12345


@pytest.fixture(scope="module")
def sample() -> Generation:
    return generate(SAMPLE, SEED)


def _all_tiles(case: Case) -> list[int]:
    return list(case.hand.concealed) + [t for m in case.hand.melds for t in m.tiles]


def test_every_hand_is_legal(sample: Generation) -> None:
    assert len(sample.cases) == SAMPLE
    for case in sample.cases:
        hand, _ctx = case.hand, case.ctx
        where = f"{case.kind}:{case.theme} {format_hand(hand)} ({case.context})"
        counts = Counter(_all_tiles(case))
        assert max(counts.values()) <= 4, where
        assert all(0 <= t < 34 for t in counts), where
        assert len(hand.concealed) + 3 * len(hand.melds) == 14, where
        assert hand.win_tile in hand.concealed, where
        assert len(hand.melds) <= 4, where
        for m in hand.melds:
            assert list(m.tiles) == sorted(m.tiles), where
            if m.kind == CHOW:
                a, b, c = m.tiles
                assert a < 27 and b == a + 1 and c == a + 2 and a // 9 == c // 9, where
                assert not m.concealed, where
            elif m.kind == PUNG:
                assert len(set(m.tiles)) == 1 and len(m.tiles) == 3 and not m.concealed, where
            else:
                assert m.kind == KONG and len(set(m.tiles)) == 1 and len(m.tiles) == 4, where
        if case.kind not in ("regular", "knitted_straight_meld"):
            assert not hand.melds, where
        if case.kind == "knitted_straight_meld":
            assert len(hand.melds) == 1, where


def test_context_flags_are_consistent(sample: Generation) -> None:
    for case in sample.cases:
        hand, ctx = case.hand, case.ctx
        where = f"{format_hand(hand)} ({case.context})"
        assert ctx.win_type in (SELF_DRAW, DISCARD), where
        in_standing = hand.concealed.count(hand.win_tile)
        in_melds = sum(m.tiles.count(hand.win_tile) for m in hand.melds)
        if ctx.win_type == DISCARD:
            assert ctx.discarder is not None and ctx.discarder != ctx.winner, where
        else:
            assert ctx.discarder is None, where
        if ctx.kong == KONG_REPLACEMENT:
            assert ctx.win_type == SELF_DRAW, where
            assert any(m.kind == KONG for m in hand.melds), where
        elif ctx.kong == KONG_ROBBED:
            assert ctx.win_type == DISCARD, where
            assert in_standing == 1 and in_melds == 0, where
        else:
            assert ctx.kong is None, where
        if ctx.last_of_kind:
            assert in_standing == 1, where
        if in_standing == 1 and in_melds == 3:
            assert ctx.last_of_kind, where  # the other three copies are the winner's own
        assert 0 <= ctx.seat_wind < 4 and 0 <= ctx.round_wind < 4, where
        assert (ctx.winner - ctx.dealer) % 4 == ctx.seat_wind, where
        assert 0 <= ctx.flowers <= 8, where


def test_oracle_arguments_match_the_hand(sample: Generation) -> None:
    for case in sample.cases:
        pack, hand, win, flowers, self_drawn, fourth, about_kong, wall_last, seat, prevalent = (
            case.oracle_args
        )
        assert len(hand) + 3 * len(pack) == 13
        assert win == oracle_tile(case.hand.win_tile)
        assert sorted((*hand, win)) == sorted(oracle_tile(t) for t in case.hand.concealed)
        for (kind, tile, offer), meld in zip(pack, case.hand.melds, strict=True):
            assert kind == {CHOW: "CHI", PUNG: "PENG", KONG: "GANG"}[meld.kind]
            assert tile == oracle_tile(meld.tiles[1])  # the middle tile of a chow
            assert (offer == 0) == meld.concealed and 0 <= offer <= 3
        assert flowers == case.ctx.flowers
        assert self_drawn == (case.ctx.win_type == SELF_DRAW)
        assert fourth == case.ctx.last_of_kind
        assert about_kong == (case.ctx.kong is not None)
        assert wall_last == case.ctx.last_tile
        assert (seat, prevalent) == (case.ctx.seat_wind, case.ctx.round_wind)


def test_oracle_accepts_every_hand(sample: Generation) -> None:
    assert sample.rejected == 0, "\n".join(sample.rejected_examples)
    for case in sample.cases[:200]:
        fans, total = oracle(case)
        assert case.reference is not None
        assert tuple(fans) == case.reference.fans and total == case.reference.total
        assert total == sum(v * c for _, v, c in fans) > 0


def test_every_kind_is_covered(sample: Generation) -> None:
    kinds = sample.kind_counts()
    missing = [k for k in KINDS if kinds[k] == 0]
    assert not missing, f"kinds never generated: {missing}; got {dict(kinds)}"
    assert set(kinds) <= set(KINDS)
    regular = [c for c in sample.cases if c.kind == "regular"]
    # Regular hands with 0..4 declared melds, and every way to declare.
    assert {len(c.hand.melds) for c in regular} == {0, 1, 2, 3, 4}
    declared = {(m.kind, m.concealed) for c in regular for m in c.hand.melds}
    assert declared == {(CHOW, False), (PUNG, False), (KONG, False), (KONG, True)}
    # Seven pairs with a 4-of-a-kind as two pairs.
    assert any(max(Counter(c.hand.concealed).values()) == 4
               for c in sample.cases if c.kind == "seven_pairs")
    # 组合龙 with a declared meld of each kind.
    assert {c.hand.melds[0].kind for c in sample.cases
            if c.kind == "knitted_straight_meld"} == {CHOW, PUNG, KONG}
    # Every context flag shows up.
    ctxs = [c.ctx for c in sample.cases]
    assert {x.kong for x in ctxs} == {None, KONG_REPLACEMENT, KONG_ROBBED}
    assert any(x.last_tile for x in ctxs) and any(x.last_of_kind for x in ctxs)
    assert {x.win_type for x in ctxs} == {SELF_DRAW, DISCARD}
    assert {x.flowers for x in ctxs} == set(range(9))
    assert {x.seat_wind for x in ctxs} == {x.round_wind for x in ctxs} == {0, 1, 2, 3}


def test_the_reference_sees_the_intended_forms(sample: Generation) -> None:
    """Each special kind is scored by the reference as that form (the generator builds what it
    says it builds)."""
    expect = {
        "seven_pairs": "七对",
        "seven_shifted_pairs": "连七对",
        "thirteen_orphans": "十三幺",
        "knitted_honours": "全不靠",
        "greater_honours": "七星不靠",
        "knitted_straight": "组合龙",
        "knitted_straight_meld": "组合龙",
        "nine_gates": "九莲宝灯",
    }
    for case in sample.cases:
        want = expect.get(case.kind)
        if want is None or case.reference is None:
            continue
        names = {n for n, _v, _c in case.reference.fans}
        # A seven-pairs hand may score higher as a regular hand (the best reading is scored).
        if case.kind == "seven_pairs" and "七对" not in names:
            continue
        assert want in names, f"{case.kind} {case.notation}: {sorted(names)}"


def test_generator_is_deterministic() -> None:
    a = random_hands(300, 99)
    b = random_hands(300, 99)
    c = random_hands(300, 100)
    key = [(x.notation, x.context, x.oracle_args) for x in a]
    assert key == [(x.notation, x.context, x.oracle_args) for x in b]
    assert key != [(x.notation, x.context, x.oracle_args) for x in c]


def test_oracle_args_for_a_known_hand() -> None:
    from app.domain.hand import Hand, Meld, WinContext

    hand = Hand(
        concealed=(0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 8, 8, 4),
        melds=(),
        win_tile=4,
    )
    ctx = WinContext(win_type=DISCARD, discarder=2)
    args = oracle_args(hand, ctx)
    assert args[1] == ("W1", "W1", "W1", "W2", "W3", "W4", "W5", "W6", "W7", "W8", "W9",
                       "W9", "W9")
    assert args[2] == "W5"
    res = call_oracle(args)
    assert ("九莲宝灯", 88, 1) in res.fans and res.total == 91
    melded = Hand(concealed=(27, 27, 31, 31, 31), win_tile=31,
                  melds=(Meld(CHOW, (9, 10, 11)), Meld(KONG, (33,) * 4, True),
                         Meld(PUNG, (32,) * 3)))
    args = oracle_args(melded, WinContext(win_type=SELF_DRAW))
    assert args[0] == (("CHI", "T2", 1), ("GANG", "J3", 0), ("PENG", "J2", 1))
    assert args[1] == ("F1", "F1", "J1", "J1") and args[2] == "J1"
    assert format_hand(melded) == "[123s]{PPPP}[FFF]EECCC"
