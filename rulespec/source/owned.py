"""The user's cache folder and its files, trusted only as far as this user alone could have written them.

Three caches keep files under `$XDG_CACHE_HOME/rulespec` (`~/.cache/rulespec` by default): the
expression parser's tables (`grammar/`, rulespec/lang/expressions.py), compiled rulesets (`compiled/`,
compiler/cache.py) and the native back end's manifests and libraries (`native/`, compiler/native.py).
What they hold is run, or loaded as code, so a file of theirs is used only when:

- its folder, and the `rulespec` folder above it, are folders of this user's open to no one else (mode
  0700), judged by the descriptor each was opened by without following a link. A folder of another
  user's, or one that group or others could write or read, is not used at all, and never chmod-ed:
  whoever could write it may already have left anything there;
- the file, opened through that folder's descriptor without following a link or waiting on a FIFO, is
  by fstat of what was opened a regular file of this user's that no one else can read or write.

Anything else is a miss (the cache's owner works the thing out again) and is said once on stderr; a file
that is simply not there is the ordinary miss, said nowhere. `sealed` and `unsealed` give the caches'
files a header and a CRC-32, which detect damage, not forgery (forging needs this user's rights).
"""
from __future__ import annotations

import errno
import gc
import marshal
import os
import stat
import sys
import zlib

TOP = "rulespec"
_DIR_FLAGS = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
# Never following a link, never waiting for a FIFO's writer; close-on-exec.
FILE_FLAGS = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
_SAID: set[str] = set()


def say_once(text: str) -> None:
    """`rulespec: TEXT` on stderr, the first time this process meets it."""
    if text not in _SAID:
        _SAID.add(text)
        print(f"rulespec: {text}", file=sys.stderr)


class Folder:
    """An open cache folder: its descriptor (`fd`, for every open in it) and its path (`path`, for messages)."""

    __slots__ = ("fd", "path")

    def __init__(self, fd: int, path: str):
        self.fd, self.path = fd, path

    def __enter__(self) -> "Folder":
        return self

    def __exit__(self, *exc) -> None:
        os.close(self.fd)


def base() -> str | None:
    """`$XDG_CACHE_HOME` (else `~/.cache`) if it is an absolute path, else None (no cache)."""
    found = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return found if os.path.isabs(found) else None


