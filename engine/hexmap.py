"""The static world map: terrain, hexsides, territories, cities, rails, weather zones.

A :class:`HexMap` never changes during a game; everything that does (control,
installations, damage) lives in the game state.  It is built once, either by
the map compiler in ``scenarios/`` or, in tests, by :func:`engine.position.build_map`,
and saved in a compact, canonical, compressed msgpack form (:meth:`HexMap.to_bytes`).

Hexsides (``sides[h * 6 + d]``):

* ``Side.LAND``  - land units may cross, ships may not;
* ``Side.SEA``   - ships may cross, land units may not (an all-sea hexside);
* ``Side.COAST`` - both may cross (a coastline runs through the side);
* ``Side.EDGE``  - the top or bottom of the world: nothing crosses.

A hex has a land part, a sea part or both (``kind``): only hexes with a land
part take land units, only hexes with a sea part (and not icecap) take ships.
"""

from __future__ import annotations

import hashlib
import zlib
from dataclasses import dataclass, field
from enum import IntEnum
from functools import cached_property
from itertools import compress

import msgpack
import numpy as np

from engine.hexgrid import DIRECTIONS, NO_HEX, HexGrid, opposite

MAP_FORMAT = "pbem-map"
MAP_FORMAT_VERSION = 1


class Terrain(IntEnum):
    """Terrain of a hex's land part (SEA for all-sea hexes; ICECAP may be frozen sea)."""

    SEA = 0
    CLEAR = 1
    FOREST = 2
    MOUNTAIN = 3
    TALL_MOUNTAIN = 4
    DESERT = 5
    ICECAP = 6


class Kind(IntEnum):
    SEA = 0
    LAND = 1
    COAST = 2


class Side(IntEnum):
    SEA = 0
    LAND = 1
    COAST = 2
    EDGE = 3


class WeatherZone(IntEnum):
    POLAR = 0
    NORTH_TEMPERATE = 1
    SOUTH_TEMPERATE = 2
    INDUSTRIAL = 3
    FAIR = 4
    TROPICAL = 5


class MapError(ValueError):
    """A map that is malformed or inconsistent."""


@dataclass(frozen=True, slots=True)
class City:
    name: str
    hex: int
    capital: bool = False
    major_port: bool = False
    lake: bool = False  # on a lake: never a port


@dataclass(frozen=True, slots=True)
class Territory:
    """A named piece of land: a country's home land or one of its colonies."""

    name: str
    country: str
    colony: bool = False


@dataclass(frozen=True, slots=True)
class Canal:
    name: str
    a: int
    b: int


