"""`--root DIR`: every file a command reads goes through locate() under DIR, and every cache key holds DIR's real
path (the security issue's item 2). Each test failed before its fix."""
import io
import json
import shutil
from pathlib import Path

import pytest

from rulespec.cli.main import run

RECORDED = Path(__file__).parent / "golden" / "recorded" / "cirulla-seed7.yaml"


def cli(*argv):
    out, err = io.StringIO(), io.StringIO()
    code = run(list(argv), out, err)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def uploads(tmp_path):
    """A root folder `uploads` holding a ruleset, one that extends a file outside it, a link out of it and a
    transcript; beside it (outside the root) `outside.yaml`."""
    root = tmp_path / "uploads"
    root.mkdir()
    (tmp_path / "outside.yaml").write_text("id: outside\nextends: cirulla\n", encoding="utf-8")
    (root / "inside.yaml").write_text("id: inside\nextends: cirulla\n", encoding="utf-8")
    (root / "escape.yaml").write_text("id: escape\nextends: ../outside.yaml\n", encoding="utf-8")
    shutil.copy(RECORDED, root / "hand.yaml")             # names `ruleset: cirulla`, a shipped id: always fine
    return root


def _refused(code, text, at=None):
    assert code == 2, text
    assert "under the root folder" in text and "Traceback" not in text, text
    if at is not None:
        assert at in text, text


def test_simulate_compare_reads_its_base_under_the_root(uploads):
    outside = uploads.parent / "outside.yaml"
    code, out, err = cli("simulate", str(uploads / "inside.yaml"), "--compare", str(outside), "--hands", "2",
                         "--workers", "1", "--root", str(uploads))
    _refused(code, err, f"no ruleset file '{outside}'")
    # A base under the root whose extends: leaves it: refused at the extends line.
    code, out, err = cli("simulate", str(uploads / "inside.yaml"), "--compare", str(uploads / "escape.yaml"),
                         "--hands", "2", "--workers", "1", "--root", str(uploads))
    _refused(code, err, f"{uploads / 'escape.yaml'}:2:10: ")
    # Both under the root: the comparison runs.
    code, out, err = cli("simulate", str(uploads / "inside.yaml"), "--compare", "cirulla", "--hands", "2",
                         "--workers", "1", "--json", "--root", str(uploads))
    assert code == 0, err
    assert json.loads(out)["base"] == "cirulla"


def test_compare_workers_compile_under_the_root(uploads, tmp_path):
    # The worker processes compile both rulesets again from the job: the job carries the root.
    from rulespec.bots.compare import run_pair_chunk
    from rulespec.errors import RulespecError
    job = {"variant": str(uploads / "inside.yaml"), "base": str(tmp_path / "outside.yaml"), "variant_options": None,
           "base_options": None, "root": str(uploads), "seats": 2, "sides": 2, "seed": 0, "bots": ["random"] * 2,
           "categories": ("total",), "events": ()}
    with pytest.raises(RulespecError, match="under the root folder"):
        run_pair_chunk(job, 0, 1)


def test_test_coverage_reads_its_ruleset_under_the_root(uploads):
    outside = uploads.parent / "outside.yaml"
    code, out, err = cli("test", "--coverage", str(outside), str(uploads), "--root", str(uploads))
    _refused(code, err, f"no ruleset file '{outside}'")
    code, out, err = cli("test", "--coverage", str(uploads / "escape.yaml"), str(uploads), "--root", str(uploads))
    _refused(code, err, f"{uploads / 'escape.yaml'}:2:10: ")


def test_coverage_reads_no_transcript_outside_the_root(uploads, tmp_path):
    from rulespec.transcripts.coverage import transcripts_of
    from rulespec.source.rulesets import rulesets_dir
    shutil.copy(RECORDED, tmp_path / "stranger.yaml")
    found = transcripts_of(rulesets_dir() / "cirulla.yaml", [uploads / "hand.yaml", tmp_path / "stranger.yaml"],
                           root=uploads)
    assert [r.path for r in found] == [uploads / "hand.yaml"]


def test_a_folder_s_link_out_of_the_root_is_never_read(uploads, tmp_path, monkeypatch):
    # Telling a folder's transcripts from its rulesets reads each file: with --root, a file that locate() refuses
    # (here a link out of the root) is not read for that, and its refusal is reported.
    from rulespec.transcripts import testrun
    shutil.copy(RECORDED, tmp_path / "secret.yaml")
    (uploads / "link.yaml").symlink_to(tmp_path / "secret.yaml")
    read = []
    real_top_keys = testrun._top_keys
    monkeypatch.setattr(testrun, "_top_keys", lambda path: read.append(Path(path)) or real_top_keys(path))
    for command in ("test", "replay"):
        read.clear()
        code, out, err = cli(command, str(uploads), "--root", str(uploads))
        assert code == 1, out + err
        assert uploads / "link.yaml" not in read and uploads / "hand.yaml" in read
        assert f"FAIL {uploads / 'link.yaml'}" in out and "under the root folder" in out, out
        assert f"{uploads / 'hand.yaml'}: ok" in out or "1 passed, 1 failed" in out, out


