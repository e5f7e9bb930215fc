"""Interceptions, and the escorts that answer them.

Interception phase: each enemy unit on offer is intercepted by our one strongest able
aircraft when it is worth it: a bomber or transport aircraft (which cannot hit back)
or a ship always; an enemy fighter only when ours is at least :data:`MIN_RATIO` times
as strong as its return fire.  The hex nearest the interceptor is chosen, so it has
the most movement left to come home.

First movement, after the bombers and transport aircraft have flown: a free fighter
escorts each of them to its hex, where it can intercept the enemy's interceptors in
the next round at no flying cost.  The atomic aircraft neither intercepts nor escorts:
it is kept for the bomb (:mod:`engine.ai.air_war`).
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

from engine.actions import Action
from engine.ai import air_war
from engine.air_combat import fighter_strength, is_bomber, is_fighter
from engine.hexgrid import NO_HEX
from engine.interception import strength
from engine.reach import air_search
from engine.state import NO_UNIT, GameState, Unit

if TYPE_CHECKING:
    from engine.ai.turn import Turn

#: Our strength over an enemy fighter's return fire, at least.
MIN_RATIO = 1.5


def worth_it(interceptor: Unit, target: Unit) -> bool:
    if target.is_naval:
        return True
    back = fighter_strength(target) if is_fighter(target) else Fraction(0)
    return back == 0 or strength(interceptor, target) >= MIN_RATIO * back


def intercept(turn: Turn) -> None:
    state = turn.state
    grid = state.world.map.grid
    offered = [a for a in turn.batch.legal() if a.kind == "intercept"]
    by_target: dict[int, list[Action]] = {}
    for a in offered:
        by_target.setdefault(int(a.args[1]), []).append(a)
    used: set[int] = set()
    for tid in sorted(by_target):
        state = turn.state
        target = state.units.get(tid)
        if target is None:
            continue
        options = []
        for a in by_target[tid]:
            u = state.units[int(a.args[0])]
            if u.id in used or not worth_it(u, target) or air_war.is_atomic(state, u):
                continue
            options.append((-strength(u, target), grid.distance(u.hex, int(a.args[2])), a.args, a))
        for *_, a in sorted(options, key=lambda o: o[:3]):
            if turn.batch.offer(a):
                used.add(int(a.args[0]))
                break


def _escorted(state: GameState, side: str) -> list[Unit]:
    """Our aircraft on a mission that an escort should cover: bombers, transports and the
    atomic aircraft (which has a little fighter strength of its own)."""
    return sorted(
        (
            u
            for u in state.side_units(side)
            if u.is_air and u.origin != NO_HEX and u.carrier == NO_UNIT
            and (air_war.is_atomic(state, u) or (not is_fighter(u) and (is_bomber(u) or state.cargo_of(u))))
        ),
        key=lambda u: u.id,
    )  # fmt: skip


def escort(turn: Turn) -> None:
    state, side = turn.state, turn.side
    fighters = sorted(
        (
            u
            for u in state.side_units(side)
            if is_fighter(u)
            and u.origin == NO_HEX
            and u.hex != NO_HEX
            and u.carrier == NO_UNIT
            and not air_war.is_atomic(state, u)
        ),
        key=lambda u: (-u.attack, u.id),
    )
    taken: set[int] = set()
    for mission in _escorted(state, side):
        for f in fighters:
            if f.id in taken:
                continue
            reach = air_search(turn.state, f, max(0, (f.move - f.mp_used) // 2), target=mission.hex).cost
            if mission.hex in reach and turn.batch.offer(Action("move", (f.id, mission.hex))):
                taken.add(f.id)
                break
