"""The position language (engine/position.py): a whole test position as text."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine import api
from engine.hexgrid import NO_HEX
from engine.position import AT_START, PROFILES, begin_at, build_world, hex_at, parse, put, setup
from engine.state import LandKey, parse_date
from engine.units import UnitType
from engine.world import CountryInfo

POSITION = """
    # Germany against Poland and the Soviet Union, the Axis about to move
    G:c G:f P:c P:c S:c
     G:c G:c P:c P:c S:c
    city Berlin 0,0 capital
    city Warsaw 3,0 capital
    resource 0,0
    war axis Germany
    war allies Poland "Soviet Union"
    date 1941-06
    step axis.first_movement
    unit Germany armor 1,0
    unit Germany infantry 1,1 strength=2 damaged=yes
    unit Poland infantry 3,0
    unit "Soviet Union" infantry 4,1
    unit Germany fighter -
    money Germany 120
    pool Poland infantry/3 4
    free Germany armor/5 2
"""


def test_a_position_sets_up_map_sides_units_money_date_and_step() -> None:
    state = parse(POSITION)
    hexmap = state.world.map
    assert hexmap.city_by_name["warsaw"].hex == hex_at(state, "3,0") and hex_at(state, "0,0") in hexmap.resources
    assert state.controller_of(hex_at(state, "4,1")) == "Soviet Union"
    assert {n: (c.side, c.at_war) for n, c in state.countries.items()} == {
        "Germany": ("axis", True),
        "Poland": ("allies", True),
        "Soviet Union": ("allies", True),
    }
    assert state.date == parse_date("1941-06")
    d = api.decision(state)
    assert (d.phase, d.sides) == ("axis.first_movement", ("axis",))
    armor, infantry, pole, russian, fighter = (state.units[i] for i in sorted(state.units))
    assert (armor.type, armor.hex, armor.strength, armor.move) == (UnitType.ARMOR, hex_at(state, "1,0"), 4, 5)
    assert (infantry.strength, infantry.damaged) == (2, True)
    assert pole.country == "Poland" and russian.country == "Soviet Union"
    assert fighter.hex == NO_HEX
    # the step was entered after the units were placed: they start the movement where they stand
    assert armor.origin == armor.hex
    assert state.countries["Germany"].money == 120
    assert state.countries["Poland"].pool_land == {LandKey(UnitType.INFANTRY, 3): 4}
    assert state.countries["Germany"].free_land == {LandKey(UnitType.ARMOR, 5): 2}


def test_a_position_and_the_same_calls_give_the_same_orders() -> None:
    text = parse(POSITION)
    calls = setup(
        "G:c G:f P:c P:c S:c\n G:c G:c P:c P:c S:c",
        allies=("Poland", "Soviet Union"),
        date="1941-06",
        step=None,
        cities={"Berlin": "0,0 capital", "Warsaw": "3,0 capital"},
        resources=["0,0"],
    )
    put(calls, "Germany", "armor", "1,0")
    put(calls, "Germany", "infantry", "1,1", strength=2, damaged=True)
    put(calls, "Poland", "infantry", "3,0")
    put(calls, "Soviet Union", "infantry", "4,1")
    put(calls, "Germany", "fighter", None)
    begin_at(calls, "axis.first_movement")
    assert api.legal_actions(text, "axis") == api.legal_actions(calls, "axis")


def test_without_war_lines_germany_fights_poland_in_the_axis_first_movement() -> None:
    state = parse("G:c P:c\nunit Germany infantry 0,0")
    assert state.countries["Poland"].side == "allies" and state.countries["Poland"].at_war
    assert api.decision(state).phase == "axis.first_movement"


def test_a_line_that_is_not_understood_is_refused_with_its_number() -> None:
    with pytest.raises(ValueError, match="position line 2 is not understood: wat 1"):
        parse("G:c P:c\nwat 1")


def test_setup_on_a_world_built_already_is_a_new_game_with_the_named_countries_at_war() -> None:
    world = build_world("G:c G:c P:c P:c S:c", cities={"Berlin": "0,0 capital", "Warsaw": "3,0 capital"})
    state = setup(world, allies=("Poland", "Soviet Union"), **AT_START)
    bare = api.new_game(world)
    for name, side in (("Germany", "axis"), ("Poland", "allies"), ("Soviet Union", "allies")):
        c = bare.countries[name]
        c.side, c.at_war, c.entered = side, True, 0
    assert state.world is world and api.serialize(state) == api.serialize(bare)
    with pytest.raises(ValueError, match="no countries or map options"):
        setup(world, countries=[CountryInfo("Germany")])


def test_put_makes_the_unit_of_a_kind_with_the_facts_given() -> None:
    state = setup("G:c G:c ~")
    ship = put(state, "Germany", "destroyer", "2,0", name="Z1", attack=1, move=30)
    assert ship.profile() == replace(PROFILES["destroyer"], name="Z1", attack=1, move=30)
    assert state.units_at(hex_at(state, "2,0")) == [ship]
    kept = put(state, "Germany", "convoy", None, in_port=True)
    assert kept.hex == NO_HEX and kept.in_port and kept.profile() == PROFILES["convoy"]
