"""Find rulesets by id or path and resolve `extends:` into one merged document.

Merging: mappings merge key by key (recursively), any other value (lists
included) replaces the inherited one, and `null` removes an inherited key.
Every value keeps the span of the file that wrote it, so an error in an
inherited part names the inherited file.
"""
from __future__ import annotations

import hashlib
import os
import re
import stat
from functools import lru_cache
from pathlib import Path

from rulespec.errors import RulespecError, Span, did_you_mean
from rulespec.source.files import MAX_BYTES, check_name_length, kind_of, read_regular

# The YAML loader and the schema validator (PyYAML, jsonschema) are imported by the functions that
# read documents: locating a ruleset (all a compile-cache hit needs, compiler/cache.py) needs neither.

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


# Never a ruleset, whatever their names: the kernel's views of processes, devices and itself.
SYSTEM_TREES = (Path("/proc"), Path("/sys"), Path("/dev"))
SUFFIXES = (".yaml", ".yml")
# A transcript may also be written as JSON, which is valid YAML (shared/spec/transcripts.md).
TRANSCRIPT_SUFFIXES = SUFFIXES + (".json",)


def is_path_ref(ref: str | Path, suffixes: tuple[str, ...] = SUFFIXES) -> bool:
    """Whether a reference names a file (a path) rather than a shipped id."""
    text = str(ref)
    return isinstance(ref, Path) or "/" in text or "\\" in text or text.lower().endswith(suffixes)


def locate(ref: str | Path, *, relative_to: Path | None = None, span: Span | None = None,
           root: str | Path | None = None, transcript: bool = False) -> Path:
    """The file of a ruleset (or transcript) given as a shipped id or a path; the one place references resolve.

    A path is relative to `relative_to` (the folder of the file that names
    it; the working folder when None), and must name a regular file whose
    real path (links resolved) ends in .yaml or .yml (or .json for a
    `transcript`), outside /proc, /sys and /dev, and under `root` when one
    is given. Anything else is one error at `span`. The path is returned as
    written (joined to `relative_to`), so messages name the file as the
    author knows it.
    """
    suffixes = TRANSCRIPT_SUFFIXES if transcript else SUFFIXES
    text = str(ref)
    check_name_length(text, span)
    if not is_path_ref(ref, suffixes):
        path = rulesets_dir() / f"{text}.yaml"
        if not path.is_file():
            raise RulespecError(
                f"unknown ruleset '{text}'; expected a shipped id or a path to a .yaml file"
                f"{did_you_mean(text, shipped_ids())}", span)
        return path
    path = Path(text)
    if not path.is_absolute() and relative_to is not None:
        path = Path(relative_to) / path
    check_name_length(str(path), span)
    real = Path(os.path.realpath(path))
    # The root first: a refusal of a file out of it says nothing of where its path leads (its real path would
    # show a stranger the working folder by /proc/self/cwd, or where a link of the root points).
    if root is not None:
        top = Path(os.path.realpath(root))     # '' is the current folder
        if real != top and top not in real.parents:
            named = str(root) or "."
            named += f" ({top})" if named != str(top) else ""
            raise RulespecError(f"no ruleset file '{text}' under the root folder {named}: only files under it "
                                f"may be read", span)
    if not real.name.lower().endswith(suffixes):
        shown = "its name" if str(real) == text else f"its real path {real}"
        ends = ", ".join(suffixes[:-1]) + " or " + suffixes[-1]
        raise RulespecError(f"no ruleset file '{text}': {shown} does not end in {ends} (expected a "
                            f"shipped id or a path to a {ends} file)", span)
    for tree in SYSTEM_TREES:
        if real == tree or tree in real.parents:
            raise RulespecError(f"no ruleset file '{text}': {tree} holds no rulesets", span)
    try:
        mode = os.stat(real).st_mode
    except OSError as exc:
        missing = exc.errno is not None and exc.errno in (2, 20)     # ENOENT, ENOTDIR
        raise RulespecError(f"no ruleset file '{text}'" if missing else f"cannot read '{text}': {exc.strerror}",
                            span) from None
    if not stat.S_ISREG(mode):
        raise RulespecError(f"no ruleset file '{text}': it is {kind_of(mode)}, not a regular file", span)
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
    from rulespec.source.validate import load_schema
    full = load_schema("ruleset")
    import copy
    partial = strip(copy.deepcopy(full))
    partial["required"] = full["required"]
    return partial


