"""Pictures of the tile games' answers: a scored hand and the waits of a hand one tile short.

A scored hand is laid out as it was scored: the groups of the chosen reading (the answer's
`decomposition`) apart, the declared melds set aside (a concealed kong with its two end tiles
face down, as players lay it), the winning tile apart, the flowers last; a wild tile is marked
with what it stood for (`decomposition.wilds`). A hand with no reading (no winning shape) shows
its standing tiles in order. Under the tiles: whether it wins (or why not), the fans with their
values, the total, the value, and the payments.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from app.domain.hand import Hand, Meld, WinContext
from app.domain.notation import format_meld, format_tiles, parse_tiles
from app.rules.model import RuleSet
from app.service.pictures.common import fan_lines, payment_lines, write_lines
from app.service.pictures.faces import TILE_H, TILE_W, Face, tile_face
from app.service.pictures.layout import Canvas, FaceStyle, Group, Section

__all__ = ["tile_score_picture", "tile_waits_picture"]

Json = Mapping[str, Any]
STYLE = FaceStyle(TILE_W, TILE_H, tile_face)


def _faces(tiles: Sequence[int], rs: RuleSet) -> list[Face]:
    return [Face(rs.tileset.code(t), rs.tileset.kind(t)) for t in tiles]


def _meld_faces(tiles: Sequence[int], concealed_kong: bool, rs: RuleSet) -> list[Face]:
    faces = _faces(tiles, rs)
    if concealed_kong:  # laid with its two end tiles face down
        for i in (0, len(faces) - 1):
            f = faces[i]
            faces[i] = Face(f.code, f.kind, face_down=True)
    return faces


def _kind_name(code: str, rs: RuleSet) -> str:
    found = rs.tileset.by_code.get(code)
    return rs.tileset.kind(found).name_zh if found is not None else code


def _mark_wild(faces: list[Face], held: str, read: str, rs: RuleSet) -> bool:
    """Mark the first unmarked face reading `read` as the wild tile `held`."""
    for i, f in enumerate(faces):
        if f.code == read and f.wild_as is None and not f.face_down:
            kind = rs.tileset.kind(rs.tileset.by_code[held])
            faces[i] = Face(held, kind, wild_as=read, wild_as_name=_kind_name(read, rs))
            return True
    return False


def _take(groups: list[list[Face]], code: str) -> Face | None:
    """Take one plain face of `code` out of the groups, from the last group holding it."""
    for faces in reversed(groups):
        for i in range(len(faces) - 1, -1, -1):
            if faces[i].code == code and faces[i].wild_as is None:
                return faces.pop(i)
    return None


def _laid_out(hand: Hand, answer: Json, rs: RuleSet
              ) -> tuple[list[list[Face]], list[tuple[list[Face], str]], Face]:
    """The hand's concealed groups, its declared melds (each with its notation) and its
    winning tile, as the answer read them."""
    win_code = rs.tileset.code(hand.win_tile)
    decomposition = answer.get("decomposition")
    declared: list[tuple[list[Face], str]] = []
    groups: list[list[Face]] = []
    wilds: list[tuple[str, str]] = []
    if decomposition:
        for written in decomposition["melds"]:
            inner = written.strip("[]{}")
            tiles = parse_tiles(inner, rs.tileset)
            if written[0] in "[{":
                declared.append((_meld_faces(tiles, written[0] == "{" and len(tiles) == 4, rs),
                                 written))
            else:
                groups.append(_faces(tiles, rs))
        wilds = [(w["tile"], w["as"]) for w in decomposition["wilds"]]
    else:
        standing = list(hand.concealed)
        standing.remove(hand.win_tile)
        groups.append(_faces(sorted(standing, key=rs.tileset.display_rank.__getitem__), rs))
        groups[0].append(Face(win_code, rs.tileset.kind(hand.win_tile)))
        for meld in hand.melds:
            declared.append((_meld_faces(meld.tiles, meld.concealed and meld.kind == "kong", rs),
                             _meld_text(meld, rs)))
    winning: Face | None = None
    if wilds and wilds[0][0] == win_code:  # the winning tile is a wild: listed first
        held, read = wilds.pop(0)
        taken = _take(groups, read)
        if taken is not None:
            winning = Face(held, rs.tileset.kind(hand.win_tile), wild_as=read,
                           wild_as_name=_kind_name(read, rs))
    if winning is None:
        taken = _take(groups, win_code)
        winning = taken or Face(win_code, rs.tileset.kind(hand.win_tile))
    for held, read in wilds:
        for faces in groups:
            if _mark_wild(faces, held, read, rs):
                break
    return [g for g in groups if g], declared, winning


def _meld_text(meld: Meld, rs: RuleSet) -> str:
    written = format_meld(meld.tiles, rs.tileset)
    return f"{{{written}}}" if meld.concealed else f"[{written}]"


def _flower_section(ctx: WinContext, rs: RuleSet) -> list[Section]:
    if not ctx.flower_tiles:
        return []
    return [Section("花 flowers", [Group(_faces(ctx.flower_tiles, rs))])]


def _verdict(answer: Json) -> str:
    if answer["winning"]:
        shape = answer["decomposition"]["shape"] if answer.get("decomposition") else ""
        return f"和 a win ({shape})" if shape else "和 a win"
    reason = answer.get("reason") or {}
    return f"not a win: {reason.get('message', '')}"


def _totals(answer: Json) -> str:
    parts = [f"total {answer['fan_total']}"]
    if answer.get("multiplier") is not None:
        parts.append(f"multiplier {answer['multiplier']}")
    if answer.get("value") is not None:
        parts.append(f"value {answer['value']}")
    return " · ".join(parts)


def _context_text(ctx: WinContext) -> str:
    how = "self-drawn" if ctx.win_type == "self_draw" else f"on seat {ctx.discarder}'s discard"
    return f"seat {ctx.winner} wins {how}"


def tile_score_picture(request: tuple[Hand, WinContext], answer: Json, rs: RuleSet) -> bytes:
    """The picture of a tile game's score answer (`answer`, the JSON the service writes) for
    the request it answers."""
    hand, ctx = request
    groups, declared, winning = _laid_out(hand, answer, rs)
    canvas = Canvas(STYLE)
    canvas.line(f"{rs.name} · {rs.name_en}", size=15, bold=True)
    canvas.line(f"{_context_text(ctx)} · {_verdict(answer)}", size=12, color="#555555")
    canvas.gap(4)
    sections = [Section("手牌 hand", [Group(g) for g in groups])]
    if declared:
        sections.append(Section("副露 declared", [Group(f) for f, _ in declared]))
    sections.append(Section("和张 winning tile", [Group([winning])]))
    sections += _flower_section(ctx, rs)
    canvas.row(sections)
    if ctx.flowers and not ctx.flower_tiles:
        canvas.line(f"花 flowers: {ctx.flowers}", size=12)
    fans = fan_lines(answer["fans"])
    write_lines(canvas, "番 fans", fans)
    canvas.line(_totals(answer), bold=True)
    write_lines(canvas, "payments", payment_lines(answer.get("payments")))
    hand_text = " ".join([*(format_meld([rs.tileset.by_code[f.code] for f in g], rs.tileset)
                            for g in groups), *(w for _, w in declared)])
    wild_text = "".join(f", {f.code} as {f.wild_as}" for g in [*groups, [winning]] for f in g
                        if f.wild_as is not None)
    title = f"{rs.name}: {hand_text} + {winning.code}"
    desc = (f"{rs.name} ({rs.id}). Hand {hand_text}, winning tile {winning.code}"
            f"{wild_text}; {_context_text(ctx)}. {_verdict(answer)}. "
            + "".join(f"{ln}. " for ln in fans) + _totals(answer) + "."
            + "".join(f" {ln}." for ln in payment_lines(answer.get("payments"))))
    return canvas.svg(title, desc)


def _wait_lines(wait: Json) -> str:
    fans = ", ".join(f"{f['name']} {f['value']}" + (f"×{f['count']}" if f["count"] != 1 else "")
                     for f in wait["fans"])
    head = _totals(wait) if wait["winning"] else f"no win ({wait['reason']['code']})"
    return f"{head}{' — ' + fans if fans else ''}"


def tile_waits_picture(request: tuple[tuple[int, ...], tuple[Meld, ...], WinContext],
                       answer: Json, rs: RuleSet) -> bytes:
    """The picture of a tile game's waits answer: the hand one tile short, then each tile
    that completes it with what the completed hand scores (the best marked)."""
    standing, melds, ctx = request
    canvas = Canvas(STYLE)
    canvas.line(f"{rs.name} · {rs.name_en}", size=15, bold=True)
    state = ("听 ready" if answer["ready"] else "not ready") + (
        ", can win" if answer["can_win"] else "")
    canvas.line(f"{_context_text(ctx)} · {state}", size=12, color="#555555")
    canvas.gap(4)
    ordered = sorted(standing, key=rs.tileset.display_rank.__getitem__)
    sections = [Section("手牌 hand", [Group(_faces(ordered, rs))])]
    if melds:
        sections.append(Section("副露 declared", [
            Group(_meld_faces(m.tiles, m.concealed and m.kind == "kong", rs)) for m in melds]))
    canvas.row(sections)
    best = answer.get("best")
    for wait in answer["waits"]:
        mark = " ★ best" if best is not None and wait["tile"] == best["tile"] else ""
        kind = rs.tileset.kind(rs.tileset.by_code[wait["tile"]])
        canvas.row([Section(f"听 {wait['tile']}{mark}",
                            [Group([Face(wait["tile"], kind)], _wait_lines(wait))])])
    if not answer["waits"]:
        canvas.line("No tile completes this hand.")
    hand_text = format_tiles(standing, rs.tileset) + "".join(_meld_text(m, rs) for m in melds)
    waits_text = ", ".join(f"{w['tile']}: {_wait_lines(w)}" for w in answer["waits"]) or "none"
    return canvas.svg(f"{rs.name}: waits of {hand_text}",
                      f"{rs.name} ({rs.id}). Hand {hand_text}; {_context_text(ctx)}; {state}. "
                      f"Waits: {waits_text}.")
