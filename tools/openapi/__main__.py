"""`python -m tools.openapi [--check]` (what `./run openapi` runs): write `openapi.yaml` from the
code, or, with --check, write nothing and fail when the committed file differs."""

from __future__ import annotations

import argparse
import sys

from app.settings import OPENAPI_PATH
from tools.openapi.build import generate


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="./run openapi", description=__doc__)
    parser.add_argument("--check", action="store_true",
                        help="write nothing; fail when openapi.yaml is stale")
    args = parser.parse_args(argv)
    text = generate()
    current = OPENAPI_PATH.read_text(encoding="utf-8") if OPENAPI_PATH.exists() else None
    if args.check:
        if current != text:
            print("openapi.yaml is stale: run ./run openapi", file=sys.stderr)
            return 1
        return 0
    if current != text:
        OPENAPI_PATH.write_text(text, encoding="utf-8")
        print("openapi.yaml written", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
