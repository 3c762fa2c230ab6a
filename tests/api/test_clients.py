"""Clients generated from openapi.yaml cover every operation.

- Python: `openapi-python-client` generates a client (any warning fails: a warning is how it
  says it dropped a model or an endpoint), and every operation is called through it against
  the app, its body built by the client's own models from the document's first request
  example, its answer parsed into the client's models.
- TypeScript, where node (`npm`) is on the machine (elsewhere the test is skipped, saying
  so): a small app as a user writes it (tests/api/ts_client: the plain `createClient<paths>()`
  of openapi-fetch, its packages pinned by package-lock.json and installed with `npm ci`),
  its types written by `openapi-typescript`, passes `tsc --strict`: it reads `data.fan_total`
  of a score without a cast, a picture from its own operation, and a match hand by hand (each
  answer's state posted with the next hand); a tile game's score body
  and a word-card game's are types of their own.
"""

from __future__ import annotations

import importlib
import inspect
import json
import os
import re
import shutil
import subprocess
import sys
import typing
from pathlib import Path
from typing import Any

import httpx
import pytest
import yaml
from flask import Flask

from tests.api.helpers import OPENAPI_FILE

BIN = Path(sys.executable).parent
PACKAGE = "mahjong_scoring_service_client"
# openapi-python-client reads JSON and text bodies only; the contract's own YAML document
# (`GET /openapi.yaml`, served as application/yaml) and the pictures (image/svg+xml, an SVG
# document) are read as text.
CONFIG = {"content_type_overrides": {"application/yaml": "text/plain",
                                     "image/svg+xml": "text/plain"}}
# A path parameter per operation: settle needs a rule set that settles rounds.
RULESET_OF = {"settleRound": "sichuan"}


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("client")
    config = out / "config.yaml"
    config.write_text(yaml.safe_dump(CONFIG))
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"}
    done = subprocess.run(
        [str(BIN / "openapi-python-client"), "generate", "--path", str(OPENAPI_FILE),
         "--meta", "none", "--config", str(config), "--output-path", str(out / PACKAGE)],
        capture_output=True, text=True, env=env, timeout=300, check=False)
    said = done.stdout + done.stderr
    assert done.returncode == 0, said
    assert "Warning" not in said and "Unable to" not in said and "removal" not in said, said
    return out


