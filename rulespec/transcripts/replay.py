"""Replay golden transcripts through the compiled engine and report every difference.

A transcript (shared/spec/transcripts.md) is read, its ruleset compiled with
its options, the deal laid out exactly as written, and each play applied in
order. Every expectation is compared; a failure names the file, the play
number, the seat, the card, what was expected and what happened.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from rulespec.compiler.build import compile_ruleset
from rulespec.errors import RulespecError, Span, collect, did_you_mean
from rulespec.source.validate import MAX_ERRORS
from rulespec.source.rulesets import is_path_ref, locate
from rulespec.run.engine import (
    DealSource,
    Declaration,
    ExplicitRound,
    GameState,
    Hand,
    IllegalMove,
    game_winners,
)
from rulespec.run.bid import BID_MOVE
from rulespec.run.builds import build_move, split_move
from rulespec.transcripts.transcript import read_transcript, resolve_ruleset_ref


@dataclass
class ReplayResult:
    """The outcome of replaying one transcript."""

    path: Path
    ok: bool
    plays: int = 0
    failures: list[str] = field(default_factory=list)
    stopped_at_error: bool = False

    def summary(self) -> str:
        if self.ok:
            extra = ", stopped at the expected refusal" if self.stopped_at_error else ""
            return f"ok   {self.path} ({self.plays} plays{extra})"
        return f"FAIL {self.path}\n" + "\n".join(f"  {m}" for m in self.failures)


def _ms(names) -> str:
    return "[" + ", ".join(names) + "]"


class _Replayer:
    def __init__(self, path: Path, root: str | Path | None = None):
        self.path = path
        locate(path, root=root, transcript=True)     # a regular .yaml/.yml/.json file (under root)
        self.t = read_transcript(path)
        t = self.t
        ref = resolve_ruleset_ref(t)
        if not is_path_ref(t.ruleset):
            # A shipped id stays an id: --root confines the files a stranger names, never the shipped
            # rulesets (as for extends:); the shipped file's path would be refused as outside the root.
            ref = t.ruleset
        self.compiled = compile_ruleset(ref, t.options, span=t.ruleset_span,
                                        options_span=getattr(t, "options_span", None) or t.ruleset_span,
                                        root=root)
        self.rules = self.compiled.module
        self.deck = self.compiled.ruleset.deck
        self.failures: list[str] = []

    # -- reading cards ---------------------------------------------------------
    def card(self, ref) -> int:
        return self.deck.card(ref.name, ref.span)

    def mask(self, refs, what: str) -> int:
        m = 0
        for ref in refs:
            c = self.card(ref)
            if m >> c & 1:
                raise RulespecError(f"card {ref.name} is listed twice in {what}", ref.span)
            m |= 1 << c
        return m

    def table_masks(self, e) -> tuple[int, list[int]]:
        """expect.table read as (its loose cards, each build's cards): a card is on the table once, so a card
        written twice anywhere in it (loose and in a build, or in two builds) is refused, named where it is
        written the second time, as within one list."""
        loose = self.mask(e.table or [], "expect.table")
        first = {self.card(ref): ("loose", ref.span) for ref in e.table or []}
        builds = []
        for tb in e.table_builds:
            cards = self.mask(tb.cards, "a build of expect.table")
            for ref in tb.cards:
                c = self.card(ref)
                if c in first:
                    how, span = first[c]
                    line = f" at line {span.line}" if span is not None else ""
                    raise RulespecError(f"card {ref.name} is listed twice in expect.table: in this build, and "
                                        f"{how}{line}", ref.span)
                first[c] = ("in another build", tb.span)
            builds.append(cards)
        return loose, builds

    def move(self, play) -> int:
        """The move's mask of a play with a card: its capture, or its build (capture.builds: the table cards
        joined, with the value; run/builds.build_move)."""
        if play.build is None:
            return self.mask(play.capture or [], "the capture")
        if getattr(self.rules, "BUILDS", None) is None:
            raise RulespecError(f"{self.where(play)} makes a build, but {self.rules.RULESET_ID} has no builds "
                                f"(capture.builds)", play.build_span or play.span)
        return build_move(self.mask(play.build, "the build"), play.value, self.rules.N_CARDS)

    def card_move(self, play) -> tuple[int | None, int]:
        """(card, move mask) of a play: a bid is (BID_MOVE, the value bid) (run/bid.py); a knock (None, 0)."""
        if play.bid is not None:
            if getattr(self.rules, "BID", None) is None:
                raise RulespecError(f"{self.where(play)} is a bid, but {self.rules.RULESET_ID} has no bid (bid:)",
                                    play.bid_span or play.span)
            return BID_MOVE, play.bid
        if play.card is None:
            return None, 0
        return self.card(play.card), self.move(play)

    def names(self, mask: int) -> list[str]:
        return sorted(self.rules.card_names(mask).split()) if mask else []

    # -- setting up ------------------------------------------------------------
    def new_hand(self) -> Hand:
        t = self.t
        rules = self.rules
        seats = t.seats
        if seats is None:
            # Unstated: the seats the first dealt round names, else the ruleset's default.
            named = len(t.deal[0].hands) if t.deal and t.deal[0].hands else 0
            seats = named if named in rules.SEATS_ALLOWED else rules.DEFAULT_SEATS
        if seats not in rules.SEATS_ALLOWED:
            raise RulespecError(f"{rules.RULESET_ID} is played by {', '.join(map(str, rules.SEATS_ALLOWED))} "
                                f"players, not {seats}", getattr(t, "seats_span", None) or t.ruleset_span)
        if not 0 <= t.dealer < seats:
            raise RulespecError(f"dealer must be a seat from 0 to {seats - 1}, found {t.dealer}",
                                getattr(t, "dealer_span", None) or t.ruleset_span)
        if t.deck is not None:
            order = [self.card(r) for r in t.deck]
            seen = {}
            for ref, c in zip(t.deck, order):
                if c in seen:
                    raise RulespecError(f"card {ref.name} appears twice in the deck order", ref.span)
                seen[c] = ref
            if len(order) != rules.N_CARDS:
                missing = [n for i, n in enumerate(rules.CARD_NAMES[:rules.N_CARDS]) if i not in seen]
                span = getattr(t, "deck_span", None) or t.ruleset_span
                raise RulespecError(f"the deck order has {len(order)} cards, the deck {self.deck.id} has "
                                    f"{rules.N_CARDS}; missing: {' '.join(missing)}", span)
            source = DealSource(order=order)
        else:
            rounds = []
            for r in t.deal:
                table = [self.card(c) for c in r.table] if r.table is not None else None
                hands = {int(seat): [self.card(c) for c in cards] for seat, cards in r.hands.items()}
                spans = {}                       # where each card is written: an error about one card points at it
                for seat, refs in [(None, r.table or ())] + [(int(s), cards) for s, cards in r.hands.items()]:
                    for ref in refs:
                        if getattr(ref, "span", None) is not None:
                            spans[seat, self.card(ref)] = ref.span
                rounds.append(ExplicitRound(table, hands, r.redeal, r.span, spans))
            source = DealSource(rounds=rounds)
        return Hand(rules, seats, t.dealer, source, self.game_state(seats))

    def game_state(self, seats: int) -> GameState:
        """The transcript's `game:` (the totals before the hand, the points carried into it), checked against
        the ruleset: a total for every side or none, carried points only in a category that carries."""
        t, rules = self.t, self.rules
        k = rules.SIDES[seats]
        totals = ()
        if t.game_totals is not None:
            if sorted(t.game_totals) != list(range(k)):
                raise RulespecError(f"game.totals gives sides {sorted(t.game_totals)}; {rules.RULESET_ID} with "
                                    f"{seats} players has sides 0 to {k - 1}: give each its total",
                                    t.game_totals_span or t.game_span)
            totals = tuple(t.game_totals[s] for s in range(k))
        for category in t.game_carried:
            if category not in rules.CARRY:
                carries = ", ".join(rules.CARRY) or "none"
                at = t.game_carried_spans.get(category) or t.game_span
                if category not in rules.CATEGORIES:
                    raise RulespecError(f"game.carried: '{category}' is not a category of {rules.RULESET_ID}"
                                        f"{did_you_mean(category, rules.CATEGORIES)}", at)
                raise RulespecError(f"game.carried: category '{category}' carries no points in {rules.RULESET_ID} "
                                    f"(categories with carry: {carries})", at)
        return GameState(totals, tuple(sorted(t.game_carried.items())))

    def declarations(self, hand: Hand, play) -> list[Declaration]:
        out = []
        for d in play.declare:
            wild_rank = None
            if d.matta is not None:
                rank = str(d.matta)
                wild_rank = self.deck.rank_index(rank)
                if wild_rank is None:
                    raise RulespecError(f"unknown rank '{rank}' for the wild card (ranks: "
                                        f"{' '.join(self.deck.ranks)})", d.span)
            if d.cards is not None:
                cards = self.mask(d.cards, "the declared cards")
            else:
                # Without `cards:` the declaration is made with the whole hand (the usual three);
                # the engine judges the timing first, then whether those cards make the bonus.
                cards = hand.hands[play.seat] & ~hand.shown[play.seat]
            out.append(Declaration(d.bonus, cards, wild_rank))
        return out

    # -- the run ---------------------------------------------------------------
    def fail(self, span: Span | None, text: str) -> None:
        self.failures.append(f"{span}: {text}" if span else f"{self.path}: {text}")

    def dealt_hand(self) -> Hand:
        """The hand as the transcript deals it, every listed round checked; a located RulespecError if not."""
        t = self.t
        try:
            hand = self.new_hand()
        except IllegalMove as err:
            raise RulespecError(err.message, t.ruleset_span) from None
        except RulespecError as err:
            if err.span is not None:
                raise
            # The engine ran out of the deal the transcript gives before any play: that deal is the place.
            raise RulespecError(err.message, t.deal_span or t.deck_span or t.ruleset_span) from None
        self.check_rounds_to_come(hand)
        self.check_owner_seats(hand.n)
        return hand

    def check_owner_seats(self, n: int) -> None:
        """An `owner:` of expect.table is a seat of this hand: where the transcript leaves `seats` out, the
        reader could not check it (transcript.py does where `seats` is given)."""
        e = self.t.expect
        for tb in (e.table_builds if e is not None else ()):
            for seat in tb.owner or ():
                if seat >= n:
                    raise RulespecError(f"seat {seat} is out of range: this hand has {n} seats (0 to {n - 1})",
                                        tb.owner_span or tb.span)

    def check_cards(self) -> None:
        """Every card and name the transcript writes read against its ruleset, without playing (notation.md:
        an unknown symbol, a card not in the deck, a card used twice are refused wherever they are read;
        an event, bonus, category or outcome the ruleset does not have, likewise), and enough deal rounds
        listed for the plays. Every problem found, in file order."""
        errors: list[RulespecError] = []

        def read(check, *args) -> None:
            try:
                check(*args)
            except RulespecError as err:
                errors.append(err)
        try:
            hand = self.dealt_hand()
        except RulespecError as err:
            errors.append(err)
            hand = None
        for play in self.t.plays:
            if play.card is not None:
                read(self.card, play.card)
            read(self.mask, play.capture or [], "the capture")
            read(self.mask, play.build or [], "the build")
            for option in play.legal or []:
                read(self.mask, option, "a legal capture set")
            for d in play.declare:
                read(self.mask, d.cards or [], "the declared cards")
        if self.t.expect is not None and self.t.expect.table is not None:
            read(self.table_masks, self.t.expect)
        errors += self.unknown_names()
        from rulespec.transcripts.names import check_constructs
        errors += check_constructs(self.t, self.compiled.ruleset)
        if hand is not None and not errors:
            read(self.check_rounds_suffice, hand)
        collect(sorted(errors, key=lambda e: (e.span.line, e.span.column) if e.span else (0, 0))[:MAX_ERRORS])

    def unknown_names(self) -> list[RulespecError]:
        """The events, bonuses, categories and outcomes the transcript writes that its ruleset lacks."""
        from rulespec.transcripts.names import check_names
        return check_names(self.t, self.compiled.ruleset)

    def check_rounds_suffice(self, hand: Hand) -> None:
        """The plays fit in the cards the listed rounds deal: a play past them needs a round the transcript
        does not list (replay would stop there). Plays after an expected refusal are never made."""
        src = hand.source
        if src.rounds is None or hand.is_over:
            return
        dealt = sum(h.bit_count() for h in hand.hands)
        dealt += sum(len(cards) for r in src.rounds[src.round_no:] for cards in r.hands.values())
        card_plays = 0
        for play in self.t.plays:
            if play.error is not None:
                return
            if play.card is None:
                continue
            card_plays += 1
            if card_plays > dealt:
                needed = hand.round + len(src.rounds) - src.round_no + 1
                if needed <= len(hand.schedule):
                    raise self.missing_round(play, needed)
                return

    def missing_round(self, play, needed: int) -> RulespecError:
        """The play that needs a deal round the transcript does not list, located at that play."""
        listed = len(self.t.deal or ())
        return RulespecError(f"{self.where(play)} needs round {needed}, which the transcript's deal does not "
                             f"list (it lists {listed} round{'s' * (listed != 1)})", play.span)

    def run(self) -> ReplayResult:
        t = self.t
        hand = self.dealt_hand()
        # A name the ruleset lacks is a difference found before playing, said with the nearest name the
        # ruleset has (played, it would be "expected [scopaa], got [scopa]" at best).
        for err in self.unknown_names()[:MAX_ERRORS]:
            self.fail(err.span, err.message)
        result = ReplayResult(self.path, True)
        if hand.is_over and t.plays:
            self.fail(t.plays[0].span, f"the deal ended the game ({hand.outcome[0]}), so there can be no plays")
        for play in t.plays:
            if self.failures:
                break
            result.plays += 1
            stop = self.play(hand, play)
            if stop:
                result.stopped_at_error = True
                break
        if not self.failures and t.expect is not None and not result.stopped_at_error:
            self.expect(hand, t.expect)
        result.failures = self.failures
        result.ok = not self.failures
        return result

    def check_rounds_to_come(self, hand: Hand) -> None:
        """Every listed round the first deal has not laid, laid now on a copy: well formed before any play.

        The engine lays a written round when play reaches it, so a round that play never reaches would
        otherwise go unread: a card dealt twice or a wrong count there must be refused all the same
        (notation.md: anything that reads cards rejects a card used twice).
        """
        src = hand.source
        if src.rounds is None or src.round_no >= len(src.rounds):
            return
        extra = src.rounds[src.round_no]
        if hand.outcome is not None:
            raise RulespecError(f"the deal ended the game ({hand.outcome[0]}), so the transcript's deal stops "
                                f"there; round {hand.round + 1} is one too many", extra.span)
        probe = hand.clone()
        while probe.source.round_no < len(src.rounds):
            given = src.rounds[probe.source.round_no]
            if probe.round >= len(probe.schedule):
                raise RulespecError(f"the transcript's deal lists round {probe.round + 1}, but "
                                    f"{self.rules.RULESET_ID} with {hand.n} players deals {len(probe.schedule)} "
                                    f"round{'s' * (len(probe.schedule) != 1)}", given.span)
            if given.redeal:
                raise RulespecError(f"round {probe.round + 1} is marked redeal: true, but only a deal's first "
                                    f"round can be thrown in", given.span)
            probe._lay_round()

    def where(self, play) -> str:
        card = play.card.name if play.card is not None else f"bid {play.bid}" if play.bid is not None else "knock"
        return f"play {play.number} (seat {play.seat}, {card})"

    def play(self, hand: Hand, play) -> bool:
        """Apply one play; True when replay stops here (an expected refusal)."""
        where = self.where(play)
        if hand.round_pending and play.card is not None and hand.source.round_no >= len(hand.source.rounds):
            raise self.missing_round(play, hand.round + 1)
        card, capture = self.card_move(play)
        try:
            if not (isinstance(play.seat, int) and 0 <= play.seat < hand.n):
                raise IllegalMove(f"there is no seat {play.seat}: this hand's seats are 0 to {hand.n - 1}")
            decls = self.declarations(hand, play)
            if play.legal is not None and play.card is not None:
                self.check_legal(hand, play, decls, card, where)
            if card is None:
                events = hand.declare(play.seat, decls)
            else:
                events = hand.play(play.seat, card, capture, decls)
        except IllegalMove as err:
            if play.error is not None:
                self.refusal = err.message          # the engine's reason, for whoever watches (trace.py)
                return True
            self.fail(play.span, f"{where}: refused: {err.message}")
            return False
        except RulespecError as err:
            if err.span is not None:
                raise
            # The engine ran out of the deal the transcript gives (a round not listed): that deal is the place.
            raise RulespecError(f"{where}: {err.message}", self.t.deal_span or self.t.deck_span or play.span) from None
        if play.error is not None:
            self.fail(play.error_span or play.span,
                      f"{where}: expected a refusal ({play.error}), but the engine accepted the play")
            return False
        if play.events is not None:
            got = [e.name for e in events]
            if Counter(got) != Counter(play.events):
                self.fail(play.events_span or play.span, f"{where}: expected events {_ms(play.events)}, got {_ms(got)}")
        return False

    def expect_builds(self, hand: Hand, e) -> None:
        """expect.table with capture.builds: its cards are the loose cards, its objects the builds (each with
        its value, and its owner and fixed flag where given), compared exactly."""
        at = e.table_span or e.span
        if getattr(self.rules, "BUILDS", None) is None:
            self.fail(e.table_builds[0].span or at, f"expect.table shows a build, but {self.rules.RULESET_ID} has "
                                                    f"no builds (capture.builds)")
            return
        over = hand.is_over
        builds = [] if over else hand.builds
        built = 0
        for b in builds:
            built |= b.cards
        loose = (hand.final_table if over else hand.table) & ~built
        want, build_masks = self.table_masks(e)
        if want != loose:
            self.fail(at, f"expect.table: expected loose cards {_ms(self.names(want))}, got {_ms(self.names(loose))}")
        unmatched = list(builds)
        for tb, cards in zip(e.table_builds, build_masks):
            found = next((b for b in unmatched if b.cards == cards), None)
            if found is not None:
                unmatched.remove(found)     # the build of these cards: a difference below is said once, here
            if found is None or found.value != tb.value or (tb.owner is not None and tb.owner != tuple(sorted(found.owners))) \
                    or (tb.fixed is not None and tb.fixed != found.fixed):
                got = ("; the table has " + _build_words(None, self.names(found.cards), found.value, found.owners,
                                                            found.fixed)) if found is not None else \
                    " (no build of these cards is on the table)"
                self.fail(tb.span or at, f"expect.table: expected {_build_words(None, self.names(cards), tb.value, tb.owner, tb.fixed)}{got}")
        for b in unmatched:
            self.fail(at, f"expect.table: the table also holds {_build_words(None, self.names(b.cards), b.value, b.owners, b.fixed)}")

    def check_legal(self, hand: Hand, play, decls, card: int, where: str) -> None:
        probe = hand.clone()
        if decls:
            probe._apply_declarations(play.seat, decls, with_card=True)
        expected = set()
        for option in play.legal:
            # A pile's face-down cards go with it: a set may name them or not (Hand's moves do not).
            expected.add(self.mask(option, "a legal capture set") & ~hand.face_down)
        # `legal` lists captures; builds are not among them (plain_options: found without listing the builds)
        got = set(probe.plain_options(card)) if probe.hands[play.seat] >> card & 1 else set()
        if got != expected:
            fmt = lambda ms: ", ".join(_ms(self.names(m)) for m in sorted(ms, key=lambda m: self.names(m)))
            self.fail(play.legal_span or play.span, f"{where}: expected legal captures {{{fmt(expected)}}}, got {{{fmt(got)}}}")

    def expect(self, hand: Hand, e) -> None:
        span = e.span
        at = lambda specific: specific or span  # noqa: E731 - the expectation's own line when known
        if e.dealer_events is not None:
            if Counter(e.dealer_events) != Counter(hand.dealer_events):
                self.fail(at(e.dealer_events_span), f"expect.dealer_events: expected {_ms(e.dealer_events)}, got "
                                f"{_ms(hand.dealer_events)}")
        if e.table is not None and (e.table_builds or getattr(self.rules, "BUILDS", None) is not None):
            self.expect_builds(hand, e)
        elif e.table is not None:
            want = self.mask(e.table, "expect.table")
            got = hand.final_table if hand.is_over else hand.table
            if want != got:
                self.fail(at(e.table_span), f"expect.table: expected {_ms(self.names(want))}, got {_ms(self.names(got))}")
        if e.events is not None:
            with_dealer = hand.events_by_side(include_dealer=True)
            without = hand.events_by_side(include_dealer=False)
            for side, names in sorted(e.events.items()):
                if side not in with_dealer:
                    self.fail(at(e.events_span), f"expect.events: there is no side {side} (sides: 0..{hand.k - 1})")
                    continue
                # The dealer's bonus events may be listed under the dealer's side or left to dealer_events.
                if Counter(names) not in (Counter(with_dealer[side]), Counter(without[side])):
                    self.fail(at(e.event_spans.get(side) or e.events_span), f"expect.events: side {side}: expected {_ms(sorted(names))}, got "
                                    f"{_ms(sorted(with_dealer[side]))}")
        ended_at_deal = hand.is_over and hand.plays == 0 and hand.outcome is not None and not hand.cut_short
        if e.score is not None:
            if ended_at_deal:
                # transcripts.md: where a deal ends the game, `expect` gives outcome and winner but no score
                self.fail(at(e.score_span), f"expect.score: the deal ended the game ({hand.outcome[0]}), so the hand "
                                            f"has no score; expect its outcome and winner instead")
            elif not hand.is_over:
                left = sum(h.bit_count() for h in hand.hands)
                self.fail(at(e.score_span), f"expect.score: the hand is not complete ({left} cards in hand still to play"
                                f"{', and deal rounds to come' if not hand._stock_empty() else ''})")
            else:
                rows = hand.score()
                for side, cats in sorted(e.score.items()):
                    if not 0 <= side < len(rows):
                        self.fail(at(e.score_span), f"expect.score: there is no side {side} (sides: 0..{len(rows) - 1})")
                        continue
                    values, keys = e.score_spans.get(side, {}), e.score_key_spans.get(side, {})
                    for cat, want in cats.items():
                        if cat not in rows[side]:
                            self.fail(at(keys.get(cat) or e.score_span), f"expect.score: unknown category '{cat}' "
                                      f"(categories: {', '.join(rows[side])})")
                        elif rows[side][cat] != want:
                            self.fail(at(values.get(cat) or e.score_span), f"expect.score: side {side} {cat}: "
                                      f"expected {want}, got {rows[side][cat]}")
        if e.outcome is not None:
            got = hand.outcome[0] if hand.outcome else None
            if got != e.outcome:
                self.fail(at(e.outcome_span), f"expect.outcome: expected {e.outcome}, got {got or 'none'}")
        if e.winner is not None:
            if hand.outcome is not None:
                got = sorted(hand.outcome[1])
                why = f" (the outcome {hand.outcome[0]})"
            elif hand.is_over and not ended_at_deal:
                got, why = self._hand_winner(hand, sorted(e.winner))
            else:
                got, why = None, ""
            if got is None:
                self.fail(at(e.winner_span), "expect.winner: the hand is not complete and no outcome ended the game")
            elif sorted(e.winner) != got:
                self.fail(at(e.winner_span), f"expect.winner: expected {sorted(e.winner)}, got {got}{why}")

    @staticmethod
    def _hand_winner(hand: Hand, want: list[int]) -> tuple[list[int], str]:
        """`winner` of a complete hand no outcome ended (docs/resolutions.md): the game's winners where the
        hand ends the game (the game's totals before it, `game.totals` or 0 each, plus the hand's reach the
        target or a lead); where the game goes on, the hand's leaders (the highest total, every side tied at
        it), or [] for "nobody has won the game yet" (both readings are accepted: `want` says which); with the
        words that say which reading the answer is."""
        hand_totals = [row["total"] for row in hand.score()]
        after = [b + t for b, t in zip(hand.before, hand_totals)]
        shown = ", ".join(f"side {s} {t}" for s, t in enumerate(after))
        won = game_winners(hand.rules, after)
        if won is not None:
            return won, f" (the game's winner: its totals after this hand are {shown})"
        if want == []:
            return [], f" (the game goes on: its totals after this hand are {shown})"
        leaders = [s for s, v in enumerate(hand_totals) if v == max(hand_totals)]
        return leaders, (f" (the highest total of the hand; the game goes on, its totals after this hand "
                         f"{shown}: [] says nobody has won it yet)")


def _build_words(names, cards: list[str], value: int, owners, fixed) -> str:
    """A build in words for expect.table's messages; `owners` a tuple of seats (or None: not said)."""
    said = f"build of {value} [{', '.join(cards)}]"
    if owners is not None:
        said += (f" owned by seat {owners[0]}" if len(owners) == 1
                 else " owned by seats " + " and ".join(map(str, sorted(owners))))
    if fixed is not None:
        said += ", fixed" if fixed else ", not fixed"
    return said


def check_transcript_cards(path: str | Path, root: str | Path | None = None) -> None:
    """Check a transcript's cards and deal against its ruleset without replaying its plays (validate);
    raises a located RulespecError at the first problem."""
    _Replayer(Path(path), root).check_cards()


def replay(path: str | Path, root: str | Path | None = None) -> ReplayResult:
    """Replay one transcript; raises RulespecError when the file itself is invalid. With `root`, the
    transcript and every ruleset file it leads to must lie under that folder."""
    return _Replayer(Path(path), root).run()
