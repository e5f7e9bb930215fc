"""Assemble the world HexMap from the raster, Natural Earth and the hand-made data."""

from __future__ import annotations

import math
from collections import Counter, deque
from dataclasses import dataclass, field
from itertools import pairwise

import numpy as np

from engine.hexgrid import NO_HEX, HexGrid, _mercator_y
from engine.hexmap import Canal, City, HexMap, Kind, Side, Terrain, Territory, WeatherZone

from . import geodata, places, raster
from .territories import FORCED_ISLANDS, NE, OVERRIDES, T, load_natural_earth

WIDTH = 300
LAT_NORTH = 75.0
LAT_SOUTH_MIN = -60.0
LAND_MIN = 0.05  # share of land that makes a hex hold land
SEA_MIN = 0.05  # share of sea that makes a hex hold sea


def make_grid(width: int = WIDTH) -> HexGrid:
    probe = HexGrid(width, 1, LAT_NORTH)
    height = math.ceil((_mercator_y(LAT_NORTH) - _mercator_y(LAT_SOUTH_MIN)) / probe._row_step)
    return HexGrid(width, height, LAT_NORTH)


@dataclass
class World:
    """Mutable working state; frozen into a HexMap at the end."""

    grid: HexGrid
    geo: raster.Geometry
    nbr: np.ndarray  # (size, 6)
    frac: np.ndarray
    has_land: np.ndarray
    has_sea: np.ndarray
    land_x: np.ndarray  # (size, 3) canonical directions E, NE, NW
    sea_x: np.ndarray
    territory: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    territory_names: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    sea_block: set[tuple[int, int]] = field(default_factory=set)  # canonical sides ships may never cross
    land_block: set[tuple[int, int]] = field(default_factory=set)  # canonical sides land units may never cross

    def canon(self, h: int, d: int) -> tuple[int, int]:
        """(hex, direction 0..2) storing the side of h facing d."""
        if d < 3:
            return h, d
        return int(self.nbr[h, d]), d - 3

    def set_cross(self, h: int, d: int, *, land: bool | None = None, sea: bool | None = None) -> None:
        a, k = self.canon(h, d)
        if land is not None:
            self.land_x[a, k] = land
        if sea is not None:
            self.sea_x[a, k] = sea

    def direction(self, a: int, b: int) -> int:
        for d in range(6):
            if int(self.nbr[a, d]) == b:
                return d
        raise ValueError(f"{self.grid.label(a)} and {self.grid.label(b)} are not adjacent")

    def hex_at(self, lat: float, lon: float) -> int:
        return self.geo.hex_at(lat, lon)

    def tid(self, name: str) -> int:
        return self.territory_names.index(name)


def neighbour_array(grid: HexGrid) -> np.ndarray:
    from engine.hexmap import _neighbour_table

    return np.array(_neighbour_table(grid), dtype=np.int64).reshape(grid.size, 6)


def build_surface(grid: HexGrid) -> World:
    geo = raster.Geometry(grid)
    mask = raster.LandMask()
    frac = raster.land_fractions(geo, mask)
    land_x, sea_x = raster.side_crossings(geo, mask)
    w = World(
        grid=grid,
        geo=geo,
        nbr=neighbour_array(grid),
        frac=frac,
        has_land=frac >= LAND_MIN,
        has_sea=frac <= 1.0 - SEA_MIN,
        land_x=land_x,
        sea_x=sea_x,
    )
    w.mask = mask  # type: ignore[attr-defined]
    return w


def path_hexes(w: World, points: list[tuple[float, float]]) -> list[int]:
    """Hexes along a polyline of (lat, lon) points, consecutive ones adjacent."""
    out: list[int] = []
    for (la1, lo1), (la2, lo2) in pairwise(points):
        dlon = (lo2 - lo1 + 180.0) % 360.0 - 180.0
        n = max(2, int(max(abs(la2 - la1), abs(dlon)) * 20))
        for i in range(n + 1):
            t = i / n
            h = w.hex_at(la1 + (la2 - la1) * t, lo1 + dlon * t)
            if h == NO_HEX or (out and out[-1] == h):
                continue
            if out and h not in w.nbr[out[-1]]:
                # the line skipped past a corner: step through a common neighbour
                common = sorted(set(w.nbr[out[-1]].tolist()) & set(w.nbr[h].tolist()) - {NO_HEX})
                if common:
                    out.append(common[0])
            out.append(h)
    return out


