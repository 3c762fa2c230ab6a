"""Errors raised while reading a request into domain values.

Every error names a stable snake_case `code` (clients switch on it), a `message` a person can
act on (it names the offending tile or field and says what was expected), and a JSON
`pointer` (RFC 6901) to the request field at fault, e.g. ``/hand/melds/1/tiles``. Errors found
inside a notation string also carry the 0-based character `position` within that string.

The API layer turns these into 422 problem details; nothing here knows about HTTP.
"""

from __future__ import annotations

from typing import Any


class HandError(Exception):
    """A request that cannot describe a real hand or win (the API answers 422)."""

    code: str
    message: str
    pointer: str
    position: int | None

    def __init__(
        self, code: str, message: str, pointer: str = "", position: int | None = None
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

    def __init__(self, code: str, message: str, pointer: str, position: int) -> None:
        super().__init__(code, message, pointer, position)
