"""The deployment phase: placing units, merging and splitting, installations
(rulebook: "Game Sequence", "Strength Points"; supplement: "Placement", "Placing units",
"Installations and repairs").

What may be placed: a country's *free* units - its pool when it entered the war,
liberated forces, units sent home - and the units it bought whose arrival date has
come (moved from ``CountryState.transit`` when the phase begins).  Land units wait
as strength points (``free_land``, keyed by type and movement) and are merged into units
when placed; naval and air units wait as off-map units (``free_units``).  Whatever
is not placed goes back to the pool that can be bought when the phase ends.

Orders::

    place_land COUNTRY TYPE MOVE POINTS HEX    e.g. place_land Germany armor 5 8 12,40
    place UNIT HEX                             a naval or air unit (or a returned land unit)
    merge UNIT UNIT                            the second unit joins the first
    split UNIT POINTS                          POINTS leave the unit as a new unit
    fortify HEX        build_airfield HEX      repair_site HEX
"""

from __future__ import annotations

from collections import deque
from collections.abc import Container, Hashable
from functools import lru_cache
from typing import NamedTuple

import numpy as np

from engine import stacking, supply, zoc
from engine.actions import PASS, Action, IllegalAction, KindSpec, Refusal, prefixed
from engine.hexmap import HexMap, Kind
from engine.ownership import owned
from engine.phase import Phase
from engine.sides import ALLIES, AXIS, SIDES, other
from engine.state import NO_UNIT, GameState, LandKey, StepMemo, Unit, UnitIds, probe_unit
from engine.terrain import barred_terrain
from engine.units import (
    AIRFIELD_COST,
    AIRFIELD_DELAY,
    FORTIFICATION_COST,
    FORTIFICATION_DELAY,
    REPAIR_COST,
    Domain,
    UnitProfile,
    UnitType,
    max_strength,
)

PLACE_LAND = KindSpec(
    "place_land",
    ("country", "str", "int", "int", "hex"),
    help="place land strength points of the pool as a unit",
    words=("COUNTRY", "TYPE", "MOVE", "POINTS", "HEX"),
    example="place_land Germany infantry 3 4 [Berlin]",
)
PLACE = KindSpec(
    "place",
    ("unit", "hex"),
    help="place an arrived naval or air unit",
    words=("UNIT", "HEX"),
    example="place #95 [Kiel]",
)
MERGE = KindSpec(
    "merge",
    ("unit", "unit"),
    help="merge the second land unit into the first",
    words=("UNIT", "OTHER"),
    example="merge #14 #15",
)
SPLIT = KindSpec(
    "split", ("unit", "int"), help="split POINTS off a land unit", words=("UNIT", "POINTS"), example="split #14 2"
)
FORTIFY = KindSpec(
    "fortify",
    ("hex",),
    help=f"build a fortification (${FORTIFICATION_COST}B, {FORTIFICATION_DELAY} months)",
    words=("HEX",),
    example="fortify [Metz]",
)
BUILD_AIRFIELD = KindSpec(
    "build_airfield",
    ("hex",),
    help=f"build an airfield (${AIRFIELD_COST}B, {AIRFIELD_DELAY} months)",
    words=("HEX",),
    example="build_airfield 170,48",
)
REPAIR_SITE = KindSpec(
    "repair_site",
    ("hex",),
    help=f"repair a bombed city or resource hex (${REPAIR_COST}B)",
    words=("HEX",),
    example="repair_site [Essen]",
)

#: Supplement "Placing units": Polish ships may also be placed in British (home) ports.
NAVAL_GUESTS = {"Poland": ("United Kingdom",)}
#: American air units may be placed in any port of these countries out of enemy naval zones.
AIR_PORT_HOSTS = {"United States": ("United States", "United Kingdom")}


# ----------------------------------------------------------- placement areas


#: Where a state keeps its placement areas (in ``GameState.derived_tables``, so a copy
#: starts without them): country -> :class:`_Kept`.
_AREAS = "placement areas"


