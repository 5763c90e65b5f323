"""The command line's manners: --version, a closed pipe, option words, docs, 80 columns."""
from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest

from rulespec import __version__
from rulespec.cli.main import run


def cli(*argv):
    out, err = io.StringIO(), io.StringIO()
    code = run([str(a) for a in argv], out, err)
    return code, out.getvalue(), err.getvalue()


def test_version(capsys):
    assert run(["--version"]) == 0
    assert capsys.readouterr().out == f"rulespec {__version__}\n"


def test_a_reader_that_goes_away_is_not_an_error_message():
    # `rulespec list | head -1`: the reader closes the pipe before rulespec has written; no traceback, no message.
    proc = subprocess.Popen([sys.executable, "-m", "rulespec", "docs", "language"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    proc.stdout.close()
    _, err = proc.communicate(timeout=120)
    assert err == b""
    assert proc.returncode == 1


class Terminal(io.StringIO):
    def isatty(self):
        return True


def test_list_on_a_terminal_has_a_header_and_fits_80_columns():
    out = Terminal()
    assert run(["list"], out, io.StringIO()) == 0
    lines = out.getvalue().splitlines()
    assert max(len(line) for line in lines) <= 80
    assert lines[0].split() == ["ID", "BASE", "DESCRIPTION", "[SOURCE", "DOCUMENT]"]
    assert lines[1].startswith("basra ")        # the first id in order
    assert any(line.startswith("cicera ") for line in lines)
    assert any(line.startswith("cirulla-capotun ") for line in lines)


def test_list_piped_is_one_line_per_ruleset():
    from rulespec.source.rulesets import shipped_ids
    code, out, _ = cli("list")
    assert code == 0
    lines = out.splitlines()
    assert [line.split()[0] for line in lines] == list(shipped_ids())
    cicera = next(line.split() for line in lines if line.startswith("cicera "))
    assert cicera[:2] == ["cicera", "-"] and " ".join(cicera).endswith("[pagat.com, Cicera (as played in Brescia)]")


VARIANT = """\
id: v
extends: cirulla
options:
  short: {type: bool, default: false}
  label: {type: str, default: x}
game: {target: '26 if options.short else 51'}
"""


@pytest.mark.parametrize("word, value", [("yes", True), ("Yes", True), ("on", True), ("true", True),
                                         ("no", False), ("OFF", False), ("false", False)])
def test_boolean_options_take_yes_and_no(tmp_path, word, value):
    from rulespec.cli.options import named_options
    path = tmp_path / "v.yaml"
    path.write_text(VARIANT, encoding="utf-8")
    assert named_options(path, [f"short={word}", "label=123"]) == {"short": value, "label": "123"}
    code, out, err = cli("explain", path, "--option", f"short={word}")
    assert (code, err) == (0, "")
    assert ("26" if value else "51") in out


def test_a_boolean_option_refuses_other_words(tmp_path):
    path = tmp_path / "v.yaml"
    path.write_text(VARIANT, encoding="utf-8")
    code, _, err = cli("compile", path, "--option", "short=maybe")
    assert code == 2 and "option 'short' is bool, found 'maybe'" in err


def test_docs_ship_with_the_package_and_show():
    code, out, _ = cli("docs")
    assert code == 0
    listed = [line.split()[0] for line in out.splitlines()[1:]]
    assert {"language", "expressions", "transcripts"} <= set(listed)
    top = Path(__file__).resolve().parent.parent
    for topic in ("language", "expressions", "transcripts"):
        code, text, _ = cli("docs", topic)
        assert code == 0 and text == (top / "docs" / f"{topic}.md").read_text(encoding="utf-8")
    # Inside the package (a link in the checkout, files in a wheel).
    assert (top / "rulespec" / "docs" / "transcripts.md").is_file()
    assert cli("docs", "transcript")[1].startswith("# Golden hand transcripts")  # a unique prefix will do
    code, _, err = cli("docs", "langauge")
    assert code == 2 and err == ("no documentation topic 'langauge'; topics: cli, expressions, fishing-family, language, python, "
                                 "resolutions, scopa-family, security, transcripts; did you mean 'language'?\n")


SCOPA = Path(__file__).resolve().parent.parent / "rulesets" / "scopa.yaml"


def test_validate_takes_option_values():
    # A ruleset is checked and compiled with the values given; a wrong value or name is a located error.
    assert cli("validate", SCOPA, "--option", "target=21")[0] == 0
    code, out, err = cli("validate", SCOPA, "--option", "target=0")
    assert code == 1 and "option 'target' must be at least 1, found 0" in err and "None" not in err
    code, out, err = cli("validate", SCOPA, "--option", "tagret=21")
    assert code == 1 and "unknown option 'tagret'" in err and "did you mean 'target'" in err


def test_record_takes_bots_as_simulate_does(tmp_path):
    # --bots with simulate's specs (ismcts with a budget, one per side or per seat); --bot stays as an alias.
    code, out, err = cli("record", "cirulla", "--seats", "2", "--seed", "3", "--bots", "greedy,ismcts:5")
    assert code == 0, err
    assert "rulespec record cirulla --seats 2 --seed 3 --bots greedy,ismcts:5" in out
    assert cli("record", "cirulla", "--seed", "3", "--bot", "greedy")[1].replace("--bot ", "--bots ") == \
        cli("record", "cirulla", "--seed", "3", "--bots", "greedy")[1]
    code, _, err = cli("record", "cirulla", "--bots", "greedy,random,greedy")
    assert code == 2 and "--bots names 3 bots for 4 seats" in err
    code, out, err = cli("record", "cirulla", "--seats", "0")
    assert code == 2 and "played by 2, 3, 4 players, not 0" in err and not out


def test_record_does_not_overwrite_without_force(tmp_path):
    target = tmp_path / "t.yaml"
    target.write_text("mine\n", encoding="utf-8")
    code, _, err = cli("record", "cirulla", "-o", target)
    assert code == 2 and "t.yaml already exists" in err and "--force" in err
    assert target.read_text(encoding="utf-8") == "mine\n"
    assert cli("record", "cirulla", "-o", target, "--force")[0] == 0
    assert "\nruleset: cirulla\n" in target.read_text(encoding="utf-8")


def test_the_readme_names_the_commands_that_take_option():
    # docs/cli.md (the README's command reference until it moved there): "`validate`, `compile`, ... take
    # `--option NAME=VALUE`": exactly the commands that do.
    import argparse
    import re

    from rulespec.cli.main import build_parser
    readme = (Path(__file__).resolve().parent.parent / "docs" / "cli.md").read_text(encoding="utf-8")
    said = re.search(r"\n((?:`\w+`, )+`\w+` and `\w+`) take\n`--option NAME=VALUE`", readme)
    assert said, "docs/cli.md's sentence about --option"
    named = set(re.findall(r"`(\w+)`", said.group(1)))
    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    taking = {name for name, p in sub.choices.items() if any("--option" in a.option_strings for a in p._actions)}
    assert named == taking


def test_a_command_parsed_alone_parses_as_with_every_command():
    """run() builds only the named command's subparser: its help, usage and errors are those of the full parser."""
    import argparse

    from rulespec.cli.main import COMMAND_NAMES, build_parser
    full = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    assert tuple(full.choices) == COMMAND_NAMES
    for name in COMMAND_NAMES:
        alone = next(a for a in build_parser(name)._actions if isinstance(a, argparse._SubParsersAction))
        assert tuple(alone.choices) == (name,)
        assert alone.choices[name].format_help() == full.choices[name].format_help()


@pytest.mark.parametrize("argv", [["simulate", "--hands", "x"], ["validate"], ["list", "--nonsense"],
                                  ["simulate", "-h"], ["simulate", "cirulla", "--engine", "gpu"]])
def test_usage_errors_and_help_are_the_full_parsers(capsys, argv):
    import io

    from rulespec.cli.main import build_parser, run
    with pytest.raises(SystemExit) as full:
        build_parser().parse_args(argv)
    expected = capsys.readouterr()
    assert expected.err + expected.out
    out, err = io.StringIO(), io.StringIO()
    streams = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = out, err        # argparse writes to the interpreter's streams
    try:
        code = run(argv)
    finally:
        sys.stdout, sys.stderr = streams
    assert code == (full.value.code or 0)
    assert (out.getvalue(), err.getvalue()) == (expected.out, expected.err)


@pytest.mark.parametrize("argv,message", [
    (["simulate", "scopa", "--hands", "3", "--compare", ""], "unknown ruleset ''"),
    (["simulate", "scopa", "--hands", "3", "--html", ""], "cannot write '': an empty name names no file"),
    (["simulate", "scopa", "--hands", "3", "--compare", "scopa", "--html", ""], "cannot write '': an empty name names no file"),
    (["record", "scopa", "--html", ""], "cannot write '': an empty name names no file"),
])
def test_an_empty_name_is_refused_not_ignored(argv, message):
    """`--compare ''` or `--html ''` (an unset variable in a script) is an error, not the option left out."""
    code, out, err = cli(*argv)
    assert code == 2 and message in err and "Traceback" not in err
