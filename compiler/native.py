"""Native back end, build stage: generated C → a shared library built with the system C compiler, loaded with ctypes.

`load(compiled)` returns a `Native` for a checked, compiled ruleset: its C
source (codegen_c.py) is built once with `cc -O2 -shared -fPIC` (-O: $RULESPEC_NATIVE_OPT; -mpopcnt
where the x86-64 processor has it) in a private temporary folder, kept in the user's cache folder
(`$XDG_CACHE_HOME/rulespec/native` or `~/.cache/rulespec/native`), named by a hash of the source,
the compiler and its flags, then loaded with ctypes. `Native.run()` plays a batch of hands in one call.

A library or manifest of the cache is used only if rulespec/source/owned.py trusts it (the folder this
user's and 0700, the file this user's and private, by fstat of the file opened); a library is then
loaded through that open file (/proc/self/fd/N), so a file swapped in after the check is never the one
loaded. A manifest lets a later `simulate` run without compiling the ruleset: it holds the SHA-256 of
every file of the chain as compiled, and is used only while each still has those bytes.
`RULESPEC_CACHE=off` reads and writes neither: the library is built and loaded from a private
temporary folder, removed at once.

The compiler is `$RULESPEC_CC` when set (a name on PATH or a path; empty:
none), else the first of cc, gcc, clang on PATH. Without one, or when the
ruleset uses a construct the back end does not implement, `NativeUnavailable`
says which and where; nothing crashes.

The C playouts draw from the streams of rulespec/run/stream.py ("rulespec stream 1"), implemented
in the C exactly: the Python engine with the same seed makes the same deals and choices (the lockstep
tests; `Native.draws` shows a stream's draws as the C makes them).
"""
from __future__ import annotations

import ctypes
import marshal
import os

from rulespec.errors import RulespecError
from rulespec.source import owned

FOLDER = "native"            # rulespec/native in the user's cache folder: libraries and manifests
MANIFEST_HEADER = b"rulespec native manifest 1\n"
MANIFEST_FORMAT = 1
MAX_MANIFEST_BYTES = 1 << 20
FLAGS = ("-shared", "-fPIC", "-std=gnu99", "-w")
OPTIMISE = ("-O0", "-O1", "-O2", "-O3")


def _flags() -> tuple[str, ...]:
    """The compiler flags: -O2, or $RULESPEC_NATIVE_OPT (-O0 to -O3; the test suite builds at -O0, faster),
    and -mpopcnt on an x86-64 processor that has the instruction (`_cpu_flags`)."""
    opt = os.environ.get("RULESPEC_NATIVE_OPT", "-O2")
    if opt not in OPTIMISE:
        raise NativeUnavailable(f"RULESPEC_NATIVE_OPT must be one of {', '.join(OPTIMISE)}, found {opt!r}")
    return (opt, *FLAGS, *_cpu_flags())


_CPU_FLAGS: tuple[str, ...] | None = None


def _cpu_flags() -> tuple[str, ...]:
    """("-mpopcnt",) where this machine is x86-64 and /proc/cpuinfo lists popcnt, else ().

    The playouts count cards with __builtin_popcountll, a library call without the instruction. Only
    that one instruction, never -march=native: a library in a cache shared by machines of one
    architecture runs on all of them, and valgrind still runs it. The flag is part of the cache key,
    so a processor without popcnt builds its own library.
    """
    global _CPU_FLAGS
    if _CPU_FLAGS is None:
        _CPU_FLAGS = ()
        if os.uname().machine in ("x86_64", "amd64"):
            try:
                with open("/proc/cpuinfo") as f:
                    for line in f:
                        if line.startswith("flags"):
                            if " popcnt" in line:
                                _CPU_FLAGS = ("-mpopcnt",)
                            break
            except OSError:
                pass
    return _CPU_FLAGS
COMPILERS = ("cc", "gcc", "clang")
MASK64 = (1 << 64) - 1
# Hands in one rs_simulate call: their scores' squares (each at most codegen_c.MAX_SCORE**2) add up in int64.
MAX_BATCH = 1 << 22


class NativeUnavailable(RulespecError):
    """The native engine cannot run this ruleset here (no compiler, a construct it lacks, a failed build)."""


class NativeEndless(RulespecError):
    """Game `game` of a batch was not over after MAX_HANDS_PER_GAME hands (bots/games.py says why, located)."""

    def __init__(self, game: int):
        super().__init__(f"game {game} has not ended after {MAX_HANDS_PER_GAME} hands")
        self.game = game


class NativeLimit(NativeUnavailable):
    """A hand passed one of the native playout's fixed lists in play (located at the rule that made it);
    `--engine auto` plays the run on the Python engine instead, which keeps no such list."""