class _Watch:
    """What can only narrow a side's placement areas when it changes, shared by the areas
    of its countries found together.  Within a deployment step a side's own orders only
    widen its areas (a unit placed opens its hex to supply, a supply unit is a source);
    the enemy's land units could narrow them (their control zones), and so could a new
    step, date or control.  An enemy land unit arrives by a new unit (the ids its side
    drew, :func:`_new_unit`) or, rarely, from a free unit of its country's list (a
    liberated force)."""

    __slots__ = ("controller", "drawn", "enemy", "land_lists", "moment")

    def __init__(self, state: GameState, side: str) -> None:
        self.moment = (state.date, state.step)
        self.controller = bytes(state.controller)
        self.enemy = other(side) if side in SIDES else ""
        units = state.units
        self.land_lists = tuple(
            c.free_units
            for c in state.countries.values()
            if c.side == self.enemy and any(units[uid].type in zoc.LAND_TYPES for uid in c.free_units)
        )
        self.drawn = self._enemy_arrivals(state)

    def _enemy_arrivals(self, state: GameState) -> tuple[int, ...]:
        ids = state.memo.ids
        drawn = ids.drawn.get(self.enemy, 0) if ids is not None else 0
        return (drawn, *map(len, self.land_lists))

    def stands(self, state: GameState) -> bool:
        """Nothing that narrows the areas happened since they were found."""
        return (
            self.moment == (state.date, state.step)
            and state.controller == self.controller
            and self.drawn == self._enemy_arrivals(state)
        )


class _Kept(NamedTuple):
    """A placement area found on a state: the supply stamp it was found under, and the
    watch on what could narrow it since."""

    area: frozenset[int]
    stamp: Hashable
    watch: _Watch


def home_area(state: GameState, country: str) -> frozenset[int]:
    """Land hexes where ``country`` may place land and air units as the state stands
    (supplement "Placement"): searched again when anything a supply map reads changed.
    The areas of the side's other active countries are kept from the same search: what
    they hold stays theirs as the side's placements go on (:func:`in_home_area`)."""
    kept: dict[str, _Kept] = state.derived_tables.setdefault(_AREAS, (None, {}))[1]
    stamp = supply.side_stamp(state)
    entry = kept.get(country)
    if entry is not None and entry.stamp == stamp:
        return entry.area
    side = state.countries[country].side
    watch = _Watch(state, side)
    for name, c in state.countries.items():
        if name == country or (c.side == side and c.active):
            kept[name] = _Kept(_compute_area(state, name), stamp, watch)
    return kept[country].area


def in_home_area(state: GameState, country: str, h: int) -> bool:
    """``h in home_area(state, country)``, without searching again where an area found
    earlier in the step already holds ``h`` and nothing narrowed it since (:class:`_Watch`):
    a long list of orders, each placed where the area was, needs one search per side, not
    one after each unit; nor for a hex that no area of the country can hold (a port
    abroad a ship is offered).  Only the deployment step asks for areas, and in it units
    only arrive."""
    entry = state.derived_tables.get(_AREAS, (None, {}))[1].get(country)
    if entry is not None and h in entry.area and entry.watch.stands(state):
        return True
    return _may_hold(state, country, h) and h in home_area(state, country)


def _may_hold(state: GameState, country: str, h: int) -> bool:
    """Is ``h`` among the hexes any placement area of ``country`` is made of now: its
    territory, and the border hexes of its first-turn areas (:func:`_compute_area`)?"""
    hexmap = state.world.map
    if h in _territory(hexmap, country):
        return True
    return any(
        when == state.date and h in hexmap.temp_borders.get(name, frozenset())
        for name, when in state.countries[country].flags.placements.items()
    )


@lru_cache(maxsize=64)
def _territory(hexmap: HexMap, country: str) -> frozenset[int]:
    return frozenset(hexmap.hexes_of_territory.get(country, ()))


class _AreaOf:
    """A country's placement area as a container: membership by :func:`in_home_area`."""

    __slots__ = ("country", "state")

    def __init__(self, state: GameState, country: str) -> None:
        self.state, self.country = state, country

    def __contains__(self, h: object) -> bool:
        return isinstance(h, int) and in_home_area(self.state, self.country, h)


