"""The few SVG primitives the pictures are made of, written as text.

Every number is rounded to one decimal and every attribute written in a fixed order, so the
same picture is always the same bytes. Text is escaped for XML; fonts are named by family only
(what the reader's system has: no font file is fetched), and the width of a line is estimated
from its characters generously (a CJK character a full em, a Latin letter up to one), so that
a picture sized from the estimates holds its text in any common font.
"""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["CJK_FONTS", "Attrs", "el", "escape", "fmt", "quoteattr", "text", "text_width"]

# System font families only: CJK ones first for the characters, then the generic families.
CJK_FONTS = ("'Noto Sans CJK SC', 'Source Han Sans SC', 'PingFang SC', 'Microsoft YaHei', "
             "'WenQuanYi Zen Hei', 'Droid Sans Fallback', sans-serif")
SERIF_CJK_FONTS = ("'Noto Serif CJK SC', 'Source Han Serif SC', 'Songti SC', SimSun, "
                   "'Noto Sans CJK SC', serif")

Attrs = dict[str, str | float | int | None]


def fmt(value: str | float | int) -> str:
    """A number written short and always alike (one decimal at most); text as it is."""
    if isinstance(value, str):
        return value
    rounded = round(float(value), 1)
    if rounded == int(rounded):
        return str(int(rounded))
    return f"{rounded:.1f}"


def escape(data: str) -> str:
    """`data` with &, < and > escaped, as `xml.sax.saxutils.escape` writes it (whose import
    brings in urllib and the HTTP client: a process that draws no picture, such as the
    command-line scorer, starts without them)."""
    return data.replace("&", "&amp;").replace(">", "&gt;").replace("<", "&lt;")


def quoteattr(data: str) -> str:
    """`data` escaped and quoted as an attribute value, as `xml.sax.saxutils.quoteattr`
    writes it: line breaks and tabs as character references, in double quotes unless it
    holds a double quote and no single one."""
    data = escape(data).replace("\n", "&#10;").replace("\r", "&#13;").replace("\t", "&#9;")
    if '"' not in data:
        return f'"{data}"'
    if "'" not in data:
        return f"'{data}'"
    return '"' + data.replace('"', "&quot;") + '"'


def _attrs(attrs: Attrs) -> str:
    return "".join(f" {name}={quoteattr(fmt(v))}" for name, v in attrs.items() if v is not None)


def el(tag: str, attrs: Attrs, children: Iterable[str] = ()) -> str:
    """One element with its attributes in the order given, and its children (already
    written); empty elements are closed at once."""
    inner = "".join(children)
    if not inner:
        return f"<{tag}{_attrs(attrs)}/>"
    return f"<{tag}{_attrs(attrs)}>{inner}</{tag}>"


def text(content: str, attrs: Attrs) -> str:
    """A `<text>` element holding `content`, escaped."""
    return f"<text{_attrs(attrs)}>{escape(content)}</text>"


def _char_width(ch: str) -> float:
    if ord(ch) >= 0x2E80:  # CJK and full-width forms
        return 1.0
    if ch in "mwMW@%":
        return 1.0
    if ch.isupper() or ch in "—×±":
        return 0.8
    if ch == " ":
        return 0.35
    return 0.64


def text_width(content: str, size: float) -> float:
    """A line's width in user units at font size `size`, estimated from above."""
    return size * sum(_char_width(ch) for ch in content)
