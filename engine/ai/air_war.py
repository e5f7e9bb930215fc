"""The bot's air war: missions in the first movement and air orders in the combat phase.

First movement, after the bombers that support land attacks have flown
(:mod:`engine.ai.air`): an atomic aircraft flies to the enemy's most valuable city in
reach; the other free bombers fly to enemy ships (Japanese bombers as kamikaze once the
rule allows), then to enemy resource hexes (strategic bombing), then to enemy cities
(installation bombing); fighters fly to enemy aircraft on their bases.  The engine
refuses any mission from which no base could be reached.

Combat phase: every air order the rules offer, the largest group first (all fighters
together against one aircraft; strategic before installation bombing); kamikaze attacks
only with "K" aircraft, which can do nothing else.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine import air_war, atomic
from engine.actions import Action
from engine.air_combat import enemy_air, enemy_ships, is_fighter
from engine.bombing import target_refusal
from engine.hexgrid import NO_HEX
from engine.reach import air_search
from engine.sides import other
from engine.state import NO_UNIT, GameState, Unit
from engine.supply import supply_of_side

if TYPE_CHECKING:
    from engine.ai.turn import Turn

#: Missions tried per aircraft (each try is an engine check).
TRIES = 4
#: Aircraft sent against one target at most.
PER_TARGET = 2


def _free(u: Unit) -> bool:
    return u.is_air and u.origin == NO_HEX and u.carrier == NO_UNIT and u.supplied and u.hex != NO_HEX


def _targets(state: GameState, side: str, u: Unit) -> list[int]:
    """Hexes worth flying ``u`` to, best first."""
    enemy = other(side)
    hexmap = state.world.map
    cities = [h for h in hexmap.city_at if state.side_controlling(h) == enemy]
    if atomic.may_carry(state, u):
        capitals = [h for h in cities if hexmap.city_at[h].capital]
        return sorted(capitals) + sorted(set(cities) - set(capitals))
    out: list[int] = []
    if u.bomber > 0:
        ships = sorted({e.hex for e in state.units.values() if e.is_naval and e.carrier == NO_UNIT and e.hex != NO_HEX})
        out += [h for h in ships if enemy_ships(state, h, side)]
        if not u.kamikaze:
            out += sorted(h for h in hexmap.resources if not target_refusal(state, side, h, "strategic"))
            out += sorted(h for h in cities if not target_refusal(state, side, h, "installation"))
    if is_fighter(u):
        bases = sorted({e.hex for e in state.units.values() if e.is_air and e.hex != NO_HEX})
        out += [h for h in bases if enemy_air(state, h, side)]
    return out


def send_raiders(turn: Turn) -> None:
    """Fly free aircraft to targets for the combat phase."""
    state = turn.state
    side = turn.side
    sent: dict[int, int] = {}
    mine = sorted((u for u in state.side_units(side) if _free(u)), key=lambda u: (-u.bomber, -u.attack, u.id))
    for u in mine:
        targets = _targets(state, side, u)
        if not targets:
            continue
        half = max(0, u.move // 2)
        reach = air_search(state, u, half).cost
        tries = 0
        for h in targets:
            if h not in reach or h == u.hex or sent.get(h, 0) >= PER_TARGET:
                continue
            if tries >= TRIES:
                break
            tries += 1
            if turn.batch.offer(Action("move", (u.id, h))):
                sent[h] = sent.get(h, 0) + 1
                break


ORDER = ("atomic", "air_attack", "kamikaze", "bomb_ships", "bomb")
TARGET_ORDER = {"strategic": 0, "installation": 1, "airfield": 2, "fortification": 3}


def _rank(action: Action) -> tuple[int, int, int]:
    target = TARGET_ORDER.get(str(action.args[1]), 0) if action.kind == "bomb" else 0
    return ORDER.index(action.kind), target, -len(action.args)


def combat_orders(turn: Turn) -> None:
    """Give every air order on offer, the biggest group first; kamikaze attacks only with
    the aircraft that can do nothing else ("K" units)."""
    side = turn.side
    smap = supply_of_side(turn.state, side)  # declaring attacks changes nobody's supply
    for _ in range(turn.limits.attacks):
        state = turn.state
        offered = [
            a
            for a in air_war.actions(state, side, smap.in_supply)
            if a.kind != "kamikaze" or all(state.units[int(i)].kamikaze for i in a.args[1:])
        ]
        if not offered:
            return
        offered.sort(key=_rank)
        if not any(turn.batch.offer(a) for a in offered[:3]):
            return
