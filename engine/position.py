"""Test positions written as text: a small hand-made map, and the game on it.

A *position* (:func:`parse`) is the map picture followed by one line per fact: the
countries at war, the units, the money and pools, the date and the step::

    G:c G:c P:c P:c ~
     G:c G:c P:c P:c ~
    city Berlin 0,0 capital
    city Warsaw 3,0 capital
    war axis Germany
    war allies Poland
    date 1940-07
    step axis.first_movement
    unit Germany armor 1,0
    unit Poland infantry 3,0 strength=2

It is turned into a :class:`~engine.state.GameState` through the state's public calls
(:func:`setup`, :func:`put`, :func:`open_step`), which tests may also call directly.

The map picture
---------------

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

import shlex
from collections.abc import Iterable, Mapping
from typing import TypedDict

from engine.hexgrid import DIRECTIONS, NO_HEX, HexGrid, opposite
from engine.hexmap import Canal, City, HexMap, Kind, Side, Terrain, Territory, WeatherZone
from engine.newgame import control_home_lands
from engine.sequence import STEP_INDEX, begin, current
from engine.sides import Side as WarSide  # hexmap.Side is a hexside
from engine.state import GameState, LandKey, Unit, parse_date
from engine.units import UnitProfile, UnitType
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


# --------------------------------------------------------------------------- positions

#: The profile a unit of a position gets unless its line says otherwise, by type (and two
#: variants by name: ``navy_fighter`` is carrier-based, ``air_transport`` carries units).
PROFILES = {
    "infantry": UnitProfile(UnitType.INFANTRY, strength=3, move=3),
    "armor": UnitProfile(UnitType.ARMOR, strength=4, move=5),
    "paratrooper": UnitProfile(UnitType.PARATROOPER, strength=1, move=3),
    "marine": UnitProfile(UnitType.MARINE, strength=1, move=3),
    "supply": UnitProfile(UnitType.SUPPLY, move=3),
    "destroyer": UnitProfile(UnitType.DESTROYER, attack=2, sub_attack=2, defense=2, move=4),
    "submarine": UnitProfile(UnitType.SUBMARINE, attack=1, sub_attack=2, defense=1, move=4),
    "battleship": UnitProfile(UnitType.BATTLESHIP, attack=4, sub_attack=1, defense=4, move=4),
    "transport": UnitProfile(UnitType.TRANSPORT, defense=1, move=4),
    "carrier": UnitProfile(UnitType.CARRIER, defense=2, move=4),
    "fighter": UnitProfile(UnitType.FIGHTER, attack=2, bomber=0, defense=2, move=4),
    "bomber": UnitProfile(UnitType.BOMBER, bomber=3, defense=2, move=4),
    "navy_fighter": UnitProfile(UnitType.FIGHTER, attack=2, defense=2, move=4, carrier_based=True),
    "air_transport": UnitProfile(UnitType.AIR_TRANSPORT, defense=1, move=4),
    "convoy": UnitProfile(UnitType.CONVOY, defense=1, move=44),  # as far as the convoy tests sail
}


def hex_at(state: GameState, label: str) -> int:
    """The hex of a ``COL,ROW`` label on the state's map."""
    return state.world.map.grid.parse_label(label)


class _Start(TypedDict):
    date: str
    step: str


#: ``setup(world, **AT_START)`` builds the very state ``api.new_game(world)`` gives (date
#: zero, the first step open), with the countries of ``axis`` and ``allies`` at war.
AT_START: _Start = {"date": "0000-01", "step": "war_declaration"}


def setup(
    picture: str | World,
    *,
    axis: Iterable[str] = ("Germany",),
    allies: Iterable[str] = ("Poland",),
    step: str | None = "axis.first_movement",
    date: str = "1940-07",
    countries: Iterable[CountryInfo] = (),
    **map_options: object,
) -> GameState:
    """A state on a test map: every hex controlled by its owner, the countries of ``axis``
    and ``allies`` at war since the start, the ``date``, and ``step`` opened.

    ``picture`` may be a world built already (by :func:`build_world`, shared by a module's
    tests): it must hold the countries of ``axis`` and ``allies``, and is used as it is."""
    axis, allies = tuple(axis), tuple(allies)
    if isinstance(picture, World):
        if countries or map_options:
            raise ValueError("a world built already takes no countries or map options")
        world = picture
    else:
        given = {c.name: c for c in countries}
        infos = [given.get(n, CountryInfo(n)) for n in (*axis, *allies)]
        infos += [c for n, c in given.items() if n not in (*axis, *allies)]
        world = build_world(picture, countries=infos, **map_options)
    state = GameState(world)
    control_home_lands(state)
    for names, side in ((axis, "axis"), (allies, "allies")):
        for name in names:
            c = state.countries[name]
            c.side, c.at_war, c.entered = side, True, 0
    state.date = parse_date(date)
    if step is not None:
        open_step(state, step)
    return state


