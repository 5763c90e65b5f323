"""Rule coverage (`rulespec test --coverage RULESET [PATH...]`): which rules no transcript pins down.

Each rule of the ruleset's merged document (after `extends:`) is mutated one
at a time: a `when` negated, a rule disabled, points changed by one, a
capture kind dropped, a scoring line made to score nothing, a flag flipped.
The mutant document goes through the ordinary stages (model, checks,
compiler) — never an edit of generated text — and every transcript of the
ruleset is replayed against it. A mutant that some transcript notices (a
play refused or accepted differently, other events, another score, a deal
the rules now throw in) is *killed*; one that every transcript still passes
*survives*: the rule it changed is not pinned down by the transcripts. A
mutant the checks refuse (say, a rule others refer to) is *invalid* and
counts as neither.
"""
from __future__ import annotations

import copy
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from rulespec.errors import RulespecError, Span
from rulespec.lang import model
from rulespec.source.rulesets import load_merged


@dataclass
class Mutation:
    """One change to the merged document: which rule, where it is written, what the change is."""

    rule: str                      # e.g. "events.scopa", "capture.kinds[2] (sum)"
    change: str                    # e.g. "when negated"
    span: Span | None
    apply: Callable[[dict], None]  # edits a deep copy of the document in place

    def where(self) -> str:
        """file:line:column: a shipped ruleset by its id (`cirulla:26:5`, the lines `rulespec show cirulla`
        prints: its path inside the installed package is nothing a reader opens), another file relative to
        the current folder when it is below it."""
        if self.span is None:
            return "?"
        return f"{_file_name(self.span.file)}:{self.span.line}:{self.span.column}"

    def file(self) -> str | None:
        """The file the changed rule is written in, resolved (None when not known)."""
        return _resolved(self.span.file) if self.span is not None else None


def _resolved(file: str) -> str:
    try:
        return str(Path(file).resolve())
    except (OSError, RuntimeError):
        return file


def _shipped_id(file: str) -> str | None:
    """The id of a shipped ruleset file, or None for any other file."""
    from rulespec.source.rulesets import rulesets_dir
    path = Path(_resolved(file))
    return path.stem if path.parent == Path(_resolved(str(rulesets_dir()))) and path.suffix == ".yaml" else None


def _file_name(file: str) -> str:
    shipped = _shipped_id(file)
    if shipped is not None:
        return shipped
    try:
        return str(Path(file).resolve().relative_to(Path.cwd().resolve()))
    except (ValueError, OSError):
        return file


@dataclass
class MutantResult:
    mutation: Mutation
    status: str                    # killed, survived, invalid
    by: str = ""                   # the transcript that noticed, or why the mutant is invalid


@dataclass
class CoverageReport:
    ruleset: str
    transcripts: list[Path]
    results: list[MutantResult] = field(default_factory=list)
    own_file: str | None = None        # the ruleset's own file, resolved: its rules are listed first
    left_out: int | None = None        # with own rules only: how many inherited mutations were not made

    def count(self, status: str) -> int:
        return sum(r.status == status for r in self.results)

    @property
    def survivors(self) -> list[MutantResult]:
        return [r for r in self.results if r.status == "survived"]

    def render(self) -> list[str]:
        own = f", its own rules ({self.left_out} inherited left out)" if self.left_out is not None else ""
        lines = [f"rule coverage of {self.ruleset}{own}: {_count(len(self.results), 'mutation')}, "
                 f"{_count(len(self.transcripts), 'transcript')}",
                 f"killed {self.count('killed')}, survived {self.count('survived')}, "
                 f"invalid {self.count('invalid')}"]
        if self.survivors:
            lines.append("survivors (no transcript notices the change):")
            lines += self._grouped(self.survivors, lambda r: "")
        else:
            lines.append("every valid mutation is caught by a transcript")
        invalid = [r for r in self.results if r.status == "invalid"]
        if invalid:
            lines.append("invalid mutants (refused by the checks, not counted):")
            lines += self._grouped(invalid, lambda r: f": {r.by}")
        return lines

    def _grouped(self, results: list[MutantResult], tail) -> list[str]:
        """The ruleset's own rules first, then those it inherits, under the file each comes from."""
        groups: dict[str | None, list[MutantResult]] = {}
        for r in results:
            groups.setdefault(r.mutation.file(), []).append(r)
        lines = [f"  {r.mutation.where()}: {r.mutation.rule}: {r.mutation.change}{tail(r)}"
                 for r in groups.pop(self.own_file, [])]
        for file, members in groups.items():
            shipped = _shipped_id(file) if file is not None else None
            source = (f"{shipped} (`rulespec show {shipped}` prints the file, with these lines)" if shipped
                      else _file_name(file) if file is not None else "an unknown file")
            lines.append(f"  inherited from {source}:")
            lines += [f"    {r.mutation.where()}: {r.mutation.rule}: {r.mutation.change}{tail(r)}" for r in members]
        return lines


