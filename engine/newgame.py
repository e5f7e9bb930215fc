"""Creating a game: the packaged world of a scenario and the state at its start, or a
state on a custom world (tests, benchmarks) (supplement: "Countries and sides at the
start", "Placing units").

The world of a scenario is the packaged map (``scenarios/world.map``) plus the
country facts and the scenario data (:mod:`engine.scenario`); its digest covers
all of them, so a saved game names the data it was made with.  The scenario object
rides along as ``World.schedule`` for the monthly arrivals.

New games are made on the newest map; the earlier maps stay packaged so that a game
keeps the map it began on (scenarios/README.md, "Map versions").
"""

from __future__ import annotations

import contextlib
import gc
import hashlib
from collections.abc import Sequence
from functools import cache
from importlib import resources

import msgpack

from engine import scenario as scenario_data
from engine.actions import StateError
from engine.hexmap import HexMap, MapError
from engine.scenario import Scenario, ScenarioError
from engine.sequence import STEP_INDEX
from engine.state import GameState
from engine.war import add_to_pool, enter_war, units_to_pool
from engine.world import CountryInfo, World

MAP_FILE = "world.map"
#: The map's neighbour tables in their compact form (:meth:`HexMap.tables_to_bytes`),
#: made by ``python -m scenarios.maptables`` whenever the map is regenerated.
TABLES_FILE = "world.tables"
#: Every packaged map, newest (the one new games use) first.  An old map has no tables
#: file: only games begun on it read it, and they compute its tables on load.
MAP_VERSIONS = (MAP_FILE, "maps/world-1.map")


@cache
def world_map() -> HexMap:
    """The packaged world map (loaded once).

    Its digest is the hash of the shipped file itself: the file is the map's canonical
    form (a test checks that it packs back to the same bytes), so this is the digest
    the map would compute, without compressing 55,000 hexes again on every start, and
    without depending on the local compression library agreeing byte for byte."""
    data = resources.files("scenarios").joinpath(MAP_FILE).read_bytes()
    try:
        tables = resources.files("scenarios").joinpath(TABLES_FILE).read_bytes()
    except OSError:
        tables = None
    hexmap = load_packaged_map(data, tables)
    # The map, the scenario data and the modules live as long as the process: frozen, they
    # leave the collector's generations, whose every full collection traversed them all
    # (about 30 ms, landing in whatever file a receiver was verifying then).  Objects
    # alive now are never collected as cycles afterwards (freed by their counts still).
    gc.freeze()
    return hexmap


def load_packaged_map(data: bytes, tables: bytes | None) -> HexMap:
    """A map file and the compact form of its tables.  Tables that are missing, damaged
    or made for another map are computed from the map instead: the same tables, tens of
    milliseconds later (a test keeps the shipped ones in step with the shipped map)."""
    hexmap = HexMap.from_bytes(data, digest=hashlib.sha256(data).hexdigest())
    if tables is not None:
        with contextlib.suppress(MapError):
            hexmap.load_tables(tables)
    return hexmap


@cache
def packaged_map(version: str) -> HexMap:
    """The packaged map of one of :data:`MAP_VERSIONS` (loaded once)."""
    if version == MAP_FILE:
        return world_map()
    if version not in MAP_VERSIONS:
        raise ValueError(f"no packaged map {version!r}")
    return load_packaged_map(resources.files("scenarios").joinpath(*version.split("/")).read_bytes(), None)


def world_of(name: str) -> World:
    """The world of a packaged scenario on the newest map (cached): a new game's."""
    return _world(name, MAP_FILE)


@cache
def _world(name: str, version: str) -> World:
    scenario = scenario_data.load_scenario(name)
    return World(
        map=packaged_map(version),
        countries=tuple(
            CountryInfo(
                c.name,
                c.region,
                c.leans_allied,
                c.has_units,
                c.rail_capacity,
                c.leans_axis,
                c.atomic_bomb_from,
                c.atomic_bomb_unit,
            )
            for c in scenario.countries
        ),
        name=name,
        data_digest=scenario_data.scenario_digest(name),
        schedule=scenario,
    )


