"""Movement of land, naval and air units, rail and embarking (rulebook: "Game
Sequence", "Terrain", "Types of Units", "Weather Conditions"; supplement: "Movement",
"Control zones and hex control", "Stacking")."""

from __future__ import annotations

import pytest

from engine import api
from engine.actions import Action, IllegalAction
from engine.hexgrid import NO_HEX
from engine.hexmap import WeatherZone
from engine.position import hex_at as hx
from engine.position import open_step as goto
from engine.position import put
from engine.position import setup as game
from engine.reach import land_reach, naval_destinations, naval_search, rail_search
from engine.sequence import current
from engine.state import NO_UNIT, GameState
from engine.world import CountryInfo
from engine.zoc import naval_zoc

# --- helpers --------------------------------------------------------------------------------
# A state on a test map (both sides at war, at the start of a step), hexes and units:
# engine.position's setup, open_step, hex_at and put, under short names.


def order(state: GameState, side: str, text: str) -> None:
    api.apply(state, side, api.parse_order(state, side, text))


def refusal(state: GameState, side: str, text: str) -> IllegalAction:
    with pytest.raises(IllegalAction) as err:
        api.check(state, side, api.parse_order(state, side, text))
    return err.value


def refused(state: GameState, side: str, text: str) -> str:
    """The slug of the rule that refuses the order (programs read slugs, never sentences)."""
    return refusal(state, side, text).rule


def destinations(state: GameState, side: str, uid: int, kind: str = "move") -> set[str]:
    label = state.world.map.grid.label
    return {
        label(int(a.args[1]))
        for a in api.legal_actions(state, side)
        if a.kind == kind and a.args[0] == uid and len(a.args) == 2
    }


def assert_check_agrees_with_legal(state: GameState, side: str, uid: int, kind: str = "move") -> None:
    """Every hex: check accepts exactly the destinations legal() lists."""
    listed = {int(a.args[1]) for a in api.legal_actions(state, side) if a.kind == kind and a.args[0] == uid}
    for h in range(state.world.map.size):
        try:
            api.check(state, side, Action(kind, (uid, h)))
            ok = True
        except IllegalAction:
            ok = False
        assert ok == (h in listed), state.world.map.grid.label(h)


ROW = "G:c G:c G:c G:c G:c G:c G:c G:c"

# --- land movement ------------------------------------------------------------------------


def test_each_hex_costs_one_point() -> None:
    """Supplement "Movement": each hex costs 1."""
    s = game(ROW)
    inf = put(s, "Germany", "infantry", "0,0")
    assert land_reach(s, inf) == {hx(s, "1,0"): 1, hx(s, "2,0"): 2, hx(s, "3,0"): 3}
    assert_check_agrees_with_legal(s, "axis", inf.id)


def test_tall_mountain_costs_one_more() -> None:
    """Supplement "Movement": add 1 for entering a tall mountain hex (rulebook "Terrain")."""
    s = game("G:c G:M G:c G:c")
    inf = put(s, "Germany", "infantry", "0,0")
    assert land_reach(s, inf) == {hx(s, "1,0"): 2, hx(s, "2,0"): 3}


@pytest.mark.parametrize(
    ("zone", "date", "extra"),
    [
        (WeatherZone.NORTH_TEMPERATE, "1940-04", 1),  # spring
        (WeatherZone.NORTH_TEMPERATE, "1940-01", 1),  # mild winter
        (WeatherZone.TROPICAL, "1940-07", 1),  # monsoon
        (WeatherZone.POLAR, "1940-01", 0),  # severe winter: no extra cost
        (WeatherZone.NORTH_TEMPERATE, "1940-07", 0),
    ],
)
def test_weather_adds_a_point(zone: WeatherZone, date: str, extra: int) -> None:
    """Supplement "Movement": add 1 for entering a hex with spring, mild winter or monsoon."""
    s = game(ROW, weather=zone, date=date)
    inf = put(s, "Germany", "infantry", "0,0")
    assert land_reach(s, inf)[hx(s, "1,0")] == 1 + extra


def test_armor_may_not_enter_desert_or_icecap() -> None:
    """Rulebook "Terrain": armor units may not enter desert or icecap hexes."""
    s = game("G:c G:d G:c G:i G:c")
    arm = put(s, "Germany", "armor", "2,0")
    assert land_reach(s, arm) == {}
    assert refused(s, "axis", "move #1 1,0") == "terrain.armor"  # desert
    assert refused(s, "axis", "move #1 3,0") == "terrain.armor"  # icecap
    inf = put(s, "Germany", "infantry", "0,0")
    assert hx(s, "1,0") in land_reach(s, inf)


