"""Barbarossa by the position (issue 30; the style switch ``ready_offensives``).

By the calendar alone the Axis declared war on the Soviet Union in June 1941 with a few
points on the Polish border, and the Soviet army placed there at its entry took Warsaw in
some games within the month.  From :data:`STAGE_FROM` the Axis *stages*: the need map asks
for strength on its staging zone facing the Soviet Union (:func:`stage`), a share of the
Soviet strength expected there, and units far from the Balkans are drawn to it (those near
Yugoslavia and Greece stay for that campaign: the rules bring Hungary and Bulgaria in only
with a German unit in Yugoslavia).  A neutral Soviet Union has no unit on the map: its
whole pool becomes units to place when war is declared on it, so the strength expected is
that pool (:func:`expected`).  The Axis declares war from :data:`READY_FROM` once its
strength in the zone is :data:`READY_RATIO` times that (:func:`ready`), and in June 1941 by
the calendar whatever the position (the latest date).
"""

from __future__ import annotations

from collections import deque

from engine.ai.front import fallen
from engine.ai.picture import Picture
from engine.state import NO_UNIT, GameState, parse_date
from engine.units import UnitType
from engine.war import JAPAN_SOVIET

SOVIET = "Soviet Union"
#: The month the Axis starts massing on the Soviet border (France has fallen by then in
#: most games; four months let the army cross Europe by rail and march before June).
STAGE_FROM = "1941-02"
#: The first month the Axis may declare war on the Soviet Union when ready (the spring
#: mud is over); June 1941 stays the latest (:data:`engine.ai.declare.AXIS_AIMS`).
READY_FROM = "1941-05"
#: Axis strength in the staging zone over the Soviet strength expected to face it needed
#: to attack before the latest month.
READY_RATIO = 1.0
#: Strength asked of the staging zone per point of Soviet strength expected to face it
#: (shared evenly among its hexes).
STAGE_SHARE = 1.0
#: Strength asked of every hex of the staging zone, whatever faces it.
STAGE_FLOOR = 3.0
#: Hexes behind the first line that belong to the staging zone.
DEPTH = 1
#: Soviet units this close (hexes) to the staging zone face it.
FACING = 2
#: The campaign whose units are not drawn to the Soviet border, and how near (hexes).
BALKANS = ("Yugoslavia", "Greece")
BALKAN_KEEP = 6


def _land_strength(state: GameState, country: str) -> dict[int, int]:
    """Hex -> land strength of ``country`` there (on the map, not embarked)."""
    out: dict[int, int] = {}
    for u in state.units_of(country):
        if u.is_land and u.on_map and u.carrier == NO_UNIT and u.type is not UnitType.SUPPLY:
            out[u.hex] = out.get(u.hex, 0) + u.strength
    return out


def _axis_strength(state: GameState) -> dict[int, int]:
    """Hex -> land strength of the Axis countries at war."""
    out: dict[int, int] = {}
    for name, c in state.countries.items():
        if c.side == "axis" and c.at_war and not c.conquered:
            for h, s in _land_strength(state, name).items():
                out[h] = out.get(h, 0) + s
    return out


def preparing(state: GameState) -> bool:
    """Is the Axis still to attack the Soviet Union, France beaten and the staging month come?"""
    soviet, germany = state.countries.get(SOVIET), state.countries.get("Germany")
    if soviet is None or germany is None or soviet.at_war or soviet.side != "neutral":
        return False
    if not germany.active or state.date < parse_date(STAGE_FROM):
        return False
    return "France" not in state.countries or fallen(state, "France")


def border(state: GameState) -> list[int]:
    """Land hexes the European Axis controls (its countries at war, Japan's truce border
    left out) next to Soviet-controlled land: the first line."""
    nbr = state.world.map.land_neighbours
    out = set()
    for h in range(len(state.controller)):
        if state.controller_of(h) != SOVIET:
            continue
        for o in nbr[h]:
            name = state.controller_of(o)
            c = state.countries.get(name)
            if c is not None and c.side == "axis" and c.at_war and name not in JAPAN_SOVIET:
                out.add(o)
    return sorted(out)


def zone(state: GameState) -> list[int]:
    """The first line and the Axis land right behind it (:data:`DEPTH` hexes): where the
    Axis masses, two units a hex."""
    first = border(state)
    out = set()
    for h in _near(state, first, DEPTH):
        name = state.controller_of(h)
        c = state.countries.get(name)
        if c is not None and c.side == "axis" and c.at_war and name not in JAPAN_SOVIET:
            out.add(h)
    return sorted(out)


def _near(state: GameState, sources: list[int], radius: int) -> dict[int, int]:
    """Land distance (up to ``radius``) from the nearest of ``sources``, over any land."""
    nbr = state.world.map.land_neighbours
    dist = dict.fromkeys(sources, 0)
    queue = deque(sources)
    while queue:
        h = queue.popleft()
        if dist[h] >= radius:
            continue
        for o in nbr[h]:
            if o not in dist:
                dist[o] = dist[h] + 1
                queue.append(o)
    return dist


def expected(state: GameState, hexes: list[int]) -> int:
    """The Soviet land strength the Axis will face on ``hexes``: the Soviet land units on the
    map within :data:`FACING` hexes, and, while the Soviet Union is neutral, the land points
    of its pool, which all become units to place when war is declared on it (the rules'
    entry) and which the Soviets place facing the Axis: 162 of 176 points in seed 700."""
    near = _near(state, hexes, FACING)
    soviet = state.countries[SOVIET]
    on_map = sum(s for h, s in _land_strength(state, SOVIET).items() if h in near)
    to_place = sum(soviet.pool_land.values()) + sum(soviet.free_land.values()) if soviet.side == "neutral" else 0
    return on_map + to_place


def stage(pic: Picture) -> dict[int, float]:
    """Strength the Axis wants on each hex of its staging zone while it prepares."""
    state = pic.state
    if pic.side != "axis" or not preparing(state):
        return {}
    hexes = zone(state)
    if not hexes:
        return {}
    share = STAGE_SHARE * expected(state, hexes) / len(hexes)
    return dict.fromkeys(hexes, STAGE_FLOOR + share)


def kept(pic: Picture) -> frozenset[int]:
    """Hexes whose units stay for the Balkan campaign: within :data:`BALKAN_KEEP` of the
    land of Yugoslavia or Greece while either stands."""
    state = pic.state
    lands = [n for n in BALKANS if n in state.countries and not fallen(state, n)]
    if not lands:
        return frozenset()
    sources = [h for n in lands for h in state.world.map.hexes_of_country.get(n, ())]
    return frozenset(_near(state, sources, BALKAN_KEEP))


def strengths(state: GameState) -> tuple[int, int]:
    """(Axis land strength in the staging zone, Soviet land strength expected to face it)."""
    hexes = zone(state)
    axis = _axis_strength(state)
    return sum(axis.get(h, 0) for h in hexes), expected(state, hexes)


def ready(state: GameState) -> bool:
    """Is the Axis massed on the Soviet border (from :data:`READY_FROM`)?"""
    if state.date < parse_date(READY_FROM) or not preparing(state):
        return False
    axis, soviet = strengths(state)
    return axis > 0 and axis >= READY_RATIO * soviet
