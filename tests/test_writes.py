"""Every file the command line writes goes through rulespec/source/writes.py: never through a link, an existing file
replaced whole by a rename, never truncated in place (the security issue's item 3). Each test failed before its fix."""
import ast
import io
import os
import re
from pathlib import Path

import pytest

from rulespec.cli.main import run
from rulespec.errors import RulespecError
from rulespec.source.writes import write_file

PACKAGE = Path(__file__).resolve().parent.parent / "rulespec"
RECORDED = Path(__file__).parent / "golden" / "recorded" / "cirulla-seed7.yaml"


def cli(*argv):
    out, err = io.StringIO(), io.StringIO()
    code = run(list(argv), out, err)
    return code, out.getvalue(), err.getvalue()


# ---------------------------------------------------------------- the helper


def test_a_new_file_is_written_with_its_folders(tmp_path):
    assert write_file(tmp_path / "a" / "b" / "x.yaml", "hello\n") is True
    assert (tmp_path / "a" / "b" / "x.yaml").read_text(encoding="utf-8") == "hello\n"
    assert [p.name for p in (tmp_path / "a" / "b").iterdir()] == ["x.yaml"]     # no temporary file left


def test_an_existing_file_is_replaced_by_a_rename_not_truncated(tmp_path):
    target = tmp_path / "x.yaml"
    target.write_text("old\n", encoding="utf-8")
    target.chmod(0o640)
    os.link(target, tmp_path / "other-name")
    before = target.stat().st_ino
    write_file(target, "new\n")
    assert target.read_text(encoding="utf-8") == "new\n"
    assert (tmp_path / "other-name").read_text(encoding="utf-8") == "old\n"      # truncating would change it too
    assert target.stat().st_ino != before
    assert target.stat().st_mode & 0o777 == 0o640                                # the mode it had


def test_a_link_is_refused_and_its_target_unchanged(tmp_path):
    precious = tmp_path / "precious"
    precious.write_text("keep me\n", encoding="utf-8")
    (tmp_path / "x.yaml").symlink_to(precious)
    (tmp_path / "dangling.yaml").symlink_to(tmp_path / "nothing-yet")
    for name in ("x.yaml", "dangling.yaml"):
        with pytest.raises(RulespecError) as info:
            write_file(tmp_path / name, "evil\n")
        assert info.value.message.startswith(f"{tmp_path / name}: refusing to write it: it is a symbolic link")
    assert precious.read_text(encoding="utf-8") == "keep me\n"
    assert not (tmp_path / "nothing-yet").exists()


def test_a_linked_folder_below_inside_is_refused(tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / ".rulespec").symlink_to(elsewhere)
    with pytest.raises(RulespecError, match=r"refusing to write it: .*\.rulespec is a symbolic link"):
        write_file(repo / ".rulespec" / "s.json", "{}", inside=repo)
    assert list(elsewhere.iterdir()) == []


def test_anything_but_a_regular_file_is_refused(tmp_path):
    (tmp_path / "folder.yaml").mkdir()
    os.mkfifo(tmp_path / "fifo.yaml")
    for name, kind in (("folder.yaml", "a folder"), ("fifo.yaml", "a FIFO")):
        with pytest.raises(RulespecError, match=f"cannot write it: it is {kind}, not a regular file"):
            write_file(tmp_path / name, "x")


def test_if_changed_leaves_the_same_text_alone(tmp_path):
    target = tmp_path / "x.json"
    write_file(target, "{}")
    before = target.stat().st_ino
    assert write_file(target, "{}", if_changed=True) is False
    assert target.stat().st_ino == before
    assert write_file(target, "[]", if_changed=True) is True


# ---------------------------------------------------------------- each writer of the command line


def _link_to_precious(tmp_path, name: str) -> tuple[Path, Path]:
    precious = tmp_path / "precious.txt"
    precious.write_text("keep me\n", encoding="utf-8")
    link = tmp_path / "work" / name
    link.parent.mkdir(parents=True, exist_ok=True)
    link.symlink_to(precious)
    return link, precious


def _refused(code, text, link, precious):
    assert code == 2, text
    assert f"{link}: refusing to write it:" in text and "symbolic link" in text and "Traceback" not in text, text
    assert precious.read_text(encoding="utf-8") == "keep me\n"


