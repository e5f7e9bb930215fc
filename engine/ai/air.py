"""Bombers in support of land attacks.

In the first movement, after the land units have moved, bombers fly to enemy
stacks that our land units can attack but not yet at comfortable odds (a
bomber adds its full bomber strength to a land attack); in the combat phase
they join the attack on their hex (:mod:`engine.ai.attack`); in the second
movement every aircraft still in the air flies back, to its own base if there
is room, else to the nearest base with room.  The engine refuses a mission
from which no base could be reached, so a bomber is never stranded by a plan.
Raids against ships, aircraft and installations: :mod:`engine.ai.air_war`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.actions import Action
from engine.ai import air_war
from engine.ai.attack import ENOUGH, Judge, candidates
from engine.ai.picture import Picture
from engine.hexgrid import NO_HEX
from engine.reach import air_search, can_land
from engine.sides import other
from engine.state import NO_UNIT, GameState, Unit

if TYPE_CHECKING:
    from engine.ai.turn import Turn

#: Land-only odds from which air support is worth sending (below: hopeless; above: not needed).
SUPPORT_FROM, SUPPORT_UNTIL = 0.8, ENOUGH
#: Odds the bombers try to bring an attack to.
SUPPORT_GOAL = 2.5
#: Bombers sent to one target at most.
PER_TARGET = 3


def can_support(state: GameState, u: Unit) -> bool:
    return (
        u.is_air
        and u.bomber > 0
        and not u.kamikaze
        and u.origin == NO_HEX
        and u.supplied
        and not air_war.is_atomic(state, u)  # kept for the bomb
    )


def send_bombers(turn: Turn) -> None:
    state = turn.state
    pic = Picture(state, turn.side)
    bombers = sorted((u for u in pic.my_air if can_support(state, u)), key=lambda u: (-u.bomber, u.id))
    if not bombers:
        return
    judge = Judge(state, turn.side)
    enemy = other(turn.side)
    plans = []
    for h, ids in candidates(state, turn.side, overrun=False).items():
        defenders = [
            u
            for u in state.units_at(h)
            if u.is_land and u.carrier == NO_UNIT and state.countries[u.country].side == enemy
        ]
        if not defenders:
            continue
        attackers = [state.units[i] for i in ids]
        attack, defence = judge.attack(attackers), judge.defence(h, defenders)
        if defence <= 0:
            continue
        ratio = attack / defence
        if SUPPORT_FROM <= ratio < SUPPORT_UNTIL:
            plans.append((-pic.objectives.get(h, 0), -ratio, h, attack, defence))
    plans.sort()
    free = list(bombers)
    for _, _, h, attack, defence in plans[: turn.limits.attacks]:
        sent = 0
        for u in list(free):
            if sent >= PER_TARGET or attack >= SUPPORT_GOAL * defence:
                break
            if turn.batch.offer(Action("move", (u.id, h))):
                free.remove(u)
                attack += u.bomber / 2 if u.damaged else u.bomber
                sent += 1
        if not free:
            return


def return_aircraft(turn: Turn) -> None:
    """Fly every aircraft of ours that is on a mission back to a base."""
    state = turn.state
    grid = state.world.map.grid
    for u in sorted(state.side_units(turn.side), key=lambda x: x.id):
        if not u.is_air or u.origin == NO_HEX or u.carrier != NO_UNIT:
            continue
        reach = air_search(state, u, max(0, u.move - u.mp_used)).cost
        bases = [h for h in reach if can_land(state, u, h, turn.side)]
        bases.sort(key=lambda h: (h != u.origin, grid.distance(h, u.origin), h))
        for h in bases[:8]:
            if turn.batch.offer(Action("move", (u.id, h))):
                break
