"""The README's Python examples run as pasted (each ```python block, in a fresh namespace)."""
import importlib.util
import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parent.parent / "README.md"
BLOCKS = re.findall(r"^```python\n(.*?)^```", README.read_text(encoding="utf-8"), re.S | re.M)
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
    exec(compile(code, f"README.md python block {n + 1}", "exec"), {"__name__": "readme"})


def test_the_readme_counts_the_shipped_rulesets():
    """The README's "with N variants, and the Scopa family (...) — M rulesets": M is what ships, and
    N is what is left besides the ten games the sentence names."""
    from rulespec.source.rulesets import shipped_ids
    text = " ".join(README.read_text(encoding="utf-8").split())
    variants = int(re.search(r"Cirulla a cinque with (\d+) variants", text).group(1))
    total = int(re.search(r"— (\d+) rulesets, all shipped as data", text).group(1))
    named_games = ["cirulla", "cirullone", "cicera", "cirulla-a-cinque", "scopa", "scopa-d-assi", "re-bello",
                   "scopone", "scopone-scientifico", "escoba"]
    assert set(named_games) <= set(shipped_ids())
    assert (total, variants) == (len(shipped_ids()), len(shipped_ids()) - len(named_games))


TOML_BLOCKS = re.findall(r"^```toml\n(.*?)^```", README.read_text(encoding="utf-8"), re.S | re.M)


@pytest.mark.parametrize("n", range(len(TOML_BLOCKS)))
def test_readme_settings_work_in_the_file_they_are_shown_for(n, tmp_path):
    """A [tool.rulespec] block pasted into pyproject.toml, any other into rulespec.toml, names golden/."""
    pytest.importorskip("tomllib")
    from rulespec.transcripts import config
    text = TOML_BLOCKS[n]
    name = "pyproject.toml" if text.startswith("[tool.rulespec]") else "rulespec.toml"
    (tmp_path / name).write_text(text, encoding="utf-8")
    assert config.load(tmp_path).golden == [tmp_path / "golden"]