def _compute_area(state: GameState, country: str) -> frozenset[int]:
    c = state.countries[country]
    side = c.side
    hexmap = state.world.map
    controller = state.controller
    # The home hexes the side controls, then those in supply, as arrays (in the
    # territory's order, so the set is built as it always was).
    ours = np.array([False, *(state.countries[n].side == side for n in state.world.country_names[1:])])
    territory = np.asarray(hexmap.hexes_of_territory.get(country, ()), dtype=np.int64)
    home = territory[ours[np.frombuffer(controller, dtype=np.uint8)[territory]]]
    area = set(home[supply.supplied_hexes(state, country).mask[home]].tolist())
    if c.entered == state.date:
        area |= _reach_of_supply_units(state, country, set(home.tolist()))
    # Supplement "Placing units": first-turn areas (Japan in China 1939, the Soviet borders).
    own = state.world.country_no[country]
    for name, when in c.flags.placements.items():
        if when == state.date:
            border = hexmap.temp_borders.get(name, frozenset())
            area |= {h for h in border if controller[h] == own}
    return frozenset(area)


def _reach_of_supply_units(state: GameState, country: str, home: set[int]) -> set[int]:
    """On a country's turn of entry its supply units may stand out of supply, and home
    hexes connected to them count as in supply (supplement "Placing units")."""
    starts = [u.hex for u in state.units_of(country) if u.type == UnitType.SUPPLY and u.hex in home]
    seen = set(starts)
    queue = deque(starts)
    nbr = state.world.map.land_neighbours
    while queue:
        h = queue.popleft()
        for o in nbr[h]:
            if o in home and o not in seen:
                seen.add(o)
                queue.append(o)
    return seen


def land_refusal(state: GameState, country: str, unit_type: str, h: int, units: list[Unit]) -> str:
    """Why a land unit of ``country`` may not be placed in ``h`` ('' if it may)."""
    hexmap = state.world.map
    where = hexmap.grid.label(h)
    if not 0 <= h < hexmap.size or hexmap.kind[h] == Kind.SEA:
        return Refusal("placement.no-land", f"hex {where} has no land")
    supply_exception = unit_type == UnitType.SUPPLY and state.countries[country].entered == state.date
    if not (supply_exception and _own_home(state, country, h)) and not in_home_area(state, country, h):
        return Refusal(
            "placement.area",
            f"{country} may not place units in hex {where}: not a home hex its side controls and supplies",
        )
    if barred := barred_terrain(hexmap, unit_type, h):
        return Refusal("terrain.armor", f"armor may not be placed in {barred} hex {where}")
    if not stacking.can_stack_land(state, h, units):
        why = f"hex {where} has no room for another land unit (stacking limit: {stacking.LAND_LIMIT_TEXT})"
        return Refusal("stacking.land", why)
    return ""


def _own_home(state: GameState, country: str, h: int) -> bool:
    hexmap = state.world.map
    return (
        hexmap.country_of[h] == country
        and not hexmap.is_colony(h)
        and state.side_controlling(h) == state.countries[country].side
    )


def unit_refusal(state: GameState, u: Unit, h: int) -> str:
    """Why off-map unit ``u`` may not be placed in ``h`` ('' if it may)."""
    if not 0 <= h < state.world.map.size:
        return Refusal("hex.off-map", "there is no such hex")
    if u.is_land:
        why = land_refusal(state, u.country, u.type, h, [u])
        return prefixed(f"{u.label()}: ", why) if why else ""
    problem = _unit_problem(state, u, h, _AreaOf(state, u.country))
    if not problem:
        return ""
    where = state.world.map.grid.label(h)
    if problem == "port":
        return Refusal("placement.port", f"{u.label()} must be placed in a port its side holds, and {where} is none")
    if problem == "home_port":
        return Refusal(
            "placement.home-port", f"{u.label()} may not be placed in {where}: not a home port of {u.country}"
        )
    if problem == "full":
        return Refusal("stacking.naval", f"{u.label()} may not be placed in {where}: the hex is full")
    if problem == "area":
        return Refusal(
            "placement.area", f"{u.label()} may not be placed in {where}: not a home hex its side controls and supplies"
        )
    return Refusal("stacking.air", f"{u.label()} may not be placed in {where}: no free airbase place")