# ------------------------------------------------------------------ compiler and cache


def _sha256(text: str) -> str:
    """The SHA-256 hex digest of a text."""
    return _sha256_bytes(text.encode())


def _sha256_bytes(data: bytes) -> str:
    """The SHA-256 hex digest of bytes: from CPython's built-in module where there is one (hashlib costs
    a run served by the manifest ~4 ms of OpenSSL start-up), else hashlib's."""
    try:
        from _sha2 import sha256              # Python 3.12 and later
    except ImportError:
        try:
            from _sha256 import sha256        # Python 3.11
        except ImportError:
            from hashlib import sha256
    return sha256(data).hexdigest()


def _which(name: str) -> str | None:
    """shutil.which on POSIX without importing shutil (and bz2, lzma...) on a run served by the manifest."""
    if os.name != "posix":
        import shutil
        return shutil.which(name)
    def runnable(path):
        return os.path.isfile(path) and os.access(path, os.X_OK)
    if os.sep in name:
        return name if runnable(name) else None
    for folder in os.environ.get("PATH", os.defpath).split(os.pathsep):
        path = os.path.join(folder or os.curdir, name)
        if runnable(path):
            return path
    return None


def find_compiler() -> str | None:
    """The C compiler to use: $RULESPEC_CC (empty: none), else cc, gcc or clang on PATH; None if there is none."""
    wanted = os.environ.get("RULESPEC_CC")
    if wanted is not None:
        return _which(wanted) if wanted.strip() else None
    for name in COMPILERS:
        found = _which(name)
        if found:
            return found
    return None


def _no_compiler_message() -> str:
    wanted = os.environ.get("RULESPEC_CC")
    if wanted is not None:
        where = f"RULESPEC_CC={wanted!r} names no C compiler found on PATH" if wanted.strip() else \
            "RULESPEC_CC is empty (no C compiler)"
        return f"the native engine needs a C compiler: {where}"
    return (f"the native engine needs a C compiler and none of {', '.join(COMPILERS)} is on PATH "
            f"(install one, or set RULESPEC_CC to one)")


def _identity(cc: str) -> str:
    """What names the compiler in the cache key: its resolved path, size and modification time (no subprocess)."""
    real = os.path.realpath(cc)
    try:
        st = os.stat(real)
    except OSError as err:
        raise NativeUnavailable(f"the C compiler {cc} cannot be read: {err.strerror}") from None
    return f"{real}:{st.st_size}:{st.st_mtime_ns}"


def _cache_folder() -> "owned.Folder | None":
    """The native cache's folder `rulespec/native` (the caller closes it); None when $RULESPEC_CACHE turns the
    caches off or there is no folder this user alone controls (rulespec/source/owned.py, said once)."""
    from rulespec.compiler import cache
    return owned.open_folder(FOLDER) if cache.enabled() else None


def _library_name(source: str, cc: str, flags: tuple[str, ...]) -> str:
    """The cache's name of a library: a hash of its C source, the compiler (path, size, time) and the flags."""
    key = _sha256("\0".join([source, cc, _identity(cc), *flags]))
    return f"rs-{key[:32]}.so"


def _compiler(cc: str | None) -> str:
    cc = cc or find_compiler()
    if cc is None:
        raise NativeUnavailable(_no_compiler_message())
    return cc


def build(source: str, cc: str | None = None) -> "Path":
    """The path of the shared library of a C source: in the cache, built unless it holds a library of
    ours for this source, compiler and flags; with no cache (turned off, or no folder of this user's
    alone) built into a new private temporary folder, left to the caller."""
    from pathlib import Path
    cc = _compiler(cc)
    flags = _flags()
    name = _library_name(source, cc, flags)
    where = _cache_folder()
    if where is not None:
        with where:
            opened = owned.open_own(name, where)
            if opened is not None:
                os.close(opened[0])
                return Path(where.path) / name
            if _store_built(source, cc, flags, name, where):
                return Path(where.path) / name
    import tempfile
    folder = tempfile.mkdtemp(prefix="rulespec-native-")
    return Path(_compile_in(folder, source, cc, flags))


