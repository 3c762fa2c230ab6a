"""Reading rule-set files: strict YAML, and a rule set that `extends: <id>` another merged
with its parent's definition.

A rule set may `extends: <id>` another in the same directory: it starts from the parent's
definition, so that a variant holds only what differs. Top-level keys it gives replace the
parent's, but for three lists and maps that merge entry by entry:

- `fans`: an entry whose id the parent has is laid over the parent's fan key by key (a key
  given replaces the parent's, a key given as null drops it); other entries are added.
  `remove_fans: [...]` drops parent fans.
- `shapes`: a shape given replaces the parent's entry for that shape; a shape given as null
  is no longer admitted.
- `options`: an option whose name the parent has replaces it; others are added.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml

from app.rules.errors import RuleSetError

# libyaml's parser where PyYAML has it (its wheels do): the same documents as PyYAML's own
# parser, many times faster, which every start of the service and every reader of case files
# feels; PyYAML's pure-Python parser otherwise.
_SafeLoader: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def load_yaml(stream: Any) -> Any:
    """`yaml.safe_load`, by libyaml where PyYAML has it."""
    return yaml.load(stream, Loader=_SafeLoader)  # a safe loader: no arbitrary objects


class _StrictLoader(_SafeLoader):  # type: ignore[misc,valid-type]
    """yaml.safe_load that refuses a key given twice in one mapping (PyYAML keeps the last)."""


def _no_duplicates(loader: Any, node: yaml.MappingNode, deep: bool = False) -> Any:
    seen: set[Any] = set()
    for key_node, _ in node.value:
        key = loader.construct_object(key_node, deep=deep)
        if key in seen:
            raise yaml.constructor.ConstructorError(
                None, None, f"key {key!r} is given twice", key_node.start_mark)
        seen.add(key)
    return loader.construct_mapping(node, deep)


_StrictLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _no_duplicates)


def read_rule_files(directory: Path) -> dict[str, tuple[Path, dict[str, Any]]]:
    """Every `*.yaml` in `directory` by id, with its path; the file name (without .yaml) must
    be the id."""
    raw: dict[str, tuple[Path, dict[str, Any]]] = {}
    for path in sorted(directory.glob("*.yaml")):
        try:
            with path.open(encoding="utf-8") as fh:
                data = yaml.load(fh, Loader=_StrictLoader)  # a SafeLoader: no arbitrary objects
        except yaml.YAMLError as exc:
            raise RuleSetError(f"{path.name}: not valid YAML: {exc}") from exc
        if not isinstance(data, dict):
            raise RuleSetError(f"{path.name}: the top level must be a mapping")
        rid = data.get("id")
        if rid != path.stem:
            raise RuleSetError(f"{path.name}: field 'id' must be {path.stem!r} (got {rid!r})")
        raw[rid] = (path, data)
    if not raw:
        raise RuleSetError(f"no rule sets (*.yaml) found in {directory}")
    return raw


def parents_first(raw: Mapping[str, tuple[Path, dict[str, Any]]]) -> list[str]:
    """The ids of `raw`, each rule set after the ones it extends."""
    # Parents first, so that a mistake in a parent is reported against the parent's file.
    order: list[str] = []
    for rid in raw:
        resolve(rid, raw, ())  # also rejects unknown parents and cycles
        chain = [rid]
        parent = raw[rid][1].get("extends")
        while isinstance(parent, str):
            chain.append(parent)
            parent = raw[parent][1].get("extends")
        order.extend(r for r in reversed(chain) if r not in order)
    return order


def resolve(rid: str, raw: Mapping[str, tuple[Path, dict[str, Any]]],
            chain: tuple[str, ...]) -> tuple[dict[str, Any], dict[str, str]]:
    """The rule set with its parents merged in, and the file each fan comes from."""
    path, data = raw[rid]
    parent = data.get("extends")
    own = {f["id"]: path.name for f in data.get("fans") or []
           if isinstance(f, dict) and isinstance(f.get("id"), str)}
    if parent is None:
        if "remove_fans" in data:
            raise RuleSetError(f"{path.name}: field 'remove_fans': only a rule set that "
                               "`extends` another can remove fans")
        return dict(data), own
    if not isinstance(parent, str):
        raise RuleSetError(f"{path.name}: field 'extends' must be a rule set id")
    if parent in chain or parent == rid:
        start = chain.index(parent) if parent in chain else len(chain)
        loop = (*chain[start:], rid, parent)
        raise RuleSetError(f"{path.name}: field 'extends': cycle {' -> '.join(loop)}")
    if parent not in raw:
        raise RuleSetError(f"{path.name}: field 'extends': unknown rule set {parent!r}")
    base, origins = resolve(parent, raw, (*chain, rid))
    merged = {k: v for k, v in base.items() if k not in ("fans", "remove_fans", "extends")}
    merged.update({k: v for k, v in data.items() if k not in ("fans", "remove_fans")})
    if isinstance(base.get("shapes"), dict) and isinstance(data.get("shapes"), dict):
        shapes = {**base["shapes"], **data["shapes"]}
        merged["shapes"] = {k: v for k, v in shapes.items() if v is not None}
    if isinstance(base.get("options"), list) and isinstance(data.get("options"), list):
        merged["options"] = _merge_by(base["options"], data["options"], "name")
    if not ("fans" in base or "fans" in data or "remove_fans" in data):
        return merged, {**origins, **own}  # a family without fans (the card games)
    fans = list(base.get("fans") or [])
    removed = data.get("remove_fans") or []
    if not isinstance(removed, list):
        raise RuleSetError(f"{path.name}: field 'remove_fans' must be a list of fan ids")
    known = {f.get("id") for f in fans if isinstance(f, dict)}
    for fid in removed:
        if not isinstance(fid, str) or fid not in known:
            raise RuleSetError(f"{path.name}: field 'remove_fans': unknown fan {fid!r}")
    fans = [f for f in fans if not (isinstance(f, dict) and f.get("id") in removed)]
    merged["fans"] = _merge_by(fans, data.get("fans") or [], "id", key_by_key=True)
    return merged, {**origins, **own}


def _merge_by(base: list[Any], given: list[Any], key: str,
              key_by_key: bool = False) -> list[Any]:
    """`base` with the entries of `given` in: an entry whose `key` an entry of `base` has
    takes its place (laid over it `key_by_key`, a null value dropping the key), the others
    are added at the end. Entries that are not mappings are kept for validation to refuse."""
    out = list(base)
    index = {e.get(key): i for i, e in enumerate(out) if isinstance(e, dict)}
    for entry in given:
        name = entry.get(key) if isinstance(entry, dict) else None
        if name is not None and name in index:
            old = out[index[name]]
            if key_by_key:
                laid = {**old, **entry}
                entry = {k: v for k, v in laid.items() if v is not None}
            out[index[name]] = entry
        else:
            out.append(entry)
    return out