def assign_territories(w: World) -> None:
    """Territory of every land hex: majority of its land sample points."""
    import shapely
    from shapely.geometry import Polygon

    ne = load_natural_earth()
    codes = [c for c, _ in ne]
    tree = shapely.STRtree([g for _, g in ne])
    names = ["", *sorted(T)]
    w.territory_names = names
    index = {n: i for i, n in enumerate(names)}
    over_polys = [(o, Polygon(o.ring)) for o in OVERRIDES]

    offs = raster.hex_sample_offsets(1.0 / 6.0)
    land_ids = np.nonzero(w.has_land)[0]
    cx, cy = w.geo.centre(land_ids)
    px = (cx[:, None] + offs[None, :, 0]).ravel()
    py = (cy[:, None] + offs[None, :, 1]).ravel()
    owner = np.repeat(land_ids, len(offs))
    lat, lon = w.geo.to_latlon(px, py)
    is_land = w.mask.is_land(lat, lon)  # type: ignore[attr-defined]
    pts = shapely.points(lon, lat)
    pidx, gidx = tree.query(pts, predicate="within")
    code_of_point = np.full(len(pts), -1, dtype=np.int64)
    code_of_point[pidx] = gidx  # a point in two polygons: the later one; borders are measure-zero
    terr_of_point = np.zeros(len(pts), dtype=np.int64)
    for ci, code in enumerate(codes):
        sel = code_of_point == ci
        if code in NE:
            terr_of_point[sel] = index[NE[code]]
    done = np.zeros(len(pts), dtype=bool)
    for o, poly in over_polys:
        cand = np.zeros(len(pts), dtype=bool)
        for code in o.codes:
            if code in codes:
                cand |= code_of_point == codes.index(code)
        cand &= ~done
        if not cand.any():
            continue
        inside = np.zeros(len(pts), dtype=bool)
        inside[cand] = shapely.contains_xy(poly, lon[cand], lat[cand])
        terr_of_point[inside] = index[o.territory]
        done |= inside
    territory = np.zeros(w.grid.size, dtype=np.int64)
    # weight land points 3x so coastal hexes follow the land they hold
    weight = np.where(is_land, 3, 1)
    votes: dict[int, Counter[int]] = {}
    for h, t, wt in zip(owner.tolist(), terr_of_point.tolist(), weight.tolist(), strict=True):
        if t:
            votes.setdefault(h, Counter())[t] += wt
    for h in land_ids.tolist():
        c = votes.get(h)
        if c:
            best = max(c.items(), key=lambda kv: (kv[1], -kv[0]))
            territory[h] = best[0]
    w.territory = territory
    for name, lat_, lon_, terr in FORCED_ISLANDS:
        h = w.hex_at(lat_, lon_)
        if not w.has_land[h]:
            w.has_land[h] = True
            w.notes.append(f"forced island {name} at {w.grid.label(h)}")
        if territory[h] == 0 or name in ("Malta", "Gibraltar", "Singapore", "Hong Kong", "Macau", "Bahrain"):
            territory[h] = index[terr]
    # land hexes left without a territory take the most common one among their neighbours
    for _ in range(3):
        for h in np.nonzero(w.has_land & (territory == 0))[0].tolist():
            c = Counter(int(territory[o]) for o in w.nbr[h] if o != NO_HEX and territory[o])
            if c:
                territory[h] = max(c.items(), key=lambda kv: (kv[1], -kv[0]))[0]
    left = np.nonzero(w.has_land & (territory == 0))[0]
    if len(left):
        ccx, ccy = w.geo.centre(left)
        la, lo = w.geo.to_latlon(ccx, ccy)
        near = tree.query_nearest(shapely.points(lo, la))
        for i, g in zip(near[0].tolist(), near[1].tolist(), strict=True):
            code = codes[g]
            territory[int(left[i])] = index.get(NE.get(code, ""), 0)
    # whatever still has no owner (Antarctic scraps, unnamed rocks) goes back to the sea
    stray = w.has_land & (territory == 0)
    w.has_land &= ~stray


def freeze_sides(w: World) -> bytearray:
    size = w.grid.size
    sides = bytearray(size * 6)
    hl, hs = w.has_land, w.has_sea
    for h in range(size):
        for d in range(3):
            o = int(w.nbr[h, d])
            if o == NO_HEX:
                s = Side.EDGE
            elif (h, d) in w.sea_block:
                s = Side.LAND
            elif (h, d) in w.land_block:
                s = Side.SEA
            else:
                s = raster.decide_side(
                    bool(w.land_x[h, d]), bool(w.sea_x[h, d]), bool(hl[h]), bool(hs[h]), bool(hl[o]), bool(hs[o])
                )
            sides[h * 6 + d] = s
            if o != NO_HEX:
                sides[o * 6 + d + 3] = s
        for d in range(3, 6):
            if int(w.nbr[h, d]) == NO_HEX:
                sides[h * 6 + d] = Side.EDGE
    return sides


def territories_tuple(w: World) -> tuple[Territory, ...]:
    out = [Territory("", "", False)]
    for n in w.territory_names[1:]:
        country, colony = T[n]
        out.append(Territory(n, country, colony))
    return tuple(out)


def kinds(w: World) -> bytes:
    k = np.where(w.has_land & w.has_sea, Kind.COAST, np.where(w.has_land, Kind.LAND, Kind.SEA))
    return bytes(k.astype(np.uint8).tolist())


# --------------------------------------------------------------------------- straits and canals


