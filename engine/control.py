"""Hex control (supplement: "Control zones and hex control").

* :func:`take_control` passes one hex to a country; the other side's fortifications in
  it, built or under construction, and its airfields under construction are destroyed;
  its built airfields pass to the new holder (rulebook "Terrain").
* :func:`china_holds` gives China back every hex of its land where no enemy land unit
  stands (rulebook "Chinese Exceptions").
* :func:`resolve_pockets` flips pockets: a connected group of one side's land hexes
  cut off from that side - every land hex next to it is held by the other side -
  passes to the encircling side, unless it holds a city, a resource hex, a
  fortification, an airbase or a land unit of its side.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Iterator
from typing import cast

import numpy as np

from engine import lost_bases
from engine.hexgrid import NO_HEX
from engine.hexmap import HexMap
from engine.sides import AXIS, NEUTRAL, SIDES, other
from engine.state import NO_UNIT, GameState
from engine.units import Domain, UnitType

_SIDE_CODE = {AXIS: 1, "allies": 2}

#: Rulebook "Chinese Exceptions": the country that controls every hex of its land in which
#: there is no enemy land unit, conquered or not.
CHINA = "China"


def _installation_side(state: GameState, owner: str | None, old_controller: str) -> str:
    who = owner or old_controller
    return state.countries[who].side if who else ""


def take_control(state: GameState, h: int, country: str) -> None:
    """``country`` takes control of hex ``h``."""
    old = state.controller_of(h)
    if old == country:
        return
    state.set_controller(h, country)
    side = state.countries[country].side
    if old and state.countries[old].side in SIDES and state.countries[old].side != side:
        lost_bases.evict(state, h, state.countries[old].side)
    if h in state.forts and _installation_side(state, state.fort_owner.get(h), old) != side:
        del state.forts[h]
        state.fort_owner.pop(h, None)
    if h in state.airfields and _installation_side(state, state.airfield_owner.get(h), old) != side:
        # Terrain "Airfield under construction": only an unfinished airfield is destroyed;
        # a built one is taken over as it stands.
        if state.airfields[h]:
            del state.airfields[h]
            state.airfield_owner.pop(h, None)
        else:
            state.airfield_owner[h] = country


def pass_to_side(state: GameState, h: int, country: str) -> bool:
    """A land unit of ``country`` moves through or retreats into ``h``: the hex passes to
    ``country`` unless a country of its side already holds it (an ally's hexes stay the
    ally's).  Returns whether control changed."""
    if state.side_controlling(h) == state.countries[country].side:
        return False
    take_control(state, h, country)
    return True


def china_holds(state: GameState) -> list[int]:
    """Rulebook "Chinese Exceptions": "China controls every hex in China unless that hex is
    occupied by an Axis land unit", whether China is conquered or not; after an atomic
    surrender China is out of the war and the rule ends.  Every hex of China's land held by
    another country passes back to China unless a land unit of China's enemies stands
    there (embarked units are aboard their carrier, not in the hex).  Returns the hexes."""
    c = state.countries.get(CHINA)
    if c is None or not c.at_war or c.side == NEUTRAL or c.never_liberate:
        return []
    own = state.world.country_no[CHINA]
    ctrl = np.frombuffer(state.controller, dtype=np.uint8)
    # Called after every order and step: only the hexes China does not hold are looked at.
    held = _hexes_of(state.world.map, CHINA)
    held = held[ctrl[held] != own].tolist()
    if not held:
        return []
    occupied, units, countries, side = state.occupied_hexes(), state.units, state.countries, c.side
    taken = []
    for h in held:
        for i in occupied.get(h, ()):
            u = units[i]
            if u.carrier == NO_UNIT and u.type in _LAND_TYPES and countries[u.country].side not in (side, NEUTRAL):
                break
        else:
            take_control(state, h, CHINA)
            taken.append(h)
    return taken


@functools.lru_cache(maxsize=8)
def _hexes_of(hexmap: HexMap, territory: str) -> np.ndarray:
    """A territory's hexes as an array, kept per map (made from the tuple on every call, it
    was a third of :func:`china_holds`)."""
    hexes = np.asarray(hexmap.hexes_of_territory.get(territory, ()), dtype=np.int64)
    hexes.flags.writeable = False
    return hexes


def _side_of_hexes(state: GameState) -> bytes:
    """Side code (0 none/neutral, 1 axis, 2 allies) of every hex, plus a trailing 0.

    The controller bytes go through a translation table (``bytes.translate``, one pass
    in C): several times faster than indexing a NumPy table with them, and this runs
    twice after every combat."""
    table = bytearray(256)
    for i, name in enumerate(state.world.country_names):
        if name:
            table[i] = _SIDE_CODE.get(state.countries[name].side, 0)
    return bytes(state.controller).translate(table) + b"\0"


#: the land unit types (``Unit.is_land`` is a property: slow in a loop over every unit)
_LAND_TYPES = frozenset(t for t in UnitType if t.domain is Domain.LAND)


@functools.lru_cache(maxsize=8)
def _fixed_anchors(hexmap: HexMap) -> frozenset[int]:
    """The anchors a map fixes for the whole game: its cities and resource hexes."""
    return frozenset(hexmap.city_at) | hexmap.resources


def _anchors(state: GameState) -> dict[str, set[int]]:
    """Hexes that keep a pocket of each side from flipping, besides the map's own
    (:func:`_fixed_anchors`, asked apart: copying them cost more than the rest), in one
    pass over the units for both sides."""
    installations = {h for h, m in state.forts.items() if m == 0}
    installations.update(h for h, m in state.airfields.items() if m == 0)
    out: dict[str, set[int]] = {side: set(installations) for side in SIDES}
    side_of = {name: c.side for name, c in state.countries.items()}
    for u in state.units.values():
        if u.hex != NO_HEX and u.carrier == NO_UNIT and u.type in _LAND_TYPES:
            mine = out.get(side_of[u.country])
            if mine is not None:
                mine.add(u.hex)
    return out


#: Where a state keeps the inputs of its last pockets check that flipped nothing: the
#: hexes' side codes and each side's anchors (see :func:`resolve_pockets`).
_CALM = "pockets: the inputs of the last check that flipped nothing"


def resolve_pockets(state: GameState) -> list[int]:
    """Flip every pocket; returns the hexes that changed control, sorted.

    A check that flipped nothing found every group with a front anchored.  Its inputs are
    kept on the state, and the next check searches only from its side's hexes whose code
    changed since, or lost an anchor, or border a hex whose code changed: a group cut off
    now that holds none of them had the same hexes, neighbours and anchors then, and so
    was not cut off (see :func:`_pockets_near`).  This runs after every combat and every
    movement, and a whole check searched from every hex of the front."""
    hexmap = state.world.map
    calm = state.derived_tables.pop(_CALM, None)
    changed: list[int] = []
    side_codes = b""
    anchors_of: dict[str, set[int]] = {}
    for side in SIDES:
        code, enemy_code = _SIDE_CODE[side], _SIDE_CODE[other(side)]
        if not side_codes or changed:  # the first side's pockets flipped change the codes
            side_codes = _side_of_hexes(state)  # indexed hex by hex below: bytes read faster than an array
        if not anchors_of or changed:  # the first side's pockets flipped may have taken installations
            anchors_of = _anchors(state)
        anchors = anchors_of[side]
        if calm is None:
            pockets = _pockets(hexmap, side_codes, code, enemy_code, anchors)
        else:
            calm_codes, calm_anchors = calm
            pockets = _pockets_near(
                hexmap, side_codes, code, enemy_code, anchors, cast(bytes, calm_codes), calm_anchors[side]
            )
        for group, border in pockets:
            winner = _encircler(state, border)
            for h in group:
                take_control(state, h, winner)
            changed.extend(group)
    if not changed:
        state.derived_tables[_CALM] = (side_codes, anchors_of)
    return sorted(changed)


def _front(hexmap: HexMap, side_codes: bytes, code: int, enemy_code: int, among: np.ndarray) -> np.ndarray:
    """The hexes of ``among`` (hexes of side ``code``) with a land neighbour of the enemy."""
    table = hexmap.land_table
    sides_now = np.frombuffer(side_codes, dtype=np.uint8)
    # The six direction columns OR-ed: several times faster than ``any(axis=1)`` over rows of six.
    enemy_near = sides_now.take(table.take(among, axis=0)) == enemy_code
    front: np.ndarray = among[functools.reduce(operator.or_, enemy_near.T)]
    return front


def _pockets(
    hexmap: HexMap, side_codes: bytes, code: int, enemy_code: int, anchors: set[int]
) -> list[tuple[list[int], list[int]]]:
    """Every pocket of side ``code`` (its hexes, its border), searched from every hex of the
    side's front in turn: a pocket is found from its lowest front hex."""
    # Only the side's own hexes are looked at (a small part of the map).
    mine = np.flatnonzero(np.frombuffer(side_codes, dtype=np.uint8)[: hexmap.size] == code)
    seeds = _front(hexmap, side_codes, code, enemy_code, mine).tolist()
    return list(_unanchored(hexmap, seeds, side_codes, code, enemy_code, anchors))


def _unanchored(
    hexmap: HexMap, seeds: list[int], side_codes: bytes, code: int, enemy_code: int, anchors: set[int]
) -> Iterator[tuple[list[int], list[int]]]:
    """The groups of side ``code`` around ``seeds`` (each searched once, from its first
    seed) that are not anchored, with their borders."""
    fixed, land_nbr = _fixed_anchors(hexmap), hexmap.land_neighbours
    seen: set[int] = set()
    for seed in seeds:
        if seed in seen:
            continue
        group, border, anchored = _component(seed, side_codes, code, enemy_code, land_nbr, fixed, anchors, seen)
        if not anchored:
            yield group, border


def _pockets_near(
    hexmap: HexMap,
    side_codes: bytes,
    code: int,
    enemy_code: int,
    anchors: set[int],
    calm_codes: bytes,
    calm_anchors: set[int],
) -> list[tuple[list[int], list[int]]]:
    """What :func:`_pockets` finds, when every group with a front was anchored under
    ``calm_codes`` and ``calm_anchors``: the searches start only from the side's hexes
    that changed code or lost an anchor since, or border a hex that changed code (found
    among the changed hexes' neighbours: the land steps are symmetric).  A
    pocket found is searched again from its lowest front hex, so that its hexes come in
    the order (and the pockets in the turn) the search from every front hex gives them;
    a group with no front is no pocket (no front hex starts a search for it)."""
    moved = np.flatnonzero(np.frombuffer(side_codes, dtype=np.uint8) != np.frombuffer(calm_codes, dtype=np.uint8))
    fixed, land_nbr = _fixed_anchors(hexmap), hexmap.land_neighbours
    # The hexes that changed and their land neighbours (the land steps are symmetric: a
    # hex next to a changed one is among the changed one's neighbours), and the anchors lost.
    near = {*moved.tolist(), *(calm_anchors - anchors)}
    for h in moved.tolist():
        near.update(land_nbr[h])
    starts = sorted(h for h in near if side_codes[h] == code)
    found = []
    for group, _ in _unanchored(hexmap, starts, side_codes, code, enemy_code, anchors):
        front = _front(hexmap, side_codes, code, enemy_code, np.asarray(group, dtype=np.int64))
        if front.size:
            found.append(int(front.min()))
    out = []
    for first in sorted(found):
        group, border, _ = _component(first, side_codes, code, enemy_code, land_nbr, fixed, anchors, set())
        out.append((group, border))
    return out


def _component(
    seed: int,
    sides_now: bytes,
    code: int,
    enemy_code: int,
    land_nbr: tuple[tuple[int, ...], ...],
    fixed: frozenset[int],
    anchors: set[int],
    seen: set[int],
) -> tuple[list[int], list[int], bool]:
    """The connected hexes of side ``code`` around ``seed``, the enemy hexes bordering
    them, and whether the group is anchored (an anchor, fixed by the map or not, or a
    border with anyone but the enemy).  The search stops as soon as the group is known
    to be anchored; what it visited stays in ``seen``, and a later search that reaches a
    hex in ``seen`` outside its own group has reached that anchored group."""
    group = [seed]
    members = {seed}
    seen.add(seed)
    border: set[int] = set()
    stack = [seed]
    while stack:
        h = stack.pop()
        if h in fixed or h in anchors:
            return group, [], True
        for o in land_nbr[h]:
            s = sides_now[o]
            if s == code:
                if o in members:
                    continue
                if o in seen:  # reached a group an earlier search found anchored
                    return group, [], True
                seen.add(o)
                members.add(o)
                group.append(o)
                stack.append(o)
            elif s == enemy_code:
                border.add(o)
            else:
                return group, [], True
    return group, sorted(border), False


def _encircler(state: GameState, border: list[int]) -> str:
    """The enemy country holding most of a pocket's border (ties: the first by name)."""
    counts: dict[str, int] = {}
    for h in border:
        c = state.controller_of(h)
        counts[c] = counts.get(c, 0) + 1
    return min(counts, key=lambda c: (-counts[c], c))
