"""What the answers of checks depend on (`check(depends_on=)`): keys of a reading that the
checks declaring one share, so that the engine decides their fans once per key.

Compiled with the engine (pyproject.toml's compiled list): the engine asks for a key for each
group of shared fans of every reading it counts, and a compiled key costs a fraction of a call
into interpreted Python. A fact of the hand that `SubstitutedFacts` fills in only when asked
is read through `HandFacts.filled()`: compiled code reads an attribute directly, never
through `__getattr__`.
"""

from __future__ import annotations

from app.domain.hand import WinContext
from app.rules.view import View


def claimed(v: View, ctx: WinContext) -> tuple[int, str, bool]:
    """How the hand was won and what it claimed: melds claimed, the win type, the last
    tile."""
    return v.facts.filled().exposed_melds, ctx.win_type, ctx.last_tile


def placed(v: View, ctx: WinContext) -> tuple[str | None, bool]:
    """Where this reading places the winning tile, and whether the hand waited on it alone
    (asked only of readings that place it: the waits are worked out then)."""
    wait = v.wait
    return wait, wait is not None and v.facts.filled().unique_wait


def categories_held(v: View, ctx: WinContext) -> int:
    """Which numbered suits, winds and dragons the hand holds."""
    return v.facts.filled().categories


def kongs_held(v: View, ctx: WinContext) -> tuple[int, int]:
    """How many kongs, and how many of them concealed."""
    kongs = v.kongs
    concealed = 0
    for _, c in kongs:
        if c:
            concealed += 1
    return len(kongs), concealed


def concealed(v: View, ctx: WinContext) -> int:
    """How many concealed pungs (`View.concealed_pungs`)."""
    return v.concealed_pungs


def chows(v: View, ctx: WinContext) -> tuple[int, ...]:
    """The chows: what the rule set's combination policy reads (`View.combos`)."""
    return v.chows


def suit_pungs_held(v: View, ctx: WinContext) -> tuple[int, ...]:
    """The ranks of the pungs and kongs held in each numbered suit (`View.suit_pungs`)."""
    return v.suit_pungs()
