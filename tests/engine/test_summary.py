"""What `pbem show` and `pbem where` print of the units, on the real 1939 game."""

from __future__ import annotations

import pytest

from engine import ai, api
from engine.state import GameState
from engine.summary import NEAR_CITY


@pytest.fixture(scope="module")
def deployed() -> GameState:
    """The 1939 game once both sides' computer players have deployed."""
    state = api.new_game("1939")
    while api.decision(state).phase in ("war_declaration", "deployment"):
        d = api.decision(state)
        if d.kind == "chance":
            api.apply_chance(state, bytes(32))
        elif d.kind == "simultaneous":
            api.apply_simultaneous(state, {s: ai.decide(state, s, bytes(32)) for s in d.sides})
        else:
            for action in ai.decide(state, d.sides[0], bytes(32)):
                api.apply(state, d.sides[0], action)
                if api.decision(state) != d:
                    break
    return state


def test_each_side_lists_exactly_its_units_with_the_nearest_city(deployed: GameState) -> None:
    hexmap = deployed.world.map
    for side in ("axis", "allies"):
        lines = api.summary(deployed, side).units
        assert sorted(u.id for u in lines) == sorted(
            u.id for u in deployed.units.values() if deployed.countries[u.country].side == side
        )
        for line in lines:
            u = deployed.units[line.id]
            assert (line.side, line.country, line.label) == (side, u.country, u.label())
            if not u.on_map:
                assert line.where == "off the map"
                continue
            assert line.hex == hexmap.grid.label(u.hex)
            # the nearest city by measuring to every city (ties by name), within NEAR_CITY hexes
            far, name = min((hexmap.grid.distance(u.hex, c.hex), c.name) for c in hexmap.city_at.values())
            assert (line.city, line.city_distance) == ((name, far) if far <= NEAR_CITY else ("", 0))
            assert line.where.startswith(line.hex) and (not line.city or f"[{line.city}]" in line.where)
    assert any(u.city_distance > 0 for u in api.summary(deployed, "axis").units)


def test_near_a_place_finds_every_unit_within_the_radius(deployed: GameState) -> None:
    grid = deployed.world.map.grid
    warsaw = deployed.world.map.city_by_name["warsaw"].hex
    for place in ("Warsaw", "[Warsaw]", grid.label(warsaw)):
        found = api.near(deployed, place, 4)
        assert found.place == f"{grid.label(warsaw)} [Warsaw]" and found.units
        assert {u.id: d for d, u in found.units} == {
            u.id: grid.distance(warsaw, u.hex)
            for u in deployed.units.values()
            if u.on_map and grid.distance(warsaw, u.hex) <= 4
        }
        assert [d for d, _ in found.units] == sorted(d for d, _ in found.units)
    with pytest.raises(api.OrderError, match="did you mean Warsaw"):
        api.near(deployed, "Warsw", 1)
    with pytest.raises(api.OrderError, match="below 0"):
        api.near(deployed, "Warsaw", -1)
