"""`rulespec explain RULESET [--html OUT] [--format markdown|html]`: the ruleset as a readable rulebook."""
from __future__ import annotations

from rulespec.cli.options import add_option_argument, add_root_argument, compile_named
from rulespec.cli.pages import add_html_argument


def register(sub) -> None:
    e = sub.add_parser("explain", help="the ruleset as a readable rulebook (Markdown; --html OUT: also a page)")
    e.add_argument("ruleset", help="a shipped id (see rulespec list) or a path to a .yaml file")
    add_html_argument(e, "the rulebook (standard output keeps the Markdown)")
    e.add_argument("--format", choices=["markdown", "html"], default="markdown",
                   help="what standard output gets: markdown (default) or the HTML page itself")
    add_option_argument(e)
    add_root_argument(e)
    e.set_defaults(func=run)


def run(args, out, err) -> int:
    from rulespec.authoring.explain import explain
    ruleset = compile_named(args.ruleset, args.option, args.root).ruleset
    if args.html is not None:
        from rulespec.cli.pages import write_page
        # "wrote OUT" on stderr: standard output is the rulebook, for a pipe or a redirection
        write_page(args.html, explain(ruleset, "html"), err)
    out.write(explain(ruleset, args.format))
    return 0
