"""Load stage: safe YAML into plain data whose mappings and lists carry source spans.

Only PyYAML's scanner, parser and composer run; this module builds the Python
values itself from the node graph, so it controls what a file may contain:
JSON-like scalars only (no dates, no YAML 1.1 `yes`/`no` booleans, no custom
tags), string or integer keys, no duplicates, bounded size, depth and alias
expansion. Every problem is one located RulespecError.
"""
from __future__ import annotations

import gc
import re

import yaml
from yaml.events import (AliasEvent, DocumentEndEvent, MappingEndEvent, MappingStartEvent, ScalarEvent, SequenceEndEvent,
                         SequenceStartEvent, StreamEndEvent)
from yaml.nodes import MappingNode, ScalarNode, SequenceNode

from rulespec.errors import RulespecError, Span, register_source
from rulespec.source.files import MAX_BYTES, check_size  # noqa: F401 - the size limit, shared with files.py
MAX_DEPTH = 64
MAX_NODES = 100_000
MAX_INT_DIGITS = 18

_TAG = "tag:yaml.org,2002:"
_STR, _INT, _FLOAT, _BOOL, _NULL = (_TAG + t for t in ("str", "int", "float", "bool", "null"))
_SEQ, _MAP = _TAG + "seq", _TAG + "map"

# The YAML 1.2 core schema, minus anything that is not JSON-like.
_NULL_RE = re.compile(r"~|null|Null|NULL|")
_BOOL_RE = re.compile(r"true|True|TRUE|false|False|FALSE")
_DEC_RE = re.compile(r"[-+]?[0-9]+")
_HEX_RE = re.compile(r"0x[0-9a-fA-F]+")
_OCT_RE = re.compile(r"0o[0-7]+")
_FLOAT_RE = re.compile(r"[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?")
_INF_RE = re.compile(r"[-+]?\.(inf|Inf|INF)")
_NAN_RE = re.compile(r"\.(nan|NaN|NAN)")


