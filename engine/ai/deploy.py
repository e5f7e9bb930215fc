"""Deployment: put new units where they matter, and merge small units.

Land strength points are formed into the largest units the rules allow and put
where the front still needs strength (the same need map movement fills: front
hexes, threatened capitals, cities and resource hexes); when the front is
covered they go to the hexes closest to it.  Ships go to the port with the most
room (the fleet stays home), aircraft to the airbase nearest the front.
Among hexes the scoring rates close (within the ``*_MARGIN`` constants below) the
turn's seeded stream draws, so the hidden list differs from seed to seed.
Small land units of one kind sharing a hex are merged, which frees stacking
room at the front.  A country that can spare the money fortifies its most
threatened city or resource hex on the front.  Supply units (rulebook "Supply
Sources": a portable source for the units of their hex and those tracing a line
to them) go to the front stacks no other supply unit serves yet, farthest from a
city resource hex first, where a cut supply line would hurt most; never alone
in a hex, since a stack of supply units alone is eliminated when attacked.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from engine.actions import Action
from engine.ai import air_war, barbarossa, ferry, garrison, staging
from engine.ai.front import need_map
from engine.ai.picture import Picture
from engine.ai.seeding import mixed_order
from engine.deployment import home_area
from engine.hexgrid import NO_HEX, HexGrid
from engine.hexmap import Kind
from engine.state import NO_UNIT, GameState, Unit
from engine.units import FORTIFICATION_COST, UnitType, max_strength

if TYPE_CHECKING:
    from engine.ai.turn import Turn

FAR = 40
#: Hexes tried per unit to place before giving up on it.
TRIES = 16
#: Score a land placement may give up to a seeded draw: less than a hex of distance from
#: the front (0.3) or a tenth of a strength point of unmet need (2 a point), so the draw
#: is among hexes the scoring rates (all but) equal.
LAND_MARGIN = 0.2
#: Hexes of distance from the front a unit placed by itself (aircraft, other land units)
#: may give up to a seeded draw: none, the draw is among hexes as near.
HEX_MARGIN = 0.5
#: Enemy threat (strength points, weighted by nearness) a port may carry beyond the least
#: threatened of its class (home, major) and still be drawn for a ship.
THREAT_MARGIN = 0.5


def placement_area(state: GameState, country: str) -> list[int]:
    """Hexes where ``country`` may place land units (the engine's rule)."""
    return sorted(home_area(state, country))


def deployment(turn: Turn) -> None:
    state = turn.state
    pic = Picture(state, turn.side)
    stage = barbarossa.stage(pic) if turn.style.ready_offensives else {}
    need = need_map(pic, shuttle=turn.style.shuttle, stage=stage, east=turn.style.eastern_effort)
    have: dict[int, float] = {h: float(s) for h, s in pic.my_at.items()}
    to_front = {**ferry.to_ferry(pic, turn.style.shuttle), **pic.to_front}
    year = state.date // 12

    def score(h: int, strength: float) -> float:
        gap = max(0.0, need.get(h, 0.0) - have.get(h, 0.0))
        return min(strength, gap) * 2.0 + pic.objectives.get(h, 0) * 0.2 - to_front.get(h, FAR) * 0.3

    _merge(turn, year)
    _repair_sites(turn)
    _fortify(turn, pic)
    danger = garrison.endangered(pic) if turn.style.capitals_ahead else []
    for name in sorted(state.countries):
        c = state.countries[name]
        if c.side != turn.side or not c.active:
            continue
        area = placement_area(state, name)
        if danger:
            _guard_capitals(turn, name, [h for h in danger if h in area], have, year)
        if c.free_land and area:
            for key, n in sorted(c.free_land.items()):
                t, move = key.type.value, key.move
                if key.type is UnitType.SUPPLY:
                    if turn.style.supply_units:
                        _place_supply(turn, pic, name, area, have, move, n)
                    continue
                top = max(1, max_strength(name, key.type, year, move))
                # paratroopers go where a transport aircraft waits for one (a drop next month)
                planes = staging.waiting_planes(state, turn.side) if key.type is UnitType.PARATROOPER else set()
                left = n
                while left > 0:
                    points = min(top, left)
                    cost = {h: -score(h, points) for h in area}
                    drawn = mixed_order(turn.rng, area, cost.__getitem__, LAND_MARGIN)
                    ranked = sorted(drawn, key=lambda h: h not in planes)
                    placed = False
                    for h in ranked[:TRIES]:
                        if turn.batch.offer(Action("place_land", (name, t, move, points, h))):
                            have[h] = have.get(h, 0.0) + points
                            placed = True
                            break
                    if not placed:
                        break
                    left -= points
        for uid in list(c.free_units):
            _place_unit(turn, pic, uid, area)


#: The pool's land units a capital's garrison is placed from, the first available.
GARRISON_TYPES = (UnitType.INFANTRY, UnitType.MARINE, UnitType.ARMOR)


def _guard_capitals(turn: Turn, country: str, capitals: list[int], have: dict[int, float], year: int) -> None:
    """Place one of ``country``'s new land units in each of our ``capitals`` in danger
    (:func:`engine.ai.garrison.endangered`) that holds no strength of ours, before the
    front takes the rest: the Allies are counted after this deployment, and a country
    entering the war has no other chance to fill its capital before the enemy moves."""
    pool = turn.state.countries[country].free_land
    for h in capitals:
        if have.get(h, 0.0) > 0:
            continue
        keys = sorted((GARRISON_TYPES.index(k.type), k) for k, n in pool.items() if n > 0 and k.type in GARRISON_TYPES)
        if not keys:
            return
        key = keys[0][1]
        points = min(max(1, max_strength(country, key.type, year, key.move)), pool[key])
        if turn.batch.offer(Action("place_land", (country, key.type.value, key.move, points, h))):
            have[h] = have.get(h, 0.0) + points


#: Hexes from a supply unit within which it serves our land units surely: their line to
#: it is too short to be cut (a longer one is what an enemy breakthrough cuts).
SUPPLY_REACH = 1
#: Hexes behind the front line within which our stacks are front stacks.
FRONT_DEPTH = 1
#: Hexes from the nearest city resource hex beyond which a stack gains nothing more from
#: a supply unit of its own (a line that long is as easily cut as a longer one).
SOURCE_FAR = 6


def _place_supply(
    turn: Turn, pic: Picture, country: str, area: list[int], have: dict[int, float], move: int, n: int
) -> None:
    """Place ``n`` supply units of ``country``, one at a time, each where it serves most:
    the most of our land strength at the front within :data:`SUPPLY_REACH` hexes that no
    supply unit serves yet, then nearest the front, then farthest from a city resource hex
    of ours (supply lines there are longest); only hexes that hold our land units already
    (supply units alone fall to any attack), each taking as many as the stacking rules let it."""
    state = turn.state
    grid = state.world.map.grid
    hexmap = state.world.map
    sources = [h for h in hexmap.resources if h in hexmap.city_at and state.side_controlling(h) == turn.side]
    served = [u.hex for u in state.side_units(turn.side) if u.type is UnitType.SUPPLY and u.hex != NO_HEX]
    front = {h: s for h, s in have.items() if s > 0 and pic.to_front.get(h, FAR) <= FRONT_DEPTH}
    # Distances to many hexes at once (grid.distances): a deployment ranks every hex of
    # the area against every source and every front hex.
    cities = np.asarray(sources, dtype=np.int64)
    far = {h: int(grid.distances(h, cities).min()) if cities.size else SOURCE_FAR for h in area if have.get(h, 0) > 0}

    candidates = sorted(far)
    for _ in range(n):
        reached = np.asarray(served, dtype=np.int64)
        unserved = [x for x in front if not reached.size or grid.distances(x, reached).min() > SUPPLY_REACH]
        targets, weights = np.asarray(unserved, dtype=np.int64), [front[x] for x in unserved]
        rank = {
            h: (-_served(grid, h, targets, weights), pic.to_front.get(h, FAR), -min(far[h], SOURCE_FAR), h)
            for h in candidates
        }
        ranked = sorted(candidates, key=rank.__getitem__)
        placed = next(
            (h for h in ranked[:TRIES] if turn.batch.offer(Action("place_land", (country, "supply", move, 1, h)))),
            None,
        )
        if placed is None:
            return
        served.append(placed)


def _served(grid: HexGrid, h: int, targets: np.ndarray, weights: list[float]) -> float:
    """The strength of the front hexes ``targets`` (``weights``) a supply unit in ``h``
    serves, summed in the targets' order one number at a time (the ranks compare sums)."""
    if not targets.size:
        return 0
    near = grid.distances(h, targets) <= SUPPLY_REACH
    return sum(w for w, ok in zip(weights, near.tolist(), strict=True) if ok)


def _place_unit(turn: Turn, pic: Picture, uid: int, area: list[int]) -> None:
    state = turn.state
    u = state.units[uid]
    m = state.world.map
    if u.is_naval:
        ports = m.port_hexes
        # home ports first (the rules allow few others); the fleet stays out of harm's way:
        # major ports first, then the least threatened
        drawn = mixed_order(turn.rng, sorted(ports), lambda h: pic.threat.get(h, 0.0), THREAT_MARGIN)
        ranked = sorted(drawn, key=lambda h: (m.country_of[h] != u.country, not m.city_at[h].major_port))
    elif u.is_air:
        bases = [h for h in area if h in m.city_at or h in m.resources or h in state.airfields]
        atomic = air_war.is_atomic(state, u)
        rank = air_war.base_ranks(state, turn.side, u, bases, turn.style.bomb_nearest) if atomic else {}
        if rank:  # the atomic aircraft starts on its way to its targets
            ranked = sorted(bases, key=lambda h: rank[h])
        else:
            ranked = mixed_order(turn.rng, bases, lambda h: pic.to_front.get(h, FAR), HEX_MARGIN)
    else:
        ranked = mixed_order(turn.rng, area, lambda h: pic.to_front.get(h, FAR), HEX_MARGIN)
    for h in ranked[:TRIES]:
        if turn.batch.offer(Action("place", (uid, h))):
            return


def _merge(turn: Turn, year: int) -> None:
    """Merge pairs of small units of one country, type and movement sharing a hex."""
    state = turn.state
    by_hex: dict[int, list[Unit]] = {}
    for u in state.side_units(turn.side):
        if u.is_land and u.carrier == NO_UNIT and u.type != UnitType.SUPPLY and state.countries[u.country].active:
            by_hex.setdefault(u.hex, []).append(u)
    for h in sorted(by_hex):
        units = sorted(by_hex[h], key=lambda x: (x.strength, x.id))
        if len(units) < 2:
            continue
        a, b = units[0], units[1]
        if (a.country, a.type, a.move) != (b.country, b.type, b.move):
            continue
        if a.strength + b.strength <= max_strength(a.country, a.type, year, a.move):
            turn.batch.offer(Action("merge", (b.id, a.id)))


#: Money a country keeps after paying for a fortification (builds come after deployment).
FORT_RESERVE = 1000
#: Money beyond this, left after last month's builds, cannot be spent on units: it buys
#: fortifications (the rulebook's only other use of money, with airfields and repairs),
#: one per $500B, up to :data:`MAX_FORTS` a month.
RICH = 1000
MAX_FORTS = 24


def _fortify(turn: Turn, pic: Picture) -> None:
    """One fortification a month per country that can spare the money: at its most
    threatened city or resource hex on the front line.  A country whose money piles up
    beyond :data:`RICH` (its pool is bought out and the rules let it send nothing to a
    partner: China, Australia, New Zealand, ...) fortifies more: front hexes by threat,
    then its own cities and resource hexes nearest the enemy, then its home coast."""
    state = turn.state
    spots = sorted(
        (h for h in pic.frontier if h in pic.objectives and h not in state.forts),
        key=lambda h: (-pic.threat.get(h, 0.0), h),
    )
    done: set[str] = set()
    for h in spots:
        owner = state.controller_of(h)
        c = state.countries.get(owner)
        if c is None or owner in done or c.money < FORTIFICATION_COST + FORT_RESERVE:
            continue
        if pic.threat.get(h, 0.0) > 0 and turn.batch.offer(Action("fortify", (h,))):
            done.add(owner)
    for name in sorted(state.countries):
        c = state.countries[name]
        if c.side == turn.side and c.active and c.money > RICH:
            _fortify_rich(turn, pic, name)


def _fortify_rich(turn: Turn, pic: Picture, country: str) -> None:
    """Fortifications with money beyond :data:`RICH`, one per $500B up to :data:`MAX_FORTS` a
    month: threatened front hexes, the country's cities and resource hexes nearest the
    enemy, its other front hexes, then the coast of its home land nearest the enemy."""
    state = turn.state
    own = state.world.country_no[country]
    controller = state.controller
    most = min(MAX_FORTS, (state.countries[country].money - RICH) // FORTIFICATION_COST + 1)
    threatened = sorted(
        (h for h in pic.threat if controller[h] == own and h not in state.forts and h in pic.frontier),
        key=lambda h: (h not in pic.objectives, -pic.threat[h], h),
    )
    enemy = sorted({u.hex for u in state.side_units(pic.enemy) if u.hex != NO_HEX and not u.is_air})
    grid = state.world.map.grid
    taken = set(threatened)
    places = [h for h in pic.objectives if controller[h] == own and h not in state.forts and h not in taken]

    def nearest(h: int) -> int:
        return min((grid.distance(h, e) for e in enemy), default=FAR)

    spots = threatened + sorted(places, key=lambda h: (nearest(h), -pic.objectives[h], h))
    if len(spots) < most:
        # every objective fortified: the rest of its front, then the coast of its home land
        taken = set(spots)
        front = sorted(h for h in pic.frontier if controller[h] == own and h not in state.forts and h not in taken)
        spots += front
        taken.update(front)
    if len(spots) < most:
        hexmap = state.world.map
        coast = [
            h
            for h in hexmap.hexes_of_territory.get(country, ())
            if controller[h] == own and hexmap.kind[h] == Kind.COAST and h not in state.forts and h not in taken
        ]
        spots += sorted(coast, key=lambda h: (nearest(h), h))[: most - len(spots)]
    built = 0
    for h in spots:
        if built >= most or state.countries[country].money <= RICH:
            return
        if turn.batch.offer(Action("fortify", (h,))):
            built += 1


def _repair_sites(turn: Turn) -> None:
    """Repair our bombed cities and resource hexes, resource hexes first (they pay)."""
    state = turn.state
    hexmap = state.world.map
    damaged = sorted(state.bombed | state.strategic, key=lambda h: (h not in hexmap.resources, h))
    for h in damaged:
        if state.side_controlling(h) == turn.side:
            turn.batch.offer(Action("repair_site", (h,)))
