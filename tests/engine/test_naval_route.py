"""A ship ordered to a hex without a path (``move SHIP HEX``) takes the path of the whole
naval search, found by bounded searches (engine/naval_route.py; supplement: "Movement",
"Stacking", "Control zones and hex control").  The receiver of a turn file re-executes
such a move: a different path or a different refusal would change the state's bytes
(the path is recorded for interception), so the bounded search must agree with the
whole search on every destination, reachable or not."""

from __future__ import annotations

from engine import api
from engine.hexgrid import HexGrid
from engine.naval_route import Distances, naval_route
from engine.position import hex_at as hx
from engine.position import put
from engine.position import setup as game
from engine.reach import naval_search
from engine.state import GameState, Unit
from engine.world import CountryInfo
from engine.zoc import naval_zoc


def _agree(state: GameState, ship: Unit, allowance: int, dests: list[int]) -> int:
    """Checks the route to each of ``dests`` against the whole search; returns how many were reachable."""
    side = state.countries[ship.country].side
    enemy = "allies" if side == "axis" else "axis"
    whole = naval_search(state, ship, allowance, naval_zoc(state, enemy))
    reachable = 0
    for dest in dests:
        route = naval_route(state, ship, allowance, dest)
        if dest in whole.cost:
            reachable += 1
            assert route.cost[dest] == whole.cost[dest], (ship.label(), allowance, dest)
            assert route.path(dest) == whole.path(dest), (ship.label(), allowance, dest)
        else:
            assert dest not in route.cost, (ship.label(), allowance, dest)
    return reachable


def test_distances_are_the_grids_hex_distances() -> None:
    for grid in (HexGrid(40, 9), HexGrid(17, 9, wrap=False), HexGrid(7, 4)):
        for dest in range(0, grid.size, 5):
            togo = Distances(grid, dest)
            assert [togo[h] for h in range(grid.size)] == [grid.distance(h, dest) for h in range(grid.size)]


def test_the_route_is_the_whole_searchs_path_on_a_small_map() -> None:
    """Every destination and every allowance: neutral hexes closed (Norway), a canal open,
    a full hex passed but not ended in, enemy control zones entered and stopped in, a
    submarine's extra hex, a ship starting in an enemy zone after moving."""
    pic = """
        ~ ~ ~ G:c ~ ~ ~ ~ ~ ~ ~ ~ ~ ~ ~ ~
         ~ ~ ~ G:c ~ ~ N:c ~ ~ ~ ~ ~ ~ ~ ~ ~
        ~ ~ ~ ~ ~ ~ N:c ~ ~ ~ ~ ~ ~ ~ ~ ~
         ~ ~ G:c G:c ~ ~ ~ ~ ~ ~ N:c ~ ~ ~ ~ ~
        """
    s = game(pic, canals={"Kiel": ("3,0", "3,1")}, cities={"Oslo": "6,1 port"},
             countries=(CountryInfo("Norway"),))  # fmt: skip
    for _ in range(5):
        put(s, "Germany", "destroyer", "5,2")
    ships = [put(s, "Germany", "destroyer", "0,0", move=m) for m in (3, 9, 14)]
    ships.append(put(s, "Germany", "submarine", "1,0", move=14))
    ships.append(put(s, "Germany", "destroyer", "10,1", move=9, mp_used=2))  # moved, not yet in a zone
    ships.append(put(s, "Germany", "submarine", "12,1", move=9))  # starts in a zone
    put(s, "Poland", "destroyer", "15,2")
    put(s, "Poland", "destroyer", "11,0")
    everywhere = list(range(s.world.map.size))
    reached = 0
    for ship in ships:
        for allowance in range(ship.move - ship.mp_used + 1):
            reached += _agree(s, ship, allowance, everywhere)
    assert reached > 400  # the test reaches far: most hexes, for most ships


def test_the_route_is_the_whole_searchs_path_on_the_world_map() -> None:
    """The real map: oceans, coasts, the date line (the map wraps there), enemy ships.
    A transport crossing the Atlantic, a warship in the Pacific across the date line and a
    submarine among enemy destroyers."""
    s = api.new_game("1939")
    grid = s.world.map.grid
    for c in ("Germany", "United Kingdom", "Japan", "United States"):
        s.countries[c].at_war = True
    s.countries["United States"].side = "allies"
    s.countries["Japan"].side = "axis"
    sea = s.world.map.has_sea

    def at(lat: float, lon: float) -> str:
        h = grid.hex_at(lat, lon)
        assert sea(h)
        return grid.label(h)

    convoy = put(s, "United Kingdom", "transport", at(45.0, -30.0), move=44)
    cruiser = put(s, "United States", "destroyer", at(20.0, 178.0), move=46)
    sub = put(s, "Germany", "submarine", at(50.0, -20.0), move=40)
    put(s, "United Kingdom", "destroyer", at(51.0, -19.0))
    put(s, "Japan", "destroyer", at(22.0, -175.0))
    for ship in (convoy, cruiser, sub):
        allowance = ship.move
        whole = sorted(naval_search(s, ship, allowance).cost)
        assert len(whole) > 200
        # Every eighth destination, and land hexes on the way that no ship may enter.
        dests = whole[::8] + [h for h in range(whole[0], whole[-1], 97) if not sea(h)][:20]
        assert _agree(s, ship, allowance, dests) == len(whole[::8])
    # The cruiser's reach crosses the date line: the map's wrap is taken into account.
    cols = {grid.col_row(h)[0] for h in naval_search(s, cruiser, cruiser.move).cost}
    assert 0 in cols and grid.width - 1 in cols
    assert hx(s, "0,0") == 0
