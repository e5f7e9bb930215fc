"""Where the units waiting to be placed may go now, with the room each hex has left
(supplement "Placement", "Stacking"): what a person looks for before writing a deployment.

Nothing here decides a rule: the hexes are those of the current step's legal placing
orders, and the room is what engine/stacking.py counts.  Hexes are written ``COL,ROW``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from engine import stacking
from engine.actions import Action
from engine.orders import parse_place
from engine.sequence import current
from engine.state import NO_UNIT, GameState, LandKey, Unit
from engine.summary import Cities
from engine.units import Domain, UnitType

PLACING_KINDS = ("place_land", "place")
#: What the room of a hex counts, by the kind of unit placed (see :func:`_counter`).
ORDINARY, PARATROOPERS, SUPPLY = "land units", "paratroopers", "supply units"
SHIPS, AIRBASE = "ships", "based air units"


@dataclass(frozen=True, slots=True)
class Room:
    """A hex where units may be placed now, and the room the stacking rules leave there."""

    hex: str  # COL,ROW
    city: str  # the city in it, else the nearest within summary.NEAR_CITY hexes ("" if none)
    city_distance: int
    used: int  # units already there of what the limit counts (every owner's)
    limit: int | None  # what the rules allow there (None: no limit, a friendly major port)
    distance: int  # hexes from the place asked about (0 when none was)


@dataclass(frozen=True, slots=True)
class Waiting:
    """Units waiting to be placed, and the order that places them."""

    label: str  # "Germany infantry move 3: 12 points" or a counter's "#95 Germany battleship 4-4-4-8"
    order: str  # "place_land Germany infantry 3 POINTS HEX" or "place #95 HEX"
    id: int  # the waiting unit's id; NO_UNIT for land strength points
    #: the placing orders' kind and the arguments that name what they place (all but the
    #: points and the hex): ("place", 95) or ("place_land", "Germany", "infantry", 3)
    what: tuple[str | int, ...]


@dataclass(frozen=True, slots=True)
class Placing:
    """Waiting units that may go to the same hexes, their room counted the same way."""

    waiting: tuple[Waiting, ...]
    counts: str  # what ``used`` and ``limit`` count: land units, paratroopers, supply units, ships...
    hexes: tuple[Room, ...]  # nearest the place asked about first, else by hex


@dataclass(frozen=True, slots=True)
class Crowding:
    """A placing order's hex, and the hexes nearest it where the same unit may go."""

    target: Room
    counts: str
    free: tuple[Room, ...]


Counter = Callable[[GameState, int], tuple[int, int | None]]


def _counter(unit_type: UnitType, side: str) -> tuple[str, Counter]:
    """What the room of a hex counts for a unit of ``unit_type``, and how to count it."""
    if unit_type.domain is Domain.NAVAL:
        return SHIPS, lambda s, h: (
            stacking.ships_in(s, h),
            None if stacking.friendly_major_port(s, h, side) else stacking.NAVAL_LIMIT,
        )
    if unit_type.domain is Domain.AIR:
        return AIRBASE, lambda s, h: (
            sum(1 for u in s.units_at(h) if stacking.is_based(u) and u.carrier == NO_UNIT),
            stacking.airbase_capacity(s, h, side),
        )
    what, at, limit = {
        UnitType.PARATROOPER: (PARATROOPERS, 1, stacking.PARATROOPER_LIMIT),
        UnitType.SUPPLY: (SUPPLY, 2, stacking.SUPPLY_LIMIT),
    }.get(unit_type, (ORDINARY, 0, stacking.ORDINARY_LIMIT))
    return what, lambda s, h: (stacking.land_counts(s, h)[at], limit)


def _waiting(state: GameState, a: Action) -> tuple[Waiting, UnitType]:
    """The waiting units a placing order places (its points left out), and their type."""
    if a.kind == "place":
        u: Unit = state.units[int(a.args[0])]
        return Waiting(u.label(), f"place #{u.id} HEX", u.id, (a.kind, u.id)), u.type
    country, t, move = str(a.args[0]), str(a.args[1]), int(a.args[2])
    unit_type = UnitType(t)
    points = state.countries[country].free_land.get(LandKey(unit_type, move), 0)
    label = f"{country} {t} move {move}: {points} point{'s' if points != 1 else ''}"
    order = f"place_land {country} {t} {move} POINTS HEX"
    return Waiting(label, order, NO_UNIT, (a.kind, country, t, move)), unit_type


def _key(a: Action) -> tuple[object, ...]:
    """What a placing order places, whatever its hex (and points)."""
    return (a.kind, *a.args[:-1]) if a.kind == "place" else (a.kind, *a.args[:3])


def _legal_placings(state: GameState, side: str) -> dict[tuple[object, ...], list[Action]]:
    found: dict[tuple[object, ...], list[Action]] = {}
    if side not in state.acting or state.winner is not None:
        return found
    for a in current(state).legal(state, side):
        # One point is enough to name the hex: a place_land with more points goes to the same hexes.
        if a.kind == "place" or (a.kind == "place_land" and int(a.args[3]) == 1):
            found.setdefault(_key(a), []).append(a)
    return found


def placements(state: GameState, side: str, near: str = "") -> list[Placing]:
    """Where ``side``'s units waiting to be placed may go in the current step, grouped by
    the hexes they may take; with ``near`` (``COL,ROW``, ``[City]`` or a city's name) each
    group's hexes nearest it first.  Raises OrderError for a place that does not exist."""
    hexmap = state.world.map
    origin = parse_place(hexmap, near) if near else None
    cities = Cities(hexmap)
    groups: dict[tuple[object, ...], tuple[list[Waiting], str, list[Room]]] = {}
    for orders in _legal_placings(state, side).values():
        waiting, unit_type = _waiting(state, orders[0])
        counts, count = _counter(unit_type, side)
        hexes = sorted({int(a.args[-1]) for a in orders})
        group = groups.get((counts, *hexes))
        if group is None:
            rooms = [_room(state, h, count, cities, origin) for h in hexes]
            rooms.sort(key=lambda r: (r.distance, r.hex))
            group = groups[(counts, *hexes)] = ([], counts, rooms)
        group[0].append(waiting)
    return [Placing(tuple(w), counts, tuple(rooms)) for w, counts, rooms in groups.values()]


def crowding(state: GameState, side: str, action: Action, count: int) -> Crowding | None:
    """For a placing order (``place``, ``place_land``): its hex with the room there, and the
    ``count`` hexes nearest it where the same units may go now; None for other orders."""
    if action.kind not in PLACING_KINDS:
        return None
    try:
        _, unit_type = _waiting(state, action)
    except (KeyError, ValueError, IndexError):
        return None  # an order that names no waiting unit has no room to tell
    h = int(action.args[-1])
    if not 0 <= h < state.world.map.size:
        return None
    counts, counter = _counter(unit_type, side)
    cities = Cities(state.world.map)
    free = {int(a.args[-1]) for a in _legal_placings(state, side).get(_key(action), [])} - {h}
    rooms = sorted((_room(state, x, counter, cities, h) for x in free), key=lambda r: (r.distance, r.hex))
    return Crowding(_room(state, h, counter, cities, None), counts, tuple(rooms[:count]))


def _room(state: GameState, h: int, count: Counter, cities: Cities, origin: int | None) -> Room:
    used, limit = count(state, h)
    city, far = cities.nearest(h)
    distance = 0 if origin is None else state.world.map.grid.distance(origin, h)
    return Room(state.world.map.grid.label(h), city, far, used, limit, distance)
