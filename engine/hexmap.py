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

import gc
import hashlib
import zlib
from dataclasses import dataclass, field
from enum import IntEnum
from functools import cached_property

import msgpack
import numpy as np

from engine.hexgrid import DIRECTIONS, EVEN_OFFSETS, NO_HEX, ODD_OFFSETS, HexGrid, opposite

MAP_FORMAT = "pbem-map"
MAP_FORMAT_VERSION = 1
TABLES_FORMAT = "pbem-map-tables"
TABLES_FORMAT_VERSION = 1
#: The neighbour tables a tables file holds, each as one byte per hex whose bit ``d``
#: says the step in direction ``d`` is kept (the other tables derive from these).
TABLES = ("land", "frozen", "sea")


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
        (array passes: the world map has 300,000 hexsides and loads in every command).
        Each hexside is seen from the hex it leaves eastwards or northwards (directions
        E, NE and NW), whose neighbour sees it in the opposite direction."""
        nbr = self._neighbour_array
        sides = np.frombuffer(self.sides, dtype=np.uint8).reshape(-1, 6)
        rim = nbr == NO_HEX
        if (off := rim & (sides != Side.EDGE)).any():
            h, d = np.argwhere(off)[0].tolist()
            raise MapError(f"hex {self.grid.label(h)} side {d} leaves the map but is not EDGE")
        for d in DIRECTIONS[:3]:
            other = nbr[:, d]
            # One column at a time (a two-dimensional gather costs several times more);
            # ``take`` reads NO_HEX (-1) as the last hex, and those entries are masked.
            seen = sides[:, opposite(d)].take(other)
            if (bad := (other != NO_HEX) & (seen != sides[:, d])).any():
                h = int(np.flatnonzero(bad)[0])
                raise MapError(f"hexside between {self.grid.label(h)} and {self.grid.label(int(other[h]))} disagrees")

    # --- lookups -----------------------------------------------------------

    @property
    def size(self) -> int:
        return self.grid.size

    @cached_property
    def neighbours(self) -> tuple[int, ...]:
        """Flat ``size * 6`` neighbour table (NO_HEX off the map).

        This and the other per-hex tables of the map are tuples, not lists: a list is
        traversed by every full garbage collection for as long as the map lives (these
        add over half a million items), while a tuple of numbers, or of such tuples, is
        dropped from the collector's sight at its first pass."""
        return tuple(self._neighbour_array.ravel().tolist())

    @cached_property
    def _neighbour_array(self) -> np.ndarray:
        """:attr:`neighbours` as a ``(size, 6)`` array."""
        return _neighbour_array(self.grid)

    @cached_property
    def city_at(self) -> dict[int, City]:
        return {c.hex: c for c in self.cities}

    @cached_property
    def port_hexes(self) -> tuple[int, ...]:
        """The hexes of the cities that are ports (:meth:`is_port`), in the cities' order."""
        return tuple(c.hex for c in self.cities if self.is_port(c.hex))

    @cached_property
    def city_by_name(self) -> dict[str, City]:
        return {c.name.lower(): c for c in self.cities}

    @cached_property
    def country_of(self) -> tuple[str, ...]:
        """Owner country of each hex's territory ('' for the sea)."""
        names = [t.country for t in self.territories]
        return tuple([names[t] for t in self.territory])

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

    def _hex_arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The arrays the neighbour tables' tests read: (neighbours, whether each is on the
        map, hexside kinds, hex kinds, terrains); neighbours off the map read as hex 0 in
        the per-neighbour arrays and are masked by the caller with ``on_map``."""
        nbr = self._neighbour_array
        on_map = nbr != NO_HEX
        sides = np.frombuffer(self.sides, dtype=np.uint8).reshape(-1, 6)
        kind = np.frombuffer(self.kind, dtype=np.uint8)
        terrain = np.frombuffer(self.terrain, dtype=np.uint8)
        return np.where(on_map, nbr, 0), on_map, sides, kind, terrain

    # The steps each table keeps, as ``(size, 6)`` boolean masks over :attr:`neighbours`.
    # A tables file (:meth:`load_tables`) fills them in; otherwise they are computed here.

    @cached_property
    def _land_steps(self) -> np.ndarray:
        other, on_map, sides, kind, _ = self._hex_arrays()
        land = kind != Kind.SEA
        return on_map & ((sides == Side.LAND) | (sides == Side.COAST)) & land[other] & land[:, None]  # type: ignore[no-any-return]

    @cached_property
    def _frozen_steps(self) -> np.ndarray:
        other, on_map, sides, kind, terrain = self._hex_arrays()
        land = kind != Kind.SEA
        icecap = terrain == Terrain.ICECAP
        return on_map & (sides == Side.SEA) & land[:, None] & land[other] & (icecap[:, None] | icecap[other])  # type: ignore[no-any-return]

    @cached_property
    def _sea_steps(self) -> np.ndarray:
        other, on_map, sides, kind, terrain = self._hex_arrays()
        sea = (kind != Kind.LAND) & (terrain != Terrain.ICECAP)
        return on_map & ((sides == Side.SEA) | (sides == Side.COAST)) & sea[:, None] & sea[other]  # type: ignore[no-any-return]

    @cached_property
    def land_neighbours(self) -> tuple[tuple[int, ...], ...]:
        """For each hex, the neighbours a land unit may step to (ignoring weather), in
        direction order: across a land or coast hexside into a hex with land."""
        return _rows(self._land_kept)

    @cached_property
    def frozen_neighbours(self) -> tuple[tuple[int, ...], ...]:
        """Extra land steps across all-sea icecap hexsides, usable in severe winter."""
        return _rows(_kept(self._neighbour_array, self._frozen_steps))

    @cached_property
    def sea_links(self) -> tuple[tuple[int, ...], ...]:
        """For each hex, the neighbours a ship could step to if every canal were open."""
        return _rows(self._sea_kept)

    @cached_property
    def canal_hexes(self) -> frozenset[int]:
        return frozenset(c.a for c in self.canals) | frozenset(c.b for c in self.canals)

    @cached_property
    def land_table(self) -> np.ndarray:
        """:attr:`land_neighbours` as a ``(size + 1, 6)`` array for whole-map searches; rows
        are padded with ``size``, an extra hex of nobody (its own row is all padding)."""
        return _padded(self._land_kept, self.size + 1)

    @cached_property
    def sea_table(self) -> np.ndarray:
        """:attr:`sea_neighbours` as a ``(size, 6)`` array padded with ``size``."""
        hexes, values, _ = self._sea_kept
        closed = np.zeros(self.size, dtype=bool)
        closed[list(self.canal_hexes)] = True
        kept = ~(closed.take(hexes) | closed.take(values))
        return _padded(_indexed(hexes[kept], values[kept], self.size), self.size)

    # The steps each pair of tables (rows and padded array) is made from, found once.

    @cached_property
    def _land_kept(self) -> _Kept:
        return _kept(self._neighbour_array, self._land_steps)

    @cached_property
    def _sea_kept(self) -> _Kept:
        return _kept(self._neighbour_array, self._sea_steps)

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
        rows = list(self.sea_links)
        for h, gone in cut.items():
            rows[h] = tuple(o for o in rows[h] if o not in gone)
        return tuple(rows)

    @cached_property
    def sea_neighbours(self) -> tuple[tuple[int, ...], ...]:
        """For each hex, the neighbours a ship may step to, canals closed (the engine
        opens a canal for a side that controls both its hexes)."""
        closed = self.canal_hexes
        # Only the rows of canal hexes and of their neighbours change; the others are kept whole.
        rows = list(self.sea_links)
        for h in closed:
            rows[h] = ()
            for o in self._neighbour_array[h].tolist():
                if o != NO_HEX and o not in closed:
                    rows[o] = tuple(x for x in rows[o] if x not in closed)
        return tuple(rows)

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

    def tables_to_bytes(self) -> bytes:
        """The compact form of the neighbour tables, shipped beside a packaged map so that
        a process loads them instead of testing 333,000 hexsides: for each table of
        :data:`TABLES` one byte per hex (bit ``d``: the step in direction ``d`` is kept),
        pinned to this map's digest and to a hash of its own content."""
        tables = {name: self._steps_bits(name) for name in TABLES}
        doc = {
            "format": TABLES_FORMAT,
            "version": TABLES_FORMAT_VERSION,
            "map": self.digest(),
            "tables": tables,
            "check": _tables_check(tables),
        }
        return zlib.compress(msgpack.packb(doc, use_bin_type=True), 9)

    def load_tables(self, data: bytes) -> None:
        """Take the neighbour tables from their compact form (:meth:`tables_to_bytes`).

        Raises MapError, leaving the tables to be computed from the map, if the form is
        damaged, of another format, or made for another map (the map's digest differs)."""
        try:
            doc = msgpack.unpackb(zlib.decompress(data), raw=False)
        except (zlib.error, ValueError, msgpack.ExtraData) as exc:
            raise MapError(f"map tables are damaged: {exc}") from exc
        if not isinstance(doc, dict) or doc.get("format") != TABLES_FORMAT:
            raise MapError("not a pbem map tables file")
        if doc.get("version") != TABLES_FORMAT_VERSION:
            raise MapError(f"map tables format version {doc.get('version')} is not supported")
        if doc.get("map") != self.digest():
            raise MapError("map tables were made for another map (its digest differs)")
        tables = doc.get("tables")
        if (
            not isinstance(tables, dict)
            or sorted(tables) != sorted(TABLES)
            or any(not isinstance(b, bytes) or len(b) != self.size for b in tables.values())
            or doc.get("check") != _tables_check(tables)
        ):
            raise MapError("map tables are damaged (their content does not match their hash)")
        bits = np.array([1 << d for d in DIRECTIONS], dtype=np.uint8)
        off_map = self._neighbour_array == NO_HEX
        for name in TABLES:
            steps = (np.frombuffer(tables[name], dtype=np.uint8)[:, None] & bits) != 0
            # A step off the map would put NO_HEX in a row: no honest file has one.
            if (steps & off_map).any():
                raise MapError(f"map tables are damaged (table '{name}' steps off the map)")
            self.__dict__[f"_{name}_steps"] = steps  # fills the cached property

    def _steps_bits(self, name: str) -> bytes:
        steps: np.ndarray = getattr(self, f"_{name}_steps")
        weights = np.array([1 << d for d in DIRECTIONS], dtype=np.uint8)
        return (steps.astype(np.uint8) * weights).sum(axis=1, dtype=np.uint8).tobytes()  # type: ignore[no-any-return]

    def digest(self) -> str:
        """SHA-256 of the canonical form: pins the map in a game's genesis."""
        return self._digest

    @cached_property
    def _digest(self) -> str:
        return hashlib.sha256(self.to_bytes()).hexdigest()