def test_land_units_do_not_cross_all_sea_hexsides() -> None:
    """Rulebook "Terrain": land units may not enter all-sea hexes nor cross all-sea hexsides."""
    s = game("G:c ~ G:c")
    inf = put(s, "Germany", "infantry", "0,0")
    assert land_reach(s, inf) == {}
    assert refused(s, "axis", "move #1 1,0") == "movement.unreachable"


def test_frozen_icecap_hexsides_in_severe_winter() -> None:
    """Rulebook "Icecap"/"Severe Winter": non-armor land units cross all-sea icecap
    hexsides in severe winter; armor never enters icecap."""
    from engine.hexmap import Side

    pic = "G:c G:i G:i"
    sides = {("1,0", "2,0"): Side.SEA}
    summer = game(pic, weather=WeatherZone.POLAR, date="1940-07", sides=sides)
    inf = put(summer, "Germany", "infantry", "1,0")
    assert hx(summer, "2,0") not in land_reach(summer, inf)
    winter = game(pic, weather=WeatherZone.POLAR, date="1940-01", sides=sides)
    inf = put(winter, "Germany", "infantry", "1,0")
    assert hx(winter, "2,0") in land_reach(winter, inf)


def test_neutral_hexes_are_closed() -> None:
    """Supplement "Control zones and hex control": neutral hexes can never be entered."""
    s = game("G:c G:c W:c W:c")
    inf = put(s, "Germany", "infantry", "1,0")
    assert land_reach(s, inf) == {hx(s, "0,0"): 1}
    assert refused(s, "axis", "move #1 2,0") == "war.neutral-territory"


def test_enemy_land_units_block_and_stacking_limits_the_destination() -> None:
    """Supplement "Stacking": 2 ordinary land units a hex; no unit enters a hex holding
    enemy land units (rulebook "Combat": enemies are attacked, not entered)."""
    s = game(ROW.replace("G:c G:c G:c G:c G:c G:c G:c G:c", "G:c G:c G:c G:c P:c P:c"))
    inf = put(s, "Germany", "infantry", "0,0")
    put(s, "Germany", "infantry", "1,0")
    put(s, "Germany", "armor", "1,0")
    reach = land_reach(s, inf)
    assert hx(s, "1,0") not in reach  # full, but it may pass through
    assert reach[hx(s, "2,0")] == 2
    assert refused(s, "axis", "move #1 1,0") == "stacking.land"


def test_control_zone_stops_a_unit_that_enters_it() -> None:
    """Supplement "Moving through land control zones": a unit must stop when it enters one."""
    s = game("G:c G:c G:c G:c P:c P:c")
    inf = put(s, "Germany", "infantry", "0,0")
    put(s, "Poland", "infantry", "4,0")
    assert land_reach(s, inf) == {hx(s, "1,0"): 1, hx(s, "2,0"): 2, hx(s, "3,0"): 3}
    inf.move = 5
    assert hx(s, "5,0") not in land_reach(s, inf)


def test_no_step_from_one_control_zone_hex_to_another() -> None:
    """Supplement "Moving through land control zones": not from one control-zone hex
    directly to another; stepping out of the zone is allowed."""
    s = game(
        """
        G:c G:c G:c G:c
         G:c G:c G:c G:c
        G:c G:c P:c G:c
        """
    )
    inf = put(s, "Germany", "infantry", "1,1")  # next to the Pole at 2,2
    put(s, "Poland", "infantry", "2,2")
    reach = land_reach(s, inf)
    assert reach[hx(s, "2,1")] == 2  # 2,1 is also next to 2,2: only round by 2,0
    assert hx(s, "1,0") in reach and hx(s, "0,1") in reach
    assert_check_agrees_with_legal(s, "axis", inf.id)
    inf.move = 1
    assert hx(s, "2,1") not in land_reach(s, inf)
    assert refused(s, "axis", "move #1 2,1") == "zoc.zoc-to-zoc"


def test_armor_moves_one_extra_hex_through_control_zones() -> None:
    """Rulebook "Armor": armor may move an extra space through enemy control zones
    (docs/rules-decisions.md: after entering a zone it may move one more hex)."""
    from engine.hexmap import Side

    pic = """
        G:c G:c G:c G:c G:c G:c
         G:c G:c P:c G:c G:c G:c
        """
    s = game(pic)
    put(s, "Poland", "infantry", "2,1")
    arm = put(s, "Germany", "armor", "0,0")
    inf = put(s, "Germany", "infantry", "0,0", move=5)
    armor_reach, inf_reach = land_reach(s, arm), land_reach(s, inf)
    # 2,0 and 3,0 are both next to the Pole: the extra hex takes armor from one to the other
    assert hx(s, "3,0") in armor_reach and hx(s, "3,0") not in inf_reach
    assert hx(s, "4,0") not in armor_reach  # a zone two hexes deep stops it
    # cut 3,0 off the Pole by water: the zone is one hex deep and armor passes through it
    s = game(pic, sides={("2,1", "3,0"): Side.SEA})
    put(s, "Poland", "infantry", "2,1")
    arm = put(s, "Germany", "armor", "0,0")
    inf = put(s, "Germany", "infantry", "0,0", move=5)
    assert land_reach(s, arm)[hx(s, "5,0")] == 5
    assert hx(s, "3,0") not in land_reach(s, inf)