# A ruleset file names its id at the top level. A file reached through a reference that does not is
# no ruleset, and none of its lines is ever quoted (a stranger's `extends:` must not print a secret).
_RULESET_MARK = re.compile(rb"(?m)^[\"']?id[\"']?[ \t]*:")


def load_file(path: Path, span: Span | None = None) -> dict:
    """One ruleset file: loaded safely and validated (its sections may be partial).

    `span`: where a reference named it (extends:, a transcript's ruleset:); a
    file reached that way must look like a ruleset before any of it is shown.
    """
    from rulespec.source import yamlsafe
    from rulespec.source.validate import validate
    # Never more than the size limit in memory, never waiting on a FIFO: see files.read_regular.
    data = read_regular(path, span, what="ruleset")
    if span is not None and not _RULESET_MARK.search(data[:MAX_BYTES]):
        raise RulespecError(f"'{path}' is not a ruleset: a ruleset file has an id: at the top level", span)
    doc = yamlsafe.load(data, str(path))
    if isinstance(doc, yamlsafe.LocDict):
        doc.digest = hashlib.sha256(data).digest()   # the bytes read: the compile cache keys on them
    validate(_without_deletions(doc), _partial_schema(), what="ruleset")
    return doc


def _without_deletions(doc):
    """A file's document without its `key: null` entries, for the check of the file alone: in a mapping,
    null deletes what the file inherits (`merge`), whatever the key's type, so it is no value to check here
    (a null with nothing to delete is dropped by `merge` and reported by lint's check of the chain). Inside
    a list a null is a value (lists replace whole), so lists are kept as written."""
    from rulespec.source import yamlsafe
    if not isinstance(doc, yamlsafe.LocDict):
        return doc
    out = yamlsafe.LocDict(span=doc.span)
    out.key_spans, out.value_spans = doc.key_spans, doc.value_spans
    for key, value in doc.items():
        if value is not None:
            out[key] = _without_deletions(value)
    return out


def load_merged(ref: str | Path, *, relative_to: Path | None = None, span: Span | None = None,
                root: str | Path | None = None):
    """The ruleset document after inheritance, the chain of files it came from, and each file's document.

    Returns (merged, files, docs): `docs[i]` is `files[i]` as written, the ruleset's own first
    (lint compares each with what it inherits; `.digest` is the SHA-256 of its bytes). With `root`,
    every file must lie under that folder.
    """
    chain: list[Path] = []
    docs = []
    path = locate(ref, relative_to=relative_to, span=span, root=root)
    named_at = span
    while True:
        if path.resolve() in [p.resolve() for p in chain]:
            names = " -> ".join(p.name for p in chain + [path])
            raise RulespecError(f"extends forms a cycle: {names}", docs[-1].value_spans.get("extends"))
        if len(chain) >= MAX_EXTENDS_DEPTH:
            raise RulespecError(f"extends is nested more than {MAX_EXTENDS_DEPTH} deep",
                                docs[-1].value_spans.get("extends") if docs else span)
        doc = load_file(path, named_at)
        chain.append(path)
        docs.append(doc)
        parent = doc.get("extends")
        if parent is None:
            break
        named_at = doc.value_spans.get("extends")
        path = locate(parent, relative_to=path.parent, span=named_at, root=root)
    merged = docs[-1]
    for doc in reversed(docs[:-1]):
        merged = merge(merged, doc)
    # The whole ruleset, after inheritance, must be complete.
    from rulespec.source.validate import validate
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
    from rulespec.source import yamlsafe
    if not (isinstance(base, yamlsafe.LocDict) and isinstance(over, yamlsafe.LocDict)):
        return over
    out = yamlsafe.LocDict()
    out.span = over.span
    out.key_spans = dict(base.key_spans)
    out.value_spans = dict(base.value_spans)
    for key, value in base.items():
        out[key] = value
    for key, value in over.items():
        if value is None:
            # null deletes the inherited key; with nothing to delete it is dropped here and reported,
            # located, by lint's check of the chain (checks/lint.py, _overrides)
            if key in base:
                del out[key]
            continue
        out[key] = merge(base[key], value) if key in base else value
        out.key_spans[key] = over.key_spans.get(key)
        out.value_spans[key] = over.value_spans.get(key)
    return out
