"""The bot's air war: missions in the first movement and air orders in the combat phase.

The atomic bomb (rulebook "Atomic Bomb", supplement "Atomic bomb surrender"): from
:data:`PREPARE` months before its country's first atomic month, the atomic aircraft is
kept for the bomb (bought first, never sent in support of land attacks nor on raids) and
flies base by base, in the second movement, towards the home cities (never colonies:
a bomb there makes no one surrender) of the enemy country likeliest to surrender by the
supplement's formula, until a base holds one within a bombing flight.  From its atomic
month, in the first movement before all other aircraft, it flies to the best target
from which it can still reach a base: that country's home city where the bomb destroys
the most enemy units; in the combat phase it drops the bomb.

First movement, after the bombers that support land attacks have flown
(:mod:`engine.ai.air`): the other free bombers fly to enemy ships (Japanese bombers as
kamikaze once the rule allows), then to enemy resource hexes (strategic bombing), then
to enemy cities (installation bombing); fighters fly to enemy aircraft on their bases.
The engine refuses any mission from which no base could be reached.

Combat phase: every air order the rules offer, the largest group first (atomic bombs
first; all fighters together against one aircraft; strategic before installation
bombing); kamikaze attacks only with "K" aircraft, which can do nothing else.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

from engine import air_war, atomic, combat_math, stacking
from engine.actions import Action
from engine.air_combat import enemy_air, enemy_ships, is_fighter
from engine.bombing import target_refusal
from engine.hexgrid import NO_HEX
from engine.reach import air_search, base_distance, can_land
from engine.sides import other
from engine.state import NO_UNIT, GameState, Unit
from engine.supply import supply_of_side
from engine.units import COSTS
from engine.war import at_war_with

if TYPE_CHECKING:
    from engine.ai.turn import Turn

#: Missions tried per aircraft (each try is an engine check).
TRIES = 4
#: Aircraft sent against one target at most.
PER_TARGET = 2
#: Months before its first atomic month from which an atomic aircraft is kept for the bomb
#: and flown towards its targets.
PREPARE = 6
#: Hexes an atomic aircraft's bombing flight keeps in hand for detours.
MARGIN = 2
#: Flights counted for a base from which no flight leads to a target.
FAR = 99


def _free(u: Unit) -> bool:
    return u.is_air and u.origin == NO_HEX and u.carrier == NO_UNIT and u.supplied and u.hex != NO_HEX


def is_atomic(state: GameState, u: Unit) -> bool:
    """Is ``u`` its country's atomic aircraft, at most :data:`PREPARE` months before it may
    drop its first bomb?  Such an aircraft neither supports attacks nor raids."""
    return u.is_air and atomic_soon(state, u.country, u.name)


def atomic_soon(state: GameState, country: str, name: str) -> bool:
    """Is ``name`` the atomic aircraft of ``country``, which may drop a bomb within
    :data:`PREPARE` months (or already may)?"""
    info = state.world.info.get(country)
    if info is None or info.atomic_bomb_from is None or name != info.atomic_bomb_unit:
        return False
    return state.date >= info.atomic_bomb_from - PREPARE


def _kills(state: GameState, side: str, h: int) -> int:
    """What a bomb on ``h`` destroys of the enemy's units, in $B (the bomb spares no one)."""
    total = 0
    for u in state.units_at(h):
        if state.countries[u.country].side != side and (u.is_land or stacking.is_based(u) or u.in_port):
            total += COSTS[u.type].price * (u.strength if u.is_land else 1)
    return total


def _worth(state: GameState, side: str, country: str) -> float:
    """What a bomb on ``country`` is worth: its chance to surrender (the supplement's
    formula) times the cities of the country and its colonies the surrender hands over."""
    c, o, n = atomic.surrender_chance(state, country, side)
    cities = sum(1 for h in state.world.cities_of.get(country, ()) if state.side_controlling(h) != side)
    return combat_math.probability(Fraction(2), c * o * (n + 1)) * cities


def atomic_targets(state: GameState, side: str, country: str) -> list[list[int]]:
    """The home cities held by the enemy of each country at war with ``country``, the
    country whose bomb is worth most (:func:`_worth`) first, each country's cities where
    the bomb kills most first.  A bomb on a colony makes no one surrender: none there."""
    ranked = []
    for name in sorted(state.countries):
        if state.countries[name].conquered or not at_war_with(state, country, name):
            continue
        cities = [
            h
            for h in state.world.home_cities_of.get(name, ())
            if (owner := state.controller_of(h)) and at_war_with(state, country, owner)
        ]
        if cities:
            cities.sort(key=lambda h: (-_kills(state, side, h), h))
            ranked.append((-_worth(state, side, name), name, cities))
    return [cities for *_, cities in sorted(ranked)]


def send_atomic(turn: Turn) -> None:
    """First movement: every atomic aircraft that may drop a bomb flies to the best target
    from which a base is still in reach (one bomb a hex)."""
    state = turn.state
    side = turn.side
    chosen: set[int] = set()
    for u in sorted(state.side_units(side), key=lambda x: x.id):
        if not (_free(u) and atomic.may_carry(state, u)):
            continue
        region = dict(air_search(state, u, u.move).cost)
        region[u.hex] = 0
        home = base_distance(state, u, region, side)
        targets = [h for cities in atomic_targets(state, side, u.country) for h in cities]
        tries = 0
        for h in targets:
            if h in chosen or h not in region or home.get(h, u.move + 1) > u.move - region[h]:
                continue
            if tries >= TRIES:
                break
            tries += 1
            if turn.batch.offer(Action("move", (u.id, h))):
                chosen.add(h)
                break


