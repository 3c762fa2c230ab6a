"""Errors raised while reading a request into domain values.

Every error names a stable snake_case `code` (clients switch on it), a `message` a person can
act on (it names the offending tile or field and says what was expected), and a JSON
`pointer` (RFC 6901) to the request field at fault, e.g. ``/hand/melds/1/tiles``. Errors found
inside a notation string also carry the 0-based character `position` within that string.

The API layer turns these into 422 problem details; nothing here knows about HTTP.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any


class Code(StrEnum):
    """The stable codes of a request that cannot describe a real hand, win or round (each
    answered 422): the one place they are defined."""

    # The hand and its context.
    INVALID_NOTATION = "invalid_notation"
    UNKNOWN_TILE = "unknown_tile"
    FLOWER_IN_HAND = "flower_in_hand"
    ILLEGAL_MELD = "illegal_meld"
    TOO_MANY_MELDS = "too_many_melds"
    TOO_MANY_COPIES = "too_many_copies"
    WRONG_TILE_COUNT = "wrong_tile_count"
    WIN_TILE_MISSING = "win_tile_missing"
    SEAT_OUT_OF_RANGE = "seat_out_of_range"
    FLOWERS_OUT_OF_RANGE = "flowers_out_of_range"
    INCONSISTENT_CONTEXT = "inconsistent_context"
    UNKNOWN_OPTION = "unknown_option"
    INVALID_OPTION = "invalid_option"
    WILDS_NOT_SUPPORTED = "wilds_not_supported"
    NOT_A_FLOWER = "not_a_flower"
    # A hand of cards (a deck of word cards rather than tiles).
    UNKNOWN_CARD = "unknown_card"
    ILLEGAL_GROUP = "illegal_group"
    WRONG_CARD_COUNT = "wrong_card_count"
    WIN_CARD_MISSING = "win_card_missing"
    UNDECLARED_FOUR = "undeclared_four"
    # A value the schema lets through but the domain refuses (a flower given as a wild tile).
    INVALID_FIELD = "invalid_field"
    # A round.
    SETTLE_NOT_SUPPORTED = "settle_not_supported"
    SEAT_ALREADY_WON = "seat_already_won"
    ROUND_OVER = "round_over"
    WRONG_DRAW_PLAYERS = "wrong_draw_players"
    INCONSISTENT_EVENT = "inconsistent_event"
    KONG_MISMATCH = "kong_mismatch"
    NOT_A_WIN = "not_a_win"
    # An event the rule set's rules forbid (a kong that cannot be made there).
    FORBIDDEN_EVENT = "forbidden_event"
    # A match.
    MATCH_OVER = "match_over"
    INCONSISTENT_DEALER = "inconsistent_dealer"
    INCONSISTENT_WINDS = "inconsistent_winds"
    PLAYER_OUT_OF_RANGE = "player_out_of_range"
    NO_CLAIM_STANDS = "no_claim_stands"
    NOT_A_FALSE_WIN = "not_a_false_win"
    FALSE_WIN_UNPRICED = "false_win_unpriced"
    INVALID_STATE = "invalid_state"
    WRONG_HAND_KIND = "wrong_hand_kind"


# The codes only a match can raise (its problems have their own title).
MATCH_CODES = frozenset({
    Code.MATCH_OVER, Code.INCONSISTENT_DEALER, Code.INCONSISTENT_WINDS,
    Code.PLAYER_OUT_OF_RANGE, Code.NO_CLAIM_STANDS, Code.NOT_A_FALSE_WIN,
    Code.FALSE_WIN_UNPRICED, Code.INVALID_STATE, Code.WRONG_HAND_KIND,
})

# The codes only a round can raise (its problems have their own title).
ROUND_CODES = frozenset({
    Code.SETTLE_NOT_SUPPORTED, Code.SEAT_ALREADY_WON, Code.ROUND_OVER, Code.WRONG_DRAW_PLAYERS,
    Code.INCONSISTENT_EVENT, Code.KONG_MISMATCH, Code.NOT_A_WIN, Code.FORBIDDEN_EVENT,
})


class HandError(Exception):
    """A request that cannot describe a real hand or win (the API answers 422)."""

    code: Code
    message: str
    pointer: str
    position: int | None

    def __init__(
        self, code: Code, message: str, pointer: str = "", position: int | None = None
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.pointer = pointer
        self.position = position

    def __str__(self) -> str:
        return self.message

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}(code={self.code!r}, message={self.message!r}, "
            f"pointer={self.pointer!r}, position={self.position!r})"
        )

    def to_dict(self) -> dict[str, Any]:
        """The error as one entry of a problem document's `errors` list."""
        out: dict[str, Any] = {"code": self.code, "message": self.message,
                               "pointer": self.pointer}
        if self.position is not None:
            out["position"] = self.position
        return out


class NotationError(HandError):
    """An error located inside a notation string: `position` is always set.

    Raised by `app.domain.notation` for `invalid_notation` and `unknown_tile`, and for
    `illegal_meld` / `flower_in_hand` / `win_tile_missing` found while reading a whole-hand
    string, so that the client learns where in the string the problem is.
    """

    position: int

    def __init__(self, code: Code, message: str, pointer: str, position: int) -> None:
        super().__init__(code, message, pointer, position)
