"""Where the ferries land (issue 30; switch ``theatres``): a shipment sails further for a
front where a thinly held enemy city waits than for the nearest front, and a crowded ferry
port's spare transports go where troops can board them (switch ``ferry_flow``)."""

from __future__ import annotations

from engine import api
from engine.ai import ferry, theatres
from engine.ai.picture import Picture
from engine.ai.style import STYLES, V1
from engine.position import hex_at, parse, put
from engine.state import NO_UNIT, GameState
from tests.ai.worlds import play_phase

SEED = b"\x2d" * 32

# Britain (west), France across a short sea with a strong German front, and far to the
# south a French shore beside a thinly held Italian city.
TWO_FRONTS = """
U:c U:c ~ ~ F:c F:c G:c G:c G:c
 U:c U:c ~ ~ F:c F:c G:c G:c G:c
U:c U:c ~ ~ F:c F:c G:c G:c G:c
 ~ ~ ~ ~ ~ ~ ~ ~ ~
~ ~ ~ ~ ~ ~ ~ ~ ~
 ~ ~ ~ ~ ~ ~ ~ ~ ~
~ ~ ~ ~ ~ F:c F:c I:c I:c
 ~ ~ ~ ~ ~ F:c F:c I:c I:c
"""


def _position(picture: str, facts: list[str], date: str, axis: str = "Germany", **map_options: object) -> GameState:
    """A position with the United Kingdom and France at war with ``axis``, no step open."""
    war = [f"war axis {axis}", 'war allies "United Kingdom" France', f"date {date}", "step -"]
    return parse("\n".join([picture, *facts, *war]), **map_options)


def _london_ready(state: GameState) -> None:
    """London (1,1) holds a 4 and a 6 and an empty transport."""
    put(state, "United Kingdom", "infantry", "1,1", strength=4)
    put(state, "United Kingdom", "infantry", "1,1", strength=6)
    put(state, "United Kingdom", "transport", "1,1", in_port=True, move=12)


def french_front(state: GameState) -> None:
    """France holds the German front with three 5s against three 6s, and Algiers' coast
    (6,7) with a 2."""
    for row in "012":
        put(state, "France", "infantry", f"5,{row}", strength=5)
        put(state, "Germany", "infantry", f"6,{row}", strength=6)
        put(state, "Germany", "infantry", f"7,{row}", strength=6)
    put(state, "France", "infantry", "6,7", strength=2)


def two_fronts(italians: int = 0) -> GameState:
    """London (port) holds a 4 and a 6 and an empty transport; France holds the German
    front with three 5s against three 6s; Italy's Tripoli (8,6) holds ``italians``
    points, France's Algiers (5,6) stands across from it."""
    cities = ["city London 1,1 capital port", "city Paris 4,1 capital", "city Berlin 8,1 capital"]
    cities += ["city Tripoli 8,6", "city Algiers 5,6 port", "resource 1,1 4,1 8,1 5,6"]
    state = _position(TWO_FRONTS, cities, "1941-03", axis="Germany Italy")
    french_front(state)
    if italians:
        put(state, "Italy", "infantry", "7,6", strength=italians)
    _london_ready(state)
    return state


def _first_movement(state: GameState, player: str) -> None:
    play_phase(state, "allies", player, SEED, "allies.first_movement")


def _shipped_row(state: GameState) -> int | None:
    """The map row of the British unit that left London (aboard or ashore), if one did."""
    london = hex_at(state, "1,1")
    grid = state.world.map.grid
    for u in state.units_of("United Kingdom"):
        if not u.is_land:
            continue
        where = state.units[u.carrier].hex if u.carrier != NO_UNIT else u.hex
        if where != london:
            return grid.col_row(where)[1]
    return None


