"""Unit tests of 九莲宝灯 as a fan of the hand (`nine_gates_held`) and of `kongs_of_kind`, the
kongs of one kind counted whatever the other kind (暗杠 / 明杠 beside a kong of the other kind)."""

from __future__ import annotations

from typing import Any

import pytest

from app.rules.checks import CHECKS, run
from tests.rules.test_checks import view, views


def held(text: str, **ctx: Any) -> int:
    ctx.setdefault("win_type", "discard")
    if ctx["win_type"] == "discard":
        ctx.setdefault("discarder", 1)
    found = {run(CHECKS["nine_gates_held"], v, v.ctx, {}) for v in views(text, **ctx)}
    assert len(found) == 1, f"{text}: a hand check answers alike in every reading"
    return found.pop()


@pytest.mark.parametrize("rank", range(1, 10))
def test_nine_gates_on_every_tile_of_the_suit(rank: int) -> None:
    assert held(f"1112345678999m{rank}m") == 1
    assert held(f"1112345678999s{rank}s", win_type="self_draw") == 1


def test_nine_gates_is_the_pure_nine_sided_wait_only() -> None:
    # The same fourteen tiles as 1112345678999 + 5, won on a 1: 1123455678999 stood before.
    assert held("1123455678999m1m") == 0


def test_nine_gates_needs_no_meld_and_a_numbered_suit() -> None:
    # A concealed kong is a declared meld: the thirteen standing tiles are no longer 1112345678999.
    assert held("{1111m}2345678999m5m") == 0
    assert held("1112345678999m1m") == 1
    # Honours have no nine gates, and a hand of another shape (seven pairs) none either.
    assert held("11223344556677m") == 0
    assert held("EESSWWNNCCFFPP") == 0


def kinds(v: Any, concealed: bool, exactly: int) -> int:
    return run(CHECKS["kongs_of_kind"], v, v.ctx, {"concealed": concealed, "exactly": exactly})


def test_kongs_of_kind_count_each_kind_alone() -> None:
    v = view("{1111m}[2222p]123s456s9m9m", win_type="self_draw")
    assert kinds(v, True, 1) == 1
    assert kinds(v, False, 1) == 1
    assert kinds(v, True, 2) == 0
    two = view("{1111m}{2222p}123s456s9m9m", win_type="self_draw")
    assert kinds(two, True, 1) == 0
    assert kinds(two, True, 2) == 1
    assert kinds(two, False, 1) == 0
    three = view("{1111m}[2222p][3333s]456s9m9m", win_type="self_draw")
    assert kinds(three, True, 1) == 1
    assert kinds(three, False, 2) == 1
    none = view("111m222p123s456s9m9m", win_type="self_draw")
    assert kinds(none, True, 0) == 0
    assert kinds(none, False, 0) == 0