# ------------------------------------------------------------------ the mutations


def _negate(key: str = "when"):
    def apply(node):
        node[key] = f"not ({node[key]})"
    return apply


def _set(key: str, value):
    def apply(node):
        node[key] = value
    return apply


def _plus_one(key: str, default=None):
    def apply(node):
        node[key] = node.get(key, default) + 1
    return apply


def _points_plus_one(node):
    value = node["points"]
    node["points"] = value + 1 if isinstance(value, int) else f"({value}) + 1"


def _never_scores(node):
    node.pop("from_events", None)
    node["points"] = 0


def _drop_item(key: str, item):
    def apply(node):
        node[key] = [x for x in node[key] if x != item]
    return apply


def _span(node, key: str | None) -> Span | None:
    if key is not None and hasattr(node, "value_spans") and key in node.value_spans:
        return node.value_spans[key]
    return getattr(node, "span", None)


def _at(path: tuple, apply):
    """`apply` on the node found at `path` in the document (keys and list indices)."""
    def edit(doc):
        node = doc
        for step in path:
            node = node[step]
        apply(node)
    return edit


def mutations(doc) -> list[Mutation]:
    """Every mutation of the merged document, in the order the rules are written."""
    out: list[Mutation] = []

    def add(path, node, rule, change, apply, key=None):
        out.append(Mutation(rule, change, _span(node, key), _at(path, apply)))

    def rule_set(path, node, rule, *, points=True, disable=True):
        if disable:
            add(path, node, rule, "disabled", _set("enabled", False), None)
        if "when" in node:
            add(path, node, rule, "when negated", _negate(), "when")
        if points and isinstance(node.get("points", 1), int):
            add(path, node, rule, "points + 1", _plus_one("points", 1), "points" if "points" in node else None)

    for i, c in enumerate(doc.get("deal_checks") or []):
        rule_set(("deal_checks", i), c, f"deal_checks[{i}] ({c['name']})", points=False)
    if doc.get("misdeals"):
        m = doc["misdeals"]
        add(("misdeals",), m, "misdeals", "limit + 1", _plus_one("limit"), "limit")
    for i, b in enumerate(doc.get("dealer_bonuses") or []):
        rule_set(("dealer_bonuses", i), b, f"dealer_bonuses[{i}] ({b['event']})")
        flag = bool(b.get("capture_table", False))
        add(("dealer_bonuses", i), b, f"dealer_bonuses[{i}] ({b['event']})",
            f"capture_table {str(not flag).lower()}", _set("capture_table", not flag),
            "capture_table" if "capture_table" in b else None)
    for name, b in (doc.get("hand_bonuses") or {}).items():
        if b is None:
            continue
        rule = f"hand_bonuses.{name}"
        rule_set(("hand_bonuses", name), b, rule)
        for other in b.get("excluded_by") or []:
            add(("hand_bonuses", name), b, rule, f"not excluded by {other}", _drop_item("excluded_by", other),
                "excluded_by")
        if "open_when" in b:
            add(("hand_bonuses", name), b, rule, "open_when negated", _negate("open_when"), "open_when")
    cap = doc["capture"]
    forced = cap.get("forced", True)
    if isinstance(forced, bool):           # an expression of the options is no rule to flip here
        add(("capture",), cap, "capture.forced", str(not forced).lower(), _set("forced", not forced),
            "forced" if "forced" in cap else None)
    for i, k in enumerate(cap["kinds"]):
        rule = f"capture.kinds[{i}] ({k['kind']})"
        path = ("capture", "kinds", i)
        add(path, k, rule, "dropped", _set("enabled", False), None)
        if "when" in k:
            add(path, k, rule, "when negated", _negate(), "when")
        if k.get("exclusive"):
            add(path, k, rule, "not exclusive", _set("exclusive", False), "exclusive")
        if "total" in k:
            add(path, k, rule, "total + 1", _plus_one("total"), "total")
        if k.get("unless_match"):
            add(path, k, rule, "also with a match", _set("unless_match", False), "unless_match")
        if k.get("alone"):
            add(path, k, rule, "not alone", _set("alone", False), "alone")
    builds = cap.get("builds")
    if isinstance(builds, dict):               # capture.builds: each of its flags flipped
        # subtract only where written: a ruleset that never mentions it is not asked to pin it down
        for flag in ("raise", "multiple", "owner_must_act") + (("subtract",) if "subtract" in builds else ()):
            value = builds.get(flag, True)
            add(("capture", "builds"), builds, f"capture.builds.{flag}", str(not value).lower(),
                _set(flag, not value), flag if flag in builds else None)
        if "owners" in builds:                 # where written: the other way of owning a build
            other = "last" if builds["owners"] == "per_side" else "per_side"
            add(("capture", "builds"), builds, "capture.builds.owners", other, _set("owners", other), "owners")
    for name, e in (doc.get("events") or {}).items():
        if e is not None:
            rule_set(("events", name), e, f"events.{name}")
    for name, c in doc["scoring"].items():
        if c is None:
            continue
        path = ("scoring", name)
        # A line `from_events: true` sums the events' points: the events' own mutations pin it down.
        if "points" in c and not c.get("from_events"):
            add(path, c, f"scoring.{name}", "points + 1", _points_plus_one, "points")
            if c["points"] != 0:
                add(path, c, f"scoring.{name}", "scores nothing", _never_scores, "points")
    for name, o in (doc.get("outcomes") or {}).items():
        if o is not None:
            rule_set(("outcomes", name), o, f"outcomes.{name}", points=False)
    return out


