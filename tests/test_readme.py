"""The README's examples run as written, and those that moved with their text: docs/python.md's Python blocks
(each ```python block, in a fresh namespace), docs/cli.md's settings and quoted failure."""
import importlib.util
import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parent.parent / "README.md"
PYTHON = README.parent / "docs" / "python.md"
CLI = README.parent / "docs" / "cli.md"
BLOCKS = re.findall(r"^```python\n(.*?)^```", PYTHON.read_text(encoding="utf-8"), re.S | re.M)
# The game-AI adapters' block needs the `rl` extra.
NEEDS = {"rulespec.interop": ("pettingzoo", "gymnasium", "pyspiel")}


def test_the_readme_has_python_examples():
    assert len(BLOCKS) >= 4


@pytest.mark.parametrize("n", range(len(BLOCKS)))
def test_readme_python_block_runs(n, capsys):
    code = BLOCKS[n]
    for marker, modules in NEEDS.items():
        missing = [m for m in modules if marker in code and importlib.util.find_spec(m) is None]
        if missing:
            pytest.skip(f"needs {', '.join(missing)} (pip install '.[rl]')")
    exec(compile(code, f"docs/python.md python block {n + 1}", "exec"), {"__name__": "readme"})


def test_the_readme_counts_the_shipped_rulesets():
    """The README's "with N variants, and the Scopa family (...) — M rulesets": M is what ships, and
    N is what is left besides the games the sentence names."""
    from rulespec.source.rulesets import shipped_ids
    text = " ".join(README.read_text(encoding="utf-8").split())
    variants = int(re.search(r"Cirulla a cinque with (\d+) variants", text).group(1))
    total = int(re.search(r"— (\d+) rulesets, all shipped as data", text).group(1))
    named_games = ["cirulla", "cirullone", "cicera", "cirulla-a-cinque", "scopa", "scopa-d-assi", "re-bello",
                   "scopone", "scopone-scientifico", "escoba", "chkobba", "scopa-a-15", "kontsina", "tablanette", "pishti", "kseri",
                   "basra", "cuarenta", "kasino", "kasino-solo", "casino", "casino-royal", "zwicker", "seep",
                   "scopa-tiny"]
    assert set(named_games) <= set(shipped_ids())
    assert (total, variants) == (len(shipped_ids()), len(shipped_ids()) - len(named_games))


TOML_BLOCKS = re.findall(r"^```toml\n(.*?)^```", CLI.read_text(encoding="utf-8"), re.S | re.M)


@pytest.mark.parametrize("n", range(len(TOML_BLOCKS)))
def test_readme_settings_work_in_the_file_they_are_shown_for(n, tmp_path):
    """A [tool.rulespec] block pasted into pyproject.toml, any other into rulespec.toml, names golden/."""
    pytest.importorskip("tomllib")
    from rulespec.transcripts import config
    text = TOML_BLOCKS[n]
    name = "pyproject.toml" if text.startswith("[tool.rulespec]") else "rulespec.toml"
    (tmp_path / name).write_text(text, encoding="utf-8")
    assert config.load(tmp_path).golden == [tmp_path / "golden"]


def _author_commands() -> list[list[str]]:
    """The commands of the README's "One variant, written and run" block, comments dropped, split as a shell would."""
    import shlex
    text = README.read_text(encoding="utf-8")
    block = re.search(r"## One variant, written and run.*?^```\n(.*?)^```", text, re.S | re.M).group(1)
    return [shlex.split(line.split("#")[0]) for line in block.splitlines() if line.strip()]


def test_the_readme_author_loop_runs_as_written(tmp_path, monkeypatch):
    """Each command exits 0 in a fresh folder (diff: 1, for the variant is edited after `new`), `play`
    scripted with 1s."""
    import io
    from rulespec.cli.main import run
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * 200))
    commands = _author_commands()
    assert [c[1] for c in commands] == ["show", "new", "validate", "explain", "diff", "play", "simulate", "record", "test"]
    for argv in commands:
        assert argv[0] == "rulespec"
        out, err = io.StringIO(), io.StringIO()
        code = run(argv[1:], out, err)
        assert code == (1 if argv[1] == "diff" else 0), (argv, err.getvalue())
        if argv[1] == "new":  # the author's edit: one of the commented examples, uncommented
            with open("my-variant.yaml", "a", encoding="utf-8") as f:
                f.write("events:\n  scopa: {points: 2}\n")
    assert (tmp_path / "golden" / "mv.yaml").is_file()


def test_the_readme_failure_is_the_club_example_with_one_play_wrong(tmp_path, monkeypatch):
    """examples/club/ replays, and with play 5 taking 4H fails with the message the README quotes."""
    import io
    import shutil
    from rulespec.cli.main import run
    club = tmp_path / "club"
    shutil.copytree(README.parent / "examples" / "club", club)
    monkeypatch.chdir(club)
    out, err = io.StringIO(), io.StringIO()
    assert run(["test", "golden"], out, err) == 0, out.getvalue()
    hand = club / "golden" / "01-house-hand.yaml"
    right = "{seat: 1, card: 5S, capture: [], events: []}"
    assert hand.read_text(encoding="utf-8").count(right) == 1
    hand.write_text(hand.read_text(encoding="utf-8").replace(right, right.replace("[]", "[4H]", 1)), encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    assert run(["test", "golden"], out, err) == 1
    text = " ".join(CLI.read_text(encoding="utf-8").split())
    quoted = re.search(r"with play 5 of that hand taking a card it cannot: `([^`]*)`", text).group(1)
    assert quoted in " ".join(out.getvalue().split())
