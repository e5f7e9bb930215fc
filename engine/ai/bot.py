"""The heuristic computer player: one policy per kind of decision.

Each policy proposes actions on a :class:`~engine.ai.batch.Batch`, which keeps
only those the rules accept, so a policy may be wrong about the rules without
the bot ever submitting an illegal action.  Decisions the bot has no policy for
are passed, or, if the engine does not let a side pass there, answered with the
first legal actions until it does.
"""

from __future__ import annotations

from engine.actions import Action
from engine.ai import attack, declare, deploy, economy, intercept, landings, move, naval
from engine.ai.batch import Batch
from engine.ai.batch import finish as finish_batch
from engine.ai.limits import Limits
from engine.ai.seeding import stream
from engine.ai.style import LATEST, Style
from engine.ai.turn import Policy, Turn
from engine.state import GameState

POLICIES: dict[str, Policy] = {
    "war_declaration": declare.war_declaration,
    "deployment": deploy.deployment,
    "income": economy.income,
    "build": economy.build,
    "overrun": attack.overrun,
    "first_movement": move.first_movement,
    "interception": intercept.intercept,
    "amphibious": landings.assault,
    "combat": naval.combat_phase,
    "advance": attack.advance,
    "second_movement": move.second_movement,
    "landing": move.landing,
}


def step_name(phase: str) -> str:
    """``axis.first_movement`` -> ``first_movement``."""
    return phase.rsplit(".", 1)[-1]


def decide(
    state: GameState, side: str, seed: bytes, budget_s: float | None = None, style: Style = LATEST
) -> list[Action]:
    batch = Batch(state, side)
    rng = stream(seed, "bot", side, state.date, batch.phase)
    turn = Turn(batch, side, rng, Limits.for_budget(budget_s, style.search), style)
    step = step_name(batch.phase)
    policy = POLICIES.get(step)
    if policy is not None and (style.landings or step != "amphibious"):
        policy(turn)
    return finish(turn)


def finish(turn: Turn) -> list[Action]:
    return finish_batch(turn.batch, turn.limits.refusals)