# ------------------------------------------------------------------ running them


class _Mutants:
    """A mutation's compiled ruleset per option values (a transcript may set options), built on demand."""

    def __init__(self, doc, files, mutation: Mutation):
        self.doc, self.files, self.mutation = doc, files, mutation
        self.by_options: dict[str, object] = {}

    def compiled(self, options: dict):
        from rulespec.compiler.build import compile_model
        key = json.dumps(options or {}, sort_keys=True, default=str)
        if key not in self.by_options:
            doc = copy.deepcopy(self.doc)
            self.mutation.apply(doc)
            rs = model.build(doc, self.files)
            self.by_options[key] = compile_model(rs, options or None, label="mutant")
        return self.by_options[key]


def _noticed(replayer, compiled) -> bool:
    """Whether the transcript notices the mutant: a failure, or an error replaying it (a deal the mutant
    throws in, a rule that fails while playing: RulespecError, as IllegalMove and RuleFailed are)."""
    replayer.compiled, replayer.rules, replayer.deck = compiled, compiled.module, compiled.ruleset.deck
    replayer.failures = []
    try:
        return not replayer.run().ok
    except RulespecError:
        return True


def transcripts_of(ruleset_file: Path, files: list[Path], root: str | Path | None = None) -> list:
    """Replayers of the transcripts among `files` that name this ruleset (by id or path), each read once
    (with `root`, only files under it: the others are `rulespec test`'s to report)."""
    from rulespec.transcripts.replay import _Replayer
    target = ruleset_file.resolve()
    out = []
    for f in files:
        try:
            r = _Replayer(f, root)
        except RulespecError:
            continue                       # not replayable at all: `rulespec test` reports it
        if r.compiled.ruleset.files[0].resolve() == target:
            out.append(r)
    return out


def planned(ref: str | Path, own_only: bool = False, root: str | Path | None = None) -> list[Mutation]:
    """The mutations `coverage` will try on `ref` (for a progress bar's length)."""
    doc, chain, _ = load_merged(ref, root=root)
    every = mutations(doc)
    return _own(every, _resolved(str(chain[0]))) if own_only else every


def _own(todo: list[Mutation], own_file) -> list[Mutation]:
    """The mutations of the rules written in `own_file` (not inherited)."""
    return [m for m in todo if m.file() == own_file]


def coverage(ref: str | Path, files: list[Path], progress=None, own_only: bool = False,
             root: str | Path | None = None) -> CoverageReport:
    """Mutate every rule of `ref` and replay its transcripts among `files` against each mutant; with
    `own_only`, only the rules written in `ref`'s own file (not those it inherits); with `root`, every file
    read (the ruleset, what it extends, the transcripts) must lie under that folder."""
    doc, chain, _ = load_merged(ref, root=root)
    replayers = transcripts_of(chain[0], files, root)
    report = CoverageReport(str(doc["id"]), [r.path for r in replayers], own_file=_resolved(str(chain[0])))
    every = mutations(doc)
    todo = every
    if own_only:
        todo = _own(every, report.own_file)
        report.left_out = len(every) - len(todo)
    if not replayers:
        raise RulespecError(f"no transcript among the {len(files)} given replays ruleset {doc['id']}: "
                            "coverage needs the ruleset's own transcripts")
    broken = [r.path for r in replayers if not r.run().ok]
    if broken:
        raise RulespecError(f"{len(broken)} transcript(s) of {doc['id']} fail before any mutation "
                            f"(first: {broken[0]}); run `rulespec test` and fix them first")
    for mutation in todo:
        mutants = _Mutants(doc, chain, mutation)
        result = MutantResult(mutation, "survived")
        for r in replayers:
            try:
                compiled = mutants.compiled(r.t.options)
            except RulespecError as err:
                result = MutantResult(mutation, "invalid", err.headline())
                break
            if _noticed(r, compiled):
                result = MutantResult(mutation, "killed", str(r.path))
                break
        report.results.append(result)
        if progress:
            progress(result)
    return report


def _count(n: int, noun: str) -> str:
    """`1 transcript`, `2 transcripts`."""
    return f"{n} {noun}{'' if n == 1 else 's'}"
