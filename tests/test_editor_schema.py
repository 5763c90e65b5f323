"""What an editor shows: yaml-language-server finds the schema from a new file, a shipped file in the checkout
and one where an installed package has it, reports a misspelt key as that key's error, and hovers descriptions.

Skipped when yaml-language-server is not installed (`npm install yaml-language-server`, then put it on PATH or
name it in RULESPEC_YAML_LANGUAGE_SERVER).
"""
from __future__ import annotations

import io
import os
import shutil
from pathlib import Path

import pytest

from rulespec.cli.main import run

SERVER = os.environ.get("RULESPEC_YAML_LANGUAGE_SERVER") or shutil.which("yaml-language-server")
pytestmark = pytest.mark.skipif(SERVER is None, reason="yaml-language-server is not installed")
TOP = Path(__file__).resolve().parent.parent
MISSPELT = "wild: {card: 7H, declar_as: [A]}\nevents: {scopa: {pointz: 2}}\n"


@pytest.fixture(scope="module")
def editor(tmp_path_factory):
    from tests.lsp_client import LanguageServer
    server = LanguageServer(SERVER, tmp_path_factory.mktemp("editor"))
    yield server
    server.close()


def test_a_new_file_outside_the_checkout(editor, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert run(["new", "mine", "--extends", "cirulla"], io.StringIO(), io.StringIO()) == 0
    path = tmp_path / "mine.yaml"
    text = path.read_text(encoding="utf-8")
    assert editor.open(path, text) == []
    lines = len(text.splitlines())
    assert editor.open(tmp_path / "typo.yaml", text + MISSPELT) == [
        (lines + 1, "Property declar_as is not allowed."), (lines + 2, "Property pointz is not allowed.")]


@pytest.mark.parametrize("folder", ["rulesets", "rulespec/rulesets"])
def test_shipped_files_in_the_checkout_and_as_installed(editor, folder):
    # rulespec/rulesets/ is where an installed wheel has them: the same relative path must reach the schema.
    for name in ("cirulla.yaml", "cirulla-matta-queen.yaml", "cirullone.yaml", "cirulla-free-play.yaml"):
        assert editor.open(TOP / folder / name, (TOP / "rulesets" / name).read_text(encoding="utf-8")) == [], name
    text = (TOP / "rulesets" / "cirulla-capotun.yaml").read_text(encoding="utf-8")
    lines = len(text.splitlines())
    # A document that is never written: the editor only reads its path, to find the schema.
    diagnostics = editor.open(TOP / folder / "_typo_probe.yaml", text + MISSPELT)
    assert diagnostics == [(lines + 1, "Property declar_as is not allowed."),
                           (lines + 2, "Property pointz is not allowed.")]


def test_hover_shows_the_description(editor):
    path = TOP / "rulesets" / "_hover_probe.yaml"
    editor.open(path, "# yaml-language-server: $schema=../schemas/ruleset.schema.json\nid: x\ncapture: {forced: true}\n")
    assert "whether a card that can capture must" in editor.hover(path, 3, 12)


@pytest.mark.parametrize("i, body, message", [
    (0, "deal: {rounds: [[{eachh: 3}, {table: 4}]]}", "Property eachh is not allowed."),
    (1, "deck: {id: d, ranks: [{rank: A, vlue: 1}], suits: [H]}", "Property vlue is not allowed."),
    (2, "hand_bonuses: {decino: {siz: 3}}", "Property siz is not allowed."),
    (3, "scoring: {carte: {pionts: 1}}", "Property pionts is not allowed."),
    (4, "outcomes: {cappotto: {wen: 'true'}}", "Property wen is not allowed."),
    (5, "deck: frnch40", 'Value is not accepted. Valid values: "french40", "latin40", "bresciane52".'),
])
def test_a_misspelt_key_anywhere_is_its_own_error(editor, i, body, message):
    head = "# yaml-language-server: $schema=../schemas/ruleset.schema.json\nid: x\nextends: cirulla\n"
    found = editor.open(TOP / "rulesets" / f"_probe{i}.yaml", head + body + "\n")
    assert (4, message) in found and not any("null" in m for _, m in found), found
