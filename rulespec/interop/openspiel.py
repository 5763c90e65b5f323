"""An OpenSpiel game for any ruleset: `pyspiel.load_game("rulespec", {"ruleset": "cirulla", "seats": 2})`.

Importing this module registers the game `rulespec` (`pyspiel.register_game`).
Parameters: `ruleset` (an id or a path), `seats` (0: the ruleset's default),
the options the shipped rulesets declare, each by name
(`pyspiel.load_game("rulespec(ruleset=scopa,seats=2,target=21)")`), and
`options` for any option (`NAME=VALUE` or `NAME:VALUE` pairs, separated by
commas or semicolons: `options=target:21;napola:true` in a game string, whose
commas separate parameters). An option parameter left at its placeholder
(-2147483648, "", false) is not given: the ruleset's own default holds.

- Chance is explicit: the deal is drawn card by card, the whole deck order
  (N chance nodes, each uniform over the cards not drawn yet) before the first
  decision. A deal the rules throw in is shuffled again from a generator
  seeded by that drawn order, so the state stays a function of its history.
- Players are seats; the actions are rulespec/interop/decisions.py's (a card,
  DONE, a declaration slot), so one play may take several decisions.
- Information states (perfect recall): the player's seat, its own cards of
  every deal and the table laid, every move made (card, capture,
  declarations, voided declarations; a knock passed) and its own choices in
  the decision in progress, its declarations among them. As a string, and as
  a tensor (rulespec/interop/infostate.py). Observation strings and tensors:
  rulespec/interop/observation.py (the present, not a record). Both strings
  end with the game's running scores, ` | totals 12/7 target 51` (the
  player's side first; `target -` for a game of a number of hands), and both
  tensors hold them in their `game_totals` and `target` blocks. One hand is
  one game here: the totals start at 0.
- `state.resample_from_infostate(player, sampler)` (OpenSpiel's API: ISMCTS
  calls it when no resampler is set) redraws the hidden cards, seeded by one
  draw of `sampler`.
- Returns, at the end of the hand: +1 shared by the sides with the best
  result (total minus the best other side's, ± the target for an outcome that
  ends the game), -1 shared by the others, 0 for all when every side ties; per
  seat, its side's share. Zero-sum, in [-1, 1].
- `make_resampler(random_state)` redraws the hidden cards consistently with
  the player's view, for OpenSpiel's ISMCTS
  (`bot.set_resampler(make_resampler(bot_random_state))`), from the bot's own
  seeded stream.

Needs the `rl` extra: `pip install 'rulespec[rl]'`.
"""
from __future__ import annotations

import random
import re

import numpy as np
import pyspiel

from rulespec.api import compile as compile_rules
from rulespec.bots.ismcts import determinise, result_for
from rulespec.interop.decisions import CAPTURE, PHASES, ActionLayout, Decisions, describe_declarations
from rulespec.interop.infostate import InfoStateEncoder
from rulespec.interop.observation import Observer
from rulespec.run.engine import DealSource, Hand
from rulespec.source.option_pairs import parse_options
from rulespec.source.rulesets import load_merged, shipped_ids

GAME_NAME = "rulespec"
MAX_SEATS = 8
_FIXED_PARAMETERS = {"ruleset": "cirulla", "seats": 0, "options": ""}
# An option parameter at its placeholder is not given (OpenSpiel passes every parameter, at its default if unset).
_UNSET = {"int": -(2 ** 31), "str": "", "bool": False}


def _option_parameters() -> dict:
    """Every option a shipped ruleset declares, as a game parameter at its type's placeholder (the first
    declaration of a name decides its type; another ruleset's option is given through `options`)."""
    out: dict = {}
    for ref in shipped_ids():
        for name, decl in (load_merged(ref)[0].get("options") or {}).items():
            if name not in _FIXED_PARAMETERS and decl.get("type") in _UNSET:
                out.setdefault(name, _UNSET[decl["type"]])
    return out


_OPTION_PARAMETERS = _option_parameters()


def game_options(params: dict) -> dict:
    """The option values the game parameters give: the named option parameters not at their placeholder,
    and the pairs of `options`; ValueError for a pair without a value or an option given twice."""
    pairs = [p.strip() for p in re.split(r"[,;]", str(params.get("options", ""))) if p.strip()]
    for i, pair in enumerate(pairs):
        if "=" not in pair and ":" in pair:
            pairs[i] = pair.replace(":", "=", 1)
        elif "=" not in pair:
            raise ValueError(f"options takes NAME=VALUE or NAME:VALUE pairs, found {pair!r}")
    options = parse_options(pairs)
    for name, placeholder in _OPTION_PARAMETERS.items():
        value = params.get(name, placeholder)
        if type(value) is type(placeholder) and value == placeholder:
            continue
        if name in options:
            raise ValueError(f"option {name} is given twice: as a parameter and in options")
        options[name] = value
    return options


