"""cli/main.py's quick reading of a plain `simulate` command line gives exactly what argparse gives, or
leaves the line to argparse; and simulate's QUICK spec is its register()'s parser."""
import argparse
import itertools

import pytest

from rulespec.cli import simulate
from rulespec.cli.main import build_parser, quick_args


def _subparser(name: str) -> argparse.ArgumentParser:
    sub = next(a for a in build_parser(name)._actions if isinstance(a, argparse._SubParsersAction))
    return sub.choices[name]


def _kind(action):
    if isinstance(action, argparse._StoreTrueAction):
        return "flag"
    if isinstance(action, argparse._AppendAction):
        return "append"
    if action.choices is not None:
        return tuple(action.choices)
    return action.type or str


def test_the_quick_spec_is_the_parsers():
    parser = _subparser("simulate")
    actions = [a for a in parser._actions if not isinstance(a, argparse._HelpAction)]
    for a in actions:
        assert a.nargs is None or isinstance(a, (argparse._StoreTrueAction,)), a.dest   # one value or none
    assert simulate.QUICK["positionals"] == tuple(a.dest for a in actions if not a.option_strings)
    assert simulate.QUICK["options"] == {s: (a.dest, _kind(a)) for a in actions for s in a.option_strings}
    assert simulate.QUICK["defaults"] == {a.dest: a.default for a in actions if a.option_strings}
    assert simulate.QUICK["exclusive"] == tuple(tuple(a.dest for a in g._group_actions)
                                                for g in parser._mutually_exclusive_groups)
    assert parser._defaults == {"func": simulate.run}


_PARSER = []


def _argparse(argv):
    """What argparse makes of a command line (None if it refuses it)."""
    if not _PARSER:
        _PARSER.append(build_parser())
    try:
        return vars(_PARSER[0].parse_args(argv))
    except SystemExit:
        return None


PLAIN = [
    ["simulate", "cirulla"],
    ["simulate", "cirulla", "--hands", "4000", "--seed", "3"],
    ["simulate", "--hands", "1", "--workers", "1", "cirulla"],
    ["simulate", "cirulla", "--hands=12", "--bots", "greedy,random", "--json", "--no-timings"],
    ["simulate", "x.yaml", "--games", "2", "--seats", "2", "--backend", "ray", "--address", "a:1"],
    ["simulate", "cirulla", "--engine", "native", "--option", "a=1", "--option=b=no", "--root", "/tmp"],
    ["simulate", "cirulla", "--compare", "cicera", "--html", "o.html", "--bot", "ismcts:10"],
    ["simulate", "cirulla", "--hands", "1", "--hands", "2", "--bots=", "--seed", " 7 "],
    ["simulate", "", "--hands", "1_000"],
]

LEFT_TO_ARGPARSE = [
    [], ["--version"], ["simulate"], ["simulate", "a", "b"], ["simulate", "cirulla", "--hand", "3"],
    ["simulate", "cirulla", "-h"], ["simulate", "cirulla", "--help"], ["simulate", "cirulla", "--", "x"],
    ["simulate", "cirulla", "--seed", "-1"], ["simulate", "cirulla", "--seed=-1"], ["simulate", "cirulla", "--hands"],
    ["simulate", "cirulla", "--hands", "x"], ["simulate", "cirulla", "--hands="], ["simulate", "cirulla", "--json=1"],
    ["simulate", "cirulla", "--hands", "1", "--games", "2"], ["simulate", "cirulla", "--engine", "c"],
    ["simulate", "cirulla", "--backend", "local "], ["simulate", "-", "--hands", "1"],
    ["simulate", "cirulla", "--bots", "--json"], ["simulate", "cirulla", "-x"], ["validate", "cirulla"],
    ["simulate", "cirulla", "--option", "-a=1"], ["simulate", "cirulla", "--seeds", "1"],
]


@pytest.mark.parametrize("argv", PLAIN)
def test_a_plain_line_is_read_quickly_as_argparse_reads_it(argv):
    quick = quick_args(argv)
    assert quick is not None
    assert vars(quick) == _argparse(argv)


@pytest.mark.parametrize("argv", LEFT_TO_ARGPARSE)
def test_anything_else_is_left_to_argparse(argv):
    assert quick_args(argv) is None


def test_every_pair_of_options_reads_as_argparse_reads_it():
    """Each option (every spelling, with a good and a bad value, both ways of giving it) beside each other,
    around the ruleset: the quick reading is None or exactly argparse's."""
    samples = {"int": ["5", "x", "-2"], "str": ["a", "-a"], "flag": [None]}
    words = []
    for option, (_dest, kind) in simulate.QUICK["options"].items():
        values = samples["flag"] if kind == "flag" else [kind[-1], "other"] if isinstance(kind, tuple) \
            else samples["int"] if kind is int else samples["str"]
        for value in values:
            words.append([option] if value is None else [option, value])
            if value is not None:
                words.append([f"{option}={value}"])
    read = 0
    for a, b in itertools.product(words, repeat=2):
        for argv in (["simulate", "cirulla", *a, *b], ["simulate", *a, "cirulla", *b]):
            quick = quick_args(argv)
            if quick is not None:
                read += 1
                assert vars(quick) == _argparse(argv), argv
    assert read > len(words) ** 2 // 4, (read, len(words))   # most are plain


ODD_VALUES = ["5", "0", "-1", "x", "", " 7 ", "1_0", "\u0663", "\uff11\uff12", "5\n", "1e3", "+3", "0x10", "-", "=",
              "a=b", "\u00e9", "cirulla", "--", "-x", "a b", "-1 x", "\t", "9" * 5000, "native", "NATIVE", "ray ",
              "\u22121", "--json", "-h"]


def test_random_odd_lines_read_as_argparse_reads_them():
    """Lines of options, abbreviations and odd values (unicode digits, 5000 digits, empty, spaces, '=',
    lookalikes of options) in any order: the quick reading is None or exactly argparse's."""
    import random
    rng = random.Random(12)
    options = list(simulate.QUICK["options"])
    read = 0
    for _ in range(3000):
        argv = ["simulate"]
        for _ in range(rng.randint(0, 5)):
            r = rng.random()
            if r < 0.4:
                argv.append(rng.choice(options))
            elif r < 0.6:
                argv.append(rng.choice(options) + "=" + rng.choice(ODD_VALUES))
            elif r < 0.65:
                argv.append(rng.choice(options)[:rng.randint(2, 6)])
            else:
                argv.append(rng.choice(ODD_VALUES))
        if rng.random() < 0.7:
            argv.insert(rng.randint(1, len(argv)), "cirulla")
        quick = quick_args(argv)
        if quick is not None:
            read += 1
            assert vars(quick) == _argparse(argv), argv
    assert read > 100