def test_a_thinly_held_city_not_yet_outweighed_is_an_opening() -> None:
    names = {"Tripoli": "8,6", "Berlin": "8,1"}
    at = {n: hex_at(two_fronts(), h) for n, h in names.items()}
    assert theatres.openings(Picture(two_fronts(), "allies")) == [at["Tripoli"]]
    # more enemy strength than THIN near it: no opening
    assert theatres.openings(Picture(two_fronts(italians=theatres.THIN + 1), "allies")) == []
    # our strength there already enough to take it: no opening
    strong = two_fronts(italians=3)
    put(strong, "France", "infantry", "5,7", strength=6)
    put(strong, "France", "infantry", "6,6", strength=6)
    assert theatres.openings(Picture(strong, "allies")) == []


def test_a_landing_place_by_an_opening_costs_less_than_one_at_the_front() -> None:
    state = two_fronts()
    pic = Picture(state, "allies")
    plain = ferry.place_costs(pic, "United Kingdom")
    weighed = ferry.place_costs(pic, "United Kingdom", theatres=True)
    south = {h for h in plain if state.world.map.grid.col_row(h)[1] >= 6}
    north = set(plain) - south
    assert south and north
    assert min(plain[h] for h in north) <= min(plain[h] for h in south)
    assert min(weighed[h] for h in south) < min(weighed[h] for h in north)


def test_the_bot_ships_to_the_opening_and_v1_to_the_nearest_front() -> None:
    rows = {}
    for player in ("bot", "v1"):
        state = two_fronts()
        _first_movement(state, player)
        rows[player] = _shipped_row(state)
    assert rows["v1"] is not None and rows["v1"] <= 2
    assert rows["bot"] is not None and rows["bot"] >= 3


def test_against_a_thick_enemy_the_bot_ships_to_the_nearest_front_too() -> None:
    state = two_fronts(italians=theatres.THIN + 4)
    _first_movement(state, "bot")
    row = _shipped_row(state)
    assert row is not None and row <= 2


CROWDED = """
~ ~ ~ ~ ~ ~ ~ ~ ~
 ~ U:c U:c U:c U:c ~ ~ F:c G:c
~ U:c U:c U:c U:c ~ ~ F:c G:c
 ~ U:c U:c U:c U:c ~ ~ F:c G:c
"""


def crowded() -> GameState:
    """Four empty transports in Glasgow (1,1) on Britain's west coast; Dover (4,2), its other
    port, has none; a spare 4 stands between them."""
    cities = ["city Glasgow 1,1 port", "city Dover 4,2 port", "city London 2,2 capital"]
    cities += ["city Paris 7,2 capital", "city Berlin 8,2 capital", "resource 2,2 7,2 8,2"]
    state = _position(CROWDED, cities, "1941-03")
    for row in "123":
        put(state, "France", "infantry", f"7,{row}", strength=5)
        put(state, "Germany", "infantry", f"8,{row}", strength=5)
    put(state, "United Kingdom", "infantry", "2,2", strength=6)
    put(state, "United Kingdom", "infantry", "3,3", strength=4)
    for _ in range(4):
        put(state, "United Kingdom", "transport", "1,1", in_port=True, move=12)
    return state


def test_a_crowded_ferry_port_sends_its_spare_transports_to_another_port() -> None:
    at_dover = {}
    for player in ("bot", "v1"):
        state = crowded()
        play_phase(state, "allies", player, SEED, "allies.second_movement")
        dover, glasgow = hex_at(state, "4,2"), hex_at(state, "1,1")
        ships = [u.hex for u in state.units_of("United Kingdom") if u.type == "transport"]
        at_dover[player] = (ships.count(dover), ships.count(glasgow))
    assert at_dover["v1"] == (0, 4)
    assert at_dover["bot"] == (ferry.GROUP, 4 - ferry.GROUP)


def test_a_port_with_no_unit_strong_enough_alone_keeps_its_strongest() -> None:
    state = crowded()
    glasgow = hex_at(state, "1,1")
    put(state, "United Kingdom", "infantry", "1,1", strength=2)
    put(state, "United Kingdom", "armor", "1,1", strength=1)
    pic = Picture(state, "allies")
    assert ferry.garrisons(pic)[glasgow] == ferry.GARRISON
    assert [u.strength for u in ferry.spare(pic, glasgow)] == []
    assert [u.strength for u in ferry.spare(pic, glasgow, alone=True)] == [1]


