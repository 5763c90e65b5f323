"""Where an author's golden transcripts live: `rulespec.toml`, or `[tool.rulespec]` in pyproject.toml.

    # rulespec.toml                      # pyproject.toml
    golden = ["golden"]                  [tool.rulespec]
                                         golden = ["golden"]

`golden` is a folder or file, or a list of them, relative to the file that
says it. The nearest of the current folder and its parents that has either
file decides (rulespec.toml first). `rulespec test` with no paths and the
pytest plugin read it; without one, `./tests/golden` is the default.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from rulespec.errors import RulespecError

KEYS = ("golden",)
DEFAULT_GOLDEN = "tests/golden"


@dataclass(frozen=True)
class Config:
    """The settings read, and the file they came from (None: the defaults)."""

    file: Path | None
    golden: list[Path]


def _toml(path: Path) -> dict:
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10
        try:
            import tomli as tomllib
        except ModuleNotFoundError:
            raise RulespecError(f"{path}: reading its rulespec settings needs Python 3.11 or the tomli package "
                                f"(pip install tomli)") from None
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise RulespecError(f"{path}: not valid TOML: {exc}") from None


def _table(path: Path) -> dict | None:
    """The rulespec settings of one file, or None when it has none."""
    if path.name == "pyproject.toml":
        # Most pyproject files say nothing about rulespec: skip them without a TOML parser.
        if "[tool.rulespec" not in path.read_text(encoding="utf-8", errors="replace"):
            return None
        table = _toml(path).get("tool", {}).get("rulespec")
        return table if isinstance(table, dict) else None
    return _toml(path)


def _golden(path: Path, table: dict) -> list[Path]:
    where = "[tool.rulespec]" if path.name == "pyproject.toml" else "the file"
    unknown = sorted(set(table) - set(KEYS))
    if unknown:
        # The pyproject form pasted into rulespec.toml: say where each form goes.
        pasted = where == "the file" and isinstance(table.get("tool"), dict) and "rulespec" in table["tool"]
        hint = ("; a rulespec.toml gives them at its top level (golden = ...), the [tool.rulespec] table "
                "is for pyproject.toml") if pasted else ""
        raise RulespecError(f"{path}: unknown key '{unknown[0]}' in {where}; expected one of: {', '.join(KEYS)}"
                            f"{hint}")
    golden = table.get("golden", DEFAULT_GOLDEN)
    items = [golden] if isinstance(golden, str) else golden
    if not isinstance(items, list) or not items or not all(isinstance(g, str) and g for g in items):
        raise RulespecError(f"{path}: golden must be a folder or file, or a list of them (relative to {path.name}), "
                            f"found {golden!r}")
    return [path.parent / g for g in items]


def load(start: Path | None = None) -> Config:
    """The settings for the folder `start` (the current folder by default)."""
    start = (start or Path.cwd()).resolve()
    for folder in [start, *start.parents]:
        for name in ("rulespec.toml", "pyproject.toml"):
            path = folder / name
            if path.is_file():
                table = _table(path)
                if table is not None:
                    return Config(path, _golden(path, table))
    return Config(None, [start / DEFAULT_GOLDEN])
