"""The caches trust only files this user alone could have written (rulespec/source/owned.py).

Each cache (the expression parser's tables, the compile cache, the native libraries and manifests) passes
over an entry of another user's, one group or others may write, or one in a folder open to others: it is
a miss, never loaded, said once on stderr, and the result is what compiling afresh gives. Files of another
user's are made with os.chown, which only root may do: those cases are skipped otherwise.
"""
import os
import shutil

import pytest

from rulespec.compiler import build, native
from rulespec.compiler.build import StoredCompiled, compile_ruleset
from rulespec.lang import expressions, larkcache
from rulespec.source import owned
from rulespec import errors

AS_ROOT = os.geteuid() == 0 if hasattr(os, "geteuid") else False
OTHER_UID = 54321
HAS_CC = native.find_compiler() is not None
needs_cc = pytest.mark.skipif(not HAS_CC, reason="no C compiler on this machine (the native engine needs one)")

# How an entry is made untrustworthy: owned by another user (root only), or writable by group or others.
SPOILS = ["another-user", "group-writable", "world-writable"]


def spoil(path, how):
    if how == "another-user":
        if not AS_ROOT:
            pytest.skip("only root can give a file to another user (os.chown)")
        os.chown(path, OTHER_UID, -1)
    elif how == "group-writable":
        path.chmod(0o620 if path.stat().st_mode & 0o100 == 0 else 0o720)
    else:
        path.chmod(0o602 if path.stat().st_mode & 0o100 == 0 else 0o702)


def loosen(folder, how):
    """A cache folder made untrustworthy: another user's (root only), or open to group or others."""
    if how == "another-user":
        if not AS_ROOT:
            pytest.skip("only root can give a folder to another user (os.chown)")
        os.chown(folder, OTHER_UID, -1)
    elif how == "group-writable":
        folder.chmod(0o770)
    else:
        folder.chmod(0o777)


@pytest.fixture
def home(tmp_path, monkeypatch):
    """A cache folder of the test's own, caches on, nothing said yet, nothing compiled in memory."""
    base = tmp_path / "cache-home"
    monkeypatch.setenv("XDG_CACHE_HOME", str(base))
    monkeypatch.delenv("RULESPEC_CACHE", raising=False)
    monkeypatch.setattr(owned, "_SAID", set())
    forget(monkeypatch)
    return base / "rulespec"


def forget(monkeypatch):
    """As a new process: nothing compiled or loaded in memory."""
    monkeypatch.setattr(build, "_CACHE", {})
    monkeypatch.setattr(build, "_BY_FILE", {})
    monkeypatch.setattr(errors, "_SOURCES", {})
    monkeypatch.setattr(native, "_LOADED", {})
    expressions._parser.cache_clear()


def said(capsys) -> list[str]:
    return [line for line in capsys.readouterr().err.splitlines() if "cache" in line]


# ------------------------------------------------------------------ the compile cache


@pytest.mark.parametrize("how", SPOILS)
def test_a_compile_cache_entry_not_ours_is_a_miss_said_once(home, monkeypatch, capsys, how):
    good = compile_ruleset("cirulla-short", disk=True)
    [entry] = (home / "compiled").glob("*.rsc")
    spoil(entry, how)
    forget(monkeypatch)
    again = compile_ruleset("cirulla-short", disk=True)
    assert not isinstance(again, StoredCompiled) and again.source == good.source
    [line] = said(capsys)
    assert line.startswith(f"rulespec: not using the cache file {entry}: ")
    assert entry.stat().st_uid == os.getuid() and entry.stat().st_mode & 0o777 == 0o600   # written anew
    forget(monkeypatch)
    assert isinstance(compile_ruleset("cirulla-short", disk=True), StoredCompiled)
    assert said(capsys) == []


