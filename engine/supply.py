"""Supply lines, supply sources and the supply phase (rulebook: "Supply", "Terrain").

A supply line runs from a unit's hex to a source through hexes that are on land,
controlled by a country of the unit's side, free of enemy units, and in no enemy
land control zone unless friendly land units stand there.  It may end in, but not
pass through, a tall mountain or desert hex, and crosses no all-sea hexside except
frozen icecap hexsides in severe winter.

Sources: city resource hexes located in a friendly country and controlled by a
friendly country; supply units (for units other than supply units); fortifications
(for the units in them only); any city in China (for Chinese units).  Sources are
restricted by nationality ("Supply Sources"), which splits a side into *classes*:
the Soviet Union, China, Japan with Thailand, and everyone else.

Speed: all of a side's supply is a handful of multi-source searches - one per class
of the side's countries, plus one from its supply units that only explores what the cities do
not already reach - run as numpy frontier expansions over a precomputed neighbour
table.  :func:`supply_map` returns them; the per-unit questions are array look-ups.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from functools import lru_cache
from itertools import chain
from operator import attrgetter
from typing import Protocol

import numpy as np

from engine import stacking
from engine.actions import Refusal
from engine.derived import Derived
from engine.hexgrid import NO_HEX
from engine.hexmap import HexMap, Kind
from engine.losses import eliminate, lose_points
from engine.phase import Phase
from engine.sides import SIDES, other
from engine.state import NO_UNIT, GameState, Unit
from engine.terrain import TERRAIN
from engine.units import UnitType
from engine.weather import frozen_zones
from engine.world import World
from engine.zoc import fort_blocks

LAND_TYPES = frozenset({"infantry", "armor", "paratrooper", "marine", "supply"})
NAVAL_TYPES = frozenset(t.value for t in UnitType if t.domain.value == "naval")
AIR_TYPES = frozenset(t.value for t in UnitType if t.domain.value == "air")
#: Land units that stay in supply until the next supply phase once they could trace.
LASTING = frozenset({"armor", "supply"})
#: Months a ship may spend away from a supplied base and still be in supply.
NAVAL_MONTHS = 3

CLASSES = ("soviet", "chinese", "japanese", "other")
_ROLE = {"infantry": 1, "armor": 1, "paratrooper": 1, "marine": 1, "supply": 2}
_CLASS_OF = {"Soviet Union": "soviet", "China": "chinese", "Japan": "japanese", "Thailand": "japanese"}


def supply_class(country: str) -> str:
    """Which sources a country's units may use, within its side ("Supply Sources")."""
    return _CLASS_OF.get(country, "other")


# --- static tables (once per map) ---------------------------------------------


@dataclass(frozen=True, eq=False)
class _Tables:
    nbr: np.ndarray  # (size + 1, 6) land neighbours padded with the sentinel hex ``size``
    land: np.ndarray  # (size + 1,) bool: hex has a land part
    through: np.ndarray  # (size + 1,) bool: a supply line may pass through (not tall mountain/desert)
    weather: np.ndarray  # (size + 1,) weather zone
    territory_country: np.ndarray  # (size,) territory owner's country number
    city_resources: np.ndarray  # city hexes that are also resource hexes, ascending
    city_class: np.ndarray  # the supply class (index in CLASSES) of each one's territory
    chinese_cities: np.ndarray  # city hexes in Chinese territory (any is a source for Chinese units)


# Bounded: a process (a test run) makes many maps, and none should be kept alive for good.
@lru_cache(maxsize=8)
def _tables(hexmap: HexMap, country_names: tuple[str, ...]) -> _Tables:
    n = hexmap.size
    nbr = hexmap.land_table
    kind = np.frombuffer(hexmap.kind, dtype=np.uint8)
    terrain = np.frombuffer(hexmap.terrain, dtype=np.uint8)
    land = np.zeros(n + 1, dtype=bool)
    land[:n] = kind != Kind.SEA
    through = land.copy()
    passes = np.array([TERRAIN[t].supply_passes for t in sorted(TERRAIN)], dtype=bool)
    through[:n] &= passes[terrain]
    weather = np.zeros(n + 1, dtype=np.uint8)
    weather[:n] = np.frombuffer(hexmap.weather, dtype=np.uint8)
    number = {name: i for i, name in enumerate(country_names)}
    terr_country = np.array([number.get(t.country, 0) for t in hexmap.territories], dtype=np.int64)
    territory_country = terr_country[np.asarray(hexmap.territory, dtype=np.int64)]
    cities = tuple(sorted(hexmap.city_at))
    city_resources = np.array([h for h in cities if h in hexmap.resources], dtype=np.int64)
    class_no = np.array([CLASSES.index(supply_class(name)) for name in country_names], dtype=np.int64)
    city_class = class_no[territory_country[city_resources]]
    city_hexes = np.asarray(cities, dtype=np.int64)
    chinese = city_hexes[territory_country[city_hexes] == number.get("China", -1)]
    return _Tables(nbr, land, through, weather, territory_country, city_resources, city_class, chinese)


