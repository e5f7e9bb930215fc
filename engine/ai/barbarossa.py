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

Once at war (the style switch ``eastern_effort``) the Axis drives at one Soviet city at a
time, its *main effort* (:func:`effort_city`): the nearest to its massed army, a city
behind a strong Soviet stack counting as farther.  Without it every unit was drawn to the
Soviet objective nearest to itself and attacked whatever stood next to it, so the army
spread along the whole border and no city fell.
"""

from __future__ import annotations

import numpy as np

from engine.ai.front import fallen, soviet_war
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


def preparing(state: GameState) -> bool:
    """Is the Axis still to attack the Soviet Union, France beaten and the staging month come?"""
    soviet, germany = state.countries.get(SOVIET), state.countries.get("Germany")
    if soviet is None or germany is None or soviet.at_war or soviet.side != "neutral":
        return False
    if not germany.active or state.date < parse_date(STAGE_FROM):
        return False
    return "France" not in state.countries or fallen(state, "France")


def _european_axis(pic: Picture) -> np.ndarray:
    """Per country number: an Axis country at war in Europe's war (Japan, under its truce
    with the Soviet Union, left out); ``pic`` is the Axis' picture."""
    names = pic.state.world.country_names
    return np.array([r == "mine" and n not in JAPAN_SOVIET for r, n in zip(pic.role_of_no, names, strict=True)])


def border(pic: Picture) -> list[int]:
    """Land hexes the European Axis controls next to Soviet-controlled land: the first line."""
    state = pic.state
    hexmap = state.world.map
    ctrl = np.frombuffer(state.controller, dtype=np.uint8)
    ours = np.flatnonzero(_european_axis(pic)[ctrl])
    # the neighbour table's padding is the extra hex ``size``, Soviet to nobody
    soviet = np.append(ctrl == state.world.country_no[SOVIET], False)
    first: list[int] = ours[soviet[hexmap.land_table[ours]].any(axis=1)].tolist()
    return first


def zone(pic: Picture) -> list[int]:
    """The first line and the Axis land right behind it (:data:`DEPTH` hexes): where the
    Axis masses, two units a hex."""
    european = _european_axis(pic)
    ctrl = pic.state.controller
    return sorted(h for h in pic.distances(border(pic), limit=DEPTH) if european[ctrl[h]])


def expected(pic: Picture, hexes: list[int]) -> int:
    """The Soviet land strength the Axis will face on ``hexes``: the Soviet land units on the
    map within :data:`FACING` hexes, and, while the Soviet Union is neutral, the land points
    of its pool, which all become units to place when war is declared on it (the rules'
    entry) and which the Soviets place facing the Axis: 162 of 176 points in seed 700."""
    state = pic.state
    near = pic.distances(hexes, limit=FACING)
    soviet = state.countries[SOVIET]
    on_map = sum(
        u.strength
        for u in state.units_of(SOVIET)
        if u.is_land and u.hex in near and u.carrier == NO_UNIT and u.type is not UnitType.SUPPLY
    )
    to_place = sum(soviet.pool_land.values()) + sum(soviet.free_land.values()) if soviet.side == "neutral" else 0
    return on_map + to_place


def stage(pic: Picture) -> dict[int, float]:
    """Strength the Axis wants on each hex of its staging zone while it prepares."""
    state = pic.state
    if pic.side != "axis" or not preparing(state):
        return {}
    hexes = zone(pic)
    if not hexes:
        return {}
    share = STAGE_SHARE * expected(pic, hexes) / len(hexes)
    return dict.fromkeys(hexes, STAGE_FLOOR + share)


def kept(pic: Picture) -> frozenset[int]:
    """Hexes whose units stay for the Balkan campaign: within :data:`BALKAN_KEEP` of the
    land of Yugoslavia or Greece while either stands."""
    state = pic.state
    lands = [n for n in BALKANS if n in state.countries and not fallen(state, n)]
    if not lands:
        return frozenset()
    sources = [h for n in lands for h in state.world.map.hexes_of_country.get(n, ())]
    return frozenset(pic.distances(sources, limit=BALKAN_KEEP))


def strengths(pic: Picture) -> tuple[int, int]:
    """(Axis land strength in the staging zone, Soviet land strength expected to face it);
    ``pic`` is the Axis' picture."""
    hexes = zone(pic)
    return sum(pic.my_at.get(h, 0) for h in hexes), expected(pic, hexes)


def ready(state: GameState) -> bool:
    """Is the Axis massed on the Soviet border (from :data:`READY_FROM`)?"""
    if state.date < parse_date(READY_FROM) or not preparing(state):
        return False
    axis, soviet = strengths(Picture(state, "axis"))
    return axis > 0 and axis >= READY_RATIO * soviet


#: How far (hexes) from the Axis army a Soviet city may lie to be its main effort.
EFFORT_REACH = 30
#: The sector of a Soviet city (hexes around it) whose Axis and Soviet land strength is
#: weighed when the Axis chooses its main effort: wide enough to reach the Axis army across
#: the border (Minsk and Kiev lie 6 to 7 hexes behind it in 1941).
SECTOR = 10
#: What a Soviet point in the sector weighs against an Axis point there: the army drives
#: where it is massed, its attacks at good odds wearing the defenders down (weighed in
#: full, the empty north, Murmansk next to Finland's few units, drew the German army).
SOVIET_WEIGHT = 0.5
#: Strength (points) a hex of road from the Axis army to a Soviet city is worth in that
#: choice: a nearer city is taken sooner.
POINTS_PER_HEX = 2.0
#: How far (hexes) from the main effort's city its pull is measured: movement counts a hex
#: beyond as 40 hexes away, so no farther, or a farther hex would pull less.
PULL_REACH = 40


def effort_city(pic: Picture) -> int | None:
    """The Soviet-held Soviet home city the Axis drives at: the one whose sector (within
    :data:`SECTOR` hexes) holds the most European Axis land strength less
    :data:`SOVIET_WEIGHT` times the Soviet, less :data:`POINTS_PER_HEX` a hex of road from
    the Axis army, through land that is not neutral; None for the Allies or outside the war."""
    state = pic.state
    if pic.side != "axis" or not soviet_war(state):
        return None
    mass: dict[int, int] = {}
    for u in pic.my_land:
        if u.country not in JAPAN_SOVIET and u.type is not UnitType.SUPPLY:
            mass[u.hex] = mass.get(u.hex, 0) + u.strength
    if not mass:
        return None
    road = pic.distances(sorted(mass), limit=EFFORT_REACH, passable="not_neutral")
    enemy = pic.enemy_at
    best: tuple[float, int] | None = None
    for h in state.world.home_cities_of.get(SOVIET, ()):
        if h not in road or state.controller_of(h) != SOVIET:
            continue
        sector = pic.distances([h], limit=SECTOR, passable="not_neutral")
        balance = sum(mass.get(o, 0) - SOVIET_WEIGHT * enemy.get(o, 0) for o in sector) - POINTS_PER_HEX * road[h]
        if best is None or (-balance, h) < best:
            best = (-balance, h)
    return best[1] if best else None


def effort(pic: Picture) -> dict[int, int]:
    """Land distance to the main effort's city (:func:`effort_city`), through land that is
    not neutral; empty without one."""
    city = effort_city(pic)
    if city is None:
        return {}
    return pic.distances([city], limit=PULL_REACH, passable="not_neutral")
