"""Expressions in words: `count(table, rank == "A") >= 2` -> "the table holds two or more aces".

`Words(ruleset, place).condition(expr)` (and `.number`, `.cards`) render a
type-checked expression tree as English. What has no phrase of its own is
written as code: the expression's text, with only the parentheses it needs,
marked by CODE_START/CODE_END so that each output format can escape text and
code in its own way (`plain()` keeps code in backticks). Phrases are tables
of builtin name -> function, as in typecheck.py and emit_expr.py.
"""
from __future__ import annotations

from .expressions import (
    Attr,
    BinOp,
    Bool,
    BoolOp,
    Call,
    CardLit,
    Compare,
    Expr,
    IfElse,
    Int,
    ListLit,
    MapLit,
    Name,
    Neg,
    Not,
    Str,
)

CODE_START, CODE_END = "\x02", "\x03"

NUMBER_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
                "twelve")

# Rank symbol -> (singular, plural). Digits are spelt out; court cards by deck family.
_RANK_WORDS = {
    "A": ("ace", "aces"), "2": ("two", "twos"), "3": ("three", "threes"), "4": ("four", "fours"),
    "5": ("five", "fives"), "6": ("six", "sixes"), "7": ("seven", "sevens"), "8": ("eight", "eights"),
    "9": ("nine", "nines"), "10": ("ten", "tens"),
}
_FRENCH_COURT = {"J": ("jack", "jacks"), "Q": ("queen", "queens"), "K": ("king", "kings")}
_ITALIAN_COURT = {"F": ("fante", "fanti"), "C": ("cavallo", "cavalli"), "R": ("re", "re")}

# Runtime names -> noun phrase, per place (the same name reads differently when scoring).
_NAMES = {
    "table": "the table",
    "table_before": "the table before the play",
    "captured": "the captured cards",
    "played": "the played card",
    "previous": "the card the previous play left on the table",
    "cards": "the declared cards",
    "hand": "the player's hand",
    "pile": "the side's captured cards",
    "deck": "the deck",
    "wild": "the wild card",
    "round": "the deal round (1 for the first deal)",
    "turn": "the player's turn in this deal (1 for their first card of it)",
    "play": "the play's number in the hand (1 for the hand's first card)",
    "side": "the side's number",
    "played_value": "the value the played card counted as",
    "sets": "the number of sets the capture took",
    "top": "the pile's top card",
    "dealt": "the card dealt",
    "players": "the number of players",
    "game_score": "the side's game score so far",
    "rival_score": "the best other side's game score so far",
    "dealer_side": "the dealer's side's number",
}

_ORDER = {">=": "{} or more", ">": "more than {}", "==": "exactly {}", "<=": "{} or less", "<": "less than {}",
          "!=": "other than {}"}
_ARITHMETIC = {"+": "{} plus {}", "-": "{} minus {}", "*": "{} times {}", "//": "{} divided by {}, rounded down",
               "%": "the remainder of {} divided by {}"}
_COUNT_ORDER = {"<=": "{} or fewer", "<": "fewer than {}"}     # for things counted: "two or fewer jacks"
_NEGATED = {">=": "<", ">": "<=", "==": "!=", "<=": ">", "<": ">=", "!=": "=="}
_FLIPPED = {">=": "<=", ">": "<", "==": "==", "<=": ">=", "<": ">", "!=": "!="}


def code(text: str) -> str:
    """Text to be shown as code."""
    return f"{CODE_START}{text}{CODE_END}"


def plain(text: str) -> str:
    """Words with code in backticks (for the terminal)."""
    return text.replace(CODE_START, "`").replace(CODE_END, "`")


def count_words(n: int) -> str:
    return NUMBER_WORDS[n] if 0 <= n < len(NUMBER_WORDS) else str(n)


def join_words(items: list[str], last: str = "and") -> str:
    """`a`, `a and b`, `a, b and c`."""
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + f" {last} " + items[-1]


def rounds_words(rounds: list, last: str = "and") -> str:
    """`round 3`, `rounds 1 and 2`, `the last round`, `round 1 and the last round`."""
    numbers = [str(r) for r in rounds if r != "last"]
    parts = []
    if numbers:
        parts.append(("rounds " if len(numbers) > 1 else "round ") + join_words(numbers, last))
    if "last" in rounds:
        parts.append("the last round")
    return f" {last} ".join(parts)


