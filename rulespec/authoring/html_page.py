"""One self-contained HTML page: inline style, inline script, inline data; nothing fetched from anywhere.

Text from a ruleset (names, descriptions) is untrusted: it reaches the page
only through `html.escape` here, or as JSON data that the page's script puts
into the document with `textContent`, never as markup. The Content Security
Policy forbids every network fetch, so a page cannot call out even if a
browser extension or a future edit tried to, and allows only the page's own
script (by its hash): no inline handler runs.
"""
from __future__ import annotations

import base64
import hashlib
import html
import json
import re

CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"


def csp(script: str) -> str:
    """The page's policy: nothing fetched; the one script allowed is `script`, named by its hash, so no
    inline handler (`onerror=...`) could run even if an escape were missed."""
    if not script:
        return CSP
    digest = base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode("ascii")
    return f"{CSP}; script-src 'sha256-{digest}'"


# Marks that change the direction text is drawn in (ALM, LRM, RLM, embeddings, overrides, isolates).
_BIDI = re.compile("[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
_ISOLATES = re.compile("[\u2066-\u2069]")


def isolate(text) -> str:
    """A stranger's text that holds direction marks, made one bidi isolate (FSI ... PDI).

    A right-to-left override in a ruleset's name would otherwise draw the words after it
    (ours: an id, a seat count) backwards, up to the end of the paragraph. Its own isolate
    marks are dropped, so that none can close ours early; text with no direction mark is
    returned unchanged.
    """
    text = str(text)
    if not _BIDI.search(text):
        return text
    return "\u2068" + _ISOLATES.sub("", text) + "\u2069"


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
        f'<meta http-equiv="Content-Security-Policy" content="{csp(script)}">',
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
