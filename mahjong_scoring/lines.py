"""One line of a JSON Lines log in, one line of results out.

Each input line holds one request, as the service's single call takes it, plus an optional
`"ruleset"` field naming its rule set (else the rule set given for every line). Each output
line is the item the batch endpoint answers for that request: `{"result": ...}`, or
`{"error": <problem>}` whose problem also carries `"line"`, the input line's number. A line
that is empty, not JSON, not an object, longer than a single request may be (64 KiB), without
a rule set or naming an unknown one is an error item too: no line is ever lost, and output line
N always answers input line N.

A line may name any rule set the service serves, a card game scored by groups too: its items
are those of `POST .../score/batch` for that rule set.

`LineScorer` does it for the command-line scorer (`mahjong_scoring.cli`) and the library call
(`mahjong_scoring.score_lines`), so both write the same bytes.
"""

from __future__ import annotations

import functools
import json
import logging
from collections.abc import Mapping, Sequence
from typing import Any

import orjson
from mypy_extensions import mypyc_attr

from app.domain.deadline import TimeLimitExceeded, time_limit
from app.rules.families import ServedRuleSet
from app.rules.loader import load_rulesets
from app.service.batch import (
    EXPLAINED_ITEM_FUNCTIONS,
    ITEM_FUNCTIONS,
    Item,
    encoded_item,
    internal_error_item,
    run_batch,
)
from app.service.families import check_served
from app.service.json_body import json_document, not_an_object
from app.service.problems import ApiError, api_problem, problem_body
from app.settings import MAX_CONTENT_LENGTH, rulesets_dir

__all__ = ["ENDPOINTS", "LineScorer", "served_rulesets"]

# What a line may ask for: "score" (a score request per line), "waits" or "analysis".
ENDPOINTS: tuple[str, ...] = tuple(ITEM_FUNCTIONS)


def _ready(result: Mapping[str, Any]) -> bool:
    return bool(result["ready"])


def _analysed_ready(result: Mapping[str, Any]) -> bool:
    shanten = result["shanten"]
    return shanten is not None and shanten <= 0


_WON: dict[str, Any] = {"score": lambda result: bool(result["winning"]), "waits": _ready,
                        "analysis": _analysed_ready}

_log = logging.getLogger(__name__)


@functools.cache
def served_rulesets(directory: str | None = None) -> Mapping[str, ServedRuleSet]:
    """The rule sets the service would serve: `directory`, else $MAHJONG_RULESETS_DIR, else
    the project's `rulesets/`. Loaded once per process."""
    loaded = load_rulesets(rulesets_dir({"RULESETS_DIR": directory}))
    check_served(loaded.values())
    return {rid: loaded[rid] for rid in sorted(loaded)}


def _without_ending(raw: bytes) -> bytes:
    """`raw.rstrip(b"\\r\\n")`, by its last bytes (compiled: cheaper than the method call)."""
    end = len(raw)
    while end and (raw[end - 1] == 10 or raw[end - 1] == 13):
        end -= 1
    return raw if end == len(raw) else raw[:end]


def _invalid(pointer: str, code: str, message: str) -> Item:
    return {"error": problem_body("invalid_request", f"ruleset: {message}",
                                  errors=[{"pointer": pointer, "code": code,
                                           "message": message}])}