# ------------------------------------------------------------------ source text

_PREC = {IfElse: 1, "or": 2, "and": 3, Not: 4, Compare: 5, "|": 6, "&": 7, "+": 8, "-": 8, "*": 9, "//": 9,
         "%": 9, Neg: 10}


def _prec_op(op: str) -> int:
    return _PREC[op]


def _prec(e: Expr) -> int:
    if isinstance(e, (BoolOp, BinOp)):
        return _PREC[e.op]
    return _PREC.get(type(e), 11)


def source(e: Expr) -> str:
    """The expression as it would be written, with only the parentheses it needs."""
    def sub(child: Expr, least: int) -> str:
        text = source(child)
        return f"({text})" if _prec(child) < least else text

    if isinstance(e, Int):
        return str(e.value)
    if isinstance(e, Bool):
        return "true" if e.value else "false"
    if isinstance(e, Str):
        return '"' + e.value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(e, CardLit):
        return e.name
    if isinstance(e, Name):
        return e.id
    if isinstance(e, Attr):
        return f"{e.base}.{e.name}"
    if isinstance(e, ListLit):
        return "[" + ", ".join(source(i) for i in e.items) + "]"
    if isinstance(e, MapLit):
        return "{" + ", ".join(f"{source(k)}: {source(v)}" for k, v in zip(e.keys, e.values)) + "}"
    if isinstance(e, Call):
        return f"{e.func}(" + ", ".join(source(a) for a in e.args) + ")"
    if isinstance(e, Neg):
        return "-" + sub(e.operand, 10)
    if isinstance(e, Not):
        return "not " + sub(e.operand, 4)
    if isinstance(e, BoolOp):
        p = _PREC[e.op]
        return f"{sub(e.left, p)} {e.op} {sub(e.right, p + 1)}"
    if isinstance(e, BinOp):
        p = _PREC[e.op]
        return f"{sub(e.left, p)} {e.op} {sub(e.right, p + 1)}"
    if isinstance(e, Compare):
        return f"{sub(e.left, 6)} {e.op} {sub(e.right, 6)}"
    if isinstance(e, IfElse):
        return f"{sub(e.then, 2)} if {sub(e.cond, 2)} else {sub(e.other, 1)}"
    return "?"  # pragma: no cover - every node class is listed above


# ------------------------------------------------------------------ the phrases


