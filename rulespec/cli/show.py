"""`rulespec show RULESET [--merged]`: a ruleset's YAML, to read or to start a variant from.

A shipped ruleset's file lies inside the installed package, where a user who
installed with pip does not go looking: this prints it as written (comments
included), its editor line (`# yaml-language-server: $schema=...`) pointing
where a file saved in the current folder finds the schema, as `rulespec new`
would write it (the shipped file's own line points inside the package, which
moves with every virtual environment). `--merged` prints the ruleset after inheritance instead (every key
its `extends:` chain gives it, the nearest file's value winning; comments are
not kept), checked as `rulespec validate` checks it: a file that stands
alone, without `extends:`, and makes the same game."""
from __future__ import annotations

from rulespec.cli.options import add_root_argument


def register(sub) -> None:
    s = sub.add_parser("show", help="print a ruleset's YAML (a shipped id or a path); --merged: after extends")
    s.add_argument("ruleset", help="a shipped id (see rulespec list) or a path to a .yaml file")
    s.add_argument("--merged", action="store_true",
                   help="the ruleset after inheritance: what its extends: chain gives it, checked (no comments)")
    add_root_argument(s)
    s.set_defaults(func=run)


def run(args, out, err) -> int:
    from rulespec.source.files import read_regular
    from rulespec.source.rulesets import load_merged, locate
    if not args.merged:
        path = locate(args.ruleset, root=args.root)
        out.write(_schema_here(read_regular(path, None, what="ruleset").decode("utf-8", errors="replace"), err))
        return 0
    from rulespec.compiler.build import compile_ruleset
    compile_ruleset(args.ruleset, root=args.root)        # the merged ruleset checked whole, errors located
    merged, _files, _docs = load_merged(args.ruleset, root=args.root)
    from rulespec.source.yamlsafe import plain
    whole = {key: value for key, value in plain(merged).items() if key != "extends"}     # stands alone
    import yaml
    out.write(yaml.safe_dump(whole, sort_keys=False, allow_unicode=True, width=100))
    return 0



_EDITOR_LINE = "# yaml-language-server: $schema="


def _schema_here(text: str, err) -> str:
    """`text` with its editor line's `$schema` made right for a file saved in the current folder, saying on
    `err` how to get the schema copy it names when there is none yet."""
    if not text.startswith(_EDITOR_LINE):
        return text
    from pathlib import Path

    from rulespec.authoring.scaffold import schema_ref
    ref, copy = schema_ref(Path.cwd())
    if copy is not None and not copy.is_file():
        print(f"rulespec: the editor line names {ref}, which is not there yet: "
              f"`mkdir -p {Path(ref).parent.as_posix()} && rulespec schema > {ref}` writes it",
              file=err)
    first, _, rest = text.partition("\n")
    return f"{_EDITOR_LINE}{ref}\n{rest}"
