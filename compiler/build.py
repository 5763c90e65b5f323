"""Ruleset → loaded Python module, cached per (the source files' contents, options).

Every cache key is made of content: a file rewritten with the same size and
modification time (or a clock turned back) is a new key, never the old module.
"""
from __future__ import annotations

import linecache
import os
import sys
import types

from rulespec.errors import RulespecError, Span
from rulespec.source.files import check_name_length, read_regular

from .cache import sha256         # CPython's own SHA-256: no OpenSSL to load

TYPE_CHECKING = False            # typing's flag, without importing typing (a type checker takes it as True)

# pathlib and the ruleset locator (source/rulesets.py, which uses it) are imported where a ruleset is found by
# a path, or compiled: a shipped ruleset taken from the disk cache needs neither (about 3 ms of every run).

# The loader, the checks and the code generator (YAML, jsonschema, Lark) are imported when a ruleset is
# compiled: a ruleset taken from the disk cache (compiler/cache.py) needs none of them.
if TYPE_CHECKING:
    from pathlib import Path

    from rulespec.checks.lint import LintWarning
    from rulespec.lang import model

_CACHE: dict[str, "Compiled"] = {}


class Compiled:
    """A compiled ruleset: the checked model, the generated source and the loaded module.

    `line_map[i]` is the span of the YAML that wrote generated line i + 1 (None for the
    module's own scaffolding), as Jinja's debug_info.

    Written out as `@dataclass` would generate it (constructor, repr, equality, unhashable;
    tests/test_records.py compares the two), without importing dataclasses on a compile-cache hit.
    """

    __match_args__ = ("ruleset", "source", "module", "line_map", "filename", "warnings")

    ruleset: "model.Ruleset"
    source: str
    module: types.ModuleType
    line_map: tuple[Span | None, ...] = ()
    filename: str = ""
    warnings: "tuple[LintWarning, ...]" = ()   # lint's, then those that need the compiled conditions

    def __init__(self, ruleset: "model.Ruleset", source: str, module: types.ModuleType,
                 line_map: tuple[Span | None, ...] = (), filename: str = "",
                 warnings: "tuple[LintWarning, ...]" = ()) -> None:
        self.ruleset, self.source, self.module = ruleset, source, module
        self.line_map, self.filename, self.warnings = line_map, filename, warnings

    def __repr__(self) -> str:
        return (f"{type(self).__qualname__}(ruleset={self.ruleset!r}, source={self.source!r}, "
                f"module={self.module!r}, line_map={self.line_map!r}, filename={self.filename!r}, "
                f"warnings={self.warnings!r})")

    def __eq__(self, other):
        if other.__class__ is self.__class__:
            return (self.ruleset, self.source, self.module, self.line_map, self.filename, self.warnings) == \
                (other.ruleset, other.source, other.module, other.line_map, other.filename, other.warnings)
        return NotImplemented

    __hash__ = None

    def span_at(self, lineno: int) -> Span | None:
        """The source span that wrote a 1-based line of the generated module."""
        from .writer import Generated
        return Generated(self.source, self.line_map).span_at(lineno)

    @property
    def id(self) -> str:
        return self.ruleset.id


def _options_text(options: dict | None, **how) -> str:
    """json.dumps(options or {}, sort_keys=True, **how): no options, the commonest, without importing json."""
    if not options:
        return "{}"
    import json
    return json.dumps(options, sort_keys=True, **how)


def _key(stamps: tuple, options: dict | None) -> str:
    h = sha256()
    for name, digest in stamps:
        h.update(name.encode("utf-8", "surrogatepass") + b"\0" + digest)
    h.update(_options_text(options, default=str).encode())
    return h.hexdigest()


# (located file, options, root) -> (each file of the chain by the name it was reached by and its real path,
# the chain's real files with the digests of their bytes, compiled): a hit is checked by resolving each
# name and reading and hashing each file (microseconds) instead of loading, parsing and checking them again.
# The names matter: a link in the chain (`extends: ./base.yaml`) swapped to another file leaves every
# real file as it was, and only the name then leads elsewhere.
_BY_FILE: dict[tuple, tuple[tuple, tuple, "Compiled"]] = {}


