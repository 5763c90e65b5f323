"""No command prints a raw control byte (security issue, item 10).

A stranger's ruleset and transcript hold ESC, BEL, OSC (a clipboard write), CSI, a C1 control, a
right-to-left override and rich markup in every free text: names, descriptions, sources, option labels
and values, scoring descriptions, expected events, file names. Every command runs on them; stdout and
stderr may hold no control character but line ends and tabs, and no markup may be read as markup.
"""
import io
import json
import sys
from pathlib import Path

import pytest

from rulespec.cli.main import run
from rulespec.cli.terminal import SafeStream, console, terminal_text

GOLDEN = Path(__file__).parent / "golden" / "recorded" / "cirulla-seed7.yaml"

# OSC 52 (clipboard), BEL, CSI clear screen, OSC 0 (title) ended by ST, a C1 CSI, DEL, a bidi override, markup.
HOSTILE = ("\x1b]52;c;aGVsbG8=\x07\x1b[2J\x1b]0;owned\x1b\\\x9b31m\x7f\u202e"
           "[bold]B[/bold][link=https://example.com]L[/link]:smile:")
# The same in a YAML double-quoted scalar: YAML's own escapes, as a stranger would write them.
YAML_HOSTILE = json.dumps(HOSTILE)
# An option's value is at most 64 characters.
YAML_VALUE = json.dumps("\x1b]52;c;aGVsbG8=\x07\x1b[2J\x9b31m\u202e[bold]B[/bold]")


def _ruleset() -> str:
    return f"""id: hostile
extends: cirulla
name: {YAML_HOSTILE}
description: {YAML_HOSTILE}
source: {YAML_HOSTILE}
options:
  mode:
    type: str
    default: {YAML_VALUE}
    choices: [{YAML_VALUE}, plain]
    description: {YAML_HOSTILE}
scoring:
  carte: {{points: '1 if most(count(pile)) else 0', description: {YAML_HOSTILE}}}
"""


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("hostile")
    ruleset = folder / "hostile.yaml"
    ruleset.write_text(_ruleset(), encoding="utf-8")
    # A file name holding controls too: paths are echoed by validate, replay and errors.
    named = folder / "n\x1b]0;t\x07\x9b.yaml"
    named.write_text(_ruleset(), encoding="utf-8")
    text = GOLDEN.read_text(encoding="utf-8").replace("ruleset: cirulla\n", "ruleset: hostile.yaml\n", 1)
    text = text.replace("0: [scopa, scopa]", f"0: [scopa, {YAML_HOSTILE}]", 1)
    transcript = folder / "t.yaml"
    transcript.write_text(text, encoding="utf-8")
    broken = folder / "broken.yaml"
    broken.write_text(f"id: broken\nextends: cirulla\nname: 1\n{YAML_HOSTILE}: 2\n", encoding="utf-8")
    return folder, ruleset, named, transcript, broken


def _run(argv, monkeypatch, stdin: str = ""):
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    out, err = io.StringIO(), io.StringIO()
    code = run([str(a) for a in argv], out, err)
    return code, out.getvalue(), err.getvalue()


def _assert_clean(text: str, what) -> None:
    bad = sorted({f"U+{ord(c):04X}" for c in text if not c.isprintable() and c not in "\n\t"})
    assert not bad, (what, bad, text[:2000])


def _commands(folder, ruleset, named, transcript, broken):
    return [
        ["validate", ruleset, named, transcript, broken],
        ["validate", ruleset, "--option", "mode=" + HOSTILE],
        ["compile", ruleset],
        ["explain", ruleset],
        ["explain", ruleset, "--format", "html"],
        ["diff", "cirulla", ruleset],
        ["diff", ruleset, named],
        ["play", ruleset, "--hands", "1", "--seed", "3"],
        ["list"],
        ["show", ruleset],
        ["show", ruleset, "--merged"],
        ["show", broken, "--merged"],
        ["simulate", ruleset, "--hands", "2", "--workers", "1"],
        ["simulate", ruleset, "--hands", "2", "--workers", "1", "--json"],
        ["record", ruleset, "--seed", "2"],
        ["replay", transcript],
        ["test", folder],
        ["test", transcript, "--coverage", ruleset],
        ["docs", "security"],
        ["schema", "ruleset"],
        ["explain", HOSTILE],
        ["frobnicate" + HOSTILE],
    ]


def test_no_command_prints_a_raw_control_character(files, monkeypatch):
    folder, *_ = files
    monkeypatch.chdir(folder)
    saw = []
    for argv in _commands(*files):
        code, out, err = _run(argv, monkeypatch, stdin="1\n" * 80)
        _assert_clean(out, argv)
        _assert_clean(err, argv)
        saw.append(out + err)
    everything = "\n".join(saw)
    # The text was shown (escaped), not dropped: an author still sees what their file says.
    assert "\\x1b]52;c;aGVsbG8=\\x07" in everything and "\\x9b31m" in everything and "\\u202e" in everything


def test_play_shows_the_hostile_name_escaped(files, monkeypatch):
    _, ruleset, *_ = files
    code, out, err = _run(["play", ruleset, "--hands", "1", "--seed", "3"], monkeypatch, stdin="1\n" * 80)
    assert code == 0, err
    assert out.startswith(terminal_text(HOSTILE) + " (hostile)")
    _assert_clean(out, "play")


def test_line_ends_and_tabs_pass_and_a_lone_carriage_return_does_not():
    raw = io.StringIO()
    stream = SafeStream(raw)
    print("a\tb\r", file=stream)          # print writes "\r"-ended text, then "\n": a CRLF line end
    stream.write("over\rwrite\n\x1b[31mred\x9b\n")
    stream.write("end\r")
    stream.flush()
    assert raw.getvalue() == "a\tb\r\nover\\x0dwrite\n\\x1b[31mred\\x9b\nend\\x0d"


def test_a_rich_console_reads_no_markup_and_escapes_controls():
    # No stranger's text reaches a rich table today (ids, categories and bots are names the schema
    # bounds); the console is safe anyway, for whatever text a later table shows.
    out = io.StringIO()
    shown = console(out, width=200)
    shown.print(HOSTILE)
    from rich.table import Table
    table = Table(title=HOSTILE)
    table.add_column(HOSTILE)
    table.add_row(HOSTILE)
    shown.print(table)
    text = out.getvalue()
    _assert_clean(text, "console")
    assert text.count("[bold]B[/bold][link=https://example.com]L[/link]:smile:") == 4, text
    assert text.count("\\x1b]52;c;aGVsbG8=\\x07") == 4, text


def test_the_pytest_plugin_reports_a_failure_escaped():
    # pytest prints an item's failure to the terminal itself: the plugin hands it escaped text.
    from types import SimpleNamespace

    from rulespec.transcripts.pytest_plugin import TranscriptFailed, TranscriptItem
    failed = TranscriptFailed([f"t.yaml:3:4: expected event {HOSTILE}", "second line"])
    text = TranscriptItem.repr_failure(None, SimpleNamespace(value=failed))
    _assert_clean(text, "plugin")
    assert text == terminal_text(f"t.yaml:3:4: expected event {HOSTILE}\nsecond line")