def apply_straits(w: World) -> None:
    for name, (lat, lon) in geodata.STRAIT_MOUTHS:
        h = w.hex_at(lat, lon)
        w.has_land[h] = False
        w.has_sea[h] = True
        w.notes.append(f"strait mouth {name}: {w.grid.label(h)} open water")
    for name, pts in geodata.STRAITS:
        hexes = path_hexes(w, list(pts))
        for h in hexes:
            w.has_sea[h] = True
        for a, b in pairwise(hexes):
            w.set_cross(a, w.direction(a, b), sea=True)
        w.notes.append(f"strait {name}: {len(hexes)} hexes")
    for name, pts in geodata.LAND_DIVIDES:
        for a, k in _sides_crossing(w, pts):
            o = int(w.nbr[a, k])
            if w.land_x[a, k] or (w.has_land[a] and w.has_land[o]):
                w.land_x[a, k] = False
                w.land_block.add((a, k))
                w.has_sea[a] = w.has_sea[o] = True
                w.sea_x[a, k] = True
        w.notes.append(f"land divide {name}")


def _sides_crossing(w: World, pts: tuple[tuple[float, float], ...]) -> list[tuple[int, int]]:
    """Canonical hexsides whose centre-to-centre segment crosses a (lat, lon) polyline."""
    from shapely.geometry import LineString

    line_xy = [tuple(float(v[0]) for v in w.geo.from_latlon(np.array([la]), np.array([lo]))) for la, lo in pts]
    line = LineString(line_xy)
    near: set[int] = set()
    for h in path_hexes(w, list(pts)):
        near.add(h)
        near.update(int(o) for o in w.nbr[h] if o != NO_HEX)
    out: set[tuple[int, int]] = set()
    for h in sorted(near):
        for d in range(6):
            o = int(w.nbr[h, d])
            if o == NO_HEX:
                continue
            cx, cy = w.geo.centre(np.array([h, o]))
            x0, x1 = float(cx[0]), float(cx[1])
            if abs(x1 - x0) > w.grid.width / 2:  # wrapped neighbour
                continue
            if line.intersects(LineString([(x0, float(cy[0])), (x1, float(cy[1]))])):
                out.add(w.canon(h, d))
    return sorted(out)


def apply_canals(w: World) -> list[Canal]:
    out = []
    for name, (la1, lo1), (la2, lo2), s1, s2, _short in geodata.CANALS:
        a, b = w.hex_at(la1, lo1), w.hex_at(la2, lo2)
        if a == b or b not in w.nbr[a]:
            raise RuntimeError(f"canal {name}: hexes {w.grid.label(a)} and {w.grid.label(b)} are not adjacent")
        for h in (a, b):
            w.has_land[h] = True
            w.has_sea[h] = True
        w.set_cross(a, w.direction(a, b), land=True, sea=True)
        # each end opens onto its own sea: the first step toward that sea is navigable
        for h, (sla, slo) in ((a, s1), (b, s2)):
            clat, clon = w.grid.center_latlon(h)
            way = path_hexes(w, [(clat, clon), (sla, slo)])
            if len(way) >= 2:
                w.has_sea[way[1]] = True
                w.set_cross(h, w.direction(h, way[1]), sea=True)
        out.append(Canal(name, a, b))
    return out


def _sea_steps(w: World, h: int, closed: set[int]) -> list[int]:
    if not w.has_sea[h] or h in closed:
        return []
    row = []
    for d in range(6):
        o = int(w.nbr[h, d])
        if o == NO_HEX or not w.has_sea[o] or o in closed:
            continue
        a, k = w.canon(h, d)
        if (a, k) in w.sea_block:
            continue
        if w.sea_x[a, k] or not (w.has_land[h] and w.has_land[o]):
            row.append(o)
    return row


def cut_divides(w: World, canals: list[Canal]) -> None:
    """Block ships on every hexside whose centre-to-centre segment crosses a canal's isthmus line."""
    for canal in canals:
        pair = {canal.a, canal.b}
        for a, k in _sides_crossing(w, geodata.CANAL_DIVIDES[canal.name]):
            if {a, int(w.nbr[a, k])} == pair:
                continue
            w.sea_block.add((a, k))
            w.sea_x[a, k] = False


def isolate_canals(w: World, canals: list[Canal]) -> None:
    """Cut the false sea short cuts the coarse raster opens across canal isthmuses.

    With both canal hexes closed, the seas on either side must be far apart by
    sea; while a short way exists we remove the sea crossing of the coast-to-coast
    hexside on it that lies nearest the canal.
    """
    for canal, (name, _a, _b, s1, s2, short) in zip(canals, geodata.CANALS, strict=True):
        h1, h2 = w.hex_at(*s1), w.hex_at(*s2)
        closed = {canal.a, canal.b}
        for _ in range(40):
            prev = {h1: -1}
            dq = deque([h1])
            while dq:
                h = dq.popleft()
                if h == h2:
                    break
                for o in _sea_steps(w, h, closed):
                    if o not in prev:
                        prev[o] = h
                        dq.append(o)
            if h2 not in prev:
                break
            path = [h2]
            while prev[path[-1]] != -1:
                path.append(prev[path[-1]])
            if len(path) - 1 >= short:
                break
            best = None
            for x, y in pairwise(path):
                if w.has_land[x] or w.has_land[y]:
                    dist = min(w.grid.distance(x, canal.a), w.grid.distance(y, canal.a))
                    both = 0 if (w.has_land[x] and w.has_land[y]) else 1
                    key = (dist, both, min(x, y), max(x, y))
                    if best is None or key < best:
                        best = key
            if best is None:
                raise RuntimeError(f"canal {name}: a short open-sea way bypasses it")
            _, _, x, y = best
            w.set_cross(x, w.direction(x, y), sea=False)
            w.sea_block.add(w.canon(x, w.direction(x, y)))
            w.notes.append(f"canal {name}: cut sea crossing {w.grid.label(x)}-{w.grid.label(y)}")
        else:
            raise RuntimeError(f"canal {name}: could not isolate")