def _unit_problem(state: GameState, u: Unit, h: int, area: Container[int]) -> str:
    """'' if naval or air unit ``u`` may be placed in ``h``, else a short code (kept cheap:
    legal() asks it for many hexes)."""
    hexmap = state.world.map
    side = state.countries[u.country].side
    if u.is_naval:
        if not stacking.friendly_port(state, h, side):
            return "port"
        guests = NAVAL_GUESTS.get(u.country, ())  # first, as the ports above
        if not (hexmap.country_of[h] in guests and not hexmap.is_colony(h)) and h not in area:
            return "home_port"
        return "" if stacking.naval_room(state, h, side) >= 1 else "full"
    # The ports first: a port abroad is never in the area, and asking the area for a hex
    # outside it searches it again.
    hosted = (
        u.country in AIR_PORT_HOSTS
        and stacking.friendly_port(state, h, side)
        and state.controller_of(h) in AIR_PORT_HOSTS[u.country]
        and not zoc.in_enemy_naval_zoc(state, side, h)
    )
    if not hosted and h not in area:
        return "area"
    return "" if stacking.air_room(state, h, side) >= 1 else "airbase"


# --------------------------------------------------------------------- phase


def _country_of_side(state: GameState, side: str, name: str) -> str:
    c = state.countries.get(name)
    if c is None:
        return Refusal("country.unknown", f"there is no country named {name}")
    if c.side != side:
        return Refusal("country.not-yours", f"{name} is not on the {side}' side")
    if not c.active:
        if not c.at_war:
            return Refusal("country.not-at-war", f"{name} is not at war")
        return Refusal("country.conquered", f"{name} is conquered")
    return ""


def _owned_unit(state: GameState, side: str, uid: int) -> Unit:
    u = owned(state, side, uid, state.units.get(uid))
    if isinstance(u, Refusal):
        raise IllegalAction(u)
    return u


def _land_on_map(state: GameState, side: str, uid: int) -> Unit:
    u = _owned_unit(state, side, uid)
    if not u.is_land or not u.on_map or u.carrier != NO_UNIT:
        raise IllegalAction(f"{u.label()} is not a land unit on the map (and not embarked)", rule="unit.not-on-map")
    return u


def _payer(state: GameState, side: str, h: int, cost: int, what: str) -> str:
    """The country that builds in ``h`` (its controller), or raise why it cannot."""
    hexmap = state.world.map
    if not 0 <= h < hexmap.size or hexmap.kind[h] == Kind.SEA:
        raise IllegalAction(f"{what} needs a land hex", rule="build.no-land")
    where = hexmap.grid.label(h)
    owner = state.controller_of(h)
    if not owner or state.countries[owner].side != side:
        raise IllegalAction(f"your side does not control hex {where}", rule="build.not-controlled")
    c = state.countries[owner]
    if not c.active:
        raise IllegalAction(
            f"{owner}, which holds hex {where}, cannot build: it is not an active country at war",
            rule="country.not-active",
        )
    if c.money < cost:
        raise IllegalAction(f"{owner} has ${c.money}B, and {what} in hex {where} costs ${cost}B", rule="money.short")
    return owner


def _new_unit(state: GameState, side: str, country: str, profile: UnitProfile) -> Unit:
    """A new unit whose id does not depend on the other side's orders.

    Each side's list is checked on its own copy of the state, and later orders of a
    list name units its earlier orders created (merge, split); the two sides therefore
    draw ids from interleaved sequences (Axis even offsets, Allies odd ones) from the
    counter at the start of the phase."""
    if state.memo.ids is None:
        state.memo.ids = UnitIds(state.next_unit_id, {AXIS: 0, ALLIES: 0})
    ids = state.memo.ids
    n = ids.drawn[side]
    ids.drawn[side] = n + 1
    state.next_unit_id = ids.base + 2 * n + SIDES.index(side)
    u = state.new_unit(country, profile)
    state.next_unit_id = ids.base + 2 * max(ids.drawn[AXIS], ids.drawn[ALLIES])
    return u


