"""The compile cache on disk: a ruleset compiled once loads in later processes without reading its YAML.

A compile that succeeded leaves, in the user's cache directory
(`$XDG_CACHE_HOME/rulespec/compiled` or `~/.cache/rulespec/compiled`, mode
0700, files 0600), what running it needs: the generated module and playout
(their source and their code objects, as a .pyc holds them), the playout's
memo rows of small tables and the bots' best declarations of every dealt hand,
worked out ahead (plain ints, strings, None, tuples, lists and dicts), the
spans that locate a rule failing at run time, and the names and SHA-256
digests of the files it was read from. A later process that asks for the same ruleset with
the same options, root and rulespec code loads that instead of parsing the
YAML, validating it against the schema, parsing its expressions with Lark,
checking them and generating code: only the ruleset's files are read again
and hashed.

Two files per compiled ruleset:

- `ref-H1.files`, H1 a hash of how the ruleset was named (the located path
  and its real path), the option values, the root, rulespec's own code
  (each source file's size and times, as Python's own .pyc check) and the
  Python version: the list of files the ruleset was read from (its extends
  chain), each by the name its spans use and its real path (marshalled
  after its own header and CRC-32, as an entry: no JSON to import);
- `H2.rsc`, H2 a hash of H1 and the SHA-256 of each of those files' bytes
  *as read now*: the compiled entry, content-addressed. A file edited in
  any way gives another H2, so a stale entry is never found, whatever the
  file's size or modification time.

The folders and files are opened and judged as rulespec/source/owned.py
says: folders of this user's, mode 0700, opened without following a link;
files opened through them (never following a link, never waiting on a FIFO),
used only if fstat says they are regular files of this user's that no one
else can read or write (anything else is a miss, said once on stderr). An
entry is trusted no further than we wrote it: it must also start with the
format's header and carry the CRC-32 of what follows; anything else (a
truncated write, a corrupted disk block, an unreadable file, another format)
is ignored and the ruleset is compiled again, which replaces it. Only inputs that compiled
cleanly are stored, so every error is reported by the ordinary path,
located as always. `RULESPEC_CACHE=off` (or 0, no, false) turns it off.
"""
from __future__ import annotations

import marshal
import os
import sys

# SHA-256 from CPython's own implementation where there is one (the same digests): loading hashlib's OpenSSL
# costs every process about 2 ms, more than hashing the few small inputs of a hit here takes (the entry, half
# a megabyte, is checked by CRC-32: _sealed).
try:
    from _sha2 import sha256              # CPython 3.12 and later
except ImportError:
    try:
        from _sha256 import sha256        # CPython 3.11
    except ImportError:
        from hashlib import sha256

from rulespec.errors import RulespecError, register_source
from rulespec.source import owned

FORMAT = 2
HEADER = b"rulespec compiled %d\n" % FORMAT
LIST_HEADER = b"rulespec files %d\n" % FORMAT
ENV = "RULESPEC_CACHE"
MAX_ENTRY_BYTES = 64 * 1024 * 1024
MAX_FILES = 400           # entries and their listings; beyond that the oldest half is removed (_prune)
_CODE_SUFFIXES = (".py", ".lark", ".json")


def enabled() -> bool:
    """Whether the cache is on ($RULESPEC_CACHE unset, or anything but off, 0, no, false)."""
    return os.environ.get(ENV, "").strip().lower() not in ("off", "0", "no", "false")


def open_folder() -> "owned.Folder | None":
    """The cache's folder `rulespec/compiled`, created private (the caller closes it); None when there is
    none this user alone controls (said once on stderr), or no way to tell: a system without POSIX
    ownership has no cache (rulespec/source/owned.py)."""
    return owned.open_folder("compiled")


_CODE_STAMP: list[str] = []


def code_stamp() -> str:
    """A digest of rulespec's own code (every .py, .lark and .json file's name, size, modification and change
    times, like the .pyc check), its version and the Python that runs it: what generates and runs the code."""
    if _CODE_STAMP:
        return _CODE_STAMP[0]
    package = sys.modules[__name__.split(".")[0]]      # rulespec, imported before any of its modules
    h = sha256()
    h.update(f"{FORMAT}\0{package.__version__}\0{sys.version}\0{sys.implementation.cache_tag}\0".encode())
    # The package folder, following its links to the checkout's compiler/ and grammars/ (the shipped
    # rulesets are inputs, hashed by content one by one).
    root = os.path.dirname(os.path.realpath(package.__file__))
    parts: list[str] = []
    _stamp_folder(root, "", parts)
    h.update("".join(parts).encode())
    _CODE_STAMP.append(h.hexdigest())
    return _CODE_STAMP[0]


def _stamp_folder(folder: str, rel: str, parts: list[str]) -> None:
    """Each code file's `rel/name\\0size\\0mtime\\0ctime\\0` under `folder`, as os.walk(followlinks=True) would
    reach them with its folders sorted: the folder's own files by name, then each subfolder by name (but
    __pycache__ and rulesets). By os.scandir, whose entries know what they are: a tenth of os.walk's time
    with os.stat and os.path.relpath per file, at every process's first compile."""
    try:
        with os.scandir(folder) as it:
            entries = sorted(it, key=lambda e: e.name)
    except OSError:
        return                          # as os.walk, a folder it cannot list is left out
    folders = []
    for entry in entries:
        try:
            is_dir = entry.is_dir()
        except OSError:
            is_dir = False
        if is_dir:
            if entry.name not in ("__pycache__", "rulesets"):
                folders.append(entry)
        elif entry.name.endswith(_CODE_SUFFIXES):
            st = entry.stat()
            parts.append(f"{rel}{entry.name}\0{st.st_size}\0{st.st_mtime_ns}\0{st.st_ctime_ns}\0")
    for entry in folders:
        _stamp_folder(entry.path, f"{rel}{entry.name}/", parts)


