"""Landings prepared over several months: where troops gather for them.

A landing needs land units standing in a port with empty transports at the start of
a first movement (units board only in a friendly port).  :func:`ports` names the
ports where we keep empty transports, that our land units can get to
(:func:`engine.ai.ferry.walkable`), and from which a transport reaches, in one
movement, an enemy hex worth landing on (:func:`engine.ai.landings.value`); the need map
(:func:`engine.ai.front.need_map`) asks for :data:`SLOT_STRENGTH` there per transport,
so movement marches units to those ports and deployment places new units in them,
month after month, until a landing sails.

Paratroopers: :func:`gather` (first movement) marches paratroopers to the bases of
transport aircraft waiting without one, :func:`station` (second movement) flies each
transport aircraft without a paratrooper to a base where one of ours stands, deployment
places new paratroopers with a waiting aircraft (:func:`waiting_planes`), and
:func:`stationed` keeps a paratrooper based with a transport aircraft where it is,
ready for a drop.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.actions import Action
from engine.ai import ferry
from engine.ai.landings import AIR_TRANSPORTS, value
from engine.hexgrid import NO_HEX
from engine.reach import land_reach, naval_destinations
from engine.sides import other
from engine.stacking import friendly_port, is_based
from engine.state import NO_UNIT, GameState, Unit
from engine.units import UnitType
from engine.zoc import naval_zoc

if TYPE_CHECKING:
    from engine.ai.picture import Picture
    from engine.ai.turn import Turn

#: Strength wanted in a staging port per empty transport (a typical unit, a little more
#: so that a unit already there is not drawn away by a small gain elsewhere).
SLOT_STRENGTH = 3.5
#: Land units one landing takes at most (the stacking limit of a hex).
GROUP = 2
#: Ports a side gathers troops in at a time (the best targets' first).
MAX_PORTS = 3
#: The strength a landing is judged with when choosing ports.
PLANNED_STRENGTH = 6
#: A paratrooper marches to a transport aircraft at most this far away.
GATHER_RANGE = 15


def ports(pic: Picture) -> dict[int, float]:
    """Staging port -> land strength wanted there for the landings it can launch."""
    state, side = pic.state, pic.side
    empty: dict[int, list[Unit]] = {}
    for u in state.side_units(side):
        if (
            u.type == UnitType.TRANSPORT
            and not u.damaged
            and friendly_port(state, u.hex, side)
            and not state.cargo_of(u)
            and state.countries[u.country].at_war
        ):
            empty.setdefault(u.hex, []).append(u)
    # only where our land units can walk to (transports in a port of an empty island wait for nobody)
    empty = {port: ships for port, ships in empty.items() if ferry.walkable(pic, port)}
    if not empty:
        return {}
    zone = naval_zoc(state, other(side))
    nbr = state.world.map.neighbours
    ranked = []
    for port in sorted(empty):
        ship = min(empty[port], key=lambda u: (u.move, u.id))
        coast: set[int] = set()
        for r in naval_destinations(state, ship, ship.move, zone):
            coast.update(h for h in nbr[r * 6 : r * 6 + 6] if h != NO_HEX)
        best = max((value(state, side, h, PLANNED_STRENGTH) for h in coast), default=0)
        if best > 0:
            ranked.append((-best, port))
    ranked.sort()
    return {port: SLOT_STRENGTH * min(GROUP, len(empty[port])) for _, port in ranked[:MAX_PORTS]}


def _paratroopers_at(state: GameState, side: str, h: int) -> list[Unit]:
    return [
        u
        for u in state.units_at(h)
        if u.type == UnitType.PARATROOPER and u.carrier == NO_UNIT and state.side_of(u.country) == side
    ]


def _plane_at(state: GameState, side: str, h: int) -> bool:
    return any(
        u.type in AIR_TRANSPORTS and is_based(u) and not u.damaged and state.side_of(u.country) == side
        for u in state.units_at(h)
    )


def waiting_planes(state: GameState, side: str) -> set[int]:
    """Hexes where a transport aircraft of ours is based without a paratrooper (deployment
    places paratroopers there)."""
    return {
        u.hex
        for u in state.side_units(side)
        if u.type in AIR_TRANSPORTS and is_based(u) and not u.damaged and not _paratroopers_at(state, side, u.hex)
    }


def stationed(state: GameState, u: Unit) -> bool:
    """A paratrooper of ours based with a transport aircraft: it waits there for a drop."""
    return u.type == UnitType.PARATROOPER and u.carrier == NO_UNIT and _plane_at(state, state.side_of(u.country), u.hex)


def gather(turn: Turn) -> None:
    """First movement, after the drops: each paratrooper without a transport aircraft
    marches towards the nearest one waiting without a paratrooper (within
    :data:`GATHER_RANGE` hexes), onto its base if it can reach it."""
    state, side = turn.state, turn.side
    grid = state.world.map.grid
    planes = waiting_planes(state, side)
    if not planes:
        return
    paras = sorted(
        (
            u
            for u in state.side_units(side)
            if u.type == UnitType.PARATROOPER
            and u.hex != NO_HEX
            and u.carrier == NO_UNIT
            and not u.moved
            and not stationed(state, u)
        ),
        key=lambda u: u.id,
    )
    for para in paras:
        near = [h for h in planes if grid.distance(para.hex, h) <= GATHER_RANGE]
        if not near:
            continue
        goal = min(near, key=lambda h: (grid.distance(para.hex, h), h))
        reach = sorted(land_reach(turn.state, para), key=lambda h: (grid.distance(h, goal), h))
        closer = [h for h in reach[:3] if grid.distance(h, goal) < grid.distance(para.hex, goal)]
        for h in closer:
            if turn.batch.offer(Action("move", (para.id, h))):
                if h == goal:
                    planes.discard(goal)
                break


def station(turn: Turn) -> None:
    """Second movement: each transport aircraft without a paratrooper flies to the nearest
    base where a paratrooper of ours waits without one."""
    state, side = turn.state, turn.side
    grid = state.world.map.grid
    planes = sorted(
        (
            u
            for u in state.side_units(side)
            if u.type in AIR_TRANSPORTS and is_based(u) and not u.damaged and not u.mp_used
        ),
        key=lambda u: u.id,
    )
    waiting = sorted(
        {
            u.hex
            for u in state.side_units(side)
            if u.type == UnitType.PARATROOPER and u.hex != NO_HEX and u.carrier == NO_UNIT
        }
    )
    for plane in planes:
        state = turn.state
        if _paratroopers_at(state, side, plane.hex):
            continue
        spots = [h for h in waiting if not _plane_at(state, side, h) and grid.distance(plane.hex, h) <= plane.move]
        for h in sorted(spots, key=lambda h: (grid.distance(plane.hex, h), h)):
            if turn.batch.offer(Action("move", (plane.id, h))):
                break
