"""Load and validate: safe located YAML, JSON Schema, ruleset files and `extends:`."""
