"""The catalogue of the vocabulary rule sets are written in (`docs/checks.md`): the registered
checks (`app.rules.checks.CHECKS`) with their parameters and promises, the winning shapes
(`app.domain.shapes.SHAPES`), the combination policies, the payment schemes, and for card games
the pattern checks and scoring steps, each with its own docstring. It depends on the
registries only, never on which rule sets exist."""

from __future__ import annotations

import ast
import collections.abc
import dataclasses
import inspect
import re
import sys
import types
import typing
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from app.domain.shapes import SHAPES, Shape
from app.rules.cards.checks import CHECKS as CARD_CHECKS
from app.rules.cards.steps import STEPS
from app.rules.checks import CHECKS, CheckSpec, TileGroup, check_params, described, module_doc
from app.rules.payments import RESERVED_PARAMS, SCHEMES, Scheme
from app.rules.policies import POLICIES
from app.settings import REPO_ROOT
from tools.ruleset_docs.common import (
    CHECKS_MARKER,
    DocsError,
    card_check_anchor,
    card_step_anchor,
    check_anchor,
    code,
    docstring_blocks,
    flow,
    known,
    link,
    md,
    para,
    row,
    table,
)

__all__ = ["card_sections", "chinese_name", "promises", "render_checks_page",
           "shape_descriptions", "type_words"]

CHECK_SPEC_FIELDS = frozenset({"name", "func", "scope", "last", "signature", "needs",
                               "tells_apart", "depends_on", "each_kind", "pungs_of", "pair_of",
                               "most", "tells_readings_apart", "doc"})
SHAPE_FIELDS = frozenset({"name", "read", "completes", "wilds", "melds", "kinds"})
SCHEME_FIELDS = frozenset({"value", "pay", "by_fans", "seat_factor", "prepare", "paid_by"})
SCOPES = {"reading": "reading: decided for each reading of the hand",
          "hand": "hand: decided once per hand, from the whole hand and the context"}


def chinese_name(spec: CheckSpec) -> str:
    """A check's name as its docstring starts: the Chinese name before the first colon."""
    first = inspect.cleandoc(spec.doc).splitlines()[0]
    return first.split(":", 1)[0].strip()


def type_words(ann: Any) -> str:
    """A parameter's annotation in words."""
    if ann is TileGroup:
        return f"tiles, in tile notation such as {code('19m19p19sESWNCFP')}"
    origin = typing.get_origin(ann)
    if origin in (types.UnionType, typing.Union):
        args = typing.get_args(ann)
        words = " or ".join(type_words(a) for a in args if a is not type(None))
        return words + (" or null" if type(None) in args else "")
    if origin is typing.Literal:
        return "one of " + ", ".join(code(flow(c)) for c in typing.get_args(ann))
    if origin is collections.abc.Sequence:
        (arg,) = typing.get_args(ann)
        return f"a list ({type_words(arg)} each)"
    if origin is collections.abc.Mapping:
        key, value = typing.get_args(ann)
        return f"a mapping ({type_words(key)} to {type_words(value)})"
    simple: dict[Any, str] = {bool: "true or false", int: "an integer", str: "a string"}
    if isinstance(ann, type) and ann in simple:
        return simple[ann]
    if hasattr(ann, "__supertype__"):
        return f"a mapping ({code(ann.__name__)})"
    return code(getattr(ann, "__name__", str(ann)))


def _parameters(params: Iterable[inspect.Parameter]) -> list[str]:
    rows = []
    for p in params:
        default = "required" if p.default is inspect.Parameter.empty else code(flow(p.default))
        rows.append([code(p.name), type_words(p.annotation), default])
    if not rows:
        return ["Parameters: none.", ""]
    return table(["Parameter", "Type", "Default"], rows)


def _fn(fn: Any) -> str:
    return code(getattr(fn, "__name__", str(fn)))


def promises(spec: CheckSpec) -> list[str]:
    """What a check promises the engine, in short words."""
    out = []
    if spec.last:
        out.append("decided last, and counted only when no other fan counts (无番和)")
    if spec.needs:
        out.append("needs: 0 for every reading without " + ", ".join(code(n) for n in spec.needs)
                   + ", so such readings are skipped")
    if spec.tells_apart == "nothing":
        out.append("tells apart: nothing of the groups (it reads the context and the tiles "
                   "held), so wild readings are scored once")
    elif spec.tells_apart is not None:
        out.append(f"tells apart: the groups only through {_fn(spec.tells_apart)}, so wild "
                   "readings with the same keys are scored once")
    else:
        out.append("tells apart: everything (no promise; wild readings are all scored)")
    if spec.depends_on is not None:
        out.append(f"depends on: {_fn(spec.depends_on)}; decided once per key and remembered")
    if spec.each_kind is not None:
        out.append(f"each kind: 1 exactly when every kind of tile held meets "
                   f"{_fn(spec.each_kind)}")
    if spec.pungs_of is not None:
        out.append(f"pungs of: nothing without a pung or kong of the tiles "
                   f"{_fn(spec.pungs_of)} names")
    if spec.pair_of is not None:
        out.append(f"pair of: nothing unless the pair is one of the tiles {_fn(spec.pair_of)} "
                   "names (or the reading has no single pair)")
    if spec.most is not None:
        out.append(f"most: {_fn(spec.most)} says the most times it counts in any reading "
                   "of the hand")
    if spec.tells_readings_apart is not None:
        out.append(f"tells readings apart: only through {_fn(spec.tells_readings_apart)} of "
                   "the keys of all the groups, so wild readings alike to it and to every "
                   "other check are read once")
    return out