def _operations(spec: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [(path, method, op) for path, item in spec["paths"].items()
            for method, op in item.items() if method in ("get", "post")]


def test_every_operation_is_generated_and_answers(generated: Path, spec: dict[str, Any],
                                                  app: Flask) -> None:
    sys.path.insert(0, str(generated))
    try:
        client_module = importlib.import_module(PACKAGE)
        transport = httpx.WSGITransport(app=app)
        client = client_module.Client(base_url="http://testserver",
                                      httpx_args={"transport": transport})
        called = []
        for _path, _method, op in _operations(spec):
            op_id = op["operationId"]
            module = importlib.import_module(f"{PACKAGE}.api.{op['tags'][0]}.{_snake(op_id)}")
            call = module.sync_detailed
            params = inspect.signature(call).parameters
            kwargs: dict[str, Any] = {"client": client}
            for param in op.get("parameters", []) + spec["paths"][_path].get("parameters", []):
                if "$ref" in param or param["name"] not in params:
                    continue
                kwargs[param["name"]] = param["schema"]["enum"][0]  # a path part named here
            if "ruleset" in params:
                kwargs["ruleset"] = RULESET_OF.get(op_id, "mcr")
            if "body" in params:
                examples = op["requestBody"]["content"]["application/json"]["examples"]
                example = next(iter(examples.values()))["value"]
                model = params["body"].annotation
                model = getattr(importlib.import_module(f"{PACKAGE}.models"), model) if (
                    isinstance(model, str)) else model
                # A body of either family (tile games, word cards): the first example is a
                # tile game's, the first alternative.
                members = typing.get_args(model)
                kwargs["body"] = (members[0] if members else model).from_dict(example)
            response = call(**kwargs)
            assert response.status_code == 200, (op_id, response.content[:300])
            assert response.parsed is not None, op_id
            if op_id.startswith(("scoreHandPicture", "listWaitsPicture", "analyseHandPicture")):
                assert response.parsed.startswith("<?xml"), op_id  # the SVG document, as text
            called.append(op_id)
        assert len(called) == len(_operations(spec)) >= 10
    finally:
        sys.path.remove(str(generated))
        for name in [m for m in sys.modules if m.startswith(PACKAGE)]:
            del sys.modules[name]


def test_word_card_operations_through_the_client(generated: Path, spec: dict[str, Any],
                                                 app: Flask) -> None:
    """A word-card game's own operations (hengyang's), built and parsed by the client's own
    models (HengyangScoreRequest in, CardScoreResponse out): the client cannot send a word-card
    body to a tile game's operation, nor the other way round."""
    sys.path.insert(0, str(generated))
    try:
        models = importlib.import_module(f"{PACKAGE}.models")
        score_hand = importlib.import_module(f"{PACKAGE}.api.scoring.score_hand_hengyang")
        list_waits = importlib.import_module(f"{PACKAGE}.api.scoring.list_waits_hengyang")
        client = importlib.import_module(PACKAGE).Client(
            base_url="http://testserver", httpx_args={"transport": httpx.WSGITransport(app=app)})
        examples = spec["paths"]["/v1/rulesets/hengyang/score"]["post"]["requestBody"][
            "content"]["application/json"]["examples"]
        body = models.HengyangScoreRequest.from_dict(examples["ti_self_draw"]["value"])
        assert "ruleset" not in inspect.signature(score_hand.sync_detailed).parameters
        tile_score = importlib.import_module(f"{PACKAGE}.api.scoring.score_hand")
        assert inspect.signature(tile_score.sync_detailed).parameters["body"].annotation in (
            "ScoreRequest", models.ScoreRequest)
        response = score_hand.sync_detailed(client=client, body=body)
        assert response.status_code == 200, response.content[:300]
        parsed = response.parsed
        assert isinstance(parsed, models.CardScoreResponse)
        assert (parsed.huxi, parsed.tun, parsed.score) == (21, 6, 24)
        assert parsed.red_cards == 9
        waits_body = models.HengyangWaitsRequest.from_dict(
            {"hand": {"cards": "78x 123d 55x", "groups": [{"kind": "ti", "cards": "10101010d"},
                                                          {"kind": "chi", "cards": "2710x"}]},
             "context": {"win_type": "self_draw"}})
        response = list_waits.sync_detailed(client=client, body=waits_body)
        assert response.status_code == 200, response.content[:300]
        waits = response.parsed
        assert isinstance(waits, models.CardWaitsResponse)
        assert {w.card for w in waits.waits} == {"6x", "9x"}
    finally:
        sys.path.remove(str(generated))
        for name in [m for m in sys.modules if m.startswith(PACKAGE)]:
            del sys.modules[name]


TS_CLIENT = Path(__file__).parent / "ts_client"


@pytest.mark.skipif(shutil.which("npm") is None,
                    reason="node (npm) is not on this machine: the TypeScript client app is "
                           "built and type-checked where it is")
def test_an_openapi_fetch_app_reads_a_score_without_a_cast(tmp_path: Path) -> None:
    """The JSON operations answer JSON alone in the contract (a picture has its own
    operation), so openapi-fetch's `data` is the answer's type, not a union with a string."""
    for name in ("package.json", "package-lock.json", "tsconfig.json", "app.ts"):
        shutil.copy(TS_CLIENT / name, tmp_path / name)
    code = "\n".join(line for line in (TS_CLIENT / "app.ts").read_text().splitlines()
                     if not line.lstrip().startswith("//"))
    # No cast, no media-type choice: the score is read as the plain client types it.
    score = code[code.index("async function fanTotal"):code.index("async function best")]
    assert " as " not in code and "!" not in score.replace("!==", "") and "parseAs" not in score
    assert 'client.POST("/v1/rulesets/{ruleset}/score",' in score
    assert "createClient<paths>({" in code and "const total: number = data.fan_total" in score

    def run(*command: str) -> None:
        done = subprocess.run(list(command), cwd=tmp_path, capture_output=True, text=True,
                              timeout=600, check=False)
        assert done.returncode == 0, " ".join(command) + "\n" + done.stdout + done.stderr

    # A tile game's score body and a word-card game's are types of their own.
    (tmp_path / "bodies.ts").write_text(
        'import type { paths, components } from "./api";\n'
        'type Score = paths["/v1/rulesets/{ruleset}/score"]["post"];\n'
        'export type Body = Score["requestBody"];\n'
        'type Card = paths["/v1/rulesets/hengyang/score"]["post"];\n'
        'export type CardBody = Card["requestBody"];\n'
        'const card: components["schemas"]["HengyangScoreRequest"] = '
        '{hand: "[2710x]78x123d55x9x", context: {win_type: "flip", flipper: 1}};\n'
        "// @ts-expect-error a word-card body is not a tile game's\n"
        'export const wrong: components["schemas"]["ScoreRequest"] = card;\n',
        encoding="utf-8")
    config = json.loads((tmp_path / "tsconfig.json").read_text(encoding="utf-8"))
    config["files"] = [*config["files"], "bodies.ts"]
    (tmp_path / "tsconfig.json").write_text(json.dumps(config), encoding="utf-8")

    run("npm", "ci", "--ignore-scripts", "--no-audit", "--no-fund")
    bin_dir = tmp_path / "node_modules" / ".bin"
    run(str(bin_dir / "openapi-typescript"), str(OPENAPI_FILE), "-o", "api.d.ts")
    run(str(bin_dir / "tsc"), "-p", ".")
