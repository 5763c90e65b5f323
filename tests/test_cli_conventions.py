"""The command line keeps the conventions of pytest, ruff and pip: every positional argument has help;
findings exit 1, usage errors 2; `explain --html OUT` writes a page as replay, record and simulate do."""
import argparse
import io

import pytest

from rulespec.cli.main import COMMAND_NAMES, build_parser, run
from tests.browser import CHROMIUM, SKIP_REASON, Browser, assert_fits


def cli(*argv):
    out, err = io.StringIO(), io.StringIO()
    code = run([str(a) for a in argv], out, err)
    return code, out.getvalue(), err.getvalue()


def _subparsers():
    parser = build_parser()
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return action.choices


@pytest.mark.parametrize("command", COMMAND_NAMES)
def test_every_positional_argument_has_help(command):
    sub = _subparsers()[command]
    positionals = [a for a in sub._actions if not a.option_strings]
    for action in positionals:
        assert action.help, f"rulespec {command}: {action.dest} has no help"
    assert sub.format_help().count("positional arguments:") == (1 if positionals else 0)


BROKEN = "id: broken\nextends: cirulla\ngame: {target: -1}\n"


def test_validate_exits_1_for_what_it_finds_and_2_for_a_usage_error(tmp_path, capsys):
    bad = tmp_path / "bad.yaml"
    bad.write_text(BROKEN, encoding="utf-8")
    code, out, err = cli("validate", bad, "scopa")
    assert code == 1 and f"{bad}:3:" in err and "ok   scopa (ruleset scopa)" in out
    assert cli("validate", "scopa")[0] == 0
    for argv in (["validate"], ["validate", "--nonsense", "scopa"], ["simulate", "scopa", "--hands", "x"], []):
        assert cli(*argv)[0] == 2, argv
        assert "usage: rulespec" in capsys.readouterr().err          # argparse writes to sys.stderr


def test_the_other_findings_exit_1(tmp_path):
    assert cli("diff", "scopa", "scopone")[0] == 1                     # they differ
    assert cli("diff", "scopa", "scopa")[0] == 0
    transcript = tmp_path / "t.yaml"
    assert cli("record", "scopa", "--seed", "1", "-o", transcript)[0] == 0
    text = transcript.read_text(encoding="utf-8")
    transcript.write_text(text.replace("total:", "total: 1000 #", 1), encoding="utf-8")
    assert cli("replay", transcript)[0] == 1                            # a hand that does not replay


def test_explain_html_out_writes_the_page_and_keeps_stdout_for_markdown(tmp_path):
    page = tmp_path / "rules.html"
    code, out, err = cli("explain", "scopone", "--html", page)
    assert code == 0 and err == f"wrote {page}\n"
    assert out == cli("explain", "scopone")[1] and out.startswith("# Scopone\n")
    assert page.read_text(encoding="utf-8") == cli("explain", "scopone", "--format", "html")[1]


@pytest.mark.skipif(CHROMIUM is None, reason=SKIP_REASON)
def test_the_explain_page_fits_400_and_1000_px(tmp_path):
    page = tmp_path / "rules.html"
    assert cli("explain", "cirulla", "--html", page)[0] == 0
    with Browser() as b:
        for width in (400, 1000):
            assert_fits(b, page, width)
            assert b.js("document.querySelector('h1').textContent").startswith("Cirulla")