def open_step(state: GameState, step: str) -> None:
    """Enter ``step`` and hand it to its actors, even when none of them has anything to
    decide (the sequence itself would skip such a step)."""
    state.step = STEP_INDEX[step]
    phase = current(state)
    phase.enter(state)
    state.acting = [WarSide(s) for s in phase.actors(state)]


def begin_at(state: GameState, step: str) -> None:
    """Enter ``step`` as the sequence does: steps where nobody decides are passed over."""
    state.step = STEP_INDEX[step]
    begin(state)


def put(state: GameState, country: str, what: str, at: str | None, **changes: object) -> Unit:
    """A new unit of ``country`` with the profile ``PROFILES[what]`` (fields changed by
    ``changes``), at hex ``at`` (``None``: off the map)."""
    u = state.new_unit(country, PROFILES[what])
    for k, v in changes.items():
        setattr(u, k, v)
    if at is not None:
        state.place(u, hex_at(state, at))
    return u


def _value(word: str) -> int | bool:
    if word in ("yes", "no"):
        return word == "yes"
    return int(word)


def parse(text: str, **map_options: object) -> GameState:
    """The state a position text describes (see the module docstring).  ``map_options``
    go to :func:`build_map` (weather, rail, colonies, ...).

    Lines (``#`` starts a comment):

    * a map row: hexes as in :func:`build_map`;
    * ``city NAME COL,ROW [capital] [port] [lake]``, ``resource COL,ROW ...``;
    * ``war axis|allies COUNTRY ...``: countries at war on a side since the start
      (without any ``war`` line: Germany for the Axis, Poland for the Allies);
    * ``date YYYY-MM`` (default 1940-07); ``step LABEL`` (default ``axis.first_movement``;
      ``step -`` opens none);
    * ``unit COUNTRY KIND COL,ROW [FIELD=VALUE ...]``: a unit with the profile of
      :data:`PROFILES`, fields changed (``strength=2``, ``moved=yes``); ``-`` for off the map;
    * ``money COUNTRY AMOUNT``; ``pool COUNTRY TYPE/MOVE POINTS``;
      ``free COUNTRY TYPE/MOVE POINTS`` (land points to place at the next deployment).
    """
    rows: list[str] = []
    cities: dict[str, str] = {}
    resources: list[str] = []
    sides: dict[str, list[str]] = {"axis": [], "allies": []}
    date, step = "1940-07", "axis.first_movement"
    facts: list[list[str]] = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        words = line.split()
        if all(w == "~" or w == "~i" or ":" in w for w in words):
            rows.append(line)
            continue
        words = shlex.split(line)  # "Soviet Union" in double quotes
        key, args = words[0], words[1:]
        if key == "city" and len(args) >= 2:
            cities[args[0]] = " ".join(args[1:])
        elif key == "resource":
            resources.extend(args)
        elif key == "war" and len(args) >= 2 and args[0] in sides:
            sides[args[0]].extend(args[1:])
        elif key == "date" and len(args) == 1:
            date = args[0]
        elif key == "step" and len(args) == 1:
            step = args[0]
        elif key in ("unit", "money", "pool", "free"):
            facts.append(words)
        else:
            raise ValueError(f"position line {number} is not understood: {line}")
    at_war = sides["axis"] or sides["allies"]
    state = setup(
        "\n".join(rows),
        axis=sides["axis"] if at_war else ("Germany",),
        allies=sides["allies"] if at_war else ("Poland",),
        step=None,
        date=date,
        cities=cities,
        resources=resources,
        **map_options,  # type: ignore[arg-type]  # map options only; countries is not one
    )
    for words in facts:
        key, country = words[0], words[1]
        if key == "unit":
            changes = dict(w.split("=", 1) for w in words[4:])
            at = None if words[3] == "-" else words[3]
            put(state, country, words[2], at, **{k: _value(v) for k, v in changes.items()})
        elif key == "money":
            state.countries[country].money = int(words[2])
        else:
            points = state.countries[country].pool_land if key == "pool" else state.countries[country].free_land
            land = LandKey.from_wire(words[2])
            points[land] = points.get(land, 0) + int(words[3])
    if step != "-":
        open_step(state, step)
    return state