class Words:
    """Phrases for one ruleset's expressions (its deck names the cards, ranks and suits)."""

    def __init__(self, rs, place: str = ""):
        self.rs = rs
        self.deck = rs.deck
        self.place = place  # "score": pile is the side's
        self.raw: list[str] = []  # the expressions written as code for want of a phrase (tests keep it empty)

    def _code(self, e: Expr) -> str:
        """An expression with no phrase: its text, as code."""
        text = source(e)
        self.raw.append(text)
        return code(text)

    # -- cards, ranks, suits
    def rank_word(self, rank: str, plural: bool = False) -> str:
        words = dict(_RANK_WORDS)
        words.update(_ITALIAN_COURT if self.deck.id in ("latin40", "bresciane52") else _FRENCH_COURT)
        if rank in words:
            return words[rank][1 if plural else 0]
        return f"cards of rank {rank}" if plural else f"card of rank {rank}"

    def suit_word(self, suit: str) -> str:
        """The suit in English, plural: `hearts`, `swords` (the Italian `spade`), for `the most swords`
        and `the two of swords`."""
        names = self.deck.suit_words or self.deck.suit_names
        if suit in self.deck.suits and names:
            return names[self.deck.suits.index(suit)]
        return f"suit {suit}"

    def card_name(self, name: str) -> str:
        """`7D` -> `the seven of diamonds (7D)`; an extra card by its own name (`the large joker (25X)`)."""
        rank, suit = name[:-1], name[-1]
        extra = next((e for e in self.deck.extras if e[0] + e[1] == name), None)
        if extra is not None:
            return f"the {extra[3]} ({name})" if extra[3] else f"the extra card {name}"
        return f"the {self.rank_word(rank)} of {self.suit_word(suit)} ({name})"

    def card_list(self, names: list[str]) -> str:
        """Cards named, grouped by suit: `the ace, two and three of diamonds (AD 2D 3D)`."""
        suits = {n[-1] for n in names}
        if len(suits) == 1 and len(names) > 1:
            ranks = join_words([self.rank_word(n[:-1]) for n in names])
            return f"the {ranks} of {self.suit_word(names[0][-1])} ({' '.join(names)})"
        return join_words([self.card_name(n) for n in names])

    def a_rank(self, rank: str) -> str:
        word = self.rank_word(rank)
        return ("an " if word[0] in "aeiou" else "a ") + word

    # -- filters: the cards that pass, as a plural noun phrase
    def filter_noun(self, f: Expr, plural: bool = True) -> str:
        """The cards that pass a filter, as a noun: `jacks`, `cards of value 7` (`jack`, `card of value 7`
        for one of them: "exactly one jack")."""
        cards, are = ("cards", "are") if plural else ("card", "is")
        if isinstance(f, Compare) and isinstance(f.left, Name) and f.left.ref == "candidate":
            attr, op, right = f.left.id, f.op, f.right
            if attr == "rank" and op == "==" and isinstance(right, Str):
                return self.rank_word(right.value, plural=plural)
            if attr == "rank" and op == "in" and isinstance(right, ListLit) and all(isinstance(i, Str) for i in right.items):
                return join_words([self.rank_word(i.value, plural=plural) for i in right.items], "or")
            if attr == "suit" and op == "==" and isinstance(right, Str):
                return self.suit_word(right.value) if plural else f"card of {self.suit_word(right.value)}"
            if attr == "suit" and op == "!=" and isinstance(right, Str):
                return f"{cards} that {are} not {self.suit_word(right.value)}"
            if attr == "value" and op in _ORDER and isinstance(right, Int):
                return f"{cards} of value {_ORDER[op].format(right.value)}"
            if attr == "card" and op == "!=" and isinstance(right, CardLit):
                return f"{cards} other than {self.card_name(right.name)}"
        if isinstance(f, BoolOp) and f.op == "and" and _is_rank(f.left) and _is_suit(f.right):
            # "rank == "A" and suit != "S"": the aces that are not spades (not "cards for which the card's rank
            # is exactly "A" and the card's suit is other than "S"")
            rank, suit = self.rank_word(f.left.right.value, plural=plural), self.suit_word(f.right.right.value)
            return f"{rank} of {suit}" if f.right.op == "==" else f"{rank} that {are} not {suit}"
        if isinstance(f, Name) and f.ref == "candidate" and f.id == "numbered":
            return f"numbered {cards}"
        if isinstance(f, Not) and isinstance(f.operand, Name) and f.operand.id == "numbered":
            return f"{cards} with no capture value"
        if isinstance(f, Bool):
            return cards if f.value else f"no {cards}"
        # Any other filter: its condition in words, about "the card" being tested.
        return f"{cards} for which {self.condition(f)}"

    # -- noun phrases for card sets
    def cards(self, e: Expr) -> str:
        if isinstance(e, Name) and e.ref == "candidate" and e.id == "card":
            return "the card"
        if isinstance(e, Name):
            if e.id == "pile" and self.place == "score":
                return "the side's captured cards"
            return _NAMES.get(e.id, code(e.id))
        if isinstance(e, CardLit):
            return self.card_name(e.name)
        if isinstance(e, ListLit) and all(isinstance(i, CardLit) for i in e.items):
            return self.card_list([i.name for i in e.items])
        if isinstance(e, Call) and e.func == "select" and len(e.args) == 2:
            return f"the {self.filter_noun(e.args[1])} of {self.cards(e.args[0])}"
        if isinstance(e, BinOp) and e.op == "|":
            return f"{self.cards(e.left)} together with {self.cards(e.right)}"
        if isinstance(e, BinOp) and e.op == "-":
            return f"{self.cards(e.left)} except {self.cards(e.right)}"
        if isinstance(e, BinOp) and e.op == "&":
            return f"the cards both in {self.cards(e.left)} and in {self.cards(e.right)}"
        if isinstance(e, IfElse):
            return f"{self.cards(e.then)} if {self.condition(e.cond)}, otherwise {self.cards(e.other)}"
        return self._code(e)

    def target(self) -> str | None:
        """The ruleset's target as written, in words, when it depends on options (`31 if option corta is on,
        otherwise 51`; a bare option: `option target (11 by default)`); None for a plain number."""
        return self.game_rule(getattr(self.rs, "target_rule", None))

    def hands(self) -> str | None:
        """The game's number of hands as written, in words, when it depends on options; None otherwise."""
        return self.game_rule(getattr(self.rs, "hands_rule", None))

    def game_rule(self, rule) -> str | None:
        """A game length's expression of the options in words; None for none."""
        if rule is None:
            return None
        tree = rule.tree
        if isinstance(tree, Attr) and tree.base == "options":
            default = self.rs.options[tree.name].default if tree.name in self.rs.options else tree.value
            return f"option {tree.name} ({default} by default)"
        return self.number(tree)

    def forced_rule(self) -> str | None:
        """`capture.forced` as written, in words, when it depends on options (`when option x is off`); None
        for a plain true or false."""
        rule = getattr(self.rs, "forced_rule", None)
        return None if rule is None else f"when {self.condition(rule.tree)}"

    def leftovers_rule(self) -> str | None:
        """`capture.leftovers` as written, in words, when it depends on options; None for a plain word."""
        rule = getattr(self.rs, "leftovers_rule", None)
        return None if rule is None else self.word_rule(rule.tree)

    def word_rule(self, e: Expr) -> str:
        """A string expression of the options in words: `option leftovers (nobody by default)`, `nobody if
        option short is on, otherwise last_capturer`."""
        if isinstance(e, Str):
            return e.value
        if isinstance(e, Attr) and e.base == "options":
            default = self.rs.options[e.name].default if e.name in self.rs.options else e.value
            return f"option {e.name} ({default} by default)"
        if isinstance(e, IfElse):
            return f"{self.word_rule(e.then)} if {self.condition(e.cond)}, otherwise {self.word_rule(e.other)}"
        return self._code(e)

    # -- noun phrases for numbers
    def number(self, e: Expr) -> str:
        if isinstance(e, Int):
            return str(e.value)
        if isinstance(e, Neg) and isinstance(e.operand, Int):
            return f"-{e.operand.value}"
        if isinstance(e, Attr) and e.base == "options":
            return f"option {e.name}" + (f" ({e.value})" if e.value is not None else "")
        if isinstance(e, Name) and e.id in _NAMES:
            return _NAMES[e.id]
        if isinstance(e, Call):
            phrase = _NUMBER_CALLS.get(e.func)
            if phrase is not None:
                text = phrase(self, e)
                if text is not None:
                    return text
        if isinstance(e, Name) and e.ref == "candidate" and e.id in ("rank", "suit", "value"):
            return f"the card's {e.id}"
        if isinstance(e, BinOp) and e.op in _ARITHMETIC:
            return _ARITHMETIC[e.op].format(self._term(e.left, e.op, False), self._term(e.right, e.op, True))
        if isinstance(e, Neg):
            return f"minus {self.number(e.operand)}"
        if isinstance(e, IfElse):
            return f"{self.number(e.then)} if {self.condition(e.cond)}, otherwise {self.number(e.other)}"
        if isinstance(e, Str):
            return f'"{e.value}"'
        return self._code(e)

    def _term(self, e: Expr, op: str, right: bool) -> str:
        """An operand of arithmetic in words, in parentheses where the words alone would regroup it."""
        text = self.number(e)
        loose = isinstance(e, IfElse) or (isinstance(e, BinOp) and e.op in _ARITHMETIC and (
            _prec(e) < _prec_op(op) or (right and _prec(e) == _prec_op(op) and op in ("-", "//", "%"))))
        return f"({text})" if loose else text

    def _count_of(self, e: Call, plural: bool = True) -> tuple[str, str]:
        """(the set, the noun of what is counted: plural, or singular for one) for count(set[, filter])."""
        noun = self.filter_noun(e.args[1], plural) if len(e.args) == 2 else "cards" if plural else "card"
        return self.cards(e.args[0]), noun

    # -- conditions
    def condition(self, e: Expr, negate: bool = False) -> str:
        """A clause that is true when `e` is (false, with `negate`)."""
        if isinstance(e, Not):
            return self.condition(e.operand, not negate)
        if isinstance(e, Bool):
            return "always" if e.value != negate else "never"
        if isinstance(e, BoolOp):
            left, right = self._operand(e.left, e.op), self._operand(e.right, e.op)
            if negate:
                if e.op == "or":
                    return f"neither {left} nor {right}"
                return f"not both {left} and {right}"
            return f"{left} {e.op} {right}"
        if isinstance(e, Name) and e.id == "last_play":
            return "it is not the hand's last play" if negate else "it is the hand's last play"
        if isinstance(e, Name) and e.ref == "candidate" and e.id == "numbered":
            return "the card has no capture value" if negate else "the card has a capture value"
        if isinstance(e, Name) and e.id == "last_round":
            return "it is not the last round" if negate else "it is the last round"
        if isinstance(e, Attr) and e.base == "options":
            return f"option {e.name} is {'off' if negate else 'on'}"
        if isinstance(e, IfElse):
            return (f"{self.condition(e.then, negate)} if {self.condition(e.cond)}, "
                    f"otherwise {self.condition(e.other, negate)}")
        if isinstance(e, Call):
            phrase = _CONDITION_CALLS.get(e.func)
            if phrase is not None:
                text = phrase(self, e, negate)
                if text is not None:
                    return text
        if isinstance(e, Compare):
            text = self.comparison(e, negate)
            if text is not None:
                return text
        written = self._code(e)
        return f"not {written}" if negate else written

    def _operand(self, e: Expr, op: str) -> str:
        """One side of `and`/`or`: an `or` inside an `and` (or the reverse) is grouped in words."""
        if isinstance(e, BoolOp) and e.op != op:
            a, b = self._operand(e.left, e.op), self._operand(e.right, e.op)
            return f"either {a} or {b}" if e.op == "or" else f"both {a} and {b}"
        return self.condition(e)

    def comparison(self, e: Compare, negate: bool) -> str | None:
        op = _NEGATED[e.op] if negate and e.op in _NEGATED else e.op
        left, right = e.left, e.right
        if isinstance(left, Int) and not isinstance(right, Int) and op in _FLIPPED:
            left, right, op = right, left, _FLIPPED[op]
        if e.op in ("in", "not in"):
            if negate:
                op = "not in" if e.op == "in" else "in"
            if left.type is not None and str(left.type) == "card" and isinstance(left, (Name, CardLit)):
                verb = "is not in" if op == "not in" else "is in"
                return f"{self.cards(left)} {verb} {self.cards(right)}"
            if isinstance(right, ListLit) and all(isinstance(i, (Int, Str)) for i in right.items):
                items = join_words([str(i.value) for i in right.items], "or")
                return f"{self.number(left)} is {'not ' if op == 'not in' else ''}{items}"
            return None
        # options.name == value
        if isinstance(left, Attr) and left.base == "options" and isinstance(right, (Str, Int, Bool)) \
                and op in ("==", "!="):
            shown = right.value if not isinstance(right, Bool) else ("on" if right.value else "off")
            return f"option {left.name} is {'not ' if op == '!=' else ''}{shown}"
        # two cards, two truths
        if op in ("==", "!=") and left.type is not None and str(left.type) == "card" and str(right.type) == "card":
            return f"{self.cards(left)} is {'not ' if op == '!=' else ''}{self.cards(right)}"
        if op in ("==", "!=") and left.type is not None and str(left.type) == "bool":
            return f"{self.condition(left)} exactly when {self.condition(right, op == '!=')}"
        # two card sets compared as sets
        if op in ("==", "!=") and left.type is not None and str(left.type) in ("cards", "card", "list[card]") \
                and str(left.type) != "card":
            return f"{self.cards(left)} {'are not' if op == '!=' else 'are'} exactly {self.cards(right)}"
        # rank(x) == "A", suit(x) == "D"
        if isinstance(left, Call) and left.func in ("rank", "suit") and isinstance(right, Str) and op in ("==", "!="):
            subject = self.cards(left.args[0])
            what = self.a_rank(right.value) if left.func == "rank" else f"of {self.suit_word(right.value)}"
            return f"{subject} is {'not ' if op == '!=' else ''}{what}"
        if isinstance(left, Call) and isinstance(right, Call) and left.func == right.func \
                and left.func in ("rank", "suit", "value") and op in ("==", "!="):
            return (f"{self.cards(left.args[0])} has {'a different' if op == '!=' else 'the same'} {left.func} "
                    f"{'from' if op == '!=' else 'as'} {self.cards(right.args[0])}")
        # count(S, F) == count(deck, F): all of them
        if (isinstance(left, Call) and isinstance(right, Call) and left.func == right.func == "count"
                and len(left.args) == len(right.args) and isinstance(right.args[0], Name) and right.args[0].id == "deck"
                and (len(left.args) == 1 or source(left.args[1]) == source(right.args[1])) and op in ("==", "<", "!=")):
            noun = self._count_of(left)[1]
            return f"{self.holds(left.args[0], op != '==')} all the {noun}"
        if not isinstance(right, Int) or op not in _ORDER:
            if left.type is not None and str(left.type) in ("int", "str") and op in _ORDER:
                return f"{self.number(left)} is {_ORDER[op].format(self.number(right))}"
            return None
        n = right.value
        if isinstance(left, Call) and left.func == "count":
            one = n == 1 and op in ("==", "<=", ">")       # "exactly one jack", "at most one", "more than one"
            noun = self._count_of(left, plural=not one)[1]
            amount = "no" if n == 0 and op == "==" else "some" if n == 0 and op in ("!=", ">") else \
                _COUNT_ORDER.get(op, _ORDER[op]).format(count_words(n)) if not (one and op == "<=") else "at most one"
            if len(left.args) == 1 and isinstance(left.args[0], Name) and left.args[0].id == "captured":
                return f"{amount} {noun} {'is' if one else 'are'} captured"
            return f"{self.holds(left.args[0])} {amount} {noun}"
        if isinstance(left, Call) and left.func == "max_same_rank":
            one = n == 1 and op in ("==", "<=", ">")
            amount = "at most one" if one and op == "<=" else _COUNT_ORDER.get(op, _ORDER[op]).format(count_words(n))
            return f"{self.holds(left.args[0])} {amount} {'card' if one else 'cards'} of one rank"
        if isinstance(left, Call) and left.func == "total":
            return f"the values of {self.cards(left.args[0])} total {_ORDER[op].format(n)}"
        if isinstance(left, Call) and left.func == "value":
            subject = self.cards(left.args[0]).replace("the declared cards", "the declared card")
            if n == 0 and op in ("==", "<=", ">", "!="):    # value() is 0 for a card with no value (J Q K in Casino)
                return f"{subject} has {'no' if op in ('==', '<=') else 'a'} value"
            return f"{subject} has a value of {_ORDER[op].format(n)}"
        return f"{self.number(left)} is {_ORDER[op].format(n)}"

    @staticmethod
    def _plural(e: Expr) -> bool:
        """Whether the noun phrase `cards(e)` is plural (the verb agrees with it, not with its last word:
        "the captured cards together with the played card include")."""
        if isinstance(e, Name):
            return e.id in ("captured", "cards", "pile")
        if isinstance(e, ListLit):
            return len(e.items) != 1
        if isinstance(e, BinOp):
            return e.op in ("|", "&") or Words._plural(e.left)
        if isinstance(e, IfElse):
            return Words._plural(e.then)
        return isinstance(e, Call) and e.func == "select"

    def holds(self, e: Expr, negate: bool = False) -> str:
        """Subject and verb for what a set holds: `the table holds`, `the side has not captured`."""
        if isinstance(e, Name) and e.id == "pile" and self.place == "score":
            return "the side has not captured" if negate else "the side has captured"
        subject = self.cards(e)
        if not self._plural(e):
            return f"{subject} {'does not hold' if negate else 'holds'}"
        return f"{subject} {'do not include' if negate else 'include'}"

    # -- points: the value of a scoring expression
    def points(self, e: Expr) -> str:
        """A scoring expression in words: `5 if holds_all(pile, [JD, QD, KD]) else 0` -> "5 if the side ..."."""
        if isinstance(e, Int):
            return _points(e.value)
        if isinstance(e, IfElse) and not (isinstance(e.other, Int) and e.other.value == 0):
            # A choice between two scores (an option's if-else): each branch in words.
            return f"if {self.condition(e.cond)}: {self.points(e.then)}; otherwise: {self.points(e.other)}"
        if isinstance(e, IfElse) and isinstance(e.other, Int) and e.other.value == 0:
            amount = _points(e.then.value) if isinstance(e.then, Int) else self.number(e.then)
            cond = e.cond
            if isinstance(cond, Call) and cond.func == "most":
                return f"{amount} to {self.most_side(cond.args[0])} (nobody on a tie)"
            if isinstance(e.then, Int):
                return f"{amount} if {self.condition(cond)}, else 0"
            return f"if {self.condition(cond)}: {amount}; otherwise 0"
        return self.number(e)

    def side(self, e: Expr) -> str:
        """`a side that has captured all the diamonds`: who a per-side condition holds for."""
        cond = self.condition(e)
        if cond.startswith("the side "):
            return "a side that " + cond[len("the side "):]
        return f"a side for which {cond}"

    def most_side(self, e: Expr) -> str:
        """`the side with the most diamonds`: who most(e) is true for."""
        if isinstance(e, Call) and e.func == "count":
            return f"the side with the most {self._count_of(e)[1]}"
        if isinstance(e, Call) and e.func == "best_per_suit" and isinstance(e.args[1], MapLit):
            table = ", ".join(f"{k.value} = {source(v)}" for k, v in zip(e.args[1].keys, e.args[1].values))
            return f"the side with the highest sum of its best card in each suit, valued {table}, and 0 if a suit is missing"
        number = self.number(e)
        # "the highest the number of sevens ...": the phrase's own article goes
        number = number[len("the "):] if number.startswith("the ") else number
        return f"the side with the highest {number}"


