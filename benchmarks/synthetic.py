"""A synthetic world of about 100,000 hexes with a few thousand units, for benchmarks.

The layout is random but seeded: blobs of land (continents) in a sea, countries as
nearest-seed regions, cities and resource hexes scattered over the land, and two
sides at war facing each other along the line between their countries.
"""

from __future__ import annotations

import hashlib

import numpy as np

from engine.hexgrid import NO_HEX, HexGrid
from engine.hexmap import City, HexMap, Kind, Side, Terrain, Territory, WeatherZone, _neighbour_table
from engine.sides import ALLIES, AXIS
from engine.state import GameState
from engine.units import UnitProfile, UnitType
from engine.world import CountryInfo, World

AXIS_COUNTRIES = ("Germany", "Italy", "Japan", "Hungary", "Romania", "Bulgaria")
ALLIED_COUNTRIES = ("United Kingdom", "France", "Soviet Union", "United States", "China", "Poland")
NEUTRALS = ("Sweden", "Spain", "Turkey", "Switzerland")


def _rng(seed: int) -> np.random.Generator:
    # numpy's PCG64 is stable for a given seed; benchmarks only need repeatability here.
    return np.random.default_rng(int.from_bytes(hashlib.sha256(f"synthetic{seed}".encode()).digest()[:8], "big"))


def synthetic_world(width: int = 420, height: int = 240, seed: int = 1) -> World:
    rng = _rng(seed)
    grid = HexGrid(width, height)
    n = grid.size
    ids = np.arange(n)
    rows, cols = ids // width, ids % width
    # land: union of discs around random centres (continents), about 40 % of the map
    land = np.zeros(n, dtype=bool)
    for _ in range(38):
        cr, cc = rng.integers(10, height - 10), rng.integers(0, width)
        radius = rng.integers(12, 40)
        dc = np.minimum(np.abs(cols - cc), width - np.abs(cols - cc))
        land |= (rows - cr) ** 2 + dc**2 < radius**2
    nbr = np.asarray(_neighbour_table(grid)).reshape(n, 6)
    valid = nbr != NO_HEX
    nb_land = np.where(valid, land[np.where(valid, nbr, 0)], False)
    nb_sea = valid & ~nb_land
    kind = np.where(land, np.where(nb_sea.any(axis=1), Kind.COAST, Kind.LAND), Kind.SEA).astype(np.uint8)
    terrain = np.where(land, rng.choice([1, 1, 1, 1, 2, 2, 3, 4, 5], size=n), 0).astype(np.uint8)
    terrain[(terrain == Terrain.DESERT) & (rows < height // 3)] = Terrain.CLEAR
    sides = np.where(~valid, Side.EDGE, np.where(land[:, None] & nb_land, Side.LAND, np.where(
        land[:, None] | nb_land, Side.COAST, Side.SEA))).astype(np.uint8)  # fmt: skip
    # countries: nearest of a set of seed points
    names = AXIS_COUNTRIES + ALLIED_COUNTRIES + NEUTRALS
    land_ids = ids[land]
    seeds = rng.choice(land_ids, size=len(names), replace=False)
    sr, sc = seeds // width, seeds % width
    territory = np.zeros(n, dtype=np.int64)
    lr, lc = land_ids // width, land_ids % width
    d2 = (lr[:, None] - sr[None, :]) ** 2 + np.minimum(np.abs(lc[:, None] - sc[None, :]),
                                                        width - np.abs(lc[:, None] - sc[None, :])) ** 2  # fmt: skip
    territory[land_ids] = d2.argmin(axis=1) + 1
    territories = (Territory("", ""), *(Territory(name, name) for name in names))
    # cities and resources
    city_hexes = rng.choice(land_ids, size=450, replace=False)
    cities = []
    for i, h in enumerate(sorted(int(x) for x in city_hexes)):
        cities.append(City(f"City{i}", h, capital=False, major_port=False))
    for c_no, s in enumerate(seeds):
        # make each country's seed hex its capital (replacing a city there if any)
        h = int(s)
        cities = [c for c in cities if c.hex != h]
        cities.append(City(f"Capital{c_no}", h, capital=True))
    resources = frozenset(int(x) for x in rng.choice(land_ids, size=340, replace=False))
    weather = np.full(n, WeatherZone.NORTH_TEMPERATE, dtype=np.uint8)
    weather[rows < height // 6] = WeatherZone.POLAR
    weather[rows > height // 2] = WeatherZone.TROPICAL
    hexmap = HexMap(
        grid=grid,
        terrain=terrain.tobytes(),
        kind=kind.tobytes(),
        sides=sides.tobytes(),
        territory=tuple(territory.tolist()),
        weather=weather.tobytes(),
        rail=land.astype(np.uint8).tobytes(),
        territories=territories,
        cities=tuple(sorted(cities, key=lambda c: c.hex)),
        resources=resources,
    )
    infos = tuple(CountryInfo(name, rail_capacity=6) for name in sorted(names))
    return World(map=hexmap, countries=infos, name="synthetic")


def synthetic_game(world: World, units_per_side: int = 1500, seed: int = 1) -> GameState:
    """Both sides at war, each with land units spread over its own countries' land,
    denser toward the enemy, plus some air and naval units."""
    from engine.newgame import control_home_lands

    rng = _rng(seed + 1000)
    state = GameState(world)
    control_home_lands(state)
    for name in AXIS_COUNTRIES:
        c = state.countries[name]
        c.side, c.at_war, c.entered = AXIS, True, 0
    for name in ALLIED_COUNTRIES:
        c = state.countries[name]
        c.side, c.at_war, c.entered = ALLIES, True, 0
    hexmap = world.map
    for side, names in ((AXIS, AXIS_COUNTRIES), (ALLIES, ALLIED_COUNTRIES)):
        hexes = sorted(h for n in names for h in hexmap.hexes_of_country.get(n, ()))
        picks = rng.choice(len(hexes), size=min(units_per_side, len(hexes)), replace=False)
        for i, p in enumerate(sorted(int(x) for x in picks)):
            h = hexes[p]
            owner = hexmap.country_of[h]
            if i % 10 == 0:
                prof = UnitProfile(UnitType.ARMOR, strength=6, move=5)
            elif i % 37 == 0:
                prof = UnitProfile(UnitType.SUPPLY, move=3)
            else:
                prof = UnitProfile(UnitType.INFANTRY, strength=4, move=3)
            state.place(state.new_unit(owner, prof), h)
        coast = [h for h in hexes if hexmap.kind[h] == Kind.COAST]
        for h in coast[: len(coast) // 20]:
            state.place(state.new_unit(hexmap.country_of[h], UnitProfile(UnitType.DESTROYER, attack=2, sub_attack=2,
                                                                         defense=2, move=40)), h)  # fmt: skip
        for city in hexmap.cities[:: 4 if side == AXIS else 5]:
            if hexmap.country_of[city.hex] in names:
                state.place(state.new_unit(hexmap.country_of[city.hex], UnitProfile(UnitType.FIGHTER, attack=3,
                            bomber=1, defense=2, move=10)), city.hex)  # fmt: skip
    state.step = 0
    return state