_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="rulespec: a compiled fishing-card-game ruleset",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=MAX_SEATS,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={**_FIXED_PARAMETERS, **_OPTION_PARAMETERS},
)


class RulespecGame(pyspiel.Game):
    """A ruleset as an OpenSpiel game (one hand)."""

    def __init__(self, params=None):
        params = dict(params or {})
        ruleset = str(params.get("ruleset", "cirulla"))
        self.rules = compile_rules(ruleset, **game_options(params))
        module = self.rules.module
        seats = int(params.get("seats", 0)) or module.DEFAULT_SEATS
        if seats not in module.SEATS_ALLOWED or seats > MAX_SEATS:
            raise ValueError(f"{module.RULESET_ID} is played by {', '.join(map(str, module.SEATS_ALLOWED))} "
                             f"players, not {seats}")
        self.seats = seats
        self.layout = ActionLayout(module, seats)
        self.observer = Observer(module, seats)
        self.infostate = InfoStateEncoder(module, seats, self.layout)
        n_cards = module.N_CARDS
        rounds = len(module.schedule(seats))
        slots = self.layout.n_declaration_slots
        # Decisions: cards played and capture steps (each captured card once, a DONE per play) take at most
        # 3 N; a declare phase opens at most once per turn start and knock, and takes at most slots + 1.
        longest = n_cards + 3 * n_cards + (n_cards + seats * rounds) * (slots + 1 if slots else 0)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.layout.size,
            max_chance_outcomes=n_cards,
            num_players=seats,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=longest,
        )
        super().__init__(_GAME_TYPE, info, params)

    def new_initial_state(self):
        return RulespecState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        if params:
            raise ValueError(f"observation parameters are not supported, found {params}")
        perfect_recall = iig_obs_type is None or iig_obs_type.perfect_recall
        return _Observer(self, perfect_recall)


class RulespecState(pyspiel.State):
    """A hand being dealt (chance nodes) or played (seats' decisions)."""

    def __init__(self, game: RulespecGame):
        super().__init__(game)
        self.order: list[int] = []
        self.decisions: Decisions | None = None

    @property
    def _game(self) -> RulespecGame:
        # Asked of OpenSpiel each time, not stored: a clone (a deep copy) would copy the game object too.
        return self.get_game()

    # -- OpenSpiel's API -------------------------------------------------------
    def current_player(self):
        if self.decisions is None:
            return pyspiel.PlayerId.CHANCE
        seat = self.decisions.current_seat
        return pyspiel.PlayerId.TERMINAL if seat is None else seat

    def _legal_actions(self, player):
        return list(self.decisions.legal_actions())

    def chance_outcomes(self):
        drawn = set(self.order)
        rest = [c for c in range(self._game.rules.module.N_CARDS) if c not in drawn]
        p = 1.0 / len(rest)
        return [(c, p) for c in rest]

    def _apply_action(self, action):
        if self.decisions is None:
            module = self._game.rules.module
            if not 0 <= action < module.N_CARDS or action in self.order:
                # OpenSpiel does not check a chance outcome: a card drawn twice would make no deck.
                raise ValueError(f"a chance outcome is a card not drawn yet (0..{module.N_CARDS - 1}), "
                                 f"found {action}")
            self.order.append(action)
            if len(self.order) == module.N_CARDS:
                rng = random.Random(",".join(map(str, self.order)))
                hand = Hand(module, self._game.seats, 0, DealSource(order=list(self.order), rng=rng))
                self.decisions = Decisions(hand, self._game.layout)
            return
        self.decisions.apply(action)

    def resample_from_infostate(self, player_id, probability_sampler):
        """A state `player_id` cannot tell from this one, the cards it cannot see redrawn (OpenSpiel's API; ISMCTS
        calls it when no resampler is set): seeded by one draw of `probability_sampler`, a uniform in [0, 1)."""
        return resampled(self, player_id, random.Random(int(probability_sampler() * (1 << 53))))

    def _action_to_string(self, player, action):
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {self._game.rules.module.CARD_NAMES[action]}"
        return self._game.layout.describe(action, self._game.rules.module)

    def is_terminal(self):
        return self.decisions is not None and self.decisions.is_over

    def returns(self):
        if not self.is_terminal():
            return [0.0] * self._game.seats
        hand = self.decisions.hand
        per_side = shares(hand)
        return [per_side[seat % hand.k] for seat in range(hand.n)]

    def __str__(self):
        if self.decisions is None:
            return f"dealing: {len(self.order)} cards drawn"
        hand = self.decisions.hand
        names = self._game.rules.module.card_names
        seats = " | ".join(f"s{s}[{names(hand.hands[s])}]" for s in range(hand.n))
        return f"round {hand.round} table[{names(hand.visible_table())}] {seats}"