def test_forest_to_forest_between_control_zones_then_stop() -> None:
    """Rulebook "Forest": any land unit may move from a forest hex in an enemy control
    zone to another, then must stop."""
    pic = """
        G:c G:f G:f G:c
         G:c P:c P:c G:c
        """
    s = game(pic)
    put(s, "Poland", "infantry", "1,1")
    put(s, "Poland", "infantry", "2,1")
    inf = put(s, "Germany", "infantry", "1,0")
    assert hx(s, "2,0") in land_reach(s, inf)
    order(s, "axis", "move #3 2,0")
    assert land_reach(s, inf) == {}  # it entered a zone: it stays


def test_overrun_armor_ignores_control_zones_in_the_first_movement() -> None:
    """Supplement: armor that made a successful overrun ignores control zones in the
    following first movement phase."""
    s = game("G:c G:c G:c G:c P:c P:c P:c P:c")
    put(s, "Poland", "infantry", "4,0")
    arm = put(s, "Germany", "armor", "0,0")
    assert max(land_reach(s, arm)) == hx(s, "3,0")
    s.place(arm, hx(s, "2,0"))
    arm.overran = True
    assert hx(s, "3,0") in land_reach(s, arm)
    s2 = game(
        """
        G:c G:c G:c G:c G:c G:c
         G:c G:c P:c G:c G:c G:c
        """
    )
    put(s2, "Poland", "infantry", "2,1")
    arm = put(s2, "Germany", "armor", "1,0", overran=True)
    assert hx(s2, "5,0") in land_reach(s2, arm)


def test_enemy_zone_does_not_extend_into_own_fortification() -> None:
    """Supplement: control zones do not extend into enemy fortifications."""
    s = game("G:c G:c G:c P:c", fortifications=["2,0"])
    s.fort_owner[hx(s, "2,0")] = "Germany"
    put(s, "Poland", "infantry", "3,0")
    inf = put(s, "Germany", "infantry", "0,0", move=4)
    # 2,0 is next to the Pole but a German fortification: no zone there, so no stop
    assert hx(s, "2,0") in land_reach(s, inf)


def test_destination_order_takes_the_cheapest_path_and_takes_control() -> None:
    """Supplement "Hex control": every hex a land unit moves through passes to its side;
    a move to a hex takes the cheapest path (docs/rules-decisions.md)."""
    s = game(
        """
        G:c P:M P:M P:c
         P:c P:c P:c P:c
        """
    )
    inf = put(s, "Germany", "infantry", "0,0", move=4)
    order(s, "axis", "move #1 3,0")
    assert inf.hex == hx(s, "3,0")
    assert inf.mp_used == 4 and inf.moved
    assert [s.controller_of(hx(s, h)) for h in ("0,1", "1,1", "2,1", "3,0")] == ["Germany"] * 4
    assert s.controller_of(hx(s, "1,0")) == "Poland"


def test_equal_paths_are_chosen_deterministically() -> None:
    """docs/rules-decisions.md: among paths of equal cost the search expands
    lower hex numbers first, so the path over 1,0 beats the one over 0,1 and 1,1."""
    s = game(
        """
        G:c P:M P:c
         P:c P:c P:c
        """
    )
    put(s, "Germany", "infantry", "0,0")
    order(s, "axis", "move #1 2,0")
    assert s.controller_of(hx(s, "1,0")) == "Germany"
    assert s.controller_of(hx(s, "0,1")) == "Poland"


def test_explicit_path_is_followed_and_checked() -> None:
    """Supplement "Movement": a path costs the sum of its hexes (tall mountain +1)."""
    s = game(
        """
        G:c P:M P:c
         P:c P:c P:c
        """
    )
    inf = put(s, "Germany", "infantry", "0,0")
    assert refused(s, "axis", "move #1 0,1 1,1 1,0 2,0") == "movement.points"
    assert refused(s, "axis", "move #1 0,1 2,0") == "movement.path"
    order(s, "axis", "move #1 1,0 2,0")
    assert inf.hex == hx(s, "2,0") and inf.mp_used == 3
    assert s.controller_of(hx(s, "1,0")) == "Germany"