def shape_descriptions(source: Path) -> dict[str, str]:
    """The shapes' lines of the docstring of `app/domain/shapes.py`, read from its source (a
    compiled build keeps no docstrings), by shape name."""
    tree = ast.parse(source.read_text(encoding="utf-8"))
    doc = ast.get_docstring(tree) or ""
    found: dict[str, str] = {}
    current: str | None = None
    for line in doc.splitlines():
        m = re.match(r"- `(\w+)`:? ?(.*)$", line)
        if m:
            current = m.group(1)
            found[current] = m.group(2)
        elif current is not None and line.startswith("  ") and line.strip():
            found[current] += " " + line.strip()
        else:
            current = None
    return found


def _module_docs() -> list[str]:
    lines = []
    for module in sorted({spec.func.__module__ for spec in CHECKS.values()}):
        doc = module_doc(sys.modules[module]).strip().splitlines()
        lines.append(row([code(module), md(doc[0]) if doc else ""]))
    return lines


def render_checks_page(shapes_source: Path | None = None) -> str:
    """The catalogue of the check registry, shapes, policies and payment schemes."""
    source = shapes_source or REPO_ROOT / "app" / "domain" / "shapes.py"
    known((f.name for f in dataclasses.fields(CheckSpec)), CHECK_SPEC_FIELDS, "CheckSpec")
    if dataclasses.is_dataclass(Shape):  # a compiled build's may not say
        known((f.name for f in dataclasses.fields(Shape)), SHAPE_FIELDS, "Shape")
    known((f.name for f in dataclasses.fields(Scheme)), SCHEME_FIELDS, "Scheme")
    lines = [CHECKS_MARKER, "", "# Checks, shapes, policies and payment schemes", "",
             "The vocabulary rule sets are written in. A fan of a rule set names a check and "
             "gives its parameters; the loader binds them against the check's signature when "
             "the service starts, so a rule set that names an unknown check or parameter stops "
             "the service before it serves a request. A check answers how many times its fan "
             "applies to one reading of the hand (0: absent). Each rule set's page "
             f"({link('docs/rulesets/', 'rulesets/')}) lists the checks its fans use.", "",
             "Besides its parameters, a check may promise the engine something about itself, "
             "so that the engine does less work; each promise is tested for every check that "
             "makes it:", "",
             "- needs: the check is 0 for every reading without these features, so such "
             "readings are skipped;",
             "- tells apart: what the check sees of the groups of a reading, for hands with "
             "wild tiles, whose readings are many: readings it cannot tell apart are scored "
             "once;",
             "- depends on: a key of the hand such that the check answers alike for equal "
             "keys: decided once per key and remembered;",
             "- each kind: a hand check that is 1 exactly when every kind of tile held meets a "
             "condition (decided for all such fans at once);",
             "- pungs of / pair of: the check finds nothing unless the reading holds a pung of "
             "(or its pair is) one of some tiles; other readings are not asked;",
             "- most: the most times the check can count in any reading of the hand; when "
             "every reading fan of a rule set says it, the comparison of a hand's readings "
             "stops at one reaching the most they could add up to;",
             "- tells readings apart: what the check sees of the keys of all a reading's "
             "groups together (less than the keys themselves): readings that no check tells "
             "apart are read once.", "",
             "## Checks", "",
             *table(["Check", "Name", "Scope", "Module"],
                    [[link(code(name), f"#{check_anchor(name)}"), md(chinese_name(spec)),
                      spec.scope, code(spec.func.__module__)]
                     for name, spec in sorted(CHECKS.items())]),
             "The modules:", "", "| Module | What its checks look at |", "|---|---|",
             *_module_docs(), ""]
    for name, spec in sorted(CHECKS.items()):
        params = list(check_params(spec.signature).values())
        lines += [f"### check `{name}`", "",
                  *[b + "\n" for b in docstring_blocks(spec.doc)],
                  f"Scope: {SCOPES[spec.scope]}.", "", *_parameters(params),
                  *[f"- {p}" for p in promises(spec)], ""]
    shapes = shape_descriptions(source)
    lines += ["## Winning shapes", "",
              "The ways a hand may be read, in the order readings come (a rule set breaks ties "
              "between equal readings by this order and its own priorities). A rule set admits "
              "some of them under its `shapes:`.", ""]
    for name, s in SHAPES.items():
        if name not in shapes:
            raise DocsError(f"shape {name!r} has no line in the docstring of "
                            "app/domain/shapes.py")
        lo, hi = s.kinds
        lines += [f"### shape `{name}`", "", para(shapes[name]), "",
                  f"- read with wild tiles: {'yes' if s.wilds else 'no'}",
                  "- declared melds: " + (f"at most {s.melds}" if s.melds else "none"),
                  "- kinds of standing tile: " + (f"{lo} to {hi}" if lo != hi else str(lo)),
                  ""]
    lines += ["## Combination policies", "",
              "How fans made of several chows are counted together, named by a rule set's "
              "`combination_policy:`.", ""]
    for name, policy in POLICIES.items():
        # A compiled policy's docstring is read from its source (`described`).
        lines += [f"### policy `{name}`", "", *[b + "\n" for b in docstring_blocks(
            described(policy)[0])]]
    lines += ["## Payment schemes", "",
              "What a winning hand is worth and who pays whom, named by a rule set's "
              "`payment.scheme`, with `payment.params` (each a value or `{option: name}`, a "
              "request option).", ""]
    for name, scheme in SCHEMES.items():
        sig = inspect.signature(scheme.value, eval_str=True)
        params = [p for p in sig.parameters.values()
                  if p.kind is p.KEYWORD_ONLY and p.name not in RESERVED_PARAMS]
        lines += [f"### scheme `{name}`", "", *_parameters(params),
                  "Value: " + " ".join(docstring_blocks(scheme.value.__doc__)), "",
                  "Payments: " + " ".join(docstring_blocks(scheme.pay.__doc__)), ""]
        if scheme.by_fans:
            lines += ["- by fans: it prices a hand by the fans it counts, not only by their "
                      "total."]
        if scheme.seat_factor is not None:
            lines += [f"- seat factor ({_fn(scheme.seat_factor)}), on any money between two "
                      "seats, kong money of a round included. "
                      + " ".join(docstring_blocks(scheme.seat_factor.__doc__))]
        if scheme.prepare is not None:
            lines += [f"- prepare ({_fn(scheme.prepare)}), when the rule set loads. "
                      + " ".join(docstring_blocks(scheme.prepare.__doc__))]
        if scheme.paid_by is not None:
            lines += [f"- paid by ({_fn(scheme.paid_by)}): its payments are remembered by "
                      "what they read of the context. "
                      + " ".join(docstring_blocks(scheme.paid_by.__doc__))]
        if lines[-1]:
            lines.append("")
    lines += card_sections()
    while lines and not lines[-1]:
        lines.pop()
    return "\n".join(lines) + "\n"


