"""`rulespec explain RULESET [--format markdown|html]`: the ruleset as a readable rulebook."""
from __future__ import annotations

from rulespec.cli.options import add_option_argument, add_root_argument, compile_named


def register(sub) -> None:
    e = sub.add_parser("explain", help="the ruleset as a readable rulebook (Markdown, or --format html)")
    e.add_argument("ruleset")
    e.add_argument("--format", choices=["markdown", "html"], default="markdown",
                   help="markdown (default) or one HTML page")
    add_option_argument(e)
    add_root_argument(e)
    e.set_defaults(func=run)


def run(args, out, err) -> int:
    from rulespec.authoring.explain import explain
    out.write(explain(compile_named(args.ruleset, args.option, args.root).ruleset, args.format))
    return 0