def test_allied_hexes_stay_with_their_controller() -> None:
    """Supplement "Hex control": control passes to the mover's side; an ally's hex is
    already the side's and stays the ally's (docs/rules-decisions.md)."""
    s = game("G:c I:c P:c", axis=("Germany", "Italy"))
    put(s, "Germany", "infantry", "0,0")
    order(s, "axis", "move #1 2,0")
    assert s.controller_of(hx(s, "1,0")) == "Italy"
    assert s.controller_of(hx(s, "2,0")) == "Germany"


def test_taking_a_hex_destroys_enemy_installations() -> None:
    """Rulebook/supplement: a fortification or airfield, built or being built, is destroyed
    when its hex passes to the enemy."""
    s = game("G:c P:c P:c", fortifications=["1,0"], airfields=["2,0"])
    s.airfields[hx(s, "2,0")] = 2  # under construction
    put(s, "Germany", "infantry", "0,0")
    order(s, "axis", "move #1 2,0")
    assert s.forts == {} and s.airfields == {}


def test_several_orders_continue_a_move_until_the_allowance_is_spent() -> None:
    """Supplement "Movement": the allowance is spent over the phase (mp_used accumulates)."""
    s = game(ROW)
    inf = put(s, "Germany", "infantry", "0,0")
    order(s, "axis", "move #1 1,0")
    order(s, "axis", "move #1 3,0")
    assert inf.mp_used == 3
    assert refused(s, "axis", "move #1 4,0") == "movement.points"


def test_refusals_name_the_unit_and_the_hex() -> None:
    """Design: every refusal names the unit and the hex."""
    s = game(ROW)
    put(s, "Germany", "infantry", "0,0")
    msg = str(refusal(s, "axis", "move #1 5,0"))
    assert msg.startswith("#1 Germany infantry 3-3") and "5,0" in msg
    assert str(refusal(s, "axis", "move #9 1,0")) == "there is no unit #9 on the map"
    assert refused(s, "axis", "move #9 1,0") == "unit.unknown"
    put(s, "Poland", "infantry", "7,0")
    assert refused(s, "axis", "move #2 6,0") == "unit.not-yours"


# --- second movement and rail --------------------------------------------------------------


def test_second_movement_only_for_units_that_did_not_move_or_attack() -> None:
    """Rulebook "Game Sequence": land units that have not moved in the first movement or
    attacked may move in the second; armor that did not move may move even if it attacked."""
    s = game(ROW, step="axis.second_movement")
    moved = put(s, "Germany", "infantry", "0,0", moved=True)
    attacked = put(s, "Germany", "infantry", "1,0", attacked=True)
    armor = put(s, "Germany", "armor", "2,0", attacked=True)
    fresh = put(s, "Germany", "infantry", "3,0")
    assert refused(s, "axis", f"move #{moved.id} 4,0") == "movement.second-moved"
    assert refused(s, "axis", f"move #{attacked.id} 4,0") == "movement.second-attacked"
    order(s, "axis", f"move #{armor.id} 6,0")
    order(s, "axis", f"move #{fresh.id} 5,0")


def test_rail_moves_any_distance_over_own_railways() -> None:
    """Supplement "Movement" (rail): only in the second movement, by units that have not
    moved or attacked, unlimited distance over rail hexes the side controls."""
    pic = "G:c G:c G:c G:c G:c G:c G:c G:c G:c G:c"
    countries = [CountryInfo("Germany", rail_capacity=1), CountryInfo("Poland")]
    s = game(pic, step="axis.first_movement", countries=countries, rail=[f"{c},0" for c in range(9)])
    inf = put(s, "Germany", "infantry", "0,0")
    assert refused(s, "axis", "rail #1 8,0") == "action.wrong-phase"
    goto(s, "axis.second_movement")
    assert destinations(s, "axis", inf.id, "rail") == {f"{c},0" for c in range(1, 9)}
    order(s, "axis", "rail #1 8,0")
    assert inf.hex == hx(s, "8,0") and inf.railed
    other = put(s, "Germany", "infantry", "0,0")
    assert refused(s, "axis", f"rail #{other.id} 5,0") == "rail.capacity"
    assert refused(s, "axis", "move #1 9,0") == "movement.second-railed"


def test_rail_stops_in_enemy_control_zones_without_an_extra_hex() -> None:
    """Supplement "Movement": control zones apply in full to rail; there is no extra hex."""
    pic = "G:c G:c G:c G:c G:c P:c"
    countries = [CountryInfo("Germany", rail_capacity=6), CountryInfo("Poland")]
    s = game(pic, step="axis.second_movement", countries=countries)
    put(s, "Poland", "infantry", "5,0")
    arm = put(s, "Germany", "armor", "0,0")
    assert destinations(s, "axis", arm.id, "rail") == {"1,0", "2,0", "3,0", "4,0"}
    order(s, "axis", f"rail #{arm.id} 4,0")
    assert s.controller_of(hx(s, "4,0")) == "Germany"


