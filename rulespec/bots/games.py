"""The guard on a game's length that both engines apply: a game not over after MAX_HANDS_PER_GAME hands is an
error, located at game.target."""
from __future__ import annotations

from rulespec.errors import RulespecError

MAX_HANDS_PER_GAME = 1000      # a guard: a game that has not ended by then is a bug, not a long game


def endless(i: int, rules) -> RulespecError:
    """Game i reached the hand limit: located at game.target, the one thing that makes a game that long."""
    from rulespec.run.engine import game_length      # the engine only for the message: a native run loads none
    if rules.TARGET is None and rules.HANDS is None:     # a game won by a lead alone
        return RulespecError(f"game {i} has not ended after {MAX_HANDS_PER_GAME} hands, the most a game may last "
                             f"({game_length(rules)}): can a side get that far ahead?",
                             getattr(rules, "TARGET_SPAN", None))
    if rules.TARGET is None:        # a game of a number of hands whose every hand was tied
        return RulespecError(f"game {i} has not ended after {MAX_HANDS_PER_GAME} hands, the most a game may last "
                             f"({game_length(rules)}, a tie playing on): can a side win it?",
                             getattr(rules, "TARGET_SPAN", None))
    return RulespecError(f"game {i} has not ended after {MAX_HANDS_PER_GAME} hands, the most a game may last: can "
                         f"the target {rules.TARGET} be reached in fewer?", getattr(rules, "TARGET_SPAN", None))
