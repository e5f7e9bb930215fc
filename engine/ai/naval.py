"""The war at sea: naval attacks, fleets putting to sea to make them, and fleets
keeping out of fights they would lose.

A naval combat is judged with the supplement's formulas (:mod:`engine.combat_math`)
on the strengths the engine uses: each ship's expected loss is its chance of being
eliminated, plus its chance of being damaged weighted by what a hit costs it (half a
ship, or all of it when it is already damaged or cannot be damaged), times what the
ship is worth.  An attack is made when the enemy is expected to lose more than we do
and our strength against the stack is at least :data:`MIN_RATIO` times its return fire.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

from engine import combat, combat_math, losses, naval
from engine.actions import Action
from engine.ai import attack
from engine.reach import Search, naval_destinations, naval_search
from engine.sides import other
from engine.stacking import friendly_major_port, friendly_port, inside_major_port
from engine.state import GameState, Unit
from engine.units import UnitType
from engine.war import JAPAN_SOVIET
from engine.zoc import naval_zoc

if TYPE_CHECKING:
    from engine.ai.turn import Turn

#: Our strength against the stack over its return fire, at least.
MIN_RATIO = 1.5
#: A stack at sea runs for port when an enemy force in reach would hit it this much harder than it hits back.
DANGER_RATIO = 2.0
#: Enemy stacks considered for an attack per decision (the nearest first).
MAX_TARGETS = 12


def worth(u: Unit) -> float:
    return float(u.attack + u.sub_attack + u.defense) or 1.0


def expected_loss(units: list[Unit], enemy_strength: Fraction) -> float:
    """What ``units`` (one side of a naval combat) are expected to lose, in ship worth."""
    if enemy_strength <= 0 or not units:
        return 0.0
    out = 0.0
    for u in units:
        k = combat_math.unit_k(enemy_strength, naval.defence(u), len(units))
        sunk = combat_math.probability(Fraction(20, 19), k)
        hurt = combat_math.probability(Fraction(2), k)
        cost = 1.0 if u.damaged or not losses.can_be_damaged(u) else 0.5
        out += worth(u) * (sunk + (1.0 - sunk) * hurt * cost)
    return out


def judge(attackers: list[Unit], defenders: list[Unit]) -> tuple[float, float]:
    """(expected gain of the attack, our strength over the return fire)."""
    a = sum((naval.strength_against(u, defenders) for u in attackers), Fraction(0))
    d = sum((naval.strength_against(u, attackers) for u in defenders), Fraction(0))
    gain = expected_loss(defenders, a) - expected_loss(attackers, d)
    return gain, float(a / d) if d else float("inf")


def favourable(attackers: list[Unit], defenders: list[Unit]) -> bool:
    gain, ratio = judge(attackers, defenders)
    return gain > 0 and ratio >= MIN_RATIO


def _enemy_stacks(state: GameState, side: str) -> dict[int, list[Unit]]:
    out: dict[int, list[Unit]] = {}
    for u in state.side_units(other(side)):
        # Ships inside a major port are out of reach of ships (rulebook "Terrain").
        if u.is_naval and u.on_map and not inside_major_port(state, u):
            out.setdefault(u.hex, []).append(u)
    return {h: sorted(v, key=lambda x: x.id) for h, v in sorted(out.items())}


def attacks(turn: Turn) -> None:
    """Attack every enemy naval stack we can with favourable odds, best gain first."""
    state, side = turn.state, turn.side
    plans = []
    for h, ids in naval.candidates(state, side).items():
        defenders = naval.naval_defenders(state, h, side)
        ships = [state.units[i] for i in ids]
        gain, _ = judge(ships, defenders)
        plans.append((-gain, h, ids))
    used: set[int] = set()
    for _, h, ids in sorted(plans):
        state = turn.state
        free = [state.units[i] for i in ids if i not in used and i in state.units]
        defenders = naval.naval_defenders(state, h, side)
        if (
            free
            and defenders
            and favourable(free, defenders)
            and turn.batch.offer(Action("naval", (h, *sorted(u.id for u in free))))
        ):
            used.update(u.id for u in free)


def combat_phase(turn: Turn) -> None:
    attack.combat(turn)
    attacks(turn)


def _fighting_ships(state: GameState, side: str) -> list[Unit]:
    smap = combat.side_supply(state, side)
    return [
        u
        for u in state.side_units(side)
        if u.is_naval and u.on_map and (u.attack > 0 or u.sub_attack > 0) and smap.in_supply(u)
    ]


def _search(
    memo: dict[tuple[object, ...], Search],
    state: GameState,
    u: Unit,
    left: int,
    zone: set[int],
    goals: frozenset[int] | None = None,
) -> Search:
    """:func:`naval_search` for ``u``, shared with the ships that would find the same: a
    search reads of its ship only the hex, country, whether it is a submarine and whether
    it has moved, and a policy searches the turn's state, which its batch never changes.
    With ``goals`` (the same for every ship of one key) the search may stop once the goals
    it can reach are found: their costs and paths are those of the whole search, which
    :func:`naval_destinations` (a faster search without paths) tells apart from the rest."""
    key = (u.hex, u.country, u.type == UnitType.SUBMARINE, bool(u.mp_used), left)
    found = memo.get(key)
    if found is None:
        if goals is None or u.country in JAPAN_SOVIET:
            # naval_destinations leaves the Japanese/Soviet bar to the exact search
            found = naval_search(state, u, left, zone)
        else:
            targets = goals.intersection(naval_destinations(state, u, left, zone))
            found = naval_search(state, u, left, zone, targets=targets) if targets else Search(u.hex)
        memo[key] = found
    return found


def sortie(turn: Turn) -> None:
    """First movement: ships (in port or at sea) sail next to an enemy naval stack they can
    beat together, to attack it in the combat phase."""
    state, side = turn.state, turn.side
    targets = _enemy_stacks(state, side)
    if not targets:
        return
    ships = [u for u in _fighting_ships(state, side) if u.move - u.mp_used > 0]
    if not ships:
        return
    grid = state.world.map.grid
    nbr = state.world.map.naval_zoc_neighbours
    zone = naval_zoc(state, other(side))
    reach: dict[int, Search] = {}
    searches: dict[tuple[object, ...], Search] = {}
    near = sorted(targets, key=lambda t: (min(grid.distance(u.hex, t) for u in ships), t))[:MAX_TARGETS]
    moved: set[int] = set()
    for t in near:
        defenders = targets[t]
        around = set(nbr[t])
        able: list[tuple[Unit, list[int]]] = []
        for u in ships:
            left = u.move - u.mp_used
            if u.id in moved or grid.distance(u.hex, t) > left + 1:
                continue
            if u.hex in around and not u.in_port:
                able.append((u, [u.hex]))
                continue
            if u.id not in reach:
                goals = frozenset(h for n in near if grid.distance(u.hex, n) <= left + 1 for h in nbr[n])
                reach[u.id] = _search(searches, state, u, left, zone, goals)
            spots = sorted(around.intersection(reach[u.id].cost), key=lambda h: (grid.distance(u.hex, h), h))
            if spots:
                able.append((u, spots))
        group = [u for u, _ in able if naval.strength_against(u, defenders) > 0]
        if not group or not favourable(group, defenders):
            continue
        for u, spots in able:
            if u.hex in spots and not u.in_port:
                moved.add(u.id)
                continue
            # the whole path: a receiver checks it step by step instead of searching again
            for h in spots:
                if turn.batch.offer(Action("move", (u.id, *reach[u.id].path(h)))):
                    moved.add(u.id)
                    break


def shelter(turn: Turn) -> None:
    """Second movement: stacks at sea that an enemy force within reach would beat go to a
    friendly port in reach."""
    state, side = turn.state, turn.side
    enemies = [u for u in state.side_units(other(side)) if u.is_naval and u.on_map and (u.attack or u.sub_attack)]
    if not enemies:
        return
    grid = state.world.map.grid
    zone = naval_zoc(state, other(side))
    stacks: dict[int, list[Unit]] = {}
    searches: dict[tuple[object, ...], Search] = {}
    for u in state.side_units(side):
        if u.is_naval and u.on_map and not u.in_port and u.move - u.mp_used > 0:
            stacks.setdefault(u.hex, []).append(u)
    for h, mine in sorted(stacks.items()):
        threat = [e for e in enemies if grid.distance(e.hex, h) <= e.move + 1]
        if not threat:
            continue
        hit = sum((naval.strength_against(e, mine) for e in threat), Fraction(0))
        back = sum((naval.strength_against(u, threat) for u in mine), Fraction(0))
        if hit < DANGER_RATIO * back or hit == 0:
            continue
        for u in sorted(mine, key=lambda x: x.id):
            search = _search(searches, state, u, u.move - u.mp_used, zone)
            ports = [p for p in search.cost if friendly_port(state, p, side)]
            # A major port is the better shelter: no ship may attack there, and aircraft
            # meet double defence (rulebook "Terrain").
            major = {p for p in ports if friendly_major_port(state, p, side)}
            for p in sorted(ports, key=lambda p: (p not in major, grid.distance(h, p), p)):
                if turn.batch.offer(Action("move", (u.id, *search.path(p)))):
                    break