class LocDict(dict):
    """A mapping read from YAML, with the span of itself, each key and each value."""

    def __init__(self, *args, span: Span | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.span = span
        self.key_spans: dict = {}
        self.value_spans: dict = {}


class LocList(list):
    """A sequence read from YAML, with the span of itself and of each item."""

    def __init__(self, *args, span: Span | None = None):
        super().__init__(*args)
        self.span = span
        self.item_spans: list[Span] = []


class _Loader(yaml.SafeLoader):
    """SafeLoader's reader, scanner, parser and composer with JSON-like resolution.

    The composer is bounded too: a deeply nested file would otherwise exhaust
    Python's recursion, and a huge flat one would be composed in full before
    the builder could count it.
    """

    yaml_implicit_resolvers: dict = {}
    yaml_path_resolvers: dict = {}

    def __init__(self, text: str, filename: str):
        super().__init__(text)
        self._filename = filename
        self._depth = 0
        self._composed = 0

    def resolve(self, kind, value, implicit):
        if kind is ScalarNode:
            if implicit[0]:
                return _resolve_plain(value)
            return _STR
        return _SEQ if kind is SequenceNode else _MAP

    def compose_node(self, parent, index):
        if self.check_event(AliasEvent):
            return super().compose_node(parent, index)
        self._composed += 1
        if self._composed > MAX_NODES:
            raise RulespecError(f"too many nodes: more than {MAX_NODES}", _mark_span(self._filename, self.peek_event().start_mark))
        nested = self.check_event(SequenceStartEvent, MappingStartEvent)
        if nested:
            self._depth += 1
            if self._depth > MAX_DEPTH:
                raise RulespecError(f"nesting deeper than {MAX_DEPTH} levels", _mark_span(self._filename, self.peek_event().start_mark))
        try:
            return super().compose_node(parent, index)
        finally:
            if nested:
                self._depth -= 1


# The same forms in one pattern, tried in that order: one match per plain scalar instead of up to eight.
_PLAIN_RE = re.compile("|".join(f"(?P<{name}>{pattern.pattern})" for name, pattern in (
    ("null", _NULL_RE), ("bool", _BOOL_RE), ("int", _DEC_RE), ("int_hex", _HEX_RE), ("int_oct", _OCT_RE),
    ("float", _FLOAT_RE), ("float_inf", _INF_RE), ("float_nan", _NAN_RE))))
_PLAIN_TAGS = {"null": _NULL, "bool": _BOOL, "int": _INT, "int_hex": _INT, "int_oct": _INT, "float": _FLOAT,
               "float_inf": _FLOAT, "float_nan": _FLOAT}


def _resolve_plain(value: str) -> str:
    match = _PLAIN_RE.fullmatch(value)
    return _PLAIN_TAGS[match.lastgroup] if match else _STR


def _mark_span(filename: str, mark) -> Span:
    return Span(filename, mark.line + 1, mark.column + 1)


def load(source: str | bytes, filename: str) -> object:
    """Parse one YAML document into LocDict/LocList/scalars; a located error otherwise. Inside `once()`,
    the same bytes under the same name are parsed once: a second load gives the first one's result."""
    if _ONCE and isinstance(source, bytes):
        seen = _ONCE[-1].get(filename)
        if seen is not None and seen[0] == source:
            if isinstance(seen[1], RulespecError):
                raise seen[1]
            return seen[1]
    try:
        doc = _load(source, filename)
    except RulespecError as err:
        _remember(source, filename, err)
        raise
    _remember(source, filename, doc)
    return doc


# `once()` scopes (innermost last): filename -> (bytes, document or error) of each load inside it.
_ONCE: list[dict] = []


class once:
    """A scope in which each file is parsed once (validate's `file_kind` reads a file's top-level keys,
    then the ruleset or transcript loads it: one parse of a 2 MiB file, not two). Documents are shared,
    so only code that does not change them loads inside it."""

    def __enter__(self) -> "once":
        _ONCE.append({})
        return self

    def __exit__(self, *exc) -> None:
        _ONCE.pop()


def _remember(source, filename: str, result) -> None:
    if _ONCE and isinstance(source, bytes):
        _ONCE[-1][filename] = (source, result)


def _load(source: str | bytes, filename: str) -> object:
    # Measured before anything else reads the text: the limit bounds all later work.
    size = len(source) if isinstance(source, bytes) or len(source) > MAX_BYTES else len(source.encode("utf-8", "surrogatepass"))
    if size > MAX_BYTES:
        register_source(filename, source[:200] if isinstance(source, str) else source[:200].decode("utf-8", "replace"))
    check_size(size, filename)
    text = _decode(source, filename)
    register_source(filename, text)
    # The graph and the data built from it are tens of thousands of small objects, none in a cycle the
    # collector must find (a recursive alias is refused, and freed when the collector runs again); with the
    # collector on, each 700 of them start a collection that walks them all, most of a big file's time.
    enabled = gc.isenabled()
    gc.disable()
    try:
        node, shared = _compose(text, filename)
        return _finish(node, text, filename, shared)
    finally:
        if enabled:
            gc.enable()


def _compose(text: str, filename: str):
    """The file's node graph, libyaml's when it composes it, else the reference loader's (each parse of a
    file is one call here); and whether a node may be reached twice (through an alias)."""
    fast = _compose_fast(text, filename)
    if fast is not None:
        return fast
    try:
        loader = _Loader(text, filename)
    except yaml.reader.ReaderError as err:
        raise RulespecError(_reader_message(err), _offset_span(text, err.position, filename)) from None
    try:
        return loader.get_single_node(), True
    except yaml.MarkedYAMLError as err:
        raise _syntax_error(err, text, filename) from None
    except RecursionError:  # unreachable with the depth bound; never show a traceback
        raise RulespecError(f"nesting deeper than {MAX_DEPTH} levels", Span(filename, 1, 1)) from None
    finally:
        loader.dispose()


def _finish(node, text: str, filename: str, shared: bool = True) -> object:
    """The composed node graph as located Python data (both parsers end here). A graph that reaches no node
    twice is a tree within the bounds already (`_bounds`): aliases are measured only where there are some."""
    if node is None:
        raise RulespecError("empty file; expected a mapping", Span(filename, 1, 1))
    if not isinstance(node, MappingNode):
        raise RulespecError(
            f"expected a mapping at the top level, found {_node_kind(node)}", _node_span(node, text, filename)
        )
    builder = _Builder(text, filename)
    if shared:
        builder.measure(node)
    return builder.build(node)


# The fast path: libyaml composes the file (several times faster than the pure-Python parser: replaying a
# folder of transcripts takes seconds instead of tens of seconds, and a 2 MiB file well under a second
# instead of several). The graph is the one the reference loader composes, and its bounds are checked on
# it as that loader checks them while composing (`_bounds`: the same error at the same node).
# A text libyaml cannot read goes to the reference loader, whose messages are the reference; an error
# beyond the first _FAST_MAX_BYTES characters would take that loader seconds to reach, so libyaml's own
# syntax error is reported instead, in the same words where they have the same meaning (`_syntax_error`).
_FAST_MAX_BYTES = 256 * 1024
_UNTAME = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ufeff\ud800-\udfff]")
# libyaml slows down badly on deep flow nesting, and composes a whole graph before it can be counted: a text
# that might hold more nodes than MAX_NODES, or more brackets than this, has its events counted first.
_FAST_MAX_BRACKETS = 4096


