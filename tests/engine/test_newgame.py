"""Setting up a scenario game (supplement "Countries and sides at the start", "Placing units")."""

from __future__ import annotations

import dataclasses

import pytest

from engine import api
from engine.actions import Action
from engine.newgame import new_scenario_game, start_scenario, world_matching
from engine.position import build_world
from engine.scenario import ScenarioError, parse_scenario
from engine.sequence import begin
from engine.state import LandKey
from engine.units import UnitType
from engine.world import CountryInfo

COUNTRIES = "\n".join(
    f"""
[[country]]
name = "{name}"
code = "{code}"
adjective = "x"
region = "{region}"
leans_allied = {str(name in ("Poland", "China")).lower()}
leans_axis = {str(name in ("Germany", "Japan")).lower()}
has_units = true
rail_capacity = 1
"""
    for name, code, region in (
        ("Germany", "GER", "europe"),
        ("Poland", "POL", "europe"),
        ("Japan", "JPN", "asia"),
        ("China", "CHN", "asia"),
    )
)

SCENARIO = """
[scenario]
name = "1939"
title = "test"
start = "1939-09"
start_phase = "war_declaration"

[at_war]
China = "allies"
Japan = "axis"

[joins_at_start]
Germany = "axis"

[[start_control]]
temp_border = "china_japan_1939"
country = "Japan"
first_turn_placement = true

[money]
Germany = 1000
Japan = 800

[pool.Germany]
land = [{ type = "infantry", points = 20 }, { type = "armor", points = 8 }]

[pool.Poland]
land = [{ type = "infantry", points = 10 }]

[pool.Japan]
land = [{ type = "infantry", points = 6 }, { type = "supply", count = 1 }]
air = [{ type = "bomber", name = "G3M", profile = "0-2-1-12" }]

[pool.China]
land = [{ type = "infantry", points = 9 }]
"""

WORLD_PICTURE = """
G:c G:c P:c P:c ~   J:c
 G:c G:c P:c P:c ~  J:c
C:c C:c C:c C:c C:c ~
"""


def small_game():  # type: ignore[no-untyped-def]
    scenario = parse_scenario("1939", {"countries.toml": COUNTRIES, "1939.toml": SCENARIO})
    world = build_world(
        WORLD_PICTURE,
        cities={
            "Berlin": "0,0 capital",
            "Warsaw": "3,0 capital",
            "Tokyo": "5,0 capital",
            "Nanjing": "3,2",
            "Chongqing": "0,2 capital",
        },
        resources=["0,0", "3,0", "5,0", "3,2"],
        temp_borders={"china_japan_1939": ["3,2", "4,2"]},
        countries=[
            CountryInfo(c.name, c.region, c.leans_allied, c.has_units, c.rail_capacity, c.leans_axis)
            for c in scenario.countries
        ],
    )
    world = dataclasses.replace(world, schedule=scenario)
    return world, start_scenario(world, scenario)


def test_the_1939_start_sides_money_pools_and_japanese_china() -> None:
    """Supplement "Countries and sides at the start": China Allied and Japan Axis at war,
    Germany joins the Axis at the first war declaration phase, Japan controls its part of
    China; countries at war place their whole pool at the first deployment."""
    world, state = small_game()
    assert state.date == 1939 * 12 + 8 and api.decision(state).phase == "war_declaration"
    c = state.countries
    assert (c["China"].side, c["China"].at_war, c["Japan"].side) == ("allies", True, "axis")
    assert c["Japan"].free_land == {LandKey(UnitType.INFANTRY, 3): 6, LandKey(UnitType.SUPPLY, 3): 1}
    assert c["Japan"].pool_land == {}
    assert [state.units[u].name for u in c["Japan"].free_units] == ["G3M"]
    assert c["Poland"].pool_land == {LandKey(UnitType.INFANTRY, 3): 10} and not c["Poland"].at_war
    assert c["Germany"].money == 1000 and c["Poland"].money == 0
    assert state.controller_of(world.map.grid.parse_label("3,2")) == "Japan"
    begin(state)
    assert c["Germany"].side == "axis" and c["Germany"].at_war
    assert c["Germany"].free_land == {LandKey(UnitType.ARMOR, 5): 8, LandKey(UnitType.INFANTRY, 3): 20}


def test_japan_may_place_in_its_part_of_china_in_the_first_turn() -> None:
    """Supplement "Placing units": in the first turn of the 1939 scenario Japanese units may
    be placed in hexes of China that Japan controls."""
    world, state = small_game()
    begin(state)
    api.apply_simultaneous(state, {s: [] for s in api.decision(state).sides})
    assert api.decision(state).phase == "deployment"
    nanjing = world.map.grid.parse_label("3,2")
    api.check(state, "axis", Action("place_land", ("Japan", "infantry", 3, 2, nanjing)))


def test_round_trip_of_a_scenario_start_is_byte_identical() -> None:
    """Design contract: serialise and load back a game state without change."""
    world, state = small_game()
    begin(state)
    data = api.serialize(state)
    assert api.serialize(api.deserialize(data, world)) == data


def test_world_matching_ignores_garbage() -> None:
    """Design contract: a saved game of an unknown world is not matched to any world."""
    assert world_matching(b"not msgpack") is None
    assert world_matching(b"\x81\xa5world\xa3abc") is None


def test_unknown_options_are_refused() -> None:
    """Design contract: a game option the engine does not know cannot be silently ignored."""
    with pytest.raises(ScenarioError, match="unknown game option"):
        new_scenario_game("1939", {"fog": True})


def test_new_game_1939_on_the_real_data() -> None:
    """Supplement "Countries and sides at the start": the packaged 1939 scenario starts."""
    state = api.new_game("1939")
    assert state.countries["Germany"].side == "axis"
    assert state.countries["China"].at_war and state.countries["Japan"].at_war
    data = api.serialize(state)
    assert world_matching(data) is state.world
    assert api.serialize(api.deserialize(data)) == data
