"""A hand as a sequence of single decisions with one fixed action space per ruleset.

Every adapter (PettingZoo, Gymnasium, OpenSpiel) drives a `Decisions`: at each
step one seat chooses one integer action among `legal_actions()`.

The action space has A = N + 1 + D actions for a deck of N cards:

- `0 .. N-1`, a card. In the *card* phase: play that card from the hand. In
  the *capture* phase: add that table card to the capture being built.
- `N`, DONE. In the capture phase: take the capture built so far (the empty
  one: play the card without capturing). In the *declare* phase: declare
  nothing more.
- `N+1 .. N+D`, a declaration slot (declare phase only): bonus `b` made with
  the `j`-th combination (in `itertools.combinations` order) of the seat's
  undeclared cards, lowest index first. D = Σ_b C(H, size_b) for the largest
  hand H of the ruleset's deal schedule: a bound that holds for every hand.

A play is a card, then (only when the card has several capture options) its
capture as a set of table cards named in increasing index order, ending with
DONE; as soon as the cards named so far leave a single option, that option is
taken. No bound on the number of captures or legal moves is needed: cicera's
29 captures of one card are 29 paths through at most N+1 actions.
Where a card's moves are too many to list (Hand.legal_moves raises TooManyMoves),
each step's actions are found by counting the moves that extend the choice
(interop/counted.py), the same actions the list would give.

Declarations are decisions too, never made for the agent. A declare phase opens
whenever the rules let the seat declare, whatever its cards
(`Hand.may_declare`: the timing, the round, how many undeclared cards it
holds): where the ruleset declares with the play, at the start of the seat's
turn; knocks (card-less declarations) after each deal in seat order (timing
`after_deal`) or at the start of the seat's own first turn of the round
(`before_first_turn`). The seat names declarations one at a time, then DONE;
DONE alone passes, and is the only legal action when its cards make no bonus.
So the seats asked, and how many decisions each takes, follow from what every
seat sees: a phase opened only for a seat holding a bonus, or ended by itself
when nothing more could be declared, would tell the others its cards. (Where
the rules allow one declaration a turn, the phase ends with it.)

Two choices stay with the engine unless asked otherwise: the rank of a declared wild card (the first
rank that makes the bonus, in `Hand.bonus_options`' order; a declaration that
needs another rank beside those chosen before it in the phase gives them its
rank where they make their bonuses with it: one rank in all of a turn's
declarations, whichever is chosen first). A declaration that the rules refuse
because an earlier seat holds the same value (`unique_by`) is judged as the
engine judges it, on what the declaring seat can know (the cards played this
round and the shown cards: Hand.bonus_options), so the mask leaves it out;
should one still be refused when the phase ends, it is dropped and logged as
void.

With builds on the table (capture.builds), V more actions close a play instead of DONE: after the
card and the table cards it joins (named as a capture's are), `build v` makes of them a build of value v
(`N+1+D(+R) + v - 1`, v from 1 to the highest value a card captures as). A ruleset without builds has
none of them.

With a bid before play (bid:), V more actions after those: `bid v` (`build_offset(+builds) + v - 1`, v from
1 to the highest value a bid may name), the only actions of the bidder's first decision (the card phase
lists them in place of cards). A ruleset without a bid has none of them.

With `ActionLayout(..., wild_ranks=True)` the wild card's rank is the
agent's choice: R more actions, `N+1+D .. N+D+R`, one per rank of the deck
(RANK_NAMES' order). A declaration slot whose cards hold the wild card and
make the bonus with several ranks opens a rank choice: its legal actions are
those ranks (the ones that make the bonus beside the declarations chosen
before it), and the declaration is chosen with the rank named. With a single
rank the slot takes it at once, as without the option. The option changes
the action space only for rulesets whose hand bonuses may be made with the
wild card; the default layout is unchanged.
"""
from __future__ import annotations

import operator
from itertools import combinations
from math import comb

