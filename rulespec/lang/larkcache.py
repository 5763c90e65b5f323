"""The expression parser's tables kept on disk as data, never as a pickle.

Building the LALR tables of grammars/expr.lark takes a tenth of a second,
most of a `validate` process's start. Lark's own cache would keep them as a
pickle, which runs code when loaded: a pickle another user could write (in
the shared temporary folder, or a cache folder left open) would run theirs.
Here the tables are Lark's own serialised form (dicts, lists, tuples,
strings, ints, booleans and None, as its standalone parser embeds them),
marshalled into `rulespec/grammar/expr-KEY.lark` of the user's cache
folder, sealed with a header and a CRC-32 (rulespec/source/owned.py: the
folder must be this user's and 0700, the file this user's and private, else
it is a miss, said once). KEY hashes the grammar's text, the options, Lark's
version and Python's, and the file holds its key again, so a file of another
grammar is never taken. Loading builds Lark's objects from that data by
Lark's `_load_from_dict` (what its standalone parser calls), which looks
classes up by name among Rule and TerminalDef only: nothing loaded is called.
`RULESPEC_CACHE=off` keeps nothing on disk.
"""
from __future__ import annotations

import marshal
import os
import sys

from lark import Lark, __version__ as lark_version

from rulespec.source import owned

FOLDER = "grammar"
HEADER = b"rulespec lark tables 1\n"
MAX_BYTES = 4 * 1024 * 1024


def _enabled() -> bool:
    """$RULESPEC_CACHE as compiler/cache.py reads it (the compiler is a floor above: not imported)."""
    return os.environ.get("RULESPEC_CACHE", "").strip().lower() not in ("off", "0", "no", "false")


def _key(text: str, options: dict) -> str:
    from hashlib import sha256
    named = repr([text, sorted(options.items()), lark_version, sys.version])
    return sha256(named.encode("utf-8", "surrogatepass")).hexdigest()


def parser(path: str, options: dict) -> Lark:
    """The parser of the grammar file `path` with Lark `options` (an LALR parser), from the disk cache when
    it holds this grammar's tables, else built (and kept there)."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    if not _enabled():
        return Lark(text, source_path=path, **options)
    key = _key(text, options)
    name = f"expr-{key[:32]}.lark"
    where = owned.open_folder(FOLDER)
    if where is None:
        return Lark(text, source_path=path, **options)
    with where:
        stored = _load(name, key, where)
        if stored is not None:
            return stored
        built = Lark(text, source_path=path, **options)
        _store(name, key, built, where)
        return built


def _load(name: str, key: str, where: owned.Folder) -> Lark | None:
    """The parser whose tables file `name` holds, if it is ours, whole and for `key`; else None."""
    doc = owned.unsealed(owned.read_own(name, where, MAX_BYTES), HEADER)
    if not (isinstance(doc, dict) and doc.get("key") == key and isinstance(doc.get("data"), dict)
            and isinstance(doc.get("memo"), dict)):
        return None
    try:
        return Lark._load_from_dict(doc["data"], doc["memo"])
    except Exception:                    # noqa: BLE001 - tables of another shape: built again, and replaced
        return None


def _store(name: str, key: str, built: Lark, where: owned.Folder) -> None:
    """Keep the tables of `built` as file `name` (and remove those of other grammars); failures are ignored."""
    from lark.grammar import Rule
    from lark.lexer import TerminalDef
    try:
        data, memo = built.memo_serialize([TerminalDef, Rule])
        owned.write_own(name, owned.sealed(HEADER, marshal.dumps({"key": key, "data": data, "memo": memo})), where)
        for other in os.listdir(where.fd):
            if other.startswith("expr-") and other != name:
                os.unlink(other, dir_fd=where.fd)
    except (OSError, ValueError, TypeError):
        pass                             # only a shortcut: the next process builds the tables again
