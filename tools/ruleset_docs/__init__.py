"""Generated documentation: a page per rule set and the catalogue of the check vocabulary.

`python -m tools.ruleset_docs` (`./run docs`) writes

- `docs/rulesets/<id>.md` for every rule set of `rulesets/`, loaded by the service's loader
  (`app.rules.loader.load_rulesets`) and rendered from the document the service answers at
  `GET /v1/rulesets/{id}` (`app.service.families.ruleset_document`), so that the page and the
  API say the same; what that document leaves out (the check of each fan, the shapes, the
  parent rule set) comes from the loaded `RuleSet` and the YAML. The worked examples are the
  hand cases of `tests/cases/<id>/` and the waits cases of `tests/cases/<id>/waits/`, which
  the case tests run. With `MAHJONG_RULESETS_DIR` set, the rule sets are that directory's, as
  the service's are, and the cases those of its own `cases/` when it has one
  (`pages.source_dirs`); pages of the project's rule sets it lacks are then left alone;
- `docs/checks.md`: the registered checks (`app.rules.checks.CHECKS`), winning shapes
  (`app.domain.shapes.SHAPES`), combination policies and payment schemes, with their own
  docstrings. It depends on the registries only, never on which rule sets exist: each rule
  set's page lists the checks it uses.

`--check` writes nothing: it lists the pages that are stale, missing, or left from a rule set
that no longer exists, and exits 1 if there is any. A page starts with a generated marker (an
HTML comment); nothing on it is to be edited by hand. The pages hold tables and inline code
only, no fenced blocks.

Everything the generator renders it knows field by field: a key of the rule-set document, a
field of the settlement model or of a registry entry that it has no words for stops it with a
`DocsError` naming the field, so a new field cannot go undocumented.

The modules: `common` (markers, Markdown, anchors, the check that every field has words),
`sources` (what a rule set's page is made from, its case tables), `tile_labels`,
`settlement` and `tile_page` (a tile rule set's page), `card_page` (a card rule set's page),
`checks_page` (the catalogue), `pages` (the pages together, which are stale) and `cli`.
"""

from tools.ruleset_docs.checks_page import render_checks_page
from tools.ruleset_docs.cli import main
from tools.ruleset_docs.common import CHECKS_MARKER, DocsError, ruleset_marker
from tools.ruleset_docs.pages import (
           render_all,
           render_ruleset_page,
           render_ruleset_pages,
           stale_pages,
)

__all__ = ["CHECKS_MARKER", "DocsError", "main", "render_all", "render_checks_page",
           "render_ruleset_page", "render_ruleset_pages", "ruleset_marker", "stale_pages"]
