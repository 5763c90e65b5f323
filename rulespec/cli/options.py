"""What several commands share: `--option NAME=VALUE`, compiling the ruleset named on the line, warnings."""
from __future__ import annotations

from rulespec.errors import RulespecError
from rulespec.source.option_pairs import BOOL_WORDS, parse_options

__all__ = ["BOOL_WORDS", "add_option_argument", "add_root_argument", "compile_named", "named_options",
           "parse_options", "policy_readers", "print_warnings"]


def add_option_argument(parser, help: str = "set an option the ruleset declares (repeatable)") -> None:
    """`--option NAME=VALUE`, repeatable: an option the ruleset declares."""
    parser.add_argument("--option", action="append", metavar="NAME=VALUE", help=help)


def add_root_argument(parser) -> None:
    """`--root DIR`: every file read (rulesets, what they extend, transcripts) must lie under DIR."""
    parser.add_argument("--root", metavar="DIR",
                        help="read files only under this folder (for rulesets and transcripts from strangers)")


def named_options(ref, option_pairs: list[str] | None, root: str | None = None) -> dict | None:
    """The `--option` values for the ruleset `ref` names, each read as its declared type (None for none)."""
    if not option_pairs:
        return None
    from rulespec.lang import model
    return parse_options(option_pairs, model.load(ref, root=root).options) or None


def compile_named(ref, option_pairs: list[str] | None = None, root: str | None = None):
    """Compile the ruleset a command names (an id or a path) with its `--option` values, confined to `root`."""
    from rulespec.compiler.build import compile_ruleset
    return compile_ruleset(ref, named_options(ref, option_pairs, root), root=root)


def print_warnings(compiled, err) -> None:
    """Lint's warnings (rulespec/checks/lint.py), located like errors; they do not fail the command."""
    for w in compiled.warnings:
        print(w.render(), file=err)


def policy_readers(bots: str | None) -> None:
    """Where `--bots` names a perceptron policy (`policy:FILE.npz`), load its reader (rulespec/interop/mlp.py,
    which needs numpy: the `rl` extra); only then, so that other command lines do not import numpy."""
    if not bots or "policy:" not in bots:
        return
    from rulespec.bots.shipped import POLICIES_DIR, is_name
    shipped_npz = any(spec.startswith("policy:") and is_name(spec[7:]) and (POLICIES_DIR / f"{spec[7:]}.npz").is_file()
                      for spec in bots.split(","))
    if ".npz" not in bots.lower() and not shipped_npz:
        return
    try:
        import rulespec.interop.mlp  # noqa: F401 - adds the .npz reader to bots/saved.py's LOADERS
    except ImportError as exc:
        raise RulespecError(f"an .npz policy plays through numpy, which is not installed ({exc.name}): "
                            f"pip install 'rulespec[rl]'") from None