def open_folder(name: str) -> Folder | None:
    """The cache folder `rulespec/NAME` under `base()`, both created 0700 when missing (the caller closes
    it); None when either is not a private folder of this user's (said once), or on a system without
    POSIX ownership, where there is no telling."""
    if not hasattr(os, "getuid") or os.open not in os.supports_dir_fd:
        return None
    where = base()
    if where is None:
        return None
    try:
        os.makedirs(where, exist_ok=True)
        base_fd = os.open(where, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return None
    top_path = os.path.join(where, TOP)
    try:
        top = _private_dir(TOP, base_fd, top_path)
    finally:
        os.close(base_fd)
    if top is None:
        return None
    try:
        fd = _private_dir(name, top, os.path.join(top_path, name))
    finally:
        os.close(top)
    return None if fd is None else Folder(fd, os.path.join(top_path, name))


def _private_dir(name: str, dir_fd: int, shown: str) -> int | None:
    """A descriptor of folder `name` of `dir_fd` (created 0700 if missing) if it is this user's and open to
    no one else, else None (said once). Judged by the descriptor it was opened by, without following a
    link: a folder swapped for a link between a check and a use is never followed."""
    try:
        os.mkdir(name, 0o700, dir_fd=dir_fd)
    except FileExistsError:
        pass
    except OSError:
        return None                  # a folder we may not write in: no cache, as with none at all
    try:
        fd = os.open(name, _DIR_FLAGS, dir_fd=dir_fd)
    except OSError as err:
        say_once(f"not using the cache folder {shown}: {_why_not_opened(err)}")
        return None
    why = _distrust(os.fstat(fd), folder=True)
    if why is None:
        return fd
    os.close(fd)
    say_once(f"not using the cache folder {shown}: {why} (a cache folder must be this user's, mode 0700)")
    return None


def _why_not_opened(err: OSError) -> str:
    if err.errno in (errno.ELOOP, errno.ENOTDIR, getattr(errno, "EMLINK", -1)):
        return "it is a link or not a folder"
    return err.strerror or str(err)


def _distrust(st: os.stat_result, *, folder: bool) -> str | None:
    """Why a cache folder or file (by its fstat) is not to be trusted, or None if it is this user's alone."""
    kind = "folder" if folder else "regular file"
    if not (stat.S_ISDIR(st.st_mode) if folder else stat.S_ISREG(st.st_mode)):
        return f"it is not a {kind}"
    if st.st_uid != os.getuid():
        return f"it belongs to another user (uid {st.st_uid})"
    if st.st_mode & 0o077:
        return f"group or others may use it (mode {stat.S_IMODE(st.st_mode):04o})"
    return None


def open_own(name: str, where: Folder) -> tuple[int, os.stat_result] | None:
    """A descriptor (the caller closes it) and fstat of file `name` of the folder `where` if this user
    wrote it for the cache (a regular file of this user's, private); None if there is none (silent) or
    it is anything else (said once)."""
    try:
        fd = os.open(name, FILE_FLAGS, dir_fd=where.fd)
    except FileNotFoundError:
        return None
    except OSError as err:
        why = "it is a link" if err.errno == errno.ELOOP else (err.strerror or str(err))
        say_once(f"not using the cache file {os.path.join(where.path, name)}: {why}")
        return None
    try:
        st = os.fstat(fd)
        why = _distrust(st, folder=False)
    except OSError as err:
        why = err.strerror or str(err)
    if why is None:
        return fd, st
    os.close(fd)
    say_once(f"not using the cache file {os.path.join(where.path, name)}: {why} "
             f"(a cache file must be this user's, mode 0600 or 0700)")
    return None


def read_own(name: str, where: Folder, limit: int) -> bytes | None:
    """The bytes of file `name` of the folder `where` if `open_own` takes it and it holds at most
    `limit` bytes, else None."""
    opened = open_own(name, where)
    if opened is None:
        return None
    fd, st = opened
    try:
        if st.st_size > limit:
            return None
        from rulespec.source.files import read_fd
        return read_fd(fd)
    except OSError:
        return None
    finally:
        os.close(fd)


def write_own(name: str, data: bytes, where: Folder, mode: int = 0o600) -> None:
    """Write file `name` of the folder `where` atomically: a new private file (`mode`) renamed over it, so
    a link or another user's file planted at the name is replaced, never followed or kept."""
    tmp = f".tmp-{os.getpid()}-{os.urandom(8).hex()}"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
                 | getattr(os, "O_CLOEXEC", 0), mode, dir_fd=where.fd)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, name, src_dir_fd=where.fd, dst_dir_fd=where.fd)
    except BaseException:
        try:
            os.unlink(tmp, dir_fd=where.fd)
        except OSError:
            pass
        raise


def sealed(header: bytes, payload: bytes) -> bytes:
    """A file of the cache: its header, the CRC-32 of the payload, the payload. The check detects damage (a
    truncated write, a bad disk block: every burst of up to 32 bits, all but 2**-32 of the rest), not forgery:
    whoever can write the user's private folder can run code as the user anyway (docs/security.md)."""
    return header + zlib.crc32(payload).to_bytes(4, "big") + payload


def unsealed(raw: bytes | None, header: bytes):
    """The marshalled object of a file `sealed` wrote with `header` if it is whole, else None."""
    if raw is None or not raw.startswith(header):
        return None
    body = raw[len(header):]
    check, payload = body[:4], body[4:]
    if zlib.crc32(payload).to_bytes(4, "big") != check:
        return None
    # An entry of the compile cache is tens of thousands of small lists (the playout's memo rows): unmarshalled
    # with the collector on, each 700 of them start a collection, which walks everything allocated since, and
    # soon everything (about 6 ms for a shipped ruleset's entry, against 1.5 ms without). They are data, with no
    # cycles to find.
    enabled = gc.isenabled()
    gc.disable()
    try:
        return marshal.loads(payload)
    except (ValueError, EOFError, TypeError):
        return None
    finally:
        if enabled:
            gc.enable()