def _library(source: str, progress=None) -> tuple[ctypes.CDLL, str]:
    """The loaded library of a C source and its path (for messages): from the cache when it holds one of
    ours (checked on the open file, loaded through that open file), else built, kept and loaded the
    same way; with no cache, built and loaded from a private temporary folder that is removed."""
    cc = _compiler(None)
    flags = _flags()
    name = _library_name(source, cc, flags)
    where = _cache_folder()
    if where is not None:
        with where:
            lib = _open_library(name, where)
            if lib is None and _store_built(source, cc, flags, name, where, progress):
                lib = _open_library(name, where)
            if lib is not None:
                return lib, os.path.join(where.path, name)
    import shutil
    import tempfile
    folder = tempfile.mkdtemp(prefix="rulespec-native-")
    try:
        built = _compile_in(folder, source, cc, flags, progress)
        # A fresh name in a folder only this user can write: loaded as built (glibc then knows it by this
        # name, never met again); the mapping outlives the file.
        return ctypes.CDLL(built), built
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _store_built(source: str, cc: str, flags: tuple[str, ...], name: str, where: "owned.Folder",
                 progress=None) -> bool:
    """Build the library into a private temporary folder and keep it in the cache as `name` (0700, written
    anew and renamed over the name); False if it could not be kept (the caller builds without the cache)."""
    import shutil
    import tempfile
    folder = tempfile.mkdtemp(prefix="rulespec-native-")
    try:
        with open(_compile_in(folder, source, cc, flags, progress), "rb") as f:
            data = f.read()
        owned.write_own(name, data, where, 0o700)
        return True
    except OSError:
        return False
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _compile_in(folder: str, source: str, cc: str, flags: tuple[str, ...], progress=None) -> str:
    """Compile a C source into a shared library in `folder` (a new private one); its path. `progress()`:
    called as the compiler starts, then every tenth of a second until it is done."""
    import subprocess
    tmp_c = os.path.join(folder, "rs.c")
    tmp_so = os.path.join(folder, "rs.so")
    with open(tmp_c, "x", encoding="utf-8") as f:
        f.write(source)
    try:
        returncode, stderr = _run_compiler([cc, *flags, "-o", tmp_so, tmp_c], progress)
    except (OSError, subprocess.SubprocessError) as err:
        raise NativeUnavailable(f"the C compiler {cc} does not run: {err}") from None
    if returncode != 0:
        first = "\n".join(stderr.strip().splitlines()[:5])
        raise NativeUnavailable(f"the C compiler {cc} failed on the generated source (exit status {returncode})"
                                + (f"\n{first}" if first else ""))
    return tmp_so


COMPILE_SECONDS = 300       # the most a compile may take


def _run_compiler(command: list[str], progress=None) -> tuple[int, str]:
    """Run the C compiler: (its exit status, its standard error); `progress()` every tenth of a second."""
    import subprocess
    import time
    if progress is None:
        done = subprocess.run(command, capture_output=True, text=True, timeout=COMPILE_SECONDS)
        return done.returncode, done.stderr
    deadline = time.monotonic() + COMPILE_SECONDS
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) as proc:
        while True:
            progress()
            try:
                _out, stderr = proc.communicate(timeout=0.1)
                return proc.returncode, stderr
            except subprocess.TimeoutExpired:
                if time.monotonic() > deadline:
                    proc.kill()
                    raise


# (st_dev, st_ino) of each library loaded from the cache -> (the descriptor it was loaded through, kept open
# for the process's life, and the library). glibc knows a library by the name it was opened by: a
# descriptor's number closed and reused would name another file by the same /proc/self/fd/N, so none is
# closed; and an open file's inode is never reused, so its (device, inode) names it alone.
_BY_FILE: dict[tuple[int, int], tuple[int, ctypes.CDLL]] = {}


def _open_library(name: str, where: "owned.Folder") -> ctypes.CDLL | None:
    """The library `name` of the cache folder, if it is ours (owned.open_own: checked by fstat of the file
    opened), loaded through that very open file (/proc/self/fd/N), so that a file swapped in after the
    check is never the one loaded; None if there is none or it is not ours."""
    opened = owned.open_own(name, where)
    if opened is None:
        return None
    fd, st = opened
    ident = (st.st_dev, st.st_ino)
    if ident in _BY_FILE:
        os.close(fd)
        return _BY_FILE[ident][1]
    try:
        lib = ctypes.CDLL(_loadable(fd))
    except OSError:
        os.close(fd)
        return None
    _BY_FILE[ident] = (fd, lib)
    return lib


def _loadable(fd: int) -> str:
    """A path that names the open file `fd` itself: /proc/self/fd/N where there is one, else a copy of its
    bytes in a new private temporary folder (removed when the process ends)."""
    own = f"/proc/self/fd/{fd}"
    if os.path.exists(own):
        return own
    import tempfile
    folder = tempfile.mkdtemp(prefix="rulespec-native-")
    copy = os.path.join(folder, "rs.so")
    with open(copy, "xb") as out:
        while chunk := os.pread(fd, 1 << 20, out.tell()):
            out.write(chunk)
    import atexit
    import shutil
    atexit.register(shutil.rmtree, folder, True)
    return copy