def _points(n: int) -> str:
    return f"{n} point" if n == 1 else f"{n} points"


def _either(values: tuple) -> str:
    return " or ".join(map(str, values)) if values else "no value"


def rank_value_words(deck, r: int) -> str:
    """A rank's capture value in words: `5`, `1 or 11`, `1 (14 from the hand)`, `no value`."""
    if not deck.several_values:
        return str(deck.values[r]) if deck.values[r] is not None else "no value"
    table, hand = deck.rank_values[r], deck.rank_hand_values[r]
    return _either(table) + (f" ({_either(hand)} from the hand)" if hand != table else "")


def card_value_words(deck) -> list[tuple[str, str]]:
    """The single cards whose values differ from their rank's, each with its value in words."""
    return [(deck.names[i], _either(table) + (f" ({_either(hand)} from the hand)" if hand != table else ""))
            for i, table, hand in deck.card_values]


# -- builtins as numbers: (words, call) -> phrase or None
def _n_count(w: Words, e: Call):
    holder, noun = w._count_of(e)
    return f"the number of {noun} in {holder}"


def _n_run(w: Words, e: Call):
    if isinstance(e.args[1], ListLit) and all(isinstance(i, CardLit) for i in e.args[1].items):
        names = [i.name for i in e.args[1].items]
        holder = "the side has captured" if isinstance(e.args[0], Name) and e.args[0].id == "pile" and \
            w.place == "score" else f"{w.cards(e.args[0])} hold"
        return f"one point per card of the run {' '.join(names)} that {holder} from its first card without a gap"
    return None


