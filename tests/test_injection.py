"""No code injection: ruleset text reaches the generated module only as repr() literals or comments.

Every field the compiler emits (ids, names, event, category, bonus and option
names, option values, deck symbols, expression strings and text, the file
name) is given hostile text: quotes, newlines, dunder names, __import__,
very long names, Unicode look-alikes. Each ruleset is either refused with one
located error (exit 2) or compiled into a module whose code tokens contain
none of it, and which never runs it: every payload would create the file
PWNED in the working directory if it ran. (tests/test_emit_expr.py checks the
same for single expressions.)
"""
import ast
import copy
import functools
import io
import tokenize
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings, strategies as st

from rulespec.compiler.build import compile_ruleset
from rulespec.cli.main import run
from rulespec.errors import RulespecError
from rulespec.source.rulesets import rulesets_dir

MARK = "PWNED"
PAYLOADS = [
    f'"""; open("{MARK}", "w"); """',
    f"'''; open('{MARK}', 'w'); '''",
    f"x'); open('{MARK}', 'w'); ('",
    f'x"); open("{MARK}", "w"); ("',
    f"x\nopen('{MARK}', 'w')\n",
    f"x\r\nopen('{MARK}', 'w')  #",
    f"x\ropen('{MARK}', 'w')\r",
    f"x\u2028open('{MARK}', 'w')\u2029",
    f"x\x85open('{MARK}', 'w')\x0c",
    f"__import__('os').system('touch {MARK}')",
    f"__import__(\"os\").system(\"touch {MARK}\")",
    "__class__",
    "__builtins__",
    f"{{__import__('os').system('touch {MARK}')}}",
    f"\\'; open('{MARK}', 'w') #",
    f"x\\\nopen('{MARK}', 'w')",
    "scоpa",          # a Cyrillic о
    "ＡＢＣ",          # fullwidth capitals
    "e\u0301vent",    # a combining accent
    "a" * 5000,
]
IDS = [f"p{i}" for i in range(len(PAYLOADS))]


def base_doc() -> dict:
    return yaml.safe_load((rulesets_dir() / "cirulla.yaml").read_text(encoding="utf-8"))


def rename_key(mapping: dict, old: str, new) -> dict:
    return {(new if k == old else k): v for k, v in mapping.items()}


def set_path(doc: dict, path: tuple, value) -> None:
    node = doc
    for step in path[:-1]:
        node = node[step]
    node[path[-1]] = value


# (field, how to put the payload there). Each returns the changed document.
def _bonus_name(d, p):
    d["hand_bonuses"] = rename_key(d["hand_bonuses"], "decino", p)
    d["hand_bonuses"]["barsega"]["excluded_by"] = [p]
    return d


def _event_name(d, p):
    d["events"] = rename_key(d["events"], "scopa", p)
    return d


def _category_name(d, p):
    d["scoring"] = rename_key(d["scoring"], "scope", p)
    for where in (d["events"].values(), d["dealer_bonuses"], d["hand_bonuses"].values()):
        for item in where:
            (item if isinstance(item, dict) else d)["category"] = p
    return d


def _outcome_name(d, p):
    d["outcomes"] = rename_key(d["outcomes"], "cappotto", p)
    return d


def _option_name(d, p):
    d["options"] = {p: {"type": "int", "default": 51}}
    return d


def _option_value(d, p):
    d["options"] = {"label": {"type": "str", "default": p, "choices": [p, "other"], "description": p}}
    d["events"]["scopa"]["when"] = "not empty(captured) and empty(table) and options.label != \"other\""
    return d


def _custom_deck(d, p):
    d["deck"] = {"id": "short", "ranks": [{"rank": r, "value": v} for r, v in
                                          [("A", 1), ("2", 2), ("3", 3), ("4", 4), ("5", 5), ("6", 6), ("7", 7),
                                           ("J", 8), ("Q", 9), (p, 10)]], "suits": ["H", "D", "C", "S"]}
    d["scoring"]["primiera"]["points"] = "1 if most(count(pile)) else 0"
    d["scoring"]["grande"]["points"] = "0"
    return d


