"""The error of a rule set that cannot be served, in one format for every family.

A message names the file, then the field at fault, then what is wrong:

    mini.yaml: field 'players': must be an integer from 2 to 4
    cards.yaml: field 'deck.copies': must be an integer

(a tile rule set's fan field also names the fan, and the parent's file for an inherited fan:
`kid.yaml: fan 'a' (from mini.yaml): field 'value': ...`). Every family's loader raises it
through `field_errors`, so that a start-up that stops says where alike for all of them.
"""

from __future__ import annotations

from collections.abc import Callable

__all__ = ["FieldError", "RuleSetError", "field_errors"]


class RuleSetError(Exception):
    """A rule set that cannot be served; the message names file, fan and field."""


# err(field, message) -> the error naming the file and the field.
FieldError = Callable[[str, str], RuleSetError]


def field_errors(source: str) -> FieldError:
    """The error factory of one file (`source`, its name): `err(field, message)`."""

    def err(field: str, message: str) -> RuleSetError:
        return RuleSetError(f"{source}: field {field!r}: {message}")

    return err