# --------------------------------------------------------------------------- cities


REQUIRED_CITIES = (
    "Paris",
    "Antwerp",
    "Brussels",
    "Esbjerg",
    "Aalborg",
    "Copenhagen",
    "Tripoli",
    "Benghazi",
    "Addis Ababa",
    "Mogadishu",
    "Karachi",
    "Urumchi",
    "Ashkhabad",
    "Tashkent",
    "Saipan",
    "Gibraltar",
    "Malta",
    "Sevastopol",
    "Okinawa",
    "Chicago",
    "Cleveland",
    "Toronto",
    "Astrakhan",
    "Baku",
    "Krasnovodsk",
    "Irkutsk",
    "Kampala",
    "Stalingrad",
    "Leningrad",
    "Kiev",
    "Kharkov",
    "Smolensk",
    "Warsaw",
    "Danzig",
    "Konigsberg",
    "Narvik",
    "Bergen",
    "Brest",
    "Marseille",
    "Naples",
    "Tobruk",
    "Alexandria",
    "Cairo",
    "Suez",
    "Haifa",
    "Singapore",
    "Manila",
    "Pearl Harbor",
    "Rangoon",
    "Shanghai",
    "Nanking",
    "Chungking",
    "Hong Kong",
    "Vladivostok",
    "Harbin",
    "Dairen",
    "Keijo",
    "Tokyo",
    "Osaka",
    "Nagasaki",
    "Hiroshima",
    "San Francisco",
    "Seattle",
    "New York",
    "Norfolk",
    "Halifax",
    "Murmansk",
    "Archangel",
    "Luxembourg",
    "Tallinn",
    "Riga",
    "Kaunas",
    "Tirana",
    "Beirut",
    "Damascus",
    "Panama",
    "San Salvador",
    "Port-au-Prince",
    "Guam",
    "Wake",
    "Midway",
    "Iwo Jima",
    "Guadalcanal",
    "Tarawa",
    "Truk",
    "Rabaul",
    "Colombo",
    "Nicosia",
    "Reykjavik",
    "Torshavn",
    "Wilno",
    "Lwow",
    "Vienna",
    "Prague",
    "Viipuri",
    "Kishinev",
    "Trieste",
    "Rhodes",
    "Taihoku",
    "Toyohara",
    "Hsinking",
    "Ploesti",
    "Abadan",
    "Lhasa",
    "Malmo",
    "Colon",
    "Aden",
    "Lisbon",
    "Athens",
    "Hamburg",
    "Berlin",
    "Moscow",
    "Madrid",
    "London",
    "Delhi",
    "Johannesburg",
    "Omsk",
    "Buenos Aires",
    "Petsamo",
    "Memel",
    "Stettin",
    "Breslau",
    "Kirkenes",
    "Tetuan",
    "Port Said",
    "Batavia",
    "Saigon",
    "Hanoi",
    "Bangkok",
    "Mukden",
    "Odessa",
    "Minsk",
    "Baghdad",
    "Basra",
    "Leopoldville",
    "Salonika",
    "Bordeaux",
    "Edinburgh",
    "Dutch Harbor",
    "Kiska",
    "Attu",
    "Anchorage",
    "Port Moresby",
    "Noumea",
    "Suva",
    "Mandalay",
    "Tsingtao",
    "Kobe",
    "Fusan",
)
# Second tier: cities a player of the war expects, kept before the spread-out fill.
IMPORTANT_CITIES = (
    "Voronezh",
    "Kazan",
    "Saratov",
    "Tiflis",
    "Khabarovsk",
    "Krasnoyarsk",
    "Chita",
    "Alma-Ata",
    "Kursk",
    "Yakutsk",
    "Petropavlovsk",
    "Sian",
    "Lanchow",
    "Port Arthur",
    "Brisbane",
    "Perth",
    "Darwin",
    "Atlanta",
    "Mosul",
    "Aleppo",
    "Jerusalem",
    "Oran",
    "Massawa",
    "Nairobi",
    "Luanda",
    "Lourenco Marques",
    "Salisbury",
    "Kano",
    "Manaus",
    "Sapporo",
    "Valencia",
    "Salonika",
    "Poznan",
    "Constanta",
    "Bari",
    "Messina",
    "Penang",
    "Phnom Penh",
    "Makassar",
    "Khartoum",
    "Windhoek",
    "St. John's",
    "Kingston",
    "San Juan",
    "Valparaiso",
    "Palau",
    "Kwajalein",
    "Asmara",
    "Port Sudan",
    "Diego Suarez",
)
CITY_TARGET = 440


