"""hypothesis-jsonschema's `from_schema`, with the strategy of each sub-schema built once.

hypothesis-jsonschema draws an object one property at a time and, for each property of each
example, builds the strategy of that property's schema again (resolving its references and
bringing it to canonical form): on the contract's request bodies, whose properties are large
schemas (a hand, a context, options), that rebuilding is nearly all of a test's time. A
strategy depends only on the schema, the alphabet and the custom formats, and can be drawn
from any number of times, so it is kept per schema (as its canonical JSON): the examples drawn
are the same, at a fraction of the cost.

The module-level builder is private to hypothesis-jsonschema (pinned in the test lock); if a
release renames it, importing this module fails, naming it, rather than the tests slowing
down unseen.
"""

from __future__ import annotations

from typing import Any

import hypothesis_jsonschema._from_schema as _impl
from hypothesis_jsonschema import from_schema
from hypothesis_jsonschema._encode import encode_canonical_json

__all__ = ["from_schema"]

_BUILDER = "__from_schema"  # the module's own name for it (no name mangling at module level)
_build = _impl.__dict__.get(_BUILDER)
if not callable(_build):
    raise ImportError(f"hypothesis_jsonschema._from_schema has no {_BUILDER}: see {__name__}")

# Keyed by the schema's canonical JSON and the identities of the alphabet and formats, which
# each entry holds, so that an identity is never reused while its entry lives.
_built: dict[tuple[str, int, int], tuple[Any, Any, Any]] = {}


def _memoized(schema: Any, *, alphabet: Any, custom_formats: Any) -> Any:
    key = (encode_canonical_json(schema), id(alphabet), id(custom_formats))
    entry = _built.get(key)
    if entry is None:
        strategy = _build(schema, alphabet=alphabet, custom_formats=custom_formats)
        entry = _built[key] = (strategy, alphabet, custom_formats)
    return entry[0]


_impl.__dict__[_BUILDER] = _memoized
