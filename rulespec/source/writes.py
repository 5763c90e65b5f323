"""Writing files: never through a link, never truncating a file in place; the one way the command line writes one.

`write_file(path, text)` opens the folder the file goes in and asks it about
the name without following a link (lstat): a symbolic link is refused
whatever it points to (a cloned repository can hold one aimed at any file of
the user's), and so is anything but a regular file. The text goes into a new
file beside it (created with O_EXCL, never following a link, given the mode of
the file it replaces), is flushed to disk (fsync) and renamed over the name
(os.replace): an existing file is replaced whole, never truncated, so a
reader sees the old file or the new one, and another name of the old file (a
hard link) keeps the old text. A link put in the name's place after the check
is replaced itself by the rename, its target untouched. `inside`: a folder
below which no folder on the way may be a link either (the schema copy in a
`.rulespec/` folder that `rulespec new` found, not named by the user).

A refusal or a failure is one RulespecError that names the path and why.
"""
from __future__ import annotations

import os
import stat
from pathlib import Path

from rulespec.errors import RulespecError
from rulespec.source.files import check_name_length, kind_of, read_fd

_DIR = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_CLOEXEC", 0)
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_NEW = os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | getattr(os, "O_CLOEXEC", 0)
# Folders by descriptor (names resolved in the folder opened, not again from its path) where the system has them.
_AT = os.open in os.supports_dir_fd and os.replace in os.supports_dir_fd and os.stat in os.supports_dir_fd


class _Folder:
    """An open folder: a descriptor where names are resolved in it (POSIX), else its path."""

    def __init__(self, path: Path, fd: int | None):
        self.path, self.fd = path, fd

    def at(self, name: str) -> tuple[str, int | None]:
        """(name, dir_fd) for os calls on `name` in this folder."""
        return (name, self.fd) if self.fd is not None else (os.path.join(self.path, name), None)

    def close(self) -> None:
        if self.fd is not None:
            os.close(self.fd)


def write_file(path: str | Path, data: str | bytes, *, inside: str | Path | None = None,
               if_changed: bool = False) -> bool:
    """Write `data` (text as UTF-8) to `path`, replacing a regular file atomically; True when written.

    Refused, with the path and the reason: a symbolic link at `path` (or, with `inside`, at any folder
    between `inside` and it), or anything there but a regular file. The folders on the way are
    created. `if_changed`: leave a file that already holds `data` as it is (and return False).
    """
    if not str(path):          # an unset variable in a script: an error, never the current folder
        raise RulespecError("cannot write '': an empty name names no file")
    folder_like = str(path).endswith(("/", os.sep))       # Path("x/") would drop the slash and write x
    path = Path(path)
    check_name_length(str(path), None)
    if folder_like or path.name in ("", ".", ".."):
        raise RulespecError(f"cannot write '{path}{os.sep * folder_like}': it names a folder, not a file")
    raw = data.encode("utf-8") if isinstance(data, str) else data
    folder = _open_folder(path, None if inside is None else Path(inside))
    try:
        name, where = folder.at(path.name)
        try:
            st = os.stat(name, dir_fd=where, follow_symlinks=False)
        except FileNotFoundError:
            st = None
        except OSError as exc:
            raise _failure(path, exc) from None
        if st is not None:
            if stat.S_ISLNK(st.st_mode):
                raise _link_refusal(path, path, name, where)
            if not stat.S_ISREG(st.st_mode):
                raise RulespecError(f"{path}: cannot write it: it is {kind_of(st.st_mode)}, not a regular file")
            if if_changed and st.st_size == len(raw) and _read(name, where) == raw:
                return False
        _replace(path, folder, raw, None if st is None else stat.S_IMODE(st.st_mode))
        return True
    finally:
        folder.close()


def _open_folder(path: Path, inside: Path | None) -> _Folder:
    """The folder `path` goes in, created if missing. Without `inside` it is opened as named (links in
    the folders a user names are the user's); with it, each folder below `inside` is opened without
    following a link."""
    if inside is None:
        top, parts = path.parent, ()
    else:
        top, parts = inside, path.parent.relative_to(inside).parts
    try:
        os.makedirs(top, exist_ok=True)
        fd = os.open(top, _DIR) if _AT else None
    except OSError as exc:
        raise RulespecError(f"{path}: cannot write it: the folder {top}: {exc.strerror or exc}") from None
    folder = _Folder(top, fd)
    for part in parts:
        here = folder.path / part
        name, where = folder.at(part)
        try:
            try:
                os.mkdir(name, 0o777, dir_fd=where)
            except FileExistsError:
                pass
            st = os.stat(name, dir_fd=where, follow_symlinks=False)
            if stat.S_ISLNK(st.st_mode):
                raise _link_refusal(path, here, name, where)
            if not stat.S_ISDIR(st.st_mode):
                raise RulespecError(f"{path}: cannot write it: {here} is {kind_of(st.st_mode)}, not a folder")
            fd = os.open(name, _DIR | _NOFOLLOW, dir_fd=where) if _AT else None
        except OSError as exc:
            folder.close()
            raise RulespecError(f"{path}: cannot write it: {here}: {exc.strerror or exc}") from None
        except RulespecError:
            folder.close()
            raise
        folder.close()
        folder = _Folder(here, fd)
    return folder


def _replace(path: Path, folder: _Folder, raw: bytes, mode: int | None) -> None:
    """A new file beside `path` holding `raw` (with `mode`, else the umask's), flushed, renamed over it."""
    tmp = f".rulespec-{os.urandom(6).hex()}.tmp"       # short: the name beside a 255-byte name still fits
    tmp_name, where = folder.at(tmp)
    try:
        fd = os.open(tmp_name, _NEW, 0o666, dir_fd=where)
    except OSError as exc:
        raise _failure(path, exc) from None
    try:
        try:
            if mode is not None and hasattr(os, "fchmod"):
                os.fchmod(fd, mode)
            view = memoryview(raw)
            while view:
                view = view[os.write(fd, view):]
            os.fsync(fd)
        finally:
            os.close(fd)
        final, _ = folder.at(path.name)
        os.replace(tmp_name, final, src_dir_fd=where, dst_dir_fd=where)
    except BaseException as exc:
        try:
            os.unlink(tmp_name, dir_fd=where)
        except OSError:
            pass
        if isinstance(exc, OSError):
            raise _failure(path, exc) from None
        raise
    if folder.fd is not None:
        try:
            os.fsync(folder.fd)      # the rename itself on disk; a file system that cannot say so is no error
        except OSError:
            pass


def _read(name: str, where: int | None) -> bytes | None:
    """The bytes of a regular file, opened without following a link (None if it cannot be read so)."""
    try:
        fd = os.open(name, os.O_RDONLY | _NOFOLLOW | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0),
                     dir_fd=where)
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        return read_fd(fd)
    except OSError:
        return None
    finally:
        os.close(fd)


def _link_refusal(path: Path, link: Path, name: str, where: int | None) -> RulespecError:
    """The refusal of a write that would go through the symbolic link `link`."""
    try:
        target = f" (to {os.readlink(name, dir_fd=where)})"
    except OSError:
        target = ""
    what = "it is" if link == path else f"{link} is"
    return RulespecError(f"{path}: refusing to write it: {what} a symbolic link{target}, and rulespec never writes "
                         f"through one; remove the link or choose another file")


def _failure(path: Path, exc: OSError) -> RulespecError:
    return RulespecError(f"{path}: cannot write it: {exc.strerror or exc}")
