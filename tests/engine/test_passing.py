"""What a pass would cost: aircraft lost in the air, land units out of supply, money unspent."""

from __future__ import annotations

from engine import api, passing
from engine.hexgrid import NO_HEX
from engine.position import hex_at as hx
from engine.position import put
from engine.state import LandKey
from engine.units import COSTS, UnitType
from tests.ai.worlds import FRONT_WORLD, advance_to, at_war, infantry


def test_an_aircraft_left_in_the_air_is_announced_and_then_really_lost() -> None:
    state = at_war(FRONT_WORLD)
    plane = put(state, "Germany", "fighter", "0,2", attack=3, move=8)  # Berlin: an air base
    advance_to(state, "axis.first_movement")
    assert api.pass_warnings(state, "axis") == []
    api.apply(state, "axis", api.Action("move", (plane.id, hx(state, "1,3"))))  # a mission, no base there
    # In the first movement an aircraft in the air is on a mission: passing costs nothing yet.
    assert [w.slug for w in api.pass_warnings(state, "axis")] == []
    api.apply(state, "axis", api.Action("pass"))
    advance_until_second_movement(state)
    (warning,) = api.pass_warnings(state, "axis")
    assert warning.slug == passing.AIR_LOST and plane.label() in warning.sentence
    api.apply(state, "axis", api.Action("pass"))
    assert plane.id not in state.units or state.units[plane.id].hex == NO_HEX


def advance_until_second_movement(state: api.GameState) -> None:
    for _ in range(20):
        d = api.decision(state)
        if d.phase == "axis.second_movement":
            return
        if d.kind == "chance":
            api.apply_chance(state, bytes(32))
        else:
            api.apply(state, d.sides[0], api.Action("pass"))
    raise AssertionError("the axis second movement never came")


def test_the_other_side_is_warned_in_its_landing_phase() -> None:
    state = at_war(FRONT_WORLD)
    plane = put(state, "Poland", "fighter", "5,3", attack=3, move=8)
    plane.origin = hx(state, "6,2")  # still in the air from an interception
    advance_to(state, "axis.landing")
    assert [w.slug for w in api.pass_warnings(state, "allies")] == [passing.AIR_LOST]
    state.units[plane.id].hex = hx(state, "6,2")  # over Warsaw, an air base: it can land there
    state._by_hex = None
    assert api.pass_warnings(state, "allies") == []
    assert api.pass_warnings(state, "allies") == []


def test_land_units_that_cannot_trace_supply_are_named_in_a_movement_phase() -> None:
    state = at_war(FRONT_WORLD)
    cut = infantry(state, "Germany", "7,4")  # in Polish-held land
    home = infantry(state, "Germany", "1,2")
    advance_to(state, "axis.first_movement")
    (warning,) = api.pass_warnings(state, "axis")
    assert warning.slug == passing.OUT_OF_SUPPLY
    assert state.units[cut].label() in warning.sentence and state.units[home].label() not in warning.sentence
    # Not the axis' decision: it costs the axis nothing to wait.
    assert api.pass_warnings(state, "allies") == []


def test_money_left_while_units_could_be_bought_is_named_in_the_build_phase() -> None:
    state = at_war(FRONT_WORLD)
    state.countries["Germany"].pool_land = {LandKey(UnitType.INFANTRY, 3): 5}
    advance_to(state, "build")
    germany = state.countries["Germany"]  # deciding replaces the state's records
    germany.money = 700
    (warning,) = api.pass_warnings(state, "axis")
    assert warning.slug == passing.MONEY_UNSPENT and "Germany $700B" in warning.sentence
    # After a list that buys the whole pool, passing costs nothing though money is left.
    spent = api.preview(state, "axis", [api.Action("buy", ("Germany", "infantry", 3, 5))])
    assert spent.countries["Germany"].money == 700 - 5 * COSTS[UnitType.INFANTRY].price > 0
    assert api.pass_warnings(spent, "axis") == []
    germany.money = 0
    assert api.pass_warnings(state, "axis") == []
