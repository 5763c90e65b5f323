"""`rulespec schema [ruleset|transcript]`: print a JSON Schema (for editors)."""
from __future__ import annotations

import json


def register(sub) -> None:
    sc = sub.add_parser("schema", help="print the JSON Schema of rulesets or transcripts (for editors)")
    sc.add_argument("kind", nargs="?", choices=["ruleset", "transcript"], default="ruleset")
    sc.set_defaults(func=run)


def run(args, out, err) -> int:
    from rulespec.source.validate import load_schema
    print(json.dumps(load_schema(args.kind), indent=2, ensure_ascii=False), file=out)
    return 0
