"""Standard Cirulla written by hand, without rulespec: the benchmark's baseline.

This is the engine a competent developer would write for the base rules of
shared/rules/cirulla.md instead of using rulespec: plain lists of card
numbers, one class, no code generation. It plays 2, 3 or 4 players (4 in
two teams) with every base rule: deal one card at a time (3 each, then 4 to
the table; 3 more each while stock remains), redeal on two or more aces on
the table, the dealer's 15/30 with the 7H wild, captures by match, sum,
fifteen and ace sweep with free choice among them and forced capture, scopa
except on the hand's last card, leftovers to the last capturer, hand bonuses
(barsega, decino, with the matta declared as a rank) and every scoring
category. It imports nothing from rulespec (bench/README.md, tests/
test_baseline_agrees.py checks that both engines play the same game).

Cards are numbers 0..39: suit * 10 + rank, suits H D C S, ranks A 2 3 4 5 6 7 J Q K.
"""
from __future__ import annotations

import random

RANKS = ["A", "2", "3", "4", "5", "6", "7", "J", "Q", "K"]
SUITS = ["H", "D", "C", "S"]
NAMES = [r + s for s in SUITS for r in RANKS]
MATTA = NAMES.index("7H")
SETTEBELLO = NAMES.index("7D")
DIAMONDS = set(range(10, 20))
GRANDE = {NAMES.index(n) for n in ("JD", "QD", "KD")}
PICCOLA = [NAMES.index(n) for n in ("AD", "2D", "3D", "4D", "5D", "6D")]
PRIMIERA = [16, 12, 13, 14, 15, 18, 21, 10, 10, 10]     # by rank: A 2 3 4 5 6 7 J Q K
CATEGORIES = ["scope", "carte", "denari", "settebello", "primiera", "grande", "piccola"]
BONUS_POINTS = {"barsega": 3, "decino": 10}


class IllegalPlay(Exception):
    """A play the rules refuse."""


def card_value(card: int) -> int:
    return card % 10 + 1


def fixed_total(cards, target: int) -> bool:
    """Whether the cards total `target`, the matta counting as any value 1..10."""
    if MATTA in cards:
        rest = sum(card_value(c) for c in cards if c != MATTA)
        return 1 <= target - rest <= 10
    return sum(card_value(c) for c in cards) == target


def subsets_totalling(cards: list[int], values: list[int], targets: set[int]) -> list[tuple[int, ...]]:
    """Every non-empty subset of `cards` whose values total one of `targets`."""
    out = []
    top = max(targets)
    n = len(cards)

    def walk(i: int, chosen: list[int], total: int) -> None:
        if i == n:
            if chosen and total in targets:
                out.append(tuple(chosen))
            return
        if total + values[i] <= top:
            chosen.append(cards[i])
            walk(i + 1, chosen, total + values[i])
            chosen.pop()
        walk(i + 1, chosen, total)

    walk(0, [], 0)
    return out