# ------------------------------------------------------------------ the loaded library


_BATCH_FIELDS = ("hands", "plays", "decisions", "legal_moves", "hand_wins", "outcomes", "sums", "squares", "events",
                 "per_hand", "trace", "games", "game_hands", "game_wins", "fired", "fired_hands", "fired_points",
                 "captures", "sweeps", "raw")



class Batch:
    """What one rs_play call returns, unpacked: counts, hand wins per side, outcomes by name, sums and
    squares per (side, category), events by name, per-hand rows and a move trace (when asked for); for a
    run of games, the games, their hands and the game wins per side; with run(events=True), over the hands
    with plays, per (side, event) the times fired, hands fired in and points, and hands per number of plays
    that captured and per number of play events.

    A plain class (not a dataclass: a native run loads no module it does not need, tests/test_startup.py)."""

    __slots__ = _BATCH_FIELDS

    def __init__(self, hands, plays, decisions, legal_moves, hand_wins, outcomes, sums, squares, events, per_hand,
                 trace, games=0, game_hands=0, game_wins=None, fired=None, fired_hands=None, fired_points=None,
                 captures=None, sweeps=None):
        for name, value in zip(_BATCH_FIELDS, (hands, plays, decisions, legal_moves, hand_wins, outcomes, sums,
                                               squares, events, per_hand, trace, games, game_hands, game_wins,
                                               fired, fired_hands, fired_points, captures, sweeps)):
            setattr(self, name, value)
        self.raw = None


# rs_simulate's error codes (codegen_c.ERRORS): the message, and whether it is a limit of the C's lists.
_MESSAGES = {
    1: ("the deal checks threw in 1000 deals in a row; a deal check that holds for (nearly) every deal?", False),
    2: ("a table has more than 200000 sets of cards for one capture total; this ruleset's deck makes "
        "captures too many to list", True),
    4: ("a seat could make more than 4096 bonus declarations at once, more than the native engine lists", True),
    5: ("a turn has more than 200000 legal moves, more than the native engine lists (the capture kinds "
        "offer them)", True),
    6: ("the seat to play has no card (the native engine stops the hand)", True),
    7: ("a hand fired more play events or made more captures than the native engine counts", True),
}
BOTS = {"random": 0, "greedy": 1}     # codegen_c.BOTS: the bots rs_play plays
MAX_HANDS_PER_GAME = 1000           # the C's limit on a game (bots/games.py has the same; a test holds them equal)


class Meta:
    """What running a built ruleset needs to know of it (kept in the cache's manifest beside the library):
    id, categories, event names (the C's order), outcomes, sides per player count, player counts, default
    players, and `fired`: (name, kind, scores) of every event and bonus, as Stats.events lists them.
    A plain class, for the reason Batch is one."""

    def __init__(self, id, categories, events, outcomes, sides, player_counts, default_players, fired=()):
        self.id, self.categories, self.events, self.outcomes = id, categories, events, outcomes
        self.sides, self.player_counts, self.default_players = sides, player_counts, default_players
        self.fired = [tuple(x) for x in fired or ()]

    def __eq__(self, other):
        if other.__class__ is self.__class__:
            return self.__dict__ == other.__dict__
        return NotImplemented

    __hash__ = None

    def __repr__(self) -> str:
        return f"Meta({', '.join(f'{k}={v!r}' for k, v in self.__dict__.items())})"

    @classmethod
    def of(cls, rs) -> "Meta":
        lay = codegen_c().Layout(rs)
        from rulespec.compiler.emit_events import fired_names
        return cls(rs.id, lay.categories, lay.events, lay.outcomes, dict(rs.sides), list(rs.player_counts),
                   rs.default_players, list(fired_names(rs)))