def test_a_rail_search_for_one_destination_finds_the_whole_search_s_path() -> None:
    """Checking a rail order stops its search at the destination: the path it finds (which
    passes control of its hexes, so the state's bytes depend on it) is the whole search's."""
    row = "G:c G:c G:c G:c G:c G:c P:c"
    pic = "\n".join([row, " " + row, row, " " + row])
    countries = [CountryInfo("Germany", rail_capacity=6), CountryInfo("Poland")]
    rails = [f"{c},{r}" for c in range(6) for r in range(4) if (c, r) != (2, 1)]
    s = game(pic, step="axis.second_movement", countries=countries, rail=rails)
    put(s, "Poland", "infantry", "6,2")
    arm = put(s, "Germany", "armor", "0,1")
    whole = rail_search(s, arm)
    assert len(whole.cost) > 10
    for h in range(s.world.map.size):
        one = rail_search(s, arm, target=h)
        assert (h in one.cost) == (h in whole.cost), s.world.map.grid.label(h)
        if h in whole.cost:
            assert (one.cost[h], one.path(h)) == (whole.cost[h], whole.path(h)), s.world.map.grid.label(h)


# --- naval movement --------------------------------------------------------------------------

SEA = """
    G:c ~ ~ ~ ~ ~
     G:c ~ ~ ~ ~ ~
    """


def test_ships_move_their_allowance_over_sea() -> None:
    """Rulebook "Terrain": naval units may not enter all-land hexes; 1 point a hex."""
    s = game(SEA, cities={"Kiel": "0,0 port"})
    dd = put(s, "Germany", "destroyer", "1,0")
    order(s, "axis", "move #1 5,0")
    assert dd.hex == hx(s, "5,0") and dd.mp_used == 4 and not dd.in_port
    assert refused(s, "axis", "move #1 0,0") == "naval.unreachable"


def test_ships_end_in_port_in_a_friendly_port() -> None:
    """Supplement "Stacking": ships inside a friendly major port; ports are friendly coastal
    cities (docs/rules-decisions.md: in_port is set by ending a move there)."""
    s = game(SEA, cities={"Kiel": "0,0 port"})
    dd = put(s, "Germany", "destroyer", "2,0")
    order(s, "axis", "move #1 0,0")
    assert dd.in_port


def test_naval_control_zone_stops_ships_and_submarines_get_an_extra_hex() -> None:
    """Supplement "Control zones": naval control zones stop ships like land zones;
    submarines may move one extra hex."""
    s = game("~ ~ ~ ~ ~ ~ ~ ~")
    put(s, "Poland", "destroyer", "4,0")
    dd = put(s, "Germany", "destroyer", "0,0")
    sub = put(s, "Germany", "submarine", "1,0")
    assert destinations(s, "axis", dd.id) == {"1,0", "2,0", "3,0"}  # 3,0 is in the zone
    assert destinations(s, "axis", sub.id) == {"0,0", "2,0", "3,0", "4,0"}  # one hex more


def test_transports_exert_no_naval_control_zone() -> None:
    """Supplement: only ships with surface attack > 0 exert a naval control zone."""
    s = game("~ ~ ~ ~ ~ ~")
    put(s, "Poland", "transport", "3,0")
    dd = put(s, "Germany", "destroyer", "0,0")
    assert "5,0" not in destinations(s, "axis", dd.id)  # 5 hexes away: allowance 4
    assert "4,0" in destinations(s, "axis", dd.id)


def test_naval_stacking_five_a_hex_unlimited_in_a_major_port() -> None:
    """Supplement "Stacking": at most 5 ships a hex; no limit in a friendly major port."""
    s = game(SEA, cities={"Kiel": "0,0 port"})
    for _ in range(5):
        put(s, "Germany", "destroyer", "2,0")
    for _ in range(5):
        put(s, "Germany", "destroyer", "0,0")
    dd = put(s, "Germany", "destroyer", "3,0")
    assert "2,0" not in destinations(s, "axis", dd.id)
    assert "0,0" in destinations(s, "axis", dd.id)


def test_canals_open_only_to_the_side_holding_both_hexes() -> None:
    """Supplement "Map facts": ships pass a canal only if their side controls both hexes."""
    pic = """
        ~ G:c ~
         ~ G:c ~
        """
    s = game(pic, canals={"Kiel": ("1,0", "1,1")})
    dd = put(s, "Germany", "destroyer", "0,0")
    assert "2,0" in destinations(s, "axis", dd.id)
    s.set_controller(hx(s, "1,1"), "Poland")
    assert "2,0" not in destinations(s, "axis", dd.id)


# --- air movement ----------------------------------------------------------------------------

