"""Reading files from strangers: only regular files, never blocking, never more than the size limit.

`read_regular` opens without following the caller into a FIFO's wait
(O_NONBLOCK), then asks the open descriptor what it is (fstat): a FIFO, a
socket, a device or a folder is refused before a byte is read, and a file
swapped for one between a check and the open is caught the same way.
`yaml_files` walks a folder for `*.yaml`/`*.yml` and sets aside what is not a
regular file, so a batch reports it in one line and goes on.
"""
from __future__ import annotations

import os
import stat
from rulespec.errors import RulespecError, Span

TYPE_CHECKING = False            # typing's flag, without importing typing (a type checker takes it as True)
if TYPE_CHECKING:
    from pathlib import Path     # only annotations: a compile-cache hit reads files without pathlib

MAX_BYTES = 2 * 1024 * 1024   # the size limit of any file read (here, so that reading needs no YAML parser)
MAX_NAME_BYTES = 255     # one name in a path (NAME_MAX on Linux, macOS and Windows file systems)
MAX_PATH_BYTES = 4096    # a whole path (PATH_MAX on Linux)


def kind_of(mode: int) -> str:
    """What a file mode says the file is, in words."""
    for test, word in ((stat.S_ISREG, "a regular file"), (stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO"),
                       (stat.S_ISSOCK, "a socket"), (stat.S_ISCHR, "a character device"),
                       (stat.S_ISBLK, "a block device")):
        if test(mode):
            return word
    return "not a regular file"


def check_name_length(text: str, span: Span | None) -> None:
    """A path whose names the file system cannot hold: one located error, not an unlocated OSError later."""
    raw = os.fsencode(text) if "\0" not in text else None
    if raw is None:
        raise RulespecError("a file name cannot hold a NUL character", span)
    longest = max((len(part) for part in raw.split(b"/")), default=0)
    if longest > MAX_NAME_BYTES:
        raise RulespecError(f"file name too long: a name in the path has {longest} bytes, at most "
                            f"{MAX_NAME_BYTES} are possible", span)
    if len(raw) > MAX_PATH_BYTES:
        raise RulespecError(f"path too long: {len(raw)} bytes, at most {MAX_PATH_BYTES} are possible", span)


def check_size(size: int, filename: str) -> None:
    """Refuse a file of more than 2 MiB before reading it."""
    if size > MAX_BYTES:
        raise RulespecError(f"file too large: {size} bytes; the limit is 2 MiB", Span(filename, 1, 1))


def read_fd(fd: int) -> bytes:
    """Everything left to read of an open file descriptor (the caller has checked what it is, and its size)."""
    chunks = []
    while chunk := os.read(fd, 1 << 20):
        chunks.append(chunk)
    return b"".join(chunks)


def read_regular(path: str | Path, span: Span | None = None, *, what: str = "file") -> bytes:
    """The bytes of a regular file (at most the size limit plus one); a located error for anything else."""
    name = str(path)
    check_name_length(name, span)
    try:
        fd = os.open(name, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise RulespecError(f"{name}: cannot read {what}: {exc.strerror or exc}", span) from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise RulespecError(f"{name}: cannot read {what}: it is {kind_of(info.st_mode)}, not a regular file", span)
        check_size(info.st_size, name) if span is None else _check_size_at(info.st_size, span, name)
        chunks, left = [], MAX_BYTES + 1
        while left > 0:
            try:
                chunk = os.read(fd, min(left, 1 << 20))
            except BlockingIOError:     # a regular file never blocks; a file system that says so is refused
                raise RulespecError(f"{name}: cannot read {what}: it would block", span) from None
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks)
    except OSError as exc:
        raise RulespecError(f"{name}: cannot read {what}: {exc.strerror or exc}", span) from None
    finally:
        os.close(fd)


def _check_size_at(size: int, span: Span, name: str) -> None:
    if size > MAX_BYTES:
        raise RulespecError(f"{name}: file too large: {size} bytes; the limit is 2 MiB", span)


def yaml_files(folder: Path, patterns: tuple[str, ...] = ("*.yaml", "*.yml")) -> tuple[list[Path], list[tuple[Path, str]]]:
    """The regular `*.yaml`/`*.yml` files (or other `patterns`) under a folder, sorted, and the others found
    there with what they are."""
    found, odd = [], []
    for pattern in patterns:
        for p in sorted(folder.rglob(pattern)):
            try:
                mode = os.stat(p).st_mode       # follows a link: what would be opened
            except OSError as exc:
                odd.append((p, exc.strerror or "unreadable"))
                continue
            if stat.S_ISREG(mode):
                found.append(p)
            elif not stat.S_ISDIR(mode):
                odd.append((p, kind_of(mode)))
    return found, odd


def skipped_line(odd: list[tuple[Path, str]]) -> str:
    """One line naming the files a batch left out, and why."""
    listed = ", ".join(f"{p} ({why})" for p, why in odd[:10])
    more = f" and {len(odd) - 10} more" if len(odd) > 10 else ""
    return f"skipped {len(odd)} file{'s' * (len(odd) != 1)} that cannot be read as transcripts: {listed}{more}"
