"""Aircraft and ships in a hex their side has just lost (docs/rules-decisions.md).

The rulebook bases air units only in hexes their side controls and keeps ships in
friendly ports; it says nothing of a base that falls.  Here, as in the original game,
they do not stay: based air units fly to the nearest hex within their movement
allowance where they may be based, ships in the port put to sea one hex as a naval
retreat would; those with nowhere to go are eliminated (and may be bought back, since
they were based or in port).
"""

from __future__ import annotations

import functools

import numpy as np

from engine import losses, sea_room, stacking
from engine.hexmap import HexMap
from engine.state import NO_UNIT, GameState, Unit


@functools.lru_cache(maxsize=8)
def _fixed_places(hexmap: HexMap) -> np.ndarray:
    """The airbase places a map fixes for the whole game, its cities and resource hexes,
    sorted (an air unit's new base is searched among them after each hex lost)."""
    places = np.array(sorted(set(hexmap.city_at) | set(hexmap.resources)), dtype=np.int64)
    places.flags.writeable = False
    return places


def _new_base(state: GameState, u: Unit, side: str) -> int | None:
    """The nearest hex within ``u``'s movement allowance where it may be based (lowest hex on ties)."""
    hexmap = state.world.map
    # only cities, resource hexes and airfields give airbase places
    places = np.union1d(_fixed_places(hexmap), np.fromiter(state.airfields, dtype=np.int64, count=len(state.airfields)))
    # The distances of every place at once, then the places within reach nearest first:
    # the first that may take the unit is the nearest (a place's checks change nothing).
    dist = hexmap.grid.distances(u.hex, places)
    near = (dist <= u.move) & (places != u.hex)
    candidates, dist = places[near], dist[near]
    for i in np.lexsort((candidates, dist)).tolist():
        h = int(candidates[i])
        if sea_room.not_neutral(state, u, h) and stacking.air_room(state, h, side) > 0:
            return h
    return None


def evict(state: GameState, h: int, loser: str) -> None:
    """The side ``loser`` has lost hex ``h``: its based air units and ships in port there leave."""
    mine = [u for u in sorted(state.units_at(h), key=lambda x: x.id) if state.side_of(u.country) == loser]
    air = [u for u in mine if u.is_air and u.carrier == NO_UNIT and stacking.is_based(u)]
    for u in air:
        dest = _new_base(state, u, loser)
        if dest is None:
            losses.eliminate(state, u)
        else:
            state.place(u, dest)
    ships = [u for u in mine if u.is_naval and u.in_port]
    if not ships:
        return
    for u in ships:
        u.in_port = False
    plan = sea_room.way_out(state, loser, h, ships, [])
    for u in ships:
        if u.id in plan:
            state.place(u, plan[u.id])
            u.in_port = stacking.friendly_port(state, plan[u.id], loser)
        else:
            u.in_port = True  # scuttled in the port: it may be bought back
            losses.eliminate(state, u)