def _suit(d, p):
    d["deck"] = {"id": "short", "ranks": [{"rank": str(v), "value": v} for v in range(1, 11)],
                 "suits": ["H", "D", "C", p]}
    return d


def _deck_id(d, p):
    d["deck"] = {"id": p, "ranks": [{"rank": str(v), "value": v} for v in range(1, 11)], "suits": ["H", "D", "C", "S"]}
    return d


def _string_literal(d, p):
    d["events"]["scopa"]["when"] = f"not empty(captured) and empty(table) and {p!r} != {p[::-1]!r}"
    return d


def _expression_text(d, p):
    d["events"]["scopa"]["when"] = f"not empty(captured) and empty(table) {p}"
    return d


def _expression_tail(d, p):
    # A newline inside the expression itself: the `# file:line: expression` comment must stay one line.
    d["events"]["scopa"]["when"] = f"not empty(captured) and\n empty(table) and\r\n not last_play or {p!r} == \"\""
    return d


FIELDS = {
    "id": lambda d, p: (set_path(d, ("id",), p), d)[1],
    "name": lambda d, p: (set_path(d, ("name",), p), d)[1],
    "description": lambda d, p: (set_path(d, ("description",), p), d)[1],
    "source": lambda d, p: (set_path(d, ("source",), p), d)[1],
    "extends": lambda d, p: (set_path(d, ("extends",), p), d)[1],
    "deal check name": lambda d, p: (set_path(d, ("deal_checks", 0, "name"), p), d)[1],
    "deal check event": lambda d, p: (set_path(d, ("deal_checks", 0, "event"), p), d)[1],
    "dealer bonus event": lambda d, p: (set_path(d, ("dealer_bonuses", 0, "event"), p), d)[1],
    "bonus name": _bonus_name,
    "event name": _event_name,
    "category name": _category_name,
    "outcome name": _outcome_name,
    "option name": _option_name,
    "option value": _option_value,
    "rank symbol": _custom_deck,
    "suit symbol": _suit,
    "deck id": _deck_id,
    "wild card": lambda d, p: (set_path(d, ("wild", "card"), p), d)[1],
    "wild declare_as": lambda d, p: (set_path(d, ("wild", "declare_as"), [p]), d)[1],
    "expression string literal": _string_literal,
    "expression text": _expression_text,
    "expression with newlines": _expression_tail,
    "scoring description": lambda d, p: (set_path(d, ("scoring", "carte", "description"), p), d)[1],
}


def code_tokens(source: str) -> list[str]:
    """The text of every token of the module that is not a string literal or a comment."""
    skip = {tokenize.STRING, tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT,
            tokenize.ENDMARKER}
    return [t.string for t in tokenize.generate_tokens(io.StringIO(source).readline) if t.type not in skip]


@functools.lru_cache(maxsize=None)
def reference_names() -> frozenset[str]:
    return frozenset(code_tokens(compile_ruleset("cirulla").source))


def assert_inert(source: str, payload: str, known: set[str]) -> None:
    """The payload is nowhere in the module's code: only in literals and comments."""
    tree = ast.parse(source)
    names = {t for t in code_tokens(source) if t.isidentifier()}
    # Identifiers of the module are the compiler's own (those of the base game, or the
    # generic ones a different ruleset shape brings); none comes from the payload.
    assert not {"open", "__import__", "os", "system", "eval", "exec", MARK} & names, names - known
    for token in code_tokens(source):
        assert MARK not in token and "__import__" not in token
    comments = [t for t in tokenize.generate_tokens(io.StringIO(source).readline) if t.type == tokenize.COMMENT]
    for comment in comments:
        assert "\n" not in comment.string and "\r" not in comment.string
    docstring = ast.get_docstring(tree)
    assert docstring is not None and docstring.startswith("Compiled ruleset")
    calls = {ast.unparse(n.func) for n in ast.walk(tree) if isinstance(n, ast.Call)}
    assert not {c for c in calls if "open" in c or "import" in c or "system" in c}