@pytest.mark.parametrize("which", ["rulespec", "rulespec/compiled"])
@pytest.mark.parametrize("how", SPOILS)
def test_a_compile_cache_folder_not_ours_alone_is_not_used_nor_tightened(home, monkeypatch, capsys, how, which):
    good = compile_ruleset("cirulla-short", disk=True)
    folder = home.parent / which
    loosen(folder, how)
    mode = folder.stat().st_mode
    for _ in range(2):
        forget(monkeypatch)
        again = compile_ruleset("cirulla-short", disk=True)
        assert not isinstance(again, StoredCompiled) and again.source == good.source
    [line] = said(capsys)                                   # said once for the two compiles
    assert line.startswith(f"rulespec: not using the cache folder {folder}: ")
    assert folder.stat().st_mode == mode                    # never chmod-ed


# ------------------------------------------------------------------ the expression parser's tables


def test_the_parser_tables_load_without_unpickling(home, monkeypatch):
    """Built once, then loaded from the disk cache as data: pickle is never asked to load anything."""
    import pickle
    expressions._parser()
    [tables] = (home / "grammar").iterdir()
    assert tables.stat().st_mode & 0o777 == 0o600

    def refuse(*args, **kwargs):
        raise AssertionError("a pickle was loaded")
    monkeypatch.setattr(pickle, "load", refuse)
    monkeypatch.setattr(pickle, "loads", refuse)
    loaded = []
    real = larkcache.Lark._load_from_dict
    monkeypatch.setattr(larkcache.Lark, "_load_from_dict", lambda *a, **k: loaded.append(1) or real(*a, **k))
    expressions._parser.cache_clear()
    tree = expressions._parser().parse("count(table) + 1 >= 2")
    assert loaded == [1] and tree is not None


@pytest.mark.parametrize("how", SPOILS)
def test_parser_tables_not_ours_are_a_miss_said_once(home, monkeypatch, capsys, how):
    expressions._parser()
    [tables] = (home / "grammar").iterdir()
    spoil(tables, how)
    loaded = []
    real = larkcache.Lark._load_from_dict
    monkeypatch.setattr(larkcache.Lark, "_load_from_dict", lambda *a, **k: loaded.append(1) or real(*a, **k))
    expressions._parser.cache_clear()
    assert expressions._parser().parse("1 + 2") is not None
    assert loaded == []
    [line] = said(capsys)
    assert line.startswith(f"rulespec: not using the cache file {tables}: ")


def test_the_parser_tables_are_not_kept_with_the_cache_off(home, monkeypatch):
    monkeypatch.setenv("RULESPEC_CACHE", "off")
    assert expressions._parser().parse("1 + 2") is not None
    assert not (home / "grammar").exists()


# ------------------------------------------------------------------ the native libraries


def plant_library(where, name, ruleset_id):
    """A library at the cache's name of another one: a working one whose ruleset id says it was loaded."""
    source = (f'const char *rs_ruleset_id(void) {{ return "{ruleset_id}"; }}\n'
              "int rs_simulate(void) { return 0; }\nint rs_error_where(void) { return 0; }\n")
    built = native.build(source)
    shutil.copyfile(built, where / name)
    (where / name).chmod(0o700)


def planted_library(home, monkeypatch):
    """cirulla-short compiled, and a library planted in a private native cache folder under the name its
    C would be built under: (compiled, the folder, the name)."""
    monkeypatch.setenv("RULESPEC_NATIVE_OPT", "-O0")
    compiled = compile_ruleset("cirulla-short")
    folder = home / "native"
    folder.mkdir(parents=True, mode=0o700)
    home.chmod(0o700)
    name = expected_library(compiled)
    plant_library(folder, name, "planted")
    return compiled, folder, name


def expected_library(compiled) -> str:
    return native._library_name(native.source_of(compiled), native.find_compiler(), native._flags())


