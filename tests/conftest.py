"""How the suite is spread over pytest-xdist's workers (`./run test` runs it with
`--dist loadgroup`, docs/testing.md): each test goes to the next free worker, except those
of one `xdist_group`, which run one after another on the same worker."""

from __future__ import annotations

import pytest

# A fixture of these scopes is made once for the tests of its file (or class) that use it.
SHARED_SCOPES = frozenset({"module", "class"})


def _shares_a_fixture(item: pytest.Item) -> bool:
    """Whether the test uses a fixture made once for several tests of its file. pytest keeps
    the fixtures of a test function in `_fixtureinfo` (as plugins read them); where it does
    not, no test is grouped: each fixture is then made once per worker that needs it."""
    info = getattr(item, "_fixtureinfo", None)
    if info is None:  # not a test function (no fixtures)
        return False
    # The last definition of a name is the one that applies to this test.
    return any(defs and defs[-1].scope in SHARED_SCOPES
               for defs in info.name2fixturedefs.values())


@pytest.hookimpl(tryfirst=True)  # before xdist reads the groups
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The tests of a file that share a module- or class-scoped fixture (a server, generated
    logs or code) form the file's group: the fixture is made once, as in one process, rather
    than once per worker that runs one of them. A test that names its own group keeps it.
    Without xdist (`-p no:xdist`) there are no groups (nor their marker)."""
    if not config.pluginmanager.has_plugin("xdist"):
        return
    for item in items:
        if item.get_closest_marker("xdist_group") is None and _shares_a_fixture(item):
            item.add_marker(pytest.mark.xdist_group(item.nodeid.split("::", 1)[0]))
