"""Find rulesets by id or path and resolve `extends:` into one merged document.

Merging: mappings merge key by key (recursively), any other value (lists
included) replaces the inherited one, and `null` removes an inherited key.
Every value keeps the span of the file that wrote it, so an error in an
inherited part names the inherited file.
"""
from __future__ import annotations

import copy
import os
from functools import lru_cache
from pathlib import Path

from rulespec.errors import RulespecError, Span, did_you_mean
from rulespec.source import yamlsafe
from rulespec.source.validate import load_schema, validate

_PKG = Path(__file__).resolve().parent.parent
MAX_EXTENDS_DEPTH = 16


def rulesets_dir() -> Path:
    """The shipped rulesets: rulespec/rulesets (in a checkout, a link to the top-level rulesets/)."""
    candidate = _PKG / "rulesets"
    if candidate.is_dir():
        return candidate
    raise RulespecError("cannot find the shipped rulesets folder (a broken installation?)")


def shipped_ids() -> list[str]:
    """Ids of every shipped ruleset, sorted."""
    return sorted(p.stem for p in rulesets_dir().glob("*.yaml"))


def locate(ref: str | Path, *, relative_to: Path | None = None, span: Span | None = None) -> Path:
    """The file of a ruleset given as a shipped id or a path."""
    text = str(ref)
    if isinstance(ref, Path) or "/" in text or text.endswith((".yaml", ".yml")):
        path = Path(text)
        if not path.is_absolute() and relative_to is not None:
            path = relative_to / path
        if not path.is_file():
            raise RulespecError(f"no ruleset file '{text}'", span)
        return path
    path = rulesets_dir() / f"{text}.yaml"
    if not path.is_file():
        raise RulespecError(
            f"unknown ruleset '{text}'; expected a shipped id or a path to a .yaml file"
            f"{did_you_mean(text, shipped_ids())}", span)
    return path


@lru_cache(maxsize=None)
def _partial_schema() -> dict:
    """The ruleset schema without nested `required`: one file of a chain may give part of a section."""
    def strip(node):
        if isinstance(node, dict):
            return {k: strip(v) for k, v in node.items() if k != "required"}
        if isinstance(node, list):
            return [strip(v) for v in node]
        return node
    full = load_schema("ruleset")
    partial = strip(copy.deepcopy(full))
    partial["required"] = full["required"]
    return partial


def load_file(path: Path) -> dict:
    """One ruleset file: loaded safely and validated (its sections may be partial)."""
    try:
        # Never more than the size limit in memory: a huge file is refused by its size alone.
        with open(path, "rb") as handle:
            yamlsafe.check_size(os.fstat(handle.fileno()).st_size, str(path))
            data = handle.read(yamlsafe.MAX_BYTES + 1)
    except OSError as exc:
        raise RulespecError(f"cannot read {path}: {exc.strerror}") from None
    doc = yamlsafe.load(data, str(path))
    validate(doc, _partial_schema(), what="ruleset")
    return doc


def load_merged(ref: str | Path, *, relative_to: Path | None = None, span: Span | None = None):
    """The ruleset document after inheritance, the chain of files it came from, and each file's document.

    Returns (merged, files, docs): `docs[i]` is `files[i]` as written, the ruleset's own first
    (lint compares each with what it inherits).
    """
    chain: list[Path] = []
    docs = []
    path = locate(ref, relative_to=relative_to, span=span)
    while True:
        if path.resolve() in [p.resolve() for p in chain]:
            names = " -> ".join(p.name for p in chain + [path])
            raise RulespecError(f"extends forms a cycle: {names}", docs[-1].value_spans.get("extends"))
        if len(chain) >= MAX_EXTENDS_DEPTH:
            raise RulespecError(f"extends is nested more than {MAX_EXTENDS_DEPTH} deep",
                                docs[-1].value_spans.get("extends") if docs else span)
        doc = load_file(path)
        chain.append(path)
        docs.append(doc)
        parent = doc.get("extends")
        if parent is None:
            break
        path = locate(parent, relative_to=path.parent, span=doc.value_spans.get("extends"))
    merged = docs[-1]
    for doc in reversed(docs[:-1]):
        merged = merge(merged, doc)
    # The whole ruleset, after inheritance, must be complete.
    validate(merged, "ruleset", what="ruleset")
    return merged, chain, tuple(docs)


def note_inherited(errors: list[RulespecError], files) -> list[RulespecError]:
    """Errors located in a base file say which ruleset inherited them (the file itself is in the location)."""
    if len(files) < 2:
        return errors
    own = str(files[0])
    out = []
    for err in errors:
        for e in err.all:
            if e.span is not None and e.span.file != own and str(e.span.file) in map(str, files):
                e = type(e)(f"{e.message} (inherited by {files[0].name})", e.span)
            out.append(e)
    return out


def merge(base, over):
    """`over` laid on `base`: mappings merge, null deletes, anything else replaces."""
    if not (isinstance(base, yamlsafe.LocDict) and isinstance(over, yamlsafe.LocDict)):
        return over
    out = yamlsafe.LocDict()
    out.span = over.span
    out.key_spans = dict(base.key_spans)
    out.value_spans = dict(base.value_spans)
    for key, value in base.items():
        out[key] = value
    for key, value in over.items():
        if value is None and key in base:
            del out[key]
            continue
        out[key] = merge(base[key], value) if key in base else value
        out.key_spans[key] = over.key_spans.get(key)
        out.value_spans[key] = over.value_spans.get(key)
    return out
