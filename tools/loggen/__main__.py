"""``python -m tools.loggen`` (``./run log``): the log generator's command line."""

from tools.loggen.cli import main

raise SystemExit(main())
