"""The baselines (random, greedy, ISMCTS at any budget, a trained agent's file) as OpenSpiel bots and PettingZoo
policies, playing the adapters' one-action-at-a-time decisions (rulespec/interop/decisions.py).

    from rulespec.interop.baselines import openspiel_bot, pettingzoo_policy
    bots = [openspiel_bot(game, 0, "ismcts:50"), openspiel_bot(game, 1, "policy:agent.npz")]
    pyspiel.evaluate_bots(game.new_initial_state(), bots, seed)
    policy = pettingzoo_policy(env, "greedy")          # action = policy(observation, agent)

A rulespec bot (bots/) chooses a seat's whole move at once (its declarations,
its card, its capture); `MoveActions` gives that move as the actions that
make it: the declaration slots of its declarations, then DONE; its card; the
table cards of its capture in increasing order, then DONE where needed. A
knock is the bots' own (the declarations worth the most). A perceptron policy
file (bots/saved.py, kind mlp) decides each action from the seat's
observation, as it was trained. The move is chosen once per turn and kept
while its actions are given, so a random bot's card and capture agree.
"""
from __future__ import annotations

import random

from rulespec.bots.policy import best_declarations
from rulespec.bots.registry import make_bot
from rulespec.interop.mlp import MLPBot
from rulespec.interop.decisions import CAPTURE, CARD, DECLARE, Decisions


def _player(spec_or_bot, seed: int):
    return make_bot(spec_or_bot, random.Random(seed)) if isinstance(spec_or_bot, str) else spec_or_bot


class MoveActions:
    """A bot's moves as single actions of a Decisions (see the module docstring)."""

    def __init__(self, player):
        self.player = player
        self._key = None
        self._plan = None
        self._observer = None

    def action(self, d: Decisions) -> int:
        """The action the bot takes now, for the seat to act in `d`."""
        seat = d.current_seat
        if seat is None:
            raise ValueError("the hand is over: no action to take")
        if isinstance(self.player, MLPBot):
            return self._perceptron(d, seat)
        key = (seat, d.hand.plays, len(d.log), d.hand.round)
        if key != self._key or self._plan is None:
            self._key = key
            if d.phase == DECLARE and not d.hand.declares_with_play:
                self._plan = (best_declarations(d.hand, seat), None, 0)       # a knock
            else:
                self._plan = self.player.choose(d.hand, seat)
        decls, card, capture = self._plan
        legal = d.legal_actions()
        if d.phase == DECLARE:
            wanted = self._declaration(d, decls, legal)
        elif d.phase == CARD:
            wanted = card
        else:
            rest = capture & ~d.partial
            wanted = (rest & -rest).bit_length() - 1 if rest else d.layout.done
        return wanted if wanted in legal else legal[0]

    def _declaration(self, d: Decisions, decls, legal) -> int:
        if d.ranking is not None:
            for decl in decls:
                a = d.layout.rank_offset + (decl.wild_rank if decl.wild_rank is not None else -1)
                if a in legal:
                    return a
            return legal[0]
        chosen = {(p.bonus, p.cards) for p in d.pending}
        for decl in decls:
            if (decl.bonus, decl.cards) in chosen:
                continue
            for a in legal:
                got = getattr(d, "_decl_by_action", {}).get(a)
                if got is not None and (got.bonus, got.cards) == (decl.bonus, decl.cards):
                    return a
        return d.layout.done

    def _perceptron(self, d: Decisions, seat: int) -> int:
        from rulespec.bots.saved import check_fits
        from rulespec.interop.observation import Observer, action_mask
        check_fits(self.player, d.hand)
        if self._observer is None:
            self._observer = Observer(d.rules, d.hand.n)
        return self.player.act(self._observer.array(d, seat), action_mask(d, d.layout.size))


def openspiel_bot(game, player_id: int, bot, seed: int = 0):
    """A `pyspiel.Bot` for the "rulespec" game playing `bot` (a spec such as "ismcts:50" or "policy:FILE", or a
    rulespec bot) at seat `player_id`."""
    import pyspiel

    class RulespecBot(pyspiel.Bot):
        """A rulespec baseline as an OpenSpiel bot."""

        def __init__(self):
            pyspiel.Bot.__init__(self)
            self.player_id = player_id
            self.moves = MoveActions(_player(bot, seed))

        def restart_at(self, state):
            self.moves._key = None

        def step(self, state):
            return self.moves.action(state.decisions)

    return RulespecBot()


def pettingzoo_policy(env, bot, seed: int = 0):
    """A policy `(observation, agent) -> action` for a rulespec PettingZoo environment playing `bot` (a spec
    or a rulespec bot); it reads the environment's hand for bots that search it (ISMCTS determinises what the
    seat cannot see)."""
    moves = MoveActions(_player(bot, seed))

    def policy(observation, agent):
        return moves.action(env.unwrapped.decisions if hasattr(env, "unwrapped") else env.decisions)
    return policy