def naming_key(located: str, options_json: str, root: str | None, relative_to: str | None) -> str:
    """H1: the ruleset as named (its located path and real path), the options, the root and the code."""
    named = [FORMAT, code_stamp(), located, os.path.realpath(located), options_json, root, relative_to]
    # repr of a list of ints, strings and None: one text per list, as JSON's (which would cost an import)
    return sha256(repr(named).encode("utf-8", "surrogatepass")).hexdigest()


def entry_key(first: str, digests) -> str:
    """H2: H1 and the digest of every file of the chain, as read now."""
    h = sha256(first.encode())
    for d in digests:
        h.update(d)
    return h.hexdigest()


_sealed = owned.sealed
_unsealed = owned.unsealed


def _read_own(name: str, where) -> bytes | None:
    """The bytes of a file of the folder `where` that this user wrote for the cache, else None."""
    return owned.read_own(name, where, MAX_ENTRY_BYTES)


def _chain(name: str, where: owned.Folder) -> list[tuple[str, str]] | None:
    """The (span name, real path) of each file of the chain that `ref-H1.files` lists, else None."""
    doc = _unsealed(_read_own(name, where), LIST_HEADER)
    if not (isinstance(doc, dict) and doc.get("format") == FORMAT and isinstance(doc.get("files"), list)):
        return None
    files = doc["files"]
    if not files or not all(isinstance(f, list) and len(f) == 2 and all(isinstance(x, str) for x in f)
                            for f in files):
        return None
    return [(name, real) for name, real in files]


def _read_chain(files: list[tuple[str, str]]) -> list[bytes] | None:
    """Each file's bytes, as now; None if a name no longer leads to the same real file or one cannot be read."""
    from rulespec.source.files import read_regular
    out = []
    for name, real in files:
        if os.path.realpath(name) != real:
            return None
        try:
            out.append(read_regular(real))
        except (RulespecError, OSError):
            return None
    return out


def load(located: str, options_json: str, root: str | None, relative_to: str | None) -> dict | None:
    """The stored entry of a ruleset named so, if its files are byte for byte those it was compiled from; else None.

    On a hit each file's text is registered as loading it would (errors quote its lines).
    """
    where = open_folder()
    if where is None:
        return None
    with where:
        return _load_in(where, naming_key(located, options_json, root, relative_to))


def _load_in(where: owned.Folder, first: str) -> dict | None:
    """load's work, in the cache folder `where`, for the naming key `first`."""
    files = _chain(f"ref-{first}.files", where)
    if files is None:
        return None
    datas = _read_chain(files)
    if datas is None:
        return None
    digests = [sha256(d).digest() for d in datas]
    key = entry_key(first, digests)
    entry = _entry(f"{key}.rsc", key, where)
    if entry is None:
        return None
    try:
        # utf-8-sig's decoding (a leading BOM dropped) without importing its codec
        texts = [(d[3:] if d.startswith(b"\xef\xbb\xbf") else d).decode("utf-8") for d in datas]
    except UnicodeDecodeError:
        return None
    for (name, _real), text in zip(files, texts):
        register_source(name, text)
    entry["stamps"] = tuple((real, d) for (_name, real), d in zip(files, digests))
    entry["named"] = tuple(files)
    return entry


def _entry(name: str, key: str, where: owned.Folder) -> dict | None:
    """The payload of `H2.rsc` if it is whole (header, CRC-32 of the rest) and is the entry for `key`."""
    entry = _unsealed(_read_own(name, where), HEADER)
    if not isinstance(entry, dict) or entry.get("key") != key:
        return None
    return entry


def store(located: str, options_json: str, root: str | None, relative_to: str | None,
          files: list[tuple[str, str]], digests: list[bytes], entry: dict) -> None:
    """Keep a cleanly compiled ruleset's entry (and the list of its files); a failure to write is ignored."""
    where = open_folder()
    if where is None:
        return
    try:
        first = naming_key(located, options_json, root, relative_to)
        key = entry_key(first, digests)
        owned.write_own(f"{key}.rsc", _sealed(HEADER, marshal.dumps({**entry, "key": key})), where)
        listing = marshal.dumps({"format": FORMAT, "files": [list(f) for f in files]})
        owned.write_own(f"ref-{first}.files", _sealed(LIST_HEADER, listing), where)
        _prune(where.fd)
    except (OSError, ValueError, TypeError):
        pass                # only a shortcut: the next run compiles the ruleset again
    finally:
        os.close(where.fd)


def _prune(where: int, most: int = MAX_FILES) -> None:
    """Keep the folder `where` to `most` files: beyond that, the least recently written half go (a stale entry
    of an old rulespec or an old edit is never found again; a live one is written again on its next miss)."""
    names = os.listdir(where)
    if len(names) <= most:
        return
    dated = []
    for name in names:
        try:
            dated.append((os.stat(name, dir_fd=where, follow_symlinks=False).st_mtime_ns, name))
        except OSError:
            pass
    for _, name in sorted(dated)[: len(dated) - most // 2]:
        try:
            os.unlink(name, dir_fd=where)
        except OSError:
            pass
