"""A picture laid out from top to bottom: headings and lines of text, and rows of sections of
tiles or cards (a section: a label over groups of faces, each group with an optional caption
under it). The canvas grows with what is put on it; the SVG is sized to the content.

Rows of sections wrap at `MAX_ROW`. A canvas given a width (a phone's screen, say) keeps
everything within it instead: rows wrap at it, a section too wide for it goes on over several
rows (a group of faces too, split between faces), and lines of text wrap at spaces (or
between characters, for a word longer than the width); nothing but a single face or a single
caption is ever wider.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from app.service.pictures.faces import WILD_LABEL_H, Face
from app.service.pictures.svg import CJK_FONTS, el, escape, fmt, text, text_width

__all__ = ["MAX_WIDTH", "MIN_WIDTH", "Canvas", "FaceStyle", "Group", "Section"]

MARGIN = 14.0
FACE_GAP = 1.5  # between the faces of a group
GROUP_GAP = 9.0  # between groups of a section
SECTION_GAP = 26.0  # between sections
GRID_GAP = 12.0  # between the columns of a grid of sections
# A row of sections wraps past this width: a picture shown at its own size fits beside the
# calculator's form on a common desktop screen (1280 px), its text at its own size.
MAX_ROW = 760.0
# The widths a picture may be asked for (`Canvas.width`): the narrowest holds a tile and a
# short word per line.
MIN_WIDTH = 200
MAX_WIDTH = 4000
LABEL_SIZE = 11.0
LABEL_H = 17.0
CAPTION_SIZE = 11.0
CAPTION_H = 16.0
GREY = "#555555"


@dataclass(frozen=True)
class Group:
    faces: Sequence[Face]
    caption: str | None = None
    gap: float = FACE_GAP  # between its faces (wider for small wild tiles: their labels)
    # The next group starts after the caption, not under it (a caption wider than its faces
    # that must be read apart from the next group's).
    caption_apart: bool = False


@dataclass(frozen=True)
class Section:
    label: str
    groups: Sequence[Group]


@dataclass(frozen=True)
class FaceStyle:
    """How the faces of a picture are drawn: their size and the function drawing one."""

    width: float
    height: float
    draw: Callable[[Face, float, float], str]


def _wrapped(content: str, room: float, measure: Callable[[str], float]) -> list[str]:
    """`content` in lines of at most `room` wide: broken at spaces, and a word longer than
    `room` between its characters."""
    lines: list[str] = []
    current = ""
    for word in content.split(" "):
        candidate = f"{current} {word}" if current else word
        if measure(candidate) <= room or not candidate.strip():
            current = candidate
            continue
        if current:
            lines.append(current)
        current = ""
        for ch in word:
            if current and measure(current + ch) > room:
                lines.append(current)
                current = ""
            current += ch
    lines.append(current)
    return lines


@dataclass
class Canvas:
    style: FaceStyle
    # The picture's width, when asked for one: everything is kept within it (the module's
    # docstring). None: rows wrap at MAX_ROW and lines of text are not wrapped.
    width: float | None = None
    parts: list[str] = field(default_factory=list)
    y: float = MARGIN
    right: float = 0.0  # the rightmost extent drawn so far

    @property
    def limit(self) -> float:
        """Where rows of sections wrap."""
        return MAX_ROW if self.width is None else self.width - MARGIN

    def _extend(self, x_end: float) -> None:
        self.right = max(self.right, x_end)

    def line(self, content: str, *, size: float = 13.0, color: str = "#1b1b1b",
             bold: bool = False, x: float = MARGIN) -> None:
        """One line of text at the left margin (or at `x`), under what was drawn; wrapped
        when the canvas has a width."""
        scale = 1.08 if bold else 1.0

        def measure(s: str) -> float:
            return text_width(s, size) * scale

        lines = [content] if self.width is None else _wrapped(content, self.limit - x, measure)
        for piece in lines:
            self.parts.append(text(piece, {
                "x": x, "y": self.y + size * 1.1, "font-size": size, "fill": color,
                "font-family": CJK_FONTS, "font-weight": "bold" if bold else None}))
            self._extend(x + measure(piece))
            self.y += size * 1.5

    def gap(self, height: float) -> None:
        self.y += height

    @staticmethod
    def _group_width(group: Group, style: FaceStyle) -> float:
        """How far the group reaches before the next one starts."""
        width = len(group.faces) * style.width + max(len(group.faces) - 1, 0) * group.gap
        if group.caption_apart and group.caption:
            width = max(width, text_width(group.caption, CAPTION_SIZE))
        return width

    def _label_lines(self, label: str) -> list[str]:
        """A section's label, in lines that fit a row under a given width."""
        if self.width is None or not label:
            return [label]
        return _wrapped(label, self.limit - MARGIN, lambda s: text_width(s, LABEL_SIZE))

    def _section_width(self, section: Section, style: FaceStyle) -> float:
        width = sum(self._group_width(g, style) for g in section.groups)
        width += GROUP_GAP * max(len(section.groups) - 1, 0)
        widths = [width, *(text_width(ln, LABEL_SIZE) for ln in self._label_lines(section.label))]
        widths += [text_width(g.caption, CAPTION_SIZE) for g in section.groups if g.caption]
        return max(widths)

    def _fitted(self, section: Section, style: FaceStyle, room: float) -> list[Section]:
        """The section as it fits in `room` under a given width: itself, or its groups over
        several sections (the label on the first), a group too wide split between faces (its
        caption under the last part)."""
        if self.width is None or self._section_width(section, style) <= room:
            return [section]
        groups: list[Group] = []
        for g in section.groups:
            per_part = max(1, int((room + g.gap) // (style.width + g.gap)))
            if self._group_width(g, style) <= room or len(g.faces) <= per_part:
                groups.append(g)
                continue
            starts = range(0, len(g.faces), per_part)
            groups += [Group(g.faces[i:i + per_part],
                             g.caption if i == starts[-1] else None, g.gap, g.caption_apart)
                       for i in starts]
        parts: list[Section] = []
        taken: list[Group] = []
        for g in groups:
            trial = Section(section.label if not parts else "", [*taken, g])
            if taken and self._section_width(trial, style) > room:
                parts.append(Section(section.label if not parts else "", taken))
                taken = []
            taken.append(g)
        parts.append(Section(section.label if not parts else "", taken))
        return parts

    def row(self, sections: Sequence[Section], x0: float = MARGIN,
            style: FaceStyle | None = None) -> None:
        """Sections side by side (wrapping past `limit`), under what was drawn; their faces
        drawn in `style` (the canvas's own by default)."""
        style = style or self.style
        pending: list[tuple[float, Section]] = []
        x = x0
        fitted = [part for s in sections for part in self._fitted(s, style, self.limit - x0)]
        for section in fitted:
            width = self._section_width(section, style)
            if pending and x + width > self.limit:
                self._draw_row(pending, style)
                pending, x = [], x0
            pending.append((x, section))
            x += width + SECTION_GAP
        if pending:
            self._draw_row(pending, style)

    def grid(self, sections: Sequence[Section], x0: float = MARGIN,
             style: FaceStyle | None = None) -> None:
        """Sections in a grid, under what was drawn: as many columns of the widest
        section's width as fit in `limit`, row after row (a list of many short entries,
        such as 30 waits, stays compact)."""
        if not sections:
            return
        style = style or self.style
        cell = max(self._section_width(s, style) for s in sections) + GRID_GAP
        columns = max(1, int((self.limit - x0 + GRID_GAP) // cell))
        for start in range(0, len(sections), columns):
            self._draw_row([(x0 + i * cell, s)
                            for i, s in enumerate(sections[start:start + columns])], style)

    def _draw_row(self, placed: list[tuple[float, Section]], style: FaceStyle) -> None:
        labels = [self._label_lines(s.label) if s.label else [] for _, s in placed]
        top = self.y + LABEL_H * max(len(lines) for lines in labels)
        wild = any(f.wild_as is not None for _, s in placed for g in s.groups for f in g.faces)
        caption_y = top + style.height + (WILD_LABEL_H if wild else 0.0)
        captioned = False
        for (x, section), lines in zip(placed, labels, strict=True):
            for i, label in enumerate(lines):
                self.parts.append(text(label, {
                    "x": x, "y": self.y + i * LABEL_H + LABEL_SIZE, "font-size": LABEL_SIZE,
                    "fill": GREY, "font-family": CJK_FONTS}))
                self._extend(x + text_width(label, LABEL_SIZE))
            gx = x
            for group in section.groups:
                start = gx
                for i, face in enumerate(group.faces):
                    if i:
                        gx += group.gap
                    self.parts.append(style.draw(face, gx, top))
                    gx += style.width
                if group.caption:
                    captioned = True
                    self.parts.append(text(group.caption, {
                        "x": start, "y": caption_y + CAPTION_SIZE, "font-size": CAPTION_SIZE,
                        "fill": GREY, "font-family": CJK_FONTS}))
                    self._extend(start + text_width(group.caption, CAPTION_SIZE))
                self._extend(gx)
                gx = start + self._group_width(group, style) + GROUP_GAP
        self.y = caption_y + (CAPTION_H if captioned else 0.0) + 8.0

    def svg(self, title: str, desc: str) -> bytes:
        """The standalone SVG document: sized to what was drawn, a title and a description
        for screen readers, a white ground."""
        width = self.right + MARGIN
        height = self.y + MARGIN
        size = {"width": fmt(width), "height": fmt(height)}
        head = (f'<?xml version="1.0" encoding="UTF-8"?>\n'
                f'<svg xmlns="http://www.w3.org/2000/svg" width="{size["width"]}" '
                f'height="{size["height"]}" viewBox="0 0 {size["width"]} {size["height"]}" '
                f'role="img">')
        body = [head, f"<title>{escape(title)}</title>", f"<desc>{escape(desc)}</desc>",
                el("rect", {"x": 0, "y": 0, "width": width, "height": height, "fill": "#ffffff"}),
                *self.parts, "</svg>\n"]
        return "".join(body).encode()