@lru_cache(maxsize=32)
def _neighbour_table(hexmap: HexMap, zones: frozenset[int]) -> np.ndarray:
    """The land neighbours, with the frozen icecap crossings usable when ``zones`` have
    severe winter (both ends frozen) as extra columns.  Kept: the searches of a winter
    month (one per interception check, one per combat) each joined the two tables
    afresh, a copy of several megabytes, whatever their length."""
    land = hexmap.land_table
    if not zones:
        return land
    n = hexmap.size
    weather = hexmap.weather
    rows = [
        [o for o in row if weather[h] in zones and weather[o] in zones]
        for h, row in enumerate(hexmap.frozen_neighbours)
    ]
    width = max((len(r) for r in rows), default=0)
    if width == 0:
        return land
    table = np.full((n + 1, width), n, dtype=np.int64)
    for h, row in enumerate(rows):
        if row:
            table[h, : len(row)] = row
    return np.concatenate([land, table], axis=1)


def _closed(passable: np.ndarray) -> np.ndarray:
    """0 for each passable hex, every bit (255) for the others, without a branch per hex."""
    out: np.ndarray = passable.astype(np.uint8)
    out -= np.uint8(1)
    return out


def _search(
    table: np.ndarray,
    passable: np.ndarray,
    through: np.ndarray,
    seeds: list[tuple[np.ndarray, int]],
    stop: Callable[[np.ndarray], bool] | None = None,
) -> np.ndarray:
    """Multi-source search carrying up to 8 independent searches as bits of one byte.

    ``seeds`` pairs source hexes (passable) with the bits they start.  Returns, per
    hex, the bits of the searches that reach it.  A hex is entered when passable and
    expanded from when a line may pass through it; sources are always expanded from
    (a line may end in a desert source).  Running every search in one sweep costs
    the numpy call overhead of the deepest search only.

    ``stop`` is asked after each step with the bits so far (which only grow): the
    search ends when it says so, with the bits of the hexes it has reached yet."""
    # Impassable hexes start with every bit set, so "bits not yet here" filters them too.
    reach = _closed(passable)
    for hexes, bit in seeds:
        reach[hexes] |= np.uint8(bit)
    frontier = np.flatnonzero(passable & (reach != 0))
    fbits = reach[frontier]
    if stop is not None and stop(reach):
        frontier = frontier[:0]
    return _expand(table, passable, through, reach, frontier, fbits, stop)


def _expand(
    table: np.ndarray,
    passable: np.ndarray,
    through: np.ndarray,
    reach: np.ndarray,
    frontier: np.ndarray,
    fbits: np.ndarray,
    stop: Callable[[np.ndarray], bool] | None = None,
) -> np.ndarray:
    """:func:`_search` from ``frontier`` (hexes, each with the bits it spreads) over ``reach``
    (impassable hexes with every bit set); returns ``reach`` with impassable hexes at 0."""
    width = table.shape[1]
    stamp = np.zeros(len(passable), dtype=np.int64)
    # ndarray.take is cheaper than fancy indexing for these small gathers
    while frontier.size:
        cand = table.take(frontier, axis=0).ravel()
        old = reach.take(cand)
        bits = fbits.repeat(width)
        bits &= ~old
        keep = bits.nonzero()[0]
        if not keep.size:
            break
        cand, bits, old = cand.take(keep), bits.take(keep), old.take(keep)
        # merge the bits arriving at the same hex, then keep one copy of each hex
        np.bitwise_or.at(reach, cand, bits)
        if stop is not None and stop(reach):
            break
        order = np.arange(1, cand.size + 1)
        stamp[cand] = order
        first = (stamp.take(cand) == order).nonzero()[0]
        cand = cand.take(first)
        new = reach.take(cand) & ~old.take(first)
        go = through.take(cand).nonzero()[0]
        frontier, fbits = cand.take(go), new.take(go)
    reach *= passable  # (selecting by the mask, or np.where, branches hex by hex: ten times slower)
    return reach


def _extend(
    table: np.ndarray, passable: np.ndarray, through: np.ndarray, base: np.ndarray, added: np.ndarray
) -> np.ndarray:
    """What :func:`_search` gives when seeds ``added`` (bits per hex) join those whose
    search gave ``base``, over the same hexes.  Each bit's search is a plain closure of
    its sources, so the new sources' closure is added to the old: spread from each new
    source (a source is expanded from even where a line may not pass, so one the old
    search entered without passing on is expanded now) into the hexes lacking the bit."""
    reach = base | _closed(passable)
    frontier = added.nonzero()[0]
    fbits = added.take(frontier)
    reach[frontier] |= fbits
    return _expand(table, passable, through, reach, frontier, fbits)


