"""`rulespec test`: find and replay golden transcripts; `--update` refreshes recorded ones.

`run_tests(paths, update=...)` is the one entry point. Replaying is
rulespec/replay.py's; updating keeps a recorded transcript's inputs (deal,
plays, declarations) and rewrites its expectations (each play's events and
legal captures, the `expect:` block) from what the engine does now, in the
format of rulespec/record.py. A hand-verified transcript is never rewritten:
its expectations were checked by a person against the rules.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from rulespec.errors import RulespecError
from rulespec.source import yamlsafe
from rulespec.source.files import read_regular, skipped_line, yaml_files
from rulespec.source.yamlsafe import plain as _plain
from rulespec.transcripts import config

TRANSCRIPT_KEYS = frozenset({"ruleset", "plays", "deal", "deck", "dealer", "seats", "expect"})


def default_paths(cwd: Path | None = None) -> list[Path]:
    """The golden transcripts to replay when none are named: the author's settings (config.py), else ./tests/golden."""
    settings = config.load(cwd)
    here = (cwd or Path.cwd()).resolve()
    found = [_shorter(p, here) for p in settings.golden if p.exists()]
    if found:
        return found
    if settings.file is not None:
        raise RulespecError(f"no golden transcripts to replay: {settings.file} names "
                            f"{', '.join(str(p) for p in settings.golden)}, which does not exist")
    raise RulespecError("no golden transcripts to replay: no tests/golden folder here, and no `golden` setting in a "
                        "rulespec.toml or the [tool.rulespec] table of a pyproject.toml (here or in a folder above); "
                        "give the transcripts' files or folders")


def _shorter(path: Path, here: Path) -> Path:
    """`path` relative to the current folder when it is under it (for shorter report lines)."""
    try:
        return path.relative_to(here)
    except ValueError:
        return path


def _top_keys(path: Path) -> set:
    """The file's top-level keys (a file that cannot be read as YAML: the keys its lines start with)."""
    try:
        data = read_regular(path)   # at most the size limit, never a FIFO: refused later, with the reason
    except RulespecError:
        data = b""
    try:
        doc = yamlsafe.load(data, str(path))
        return set(doc) if isinstance(doc, dict) else set()
    except RulespecError:
        return {line.split(":", 1)[0] for line in data.decode("utf-8", errors="replace").splitlines()
                if ":" in line and line[:1].isalpha()}


def file_kind(path: Path) -> str:
    """`transcript` or `ruleset`, from the file's top-level keys (a file that cannot be read: by its text)."""
    keys = _top_keys(path)
    if "ruleset" in keys or "plays" in keys:
        return "transcript"
    if "id" in keys or "extends" in keys:
        return "ruleset"
    return "transcript" if keys & TRANSCRIPT_KEYS else "ruleset"


@dataclass
class Found:
    """The transcripts to replay, and the rulesets found beside them in the folders (skipped)."""

    transcripts: list[Path]
    rulesets: list[Path]
    odd: list[tuple[Path, str]] = field(default_factory=list)   # not regular files (FIFOs...): never opened

    def odd_note(self) -> str | None:
        """One line naming the files under the folders that are not regular files, or None."""
        return skipped_line(self.odd) if self.odd else None

    def skipped_note(self) -> str | None:
        """One line saying which rulesets were skipped, or None."""
        if not self.rulesets:
            return None
        names = ", ".join(str(p) for p in self.rulesets[:5]) + (", ..." if len(self.rulesets) > 5 else "")
        return f"skipped {len(self.rulesets)} ruleset file{'s' if len(self.rulesets) != 1 else ''}: {names}"


def find(paths: list[Path], root: str | Path | None = None) -> Found:
    """The transcripts named or under the folders named, sorted; a folder's rulesets are skipped (by content).

    One rule for `replay` and `test`: a YAML file is a transcript or a ruleset by what it holds
    (file_kind), and a folder may hold both. A `.json` file in a folder is taken when it is a
    transcript (JSON is YAML; rulesets are .yaml files), passed over otherwise. A file named on its
    own is always taken (a ruleset named as a transcript is then reported by run_one). With `root`, a
    file of a folder that `locate` refuses (outside the root, a link out of it) is never read to tell
    its kind: it is taken as a transcript, and run_one reports the refusal.
    """
    found = Found([], [])
    for p in paths:
        if _is_dir(p):
            regular, odd = yaml_files(p)     # FIFOs, sockets, devices: set aside, never opened
            json_files, json_odd = yaml_files(p, ("*.json",))
            found.odd += odd + json_odd
            refused = {f for f in regular + json_files if not _readable_under(f, root)}
            json_transcripts = [f for f in json_files if f in refused or file_kind(f) == "transcript"]
            for f in sorted(set(regular) | set(json_transcripts)):
                (found.transcripts if f in json_transcripts or f in refused or file_kind(f) == "transcript"
                 else found.rulesets).append(f)
        elif os.path.lexists(p):
            found.transcripts.append(p)
        else:
            raise RulespecError(f"no such file or folder: {p}")
    return found


def _readable_under(path: Path, root: str | Path | None) -> bool:
    """Whether `locate` lets a command read this transcript file under `root` (always, without a root)."""
    if root is None:
        return True
    from rulespec.source.rulesets import locate
    try:
        locate(path, root=root, transcript=True)
    except RulespecError:
        return False
    return True