def content_digest(stamps: tuple) -> str:
    """The SHA-256 of the digests of every file of a chain, in order: the ruleset's content, wherever its files
    lie (a pickled state records it, run/pickling.py)."""
    h = sha256()
    for _name, digest in stamps:
        h.update(digest)
    return h.hexdigest()


def _stamps(files: list[str | Path]) -> tuple:
    """Each file's resolved name and the SHA-256 of its bytes, as they are now."""
    return tuple((os.path.realpath(f), sha256(read_regular(f)).digest()) for f in files)


def _named(files, stamps) -> tuple:
    """Each file of a chain as (the name it was reached by, its real path)."""
    return tuple((str(f), real) for f, (real, _digest) in zip(files, stamps))


def _unchanged(named: tuple, stamps: tuple) -> bool:
    """Whether every name of a chain still leads to the same real file and every file has the same bytes."""
    return all(os.path.realpath(name) == real for name, real in named) and \
        _stamps([real for real, _ in stamps]) == stamps


def _shipped_file(ref) -> str | None:
    """The file of a shipped ruleset named by its id, as source/rulesets.py's locate() names it, found
    without pathlib; None for anything else (a path, an unknown id, an odd name), which locate() finds or
    refuses as always. tests/test_startup.py holds the two together."""
    if type(ref) is not str or "/" in ref or "\\" in ref or ref.lower().endswith((".yaml", ".yml")):
        return None
    try:
        check_name_length(ref, None)
    except RulespecError:
        return None
    # locate()'s rulesets_dir(): rulespec/rulesets beside source/, found from the real path of source/files.py
    source = os.path.dirname(os.path.realpath(sys.modules[read_regular.__module__].__file__))
    path = os.path.join(os.path.dirname(source), "rulesets", f"{ref}.yaml")
    try:
        return path if os.path.isfile(path) else None
    except ValueError:
        return None


def _portable_ref(ref: str | Path, relative_to: Path | None) -> str:
    """A shipped ruleset by its id (valid on any installation), any other by its absolute path."""
    from rulespec.source.rulesets import locate, rulesets_dir
    path = locate(ref, relative_to=relative_to).resolve()
    shipped = rulesets_dir().resolve() / path.name
    return path.stem if path == shipped else str(path)


def _span(t) -> Span | None:
    return None if t is None else Span(*t)


def _plain_span(span: Span | None):
    return None if span is None else (span.file, span.line, span.column, span.end_line, span.end_column)


def _load_module(ruleset_id: str, source: str, code, filename: str, line_map: tuple, deal_check_spans: dict,
                 target_span: Span | None, capture_span: Span | None) -> types.ModuleType:
    """Run a generated module's code in a fresh module and set beside it what the engine locates failures with."""
    module = types.ModuleType(f"rulespec_compiled_{ruleset_id.replace('-', '_')}")
    module.__file__ = filename
    # Tracebacks and debuggers can show the generated lines.
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    exec(code, module.__dict__)  # noqa: S102 - source generated by codegen from validated data
    # The engine reports a rule that fails while playing at the YAML that wrote its line.
    module.LINE_SPANS = line_map
    # Where the engine's guards point (set beside the generated code, not in it): a deal check that
    # redeals forever, its condition; an endless game, the target.
    module.DEAL_CHECK_SPANS = deal_check_spans
    module.TARGET_SPAN = target_span
    # A table whose capture sets are too many to list: the capture kinds that list sums are the cause.
    module.CAPTURE_SPAN = capture_span
    return module


