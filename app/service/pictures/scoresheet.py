"""A match's scoresheet (`POST .../match` drawn as SVG): the players as columns, the hands as
rows, the standings at the bottom, as a score keeper writes them up.

Drawn from the match answer alone (`app.service.matches`), so every family shares it: a hand's
row names its number, the round wind (or the 圈, in a game without winds), how it ended and
whether the dealer kept the deal (连庄); each player's cell marks the dealer (庄, on a tinted
ground), the player's seat wind where the game has winds, who won (和), who discarded the
winning tile (铳) and the points deducted (扣, paid to nobody), then the player's net for the
hand and the running total after it (which counts the deductions). False wins, penalties and
claims of 截和 are written under their hand. At the bottom: the totals, what was deducted in
all, the points (the base points and the total), the ranks and the table points (标准分)
where the game gives them, then the next hand's table or the end.

Players are named P0, P1, … as the match numbers them: by the seat each held at the first
hand. A picture given a width keeps the table's columns as narrow as their text within it,
and wraps its lines; a table too wide even so keeps its columns (a cell is never cut).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.rules.families import ServedRuleSet
from app.service.pictures.common import signed
from app.service.pictures.layout import GREY, MARGIN, Canvas, FaceStyle
from app.service.pictures.svg import CJK_FONTS, el, text, text_width

__all__ = ["match_scoresheet"]

Json = Mapping[str, Any]
WIND_NAMES = {"E": "东", "S": "南", "W": "西", "N": "北"}
KIND_NAMES = {"win": "win", "claims": "截和 claims", "round": "round", "drawn": "流局 drawn"}
# A table too wide for the picture's width names them in Chinese alone (the legend says so).
SHORT_KIND_NAMES = {"win": "和", "claims": "截和", "round": "局", "drawn": "流局"}
NET_SIZE = 13.0  # a hand's net, bold
SMALL = 11.0  # the marks, the running total, the notes
PAD = 6.0  # within a cell, each side
MIN_COLUMN = 62.0  # a player's column, when the picture has the room
ROW_H = 48.0  # a hand's row: the marks, the net, the total
FOOT_H = 20.0  # a row of the standings
GREEN, RED, INK = "#2e7d32", "#b3261e", "#1b1b1b"
DEALER_GROUND, STRIPE, RULE = "#fde9b5", "#f6f3ea", "#c9c3b3"
NO_FACES = FaceStyle(0.0, 0.0, lambda face, x, y: "")  # a scoresheet draws no tiles


def _player(p: int) -> str:
    return f"P{p}"


def _number(value: float) -> str:
    """A table point written short: 4, 1.5, 2.33."""
    return f"{value:g}"


def _color(n: float) -> str:
    return GREEN if n > 0 else RED if n < 0 else INK


def _marks(hand: Json, p: int) -> str:
    """A player's marks in a hand's row: seat wind, 庄, 和 or 铳, and 扣 with the points
    deducted in the hand."""
    marks = []
    if hand.get("seat_winds"):
        marks.append(WIND_NAMES.get(hand["seat_winds"][p], hand["seat_winds"][p]))
    if hand["dealer"] == p:
        marks.append("庄")
    if p in hand["winners"]:
        marks.append("和")
    elif hand["discarder"] == p:
        marks.append("铳")
    if hand["deducted"][p]:
        marks.append(f"扣{hand['deducted'][p]}")
    return " ".join(marks)


def _hand_label(hand: Json, short: bool = False) -> tuple[str, str, str]:
    """The row's first column: its number, its wind or 圈 (and 连庄), how it ended."""
    where = (f"{WIND_NAMES.get(hand['round_wind'], hand['round_wind'])} {hand['round_wind']}"
             if hand.get("round_wind") else f"圈 {hand['circle'] + 1}")
    if hand["repeat"]:
        where += f" 连{hand['repeat']}"
    kind: str = hand["kind"]
    names = SHORT_KIND_NAMES if short else KIND_NAMES
    return f"#{hand['number']}", where, names.get(kind, kind)


def _notes(hand: Json) -> list[str]:
    """What happened besides the win: claims of 截和, false wins, penalties, deductions."""
    out = []
    if hand["claims"]:
        out.append("claims: " + ", ".join(
            f"{_player(c['player'])} {c['outcome']}" + (f" ({c['kind']})" if c.get("kind") else "")
            for c in hand["claims"]))
    for f in hand["false_wins"]:
        paid = ", ".join(f"{_player(p)} {signed(n)}" for p, n in enumerate(f["net"]) if n)
        taken = ", ".join(f"{_player(p)} −{d}" for p, d in enumerate(f["deducted"]) if d)
        out.append(f"false win 错和 by {_player(f['player'])} ({f['kind']}): "
                   + "; ".join(part for part in (paid, taken and f"deducted {taken}") if part))
    for pen in hand["penalties"]:
        to = (f"paid to {_player(pen['to'])}" if pen.get("to") is not None
              else "deducted")
        why = f" ({pen['reason']})" if pen.get("reason") else ""
        out.append(f"penalty 罚分: {_player(pen['player'])} {pen['points']} {to}{why}")
    return out


