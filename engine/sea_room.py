"""Where ships may go when forced out of their hex: a naval retreat after combat
(rulebook "Naval and Air Combat") and ships leaving a port their side has lost
(docs/rules-decisions.md)."""

from __future__ import annotations

from engine.hexgrid import NO_HEX
from engine.stacking import naval_room
from engine.state import GameState, Unit
from engine.zoc import in_enemy_naval_zoc


def not_neutral(state: GameState, u: Unit, h: int) -> bool:
    """May ``u`` enter ``h`` as far as neutrality goes: as :func:`engine.war.may_enter_country`,
    which hex control (and so this module, called when control changes) may not import."""
    c = state.controller[h]
    if not c:
        return True
    name = state.world.country_names[c]
    return name == u.country or state.countries[name].at_war


def way_out(state: GameState, side: str, h: int, units: list[Unit], away_from: list[int]) -> dict[int, int]:
    """Where each of ``units`` (ships of ``side``) goes, one hex from ``h``; ships missing from
    the plan have nowhere to go.

    Never across an all-land hexside or a canal, within naval stacking, never into a neutral
    hex, nor into a hex holding enemy ships or in an enemy naval control zone unless a
    friendly ship is there.  The engine chooses: the whole stack to one hex if it can,
    hexes with friendly ships first, then farther from ``away_from``, then the lowest hex
    number; otherwise ship by ship, by id."""
    grid = state.world.map.grid
    options = []
    for o in state.world.map.naval_zoc_neighbours[h]:
        ships = [x for x in state.units_at(o) if x.is_naval]
        if any(state.side_of(x.country) != side for x in ships):
            continue
        friends = bool(ships)
        if not friends and in_enemy_naval_zoc(state, side, o):
            continue
        if not all(not_neutral(state, u, o) for u in units):
            continue
        distance = min((grid.distance(o, a) for a in away_from if a != NO_HEX), default=0)
        options.append(((not friends, -distance, o), o))
    dests = [o for _, o in sorted(options)]
    for o in dests:
        if naval_room(state, o, side) >= len(units):
            return {u.id: o for u in units}
    plan: dict[int, int] = {}
    for u in units:
        for o in dests:
            going = sum(1 for d in plan.values() if d == o)
            if naval_room(state, o, side) > going:
                plan[u.id] = o
                break
    return plan
