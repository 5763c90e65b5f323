"""`rulespec new NAME --extends BASE [-o FILE]`: write a starter variant that validates as written."""
from __future__ import annotations

import os
from pathlib import Path

from rulespec.errors import RulespecError


def register(sub) -> None:
    n = sub.add_parser("new", help="write a starter variant file")
    n.add_argument("name", help="the variant's id, and its file's name (NAME.yaml) unless -o")
    n.add_argument("--extends", required=True, metavar="BASE", help="the base: a shipped id or a ruleset file")
    n.add_argument("-o", "--output", metavar="FILE", help="the file to write (default: NAME.yaml here)")
    n.add_argument("--force", action="store_true", help="overwrite FILE if it exists")
    n.set_defaults(func=run)


def run(args, out, err) -> int:
    """`rulespec new NAME --extends BASE [-o FILE]`."""
    # Imported here: the other commands start without the model and its schema validator.
    from rulespec.authoring.scaffold import schema_ref, starter, write_schema_copy
    from rulespec.source.writes import write_file
    path = Path(args.output) if args.output else Path(f"{args.name}.yaml")
    if path.exists() and not args.force:
        raise RulespecError(f"{path} already exists; choose another name, -o FILE, or --force to overwrite it")
    text = starter(args.name, args.extends, path)
    # The schema copy first: refused (a link in a cloned repository), it leaves no variant behind either.
    copy = schema_ref(path.parent)[1]
    copied = copy is not None and write_schema_copy(copy)
    write_file(path, text)
    print(f"wrote {path}: a variant of {args.extends}; check it with `rulespec validate {path}`", file=out)
    if copied:
        shown = os.path.relpath(copy) if not os.path.isabs(args.output or "") else copy
        print(f"wrote {shown}: the ruleset schema, for editors (the $schema line of {path.name} names it)", file=out)
    return 0
