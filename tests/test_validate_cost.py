"""Validate's work on a big file, counted (security issue, item 11): one parse, libyaml's, and a
"did you mean" for the errors shown alone. The time it takes is bench/validate_big.py's."""
import io
from pathlib import Path

import pytest

from rulespec.cli.main import run
from rulespec.errors import RulespecError
from rulespec.source import validate as validate_module
from rulespec.source import yamlsafe
from tests.big_files import cases

GOLDEN = Path(__file__).parent / "golden" / "recorded" / "cirulla-seed7.yaml"
ROOT = Path(__file__).resolve().parent.parent


def _cli(*argv):
    out, err = io.StringIO(), io.StringIO()
    code = run([str(a) for a in argv], out, err)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def big(tmp_path_factory):
    path = tmp_path_factory.mktemp("big") / "big.yaml"
    path.write_text(cases()["unknown top-level keys"], encoding="utf-8")
    assert 2_000_000 < path.stat().st_size <= yamlsafe.MAX_BYTES
    return path


def _count_parses(monkeypatch) -> list:
    """The files each parse reads, as `yamlsafe._compose` is called (a parse is one call); and no parse by
    the reference loader."""
    parsed = []
    compose = yamlsafe._compose

    def counted(text, filename):
        parsed.append(filename)
        return compose(text, filename)

    def no_reference(*_a, **_k):
        raise AssertionError("the pure-Python loader parsed a file libyaml reads")
    monkeypatch.setattr(yamlsafe, "_compose", counted)
    monkeypatch.setattr(yamlsafe, "_Loader", no_reference)
    return parsed


def test_a_big_ruleset_is_parsed_once_by_libyaml(big, monkeypatch):
    parsed = _count_parses(monkeypatch)
    code, out, err = _cli("validate", big)
    assert code == 1 and err.count("unknown key 'unknown_key_number_") == validate_module.MAX_ERRORS
    assert parsed == [str(big)]       # file_kind read it, then the ruleset's loader: one parse


def test_a_transcript_is_parsed_once(monkeypatch):
    parsed = _count_parses(monkeypatch)
    code, out, err = _cli("validate", GOLDEN)
    assert code == 0, err
    assert parsed.count(str(GOLDEN)) == 1, parsed


def test_did_you_mean_is_worked_out_for_the_errors_shown_alone(big, monkeypatch):
    asked = []
    suggest = validate_module.did_you_mean
    monkeypatch.setattr(validate_module, "did_you_mean", lambda word, known: asked.append(word) or suggest(word, known))
    code, out, err = _cli("validate", big)
    assert code == 1
    assert asked == [f"unknown_key_number_{i:06d}_padding_padding" for i in range(validate_module.MAX_ERRORS)]
    # The same 20 errors, the first ones by place, as before.
    first = err.splitlines()[0]
    assert first == (f"{big}:3:1: unknown key 'unknown_key_number_000000_padding_padding' in ruleset; expected one "
                     "of: bid, capture, deal, deal_checks, dealer_bonuses, deck, declarations, description, events, "
                     "extends, game, hand_bonuses, id, misdeals, name, options, outcomes, players, scoring, source, "
                     "wild")


def test_a_suggestion_still_comes_with_a_shown_error(tmp_path):
    path = tmp_path / "typo.yaml"
    path.write_text("id: typo\nextends: cirulla\nscorign: {}\ndeck: frenhc40\n", encoding="utf-8")
    code, out, err = _cli("validate", path)
    assert code == 1 and "did you mean 'scoring'?" in err and "did you mean 'french40'?" in err, err


def test_a_syntax_error_late_in_a_big_file_is_located_without_the_reference_loader(monkeypatch, tmp_path):
    text = cases()["a syntax error on the last line"]
    path = tmp_path / "late.yaml"
    path.write_text(text, encoding="utf-8")
    _count_parses(monkeypatch)
    code, out, err = _cli("validate", path)
    last = text.count("\n")
    assert code == 1 and err.startswith(f"{path}:{last}:"), err[:300]
    assert "Traceback" not in err and len(err.splitlines()) == 3


# ------------------------------------------------------------- libyaml's graph is the reference loader's

def _both(text: str):
    """What load gives (data and every span, or the error) through libyaml, then through the reference
    loader alone."""
    def loaded():
        try:
            return _located(yamlsafe.load(text, "f.yaml"))
        except RulespecError as err:
            return err.headline()
    fast = loaded()
    parser, yamlsafe._CParser = yamlsafe._CParser, None
    try:
        return fast, loaded()
    finally:
        yamlsafe._CParser = parser


def _located(node):
    if isinstance(node, yamlsafe.LocDict):
        return ("map", str(node.span), [(k, str(node.key_spans[k]), str(node.value_spans[k]), _located(v))
                                        for k, v in node.items()])
    if isinstance(node, yamlsafe.LocList):
        return ("list", str(node.span), [(str(s), _located(v)) for s, v in zip(node.item_spans, node)])
    return repr(node)


ALIASES = [
    "a: &x [1, 2, {b: c}]\nb: *x\nc: [*x, *x]\n",
    "a: &x {b: 1}\nc:\n  <<: *x\n",
    "a: &x [1]\nb: &x [2]\nc: *x\n",
    "a: &a " + "[" * 40 + "]" * 40 + "\nb: " + "[" * 30 + "*a" + "]" * 30 + "\n",
    "a: &a [*a]\n",
    "a: " + "[" * 64 + "]" * 64 + "\n",
    "".join("  " * i + f"k{i}:\n" for i in range(70)) + "  " * 70 + "x\n",
]


@pytest.mark.parametrize("text", ALIASES)
def test_aliases_and_bounds_read_alike(text):
    fast, reference = _both(text)
    assert fast == reference


def test_node_bound_reads_alike(monkeypatch):
    monkeypatch.setattr(yamlsafe, "MAX_NODES", 1000)
    for text in ("a: [" + ",".join(["1"] * 1001) + "]\n", "a: &x [" + ",".join(["1"] * 600) + "]\nb: *x\nc: [1, 2]\n",
                 "".join(f"k{i}: {{a: 1}}\n" for i in range(400)), "a: [" + ",".join(["1"] * 1001) + "]]]\n"):
        fast, reference = _both(text)
        assert fast == reference


def test_every_yaml_file_of_the_repository_reads_alike():
    files = sorted({*ROOT.glob("rulesets/*.yaml"), *ROOT.glob("tests/golden/**/*.yaml"),
                    *ROOT.glob("examples/**/*.yaml")})
    assert len(files) > 100
    for path in files:
        fast, reference = _both(path.read_text(encoding="utf-8"))
        assert fast == reference, path


def test_a_second_document_reads_alike_whatever_it_holds(monkeypatch):
    monkeypatch.setattr(yamlsafe, "MAX_NODES", 1000)
    text = "a: 1\n---\nb: [" + ",".join(["1"] * 2000) + "]\n"
    fast, reference = _both(text)
    assert fast == reference == "f.yaml:2:1: expected a single document; found a second one"