def shares(hand: Hand) -> list[float]:
    """Per side: +1 shared by the best sides, -1 shared by the others (0 for all on a full tie)."""
    values = [result_for(hand, side) for side in range(hand.k)]
    best = max(values)
    winners = [s for s, v in enumerate(values) if v == best]
    if len(winners) == hand.k:
        return [0.0] * hand.k
    losers = hand.k - len(winners)
    return [1.0 / len(winners) if s in winners else -1.0 / losers for s in range(hand.k)]


class _Observer:
    """OpenSpiel's PyObserver: the information-state string, or the observation string and tensor."""

    def __init__(self, game: RulespecGame, perfect_recall: bool):
        self.game = game
        self.perfect_recall = perfect_recall
        size = game.infostate.size if perfect_recall else game.observer.size
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"info_state" if perfect_recall else "observation": self.tensor}

    def set_from(self, state: RulespecState, player: int) -> None:
        if state.decisions is None:                 # dealing: nothing seen yet but one's seat and the target
            self.tensor.fill(0)
            encoder = self.game.infostate if self.perfect_recall else self.game.observer
            if self.perfect_recall:
                self.tensor[self.game.infostate.blocks["seat"].start + player] = 1
            self.tensor[encoder.blocks["target"].start] = encoder.target
        elif self.perfect_recall:
            self.game.infostate.fill(self.tensor, state.decisions, player)
        else:
            self.tensor[:] = self.game.observer.array(state.decisions, player)

    def string_from(self, state: RulespecState, player: int) -> str:
        if state.decisions is None:
            return f"p{player} dealing"
        d = state.decisions
        names = self.game.rules.module.card_names
        head = f"p{player}"
        mine = d.current_seat == player
        current = ""
        if mine:
            current = f" | {PHASES[d.phase]}"
            if d.chosen:                    # its own declarations of this turn: it remembers them
                current += " " + describe_declarations(d.chosen, self.game.rules.module)
            if d.phase == CAPTURE:
                current += f" {self.game.rules.module.CARD_NAMES[d.card]}x[{names(d.partial)}]"
        scores = _scores(d.hand, player)
        if self.perfect_recall:
            return head + " | " + " ; ".join(d.public_log(player)) + current + scores
        hand = d.hand
        shown = " ".join(f"s{s}[{names(hand.shown[s] & hand.hands[s])}]" for s in range(hand.n))
        piles = " ".join(f"side{k}[{names(p)}]" for k, p in enumerate(hand.piles))
        return (f"{head} round {hand.round} hand[{names(hand.hands[player])}] table[{names(hand.visible_table())}]"
                f"{_builds_and_bid(hand)} shown {shown} piles {piles} stock {hand.stock_size()}{current}{scores}")


def _builds_and_bid(hand: Hand) -> str:
    """The builds on the table and the bid, in an observation string: ` builds[9:3D 4C 2S s1; 11:8S 3C JC s0,s1
    fixed] bid 9 s1` (the value, the cards, the owners, fixed or not; the bid and its bidder). Empty in rules
    without builds or a bid."""
    out = ""
    if hand.builds:
        names = hand.rules.card_names
        out += " builds[" + "; ".join(f"{b.value}:{names(b.cards)} {','.join(f's{o}' for o in b.owners)}"
                                      f"{' fixed' if b.fixed else ''}" for b in hand.builds) + "]"
    if hand.bid is not None:
        out += f" bid {hand.bid} s{hand.bidder}"
    return out


def _scores(hand: Hand, player: int) -> str:
    """The game's running scores in a string: ` | totals 12/7 target 51`, the player's side first
    (`target -` in a game of a number of hands)."""
    target = hand.rules.TARGET
    return (f" | totals {'/'.join(map(str, hand.relative_totals(player)))} "
            f"target {'-' if target is None else target}")


def resampled(state: RulespecState, player: int, rng: random.Random) -> RulespecState:
    """A state whose hidden cards are redrawn from what `player` cannot see, drawing from `rng`.

    Another seat's decision in progress is hidden from `player` too: in the
    new state it starts again from that seat's redrawn cards (Decisions.with_hand).
    """
    new = state.clone()
    if state.decisions is None or state.decisions.is_over:
        return new
    world = determinise(state.decisions.hand, player, rng)
    new.decisions = state.decisions.with_hand(world, viewer=player)
    return new


def make_resampler(random_state):
    """A resampler for ISMCTS (`bot.set_resampler(make_resampler(random_state))`) that draws from
    `random_state`: the bot's own `np.random.RandomState` (the one given to ISMCTSBot), so that a seeded bot
    searches the same worlds every run; or a seed for a stream of its own. Never NumPy's global generator."""
    stream = random_state if isinstance(random_state, np.random.RandomState) else np.random.RandomState(random_state)

    def resampler(state: RulespecState, player: int) -> RulespecState:
        return resampled(state, player, random.Random(int(stream.randint(1 << 62))))
    return resampler


pyspiel.register_game(_GAME_TYPE, RulespecGame)
