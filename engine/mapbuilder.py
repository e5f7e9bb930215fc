"""Small hand-made maps for tests, written as text.

Each row of the picture is a row of hexes; odd rows may be indented by one space
to show the odd-r offset (indentation is ignored).  A hex is ``~`` (sea) or
``X:t`` where ``X`` is a country letter from the legend and ``t`` the terrain::

    c clear   f forest   m mountain   M tall mountain   d desert   i icecap

Example, Germany (G) and Poland (P) with a forest and the Baltic to the east::

    world = build_world('''
        G:c G:f P:c P:c ~
         G:c G:c P:c P:c ~
    ''', cities={"Berlin": "0,0 capital", "Warsaw": "3,0 capital"})

Hexsides are derived: land-land sides are LAND, sea-sea SEA, land-sea COAST, and
a side between two land hexes is COAST when both also touch a common sea hex
(ships can sail along a shore).  Land hexes that touch the sea are COAST hexes.
Test maps do not wrap around.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from engine.hexgrid import DIRECTIONS, NO_HEX, HexGrid, opposite
from engine.hexmap import Canal, City, HexMap, Kind, Side, Terrain, Territory, WeatherZone
from engine.world import CountryInfo, World

TERRAIN_LETTERS = {
    "c": Terrain.CLEAR,
    "f": Terrain.FOREST,
    "m": Terrain.MOUNTAIN,
    "M": Terrain.TALL_MOUNTAIN,
    "d": Terrain.DESERT,
    "i": Terrain.ICECAP,
}

LEGEND = {
    "G": "Germany",
    "P": "Poland",
    "F": "France",
    "U": "United Kingdom",
    "S": "Soviet Union",
    "I": "Italy",
    "J": "Japan",
    "C": "China",
    "A": "United States",
    "B": "Belgium",
    "N": "Netherlands",
    "D": "Denmark",
    "R": "Romania",
    "H": "Hungary",
    "Y": "Yugoslavia",
    "W": "Sweden",
    "O": "Norway",
    "L": "Finland",
    "T": "Turkey",
    "M": "Mongolia",
    "K": "Canada",
    "Z": "Switzerland",
}


def _parse_picture(picture: str) -> list[list[str]]:
    rows = [line.split() for line in picture.strip("\n").splitlines() if line.strip()]
    width = len(rows[0])
    for i, r in enumerate(rows):
        if len(r) != width:
            raise ValueError(f"map row {i} has {len(r)} hexes, row 0 has {width}")
    return rows


def build_map(
    picture: str,
    *,
    cities: Mapping[str, str] | None = None,
    resources: Iterable[str] = (),
    rail: str | Iterable[str] = "all",
    weather: WeatherZone | Mapping[str, WeatherZone] = WeatherZone.FAIR,
    colonies: Mapping[str, str] | None = None,
    colony_hexes: Mapping[str, Iterable[str]] | None = None,
    canals: Mapping[str, tuple[str, str]] | None = None,
    temp_borders: Mapping[str, Iterable[str]] | None = None,
    fortifications: Iterable[str] = (),
    airfields: Iterable[str] = (),
    legend: Mapping[str, str] | None = None,
    sides: Mapping[tuple[str, str], Side] | None = None,
) -> HexMap:
    """Build a :class:`HexMap` from a text picture (see the module docstring).

    ``cities`` maps a name to ``"col,row [capital] [port] [lake]"`` (``port`` = major port).
    ``colonies`` maps a colony name to its owner country; ``colony_hexes`` lists its hexes.
    ``weather`` is one zone for the whole map or a mapping from ``"col,row"`` to a zone
    (unlisted hexes are FAIR).  ``sides`` overrides single hexsides.
    """
    legend = {**LEGEND, **(legend or {})}
    rows = _parse_picture(picture)
    grid = HexGrid(len(rows[0]), len(rows), wrap=False)
    n = grid.size
    terrain = bytearray(n)
    is_land = [False] * n
    country_at = [""] * n
    for r, row in enumerate(rows):
        for c, token in enumerate(row):
            h = grid.hex_id(c, r)
            if token == "~":
                continue
            if token == "~i":  # frozen sea
                terrain[h] = Terrain.ICECAP
                continue
            letter, _, t = token.partition(":")
            if letter not in legend or t not in TERRAIN_LETTERS:
                raise ValueError(f"map token '{token}' at {c},{r} is not understood")
            terrain[h] = TERRAIN_LETTERS[t]
            is_land[h] = True
            country_at[h] = legend[letter]

    def hx(label: str) -> int:
        return grid.parse_label(label)

    # territories: home lands first (in order of appearance), then colonies
    territories = [Territory("", "")]
    index: dict[str, int] = {}
    for name in country_at:
        if name and name not in index:
            index[name] = len(territories)
            territories.append(Territory(name, name))
    territory = [index[c] if c else 0 for c in country_at]
    for colony, owner in (colonies or {}).items():
        index[colony] = len(territories)
        territories.append(Territory(colony, owner, colony=True))
        for label in (colony_hexes or {}).get(colony, ()):
            territory[hx(label)] = index[colony]

    nbr = grid.neighbour_table()
    kind = bytearray(n)
    for h in range(n):
        if is_land[h]:
            touches_sea = any(nbr[h * 6 + d] != NO_HEX and not is_land[nbr[h * 6 + d]] for d in DIRECTIONS)
            kind[h] = Kind.COAST if touches_sea else Kind.LAND
        else:
            kind[h] = Kind.SEA

    side_arr = bytearray(n * 6)
    for h in range(n):
        for d in DIRECTIONS:
            o = nbr[h * 6 + d]
            if o == NO_HEX:
                side_arr[h * 6 + d] = Side.EDGE
            elif is_land[h] and is_land[o]:
                common = set(nbr[h * 6 : h * 6 + 6]) & set(nbr[o * 6 : o * 6 + 6])
                shore = any(x != NO_HEX and not is_land[x] for x in common)
                side_arr[h * 6 + d] = Side.COAST if shore else Side.LAND
            elif is_land[h] or is_land[o]:
                side_arr[h * 6 + d] = Side.COAST
            else:
                side_arr[h * 6 + d] = Side.SEA
    for (a, b), s in (sides or {}).items():
        ha, hb = hx(a), hx(b)
        d = grid.direction_to(ha, hb)
        side_arr[ha * 6 + d] = s
        side_arr[hb * 6 + opposite(d)] = s

    if isinstance(weather, WeatherZone):
        weather_arr = bytearray([weather]) * n
    else:
        weather_arr = bytearray([WeatherZone.FAIR]) * n
        for label, zone in weather.items():
            weather_arr[hx(label)] = zone

    if rail == "all":
        rail_arr = bytearray(1 if is_land[h] else 0 for h in range(n))
    else:
        rail_arr = bytearray(n)
        for label in rail:
            rail_arr[hx(label)] = 1

    city_list = []
    for name, spec in (cities or {}).items():
        label, *flags = spec.split()
        city_list.append(
            City(name, hx(label), capital="capital" in flags, major_port="port" in flags, lake="lake" in flags)
        )

    return HexMap(
        grid=grid,
        terrain=bytes(terrain),
        kind=bytes(kind),
        sides=bytes(side_arr),
        territory=tuple(territory),
        weather=bytes(weather_arr),
        rail=bytes(rail_arr),
        territories=tuple(territories),
        cities=tuple(city_list),
        resources=frozenset(hx(x) for x in resources),
        canals=tuple(Canal(name, hx(a), hx(b)) for name, (a, b) in (canals or {}).items()),
        temp_borders={k: frozenset(hx(x) for x in v) for k, v in (temp_borders or {}).items()},
        fortifications=frozenset(hx(x) for x in fortifications),
        airfields=frozenset(hx(x) for x in airfields),
    )


def build_world(
    picture: str,
    *,
    countries: Iterable[CountryInfo] = (),
    **map_options: object,
) -> World:
    """A :class:`World` around :func:`build_map`; every country on the map gets default facts
    unless ``countries`` describes it."""
    hexmap = build_map(picture, **map_options)  # type: ignore[arg-type]
    infos = {c.name: c for c in countries}
    for t in hexmap.territories[1:]:
        infos.setdefault(t.country, CountryInfo(t.country))
    return World(map=hexmap, countries=tuple(infos[k] for k in sorted(infos)), name="test")
