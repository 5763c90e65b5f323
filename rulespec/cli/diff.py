"""`rulespec diff A B`: what differs between two rulesets after inheritance, in words."""
from __future__ import annotations

from rulespec.cli.options import add_root_argument, compile_named


def register(sub) -> None:
    d = sub.add_parser("diff", help="the differences between two rulesets after inheritance, in words")
    d.add_argument("a")
    d.add_argument("b")
    add_root_argument(d)
    d.set_defaults(func=run)


def run(args, out, err) -> int:
    from rulespec.authoring.diff import report
    out.write(report(compile_named(args.a, root=args.root).ruleset, compile_named(args.b, root=args.root).ruleset))
    return 0
