"""A bound check as the engine calls it (`FanStep.call` with `FanStep.args`, made by
`registry.engine_call`) answers as the bound check itself, on every reading of random MCR
hands; a compiled check's is the compiled function with the bound values in order (one with
keyword-only parameters: a function naming its keywords), and its bound parameters read back
unchanged."""

from __future__ import annotations

import functools

from app.domain.shapes import decompose
from app.rules.checks import CHECKS, bound_params, engine_call, positional
from app.rules.model import RuleSet
from app.rules.view import HandFacts, View
from tests.loaded import repo_rulesets
from tests.mcr_reference.generator import generate

MCR = repo_rulesets()["mcr"]
assert isinstance(MCR, RuleSet)


def test_a_compiled_partial_is_called_by_name_with_its_parameters() -> None:
    def keyword_only(v: object, ctx: object, *, kind: str, times: int = 1) -> str:
        return f"{v} {ctx} {kind} {times}"

    plain = functools.partial(keyword_only, kind="identical")
    # A plain function's partial is made positional by `bind_check`'s own way, not this one.
    assert positional(plain) is plain
    compiled = functools.partial(divmod)  # no code object, as a compiled check; no keywords
    assert positional(compiled) is compiled
    by_name = functools.partial(int.from_bytes, signed=True)  # keywords: through a function
    call = positional(by_name)
    assert call is not by_name and call(b"\xff", "little") == -1 == by_name(b"\xff", "little")
    check = CHECKS["chow_combination"].func
    if not hasattr(check, "__code__"):  # the compiled build
        bound = functools.partial(check, kind="identical")
        assert engine_call(bound) == (check, ("identical",))
        assert bound_params(bound) == {"kind": "identical"}
        # The bound values in the order of the parameters, defaults filled in.
        among = CHECKS["pungs_among"].func
        assert engine_call(functools.partial(among, exactly=3, tiles=frozenset({1}))) == (
            among, (frozenset({1}), 3, False, None))


def test_a_check_with_keyword_only_parameters_is_called_by_name() -> None:
    by_name = functools.partial(int.from_bytes, signed=True)  # `signed` is keyword-only
    call, args = engine_call(by_name)
    assert args == () and call(b"\xff", "little") == -1


def test_every_fan_called_as_the_engine_calls_it_answers_as_its_check() -> None:
    asked = 0
    for case in generate(150, 11).cases:
        facts = HandFacts(case.hand, case.ctx, MCR.tileset, MCR.plan.shapes_for({}))
        for reading in decompose(case.hand, MCR.plan.shape_names, MCR.tileset):
            view = View(reading, facts, None)
            shape = MCR.plan.shapes[reading.shape]
            for step in (*shape.hand, *shape.reading):
                assert (step.call(view, case.ctx, *step.args)
                        == step.check(view, case.ctx)), step.fan.id
                asked += 1
    assert asked > 10_000