def _is_dir(p: Path) -> bool:
    try:
        return p.is_dir()
    except OSError:             # a name too long, say: reported when it is read
        return False


@dataclass
class Outcome:
    """What happened to one transcript: passed, failed (with the lines to show), updated."""

    path: Path
    ok: bool
    lines: list[str] = field(default_factory=list)
    updated: bool = False


def run_one(path: Path, update: bool = False, root: str | Path | None = None) -> Outcome:
    """Replay one transcript; with `update`, a recorded one that fails is rewritten first."""
    from rulespec.transcripts.replay import replay
    from rulespec.transcripts.transcript import read_transcript
    try:
        from rulespec.source.rulesets import locate
        locate(path, root=root, transcript=True)   # a regular .yaml/.yml/.json file (under root) before anything reads it
    except RulespecError as err:
        return Outcome(path, False, [f"FAIL {path}", *("  " + line for line in err.render().splitlines())])
    if file_kind(path) == "ruleset" and _top_keys(path) & {"id", "extends"}:
        # (a file named on its own with neither kind's keys is read as a transcript: its own error says why)
        return Outcome(path, False, [f"FAIL {path}", f"  {path}: a ruleset (it has `id:`), not a transcript; "
                                     f"replay and test take transcripts (`rulespec validate` checks a ruleset)"])
    try:
        result = replay(path, root)
    except RulespecError as err:
        return Outcome(path, False, [f"FAIL {path}", *("  " + line for line in err.render().splitlines())])
    if result.ok:
        return Outcome(path, True, [result.summary()])
    lines = result.summary().splitlines()
    if not update:
        return Outcome(path, False, lines)
    if not read_transcript(path).recorded:
        return Outcome(path, False, lines + ["  hand-verified: not updated (fix the engine, or the transcript "
                                             "by hand)"])
    try:
        text = updated_text(path)
    except RulespecError as err:
        return Outcome(path, False, lines + [f"  cannot update: {err.headline()}"])
    from rulespec.source.writes import write_file
    try:
        write_file(path, text)          # never through a link, never truncated in place: source/writes.py
    except RulespecError as err:
        return Outcome(path, False, lines + [f"  cannot update: {err.headline()}"])
    again = replay(path, root)
    if not again.ok:  # pragma: no cover - the engine is deterministic
        return Outcome(path, False, again.summary().splitlines())
    return Outcome(path, True, [f"updated {path} ({again.plays} plays)"], updated=True)


def run_tests(files: list[Path], update: bool = False, out=None, root: str | Path | None = None) -> tuple[int, int, int]:
    """Replay transcripts; prints each result and returns (passed, failed, updated)."""
    passed = failed = updated = 0
    for path in files:
        outcome = run_one(path, update, root)
        if out is not None:
            print("\n".join(outcome.lines), file=out)
        passed += outcome.ok
        failed += not outcome.ok
        updated += outcome.updated
    return passed, failed, updated


# ------------------------------------------------------------------ updating


def _header(text: str) -> str:
    """The comment lines that open the file (kept as written)."""
    lines = []
    for line in text.splitlines():
        if not line.startswith("#"):
            break
        lines.append(line)
    return "".join(line + "\n" for line in lines)


def updated_text(path: Path) -> str:
    """A recorded transcript with its expectations recomputed by the engine (inputs unchanged)."""
    from rulespec.run.builds import owner_shown
    from rulespec.run.engine import IllegalMove
    from rulespec.transcripts.record import expectations
    from rulespec.transcripts.replay import _Replayer

    r = _Replayer(path)
    raw = path.read_text(encoding="utf-8")
    doc = _plain(yamlsafe.load(raw, str(path)))
    hand = r.new_hand()
    names = r.rules.CARD_NAMES
    for play, entry in zip(r.t.plays, doc.get("plays", [])):
        card, capture = r.card_move(play)
        try:
            decls = r.declarations(hand, play)
            if "legal" in entry and play.card is not None:
                probe = hand.clone()
                if decls:
                    probe._apply_declarations(play.seat, decls, with_card=True)
                options = probe.plain_options(card) if probe.hands[play.seat] >> card & 1 else []
                entry["legal"] = sorted(([names[i] for i in range(len(names)) if m >> i & 1] for m in options
                                         if not m >> r.rules.N_CARDS))
            events = hand.declare(play.seat, decls) if card is None else hand.play(play.seat, card, capture, decls)
        except IllegalMove as err:
            if play.error is not None:
                break  # the refusal the transcript expects ends it, as in replay
            raise RulespecError(f"play {play.number} is refused by the engine now: {err.message}", play.span) from None
        entry.pop("error", None)
        entry["events"] = [e.name for e in events]
    if "expect" in doc or hand.is_over:
        expect = expectations(hand)
        if "table" in (doc.get("expect") or {}):
            final = hand.final_table if hand.is_over else hand.table
            builds = [] if hand.is_over else hand.builds
            built = 0
            for b in builds:
                built |= b.cards
            loose = final & ~built
            expect["table"] = sorted(r.rules.card_names(loose).split()) if loose else []
            # capture.builds: each build as transcripts.md writes it in expect.table
            expect["table"] += [{"build": r.rules.card_names(b.cards).split(), "value": b.value,
                                 "owner": owner_shown(b),
                                 "fixed": b.fixed} for b in builds]
        doc["expect"] = expect
    return _header(raw) + yaml.safe_dump(doc, sort_keys=False, default_flow_style=None, width=100)