class Native:
    """A ruleset's native playouts: `run(seed, first, count, seats)` plays a batch of hands."""

    def __init__(self, meta: Meta, lib: ctypes.CDLL, lib_path, compiled=None, ref=None, options=None,
                 root=None):
        self.meta = meta
        self._path = os.fspath(lib_path)  # where it was loaded from (for messages)
        self._compiled, self._ref, self._options, self._root = compiled, ref, options, root
        self.lib = lib
        i64p, i32p = ctypes.POINTER(ctypes.c_int64), ctypes.POINTER(ctypes.c_int32)
        fn = self.lib.rs_play
        fn.restype = ctypes.c_int
        fn.argtypes = [ctypes.c_uint64, ctypes.c_int64, ctypes.c_int64, ctypes.c_int, i32p, ctypes.c_int,
                       i64p, i64p, i32p, ctypes.c_int64, i64p, i64p, ctypes.c_int64, i64p]
        self.lib.rs_error_index.restype = ctypes.c_int64
        self.lib.rs_ruleset_id.restype = ctypes.c_char_p
        self.lib.rs_count_events.restype = None
        self.lib.rs_count_events.argtypes = [ctypes.POINTER(ctypes.c_int64)]
        self.lib.rs_event_counts_size.restype = ctypes.c_int64
        self.lib.rs_event_counts_size.argtypes = [ctypes.c_int]
        self.lib.rs_pair_rows.restype = None
        self.lib.rs_pair_rows.argtypes = [ctypes.POINTER(ctypes.c_int64)]
        self.lib.rs_pair_row_size.restype = ctypes.c_int64
        self.lib.rs_pair_row_size.argtypes = [ctypes.c_int]
        self.lib.rs_stream_draws.restype = None
        self.lib.rs_stream_draws.argtypes = [ctypes.c_uint64, ctypes.POINTER(ctypes.c_uint64), ctypes.c_int,
                                             ctypes.POINTER(ctypes.c_int32), ctypes.c_int,
                                             ctypes.POINTER(ctypes.c_uint64)]
        self.lib.rs_error_where.restype = ctypes.c_int

    @property
    def path(self):
        """Where the library was loaded from, a Path (pathlib imported only when asked: messages, the manifest)."""
        from pathlib import Path
        return Path(self._path)

    @property
    def compiled(self):
        """The compiled ruleset (if this was loaded from the cache's manifest alone: now, from the compile
        cache on disk when it holds it, as the Python engine's runs take it)."""
        if self._compiled is None:
            from rulespec.compiler.build import compile_ruleset
            self._compiled = compile_ruleset(self._ref, self._options, root=self._root, disk=True)
        return self._compiled

    @property
    def ruleset_id(self) -> str:
        return self.lib.rs_ruleset_id().decode("utf-8")

    @property
    def stream_version(self) -> int:
        """The version of the stream scheme the library draws from (rulespec/run/stream.py STREAM_VERSION)."""
        return self.lib.rs_stream_version()

    def draws(self, seed: int, path: tuple[int, ...], ops: list[int]) -> list:
        """The C's draws from the stream at `path` of `seed`: per op, 0..64 bits(op), below 0 below(-op),
        65 random() (a float); as rulespec/run/stream.py's Stream draws them (tests/test_stream.py)."""
        import struct
        p = (ctypes.c_uint64 * max(1, len(path)))(*[x & MASK64 for x in path])
        o = (ctypes.c_int32 * max(1, len(ops)))(*ops)
        out = (ctypes.c_uint64 * max(1, len(ops)))()
        self.lib.rs_stream_draws(seed & MASK64, p, len(path), o, len(ops), out)
        return [struct.unpack("<d", struct.pack("<Q", v))[0] if op == 65 else v for op, v in zip(ops, out)]

    def run(self, seed: int, first: int, count: int, seats: int, *, per_hand: bool = False,
            trace_cap: int = 0, events: bool = False, bots: list[str] | None = None, games: bool = False,
            pairs: bool = False, raw: bool = False) -> Batch:
        """Play hands (or, `games`, whole games) first..first+count-1 of the run `seed` with `seats` players,
        `bots` per seat (random or greedy; None: random); per hand rows, a move trace; `events`: simulate's
        per-event figures, captures and play events per hand. `pairs` (hands, with `per_hand`): each row also
        has what a paired comparison reads (bots/compare.py): "fired", per (side, event) that fired its
        (times, points), and "kept", the kept deal's first round (the table laid, each seat's hand). `raw` (with
        `per_hand`): the rows as the C wrote them instead, batch.raw = (rows, their stride, pair rows, their
        stride: rs_play's and rs_pair_rows' layouts; no pair rows without `pairs`), per_hand None."""
        lay = self.meta
        if pairs and (games or not per_hand):
            raise ValueError("pairs are rows of single hands: per_hand=True, games=False")
        if seats not in lay.player_counts:
            raise RulespecError(f"{lay.id} is played by {', '.join(map(str, lay.player_counts))} players, "
                                f"not {seats}")
        most = MAX_BATCH // MAX_HANDS_PER_GAME if games else MAX_BATCH
        if not 0 <= count <= most:
            raise RulespecError(f"a native batch is 0 to {most} {'games' if games else 'hands'}, not {count}")
        if bots is not None and (len(bots) != seats or any(b not in BOTS for b in bots)):
            raise RulespecError(f"the native engine plays {' or '.join(BOTS)} bots, one per seat: not {bots}")
        policy = (ctypes.c_int32 * seats)(*(BOTS[b] for b in bots)) if bots is not None else None
        k = lay.sides[seats]
        nc, ne, no = len(lay.categories), len(lay.events), len(lay.outcomes)
        shape = (ctypes.c_int32 * 4)()
        if self.lib.rs_shape(seats, shape) != 0 or list(shape) != [k, nc, ne, no]:
            # The arrays below are sized from the meta: the library must write with the same sizes.
            raise NativeUnavailable(f"the native library {self.path.name} does not match what is known of "
                                    f"ruleset {lay.id} (built for another version of it?)")
        agg = (ctypes.c_int64 * (4 + k + no + 2 * k * (nc + 2) + ne))()
        stride = 2 + k * (nc + 1) + ne
        gagg = (ctypes.c_int64 * (2 + k))()
        # A game's hands are not known before it is played: rows for a few per game, and the batch played
        # again with room for all of them where that was too few (the same hands: the streams are the run's).
        cap = (count * (8 if games else 1)) if per_hand else 0
        tr = (ctypes.c_int64 * (6 * trace_cap))() if trace_cap else None
        tl, phl = ctypes.c_int64(0), ctypes.c_int64(0)
        ev = (ctypes.c_int64 * self.lib.rs_event_counts_size(seats))() if events else None
        pstride = self.lib.rs_pair_row_size(seats) if pairs else 0
        pr = (ctypes.c_int64 * max(1, pstride * count))() if pairs else None
        while True:
            ph = (ctypes.c_int32 * (stride * cap))() if per_hand else None
            self.lib.rs_count_events(ev)
            self.lib.rs_pair_rows(pr)
            try:
                code = self.lib.rs_play(seed & MASK64, first, count, seats, policy, int(games), agg, gagg, ph, cap,
                                        ctypes.byref(phl), tr, trace_cap, ctypes.byref(tl))
            finally:
                self.lib.rs_count_events(None)
                self.lib.rs_pair_rows(None)
            if code:
                raise self._error(code)
            if phl.value <= cap or not per_hand:
                break
            cap = phl.value
            for buf in (agg, gagg, ev):
                if buf is not None:
                    ctypes.memset(buf, 0, ctypes.sizeof(buf))
        a = list(agg)
        cats = lay.categories + ["total", "margin"]
        wins = a[4:4 + k]
        pos = 4 + k
        outcomes = {name: a[pos + i] for i, name in enumerate(lay.outcomes) if a[pos + i]}
        pos += no
        sums, squares = {}, {}
        for target in (sums, squares):
            for side in range(k):
                for c, name in enumerate(cats):
                    target[(side, name)] = a[pos + side * (nc + 2) + c]
            pos += k * (nc + 2)
        events = {name: a[pos + i] for i, name in enumerate(lay.events)}
        pos += ne
        rows = None
        if per_hand and not raw:
            rows = []
            for h in range(phl.value):
                r = ph[h * stride:(h + 1) * stride]
                rows.append({
                    "plays": r[0],
                    "outcome": lay.outcomes[r[1]] if r[1] >= 0 else None,
                    "scores": [dict(zip(lay.categories + ["total"], r[2 + s * (nc + 1):2 + (s + 1) * (nc + 1)]))
                               for s in range(k)],
                    "events": {name: r[2 + k * (nc + 1) + i] for i, name in enumerate(lay.events)},
                })
            if pairs:
                _unpack_pairs(rows, list(pr), k, lay.events, seats)
        # The capture and the declared cards are 64-bit masks, kept as int64: a deck of 64 cards sets bit 63.
        trace = [(h, seat, card, cap & MASK64, dec & MASK64, wild)
                 for h, seat, card, cap, dec, wild in (tr[6 * i:6 * i + 6] for i in range(tl.value))] \
            if trace_cap else None
        batch = Batch(a[0], a[1], a[2], a[3], wins, outcomes, sums, squares, events, rows, trace,
                      gagg[0], gagg[1], list(gagg[2:]))
        if per_hand and raw:
            batch.raw = (ph[:phl.value * stride], stride, pr[:pstride * count] if pairs else [], pstride)
        if ev is not None:
            _unpack_events(batch, list(ev), k, lay.events, len(lay.events))
        return batch

    def _error(self, code: int) -> RulespecError:
        """The error of rs_simulate's code, located at the rule that caused it (NativeLimit for a limit of
        the C's lists, which the Python engine does not have)."""
        where = self.lib.rs_error_where()
        if code == 8:
            return NativeEndless(self.lib.rs_error_index())
        if code == 3:
            from rulespec.compiler.emit_c import Aux
            aux = Aux()      # the spans in the order the generator numbered them: generate again
            codegen_c().generate(self.compiled.ruleset, aux=aux)
            span = aux.errors[where - 1] if 0 < where <= len(aux.errors) else None
            return RulespecError("this rule failed: division by zero", span)     # as the Python engine says it
        message, limit = _MESSAGES.get(code, (f"the native playout failed (code {code})", False))
        checks = self.compiled.ruleset.deal_checks
        if code == 1 and 0 < where <= len(checks):     # as the Python engine words it (run/engine.py)
            message = (f"deal check '{checks[where - 1].name}' threw in 1000 deals in a row: does it hold for "
                       f"(nearly) every deal?")
        return (NativeLimit if limit else RulespecError)(message, self._span(code, where))

    def _span(self, code: int, where: int):
        """Where the ruleset writes what an error code stopped at: the deal check that threw (1), the
        capture kinds (2, 5), the hand bonuses (4), the deal (6)."""
        rs = self.compiled.ruleset
        spans = getattr(rs.doc or {}, "value_spans", {})
        if code == 1 and 0 < where <= len(rs.deal_checks):
            return rs.deal_checks[where - 1].when.span
        if code in (2, 5):
            return getattr(self.compiled.module, "CAPTURE_SPAN", None) or spans.get("capture", rs.span)
        if code == 4:
            return spans.get("hand_bonuses", rs.span)
        if code == 6:
            return spans.get("deal", rs.span)
        return rs.span


