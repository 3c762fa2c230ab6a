"""Pictures of the word-card games' answers (a `CardRuleSet`): a scored hand and the waits of a
hand one card short.

A scored hand is laid out as it was scored: the table groups apart from the groups formed in
hand (each group captioned with its kind's name and its points, in the rule set's words), the
winning card apart; a hand with no arrangement shows its cards in the deck's order. Under the
cards: whether it wins (or why not), the points and units, the figures the rule set counts,
the patterns (名堂) with their values, the score, and the payments.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from app.domain.arrange import Piece
from app.domain.card_hand import CardHand, CardWin
from app.rules.cards.model import CardRuleSet
from app.service.pictures.common import (
    fan_lines,
    heading,
    payment_lines,
    waits_state,
    write_lines,
)
from app.service.pictures.faces import CARD_H, CARD_W, Face, card_face
from app.service.pictures.layout import Canvas, FaceStyle, Group, Section

__all__ = ["card_score_picture", "card_waits_picture"]

Json = Mapping[str, Any]
STYLE = FaceStyle(CARD_W, CARD_H, card_face)


def _faces(cards: Sequence[int], rs: CardRuleSet) -> list[Face]:
    return [Face(rs.deck.cards[c].code, rs.deck.cards[c]) for c in cards]


def _kind_name(kind: str, rs: CardRuleSet) -> str:
    found = rs.groups.get(kind)
    return found.name if found is not None else kind


def _names(rs: CardRuleSet) -> tuple[str, str]:
    return rs.names.get("points", "points"), rs.names.get("units", "units")


def _figures(answer: Json, rs: CardRuleSet) -> str:
    points, units = _names(rs)
    parts = [f"{points} {answer['huxi']}", f"{units} {answer['tun']}"]
    parts += [f"{name} {answer[name]}" for name in rs.figures if name in answer]
    return " · ".join(parts)


def _totals(answer: Json) -> str:
    parts = [f"番 × {answer['multiplier']}"]
    if answer.get("score") is not None:
        parts.append(f"score {answer['score']}")
    return " · ".join(parts)


def _verdict(answer: Json) -> str:
    if answer["winning"]:
        return "胡 a win"
    reason = answer.get("reason") or {}
    return f"not a win: {reason.get('message', '')}"


def _context_text(ctx: CardWin, rs: CardRuleSet) -> str:
    found = rs.win_types.get(ctx.win_type)
    how = found.name if found is not None else ctx.win_type
    payer = f", seat {ctx.payer} pays" if ctx.payer is not None else ""
    return f"seat {ctx.winner} wins by {how}{payer}"


def card_score_picture(request: tuple[CardHand, CardWin], answer: Json,
                       rs: CardRuleSet, width: float | None = None) -> bytes:
    """The picture of a word-card game's score answer for the request it answers."""
    hand, ctx = request
    win_code = rs.deck.cards[hand.win_card].code
    table: list[Group] = []
    held: list[Group] = []
    winning = Face(win_code, rs.deck.cards[hand.win_card])
    decomposition = answer.get("decomposition")
    if decomposition:
        taken = False
        for g in decomposition["groups"]:
            faces = _faces(rs.deck.parse_cards(g["cards"], ""), rs)
            if g["has_win_card"] and not taken:
                for i in range(len(faces) - 1, -1, -1):
                    if faces[i].code == win_code:
                        winning = faces.pop(i)
                        taken = True
                        break
            group = Group(faces, f"{_kind_name(g['kind'], rs)} {g['huxi']}")
            (table if g["on_table"] else held).append(group)
    else:
        table = [Group(_faces(p.cards, rs), _kind_name(p.kind, rs)) for p in hand.table]
        rest = list(hand.cards)
        rest.remove(hand.win_card)
        held = [Group(_faces(sorted(rest), rs))]
    canvas = Canvas(STYLE, width)
    heading(canvas, f"{rs.name} · {rs.name_en}", f"{_context_text(ctx, rs)} · {_verdict(answer)}")
    sections = []
    if table:
        sections.append(Section("桌面 table", table))
    sections.append(Section("手牌 hand", held))
    sections.append(Section("胡牌 winning card", [Group([winning])]))
    canvas.row(sections)
    canvas.line(_figures(answer, rs))
    fans = fan_lines(answer["fans"])
    write_lines(canvas, "名堂 patterns", fans)
    canvas.line(_totals(answer), bold=True)
    write_lines(canvas, "payments", payment_lines(answer.get("payments")))
    hand_text = " ".join("".join(f.code for f in g.faces) for g in [*table, *held])
    title = f"{rs.name}: {hand_text} + {win_code}"
    desc = (f"{rs.name} ({rs.id}). Groups {hand_text}, winning card {win_code}; "
            f"{_context_text(ctx, rs)}. {_verdict(answer)}. {_figures(answer, rs)}. "
            + "".join(f"{ln}. " for ln in fans) + _totals(answer) + "."
            + "".join(f" {ln}." for ln in payment_lines(answer.get("payments"))))
    return canvas.svg(title, desc)


def _wait_text(wait: Json, rs: CardRuleSet) -> str:
    points, _ = _names(rs)
    head = (f"score {wait['score']}" if wait["winning"]
            else f"no win ({wait['reason']['code']})")
    fans = ", ".join(f["name"] for f in wait["fans"])
    return f"{head} · {points} {wait['huxi']}{' — ' + fans if fans else ''}"


def card_waits_picture(request: tuple[tuple[int, ...], tuple[Piece, ...], CardWin],
                       answer: Json, rs: CardRuleSet,
                       width: float | None = None) -> bytes:
    """The picture of a word-card game's waits answer: the hand one card short, then each
    card that completes it with what the completed hand scores (the best marked)."""
    cards, table, ctx = request
    canvas = Canvas(STYLE, width)
    heading(canvas, f"{rs.name} · {rs.name_en}",
            f"{_context_text(ctx, rs)} · {waits_state(answer)}")
    sections = []
    if table:
        sections.append(Section("桌面 table", [Group(_faces(p.cards, rs), _kind_name(p.kind, rs))
                                             for p in table]))
    sections.append(Section("手牌 hand", [Group(_faces(sorted(cards), rs))]))
    canvas.row(sections)
    best = answer.get("best")
    for wait in answer["waits"]:
        mark = (" ★ best" if best is not None and wait["card"] == best["card"]
                and wait["win_type"] == best["win_type"] else "")
        card = rs.deck.cards[rs.deck.by_code[wait["card"]]]
        canvas.row([Section(f"听 {wait['card']} ({wait['win_type']}){mark}",
                            [Group([Face(card.code, card)], _wait_text(wait, rs))])])
    if not answer["waits"]:
        canvas.line("No card completes this hand.")
    hand_text = " ".join("".join(rs.deck.cards[c].code for c in p.cards) for p in table)
    hand_text = (hand_text + " " if hand_text else "") + "".join(
        rs.deck.cards[c].code for c in sorted(cards))
    waits_text = ", ".join(f"{w['card']} ({w['win_type']}): {_wait_text(w, rs)}"
                           for w in answer["waits"]) or "none"
    return canvas.svg(f"{rs.name}: waits of {hand_text}",
                      f"{rs.name} ({rs.id}). Hand {hand_text}; {_context_text(ctx, rs)}; "
                      f"{waits_state(answer)}. Waits: {waits_text}.")