def write(doc: dict, path: Path) -> Path:
    path.write_text(yaml.safe_dump(doc, sort_keys=False, allow_unicode=True, width=10**6), encoding="utf-8")
    return path


def compile_via_cli(path: Path, *options: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    argv = ["compile", str(path), "--emit"] + [a for o in options for a in ("--option", o)]
    code = run(argv, out, err)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def known():
    return reference_names()


# Free text: accepted, so the payload must come out inert. They are all set at once.
FREE_TEXT = ["name", "description", "source", "scoring description", "option value",
             "expression string literal", "expression with newlines"]
# Checked names and symbols: most payloads are refused; any accepted one must be inert too.
CHECKED = [f for f in FIELDS if f not in FREE_TEXT]
# One payload of each shape for a checked field (quotes, newline, call, look-alike, length).
CHECKED_PAYLOADS = [PAYLOADS[0], PAYLOADS[2], PAYLOADS[4], PAYLOADS[9], PAYLOADS[16], PAYLOADS[19]]


@pytest.mark.parametrize("payload", PAYLOADS, ids=IDS)
def test_payload_in_free_text_fields_is_inert(payload, tmp_path, monkeypatch, known):
    monkeypatch.chdir(tmp_path)
    doc = base_doc()
    for field in FREE_TEXT:
        doc = FIELDS[field](doc, payload)
    path = write(doc, tmp_path / "rules.yaml")
    code, out, err = compile_via_cli(path)
    assert not (tmp_path / MARK).exists(), "the payload ran"
    if code == 2:  # the 5000-character payload is longer than any free text may be
        assert len(payload) > 200 and err.startswith(f"{path}:"), err[:500]
        return
    assert code == 0, err[:500]
    assert_inert(out, payload, known)


@pytest.mark.parametrize("field", CHECKED)
def test_payload_in_checked_field_is_refused_or_inert(field, tmp_path, monkeypatch, known):
    monkeypatch.chdir(tmp_path)
    for n, payload in enumerate(CHECKED_PAYLOADS):
        doc = FIELDS[field](copy.deepcopy(base_doc()), payload)
        path = write(doc, tmp_path / f"rules{n}.yaml")
        code, out, err = compile_via_cli(path)
        assert not (tmp_path / MARK).exists(), f"the payload {payload!r} ran"
        if code == 2:
            # Refused: one located problem (first line `file:line:col: message`).
            assert err.startswith(f"{path}:"), err[:500]
            continue
        assert code == 0, err[:500]
        assert_inert(out, payload, known)


@pytest.mark.parametrize("payload", PAYLOADS, ids=IDS)
def test_option_value_from_the_command_line_is_inert(payload, tmp_path, monkeypatch, known):
    monkeypatch.chdir(tmp_path)
    doc = _option_value(base_doc(), "other")
    del doc["options"]["label"]["choices"]
    path = write(doc, tmp_path / "rules.yaml")
    code, out, err = compile_via_cli(path, f"label={payload}")
    assert not (tmp_path / MARK).exists()
    if len(payload) > 64:       # a str option's value is at most 64 characters (record writes it)
        assert code == 2 and "option 'label' is at most 64 characters, found 'aaaa" in err and len(err) < 300, err
        return
    assert code == 0, err
    assert_inert(out, payload, known)
    assert repr(payload) in out


def test_expression_comment_stays_one_line(tmp_path):
    doc = _expression_tail(base_doc(), "x\nopen('PWNED', 'w')")
    source = compile_ruleset(write(doc, tmp_path / "rules.yaml")).source
    line = next(l for l in source.splitlines() if "not empty(captured) and empty(table)" in l)
    assert line.lstrip().startswith("# rules.yaml:")


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=st.text(min_size=1, max_size=80), field=st.sampled_from(["name", "description", "option value",
                                                                        "expression string literal",
                                                                        "scoring description"]))