def _keyword_parameters(func: Callable[..., Any]) -> list[inspect.Parameter]:
    sig = inspect.signature(func, eval_str=True)
    return [p for p in sig.parameters.values() if p.kind is p.KEYWORD_ONLY]


def card_sections() -> list[str]:
    """The vocabulary of card games scored by groups: the checks of their patterns (名堂,
    `app.rules.cards.checks.CHECKS`) and the steps of their scoring pipeline
    (`app.rules.cards.steps.STEPS`), with their own docstrings."""
    lines = ["## Card games: pattern checks", "",
             "A card rule set (a rule set of " + code("family: cards") + ") names these in its "
             + code("patterns:") + " (名堂). A check answers how many times its pattern "
             "applies to the finished hand (0: absent); what the pattern is worth is the "
             "pattern's " + code("value") + " in the rule set. The loader binds the "
             "parameters by keyword when the service starts; a parameter may be a house "
             "rule's choice (" + code("{option, values, default}") + ").", "",
             *table(["Check", "Module"],
                    [[link(code(name), f"#{card_check_anchor(name)}"), code(f.__module__)]
                     for name, f in sorted(CARD_CHECKS.items())])]
    for name, func in sorted(CARD_CHECKS.items()):
        lines += [f"### card check `{name}`", "",
                  *[b + "\n" for b in docstring_blocks(func.__doc__)],
                  *_parameters(_keyword_parameters(func))]
    lines += ["## Card games: scoring steps", "",
              "A card rule set lists these in order under " + code("scoring:") + " (the list, "
              "or a house rule's choice of lists). Each step adds to the figures of the best "
              "reading: its points, the units, their parts, the multiplier and the score; "
              "the list ends with " + code("score") + ".", "",
              *table(["Step", "Module"],
                     [[link(code(name), f"#{card_step_anchor(name)}"), code(f.__module__)]
                      for name, f in STEPS.items()])]
    for name, step in STEPS.items():
        lines += [f"### step `{name}`", "",
                  *[b + "\n" for b in docstring_blocks(step.__doc__)],
                  *_parameters(_keyword_parameters(step))]
    return lines