from rulespec.bots.ismcts import result_for
from rulespec.bots.policy import best_declarations
from rulespec.run.bid import BID_MOVE
from rulespec.run.declarations import rerank
from rulespec.interop.counted import CountedMoves
from rulespec.run.engine import Declaration, Hand, IllegalMove, TooManyMoves
from rulespec.run.pickling import state_with_rules, state_without_rules
from rulespec.run.protocol import CompiledRules
from rulespec.run.runtime import bits as _bits

DECLARE, CARD, CAPTURE = 0, 1, 2
PHASES = ("declare", "card", "capture")


def as_int(value, what: str, bounds: str = "") -> int:
    """`value` as a plain int (numpy's integers too); TypeError naming `what` for anything else.

    A float, a bool, a string or None is refused even where its value is a
    whole number: int() would truncate 2.7 to 2 without a word.
    """
    if not isinstance(value, bool):       # numpy's bool is no integer to operator.index already
        try:
            return operator.index(value)
        except TypeError:
            pass
    raise TypeError(f"{what} is an integer{bounds}, found {value!r} ({type(value).__name__})")


class ActionLayout:
    """The fixed action space of a ruleset at a number of seats."""

    def __init__(self, rules: CompiledRules, seats: int, wild_ranks: bool = False):
        self.n_cards = rules.N_CARDS
        self.done = rules.N_CARDS
        self.max_hand = max(seat_cards for seat_cards, _, _ in rules.schedule(seats))
        self.bonuses = list(rules.HAND_BONUSES)
        self.offsets: dict[str, int] = {}
        offset = rules.N_CARDS + 1
        for name in self.bonuses:
            self.offsets[name] = offset
            offset += comb(self.max_hand, rules.HAND_BONUSES[name].size)
        # The wild card's rank as a choice (module docstring): only where a declaration may hold it.
        self.wild_ranks = bool(wild_ranks and rules.HAND_BONUSES and rules.WILD_BIT and rules.DECLARE_WILD)
        self.rank_offset = offset
        if self.wild_ranks:
            offset += len(rules.RANK_NAMES)
        self.build_offset = offset            # `build v` is build_offset + v - 1 (capture.builds only)
        builds = getattr(rules, "BUILDS", None)
        if builds is not None:
            offset += max((v for values in builds["hand_values"] for v in values), default=0)
        self.bid_offset = offset              # `bid v` is bid_offset + v - 1 (bid: only)
        bid = getattr(rules, "BID", None)
        if bid is not None:
            offset += max(bid["values"])
        self.size = offset
        self._ranks: dict[tuple[int, int], dict[tuple[int, ...], int]] = {}

    def bid_action(self, value: int) -> int:
        """The action that bids `value` (bid:)."""
        return self.bid_offset + value - 1

    def build_action(self, value: int) -> int:
        """The action that closes a play as a build of `value` (capture.builds)."""
        return self.build_offset + value - 1

    @property
    def n_declaration_slots(self) -> int:
        return self.rank_offset - self.n_cards - 1

    def declaration_action(self, decl: Declaration, available: list[int], size: int) -> int:
        """The action of a declaration made with cards out of `available` (sorted card indices)."""
        positions = tuple(available.index(c) for c in _bits(decl.cards))
        ranks = self._ranks.get((len(available), size))
        if ranks is None:
            ranks = {combo: i for i, combo in enumerate(combinations(range(len(available)), size))}
            self._ranks[(len(available), size)] = ranks
        return self.offsets[decl.bonus] + ranks[positions]

    def checked(self, action) -> int:
        """`action` as a plain int: any integer, numpy's too; TypeError for anything else (as_int)."""
        return as_int(action, "an action", f" from 0 to {self.size - 1}")

    def describe(self, action: int, rules: CompiledRules) -> str:
        """An action in words (for logs and OpenSpiel's action strings)."""
        if not 0 <= action < self.size:
            raise ValueError(f"outside 0..{self.size - 1}")
        if action < self.n_cards:
            return rules.CARD_NAMES[action]
        if action == self.done:
            return "done"
        if action >= self.bid_offset:
            return f"bid {action - self.bid_offset + 1}"
        if action >= self.build_offset:
            return f"build {action - self.build_offset + 1}"
        if action >= self.rank_offset:
            return f"wild as {rules.RANK_NAMES[action - self.rank_offset]}"
        for name in reversed(self.bonuses):
            if action >= self.offsets[name]:
                return f"declare {name} #{action - self.offsets[name]}"
        raise AssertionError(f"action {action} has no meaning")    # unreachable: every slot has a bonus


