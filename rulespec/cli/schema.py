"""`rulespec schema [ruleset|transcript]`: print a JSON Schema (for editors)."""
from __future__ import annotations


def register(sub) -> None:
    sc = sub.add_parser("schema", help="print the JSON Schema of rulesets or transcripts (for editors)")
    sc.add_argument("kind", nargs="?", choices=["ruleset", "transcript"], default="ruleset",
                    help="which schema (default ruleset)")
    sc.set_defaults(func=run)


def run(args, out, err) -> int:
    # The file as shipped, the form written for editors (rulespec's own checks read it through load_schema).
    from rulespec.source.validate import SCHEMA_DIR
    out.write((SCHEMA_DIR / f"{args.kind}.schema.json").read_text(encoding="utf-8"))
    return 0
