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

import numpy as np

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
