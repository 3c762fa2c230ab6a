"""Pictures of the tile games' answers: a scored hand, the waits of a hand one tile short, and
the discard analysis of a hand of 13 or 14 tiles.

A scored hand is laid out as it was scored: the groups of the chosen reading (the answer's
`decomposition`) apart, the declared melds set aside (a concealed kong with its two end tiles
face down, as players lay it), the winning tile apart, the flowers last; a wild tile is marked
with what it stood for (`decomposition.wilds`). A hand with no reading (no winning shape) shows
its standing tiles in order. Under the tiles: whether it wins (or why not), the fans with their
values, the total, the value, and the payments. A hand with wilds is laid out by the reading
the scoring chose (`wild_layout`): each wild in the group where it stood, each group captioned
with what it reads as, the winning tile's marked (a 混儿吊 is seen so).

A waits picture shows the hand one tile short, then its waits drawn small in a grid (30 waits
stay a few rows), each with its value and fans and the wild tiles of its reading, each marked
with what it stood for there; the best is written out in full under them.

An analysis shows the hand (declared melds set aside), its shanten overall and per shape; for
13 tiles its useful tiles (drawn small, each with its copies left) and, when ready, its waits
as in a waits picture; for 14 one row per discard, best first: the tile to discard drawn small
with the shanten it leaves, the useful tiles then with their copies left, and for a row left
ready its waits with their values, the best and whether any can win, and the wild tiles of the
best wait's reading, marked.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from app.domain.hand import Hand, Meld, WinContext
from app.domain.notation import format_meld, format_tiles, parse_tiles
from app.rules.model import RuleSet
from app.service.pictures.common import (
    fan_lines,
    heading,
    payment_lines,
    waits_state,
    write_lines,
)
from app.service.pictures.faces import (
    SMALL,
    TILE_H,
    TILE_W,
    Face,
    small_tile_face,
    tile_face,
)
from app.service.pictures.layout import Canvas, FaceStyle, Group, Section
from app.service.tiles.wild_layout import wild_groups

__all__ = ["tile_analysis_picture", "tile_score_picture", "tile_waits_picture"]

Json = Mapping[str, Any]
STYLE = FaceStyle(TILE_W, TILE_H, tile_face)
SMALL_STYLE = FaceStyle(TILE_W * SMALL, TILE_H * SMALL, small_tile_face)
PER_SECTION = 12  # small tiles side by side before the row may wrap
WILD_GAP = 3.0  # between small wild tiles, so that the tiles they stood for read apart


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


def _wild(held: str, read: str, rs: RuleSet) -> Face:
    """The wild tile `held`, marked as standing for `read`."""
    return Face(held, rs.tileset.kind(rs.tileset.by_code[held]), wild_as=read,
                wild_as_name=_kind_name(read, rs))


def _mark_wild(faces: list[Face], held: str, read: str, rs: RuleSet) -> bool:
    """Mark the first unmarked face reading `read` as the wild tile `held`."""
    for i, f in enumerate(faces):
        if f.code == read and f.wild_as is None and not f.face_down:
            faces[i] = _wild(held, read, rs)
            return True
    return False


def _take(groups: list[list[Face]], code: str) -> Face | None:
    """Take one plain face of `code` out of the groups, from the last group holding it."""
    for faces in reversed(groups):
        for i in range(len(faces) - 1, -1, -1):
            if faces[i].code == code and faces[i].wild_as is None:
                return faces.pop(i)
    return None


def _laid_out(hand: Hand, ctx: WinContext, answer: Json, rs: RuleSet
              ) -> tuple[list[Group], list[tuple[list[Face], str]], Face]:
    """The hand's concealed groups, its declared melds (each with its notation) and its
    winning tile, as the answer read them (a hand with wilds: as its reading placed them,
    each group captioned with what it reads as, `wild_groups`)."""
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
        placed = wild_groups(hand, ctx, answer, rs)
        if placed is not None:
            return ([Group(f, caption, caption_apart=True) for f, caption in placed[0]],
                    declared, placed[1])
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
    return [Group(g) for g in groups if g], declared, winning


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


def tile_score_picture(request: tuple[Hand, WinContext], answer: Json, rs: RuleSet,
                       width: float | None = None) -> bytes:
    """The picture of a tile game's score answer (`answer`, the JSON the service writes) for
    the request it answers."""
    hand, ctx = request
    groups, declared, winning = _laid_out(hand, ctx, answer, rs)
    canvas = Canvas(STYLE, width)
    heading(canvas, f"{rs.name} · {rs.name_en}", f"{_context_text(ctx)} · {_verdict(answer)}")
    sections = [Section("手牌 hand", groups)]
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
    hand_text = " ".join([*(format_meld([rs.tileset.by_code[f.code] for f in g.faces],
                                        rs.tileset) for g in groups),
                          *(w for _, w in declared)])
    wild_text = "".join(f", {f.code} as {f.wild_as}"
                        for g in [*(g.faces for g in groups), [winning]] for f in g
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


def _wild_faces(wait: Json, rs: RuleSet) -> list[Face]:
    """The wild tiles of a wait's reading, each marked with what it stood for there."""
    decomposition = wait.get("decomposition")
    if not decomposition:
        return []
    return [_wild(w["tile"], w["as"], rs) for w in decomposition["wilds"]]