@dataclass(frozen=True, eq=False)
class HexMap:
    grid: HexGrid
    terrain: bytes
    kind: bytes
    sides: bytes
    territory: tuple[int, ...]  # index into territories; 0 is "no territory" (sea)
    weather: bytes
    rail: bytes
    territories: tuple[Territory, ...]
    cities: tuple[City, ...] = ()
    resources: frozenset[int] = frozenset()
    canals: tuple[Canal, ...] = ()
    temp_borders: dict[str, frozenset[int]] = field(default_factory=dict)
    fortifications: frozenset[int] = frozenset()  # built at the start of any scenario
    airfields: frozenset[int] = frozenset()

    def __post_init__(self) -> None:
        self.validate()

    # --- consistency -----------------------------------------------------

    def validate(self) -> None:
        n = self.grid.size
        for name in ("terrain", "kind", "territory", "weather", "rail"):
            if len(getattr(self, name)) != n:
                raise MapError(f"map field '{name}' has {len(getattr(self, name))} entries, expected {n}")
        if len(self.sides) != n * 6:
            raise MapError(f"map field 'sides' has {len(self.sides)} entries, expected {n * 6}")
        if not self.territories or self.territories[0].name != "":
            raise MapError("territory 0 must be the empty territory of the sea")
        self._validate_hexsides()
        names = set()
        for c in self.cities:
            if c.name in names:
                raise MapError(f"city '{c.name}' appears twice")
            names.add(c.name)
            if self.kind[c.hex] == Kind.SEA:
                raise MapError(f"city '{c.name}' is in an all-sea hex {self.grid.label(c.hex)}")
        for canal in self.canals:
            if self.grid.distance(canal.a, canal.b) != 1:
                raise MapError(f"canal '{canal.name}' hexes are not adjacent")

    def _validate_hexsides(self) -> None:
        """Every hexside reads the same from both of its hexes, and the map's rim is EDGE
        (one array pass: the world map has 300,000 hexsides and loads in every command)."""
        nbr = np.asarray(self.neighbours, dtype=np.int64).reshape(-1, 6)
        sides = np.frombuffer(self.sides, dtype=np.uint8).reshape(-1, 6)
        rim = nbr == NO_HEX
        if bad := np.argwhere(rim & (sides != Side.EDGE)).tolist():
            h, d = bad[0]
            raise MapError(f"hex {self.grid.label(h)} side {d} leaves the map but is not EDGE")
        back = np.array([opposite(d) for d in DIRECTIONS])
        seen = sides[np.where(rim, 0, nbr), back]
        if bad := np.argwhere(~rim & (seen != sides)).tolist():
            h, d = bad[0]
            o = nbr[h, d]
            raise MapError(f"hexside between {self.grid.label(h)} and {self.grid.label(int(o))} disagrees")

    # --- lookups -----------------------------------------------------------

    @property
    def size(self) -> int:
        return self.grid.size

    @cached_property
    def neighbours(self) -> list[int]:
        """Flat ``size * 6`` neighbour table (NO_HEX off the map)."""
        return _neighbour_table(self.grid)

    @cached_property
    def city_at(self) -> dict[int, City]:
        return {c.hex: c for c in self.cities}

    @cached_property
    def city_by_name(self) -> dict[str, City]:
        return {c.name.lower(): c for c in self.cities}

    @cached_property
    def country_of(self) -> list[str]:
        """Owner country of each hex's territory ('' for the sea)."""
        names = [t.country for t in self.territories]
        return [names[t] for t in self.territory]

    @cached_property
    def hexes_of_country(self) -> dict[str, tuple[int, ...]]:
        """Land hexes of each country, colonies included."""
        out: dict[str, list[int]] = {}
        for h, c in enumerate(self.country_of):
            if c:
                out.setdefault(c, []).append(h)
        return {k: tuple(v) for k, v in out.items()}

    @cached_property
    def hexes_of_territory(self) -> dict[str, tuple[int, ...]]:
        out: dict[str, list[int]] = {}
        for h, t in enumerate(self.territory):
            if t:
                out.setdefault(self.territories[t].name, []).append(h)
        return {k: tuple(v) for k, v in out.items()}

    def is_colony(self, h: int) -> bool:
        return self.territories[self.territory[h]].colony

    def has_land(self, h: int) -> bool:
        return self.kind[h] != Kind.SEA

    def has_sea(self, h: int) -> bool:
        return self.kind[h] != Kind.LAND

    def side(self, h: int, d: int) -> Side:
        return Side(self.sides[h * 6 + d])

    def _hex_arrays(self) -> tuple[list[int], np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The hexside tables as arrays for the neighbour tables' tests: (flat neighbour
        list, neighbours, hexside kinds, hex kinds, terrains), neighbours off the map read
        as hex 0 in the per-neighbour arrays and masked by the caller's ``on_map``."""
        flat = self.neighbours
        nbr = np.asarray(flat, dtype=np.int64).reshape(-1, 6)
        sides = np.frombuffer(self.sides, dtype=np.uint8).reshape(-1, 6)
        kind = np.frombuffer(self.kind, dtype=np.uint8)
        terrain = np.frombuffer(self.terrain, dtype=np.uint8)
        return flat, nbr, sides, kind, terrain

    @staticmethod
    def _kept_rows(flat: list[int], ok: np.ndarray) -> list[tuple[int, ...]]:
        """Each hex's neighbours (direction order) where ``ok``; the rows are cut from the
        flat list by itertools: every command builds these tables, so no Python loop over hexsides."""
        keep: list[bool] = ok.ravel().tolist()
        any_kept: list[bool] = np.any(ok, axis=1).tolist()
        return [
            tuple(compress(flat[i : i + 6], keep[i : i + 6])) if kept else ()
            for i, kept in zip(range(0, len(flat), 6), any_kept, strict=True)
        ]

    @cached_property
    def land_neighbours(self) -> list[tuple[int, ...]]:
        """For each hex, the neighbours a land unit may step to (ignoring weather), in
        direction order: across a land or coast hexside into a hex with land."""
        flat, nbr, sides, kind, _ = self._hex_arrays()
        on_map = nbr != NO_HEX
        land = kind != Kind.SEA
        ok = on_map & ((sides == Side.LAND) | (sides == Side.COAST)) & land[np.where(on_map, nbr, 0)] & land[:, None]
        return self._kept_rows(flat, ok)

    @cached_property
    def frozen_neighbours(self) -> list[tuple[int, ...]]:
        """Extra land steps across all-sea icecap hexsides, usable in severe winter."""
        flat, nbr, sides, kind, terrain = self._hex_arrays()
        on_map = nbr != NO_HEX
        other = np.where(on_map, nbr, 0)
        land = kind != Kind.SEA
        icecap = terrain == Terrain.ICECAP
        ok = on_map & (sides == Side.SEA) & land[:, None] & land[other] & (icecap[:, None] | icecap[other])
        return self._kept_rows(flat, ok)

    @cached_property
    def sea_links(self) -> list[tuple[int, ...]]:
        """For each hex, the neighbours a ship could step to if every canal were open."""
        flat, nbr, sides, kind, terrain = self._hex_arrays()
        on_map = nbr != NO_HEX
        other = np.where(on_map, nbr, 0)
        sea = (kind != Kind.LAND) & (terrain != Terrain.ICECAP)
        ok = on_map & ((sides == Side.SEA) | (sides == Side.COAST)) & sea[:, None] & sea[other]
        return self._kept_rows(flat, ok)

    @cached_property
    def canal_hexes(self) -> frozenset[int]:
        return frozenset(c.a for c in self.canals) | frozenset(c.b for c in self.canals)

    @cached_property
    def land_table(self) -> np.ndarray:
        """:attr:`land_neighbours` as a ``(size + 1, 6)`` array for whole-map searches; rows
        are padded with ``size``, an extra hex of nobody (its own row is all padding)."""
        return _padded(self.land_neighbours, self.size, self.size + 1)

    @cached_property
    def sea_table(self) -> np.ndarray:
        """:attr:`sea_neighbours` as a ``(size, 6)`` array padded with ``size``."""
        return _padded(self.sea_neighbours, self.size, self.size)

    @cached_property
    def weather_zones(self) -> frozenset[int]:
        """The weather zones that have at least one hex on this map."""
        return frozenset(self.weather)

    @cached_property
    def naval_zoc_neighbours(self) -> tuple[tuple[int, ...], ...]:
        """Adjacent hexes with a sea part joined by a hexside ships may cross, except the
        link between the two hexes of a canal (control zones never cross a canal)."""
        cut: dict[int, set[int]] = {}
        for c in self.canals:
            cut.setdefault(c.a, set()).add(c.b)
            cut.setdefault(c.b, set()).add(c.a)
        # Only the few canal hexes lose a link: every other row is the sea link row itself.
        return tuple(
            tuple(o for o in row if o not in cut[h]) if h in cut else row for h, row in enumerate(self.sea_links)
        )

    @cached_property
    def sea_neighbours(self) -> list[tuple[int, ...]]:
        """For each hex, the neighbours a ship may step to, canals closed (the engine
        opens a canal for a side that controls both its hexes)."""
        closed = self.canal_hexes
        # Only the rows of canal hexes and of their neighbours change; the others are kept whole.
        return [
            () if h in closed else row if closed.isdisjoint(row) else tuple(o for o in row if o not in closed)
            for h, row in enumerate(self.sea_links)
        ]

    def is_port(self, h: int) -> bool:
        """A city on the coast that is not on a lake (damage is checked by the state)."""
        city = self.city_at.get(h)
        return city is not None and not city.lake and self.kind[h] == Kind.COAST

    # --- serialisation -------------------------------------------------------

    def to_bytes(self) -> bytes:
        """Canonical compressed form: same map, same bytes."""
        terr = np.asarray(self.territory, dtype="<u2").tobytes()
        doc = {
            "format": MAP_FORMAT,
            "version": MAP_FORMAT_VERSION,
            "width": self.grid.width,
            "height": self.grid.height,
            "lat_north": self.grid.lat_north,
            "wrap": self.grid.wrap,
            "terrain": bytes(self.terrain),
            "kind": bytes(self.kind),
            "sides": bytes(self.sides),
            "territory": terr,
            "weather": bytes(self.weather),
            "rail": bytes(self.rail),
            "territories": [[t.name, t.country, t.colony] for t in self.territories],
            "cities": [[c.name, c.hex, c.capital, c.major_port, c.lake] for c in self.cities],
            "resources": sorted(self.resources),
            "canals": [[c.name, c.a, c.b] for c in self.canals],
            "temp_borders": {k: sorted(v) for k, v in sorted(self.temp_borders.items())},
            "fortifications": sorted(self.fortifications),
            "airfields": sorted(self.airfields),
        }
        raw = msgpack.packb(doc, use_bin_type=True)
        return zlib.compress(raw, 9)

    @classmethod
    def from_bytes(cls, data: bytes, digest: str | None = None) -> HexMap:
        """Load a map file; ``digest`` is its known digest when ``data`` is canonical."""
        hexmap = cls._parse(data)
        if digest is not None:
            hexmap.__dict__["_digest"] = digest  # fills the cached property below
        return hexmap

    @classmethod
    def _parse(cls, data: bytes) -> HexMap:
        try:
            raw = zlib.decompress(data)
            doc = msgpack.unpackb(raw, raw=False, strict_map_key=False)
        except (zlib.error, ValueError, msgpack.ExtraData) as exc:
            raise MapError(f"map file is corrupt: {exc}") from exc
        if not isinstance(doc, dict) or doc.get("format") != MAP_FORMAT:
            raise MapError("not a pbem map file")
        if doc.get("version") != MAP_FORMAT_VERSION:
            raise MapError(f"map format version {doc.get('version')} is not supported")
        try:
            grid = HexGrid(doc["width"], doc["height"], doc["lat_north"], doc["wrap"])
            territory = tuple(np.frombuffer(doc["territory"], dtype="<u2").tolist())
            return cls(
                grid=grid,
                terrain=doc["terrain"],
                kind=doc["kind"],
                sides=doc["sides"],
                territory=territory,
                weather=doc["weather"],
                rail=doc["rail"],
                territories=tuple(Territory(n, c, bool(col)) for n, c, col in doc["territories"]),
                cities=tuple(City(n, h, bool(cap), bool(mp), bool(lk)) for n, h, cap, mp, lk in doc["cities"]),
                resources=frozenset(doc["resources"]),
                canals=tuple(Canal(n, a, b) for n, a, b in doc["canals"]),
                temp_borders={k: frozenset(v) for k, v in doc["temp_borders"].items()},
                fortifications=frozenset(doc["fortifications"]),
                airfields=frozenset(doc["airfields"]),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise MapError(f"map file is malformed: {exc}") from exc

    def digest(self) -> str:
        """SHA-256 of the canonical form: pins the map in a game's genesis."""
        return self._digest

    @cached_property
    def _digest(self) -> str:
        return hashlib.sha256(self.to_bytes()).hexdigest()


def _padded(rows: list[tuple[int, ...]], pad: int, height: int) -> np.ndarray:
    table = np.full((height, 6), pad, dtype=np.int64)
    for h, row in enumerate(rows):
        if row:
            table[h, : len(row)] = row
    return table


def _neighbour_table(grid: HexGrid) -> list[int]:
    """Vectorised version of :meth:`HexGrid.neighbour_table` (the map is large)."""
    w, hgt = grid.width, grid.height
    ids = np.arange(grid.size, dtype=np.int64)
    rows, cols = ids // w, ids % w
    odd = (rows & 1).astype(bool)
    even_off = ((1, 0), (0, -1), (-1, -1), (-1, 0), (-1, 1), (0, 1))
    odd_off = ((1, 0), (1, -1), (0, -1), (-1, 0), (0, 1), (1, 1))
    table = np.empty((grid.size, 6), dtype=np.int64)
    for d in DIRECTIONS:
        dc = np.where(odd, odd_off[d][0], even_off[d][0])
        dr = np.where(odd, odd_off[d][1], even_off[d][1])
        r2 = rows + dr
        raw_c2 = cols + dc
        c2 = raw_c2 % w
        off = (r2 < 0) | (r2 >= hgt)
        if not grid.wrap:
            off |= (raw_c2 < 0) | (raw_c2 >= w)
        table[:, d] = np.where(off, NO_HEX, r2 * w + c2)
    return table.ravel().tolist()
