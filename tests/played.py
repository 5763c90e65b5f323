"""A hand played to its end as simulate and compare play it, for tests that count its events themselves."""
from __future__ import annotations


def play_out(hand, players) -> int:
    """Play `hand` to its end: knocks declared (best declarations, in seat order after the dealer) where
    declarations are not made with a play, then each seat's bot choosing its play. Returns the number of
    plays that captured."""
    n = hand.n
    took = 0
    while not hand.is_over:
        if not hand.declares_with_play:           # knocks, in seat order after the dealer
            for j in range(n):
                seat = (hand.dealer + 1 + j) % n
                decls = hand.best_declarations(seat)
                if decls and not hand.is_over:
                    hand.declare(seat, decls)
        seat = hand.current_seat
        decls, card, capture = players[seat].choose(hand, seat)
        hand.play(seat, card, capture, decls)
        took += capture != 0
    return took
