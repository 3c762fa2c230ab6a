"""Reading a settle request: every malformed event is refused by the request schema
(`invalid_request`) with a pointer at the field, never a crash; `build_round` trusts it."""

from __future__ import annotations

from typing import Any

import pytest

from app.domain.events import KongEvent
from app.service.problems import ApiError
from app.service.schema_fields import MAX_EVENTS
from app.service.tiles.settle_requests import build_round, read_settle_request
from tests.loaded import repo_rulesets

SICHUAN = repo_rulesets()["sichuan"]
KONG = {"type": "kong", "seat": 1, "kind": "concealed", "tile": "5m"}
WIN = {"type": "win", "seat": 0, "hand": "111p222p333p444p5p5p",
       "context": {"win_type": "self_draw"}}


@pytest.mark.parametrize("data,code,pointer", [
    ({}, "required", "/events"),
    ({"events": "x"}, "invalid_type", "/events"),
    ({"events": [KONG] * (MAX_EVENTS + 1)}, "invalid_value", "/events"),
    ({"events": [], "options": 3}, "invalid_type", "/options"),
    ({"events": [3]}, "invalid_type", "/events/0"),
    ({"events": [{"seat": 1}]}, "required", "/events/0/type"),
    ({"events": [{"type": "pung"}]}, "invalid_value", "/events/0/type"),
    ({"events": [{**KONG, "seat": None}]}, "invalid_type", "/events/0/seat"),
    ({"events": [{**KONG, "seat": True}]}, "invalid_type", "/events/0/seat"),
    ({"events": [{**KONG, "kind": None}]}, "invalid_type", "/events/0/kind"),
    ({"events": [{**KONG, "kind": "melded"}]}, "invalid_value", "/events/0/kind"),
    ({"events": [{**KONG, "tile": 5}]}, "invalid_type", "/events/0/tile"),
    ({"events": [{**KONG, "tile": None}]}, "invalid_type", "/events/0/tile"),
    ({"events": [{**KONG, "kind": "direct"}]}, "required", "/events/0/discarder"),
    ({"events": [{**KONG, "discarder": 0}]}, "unknown_field", "/events/0/discarder"),
    ({"events": [{**KONG, "kind": "added"}]}, "required", "/events/0/fresh"),
    ({"events": [{**KONG, "kind": "added", "fresh": "yes"}]}, "invalid_type",
     "/events/0/fresh"),
    ({"events": [{**KONG, "fresh": True}]}, "unknown_field", "/events/0/fresh"),
    ({"events": [{**WIN, "hand": None}]}, "invalid_type", "/events/0/hand"),
    ({"events": [{**WIN, "context": None}]}, "invalid_type", "/events/0/context"),
    ({"events": [{**WIN, "context": "self_draw"}]}, "invalid_type", "/events/0/context"),
    ({"events": [{**WIN, "context": {"win_type": "self_draw", "winner": 0}}]},
     "unknown_field", "/events/0/context/winner"),
    ({"events": [{"type": "draw"}]}, "required", "/events/0/hands"),
    ({"events": [{"type": "draw", "hands": [3]}]}, "invalid_type", "/events/0/hands/0"),
    ({"events": [{"type": "draw", "hands": [{"seat": 0}]}]}, "required",
     "/events/0/hands/0/hand"),
    ({"events": [{"type": "draw", "hands": [{"seat": 0, "hand": "1112223334445s",
                                             "passive_pig": "no"}]}]},
     "invalid_type", "/events/0/hands/0/passive_pig"),
])
def test_malformed_events(data: dict[str, Any], code: str, pointer: str) -> None:
    with pytest.raises(ApiError) as info:
        read_settle_request(data, SICHUAN)
    first = info.value.errors[0]
    assert info.value.code == "invalid_request"
    assert (first["code"], first["pointer"]) == (code, pointer), info.value.detail


def test_a_valid_round_is_immutable_values() -> None:
    rnd = build_round({"events": [KONG, {**WIN, "hand": "111p222p333p444p5p5p"}]}, SICHUAN)
    assert rnd.events[0] == KongEvent(seat=1, kind="concealed", tile=4)
    assert rnd.options == {"base": 1, "cap": 3, "self_draw": "add_base",
                           "gang_shang_pao_kong_money": "refund",
                           "void_suit": (None, None, None, None)}
    assert not rnd.finished and rnd.robbed == frozenset()