def test_any_text_is_refused_or_inert(text, field, tmp_path_factory):
    folder = tmp_path_factory.mktemp("any")
    doc = FIELDS[field](copy.deepcopy(base_doc()), text)
    path = write(doc, folder / "rules.yaml")
    try:
        compiled = compile_ruleset(path)
    except RulespecError as err:
        assert err.span is not None and err.span.file == str(path)
        return
    if text.isidentifier() and text not in reference_names():
        assert text not in code_tokens(compiled.source)
    # Free text changes no code: every code token is one the base game's module has too.
    assert not (set(code_tokens(compiled.source)) - reference_names())


# ------------------------------------------------------------------ the file name

FILE_NAMES = [
    # Closes the module docstring, opens a file, reopens a string: runs at import.
    f'a""" + open("{MARK}", "w").name + """.yaml',
    # A newline in the `# file:line:` comments and the docstring.
    f"b\nopen('{MARK}', 'w')\n.yaml",
    f"c\ropen('{MARK}', 'w')\r.yaml",
]


@pytest.mark.parametrize("name", FILE_NAMES, ids=["docstring-quotes", "newline", "carriage-return"])
def test_file_name_is_refused_or_inert(name, tmp_path, monkeypatch, known):
    monkeypatch.chdir(tmp_path)
    path = write(base_doc(), tmp_path / name)
    try:
        code, out, err = compile_via_cli(path)
    finally:
        ran = (tmp_path / MARK).exists()
    assert not ran, "the file name ran as code"
    assert code in (0, 2), err
    if code == 0:
        assert_inert(out, name, known)


@pytest.mark.parametrize("name", ["plain-name.yaml", "spaces and (parens) [x].yaml", "ünïcødé.yaml",
                                  "it's.yaml", "#hash.yaml"])
def test_ordinary_file_names_compile(name, tmp_path, monkeypatch, known):
    monkeypatch.chdir(tmp_path)
    code, out, err = compile_via_cli(write(base_doc(), tmp_path / name))
    assert code == 0, err
    assert_inert(out, name, known)


# Issue 9, item 1: the compiler once looked for the text `_rt.most(` in emitted scoring code,
# string literals included, and lifted what followed into a statement. Every payload, wrapped
# as `_rt.most(<payload>),`, goes into every string position that reaches scoring: a string
# literal in a points expression, a str option's value (default and --option), and the
# capture condition that reads `played`. Compiling and scoring whole hands must not run it.
MOST_PAYLOADS = [f"_rt.most({p})," for p in (f'__import__("os").system("touch {MARK}")',
                                              f"__import__('os').system('touch {MARK}')",
                                              f"open('{MARK}', 'w')", f'open("{MARK}", "w")')]


def _scoring_strings(d, p, label):
    d["options"] = {"label": {"type": "str", "default": label, "description": "a label"}}
    d["scoring"]["primiera"]["points"] = (
        f"(1 if most(count(pile)) else 0) + (1 if {p!r} in [rank(pile)] else 0)"
        f" + (1 if options.label in [rank(pile)] else 0)")
    d["capture"]["kinds"][0]["when"] = f"rank(played) != 'K' or {p!r} != options.label"
    return d


@pytest.mark.parametrize("payload", MOST_PAYLOADS, ids=[f"m{i}" for i in range(len(MOST_PAYLOADS))])
def test_most_marker_in_strings_never_runs(payload, tmp_path, monkeypatch, known):
    monkeypatch.chdir(tmp_path)
    doc = _scoring_strings(base_doc(), payload, payload)
    path = write(doc, tmp_path / "rules.yaml")
    for options in ((), (f"label={payload}",)):
        code, out, err = compile_via_cli(path, *options)
        assert code == 0, err[:500]
        assert_inert(out, payload, known)
        out_sim, err_sim = io.StringIO(), io.StringIO()
        argv = ["simulate", str(path), "--hands", "20", "--workers", "1", "--json"]
        argv += [a for o in options for a in ("--option", o)]
        assert run(argv, out_sim, err_sim) == 0, err_sim.getvalue()[:500]
        assert not (tmp_path / MARK).exists(), "the payload ran"
