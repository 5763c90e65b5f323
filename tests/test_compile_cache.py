"""The compile cache on disk (compiler/cache.py): hits, misses, corruption, keys, and what a hit skips."""
import io
import marshal
import os
import subprocess
import sys
import textwrap

import pytest

from rulespec.bots.simulate import simulate, to_dict
from rulespec.cli.main import run
from rulespec.compiler import build, cache
from rulespec.compiler.build import StoredCompiled, compile_ruleset
from rulespec import errors
from tests.conftest import mask_of
from tests.test_rule_failure import HALVES   # a rule that fails at run time, located

VARIANT = """\
    id: my-variant
    extends: cirulla
    description: a variant for the cache tests
    options:
      big:
        type: bool
        default: false
    """



@pytest.fixture
def cache_home(tmp_path, monkeypatch):
    """A cache folder of the test's own, and no compiled ruleset in this process's memory."""
    home = tmp_path / "cache-home"
    monkeypatch.setenv("XDG_CACHE_HOME", str(home))
    monkeypatch.delenv(cache.ENV, raising=False)
    forget(monkeypatch)
    return home / "rulespec" / "compiled"


def forget(monkeypatch):
    """As a new process: nothing compiled in memory, no source text registered."""
    monkeypatch.setattr(build, "_CACHE", {})
    monkeypatch.setattr(build, "_BY_FILE", {})
    monkeypatch.setattr(errors, "_SOURCES", {})


def entries(folder):
    return sorted(p for p in folder.iterdir() if p.suffix == ".rsc")


def write(path, text):
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def test_a_second_process_loads_the_stored_ruleset(cache_home, monkeypatch):
    first = compile_ruleset("cirulla", disk=True)
    assert not isinstance(first, StoredCompiled)
    assert len(entries(cache_home)) == 1
    forget(monkeypatch)
    second = compile_ruleset("cirulla", disk=True)
    assert isinstance(second, StoredCompiled)
    assert second.source == first.source and second.filename == first.filename
    assert second.line_map == first.line_map
    for name in ("LINE_SPANS", "DEAL_CHECK_SPANS", "TARGET_SPAN", "CAPTURE_SPAN", "__rulespec_ref__"):
        assert getattr(second.module, name) == getattr(first.module, name), name
    assert second.module._COMPILED is second and build.compiled_for(second.module) is second
    # The same compile in this process again: the in-memory cache, not the disk.
    assert compile_ruleset("cirulla", disk=True) is second


def test_a_hit_has_everything_playout_for_sets(cache_home, monkeypatch):
    from rulespec.compiler.playout import playout_for
    fresh = compile_ruleset("cirulla-short")          # no disk: a compile of its own
    playout_for(fresh)
    compile_ruleset("cirulla-short", disk=True)
    forget(monkeypatch)
    hit = compile_ruleset("cirulla-short", disk=True)
    set_by_playout_for = {k for k in vars(fresh) if "playout" in k}
    assert set_by_playout_for and set_by_playout_for <= set(vars(hit))
    assert hit.playout_source == fresh.playout_source and hit._playout_spans == fresh._playout_spans
    assert playout_for(hit) is hit._playout


def test_a_hit_plays_the_same_hands(cache_home, monkeypatch):
    fresh = to_dict(simulate("cirulla", hands=40, seed=3, workers=1))
    forget(monkeypatch)
    assert isinstance(compile_ruleset("cirulla", disk=True), StoredCompiled)
    assert to_dict(simulate("cirulla", hands=40, seed=3, workers=1)) == fresh
    assert to_dict(simulate("cirulla", hands=40, seed=3, workers=1, playout=False)) == fresh