def compile_model(rs: model.Ruleset, options: dict | None = None, options_span: Span | None = None, *,
                  label: str = "") -> Compiled:
    """Check a built ruleset model with option values and compile it (no cache: e.g. a mutant of a document)."""
    from rulespec.checks import stage

    from .codegen import generate_module
    rs = stage.check(rs, options, options_span)
    generated = generate_module(rs)
    source = generated.source
    filename = f"<rulespec {rs.id} {label}>"
    code = compile(source, filename, "exec")
    sums = [k for k in rs.kinds if k.kind in ("sum", "fifteen")]
    module = _load_module(rs.id, source, code, filename, generated.line_map,
                          {c.name: c.when.span for c in rs.deal_checks}, stage.target_span(rs),
                          (sums or list(rs.kinds) or [rs])[0].span)
    compiled = Compiled(rs, source, module, generated.line_map, filename, _warnings(rs, module))
    compiled._code = code                # what the disk cache keeps of it (compiler/cache.py)
    module._COMPILED = compiled          # from the module the engine runs back to its ruleset (compiled_for)
    return compiled


def _warnings(rs: model.Ruleset, module) -> tuple:
    """Lint's warnings, then those that need the compiled conditions."""
    from rulespec.checks.lint import never_made
    conditions = {name: spec.check for name, spec in module.HAND_BONUSES.items()}
    return tuple(rs.warnings) + tuple(never_made(rs, conditions))


class StoredCompiled(Compiled):
    """A Compiled taken from the disk cache: the same module, source and spans; its checked model and its
    warnings are built from the YAML only if something asks for them (an HTML page, the native engine)."""

    def __init__(self, source: str, module: types.ModuleType, line_map: tuple, filename: str, checked):
        self.source, self.module, self.line_map, self.filename = source, module, line_map, filename
        self._checked = checked          # () -> (checked model, warnings)
        self._model = None

    def _model_and_warnings(self):
        if self._model is None:
            self._model = self._checked()
        return self._model

    @property
    def ruleset(self):
        return self._model_and_warnings()[0]

    @property
    def id(self) -> str:
        return self.module.RULESET_ID

    @property
    def warnings(self):
        return self._model_and_warnings()[1]


def _cacheable_options(options: dict | None) -> str | None:
    """The options as the disk cache's key writes them, or None if they are not plain JSON values."""
    try:
        return _options_text(options)
    except (TypeError, ValueError):
        return None


def _from_disk(ref, options: dict | None, *, relative_to, root, path: str | Path, options_json: str) -> Compiled | None:
    """The compiled ruleset from the disk cache (compiler/cache.py), or None on a miss."""
    from . import cache
    entry = cache.load(str(path), options_json, None if root is None else _real_root(root),
                       None if relative_to is None else str(relative_to))
    if entry is None:
        return None
    try:
        return _rebuild(entry, ref, options, relative_to=relative_to, root=root)
    except (KeyError, TypeError, ValueError):
        return None                      # an entry of another shape: compiled again (and replaced)


def _rebuild(entry: dict, ref, options: dict | None, *, relative_to, root) -> Compiled:
    """A Compiled from a disk cache entry: the module run from its stored code, the playout likewise."""
    stamps = entry["stamps"]
    line_map = tuple(_span(t) for t in entry["line_map"])
    module = _load_module(entry["id"], entry["source"], entry["code"], entry["filename"], line_map,
                          {name: _span(t) for name, t in entry["deal_check_spans"].items()},
                          _span(entry["target_span"]), _span(entry["capture_span"]))

    def checked():
        """The checked model and warnings, from the YAML (the files must still be those compiled)."""
        from rulespec.checks import stage
        from rulespec.errors import RulespecError
        from rulespec.lang import model
        rs = stage.check(model.load(ref, relative_to=relative_to, root=root), options)
        if rs.stamps != stamps:
            raise RulespecError(f"{rs.files[0]} changed while it was in use: run the command again", rs.span)
        return rs, _warnings(rs, module)

    compiled = StoredCompiled(entry["source"], module, line_map, entry["filename"], checked)
    module._COMPILED = compiled
    module.__rulespec_ref__ = (entry["portable_ref"], dict(options or {}))
    module.__rulespec_content__ = content_digest(stamps)
    if entry.get("playout_code") is not None:
        _load_playout(compiled, entry)
    compiled._disk_stamps = stamps
    compiled._disk_named = entry["named"]
    return compiled


