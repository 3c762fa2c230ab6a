"""Money: who pays whom, and every seat's net.

A transfer moves an amount from one seat to another for a stated reason; the net of each seat
is what it received less what it paid, so the nets of any set of transfers sum to zero.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final, NamedTuple, Protocol

# Hot-path named tuples are built with `tuple.__new__(Type, fields)`: a NamedTuple's own
# constructor runs a Python-level __new__ that costs about twice as much.
_new: Final = tuple.__new__


class Transfer(NamedTuple):
    payer: int
    payee: int
    amount: int
    reason: str


class Payments(NamedTuple):
    net: tuple[int, ...]
    transfers: tuple[Transfer, ...]


class Move(Protocol):
    """Anything that moves money between two seats (a transfer, a round's itemised one)."""

    @property
    def payer(self) -> int: ...
    @property
    def payee(self) -> int: ...
    @property
    def amount(self) -> int: ...


def net_of(players: int, moves: Iterable[Move]) -> tuple[int, ...]:
    """Each seat's net: what it received less what it paid. The nets sum to zero."""
    net = [0] * players
    for m in moves:
        net[m.payer] -= m.amount
        net[m.payee] += m.amount
    return tuple(net)


def payments_of(players: int, transfers: list[Transfer]) -> Payments:
    """The payments of a list of transfers: every seat's net (as `net_of`), and the transfers
    in order."""
    net = [0] * players
    for t in transfers:  # by index: unpacking a named tuple takes CPython's slow path
        amount = t[2]
        net[t[0]] -= amount
        net[t[1]] += amount
    return _new(Payments, (tuple(net), tuple(transfers)))