def _reach_at(
    h: int,
    table: np.ndarray,
    passable: np.ndarray,
    through: np.ndarray,
    seeds: list[tuple[np.ndarray, int]],
    n: int,
) -> np.ndarray:
    """The bits :func:`_search` from ``seeds`` gives hex ``h`` (the other hexes get none),
    found by one search from ``h`` that stops once it has reached a source of every
    bit.  It is the same search turned around: the neighbour tables are symmetric, a
    line's inner hexes must be passed through in both directions, and its two ends
    need only be entered.  A stack cut off in a pocket is answered by searching the
    pocket, where the sources' search would cover all the side's territory."""
    out = np.zeros(n + 1, dtype=np.uint8)
    if not passable[h]:
        return out
    sources: dict[int, list[np.ndarray]] = {}
    for hexes, bits in seeds:
        for bit in (1 << i for i in range(8) if bits >> i & 1):
            sources.setdefault(bit, []).append(hexes)
    # A bit without a source is reached by no search (a class without cities).
    missing = {bit: hexes for bit, groups in sources.items() if (hexes := np.concatenate(groups)).size}
    found = 0

    def reached_all(reach: np.ndarray) -> bool:
        nonlocal found
        for bit, hexes in list(missing.items()):
            if reach.take(hexes).any():
                found |= bit
                del missing[bit]
        return not missing

    _search(table, passable, through, [(np.array([h], dtype=np.int64), 1)], reached_all)
    out[h] = found
    return out


# --- the supply of one side -----------------------------------------------------


@dataclass(frozen=True, eq=False)
class _LastSearch:
    """A side's last whole search: what it searched over, from where, and what it found."""

    key: Hashable  # the classes searched (their bits) and the frozen zones (the neighbours)
    passable: np.ndarray
    sources: np.ndarray  # bits started per hex
    reach: np.ndarray


#: Per world and side, the last whole search of :class:`SupplyMap` (see :func:`_side_search`).
_last_search: weakref.WeakKeyDictionary[World, dict[str, _LastSearch]] = weakref.WeakKeyDictionary()


def _side_search(
    world: World,
    side: str,
    key: Hashable,
    table: np.ndarray,
    passable: np.ndarray,
    through: np.ndarray,
    seeds: list[tuple[np.ndarray, int]],
) -> np.ndarray:
    """:func:`_search` from ``seeds``, extending the side's last search when it ran over
    the same hexes from some of these sources.  A deployment places supply units one by
    one, each a new source that changes the placement areas; a search of the whole
    side after each (about 150 steps over the Allies' three continents) was most of the
    time of a deployment's reveal.  The result is the same array either way: only the
    inputs are compared, never assumed."""
    sources = np.zeros(len(passable), dtype=np.uint8)
    for hexes, bit in seeds:
        sources[hexes] |= np.uint8(bit)
    kept = _last_search.setdefault(world, {})
    last = kept.get(side)
    if (
        last is not None
        and last.key == key
        and not (last.sources & ~sources).any()
        and np.array_equal(last.passable, passable)
    ):
        added = sources & ~last.sources
        if not added.any():
            # The same search again (an interception check after each interception moved
            # only aircraft): the whole result is the last one.
            return last.reach.copy()
        reach = _extend(table, passable, through, last.reach, added)
    else:
        reach = _search(table, passable, through, seeds)
    kept[side] = _LastSearch(key, passable.copy(), sources, reach.copy())
    return reach


class Supplied:
    """Hexes in supply, as a boolean array with set-like membership (``h in s``)."""

    __slots__ = ("mask",)

    def __init__(self, mask: np.ndarray) -> None:
        self.mask = mask

    def __contains__(self, h: object) -> bool:
        return bool(isinstance(h, int | np.integer) and 0 <= h < len(self.mask) - 1 and self.mask[h])

    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter(np.flatnonzero(self.mask[:-1]).tolist())

    def __len__(self) -> int:
        return int(self.mask[:-1].sum())


def _side_codes(state: GameState, side: str) -> tuple[dict[str, str], bytes]:
    """Each country's side, and the side code of each country number: 1 = ``side``, 2 = the
    enemy, 0 = neither.  Shared, not to be changed: a combat roll asks them twice a combat,
    and the sides change only when a country enters the war or leaves it."""
    countries = state.countries
    return _codes_of(state.world, tuple(countries[name].side for name in state.world.country_names[1:]), side)


@lru_cache(maxsize=16)
def _codes_of(world: World, sides: tuple[str, ...], side: str) -> tuple[dict[str, str], bytes]:
    names = world.country_names[1:]
    side_of = dict(zip(names, sides, strict=True))
    enemy = other(side)
    return side_of, bytes([0] + [1 if x == side else 2 if x == enemy else 0 for x in sides])


#: A unit as a side's supply map reads it: hex, side (1 the map's, 2 the enemy), role
#: (:data:`_ROLE`, 0 when embarked), supply class number.
_Row = tuple[int, int, int, int]


def _unit_rows(state: GameState, side_of: dict[str, str], side: str, ignoring: frozenset[int]) -> list[_Row]:
    """The rows of the units on the map that a supply map of ``side`` reads, in the units'
    order: every enemy unit (each blocks its hex) and the side's units with a role (they
    open their hex to supply, supply units are sources); the side's other units, its
    aircraft, ships and embarked units, change nothing of it.  One pass in Python over
    every unit: the only per-unit work of a whole map."""
    enemy = other(side)
    who = {name: 1 if x == side else 2 if x == enemy else 0 for name, x in side_of.items()}
    cls_no = {name: CLASSES.index(supply_class(name)) for name in side_of}
    return [
        (u.hex, w, role, cls_no[u.country])
        for u in state.units.values()
        if u.hex != NO_HEX
        and (w := who[u.country])
        and ((role := _ROLE.get(u.type, 0) if u.carrier == NO_UNIT else 0) or w == 2)
        and u.id not in ignoring
    ]