def _whole(w: Words, e: Expr) -> str:
    """A number that a phrase after it applies to as a whole: a sum or difference in brackets."""
    text = w.number(e)
    return f"({text})" if isinstance(e, BinOp) else text


_NUMBER_CALLS = {
    "count": _n_count,
    "total": lambda w, e: f"the total value of {w.cards(e.args[0])}",
    "value": lambda w, e: f"the value of {w.cards(e.args[0])}",
    "run": _n_run,
    "max_same_rank": lambda w, e: f"the most cards of one rank in {w.cards(e.args[0])}",
    "min": lambda w, e: "the least of " + join_words([w.number(a) for a in e.args]),
    "max": lambda w, e: "the greatest of " + join_words([w.number(a) for a in e.args]),
    "abs": lambda w, e: f"the size of {w.number(e.args[0])}",
    "rank": lambda w, e: f"the rank of {w.cards(e.args[0])}",
    "suit": lambda w, e: f"the suit of {w.cards(e.args[0])}",
    "round_up": lambda w, e: f"{_whole(w, e.args[0])} rounded up to a multiple of {w.number(e.args[1])}",
    "round_down": lambda w, e: f"{_whole(w, e.args[0])} rounded down to a multiple of {w.number(e.args[1])}",
    "made": lambda w, e: f"the number of {e.args[0].value} events the side made in the hand",
    "rivals_made": lambda w, e: f"the most {e.args[0].value} events another side made in the hand",
    "fewest_made": lambda w, e: f"the fewest {e.args[0].value} events any side (this one included) made in the "
                                f"hand",
    "sharing": lambda w, e: f"the number of sides sharing {w.most_side(e.args[0]).replace('the side with ', '', 1)} "
                            f"with the side (0 if it is not among them)",
}


