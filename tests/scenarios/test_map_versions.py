"""The packaged map versions (scenarios/README.md, "Map versions"): new games are made on
the newest map, where a ship passes the British Strait of Gibraltar while Spain is
neutral (supplement: "Straits"); a game begun on the first map keeps it to its end."""

from __future__ import annotations

import hashlib
from collections import deque
from importlib import resources

import pytest

from engine import api
from engine.hexmap import HexMap, Kind
from engine.newgame import MAP_FILE, MAP_VERSIONS, packaged_map, scenario_world
from engine.position import put
from engine.reach import naval_search
from engine.state import GameState
from engine.war import enter_war

FIRST_MAP = "maps/world-1.map"
#: The worlds of the first map, as the first shipped release pinned them.
FIRST_DIGESTS = {
    "1937": "e1464ab7dbf8b42902b8d351b10e1866ac47a09ffa08b97c3735181399eaca78",
    "1939": "a4ef554248ca8c98704a2385b5876f6a865bed2e769f2f5fc67ca1929771e2ca",
}
ATLANTIC, GIBRALTAR, MEDITERRANEAN = "141,74", "145,74", "147,74"


def _file_digest(*path: str) -> str:
    return hashlib.sha256(resources.files("scenarios").joinpath(*path).read_bytes()).hexdigest()


def _ship_reach(state: GameState, kind: str) -> dict[str, int | None]:
    """The cost for a British ship of ``kind`` from the Atlantic to the strait and beyond."""
    ship = put(state, "United Kingdom", kind, ATLANTIC)
    search = naval_search(state, ship, 8)
    grid = state.world.map.grid
    return {label: search.cost.get(grid.parse_label(label)) for label in (GIBRALTAR, MEDITERRANEAN)}


def _at_war(digest: str | None) -> GameState:
    state = api.new_game("1939", {}, digest=digest)
    enter_war(state, "United Kingdom", "allies")
    assert state.countries["Spain"].side == "neutral"
    return state


def _sea_way(hexmap: HexMap, start: str, goal: str, open_countries: set[str]) -> bool:
    """Whether a ship could sail from ``start`` to ``goal`` (canals shut) entering no hex of
    land but the ``open_countries``' (every other one being neutral)."""
    grid = hexmap.grid
    a, b = grid.parse_label(start), grid.parse_label(goal)
    seen, todo = {a}, deque([a])
    while todo:
        h = todo.popleft()
        if h == b:
            return True
        for o in hexmap.sea_links[h]:
            if o in seen or o in hexmap.canal_hexes:
                continue
            if hexmap.kind[o] == Kind.SEA or hexmap.country_of[o] in open_countries:
                seen.add(o)
                todo.append(o)
    return False


def test_the_versions_are_the_shipped_files() -> None:
    assert MAP_VERSIONS == (MAP_FILE, FIRST_MAP)
    assert packaged_map(MAP_FILE).digest() == _file_digest("world.map")
    assert packaged_map(FIRST_MAP).digest() == _file_digest("maps", "world-1.map")
    assert packaged_map(FIRST_MAP).digest() != packaged_map(MAP_FILE).digest()
    with pytest.raises(ValueError):
        packaged_map("maps/world-0.map")


@pytest.mark.parametrize("scenario", sorted(FIRST_DIGESTS))
def test_a_new_game_is_on_the_newest_map_and_an_old_one_keeps_the_first(scenario: str) -> None:
    new = api.new_game(scenario)
    assert new.world.map is packaged_map(MAP_FILE)
    assert api.scenario_digest(scenario) == new.world.digest != FIRST_DIGESTS[scenario]
    old = api.new_game(scenario, {}, digest=FIRST_DIGESTS[scenario])
    assert old.world.map is packaged_map(FIRST_MAP)
    assert old.world.digest == FIRST_DIGESTS[scenario]
    for state in (new, old):
        data = api.serialize(state)
        for loaded in (api.deserialize(data), api.deserialize(data, scenario=scenario)):
            assert loaded.world is state.world
            assert api.serialize(loaded) == data
    assert api.scenario_has_digest(scenario, FIRST_DIGESTS[scenario])
    assert api.scenario_has_digest(scenario, new.world.digest)
    assert not api.scenario_has_digest(scenario, "0" * 64)
    assert scenario_world(scenario, "0" * 64) is None
    with pytest.raises(api.ScenarioError):
        api.new_game(scenario, {}, digest="0" * 64)


def test_a_state_of_one_scenario_is_not_loaded_as_another() -> None:
    data = api.serialize(api.new_game("1937", {}, digest=FIRST_DIGESTS["1937"]))
    with pytest.raises(api.StateError):
        api.deserialize(data, scenario="1939")


@pytest.mark.parametrize("kind", ["battleship", "transport"])
def test_a_british_ship_passes_the_strait_while_spain_is_neutral(kind: str) -> None:
    assert _ship_reach(_at_war(None), kind) == {GIBRALTAR: 4, MEDITERRANEAN: 6}


@pytest.mark.parametrize("kind", ["battleship", "transport"])
def test_the_first_map_keeps_its_closed_strait(kind: str) -> None:
    """The first map is kept as it was, defect included: the way into Gibraltar from the
    Atlantic runs through a Spanish hex, so games begun on it play on as they began."""
    assert _ship_reach(_at_war(FIRST_DIGESTS["1939"]), kind) == {GIBRALTAR: None, MEDITERRANEAN: None}


def test_the_straits_open_and_close_with_their_owners() -> None:
    """Gibraltar is British; the Danish straits are Danish and Swedish, the Great Belt
    Danish alone; the Bosporus is Turkish (supplement: "Straits")."""
    new, first = packaged_map(MAP_FILE), packaged_map(FIRST_MAP)
    assert _sea_way(new, ATLANTIC, MEDITERRANEAN, {"United Kingdom"})
    assert not _sea_way(first, ATLANTIC, MEDITERRANEAN, {"United Kingdom"})
    assert not _sea_way(new, ATLANTIC, MEDITERRANEAN, set())
    kattegat, baltic = "159,44", "164,47"
    assert not _sea_way(new, kattegat, baltic, set())
    assert not _sea_way(new, kattegat, baltic, {"Sweden"})
    assert _sea_way(new, kattegat, baltic, {"Denmark"})
    black_sea, aegean = "175,65", "170,71"
    assert not _sea_way(new, black_sea, aegean, {"Bulgaria", "Greece", "Romania", "Soviet Union"})
    assert _sea_way(new, black_sea, aegean, {"Turkey", "Greece"})


@pytest.mark.parametrize("version", MAP_VERSIONS)
def test_no_land_unit_steps_between_spain_and_africa(version: str) -> None:
    hexmap = packaged_map(version)
    europe = {h for name in ("Spain", "Gibraltar", "Portugal") for h in hexmap.hexes_of_territory[name]}
    africa = {h for name in ("Spanish Morocco", "French North Africa") for h in hexmap.hexes_of_territory[name]}
    assert europe and africa
    assert not [h for h in europe if africa.intersection(hexmap.land_neighbours[h])]
