"""``python -m tools.ruleset_docs`` (``./run docs``): write the generated pages, or check them."""

from tools.ruleset_docs.cli import main

raise SystemExit(main())