def test_new_refuses_a_linked_schema_copy(tmp_path, monkeypatch):
    # A cloned repository can hold `.rulespec/ruleset.schema.json` as a link to any file of the user's:
    # `rulespec new` refreshed the schema copy through it, overwriting the link's target.
    monkeypatch.chdir(tmp_path)
    link, precious = _link_to_precious(tmp_path, ".rulespec/ruleset.schema.json")
    code, out, err = cli("new", "mine", "--extends", "cirulla", "-o", "work/mine.yaml")
    _refused(code, err, tmp_path / "work" / ".rulespec" / "ruleset.schema.json", precious)
    assert not (tmp_path / "work" / "mine.yaml").exists()             # nothing half done


def test_new_refuses_a_linked_rulespec_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (tmp_path / "work").mkdir()
    (tmp_path / "work" / ".rulespec").symlink_to(elsewhere)
    code, out, err = cli("new", "mine", "--extends", "cirulla", "-o", "work/mine.yaml")
    assert code == 2 and ".rulespec is a symbolic link" in err, err
    assert list(elsewhere.iterdir()) == []


def test_new_and_record_refuse_a_linked_output(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    link, precious = _link_to_precious(tmp_path, "out.yaml")
    code, out, err = cli("new", "mine", "--extends", "cirulla", "-o", str(link), "--force")
    _refused(code, err, link, precious)
    code, out, err = cli("record", "cirulla", "-o", str(link), "--force")
    _refused(code, err, link, precious)


@pytest.mark.parametrize("argv", [["replay", str(RECORDED)], ["record", "cirulla"],
                                  ["simulate", "cirulla", "--hands", "2", "--workers", "1"]])
def test_html_refuses_a_linked_page(tmp_path, argv):
    link, precious = _link_to_precious(tmp_path, "page.html")
    code, out, err = cli(*argv, "--html", str(link))
    _refused(code, err, link, precious)


def _failing_recorded(folder: Path) -> Path:
    """A recorded transcript whose first expected total is wrong: `--update` rewrites it."""
    text = RECORDED.read_text(encoding="utf-8")
    changed = re.sub(r"(total: )(\d+)", lambda m: m.group(1) + str(int(m.group(2)) + 1), text, count=1)
    assert changed != text
    path = folder / "hand.yaml"
    path.write_text(changed, encoding="utf-8")
    return path


def test_update_refuses_a_linked_transcript_and_replaces_a_file_whole(tmp_path):
    folder = tmp_path / "golden"
    folder.mkdir()
    kept = _failing_recorded(tmp_path)                  # outside the folder: the link's target
    before = kept.read_text(encoding="utf-8")
    (folder / "linked.yaml").symlink_to(kept)
    code, out, err = cli("test", "--update", str(folder))
    assert code == 1, out + err
    assert f"cannot update: {folder / 'linked.yaml'}: refusing to write it: it is a symbolic link" in out, out
    assert kept.read_text(encoding="utf-8") == before
    (folder / "linked.yaml").unlink()
    own = _failing_recorded(folder)
    os.link(own, tmp_path / "second-name")
    code, out, err = cli("test", "--update", str(folder))
    assert code == 0 and "1 updated" in out, out + err
    assert (tmp_path / "second-name").read_text(encoding="utf-8") == before     # renamed over, not truncated
    assert own.read_text(encoding="utf-8") != before


# ---------------------------------------------------------------- no other way to write a file


# The files that write with their own care: the one helper everything else uses, and the caches in the user's
# private cache folder (opened without following links, written by a rename; the expression parser's folder for
# Lark's cache), each with the kinds of write it may make (None: any).
# The caches write their own private files (source/owned.py: never through a link, renamed into place).
OWN_WRITERS = {"source/writes.py": None, "source/owned.py": None, "compiler/cache.py": None,
               "compiler/native.py": None, "lang/larkcache.py": None,
               # SharedMemory.unlink(): the vector workers' shared arrays, segments this process created (no path)
               "interop/vector_workers.py": (".unlink()",)}
# Path's (a `.replace(` is too often a string's to tell apart here; os.replace is caught by name).
_WRITE_METHODS = {"write_text", "write_bytes", "mkdir", "touch", "symlink_to", "hardlink_to", "rename", "unlink"}
_WRITE_FUNCTIONS = {("os", n) for n in ("replace", "rename", "renames", "link", "symlink", "truncate", "mkdir",
                                        "makedirs", "mkfifo", "remove", "unlink")} | \
    {("shutil", n) for n in ("copy", "copy2", "copyfile", "copytree", "move", "rmtree")} | \
    {("tempfile", n) for n in ("mkstemp", "mkdtemp", "NamedTemporaryFile", "TemporaryFile")}
_WRITE_FLAGS = {"O_WRONLY", "O_RDWR", "O_CREAT", "O_TRUNC", "O_APPEND"}


def _mode(node: ast.Call, position: int):
    """The mode argument of an open call (positional at `position`, or mode=), when written as a constant."""
    for kw in node.keywords:
        if kw.arg == "mode":
            return kw.value.value if isinstance(kw.value, ast.Constant) else "?"
    if len(node.args) > position:
        arg = node.args[position]
        return arg.value if isinstance(arg, ast.Constant) else "?"
    return "r"


def direct_writes(source: str) -> list[tuple[int, str]]:
    """(line, what) of each call in `source` that writes, creates or removes a file otherwise than by writes.py."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        owner = func.value.id if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) else None
        name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None
        if (owner, name) in _WRITE_FUNCTIONS:
            found.append((node.lineno, f"{owner}.{name}"))
        elif owner == "os" and name == "open":
            flags = {n.attr for n in ast.walk(node.args[1]) if isinstance(n, ast.Attribute)} if len(node.args) > 1 \
                else set()
            devnull = isinstance(node.args[0], ast.Attribute) and node.args[0].attr == "devnull"
            if flags & _WRITE_FLAGS and not devnull:
                found.append((node.lineno, "os.open for writing"))
        elif name == "open" or (owner == "os" and name == "fdopen"):
            builtin = isinstance(func, ast.Name) or owner in ("io", "os", "codecs")
            mode = str(_mode(node, 1 if builtin else 0))
            # A method's first argument is a mode only when it reads as one (Path.open("w"), not Lark.open(name)).
            if set(mode) & set("wax+?") and (builtin or set(mode) <= set("rwxabt+?")):
                found.append((node.lineno, f"open(..., {mode!r})"))
        elif isinstance(func, ast.Attribute) and owner not in ("os", "shutil", "tempfile") and name in _WRITE_METHODS:
            found.append((node.lineno, f".{name}()"))
    return found


def test_the_scan_finds_each_kind_of_direct_write():
    source = "\n".join(["p.write_text(t)", "open(p, 'w')", "open(p, mode='a')", "io.open(p, 'wb')", "p.open('w')",
                        "os.open(p, os.O_WRONLY | os.O_CREAT)", "os.replace(a, b)", "shutil.copy(a, b)",
                        "Path(p).mkdir()", "tempfile.mkstemp()", "p.unlink()",
                        "open(p)", "p.open()", "os.open(p, os.O_RDONLY)", "os.open(os.devnull, os.O_WRONLY)",
                        "text.replace('a', 'b')"])
    assert [line for line, _ in direct_writes(source)] == list(range(1, 12))


def test_no_module_writes_a_file_but_through_writes_py():
    offenders = []
    for folder in (PACKAGE, PACKAGE / "compiler"):          # rulespec/compiler links to the checkout's compiler/
        for path in sorted(folder.rglob("*.py")):
            rel = path.relative_to(PACKAGE).as_posix()
            if (rel in OWN_WRITERS and OWN_WRITERS[rel] is None) or (folder == PACKAGE and rel.startswith("compiler/")):
                continue
            offenders += [f"{rel}:{line}: {what}" for line, what in direct_writes(path.read_text(encoding="utf-8"))
                          if what not in OWN_WRITERS.get(rel, ())]
    assert offenders == [], "write files with rulespec.source.writes.write_file:\n" + "\n".join(offenders)


@pytest.mark.parametrize("name", ["", ".", "..", "some/folder/"])
def test_a_name_that_is_no_file_is_refused(name, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(RulespecError, match="cannot write '.*': (an empty name names no file|it names a folder)"):
        write_file(name, "x")
    assert list(tmp_path.iterdir()) == []
