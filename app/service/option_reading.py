"""Reading a request's options (house rules): every option the rule set declares, the
request's value checked against the option's type, bounds and choices, or the rule set's
default; a per-seat option one integer per seat (or one of its choices or null). Shared by
the tile and the card games and by settle requests.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from app.domain.errors import Code, HandError
from app.rules.model import AnyRuleSet
from app.rules.options import OptionDef


def build_options(value: Mapping[str, Any] | None, ruleset: AnyRuleSet,
                  pointer: str = "/context/options", *, dealer: int | None = None,
                  dealer_field: str = "context.dealer") -> dict[str, Any]:
    """House rules: every declared option, the request's value or the rule set's default.

    ``pointer`` is where the options are in the request (a settle request carries them at
    ``/options``). ``dealer``: the dealer's seat, named ``dealer_field`` in messages, for the
    per-seat options whose dealer entry is fixed (a per-seat value is kept as a tuple)."""
    defaults = ruleset.option_defaults
    # A rule set's defaults are a read-only view of a dict: its copy() is the dict's own,
    # far cheaper than dict() of a view (which goes by the view's keys and items).
    out = defaults.copy() if isinstance(defaults, MappingProxyType) else dict(defaults)
    if not value:
        return out
    declared = ruleset.option_by_name
    for name, v in value.items():
        ptr = f"{pointer}/{_escape(name)}"
        od = declared.get(name)
        if od is None:
            known = ", ".join(sorted(declared)) or "none"
            raise HandError(
                Code.UNKNOWN_OPTION,
                f"rule set {ruleset.id} has no option {name!r}; its options are: {known}",
                ptr,
            )
        if od.type == "per_seat":
            out[name] = _per_seat(od, v, ruleset.players, ptr, dealer, dealer_field)
            continue
        problem = _option_problem(od, v)
        if problem is not None:
            raise HandError(
                Code.INVALID_OPTION, f"option {name!r} is {_json(v)}, but it {problem}", ptr
            )
        out[name] = v
    return out


def _per_seat(od: OptionDef, v: object, players: int, ptr: str, dealer: int | None,
              dealer_field: str) -> tuple[Any, ...]:
    """A per-seat option: one integer per seat, each within the bounds, the dealer's entry
    the one the option fixes (拉庄: the dealer pulls nobody); with choices, one of them or
    null per seat (定缺: the suit each seat declared void)."""
    def bad(problem: str, at: str = ptr) -> HandError:
        return HandError(Code.INVALID_OPTION, f"option {od.name!r} is {_json(v)}, but {problem}",
                         at)

    what = ("one of " + ", ".join(_json(c) for c in od.choices) + " or null"
            if od.choices else "one integer")
    if not isinstance(v, list | tuple) or len(v) != players:
        raise bad(f"it must list {what} per seat: {players} entries, for seats "
                  f"0..{players - 1}")
    for seat, n in enumerate(v):
        at = f"{ptr}/{seat}"
        if od.choices:
            if n is not None and not any(type(c) is type(n) and c == n for c in od.choices):
                raise bad(f"entry {seat} (seat {seat}) must be {what}", at)
            continue
        if not isinstance(n, int) or isinstance(n, bool):
            raise bad(f"entry {seat} (seat {seat}) must be an integer", at)
        if od.minimum is not None and n < od.minimum:
            raise bad(f"entry {seat} (seat {seat}) must be at least {od.minimum}", at)
        if od.maximum is not None and n > od.maximum:
            raise bad(f"entry {seat} (seat {seat}) must be at most {od.maximum}", at)
    if dealer is not None and od.dealer_entry is not None and v[dealer] != od.dealer_entry:
        raise bad(f"entry {dealer} must be {od.dealer_entry}: seat {dealer} is the dealer "
                  f"({dealer_field}), and the dealer's own entry is always "
                  f"{od.dealer_entry}; set it to {od.dealer_entry}, or name the right dealer",
                  f"{ptr}/{dealer}")
    return tuple(v)


def _option_problem(od: OptionDef, v: object) -> str | None:
    """Why ``v`` is not a valid value of option ``od``, or None."""
    if od.type == "bool" and not isinstance(v, bool):
        return "must be true or false"
    if od.type == "int":
        if not isinstance(v, int) or isinstance(v, bool):
            return "must be an integer"
        if od.minimum is not None and v < od.minimum:
            return f"must be at least {od.minimum}"
        if od.maximum is not None and v > od.maximum:
            return f"must be at most {od.maximum}"
    # Compare with the type too: true == 1 in Python, but not in JSON.
    if od.choices and not any(type(c) is type(v) and c == v for c in od.choices):
        return "must be one of " + ", ".join(_json(c) for c in od.choices)
    return None


def _escape(name: str) -> str:
    """A JSON pointer reference token (RFC 6901)."""
    return name.replace("~", "~0").replace("/", "~1")


def _json(v: object) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if v is None:
        return "null"
    if isinstance(v, str):
        return f'"{v}"'
    if isinstance(v, list | tuple):
        return "[" + ", ".join(_json(x) for x in v) + "]"
    return str(v)
