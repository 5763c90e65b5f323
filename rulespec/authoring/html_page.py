"""One self-contained HTML page: inline style, inline script, inline data; nothing fetched from anywhere.

Text from a ruleset (names, descriptions) is untrusted: it reaches the page
only through `html.escape` here, or as JSON data that the page's script puts
into the document with `textContent`, never as markup. The Content Security
Policy forbids every network fetch, so a page cannot call out even if a
browser extension or a future edit tried to.
"""
from __future__ import annotations

import html
import json

CSP = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:"


def esc(text) -> str:
    """Text for HTML content or a quoted attribute."""
    return html.escape(str(text), quote=True)


def script_json(data) -> str:
    """JSON that is safe inside <script type="application/json">: no `<`, `>` or `&` can end the element."""
    text = json.dumps(data, ensure_ascii=True, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def page(title: str, body: str, *, css: str, script: str = "", data=None) -> str:
    """The whole document; `body` is markup already escaped by its maker, `data` goes in as JSON."""
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{esc(title)}</title>",
        f"<style>{css}</style>",
        "</head>",
        "<body>",
        body,
    ]
    if data is not None:
        parts.append(f'<script type="application/json" id="data">{script_json(data)}</script>')
    if script:
        parts.append(f"<script>{script}</script>")
    parts += ["</body>", "</html>", ""]
    return "\n".join(parts)
