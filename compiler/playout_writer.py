"""The playout's source as it is written: the facts of a ruleset the emitters branch on, and the lines.

compiler/playout.py generates a ruleset's whole-hand playout by calling emitters (playout_module.py for
the module's helpers, playout_counting.py, playout_hand.py and playout_turn.py for the hand's function);
each writes into one `PlayoutWriter`. The emitters' templates are text of this package, never text from
a ruleset; what a ruleset contributes is computed here (card classes, categories, flags) or by
emit_expr (its rules, in the events).
"""
from __future__ import annotations

from rulespec.compiler.plan import build_plan
from rulespec.compiler.playout_counting import counting_source
from rulespec.lang.expressions import Call, Name, walk
from rulespec.lang.model import Ruleset


# What a capture condition may read for cards to be told apart by value and rank alone.
_CLASS_SAFE_CALLS = {"rank", "value", "count", "total", "empty", "max_same_rank", "same_value", "can_total"}
_CLASS_SAFE_NAMES = {"played", "table", "rank", "value"}


def _card_classes(rs: Ruleset) -> tuple[int, ...]:
    """Per card index (virtual wild cards too): a class id; cards of one class capture alike.

    The capture kinds read a card's value, whether it is numbered and its rank. Where a
    condition reads anything else of a card (its suit, a named card, ...) every card is its own class.
    """
    deck = rs.deck
    nr = len(deck.ranks)
    n_all = deck.size + (nr if rs.wild is not None else 0)
    safe = True
    for k in rs.kinds:
        if k.when is None:
            continue
        for node in walk(k.when.tree):
            if isinstance(node, Call) and node.func not in _CLASS_SAFE_CALLS:
                safe = False
            elif isinstance(node, Name) and node.id not in _CLASS_SAFE_NAMES:
                safe = False
            elif type(node).__name__ in ("CardLit", "ListLit", "MapLit", "Attr"):
                safe = False
    classes: dict = {}
    out = []
    for i in range(n_all):
        key = (deck.value_of(i), deck.rank_of(i)) if safe else i
        out.append(classes.setdefault(key, len(classes)))
    return tuple(out)


def _category_names(rs: Ruleset) -> list[str]:
    """Every category an event, a hand bonus or a dealer bonus can score in, in a fixed order."""
    names = list(rs.categories)
    for cat in [e.category for e in rs.events.values()] + [b.category for b in rs.hand_bonuses.values()] + \
            [b.category for b in rs.dealer_bonuses]:
        if cat and cat not in names:
            names.append(cat)
    return names


class PlayoutWriter:
    """The lines written so far, the YAML span of each line that evaluates a rule inline (1-based), and
    what the ruleset has that the emitters branch on."""

    def __init__(self, rs: Ruleset):
        self.rs = rs
        self.spans: dict = {}
        capture_plan = build_plan(rs).captures
        self.needs_sums, self.limit = capture_plan.needs_sums, capture_plan.limit
        self.wild = rs.wild is not None
        bonuses = bool(rs.hand_bonuses)
        self.knocks = bonuses and rs.timing in ("after_deal", "before_first_turn")
        self.with_play = bonuses and rs.timing in ("first_turn", "own_turn")
        self.declared_first = bonuses and rs.declared_first
        self.classes = _card_classes(rs)
        self.cats = _category_names(rs)
        self.cat_index = {c: i for i, c in enumerate(self.cats)}
        self.reads = {n.id for e in rs.events.values() for n in walk(e.when.tree) if isinstance(n, Name)}
        # A seat's plays this round are counted only where something reads them (knocks, an event's `turn`);
        # elsewhere the turn is what the seat was dealt this round less what it holds.
        self.keep_nplayed = self.knocks or "turn" in self.reads
        self.turn_now = ("nplayed[seat] + 1" if self.keep_nplayed
                         else "round_dealt[seat].bit_count() - hand.bit_count() + 1")
        # The cards a seat may play now: its declared cards where they go first (`mhand`), else its hand.
        self.playable = "mhand" if self.declared_first else "hand"
        # A capture kind that reads the play's moment (round, turn, play number) offers other sets at
        # other moments of the same table: such a ruleset's options are not memoised.
        moment = any(isinstance(n, Name) and n.id in ("round", "turn", "play")
                     for k in rs.kinds if k.when is not None for n in walk(k.when.tree))
        self.memo_table = -1 if moment else 6
        self.counting = counting_source(rs, capture_plan, moment)
        self.lines: list[str] = []
        self.traced = False     # writing the playout that records every move and event
        self.inner = False      # the hand function's template text sits one level deeper than it emits

    def w(self, text: str, on: bool = True, indent: int = 0) -> None:
        """Add lines (if `on`); a line marked #REC only to the traced playout, which records moves."""
        if not on:
            return
        for line in text.strip("\n").split("\n"):
            if self.inner and line.startswith("    "):
                line = line[4:]
            if line.endswith("  #REC"):
                if not self.traced:
                    continue
                line = line[:-len("  #REC")]
            self.lines.append(("    " * indent + line) if line else "")

    def blank(self, count: int = 1, on: bool = True) -> None:
        """Add `count` empty lines (if `on`)."""
        for _ in range(count):
            self.w("", on)

    def t(self, template: str) -> str:
        """A template of the emitters with its placeholders filled (never text from a ruleset)."""
        return template.replace("TURN", self.turn_now).replace("mhand", self.playable)

    def at_rule(self, span) -> None:
        """The next line written evaluates a rule written at `span` (failure_span reads it)."""
        self.spans[len(self.lines) + 1] = span

    def source(self) -> str:
        return "\n".join(self.lines) + "\n"