class _Sheet:
    """The table drawn on a canvas: its columns' widths, then row after row."""

    def __init__(self, canvas: Canvas, answer: Json) -> None:
        self.canvas = canvas
        self.answer = answer
        self.players = len(answer["standings"]["totals"])
        self.short = False
        self.foot = _foot_rows(answer["standings"])
        self.left, self.columns = self._widths()
        room = canvas.limit - MARGIN
        if canvas.width is not None and self.left + sum(self.columns) > room:
            self.short = True
            self.foot = _foot_rows(answer["standings"], short=True)
            self.left, self.columns = self._widths()
        self.x0 = MARGIN
        self.right = self.x0 + self.left + sum(self.columns)

    def _widths(self) -> tuple[float, list[float]]:
        """The first column's width and each player's, from the text they hold; a player's
        at least MIN_COLUMN where the picture has the room."""
        hands = self.answer["hands"]
        labels = [s for h in hands for s in _hand_label(h, self.short)]
        labels += [f[0] for f in self.foot]
        left = max([text_width(s, SMALL) for s in labels] + [text_width("hand", SMALL)])
        columns = []
        for p in range(self.players):
            cells = [text_width(_player(p), SMALL) * 1.08]
            for h in hands:
                cells += [text_width(_marks(h, p), SMALL), text_width(f"= {h['totals'][p]}", SMALL),
                          text_width(signed(h["net"][p]), NET_SIZE) * 1.08]
            cells += [text_width(values[p], SMALL) * 1.08 for _, values in self.foot]
            columns.append(max(cells) + 2 * PAD)
        left += 2 * PAD
        widened = [max(c, MIN_COLUMN) for c in columns]
        if self.canvas.width is None or left + sum(widened) <= self.canvas.limit - MARGIN:
            columns = widened
        return left, columns

    def cell_x(self, p: int) -> float:
        return self.x0 + self.left + sum(self.columns[:p])

    def put(self, content: str, x: float, y: float, size: float = SMALL, *,
            fill: str = INK, bold: bool = False, cls: str | None = None,
            player: int | None = None) -> None:
        """A line of text; `cls` and `player` name a cell (`class`, `data-player`)."""
        self.canvas.parts.append(text(content, {
            "x": x, "y": y, "font-size": size, "fill": fill, "font-family": CJK_FONTS,
            "font-weight": "bold" if bold else None, "class": cls, "data-player": player}))
        self.canvas.right = max(self.canvas.right,
                                x + text_width(content, size) * (1.08 if bold else 1.0))

    def rect(self, x: float, y: float, width: float, height: float, fill: str) -> None:
        self.canvas.parts.append(el("rect", {"x": x, "y": y, "width": width,
                                             "height": height, "fill": fill}))

    def rule(self, y: float) -> None:
        self.canvas.parts.append(el("line", {"x1": self.x0, "y1": y, "x2": self.right,
                                             "y2": y, "stroke": RULE, "stroke-width": 1}))
        self.canvas.right = max(self.canvas.right, self.right)

    def header(self) -> None:
        y = self.canvas.y
        self.put("hand", self.x0 + PAD, y + SMALL + 3, fill=GREY)
        for p in range(self.players):
            self.put(_player(p), self.cell_x(p) + PAD, y + SMALL + 3, bold=True,
                     cls="player", player=p)
        self.canvas.y = y + SMALL + 9
        self.rule(self.canvas.y)

    def hand(self, hand: Json, index: int) -> None:
        y = self.canvas.y
        start = len(self.canvas.parts)
        if index % 2:
            self.rect(self.x0, y, self.right - self.x0, ROW_H, STRIPE)
        self.rect(self.cell_x(hand["dealer"]), y, self.columns[hand["dealer"]], ROW_H,
                  DEALER_GROUND)
        number, where, kind = _hand_label(hand, self.short)
        self.put(number, self.x0 + PAD, y + 14, bold=True)
        self.put(where, self.x0 + PAD, y + 29, fill=GREY)
        self.put(kind, self.x0 + PAD, y + 43, fill=GREY)
        for p in range(self.players):
            x = self.cell_x(p) + PAD
            self.put(_marks(hand, p), x, y + 14, fill=GREY,
                     cls="marks", player=p)
            self.put(signed(hand["net"][p]), x, y + 30, NET_SIZE, bold=True,
                     fill=_color(hand["net"][p] - hand["deducted"][p]),
                     cls="net", player=p)
            self.put(f"= {hand['totals'][p]}", x, y + 43, fill=GREY,
                     cls="total", player=p)
        row = "".join(self.canvas.parts[start:])
        del self.canvas.parts[start:]
        self.canvas.parts.append(el("g", {"class": "hand", "data-number": hand["number"]},
                                    [row]))
        self.canvas.y = y + ROW_H
        notes = _notes(hand)
        if notes:
            self.canvas.gap(3)
            for line in notes:
                self.canvas.line(line, size=SMALL, color=GREY, x=self.x0 + PAD)
        self.rule(self.canvas.y)

    def standings(self) -> None:
        self.canvas.y += 1
        self.rule(self.canvas.y)
        for label, values in self.foot:
            y = self.canvas.y
            self.put(label, self.x0 + PAD, y + 14, fill=GREY)
            for p, value in enumerate(values):
                self.put(value, self.cell_x(p) + PAD, y + 14, bold="名次" in label,
                         cls="standing", player=p)
            self.canvas.y = y + FOOT_H
        self.rule(self.canvas.y)
        self.canvas.gap(8)


