"""What a `rulespec simulate` process imports and builds before its first hand, on a compile-cache hit."""
import os
import subprocess
import sys

from rulespec.run import runtime


# What `simulate` does not need on a hit (each import costs every process): dataclasses (it imports inspect, ast,
# dis, tokenize), typing (rulespec/run/records.py), difflib (a "did you mean"), contextlib, copy, argparse (a plain
# command line is read by cli/main.py's quick_args), json (the cache's files are marshalled), pathlib and the
# ruleset locator (build._shipped_file), hashlib's OpenSSL (the cache's own SHA-256 and CRC-32), the deck model,
# the compiled modules' typed Protocol, the utf-8-sig codec.
NOT_NEEDED = ("dataclasses", "inspect", "typing", "difflib", "contextlib", "copy", "argparse", "json", "pathlib",
              "hashlib", "_hashlib", "rulespec.source.rulesets", "rulespec.lang.decks", "rulespec.run.protocol",
              "encodings.utf_8_sig")


def _run_twice(code: str, cache) -> list[str]:
    """What `code` prints, run twice in fresh processes sharing a new compile cache (the second a cache hit)."""
    env = {**os.environ, "XDG_CACHE_HOME": str(cache)}
    env.pop("RULESPEC_CACHE", None)
    return [subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True).stdout
            for _ in range(2)]


def test_simulate_imports_nothing_it_does_not_need_on_a_cache_hit(tmp_path):
    """A compile-cache hit's `rulespec simulate` (as the console script runs it) imports none of NOT_NEEDED."""
    code = ("import sys; sys.argv = ['rulespec', 'simulate', 'cirulla', '--hands', '1', '--workers', '1']\n"
            "from rulespec.cli.main import run\n"
            "import io; run(sys.argv[1:], io.StringIO(), io.StringIO())\n"
            f"print(sorted(m for m in {NOT_NEEDED!r} if m in sys.modules))")
    outs = _run_twice(code, tmp_path)
    assert outs[1] == "[]\n"


# Nor does a native run served by the cache's manifest need these (its table is checked by str methods, the
# option and bot numbers too): re with enum, random with its hashes (bench/README.md, the fifth pass).
NOT_NEEDED_NATIVE = NOT_NEEDED + ("re", "enum", "random")


def test_a_native_run_from_the_manifest_imports_no_re_or_random(tmp_path):
    """`simulate --engine native`, its second run served by the manifest (no ruleset compiled), imports none of
    NOT_NEEDED_NATIVE, with a bot per seat read too; the first run (which compiles) does."""
    code = ("import sys\n"
            "from rulespec.cli.main import run\n"
            "import io; out = io.StringIO()\n"
            "code = run(['simulate', 'cirulla', '--hands', '2', '--engine', 'native', '--bots', "
            "'random,greedy,random,random'], out, io.StringIO())\n"
            f"print(code, 'hands' in out.getvalue(), sorted(m for m in {NOT_NEEDED_NATIVE!r} if m in sys.modules))")
    outs = _run_twice(code, tmp_path)
    assert outs[0].startswith("0 True [") and outs[0] != "0 True []\n"
    assert outs[1] == "0 True []\n"


def test_the_byte_tables_list_each_bytes_bits_in_order():
    assert runtime._BYTES == tuple(tuple(tuple(8 * k + i for i in range(8) if b >> i & 1) for b in range(256))
                                   for k in range(5))
    assert runtime.bits((1 << 40) - 1) == tuple(range(40)) and runtime.bits(0b1010 << 30) == (31, 33)


def test_the_code_stamp_is_os_walks():
    """compiler/cache.py's code stamp (by os.scandir) is the digest os.walk, os.stat and relpath gave."""
    import hashlib

    import rulespec
    from rulespec.compiler import cache
    h = hashlib.sha256()
    h.update(f"{cache.FORMAT}\0{rulespec.__version__}\0{sys.version}\0{sys.implementation.cache_tag}\0".encode())
    root = os.path.dirname(os.path.realpath(rulespec.__file__))
    listed = 0
    for here, dirs, names in os.walk(root, followlinks=True):
        dirs[:] = sorted(d for d in dirs if d not in ("__pycache__", "rulesets"))
        for name in sorted(names):
            if name.endswith((".py", ".lark", ".json")):
                st = os.stat(os.path.join(here, name))
                rel = os.path.relpath(os.path.join(here, name), root)
                h.update(f"{rel}\0{st.st_size}\0{st.st_mtime_ns}\0{st.st_ctime_ns}\0".encode())
                listed += 1
    assert listed > 90                  # the compiler and grammars too, through their links
    parts = []
    cache._stamp_folder(root, "", parts)
    assert len(parts) == listed
    cache._CODE_STAMP.clear()
    assert cache.code_stamp() == h.hexdigest()


def test_a_shipped_id_is_found_without_pathlib_as_locate_finds_it(tmp_path, monkeypatch):
    """compiler/build.py's _shipped_file is None or locate()'s path, and finds every shipped ruleset."""
    from pathlib import Path

    from rulespec.compiler.build import _shipped_file
    from rulespec.errors import RulespecError
    from rulespec.source.rulesets import locate, shipped_ids
    monkeypatch.chdir(tmp_path)
    (tmp_path / "cirulla.yaml").write_text("id: x\n", encoding="utf-8")
    ids = shipped_ids()
    assert len(ids) > 5
    for ref in ids:
        assert _shipped_file(ref) == str(locate(ref))
    odd = ["nope", "", ".", "..", "cirulla.yaml", "cirulla.YML", "./cirulla", "rulesets/cirulla", "a\\b", "x" * 300,
           "é" * 100, "a\0b", "\udcff", " cirulla", "cirulla ", Path("cirulla"), str(tmp_path / "cirulla.yaml"), 7]
    for ref in odd:
        found = _shipped_file(ref)
        assert found is None, ref
        try:
            locate(ref)
        except (RulespecError, TypeError, ValueError):
            pass


def test_the_caches_sha256_is_hashlibs():
    import hashlib

    from rulespec.compiler import cache
    for data in (b"", b"abc", bytes(range(256)) * 1000):
        assert cache.sha256(data).digest() == hashlib.sha256(data).digest()
    h = cache.sha256()
    h.update(b"a")
    h.update(b"b")
    assert h.hexdigest() == hashlib.sha256(b"ab").hexdigest()


def test_an_entry_is_unmarshalled_without_collections_and_the_collector_left_as_it_was(monkeypatch):
    import gc
    import marshal

    from rulespec.compiler import cache
    sealed = cache._sealed(cache.HEADER, marshal.dumps({"rows": [[i] for i in range(5000)]}))
    seen = []
    loads = marshal.loads
    monkeypatch.setattr(cache.marshal, "loads", lambda data: seen.append(gc.isenabled()) or loads(data))
    assert gc.isenabled()
    assert cache._unsealed(sealed, cache.HEADER)["rows"][4999] == [4999]
    assert gc.isenabled() and seen == [False]
    gc.disable()
    try:
        assert cache._unsealed(sealed, cache.HEADER) is not None and not gc.isenabled()
        assert cache._unsealed(sealed[:-1], cache.HEADER) is None and not gc.isenabled()
    finally:
        gc.enable()