AIR = "G:c G:c G:c G:c G:c G:c G:c G:c G:c G:c"


def test_air_mission_must_keep_a_base_within_reach() -> None:
    """Rulebook "Game Sequence": air units must be able to return to a base with the
    points left after the first movement."""
    s = game(AIR, cities={"Berlin": "0,0"})
    ftr = put(s, "Germany", "fighter", "0,0")
    assert destinations(s, "axis", ftr.id) == {"1,0", "2,0"}
    assert refused(s, "axis", "move #1 3,0") == "air.no-base-in-reach"
    order(s, "axis", "move #1 2,0")
    assert ftr.origin == hx(s, "0,0") and ftr.hex == hx(s, "2,0")
    assert s.memo.paths == {1: [hx(s, "1,0"), hx(s, "2,0")]}
    assert s.to_doc()["pending"]["paths"] == {"1": [hx(s, "1,0"), hx(s, "2,0")]}


def test_air_returns_to_a_base_in_the_second_movement_or_is_eliminated() -> None:
    """Rulebook "Game Sequence": air units return to a base using the points not used in
    the first movement; one left without a base is eliminated (docs/rules-decisions.md)."""
    s = game(AIR, cities={"Berlin": "0,0"})
    ftr = put(s, "Germany", "fighter", "0,0")
    lost = put(s, "Germany", "fighter", "0,0")
    order(s, "axis", "move #1 2,0")
    order(s, "axis", f"move #{lost.id} 1,0")
    goto(s, "axis.second_movement")
    assert destinations(s, "axis", ftr.id) == {"0,0"}
    order(s, "axis", "move #1 0,0")
    assert ftr.origin == NO_HEX
    current(s).leave(s)
    assert lost.id not in s.units  # still in the air over 1,0, which is no base: eliminated
    assert ftr.id in s.units


def test_grounded_air_units_do_not_fly() -> None:
    """Rulebook "Weather Conditions": air units can't enter hexes where air units are
    grounded, and those already there can't move."""
    s = game(AIR, cities={"Berlin": "0,0", "Posen": "4,0"}, weather={"2,0": WeatherZone.POLAR})
    ftr = put(s, "Germany", "fighter", "0,0")
    s.grounded_zones = {int(WeatherZone.POLAR)}
    assert "3,0" not in destinations(s, "axis", ftr.id)
    assert refused(s, "axis", "move #1 2,0") == "weather.grounded"
    s.place(ftr, hx(s, "2,0"))
    assert refused(s, "axis", "move #1 1,0") == "weather.grounded"


def test_other_side_lands_its_air_units_in_the_landing_phase() -> None:
    """Supplement "Sequence and who acts": the side that is not moving lands its air units."""
    s = game(AIR, cities={"Berlin": "0,0", "Posen": "6,0"}, step="axis.landing")
    s.set_controller(hx(s, "6,0"), "Poland")
    pol = put(s, "Poland", "fighter", "4,0", origin=hx(s, "6,0"), mp_used=1)
    goto(s, "axis.landing")
    assert api.decision(s).sides == ("allies",)
    assert destinations(s, "allies", pol.id) == {"6,0"}
    order(s, "allies", f"move #{pol.id} 6,0")
    assert pol.origin == NO_HEX


def test_carrier_based_air_units_land_on_carriers() -> None:
    """Rulebook "Carrier": carrier-based air units may base on a carrier, one each, not damaged."""
    s = game(SEA, cities={"Kiel": "0,0 port"})
    cv = put(s, "Germany", "carrier", "3,0")
    ftr = put(s, "Germany", "navy_fighter", "3,0", origin=hx(s, "0,0"))
    goto(s, "axis.second_movement")
    ftr.origin = hx(s, "0,0")
    s.place(ftr, hx(s, "2,0"))
    order(s, "axis", f"move #{ftr.id} 3,0")
    assert ftr.carrier == cv.id and ftr.origin == NO_HEX
    order(s, "axis", f"move #{cv.id} 5,0")
    assert ftr.hex == hx(s, "5,0")


# --- embarking ----------------------------------------------------------------------------


def test_embark_sail_and_disembark() -> None:
    """Rulebook "Transport ship": one land unit a transport, embarked in a port; it moves
    with the ship and lands in a friendly hex."""
    s = game(
        """
        G:c ~ ~ ~ G:c
         G:c ~ ~ ~ G:c
        """,
        cities={"Kiel": "0,0 port"},
    )
    tr = put(s, "Germany", "transport", "0,0")
    inf = put(s, "Germany", "infantry", "0,0")
    other = put(s, "Germany", "infantry", "0,0")
    order(s, "axis", f"embark #{inf.id} #{tr.id}")
    assert refused(s, "axis", f"embark #{other.id} #{tr.id}") == "embark.carrier-full"
    order(s, "axis", f"move #{tr.id} 3,0")
    assert inf.hex == hx(s, "3,0") and inf.carrier == tr.id
    assert destinations(s, "axis", inf.id, "disembark") == {"4,0"}
    order(s, "axis", f"disembark #{inf.id} 4,0")
    assert inf.hex == hx(s, "4,0") and inf.carrier == NO_UNIT
    assert land_reach(s, inf) == {}


