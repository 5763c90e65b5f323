"""`rulespec schema [ruleset|transcript]`: print a JSON Schema (for editors)."""
from __future__ import annotations


def register(sub) -> None:
    sc = sub.add_parser("schema", help="print the JSON Schema of rulesets or transcripts (for editors)")
    sc.add_argument("kind", nargs="?", choices=["ruleset", "transcript"], default="ruleset",
                    help="which schema (default ruleset)")
    sc.set_defaults(func=run)


def run(args, out, err) -> int:
    # The file as shipped, the form written for editors (rulespec's own checks read it through load_schema).
    # Found here, not through rulespec.source.validate: its import (jsonschema, the YAML loader) cost 0.3 s.
    from pathlib import Path
    folder = Path(__file__).resolve().parent.parent / "schemas"
    out.write((folder / f"{args.kind}.schema.json").read_text(encoding="utf-8"))
    return 0