class Deployment(Phase):
    name = "deployment"
    kind = "simultaneous"
    lists_in_turn = True
    orders = (PLACE_LAND, PLACE, MERGE, SPLIT, FORTIFY, BUILD_AIRFIELD, REPAIR_SITE)
    prompt = "place new units, merge or split units, build fortifications and airfields"

    def enter(self, state: GameState) -> None:
        state.memo = StepMemo()
        # Construction started in earlier deployment phases advances by one month.
        for sites in (state.forts, state.airfields):
            for h in sorted(sites):
                if sites[h] > 0:
                    sites[h] -= 1
        for name in sorted(state.countries):
            c = state.countries[name]
            due = [(d, uid) for d, uid in c.transit if d <= state.date]
            if not due:
                continue
            c.transit = [(d, uid) for d, uid in c.transit if d > state.date]
            for _, uid in due:
                u = state.units[uid]
                if u.is_land:
                    # A bought land purchase travels as one off-map unit holding the points.
                    key = LandKey(u.type, u.move)
                    c.free_land[key] = c.free_land.get(key, 0) + u.strength
                    state.destroy(u)
                else:
                    c.free_units.append(uid)

    def needed(self, state: GameState, side: str) -> bool:
        return any(c.side == side and c.active for c in state.countries.values())

    def leave(self, state: GameState) -> None:
        state.memo = StepMemo()
        # Supplement "Countries and sides at the start": what is not placed goes back to the pool.
        for name in sorted(state.countries):
            c = state.countries[name]
            for key, n in sorted(c.free_land.items()):
                if n:
                    c.pool_land[key] = c.pool_land.get(key, 0) + n
            c.free_land = {}
            for uid in c.free_units:
                u = state.units[uid]
                if u.is_land:
                    key = LandKey(u.type, u.move)
                    c.pool_land[key] = c.pool_land.get(key, 0) + max(u.strength, 1 if u.type is UnitType.SUPPLY else 0)
                else:
                    c.pool_units.append(u.profile())
                state.destroy(u)
            c.free_units = []

    # --- legal actions ------------------------------------------------------------

    def legal(self, state: GameState, side: str) -> list[Action]:
        out = [PASS]
        year = state.date // 12
        countries = [n for n in sorted(state.countries) if not _country_of_side(state, side, n)]
        for name in countries:
            c = state.countries[name]
            area = sorted(home_area(state, name))
            for key, n in sorted(c.free_land.items()):
                t, move = key.type.value, key.move
                top = 1 if key.type is UnitType.SUPPLY else min(n, max_strength(name, key.type, year, move))
                for h in area:
                    probe = probe_unit(name, key.type, 1, move)
                    if land_refusal(state, name, t, h, [probe]):
                        continue
                    out.extend(Action("place_land", (name, t, move, p, h)) for p in range(1, min(top, n) + 1))
            # Where a unit may go depends only on its country, domain and type: test each
            # kind of unit once, not every unit (a fleet has dozens of ships).
            allowed: dict[str, list[int]] = {}
            ports = state.world.map.port_hexes
            for uid in c.free_units:
                u = state.units[uid]
                if u.type not in allowed:
                    if u.is_land:
                        ok = [h for h in area if not unit_refusal(state, u, h)]
                    else:
                        home = home_area(state, name)
                        candidates = ports if u.is_naval else sorted(home.union(ports))
                        ok = [h for h in candidates if not _unit_problem(state, u, h, home)]
                    allowed[u.type] = sorted(ok)
                out.extend(Action("place", (uid, h)) for h in allowed[u.type])
        out.extend(self._legal_merges(state, side, year))
        out.extend(self._legal_sites(state, side))
        return sorted(out, key=lambda a: (a.kind, a.args))

    def _legal_merges(self, state: GameState, side: str, year: int) -> list[Action]:
        out: list[Action] = []
        for u in sorted(state.side_units(side), key=lambda x: x.id):
            if not u.is_land or u.carrier != NO_UNIT or not state.countries[u.country].active:
                continue
            out.extend(Action("split", (u.id, p)) for p in range(1, u.strength) if not self._split_refusal(state, u, p))
            for o in state.units_at(u.hex):
                if o.id != u.id and not self._merge_refusal(state, u, o, year):
                    out.append(Action("merge", (u.id, o.id)))
        return out

    def _legal_sites(self, state: GameState, side: str) -> list[Action]:
        out: list[Action] = []
        hexmap = state.world.map
        no_of = state.world.country_no
        payers = {
            no_of[n]: c.money
            for n, c in state.countries.items()
            if c.side == side and c.active and c.money >= REPAIR_COST
        }
        if not payers:
            return out
        controller, kinds = state.controller, hexmap.kind
        for h in range(hexmap.size):
            money = payers.get(controller[h])
            if money is None or kinds[h] == Kind.SEA:
                continue
            if money >= FORTIFICATION_COST and h not in state.forts:
                out.append(Action("fortify", (h,)))
            if money >= AIRFIELD_COST and h not in state.airfields:
                out.append(Action("build_airfield", (h,)))
            if (h in state.bombed or h in state.strategic) and h not in state.atomized:
                out.append(Action("repair_site", (h,)))
        return out

    # --- checks ---------------------------------------------------------------------

    def check(self, state: GameState, side: str, action: Action) -> None:
        k, a = action.kind, action.args
        if k == "place_land":
            self._check_place_land(state, side, str(a[0]), str(a[1]), int(a[2]), int(a[3]), int(a[4]))
        elif k == "place":
            u = _owned_unit(state, side, int(a[0]))
            if u.id not in state.countries[u.country].free_units:
                raise IllegalAction(f"{u.label()} is not waiting to be placed", rule="placement.not-waiting")
            why = _country_of_side(state, side, u.country) or unit_refusal(state, u, int(a[1]))
            if why:
                raise IllegalAction(why)
        elif k == "merge":
            u, o = _land_on_map(state, side, int(a[0])), _land_on_map(state, side, int(a[1]))
            why = self._merge_refusal(state, u, o, state.date // 12)
            if why:
                raise IllegalAction(why)
        elif k == "split":
            u = _land_on_map(state, side, int(a[0]))
            why = self._split_refusal(state, u, int(a[1]))
            if why:
                raise IllegalAction(why)
        elif k == "fortify":
            h = int(a[0])
            _payer(state, side, h, FORTIFICATION_COST, "a fortification")
            if h in state.forts:
                raise IllegalAction(
                    f"hex {state.world.map.grid.label(h)} already has a fortification",
                    rule="build.fortification-exists",
                )
        elif k == "build_airfield":
            h = int(a[0])
            _payer(state, side, h, AIRFIELD_COST, "an airfield")
            if h in state.airfields:
                raise IllegalAction(
                    f"hex {state.world.map.grid.label(h)} already has an airfield", rule="build.airfield-exists"
                )
        elif k == "repair_site":
            h = int(a[0])
            _payer(state, side, h, REPAIR_COST, "a repair")
            where = state.world.map.grid.label(h)
            if h in state.atomized:
                raise IllegalAction(
                    f"hex {where} was destroyed by an atomic bomb and cannot be repaired", rule="repair.atomic"
                )
            if h not in state.bombed and h not in state.strategic:
                raise IllegalAction(f"hex {where} is not damaged by bombing", rule="repair.not-damaged")
        else:
            super().check(state, side, action)

    def _check_place_land(self, state: GameState, side: str, name: str, t: str, move: int, points: int, h: int) -> None:
        why = _country_of_side(state, side, name)
        if why:
            raise IllegalAction(why)
        try:
            unit_type = UnitType(t)
        except ValueError:
            raise IllegalAction(f"'{t}' is not a unit type", rule="unit.unknown-type") from None
        if unit_type.domain is not Domain.LAND:
            raise IllegalAction(
                f"{t} is not a land type; place naval and air units with 'place UNIT HEX'",
                rule="placement.not-land-type",
            )
        have = state.countries[name].free_land.get(LandKey(unit_type, move), 0)
        what = f"{t} points with movement {move}"
        if points < 1:
            raise IllegalAction("place at least one strength point", rule="placement.points")
        if points > have:
            raise IllegalAction(f"{name} has {have} {what} to place, not {points}", rule="placement.pool")
        if unit_type is UnitType.SUPPLY:
            if points != 1:
                raise IllegalAction("supply units are placed one at a time: give POINTS 1", rule="placement.supply-one")
        else:
            top = max_strength(name, unit_type, state.date // 12, move)
            if top == 0:
                raise IllegalAction(f"{name} has no {t} units", rule="placement.pool")
            if points > top:
                raise IllegalAction(
                    f"a {name} {t} unit holds at most {top} strength points, not {points}", rule="strength.maximum"
                )
        if not 0 <= h < state.world.map.size:
            raise IllegalAction("there is no such hex", rule="hex.off-map")
        probe = probe_unit(name, UnitType(t), points, move)
        why = land_refusal(state, name, t, h, [probe])
        if why:
            raise IllegalAction(why)

    def _merge_refusal(self, state: GameState, u: Unit, o: Unit, year: int) -> str:
        if u.id == o.id:
            return Refusal("merge.self", f"{u.label()} cannot merge with itself")
        if u.hex != o.hex or (u.country, u.type, u.move) != (o.country, o.type, o.move):
            return Refusal(
                "merge.mismatch",
                f"{u.label()} and {o.label()} must be in the same hex, of the same nationality, type and movement",
            )
        if u.type == UnitType.SUPPLY:
            return Refusal("merge.supply", "supply units do not merge")
        top = max_strength(u.country, u.type, year, u.move)
        if u.strength + o.strength > top:
            return Refusal(
                "strength.maximum",
                f"{u.label()} and {o.label()} together exceed the largest unit of {top} strength points",
            )
        return ""

    def _split_refusal(self, state: GameState, u: Unit, points: int) -> str:
        if not 1 <= points < u.strength:
            return Refusal(
                "split.points", f"{u.label()} can split off 1 to {u.strength - 1} strength points, not {points}"
            )
        part = probe_unit(u.country, u.type, points, u.move)
        if not stacking.can_stack_land(state, u.hex, [u, part]):
            return Refusal(
                "stacking.land",
                f"hex {state.world.map.grid.label(u.hex)} has no room for another land unit "
                f"(stacking limit: {stacking.LAND_LIMIT_TEXT})",
            )
        return ""

    # --- applying ---------------------------------------------------------------

    def apply(self, state: GameState, side: str, action: Action) -> None:
        k, a = action.kind, action.args
        if k == "place_land":
            name, t, move, points, h = str(a[0]), str(a[1]), int(a[2]), int(a[3]), int(a[4])
            c = state.countries[name]
            key = LandKey(UnitType(t), move)
            c.free_land[key] -= points
            if not c.free_land[key]:
                del c.free_land[key]
            strength = 0 if t == UnitType.SUPPLY else points
            u = _new_unit(state, side, name, UnitProfile(UnitType(t), strength=strength, move=move))
            state.place_alone(u, h)  # a new unit
        elif k == "place":
            u = state.units[int(a[0])]
            state.countries[u.country].free_units.remove(u.id)
            u.in_port = u.is_naval
            state.place_alone(u, int(a[1]))  # an arrival: it carries nothing
        elif k == "merge":
            u, o = state.units[int(a[0])], state.units[int(a[1])]
            u.strength += o.strength
            u.unsupplied = max(u.unsupplied, o.unsupplied)
            u.supplied = u.supplied and o.supplied
            state.destroy(o)
        elif k == "split":
            u, points = state.units[int(a[0])], int(a[1])
            part = _new_unit(state, side, u.country, UnitProfile(u.type, strength=points, move=u.move))
            for f in ("supplied", "unsupplied", "moved", "attacked", "origin"):
                setattr(part, f, getattr(u, f))
            u.strength -= points
            state.place(part, u.hex)
        elif k in ("fortify", "build_airfield"):
            h = int(a[0])
            owner = state.controller_of(h)
            cost, delay, sites, owners = (
                (FORTIFICATION_COST, FORTIFICATION_DELAY, state.forts, state.fort_owner)
                if k == "fortify"
                else (AIRFIELD_COST, AIRFIELD_DELAY, state.airfields, state.airfield_owner)
            )
            state.countries[owner].money -= cost
            sites[h] = delay
            owners[h] = owner
        elif k == "repair_site":
            h = int(a[0])
            state.countries[state.controller_of(h)].money -= REPAIR_COST
            state.bombed.discard(h)
            state.strategic.discard(h)

    def apply_simultaneous(self, state: GameState, orders: dict[str, list[Action]]) -> None:
        # The sides place in hexes they control and spend their own countries' money,
        # so the order between them does not matter.
        for side in SIDES:
            for action in orders.get(side, ()):
                self.apply(state, side, action)