def _tables_check(tables: dict[str, bytes]) -> str:
    return hashlib.sha256(b"".join(tables[name] for name in TABLES)).hexdigest()


#: The steps a table keeps, in hex then direction order: the hex and the neighbour of
#: each, and where each hex's first one is (:func:`_kept`).
_Kept = tuple[np.ndarray, np.ndarray, np.ndarray]


def _kept(nbr: np.ndarray, steps: np.ndarray) -> _Kept:
    """The steps ``steps`` keeps.  One flat pass: reductions over rows of six
    (``any(axis=1)``, ``sum(axis=1)``) cost several times more on arrays this size."""
    at = np.flatnonzero(steps.ravel())
    return _indexed(at // 6, nbr.ravel().take(at), len(steps))


def _indexed(hexes: np.ndarray, values: np.ndarray, size: int) -> _Kept:
    counts = np.bincount(hexes, minlength=size)
    return hexes, values, np.cumsum(counts) - counts


def _rows(kept: _Kept) -> tuple[tuple[int, ...], ...]:
    """Each hex's kept neighbours, in direction order, as tuples.

    Every command that asks the engine builds these tables, and 55,000 tuples made one
    by one in Python cost more than the rest of loading the map.  So the rows are written
    as one msgpack array of arrays by array operations, every neighbour as a fixed-width
    unsigned integer (a form msgpack reads though it is not the shortest), and msgpack's
    C unpacker makes the tuples."""
    _, values, first = kept
    size, n = len(first), len(values)
    marker, width = (0xCD, 2) if int(values.max(initial=0)) <= 0xFFFF else (0xCE, 4)
    cells = np.empty((n, 1 + width), dtype=np.uint8)
    cells[:, 0] = marker
    cells[:, 1:] = values.astype(f">u{width}").view(np.uint8).reshape(n, width)
    # Each hex's array header (at most six elements: a one-byte fixarray), then its cells.
    heads = np.arange(size) + first * (1 + width)
    is_head = np.zeros(size + cells.size, dtype=bool)
    is_head[heads] = True
    packed = np.empty(len(is_head), dtype=np.uint8)
    packed[heads] = 0x90 + np.diff(first, append=n).astype(np.uint8)
    packed[~is_head] = cells.ravel()
    data = b"\xdd" + size.to_bytes(4, "big") + packed.tobytes()
    # Tuples of numbers make no reference cycles, yet each 700 of them would start the
    # garbage collector over everything made so far: a quarter of the map's loading time.
    paused = gc.isenabled()
    gc.disable()
    try:
        rows: tuple[tuple[int, ...], ...] = msgpack.unpackb(data, use_list=False)
        return rows
    finally:
        if paused:
            gc.enable()


def _padded(kept: _Kept, rows: int) -> np.ndarray:
    """The rows of :func:`_rows` as a ``(rows, 6)`` array (``rows`` at least the map's
    size), each padded with the map's size (a hex of nobody)."""
    hexes, values, first = kept
    table = np.full((rows, 6), len(first), dtype=np.int64)
    # The i-th kept step is the (i - first[hex])-th of its hex's row.
    table.ravel()[hexes * 6 + np.arange(len(hexes)) - first.take(hexes)] = values
    return table


def _neighbour_table(grid: HexGrid) -> list[int]:
    """The flat neighbour list of :meth:`HexGrid.neighbour_table`, computed by arrays."""
    return _neighbour_array(grid).ravel().tolist()


def _neighbour_array(grid: HexGrid) -> np.ndarray:
    """Vectorised version of :meth:`HexGrid.neighbour_table` (the map is large), ``(size, 6)``.

    Every process that loads the map makes it, so it is made a direction and a row parity
    at a time: the neighbours of a row are the next row's numbers plus a column shift."""
    w, hgt = grid.width, grid.height
    cols = np.arange(w, dtype=np.int64)
    table = np.full((hgt, w, 6), NO_HEX, dtype=np.int64)
    for parity, offsets in ((0, EVEN_OFFSETS), (1, ODD_OFFSETS)):
        for d, (dc, dr) in enumerate(offsets):
            rows = np.arange(parity, hgt, 2, dtype=np.int64)
            rows = rows[(rows + dr >= 0) & (rows + dr < hgt)]
            shifted = (cols + dc) % w
            row_of = (rows + dr)[:, None] * w + shifted[None, :]
            if not grid.wrap and dc:
                row_of[:, (cols + dc < 0) | (cols + dc >= w)] = NO_HEX
            table[rows, :, d] = row_of
    return table.reshape(grid.size, 6)