@needs_cc
@pytest.mark.parametrize("how", SPOILS)
def test_a_native_library_not_ours_is_never_loaded(home, monkeypatch, capsys, how):
    compiled, folder, name = planted_library(home, monkeypatch)
    spoil(folder / name, how)
    capsys.readouterr()
    nat = native.load(compiled)
    assert nat.ruleset_id == "cirulla-short"          # built again, not the planted library
    assert nat.run(1, 0, 5, 4).hands == 5
    [line] = said(capsys)
    assert line.startswith(f"rulespec: not using the cache file {folder / name}: ")
    assert (folder / name).stat().st_uid == os.getuid() and (folder / name).stat().st_mode & 0o077 == 0


@needs_cc
@pytest.mark.parametrize("how", SPOILS)
def test_a_native_library_in_a_folder_open_to_others_is_never_loaded(home, monkeypatch, capsys, how):
    compiled, folder, name = planted_library(home, monkeypatch)
    loosen(folder, how)
    mode = folder.stat().st_mode
    capsys.readouterr()
    nat = native.load(compiled)
    assert nat.ruleset_id == "cirulla-short" and nat.run(1, 0, 5, 4).hands == 5
    [line] = said(capsys)
    assert line.startswith(f"rulespec: not using the cache folder {folder}: ")
    assert folder.stat().st_mode == mode and not str(nat.path).startswith(str(folder))


@needs_cc
def test_a_library_of_ours_is_loaded_through_the_file_that_was_checked(home, monkeypatch):
    """The library is loaded by the descriptor its check opened: swapped for another after the check
    (here, at the moment it is loaded), the checked one is still what runs."""
    monkeypatch.setenv("RULESPEC_NATIVE_OPT", "-O0")
    compiled = compile_ruleset("cirulla-short")
    native.load(compiled)                             # built and kept
    monkeypatch.setattr(native, "_BY_FILE", {})
    forget(monkeypatch)
    folder = home / "native"
    name = expected_library(compiled)
    plant_library(folder, "planted.so", "planted")
    real_loadable = native._loadable

    def swap_then_name(fd):
        os.replace(folder / "planted.so", folder / name)     # the race, won by the other side
        return real_loadable(fd)
    monkeypatch.setattr(native, "_loadable", swap_then_name)
    assert native.load(compiled).ruleset_id == "cirulla-short"


# ------------------------------------------------------------------ the native manifests


def simulate_native(path):
    return ["simulate", str(path), "--hands", "3", "--engine", "native", "--json"]


def native_files(home) -> list[str]:
    """The native libraries and manifests anywhere in the cache folder."""
    return sorted(p.name for p in home.rglob("*") if p.name.startswith("manifest-") or p.suffix == ".so")


def refuse_to_compile(monkeypatch):
    """From now on a compile is an error: a run that works was served by the manifest."""
    from rulespec.errors import RulespecError

    def refuse(*args, **kwargs):
        raise RulespecError("compiled again")
    monkeypatch.setattr(build, "compile_ruleset", refuse)


@needs_cc
def test_a_same_size_same_time_rewrite_is_compiled_again_natively(home, monkeypatch, tmp_path, capsys):
    """The manifest holds the SHA-256 of each file compiled: a rewrite keeping size and time is a miss."""
    from rulespec.cli.main import run
    monkeypatch.setenv("RULESPEC_NATIVE_OPT", "-O0")
    path = tmp_path / "variant.yaml"
    path.write_text("id: variant\nextends: cirulla\ndescription: one\n", encoding="utf-8")
    assert run(simulate_native(path)) == 0
    forget(monkeypatch)
    refuse_to_compile(monkeypatch)
    assert run(simulate_native(path)) == 0                 # served by the manifest
    before = path.stat()
    path.write_text("id: variant\nextends: cirulla\ndescription: two\n", encoding="utf-8")
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert path.stat().st_size == before.st_size and path.stat().st_mtime_ns == before.st_mtime_ns
    capsys.readouterr()
    assert run(simulate_native(path)) == 2
    assert "compiled again" in capsys.readouterr().err


