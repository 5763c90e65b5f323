"""The one way out to a terminal: every command's output and errors pass through `SafeStream`.

A stranger's ruleset or transcript puts text in names, descriptions, option labels, sources and file
names; YAML's escapes (`"\\e]52;c;...\\a"`) let that text hold any control character. Written raw, ESC,
BEL, OSC, CSI or a C1 control (`\\x9b`) could retitle the window, clear the screen or write the
clipboard. `rulespec.cli.main.run` hands every command `SafeStream`s, so no command can print such a
byte, whatever it prints and however (print, write, rich): each is shown escaped (`\\x1b`), as errors
quote it (`rulespec.errors.terminal_text`). Line ends and tabs are kept, and `\\r` only just before `\\n`.

rich draws its own colours and cursor moves on a terminal: a rich console is made by `console()` below,
which escapes the text given to it and reads no markup (`[link=...]`) or emoji codes in it.
"""
from __future__ import annotations

from rulespec.errors import terminal_text


class SafeStream:
    """A text stream whose writes reach the stream it wraps through `terminal_text`; anything else
    (flush, isatty, encoding, fileno) is the wrapped stream's."""

    def __init__(self, raw) -> None:
        self.raw = raw
        self._cr = False        # the last write ended in "\r": kept only if the next one starts a line

    def write(self, text: str) -> int:
        n = len(text)
        if self._cr and text:
            self._cr = False
            text = ("\r" if text.startswith("\n") else "\\x0d") + text
        if text.endswith("\r"):
            text, self._cr = text[:-1], True
        self.raw.write(terminal_text(text))
        return n

    def flush(self) -> None:
        if self._cr:
            self._cr = False
            self.raw.write("\\x0d")
        self.raw.flush()

    def __getattr__(self, name):
        return getattr(self.raw, name)


def safe(stream):
    """`stream` as a SafeStream (once: a SafeStream is returned as it is)."""
    return stream if isinstance(stream, SafeStream) else SafeStream(stream)


def console(stream, **kwargs):
    """A rich Console on `stream` that shows every string it is given escaped (`terminal_text`) and as it
    is written: no markup, no emoji codes. On a terminal it writes to the stream itself, so that rich's
    own colours and cursor moves work; elsewhere through the SafeStream as well."""
    from rich.console import Console

    class _Console(Console):
        def render_str(self, text, **options):
            options.update(markup=False, emoji=False)
            return super().render_str(terminal_text(text), **options)

    stream = safe(stream)
    try:
        tty = stream.isatty()
    except (AttributeError, ValueError):
        tty = False
    return _Console(file=stream.raw if tty else stream, markup=False, emoji=False, **kwargs)
