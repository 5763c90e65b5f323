"""Located errors: every problem rulespec reports carries a source span."""
from __future__ import annotations

TYPE_CHECKING = False            # typing's own flag, without importing typing
if TYPE_CHECKING:
    from typing import NoReturn

# Every command imports this module: it imports neither dataclasses (inspect, ast, dis, tokenize: about
# 7 ms of a process's start) nor difflib, which only a "did you mean" needs.


class Span:
    """A place in a source file: 1-based line and column, optional end.

    Written out as `@dataclass(frozen=True)` would generate it (same constructor, repr, equality, hash and
    refusal to change; tests/test_records.py compares the two), without importing dataclasses.
    """

    __match_args__ = ("file", "line", "column", "end_line", "end_column")

    file: str
    line: int
    column: int
    end_line: int | None = None
    end_column: int | None = None

    def __init__(self, file: str, line: int, column: int, end_line: int | None = None,
                 end_column: int | None = None) -> None:
        _set = object.__setattr__
        _set(self, "file", file)
        _set(self, "line", line)
        _set(self, "column", column)
        _set(self, "end_line", end_line)
        _set(self, "end_column", end_column)

    def __repr__(self) -> str:
        return (f"{type(self).__qualname__}(file={self.file!r}, line={self.line!r}, column={self.column!r}, "
                f"end_line={self.end_line!r}, end_column={self.end_column!r})")

    def __eq__(self, other):
        if other.__class__ is self.__class__:
            return (self.file, self.line, self.column, self.end_line, self.end_column) == \
                (other.file, other.line, other.column, other.end_line, other.end_column)
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self.file, self.line, self.column, self.end_line, self.end_column))

    def __setattr__(self, name, value):
        if type(self) is Span or name in Span.__match_args__:
            from dataclasses import FrozenInstanceError
            raise FrozenInstanceError(f"cannot assign to field {name!r}")
        super().__setattr__(name, value)

    def __delattr__(self, name):
        if type(self) is Span or name in Span.__match_args__:
            from dataclasses import FrozenInstanceError
            raise FrozenInstanceError(f"cannot delete field {name!r}")
        super().__delattr__(name)

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"

    def __deepcopy__(self, memo) -> "Span":
        return self          # immutable: copies of what holds spans share them

    def shifted(self, line_offset: int, column_offset: int) -> "Span":
        """This span moved into an enclosing text (expression inside YAML)."""
        col = self.column + (column_offset if self.line == 1 else 0)
        return Span(self.file, self.line + line_offset, col)


# Source texts seen so far, so that an error can show the offending line. Only text rulespec itself
# loaded as a ruleset or transcript is ever quoted: an error never opens a file to show a line of it
# (a span may name any file a stranger's reference pointed at).
_SOURCES: dict[str, str] = {}
_LINES: dict[str, list[str]] = {}      # a source's lines, split once for all the errors quoting it


def register_source(file: str, text: str) -> None:
    """Remember a file's text so errors located in it can quote it."""
    _SOURCES[file] = text
    _LINES.pop(file, None)


def forget_source(file: str) -> None:
    """Never quote this file's text (it turned out not to be a ruleset)."""
    _SOURCES.pop(file, None)
    _LINES.pop(file, None)


def source_line(span: Span) -> str | None:
    """The text of the span's line, or None if the file's text was not loaded as a ruleset or transcript."""
    text = _SOURCES.get(span.file)
    if text is None:
        return None
    lines = _LINES.get(span.file)
    if lines is None:
        lines = _LINES[span.file] = text.splitlines()
    if 1 <= span.line <= len(lines):
        return lines[span.line - 1]
    return None


def printable(text: str) -> str:
    """`text` with every control or invisible formatting character escaped (\\x1b, \\u202e): a quoted
    line or name never moves the terminal's cursor, colours it, or reorders what it shows. Tabs stay."""
    if text.isprintable():
        return text
    out = []
    for ch in text:
        if ch.isprintable() or ch == "\t":
            out.append(ch)
        elif ord(ch) < 0x100:
            out.append(f"\\x{ord(ch):02x}")
        elif ord(ch) < 0x10000:
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(f"\\U{ord(ch):08x}")
    return "".join(out)


