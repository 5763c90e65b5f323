"""`rulespec new` writes a starter variant that validates (and so does each example in it);
`rulespec schema` prints the JSON Schemas; `rulespec validate` reports every file and its warnings."""
from __future__ import annotations

import io
import json
import os
from pathlib import Path

import pytest

from rulespec.cli.main import run
from rulespec.source.validate import SCHEMA_DIR


def cli(*argv) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = run([str(a) for a in argv], out, err)
    return code, out.getvalue(), err.getvalue()


def examples(text: str) -> list[list[str]]:
    """The commented examples: after each `#` line, a line saying what it does, then its YAML lines."""
    blocks = []
    for block in text.split("\n#\n")[1:]:
        lines = block.splitlines()
        assert lines[0].startswith("# ") and lines[0].endswith(":")
        blocks.append([line[2:] for line in lines[1:]])
    return blocks


@pytest.mark.parametrize("base", ["cirulla", "cicera", "cirullone", "cirulla-a-cinque", "cirulla-tournament-cappotto"])
def test_new_variant_validates_as_written_and_with_each_example(tmp_path, monkeypatch, base):
    monkeypatch.chdir(tmp_path)
    code, out, err = cli("new", "mine", "--extends", base)
    assert (code, err) == (0, "")
    assert out.splitlines()[0] == f"wrote mine.yaml: a variant of {base}; check it with `rulespec validate mine.yaml`"
    text = Path("mine.yaml").read_text(encoding="utf-8")
    lines = text.splitlines()
    assert lines[0].startswith("# yaml-language-server: $schema=")
    assert lines[3:5] == ["id: mine", f"extends: {base}"]
    assert lines[5].startswith("name: ") and lines[6].startswith("description: ")
    assert cli("validate", "mine.yaml") == (0, "ok   mine.yaml (ruleset mine)\n", "")
    found = examples(text)
    assert len(found) >= 4
    for i, block in enumerate(found):
        Path(f"example{i}.yaml").write_text(text.replace("id: mine", f"id: example{i}") + "\n".join(block) + "\n",
                                            encoding="utf-8")
        code, out, err = cli("validate", f"example{i}.yaml")
        assert code == 0, (block, err)



def test_the_starter_points_at_the_shipped_docs_and_says_why_a_removal_touches_another_bonus(tmp_path, monkeypatch):
    """Outside a checkout there is no docs/ folder; removing decino edits barsega, which names it."""
    monkeypatch.chdir(tmp_path)
    assert cli("new", "mine", "--extends", "cirulla")[0] == 0
    text = Path("mine.yaml").read_text(encoding="utf-8")
    assert "`rulespec docs language` has the rest." in text and "docs/language.md" not in text
    assert ("# Remove a hand bonus (cirulla has: barsega, decino); barsega refers to decino, so that reference "
            "goes too:\n# hand_bonuses:\n#   decino: null\n#   barsega: {excluded_by: []}\n") in text

def schema_line_target(path: Path) -> Path:
    """Where an editor finds the schema a file's first line names (relative to the file, as yaml-language-server)."""
    first = path.read_text(encoding="utf-8").splitlines()[0]
    ref = first.split("$schema=", 1)[1]
    assert not ref.startswith(("/", "file:")) and "site-packages" not in ref, ref
    return Path(os.path.normpath(path.parent / ref))


def test_new_outside_the_checkout_writes_a_schema_editors_resolve(tmp_path, monkeypatch):
    shared = next((p for p in tmp_path.parents if (p / ".rulespec").is_dir()), None)
    if shared is not None:      # `new` shares the nearest .rulespec/ above (scaffold.schema_ref): none is written
        pytest.skip(f"{shared / '.rulespec'} lies above pytest's temporary folder; remove it to run this test")
    monkeypatch.chdir(tmp_path)
    code, out, _ = cli("new", "mine", "--extends", "cirulla")
    assert code == 0 and out.splitlines()[1] == ("wrote .rulespec/ruleset.schema.json: the ruleset schema, for "
                                                 "editors (the $schema line of mine.yaml names it)")
    target = schema_line_target(tmp_path / "mine.yaml")
    assert target == tmp_path / ".rulespec" / "ruleset.schema.json"
    assert target.read_text() == (SCHEMA_DIR / "ruleset.schema.json").read_text()
    # A variant in a folder below shares that copy; a second one does not write it again.
    code, out, _ = cli("new", "other", "--extends", "mine.yaml", "-o", "deep/er/other.yaml")
    assert code == 0 and len(out.splitlines()) == 1
    assert schema_line_target(tmp_path / "deep" / "er" / "other.yaml") == target
    # A stale copy (an older rulespec's) is refreshed.
    target.write_text("{}", encoding="utf-8")
    assert cli("new", "third", "--extends", "cirulla")[0] == 0
    assert target.read_text() == (SCHEMA_DIR / "ruleset.schema.json").read_text()


