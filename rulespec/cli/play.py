"""`rulespec play`: a game in the terminal, one seat for a person, the others for bots.

What the person sees comes from `Hand.observation(seat)` alone: their hand,
the table, the cards declared face up, the piles' sizes and the events as
they happen. Input and output are streams, so tests drive a whole game with
a script of answers.
"""
from __future__ import annotations

import random
import sys

from rulespec.bots.policy import best_declarations
from rulespec.bots.registry import make_bot, parse_bots
from rulespec.cli.options import add_option_argument, compile_named
from rulespec.errors import RulespecError
from rulespec.run.builds import builds_words, move_words
from rulespec.run.engine import Declaration, Game, Hand, IllegalMove, game_length


class Quit(Exception):
    """The person asked to stop (q, or the input ended)."""


class TerminalGame:
    """One person against bots; `run()` plays a game (or `hands` hands) and returns the exit code."""

    def __init__(self, compiled, *, seat: int = 0, seed: int | None = None, seats: int | None = None,
                 bots: str = "greedy", hands: int | None = None, inp=None, out=None):
        self.compiled = compiled
        self.rules = rules = compiled.module
        self.n = seats if seats is not None else rules.DEFAULT_SEATS
        if self.n not in rules.SEATS_ALLOWED:
            raise RulespecError(f"{rules.RULESET_ID} is played by "
                                f"{', '.join(map(str, rules.SEATS_ALLOWED))} players, not {self.n}")
        if not 0 <= seat < self.n:
            raise RulespecError(f"--seat must be a seat from 0 to {self.n - 1}, found {seat}")
        self.me = seat
        self.k = rules.SIDES[self.n]
        self.seed = seed if seed is not None else random.randrange(10 ** 6)
        specs = parse_bots(bots, self.n, self.k, person=seat)
        self.bot_names = specs
        self.bots = [make_bot(spec, random.Random(f"rulespec-play:{self.seed}:{s}")) for s, spec in enumerate(specs)]
        self.max_hands = hands
        self.inp = inp
        self.out = out
        self.asked: set = set()           # (hand number, round) where the person was offered a knock

    # -- text ------------------------------------------------------------------
    def say(self, text: str = "") -> None:
        print(text, file=self.out)
        self.out.flush()

    def names(self, cards) -> str:
        if isinstance(cards, int):
            return self.rules.card_names(cards) if cards else "nothing"
        return " ".join(self.rules.CARD_NAMES[c] for c in cards) if cards else "nothing"

    def owner(self, seat: int) -> str:
        return "yours" if seat == self.me else f"seat {seat}'s"

    def move_text(self, hand: Hand, capture: int) -> str:
        """A move's capture or build in words (run/builds.move_words), for the table before it."""
        if getattr(self.rules, "BUILDS", None) is None:
            return f"takes {self.names(capture)}" if capture else "stays on the table"
        return move_words(capture, hand.builds, self.rules.N_CARDS, self.names)

    def who(self, seat: int) -> str:
        return "you" if seat == self.me else f"seat {seat} ({self.bot_names[seat]})"

    def describe_decl(self, d: Declaration) -> str:
        spec = self.rules.HAND_BONUSES[d.bonus]
        wild = f", wild card as {self.rules.RANK_NAMES[d.wild_rank]}" if d.wild_rank is not None else ""
        return f"{d.bonus} with {self.names(d.cards)}{wild} ({spec.points} {spec.category})"

    def ask(self, prompt: str, count: int, zero: bool = False) -> int:
        """A number from 1..count (0 too when `zero`), asked again until valid; q or end of input quits."""
        low = 0 if zero else 1
        while True:
            self.out.write(prompt)
            self.out.flush()
            line = self.inp.readline()
            if not line:
                self.say()
                raise Quit
            text = line.strip().lower()
            if text in ("q", "quit", "exit"):
                raise Quit
            if text.isdigit() and low <= int(text) <= count:
                return int(text)
            self.say(f"  type a number from {low} to {count}, or q to quit")

    # -- the person's turn -------------------------------------------------------
    def show_state(self, hand: Hand) -> None:
        obs = hand.observation(self.me)
        self.say()
        # The declared value of the wild card is said only where the person sees the card: on the table or
        # in their own hand (a card in another hand is hidden, and so is what it was declared as there).
        wild = self.rules.WILD_INDEX
        declared = (f"   (the wild card {self.names([wild])} counts as {obs['wild_as']})"
                    if obs["wild_as"] else "")
        # With builds on the table, the table line is its loose cards, the builds' cards on their own line below
        # (listed among the loose ones, a card in a build could not be told from a card lying loose).
        in_builds = {c for b in obs.get("builds") or () for c in b["cards"]}
        table = [c for c in obs["table"] if c not in in_builds]
        loose = (f"{self.names(table) if table else 'no card'} loose, and the builds below" if in_builds
                 else self.names(table))
        self.say(f"table: {loose}" + (declared if wild in table else "")
                 + (f"   ({obs['face_down']} face down under them)" if obs.get("face_down") else ""))
        bid = obs.get("bid")
        if bid is not None:                   # bid: who bids, and the value once bid
            self.say(f"bid: {self.who(bid['seat'])} "
                     + (f"bid {bid['value']}" if bid["value"] is not None
                        else "to bid, on the first cards dealt (the table lies face down until then)"))
        if obs.get("builds"):                 # capture.builds: which table cards are joined, their value, owner
            self.say("builds: " + builds_words(hand.builds, self.names, self.owner))
        for s, shown in enumerate(obs["shown"]):
            if shown and s != self.me:
                self.say(f"{self.who(s)} shows {self.names(shown)}")
        points = hand.event_points()          # announced events: public, like the piles' sizes
        piles = ", ".join(f"side {s}{' (yours)' if s == obs['side'] else ''}: {n} cards, "
                          + (", ".join(f"{v} {cat}" for cat, v in sorted(points[s].items())) or "0 points")
                          for s, n in enumerate(obs["pile_sizes"]))
        self.say(f"captured: {piles}")
        self.say(f"your hand: {self.names(obs['hand'])}" + (declared if wild in obs["hand"] else ""))

    def choose_declarations(self, hand: Hand, with_card: bool) -> list[Declaration]:
        options = hand.bonus_options(self.me)
        if not options:
            return []
        choices = [[d] for d in options]
        best = best_declarations(hand, self.me)
        if len(best) > 1:
            choices.append(best)
        self.say("you can declare:")
        for i, ds in enumerate(choices, 1):
            self.say(f"  {i}) " + " and ".join(self.describe_decl(d) for d in ds))
        when = "with this play" if with_card else "now"
        pick = self.ask(f"declare {when}? number, or 0 for nothing: ", len(choices), zero=True)
        return choices[pick - 1] if pick else []

    def person_turn(self, hand: Hand):
        self.say(f"\n-- your turn (seat {self.me}) --")
        self.show_state(hand)
        decls = self.choose_declarations(hand, with_card=True) if hand.declares_with_play else []
        probe = hand
        if decls:
            probe = hand.with_declarations(self.me, decls)
        moves = probe.legal_moves()
        if hand.bid_pending:                  # bid: the values held among the cards bid on
            self.say("your bids:")
            for i, (_, value) in enumerate(moves, 1):
                self.say(f"  {i}) bid {value}")
            pick = self.ask("your bid: ", len(moves))
            return [], *moves[pick - 1]
        self.say("your moves:")
        for i, (card, capture) in enumerate(moves, 1):
            self.say(f"  {i}) {self.names([card])} {self.move_text(probe, capture)}")
        pick = self.ask("your move: ", len(moves))
        card, capture = moves[pick - 1]
        return decls, card, capture

    # -- knocks (rulesets whose bonuses are declared apart from a play) ------------------
    def knocks(self, hand: Hand) -> None:
        if hand.declares_with_play or hand.is_over:
            return
        for j in range(hand.n):
            seat = (hand.dealer + 1 + j) % hand.n
            if seat == self.me:
                key = (self.game.hands_played, hand.round)
                if key in self.asked or not hand.bonus_options(seat):
                    continue
                self.asked.add(key)
                self.show_state(hand)
                decls = self.choose_declarations(hand, with_card=False)
            else:
                decls = best_declarations(hand, seat)
            if decls:
                events = hand.declare(seat, decls)
                self.narrate_declarations(seat, decls, events)
                if hand.is_over:    # points counted as made (game.points: as_made) reached the target
                    return

    # -- narration ------------------------------------------------------------------
    def narrate_declarations(self, seat: int, decls, events) -> None:
        for d in decls:
            self.say(f"{self.who(seat)} declare{'' if seat == self.me else 's'} {self.describe_decl(d)}")

    def narrate_play(self, seat: int, card: int, capture: int, events, said: str | None = None) -> None:
        verb = "play" if seat == self.me else "plays"
        if said is not None:                  # with builds: the move in words, said before it was made
            what = ", to the table" if said == "stays on the table" else f": {said}"   # a trail, as without builds
        else:
            what = f", taking {self.names(capture)}" if capture else ", to the table"
        scored = [e for e in events if e.name not in self.rules.HAND_BONUSES]
        tail = "".join(f" — {e.name}! (+{e.points} {e.category} for side {e.side})" for e in scored)
        self.say(f"{self.who(seat)} {verb} {self.names([card])}{what}{tail}")

    def show_score(self, hand: Hand) -> None:
        from rich.table import Table

        from rulespec.cli.terminal import console
        rows = hand.score()
        table = Table(title=f"hand {self.game.hands_played} score")
        table.add_column("category")
        for s in range(self.k):
            table.add_column(f"side {s}{' (you)' if s == self.me % self.k else ''}", justify="right")
        for cat in rows[0]:
            table.add_row(cat, *[str(r[cat]) for r in rows])
        table.add_row("game total", *[str(t) for t in self.game.totals])
        console(self.out, width=80, color_system=None).print(table)

    def thrown_in_bid(self, hand: Hand, i: int, event: str) -> str:
        """The cards you held to bid on in the `i`th deal, when it was thrown in for want of a bid and you are
        the bidder (you saw them; nobody else did)."""
        bid = getattr(self.compiled.ruleset, "bid", None)
        if bid is None or event != bid.void or hand.bidder != self.me or i >= len(hand.bid_log) - 1:
            return ""
        return f"; you held {self.names(hand.bid_log[i])}"

    def deal_reason(self, event: str) -> str:
        """Why the deal check that reports `event` threw the deal in: its name and its condition in words."""
        from rulespec.lang.words import Words
        rs = self.compiled.ruleset
        bid = getattr(rs, "bid", None)
        if bid is not None and event == bid.void:
            return (f" (the first player holds no card of {', '.join(map(str, bid.values))} among its first "
                    f"{bid.after_cards} cards to bid; the same dealer deals again)")
        for check in getattr(rs, "deal_checks", None) or []:
            if check.event == event and check.result != "dealer_wins":
                again = {"redeal": "the same dealer deals again",
                         "redeal_table": "the table is dealt again, the hands kept"}.get(check.result,
                                                                                          "a misdeal, dealt again")
                return f" (deal check {check.name}: {Words(rs).condition(check.when.tree)}; {again})"
        return ""

    # -- the game ----------------------------------------------------------------------
    def play_hand(self, hand: Hand) -> None:
        rules = self.rules
        mates = [s for s in range(self.n) if s % self.k == self.me % self.k and s != self.me]
        self.say(f"\n=== hand {self.game.hands_played + 1}: dealer {self.who(hand.dealer)}; "
                 f"you are seat {self.me}, side {self.me % self.k}"
                 + (f" with {', '.join(f'seat {m}' for m in mates)}" if mates else "") + " ===")
        for i, event in enumerate(hand.dealer_events):
            self.say(f"deal: {event}{self.deal_reason(event)}{self.thrown_in_bid(hand, i, event)}")
        if hand.bid_pending:
            self.say(f"dealt to the table: {hand.table.bit_count()} cards, face down until the bid")
        elif hand.deal_log and hand.deal_log[-1] is not None:
            # The table as dealt, before anyone plays (a dealer bonus may take it at once).
            self.say(f"dealt to the table: {self.names(hand.deal_log[-1][0])}")
        dealer_bonus = [e for e in hand.events if e.play == 0]
        for e in dealer_bonus:
            self.say(f"the dealer's table scores {e.name}: +{e.points} {e.category} for side {e.side}")
        round_no = hand.round
        while not hand.is_over:
            self.knocks(hand)
            if hand.is_over:        # a knock's points, counted as made, ended the game
                break
            seat = hand.current_seat
            if seat == self.me:
                decls, card, capture = self.person_turn(hand)
            else:
                decls, card, capture = self.bots[seat].choose(hand, seat)
            bidding = hand.bid_pending
            said = self.move_text(hand, capture) if getattr(rules, "BUILDS", None) is not None and not bidding \
                else None
            try:
                events = hand.play(seat, card, capture, decls)
            except IllegalMove as err:        # a bot's mistake would be a bug; say it rather than crash
                raise RulespecError(f"{self.who(seat)}: {err.message}") from None
            if bidding:
                self.say(f"{self.who(seat)} bid{'' if seat == self.me else 's'} {capture}; the table is turned "
                         f"face up: {self.names(hand.table)}")
                continue
            if decls:
                self.narrate_declarations(seat, decls, events)
            self.narrate_play(seat, card, capture, events, said)
            if hand.round != round_no and not hand.is_over:
                round_no = hand.round
                self.say(f"-- round {round_no}: new cards dealt --")
        if hand.final_table and hand.last_capturer is not None and rules.LEFTOVERS == "last_capturer":
            self.say(f"the last cards on the table ({self.names(hand.final_table)}) go to side {hand.last_capturer}")

    def run(self) -> int:
        rules = self.rules
        self.game = game = Game(rules, self.n, seed=f"rulespec-play:{self.seed}")
        self.say(f"{self.compiled.ruleset.name} ({rules.RULESET_ID}), {self.n} players, seed {self.seed}; "
                 f"{game_length(rules)}. Type a move's number; q quits.")
        try:
            while not game.is_over and (self.max_hands is None or game.hands_played < self.max_hands):
                hand = game.new_hand()
                self.play_hand(hand)
                game.finish_hand()
                if hand.plays:
                    self.show_score(hand)
                if hand.outcome is not None:
                    self.say(f"outcome: {hand.outcome[0]} (side {', '.join(map(str, hand.outcome[1]))})")
        except Quit:
            self.say("game abandoned.")
            return 0
        if game.is_over:
            won = self.me % self.k in game.winners
            winners = " and ".join(f"side {s}" for s in game.winners)
            self.say(f"\ngame over after {_count(game.hands_played, 'hand')}: {winners} "
                     f"win{'s' if len(game.winners) == 1 else ''}; {self.totals_words(game.totals)}. "
                     + ("You win!" if won else "You lose."))
        else:
            self.say(f"\nstopped after {_count(game.hands_played, 'hand')}; {self.totals_words(game.totals)}.")
        return 0

    def totals_words(self, totals) -> str:
        """`side 0 (yours) 53 points, side 1 30 points`: the game's totals in words."""
        mine = self.me % self.k
        return ", ".join(f"side {s}{' (yours)' if s == mine else ''} {_count(t, 'point')}"
                         for s, t in enumerate(totals))


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def register(sub) -> None:
    pl = sub.add_parser("play", help="play in the terminal against bots")
    pl.add_argument("ruleset", help="a shipped id (see rulespec list) or a path to a .yaml file")
    pl.add_argument("--seat", type=int, default=0, help="your seat (default 0)")
    pl.add_argument("--seed", type=int, help="the game's seed (default: a random one, printed)")
    pl.add_argument("--seats", type=int, help="the number of players (default: the ruleset's)")
    pl.add_argument("--bots", default="greedy", metavar="BOT[,BOT...]",
                    help="the bots of the other seats (random, greedy, ismcts[:BUDGET], or policy:FILE, a "
                         "trained agent's .json or .npz file): one for all, one per side, one per other seat in "
                         "seat order, or one per seat (yours then ignored); default greedy")
    pl.add_argument("--hands", type=int, help="stop after this many hands (default: play the game out)")
    add_option_argument(pl)
    pl.set_defaults(func=run)


def run(args, out, err, inp=None) -> int:
    """`rulespec play RULESET`: build the game from the command line and run it."""
    compiled = compile_named(args.ruleset, args.option)
    inp = inp if inp is not None else sys.stdin
    return TerminalGame(compiled, seat=args.seat, seed=args.seed, seats=args.seats, bots=args.bots,
                        hands=args.hands, inp=inp, out=out).run()