def terminal_text(text: str) -> str:
    """`text` as `printable` shows it, lines kept: line ends (`\\n`, and `\\r` just before one) and tabs pass,
    every other control or invisible formatting character is escaped. What every command prints goes
    through it (rulespec/cli/terminal.py)."""
    if text.isprintable():
        return text
    lines = text.split("\n")
    for i, line in enumerate(lines):
        if not line.isprintable():
            crlf = line.endswith("\r") and i < len(lines) - 1
            lines[i] = printable(line[:-1]) + "\r" if crlf else printable(line)
    return "\n".join(lines)


class RulespecError(Exception):
    """One or more located problems in a ruleset, expression or transcript."""

    def __init__(self, message: str, span: Span | None = None, *, others: list["RulespecError"] | None = None):
        super().__init__(message)
        self.message = message
        self.span = span
        self.others = list(others or [])

    @property
    def all(self) -> list["RulespecError"]:
        """This error followed by any further independent ones."""
        return [self, *self.others]

    def headline(self) -> str:
        """`file:line:col: message` for the first problem (control characters escaped)."""
        return printable(f"{self.span}: {self.message}" if self.span else self.message)

    def render(self) -> str:
        """All problems, each with its source line and a caret under the column."""
        parts = []
        for err in self.all:
            text = err.headline()
            if err.span is not None:
                line = source_line(err.span)
                if line is not None:
                    shown, at = quoted(line, err.span.column)
                    text += f"\n    {shown}\n    {' ' * at}^"
            parts.append(text)
        return "\n".join(parts)

    def __str__(self) -> str:
        return self.headline()


QUOTE_WIDTH = 160       # characters of a source line quoted under a message, around the column


def quoted(line: str, column: int) -> tuple[str, int]:
    """A source line as printed under a message (escaped: `printable`) and where its caret goes. A line
    longer than QUOTE_WIDTH is cut to that many characters around the column, '…' where it was cut (a
    stranger's 10,000-character line would otherwise be quoted whole)."""
    shown = printable(line)
    at = len(printable(line[:max(column, 1) - 1]))      # the caret under the column in the escaped line
    if len(shown) <= QUOTE_WIDTH:
        return shown, at
    start = max(0, min(at - QUOTE_WIDTH // 2, len(shown) - QUOTE_WIDTH))
    head = "…" if start else ""
    tail = "…" if start + QUOTE_WIDTH < len(shown) else ""
    return head + shown[start:start + QUOTE_WIDTH] + tail, at - start + len(head)


def fail(message: str, span: Span | None = None) -> NoReturn:
    """Raise a located RulespecError (the one way every stage reports a problem)."""
    raise RulespecError(message, span)


def collect(errors: list[RulespecError]) -> None:
    """Raise the first of several independent errors with the rest attached, each problem once (an error
    passed on with its others attached, and those others beside it, is still one report per problem)."""
    # An error may come with its others attached while those others are listed beside it too (a list
    # from in_order): each problem once, at the place the list gives it.
    listed = {(r.span, r.message) for r in errors}
    unique: dict = {}
    for r in errors:
        unique.setdefault((r.span, r.message), r)
        for e in r.others:
            if (e.span, e.message) not in listed:
                unique.setdefault((e.span, e.message), e)
    flat = list(unique.values())
    if flat:
        raise RulespecError(flat[0].message, flat[0].span, others=flat[1:])


def in_order(errors: list[RulespecError], files, limit: int | None = None) -> list[RulespecError]:
    """Every problem by file (the ruleset's own first, then its bases, as in `files`), line and column.

    The one ordering of independent errors, used by each stage that reports several.
    """
    rank = {str(p): i for i, p in enumerate(files)}
    flat = [e for err in errors for e in err.all]

    def key(e):
        s = e.span
        return (0, rank.get(s.file, len(rank)), s.file, s.line, s.column) if s else (1, 0, "", 0, 0)
    return sorted(flat, key=key)[:limit]


def or_list(values) -> str:
    """Values in ascending order in words for a message: `9`, `9 or 10`, `9, 10 or 11`."""
    words = [str(v) for v in sorted(values)]
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"


def did_you_mean(word: str, candidates) -> str:
    """`; did you mean 'x'?` for the nearest candidate, or an empty string."""
    import difflib
    close = difflib.get_close_matches(str(word), [str(c) for c in candidates], n=1, cutoff=0.6)
    return f"; did you mean '{close[0]}'?" if close else ""