def _unpack_pairs(rows: list[dict], p: list[int], k: int, names: list[str], seats: int) -> None:
    """rs_pair_rows' buffer into the per-hand rows: "fired" (side, event) -> (times, points) where it fired;
    "kept", the kept deal's first round as the Python engine's deal_log has it (table, (hands...))."""
    ne = len(names)
    size = 2 * k * ne + 1 + seats
    for h, row in enumerate(rows):
        r = p[h * size:(h + 1) * size]
        row["fired"] = {(s, name): (r[s * ne + i], r[(k + s) * ne + i])
                        for s in range(k) for i, name in enumerate(names) if r[s * ne + i]}
        row["kept"] = (r[2 * k * ne] & MASK64, tuple(x & MASK64 for x in r[2 * k * ne + 1:]))


def _unpack_events(batch: Batch, e: list[int], k: int, names: list[str], ne: int) -> None:
    """rs_count_events' buffer into the batch: per (side, event) the figures that are not 0; the histograms."""
    def per_side(start: int) -> dict:
        return {(s, name): e[start + s * ne + i] for s in range(k) for i, name in enumerate(names)
                if e[start + s * ne + i]}
    batch.fired, batch.fired_hands, batch.fired_points = per_side(0), per_side(k * ne), per_side(2 * k * ne)
    pos = 3 * k * ne
    # the rest: N_CARDS + 1 capture counts, then 2 * N_CARDS * (ne + 1) + 1 play-event counts (codegen_c SW_N)
    n_cards = (len(e) - pos - 2) // (2 * ne + 3)
    caps, swept = e[pos:pos + n_cards + 1], e[pos + n_cards + 1:]
    batch.captures = {c: v for c, v in enumerate(caps) if v}
    batch.sweeps = {c: v for c, v in enumerate(swept) if v}


