"""The computer players.

``decide(state, side, seed, player="bot", budget_s=None)`` returns every action of
``side`` for the current decision (see docs/design.md, "The AI interface"):
a sequential decision's whole batch up to and including the action that hands
control on, or a simultaneous decision's list.  Like the engine it is pure: no
I/O, no clock, no unseeded randomness; the result depends only on the side's
view of the state, the side, the seed, the player and the budget.

``player`` is ``"bot"`` (the heuristic player, :mod:`engine.ai.bot`), ``"v1"`` (the
heuristic player frozen as the reference, :mod:`engine.ai.style`), ``"gentle"`` and
``"deep"`` (the lowest and highest of the levels, :data:`LEVELS`) or ``"random"`` (a
uniformly random legal player, :mod:`engine.ai.random_player`).
"""

from __future__ import annotations

from engine import api
from engine.actions import Action
from engine.ai import bot, random_player
from engine.ai.style import STYLES
from engine.state import GameState

PLAYERS = ("bot", "v1", "random", "gentle", "deep")
#: The levels a person chooses, weakest first: level ``n`` is played by ``LEVELS[n - 1]``.
LEVELS = ("gentle", "v1", "bot", "deep")
#: The level of a game against the computer when none is chosen: the everyday bot.
DEFAULT_LEVEL = LEVELS.index("bot") + 1

__all__ = ["DEFAULT_LEVEL", "LEVELS", "PLAYERS", "decide", "level_player"]


def level_player(level: int) -> str:
    """The player of ``level`` (1 to ``len(LEVELS)``); ValueError with a sentence otherwise."""
    if not 1 <= level <= len(LEVELS):
        raise ValueError(
            f"there is no level {level}: choose 1 (gentlest) to {len(LEVELS)} (strongest); "
            f"{DEFAULT_LEVEL} is the everyday bot"
        )
    return LEVELS[level - 1]


def decide(
    state: GameState, side: str, seed: bytes, player: str = "bot", budget_s: float | None = None
) -> list[Action]:
    if player not in PLAYERS:
        raise ValueError(f"unknown computer player '{player}'; choose one of {', '.join(PLAYERS)}")
    view = api.view(state, side)
    d = api.decision(view)
    if d.kind not in ("sequential", "simultaneous") or side not in d.sides:
        return []
    if player == "random":
        return random_player.decide(view, side, seed)
    return bot.decide(view, side, seed, budget_s, STYLES[player])
