"""`rulespec compile RULESET [--emit]`: compile a ruleset; --emit prints the generated Python."""
from __future__ import annotations

import time

from rulespec.cli.options import add_option_argument, add_root_argument, compile_named, print_warnings


def register(sub) -> None:
    c = sub.add_parser("compile", help="compile a ruleset (--emit prints the generated Python)")
    c.add_argument("ruleset")
    c.add_argument("--emit", action="store_true")
    add_option_argument(c)
    add_root_argument(c)
    c.set_defaults(func=run)


def run(args, out, err) -> int:
    t0 = time.perf_counter()
    c = compile_named(args.ruleset, args.option, args.root)
    dt = (time.perf_counter() - t0) * 1000
    print_warnings(c, err)
    if args.emit:
        out.write(c.source)
    else:
        print(f"compiled {c.id}: {len(c.source.splitlines())} lines of Python in {dt:.1f} ms "
              f"(use --emit to print them)", file=out)
    return 0
