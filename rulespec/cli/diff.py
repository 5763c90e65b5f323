"""`rulespec diff A B`: what differs between two rulesets after inheritance, in words."""
from __future__ import annotations

from rulespec.cli.options import add_root_argument, compile_named


def register(sub) -> None:
    d = sub.add_parser("diff", help="the differences between two rulesets after inheritance, in words "
                                    "(exit status 1 when they differ, as diff)")
    d.add_argument("a", metavar="A", help="the first ruleset: a shipped id or a path")
    d.add_argument("b", metavar="B", help="the second ruleset, compared with A")
    add_root_argument(d)
    d.set_defaults(func=run)


def run(args, out, err) -> int:
    """Exit status as diff's: 0 when the rules are the same, 1 when they differ, 2 for an error."""
    from rulespec.authoring.diff import differences, report
    a, b = compile_named(args.a, root=args.root).ruleset, compile_named(args.b, root=args.root).ruleset
    out.write(report(a, b))
    return 1 if differences(a, b) else 0