# -- builtins as conditions: (words, call, negate) -> phrase or None
def _c_empty(w: Words, e: Call, negate: bool):
    arg = e.args[0]
    if isinstance(arg, Name) and arg.id == "captured":
        return "the play captures something" if negate else "the play captures nothing"
    if isinstance(arg, Name) and arg.id == "previous":
        return "the previous play left a card on the table" if negate else "the previous play left no card on the table"
    if isinstance(arg, BinOp) and arg.op == "&":
        # "the cards both in A and in B is not empty" is no sentence: say what the two sets share
        part, whole = (arg.left, arg.right) if _one_card(arg.left) and not _one_card(arg.right) else \
            (arg.right, arg.left)
        some = "" if _one_card(part) else "one or more of " if negate else "any of "
        return f"{w.holds(whole, not negate)} {some}{w.cards(part)}"
    return f"{w.cards(arg)} {'is not' if negate else 'is'} empty"


def _is_rank(f) -> bool:
    """Whether filter `f` is `rank == "X"`."""
    return (isinstance(f, Compare) and isinstance(f.left, Name) and f.left.ref == "candidate" and f.left.id == "rank"
            and f.op == "==" and isinstance(f.right, Str))


def _is_suit(f) -> bool:
    """Whether filter `f` is `suit == "X"` or `suit != "X"`."""
    return (isinstance(f, Compare) and isinstance(f.left, Name) and f.left.ref == "candidate" and f.left.id == "suit"
            and f.op in ("==", "!=") and isinstance(f.right, Str))