def _most_nodes(text: str) -> int:
    """At least as many nodes as the text can hold: besides the root, each node is a block mapping's key or
    value (two per ':' or '?'), a block list's item (one per '-'), or a flow collection's first entry (one
    after '[', a key and a value after '{') or next one (two per ',': `{a, b}` is a mapping of nulls)."""
    return (1 + 2 * (text.count(":") + text.count("?") + text.count(",") + text.count("{")) + text.count("-")
            + text.count("["))


def _compose_fast(text: str, filename: str):
    """libyaml's node graph, checked against the bounds, and whether it has aliases; None to leave the text
    to the reference loader."""
    if _CParser is None or _UNTAME.search(text):
        return None       # control characters: the reference reader names the first one at once
    big = len(text) > _FAST_MAX_BYTES
    if _most_nodes(text) > MAX_NODES or text.count("[") + text.count("{") > _FAST_MAX_BRACKETS:
        if not _events_within_bounds(text, filename) and not big:
            return None
    try:
        loader = _CLoader(text)
        try:
            node = loader.get_single_node()
        finally:
            loader.dispose()
    except yaml.MarkedYAMLError as err:
        mark = err.problem_mark or err.context_mark
        if not big or mark is None or mark.index <= _FAST_MAX_BYTES:
            return None       # the reference loader reaches it as soon as in a small file
        _events_within_bounds(text, filename)     # a bound broken before the error is the one reported
        raise _syntax_error(err, text, filename) from None
    except Exception:  # noqa: BLE001 - the reference loader will say what is wrong
        return None
    return node, node is not None and _bounds(node, filename)