def test_a_hit_brings_the_rows_of_small_tables_filled(cache_home, monkeypatch):
    """The stored playout's memo rows of small tables (playout._prefill) come with a hit: a new process's
    first hands find them instead of filling them one at a time."""
    compile_ruleset("cirulla", disk=True)
    forget(monkeypatch)
    hit = compile_ruleset("cirulla", disk=True)
    assert isinstance(hit, StoredCompiled)
    rows = hit._playout.__globals__["_ROWS_BY_CLASS"]
    assert len(rows) == 1000 and all(row[0] is not None for key, row in rows.items() if key.count(0) < 4)


def test_a_hit_brings_the_bots_best_declarations_worked_out(cache_home, monkeypatch):
    """The bots' best declarations of every dealt hand (Declarer.prefill_best) come with a hit, as a fresh
    search finds them, and a new process's first hands search none."""
    from rulespec.run.declarations import Declarer, declarer
    compile_ruleset("cirulla", disk=True)
    forget(monkeypatch)
    hit = compile_ruleset("cirulla", disk=True)
    assert isinstance(hit, StoredCompiled)
    loaded = declarer(hit.module)
    assert loaded._ahead_sizes == {3} and loaded._ahead and set(loaded.best_memo) == set(loaded._ahead)
    fresh = Declarer(hit.module)
    assert all(got == fresh.best_new(h, h, 1, False) for h, got in loaded.best_memo.items())
    for search in ("_best_quick", "_find"):
        monkeypatch.setattr(loaded, search, lambda *a: pytest.fail("searched a dealt hand"))
    simulate("cirulla", hands=20, seed=5, workers=1)


def _two_card_hands(rules):
    return [(1 << a) | (1 << b) for a in range(rules.N_CARDS) for b in range(a)]


@pytest.mark.parametrize("shape", ["first-version", "sizes-not-cards", "hand-of-another-size", "list"])
def test_declarations_worked_out_in_another_shape_are_not_misread(cache_home, monkeypatch, shape):
    """An entry whose `playout_best` is whole (its CRC right) but not in the shape this rulespec writes is
    compiled again, never answered from: "first-version" is what the first version of prefill_best wrote
    for a ruleset dealing two cards (the hands declaring nothing, then those declaring), which read as
    (sizes, hands) makes 3 a size worked out (the mask of the first two cards) and so a decino hand
    declare nothing."""
    from rulespec.run.declarations import Declarer, declarer
    good = compile_ruleset("cirulla", disk=True)
    r = good.module
    [path] = entries(cache_home)
    entry = cache._unsealed(path.read_bytes(), cache.HEADER)
    decino = mask_of(r, "2C", "2D", "2S")
    entry["playout_best"] = {
        "first-version": (_two_card_hands(r), ()),                 # a list of hands, where sizes stand now
        "sizes-not-cards": ((3, 41), ()),                           # no hand has 41 of the 40 cards
        "hand-of-another-size": ((2,), ((decino, (("decino", decino, None),)),)),
        "list": ([3], ()),                                          # prefill_best writes a tuple
    }[shape]
    path.write_bytes(cache._sealed(cache.HEADER, marshal.dumps(entry)))
    forget(monkeypatch)
    again = compile_ruleset("cirulla", disk=True)
    assert not isinstance(again, StoredCompiled)                    # compiled again, and the entry replaced
    found = declarer(again.module)
    assert found.best(decino, decino, 1, False) == Declarer(again.module).best(decino, decino, 1, False) != ()
    forget(monkeypatch)
    hit = compile_ruleset("cirulla", disk=True)
    assert isinstance(hit, StoredCompiled) and declarer(hit.module)._ahead_sizes == {3}


def test_a_hit_builds_its_model_and_warnings_only_when_asked(cache_home, monkeypatch, tmp_path):
    path = write(tmp_path / "v.yaml", VARIANT)
    first = compile_ruleset(path, disk=True)
    forget(monkeypatch)
    hit = compile_ruleset(path, disk=True)
    assert isinstance(hit, StoredCompiled) and hit._model is None
    assert hit.id == "my-variant" and hit._model is None
    assert hit.ruleset.id == "my-variant" and hit.ruleset.stamps == first.ruleset.stamps
    assert [w.render() for w in hit.warnings] == [w.render() for w in first.warnings]