def test_the_switch_is_on_for_the_bot_and_deep_only() -> None:
    assert STYLES["bot"].theatres and STYLES["deep"].theatres
    assert not V1.theatres and not STYLES["gentle"].theatres


OUTPOST = """
U:c U:c ~ ~ F:c F:c G:c G:c
 U:c U:c ~ ~ F:c F:c G:c G:c
U:c U:c ~ ~ F:c F:c G:c G:c
 ~ ~ ~ ~ ~ ~ ~ ~
~ ~ ~ U:c ~ ~ ~ ~
"""


def outpost(enemy_transport: bool = True) -> GameState:
    """London (port) holds a 4 and a 6 and an empty transport; France holds a front; the
    island colony of Malta (Valletta, 3,4, a major port) is empty, where no British unit
    may be placed and none can walk."""
    cities = ["city London 1,1 capital port", "city Paris 4,1 capital", "city Berlin 7,1 capital"]
    cities += ["city Hamburg 7,2 port", "city Valletta 3,4 port", "resource 1,1 4,1 7,1 3,4"]
    state = _position(OUTPOST, cities, "1940-03", colonies={"Malta": "United Kingdom"}, colony_hexes={"Malta": ["3,4"]})
    for row in "012":
        put(state, "France", "infantry", f"5,{row}", strength=5)
        put(state, "Germany", "infantry", f"6,{row}", strength=5)
    _london_ready(state)
    if enemy_transport:
        put(state, "Germany", "transport", "7,2", in_port=True)
    return state


def test_an_empty_island_port_only_a_ferry_can_reach_is_an_outpost() -> None:
    state = outpost()
    valletta = hex_at(state, "3,4")
    assert ferry.outposts(Picture(state, "allies")) == [valletta]
    # no enemy transport: no landing can take it
    assert ferry.outposts(Picture(outpost(enemy_transport=False), "allies")) == []
    # garrisoned: no outpost
    held = outpost()
    put(held, "United Kingdom", "infantry", "3,4", strength=3)
    assert ferry.outposts(Picture(held, "allies")) == []


def test_the_bot_lands_a_garrison_in_the_outpost_and_v1_at_the_front() -> None:
    where = {}
    for player in ("bot", "v1"):
        state = outpost()
        _first_movement(state, player)
        valletta = hex_at(state, "3,4")
        landed = [u for u in state.units_of("United Kingdom") if u.is_land and u.carrier == NO_UNIT]
        where[player] = sum(u.strength for u in landed if u.hex == valletta)
    assert where == {"bot": 6, "v1": 0}


def test_a_voyage_is_never_shorter_than_the_grid_distance() -> None:
    """The outposts skip a port farther from an outpost (in grid distance) than a transport's
    allowance: every step a ship takes, over the sea or through a canal, joins two
    neighbouring hexes of the packaged map, so no voyage is shorter."""
    state = api.new_game("1939")
    hexmap = state.world.map
    steps = [(h, n) for h in range(hexmap.size) for n in hexmap.sea_neighbours[h]]
    steps += [(c.a, c.b) for c in hexmap.canals]
    assert steps and all(hexmap.grid.distance(a, b) == 1 for a, b in steps)


def test_a_transport_leaves_an_outpost_whose_only_unit_is_its_garrison() -> None:
    """Valletta holds its garrison and a transport: nothing to carry there, so the bot's
    transport sails for London, where troops wait for ships; v1 counted the garrison as
    troops to carry, and a transport that put in at an outpost lay there for good."""
    left = {}
    for player in ("bot", "v1"):
        state = outpost()
        valletta = hex_at(state, "3,4")
        put(state, "United Kingdom", "infantry", "3,4", strength=3)
        ship = put(state, "United Kingdom", "transport", "3,4", in_port=True, move=12)
        play_phase(state, "allies", player, SEED, "allies.second_movement")
        left[player] = state.units[ship.id].hex != valletta
    assert left == {"bot": True, "v1": False}
