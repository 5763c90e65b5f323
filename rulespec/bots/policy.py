"""What every bot shares: which bonuses to declare, the moves left after declaring, and playing a hand out."""
from __future__ import annotations

from rulespec.run.engine import Declaration, Hand


def best_declarations(hand: Hand, seat: int) -> list[Declaration]:
    """A set of bonus declarations worth the most points (disjoint cards, one wild-card rank)."""
    return hand.best_declarations(seat)


def declared_moves(hand: Hand, seat: int) -> tuple[list[Declaration], list[tuple[int, int]]]:
    """The declarations a bot makes with its play (the most points), and the legal moves after them."""
    decls = hand.best_declarations(seat) if hand.declares_with_play else []
    return decls, hand.legal_moves_after(decls)


def sensible_bid(hand: Hand) -> tuple[int, int]:
    """A bid move (run/bid.py) chosen from the cards bid on alone: the value the bidder holds most cards of
    (one to build with or capture, one kept to take the build), ties to the highest value."""
    moves = hand.legal_moves()
    cfg = hand._bid_cfg
    held = [v for c in range(hand.rules.N_CARDS) if hand.bid_cards >> c & 1 for v in cfg.hand_values[c]]
    return max(moves, key=lambda m: (held.count(m[1]), m[1]))


def knocks(hand: Hand) -> list[tuple[int, list[Declaration]]]:
    """Card-less declarations due now (rulesets whose bonuses are declared apart from a play)."""
    if hand.declares_with_play or hand.is_over:
        return []
    done = []
    for j in range(hand.n):
        seat = (hand.dealer + 1 + j) % hand.n
        decls = best_declarations(hand, seat)
        if decls:
            hand.declare(seat, decls)
            done.append((seat, decls))
            if hand.is_over:        # points counted as made (game.points: as_made) reached the target
                break
    return done


def play_out(hand: Hand, bots: list, on_play=None, on_turn=None) -> None:
    """Let the bots finish the hand (`on_play(seat, decls, card, capture, events)` sees each move,
    `on_turn(hand, seat)` each turn before the bot chooses)."""
    while not hand.is_over:
        for seat, decls in knocks(hand):
            if on_play:
                on_play(seat, decls, None, 0, [e for e in hand.events if e.play == hand.plays + 1
                                               and e.seat == seat])
        if hand.is_over:            # a knock's points, counted as made, ended the game
            break
        seat = hand.current_seat
        if on_turn:
            on_turn(hand, seat)
        decls, card, capture = bots[seat].choose(hand, seat)
        events = hand.play(seat, card, capture, decls)
        if on_play:
            on_play(seat, decls, card, capture, events)
