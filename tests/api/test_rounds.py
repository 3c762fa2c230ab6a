"""`build_round` without the API schema in front: every malformed event is a `HandError`
(`invalid_field` / `missing_field`) pointing at the field, never a crash."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from app.api.rounds import build_round
from app.domain.errors import HandError
from app.domain.events import MAX_EVENTS, KongEvent
from app.rules.loader import load_rulesets

SICHUAN = load_rulesets(Path(__file__).resolve().parents[2] / "rulesets")["sichuan"]
KONG = {"type": "kong", "seat": 1, "kind": "concealed", "tile": "5m"}
WIN = {"type": "win", "seat": 0, "hand": "111p222p333p444p5p5p",
       "context": {"win_type": "self_draw"}}


@pytest.mark.parametrize("data,code,pointer", [
    ({}, "missing_field", "/events"),
    ({"events": "x"}, "invalid_field", "/events"),
    ({"events": [KONG] * (MAX_EVENTS + 1)}, "invalid_field", "/events"),
    ({"events": [], "options": 3}, "invalid_field", "/options"),
    ({"events": [3]}, "invalid_field", "/events/0"),
    ({"events": [{"seat": 1}]}, "missing_field", "/events/0/type"),
    ({"events": [{"type": "pung"}]}, "invalid_field", "/events/0/type"),
    ({"events": [{**KONG, "seat": None}]}, "missing_field", "/events/0/seat"),
    ({"events": [{**KONG, "seat": True}]}, "invalid_field", "/events/0/seat"),
    ({"events": [{**KONG, "kind": None}]}, "missing_field", "/events/0/kind"),
    ({"events": [{**KONG, "kind": "melded"}]}, "invalid_field", "/events/0/kind"),
    ({"events": [{**KONG, "tile": 5}]}, "invalid_field", "/events/0/tile"),
    ({"events": [{**KONG, "tile": None}]}, "missing_field", "/events/0/tile"),
    ({"events": [{**KONG, "kind": "direct"}]}, "missing_field", "/events/0/discarder"),
    ({"events": [{**KONG, "discarder": 0}]}, "invalid_field", "/events/0/discarder"),
    ({"events": [{**KONG, "kind": "added"}]}, "missing_field", "/events/0/fresh"),
    ({"events": [{**KONG, "kind": "added", "fresh": "yes"}]}, "invalid_field",
     "/events/0/fresh"),
    ({"events": [{**KONG, "fresh": True}]}, "invalid_field", "/events/0/fresh"),
    ({"events": [{**WIN, "hand": None}]}, "missing_field", "/events/0/hand"),
    ({"events": [{**WIN, "context": None}]}, "missing_field", "/events/0/context"),
    ({"events": [{**WIN, "context": "self_draw"}]}, "invalid_field", "/events/0/context"),
    ({"events": [{**WIN, "context": {"win_type": "self_draw", "winner": 0}}]},
     "invalid_field", "/events/0/context/winner"),
    ({"events": [{"type": "draw"}]}, "missing_field", "/events/0/hands"),
    ({"events": [{"type": "draw", "hands": [3]}]}, "invalid_field", "/events/0/hands/0"),
    ({"events": [{"type": "draw", "hands": [{"seat": 0}]}]}, "missing_field",
     "/events/0/hands/0/hand"),
    ({"events": [{"type": "draw", "hands": [{"seat": 0, "hand": "1112223334445s",
                                             "passive_pig": "no"}]}]},
     "invalid_field", "/events/0/hands/0/passive_pig"),
])
def test_malformed_events(data: dict[str, Any], code: str, pointer: str) -> None:
    with pytest.raises(HandError) as info:
        build_round(data, SICHUAN)
    assert (info.value.code, info.value.pointer) == (code, pointer), info.value.message


def test_a_valid_round_is_immutable_values() -> None:
    rnd = build_round({"events": [KONG, {**WIN, "hand": "111p222p333p444p5p5p"}]}, SICHUAN)
    assert rnd.events[0] == KongEvent(seat=1, kind="concealed", tile=4)
    assert rnd.options == {"base": 1, "cap": 3, "self_draw": "add_base"}
    assert not rnd.finished and rnd.robbed == frozenset()