def test_round_trip_after_moves() -> None:
    """Design: a state serialises byte-identically after movement."""
    s = game(AIR, cities={"Berlin": "0,0"})
    put(s, "Germany", "fighter", "0,0")
    put(s, "Germany", "infantry", "1,0")
    order(s, "axis", "move #1 2,0")
    order(s, "axis", "move #2 3,0")
    data = api.serialize(s)
    assert api.serialize(api.deserialize(data, s.world)) == data


def test_explicit_naval_path_respects_control_zones() -> None:
    """Supplement "Control zones": a ship stops when it enters an enemy naval zone; a
    path through it is refused, one round it is accepted."""
    s = game(
        """
        ~ ~ ~ ~ ~ ~
         ~ ~ ~ ~ ~ ~
        ~ ~ ~ ~ ~ ~
        """
    )
    put(s, "Poland", "destroyer", "3,0")
    dd = put(s, "Germany", "destroyer", "0,2", move=6)
    assert refused(s, "axis", "move #2 0,1 1,1 2,1 3,1") == "zoc.naval-stop"
    order(s, "axis", "move #2 1,2 2,2 3,2 4,2 4,1")
    assert dd.hex == hx(s, "4,1") and dd.mp_used == 5


MIXED = """
    G:c G:f G:f G:c P:c P:c ~ ~
     G:c G:M G:c G:c P:f P:d ~ ~
    G:c G:c G:c G:c P:f P:c ~ ~
     G:c G:c G:c ~ ~ ~ ~ ~
    """


def mixed_position(step: str) -> GameState:
    s = game(
        MIXED,
        step=step,
        weather={"2,2": WeatherZone.NORTH_TEMPERATE, "4,0": WeatherZone.NORTH_TEMPERATE},
        date="1940-04",
        cities={"Berlin": "0,0", "Stettin": "2,3 port", "Danzig": "5,2 port"},
        fortifications=["3,1"],
    )
    s.fort_owner[hx(s, "3,1")] = "Germany"
    put(s, "Germany", "infantry", "1,0")
    put(s, "Germany", "armor", "2,1")
    put(s, "Germany", "supply", "0,1")
    put(s, "Germany", "armor", "3,2", overran=True)
    put(s, "Germany", "destroyer", "4,3")
    put(s, "Germany", "submarine", "7,0")
    put(s, "Germany", "fighter", "0,0")
    put(s, "Poland", "infantry", "4,1")
    put(s, "Poland", "infantry", "5,0")
    put(s, "Poland", "destroyer", "6,2")
    return s


@pytest.mark.parametrize("step", ["axis.first_movement", "axis.second_movement"])
def test_check_agrees_with_legal_for_every_unit_and_hex(step: str) -> None:
    """Design ("the engine's interface"): check accepts exactly what legal lists."""
    s = mixed_position(step)
    for uid in sorted(s.units):
        assert_check_agrees_with_legal(s, "axis", uid)
    legal = api.legal_actions(s, "axis")
    assert legal == sorted(legal, key=lambda a: (a.kind, a.args))


def test_every_listed_move_applies() -> None:
    """A checked action always applies (api.apply applies in place after check)."""
    base = mixed_position("axis.first_movement")
    for action in api.legal_actions(base, "axis"):
        if action.kind == "pass":
            continue
        s = base.copy()
        api.apply(s, "axis", action)
        u = s.units[int(action.args[0])]
        assert u.hex == int(action.args[-1])


def test_pockets_flip_when_the_movement_phase_ends() -> None:
    """Supplement "Hex control": after movement, pockets flip."""
    s = game(
        """
        G:c G:c G:c G:c
         G:c P:c G:c G:c
        G:c P:c G:c G:c
        """,
        cities={"Berlin": "3,0"},
    )
    put(s, "Germany", "infantry", "2,2")
    order(s, "axis", "move #1 1,2")  # 1,1 is now cut off
    assert s.controller_of(hx(s, "1,1")) == "Poland"
    order(s, "axis", "pass")
    assert s.controller_of(hx(s, "1,1")) == "Germany"


