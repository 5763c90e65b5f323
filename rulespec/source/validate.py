"""Validate stage: check loaded YAML against a packaged JSON Schema, with located, human messages.

jsonschema finds the problems; this module decides which of them a person
should see (one per place, the most specific branch of a oneOf/anyOf), says
them in plain words, and locates each at the offending key or value.
A subschema may carry `"x-message"` (a string, or a mapping from keyword to
string) to override the wording; `{found}` in it is replaced by the value found.
`"x-at": "<key>"` beside it locates that message at the key of that name.
"""
from __future__ import annotations

import difflib

import heapq
import json
import re
from functools import lru_cache
from pathlib import Path

import jsonschema
from jsonschema import Draft202012Validator
from jsonschema.exceptions import STRONG_MATCHES, WEAK_MATCHES, ValidationError

from rulespec.errors import RulespecError, Span, did_you_mean
from rulespec.source.yamlsafe import key_span_at, span_at

SCHEMA_DIR = Path(__file__).resolve().parent.parent / "schemas"
MAX_ERRORS = 20
_MAX_RAW = 500  # stop asking jsonschema for more once a file is this broken

# YAML gives 4.0 for `4.0`; a count or a seat must be written as an integer.
_TYPE_CHECKER = Draft202012Validator.TYPE_CHECKER.redefine(
    "integer", lambda _checker, value: isinstance(value, int) and not isinstance(value, bool)
)


def _pattern(validator, pattern, instance, schema):
    # Schema patterns are ECMA-262, where `$` ends the text; Python's `$` also matches before a
    # final newline, which would let "scopa\n" through as a name.
    if validator.is_type(instance, "string"):
        anchored = pattern[:-1] + r"\Z" if pattern.endswith("$") and not pattern.endswith(r"\$") else pattern
        if not re.search(anchored, instance):
            yield ValidationError(f"{instance!r} does not match {pattern!r}")


_Validator = jsonschema.validators.extend(Draft202012Validator, validators={"pattern": _pattern},
                                          type_checker=_TYPE_CHECKER)

# Numeric bounds: "expected <words> <bound>, found <value>".
_BOUND_WORDS = {
    "minimum": "at least",
    "maximum": "at most",
    "exclusiveMinimum": "more than",
    "exclusiveMaximum": "less than",
    "multipleOf": "a multiple of",
}

# Sizes: "expected <bound> <n> <noun>, found <size>" ("expected <empty>" for at least one).
_SIZE_WORDS = {
    "minItems": ("at least", "items", "a non-empty list", len),
    "maxItems": ("at most", "items", "a non-empty list", len),
    "minLength": ("at least", "characters", "a non-empty string", lambda found: _show(found)),
    "maxLength": ("at most", "characters", "a non-empty string", lambda found: _show(found)),
    "minProperties": ("at least", "keys", "a non-empty mapping", len),
    "maxProperties": ("at most", "keys", "a non-empty mapping", len),
}

_TYPE_WORDS = {
    "integer": "an integer",
    "number": "a number",
    "string": "a string",
    "boolean": "true or false",
    "array": "a list",
    "object": "a mapping",
    "null": "nothing",
}


@lru_cache(maxsize=None)
def load_schema(name: str) -> dict:
    """The packaged schema `rulespec/schemas/<name>.schema.json` as rulespec validates with it.

    The file is written for editors, which see one file at a time: a section's keys that a complete
    ruleset needs are listed as `x-required`, since a variant may give only part of an inherited
    section. Here they are plain `required`; rulesets.py drops them again for a single file of a chain.
    """
    file = name if name.endswith(".json") else f"{name}.schema.json"
    schema = json.loads((SCHEMA_DIR / file).read_text(encoding="utf-8"))
    # The schemas ship with the package and are checked against the metaschema by
    # tests/test_schemas.py; checking them on every start would cost ~0.3 s.
    return _required(schema)


