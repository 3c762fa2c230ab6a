"""The repository's own tools, run from a checkout and never installed with the package:
the generator of the pages under docs/ (`tools.ruleset_docs`, `./run docs`), the generator of
random game logs the tests and benchmarks use (`tools.loggen`, `./run log`) and the generator
of the contract, openapi.yaml (`tools.openapi`, `./run openapi`).

They build on the service's layers (`app`); nothing in `app` or `mahjong_scoring` imports them
(an import-linter contract in pyproject.toml)."""
