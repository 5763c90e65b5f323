"""`rulespec list`: the shipped rulesets: id, base, description and [source document].

On a terminal: a header row and descriptions wrapped to 80 columns. Piped: one line per ruleset
(id, base, description [source]), so that grep and cut see every ruleset whole."""
from __future__ import annotations

import textwrap

WIDTH = 80


def register(sub) -> None:
    ls = sub.add_parser("list", help="list the shipped rulesets")
    ls.set_defaults(func=run)


def run(args, out, err) -> int:
    # The files' top-level keys only: loading each ruleset (schema, expressions) cost 1.8 s for 44 of them.
    from rulespec.source.summaries import shipped_summaries
    rows = [(s.id, s.base or "-", f"{s.description} [{s.source}]" if s.source else s.description)
            for s in shipped_summaries()]
    tty = getattr(out, "isatty", lambda: False)()
    if tty:
        rows.insert(0, ("ID", "BASE", "DESCRIPTION [SOURCE DOCUMENT]"))
    id_width = max(len(r[0]) for r in rows)
    base_width = max(len(r[1]) for r in rows)
    if not tty:
        for rid, base, text in rows:
            print(f"{rid:{id_width}}  {base:{base_width}}  {text}".rstrip(), file=out)
        return 0
    indent = " " * (id_width + base_width + 4)
    for rid, base, text in rows:
        # The description wraps under itself, so that every line fits 80 columns.
        lines = textwrap.wrap(text, WIDTH - len(indent)) or [""]
        print(f"{rid:{id_width}}  {base:{base_width}}  {lines[0]}".rstrip(), file=out)
        for line in lines[1:]:
            print(indent + line, file=out)
    return 0