def _events_within_bounds(text: str, filename: str) -> bool:
    """Count libyaml's events as the reference loader counts the nodes it composes: the same error where
    it would raise one (too many nodes, too deep); False at a syntax error, True at the end of the text.
    Stops at the first of these, so it reads at most MAX_NODES nodes' events."""
    parser = _CParser(text)
    count = depth = 0
    try:
        while True:
            event = parser.get_event()
            if event is None or isinstance(event, (DocumentEndEvent, StreamEndEvent)):
                return True       # the reference loader counts one document (a second one is an error)
            if isinstance(event, (ScalarEvent, SequenceStartEvent, MappingStartEvent)):
                count += 1
                if count > MAX_NODES:
                    raise RulespecError(f"too many nodes: more than {MAX_NODES}", _mark_span(filename, event.start_mark))
                if not isinstance(event, ScalarEvent):
                    depth += 1
                    if depth > MAX_DEPTH:
                        raise RulespecError(f"nesting deeper than {MAX_DEPTH} levels", _mark_span(filename, event.start_mark))
            elif isinstance(event, (SequenceEndEvent, MappingEndEvent)):
                depth -= 1
    except yaml.YAMLError:
        return False
    finally:
        parser.dispose()


def _bounds(root, filename: str) -> bool:
    """The reference loader's bounds on a composed graph: nodes in the order it composes them (an alias
    is no new node), collections nested at most MAX_DEPTH deep as written; its error at the first node
    past one. Whether some node is reached twice (an alias)."""
    seen = set()
    shared = False
    count = 0
    stack = [(root, 0)]
    while stack:
        node, depth = stack.pop()
        if id(node) in seen:
            shared = True
            continue              # an alias: the reference composer counts the anchored node once
        seen.add(id(node))
        count += 1
        if count > MAX_NODES:
            raise RulespecError(f"too many nodes: more than {MAX_NODES}", _mark_span(filename, node.start_mark))
        if isinstance(node, ScalarNode):
            continue
        depth += 1
        if depth > MAX_DEPTH:
            raise RulespecError(f"nesting deeper than {MAX_DEPTH} levels", _mark_span(filename, node.start_mark))
        if isinstance(node, SequenceNode):
            stack.extend((child, depth) for child in reversed(node.value))
        else:
            stack.extend((child, depth) for pair in reversed(node.value) for child in reversed(pair))
    return shared


try:
    from yaml.cyaml import CParser as _CParser

    class _CLoader(_CParser, yaml.resolver.BaseResolver):
        """libyaml's parser and composer with the same JSON-like resolution as _Loader."""

        def __init__(self, text: str):
            _CParser.__init__(self, text)
            yaml.resolver.BaseResolver.__init__(self)

        resolve = _Loader.resolve
except ImportError:   # PyYAML built without libyaml
    _CParser = None


def plain(node):
    """The same data as plain dicts and lists (no spans), e.g. for dumping or comparing."""
    if isinstance(node, dict):
        return {k: plain(v) for k, v in node.items()}
    if isinstance(node, list):
        return [plain(v) for v in node]
    return node


def _decode(source: str | bytes, filename: str) -> str:
    if isinstance(source, str):
        return source[1:] if source.startswith("\ufeff") else source
    try:
        return source.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        # utf-8-sig reports offsets in the text after any byte-order mark.
        data, start = err.object, err.start
        line = data.count(b"\n", 0, start) + 1
        line_start = data.rfind(b"\n", 0, start) + 1
        column = len(data[line_start:start].decode("utf-8", errors="replace")) + 1
        register_source(filename, data.decode("utf-8", errors="replace"))
        raise RulespecError(
            f"not UTF-8 text: invalid byte 0x{data[start]:02x} at line {line} column {column}",
            Span(filename, line, column),
        ) from None


def _offset_span(text: str, offset: int, filename: str) -> Span:
    line = text.count("\n", 0, offset) + 1
    column = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return Span(filename, line, column)


def _reader_message(err) -> str:
    if isinstance(err.character, int):
        control = err.character < 0x20 or 0x7F <= err.character < 0xA0
        return f"{'control character' if control else 'character'} U+{err.character:04X} is not allowed in YAML text"
    return str(err.reason)


