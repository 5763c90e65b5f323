"""Lines of generated Python, each remembering the source span it was written for.

Like Jinja's `CodeGenerator.writeline` with `debug_info`: an emitter writes
a line with `w(text)`; inside `with w.at(span):` every line records that span,
so a failure at a generated line can be reported at the YAML that wrote it.
"""
from __future__ import annotations

import re
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from rulespec.errors import Span
from rulespec.lang.model import Expression


@dataclass(frozen=True)
class Generated:
    """A generated module: its source and, per line (index 0 is line 1), the span that wrote it."""

    source: str
    line_map: tuple[Span | None, ...]

    def span_at(self, lineno: int) -> Span | None:
        """The source span of a 1-based generated line, or None for the module's own scaffolding."""
        if 1 <= lineno <= len(self.line_map):
            return self.line_map[lineno - 1]
        return None


class Writer:
    """Indented lines of Python with a span per line."""

    def __init__(self):
        self.lines: list[str] = []
        self.spans: list[Span | None] = []
        self.level = 0
        self.span: Span | None = None

    def __call__(self, line: str = "") -> None:
        self.lines.append(("    " * self.level + line) if line else "")
        self.spans.append(self.span if line else None)

    @contextmanager
    def block(self):
        """Lines written inside are indented one level more."""
        self.level += 1
        try:
            yield
        finally:
            self.level -= 1

    @contextmanager
    def at(self, span: Span | None):
        """Lines written inside were written for `span` (None keeps the enclosing one)."""
        outer = self.span
        self.span = span if span is not None else outer
        try:
            yield
        finally:
            self.span = outer

    def where(self, expr: Expression | None) -> None:
        """A `# file:line: text` comment naming the YAML that wrote the next lines."""
        if expr is not None:
            self(f"# {file_name(expr.span.file)}:{expr.span.line}: {_comment(expr.text)}")

    def result(self) -> Generated:
        return Generated("\n".join(self.lines) + "\n", tuple(self.spans))


def file_name(path) -> str:
    """A file's name for a comment or docstring: anything but plain name characters becomes '?'."""
    # File names come from strangers too: a quote would end the docstring, a newline the comment.
    return re.sub(r"[^A-Za-z0-9._+-]", "?", Path(str(path)).name)


def _comment(text: str) -> str:
    # Comments carry the expression for the reader; newlines would end the comment.
    flat = " ".join(text.split())
    return (flat[:100] + "...") if len(flat) > 100 else flat