class Decisions:
    """One hand driven one decision at a time (see the module docstring for the actions)."""

    def __init__(self, hand: Hand, layout: ActionLayout | None = None):
        self.hand = hand
        self.rules = hand.rules
        self.layout = layout or ActionLayout(hand.rules, hand.n)
        self._knocks = not hand.declares_with_play
        self.seat: int | None = None
        self.phase = CARD
        self.pending: list[Declaration] = []     # declarations chosen in this declare phase
        self.decls: list[Declaration] = []       # declarations going with the coming play
        self.card: int | None = None              # the card whose capture is being built
        self.partial = 0                          # the capture built so far
        self.ranking: dict[int, tuple] | None = None  # a rank choice open: rank action -> (declaration, before)
        self.voided: list[tuple[int, Declaration]] = []
        # Moves in order: ("deal", table laid, cards per seat) or ("deal", None) for a thrown-in deal /
        # ("knock", seat, decls, voided), both empty for a pass / ("play", seat, card, capture, decls, voided);
        # see public_log().
        self.log: list[tuple] = []
        self._logged_deals = 0
        self._voided_now: list[Declaration] = []
        self._queue: list[int] = []               # seats still to be offered a knock after the deal
        self._dealt_round = 0
        self._options: list[Declaration] = []
        self._moves: dict[int, list[int]] = {}
        self._legal: list[int] | None = None
        self._advance()

    @classmethod
    def at_turn(cls, hand: Hand, seat: int, layout: ActionLayout | None = None) -> "Decisions":
        """The decisions of `seat`'s whole move in `hand`, where a bot is asked for it (Hand.current_seat):
        its declare phase where the ruleset declares with the play, then its card. Knocks are not asked
        (the bots' own: Decisions.apply_bot); the log starts empty. For a policy played as a bot."""
        d = cls.__new__(cls)
        d.__dict__.update(cls(hand.clone(), layout).__dict__)
        d.hand, d.log, d._logged_deals, d._dealt_round, d._queue = hand, [], len(hand.deal_log), hand.round, []
        d.pending, d.decls, d.card, d.partial, d.ranking, d._legal = [], [], None, 0, None, None
        if not d._knocks and d._offer_declarations(seat):
            return d
        d._start_card_phase(seat)
        return d

    def with_hand(self, hand: Hand, viewer: int | None = None) -> "Decisions":
        """The same decision in progress (seat, phase, choices so far) over another hand state.

        For determinised search and for tests: `hand` is this state with its
        hidden cards redrawn (Hand.with_hidden); what is legal is worked out
        again from it. With a `viewer` other than the seat deciding, that
        decision in progress (its card, capture so far and declarations chosen:
        hidden from the viewer, and perhaps not made of the redrawn cards) is
        started again from the new hand.
        """
        if viewer is not None and viewer != self.current_seat and self._deciding():
            return self._restarted(hand)
        new = Decisions.__new__(Decisions)
        new.__dict__.update(self.__dict__)
        new.hand, new._legal = hand, None
        new._logged_deals = len(hand.deal_log)      # a redrawn hand may have dropped the record of the deal
        new.pending, new.decls, new._queue = list(self.pending), list(self.decls), list(self._queue)
        new.voided, new.log, new._voided_now = list(self.voided), list(self.log), list(self._voided_now)
        new._rewrite_last_deal()
        if hand.is_over:
            return new
        if self.phase == DECLARE:
            new._options = hand.bonus_options(self.seat)
        else:
            new._start_card_phase(self.seat)
            new.phase, new.card, new.partial = self.phase, self.card, self.partial
        return new

    def _deciding(self) -> bool:
        """Whether the seat to act has begun a decision: a declare phase, declarations or a card chosen."""
        return not self.hand.is_over and (self.phase != CARD or bool(self.decls) or bool(self.pending))

    def _restarted(self, hand: Hand) -> "Decisions":
        """with_hand, the decision in progress started again: the next decision found afresh in `hand`."""
        # The choices in progress are dropped before the new hand is taken: its seat may not hold their cards.
        base = Decisions.__new__(Decisions)
        base.__dict__.update(self.__dict__)
        base.pending, base.decls, base.card, base.partial, base._options = [], [], None, 0, []
        base.ranking = None
        base._voided_now, base.phase = [], CARD
        new = base.with_hand(hand)
        seat = self.seat
        if new._knocks and self.phase == DECLARE and self.rules.TIMING == "after_deal":
            new._queue.insert(0, seat)          # offered again, in the new hand, in seat order
        new._advance()
        return new

    def _rewrite_last_deal(self) -> None:
        """Make the log's last deal agree with the hand: each seat's cards now plus those it played since.

        Earlier deals need no rewriting: every card of them has been played face up.
        """
        last = max((i for i, e in enumerate(self.log) if e[0] == "deal" and e[1] is not None), default=None)
        if last is None:
            return
        played = [0] * self.hand.n
        for entry in self.log[last + 1:]:
            if entry[0] == "play" and entry[2] != BID_MOVE:
                played[entry[1]] |= 1 << entry[2]
        dealt = tuple(h | p for h, p in zip(self.hand.hands, played))
        self.log[last] = ("deal", self.log[last][1], dealt)

    def clone(self) -> "Decisions":
        """An independent copy (the hand cloned too)."""
        return self.with_hand(self.hand.clone())

    def __deepcopy__(self, memo) -> "Decisions":
        return self.clone()

    # Pickled with the ruleset's reference in place of its module, as a Hand is (run/pickling.py).
    def __getstate__(self) -> dict:
        return state_without_rules(self.__dict__)

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state_with_rules(state))

    # -- views -------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        return self.hand.is_over

    @property
    def current_seat(self) -> int | None:
        return None if self.hand.over else self.seat

    @property
    def chosen(self) -> list[Declaration]:
        """The declarations the seat deciding has chosen this turn, in order: in its declare phase, then going
        with its coming play (known only to it until it plays); in a rank choice (wild_ranks), the declaration
        whose rank is being chosen last, its cards chosen, its rank not yet."""
        if self.phase != DECLARE:
            return self.decls
        if self.ranking:
            decl, before = next(iter(self.ranking.values()))
            return before + [Declaration(decl.bonus, decl.cards, None)]
        return self.pending

    def legal_actions(self) -> list[int]:
        """The actions the current seat may take, ascending."""
        if self._legal is None:
            self._legal = self._compute_legal()
        return self._legal

    def returns(self) -> list[float]:
        """Per seat: its side's total minus the best other side's, ± the target for a game-ending outcome."""
        if not self.hand.is_over:
            return [0.0] * self.hand.n
        hand = self.hand
        per_side = [float(result_for(hand, side)) for side in range(hand.k)]
        return [per_side[seat % hand.k] for seat in range(hand.n)]

    def _compute_legal(self) -> list[int]:
        if self.hand.is_over:
            return []
        if self.phase == CARD:
            return sorted(self._moves)
        if self.phase == CAPTURE:
            counted = self._moves[self.card]
            if isinstance(counted, CountedMoves):          # too many to list: each step counted (interop/counted.py)
                return counted.legal_steps(self.partial, self.hand.table, self.layout.done, self.layout.build_action)
            out = set()
            partial = self.partial
            n_cards = self.layout.n_cards
            for option in self._moves[self.card]:
                cards, value = option & ((1 << n_cards) - 1), option >> n_cards   # a build's value (capture.builds)
                rest = _prefix_rest(cards, partial)
                if rest is None:
                    continue
                if rest:
                    out.add((rest & -rest).bit_length() - 1)
                else:
                    out.add(self.layout.build_action(value) if value else self.layout.done)
            return sorted(out)
        # DECLARE
        if self.ranking is not None:
            return sorted(self.ranking)
        return sorted({self.layout.done} | set(self._declaration_actions()))

    # -- stepping ------------------------------------------------------------
    def apply(self, action: int) -> None:
        """Take one action (an integer, numpy's too) for the current seat; IllegalMove for one not in
        legal_actions(), TypeError for a value that is no integer."""
        action = self.layout.checked(action)
        if self.hand.is_over:
            raise IllegalMove(f"the hand is over: no action is legal (action {action})")
        if action not in self.legal_actions():
            raise IllegalMove(f"action {action} ({self._name(action)}) is not legal now "
                              f"(legal: {self.legal_actions()})")
        self._legal = None
        if self.phase == DECLARE:
            if action == self.layout.done:
                self._end_declarations()
                return
            if self.ranking is not None:
                decl, before = self.ranking.pop(action)
                self.ranking = None
            elif len(self._ranked_by_action.get(action, ())) > 1:
                self.ranking = {self.layout.rank_offset + d.wild_rank: (d, b)
                                for d, b in self._ranked_by_action[action]}
                return
            else:
                decl, before = self._decl_by_action[action], self._pending_by_action[action]
            self.pending = before + [decl]
            if self.rules.PER_TURN == "one":    # the rules' limit, known to all: nothing more to choose
                self._end_declarations()
            return
        if self.phase == CARD:
            options = self._moves[action]
            if isinstance(options, CountedMoves):
                if options.total() == 1:
                    self._play(action, options.only(0, 0))
                else:
                    self.phase, self.card, self.partial = CAPTURE, action, 0
                return
            if action >= self.layout.bid_offset:        # a bid: no card (run/bid.py)
                self._play(BID_MOVE, options[0])
            elif len(options) == 1:
                self._play(action, options[0])
            else:
                self.phase, self.card, self.partial = CAPTURE, action, 0
            return
        # CAPTURE
        if action == self.layout.done:
            self._play(self.card, self.partial)
            return
        if action >= self.layout.build_offset:
            self._play(self.card, self.partial | (action - self.layout.build_offset + 1) << self.layout.n_cards)
            return
        self.partial |= 1 << action
        counted = self._moves[self.card]
        if isinstance(counted, CountedMoves):
            passed = self.hand.table & ((1 << action) - 1) & ~self.partial
            if counted.count(self.partial, passed, enough=2) == 1:
                self._play(self.card, counted.only(self.partial, passed))
            return
        low = (1 << self.layout.n_cards) - 1
        left = [o for o in self._moves[self.card] if _prefix_rest(o & low, self.partial) is not None]
        if len(left) == 1:
            self._play(self.card, left[0])

    def apply_bot(self, bot) -> None:
        """Let a bot (rulespec/bots) make the current seat's whole move: its declarations and its play."""
        seat = self.seat
        if self.phase != DECLARE and (self.phase != CARD or self.decls):
            raise ValueError("a bot moves only at the start of a seat's decision, not in the middle of one")
        self.pending, self.decls, self._legal = [], [], None
        if self.phase == DECLARE and self._knocks:
            decls = best_declarations(self.hand, seat)
            if decls:
                self.hand.declare(seat, decls)
            self.log.append(("knock", seat, tuple(decls), ()))
            self._advance(after_knock=seat)
            return
        decls, card, capture = bot.choose(self.hand, seat)
        self.hand.play(seat, card, capture, decls)
        self.log.append(("play", seat, card, capture, tuple(decls), ()))
        self._advance()

    def seen_of_deal(self, entry, seat: int, last: bool) -> tuple[int, int]:
        """(table, own cards) of a logged deal as `seat` has seen them: while a bid is due (bid:), the last
        deal shows the bidder the cards it bids on alone, and nobody the table."""
        hand = self.hand
        if last and hand.bid_pending:
            return 0, hand.bid_cards if seat == hand.bidder else 0
        return entry[1], entry[2][seat]

    def public_log(self, seat: int) -> list[str]:
        """What `seat` has seen happen, in order: its deals (its own cards, the table laid) and every move."""
        rules = self.rules
        names = rules.card_names
        out = []
        last_deal = max((i for i, e in enumerate(self.log) if e[0] == "deal"), default=None)
        for i, entry in enumerate(self.log):
            if entry[0] == "deal":
                if entry[1] is None:
                    out.append("deal thrown in")
                else:
                    table, mine = self.seen_of_deal(entry, seat, i == last_deal)
                    out.append(f"deal table[{names(table)}] mine[{names(mine)}]")
                continue
            if entry[0] == "knock":
                _, s, decls, voided = entry
                if not decls and not voided:
                    out.append(f"s{s} pass")
                    continue
                out.append(f"s{s} knock {describe_declarations(decls, rules)}"
                           f"{' void ' + describe_declarations(voided, rules) if voided else ''}")
                continue
            _, s, card, capture, decls, voided = entry
            if card == BID_MOVE:
                out.append(f"s{s} bid {capture}")
                continue
            value = capture >> rules.N_CARDS          # a build (capture.builds): its cards and value
            text = (f"s{s} {rules.CARD_NAMES[card]}+[{names(capture & ((1 << rules.N_CARDS) - 1))}]={value}" if value
                    else f"s{s} {rules.CARD_NAMES[card]}x[{names(capture)}]")
            if decls:
                text += " " + describe_declarations(decls, rules)
            if voided:
                text += " void " + describe_declarations(voided, rules)
            out.append(text)
        return out

    def _name(self, action: int) -> str:
        try:
            return self.layout.describe(action, self.rules)
        except ValueError as err:
            return str(err)

    # -- declarations ---------------------------------------------------------
    def _declaration_actions(self) -> list[int]:
        """Declaration slots the seat may add to what it chose so far in this phase."""
        seat = self.seat
        available = _bits(self.hand.hands[seat] & ~self.hand.shown[seat])
        actions = []
        self._decl_by_action = {}
        self._pending_by_action = {}
        self._ranked_by_action = {}     # wild_ranks: every rank that goes, per action
        ranked = self.layout.wild_ranks
        chosen = {(d.bonus, d.cards) for d in self.pending}
        for d in self._options:
            if (d.bonus, d.cards) in chosen:
                continue
            a = self.layout.declaration_action(d, available, self.rules.HAND_BONUSES[d.bonus].size)
            if a in self._decl_by_action and not ranked:
                continue            # the same cards with a later rank for the wild card: the first one stands
            before = self._joined(self.hand, seat, d) if self.pending else []
            if before is None:
                continue
            if ranked and d.wild_rank is not None:
                self._ranked_by_action.setdefault(a, []).append((d, before))
            if a in self._decl_by_action:
                continue
            self._decl_by_action[a] = d
            self._pending_by_action[a] = before
            actions.append(a)
        return actions

    def _joined(self, hand: Hand, seat: int, d: Declaration) -> list[Declaration] | None:
        """The declarations chosen so far, for `d` to join them: as they are, or with the wild card given
        d's rank in them (one rank in all of a turn's declarations, whichever was chosen first:
        declarations.rerank); None where the rules refuse `d` beside them either way."""
        for before in (self.pending, self._reranked(hand, seat, d.wild_rank)):
            if before is None:
                continue
            try:
                hand.with_declarations(seat, before + [d])
            except IllegalMove:
                continue
            return before
        return None

    def _reranked(self, hand: Hand, seat: int, rank) -> list[Declaration] | None:
        """The pending declarations with the wild card as `rank` where they hold it, or None."""
        if rank is None or not any(p.cards & self.rules.WILD_BIT for p in self.pending):
            return None
        context = (hand.hands[seat], hand.round, hand.round == len(hand.schedule))
        got = rerank(self.rules, self.pending, rank, context)
        return None if got is None else [Declaration(*p) for p in got]

    def _offer_declarations(self, seat: int) -> bool:
        """Open a declare phase for `seat` if the rules let it declare now, whatever its cards (Hand.may_declare):
        with no bonus in its hand, DONE is its one legal action."""
        if not self.hand.may_declare(seat):
            return False
        self.seat, self.phase, self.pending, self._options = seat, DECLARE, [], self.hand.bonus_options(seat)
        return True

    def _end_declarations(self) -> None:
        """Keep the chosen declarations the rules accept (a voided one is dropped), then go on."""
        seat = self.seat
        kept: list[Declaration] = []
        for d in self.pending:
            try:
                self.hand.with_declarations(seat, kept + [d])
            except IllegalMove:
                self.voided.append((seat, d))
                self._voided_now.append(d)
                continue
            kept.append(d)
        self.pending, self._options = [], []
        if self._knocks:
            if kept:
                self.hand.declare(seat, kept)
            # A pass is logged too: the knock's end is seen by all (the next seat to act is), its content with it.
            self.log.append(("knock", seat, tuple(kept), tuple(self._voided_now)))
            self._voided_now = []
            self._advance(after_knock=seat)
        else:
            self.decls = kept
            self._start_card_phase(seat)

    # -- turns ----------------------------------------------------------------
    def _start_card_phase(self, seat: int) -> None:
        base = self.hand.with_declarations(seat, self.decls) if self.decls else self.hand
        moves: dict[int, list[int] | CountedMoves] = {}
        try:
            listed = base.legal_moves()
        except TooManyMoves:
            # more moves than a list holds (capture.builds on a crowded table): each card's moves counted, and
            # each step's actions found by counting the moves that extend it (interop/counted.py)
            entries, _total = base.counted_moves()
            if any(kind == "propose" for kind, *_ in entries):
                raise                            # captures neither listed nor counted: no exact mask
            for card in sorted({e[1] for e in entries if e[3]}):
                moves[card] = CountedMoves(card, entries, self.layout.n_cards)
            self.seat, self.phase, self._moves, self._legal = seat, CARD, moves, None
            return
        for card, capture in listed:
            if card == BID_MOVE:                 # a bid: its own action, the value its move
                moves[self.layout.bid_action(capture)] = [capture]
                continue
            moves.setdefault(card, []).append(capture)
        self.seat, self.phase, self._moves, self._legal = seat, CARD, moves, None

    def _play(self, card: int, capture: int) -> None:
        decls, self.decls = self.decls, []
        self.card, self.partial = None, 0
        self.hand.play(self.seat, card, capture, decls)
        self.log.append(("play", self.seat, card, capture, tuple(decls), tuple(self._voided_now)))
        self._voided_now = []
        self._advance()

    def _advance(self, after_knock: int | None = None) -> None:
        """Find the next decision: a knock after a deal, a declare phase, or a card to play."""
        hand = self.hand
        self._legal = None
        while self._logged_deals < len(hand.deal_log):
            dealt = hand.deal_log[self._logged_deals]
            self.log.append(("deal", None) if dealt is None else ("deal", dealt[0], dealt[1]))
            self._logged_deals += 1
        if hand.is_over:
            self.seat = None
            return
        rules = self.rules
        if self._knocks and rules.HAND_BONUSES:
            if rules.TIMING == "after_deal":
                if hand.round != self._dealt_round:
                    self._dealt_round = hand.round
                    self._queue = [(hand.dealer + 1 + j) % hand.n for j in range(hand.n)]
                while self._queue:
                    seat = self._queue.pop(0)
                    if self._offer_declarations(seat):
                        return
            elif after_knock is None and self._offer_declarations(hand.turn):
                return                          # before_first_turn: a knock at the start of the own turn
        elif not self._knocks and self._offer_declarations(hand.turn):
            return
        self._start_card_phase(hand.turn)


def describe_declarations(decls, rules) -> str:
    """Declarations in words, in the order chosen: `bonus[cards]`, `=rank` for a wild card's declared rank."""
    return ",".join(f"{d.bonus}[{rules.card_names(d.cards)}]"
                    + (f"={rules.RANK_NAMES[d.wild_rank]}" if d.wild_rank is not None else "") for d in decls)


def _prefix_rest(option: int, partial: int) -> int | None:
    """If `partial` is the lowest cards of `option`, the rest of it; else None."""
    if option & partial != partial:
        return None
    rest = option ^ partial
    if rest and (rest & -rest).bit_length() <= partial.bit_length():
        return None
    return rest
