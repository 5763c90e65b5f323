"""The game's running state in a ruleset: which rules read it, and every construct of it, located.

The running state is what a hand sees of the game around it (docs/language.md, "The game's running
state"): the game scores before the hand (`game_score`, `rival_score`), the dealer's side and the events
of the hand in scoring (`dealer_side`, `made()`, `rivals_made()`, `fewest_made()`), a hand bonus open only while the
scores allow it (`open_when`), points that count as they are made (`game.points: as_made`), outcomes asked at the deal
(`at: deal`) and points carried from hand to hand (`carry`). `Hand` plays all of it; the Python playout
and the C back end refuse it (compiler/support.py, compiler/codegen_c.unsupported), located by
`constructs`.
"""
from __future__ import annotations

from rulespec.errors import Span
from rulespec.lang.expressions import Call, Name, walk
from rulespec.lang.model import Expression, Ruleset

# Runtime names of the running state (check.py gives their types and where each is visible).
STATE_NAMES = frozenset({"game_score", "rival_score", "dealer_side"})
# Builtins only `Hand` computes: the events of each side, in scoring (sharing(), tied() and the rounding
# builtins read nothing of the game: the playout plays them; the C back end refuses them as builtins it lacks).
STATE_CALLS = frozenset({"made", "rivals_made", "fewest_made"})


def reads(expression) -> set[str]:
    """The running-state names and builtins a checked expression uses (empty for None or an int)."""
    if not isinstance(expression, Expression) or expression.tree is None:
        return set()
    found = set()
    for node in walk(expression.tree):
        if isinstance(node, Name) and node.ref == "local" and node.id in STATE_NAMES:
            found.add(node.id)
        elif isinstance(node, Call) and node.func in STATE_CALLS:
            found.add(node.func)
    return found


def first_read(expression, name: str) -> Span | None:
    """Where a checked expression first reads the name `name` (None if it does not)."""
    if not isinstance(expression, Expression) or expression.tree is None:
        return None
    for node in walk(expression.tree):
        if isinstance(node, Name) and node.ref == "local" and node.id == name:
            return node.span
    return None


def _first_use(expression: Expression) -> Span | None:
    for node in walk(expression.tree):
        if (isinstance(node, Name) and node.ref == "local" and node.id in STATE_NAMES) or \
                (isinstance(node, Call) and node.func in STATE_CALLS):
            return node.span
    return expression.span


def _game_span(rs: Ruleset, key: str) -> Span | None:
    game = (rs.doc or {}).get("game") if isinstance(rs.doc, dict) else None
    return getattr(game, "value_spans", {}).get(key) if game is not None else None


def constructs(rs: Ruleset) -> list[tuple[str, Span | None]]:
    """Every running-state construct of a checked ruleset that only `Hand` plays: (what, where)."""
    out = []
    rules = [(f"event '{e.name}'", e.when) for e in rs.events.values()]
    rules += [(f"scoring category '{c.name}'", c.points) for c in rs.categories.values()]
    rules += [(f"hand bonus '{b.name}' open_when", b.open_when) for b in rs.hand_bonuses.values()]
    for what, expression in rules:
        used = reads(expression)
        if used:
            out.append((f"the game's running state ({', '.join(sorted(used))}) in {what}",
                        _first_use(expression)))
    if rs.points_mode == "as_made":
        out.append(("game.points: as_made (points that count as they are made)", _game_span(rs, "points")))
    for o in rs.outcomes.values():
        if o.at == "deal":
            out.append((f"outcome '{o.name}' at: deal (an outcome asked at the deal)", o.when.span))
    for c in rs.categories.values():
        if c.carry:
            doc = ((rs.doc or {}).get("scoring") or {}).get(c.name)
            out.append((f"scoring category '{c.name}': carry (points carried to the next hand)",
                        getattr(doc, "value_spans", {}).get("carry", c.span)))
    return out