#: Hexes a search from a combat's defenders may visit before it leaves the question to the
#: whole-map arrays (a stack cut off in a wide pocket, a class whose sources are far away).
_NEAR_LIMIT = 1500


@dataclass(frozen=True, eq=False)
class _HexFacts:
    """What a search near one hex reads of the map's tables, as Python values: indexing
    an array hex by hex costs more than the search's other work."""

    land: bytes
    through: bytes
    city_class: dict[int, int]  # city resource hex -> class number of its territory
    city_country: dict[int, int]  # city resource hex -> its territory's country number
    chinese_cities: frozenset[int]


@lru_cache(maxsize=8)
def _hex_facts(t: _Tables) -> _HexFacts:
    cities = t.city_resources.tolist()
    return _HexFacts(
        t.land.astype(np.uint8).tobytes(),
        t.through.astype(np.uint8).tobytes(),
        dict(zip(cities, t.city_class.tolist(), strict=True)),
        dict(zip(cities, t.territory_country[t.city_resources].tolist(), strict=True)),
        frozenset(t.chinese_cities.tolist()),
    )


class _Near:
    """A side's supply lines near one hex, read from the hexes and the units in them rather
    than from arrays of the whole map: a combat asks whether its defenders are in supply,
    and they mostly stand a few hexes from a source.  Each hex is judged as
    :meth:`SupplyMap._build` judges every hex (on land, held by the side, no enemy unit
    in it, out of enemy land control zones unless a fortification or a friendly land unit
    opens it) when the search first reaches it; the control zones come from the units
    in the hex's land neighbours (the land steps are symmetric)."""

    def __init__(self, state: GameState, side: str, ignoring: frozenset[int]) -> None:
        self.state = state
        self.facts = _hex_facts(_tables(state.world.map, state.world.country_names))
        side_of, code_of = _side_codes(state, side)
        self.code_of = code_of
        self.enemy = other(side)
        self.who = {name: 1 if x == side else 2 if x == self.enemy else 0 for name, x in side_of.items()}
        self.ignoring = ignoring
        self.occupied = state.occupied_hexes()
        hexmap = state.world.map
        self.land_rows = hexmap.land_neighbours
        self.frozen = frozen_zones(state.date)
        self.judged: dict[int, bool] = {}  # hex -> passable, for the hexes the search reached

    def _row(self, h: int) -> tuple[int, ...]:
        """``h``'s steps as :func:`_neighbour_table` gives them."""
        row = self.land_rows[h]
        if not self.frozen:
            return row
        hexmap = self.state.world.map
        weather, zones = hexmap.weather, self.frozen
        if weather[h] not in zones:
            return row
        return row + tuple(o for o in hexmap.frozen_neighbours[h] if weather[o] in zones)

    def _units(self, h: int) -> list[Unit]:
        ids = self.occupied.get(h)
        if not ids:
            return []
        units = self.state.units
        return [units[i] for i in ids if i not in self.ignoring]

    def _zoc_source(self, h: int) -> bool:
        """An enemy land unit (not embarked) in a hex the enemy holds."""
        if h not in self.occupied or self.code_of[self.state.controller[h]] != 2:
            return False
        return any(
            self.who[u.country] == 2 and u.carrier == NO_UNIT and _ROLE.get(u.type, 0) == 1 for u in self._units(h)
        )

    def _judge(self, h: int) -> bool:
        if not self.facts.land[h] or self.code_of[self.state.controller[h]] != 1:
            return False
        here = self._units(h)
        if any(self.who[u.country] == 2 for u in here):
            return False
        if not (self._zoc_source(h) or any(map(self._zoc_source, self.land_rows[h]))):
            return True
        if h in self.state.forts and fort_blocks(self.state, h, self.enemy):
            return True
        return any(self.who[u.country] == 1 and u.carrier == NO_UNIT and u.type in _ROLE for u in here)

    def _passable(self, h: int) -> bool:
        known = self.judged.get(h)
        if known is None:
            known = self.judged[h] = self._judge(h)
        return known

    def _source_bits(self, h: int, wanted: list[str]) -> int:
        """The bits of :meth:`SupplyMap._build`'s seeds that start in passable hex ``h``."""
        facts = self.facts
        city = facts.city_class.get(h)
        if city is None and h not in self.occupied and h not in facts.chinese_cities:
            return 0  # most hexes: neither a city nor a unit
        ours = city is not None and self.code_of[facts.city_country[h]] == 1
        supply_classes = {
            CLASSES.index(supply_class(u.country))
            for u in self._units(h)
            if u.type == UnitType.SUPPLY and u.carrier == NO_UNIT and self.who[u.country] == 1
        }
        bits = 0
        for k, cls in enumerate(wanted):
            number = CLASSES.index(cls)
            if (ours and city == number) or (cls == "chinese" and h in facts.chinese_cities):
                bits |= 3 << (2 * k)
            elif number in supply_classes:
                bits |= 2 << (2 * k)
        return bits

    def bits_at(self, h: int, wanted: list[str]) -> int | None:
        """What :func:`_reach_at` gives ``h`` for the classes ``wanted`` (their bits as
        :meth:`SupplyMap._build` numbers them), or None once the search has seen more
        than :data:`_NEAR_LIMIT` hexes.  A search that runs out of hexes has found every
        source it can reach, so its answer is whole too."""
        if not self._passable(h):
            return 0
        every = sum(3 << (2 * k) for k in range(len(wanted)))
        found = self._source_bits(h, wanted)
        seen = {h}
        frontier = [h]
        through = self.facts.through
        while frontier and found != every:
            ahead = []
            for x in frontier:
                for o in self._row(x):
                    if o in seen:
                        continue
                    seen.add(o)
                    if self._passable(o):
                        found |= self._source_bits(o, wanted)
                        if through[o]:
                            ahead.append(o)
            if len(seen) > _NEAR_LIMIT:
                return None
            frontier = ahead
        return found

    def passable_mask(self, n: int) -> np.ndarray:
        """The hexes the search found passable (the others it did not judge)."""
        mask = np.zeros(n + 1, dtype=bool)
        mask[[h for h, ok in self.judged.items() if ok]] = True
        return mask