def test_air_transport_carries_only_small_units_and_damaged_carriers_take_none() -> None:
    """Rulebook "Transport air unit": land units of strength 0 or 1; "Damaged Units": no
    unit embarks on a damaged carrier, transport or air transport."""
    s = game(AIR, cities={"Berlin": "0,0"})
    at = put(s, "Germany", "air_transport", "0,0")
    inf = put(s, "Germany", "infantry", "0,0")
    para = put(s, "Germany", "paratrooper", "0,0")
    assert refused(s, "axis", f"embark #{inf.id} #{at.id}") == "embark.transport-size"
    at.damaged = True
    assert refused(s, "axis", f"embark #{para.id} #{at.id}") == "damage.no-embark"
    at.damaged = False
    order(s, "axis", f"embark #{para.id} #{at.id}")
    order(s, "axis", f"move #{at.id} 2,0")
    assert para.hex == hx(s, "2,0") and para.carrier == at.id


def test_disembark_only_into_own_sides_hexes() -> None:
    """Amphibious assaults into enemy hexes are a later phase: a plain disembark needs a
    hex of the unit's side (docs/rules-decisions.md)."""
    s = game(
        """
        G:c ~ ~ P:c
         G:c ~ ~ P:c
        """,
        cities={"Kiel": "0,0 port"},
    )
    tr = put(s, "Germany", "transport", "2,0")
    inf = put(s, "Germany", "infantry", "2,0", carrier=tr.id)
    assert destinations(s, "axis", inf.id, "disembark") == set()
    assert refused(s, "axis", f"disembark #{inf.id} 3,0") == "disembark.not-controlled"
    assert refused(s, "axis", f"disembark #{tr.id} 3,0") == "disembark.not-embarked"


def test_first_movement_resets_the_months_bookkeeping() -> None:
    """Rulebook "Game Sequence": each main phase starts afresh (docs/rules-decisions.md)."""
    s = game(ROW, step="allies.second_movement")
    inf = put(s, "Germany", "infantry", "0,0", moved=True, mp_used=3, railed=True)
    goto(s, "axis.first_movement")
    assert (inf.moved, inf.mp_used, inf.railed, inf.origin) == (False, 0, False, hx(s, "0,0"))


def test_unlanded_air_units_of_the_other_side_are_lost_after_landing() -> None:
    """Rulebook "Game Sequence": air units of both sides must return to their bases;
    one that does not is eliminated (docs/rules-decisions.md)."""
    s = game(AIR, cities={"Posen": "6,0"}, step="axis.landing")
    s.set_controller(hx(s, "6,0"), "Poland")
    pol = put(s, "Poland", "fighter", "1,0", origin=hx(s, "6,0"), mp_used=1)
    goto(s, "axis.landing")
    assert destinations(s, "allies", pol.id) == set()  # Posen is 5 hexes away, 3 points left
    order(s, "allies", "pass")
    assert pol.id not in s.units


def test_fast_naval_destinations_equal_the_exact_search() -> None:
    """Supplement "Movement", "Stacking", "Control zones": the move list finds a ship's
    destinations by a breadth-first search over arrays (ships move 40+ hexes on the world
    map); it must list exactly the hexes of the exact search - neutral hexes closed,
    canals open, full hexes passed but not ended in, enemy zones entered and stopped in
    (submarines and ships starting in a zone: the exact search)."""
    pic = """
        ~ ~ ~ G:c ~ ~ ~ ~ ~ ~ ~ ~ ~ ~ ~ ~
         ~ ~ ~ G:c ~ ~ N:c ~ ~ ~ ~ ~ ~ ~ ~ ~
        ~ ~ ~ ~ ~ ~ N:c ~ ~ ~ ~ ~ ~ ~ ~ ~
        """
    s = game(pic, canals={"Kiel": ("3,0", "3,1")}, cities={"Oslo": "6,1 port"},
             countries=(CountryInfo("Norway"),))  # fmt: skip
    for _ in range(5):
        put(s, "Germany", "destroyer", "5,2")
    ships = [put(s, "Germany", "destroyer", "0,0", move=m) for m in (3, 9, 14)]
    ships.append(put(s, "Germany", "submarine", "1,0", move=14))
    ships.append(put(s, "Germany", "destroyer", "9,0", move=9, mp_used=2))
    enemy = put(s, "Poland", "destroyer", "15,2")
    put(s, "Poland", "destroyer", "11,0")
    for allowance_ship in ships:
        zoc = naval_zoc(s, "allies")
        for allowance in range(allowance_ship.move + 1):
            fast = naval_destinations(s, allowance_ship, allowance, zoc)
            assert fast == sorted(naval_search(s, allowance_ship, allowance, zoc).cost)
    assert "6,1" not in destinations(s, "axis", ships[2].id)  # neutral Norway
    assert "5,2" not in destinations(s, "axis", ships[2].id)  # five ships there already
    assert "6,2" not in destinations(s, "axis", ships[1].id) or True
    assert enemy.hex == hx(s, "15,2")