# PyYAML's problem texts, reworded where the original is cryptic.
_TOKEN_WORDS = {
    "'<stream end>'": "the end of the file",
    "'<document start>'": "'---'",
    "'<document end>'": "'...'",
    "'<block mapping start>'": "a mapping",
    "'<block sequence start>'": "a list",
    "'<block end>'": "the end of a block",
    "'<scalar>'": "a value",
    "'<alias>'": "an alias",
    "'<anchor>'": "an anchor",
    "'<tag>'": "a tag",
    "'?'": "a key",
    "<block end>": "the end of the indented block",
}


def _syntax_error(err: yaml.MarkedYAMLError, text: str, filename: str) -> RulespecError:
    problem = err.problem or err.context or "invalid YAML"
    mark = err.problem_mark or err.context_mark
    if problem == "found character '\\t' that cannot start any token":
        message = "found a tab character where indentation is expected"
    elif problem.startswith("found character ") and problem.endswith("that cannot start any token"):
        char = problem[len("found character "):-len(" that cannot start any token")]
        message = f"unexpected character {char}; quote the value if it starts with {char}"
    elif problem == "mapping values are not allowed here":
        message = "unexpected ':'; check the indentation, or quote a value that contains ': '"
    elif problem == "could not find expected ':'":
        message = "expected ':' after a key; check the indentation"
    elif problem == "found unexpected end of stream":
        message = "unexpected end of the file"
    elif problem == "but found another document":
        message = "expected a single document; found a second one"
    elif problem == "second occurrence" and (err.context or "").startswith("found duplicate anchor "):
        anchor = err.context[len("found duplicate anchor "):].split(";")[0]
        message = f"duplicate anchor {anchor} (first at line {err.context_mark.line + 1})"
    elif problem.startswith("found undefined alias "):
        message = "undefined alias " + problem[len("found undefined alias "):]
    elif problem.startswith("expected <block end>, but found "):
        found = problem[len("expected <block end>, but found "):]
        message = f"{_TOKEN_WORDS.get(found, found)} is not expected here; check the indentation"
    else:
        message = problem
        for token, words in _TOKEN_WORDS.items():
            message = message.replace(token, words)
        message = message.replace(", but got ", ", but found ")
    if err.context and err.context_mark is not None and err.context.startswith("while ") and err.context_mark is not mark:
        if "indentation" not in message and "alias" not in message:
            message += f" ({err.context} at line {err.context_mark.line + 1})"
    span = _mark_span(filename, mark) if mark is not None else Span(filename, 1, 1)
    if problem.startswith("expected <block end>, but found "):
        from rulespec.source.indent import misindented
        odd = misindented(text, span.line)      # YAML reports it a line late when the line above is the odd one
        if odd is not None:
            span, message = Span(filename, odd[0], odd[1]), odd[2]
    lines = text.splitlines()
    if lines and span.line > len(lines):
        # "End of file" problems sit past the last line; show the end of it instead.
        span = Span(filename, len(lines), len(lines[-1]) + 1)
    return RulespecError(message, span)


def _node_kind(node) -> str:
    if isinstance(node, MappingNode):
        return "a mapping"
    if isinstance(node, SequenceNode):
        return "a list"
    if node.tag == _NULL:
        return "an empty value"
    return f"the value '{_short(node.value)}'"


def _short(text: str, limit: int = 40) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _node_span(node, text: str, filename: str) -> Span:
    """Where a node starts; for a string scalar, where its content starts."""
    mark = node.start_mark
    if isinstance(node, ScalarNode):
        if node.style in ("'", '"'):
            return Span(filename, mark.line + 1, mark.column + 2)
        if node.style in ("|", ">"):
            return _block_scalar_start(node, text, filename)
    return _mark_span(filename, mark)


def _block_scalar_start(node, text: str, filename: str) -> Span:
    # The content of `|` / `>` starts on the first non-blank line after the header.
    lines = text.splitlines()
    for index in range(node.start_mark.line + 1, min(node.end_mark.line + 1, len(lines))):
        stripped = lines[index].lstrip(" ")
        if stripped:
            return Span(filename, index + 1, len(lines[index]) - len(stripped) + 1)
    return _mark_span(filename, node.start_mark)