def codegen_c():
    """compiler/codegen_c.py, imported when first needed (a run from the cache's manifest never needs it)."""
    from rulespec.compiler import codegen_c as module
    return module


_LOADED: dict[str, Native] = {}
# id(compiled) -> (compiled, its source's digest in _LOADED): the compiled ruleset kept, so that its id is
# never another's
_BY_COMPILED: dict[int, tuple] = {}


def source_of(compiled) -> str:
    """The C source of a compiled ruleset; NativeUnavailable naming every unsupported construct and where."""
    gen = codegen_c()
    problems = gen.unsupported(compiled.ruleset)
    if problems:
        raise unsupported_error(compiled.ruleset.id, problems)
    return gen.generate(compiled.ruleset, checked=True)


def unsupported_error(ruleset_id: str, problems) -> NativeUnavailable:
    """One located error per construct the native engine lacks (the first says which ruleset)."""
    errors = [NativeUnavailable(f"the native engine does not support {what}"
                                + (f" (ruleset {ruleset_id})" if i == 0 else ""), span)
              for i, (what, span) in enumerate(problems)]
    return NativeUnavailable(errors[0].message, errors[0].span, others=errors[1:])


def load(compiled, ref=None, options=None, root=None, progress=None) -> Native:
    """The native playouts of a compiled ruleset (built or taken from the cache); NativeUnavailable if impossible.

    With `ref` (how the command line named the ruleset), its `options` and the `root` it was compiled
    under, a manifest is left in the cache so that `quick_load` finds the library next time without
    compiling the ruleset. `progress()` is called every tenth of a second while the C compiler runs.
    """
    known = _BY_COMPILED.get(id(compiled))
    # the C generated again is most of a load (a run over processes loads once per chunk): by its digest
    hit = _LOADED.get(known[1]) if known is not None and known[0] is compiled else None
    if hit is None:
        source = source_of(compiled)
        key = _sha256(source)
        hit = _LOADED.get(key)
        if hit is None:
            hit = Native(Meta.of(compiled.ruleset), *_library(source, progress), compiled)
            _LOADED[key] = hit
        _BY_COMPILED[id(compiled)] = (compiled, key)
    if hit._compiled is not compiled:
        # the same C from another compile (the same rules in another file): its errors are located in this one
        import copy
        hit = copy.copy(hit)
        hit._compiled = compiled
    if ref is not None:
        _write_manifest(ref, options, compiled, hit, root)
    return hit