def _required(node):
    """`x-required` read as `required`, everywhere in a schema."""
    if isinstance(node, dict):
        return {("required" if k == "x-required" else k): _required(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_required(v) for v in node]
    return node


def _inline_refs(schema: dict) -> dict:
    """The schema with each local `$ref` replaced by its definition (ours are not recursive).

    Resolving a reference is most of jsonschema's time on a transcript (one
    per card); inlining them once makes validation several times faster.
    """
    defs = schema.get("$defs", {})

    def walk(node, depth=0):
        if depth > 50:
            raise ValueError("recursive $ref in a packaged schema")
        if isinstance(node, dict):
            ref = node.get("$ref")
            siblings = set(node) - {"$ref", "description", "title"}
            if (isinstance(ref, str) and ref.startswith("#/$defs/") and ref[8:] in defs
                    and all(k.startswith("x-") for k in siblings)):   # only annotations beside it
                merged = dict(walk(defs[ref[8:]], depth + 1))
                merged.update({k: walk(v, depth) for k, v in node.items() if k != "$ref"})
                return merged
            return {k: walk(v, depth) for k, v in node.items()}
        if isinstance(node, list):
            return [walk(v, depth) for v in node]
        return node

    return walk(schema)


@lru_cache(maxsize=None)
def _named_validator(name: str):
    return _Validator(_inline_refs(load_schema(name)))


def validate(doc, schema: str | dict, *, what: str) -> None:
    """Raise one RulespecError (others attached) for every place `doc` breaks `schema`."""
    validator = _named_validator(schema) if isinstance(schema, str) else _Validator(schema)
    problems: dict[tuple, _Problem] = {}
    # The schema sees JSON: YAML's integer keys (`1: [5H]`) become "1". Spans
    # are still looked up in the document as loaded.
    view = _json_view(doc)
    for count, error in enumerate(validator.iter_errors(view)):
        if count >= _MAX_RAW:
            break
        for problem in (p for shown in _shown(error) for p in _explain(shown, doc, view, what, validator.schema)):
            previous = problems.get(problem.group)
            if previous is None:
                problems[problem.group] = problem
            elif problem.kind == "required":
                previous.merge_missing(problem)
    if not problems:
        return
    # Sorted by their words without suggestions: a "did you mean" is worked out for the errors shown alone
    # (a file of 50,000 unknown keys is 20 suggestions, not 50,000).
    ordered = sorted(problems.values(), key=_Problem.order)[:MAX_ERRORS]
    errors = [RulespecError(p.text(), p.span) for p in ordered]
    raise RulespecError(errors[0].message, errors[0].span, others=errors[1:])


class _Problem:
    """One human-facing problem before it becomes a RulespecError."""

    def __init__(self, message: str, span: Span | None, group: tuple, kind: str = "", missing=(), where: str = "",
                 suggest=None):
        self.message = message
        self.suggest = suggest      # what adds "; did you mean ...?" to the message, when it is shown
        self.span = span
        self.group = group
        self.kind = kind
        self.missing = list(missing)
        self.where = where

    def merge_missing(self, other: "_Problem") -> None:
        for key in other.missing:
            if key not in self.missing:
                self.missing.append(key)

    def text(self) -> str:
        return self.words() + (self.suggest() if self.suggest is not None else "")

    def words(self) -> str:
        """The message without its suggestion."""
        if self.kind != "required":
            return self.message
        names = [_show_key(k) for k in self.missing]
        if len(names) == 1:
            return f"missing key {names[0]} in {self.where}"
        return f"missing keys {', '.join(names[:-1])} and {names[-1]} in {self.where}"

    def order(self):
        return (*_place(self.span), self.words())


def _place(span: Span | None) -> tuple:
    """Where a problem sorts: by line and column, those without a place last."""
    return (1, 0, 0) if span is None else (0, span.line, span.column)


def _relevance(error: ValidationError):
    # jsonschema's own relevance, but paths compared as text: a mapping may
    # have both integer and string keys, which Python cannot order.
    matches_type = getattr(error, "_matches_type", lambda: True)
    return (
        -len(error.path),
        tuple((isinstance(p, int), str(p)) for p in error.path),
        error.validator not in WEAK_MATCHES,
        error.validator in STRONG_MATCHES,
        not matches_type(),
    )


def _shown(error: ValidationError):
    """The errors a person should see for one of jsonschema's: where a oneOf/anyOf has exactly one branch
    whose type the value has (`builds: true` or a mapping, written as a mapping), every problem in that
    branch, so that a mapping with three wrong keys says three things at once; else the best match."""
    branch = _fitting_branch(error)
    if branch is None:
        yield best_match(error)
        return
    for inner in branch:
        yield from _shown(inner)


def _fitting_branch(error: ValidationError) -> list[ValidationError] | None:
    """The errors of the only branch of a oneOf/anyOf that did not fail on the value's type, or None."""
    if error.validator not in ("oneOf", "anyOf") or not error.context:
        return None
    branches: dict = {}
    for inner in error.context:
        branches.setdefault(inner.relative_schema_path[0], []).append(inner)
    fitting = [errors for errors in branches.values()
               if not any(e.validator == "type" and len(e.absolute_path) == len(error.absolute_path) for e in errors)]
    if len(fitting) != 1 or len(branches) != len(error.validator_value):
        return None
    return fitting[0]


def best_match(error: ValidationError) -> ValidationError:
    """The error within a oneOf/anyOf tree a person should see (jsonschema's descent)."""
    best = error
    while best.context:
        smallest = heapq.nsmallest(2, best.context, key=_relevance)
        if len(smallest) == 2 and _relevance(smallest[0]) == _relevance(smallest[1]):
            return best
        best = smallest[0]
    return best


def _json_view(node):
    if isinstance(node, dict):
        return {(str(k) if isinstance(k, int) and not isinstance(k, bool) else k): _json_view(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_json_view(item) for item in node]
    return node


def _top_level_hint(key, path: list, root_schema) -> str:
    """`deal: {checks: ...}` -> `; did you mean the top-level key 'deal_checks'?`: a section's key that is
    the first part of a top-level key's name, written nested."""
    if not path or not isinstance(path[-1], str) or not isinstance(root_schema, dict):
        return ""
    top = [k for k in root_schema.get("properties", {}) if k not in path]
    close = difflib.get_close_matches(f"{path[-1]}_{key}", top, n=1, cutoff=0.85)
    return f"; did you mean the top-level key '{close[0]}'?" if close else ""


def _explain(error: ValidationError, doc, view, what: str, root_schema) -> list[_Problem]:
    path = list(error.absolute_path)
    where = describe_path(doc, path, what)
    value_group = ("value", _path_key(path))
    custom = _custom_message(error)

    if _under_property_names(error):
        key = error.instance
        message = custom or f"invalid key {_show(key)} in {where}: {_plain_message(error, where)}"
        return [_Problem(message, key_span_at(doc, path, key), ("key", _path_key(path), repr(key)))]
    if custom is not None:
        # `"x-at": key` locates the message at that key of the mapping, when present.
        at = error.schema.get("x-at") if isinstance(error.schema, dict) else None
        if isinstance(at, str) and isinstance(error.instance, dict) and at in error.instance:
            return [_Problem(custom, key_span_at(doc, path, at), ("key", _path_key(path), repr(at)))]
        return [_Problem(custom, span_at(doc, path), value_group)]

    kind = error.validator
    if kind in ("additionalProperties", "unevaluatedProperties") and isinstance(error.instance, dict):
        known = sorted(error.schema.get("properties", {}))
        problems = []
        extra = list(_extra_keys(error))
        if len(extra) > MAX_ERRORS:
            # Each is a problem of its own: only the first MAX_ERRORS by place can be shown, the rest are
            # not worded at all (a mapping of 50,000 unknown keys).
            extra = heapq.nsmallest(MAX_ERRORS, extra, key=lambda k: _place(key_span_at(doc, path, k)))
        for key in extra:
            message = f"unknown key {_show_key(key)} in {where}"
            suggest = None
            if _cut_expression(key):
                message += (": inside {...} a ',' ends a value, and the text after it reads as a key; quote the "
                            "expression ('...')")
            elif known:
                message += f"; expected one of: {', '.join(known)}"
                suggest = _suggestion(key, known, path, root_schema)
            problems.append(_Problem(message, key_span_at(doc, path, key), ("key", _path_key(path), repr(key)),
                                     suggest=suggest))
        return problems
    if kind == "required" and isinstance(error.instance, dict):
        missing = [k for k in error.validator_value if k not in error.instance]
        return [_Problem("", span_at(doc, path), ("required", _path_key(path)), "required", missing, where)]
    if kind == "dependentRequired" and isinstance(error.instance, dict):
        problems = []
        for key, needed in error.validator_value.items():
            absent = [n for n in needed if key in error.instance and n not in error.instance]
            if absent:
                names = " and ".join(f"key {_show_key(n)}" for n in absent)
                problems.append(
                    _Problem(f"key {_show_key(key)} needs {names} in {where}", key_span_at(doc, path, key), ("key", _path_key(path), repr(key)))
                )
        return problems
    if kind is None and error.schema is False:
        # A `false` subschema. jsonschema reports it at the parent's path, so
        # find the key by the identity of the value it refused.
        parent = _node_at(view, path)
        properties = _schema_at(root_schema, list(error.absolute_schema_path))
        if isinstance(parent, dict) and isinstance(properties, dict):
            for key, item in parent.items():
                if properties.get(key) is False and item is error.instance:
                    return [_Problem(f"key {_show_key(key)} is not allowed in {where}", key_span_at(doc, path, key), ("key", _path_key(path), repr(key)))]
        return [_Problem(f"{_show(error.instance)} is not allowed here", span_at(doc, path), value_group)]
    if kind == "enum" and isinstance(error.instance, str):
        options = [str(v) for v in error.validator_value]
        return [_Problem(_plain_message(error, where, suggest=False), span_at(doc, path), value_group,
                         suggest=lambda: did_you_mean(error.instance, options))]
    return [_Problem(_plain_message(error, where), span_at(doc, path), value_group)]


def _cut_expression(key) -> bool:
    """Whether an unknown key is the tail of an unquoted expression that a ',' cut inside a flow mapping:
    text no key is written with (a bracket or a quote; a space may be a misspelt key, 'hand bonuses')."""
    return isinstance(key, str) and any(c in key for c in '()[]"\'')


def _suggestion(key, known: list, path: list, root_schema):
    """What says `; did you mean 'x'?` for an unknown key, asked only when its message is shown."""
    return lambda: did_you_mean(key, known) or _top_level_hint(key, path, root_schema)


def _plain_message(error: ValidationError, where: str, suggest: bool = True) -> str:
    """Plain words for one keyword's failure (an unknown value's "did you mean" left out with `suggest=False`)."""
    kind, expected, found = error.validator, error.validator_value, error.instance
    if kind == "type":
        return f"expected {_types(expected)}, found {_show(found)}"
    if kind in ("oneOf", "anyOf"):
        types = _branch_types(error)
        if types:
            return f"expected {types}, found {_show(found)}"
        if kind == "oneOf" and not error.context:
            return f"{_show(found)} fits more than one of the allowed forms in {where}"
        if error.context:
            # Every branch failed equally: a branch that at least accepted the
            # value's type says the most useful thing.
            ranked = sorted(error.context, key=_relevance)
            typed = [e for e in ranked if e.validator != "type"]
            return _plain_message((typed or ranked)[0], where)
    if kind == "enum":
        options = [str(v) for v in expected]
        if found is None:
            return f"expected one of: {', '.join(options)}, found an empty value"
        if isinstance(found, (dict, list)):
            return f"expected one of: {', '.join(options)}, found {_show(found)}"
        hint = did_you_mean(found, options) if suggest and isinstance(found, str) else ""
        return f"unknown value {_show(found)}; expected one of: {', '.join(options)}{hint}"
    if kind == "const":
        return f"expected {_show(expected)}, found {_show(found)}"
    if kind in _BOUND_WORDS:
        return f"expected {_BOUND_WORDS[kind]} {expected}, found {_show(found)}"
    if kind in _SIZE_WORDS:
        bound, noun, empty, show = _SIZE_WORDS[kind]
        if bound == "at least" and expected == 1:
            return f"expected {empty}"
        return f"expected {bound} {expected} {noun}, found {show(found)}"
    if kind == "pattern":
        return f"invalid value {_show(found)}; expected text matching {expected}"
    if kind == "uniqueItems":
        seen = []
        for item in found:
            if item in seen:
                return f"repeated item {_show(item)} in {where}"
            seen.append(item)
        return f"repeated items in {where}"
    if kind == "not":
        return f"{_show(found)} is not allowed here"
    return error.message


def _custom_message(error: ValidationError) -> str | None:
    schema = error.schema if isinstance(error.schema, dict) else {}
    custom = schema.get("x-message")
    if isinstance(custom, dict):
        custom = custom.get(error.validator)
    if not isinstance(custom, str):
        return None
    return custom.replace("{found}", _show(error.instance))


def _under_property_names(error: ValidationError) -> bool:
    return "propertyNames" in list(error.absolute_schema_path)[:-1] or error.validator == "propertyNames"


def _extra_keys(error: ValidationError):
    properties = error.schema.get("properties", {})
    patterns = list(error.schema.get("patternProperties", {}))
    for key in error.instance:
        if key in properties:
            continue
        if isinstance(key, str) and any(re.search(p, key) for p in patterns):
            continue
        yield key


def _branch_types(error: ValidationError) -> str | None:
    """`an integer or a list` when every branch failed only on its type."""
    if not error.context or any(e.validator != "type" or e.path for e in error.context):
        return None
    names: list[str] = []
    for e in error.context:
        for t in [e.validator_value] if isinstance(e.validator_value, str) else e.validator_value:
            if t not in names:
                names.append(t)
    return _types(names)


def _types(types) -> str:
    words = [_TYPE_WORDS.get(t, t) for t in ([types] if isinstance(types, str) else types)]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def _show(value) -> str:
    """A value as a message quotes it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "an empty value"
    if isinstance(value, str):
        return f"'{_cut(value)}'"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    return str(value)


def _show_key(key) -> str:
    # Cut longer than any name the schema allows (64), so that a name is always shown whole.
    return f"'{_cut(key, 80)}'" if isinstance(key, str) else str(key)


def _cut(text: str, limit: int = 40) -> str:
    """A stranger's text as a message quotes it: cut to `limit` characters, '...' where cut (a key or a value
    may be a megabyte long; twenty messages must not print it twenty times)."""
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _path_key(path) -> tuple:
    return tuple((isinstance(p, int), str(p)) for p in path)


def _schema_at(root, schema_path):
    """The subschema at a jsonschema schema path, following local `$ref`s; None if lost."""
    node = root
    for step in schema_path:
        # jsonschema's schema paths step through a `$ref` without naming it.
        for _ in range(16):
            if not (isinstance(node, dict) and step not in node and "$ref" in node):
                break
            node = _resolve_local(root, node["$ref"])
        node = _step(node, step)
        if node is _MISSING:
            return None
    return node


_MISSING = object()


def _step(node, step):
    """node[step] for a mapping key or a list index that exists, else _MISSING."""
    if isinstance(node, dict) and step in node:
        return node[step]
    if isinstance(node, list) and isinstance(step, int) and 0 <= step < len(node):
        return node[step]
    return _MISSING


def _resolve_local(root, ref):
    if not isinstance(ref, str) or not ref.startswith("#"):
        return None
    node = root
    for part in [p for p in ref[1:].split("/") if p]:
        part = part.replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict) and part in node:
            node = node[part]
        else:
            return None
    return node


def _node_at(doc, path):
    node = doc
    for step in path:
        node = _step(node, step)
        if node is _MISSING:
            return None
    return node


def describe_path(doc, path, what: str) -> str:
    """`what` for the root, else a path such as `plays[2].declare[0]` or `deal[0].hands.1`."""
    if not path:
        return what
    text, node = "", doc
    for step in path:
        if isinstance(node, list):
            text += f"[{step}]"
            node = node[step] if isinstance(step, int) and 0 <= step < len(node) else None
        else:
            name = _cut(step, 80) if isinstance(step, str) else str(step)
            text += f".{name}" if text else name
            node = node.get(step) if isinstance(node, dict) else None
    return text