def world_matching(data: bytes, names: Sequence[str] | None = None) -> World | None:
    """The packaged world a serialised state was made in (among the scenarios ``names``,
    or all of them), or None if none matches."""
    try:
        doc = msgpack.unpackb(data, raw=False, strict_map_key=False)
        digest = doc["world"]
    except Exception:  # garbage of any shape: the loader reports it properly later
        return None
    if not isinstance(digest, str):
        return None
    return _find_world(scenario_data.list_scenarios() if names is None else names, digest)


def scenario_world(name: str, digest: str) -> World | None:
    """The world of the packaged scenario ``name`` whose digest is ``digest``, on whichever
    packaged map gives it, or None."""
    return _find_world((name,), digest)


def _find_world(names: Sequence[str], digest: str) -> World | None:
    # The newest map first, for every scenario: a game on it never loads an old map.
    for version in MAP_VERSIONS:
        for name in names:
            try:
                world = _world(name, version)
            except (OSError, ValueError):  # data not packaged or broken: it cannot be the match
                continue
            if world.digest == digest:
                return world
    return None


def new_scenario_game(name: str, options: dict[str, object], digest: str | None = None) -> GameState:
    """A game at the start of the packaged scenario ``name``: on the newest map, or on
    the packaged map that gives the world ``digest`` (a game begun before a map change)."""
    if options:
        raise ScenarioError(f"unknown game option(s): {', '.join(sorted(options))}; no options are defined")
    world = world_of(name) if digest is None else scenario_world(name, digest)
    if world is None:
        raise ScenarioError(f"scenario '{name[:40]}' has no packaged world of digest {digest!r:.70}")
    return start_scenario(world, scenario_data.load_scenario(name))


def start_scenario(world: World, scenario: Scenario) -> GameState:
    """The state at the start of ``scenario`` in ``world`` (any world naming its countries)."""
    state = GameState(world)
    control_home_lands(state)
    state.date = scenario.start
    state.step = STEP_INDEX[scenario.start_phase]
    for name in sorted(state.countries):
        state.countries[name].money = scenario.money.get(name, 0)
        add_to_pool(state, name, *units_to_pool(scenario.pool(name)))
    for start in scenario.start_control:
        for h in sorted(world.map.temp_borders.get(start.temp_border, ())):
            state.set_controller(h, start.country)
        if start.first_turn_placement:
            state.countries[start.country].flags.placements[start.temp_border] = scenario.start
    # Countries at war at the start place their whole pool at the first deployment.
    for name, side in sorted(scenario.at_war.items()):
        enter_war(state, name, side)
    for name, side in sorted(scenario.joins_at_start.items()):
        state.countries[name].flags.joins = side
    return state


def new_game(scenario: str | World, options: dict[str, object], digest: str | None = None) -> GameState:
    """A state at the start of a packaged scenario (on the world of ``digest`` if given),
    or a bare state on a custom world."""
    if isinstance(scenario, World):
        state = GameState(scenario)
        control_home_lands(state)
        return state
    return new_scenario_game(scenario, options, digest)


def control_home_lands(state: GameState) -> None:
    """Every land hex starts controlled by the country that owns its territory."""
    hexmap = state.world.map
    state.controller = bytearray(state.world.home_control)
    for h in hexmap.fortifications:
        state.forts[h] = 0
        state.fort_owner[h] = hexmap.country_of[h]
    for h in hexmap.airfields:
        state.airfields[h] = 0
        state.airfield_owner[h] = hexmap.country_of[h]


def scenario_digest(name: str) -> str:
    return world_of(name).digest


def world_for(data: bytes) -> World:
    """The world a serialised state was made in (only the packaged scenarios are known)."""
    world = world_matching(data)
    if world is None:
        raise StateError("saved game belongs to a world this program does not have")
    return world
