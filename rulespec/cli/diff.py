"""`rulespec diff A B`: what differs between two rulesets after inheritance, in words."""
from __future__ import annotations

from rulespec.cli.options import compile_named


def register(sub) -> None:
    d = sub.add_parser("diff", help="the differences between two rulesets after inheritance, in words "
                                    "(exit status 1 when they differ, as diff)")
    d.add_argument("a")
    d.add_argument("b")
    d.set_defaults(func=run)


def run(args, out, err) -> int:
    """Exit status as diff's: 0 when the rules are the same, 1 when they differ, 2 for an error."""
    from rulespec.authoring.diff import differences, report
    a, b = compile_named(args.a).ruleset, compile_named(args.b).ruleset
    out.write(report(a, b))
    return 1 if differences(a, b) else 0
