"""`rulespec list`: the shipped rulesets, with base, source document and description."""
from __future__ import annotations


def register(sub) -> None:
    ls = sub.add_parser("list", help="list the shipped rulesets")
    ls.set_defaults(func=run)


def run(args, out, err) -> int:
    from rulespec.lang import model
    from rulespec.source.rulesets import shipped_ids
    for rid in shipped_ids():
        rs = model.load(rid)
        base = rs.base or "-"
        print(f"{rid:32} {base:16} {rs.source:22} {rs.description}", file=out)
    return 0
