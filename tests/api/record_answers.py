"""Record the service's answers to a fixed corpus of requests (tests/api/recorded_answers.jsonl.gz),
which tests/api/test_recorded_answers.py replays: a refactoring must leave every answer as it
was, byte for byte once parsed.

    python -m tests.api.record_answers          # (re)write the corpus with today's answers

Re-record only when a change of answer is intended, and say which answers changed and why in
the commit. The corpus: every hand case of every rule set (score, every fifth explained), every
waits case, and the benchmarks' bodies (bench/bodies.py: random MCR hands score and waits,
tianjin hands holding wild tiles, sichuan and chengdu hands, rounds to settle, word-card hands,
and the log generator's hands of every other tile rule set), a few batches, every rule
set's document, and every match case. Every request carries the same `X-Request-ID`, so
problem documents repeat.
"""

from __future__ import annotations

import gzip
import io
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
CORPUS = Path(__file__).with_name("recorded_answers.jsonl.gz")
REQUEST_ID = "recorded-answer"

Request = dict[str, Any]


def _bodies() -> Any:
    # Behind the standard library (bench/http.py would shadow `http`), and kept: bodies.py
    # imports its neighbours (wilds.py) when asked for tianjin hands.
    if str(ROOT / "bench") not in sys.path:
        sys.path.append(str(ROOT / "bench"))
    import bodies  # bench/bodies.py

    return bodies


def corpus() -> Iterator[Request]:
    """The requests, in a fixed order: `{"method", "path", "body"}` (body None for a GET)."""
    from app.rules.cards.model import CardRuleSet
    from tests.cases import test_cases, test_match_cases, test_waits_cases

    for i, param in enumerate(test_cases.ALL_CASES):
        rid, case = param.values
        query = "?explain=true" if i % 5 == 0 else ""
        yield {"method": "POST", "path": f"/v1/rulesets/{rid}/score{query}",
               "body": {"hand": case["hand"], "context": case["context"]}}
    for param in test_waits_cases.ALL_CASES:
        rid, case = param.values
        yield {"method": "POST", "path": f"/v1/rulesets/{rid}/waits",
               "body": {"hand": case["hand"], "context": case["context"]}}

    b = _bodies()
    seed = 20261202
    scores, waits = b.mcr_bodies(300, seed)
    for i, body in enumerate(scores):
        yield {"method": "POST",
               "path": "/v1/rulesets/mcr/score" + ("?explain=true" if i % 10 == 0 else ""),
               "body": body}
    for body in waits[:100]:
        yield {"method": "POST", "path": "/v1/rulesets/mcr/waits", "body": body}
    for body in b.tianjin_bodies(100, seed, (1, 4)):
        yield {"method": "POST", "path": "/v1/rulesets/tianjin/score", "body": body}
    for body in b.tianjin_bodies(30, seed, (0, 2), waits=True):
        yield {"method": "POST", "path": "/v1/rulesets/tianjin/waits", "body": body}
    for rid in ("sichuan", "chengdu"):
        for body in b.suit_hand_bodies(100, seed):
            yield {"method": "POST", "path": f"/v1/rulesets/{rid}/score", "body": body}
        for body in b.suit_hand_bodies(30, seed, waits=True):
            yield {"method": "POST", "path": f"/v1/rulesets/{rid}/waits", "body": body}
        for body in b.settle_bodies(40, seed):
            yield {"method": "POST", "path": f"/v1/rulesets/{rid}/settle", "body": body}
    for body in b.hengyang_bodies(100, seed):
        yield {"method": "POST", "path": "/v1/rulesets/hengyang/score", "body": body}
    for body in b.hengyang_bodies(30, seed, waits=True):
        yield {"method": "POST", "path": "/v1/rulesets/hengyang/waits", "body": body}
    rulesets = b.rulesets()
    done = {"mcr", "tianjin", "sichuan", "chengdu"}
    for rid in sorted(rulesets):
        if rid in done or isinstance(rulesets[rid], CardRuleSet):
            continue
        for body in b.log_bodies(rid, 60, seed):
            yield {"method": "POST", "path": f"/v1/rulesets/{rid}/score", "body": body}
        for body in b.log_bodies(rid, 20, seed, waits=True):
            yield {"method": "POST", "path": f"/v1/rulesets/{rid}/waits", "body": body}
    yield {"method": "POST", "path": "/v1/rulesets/mcr/score/batch",
           "body": {"requests": [*scores[:20], {"hand": 5}, "not an object"]}}
    yield {"method": "POST", "path": "/v1/rulesets/mcr/waits/batch",
           "body": {"requests": waits[:10]}}
    yield {"method": "GET", "path": "/v1/rulesets", "body": None}
    for rid in sorted(rulesets):
        yield {"method": "GET", "path": f"/v1/rulesets/{rid}", "body": None}
    for param in test_match_cases.ALL_CASES:
        rid, case = param.values
        yield {"method": "POST", "path": f"/v1/rulesets/{rid}/match",
               "body": {k: v for k, v in case.items() if k not in ("name", "expect")}}


def answer(client: Any, request: Request) -> tuple[int, Any]:
    """(status, parsed JSON answer) of `request` sent to the app's test client."""
    headers = {"X-Request-ID": REQUEST_ID}
    if request["method"] == "GET":
        response = client.get(request["path"], headers=headers)
    else:
        response = client.post(request["path"], json=request["body"], headers=headers)
    return response.status_code, json.loads(response.get_data())


def main() -> int:
    from app.api import create_app

    client = create_app({"ACCESS_LOG": False}).test_client()
    count = 0
    # mtime 0: the same answers give the same file.
    with (open(CORPUS, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as packed,
          io.TextIOWrapper(packed, encoding="utf-8") as out):
        for request in corpus():
            status, got = answer(client, request)
            if status >= 500:
                print(f"{request['path']}: {status} {got}", file=sys.stderr)
                return 1
            out.write(json.dumps({**request, "status": status, "answer": got},
                                 ensure_ascii=False, sort_keys=True) + "\n")
            count += 1
    print(f"{count} requests and their answers written to {CORPUS.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
