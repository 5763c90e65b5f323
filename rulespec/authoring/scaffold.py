"""`rulespec new NAME --extends BASE`: a starter variant file that validates as written.

`starter(name, base, path)` is the one entry point. The file holds the
schema comment for editors, the id, extends, a name and a description, and
commented examples of the usual overrides, each written from the base's own
data so that uncommenting any one of them (alone) still gives a valid ruleset.
"""
from __future__ import annotations

import os
import re
from pathlib import Path

from rulespec.errors import RulespecError
from rulespec.lang.model import Ruleset
from rulespec.source.yamlsafe import plain as _plain

ID_RE = re.compile(r"[a-z][a-z0-9_-]*\Z")
SCHEMA = Path(__file__).resolve().parent.parent / "schemas" / "ruleset.schema.json"
_ROOT = Path(__file__).resolve().parent.parent.parent


LOCAL_SCHEMA = Path(".rulespec") / "ruleset.schema.json"


def schema_ref(folder: Path) -> tuple[str, Path | None]:
    """The `$schema` path for a ruleset in `folder`, relative so that editors resolve it wherever the folder goes,
    and the schema copy to write (None when there is nothing to write).

    Inside the rulespec checkout: the checkout's own schema (as the shipped files have it). Elsewhere: a copy
    in `.rulespec/` of the folder or of the nearest folder above that has one; never a path into the
    installed package, which moves with every virtual environment.
    """
    folder = folder.resolve()
    if (_ROOT / "pyproject.toml").is_file() and (folder == _ROOT or _ROOT in folder.parents):
        return Path(os.path.relpath(SCHEMA, folder)).as_posix(), None
    home = next((f for f in [folder, *folder.parents] if (f / LOCAL_SCHEMA).is_file()), folder)
    return Path(os.path.relpath(home / LOCAL_SCHEMA, folder)).as_posix(), home / LOCAL_SCHEMA


def write_schema_copy(path: Path) -> bool:
    """Write (or refresh) the schema copy `schema_ref` named; True when the file changed. Neither its
    `.rulespec` folder nor the file may be a link (source/writes.py): refused, naming which."""
    from rulespec.source.writes import write_file
    return write_file(path, SCHEMA.read_bytes(), inside=path.parent.parent, if_changed=True)


def display_name(variant_id: str) -> str:
    """A readable name from an id: `my-variant` -> `My variant`."""
    words = re.split(r"[-_]+", variant_id)
    return " ".join(words)[:1].upper() + " ".join(words)[1:]


