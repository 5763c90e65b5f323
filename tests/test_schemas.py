"""The shipped JSON Schemas are valid draft 2020-12 schemas, and every shipped ruleset starts with its editor line."""
import json
import os
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from rulespec.source.rulesets import rulesets_dir
from rulespec.source.validate import SCHEMA_DIR


@pytest.mark.parametrize("name", ["ruleset", "transcript"])
def test_schema_is_valid(name):
    Draft202012Validator.check_schema(json.loads((SCHEMA_DIR / f"{name}.schema.json").read_text()))


def test_shipped_rulesets_name_the_schema():
    for path in rulesets_dir().glob("*.yaml"):
        assert path.read_text(encoding="utf-8").startswith(
            "# yaml-language-server: $schema=../schemas/ruleset.schema.json\n"), path.name


@pytest.mark.parametrize("folder", ["rulesets", "rulespec/rulesets"])
def test_the_shipped_schema_line_resolves_in_the_checkout_and_installed(folder):
    # Editors resolve the path lexically from the file's folder: rulesets/ in the checkout (through the
    # top-level link schemas -> rulespec/schemas), rulespec/rulesets/ in the checkout and in an installed wheel.
    top = SCHEMA_DIR.parent.parent
    target = Path(os.path.normpath(top / folder / "../schemas/ruleset.schema.json"))
    assert json.loads(target.read_text()) == json.loads((SCHEMA_DIR / "ruleset.schema.json").read_text())


def _properties(node, path=""):
    if isinstance(node, dict):
        for name, sub in node.get("properties", {}).items():
            yield f"{path}.{name}", sub
        for key, sub in node.items():
            if key == "properties":
                for name, child in sub.items():
                    yield from _properties(child, f"{path}.{name}")
            elif key not in ("enum", "const"):
                yield from _properties(sub, path)
    elif isinstance(node, list):
        for sub in node:
            yield from _properties(sub, path)


@pytest.mark.parametrize("name", ["ruleset", "transcript"])
def test_every_property_has_a_description(name):
    schema = json.loads((SCHEMA_DIR / f"{name}.schema.json").read_text())
    missing = sorted({path for path, sub in _properties(schema) if not sub.get("description")})
    assert missing == []


@pytest.mark.parametrize("doc, key", [
    ({"id": "v", "wild": {"card": "7H", "declar_as": ["A"]}}, "declar_as"),
    ({"id": "v", "events": {"scopa": {"pointz": 1}}}, "pointz"),
    ({"id": "v", "scoring": {"carte": {"point": 1}}}, "point"),
    ({"id": "v", "outcomes": {"x": {"when": "true", "resutl": "win"}}}, "resutl"),
    ({"id": "v", "hand_bonuses": {"decino": {"siz": 3}}}, "siz"),
    ({"id": "v", "deck": {"id": "d", "ranks": [{"rank": "A", "value": 1}], "suits": ["H"], "colour": 1}}, "colour"),
])
def test_a_misspelt_nested_key_is_its_own_error_for_editors(doc, key):
    # What an editor shows is the plain validator's errors: the key's own, never 'Expected "null"' from a oneOf.
    schema = json.loads((SCHEMA_DIR / "ruleset.schema.json").read_text())
    errors = [e for e in Draft202012Validator(schema).iter_errors(doc) if e.validator != "required"]
    assert [(e.validator, key in e.message) for e in errors] == [("additionalProperties", True)]
    assert not any("null" in e.message for e in errors)