def _net_text(hand: Json, p: int) -> str:
    """A player's points for the hand in words: the net, and what was deducted (扣)."""
    net, deducted = hand["net"][p], hand["deducted"][p]
    return signed(net) + (f" 扣{deducted}" if deducted else "")


def _foot_rows(standings: Json, short: bool = False) -> list[tuple[str, list[str]]]:
    """The standings' rows: label (in Chinese alone when `short`), then one value per
    player."""
    rows = [("总分" if short else "total 总分", [str(t) for t in standings["totals"]])]
    if any(standings["deducted"]):
        rows.append(("扣分" if short else "deducted 扣分",
                     [str(d) for d in standings["deducted"]]))
    if standings.get("base_points"):
        rows.append(("局分" if short else f"points ({standings['base_points']} +)",
                     [str(n) for n in standings["points"]]))
    rows.append(("名次" if short else "rank 名次", [str(r) for r in standings["ranks"]]))
    if standings.get("table_points") is not None:
        rows.append(("标准分" if short else "table pts 标准分",
                     [_number(t) for t in standings["table_points"]]))
    return rows


def _next_line(answer: Json) -> str:
    nxt = answer.get("next")
    if answer["ended"] or nxt is None:
        return "The match is over."
    wind = f", round wind {nxt['round_wind']}" if nxt.get("round_wind") else ""
    repeat = f" (连庄 {nxt['repeat']})" if nxt.get("repeat") else ""
    return f"Next: hand {nxt['number']}, {_player(nxt['dealer'])} deals{repeat}{wind}."


def _legend(answer: Json) -> str:
    winds = any(h.get("seat_winds") for h in answer["hands"])
    deducted = any(any(h["deducted"]) for h in answer["hands"])
    return ("庄 dealer · 和 won · 铳 discarded the winning tile"
            + (" · 东南西北 seat winds" if winds else "") + (" · 扣 deducted" if deducted else "")
            + " · each cell: the hand's net, = the running total")


def _description(rs: ServedRuleSet, answer: Json) -> str:
    parts = [f"Scoresheet of a match of {rs.name} ({rs.id}), {len(answer['hands'])} hands."]
    for h in answer["hands"]:
        nets = ", ".join(f"{_player(p)} {_net_text(h, p)}" for p in range(len(h["net"])))
        totals = ", ".join(str(t) for t in h["totals"])
        parts.append(f"Hand {h['number']} ({h['kind']}, {_player(h['dealer'])} deals): "
                     f"{nets}; totals {totals}." + "".join(f" {n}." for n in _notes(h)))
    parts += [f"{label}: " + ", ".join(f"{_player(p)} {v}" for p, v in enumerate(values)) + "."
              for label, values in _foot_rows(answer["standings"])]
    parts.append(_next_line(answer))
    return " ".join(parts)


def match_scoresheet(request: object, answer: Json, rs: ServedRuleSet,
                     width: float | None = None) -> bytes:
    """The scoresheet of a match answer (`request`, the body as posted, is not needed: the
    answer holds every hand)."""
    canvas = Canvas(NO_FACES, width)
    canvas.line(f"{rs.name} · {rs.name_en}", size=15, bold=True)
    hands = answer["hands"]
    span = (f"hands {hands[0]['number']}–{hands[-1]['number']}" if len(hands) > 1
            else f"hand {hands[0]['number']}" if hands else "no hands")
    canvas.line(f"scoresheet 记分表 · {span}", size=12, color=GREY)
    canvas.line(_legend(answer), size=SMALL, color=GREY)
    canvas.gap(6)
    sheet = _Sheet(canvas, answer)
    sheet.header()
    for i, hand in enumerate(hands):
        sheet.hand(hand, i)
    sheet.standings()
    canvas.line(_next_line(answer), size=12, bold=answer["ended"])
    title = f"{rs.name}: scoresheet, {span}"
    return canvas.svg(title, _description(rs, answer))