def _cell_caption(wait: Json) -> str:
    """A wait in a few words: its value (or fan total) and its fans' names, or ✗ and why
    it does not win."""
    if not wait["winning"]:
        return f"✗ {wait['reason']['code']}"
    return " ".join([_short_value(wait), *(f["name"] for f in wait["fans"])])


def _waits_grid(canvas: Canvas, left: Json, rs: RuleSet) -> None:
    """Each wait small in a grid (30 waits stay a few rows), with what it scores and the
    wild tiles of its reading, each marked with what it stood for; then the best in full."""
    best = left.get("best")
    cells = []
    for wait in left.get("waits") or ():
        mark = " ★ best" if best is not None and wait["tile"] == best["tile"] else ""
        groups = [Group([_small(wait["tile"], rs)], _cell_caption(wait))]
        wilds = _wild_faces(wait, rs)
        if wilds:
            groups.append(Group(wilds, gap=WILD_GAP))
        cells.append(Section(f"听 {wait['tile']}{mark}", groups))
    canvas.grid(cells, style=SMALL_STYLE)
    if best is not None:
        canvas.line(f"★ best {best['tile']}: {_wait_lines(best)}", size=12)


def _short_hand(standing: Sequence[int], melds: Sequence[Meld], rs: RuleSet) -> list[Section]:
    """A hand not yet won (waits, analysis): its standing tiles in order, its melds aside."""
    ordered = sorted(standing, key=rs.tileset.display_rank.__getitem__)
    sections = [Section("手牌 hand", [Group(_faces(ordered, rs))])]
    if melds:
        sections.append(Section("副露 declared", [
            Group(_meld_faces(m.tiles, m.concealed and m.kind == "kong", rs)) for m in melds]))
    return sections


def tile_waits_picture(request: tuple[tuple[int, ...], tuple[Meld, ...], WinContext],
                       answer: Json, rs: RuleSet, width: float | None = None) -> bytes:
    """The picture of a tile game's waits answer: the hand one tile short, then each tile
    that completes it with what the completed hand scores (the best marked)."""
    standing, melds, ctx = request
    canvas = Canvas(STYLE, width)
    heading(canvas, f"{rs.name} · {rs.name_en}", f"{_context_text(ctx)} · {waits_state(answer)}")
    canvas.row(_short_hand(standing, melds, rs))
    _waits_grid(canvas, answer, rs)
    if not answer["waits"]:
        canvas.line("No tile completes this hand.")
    hand_text = format_tiles(standing, rs.tileset) + "".join(_meld_text(m, rs) for m in melds)
    waits_text = ", ".join(f"{w['tile']}: {_wait_lines(w)}" for w in answer["waits"]) or "none"
    return canvas.svg(f"{rs.name}: waits of {hand_text}",
                      f"{rs.name} ({rs.id}). Hand {hand_text}; {_context_text(ctx)}; "
                      f"{waits_state(answer)}. Waits: {waits_text}.")


# --- the discard analysis -------------------------------------------------------------------

AnalysisRequest = tuple[tuple[int, ...], tuple[Meld, ...], WinContext, tuple[int, ...], bool]


def _shanten_text(shanten: int | None) -> str:
    if shanten is None:
        return "no shape can be made"
    if shanten == -1:
        return "和 a win"
    if shanten == 0:
        return "听 ready"
    return f"向听 {shanten}"


def _small(code: str, rs: RuleSet) -> Face:
    return Face(code, rs.tileset.kind(rs.tileset.by_code[code]))


def _short_value(wait: Json) -> str:
    """A wait's worth in a few characters, under its small tile: its value (or fan total),
    ✗ when it does not win."""
    if not wait["winning"]:
        return "✗"
    return str(wait["value"] if wait.get("value") is not None else wait["fan_total"])


def _chunked(label: str, groups: Sequence[Group]) -> list[Section]:
    """Groups in sections of `PER_SECTION`, the label over the first, so that a long list
    wraps (a row wraps between sections)."""
    return [Section(label if start == 0 else "", groups[start:start + PER_SECTION])
            for start in range(0, len(groups), PER_SECTION)]