def rebase_atomic(turn: Turn) -> None:
    """Second movement: atomic aircraft fly towards their targets base by base
    (:func:`base_ranks`); they stay where no base in reach is better."""
    state = turn.state
    aimed: set[str] = set()  # (with bomb_nearest, one aircraft's country is worth less to the next)
    for u in sorted(state.side_units(turn.side), key=lambda x: x.id):
        if u.carrier == NO_UNIT and u.hex != NO_HEX and is_atomic(state, u):
            _rebase(turn, u, aimed)


def _rebase(turn: Turn, u: Unit, aimed: set[str]) -> None:
    state = turn.state
    side = turn.side
    reach = air_search(state, u, max(0, u.move - u.mp_used)).cost
    bases = [h for h in reach if can_land(state, u, h, side)]
    if u.origin == NO_HEX:
        bases.append(u.hex)  # staying is a choice
    rank = base_ranks(state, side, u, bases, turn.style.bomb_nearest, aimed)
    if not rank:
        return
    bases.sort(key=lambda h: rank[h])
    for h in bases[:TRIES]:
        if h == u.hex and u.origin == NO_HEX:
            return
        if turn.batch.offer(Action("move", (u.id, h))):
            return


def base_ranks(
    state: GameState, side: str, u: Unit, bases: list[int], per_flight: bool = False, aimed: set[str] | None = None
) -> dict[int, tuple[int, int, int, int]]:
    """How good each of ``bases`` is for atomic aircraft ``u``, best lowest: the fewest
    flights to a base from which a target is within a bombing flight (out and back, with
    :data:`MARGIN` hexes to spare for detours round neutral countries), for the country
    worth bombing most among those such flights lead to (``per_flight``, the style switch
    ``bomb_nearest``: most per month of flights to get there, so that a near country is
    not left standing while the aircraft crosses the world for a better one); then, within
    a bombing flight the farther the better (a base next to the enemy invites his
    fighters), beyond it the nearer.  Empty if there is no target.  ``aimed``: the
    countries other atomic aircraft make for this movement, whose bomb counts half with
    ``per_flight`` (two countries bombed at once fall sooner than one twice); the country
    chosen is added to it."""
    grid = state.world.map.grid
    countries = atomic_targets(state, side, u.country)
    if not countries:
        return {}
    bombing = u.move // 2 - MARGIN
    found = _aim(state, side, u, bases, countries, bombing, per_flight, aimed or set())
    goals, hops = found if found is not None else (countries[0], {})  # none leads anywhere: the nearest to the best
    if aimed is not None:
        aimed.add(state.world.map.country_of[goals[0]])

    def rank(h: int) -> tuple[int, int, int, int]:
        d = min(grid.distance(h, t) for t in goals)
        return hops.get(h, FAR), max(0, d - bombing), -d, h

    return {h: rank(h) for h in bases}


def _aim(
    state: GameState,
    side: str,
    u: Unit,
    bases: list[int],
    countries: list[list[int]],
    bombing: int,
    per_flight: bool,
    aimed: set[str],
) -> tuple[list[int], dict[int, int]] | None:
    """The home cities ``u`` makes for, of one of ``countries`` (best worth first), with the
    flights to them from each of our bases; None if no flight from ``bases`` leads to any."""
    best: tuple[float, int, list[int], dict[int, int]] | None = None
    for rank, goals in enumerate(countries):
        hops = _flights(state, side, u, goals, bombing)
        near = min((hops[h] for h in bases if h in hops), default=None)
        if near is None:
            continue
        if not per_flight:
            return goals, hops
        country = state.world.map.country_of[goals[0]]
        per_month = _worth(state, side, country) / (near + 1) / (2 if country in aimed else 1)
        if best is None or (-per_month, rank) < (best[0], best[1]):
            best = (-per_month, rank, goals, hops)
    return None if best is None else (best[2], best[3])


def _flights(state: GameState, side: str, u: Unit, goals: list[int], bombing: int) -> dict[int, int]:
    """Flights from each of our bases (where ``u`` could be based) to one within
    ``bombing`` hexes of ``goals``, a flight being at most ``u.move`` hexes on the grid
    (the engine judges each real flight)."""
    grid = state.world.map.grid
    bases = [h for h in _our_bases(state, side) if can_land(state, u, h, side)]
    frontier = [h for h in bases if min(grid.distance(h, t) for t in goals) <= bombing]
    hops = dict.fromkeys(frontier, 0)
    left = [h for h in bases if h not in hops]
    n = 0
    while frontier and left:
        n += 1
        frontier = [b for b in left if any(grid.distance(a, b) <= u.move for a in frontier)]
        hops.update(dict.fromkeys(frontier, n))
        left = [b for b in left if b not in hops]
    return hops


def _our_bases(state: GameState, side: str) -> list[int]:
    hexmap = state.world.map
    places = set(hexmap.city_at) | set(hexmap.resources) | set(state.airfields)
    return sorted(h for h in places if state.side_controlling(h) == side)


def _targets(state: GameState, side: str, u: Unit) -> list[int]:
    """Hexes worth flying ``u`` to, best first."""
    enemy = other(side)
    hexmap = state.world.map
    cities = [h for h in hexmap.city_at if state.side_controlling(h) == enemy]
    out: list[int] = []
    if u.bomber > 0:
        ships = sorted({e.hex for e in state.units.values() if e.is_naval and e.carrier == NO_UNIT and e.hex != NO_HEX})
        # Ships inside a major port defend twice as well against aircraft: those outside first.
        found = {h: enemy_ships(state, h, side) for h in ships}
        out += sorted(
            (h for h in ships if found[h]), key=lambda h: all(stacking.inside_major_port(state, e) for e in found[h])
        )
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
        if is_atomic(state, u):
            continue  # kept for the bomb (:func:`send_atomic`)
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
