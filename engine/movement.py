"""Movement of land, naval and air units; rail (rulebook: "Game Sequence", "Terrain";
supplement: "Movement", "Control zones and hex control", "Stacking")."""

from __future__ import annotations

from engine.phase import Phase
from engine.state import GameState, other


class FirstMovement(Phase):
    name = "first_movement"
    prompt = "move land, naval and air units"


class SecondMovement(Phase):
    name = "second_movement"
    prompt = "move units that have not moved or attacked (rail), return air units, move ships"


class Landing(Phase):
    """The side that is not moving lands its air units (supplement: "Sequence and who acts")."""

    name = "landing"
    prompt = "land your air units"

    def actors(self, state: GameState) -> tuple[str, ...]:
        return (other(self.mover),)