def test_a_hit_in_a_new_process_imports_no_parser(cache_home):
    """What a hit skips: PyYAML, jsonschema, Lark, the checks and the code generator are never imported."""
    code = textwrap.dedent("""
        import sys
        from rulespec.compiler.build import StoredCompiled, compile_ruleset
        c = compile_ruleset("cirulla", disk=True)
        heavy = ("yaml", "jsonschema", "lark", "rulespec.lang.model", "rulespec.checks.stage",
                 "rulespec.compiler.codegen", "rulespec.compiler.playout", "rich")
        print(isinstance(c, StoredCompiled), sorted(m for m in sys.modules if m.split(".")[0] in heavy or m in heavy))
        """)
    env = dict(os.environ, XDG_CACHE_HOME=str(cache_home.parent.parent))
    outs = [subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True).stdout
            for _ in range(2)]
    assert outs[0].startswith("False")
    assert outs[1] == "True []\n"


def test_an_edited_file_is_a_miss_even_with_the_same_size_and_time(cache_home, monkeypatch, tmp_path):
    path = write(tmp_path / "v.yaml", VARIANT)
    compile_ruleset(path, disk=True)
    st = path.stat()
    path.write_text(path.read_text().replace("for the cache tests", "for the cache TESTS"), encoding="utf-8")
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert path.stat().st_size == st.st_size and path.stat().st_mtime_ns == st.st_mtime_ns
    forget(monkeypatch)
    again = compile_ruleset(path, disk=True)
    assert not isinstance(again, StoredCompiled)
    assert again.ruleset.description.endswith("TESTS")
    assert len(entries(cache_home)) == 2          # the new content has an entry of its own
    forget(monkeypatch)
    assert isinstance(compile_ruleset(path, disk=True), StoredCompiled)


def test_an_edited_base_file_is_a_miss(cache_home, monkeypatch, tmp_path):
    base = write(tmp_path / "base.yaml", VARIANT)
    child = write(tmp_path / "child.yaml", "id: child\nextends: base.yaml\n")
    compile_ruleset(child, disk=True)
    base.write_text(base.read_text().replace("default: false", "default: true"), encoding="utf-8")
    forget(monkeypatch)
    again = compile_ruleset(child, disk=True)
    assert not isinstance(again, StoredCompiled)
    assert again.module.OPTIONS == {"big": True}


