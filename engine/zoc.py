"""Control zones (supplement: "Control zones and hex control").

* A land unit's control zone is its own hex and the adjacent land hexes, only while
  its own hex is controlled by its side; supply units and embarked units exert none,
  and a zone does not extend into the other side's built fortifications.
* A naval unit's control zone is its own hex and the adjacent sea hexes; only ships
  with a surface attack (submarines: a submarine attack) exert one, and it never
  crosses a canal.

Two forms are offered: whole-side sets (:func:`land_zoc`, :func:`naval_zoc`), built
in one pass over the side's units, and per-hex predicates (:func:`in_enemy_land_zoc`,
:func:`in_enemy_naval_zoc`) that look only at the hex and its neighbours through the
state's hex index.  Searches that visit a few hundred hexes (one unit's reach) use
the predicates, so they cost nothing proportional to the size of the map or army.
"""

from __future__ import annotations

from engine.sides import other
from engine.state import NO_UNIT, GameState, Unit
from engine.units import Domain, UnitType

#: Unit types whose units exert a land control zone (supply units exert none).
ZOC_LAND_TYPES = frozenset(t.value for t in UnitType if t.domain is Domain.LAND and t is not UnitType.SUPPLY)
LAND_TYPES = frozenset(t.value for t in UnitType if t.domain is Domain.LAND)
NAVAL_TYPES = frozenset(t.value for t in UnitType if t.domain is Domain.NAVAL)


def _sides(state: GameState) -> dict[str, str]:
    return {name: c.side for name, c in state.countries.items()}


def _held_by(state: GameState, side: str) -> list[bool]:
    """Per country number: is a hex with this controller held by ``side``?"""
    return [bool(n) and state.countries[n].side == side for n in state.world.country_names]


def _exerts_naval_zoc(u: Unit) -> bool:
    return u.sub_attack > 0 if u.type == UnitType.SUBMARINE else u.attack > 0


def fort_blocks(state: GameState, h: int, side: str) -> bool:
    """Is ``h`` a built fortification of the side opposed to ``side`` (which ``side``'s
    control zones do not enter)?  A fortification's side is its owner's, or, when the
    owner is not recorded (fortifications of the map at the start), its hex controller's."""
    months = state.forts.get(h)
    if months is None or months != 0:
        return False
    owner = state.fort_owner.get(h)
    fort_side = state.countries[owner].side if owner else state.side_controlling(h)
    return fort_side == other(side)


def land_zoc(state: GameState, side: str) -> set[int]:
    """Every hex in the land control zone of ``side``'s land units."""
    land_nbr = state.world.map.land_neighbours
    units, ctrl = state.units, state.controller
    sides, held = _sides(state), _held_by(state, side)
    out: set[int] = set()
    for h, ids in state.occupied_hexes().items():
        if not held[ctrl[h]]:
            continue
        for i in ids:
            u = units[i]
            if u.type in ZOC_LAND_TYPES and u.carrier == NO_UNIT and sides[u.country] == side:
                out.add(h)
                out.update(land_nbr[h])
                break
    if state.forts:
        out.difference_update([h for h in state.forts if h in out and fort_blocks(state, h, side)])
    return out


def naval_zoc(state: GameState, side: str) -> set[int]:
    """Every hex in the naval control zone of ``side``'s ships."""
    zoc_nbr = state.world.map.naval_zoc_neighbours
    units = state.units
    sides = _sides(state)
    out: set[int] = set()
    for h, ids in state.occupied_hexes().items():
        for i in ids:
            u = units[i]
            if u.type in NAVAL_TYPES and sides[u.country] == side and _exerts_naval_zoc(u):
                out.add(h)
                out.update(zoc_nbr[h])
                break
    return out


def enemy_land_units_hexes(state: GameState, side: str) -> set[int]:
    """Hexes holding land units (not embarked) of ``side``'s enemies."""
    enemy = other(side)
    units = state.units
    sides = _sides(state)
    return {
        h
        for h, ids in state.occupied_hexes().items()
        if any(
            units[i].type in LAND_TYPES and units[i].carrier == NO_UNIT and sides[units[i].country] == enemy
            for i in ids
        )
    }


# --- per-hex predicates (local searches) ------------------------------------------


def in_enemy_land_zoc(state: GameState, side: str, h: int) -> bool:
    """Is hex ``h`` in the land control zone of ``side``'s enemies?  Looks at h and its
    land neighbours only."""
    enemy = other(side)
    index = state.occupied_hexes()
    units, countries, ctrl, names = state.units, state.countries, state.controller, state.world.country_names
    for x in (h, *state.world.map.land_neighbours[h]):
        ids = index.get(x)
        if not ids:
            continue
        held = ctrl[x] and countries[names[ctrl[x]]].side == enemy
        if not held:
            continue
        for i in ids:
            u = units[i]
            if u.type in ZOC_LAND_TYPES and u.carrier == NO_UNIT and countries[u.country].side == enemy:
                return not fort_blocks(state, h, enemy)
    return False


def has_enemy_land_unit(state: GameState, side: str, h: int) -> bool:
    ids = state.occupied_hexes().get(h)
    if not ids:
        return False
    enemy = other(side)
    units, countries = state.units, state.countries
    return any(
        units[i].type in LAND_TYPES and units[i].carrier == NO_UNIT and countries[units[i].country].side == enemy
        for i in ids
    )


def in_enemy_naval_zoc(state: GameState, side: str, h: int) -> bool:
    """Is sea hex ``h`` in the naval control zone of ``side``'s enemies?"""
    enemy = other(side)
    index = state.occupied_hexes()
    units, countries = state.units, state.countries
    for x in (h, *state.world.map.naval_zoc_neighbours[h]):
        for i in index.get(x, ()):
            u = units[i]
            if u.type in NAVAL_TYPES and countries[u.country].side == enemy and _exerts_naval_zoc(u):
                return True
    return False