def test_replay_html_reads_its_transcript_under_the_root(uploads, tmp_path):
    shutil.copy(RECORDED, tmp_path / "stranger.yaml")
    code, out, err = cli("replay", str(tmp_path / "stranger.yaml"), "--html", str(tmp_path / "page.html"),
                         "--root", str(uploads))
    _refused(code, err)
    assert not (tmp_path / "page.html").exists()


def test_show_reads_under_the_root(uploads):
    for argv in (["show", "--merged", str(uploads / "escape.yaml")], ["show", str(uploads.parent / "outside.yaml")]):
        code, out, err = cli(*argv, "--root", str(uploads))
        _refused(code, err)


# ---------------------------------------------------------------- the native manifest's key


def test_the_manifest_key_holds_the_real_root(tmp_path, monkeypatch):
    from rulespec.compiler import native
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    (tmp_path / "real").mkdir()
    (tmp_path / "alias").symlink_to(tmp_path / "real")
    none = native._manifest_name("x.yaml", None, None)
    real = native._manifest_name("x.yaml", None, str(tmp_path / "real"))
    assert len({none, real, native._manifest_name("x.yaml", None, str(tmp_path))}) == 3
    assert native._manifest_name("x.yaml", None, str(tmp_path / "alias")) == real     # the real path, not the name


needs_cc = pytest.mark.skipif(shutil.which("cc") is None and shutil.which("gcc") is None,
                              reason="no C compiler on this machine (the native engine needs one)")


@needs_cc
def test_a_ruleset_built_without_a_root_is_not_served_under_one(tmp_path, monkeypatch):
    # `simulate --engine native` leaves a manifest that serves the next run without reading the YAML; it was
    # keyed without the root, so a run under --root took a ruleset outside it from the manifest.
    from rulespec.compiler import native
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("RULESPEC_NATIVE_OPT", "-O0")
    monkeypatch.chdir(tmp_path)
    (tmp_path / "uploads").mkdir()
    Path("mine.yaml").write_text("id: mine\nextends: cirulla-short\n", encoding="utf-8")
    argv = ["simulate", "mine.yaml", "--hands", "3", "--engine", "native", "--json", "--no-timings"]
    code, out, err = cli(*argv)
    assert code == 0, err
    code, out, err = cli(*argv, "--root", "uploads")
    _refused(code, err, "no ruleset file 'mine.yaml'")
    assert native.quick_load("mine.yaml") is not None                 # the manifest is there
    assert native.quick_load("mine.yaml", None, "uploads") is None    # but not for a run under a root
    # Under the root it was built with, the manifest serves (the run and its key agree).
    code, out, err = cli(*argv, "--root", ".")
    assert code == 0, err
    assert native.quick_load("mine.yaml", None, ".") is not None
    assert native.quick_load("mine.yaml", None, str(tmp_path)) is not None


def _commands_with_root() -> set[str]:
    """Every command whose parser takes --root."""
    from rulespec.cli.main import COMMAND_NAMES, build_parser
    found = set()
    for name in COMMAND_NAMES:
        sub = next(a for a in build_parser(name)._actions if a.dest == "command").choices[name]
        if any("--root" in a.option_strings for a in sub._actions):
            found.add(name)
    return found


def test_every_command_that_takes_root_refuses_a_file_outside_it(uploads):
    # An extends: out of the root, met by each command: refused at the line that names it. A command that
    # gains --root must be listed here.
    escape = str(uploads / "escape.yaml")
    at = f"{escape}:2:10: "
    (uploads / "t.yaml").write_text(RECORDED.read_text(encoding="utf-8").replace(
        "ruleset: cirulla\n", "ruleset: escape.yaml\n", 1), encoding="utf-8")
    rows = {"validate": ([escape], 1), "compile": ([escape], 2), "show": (["--merged", escape], 2),
            "explain": ([escape], 2), "diff": (["cirulla", escape], 2), "record": ([escape], 2),
            "simulate": (["cirulla", "--compare", escape, "--hands", "2", "--workers", "1"], 2),
            "leaderboard": ([escape, "--hands", "1"], 2),
            "replay": ([str(uploads / "t.yaml")], 1), "test": ([str(uploads / "t.yaml")], 1)}
    assert set(rows) == _commands_with_root()
    for command, (argv, expected) in rows.items():
        code, out, err = cli(command, *argv, "--root", str(uploads))
        assert code == expected and at in out + err and "under the root folder" in out + err, (command, out, err)
    code, out, err = cli("test", "--coverage", escape, str(uploads), "--root", str(uploads))
    _refused(code, err, at)