@pytest.mark.parametrize("damage", ["altered", "flip", "truncate", "empty", "other-format", "readable-by-others"])
def test_a_damaged_entry_is_ignored_and_rebuilt(cache_home, monkeypatch, damage):
    good = compile_ruleset("cirulla", disk=True)
    [entry] = entries(cache_home)
    raw = entry.read_bytes()
    if damage == "altered":           # still a well-formed payload: only its digest tells
        assert raw.count(b"RULESET_ID = 'cirulla'") == 1
        raw = raw.replace(b"RULESET_ID = 'cirulla'", b"RULESET_ID = 'cirullx'")
    elif damage == "flip":
        raw = raw[:-100] + bytes([raw[-100] ^ 0xFF]) + raw[-99:]
    elif damage == "truncate":
        raw = raw[: len(raw) // 2]
    elif damage == "empty":
        raw = b""
    elif damage == "other-format":
        raw = raw.replace(cache.HEADER, b"rulespec compiled 999\n", 1)
    entry.write_bytes(raw)
    if damage == "readable-by-others":
        entry.chmod(0o644)
    forget(monkeypatch)
    again = compile_ruleset("cirulla", disk=True)
    assert not isinstance(again, StoredCompiled)          # compiled from the YAML ...
    assert again.source == good.source
    assert entry.stat().st_mode & 0o777 == 0o600          # ... and the entry written again
    forget(monkeypatch)
    assert isinstance(compile_ruleset("cirulla", disk=True), StoredCompiled)


def test_a_damaged_list_of_files_is_ignored(cache_home, monkeypatch):
    compile_ruleset("cirulla", disk=True)
    [listing] = [p for p in cache_home.iterdir() if p.name.startswith("ref-")]
    sealed = [cache._sealed(cache.LIST_HEADER, marshal.dumps(doc)) for doc in (
        {"format": cache.FORMAT, "files": [[1, 2]]}, {"format": cache.FORMAT, "files": []}, [],
        {"format": cache.FORMAT - 1, "files": [["a", "b"]]})]
    good = listing.read_bytes()
    for bad in (b"{not json", b"[]", good[:-1], good[:40] + bytes([good[40] ^ 1]) + good[41:], *sealed):
        listing.write_bytes(bad)
        forget(monkeypatch)
        assert not isinstance(compile_ruleset("cirulla", disk=True), StoredCompiled)
    forget(monkeypatch)
    assert isinstance(compile_ruleset("cirulla", disk=True), StoredCompiled)


def test_options_and_root_are_in_the_key(cache_home, monkeypatch, tmp_path):
    path = write(tmp_path / "v.yaml", VARIANT)
    compile_ruleset(path, disk=True)
    forget(monkeypatch)
    with_option = compile_ruleset(path, {"big": True}, disk=True)
    assert not isinstance(with_option, StoredCompiled) and with_option.module.OPTIONS == {"big": True}
    forget(monkeypatch)
    rooted = compile_ruleset(path, root=tmp_path, disk=True)
    assert not isinstance(rooted, StoredCompiled)
    assert len(entries(cache_home)) == 3
    forget(monkeypatch)
    assert compile_ruleset(path, {"big": True}, disk=True).module.OPTIONS == {"big": True}
    assert isinstance(compile_ruleset(path, root=tmp_path, disk=True), StoredCompiled)
    assert compile_ruleset(path, disk=True).module.OPTIONS == {"big": False}


def test_a_root_that_excludes_the_file_is_refused_after_a_hit(cache_home, monkeypatch, tmp_path):
    from rulespec.errors import RulespecError
    path = write(tmp_path / "v.yaml", VARIANT)
    compile_ruleset(path, disk=True)
    forget(monkeypatch)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    with pytest.raises(RulespecError, match="under the root folder"):
        compile_ruleset(path, root=elsewhere, disk=True)


def test_the_cache_is_private_and_can_be_turned_off(cache_home, monkeypatch, tmp_path):
    compile_ruleset("cirulla", disk=True)
    assert cache_home.stat().st_mode & 0o777 == 0o700
    assert cache_home.parent.stat().st_mode & 0o777 == 0o700
    assert all(p.stat().st_mode & 0o777 == 0o600 for p in cache_home.iterdir())
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "other"))
    monkeypatch.setenv(cache.ENV, "off")
    forget(monkeypatch)
    compile_ruleset("cirulla", disk=True)
    assert not (tmp_path / "other").exists()


def test_without_disk_nothing_is_written(cache_home):
    compile_ruleset("cirulla-short")
    assert not cache_home.exists() or not list(cache_home.iterdir())


def test_a_rule_failing_on_a_hit_is_located_and_quoted_as_on_a_miss(cache_home, monkeypatch, tmp_path):
    path = write(tmp_path / "halves.yaml", HALVES)
    argv = ["simulate", str(path), "--games", "1", "--seed", "1", "--workers", "1"]
    results = []
    for _ in range(2):
        forget(monkeypatch)
        out, err = io.StringIO(), io.StringIO()
        results.append((run(argv, out, err), err.getvalue()))
    assert isinstance(compile_ruleset(path, disk=True), StoredCompiled)   # the second run was a hit
    (code1, err1), (code2, err2) = results
    assert code1 == code2 == 2
    assert "halves.yaml:5:12" in err1 and "division by zero" in err1 and "10 // count(captured)" in err1
    assert err2 == err1