class CirullaHand:
    """One hand of Cirulla: deal, plays, score."""

    def __init__(self, order: list[int], dealer: int = 0, players: int = 4, rng: random.Random | None = None):
        self.players = players
        self.sides = 2 if players == 4 else players
        self.dealer = dealer
        self.rng = rng                     # reshuffles after a redeal
        self.order = list(order)
        self.pos = 0
        self.hands: list[list[int]] = [[] for _ in range(players)]
        self.table: list[int] = []
        self.piles: list[list[int]] = [[] for _ in range(self.sides)]
        self.scope = [0] * self.sides
        self.events: list[tuple[int | None, str]] = []   # (seat or None for the dealer's bonus, name)
        self.dealer_events: list[str] = []
        self.last_capturer: int | None = None
        self.matta_rank: int | None = None  # the rank the matta was declared as, until captured
        self.first_turn = [True] * players
        self.turn = (dealer + 1) % players
        self.over = False
        self.winner: int | None = None     # a side that won the game at once (cappotto)
        self._deal_first_round()

    # -- dealing -------------------------------------------------------------
    def _deal_players(self) -> None:
        first = (self.dealer + 1) % self.players
        for _ in range(3):
            for j in range(self.players):
                self.hands[(first + j) % self.players].append(self.order[self.pos])
                self.pos += 1
        self.first_turn = [True] * self.players

    def _deal_first_round(self) -> None:
        while True:
            self._deal_players()
            self.table = self.order[self.pos:self.pos + 4]
            self.pos += 4
            if sum(1 for c in self.table if c % 10 == 0) < 2:
                break
            self.dealer_events.append("redeal")
            if self.rng is None:
                raise ValueError("two aces on the table: a redeal needs an rng")
            self.order = list(range(40))
            self.rng.shuffle(self.order)
            self.pos = 0
            self.hands = [[] for _ in range(self.players)]
        for target, scope, name in ((15, 1, "dealer_15"), (30, 2, "dealer_30")):
            if fixed_total(self.table, target):
                side = self.dealer % self.sides
                self.piles[side] += self.table
                self.table = []
                self.scope[side] += scope
                self.last_capturer = side
                self.dealer_events.append(name)
                self.events.append((None, name))
                break

    # -- values in play --------------------------------------------------------
    def value(self, card: int) -> int:
        if card == MATTA and self.matta_rank is not None:
            return self.matta_rank + 1
        return card % 10 + 1

    def is_ace(self, card: int) -> bool:
        return self.value(card) == 1

    # -- moves -----------------------------------------------------------------
    def captures(self, card: int) -> list[tuple[int, ...]]:
        """The capture sets `card` has against the table (each a tuple of table cards)."""
        table = self.table
        if not table:
            return []
        if self.is_ace(card) and not any(self.is_ace(c) for c in table):
            return [tuple(table)]
        v = self.value(card)
        # match and sum: cards totalling v; fifteen: cards totalling 15 - v (v >= 1, so never both)
        return subsets_totalling(table, [self.value(c) for c in table], {v, 15 - v})

    def legal_moves(self) -> list[tuple[int, tuple[int, ...]]]:
        """(card, captured cards) pairs the player to move may play; () captures nothing."""
        if self.over:
            return []
        moves = []
        for card in self.hands[self.turn]:
            caps = self.captures(card)
            if caps:
                moves += [(card, cap) for cap in caps]
            else:
                moves.append((card, ()))
        return moves

    def _check_bonus(self, seat: int, bonus: str, cards: list[int], matta_rank: int | None) -> None:
        if len(cards) != 3 or len(set(cards)) != 3 or any(c not in self.hands[seat] for c in cards):
            raise IllegalPlay(f"{bonus}: three cards of the player's hand are declared")
        if matta_rank is not None and MATTA not in cards:
            raise IllegalPlay(f"{bonus}: a rank is named for the matta, but it is not declared")
        values = [matta_rank + 1 if c == MATTA and matta_rank is not None else card_value(c) for c in cards]
        if bonus == "decino":
            if len(set(values)) != 1:
                raise IllegalPlay("decino: three cards of one value")
        elif bonus == "barsega":
            if sum(values) > 9:
                raise IllegalPlay("barsega: the three cards total 9 or less")
            plain = [card_value(c) for c in cards if c != MATTA]
            if len(set(plain)) == 1:       # the cards can make a decino (the matta as that value)
                raise IllegalPlay("barsega: these cards make a decino")
        else:
            raise IllegalPlay(f"unknown bonus {bonus}")

    def play(self, card: int, capture=(), declarations=()) -> list[str]:
        """The player to move plays `card` taking `capture`; `declarations` are (bonus, cards, matta rank)."""
        seat = self.turn
        if self.over:
            raise IllegalPlay("the hand is over")
        if card not in self.hands[seat]:
            raise IllegalPlay("the card is not in the player's hand")
        saved = (list(self.scope), self.matta_rank)
        try:
            return self._play(seat, card, tuple(capture), declarations)
        except IllegalPlay:
            self.scope, self.matta_rank = saved
            raise

    def _play(self, seat: int, card: int, capture: tuple, declarations) -> list[str]:
        side = seat % self.sides
        names = []
        if declarations:
            if not self.first_turn[seat]:
                raise IllegalPlay("hand bonuses are declared at one's first turn with the hand")
            used = set()
            for bonus, cards, matta_rank in declarations:
                self._check_bonus(seat, bonus, list(cards), matta_rank)
                if used & set(cards):
                    raise IllegalPlay("a card belongs to one declaration")
                used |= set(cards)
            for bonus, cards, matta_rank in declarations:
                self.scope[side] += BONUS_POINTS[bonus]
                if matta_rank is not None:
                    self.matta_rank = matta_rank
                names.append(bonus)
        options = self.captures(card)
        if options and capture not in options and set(capture) not in [set(o) for o in options]:
            raise IllegalPlay("not a capture this card can make")
        if not options and capture:
            raise IllegalPlay("this card captures nothing")
        self.first_turn[seat] = False
        self.hands[seat].remove(card)
        last_card = self.pos == 40 and not any(self.hands)
        if capture:
            for c in capture:
                self.table.remove(c)
            self.piles[side] += capture
            self.piles[side].append(card)
            self.last_capturer = side
            if MATTA == card or MATTA in capture:
                self.matta_rank = None
            if not self.table and not last_card:
                self.scope[side] += 1
                names.append("scopa")
        else:
            self.table.append(card)
        self.events += [(seat, n) for n in names]
        self.turn = (seat + 1) % self.players
        if not any(self.hands):
            if self.pos < 40:
                self._deal_players()
            else:
                self._finish()
        return names

    def _finish(self) -> None:
        if self.table and self.last_capturer is not None:
            self.piles[self.last_capturer] += self.table
            self.table = []
        self.matta_rank = None
        self.over = True
        for side, pile in enumerate(self.piles):
            if len(DIAMONDS.intersection(pile)) == 10:
                self.winner = side

    # -- score -----------------------------------------------------------------
    def score(self) -> list[dict[str, int]]:
        """Per side: the points of every category and the total."""
        def strictly_most(values, side):
            return all(values[side] > v for s, v in enumerate(values) if s != side)

        counts = [len(p) for p in self.piles]
        denari = [len(DIAMONDS.intersection(p)) for p in self.piles]
        primiera = []
        for pile in self.piles:
            best = [0] * 4
            for c in pile:
                best[c // 10] = max(best[c // 10], PRIMIERA[c % 10])
            primiera.append(sum(best) if all(best) else 0)
        rows = []
        for side, pile in enumerate(self.piles):
            held = set(pile)
            piccola = 0
            if all(c in held for c in PICCOLA[:3]):
                for c in PICCOLA:
                    if c not in held:
                        break
                    piccola += 1
            row = {
                "scope": self.scope[side],
                "carte": int(strictly_most(counts, side)),
                "denari": int(strictly_most(denari, side)),
                "settebello": int(SETTEBELLO in held),
                "primiera": int(strictly_most(primiera, side)),
                "grande": 5 if GRANDE <= held else 0,
                "piccola": piccola,
            }
            row["total"] = sum(row.values())
            rows.append(row)
        return rows


def random_hand(rng: random.Random, dealer: int = 0, players: int = 4) -> CirullaHand:
    """A hand dealt from a deck shuffled by `rng` (which also reshuffles after a redeal)."""
    order = list(range(40))
    rng.shuffle(order)
    return CirullaHand(order, dealer, players, rng)


def random_playout(rng: random.Random, dealer: int = 0, players: int = 4) -> list[dict[str, int]]:
    """Deal and play one hand with uniformly random legal moves (no declarations); its score."""
    hand = random_hand(rng, dealer, players)
    while not hand.over:
        moves = hand.legal_moves()
        card, capture = moves[rng.randrange(len(moves))]
        hand.play(card, capture)
    return hand.score()


if __name__ == "__main__":
    print(random_playout(random.Random(1)))
