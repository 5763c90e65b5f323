"""Policies shipped inside the package (rulespec/policies: trained agents' files, each with a note on how it was
trained), named by their file's stem: `--bots policy:NAME`.

A bare name (letters, digits, `-` and `_`, no folder, no .json or .npz suffix) is looked up here only where no
file of that name exists (bots/registry.py), so a folder's own file of the name still wins; a missing path
stays a missing file. An unknown name is one message listing the shipped policies.
"""
from __future__ import annotations

import re
from pathlib import Path

from rulespec.errors import RulespecError

POLICIES_DIR = Path(__file__).resolve().parent.parent / "policies"
SUFFIXES = (".npz", ".json")
_NAME = re.compile(r"[a-z0-9][a-z0-9_-]{0,63}")


def shipped_policies() -> list[str]:
    """The names of the shipped policies, sorted."""
    if not POLICIES_DIR.is_dir():
        return []
    return sorted(p.stem for p in POLICIES_DIR.iterdir() if p.suffix in SUFFIXES and _NAME.fullmatch(p.stem))


def is_name(spec: str) -> bool:
    """Whether a `policy:` argument may name a shipped policy (not a path, not a file name with a suffix)."""
    return bool(_NAME.fullmatch(spec)) and not spec.lower().endswith(SUFFIXES)


def shipped_path(name: str) -> Path:
    """The file of the shipped policy `name`; a RulespecError naming the shipped ones if there is none.

    An .npz policy plays through numpy (rulespec/interop/mlp.py, which adds its reader to bots/saved.py's
    LOADERS when imported: the command line imports it for a shipped .npz name too, cli/options.py)."""
    names = shipped_policies()
    if name in names:
        return next(POLICIES_DIR / f"{name}{s}" for s in SUFFIXES if (POLICIES_DIR / f"{name}{s}").is_file())
    raise RulespecError(f"policy:{name}: no such policy file, and no shipped policy of that name (shipped: "
                        f"{', '.join(names) or 'none'}; or give a .json or .npz file's path)")