def test_an_error_in_the_yaml_is_never_stored(cache_home, monkeypatch, tmp_path):
    from rulespec.errors import RulespecError
    path = write(tmp_path / "bad.yaml", "id: bad\nextends: cirulla\nscoring:\n  nonsense: 3\n")
    for _ in range(2):
        forget(monkeypatch)
        with pytest.raises(RulespecError) as info:
            compile_ruleset(path, disk=True)
        assert "bad.yaml" in info.value.render()
    assert not cache_home.exists() or not entries(cache_home)


def test_the_folder_is_kept_small(cache_home, monkeypatch):
    compile_ruleset("cirulla", disk=True)
    for k in range(10):
        (cache_home / f"old-{k}.rsc").write_bytes(b"stale")
        os.utime(cache_home / f"old-{k}.rsc", ns=(k, k))          # older than anything written today
    monkeypatch.setattr(cache, "MAX_FILES", 8)
    where = os.open(cache_home, os.O_RDONLY)
    try:
        cache._prune(where, 8)
    finally:
        os.close(where)
    left = sorted(p.name for p in cache_home.iterdir())
    assert len(left) == 4 and [n for n in left if n.startswith("old-")] == ["old-8.rsc", "old-9.rsc"]
    forget(monkeypatch)
    assert isinstance(compile_ruleset("cirulla", disk=True), StoredCompiled)   # the newest kept


def test_a_playout_that_cannot_be_generated_is_left_to_whoever_needs_it(cache_home, monkeypatch):
    from rulespec.compiler import playout

    def broken(rs):
        raise RuntimeError("no playout for this one")
    with monkeypatch.context() as m:
        m.setattr(playout, "generate_with_spans", broken)
        compiled = compile_ruleset("cirulla-short", disk=True)      # compiles and is stored all the same
        assert not hasattr(compiled, "_playout")
        forget(monkeypatch)
        hit = compile_ruleset("cirulla-short", disk=True)
        assert isinstance(hit, StoredCompiled) and not hasattr(hit, "_playout")
        with pytest.raises(RuntimeError, match="no playout"):
            playout.playout_for(hit)
    assert playout.playout_for(hit) is hit._playout               # generated from the model, built on demand
    assert hit._model is not None


# Hostile cases (a ruleset from a stranger, a cache folder someone else could have touched).

def base_pair(tmp_path):
    """A variant extending ./base.yaml, a link to one of two bases of different games (cirulla, cicera)."""
    write(tmp_path / "cirulla-base.yaml", "id: base\nextends: cirulla\n")
    write(tmp_path / "cicera-base.yaml", "id: base\nextends: cicera\n")
    (tmp_path / "base.yaml").symlink_to("cirulla-base.yaml")
    return write(tmp_path / "v.yaml", "id: v\nextends: ./base.yaml\n")


def relink(link, target):
    link.unlink()
    link.symlink_to(target)


@pytest.mark.parametrize("disk", [False, True])
def test_a_link_in_the_chain_swapped_is_a_miss_in_the_same_process(cache_home, tmp_path, disk):
    """The files of the chain are checked by the names they were reached by, not only by their real paths."""
    path = base_pair(tmp_path)
    assert "denari" in compile_ruleset(path, disk=disk).module.CATEGORIES          # cirulla's
    relink(tmp_path / "base.yaml", "cicera-base.yaml")
    again = compile_ruleset(path, disk=disk)
    assert "denari" not in again.module.CATEGORIES and "scua" in again.module.CATEGORIES


def test_a_link_in_the_chain_swapped_is_a_miss_in_a_new_process(cache_home, monkeypatch, tmp_path):
    path = base_pair(tmp_path)
    compile_ruleset(path, disk=True)
    relink(tmp_path / "base.yaml", "cicera-base.yaml")
    forget(monkeypatch)
    again = compile_ruleset(path, disk=True)
    assert not isinstance(again, StoredCompiled) and "scua" in again.module.CATEGORIES


