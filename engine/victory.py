"""Victory (rulebook "Victory Conditions"), checked at the end of each war declaration
phase: after the declarations and after the rolls that belong to the phase (Spain's
attempt, Vichy France's), so a conquest made by one of those rolls counts the same month."""

from __future__ import annotations

from engine.sides import ALLIES, AXIS
from engine.state import GameState


def victor(state: GameState) -> str | None:
    """The side that has won now, if any.  A conquest by surrender (Italy, an atomic bomb)
    or by Vichy France is a conquest; a country that left the war (Finland's surrender,
    neutral Vichy France) is no longer on a side."""
    axis = [c for c in state.countries.values() if c.side == AXIS and c.at_war]
    if axis and all(c.conquered for c in axis):
        return ALLIES
    allied = [c for c in state.countries.values() if c.side == ALLIES and c.at_war]
    us, soviet = state.countries.get("United States"), state.countries.get("Soviet Union")
    us_down = us is None or (us.at_war and us.conquered)
    soviet_ok = soviet is None or soviet.conquered or soviet.side == AXIS
    if allied and all(c.conquered for c in allied) and us_down and soviet_ok:
        return AXIS
    return None


def check(state: GameState) -> None:
    state.winner = victor(state)