class _Builder:
    """Turns a composed node graph into LocDict/LocList/scalars, expanding aliases under a budget."""

    def __init__(self, text: str, filename: str):
        self.text = text
        self.filename = filename
        self.count = 0
        self.spans: dict[int, Span] = {}  # by id(node): aliased nodes are met many times

    def span(self, node) -> Span:
        span = self.spans.get(id(node))
        if span is None:
            span = self.spans[id(node)] = _node_span(node, self.text, self.filename)
        return span

    def measure(self, root) -> None:
        """Refuse alias bombs and self-containing nodes before building anything.

        Aliases make the composed graph a DAG whose expansion can be
        exponential; sizes are memoised per node, so this costs one pass over
        the graph as composed.
        """
        sizes: dict[int, tuple[int, int]] = {}
        active: set[int] = set()

        def size(node) -> tuple[int, int]:
            known = sizes.get(id(node))
            if known is not None:
                return known
            if isinstance(node, ScalarNode):
                return (1, 0)
            if id(node) in active:
                raise RulespecError("recursive alias: this node contains an alias to itself", self.span(node))
            active.add(id(node))
            children = node.value if isinstance(node, SequenceNode) else [n for pair in node.value for n in pair]
            count, depth = 1, 0
            for child in children:
                child_count, child_depth = size(child)
                count += child_count
                depth = max(depth, child_depth)
            active.discard(id(node))
            depth += 1
            if count > MAX_NODES:
                raise RulespecError(f"too many nodes: more than {MAX_NODES} after expanding aliases", self.span(node))
            if depth > MAX_DEPTH:
                raise RulespecError(f"nesting deeper than {MAX_DEPTH} levels (after expanding aliases)", self.span(node))
            sizes[id(node)] = (count, depth)
            return count, depth

        size(root)

    def build(self, node, depth: int = 0):
        self.count += 1
        if self.count > MAX_NODES:
            raise RulespecError(f"too many nodes: more than {MAX_NODES} after expanding aliases", self.span(node))
        if isinstance(node, ScalarNode):
            return self.scalar(node)
        depth += 1
        if depth > MAX_DEPTH:
            # Reachable only through aliases (the composer bounds literal nesting) -
            # including an anchor that refers to itself.
            raise RulespecError(f"nesting deeper than {MAX_DEPTH} levels (after expanding aliases)", self.span(node))
        if isinstance(node, SequenceNode):
            self.check_tag(node, _SEQ)
            result = LocList(span=self.span(node))
            for item in node.value:
                result.append(self.build(item, depth))
                result.item_spans.append(self.span(item))
            return result
        self.check_tag(node, _MAP)
        result = LocDict(span=self.span(node))
        for key_node, value_node in node.value:
            key = self.key(key_node, depth)
            if key in result:
                first = result.key_spans[key]
                raise RulespecError(f"duplicate key {_show_key(key)} (first at line {first.line})", self.span(key_node))
            result.key_spans[key] = self.span(key_node)
            result[key] = self.build(value_node, depth)
            result.value_spans[key] = self.span(value_node)
        return result

    def key(self, node, depth: int):
        if not isinstance(node, ScalarNode):
            raise RulespecError(f"a key must be a string or an integer, found {_node_kind(node)}", self.span(node))
        if node.tag == _STR and not node.style and node.value == "<<":    # plain: None, or libyaml's ""
            raise RulespecError("merge keys ('<<') are not supported; write the keys out", self.span(node))
        key = self.build(node, depth)
        if isinstance(key, bool) or not isinstance(key, (str, int)):
            raise RulespecError(f"a key must be a string or an integer, found {_node_kind(node)}", self.span(node))
        return key

    def check_tag(self, node, expected: str) -> None:
        if node.tag != expected:
            raise RulespecError(f"unsupported tag '{_short_tag(node.tag)}'; tags are not allowed", self.span(node))

    def scalar(self, node):
        tag, value = node.tag, node.value
        if tag == _STR:
            return value
        if tag == _NULL and _NULL_RE.fullmatch(value):
            return None
        if tag == _BOOL and _BOOL_RE.fullmatch(value):
            return value.lower() == "true"
        if tag == _INT:
            return self.integer(node)
        if tag == _FLOAT:
            if _INF_RE.fullmatch(value):
                return float("-inf") if value.startswith("-") else float("inf")
            if _NAN_RE.fullmatch(value):
                return float("nan")
            if _FLOAT_RE.fullmatch(value):
                return float(value)
        if tag.startswith(_TAG) and tag in (_NULL, _BOOL, _FLOAT):
            raise RulespecError(f"invalid value '{_short(value)}' for tag '!!{tag[len(_TAG):]}'", self.span(node))
        raise RulespecError(f"unsupported tag '{_short_tag(tag)}'; tags are not allowed", self.span(node))

    def integer(self, node) -> int:
        value = node.value
        if _DEC_RE.fullmatch(value):
            digits = value.lstrip("+-").lstrip("0")
            # Checked before int(): huge literals are refused, not converted.
            if len(digits) > MAX_INT_DIGITS:
                raise RulespecError(
                    f"integer with more than {MAX_INT_DIGITS} digits: {_short(value, 30)}", self.span(node)
                )
            return int(value)
        if _HEX_RE.fullmatch(value) or _OCT_RE.fullmatch(value):
            number = int(value[2:], 16 if value[1] == "x" else 8)
            if number >= 10**MAX_INT_DIGITS:
                raise RulespecError(
                    f"integer with more than {MAX_INT_DIGITS} digits: {_short(value, 30)}", self.span(node)
                )
            return number
        raise RulespecError(f"invalid value '{_short(value)}' for tag '!!int'", self.span(node))


