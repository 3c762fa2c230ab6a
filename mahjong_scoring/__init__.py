"""Bulk scoring of mahjong hands: the service's engine as a library, for logs and clusters.

One call, `score_lines`: lines of JSON requests in, lines of JSON items out, exactly what the
command-line scorer `mahjong-score` writes for the same lines (docs/bulk.md):

    from mahjong_scoring import score_lines

    for out in score_lines(open("log.jsonl", "rb"), ruleset="mcr"):
        print(out)

Each input line is a request as `POST /v1/rulesets/{ruleset}/score` (or `/waits`, or
`/analysis`, or `/match` with `match=True`: a whole match a line) takes it, with an optional
`"ruleset"` field of its own; each output line is the item `/score/batch` answers for it (for
a match, its answer as the item of a batch would hold it), `{"result": ...}` or
`{"error": ...}` (an error also names its input `line`). `analyse` and `match` answer one
request. The rule sets are the service's (`$MAHJONG_RULESETS_DIR`, else the project's
`rulesets/`), loaded once per process.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from itertools import islice
from typing import Any

from app.service.batch import analysis_item
from mahjong_scoring.lines import LineScorer, served_rulesets
from mahjong_scoring.matches import MATCH, line_scorer, match

__all__ = ["analyse", "match", "score_lines"]


def score_lines(lines: Iterable[str | bytes], ruleset: str | None = None, *,
                waits: bool = False, analysis: bool = False, match: bool = False,
                first_line: int = 1, time_limit: float | None = None) -> Iterator[str]:
    """One JSON item per line of `lines`, in order, each without a line ending.

    `lines`: JSON requests, one per item (str or bytes, with or without their line ending,
    as a file or `dask.bag.read_text` gives them). `ruleset`: the rule set of lines without
    a `"ruleset"` field (None: every line must name its own). `waits`: the lines are waits
    requests; `analysis`: analysis requests (13 or 14 tiles: shanten, useful tiles, the
    discards), as `POST .../analysis` takes them; `match`: match requests, as
    `POST .../match` takes them (each answered whole). `first_line`: the number of the first
    line, as error items report it.
    `time_limit`: the most seconds one line may take (None: no limit).

    Lines are taken `CHUNK_LINES` at a time and scored together: the items of a chunk come
    once its lines are read (or `lines` ends), not one by one as each line arrives.

    Raises ValueError at once when `ruleset` is not a served rule set, or when more than one
    of `waits`, `analysis` and `match` is asked; anything wrong with a line is that line's
    error item.
    """
    if waits + analysis + match > 1:
        raise ValueError("a line is one kind of request, not both: waits, analysis or match")
    endpoint = "waits" if waits else "analysis" if analysis else MATCH if match else "score"
    scorer = line_scorer(served_rulesets(), ruleset, endpoint, time_limit)
    return _scored(scorer, lines, first_line)


# Lines scored together (`LineScorer.lines`): enough to take the engine's steps a few
# requests at a time, few enough that the first items come at once.
CHUNK_LINES = 64


def _scored(scorer: LineScorer, lines: Iterable[str | bytes], first: int) -> Iterator[str]:
    source = iter(lines)
    while chunk := [line.encode("utf-8", errors="surrogatepass") if isinstance(line, str)
                    else line for line in islice(source, CHUNK_LINES)]:
        for encoded, _, _ in scorer.lines(chunk, first):
            yield encoded.decode("utf-8")
        first += len(chunk)


def analyse(request: Mapping[str, Any], ruleset: str) -> dict[str, Any]:
    """The discard analysis of one hand, as `POST /v1/rulesets/{ruleset}/analysis` answers
    it: `{"result": ...}`, or `{"error": <problem>}` when the request cannot be analysed.

        analyse({"hand": "123m456m789m12p5s9sE", "context": {"win_type": "self_draw"}},
                "mcr")["result"]["discards"][0]["tile"]   # "5s"

    Raises ValueError when `ruleset` is not a served rule set."""
    rulesets = served_rulesets()
    if ruleset not in rulesets:
        raise ValueError(f"no rule set {ruleset!r}; known: {', '.join(rulesets)}")
    return analysis_item(dict(request), rulesets[ruleset])