def _flow(value) -> str:
    """A small value in YAML flow style."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return value if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_./-]*", value) and value not in ("true", "false", "null") \
            else '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, list):
        return "[" + ", ".join(_flow(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_flow(k)}: {_flow(v)}" for k, v in value.items()) + "}"
    return str(value)


def _examples(rs: Ruleset) -> list[tuple[str, list[str]]]:
    """(what it does, YAML lines) for each commented example, from the base's own data."""
    out = []
    target = rs.doc["game"].get("target")
    if isinstance(target, int):
        other = 101 if target != 101 else 51
        out.append((f"Play to another target ({rs.id}: {target}):", [f"game: {{target: {other}}}"]))
    n = rs.default_players
    if len(rs.player_counts) > 1:
        counts = ", ".join(map(str, rs.player_counts))
        out.append((f"Only {n} players ({rs.id}: {counts}; the sides per number of players are inherited):",
                    [f"players: {{counts: [{n}], default: {n}}}"]))
    deal = rs.doc["deal"]
    lines = ["deal:", "  rounds:"] + [f"    - {_flow(_plain(r))}" for r in deal["rounds"]]
    lines.append(f"  repeat_last: {_flow(bool(deal.get('repeat_last', False)))}")
    out.append((f"Another deal: {rs.id}'s rounds, to edit (every number of players must use the deck exactly):",
                lines))
    if rs.hand_bonuses:
        gone = list(rs.hand_bonuses)[-1]
        lines = ["hand_bonuses:", f"  {gone}: null"]
        named_by = []
        for name, b in rs.hand_bonuses.items():
            if name == gone:
                continue
            fixes = {key: [o for o in getattr(b, key) if o != gone] for key in ("excluded_by", "shares_cards_with")
                     if gone in getattr(b, key)}
            if fixes:
                lines.append(f"  {name}: {_flow(fixes)}")
                named_by.append(name)
        # Why the lines after the null are there: a reference to a removed bonus is an error.
        also = (f"; {', '.join(named_by)} refer{'s' * (len(named_by) == 1)} to {gone}, so that reference goes too"
                if named_by else "")
        # What would be left empty goes too (validate warns of each): the declarations, with no bonus left, and
        # the bonus's from_events category where nothing else scores in it.
        if len(rs.hand_bonuses) == 1 and "declarations" in rs.doc:
            lines.append("declarations: null")
        category = rs.hand_bonuses[gone].category
        others = ([b.category for n, b in rs.hand_bonuses.items() if n != gone]
                  + [e.category for e in rs.events.values()] + [b.category for b in rs.dealer_bonuses])
        if category in rs.categories and rs.categories[category].from_events and category not in others:
            lines += ["scoring:", f"  {category}: null"]
        out.append((f"Remove a hand bonus ({rs.id} has: {', '.join(rs.hand_bonuses)}){also}:", lines))
    deck = rs.deck
    card = deck.ranks[-1] + deck.suits[min(1, len(deck.suits) - 1)]
    category = f"holds_{card.lower()}"
    if category not in rs.categories:
        out.append((f"A new scoring category: 1 point to the side that captured {card}:",
                    ["scoring:", f"  {category}: {{points: '1 if holds(pile, {card}) else 0'}}"]))
    # An event of 0 points only counted (made() in scoring) has no category to score in: not that one.
    scoring = [(n, e) for n, e in rs.events.items() if isinstance(e.points, int) and e.points > 0]
    if scoring:
        name, e = scoring[0]
        out.append((f"Change the points of an event ({name}: {e.points}):",
                    ["events:", f"  {name}: {{points: {e.points + 1}}}"]))
    said = "Optional captures" if rs.forced else "Compulsory captures"
    switch = re.fullmatch(r"\s*(not\s+)?options\.([A-Za-z_][A-Za-z0-9_]*)\s*", str(rs.doc["capture"].get("forced")))
    option = rs.options.get(switch.group(2)) if switch else None
    if option is not None and option.type == "bool":
        # The base's own option says it: set its default (overriding `forced` would leave the option unread).
        out.append((f"{said} (option {switch.group(2)}, also --option {switch.group(2)}=...):",
                    ["options:", f"  {switch.group(2)}: {{default: {_flow(not option.default)}}}"]))
    else:
        out.append((f"{said}:", [f"capture: {{forced: {_flow(not rs.forced)}}}"]))
    if isinstance(target, int) and "short" not in rs.options:
        out.append(("An option, set on the command line with --option short=true:",
                    ["options:", "  short: {type: bool, default: false, description: play to half the target}",
                     f"game: {{target: '{max(target // 2, 1)} if options.short else {target}'}}"]))
    return out


def starter(name: str, base: str, path: Path) -> str:
    """The text of a new variant `name` of `base` (an id or a path), to be written at `path`."""
    from rulespec.compiler.build import compile_ruleset
    if not ID_RE.match(name) or len(name) > 64:
        raise RulespecError(f"invalid ruleset id '{name}': use lowercase letters, digits, '-' and '_', "
                            f"starting with a letter")
    base_path = Path(base)
    if "/" in base or base.endswith((".yaml", ".yml")):
        # A base given as a path is written relative to the new file.
        ref = Path(os.path.relpath(base_path.resolve(), path.parent.resolve())).as_posix()
    else:
        ref = base
    rs = compile_ruleset(base if ref == base else base_path).ruleset
    if name == rs.id:
        raise RulespecError(f"the variant needs an id of its own, not its base's ('{rs.id}')")
    lines = [
        f"# yaml-language-server: $schema={schema_ref(path.parent)[0]}",
        f"# {name}: a variant of {rs.id}, started by `rulespec new`. What is not written here is as in {rs.id}:",
        f"# `rulespec explain {path.name}` shows the whole game, `rulespec diff {ref} {path.name}` what differs.",
        f"id: {name}",
        f"extends: {_flow(ref)}",
        f"name: {_flow(display_name(name))}",
        f"description: {_flow(f'A variant of {rs.name}: say here in one line what it changes.')}",
        "",
        "# Uncomment one of these and edit it. A mapping merges key by key into the base's; a list or a",
        "# value replaces the inherited one; null removes an inherited entry. `rulespec docs language` has the rest.",
    ]
    for what, example in _examples(rs):
        lines.append("#")
        lines.append(f"# {what}")
        lines += [f"# {line}" for line in example]
    return "\n".join(lines) + "\n"
