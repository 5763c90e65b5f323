"""The shipped JSON Schemas are valid draft 2020-12 schemas, and every shipped ruleset starts with its editor line."""
import json

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
            "# yaml-language-server: $schema=../rulespec/schemas/ruleset.schema.json\n"), path.name