def _dist2(w: World, h: int, lat: float, lon: float) -> float:
    cx, cy = w.geo.centre(np.array([h]))
    px, py = w.geo.from_latlon(np.array([lat]), np.array([lon]))
    dx = (float(px[0]) - float(cx[0]) + w.grid.width / 2) % w.grid.width - w.grid.width / 2
    return dx * dx + (float(py[0]) - float(cy[0])) ** 2


def _sea_linked(w: World, h: int) -> bool:
    for d in range(6):
        o = int(w.nbr[h, d])
        if o == NO_HEX or not w.has_sea[o]:
            continue
        a, k = w.canon(h, d)
        if w.sea_x[a, k]:
            return True
    return False


def _make_port(w: World, h: int) -> None:
    """Give a coastal city hex a sea part joined to the nearest open water."""
    if w.has_sea[h] and _sea_linked(w, h):
        return
    best = None
    for d in range(6):
        o = int(w.nbr[h, d])
        if o != NO_HEX and w.has_sea[o]:
            key = (bool(w.has_land[o]), -float(1.0 - w.frac[o]), d)
            if best is None or key < best[0]:
                best = (key, d)
    if best is None:
        return
    w.has_sea[h] = True
    w.set_cross(h, best[1], sea=True)


def place_cities(w: World) -> tuple[list[City], list[str]]:
    entries = places.parse_cities()
    order = sorted(
        range(len(entries)),
        key=lambda i: (0 if (entries[i][0] in REQUIRED_CITIES or entries[i][4]) else 1, i),
    )
    taken: dict[int, str] = {}
    placed: dict[str, tuple[int, str, str, int]] = {}
    for i in order:
        name, lat, lon, terr, flags = entries[i]
        tid = w.tid(terr)
        h0 = w.hex_at(lat, lon)
        cands = [h0, *[int(o) for o in w.nbr[h0] if o != NO_HEX]]
        port = "P" in flags

        def score(h: int, lat: float = lat, lon: float = lon, tid: int = tid, port: bool = port) -> tuple:
            return (
                0 if w.has_land[h] else 1,
                0 if w.territory[h] in (0, tid) else 1,
                0 if (not port or (w.has_sea[h] and _sea_linked(w, h))) else 1,
                _dist2(w, h, lat, lon),
                h,
            )

        free = [h for h in cands if h not in taken]
        if not free:
            w.notes.append(f"city {name} dropped: no free hex")
            continue
        h = min(free, key=score)
        if h != h0 and score(h)[:3] > (0, 0, 0) and name not in REQUIRED_CITIES and not flags:
            w.notes.append(f"city {name} dropped: no fitting hex")
            continue
        if not w.has_land[h]:
            w.has_land[h] = True
        w.territory[h] = tid
        if port:
            _make_port(w, h)
        taken[h] = name
        placed[name] = (h, terr, flags, i)
    # thin out crowded unflagged cities down to the target count
    kept = dict(placed)
    if len(kept) > CITY_TARGET:
        names = list(kept)
        hx = np.array([kept[n][0] for n in names], dtype=np.int64)
        rows, cols = hx // w.grid.width, hx % w.grid.width
        q = cols - (rows - (rows & 1)) // 2
        dq_ = q[:, None] - q[None, :]
        dr = rows[:, None] - rows[None, :]
        dist = np.full(dq_.shape, 1 << 30, dtype=np.int64)
        for shift in (-w.grid.width, 0, w.grid.width):
            a = dq_ + shift
            dist = np.minimum(dist, (np.abs(a) + np.abs(dr) + np.abs(a + dr)) // 2)
        np.fill_diagonal(dist, 1 << 30)
        alive = np.ones(len(names), dtype=bool)
        spare = np.array([not kept[n][2] and n not in REQUIRED_CITIES and n not in IMPORTANT_CITIES for n in names])
        order_idx = np.array([kept[n][3] for n in names])
        # places.py lists each territory's cities roughly by importance: every
        # territory keeps its first spare cities longest, so the long lists (the
        # Soviet Union, the US, China) lose their tails first; among equals the
        # city closest to another goes first (the map keeps an even spread)
        rank: dict[str, int] = {}
        seen: Counter[str] = Counter()
        for n in sorted(names, key=lambda n: kept[n][3]):
            if spare[names.index(n)]:
                rank[n] = seen[kept[n][1]]
                seen[kept[n][1]] += 1
            else:
                rank[n] = -1
        rank_arr = np.array([rank[n] for n in names])
        while alive.sum() > CITY_TARGET:
            cand = np.nonzero(alive & spare)[0]
            if len(cand) == 0:
                break
            nearest = np.where(alive[None, :], dist[cand], 1 << 30).min(axis=1)
            victim = cand[np.lexsort((-order_idx[cand], nearest, -rank_arr[cand]))[0]]
            alive[victim] = False
        kept = {n: kept[n] for n, a in zip(names, alive.tolist(), strict=True) if a}
    cities = []
    for name, (h, _terr, flags, _i) in sorted(kept.items(), key=lambda kv: kv[1][3]):
        cities.append(City(name, h, "C" in flags, "P" in flags, "L" in flags))
    resource_cities = [n for n, v in kept.items() if "R" in v[2]]
    return cities, resource_cities


# Resource hexes per territory, chosen so that incomes follow the 1939 economic
# weights (see scenarios/README.md); candidates are taken in list order, cities first.
RESOURCE_QUOTA: dict[str, int] = {
    # the powers (home land)
    "United States": 34,
    "Germany": 16,
    "United Kingdom": 7,
    "Soviet Union": 28,
    "France": 14,
    "Japan": 3,
    "Italy": 12,
    "China": 16,
    # colonies of the powers
    "India": 5,
    "Burma": 2,
    "Malaya": 2,
    "Egypt": 1,
    "Iraq": 2,
    "Kuwait": 1,
    "Bahrain": 1,
    "Northern Rhodesia": 1,
    "Southern Rhodesia": 1,
    "Nigeria": 1,
    "Gold Coast": 1,
    "French North Africa": 4,
    "French Indochina": 2,
    "French West Africa": 1,
    "New Caledonia": 1,
    "Manchukuo": 4,
    "Korea": 2,
    "Formosa": 1,
    "Karafuto": 1,
    "Libya": 1,
    "Italian East Africa": 1,
    "Albania": 1,
    "Philippines": 3,
    "Dutch East Indies": 8,
    "Curacao": 1,
    "Belgian Congo": 3,
    "Angola": 1,
    "Mozambique": 1,
    "South West Africa": 1,
    # the other countries
    "Netherlands": 2,
    "Belgium": 3,
    "Canada": 10,
    "Australia": 7,
    "South Africa": 6,
    "Brazil": 7,
    "Argentina": 6,
    "Mexico": 5,
    "Chile": 5,
    "Spain": 5,
    "Poland": 6,
    "Sweden": 5,
    "Turkey": 4,
    "Romania": 4,
    "Yugoslavia": 4,
    "Venezuela": 4,
    "Portugal": 2,
    "Peru": 3,
    "Iran": 4,
    "Uruguay": 2,
    "Thailand": 3,
    "Saudi Arabia": 2,
    "New Zealand": 3,
    "Hungary": 3,
    "Finland": 3,
    "Colombia": 3,
    "Bolivia": 2,
    "Switzerland": 2,
    "Norway": 3,
    "Greece": 2,
    "Cuba": 2,
    "Denmark": 1,
    "Ireland": 1,
    "Bulgaria": 1,
    "Estonia": 1,
    "Latvia": 1,
    "Lithuania": 1,
    "Ecuador": 1,
    "Paraguay": 1,
    "Afghanistan": 1,
    "Mongolia": 1,
}


def place_resources(w: World, cities: list[City], resource_cities: list[str]) -> set[int]:
    by_name = {c.name: c for c in cities}
    used: Counter[str] = Counter()
    res: set[int] = set()

    def take(h: int, label: str) -> None:
        terr = w.territory_names[int(w.territory[h])]
        if used[terr] >= RESOURCE_QUOTA.get(terr, 0):
            w.notes.append(f"resource {label} ({terr}) over quota")
            return
        used[terr] += 1
        res.add(h)

    for c in cities:
        if c.name in resource_cities:
            take(by_name[c.name].hex, c.name)
    for label, lat, lon in places.parse_resources():
        h0 = w.hex_at(lat, lon)
        cands = [h0, *[int(o) for o in w.nbr[h0] if o != NO_HEX]]
        tid = int(w.territory[h0]) if w.has_land[h0] else 0
        ok = [h for h in cands if w.has_land[h] and h not in res and (tid == 0 or w.territory[h] == tid)]
        if not ok:
            w.notes.append(f"resource {label} dropped")
            continue
        take(min(ok, key=lambda h: (_dist2(w, h, lat, lon), h)), label)
    for terr, n in sorted(RESOURCE_QUOTA.items()):
        if used[terr] < n:
            w.notes.append(f"resource quota of {terr} short: {used[terr]} of {n}")
    return res


# --------------------------------------------------------------------------- terrain, weather, rail


def _ring_contains(ring: geodata.Ring, lon: np.ndarray, lat: np.ndarray) -> np.ndarray:
    import shapely
    from shapely.geometry import Polygon

    return shapely.contains_xy(Polygon(ring), lon, lat)


def assign_terrain(w: World) -> bytearray:
    size = w.grid.size
    ids = np.arange(size, dtype=np.int64)
    cx, cy = w.geo.centre(ids)
    offs = [(0.0, 0.0)] + [
        (0.3 * math.cos(math.radians(30 + 60 * k)), 0.3 * math.sin(math.radians(30 + 60 * k))) for k in range(6)
    ]
    lats, lons = [], []
    for ox, oy in offs:
        la, lo = w.geo.to_latlon(cx + ox, cy + oy)
        lats.append(la)
        lons.append(lo)
    terr = np.full(size, int(Terrain.CLEAR), dtype=np.int64)
    land = w.has_land
    for _name, t, ring in geodata.TERRAIN:
        hits = np.zeros(size, dtype=np.int64)
        for la, lo in zip(lats, lons, strict=True):
            hits += _ring_contains(ring, lo, la)
        # centre inside, or most of the hex: the rulebook's "even partially" is
        # kept coarse so that ranges stay ranges and do not swallow the plains
        sel = land & ((hits >= 4) | ((hits >= 2) & _ring_contains(ring, lons[0], lats[0])))
        terr[sel] = int(t)
    terr[~land] = int(Terrain.SEA)
    for ring in geodata.FROZEN_SEA:
        inside = _ring_contains(ring, lons[0], lats[0])
        terr[inside & ~land] = int(Terrain.ICECAP)
    return bytearray(terr.astype(np.uint8).tolist())


def assign_weather(w: World) -> bytearray:
    size = w.grid.size
    ids = np.arange(size, dtype=np.int64)
    cx, cy = w.geo.centre(ids)
    lat, lon = w.geo.to_latlon(cx, cy)
    zone = np.full(size, int(WeatherZone.NORTH_TEMPERATE), dtype=np.int64)
    tropical = np.abs(lat) <= 23.5
    # the monsoon lands of southern and eastern Asia reach further north
    names = np.array(w.territory_names, dtype=object)[w.territory]
    monsoon = np.isin(names, ["India", "Burma", "Ceylon", "Hong Kong"])
    tropical |= (lat <= 30.0) & (lon >= 60.0) & (lon <= 98.0) & (monsoon | ~w.has_land)
    tropical |= (lat <= 26.0) & (lon >= 98.0) & (lon <= 125.0)
    zone[tropical] = int(WeatherZone.TROPICAL)
    # between the tropic and 30 S: subtropical, dry or mild winters
    zone[(lat < -23.5) & (lat >= -30.0)] = int(WeatherZone.FAIR)
    zone[lat < -30.0] = int(WeatherZone.SOUTH_TEMPERATE)
    for ring in geodata.FAIR:
        zone[_ring_contains(ring, lon, lat)] = int(WeatherZone.FAIR)
    for ring in geodata.INDUSTRIAL:
        zone[_ring_contains(ring, lon, lat)] = int(WeatherZone.INDUSTRIAL)
    polar = (lat >= 60.0) | ((lat >= 55.0) & (lon >= 60.0)) | ((lat >= 55.0) & (lon >= -140.0) & (lon <= -60.0))
    zone[polar] = int(WeatherZone.POLAR)
    return bytearray(zone.astype(np.uint8).tolist())


EUROPE_RAIL = {
    "United Kingdom",
    "Ireland",
    "France",
    "Belgium",
    "Netherlands",
    "Luxembourg",
    "Switzerland",
    "Germany",
    "Denmark",
    "Norway",
    "Sweden",
    "Finland",
    "Estonia",
    "Latvia",
    "Lithuania",
    "Poland",
    "Hungary",
    "Romania",
    "Yugoslavia",
    "Bulgaria",
    "Greece",
    "Italy",
    "Spain",
    "Portugal",
    "Gibraltar",
    "Malta",
    "Albania",
    "Dodecanese",
}
JAPAN_RAIL = {"Japan", "Korea", "Formosa", "Manchukuo", "Karafuto", "South Seas Mandate"}


def assign_rail(w: World, terrain: bytearray, weather: bytearray) -> bytearray:
    size = w.grid.size
    rail = bytearray(size)
    names = w.territory_names
    for h in range(size):
        if not w.has_land[h]:
            continue
        t = names[int(w.territory[h])]
        ter = terrain[h]
        if (
            (t in EUROPE_RAIL and ter != Terrain.ICECAP)
            or (t in ("China", "Hong Kong", "India", "Ceylon") and ter != Terrain.TALL_MOUNTAIN)
            or t in JAPAN_RAIL
            or t in ("South Africa", "New Zealand", "United States")
            or (t == "Argentina" and weather[h] != WeatherZone.SOUTH_TEMPERATE)
        ):
            rail[h] = 1
    for _name, pts in geodata.RAILWAYS:
        for h in path_hexes(w, list(pts)):
            if w.has_land[h]:
                rail[h] = 1
    return rail


# --------------------------------------------------------------------------- temporary borders


POLAND_EAST: geodata.Ring = (
    (22.0, 53.45),
    (22.6, 52.6),
    (23.2, 52.3),
    (23.6, 52.1),
    (23.7, 51.6),
    (24.1, 50.9),
    (23.5, 50.4),
    (22.8, 49.8),
    (22.6, 49.1),
    (30.0, 47.0),
    (30.0, 57.0),
    (22.0, 55.0),
)
FRANCE_NORTH: geodata.Ring = (
    (-1.2, 43.1),
    (-0.5, 43.9),
    (-0.25, 44.55),
    (0.15, 45.65),
    (0.6, 46.4),
    (1.0, 47.1),
    (2.07, 47.22),
    (3.33, 46.57),
    (4.85, 46.78),
    (5.5, 47.1),
    (6.1, 46.25),
    (8.0, 46.3),
    (9.0, 51.5),
    (-6.0, 51.5),
    (-6.0, 43.1),
)
CHINA_JAPAN: tuple[geodata.Ring, ...] = (
    (
        (108.0, 40.0),
        (108.0, 42.5),
        (116.0, 46.0),
        (120.0, 42.0),
        (122.0, 40.0),
        (122.5, 37.5),
        (121.0, 36.5),
        (122.0, 32.0),
        (121.8, 30.5),
        (120.5, 30.0),
        (118.5, 30.5),
        (116.5, 30.0),
        (115.5, 29.5),
        (113.5, 29.8),
        (113.0, 31.0),
        (114.5, 32.5),
        (115.5, 34.0),
        (114.0, 35.0),
        (112.5, 35.2),
        (111.0, 35.5),
        (110.5, 37.0),
        (110.5, 39.0),
    ),
    ((112.3, 21.8), (114.6, 22.2), (114.6, 23.8), (113.0, 23.9), (112.3, 23.0)),
)


def temp_borders(w: World) -> dict[str, frozenset[int]]:
    from .territories import OVERRIDES

    ids = np.nonzero(w.has_land)[0]
    cx, cy = w.geo.centre(ids)
    lat, lon = w.geo.to_latlon(cx, cy)
    terr = np.array([w.territory_names[int(t)] for t in w.territory[ids]])

    def pick(name: str, rings: list[geodata.Ring]) -> frozenset[int]:
        sel = terr == name
        inside = np.zeros(len(ids), dtype=bool)
        for ring in rings:
            inside |= _ring_contains(ring, lon, lat)
        return frozenset(int(h) for h in ids[sel & inside])

    bess = [o.ring for o in OVERRIDES if o.territory == "Romania" and "MDA" in o.codes]
    fin = [o.ring for o in OVERRIDES if o.territory == "Finland"]
    out = {
        "poland_east": pick("Poland", [POLAND_EAST]),
        "romania_east": pick("Romania", bess),
        "finland_south": pick("Finland", fin[:1]),
        "finland_north": pick("Finland", [*fin[1:], ((28.6, 68.9), (33.0, 68.9), (33.0, 70.5), (28.6, 70.5))]),
        "france_north": pick("France", [FRANCE_NORTH]),
        "china_japan_1939": pick("China", list(CHINA_JAPAN)),
        "baltic": frozenset(int(h) for h in ids[np.isin(terr, ["Estonia", "Latvia", "Lithuania"])]),
    }
    for k, v in out.items():
        if not v:
            raise RuntimeError(f"temporary border {k} holds no hex")
    return out


# --------------------------------------------------------------------------- assembly


def build_world(width: int = WIDTH) -> tuple[HexMap, list[str]]:
    w = build_surface(make_grid(width))
    assign_territories(w)
    return finish(w)


def finish(w: World) -> tuple[HexMap, list[str]]:
    """Everything after the raster and the Natural Earth pass (split out to iterate quickly)."""
    grid = w.grid
    apply_straits(w)
    canals = apply_canals(w)
    cities, res_cities = place_cities(w)
    resources = place_resources(w, cities, res_cities)
    cut_divides(w, canals)
    isolate_canals(w, canals)
    # canal hexes keep their land owner; make sure they have one
    for c in canals:
        for h in (c.a, c.b):
            if not w.territory[h]:
                nb = [int(w.territory[o]) for o in w.nbr[h] if o != NO_HEX and w.territory[o]]
                w.territory[h] = min(nb) if nb else 0
    terrain = assign_terrain(w)
    weather = assign_weather(w)
    rail = assign_rail(w, terrain, weather)
    borders = temp_borders(w)
    # drop territories that ended with no hex, renumbering the rest
    used = sorted({int(t) for t in w.territory[w.has_land].tolist()} | {0})
    remap = np.zeros(len(w.territory_names), dtype=np.int64)
    for new, old in enumerate(used):
        remap[old] = new
    w.territory_names = [w.territory_names[i] for i in used]
    w.territory = np.where(w.has_land, remap[w.territory], 0)
    by_name = {c.name: c.hex for c in cities}
    france = w.tid("France")
    germany = w.tid("Germany")
    forts = {by_name["Gibraltar"], by_name["Malta"], by_name["Sevastopol"]}
    for h in np.nonzero(w.territory == france)[0].tolist():
        if any(o != NO_HEX and w.territory[o] == germany and w.has_land[o] for o in w.nbr[h].tolist()):
            forts.add(h)
    hexmap = HexMap(
        grid=grid,
        terrain=bytes(terrain),
        kind=kinds(w),
        sides=bytes(freeze_sides(w)),
        territory=tuple(int(t) for t in w.territory.tolist()),
        weather=bytes(weather),
        rail=bytes(rail),
        territories=territories_tuple(w),
        cities=tuple(cities),
        resources=frozenset(resources),
        canals=tuple(canals),
        temp_borders=borders,
        fortifications=frozenset(forts),
        airfields=frozenset({by_name["Okinawa"]}),
    )
    return hexmap, w.notes
