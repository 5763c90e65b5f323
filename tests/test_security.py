"""Issue 9: untrusted rulesets and transcripts (file references, odd files, engine API edges, budgets,
hidden information, the compile cache, command-line values). Each test failed before its fix."""
import io

import pytest

from rulespec.cli.main import run


def cli(*argv):
    out, err = io.StringIO(), io.StringIO()
    code = run(list(argv), out, err)
    return code, out.getvalue(), err.getvalue()


# ---------------------------------------------------------------- item 12: --bots values

@pytest.mark.parametrize("bots", ["ismcts:²", "ismcts:١٢", "ismcts:0", "ismcts:99999999999", "ismcts:-3"])
def test_a_bad_bot_budget_is_one_error_line(bots):
    code, _, err = cli("simulate", "cirulla", "--hands", "1", "--workers", "1", "--bots", bots)
    assert code == 2
    assert len(err.strip().splitlines()) == 1, err
    assert "Traceback" not in err and "ismcts" in err