def _useful_sections(left: Json, rs: RuleSet) -> list[Section]:
    """The useful tiles, small, each captioned with its copies left."""
    useful = left["useful"]
    label = f"进张 useful: {len(useful)} kinds, {left['useful_left']} left"
    if not useful:
        return [Section(label, [Group([], "none")])]
    return _chunked(label, [Group([_small(u["tile"], rs)], f"×{u['left']}") for u in useful])


def _best_text(left: Json) -> str:
    best = left.get("best")
    if best is None:
        return "no wait wins" if left.get("can_win") is False else ""
    return f"best {best['tile']}: {_totals(best)}"


def _waits_section(left: Json, rs: RuleSet) -> list[Section]:
    """A ready row's waits, small, each captioned with its value (✗: no win); then the wild
    tiles of the best wait's reading, each marked with what it stood for."""
    if not left.get("waits"):
        return []
    label = " · ".join(p for p in ("听 waits", _best_text(left),
                                   "can win" if left.get("can_win") else "cannot win") if p)
    sections = _chunked(label, [Group([_small(w["tile"], rs)], _short_value(w))
                                for w in left["waits"]])
    best = left.get("best")
    wilds = _wild_faces(best, rs) if best is not None else []
    if best is not None and wilds:
        sections.append(Section(f"混 for {best['tile']}", [Group(wilds, gap=WILD_GAP)]))
    return sections


def _shapes_text(answer: Json) -> str:
    return " · ".join(f"{shape} {'—' if n is None else n}"
                      for shape, n in answer["shapes"].items())


def _left_text(left: Json) -> str:
    """What 13 tiles answer, in text: shanten, useful tiles, waits."""
    useful = ", ".join(f"{u['tile']} ({u['left']} left)" for u in left["useful"]) or "none"
    text = f"{_shanten_text(left['shanten'])}, useful {useful}"
    if left.get("waits"):
        text += "; waits " + ", ".join(f"{w['tile']} {_short_value(w)}" for w in left["waits"])
        best = _best_text(left)
        text += f"; {best}" if best else ""
    return text


def _row_text(row: Json) -> str:
    void = " (void suit)" if row.get("void") else ""
    return f"discard {row['tile']}{void}: {_left_text(row)}"


def tile_analysis_picture(request: AnalysisRequest, answer: Json, rs: RuleSet,
                          width: float | None = None) -> bytes:
    """The picture of a tile game's discard analysis: the hand, its shanten, then for 13 tiles
    its useful tiles and waits, for 14 one row per discard (the module's docstring)."""
    standing, melds, ctx, visible, _ = request
    canvas = Canvas(STYLE, width)
    seen = f" · {len(visible)} tiles seen elsewhere" if visible else ""
    heading(canvas, f"{rs.name} · {rs.name_en}",
            f"{answer['tiles']} tiles · {_shanten_text(answer['shanten'])}{seen} · waits "
            f"scored as: {_context_text(ctx)}")
    canvas.row(_short_hand(standing, melds, rs))
    canvas.line(f"shanten by shape: {_shapes_text(answer)}", size=12, color="#555555")
    rows_text: list[str] = []
    if answer["tiles"] == 13:
        canvas.row(_useful_sections(answer, rs), style=SMALL_STYLE)
        _waits_grid(canvas, answer, rs)
        if answer.get("can_win") is False:
            canvas.line("No wait wins under the rule set.", size=12)
        rows_text.append(_left_text(answer))
    else:
        win = answer.get("win")
        if win is not None:
            canvas.line(f"{_verdict(win)} · {_totals(win)}", bold=True)
        canvas.line("打 discards, best first", size=12, color="#555555")
        for row in answer["discards"]:
            void = " 缺 void suit" if row.get("void") else ""
            head = Section(f"打 {row['tile']}{void}",
                           [Group([_small(row["tile"], rs)], _shanten_text(row["shanten"]))])
            canvas.row([head, *_useful_sections(row, rs), *_waits_section(row, rs)],
                       style=SMALL_STYLE)
            rows_text.append(_row_text(row))
    ordered = sorted(standing, key=rs.tileset.display_rank.__getitem__)
    hand_text = format_tiles(ordered, rs.tileset) + "".join(_meld_text(m, rs) for m in melds)
    return canvas.svg(
        f"{rs.name}: analysis of {hand_text}",
        f"{rs.name} ({rs.id}). Hand {hand_text} ({answer['tiles']} tiles); "
        f"{_shanten_text(answer['shanten'])}; by shape {_shapes_text(answer)}. "
        + "".join(f"{t}. " for t in rows_text).rstrip())
