"""The public Python API: `rulespec.compile(ruleset, **options)` and the compiled `Rules`.

    import rulespec
    rules = rulespec.compile("cirulla")                  # a shipped id or a path
    hand = rules.new_hand(seats=2, seed=7)
    while not hand.is_over:
        card, capture = hand.legal_moves()[0]
        hand.play(hand.current_seat, card, capture)
    print(hand.score())
"""
from __future__ import annotations

import random
from pathlib import Path

from rulespec.errors import RulespecError
from rulespec.run.engine import DealSource, Game, GameState, Hand, shuffled_source
from rulespec.run.protocol import CompiledRules


class Rules:
    """A compiled ruleset: its id, options, seats, and factories for hands and games."""

    def __init__(self, module: CompiledRules, ruleset=None):
        self.module = module
        self.ruleset = ruleset            # the checked model (lang/model.py), None if unknown

    # A compiled ruleset does not change: a copy is the same object. Pickled as its reference and option values,
    # compiled again on loading (from the compile cache when it can: run/pickling.py).
    def __copy__(self) -> "Rules":
        return self

    def __deepcopy__(self, memo) -> "Rules":
        return self

    @property
    def id(self) -> str:
        return self.module.RULESET_ID

    @property
    def options(self) -> dict:
        """The option values the ruleset was compiled with (as given to compile())."""
        return dict(self.module.__rulespec_ref__[1])

    @property
    def seats_allowed(self) -> tuple[int, ...]:
        return tuple(self.module.SEATS_ALLOWED)

    @property
    def default_seats(self) -> int:
        return self.module.DEFAULT_SEATS

    @property
    def card_names(self) -> tuple[str, ...]:
        """Card names by index (the indices in moves, hands and masks)."""
        return tuple(self.module.CARD_NAMES[:self.module.N_CARDS])

    def new_hand(self, seats: int | None = None, dealer: int = 0, seed: int | None = None, *,
                 source: DealSource | None = None, game: GameState | None = None) -> Hand:
        """A freshly dealt hand: shuffled from `seed` (None: unpredictable), or dealt from `source`; `game`: the
        game around it (the totals before it, the points carried into it), for rules that read it."""
        if source is not None and seed is not None:
            raise RulespecError("new_hand takes a seed or a source, not both")
        if source is None:
            source = shuffled_source(self.module.N_CARDS, random.Random(seed))
        else:
            _check_source(source, self.module.N_CARDS)
        return Hand(self.module, self.module.DEFAULT_SEATS if seats is None else seats, dealer, source, game)

    def new_game(self, seats: int | None = None, seed: int | None = None, dealer: int = 0) -> Game:
        """A game played hand after hand to the target (call game.new_hand() for each hand)."""
        return Game(self.module, seats, seed, dealer)

    def __repr__(self) -> str:
        opts = "".join(f", {k}={v!r}" for k, v in sorted(self.options.items()))
        return f"rulespec.compile({self.id!r}{opts})"

    # Pickled as the reference, options and content digest; loading compiles again (cached) and checks that
    # the ruleset's files still hold that content (run/pickling.py).
    def __reduce__(self):
        from rulespec.run.pickling import rules_ref
        return (_compile_ref, tuple(rules_ref(self.module)))


def _check_source(source, n_cards: int) -> None:
    """A caller's deal source, checked before any card is dealt from it: a DealSource whose order (if any)
    is the whole deck, every card index once, whose rounds are ExplicitRounds and whose rng is a Random."""
    from rulespec.run.engine import ExplicitRound
    if not isinstance(source, DealSource):
        raise RulespecError(f"source is a DealSource, found {type(source).__name__}")
    order = source.order
    if order is not None:
        if not isinstance(order, (list, tuple)) or sorted(
                c if c.__class__ is int else -1 for c in order) != list(range(n_cards)):
            raise RulespecError(f"a deck order lists every card index from 0 to {n_cards - 1} once "
                                f"(ints, top card first)")
    rounds = source.rounds
    if rounds is not None and (not isinstance(rounds, (list, tuple)) or not rounds or
                               not all(isinstance(r, ExplicitRound) for r in rounds)):
        raise RulespecError("explicit rounds are a non-empty list of ExplicitRound")
    if source.rng is not None and not isinstance(source.rng, random.Random):
        raise RulespecError(f"a deal source's rng is a random.Random, found {type(source.rng).__name__}")


def _compile_ref(ref: str, options: dict, content: str | None = None) -> Rules:
    """A pickled Rules loaded: its ruleset compiled again with the same option values, from the same content
    (RulespecError if its files hold other rules now; a pickle without a digest is not checked)."""
    from rulespec.run.pickling import check_content
    rules = compile(ref, **options)
    check_content(rules.module, content, ref)
    return rules


def compile(ruleset: str | Path, **options) -> Rules:  # noqa: A001 - the library's verb
    """Compile a ruleset (a shipped id such as "cirulla", or a path to a .yaml file) with option values.

    Compiling is cached per (files, options): compiling the same ruleset again is cheap.
    RulespecError (located) for a ruleset or option that is wrong.
    """
    from rulespec.compiler.build import compile_ruleset
    compiled = compile_ruleset(ruleset, options or None)
    return Rules(compiled.module, compiled.ruleset)
