"""Amphibious assaults and paradrops: loading and sailing (or flying) in the first
movement, and the assaults themselves in the amphibious and paradrop phase.

First movement, before the land units move: a land unit in a port with an empty
transport boards it, and the transport sails next to the best enemy hex in its reach;
a paratrooper based with a transport aircraft boards it, and the aircraft flies to the
best enemy hex within half its allowance (it must come back).  The best hex is an
enemy city or resource hex without enemy land units, then any enemy hex without them,
then a defended one whose defenders are much weaker than the landing.

Amphibious phase: every assault the rules offer whose odds are good: an empty hex is
always worth the success chance (at least 50 %); a defended hex only when the landing
is at least :data:`DEFENDED_RATIO` times as strong and the chance is at least 75 %.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

from engine import assaults
from engine.actions import Action
from engine.hexgrid import NO_HEX
from engine.reach import air_search, naval_search
from engine.sides import other
from engine.stacking import friendly_port, is_based
from engine.state import NO_UNIT, Assault, GameState
from engine.units import UnitType
from engine.zoc import has_enemy_land_unit, naval_zoc

if TYPE_CHECKING:
    from engine.ai.turn import Turn

#: A defended hex is assaulted only with this many times its defenders' strength.
DEFENDED_RATIO = 3
#: Landings prepared per side and month at most (each is several engine checks).
MAX_LANDINGS = 4


def _enemy_strength(state: GameState, side: str, h: int) -> int:
    return sum(
        u.strength for u in state.units_at(h) if u.is_land and u.carrier == NO_UNIT and state.side_of(u.country) != side
    )


def _value(state: GameState, side: str, h: int, strength: int) -> int:
    """How much landing on enemy hex ``h`` with ``strength`` is worth (0: not at all)."""
    hexmap = state.world.map
    if not hexmap.has_land(h) or state.side_controlling(h) != other(side):
        return 0
    prize = 3 if h in hexmap.city_at else 2 if h in hexmap.resources else 1
    defended = _enemy_strength(state, side, h)
    if has_enemy_land_unit(state, side, h):
        return prize if strength >= DEFENDED_RATIO * max(defended, 1) else 0
    return prize * 2


def _best_landing(state: GameState, side: str, hexes: list[int], strength: int) -> int:
    scored = [(-_value(state, side, h, strength), h) for h in hexes]
    scored = [x for x in scored if x[0] < 0]
    return min(scored)[1] if scored else NO_HEX


def prepare(turn: Turn) -> None:
    """First movement: board and sail (or fly) towards the best enemy hexes in reach."""
    made = _by_sea(turn, 0)
    _by_air(turn, made)


def _by_sea(turn: Turn, made: int) -> int:
    state, side = turn.state, turn.side
    hexmap = state.world.map
    transports = sorted(
        (
            u
            for u in state.side_units(side)
            if u.type == UnitType.TRANSPORT and not u.damaged and friendly_port(state, u.hex, side)
        ),
        key=lambda u: u.id,
    )
    zone = naval_zoc(state, other(side))
    for ship in transports:
        if made >= MAX_LANDINGS:
            break
        state = turn.state
        if state.cargo_of(ship):
            continue
        troops = sorted(
            (
                u
                for u in state.units_at(ship.hex)
                if u.is_land and u.carrier == NO_UNIT and state.side_of(u.country) == side and not u.moved
            ),
            key=lambda u: (u.type != UnitType.MARINE, -u.strength, u.id),
        )
        if not troops:
            continue
        search = naval_search(state, ship, ship.move - ship.mp_used, zone)
        spots: dict[int, int] = {}  # enemy land hex -> sea hex to sail to
        for r in sorted(search.cost, key=lambda h: (search.cost[h], h)):
            for h in (r, *hexmap.neighbours[r * 6 : r * 6 + 6]):
                if h != NO_HEX and h not in spots:
                    spots[h] = r
        unit = troops[0]
        target = _best_landing(state, side, sorted(spots), unit.strength)
        if target == NO_HEX or spots[target] == ship.hex:
            continue
        if not turn.batch.offer(Action("embark", (unit.id, ship.id))):
            continue
        if turn.batch.offer(Action("move", (ship.id, *search.path(spots[target])))):
            made += 1
    return made


def _by_air(turn: Turn, made: int) -> None:
    state, side = turn.state, turn.side
    planes = sorted(
        (
            u
            for u in state.side_units(side)
            if u.type in (UnitType.AIR_TRANSPORT, UnitType.BOMBER_TRANSPORT) and is_based(u) and not u.damaged
        ),
        key=lambda u: u.id,
    )
    for plane in planes:
        if made >= MAX_LANDINGS:
            return
        state = turn.state
        paras = [
            u
            for u in state.units_at(plane.hex)
            if u.type == UnitType.PARATROOPER and u.carrier == NO_UNIT and state.side_of(u.country) == side
        ]
        if not paras or state.cargo_of(plane):
            continue
        para = min(paras, key=lambda u: u.id)
        reach = air_search(state, plane, max(0, (plane.move - plane.mp_used) // 2)).cost
        target = _best_landing(state, side, sorted(reach), para.strength)
        if target == NO_HEX:
            continue
        if not turn.batch.offer(Action("embark", (para.id, plane.id))):
            continue
        if turn.batch.offer(Action("move", (plane.id, target))):
            made += 1


def _worth(state: GameState, side: str, action: Action) -> Fraction:
    h, *ids = (int(a) for a in action.args)
    units = [state.units[i] for i in ids]
    carriers = [state.units[u.carrier] for u in units]
    planned = Assault(h, ids, any(c.is_naval for c in carriers), any(c.is_air for c in carriers))
    chance = assaults.success_chance(state, planned)
    strength = sum(u.strength for u in units)
    weak = chance < Fraction(3, 4) or strength < DEFENDED_RATIO * max(_enemy_strength(state, side, h), 1)
    if weak and has_enemy_land_unit(state, side, h):
        return Fraction(0)
    return chance * _value(state, side, h, strength) * len(ids)


def assault(turn: Turn) -> None:
    """Amphibious phase: the assaults with good odds, the most valuable first."""
    for _ in range(MAX_LANDINGS * 2):
        state = turn.state
        offered = [a for a in turn.batch.legal() if a.kind == "assault"]
        scored = sorted(((_worth(state, turn.side, a), a.args) for a in offered), reverse=True)
        best = [Action("assault", args) for worth, args in scored if worth > 0]
        if not best or not any(turn.batch.offer(a) for a in best[:3]):
            return