def test_new_inside_the_checkout_names_the_checkouts_schema():
    from rulespec.authoring.scaffold import SCHEMA, schema_ref
    top = SCHEMA.parent.parent.parent
    assert schema_ref(top / "rulesets") == ("../rulespec/schemas/ruleset.schema.json", None)


def test_new_names_the_game_after_its_id(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert cli("new", "my_house-rules", "--extends", "cicera")[0] == 0
    lines = Path("my_house-rules.yaml").read_text(encoding="utf-8").splitlines()
    assert lines[5:7] == ['name: "My house rules"',
                          'description: "A variant of Cicera: say here in one line what it changes."']


def test_new_with_a_base_file_writes_it_relative(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert cli("new", "base", "--extends", "cirulla", "-o", "bases/base.yaml")[0] == 0
    assert cli("new", "child", "--extends", "bases/base.yaml", "-o", "variants/child.yaml")[0] == 0
    text = Path("variants/child.yaml").read_text(encoding="utf-8")
    assert 'extends: "../bases/base.yaml"' in text
    assert cli("validate", "variants/child.yaml") == (0, "ok   variants/child.yaml (ruleset child)\n", "")


@pytest.mark.parametrize("argv, message", [
    (["new", "Mine", "--extends", "cirulla"],
     "invalid ruleset id 'Mine': use lowercase letters, digits, '-' and '_', starting with a letter"),
    (["new", "cirulla", "--extends", "cirulla"], "the variant needs an id of its own, not its base's ('cirulla')"),
    (["new", "mine", "--extends", "cirula"],
     "unknown ruleset 'cirula'; expected a shipped id or a path to a .yaml file; did you mean 'cirulla'?"),
])
def test_new_refuses(tmp_path, monkeypatch, argv, message):
    monkeypatch.chdir(tmp_path)
    assert cli(*argv) == (2, "", message + "\n")
    assert list(tmp_path.iterdir()) == []


def test_new_never_overwrites_without_force(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("mine.yaml").write_text("keep me\n", encoding="utf-8")
    assert cli("new", "mine", "--extends", "cirulla") == (
        2, "", "mine.yaml already exists; choose another name, -o FILE, or --force to overwrite it\n")
    assert Path("mine.yaml").read_text(encoding="utf-8") == "keep me\n"
    assert cli("new", "mine", "--extends", "cirulla", "--force")[0] == 0


@pytest.mark.parametrize("kind", ["ruleset", "transcript"])
def test_schema_command(kind):
    code, out, err = cli("schema", kind)
    assert (code, err) == (0, "")
    assert out == (SCHEMA_DIR / f"{kind}.schema.json").read_text(encoding="utf-8")  # as shipped, for editors


def test_schema_defaults_to_rulesets():
    assert json.loads(cli("schema")[1])["title"] == "rulespec ruleset"


def test_validate_reports_every_file_and_warnings(tmp_path):
    ok = tmp_path / "ok.yaml"
    ok.write_text("id: ok\nextends: cirulla\ndeck: french40\ndeal: {packet: 3}\n", encoding="utf-8")
    warn = tmp_path / "warn.yaml"
    warn.write_text("id: warn\nextends: cirulla\nscoring:\n  extra: {from_events: true}\n", encoding="utf-8")
    bad = tmp_path / "bad.yaml"
    bad.write_text("id: bad\nextends: cirulla\ngame: {target: -1}\n", encoding="utf-8")
    code, out, err = cli("validate", bad, ok, warn, "cirulla")
    assert code == 1
    # A ruleset that overrides deck: and deal: is still a ruleset, not a transcript.
    assert out.splitlines() == [f"ok   {ok} (ruleset ok)", f"ok   {warn} (ruleset warn, 1 warning)",
                                "ok   cirulla (ruleset cirulla)"]
    assert [line for line in err.splitlines() if not line.startswith("    ")] == [
        f"{bad}:3:16: expected at least 0, found -1",
        f"{warn}:4:3: warning: scoring category 'extra' is from_events but no event or bonus scores in it, "
        f"so it is always 0",
    ]


def test_compile_prints_warnings_and_succeeds(tmp_path):
    warn = tmp_path / "warn.yaml"
    warn.write_text("id: warn2\nextends: cirulla\noptions:\n  unused: {type: int, default: 1}\n", encoding="utf-8")
    code, out, err = cli("compile", warn)
    assert code == 0 and out.startswith("compiled warn2: ")
    assert err.splitlines()[0] == f"{warn}:4:3: warning: option 'unused' is declared but no expression reads " \
                                  f"options.unused"