# ------------------------------------------------------------------ the manifest (a run without compiling)


def _manifest_name(ref, options, root) -> str:
    """The manifest's name: a hash of how the command line named the ruleset (and, for a path, where
    from), the options, the compiler flags and the root folder it was compiled under (its real path: a
    manifest written without a root, or under another, never serves --root DIR)."""
    text = str(ref)
    where = os.getcwd() if ("/" in text or text.endswith((".yaml", ".yml"))) else ""
    real_root = None if root is None else os.path.realpath(root)
    # repr of plain values in a fixed order (json would be one more import for every run)
    named = repr([text, where, sorted((str(k), repr(v)) for k, v in (options or {}).items()), list(_flags()),
                  real_root])
    return f"manifest-{_sha256(named)[:32]}"


def _write_manifest(ref, options, compiled, nat: Native, root=None) -> None:
    """Keep what `quick_load` needs: each file of the chain by name, real path and the SHA-256 of the bytes
    compiled, rulespec's code stamp, the library's name and the Meta; nothing without the cache."""
    from rulespec.compiler import cache
    try:
        rs = compiled.ruleset
        files = [[str(name), real, digest.hex()] for name, (real, digest) in zip(rs.files, rs.stamps)]
        doc = {"format": MANIFEST_FORMAT, "files": files, "code": cache.code_stamp(), "lib": nat.path.name,
               "meta": {**nat.meta.__dict__, "sides": dict(nat.meta.sides)}}
        where = _cache_folder()
        if where is None:
            return
        with where:
            if os.path.dirname(os.path.normpath(nat._path)) == os.path.normpath(where.path):  # else built privately
                owned.write_own(_manifest_name(ref, options, root), owned.sealed(MANIFEST_HEADER, marshal.dumps(doc)),
                                where)
    except (OSError, TypeError, ValueError, AttributeError):
        pass                  # only a shortcut: without it the next run compiles the ruleset again


def _unchanged(files) -> bool:
    """Whether each (name, real path, SHA-256) of a manifest still holds: the name leads to that real file,
    whose bytes, read now, have that digest (size and time tell nothing: a rewrite can keep both)."""
    from rulespec.source.files import read_regular
    for name, real, digest in files:
        if os.path.realpath(name) != real:
            return False
        try:
            if _sha256_bytes(read_regular(real)) != digest:
                return False
        except (RulespecError, OSError):
            return False
    return True


def quick_load(ref, options=None, root=None) -> Native | None:
    """The native playouts of a ruleset named as on the command line, from the cache's manifest alone
    (no YAML compiled), when the manifest and library are ours, the ruleset's files hold the bytes
    compiled and rulespec's code is the same; None otherwise (then `load` a compiled ruleset). `root`: as the
    ruleset was compiled under (part of the manifest's key)."""
    from rulespec.compiler import cache
    try:
        if find_compiler() is None:
            return None
        where = _cache_folder()
        if where is None:
            return None
        with where:
            doc = owned.unsealed(owned.read_own(_manifest_name(ref, options, root), where, MAX_MANIFEST_BYTES),
                                 MANIFEST_HEADER)
            if not isinstance(doc, dict) or doc.get("format") != MANIFEST_FORMAT or \
                    doc.get("code") != cache.code_stamp() or not _unchanged(doc["files"]):
                return None
            name = doc["lib"]
            if not (isinstance(name, str) and name.startswith("rs-") and name.endswith(".so") and "/" not in name):
                return None
            lib = _open_library(name, where)
            if lib is None:
                return None
            m = doc["meta"]
            meta = Meta(m["id"], m["categories"], m["events"], m["outcomes"], dict(m["sides"]),
                        m["player_counts"], m["default_players"], m["fired"])
            return Native(meta, lib, os.path.join(where.path, name), ref=ref, options=options, root=root)
    except (OSError, ValueError, KeyError, TypeError, NativeUnavailable):
        return None
