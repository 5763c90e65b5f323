"""`rulespec diff A B`: what differs between two rulesets after inheritance, in words."""
from __future__ import annotations

from rulespec.cli.options import compile_named


def register(sub) -> None:
    d = sub.add_parser("diff", help="the differences between two rulesets after inheritance, in words")
    d.add_argument("a")
    d.add_argument("b")
    d.set_defaults(func=run)


def run(args, out, err) -> int:
    from rulespec.authoring.diff import report
    out.write(report(compile_named(args.a).ruleset, compile_named(args.b).ruleset))
    return 0
