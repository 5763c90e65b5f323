"""`rulespec compile RULESET [--target python|c] [--emit]`: compile a ruleset; --emit prints the generated source."""
from __future__ import annotations

import time

from rulespec.cli.options import add_option_argument, add_root_argument, compile_named, print_warnings


def register(sub) -> None:
    c = sub.add_parser("compile", help="compile a ruleset (--emit prints the generated Python, or C with --target c)")
    c.add_argument("ruleset", help="a shipped id (see rulespec list) or a path to a .yaml file")
    c.add_argument("--emit", action="store_true", help="print the generated source instead of a summary")
    c.add_argument("--target", choices=["python", "c"], default="python",
                   help="python (the engine's module) or c (native playouts, built with the system C compiler)")
    add_option_argument(c)
    add_root_argument(c)
    c.set_defaults(func=run)


def run(args, out, err) -> int:
    t0 = time.perf_counter()
    c = compile_named(args.ruleset, args.option, args.root)
    print_warnings(c, err)
    if args.target == "c":
        return _run_c(args, c, t0, out)
    dt = (time.perf_counter() - t0) * 1000
    if args.emit:
        out.write(c.source)
    else:
        print(f"compiled {c.id}: {len(c.source.splitlines())} lines of Python in {dt:.1f} ms "
              f"(use --emit to print them)", file=out)
    return 0


def _run_c(args, c, t0, out) -> int:
    """--target c: print the C source (--emit, no compiler needed), or build it into the cache."""
    from rulespec.compiler import native
    source = native.source_of(c)
    if args.emit:
        out.write(source)
        return 0
    lib = native.build(source)
    dt = (time.perf_counter() - t0) * 1000
    print(f"compiled {c.id}: {len(source.splitlines())} lines of C, built {lib} in {dt:.1f} ms "
          f"(use --emit to print them)", file=out)
    return 0