@dataclass(frozen=True, eq=False)
class _Found:
    """What a side's searches found (:class:`SupplyMap`), without the state they searched."""

    cities: dict[str, np.ndarray]
    full: dict[str, np.ndarray]
    forts: frozenset[int]
    passable: np.ndarray


class SupplyMap:
    """Where the units of one side can trace supply now.

    ``cities[c]``: hexes that reach a city (or Chinese city) source of class ``c``;
    ``full[c]``: the same plus supply units of class ``c`` as sources; ``forts``:
    the side's built fortifications (in supply for units inside, any nationality);
    ``passable``: the hexes a line may pass (in a map for one hex answered by the search
    near it, only those the search reached)."""

    state: GameState
    side: str
    ignoring: frozenset[int]
    cities: dict[str, np.ndarray]
    full: dict[str, np.ndarray]
    forts: frozenset[int]
    passable: np.ndarray

    def __init__(
        self,
        state: GameState,
        side: str,
        classes: frozenset[str] | None = None,
        ignoring: frozenset[int] = frozenset(),
        stop_at: int | None = None,
        rows: list[_Row] | None = None,
    ) -> None:
        self.state = state
        self.side = side
        #: enemy units that do not block supply lines (aircraft and ships supporting an attack)
        self.ignoring = ignoring
        self.cities: dict[str, np.ndarray] = {}
        self.full: dict[str, np.ndarray] = {}
        self._build(classes, stop_at, rows)

    @classmethod
    def over(cls, state: GameState, side: str, found: _Found) -> SupplyMap:
        """The map of every class of ``side`` that ``found`` holds, asked about ``state``
        (a state whose side map's stamp is the one ``found`` was searched for)."""
        smap = cls.__new__(cls)
        smap.state, smap.side, smap.ignoring = state, side, frozenset()
        smap.cities, smap.full, smap.forts, smap.passable = found.cities, found.full, found.forts, found.passable
        return smap

    def found(self) -> _Found:
        """What the searches found, referring to no state (the arrays are shared)."""
        return _Found(self.cities, self.full, self.forts, self.passable)

    def _build(self, classes: frozenset[str] | None, stop_at: int | None, rows: list[_Row] | None) -> None:
        """``stop_at``: only the side's units in that hex will be asked about (see
        :class:`HexSupply`): one search from that hex answers them (:func:`_reach_at`).
        ``rows``: the units' rows (:func:`_unit_rows`), when the caller has them already."""
        state, side = self.state, self.side
        world = state.world
        hexmap = world.map
        t = _tables(hexmap, world.country_names)
        n = hexmap.size
        side_of, code_of = _side_codes(state, side)
        enemy = other(side)
        self.forts = frozenset(
            h for h, m in state.forts.items() if m == 0 and side_of.get(state.controller_of(h)) == side
        )
        if stop_at is not None and classes is not None:
            near = _Near(state, side, self.ignoring)
            bits = near.bits_at(stop_at, sorted(classes))
            if bits is not None:
                self.passable = near.passable_mask(n)
                for k, cls in enumerate(sorted(classes)):
                    self.cities[cls] = np.zeros(n + 1, dtype=bool)
                    self.full[cls] = np.zeros(n + 1, dtype=bool)
                    self.cities[cls][stop_at] = bool(bits & (1 << (2 * k)))
                    self.full[cls][stop_at] = bool(bits & (2 << (2 * k)))
                return
        codes = np.frombuffer(code_of, dtype=np.uint8)
        # The side code of every hex through a translation table (one pass in C): several
        # times faster than indexing ``codes`` with 55,000 country numbers.
        control = bytes(state.controller)
        ctrl = np.frombuffer(control, dtype=np.uint8)
        friendly = np.zeros(n + 1, dtype=bool)
        friendly[:n] = np.frombuffer(control.translate(code_of.ljust(256, b"\0")), dtype=np.uint8) == 1
        if rows is None:
            rows = _unit_rows(state, side_of, side, self.ignoring)
        # (a flat run of numbers makes an array several times faster than a list of rows)
        flat = np.fromiter(chain.from_iterable(rows), dtype=np.int64, count=4 * len(rows))
        hx, wh, role, cl = flat.reshape(-1, 4).T
        mine, theirs = wh == 1, wh == 2
        zoc = np.zeros(n + 1, dtype=bool)
        zoc_sources = hx[theirs & (role == 1)]
        zoc_sources = zoc_sources[codes[ctrl[zoc_sources]] == 2]  # only from hexes the enemy holds
        if zoc_sources.size:
            zoc[zoc_sources] = True
            zoc[t.nbr[zoc_sources].ravel()] = True
            zoc[n] = False
            for h in state.forts:
                if zoc[h] and fort_blocks(state, h, enemy):
                    zoc[h] = False
        zoc[hx[mine & (role > 0)]] = False  # friendly land units open their hex
        # Every class of the side's countries, with units on the map or not yet: the bits of
        # one sweep are independent searches, so each class gets what it would get alone,
        # and the side's next map finds the same classes to extend its search.  (Searching
        # only the classes with units, a deployment that placed its first Japanese unit made
        # a search for Japan alone, then a whole one for a new set of classes.)
        side_classes = {supply_class(name) for name, x in side_of.items() if x == side}
        sup = mine & (role == 2)
        supply_units = {CLASSES[c]: hx[sup & (cl == c)] for c in np.unique(cl[sup]).tolist()}
        passable = friendly & t.land & ~zoc
        passable[hx[theirs]] = False
        through = passable & t.through
        frozen = frozen_zones(state.date)
        table = _neighbour_table(hexmap, frozen)
        self.passable = passable
        wanted = sorted(side_classes if classes is None else classes)
        # city sources by class: located in a friendly country, controlled by a friendly country
        cr = t.city_resources
        sources = (codes[t.territory_country[cr]] == 1) & passable[cr]
        cr, cr_class = cr[sources], t.city_class[sources]
        # bit 2k: class k from cities only (for supply units); bit 2k+1: cities and supply units
        seeds: list[tuple[np.ndarray, int]] = []
        for k, cls in enumerate(wanted):
            cities = cr[cr_class == CLASSES.index(cls)]
            if cls == "chinese":
                cities = np.union1d(cities, t.chinese_cities[passable[t.chinese_cities]])
            seeds.append((cities, 3 << (2 * k)))
            sus = supply_units.get(cls)
            if sus is not None and sus.size:
                seeds.append((sus[passable[sus]], 2 << (2 * k)))
        if stop_at is not None:
            reach = _reach_at(stop_at, table, passable, through, seeds, n)
        elif wanted:
            reach = _side_search(world, side, (tuple(wanted), frozen), table, passable, through, seeds)
        else:
            reach = np.zeros(n + 1, dtype=np.uint8)
        for k, cls in enumerate(wanted):
            self.cities[cls] = (reach & (1 << (2 * k))) != 0
            self.full[cls] = (reach & (2 << (2 * k))) != 0

    # --- questions ---------------------------------------------------------------

    def _mask(self, cls: str, supply_unit: bool) -> np.ndarray:
        if cls not in self.cities:
            # a class the map was not made for (one made for some classes only): search it now
            extra = SupplyMap(self.state, self.side, frozenset({cls}), self.ignoring)
            self.cities[cls], self.full[cls] = extra.cities[cls], extra.full[cls]
        return self.cities[cls] if supply_unit else self.full[cls]

    def full_mask(self, cls: str) -> np.ndarray:
        """Hexes where a unit of supply class ``cls`` traces supply (supply units as sources)."""
        return self._mask(cls, False)

    def hex_traces(self, country: str, h: int, supply_unit: bool = False) -> bool:
        """Can a unit of ``country`` standing in ``h`` trace supply now?"""
        if h == NO_HEX:
            return False
        if h in self.forts:
            return True
        return bool(self._mask(supply_class(country), supply_unit)[h])

    def can_trace(self, u: Unit) -> bool:
        """Can ``u`` trace supply now (land: from its hex; air: from its base; ships: in a
        supplied friendly port; embarked: through its carrier)?"""
        state = self.state
        if u.hex == NO_HEX:
            return False
        if u.carrier != NO_UNIT:
            carrier = state.units.get(u.carrier)
            return carrier is not None and self.in_supply(carrier)
        if u.type in LAND_TYPES:
            return self.hex_traces(u.country, u.hex, u.type is UnitType.SUPPLY)
        if u.type in AIR_TYPES:
            return stacking.airbase_capacity(state, u.hex, self.side) > 0 and self.hex_traces(u.country, u.hex)
        return stacking.friendly_port(state, u.hex, self.side) and self.hex_traces(u.country, u.hex)

    def in_supply(self, u: Unit) -> bool:
        """Is ``u`` in supply now, with the memory each kind of unit has ("Supply")."""
        t = u.type
        if u.carrier == NO_UNIT and t in LAND_TYPES:
            # the common case, inlined: a land unit on the map traces from its own hex
            h = u.hex
            if h == NO_HEX:
                return False
            if (u.supplied and t in LASTING) or h in self.forts:
                return True
            return bool(self._mask(_CLASS_OF.get(u.country, "other"), t == "supply")[h])
        if u.carrier != NO_UNIT:
            return self.can_trace(u)
        if u.type in AIR_TYPES:
            return u.supplied or self.can_trace(u)
        return u.unsupplied < NAVAL_MONTHS or self.can_trace(u)


