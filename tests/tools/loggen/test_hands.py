"""The hand builders (`tools.loggen.hands`): one registered for every winning shape of the
shape registry, each building hands of its shape, and a shape without a builder left out with
its reason (a rule set with no buildable shape refused, saying why)."""

from __future__ import annotations

import dataclasses
import random

import pytest

from app.domain.shapes import REGULAR, SEVEN_PAIRS, SHAPES
from app.rules.model import RuleSet
from app.scoring.evaluate import score
from app.service.tiles.requests import read_score_request
from tests.loaded import repo_rulesets
from tools.loggen import BUILDERS, RequestGenerator, builder, main, requests, shapes_left_out
from tools.loggen.hands import HandMaker, buildable
from tools.loggen.tiles import Draw, Hand, Tables

RULESETS = {rid: rs for rid, rs in repo_rulesets().items()
            if isinstance(rs, RuleSet)}
NO_BUILDER = "no hand builder is registered for it"


def test_every_registered_shape_has_a_builder() -> None:
    missing = sorted(set(SHAPES) - set(BUILDERS))
    assert not missing, (f"shapes without a hand builder in tools/loggen/hands.py: {missing}; "
                         "the log generator would never build them")
    assert set(BUILDERS) <= set(SHAPES), "a builder for a shape that is not registered"
    for name, b in BUILDERS.items():
        assert b.shape == name and b.weight > 0


def _with_every_shape() -> RuleSet:
    """The rule set whose tiles build the most shapes, declaring them all."""
    return max(RULESETS.values(), key=lambda rs: len(buildable(rs, Tables(rs))[0]))


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_each_builder_builds_a_complete_hand_of_its_shape(shape: str) -> None:
    rs = _with_every_shape()
    t = Tables(rs)
    assert BUILDERS[shape].can(t), f"no served rule set's tiles build {shape}"
    maker = HandMaker(rs, random.Random(shape), t)
    built = 0
    for _ in range(40):
        draw = Draw([0] * len(t.codes), list(t.copies))
        hand = BUILDERS[shape].build(maker, draw)
        if hand is None:
            continue
        built += 1
        assert hand.shape == shape
        held = [*hand.standing, *(x for m in hand.melds for x in m[1])]
        assert sorted(held) == sorted(i for i, n in enumerate(draw.counts) for _ in range(n))
        assert all(draw.counts[i] <= t.copies[i] for i in range(len(t.codes)))
    assert built >= 30


def test_generated_hands_come_in_every_declared_shape() -> None:
    rs = _with_every_shape()
    seen = set()
    for body in requests(rs, 800, 21, non_winning=0.0):
        result = score(*read_score_request(body, rs), rs)
        if result.decomposition is not None:
            seen.add(result.decomposition.shape)
    assert seen == set(buildable(rs, Tables(rs))[0])


def test_a_shape_without_a_builder_is_left_out_with_its_reason(
        monkeypatch: pytest.MonkeyPatch) -> None:
    rs = RULESETS["mcr"]
    before = requests(rs, 30, 3)
    monkeypatch.delitem(BUILDERS, SEVEN_PAIRS)
    gen = RequestGenerator(rs, 3)
    assert SEVEN_PAIRS not in gen.hands.shapes.items
    assert NO_BUILDER in gen.left_out[SEVEN_PAIRS]
    assert shapes_left_out(rs) == gen.left_out
    after = [gen.next() for _ in range(30)]
    assert after != before  # the other shapes are drawn by their own weights
    for body in after:
        result = score(*read_score_request(body, rs), rs)
        assert result.decomposition is None or result.decomposition.shape != SEVEN_PAIRS


def test_a_rule_set_whose_shapes_have_no_builder_gets_a_clear_error(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    rs = RULESETS["sichuan"]
    assert set(rs.shapes) == {REGULAR, SEVEN_PAIRS}
    for name in rs.shapes:
        monkeypatch.delitem(BUILDERS, name)
    expected = (rf"rule set sichuan: none of its shapes can be built here \(regular: "
                rf"{NO_BUILDER} .*; seven_pairs: {NO_BUILDER}")
    with pytest.raises(ValueError, match=expected):
        RequestGenerator(rs, 1)
    with pytest.raises(SystemExit) as done:
        main(["--ruleset", "sichuan", "--hands", "1"])
    assert done.value.code == 2
    assert "none of its shapes can be built here" in capsys.readouterr().err


def test_a_shape_its_tiles_cannot_build_is_left_out() -> None:
    rs = RULESETS["mcr"]
    # A tile set of one suit: no knitted tiles, no thirteen orphans.
    t = Tables(rs)
    t.full_suits = t.full_suits[:1]
    names, left_out = buildable(rs, t)
    assert REGULAR in names and "knitted_straight" not in names
    assert left_out["knitted_straight"] == "its tile set cannot build it"


def test_a_new_shape_is_built_by_the_builder_registered_under_its_name(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A shape registered in the shape registry and named by a rule set is left out until a
    builder is registered under its name; then hands are built by that builder."""
    rs = RULESETS["sichuan"]
    name = "test_only_shape"
    monkeypatch.setitem(SHAPES, name, dataclasses.replace(SHAPES[SEVEN_PAIRS], name=name))
    variant = dataclasses.replace(rs, shapes={name: rs.shapes[SEVEN_PAIRS]})
    with pytest.raises(ValueError, match=rf"{name}: {NO_BUILDER}"):
        HandMaker(variant, random.Random(1), Tables(variant))
    calls: list[str] = []

    def build(m: HandMaker, draw: Draw) -> Hand | None:
        calls.append(name)
        return BUILDERS[SEVEN_PAIRS].build(m, draw)

    monkeypatch.setitem(BUILDERS, name, BUILDERS[SEVEN_PAIRS])  # removed after the test
    del BUILDERS[name]
    builder(name, can=lambda t: True, weight=1)(build)
    with pytest.raises(RuntimeError, match="registered twice"):
        builder(name, can=lambda t: True, weight=1)(build)
    t = Tables(variant)
    maker = HandMaker(variant, random.Random(1), t)
    assert maker.shapes.items == (name,) and not maker.left_out
    hand = maker.hand(Draw([0] * len(t.codes), list(t.copies)))
    assert calls == [name] and hand is not None and hand.shape == SEVEN_PAIRS
