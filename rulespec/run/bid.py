"""An auction before play (`bid:`): after the deal the first player bids a value it holds among the first
cards dealt to it; with none the deal is thrown in. The bid binds the bidder's first play.

A bid is a move of its own: (BID_MOVE, value), so every caller that passes moves along (bots, searches,
adapters, `Hand.play`) passes bids too. This module holds what the construct computes; `Hand`
(run/engine.py) keeps the state: the bidder, the cards it bid on, the bid, whether it still binds.
"""
from __future__ import annotations

from rulespec.run.builds import split_move
from rulespec.run.runtime import bits_of as _bits

# The card of a bid move: no card is played; the move's mask is the value bid.
BID_MOVE = -1


class Config:
    """The module's BID, read once: the construct's options and the cards' values."""

    __slots__ = ("after_cards", "values", "binds", "void", "hand_values")

    def __init__(self, spec: dict):
        self.after_cards = spec["after_cards"]
        self.values = frozenset(spec["values"])
        self.binds = spec["binds"]
        self.void = spec["void"]
        self.hand_values = spec["hand_values"]       # per card index: the values it captures as from the hand


def bid_values(cfg: Config, seen: int) -> list[int]:
    """The values the bidder may bid, ascending: those of `values` it holds a card of among `seen`."""
    return sorted({v for c in _bits(seen) for v in cfg.hand_values[c] if v in cfg.values})


def first_seen(cards: list[int], count: int) -> int:
    """The mask of the first `count` cards of `cards` (in the order dealt)."""
    mask = 0
    for c in cards[:count]:
        mask |= 1 << c
    return mask


def keeps_bid(cfg: Config, bid: int, card: int, mask: int, n_cards: int, held: int) -> bool:
    """Whether the move (card, mask) keeps a bid of `bid` that binds the first play: a build of the value
    bid, or (not building) a card of that value, which captures or is laid. `held` is the cards the bidder bid
    on: the rest are dealt after its first play, so the card played is one of them, and a build of the value
    bid keeps another of them of that value (docs/language.md, "A bid before play")."""
    if cfg.binds != "first_play":
        return True
    if not held >> card & 1:
        return False
    _cards, value = split_move(mask, n_cards)
    if value:
        return value == bid and any(bid in cfg.hand_values[c] for c in _bits(held & ~(1 << card)))
    return bid in cfg.hand_values[card]


def bind_words(bid: int) -> str:
    """Why a move is refused while the bid binds it, in words."""
    return (f"the bidder's first play must keep the bid of {bid}: build {bid}, or play a card of {bid} "
            f"(capturing with it or laying it), with a card of those it bid on (the rest are dealt after that "
            f"play)")