# Compiled with the engine; the match scorer (`mahjong_scoring.matches`) is a subclass of it.
@mypyc_attr(allow_interpreted_subclasses=True)
class LineScorer:
    """Scores lines of one kind (`endpoint`: score, waits or analysis) against `rulesets`.

    `default`: the rule set of lines that do not name one (None: each line must). `seconds`:
    the most one line may take (None: no limit); a line past it is a time_limit_exceeded
    error item. `explain`: each result explained, as `?explain=true` does.
    """

    def __init__(self, rulesets: Mapping[str, ServedRuleSet], default: str | None = None,
                 endpoint: str = "score", seconds: float | None = None,
                 explain: bool = False) -> None:
        if endpoint not in ITEM_FUNCTIONS:
            raise ValueError(f"no endpoint {endpoint!r}; known: {', '.join(ENDPOINTS)}")
        if default is not None and default not in rulesets:
            raise ValueError(f"no rule set {default!r}; known: {', '.join(rulesets)}")
        self.rulesets = rulesets
        self.default = default
        # The rule set of lines that name none, looked up once.
        self._default_ruleset = rulesets[default] if default is not None else None
        self.endpoint = endpoint
        self.seconds = seconds
        self._item = (EXPLAINED_ITEM_FUNCTIONS if explain else ITEM_FUNCTIONS)[endpoint]
        # What a line's result says when the hand wins (score) or is ready (waits; an
        # analysis: shanten 0, or -1 for a fourteen-tile hand that is a win already).
        self._won = _WON.get(endpoint, _ready)

    def item(self, raw: bytes, number: int) -> Item:
        """The item for line `number` (`raw` with or without its line ending)."""
        read = self._read(_without_ending(raw), number)
        return self._numbered(self._answer(read, number) if isinstance(read, tuple) else read,
                              number)

    def line(self, raw: bytes, number: int) -> tuple[bytes, bool, bool]:
        """(the item as one JSON line without its newline, won or ready, an error)."""
        return self._encoded(self.item(raw, number))

    def lines(self, raws: Sequence[bytes], first: int) -> list[tuple[bytes, bool, bool]]:
        """`line` of each of `raws`, numbered from `first`: the same bytes. Without a time
        limit, the lines of one rule set in a row are scored as a batch is (`run_batch`: a
        score or waits request read, answered and written a step at a time for a few lines,
        see `app.service.batch.StepwiseItem`), which costs less per line than one at a time.
        With one, each line is scored alone under its own limit."""
        if self.seconds is not None:
            return [self.line(raw, n) for n, raw in enumerate(raws, first)]
        out: list[tuple[bytes, bool, bool]] = []
        run: list[dict[str, Any]] = []  # the bodies of consecutive lines of one rule set
        run_ruleset: ServedRuleSet | None = None
        for n, raw in enumerate(raws, first):
            read = self._read(_without_ending(raw), n)
            if run and not (isinstance(read, tuple) and read[1] is run_ruleset):
                self._batch(run, run_ruleset, n - len(run), out)
                run = []
            if isinstance(read, tuple):
                run.append(read[0])
                run_ruleset = read[1]
            else:
                out.append(self._encoded(self._numbered(read, n)))
        if run:
            self._batch(run, run_ruleset, first + len(raws) - len(run), out)
        return out

    def chunk(self, raws: Sequence[bytes], first: int) -> tuple[bytes, int, int]:
        """`lines` of `raws` as the output holds them: (the items' JSON lines, each ending
        in a newline, how many are won or ready, how many are errors)."""
        out: list[bytes] = []
        won = errors = 0
        for encoded, w, e in self.lines(raws, first):
            out.append(encoded)
            won += w
            errors += e
        out.append(b"")
        return b"\n".join(out), won, errors

    def _batch(self, bodies: list[dict[str, Any]], ruleset: ServedRuleSet | None, first: int,
               out: list[tuple[bytes, bool, bool]]) -> None:
        assert ruleset is not None
        # Items, typed so: each one's result is a dict lookup rather than a method call. They
        # are encoded here and dropped: made as such (`encoded_item`).
        items: list[Item] = run_batch(bodies, ruleset, encoded_item(self._item), None,
                                      where=lambda index: f"line {first + index}")
        won = self._won
        for n, item in enumerate(items, first):
            # `_encoded(_numbered(...))` of each item, a result's without the calls.
            result = item.get("result")
            if result is not None:
                try:
                    out.append((orjson.dumps(item), bool(won(result)), False))
                    continue
                except (TypeError, orjson.JSONEncodeError):
                    # Made again as a line alone makes it, as plain JSON values (an item
                    # made for encoding at once holds orjson's own), for the fallback encoder.
                    item = self._answer((bodies[n - first], ruleset), n)
            out.append(self._encoded(self._numbered(item, n)))

    @staticmethod
    def _numbered(item: Item, number: int) -> Item:
        error = item.get("error")
        if error is not None:
            error["line"] = number
        return item

    def _encoded(self, item: Item) -> tuple[bytes, bool, bool]:
        try:
            encoded = orjson.dumps(item)
        except (TypeError, orjson.JSONEncodeError):
            # A problem may echo what orjson does not encode (an integer past 64 bits).
            encoded = json.dumps(item, ensure_ascii=False, separators=(",", ":")).encode(
                "utf-8", errors="replace")
        result = item.get("result")
        return encoded, bool(result is not None and self._won(result)), result is None

    def _read(self, text: bytes, number: int) -> tuple[dict[str, Any], ServedRuleSet] | Item:
        """(the request body, its rule set), or the line's error item."""
        # As `not text.strip()`, without copying the line; every byte `isspace` takes is
        # below 33, so a line starting with another (a request's "{") is not blank.
        if not text or (text[0] < 33 and text.isspace()):
            return {"error": problem_body(
                "malformed_json", f"Line {number} is empty: each line holds one JSON request.")}
        if len(text) > MAX_CONTENT_LENGTH:
            return {"error": problem_body(
                "payload_too_large",
                f"Line {number} is longer than {MAX_CONTENT_LENGTH} bytes, the most one request "
                "may hold.")}
        try:
            body: Any = json_document(text, "A line", one_line=True)
        except ApiError:
            # Read again for the message, which names the line (made only for a line that is
            # not JSON).
            try:
                json_document(text, f"Line {number}", one_line=True)
            except ApiError as exc:
                return {"error": api_problem(exc)}
            raise
        if type(body) is not dict:
            return {"error": api_problem(not_an_object(body, f"Line {number}"))}
        # Most lines name no rule set: told by a lookup, without a call of `pop`.
        rid = body.pop("ruleset") if "ruleset" in body else None
        if rid is None:
            default = self._default_ruleset
            if default is None:
                return _invalid("/ruleset", "required", (
                    'Required: the rule set of this line, in its "ruleset" field (such as '
                    '"mcr") or given for every line (mahjong-score --ruleset).'))
            return body, default
        if type(rid) is not str:
            return _invalid("/ruleset", "invalid_type",
                            'Not a rule set id: expected a string such as "mcr".')
        ruleset = self.rulesets.get(rid)
        if ruleset is None:
            known = ", ".join(self.rulesets) or "none"
            return {"error": problem_body("unknown_ruleset",
                                          f"No rule set {rid!r}; known: {known}.")}
        return body, ruleset

    def _answer(self, read: tuple[dict[str, Any], ServedRuleSet], number: int) -> Item:
        body, ruleset = read
        try:
            if self.seconds is None:
                return self._item(body, ruleset)
            with time_limit(self.seconds):
                return self._item(body, ruleset)
        except TimeLimitExceeded:
            return {"error": problem_body(
                "time_limit_exceeded",
                f"Line {number} took longer than the limit of {self.seconds:g} s per line, so it "
                "was stopped (hands holding many wild tiles are the slowest); raise the limit "
                "to score it.")}
        except Exception:
            _log.exception("unhandled error on line %d", number)
            return internal_error_item()
