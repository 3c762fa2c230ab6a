"""Hands to draw, one per rule set, and what their pictures must hold: shared by the tests of
the pictures (tests/api/test_pictures.py) and of their drawing in a browser
(tests/api/test_browser_pages.py).

The hand of a rule set is taken from its cases (tests/cases/<ruleset>/*.yaml): the winning
case that shows most of the picture (declared melds, wild tiles, flowers, counted fans), the
first among equals; so a new rule set with cases is drawn without a change here."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections import Counter
from typing import Any

from app.domain.card_hand import CardHand
from app.domain.hand import Hand
from app.rules.cards.model import CardRuleSet
from app.rules.families import ServedRuleSet
from app.rules.model import RuleSet
from app.service.families import service_family
from tests.cases import collect

SVG_NS = "{http://www.w3.org/2000/svg}"


def _weight(case: dict[str, Any]) -> int:
    expect = case.get("expect") or {}
    hand = case["hand"]
    text = hand if isinstance(hand, str) else str(hand.get("melds") or hand.get("groups") or "")
    context = case.get("context") or {}
    return (text.count("[") + 2 * text.count("{") + 3 * bool(context.get("wild_indicator"))
            + bool(context.get("flowers")) + 2 * ("kind" in text)
            + 2 * any(n > 0 for n in (expect.get("fans") or {}).values()))


def sample_hands() -> dict[str, dict[str, Any]]:
    """Rule set id -> a score request body of a winning hand of it."""
    best: dict[str, tuple[int, dict[str, Any]]] = {}
    for param in collect():
        ruleset, case = param.values
        expect = case.get("expect") or {}
        if expect.get("winning") is not True or "error" in expect:
            continue
        weight = _weight(case)
        if ruleset not in best or weight > best[ruleset][0]:
            best[ruleset] = (weight, {"hand": case["hand"], "context": case.get("context", {})})
    return {ruleset: body for ruleset, (_, body) in sorted(best.items())}


def drawn_tiles(body: dict[str, Any], rs: ServedRuleSet) -> Counter[str]:
    """The codes of every tile (card) a picture of the score request must draw: the standing
    tiles with the winning tile, the declared melds, the flowers given as tiles."""
    request = service_family(rs).read_score(body, rs)
    hand = request[0]
    if isinstance(hand, CardHand):
        assert isinstance(rs, CardRuleSet)
        cards = list(hand.cards) + [c for piece in hand.table for c in piece.cards]
        return Counter(rs.deck.cards[c].code for c in cards)
    assert isinstance(hand, Hand) and isinstance(rs, RuleSet)
    tiles = list(hand.concealed) + [t for meld in hand.melds for t in meld.tiles]
    tiles += list(request[1].flower_tiles)
    return Counter(rs.tileset.code(t) for t in tiles)


def svg_tiles(svg: bytes) -> Counter[str]:
    """The `data-tile` of every tile or card element of a picture."""
    root = ET.fromstring(svg)
    return Counter(g.attrib["data-tile"] for g in root.iter(f"{SVG_NS}g")
                   if g.attrib.get("class") in ("tile", "card"))


def svg_text(svg: bytes) -> str:
    """All the text of a picture, its title and description included."""
    return " ".join(ET.fromstring(svg).itertext())
