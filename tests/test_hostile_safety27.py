"""Hostile rulesets against the engines' arithmetic (docs/security.md, "Bounds"). Each test failed before its fix.

A category's points are Python ints in the Python engine: a stranger's ruleset could make them as large as
its expression allows (products of 18-digit options), or, through `game_score`, grow them hand after hand
without end (`game_score * game_score` squares the total each hand: 26 hands took more than five minutes and
never ended, 500 would run for ever). The statistics turned them into floats and stopped with a traceback.
"""
import io

import pytest

from rulespec.cli.main import run


def cli(*argv):
    out, err = io.StringIO(), io.StringIO()
    code = run(list(argv), out, err)
    return code, out.getvalue(), err.getvalue()


def _write(tmp_path, name: str, points: str, game: str = "") -> tuple:
    """A ruleset extending scopa whose `settebello` scores `points`; its path, and the points' line and column."""
    text = ("id: hostile\nextends: scopa\n"
            "options:\n  big: {type: int, default: 999999999999999999, description: a large option}\n"
            f"scoring:\n  settebello: {{points: '{points}'}}\n{game}")
    path = tmp_path / f"{name}.yaml"
    path.write_text(text, encoding="utf-8")
    return path, 6, text.splitlines()[5].index("'") + 2


HUGE = "count(pile) * options.big * options.big * options.big * options.big * options.big"


@pytest.mark.parametrize("points", [HUGE, f"0 - {HUGE}", "count(pile) * 1000000000000000"])
def test_points_past_the_bound_are_a_located_rule_failure(points, tmp_path):
    path, line, col = _write(tmp_path, "huge", points)
    for how in (["--hands", "5"], ["--games", "1"]):
        code, _, err = cli("simulate", str(path), "--engine", "python", "--workers", "1", "--no-timings", *how)
        assert code == 2, err
        assert "Traceback" not in err and "OverflowError" not in err, err
        assert err.startswith(f"{path}:{line}:{col}: this rule failed: "), err
        assert "points of category 'settebello'" in err and "10**15" in err, err


def test_points_within_the_bound_still_score(tmp_path):
    path, _, _ = _write(tmp_path, "large", "count(pile) * 10000000000000")     # at most 4 * 10**14 a hand
    code, out, err = cli("simulate", str(path), "--engine", "python", "--workers", "1", "--no-timings",
                         "--hands", "20", "--json")
    assert code == 0, err
    import json
    assert json.loads(out)["mean"]["0"]["settebello"] >= 10**14


def test_a_game_total_squared_each_hand_stops_located_instead_of_growing_for_ever(tmp_path):
    import random

    from rulespec.compiler.build import compile_ruleset
    from rulespec.run.engine import Game, RuleFailed
    path, line, col = _write(tmp_path, "squares", "game_score * game_score + 2", "game:\n  target: null\n  hands: 500\n")
    rules = compile_ruleset(path).module
    game = Game(rules, 2, seed=1)
    rng = random.Random(1)
    with pytest.raises(RuleFailed) as info:
        for _ in range(12):          # the total passes 10**15 by the sixth hand; unbounded, it is hundreds of digits long by the 12th
            hand = game.new_hand()
            while not hand.is_over:
                hand.play(hand.turn, *rng.choice(hand.legal_moves()))
            game.finish_hand()
    assert (info.value.span.line, info.value.span.column) == (line, col)
    assert "points of category 'settebello'" in info.value.message
    code, _, err = cli("simulate", str(path), "--engine", "auto", "--workers", "1", "--no-timings", "--games", "2")
    assert code == 2 and err.startswith(f"{path}:{line}:{col}: this rule failed: "), err


@pytest.mark.parametrize("mode", ["end_of_hand", "as_made"])
def test_event_points_past_the_bound_are_a_located_rule_failure(mode, tmp_path):
    points = "options.big * options.big * options.big * options.big * options.big * options.big"
    text = ("id: hostile\nextends: scopa\n"
            "options:\n  big: {type: int, default: 999999999999999999, description: a large option}\n"
            f"game:\n  points: {mode}\n"
            "events:\n  scopa:\n    when: not empty(captured) and empty(table) and not last_play\n"
            f"    points: '{points}'\n    category: scope\n")
    path = tmp_path / "events.yaml"
    path.write_text(text, encoding="utf-8")
    line = text.splitlines().index(f"    points: '{points}'") + 1
    for how in (["--hands", "40"], ["--games", "3"]):
        code, out, err = cli("simulate", str(path), "--engine", "python", "--workers", "1", "--no-timings", *how)
        assert code == 2, out
        assert err.startswith(f"{path}:{line}:14: this rule failed: the points of event 'scopa' must lie strictly "
                              "between -10**15 and 10**15, found a number of 108 digits"), err


# ---------------------------------------------------------------- --root: a refusal shows nothing outside the root

@pytest.mark.parametrize("ref", ["../../../../../../../../proc/self/cwd/x", "../../../../../../../../proc/self/exe",
                                 "linkdir/secret", "linkdir/secret.txt", "../outside/secret"])
def test_a_reference_out_of_the_root_shows_no_real_path_outside_it(ref, tmp_path, monkeypatch):
    """Before: the suffix was judged before the root, and its refusal named the real path, links resolved: a
    stranger's ruleset learnt the service's working folder (/proc/self/cwd), the Python executable
    (/proc/self/exe) and where a link of the root leads."""
    work = tmp_path / "service-working-folder"
    root, outside = tmp_path / "uploads", tmp_path / "outside"
    for folder in (work, root, outside):
        folder.mkdir()
    (outside / "secret").write_text("id: secret\n", encoding="utf-8")
    (root / "linkdir").symlink_to(outside)
    (root / "r.yaml").write_text(f"id: r\nextends: {ref}\n", encoding="utf-8")
    monkeypatch.chdir(work)
    code, _, err = cli("validate", str(root / "r.yaml"), "--root", str(root))
    assert code == 1                           # validate: the file is invalid
    assert f"r.yaml:2:10: no ruleset file '{ref}' under the root folder {root}: only files under it may be read" \
        in err, err
    for secret in (str(work), str(outside), "python", "does not end in"):
        assert secret not in err, err
