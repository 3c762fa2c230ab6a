"""The faces of tiles and word cards, drawn in SVG primitives (no image, no font file).

A tile is `TILE_W` × `TILE_H`: 万 as its numeral over a red 萬, 筒 as dots, 条 as bamboo sticks
(the one of bamboo a single large stick), winds and dragons as their characters (白 a blue
frame), flowers as their character and number. A word card is `CARD_W` × `CARD_H`, its
character written at both ends, red for the red cards (the deck's `red` attribute), black
otherwise. Each face is one `<g>` with `class="tile"` (`"card"`) and `data-tile` naming it in
the service's notation; a wild tile also carries `data-as`, what it stood for, and is marked
(an orange frame and the tile it stood for written under it: `WILD_LABEL_H` more). A tile the
picture speaks of rather than one of the hand (an analysis's discards, useful tiles and waits)
is drawn small, `class="tile-small"`.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.domain.deck import Card
from app.domain.tiles import TileKind
from app.service.pictures.svg import CJK_FONTS, SERIF_CJK_FONTS, el, fmt, text

__all__ = ["CARD_H", "CARD_W", "SMALL", "TILE_H", "TILE_W", "WILD_LABEL_H", "Face", "card_face",
           "small_tile_face", "tile_face"]

TILE_W, TILE_H = 40, 54
SMALL = 0.6  # a small tile's scale (`small_tile_face`)
CARD_W, CARD_H = 30, 76
WILD_LABEL_H = 16

_INK = "#1b1b1b"
_RED = "#c62828"
_GREEN = "#2e7d32"
_BLUE = "#1f4e9a"
_WILD = "#e65100"
_NUMERALS = "一二三四五六七八九"

# Dots (筒) and sticks (条): positions in the face's inner box (0..1 each way).
_DOTS: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((0.5, 0.5),),
    2: ((0.5, 0.25), (0.5, 0.75)),
    3: ((0.2, 0.17), (0.5, 0.5), (0.8, 0.83)),
    4: ((0.27, 0.27), (0.73, 0.27), (0.27, 0.73), (0.73, 0.73)),
    5: ((0.23, 0.2), (0.77, 0.2), (0.5, 0.5), (0.23, 0.8), (0.77, 0.8)),
    6: ((0.27, 0.17), (0.73, 0.17), (0.27, 0.55), (0.73, 0.55), (0.27, 0.85), (0.73, 0.85)),
    7: ((0.18, 0.1), (0.5, 0.23), (0.82, 0.36), (0.27, 0.62), (0.73, 0.62), (0.27, 0.88),
        (0.73, 0.88)),
    8: ((0.27, 0.11), (0.73, 0.11), (0.27, 0.37), (0.73, 0.37), (0.27, 0.63), (0.73, 0.63),
        (0.27, 0.89), (0.73, 0.89)),
    9: tuple((x, y) for y in (0.15, 0.5, 0.85) for x in (0.18, 0.5, 0.82)),
}
_DOT_R = {1: 11.0, 2: 7.5, 3: 6.0, 4: 6.5, 5: 5.5, 6: 5.5, 7: 4.8, 8: 4.6, 9: 4.6}
_STICKS: dict[int, tuple[tuple[float, float], ...]] = {
    2: ((0.5, 0.25), (0.5, 0.75)),
    3: ((0.5, 0.25), (0.27, 0.75), (0.73, 0.75)),
    4: ((0.27, 0.25), (0.73, 0.25), (0.27, 0.75), (0.73, 0.75)),
    5: ((0.2, 0.25), (0.8, 0.25), (0.5, 0.5), (0.2, 0.75), (0.8, 0.75)),
    6: tuple((x, y) for y in (0.25, 0.75) for x in (0.18, 0.5, 0.82)),
    7: ((0.5, 0.15), *((x, y) for y in (0.5, 0.85) for x in (0.18, 0.5, 0.82))),
    8: tuple((x, y) for y in (0.25, 0.75) for x in (0.12, 0.37, 0.63, 0.88)),
    9: tuple((x, y) for y in (0.16, 0.5, 0.84) for x in (0.18, 0.5, 0.82)),
}
_STICK_RED = {5: {2}, 7: {0}, 9: {1, 4, 7}}  # the red sticks of some faces, by position
_INNER = (5.0, 5.0, TILE_W - 10.0, TILE_H - 10.0)  # x, y, width, height


@dataclass(frozen=True)
class Face:
    """One tile or card as drawn: its code, its kind (a tile's `TileKind` or a word `Card`),
    and how it lies."""

    code: str
    kind: TileKind | Card
    face_down: bool = False
    wild_as: str | None = None  # a wild tile: the code of the tile it stood for
    wild_as_name: str | None = None


def _place(pos: tuple[float, float]) -> tuple[float, float]:
    x, y, w, h = _INNER
    return x + pos[0] * w, y + pos[1] * h


def _dots(rank: int) -> list[str]:
    out = []
    r = _DOT_R[rank]
    colors = (_BLUE, _GREEN, _RED)
    for i, pos in enumerate(_DOTS[rank]):
        cx, cy = _place(pos)
        color = _RED if rank == 1 else colors[i % 3] if rank != 9 else colors[i // 3]
        out.append(el("circle", {"cx": cx, "cy": cy, "r": r, "fill": "none",
                                 "stroke": color, "stroke-width": 1.6}))
        out.append(el("circle", {"cx": cx, "cy": cy, "r": r * 0.45, "fill": color}))
    return out


def _sticks(rank: int) -> list[str]:
    if rank == 1:  # the one of bamboo: a single large stick with a red knot
        return [el("rect", {"x": TILE_W / 2 - 4, "y": 9, "width": 8, "height": TILE_H - 18,
                            "rx": 3, "fill": _GREEN}),
                el("circle", {"cx": TILE_W / 2, "cy": TILE_H / 2, "r": 4.5, "fill": _RED})]
    rows = len({y for _, y in _STICKS[rank]})
    length = {2: 17.0, 3: 12.0}[rows]
    out = []
    for i, pos in enumerate(_STICKS[rank]):
        cx, cy = _place(pos)
        color = _RED if i in _STICK_RED.get(rank, ()) else _GREEN
        out.append(el("rect", {"x": cx - 2.4, "y": cy - length / 2, "width": 4.8,
                               "height": length, "rx": 2, "fill": color}))
        out.append(el("line", {"x1": cx - 2.4, "y1": cy, "x2": cx + 2.4, "y2": cy,
                               "stroke": "#fff", "stroke-width": 0.8}))
    return out


def _char(ch: str, x: float, y: float, size: float, color: str, *, serif: bool = True,
          rotate: bool = False) -> str:
    return text(ch, {"x": x, "y": y, "font-size": size, "fill": color,
                     "font-family": SERIF_CJK_FONTS if serif else CJK_FONTS,
                     "text-anchor": "middle", "dominant-baseline": "central",
                     "transform": f"rotate(180 {x} {y})" if rotate else None})


def _tile_marks(kind: TileKind) -> list[str]:
    mid = TILE_W / 2
    if kind.suit == "m":
        return [_char(_NUMERALS[kind.rank - 1], mid, 17, 16, _INK),
                _char("萬", mid, 38, 19, _RED)]
    if kind.suit == "p":
        return _dots(kind.rank)
    if kind.suit == "s":
        return _sticks(kind.rank)
    if kind.suit == "f":
        color = (_GREEN, _RED, _BLUE, _INK)[(kind.rank - 1) % 4]
        return [_char(kind.name_zh[0], mid, TILE_H / 2 + 2, 22, color),
                text(str(kind.rank), {"x": 6, "y": 12, "font-size": 9, "fill": color,
                                      "font-family": "sans-serif"})]
    if kind.is_wind:
        return [_char(kind.name_zh[0], mid, TILE_H / 2, 25, _BLUE)]
    # the dragons: 中 red, 發 green, 白 an empty blue frame
    if kind.code == "P" or kind.name_zh.startswith("白"):
        return [el("rect", {"x": 9, "y": 11, "width": TILE_W - 18, "height": TILE_H - 22,
                            "fill": "none", "stroke": _BLUE, "stroke-width": 2.5})]
    if kind.name_zh.startswith("发"):
        return [_char("發", mid, TILE_H / 2, 24, _GREEN)]
    return [_char(kind.name_zh[0], mid, TILE_H / 2, 25, _RED)]


def _wild_label(face: Face, width: float, height: float) -> list[str]:
    if face.wild_as is None:
        return []
    return [el("rect", {"x": -1.5, "y": -1.5, "width": width + 3, "height": height + 3,
                        "rx": 5, "fill": "none", "stroke": _WILD, "stroke-width": 2.5}),
            text(f"={face.wild_as}", {"x": width / 2, "y": height + 13, "font-size": 11,
                                      "fill": _WILD, "text-anchor": "middle",
                                      "font-family": "sans-serif"})]


def _group(face: Face, cls: str, x: float, y: float, label: str, body: list[str]) -> str:
    return el("g", {"class": cls, "data-tile": face.code, "data-as": face.wild_as,
                    "transform": f"translate({fmt(x)} {fmt(y)})", "aria-label": label}, body)


def _tile_body(face: Face, *, wild_label: bool = True) -> tuple[list[str], str]:
    """A tile's drawing at (0, 0) and its label (without the wild tile's mark and the tile
    it stood for when not `wild_label`)."""
    assert isinstance(face.kind, TileKind)
    back = face.face_down
    body = [el("rect", {"x": 0.5, "y": 0.5, "width": TILE_W - 1, "height": TILE_H - 1,
                        "rx": 4, "fill": "#2f6b4f" if back else "#fbf8ef",
                        "stroke": "#6d6a5f", "stroke-width": 1})]
    if not back:
        body += _tile_marks(face.kind)
    if wild_label:
        body += _wild_label(face, TILE_W, TILE_H)
    label = f"{face.kind.name_zh} (face down)" if back else face.kind.name_zh
    if face.wild_as is not None:
        label += f", wild, as {face.wild_as_name or face.wild_as}"
    return body, label


def tile_face(face: Face, x: float, y: float) -> str:
    """A tile at (x, y), its top left corner; face down, the back only."""
    body, label = _tile_body(face)
    return _group(face, "tile", x, y, label, body)


def small_tile_face(face: Face, x: float, y: float) -> str:
    """A tile drawn at `SMALL` of its size, at (x, y): a tile the picture speaks of (a
    discard, a useful tile, a wait, the wild tiles of a wait's reading), not one of the hand,
    so its class is `tile-small` (`data-tile` names it as for a tile of the hand, `data-as`
    what a wild one stood for). A wild tile's mark is drawn at the small size, the tile it
    stood for written under it at full size, to be read."""
    body, label = _tile_body(face, wild_label=False)
    return el("g", {"class": "tile-small", "data-tile": face.code, "data-as": face.wild_as,
                    "transform": f"translate({fmt(x)} {fmt(y)})", "aria-label": label},
              [el("g", {"transform": f"scale({SMALL})"}, body),
               *_wild_label(face, TILE_W * SMALL, TILE_H * SMALL)])


def card_face(face: Face, x: float, y: float) -> str:
    """A word card at (x, y), its top left corner: its character at both ends."""
    assert isinstance(face.kind, Card)
    color = _RED if "red" in face.kind.attributes else _INK
    mid = CARD_W / 2
    body = [el("rect", {"x": 0.5, "y": 0.5, "width": CARD_W - 1, "height": CARD_H - 1,
                        "rx": 3, "fill": "#fffdf6", "stroke": "#6d6a5f", "stroke-width": 1}),
            _char(face.kind.name, mid, 17, 18, color),
            _char(face.kind.name, mid, CARD_H - 17, 18, color, rotate=True)]
    return _group(face, "card", x, y, face.kind.name, body)
