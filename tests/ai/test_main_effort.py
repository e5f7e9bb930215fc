"""The Axis' main effort: its army is drawn towards the capital of the largest country it
attacks (Paris), not only towards the nearest enemy city (a small neighbour's)."""

from __future__ import annotations

import pytest

from engine import api
from engine.ai import front, move
from engine.ai.picture import Picture
from engine.position import build_world
from engine.position import hex_at as hx
from engine.war import enter_war
from tests.ai.worlds import infantry

# France (west, three cities, Paris far to the south-west), Belgium (a small corner in the
# north-west with one city close to Germany) and Germany (east).
WEST_WORLD = build_world(
    """
    F:c F:c F:c F:c B:c B:c G:c G:c G:c G:c G:c
     F:c F:c F:c F:c B:c B:c G:c G:c G:c G:c G:c
    F:c F:c F:c F:c F:c F:c G:c G:c G:c G:c G:c
     F:c F:c F:c F:c F:c F:c G:c G:c G:c G:c G:c
    F:c F:c F:c F:c F:c F:c G:c G:c G:c G:c G:c
     F:c F:c F:c F:c F:c F:c G:c G:c G:c G:c G:c
    F:c F:c F:c F:c F:c F:c G:c G:c G:c G:c G:c
    """,
    cities={"Paris": "0,6 capital", "Lyon": "3,5", "Lille": "2,2", "Brussels": "5,0 capital", "Berlin": "10,3 capital"},
    resources=["0,6", "5,0", "10,3"],
)


def _west_at_war() -> api.GameState:
    state = api.new_game(WEST_WORLD)
    enter_war(state, "Germany", "axis")
    enter_war(state, "France", "allies")
    enter_war(state, "Belgium", "allies")
    return state


def test_the_main_effort_is_the_largest_attacked_countrys_capital() -> None:
    state = _west_at_war()
    infantry(state, "France", "5,3", 3)
    infantry(state, "Belgium", "5,1", 3)
    pic = Picture(state, "axis")
    to_capital = front.main_effort(pic)
    grid = state.world.map.grid
    paris = hx(state, "0,6")
    here = hx(state, "9,1")
    # measured to Paris (three French cities), although Brussels (Belgium has one) is nearer
    assert to_capital[paris] == 0
    assert grid.distance(here, hx(state, "5,0")) < to_capital[here]
    assert to_capital[here] >= grid.distance(here, paris)
    # the Allies, who counter-attack where the enemy is weak, have no main effort
    assert front.main_effort(Picture(state, "allies")) == {}


@pytest.mark.parametrize("pull", [front.MAIN_PULL, 0.0])
def test_a_reserve_prefers_the_road_to_paris(monkeypatch: pytest.MonkeyPatch, pull: float) -> None:
    """Two hexes behind the front, one towards Brussels (nearer an enemy city), one towards
    Paris: the main effort makes the second the better; without it the first wins."""
    monkeypatch.setattr(move, "MAIN_PULL", pull)
    state = _west_at_war()
    infantry(state, "France", "5,4", 3)
    infantry(state, "Belgium", "5,1", 3)
    reserve = state.units[infantry(state, "Germany", "9,3", 6)]
    plan = move.Plan(Picture(state, "axis"))
    for north, south in (("8,1", "8,5"), ("7,1", "7,5")):
        towards_paris = plan.value(reserve, hx(state, south), False) > plan.value(reserve, hx(state, north), False)
        assert towards_paris == (pull > 0)
