"""Where the ferries land: the theatre a shipment goes to (issue 30; the style switch ``theatres``).

A ferry lands its unit where the voyage and the march to the front cost least
(:mod:`engine.ai.ferry`), so every shipment went to the nearest front: Britain's army
went to Norway, Denmark and the German coast month after month while Libya and Italian
East Africa stood empty beside an empty Egypt and no British unit ever landed there.

Now a landing place near an *opening* costs less: an enemy-held city whose sector holds
little enemy land strength (:data:`THIN`) and not yet the strength of ours to take it
(the enemy's plus :data:`MARGIN`).  Each opening within :data:`REACH` hexes of a landing
place takes :data:`PER_OPENING` sea hexes off the voyage's cost there, up to
:data:`MOST`: a shipment sails the longer way to a front where a few units take cities.
Once our strength near an opening is enough to take it, or the city is ours, the
opening closes and the next shipments go to the nearest front again, so the strength a
theatre gets follows its openings.
"""

from __future__ import annotations

from engine.ai.picture import Picture

#: A city whose sector holds at most this much enemy land strength is thinly held.
THIN = 8
#: Our land strength beyond the enemy's in a city's sector that is enough to take it.
MARGIN = 10
#: The sector of a city (hexes around it, through land that is not neutral).
SECTOR = 8
#: A landing place serves the openings at most this many land hexes from it.
REACH = 12
#: Sea hexes of a voyage that one opening near a landing place is worth.
PER_OPENING = 25
#: The most a landing place's openings take off a voyage (sea hexes).
MOST = 75


def openings(pic: Picture) -> list[int]:
    """Enemy-held cities thinly held (:data:`THIN`) that our land strength near them is not
    yet enough to take (:data:`MARGIN`), in hex order; cities a truce shelters from one of
    our countries are left out (a ferry does not know whose units it will carry)."""
    enemy, mine = pic.enemy_at, pic.my_at
    country_of = pic.map.country_of
    out = []
    for city in pic.map.cities:
        h = city.hex
        if pic.role(h) != "enemy" or country_of[h] in pic.truce:
            continue
        sector = pic.distances([h], limit=SECTOR, passable="not_neutral")
        theirs = sum(enemy.get(o, 0) for o in sector)
        if theirs > THIN:
            continue
        if sum(mine.get(o, 0) for o in sector) < theirs + MARGIN:
            out.append(h)
    return sorted(out)


def bonus(pic: Picture, places: dict[int, int]) -> dict[int, int]:
    """Landing place -> the sea hexes its nearby openings take off a voyage's cost
    (kept on the picture, which every ferry of one decision shares)."""
    memo = pic.__dict__
    found: dict[int, int] | None = memo.get("theatre_openings")
    if found is None:
        found = {}
        for h in openings(pic):
            for o in pic.distances([h], limit=REACH, passable="not_neutral"):
                found[o] = found.get(o, 0) + PER_OPENING
        memo["theatre_openings"] = found
    return {h: min(MOST, found[h]) for h in places if h in found}
