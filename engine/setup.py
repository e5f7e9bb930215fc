"""Creating a game: a state at the start of a scenario, or on a custom world (tests)."""

from __future__ import annotations

from engine.actions import StateError
from engine.state import GameState
from engine.world import World


def new_game(scenario: str | World, options: dict[str, object]) -> GameState:
    if isinstance(scenario, World):
        state = GameState(scenario)
        control_home_lands(state)
        return state
    from engine import scenario_setup

    return scenario_setup.new_scenario_game(scenario, options)


def control_home_lands(state: GameState) -> None:
    """Every land hex starts controlled by the country that owns its territory."""
    hexmap = state.world.map
    state.controller = bytearray(state.world.home_control)
    for h in hexmap.fortifications:
        state.forts[h] = 0
        state.fort_owner[h] = hexmap.country_of[h]
    for h in hexmap.airfields:
        state.airfields[h] = 0
        state.airfield_owner[h] = hexmap.country_of[h]


def scenario_digest(name: str) -> str:
    from engine import scenario_setup

    return scenario_setup.world_of(name).digest


def world_for(data: bytes) -> World:
    """The world a serialised state was made in (only the packaged scenarios are known)."""
    from engine import scenario_setup

    return scenario_setup.world_matching(data) or _unknown()


def _unknown() -> World:
    raise StateError("saved game belongs to a world this program does not have")