def _load_playout(compiled: Compiled, entry: dict) -> None:
    """The stored playout, loaded as compiler/playout.py's playout_for loads a generated one."""
    source, filename = entry["playout_source"], entry["playout_file"]
    namespace = dict(compiled.module.__dict__)
    namespace["_MODULE"] = compiled.module
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    exec(entry["playout_code"], namespace)  # noqa: S102 - generated from a checked ruleset
    namespace["_ROWS_BY_CLASS"].update(entry.get("playout_rows") or {})     # filled ahead when stored
    if entry.get("playout_best"):
        namespace["_declarer"](compiled.module).load_best(entry["playout_best"])
    compiled._playout = namespace["playout"]
    compiled._playout_resume = namespace["resume"]
    compiled._playout_file = filename
    compiled._playout_spans = {line: _span(t) for line, t in entry["playout_spans"].items()}
    compiled.playout_source = source


def _work_per_fill(checked, conditions) -> int:
    """What one row or hand worked out ahead costs, in evaluations of an ordinary condition (1 or more):
    the prefills do that many times fewer, so that filters looping over the cards in every condition
    (2000 characters of them ran a minute or more of prefill) cannot make a compile long."""
    from rulespec.checks.lint import STEPS_PER_EVALUATION, condition_steps
    n_indices = checked.deck.size + (len(checked.deck.ranks) if checked.wild is not None else 0)
    steps = sum(condition_steps(e.tree, n_indices) for e in conditions if e is not None)
    return max(1, -(-steps // STEPS_PER_EVALUATION))


def _to_disk(compiled: Compiled, rs, *, path: str | Path, options_json: str, relative_to, root) -> None:
    """Keep a cleanly compiled ruleset, with its playout, in the disk cache."""
    from . import cache
    from .playout import playout_for
    module = compiled.module
    rows = best = None
    try:
        playout_for(compiled)            # generated now, so that a hit need not generate it
        # the memo rows of small tables, filled once here rather than by every process's first hands
        playout = compiled._playout.__globals__
        checked = compiled.ruleset       # its trees typed: what loops at run time is known
        rows = playout["_prefill"](playout["PREFILL_ROWS"] // _work_per_fill(checked, [k.when for k in checked.kinds]))
    except Exception:                    # noqa: BLE001 - stored without it; whoever needs it meets the error
        pass
    if module.HAND_BONUSES and getattr(compiled, "_playout", None) is not None:
        try:                             # and so the bots' best declarations for every dealt hand
            declarer = compiled._playout.__globals__["_declarer"]      # the playout's (run/declarations.py)
            checked = compiled.ruleset
            cost = _work_per_fill(checked, [b.when for b in checked.hand_bonuses.values()])
            best = declarer(module).prefill_best({cards for n in module.SEATS_ALLOWED
                                                  for cards, _table, _steps in module.SCHEDULES[n]}, cost=cost)
        except Exception:                # noqa: BLE001 - as above
            pass
    playout_source = getattr(compiled, "playout_source", None)
    entry = {
        "id": rs.id,
        "source": compiled.source,
        "filename": compiled.filename,
        "code": compiled._code,
        "line_map": tuple(_plain_span(s) for s in compiled.line_map),
        "deal_check_spans": {name: _plain_span(s) for name, s in module.DEAL_CHECK_SPANS.items()},
        "target_span": _plain_span(module.TARGET_SPAN),
        "capture_span": _plain_span(module.CAPTURE_SPAN),
        "portable_ref": module.__rulespec_ref__[0],
        "playout_source": playout_source,
        "playout_file": getattr(compiled, "_playout_file", None),
        "playout_code": None if playout_source is None else compile(playout_source, compiled._playout_file, "exec"),
        "playout_spans": {line: _plain_span(s) for line, s in getattr(compiled, "_playout_spans", {}).items()},
        "playout_rows": rows,
        "playout_best": best,
    }
    files = list(_named(rs.files, rs.stamps))
    cache.store(str(path), options_json, None if root is None else _real_root(root),
                None if relative_to is None else str(relative_to), files, [d for _real, d in rs.stamps], entry)


def _real_root(root: str | Path) -> str:
    """The root folder as the keys hold it: Path(root).resolve()."""
    from pathlib import Path
    return str(Path(root).resolve())


def compile_ruleset(ref: str | Path, options: dict | None = None, *, relative_to: Path | None = None,
                    span: Span | None = None, options_span: Span | None = None,
                    root: str | Path | None = None, disk: bool = False) -> Compiled:
    """Load, check and compile a ruleset (by id or path) with option values; with `root`, every file it
    reads (the ruleset and the files it extends) must lie under that folder.

    `disk`: use the compile cache on disk (compiler/cache.py): a ruleset compiled cleanly by an earlier
    process with the same options is loaded without reading its YAML again, and one compiled now is kept.
    The Compiled of a hit builds its checked model (`ruleset`) and `warnings` only when asked for them.
    """
    from rulespec.errors import RulespecError
    quick = path = None
    try:
        path = _shipped_file(ref) if root is None else None
        if path is None:
            from rulespec.source.rulesets import locate
            path = locate(ref, relative_to=relative_to, span=span, root=root)
        quick = (os.path.realpath(path), _options_text(options, default=str),
                 None if root is None else _real_root(root))
        stamped = _BY_FILE.get(quick)
        if stamped is not None and _unchanged(stamped[0], stamped[1]):
            return stamped[2]
    except (OSError, TypeError, ValueError, RulespecError):
        quick = None                     # unusual options or an unreadable file: the full path says why
    from . import cache
    options_json = _cacheable_options(options) if disk and quick is not None and cache.enabled() else None
    if options_json is not None:
        hit = _from_disk(ref, options, relative_to=relative_to, root=root, path=path, options_json=options_json)
        if hit is not None:
            stamps = hit._disk_stamps
            _CACHE.setdefault(_key(stamps, options), hit)
            _BY_FILE[quick] = (hit._disk_named, stamps, hit)
            return hit
    from rulespec.lang import model
    try:
        rs = model.load(ref, relative_to=relative_to, span=span, root=root)
    except RulespecError as err:
        _raise_with_type_errors(err, options)
        raise
    stamps = rs.stamps
    key = _key(stamps, options)
    hit = _CACHE.get(key)
    if hit is not None:
        if quick is not None:
            _BY_FILE[quick] = (_named(rs.files, stamps), stamps, hit)
        return hit
    compiled = compile_model(rs, options, options_span, label=key[:12])
    # How to compile this module again (a pickled Hand or Game stores this, not the module).
    compiled.module.__rulespec_ref__ = (_portable_ref(ref, relative_to), dict(options or {}))
    compiled.module.__rulespec_content__ = content_digest(stamps)       # checked when such a state is loaded
    _CACHE[key] = compiled
    if quick is not None:
        _BY_FILE[quick] = (_named(rs.files, stamps), stamps, compiled)
    if options_json is not None:
        _to_disk(compiled, rs, path=path, options_json=options_json, relative_to=relative_to,
                 root=root)
    return compiled


def _raise_with_type_errors(err, options: dict | None) -> None:
    """Syntax errors with the type errors of the expressions that did parse, in one report (when only
    expressions failed to parse); otherwise return, and the caller raises `err` as it is."""
    beside = getattr(err, "parsed_beside", None)
    if beside is None:
        return
    from rulespec.checks.stage import MAX_ERRORS, errors_beside_syntax
    from rulespec.errors import collect, in_order
    from rulespec.source.rulesets import note_inherited
    more = errors_beside_syntax(beside, options)
    if more:
        collect(in_order(err.all + note_inherited(more, beside.files), beside.files, MAX_ERRORS))


def compiled_for(module) -> "Compiled | None":
    """The Compiled whose module this is (None for a module the compiler did not make)."""
    got = getattr(module, "_COMPILED", None)
    return got if isinstance(got, Compiled) and got.module is module else None
