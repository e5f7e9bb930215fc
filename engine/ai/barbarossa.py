"""Barbarossa by the position, and minor allies brought in only when they can be held
(issue 30; the style switches ``ready_offensives`` and ``held_allies``).

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

A minor ally (:data:`MINORS`) entering the war opens a front the Axis must defend; entered
where it cannot be held it was conquered within weeks.  Its entry is taken only while the
enemy land strength that could reach its capital within :data:`REACH_MONTHS` months (the
Soviet Union's counted from :data:`STAGE_FROM`, as the Axis will attack it) is no more than the Axis land
strength near that capital (:func:`holdable`).
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
#: Minor allies brought in only when they can be held.
MINORS = ("Bulgaria", "Hungary", "Romania", "Finland")
#: Months of enemy movement counted against a minor ally's capital.
REACH_MONTHS = 2
#: Hexes from a minor ally's capital within which Axis land strength defends it.
DEFENCE_RADIUS = 2
#: The longest land move (armor's), as in :mod:`engine.ai.garrison`.
MAX_MOVE = 8


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


def holdable(state: GameState, country: str) -> bool:
    """Could the Axis hold ``country``'s capital if it entered now: is the enemy land
    strength that could reach it within :data:`REACH_MONTHS` months no more than the Axis
    land strength (its own included) within :data:`DEFENCE_RADIUS` hexes of it?"""
    world = state.world
    capitals = [h for h in world.home_cities_of.get(country, ()) if world.map.city_at[h].capital]
    if not capitals:
        return True
    capital = capitals[0]
    threat = _reaching(state, capital, country)
    if threat == 0:
        return True
    axis = _axis_strength(state)
    own = _land_strength(state, country)
    near = _near(state, [capital], DEFENCE_RADIUS)
    defence = sum(axis.get(h, 0) + own.get(h, 0) for h in near)
    return defence >= threat


def _enemies(state: GameState) -> set[str]:
    """The Axis's land enemies: the Allies at war, and the Soviet Union while the Axis prepares to attack it."""
    out = {n for n, c in state.countries.items() if c.side == "allies" and c.at_war and not c.conquered}
    soviet = state.countries.get(SOVIET)
    if soviet is not None and soviet.side == "neutral" and state.date >= parse_date(STAGE_FROM):
        out.add(SOVIET)
    return out


def _reaching(state: GameState, capital: int, country: str) -> int:
    """Enemy land strength within :data:`REACH_MONTHS` months' move of ``capital``, over land
    that is at war or ``country``'s own (terrain and zones of control ignored)."""
    enemies = _enemies(state)
    movers: dict[int, list[tuple[int, int]]] = {}
    for name in enemies:
        for u in state.units_of(name):
            if u.is_land and u.on_map and u.carrier == NO_UNIT and u.type is not UnitType.SUPPLY:
                movers.setdefault(u.hex, []).append((max(1, u.move) * REACH_MONTHS, u.strength))
    nbr = state.world.map.land_neighbours
    country_of = state.world.map.country_of
    limit = MAX_MOVE * REACH_MONTHS
    dist = {capital: 0}
    queue = deque([capital])
    while queue:
        h = queue.popleft()
        if dist[h] >= limit:
            continue
        for o in nbr[h]:
            if o in dist:
                continue
            c = state.countries.get(state.controller_of(o))
            open_land = (c is not None and (c.at_war or c.name in enemies)) or country_of[o] == country
            if open_land:
                dist[o] = dist[h] + 1
                queue.append(o)
    return sum(s for h, d in dist.items() for move, s in movers.get(h, ()) if d <= move)