@needs_cc
def test_the_cache_off_reads_and_writes_no_native_cache(home, monkeypatch, tmp_path, capsys):
    from rulespec.cli.main import run
    monkeypatch.setenv("RULESPEC_NATIVE_OPT", "-O0")
    path = tmp_path / "variant.yaml"
    path.write_text("id: variant\nextends: cirulla\n", encoding="utf-8")
    monkeypatch.setenv("RULESPEC_CACHE", "off")
    assert run(simulate_native(path)) == 0
    assert native_files(home) == []                         # nothing written
    monkeypatch.delenv("RULESPEC_CACHE")
    forget(monkeypatch)
    assert run(simulate_native(path)) == 0                 # a manifest and a library kept ...
    kept = native_files(home)
    assert any(n.startswith("manifest-") for n in kept) and any(n.endswith(".so") for n in kept)
    monkeypatch.setenv("RULESPEC_CACHE", "off")
    forget(monkeypatch)
    refuse_to_compile(monkeypatch)
    capsys.readouterr()
    assert run(simulate_native(path)) == 2                 # ... and not read with the cache off
    assert "compiled again" in capsys.readouterr().err
    assert native_files(home) == kept


@needs_cc
@pytest.mark.parametrize("how", SPOILS)
def test_a_native_manifest_not_ours_is_a_miss_said_once(home, monkeypatch, tmp_path, capsys, how):
    from rulespec.cli.main import run
    monkeypatch.setenv("RULESPEC_NATIVE_OPT", "-O0")
    path = tmp_path / "variant.yaml"
    path.write_text("id: variant\nextends: cirulla\n", encoding="utf-8")
    assert run(simulate_native(path)) == 0
    [manifest] = home.rglob("manifest-*")
    spoil(manifest, how)
    forget(monkeypatch)
    refuse_to_compile(monkeypatch)
    capsys.readouterr()
    assert run(simulate_native(path)) == 2                 # compiled, not served by the manifest
    [line] = said(capsys)
    assert line.startswith(f"rulespec: not using the cache file {manifest}: ")


# ------------------------------------------------------------------ pickled states and the ruleset's content


def test_a_pickled_hand_is_tied_to_its_rulesets_content(home, tmp_path, monkeypatch):
    """A pickled Hand, Game or Rules records the digest of its ruleset's files: loaded after the files were
    edited (here the base a variant extends: a scopa deal under a cirulla name) it is a clear error, not a
    state whose moves play() refuses; loaded against the same content it is the same state."""
    import pickle

    import rulespec
    from rulespec.errors import RulespecError
    base = tmp_path / "base.yaml"
    base.write_text("id: base\nextends: cirulla\n", encoding="utf-8")
    path = tmp_path / "mine.yaml"
    path.write_text("id: mine\nextends: ./base.yaml\n", encoding="utf-8")
    rules = rulespec.compile(str(path))
    hand = rules.new_hand(seats=4, seed=3)
    game = rules.new_game(seats=2, seed=3)
    game.new_hand()
    blobs = [pickle.dumps(x) for x in (hand, game, rules)]
    again = pickle.loads(blobs[0])
    assert again.legal_moves() == hand.legal_moves() and again.hands == hand.hands
    assert pickle.loads(blobs[2]).module is rules.module
    base.write_text("id: base\nextends: scopa\n", encoding="utf-8")
    for blob in blobs:
        with pytest.raises(RulespecError, match=r"cannot load this pickled state: it was made with ruleset "
                                                r".*mine\.yaml as its files were then .* they hold other rules now"):
            pickle.loads(blob)
    base.write_text("id: base\nextends: cirulla\n", encoding="utf-8")      # as it was: loads again
    assert pickle.loads(blobs[0]).legal_moves() == hand.legal_moves()


def test_a_pickle_made_before_the_digest_was_recorded_still_loads(home):
    """A RulesRef of two fields (reference and options, as pickles held before) loads unchecked."""
    from rulespec.run.pickling import RulesRef
    assert RulesRef("cirulla-short", {}).load().RULESET_ID == "cirulla-short"