def _one_card(e) -> bool:
    """Whether card-set expression `e` holds at most one card: a card written, or `previous`."""
    return isinstance(e, CardLit) or (isinstance(e, Name) and e.id == "previous")


def _c_holds(w: Words, e: Call, negate: bool):
    quantity = {"holds": "", "holds_all": "", "holds_any": "any of "}[e.func]
    return f"{w.holds(e.args[0], negate)} {quantity}{w.cards(e.args[1])}"


def _c_same(what: str):
    def phrase(w: Words, e: Call, negate: bool):
        subject = w.cards(e.args[0])
        return f"{subject} {'are not' if negate else 'are'} all of the same {what}"
    return phrase


def _c_can_total(w: Words, e: Call, negate: bool):
    wild = " (the wild card counting as any value from 1 to 10)" if w.rs.wild is not None else ""
    # The whole set ("can make 15" was read as some of its cards: that is subset_total).
    subject = "the cards on the table" if isinstance(e.args[0], Name) and e.args[0].id == "table" else \
        w.cards(e.args[0])
    if negate:
        return f"{subject} do not total {w.number(e.args[1])} together{wild}"
    return f"{subject} together total {w.number(e.args[1])}{wild}"


def _c_subset_total(w: Words, e: Call, negate: bool):
    wild = " (the wild card counting as any value from 1 to 10)" if w.rs.wild is not None else ""
    subject = "the table" if isinstance(e.args[0], Name) and e.args[0].id == "table" else w.cards(e.args[0])
    quantity = "no group of one or more cards" if negate else "some group of one or more cards"
    return f"{quantity} of {subject} totals {w.number(e.args[1])}{wild}"


def _c_most(w: Words, e: Call, negate: bool):
    return f"{'not ' if negate else ''}{w.most_side(e.args[0])} (nobody on a tie)"


_CONDITION_CALLS = {
    "empty": _c_empty,
    "holds": _c_holds,
    "holds_all": _c_holds,
    "holds_any": _c_holds,
    "same_value": _c_same("value"),
    "same_rank": _c_same("rank"),
    "same_suit": _c_same("suit"),
    "can_total": _c_can_total,
    "subset_total": _c_subset_total,
    "most": _c_most,
    "tied": lambda w, e, negate: (f"the side {'does not tie' if negate else 'ties'} with another side for "
                                  f"{w.most_side(e.args[0]).replace('the side with ', '', 1)}"),
}
