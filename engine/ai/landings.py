"""Amphibious assaults and paradrops: troops gathered over the months, loading and
sailing (or flying) in the first movement, and the assaults themselves in the
amphibious and paradrop phase.

Preparing (:mod:`engine.ai.staging`): the need map asks for land units in the ports
where our empty transports lie and from which a landing would pay, so movement and
deployment fill those ports over the months; transport aircraft rebase to our
paratroopers, and paratroopers based with one stay there.

First movement, before the land units move: the transports of one port take the land
units standing there (marines first, then the strongest; at most what may stack in a
hex) and sail together next to the best enemy hex in their reach, a warship of the
port with them as escort; a paratrooper based with a transport aircraft boards it and
the aircraft flies to the best enemy hex within half its allowance (it must come
back), preferably a hex a landing from the sea goes to this month (a combined assault
succeeds more often).  The best hex is an enemy city or resource hex without enemy land
units, then an empty enemy hex next to our land or to an objective, then a defended one
whose defenders the landing and our land units next to it outnumber
:data:`DEFENDED_RATIO` times.

Amphibious phase: every assault the rules offer whose odds are good: an empty hex is
always worth the success chance (at least 50 %); a defended hex only at 75 % or better
and with that strength.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from fractions import Fraction
from typing import TYPE_CHECKING

from engine import assaults, combat_math
from engine.actions import Action
from engine.ai import odds
from engine.ai.garrison import reachable
from engine.ai.picture import Picture
from engine.air_combat import is_fighter
from engine.hexgrid import NO_HEX
from engine.reach import air_search, naval_search
from engine.sides import other
from engine.stacking import can_stack_land, friendly_port, is_based
from engine.state import NO_UNIT, Assault, GameState, Unit
from engine.units import UnitType
from engine.zoc import has_enemy_land_unit, naval_zoc

if TYPE_CHECKING:
    from engine.ai.turn import Turn

#: A defended hex is assaulted only with this many times its defenders' strength.
DEFENDED_RATIO = 3
#: With the switch ``sure_landings``: the least chance that a landing's units hold its hex
#: through the enemy's next turn (:func:`hold_chance`) for the landing to be made.
SURE = 0.7
#: Landings prepared per side and month at most (each is several engine checks).
MAX_LANDINGS = 4
AIR_TRANSPORTS = (UnitType.AIR_TRANSPORT, UnitType.BOMBER_TRANSPORT)
#: Ships that may escort a landing (they can fight at sea).
ESCORTS = frozenset(
    {
        UnitType.BATTLESHIP,
        UnitType.BATTLECRUISER,
        UnitType.HEAVY_CRUISER,
        UnitType.LIGHT_CRUISER,
        UnitType.DESTROYER,
        UnitType.DESTROYER_ESCORT,
        UnitType.KAIBOKAN,
    }
)


def _enemy_strength(state: GameState, side: str, h: int) -> int:
    return sum(
        u.strength for u in state.units_at(h) if u.is_land and u.carrier == NO_UNIT and state.side_of(u.country) != side
    )


def _our_strength_next_to(state: GameState, side: str, h: int) -> int:
    """Our land units next to ``h`` (not embarked): they can join the attack on it."""
    return sum(
        u.strength
        for o in state.world.map.land_neighbours[h]
        for u in state.units_at(o)
        if u.is_land and u.carrier == NO_UNIT and state.side_of(u.country) == side
    )


def _ours_nearby(state: GameState, side: str, h: int) -> bool:
    return any(state.side_controlling(o) == side for o in state.world.map.land_neighbours[h])


def value(state: GameState, side: str, h: int, strength: int) -> int:
    """How much landing on enemy hex ``h`` with ``strength`` is worth (0: not at all)."""
    hexmap = state.world.map
    if not hexmap.has_land(h) or state.side_controlling(h) != other(side):
        return 0
    objective = h in hexmap.city_at or h in hexmap.resources
    prize = 3 if h in hexmap.city_at else 2 if h in hexmap.resources else 1
    if has_enemy_land_unit(state, side, h):
        defended = _enemy_strength(state, side, h)
        joined = strength + _our_strength_next_to(state, side, h)
        return prize if joined >= DEFENDED_RATIO * max(defended, 1) else 0
    if not objective and not _ours_nearby(state, side, h):
        return 0  # a bare hex deep in enemy land is lost again at once and gains nothing
    return prize * 2


def hold_chance(pic: Picture, h: int, units: list[Unit], by_sea: bool, by_air: bool) -> float:
    """The chance that ``units`` landing on enemy hex ``h`` hold it through the enemy's next
    turn, on the rules: the landing's roll (:func:`engine.combat_math.assault_chance`); on a
    defended hex, clearing it in the combat phase (the landed units and ours next to it
    against the defenders, the combat table's chance of emptying the hex); then the enemy's
    attack with every land unit that could reach the hex within a month
    (:func:`engine.ai.garrison.reachable`) on the landed units alone, who stand in a city,
    resource hex or fortification (the hex is lost if the doubled loss takes half their
    points) and retreat elsewhere (any loss loses it).  Landed units that could not trace
    supply from the hex or next to it count with what the supply phase leaves them (half,
    rounded down) at half their strength, as out of supply."""
    state, side = pic.state, pic.side
    marines = any(u.type == UnitType.MARINE for u in units)
    chance = float(combat_math.assault_chance(by_sea, by_air, marines))
    defenders = [
        u for u in state.units_at(h) if u.is_land and u.carrier == NO_UNIT and state.side_of(u.country) == other(side)
    ]
    points = sum(u.strength for u in defenders if u.type is not UnitType.SUPPLY)
    if points:
        ours = sum(u.strength for u in units) + _our_strength_next_to(state, side, h)
        est = odds.estimate(
            ours, odds.defence_strength(state, h, defenders), ours, points, state.stands.get(h) != other(side)
        )
        chance *= est.p_clear
    supplied = bool(units) and pic.supplied_near(units[0].country, h)
    kept = sum(u.strength if supplied else u.strength // 2 for u in units)
    if kept <= 0:
        return 0.0
    factor = odds.terrain_factor(state, h) * (2 if state.forts.get(h, -1) == 0 else 1)
    factor *= 2 if odds.doubled_by_weather(state, h) else 1
    defence = kept * factor / (1 if supplied else 2)
    enemy = reachable(pic, [h]).get(h, 0)
    hexmap = state.world.map
    stands = h in hexmap.city_at or h in hexmap.resources or state.forts.get(h, -1) == 0
    lost = odds.p_loss_at_least((kept + 1) // 2 if stands else 1, enemy / defence)
    return chance * (1.0 - lost)


def _best_landing(
    state: GameState,
    side: str,
    hexes: list[int],
    strength: int,
    prefer: Collection[int] = (),
    holds: Callable[[int], bool] = lambda h: True,
) -> int:
    scored = [(-value(state, side, h, strength) - (3 if h in prefer else 0), h) for h in hexes]
    scored = [x for x in scored if x[0] < 0 and value(state, side, x[1], strength) > 0 and holds(x[1])]
    return min(scored)[1] if scored else NO_HEX


def prepare(turn: Turn) -> None:
    """First movement: board and sail (or fly) towards the best enemy hexes in reach."""
    made, targets = _by_sea(turn)
    _by_air(turn, made, targets)


def _troops(state: GameState, side: str, h: int) -> list[Unit]:
    """Our land units in ``h`` that may board: marines first, then the strongest."""
    return sorted(
        (
            u
            for u in state.units_at(h)
            if u.is_land
            and u.carrier == NO_UNIT
            and state.side_of(u.country) == side
            and not u.moved
            and u.type not in (UnitType.SUPPLY, UnitType.PARATROOPER)
        ),
        key=lambda u: (u.type != UnitType.MARINE, -u.strength, u.id),
    )


def _by_sea(turn: Turn) -> tuple[int, set[int]]:
    """The landings from the sea: (how many groups sailed, their target hexes)."""
    state, side = turn.state, turn.side
    hexmap = state.world.map
    ports: dict[int, list[Unit]] = {}
    for u in state.side_units(side):
        if u.type == UnitType.TRANSPORT and not u.damaged and not u.mp_used and friendly_port(state, u.hex, side):
            ports.setdefault(u.hex, []).append(u)
    zone = naval_zoc(state, other(side))
    made, targets = 0, set()
    for port in sorted(ports):
        if made >= MAX_LANDINGS:
            break
        state = turn.state
        ships = sorted((s for s in ports[port] if not state.cargo_of(s)), key=lambda u: (u.move, u.id))
        troops = _troops(state, side, port)
        group = troops[: len(ships)]
        if not group:
            continue
        ships = ships[: len(group)]
        # The slowest transport's search: every transport of the group can follow its path.
        search = naval_search(state, ships[0], ships[0].move - ships[0].mp_used, zone)
        spots: dict[int, int] = {}  # enemy land hex -> sea hex to sail to
        for r in sorted(search.cost, key=lambda h: (search.cost[h], h)):
            for h in (r, *hexmap.neighbours[r * 6 : r * 6 + 6]):
                if h != NO_HEX and h not in spots:
                    spots[h] = r
        # Only as many units as may stack in the target hex may land there.
        target = NO_HEX
        while group:
            target = _best_landing(
                state, side, sorted(spots), sum(u.strength for u in group), holds=_sure(turn, group, True, False)
            )
            if target == NO_HEX or can_stack_land(state, target, group):
                break
            group.pop()
        if target == NO_HEX or not group or spots[target] == port:
            continue
        path = search.path(spots[target])
        sailed = 0
        for unit, ship in zip(group, ships, strict=False):
            if turn.batch.offer(Action("embark", (unit.id, ship.id))):
                sailed += turn.batch.offer(Action("move", (ship.id, *path)))
        if sailed:
            made += 1
            targets.add(target)
            _escort(turn, port, path)
    return made, targets


def _escort(turn: Turn, port: int, path: list[int]) -> None:
    """One warship of the port sails with the landing: the transports left next to the
    enemy coast are not alone when the enemy's ships come for them."""
    state = turn.state
    escorts = sorted(
        (
            u
            for u in state.units_at(port)
            if u.type in ESCORTS and not u.damaged and not u.mp_used and state.side_of(u.country) == turn.side
        ),
        key=lambda u: (-u.attack, u.id),
    )
    for ship in escorts:
        if len(path) <= ship.move and turn.batch.offer(Action("move", (ship.id, *path))):
            return


def _by_air(turn: Turn, made: int, targets: set[int]) -> None:
    state, side = turn.state, turn.side
    planes = sorted(
        (u for u in state.side_units(side) if u.type in AIR_TRANSPORTS and is_based(u) and not u.damaged),
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
        spots = [h for h in sorted(reach) if value(state, side, h, para.strength) > 0 and _covered(state, side, h)]
        if turn.style.sure_landings:
            # a paradrop alone succeeds half the time: only one joining a landing from the sea
            spots = [h for h in spots if h in targets]
        holds = _sure(turn, [para], True, True)
        target = _best_landing(state, side, spots, para.strength, targets, holds)
        if target == NO_HEX:
            continue
        if not turn.batch.offer(Action("embark", (para.id, plane.id))):
            continue
        if turn.batch.offer(Action("move", (plane.id, target))):
            made += 1


def _fighters_within(state: GameState, side: str, h: int, free_only: bool) -> int:
    grid = state.world.map.grid
    return sum(
        1
        for u in state.side_units(side)
        if is_fighter(u)
        and u.hex != NO_HEX
        and u.carrier == NO_UNIT
        and (not free_only or is_based(u))
        and grid.distance(u.hex, h) <= u.move // (2 if free_only else 1)
    )


def _covered(state: GameState, side: str, h: int) -> bool:
    """May a transport aircraft fly to ``h``: are there at least as many of our free fighters
    able to escort it there as enemy fighters able to intercept it?  (A transport aircraft
    shot down takes its paratrooper with it.)"""
    return _fighters_within(state, other(side), h, False) <= _fighters_within(state, side, h, True)


def _sure(turn: Turn, units: list[Unit], by_sea: bool, by_air: bool) -> Callable[[int], bool]:
    """Which hexes a landing of ``units`` may go to: with ``sure_landings``, those it would
    hold with chance :data:`SURE` (:func:`hold_chance`); without, every one."""
    if not turn.style.sure_landings:
        return lambda h: True
    pic = Picture(turn.state, turn.side)
    return lambda h: hold_chance(pic, h, units, by_sea, by_air) >= SURE


def _worth(state: GameState, side: str, action: Action, pic: Picture | None) -> Fraction:
    """What assault ``action`` is worth (0: not to be made); ``pic`` with ``sure_landings``."""
    h, *ids = (int(a) for a in action.args)
    units = [state.units[i] for i in ids]
    carriers = [state.units[u.carrier] for u in units]
    planned = Assault(h, ids, any(c.is_naval for c in carriers), any(c.is_air for c in carriers))
    chance = assaults.success_chance(state, planned)
    strength = sum(u.strength for u in units)
    if has_enemy_land_unit(state, side, h) and chance < Fraction(3, 4):
        return Fraction(0)
    if pic is not None and hold_chance(pic, h, units, planned.by_sea, planned.by_air) < SURE:
        return Fraction(0)
    return chance * value(state, side, h, strength) * len(ids)


def assault(turn: Turn) -> None:
    """Amphibious phase: the assaults with good odds, the most valuable first."""
    for _ in range(MAX_LANDINGS * 2):
        state = turn.state
        offered = [a for a in turn.batch.legal() if a.kind == "assault"]
        pic = Picture(state, turn.side) if turn.style.sure_landings and offered else None
        scored = sorted(((_worth(state, turn.side, a, pic), a.args) for a in offered), reverse=True)
        best = [Action("assault", args) for worth, args in scored if worth > 0]
        if not best or not any(turn.batch.offer(a) for a in best[:3]):
            return
