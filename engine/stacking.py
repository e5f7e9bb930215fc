"""Stacking limits and airbase capacity (supplement: "Stacking").

* Land: per hex at most 2 ordinary land units (infantry, armor, marines) plus 1
  paratrooper plus 1 supply unit, counting every owner; embarked units do not count.
* Air: a friendly city gives 2 places, a resource hex 1, a built airfield 2 (they add
  up); a bombed city or resource hex gives nothing, an atomized hex nothing at all.
  Only based air units use places (see :func:`is_based`).
* Naval: at most 5 ships per hex, every owner counted, ships in port included; inside
  a friendly major port there is no limit.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.hexgrid import NO_HEX
from engine.state import NO_UNIT, GameState, Unit
from engine.units import UnitType

ORDINARY_LIMIT, PARATROOPER_LIMIT, SUPPLY_LIMIT = 2, 1, 1
NAVAL_LIMIT = 5
#: The land limit as refusals tell it to a player.
LAND_LIMIT_TEXT = (
    f"at most {ORDINARY_LIMIT} infantry, armor or marine units, "
    f"{PARATROOPER_LIMIT} paratrooper and {SUPPLY_LIMIT} supply unit a hex, of every owner"
)
#: "No limit" as a number of places, so callers can compare and subtract.
UNLIMITED = 1 << 30


def _land_class(u: Unit) -> int:
    """0 ordinary, 1 paratrooper, 2 supply."""
    if u.type == UnitType.PARATROOPER:
        return 1
    if u.type == UnitType.SUPPLY:
        return 2
    return 0


_LIMITS = (ORDINARY_LIMIT, PARATROOPER_LIMIT, SUPPLY_LIMIT)


def land_counts(state: GameState, h: int, exclude: Iterable[int] = ()) -> list[int]:
    """[ordinary, paratroopers, supply] land units (not embarked) in hex ``h``."""
    skip = set(exclude)
    counts = [0, 0, 0]
    for u in state.units_at(h):
        if u.is_land and u.carrier == NO_UNIT and u.id not in skip:
            counts[_land_class(u)] += 1
    return counts


def fits_land(counts: list[int], u: Unit) -> bool:
    """May ``u`` (a land unit standing elsewhere) join the land units ``counts`` of a hex
    (:func:`land_counts`)?  :func:`can_stack_land` for one unit, the hex's counts read once."""
    cls = _land_class(u)
    return all(c + (i == cls) <= limit for i, (c, limit) in enumerate(zip(counts, _LIMITS, strict=True)))


def can_stack_land(state: GameState, h: int, units: Iterable[Unit]) -> bool:
    """May ``units`` (land units) all stand in hex ``h`` together with those already there?"""
    units = list(units)
    counts = land_counts(state, h, exclude=(u.id for u in units))
    for u in units:
        counts[_land_class(u)] += 1
    return all(c <= limit for c, limit in zip(counts, _LIMITS, strict=True))


def ships_in(state: GameState, h: int) -> int:
    return sum(1 for u in state.units_at(h) if u.is_naval)


def friendly_port(state: GameState, h: int, side: str) -> bool:
    """A port (a coastal city not on a lake) controlled by ``side``, not bombed or atomized."""
    return (
        state.world.map.is_port(h)
        and state.side_controlling(h) == side
        and h not in state.bombed
        and h not in state.atomized
    )


def friendly_major_port(state: GameState, h: int, side: str) -> bool:
    city = state.world.map.city_at.get(h)
    return city is not None and city.major_port and friendly_port(state, h, side)


def inside_major_port(state: GameState, u: Unit) -> bool:
    """Is ship ``u`` inside a major port of its side (rulebook "Terrain", city with major
    port: no naval attack reaches it, and its defence against aircraft is doubled)?"""
    return u.in_port and friendly_major_port(state, u.hex, state.side_of(u.country))


def naval_room(state: GameState, h: int, side: str = "") -> int:
    """How many more ships may enter hex ``h``; unlimited in a major port friendly to ``side``."""
    if side and friendly_major_port(state, h, side):
        return UNLIMITED
    return max(0, NAVAL_LIMIT - ships_in(state, h))


def airbase_capacity(state: GameState, h: int, side: str) -> int:
    """Places for based air units of ``side`` in hex ``h`` (0 unless ``side`` controls it)."""
    if h in state.atomized or state.side_controlling(h) != side:
        return 0
    hexmap = state.world.map
    cap = 0
    if h not in state.bombed:
        if h in hexmap.city_at:
            cap += 2
        if h in hexmap.resources:
            cap += 1
    if state.airfields.get(h) == 0:
        cap += 2
    return cap


def is_based(u: Unit) -> bool:
    """An air unit is based when it is on the map and not on a mission: missions set
    ``Unit.origin`` to the hex flown from, landing clears it (docs/rules-decisions.md).
    Air units on carriers are based on the carrier and use no airbase place."""
    return u.is_air and u.hex != NO_HEX and u.origin == NO_HEX


def air_room(state: GameState, h: int, side: str) -> int:
    """Free airbase places for ``side`` in hex ``h``."""
    cap = airbase_capacity(state, h, side)
    if cap == 0:
        return 0
    used = sum(1 for u in state.units_at(h) if is_based(u) and u.carrier == NO_UNIT)
    return max(0, cap - used)


def carrier_slot(state: GameState, carrier: Unit) -> bool:
    """Can an air unit land on this carrier now (undamaged, holding no air unit)?"""
    if carrier.type != UnitType.CARRIER or carrier.damaged or carrier.hex == NO_HEX:
        return False
    return not any(c.is_air for c in state.cargo_of(carrier))
