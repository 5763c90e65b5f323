"""What `rulespec list` shows of each shipped ruleset (id, base, description, source), read from the files'
top-level keys alone: no schema, no expressions, no compiling (which took `list` 1.8 s for 44 rulesets).

The shipped rulesets are the package's own files, checked by its test suite (tests/test_shipped_rulesets.py);
their summaries are the fields `model.load` gives (tests/test_list.py compares them for every one)."""
from __future__ import annotations

from typing import NamedTuple


class Summary(NamedTuple):
    id: str
    base: str | None        # the ruleset it extends, None for none
    description: str
    source: str


def shipped_summaries() -> list[Summary]:
    """Every shipped ruleset's summary, sorted by id; a key a ruleset leaves out is its base's, as merging
    gives it."""
    import yaml

    from rulespec.source.rulesets import rulesets_dir, shipped_ids
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    folder = rulesets_dir()
    docs = {}
    for rid in shipped_ids():
        with open(folder / f"{rid}.yaml", encoding="utf-8") as f:
            docs[rid] = yaml.load(f, Loader=loader) or {}

    def key(rid: str, name: str, depth: int = 0):
        doc = docs.get(rid) or {}
        if name in doc or depth > 16 or doc.get("extends") not in docs:
            return doc.get(name)
        return key(doc["extends"], name, depth + 1)
    return [Summary(docs[rid].get("id", rid), docs[rid].get("extends"), key(rid, "description") or "",
                    key(rid, "source") or "") for rid in docs]
