"""The Allies' counter-offensives (issue 30; the style switch ``allied_effort``).

Every enemy country is an aim of the Allies (:func:`engine.ai.front.aims`), and without a
main effort each of their units was drawn to the enemy objective nearest to itself: their
armies leaned on whole fronts and rarely took a city.  Like the Axis in the east
(:mod:`engine.ai.barbarossa`) they now drive at a few enemy-held cities at a time, their
*efforts* (:func:`effort_cities`): each where Allied land strength is massed and outweighs
the enemy's around the city, so a front where the enemy is as strong stays a front held.
Several efforts, one per army, as the Allies fight on several fronts at once (the Soviet
Union, Africa, China); an army is the strength in an effort's sector, which no other effort
counts again.
"""

from __future__ import annotations

from engine.ai.picture import Picture
from engine.units import UnitType

#: At most this many efforts at a time.
EFFORTS = 3
#: How far (hexes) from our massed land strength an enemy-held city may lie to be an effort.
REACH = 16
#: The sector of a city (hexes around it) whose land strength on each side is weighed.
SECTOR = 8
#: Strength (points) a hex of road from our army to the city costs in the choice.
POINTS_PER_HEX = 1.0
#: How far (hexes) the pull of an effort's city is measured: as far as the movement's
#: "far away" (engine.ai.move.FAR), so that a hex beyond pulls no less than one within.
PULL_REACH = 40


def effort_cities(pic: Picture) -> list[int]:
    """The enemy-held cities the Allies drive at, in the order chosen: greedily, the city
    whose sector (:data:`SECTOR` hexes, through land that is not neutral) holds the most of
    our land strength less the enemy's there and less :data:`POINTS_PER_HEX` a hex of road
    from our army, among those where ours outweighs the enemy's; our strength in a chosen
    sector counts for no later one.  Empty for the Axis."""
    if pic.side != "allies":
        return []
    mass: dict[int, int] = {}
    free: dict[int, int] = {}  # our strength of the countries under no truce
    for u in pic.my_land:
        if u.type is not UnitType.SUPPLY and u.strength > 0:
            mass[u.hex] = mass.get(u.hex, 0) + u.strength
            if u.country not in pic.truce:
                free[u.hex] = free.get(u.hex, 0) + u.strength
    if not mass:
        return []
    state = pic.state
    road = pic.distances(sorted(mass), limit=REACH, passable="not_neutral")
    candidates = sorted(c.hex for c in state.world.map.cities if c.hex in road and pic.role(c.hex) == "enemy")
    sectors = {h: pic.distances([h], limit=SECTOR, passable="not_neutral") for h in candidates}
    enemy = pic.enemy_at
    used: set[int] = set()
    chosen: list[int] = []
    while len(chosen) < EFFORTS:
        best: tuple[float, int] | None = None
        for h in candidates:
            if h in chosen:
                continue
            ours_at = free if _sheltered(pic, h) else mass
            sector = sectors[h]
            ours = sum(ours_at.get(o, 0) for o in sector if o not in used)
            theirs = sum(enemy.get(o, 0) for o in sector)
            if ours <= theirs:
                continue
            balance = ours - theirs - POINTS_PER_HEX * road[h]
            if balance > 0 and (best is None or (-balance, h) < best):
                best = (-balance, h)
        if best is None:
            break
        chosen.append(best[1])
        used.update(sectors[best[1]])
    return chosen


def _sheltered(pic: Picture, h: int) -> bool:
    """Is ``h`` the land of an enemy under the Japanese/Soviet truce with one of ours, whose
    units may not enter it (:func:`engine.war.japan_soviet_barred`)?"""
    owner = pic.map.country_of[h]
    return owner in pic.truce and pic.state.countries[owner].side != pic.side


def sectors(pic: Picture, cities: list[int]) -> set[int]:
    """The hexes of the efforts' sectors: every enemy hex there is at stake for our attacks."""
    return set(pic.distances(cities, limit=SECTOR, passable="not_neutral")) if cities else set()


def pulls(pic: Picture, cities: list[int]) -> tuple[dict[int, int], dict[int, int]]:
    """Land distance to the nearest effort city, through land that is not neutral: for the
    units of countries under no truce, and for those under one (to the cities a truce does
    not shelter)."""
    if not cities:
        return {}, {}
    to_any = pic.distances(cities, limit=PULL_REACH, passable="not_neutral")
    open_cities = [h for h in cities if not _sheltered(pic, h)]
    if len(open_cities) == len(cities):
        return to_any, to_any
    to_open = pic.distances(open_cities, limit=PULL_REACH, passable="not_neutral") if open_cities else {}
    return to_any, to_open