class UnitSupply(Protocol):
    """What asks whether units are in supply: a :class:`SupplyMap` or a :class:`HexSupply`."""

    def in_supply(self, u: Unit) -> bool: ...


class HexSupply:
    """Whether the units of ``side`` standing in hex ``h`` are in supply, as a
    :class:`SupplyMap` would answer, and nothing else.

    Resolving a combat asks this of its defenders' hex, once for every combat of a roll,
    each time on a changed position.  A whole map sweeps every source of the side to the
    ends of its territory (for the Allies, three continents: over a hundred steps, and
    all of them when the defenders are cut off).  This searches from the defenders' hex
    instead, only for the supply classes of the units there, and stops once it has
    reached a source of each kind they read: the defenders are mostly a few hexes from
    a source, or in a small pocket."""

    __slots__ = ("_map", "hex")

    def __init__(self, state: GameState, side: str, h: int, ignoring: frozenset[int] = frozenset()) -> None:
        self.hex = h
        here = frozenset(supply_class(u.country) for u in state.units_at(h) if state.side_of(u.country) == side)
        self._map = SupplyMap(state, side, here, ignoring, stop_at=h)

    def in_supply(self, u: Unit) -> bool:
        if u.hex != self.hex:
            raise ValueError(f"unit #{u.id} is not in hex {self.hex}, the only hex this supply answers for")
        return self._map.in_supply(u)