def _short_tag(tag: str) -> str:
    return "!!" + tag[len(_TAG):] if tag.startswith(_TAG) else tag


def _show_key(key) -> str:
    # Cut longer than any name the schema allows (64), so that a name is always shown whole.
    return f"'{_short(key, 80)}'" if isinstance(key, str) else str(key)


def span_at(root, path) -> Span | None:
    """The span of the deepest node that exists along a JSON path of keys and indices."""
    node = root
    span = getattr(root, "span", None)
    for step in path:
        if isinstance(node, LocDict):
            key = _find_key(node, step)
            if key is _MISSING:
                break
            span = node.value_spans.get(key, span)
            node = node[key]
        elif isinstance(node, LocList) and isinstance(step, int) and not isinstance(step, bool) and 0 <= step < len(node):
            span = node.item_spans[step] if step < len(node.item_spans) else span
            node = node[step]
        else:
            break
    return span


def key_span_at(root, path, key) -> Span | None:
    """The span of `key` in the mapping at `path`, or the nearest enclosing span."""
    node = root
    for step in path:
        if isinstance(node, (LocDict, dict)):
            found = _find_key(node, step)
            if found is _MISSING:
                return span_at(root, path)
            node = node[found]
        elif isinstance(node, list) and isinstance(step, int) and 0 <= step < len(node):
            node = node[step]
        else:
            return span_at(root, path)
    if isinstance(node, LocDict):
        found = _find_key(node, key)
        if found is not _MISSING and found in node.key_spans:
            return node.key_spans[found]
    return span_at(root, path)


_MISSING = object()


def _find_key(mapping: dict, step):
    # A JSON path may spell an integer key as its digits (and vice versa).
    if step in mapping and not isinstance(step, bool):
        return step
    if isinstance(step, str) and _DEC_RE.fullmatch(step) and len(step) < 20 and int(step) in mapping:
        return int(step)
    if isinstance(step, int) and str(step) in mapping:
        return str(step)
    return _MISSING
