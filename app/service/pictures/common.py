"""What the pictures of every family write under the faces: the fans with their values, the
totals, and the payments, in the rule set's own names (the answer's `name` of each fan), and
the same in one line of text for the picture's description."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from app.service.pictures.layout import Canvas

__all__ = ["fan_lines", "payment_lines", "signed"]

Json = Mapping[str, Any]


def signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


def fan_lines(fans: Sequence[Json]) -> list[str]:
    """One line per counted fan: its names and its value (× its count)."""
    out = []
    for f in fans:
        times = f" × {f['count']}" if f["count"] != 1 else ""
        out.append(f"{f['name']}  {f['name_en']}  {f['value']}{times}")
    return out


def payment_lines(payments: Json | None) -> list[str]:
    """Who pays whom, then each seat's net; nothing when the hand does not win."""
    if not payments:
        return []
    out = [f"seat {t['from']} → seat {t['to']}: {t['amount']} ({t['reason']})"
           for t in payments["transfers"]]
    out.append("net: " + ", ".join(f"seat {i} {signed(n)}"
                                    for i, n in enumerate(payments["net"])))
    return out


def write_lines(canvas: Canvas, heading: str, lines: Sequence[str]) -> None:
    if not lines:
        return
    canvas.line(heading, size=12, color="#555555")
    for ln in lines:
        canvas.line(ln)


def heading(canvas: Canvas, title: str, subtitle: str) -> None:
    """The picture's first two lines: the rule set's names, then what the answer is about."""
    canvas.line(title, size=15, bold=True)
    canvas.line(subtitle, size=12, color="#555555")
    canvas.gap(4)


def waits_state(answer: Json) -> str:
    """Whether a waits answer's hand is ready, and whether some wait can win."""
    return ("听 ready" if answer["ready"] else "not ready") + (
        ", can win" if answer["can_win"] else "")