def supply_map(state: GameState, side: str) -> SupplyMap:
    """Supply of every unit of ``side`` (one set of searches; see the module doc)."""
    return SupplyMap(state, side)


class SupplyWords:
    """Whether each unit on the map is in supply now, in the words a person reads, as the
    rules read it when the unit acts (:meth:`SupplyMap.in_supply`), not as the last supply
    phase recorded it: `pbem show`, `pbem hex` and the map all ask here, so they agree.
    One map per side, built when first needed."""

    IN = "in supply"
    OUT = "out of supply"
    LASTING = "cannot trace supply, but counts as in supply until the supply phase"
    NEUTRAL = "neutral"

    def __init__(self, state: GameState) -> None:
        self.state = state
        self._maps: dict[str, SupplyMap] = {}

    def word(self, u: Unit) -> str:
        side = self.state.countries[u.country].side
        if side not in SIDES:
            return self.NEUTRAL
        smap = self._maps.get(side)
        if smap is None:
            smap = self._maps[side] = supply_map(self.state, side)
        if smap.can_trace(u):
            return self.IN
        return self.LASTING if smap.in_supply(u) else self.OUT

    def out(self, u: Unit) -> bool:
        """Out of supply now (a unit off the map is neither in nor out)."""
        return u.hex != NO_HEX and self.word(u) == self.OUT


def side_stamp(state: GameState) -> Hashable:
    """Everything a side's supply map reads (declaring attacks changes none of it, so the
    checks and the legal orders of a combat step share one map per side)."""
    return (
        state.date,
        state.step,
        bytes(state.controller),
        tuple(map(_unit_stamp, state.units.values())),
        tuple(sorted(state.forts.items())),
        tuple(sorted(state.airfields.items())),
        tuple(sorted(state.bombed | state.atomized)),
        tuple(map(_country_stamp, state.countries.values())),
    )


# ``map`` with ``attrgetter`` makes the stamp's rows in C: the stamp is computed on every
# use of the table, warm or not.
_unit_stamp = attrgetter("id", "country", "hex", "carrier", "supplied", "unsupplied")
_country_stamp = attrgetter("side", "at_war")


#: Per world and side, the inputs of the side's last whole map and what it found.
_last_found: weakref.WeakKeyDictionary[World, dict[str, tuple[tuple[object, ...], _Found]]] = (
    weakref.WeakKeyDictionary()
)


def _search_side(state: GameState, side: str) -> _Found:
    """What the side's searches find, or found last time from the same inputs: the stamp
    of :data:`_found_of_side` changes with any unit, and an interception file asked the
    map again after each interceptor flew, which changes nothing a map reads (a side's
    own aircraft are in no row of :func:`_unit_rows`).  The inputs are compared whole:
    the date (frozen crossings), the countries' sides, control, fortifications and
    their owners, and the units' rows."""
    side_of, code_of = _side_codes(state, side)
    rows = _unit_rows(state, side_of, side, frozenset())
    inputs = (
        state.date,
        code_of,
        bytes(state.controller),
        tuple(sorted(state.forts.items())),
        tuple(sorted(state.fort_owner.items())),
        rows,
    )
    kept = _last_found.setdefault(state.world, {})
    last = kept.get(side)
    if last is not None and last[0] == inputs:
        return last[1]
    found = SupplyMap(state, side, rows=rows).found()
    kept[side] = (inputs, found)
    return found