def test_a_fifo_planted_in_the_cache_folder_never_blocks(cache_home):
    """A FIFO where an entry or its listing should be is ignored (and replaced), not waited on for a writer."""
    env = dict(os.environ, XDG_CACHE_HOME=str(cache_home.parent.parent))
    code = "from rulespec.compiler.build import compile_ruleset as c; print(type(c('cirulla', disk=True)).__name__)"
    subprocess.run([sys.executable, "-c", code], env=env, check=True, capture_output=True)
    for planted in sorted(cache_home.iterdir()):
        planted.unlink()
        os.mkfifo(planted, 0o600)
        # The timeout only ends a run that blocks forever (a run that works takes a second or two).
        done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0 and done.stdout == "Compiled\n", done.stderr
        assert planted.is_file()                                   # written again, as a regular file


def test_a_folder_swapped_for_a_link_after_its_check_is_never_followed(cache_home, monkeypatch, tmp_path):
    """The folders are judged through a descriptor opened without following links: a folder swapped for a
    link between a check and a use cannot make any write land elsewhere (and a loose one is never chmod-ed:
    tests/test_cache_trust.py)."""
    victim = tmp_path / "victim"
    victim.mkdir()
    victim.chmod(0o755)
    top = cache_home.parent
    top.parent.mkdir(parents=True)
    top.mkdir(0o755)
    top.chmod(0o755)                  # loose: passed over, left as it is
    real_lstat, swapped = os.lstat, []

    def swap_after_check(path, *args, **kwargs):
        st = real_lstat(path, *args, **kwargs)
        if os.fspath(path) == str(top) and not swapped:           # the race, won by the other side
            swapped.append(os.rename(top, tmp_path / "moved"))
            os.symlink(victim, top)
        return st
    monkeypatch.setattr(os, "lstat", swap_after_check)
    where = cache.open_folder()
    monkeypatch.undo()
    if where is not None:
        os.close(where)
    assert victim.stat().st_mode & 0o777 == 0o755
    assert list(victim.iterdir()) == []


# Conditions whose filters loop over the cards, nested (each outer pass runs the inner filter): three of
# them cost thousands of steps an evaluation. What a cache entry works out ahead (the memo rows of small
# tables, the bots' best for every dealt hand) is cut by that cost (26 such filters took 100 s of prefill).
LOOPING = "count(table | deck, count(table | deck, value > value(played)) > 3) > 0"
LOOPING_BONUS = "count(cards | deck, count(cards | deck, card in cards) >= 0) > 0"
HEAVY = {
    "capture": f"""\
        id: heavy-capture
        extends: cirulla
        capture:
          kinds:
            - {{kind: sweep, exclusive: true, when: '{" and ".join([LOOPING] * 3)} and count(table) > 100'}}
            - kind: match
            - kind: sum
            - {{kind: fifteen, total: 15}}
        """,
    "bonus": f"""\
        id: heavy-bonus
        extends: cirulla
        hand_bonuses:
          heavy: {{size: 3, when: '{" and ".join([LOOPING_BONUS] * 3)} and count(cards) > 5', points: 1,
                  category: scope}}
        """,
}


@pytest.mark.parametrize("kind", list(HEAVY))
def test_what_an_entry_works_out_ahead_is_bounded_by_the_work_of_its_conditions(kind, tmp_path, cache_home):
    from tests.work import count_calls
    path = tmp_path / f"{kind}.yaml"
    path.write_text(textwrap.dedent(HEAVY[kind]), encoding="utf-8")
    compiled, calls = count_calls(compile_ruleset, path, disk=True)
    assert not isinstance(compiled, BaseException), compiled
    assert list(cache_home.iterdir())          # the entry was written
    assert calls < 8_000_000, calls            # 1 to 4 million now (lint's search included); far more before