#: What a side's supply searches found as the state stands (every class: the searches of
#: all classes run in one sweep, and each country's placement area reads its own class).
#: Its stamp is complete, so states with the same stamp (a state and its copies) share it.
#: It is kept on the state, so it refers to none: a result referring back to its state made
#: every state a reference cycle, left for the interpreter's full collections, each of which
#: paused whatever ran then (some 30 ms with the world's tables in memory).
_found_of_side: Derived[str, _Found] = Derived(side_stamp, _search_side, recent=4)


def supply_of_side(state: GameState, side: str) -> SupplyMap:
    """A side's supply map as the state stands, searched once per stamp (see above)."""
    return SupplyMap.over(state, side, _found_of_side(state, side))


def supplied_hexes(state: GameState, country: str) -> Supplied:
    """Hexes from which a (non-supply) unit of ``country`` can trace supply now,
    fortifications of its side included."""
    smap = supply_of_side(state, state.countries[country].side)
    mask = smap.full_mask(supply_class(country)).copy()
    for h in smap.forts:
        mask[h] = True
    return Supplied(mask)


def can_trace_supply(state: GameState, unit: Unit) -> bool:
    """Can ``unit`` trace supply now (see :meth:`SupplyMap.can_trace`)?"""
    side = state.countries[unit.country].side
    return SupplyMap(state, side, frozenset({supply_class(unit.country)})).can_trace(unit)


def unit_in_supply(state: GameState, unit: Unit) -> bool:
    """Is ``unit`` in supply (see :meth:`SupplyMap.in_supply`)?  For many units, build
    one :func:`supply_map` and ask it instead."""
    side = state.countries[unit.country].side
    return SupplyMap(state, side, frozenset({supply_class(unit.country)})).in_supply(unit)


# --- the supply phase -------------------------------------------------------------


def unsupplied(label: str) -> Refusal:
    """The refusal for an out-of-supply unit named in an attack or interception (rulebook
    "Supply", "Effects": a unit out of supply may not attack)."""
    return Refusal("supply.out-of-supply", f"{label} is out of supply and cannot attack")


def half_rounded_up(strength: int) -> int:
    return (strength + 1) // 2


def run_supply_phase(state: GameState) -> list[str]:
    """Apply the supply phase's effects ("Supply": "Effects"); returns what happened."""
    log: list[str] = []
    maps: dict[str, SupplyMap] = {side: supply_map(state, side) for side in SIDES}
    side_of = {name: c.side for name, c in state.countries.items()}
    units = [u for _, u in sorted(state.units.items()) if u.hex != NO_HEX and side_of[u.country] in SIDES]
    # ships and aircraft first: embarked units take their carrier's new status
    carriers = [u for u in units if u.type not in LAND_TYPES]
    land = [u for u in units if u.type in LAND_TYPES]
    for u in carriers:
        smap = maps[side_of[u.country]]
        traces = smap.can_trace(u)
        if u.type in AIR_TYPES:
            u.supplied = traces
            u.unsupplied = 0 if traces else u.unsupplied + 1
        else:
            u.unsupplied = 0 if traces else u.unsupplied + 1
            u.supplied = u.unsupplied < NAVAL_MONTHS
    for u in land:
        if u.id not in state.units:
            continue
        smap = maps[side_of[u.country]]
        traces = smap.can_trace(u)
        if traces:
            if not u.supplied or u.unsupplied:  # setting an unchanged fact costs the unit its packed row
                u.supplied, u.unsupplied = True, 0
            continue
        # Armor and supply units only suffer once they were already out at the last check.
        suffers = u.type not in LASTING or not u.supplied
        u.supplied = False
        u.unsupplied += 1
        if not suffers:
            log.append(f"{u.label()} is out of supply")
            continue
        if u.type is UnitType.SUPPLY:
            log.append(f"{u.label()} has been out of supply for a whole turn and is eliminated")
            eliminate(state, u)
            continue
        loss = half_rounded_up(u.strength)
        label = u.label()
        lose_points(state, u, loss)
        if u.id not in state.units:
            log.append(f"{label} is out of supply and is eliminated")
        else:
            log.append(f"{label} is out of supply and loses {loss} strength points")
    return log


def reset_month_flags(state: GameState) -> None:
    """Per-month bookkeeping of the main phases starts afresh after the supply phase."""
    for u in state.units.values():
        # Only units not reset already: setting a fact costs a unit its packed row (engine/state.py).
        if u.moved or u.attacked or u.overran or u.railed or u.mp_used:
            u.moved = u.attacked = u.overran = u.railed = False
            u.mp_used = 0


class SupplyPhase(Phase):
    """Out-of-supply losses, then the reset of the month's unit flags (auto step)."""

    name = "supply"
    kind = "auto"

    def enter(self, state: GameState) -> None:
        run_supply_phase(state)

    def leave(self, state: GameState) -> None:
        reset_month_flags(state)
