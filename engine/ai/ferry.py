"""Ferries: land units standing on land without a front sail to land that has one.

New land units are placed in their country's home territory (supplement "Placement"):
Japan's in the home islands, the United Kingdom's in Britain, the United States' in
North America.  Where no enemy stands on that land, they can reach a front only by
sea.  A transport ship carries one land unit; a unit boards only in a friendly port
and lands in its ship's hex or one next to it that its side controls (rulebook "Types
of Units", "Naval Units"; :mod:`engine.movement`).  So, month after month:

* **Stranded land** is our land from which no path over our land leads to the front
  (:attr:`engine.ai.picture.Picture.to_front` does not reach it).  Its capital and
  major ports keep a garrison of :data:`GARRISON` points (a landing on an empty city
  takes it at once); every other unit there is *spare*.
* **Ferry ports** (:func:`ports`): our ports on stranded land where empty transports
  lie and spare units can walk to.  The need map asks for :data:`SLOT_STRENGTH` per
  transport there (two at most: a hex stacks two land units), so movement marches
  spare units to them and deployment places new units in them.
* **Sailing** (:func:`sail`, first movement, after the landings have had their pick):
  each empty transport in a ferry port takes a spare unit standing there and sails for
  a *landing place*: a coastal hex of ours, connected by our land to the front and at
  most :data:`NEAR_FRONT` hexes from it, where the unit's country can trace supply.  A
  voyage's cost is the sea hexes sailed plus :data:`LAND_WEIGHT` per land hex the unit
  must then march to the front (a ship sails 44 hexes a movement, a unit walks 3 to 5);
  the unit lands where that cost is least.  A landing place beyond one movement is
  sailed for over the months, the unit staying aboard (:func:`voyage_costs`).  With the
  ``theatres`` switch a place near a thinly held enemy city costs less
  (:mod:`engine.ai.theatres`), so a shipment may sail the longer way to it.
* **Coming back** (:func:`home`, second movement): loaded transports sail on; while
  spare units stand on stranded land, an empty transport with nothing to carry where it
  lies sails for a port of that land (two a port; with ``ferry_flow`` a port's transports
  beyond two sail for one with fewer), over several months if it is far;
  otherwise empty transports at sea make for a port that stages landings or ships
  troops, else for the nearest friendly port.
* **Shuttling** (:func:`shuttle`, both movements, before the landings; Japan's
  transports, with the ``shuttle`` switch of :mod:`engine.ai.style`): a transport is
  not limited to one voyage a movement.  The crossing from Japan's home islands to its
  coast in Korea, Manchukuo or China is short, so each empty transport picks up a spare
  unit in a home port within its reach, lands it on our shore joined to the front where
  it has room (sea hexes plus :data:`SHUTTLE_LAND_WEIGHT` per land hex to the front
  cost least: a unit landed far back goes on by rail) and, with allowance left, goes
  back for another; it embarks a unit only when it can land it this movement, and ends
  its trips in a home port; until the Pacific war (:data:`PACIFIC_ENEMY`), when the
  transports are the landings'.  Every home port within :data:`SHUTTLE_CROSSING` of that
  shore asks for troops, and while the enemy has no transport on the map (China has
  none) the home islands keep no garrison (:func:`kept`).  With the ``channel`` switch
  Britain's transports shuttle too (:func:`channel`), after the ferries have sailed in
  the first movement and before they come home in the second, to a shore of ours joined
  to a front within a short crossing (France before its fall, a landing's beachhead).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Collection
from typing import TYPE_CHECKING

from engine.actions import Action
from engine.ai import convoys
from engine.ai import theatres as theatres_mod
from engine.ai.picture import Picture
from engine.hexgrid import NO_HEX
from engine.hexmap import HexMap
from engine.reach import Search, naval_search, open_canals
from engine.sides import other
from engine.stacking import can_stack_land, friendly_port
from engine.state import NO_UNIT, GameState, Unit
from engine.supply import supply_class
from engine.units import UnitType
from engine.zoc import has_enemy_land_unit, naval_zoc

if TYPE_CHECKING:
    from engine.ai.turn import Turn

#: Strength wanted in a ferry port per empty transport (as for a staging port).
SLOT_STRENGTH = 3.5
#: Land units one port ships at once (the stacking limit of a hex).
GROUP = 2
#: Strength kept on stranded land in each home capital and major port.
GARRISON = 3.0
#: Landing places lie at most this many land hexes behind the front.
NEAR_FRONT = 8
#: Sea hexes one land hex of marching is worth when choosing where to land.
LAND_WEIGHT = 8
#: A voyage costs at most this much (sea hexes plus weighted land hexes): about four
#: movements of a transport.
MAX_VOYAGE = 180
#: What another month at sea costs, in the same units (a unit ashore now can march).
MONTH_AT_SEA = 20
#: Transports moved per side and phase at most (each is one naval search).
MAX_SHIPS = 16
#: Countries whose transports shuttle: Japan raises its army in its home islands and
#: fights on the mainland a short crossing away, and its units trace supply only to
#: Japanese sources, so they land on Japanese-held coast (rulebook "Supply Sources").
SHUTTLE_COUNTRIES = frozenset({"Japan"})
#: Countries whose transports shuttle with the ``channel`` switch: Britain's army is raised
#: in Britain, and once a shore of ours joined to a front lies across the Channel or the
#: North Sea (a landing's beachhead, France before its fall) it is a short crossing away.
CHANNEL_COUNTRIES = frozenset({"United Kingdom"})
#: Once this country is at war with us (the Pacific war), the transports are the
#: landings' and the shuttle stops: the islands to take lie beyond any shuttle's reach.
PACIFIC_ENEMY = "United States"
#: Trips the shuttling transports of a side make in one movement at most (each is a
#: naval search or two).
MAX_TRIPS = 24
#: Home ports at most this many sea hexes from our shore are shuttled from (half a
#: transport's allowance: out and back in one movement).
SHUTTLE_CROSSING = 22
#: Sea hexes one land hex between a shuttle's landing hex and the front is worth: less
#: than a ferry's (:data:`LAND_WEIGHT`), as a shuttled unit landing far back (Korea's
#: ports) goes on by rail, and the hexes next to the front fill up.
SHUTTLE_LAND_WEIGHT = 3


def stranded(pic: Picture, h: int) -> bool:
    """Is ``h`` our land from which no path over our land leads to the front?"""
    return pic.role(h) == "mine" and h not in pic.to_front and pic.map.has_land(h)


def garrisons(pic: Picture) -> dict[int, float]:
    """Strength kept in the home capitals and major ports of our countries on stranded land
    (kept on the picture, which the policies of one decision share)."""
    memo = pic.__dict__
    found: dict[int, float] | None = memo.get("ferry_garrisons")
    if found is None:
        found = memo["ferry_garrisons"] = _garrisons(pic)
    return found


def _garrisons(pic: Picture) -> dict[int, float]:
    state = pic.state
    out: dict[int, float] = {}
    for city in pic.map.cities:
        h = city.hex
        if not (city.capital or city.major_port) or not stranded(pic, h):
            continue
        owner = pic.map.country_of[h]
        c = state.countries.get(owner)
        if c is not None and c.side == pic.side and c.active and state.controller_of(h) == owner:
            out[h] = GARRISON
    return out


def kept(pic: Picture, shuttle: bool = False) -> dict[int, float]:
    """The garrisons of stranded land (:func:`garrisons`); with ``shuttle`` (the style
    switch) none in the home land of a :data:`SHUTTLE_COUNTRIES` country while the enemy
    has no transport on the map: no landing can reach land without a front then (China's
    against Japan's home islands), and the strength is wanted at the front."""
    found = garrisons(pic)
    if shuttle and not any(
        u.type == UnitType.TRANSPORT and u.hex != NO_HEX and pic.state.countries[u.country].at_war
        for u in pic.state.side_units(pic.enemy)
    ):
        country_of = pic.map.country_of
        return {h: s for h, s in found.items() if country_of[h] not in SHUTTLE_COUNTRIES}
    return found


def _troops(state: GameState, side: str, h: int) -> list[Unit]:
    """Our land units in ``h`` that could board, weakest first."""
    return sorted(
        (
            u
            for u in state.units_at(h)
            if u.is_land
            and u.carrier == NO_UNIT
            and not u.moved
            and u.strength > 0
            and u.type not in (UnitType.SUPPLY, UnitType.PARATROOPER)
            and state.countries[u.country].side == side
            and state.countries[u.country].active
        ),
        key=lambda u: (u.strength, u.id),
    )


def spare(pic: Picture, h: int, keep: dict[int, float] | None = None, alone: bool = False) -> list[Unit]:
    """Our units in stranded hex ``h`` beyond its garrison, strongest first.

    The weakest stay as the garrison, added up until they make it.  With ``alone`` (the
    style switch ``ferry_flow``) one unit stays: the weakest that makes the garrison by
    itself, or the strongest when none does.  A hex stacks two land units, and a port
    holding a 2 and a 4 (or a 2 and a 1) against a garrison of 3 kept both, so it never
    shipped anyone again, nor had room for a unit to come and be shipped."""
    if not stranded(pic, h):
        return []
    troops = _troops(pic.state, pic.side, h)
    want = (keep if keep is not None else garrisons(pic)).get(h, 0.0)
    guard = None
    if alone and want > 0 and troops:
        guard = next((u for u in troops if u.strength >= want), troops[-1])
    if guard is not None:
        return sorted((u for u in troops if u is not guard), key=lambda u: (-u.strength, u.id))
    kept = 0.0
    out = []
    for u in troops:
        if kept < want:
            kept += u.strength
        else:
            out.append(u)
    return sorted(out, key=lambda u: (-u.strength, u.id))


def _empty_transports(state: GameState, side: str) -> list[Unit]:
    ours = state.side_units(side)
    loaded = {u.carrier for u in ours if u.carrier != NO_UNIT}
    return sorted(
        (
            u
            for u in ours
            if u.type == UnitType.TRANSPORT
            and u.hex != NO_HEX
            and not u.damaged
            and u.id not in loaded
            and state.countries[u.country].active
        ),
        key=lambda u: u.id,
    )


def _troop_land(pic: Picture) -> dict[int, int]:
    """Our stranded land that spare units can walk to (hex -> distance from the nearest);
    kept on the picture, which several policies of one decision share."""
    memo = pic.__dict__
    found: dict[int, int] | None = memo.get("ferry_troop_land")
    if found is None:
        keep = garrisons(pic)
        sources = [h for h in {u.hex for u in pic.my_land} if spare(pic, h, keep)]
        found = memo["ferry_troop_land"] = pic.distances(sources, limit=60, passable="mine") if sources else {}
    return found


def walkable(pic: Picture, h: int) -> bool:
    """Can our land units get to ``h``: walking from the front or from stranded land with
    spare units, or placed there new (the home territory of a country of ours at war)?"""
    if h in pic.to_front or h in _troop_land(pic):
        return True
    hexmap = pic.map
    c = pic.state.countries.get(hexmap.country_of[h])
    return c is not None and c.side == pic.side and c.active and not hexmap.is_colony(h) and pic.role(h) == "mine"


def ports(pic: Picture, shuttle: bool = False) -> dict[int, float]:
    """Ferry port -> land strength wanted there: our ports on stranded land that hold
    empty transports and that our units can get to (:func:`walkable`); with ``shuttle``
    (the style switch) also the home ports our shuttling transports come to."""
    state, side = pic.state, pic.side
    if not pic.my_land:
        return {}
    empty: dict[int, int] = {}
    for u in _empty_transports(state, side):
        if friendly_port(state, u.hex, side) and stranded(pic, u.hex):
            empty[u.hex] = empty.get(u.hex, 0) + 1
    out = {p: SLOT_STRENGTH * min(GROUP, n) for p, n in sorted(empty.items()) if walkable(pic, p)}
    if shuttle:
        for p in _shuttle_ports(pic):
            out.setdefault(p, SLOT_STRENGTH * GROUP)
    return out


def _china_war(state: GameState, side: str) -> bool:
    """Is the war still Japan's war in China (no Pacific war against us yet)?"""
    us = state.countries.get(PACIFIC_ENEMY)
    return us is None or not us.at_war or us.side == side


def _shuttle_ports(pic: Picture) -> list[int]:
    """The home ports of a :data:`SHUTTLE_COUNTRIES` country with transports on the map,
    on stranded land, at most :data:`SHUTTLE_CROSSING` sea hexes from its shore
    (:func:`_shore`): its transports come to them for troops, wherever they lie."""
    state, side = pic.state, pic.side
    if not _china_war(state, side):
        return []
    shippers = {
        u.country
        for u in state.side_units(side)
        if u.type == UnitType.TRANSPORT and u.hex != NO_HEX and u.country in SHUTTLE_COUNTRIES
    }
    out: list[int] = []
    hexmap = pic.map
    for country in sorted(shippers):
        crossing = _crossing(pic, country)
        out.extend(
            c.hex
            for c in hexmap.cities
            if hexmap.country_of[c.hex] == country
            and crossing.get(c.hex, MAX_VOYAGE) <= SHUTTLE_CROSSING
            and friendly_port(state, c.hex, side)
            and stranded(pic, c.hex)
            and walkable(pic, c.hex)
        )
    return out


def need(pic: Picture, shuttle: bool = False) -> dict[int, float]:
    """What the ferries add to the need map: garrisons, and troops in ferry ports."""
    out = dict(kept(pic, shuttle))
    for h, want in ports(pic, shuttle).items():
        out[h] = out.get(h, 0.0) + want
    return out


def to_ferry(pic: Picture, shuttle: bool = False) -> dict[int, int]:
    """Land distance from our stranded hexes to the nearest ferry port (units on land
    without a front walk towards one)."""
    found = ports(pic, shuttle)
    return pic.distances(found, limit=60, passable="mine") if found else {}


# ------------------------------------------------------------------------ voyages


def landing_places(pic: Picture, country: str) -> dict[int, int]:
    """Coastal hexes of ours where a unit of ``country`` may land to join the front ->
    the land hexes from there to the front."""
    hexmap = pic.map
    sea = hexmap.sea_neighbours
    trace = pic.supply.hex_traces
    return {
        h: d
        for h, d in pic.to_front.items()
        if d <= NEAR_FRONT and sea[h] and h not in pic.enemy_at and trace(country, h)
    }


def place_costs(pic: Picture, country: str, theatres: bool = False) -> dict[int, int]:
    """Landing place of ``country`` -> what landing there costs: :data:`LAND_WEIGHT` per
    land hex to the front; with ``theatres`` (the style switch, :mod:`engine.ai.theatres`)
    :data:`engine.ai.theatres.MOST` more, less what the openings near it are worth (a cost
    is never below nought, and a place by an opening may cost less than one at the front)."""
    places = {h: LAND_WEIGHT * d for h, d in landing_places(pic, country).items()}
    if not theatres or not places:
        return places
    off = theatres_mod.bonus(pic, places)
    return {h: c + theatres_mod.MOST - off.get(h, 0) for h, c in places.items()}


def _enemy_ships_troops(pic: Picture) -> bool:
    """Has the enemy a transport on the map (so it may land anywhere on our coasts)?"""
    countries = pic.state.countries
    return any(
        u.type == UnitType.TRANSPORT and u.hex != NO_HEX and countries[u.country].at_war
        for u in pic.state.side_units(pic.enemy)
    )


def outposts(pic: Picture) -> list[int]:
    """Our capitals and major ports on land without a front that hold less than their
    garrison and that no unit of ours can walk to or be placed in (:func:`walkable`), while
    the enemy has a transport: only a ferry can bring their garrison (Gibraltar and Malta:
    nobody may place units there, and a landing takes an empty city at once)."""
    if not _enemy_ships_troops(pic):
        return []
    sea = pic.map.sea_neighbours
    mine = pic.my_at
    return sorted(h for h, want in garrisons(pic).items() if sea[h] and mine.get(h, 0) < want and not walkable(pic, h))


def voyage_costs(pic: Picture, places: dict[int, int], limit: int = MAX_VOYAGE) -> dict[int, int]:
    """Sea hex -> least cost of a voyage from there to one of the landing ``places`` (sea
    hexes sailed plus the place's cost, :func:`place_costs`), up to ``limit``."""
    if not places:
        return {}
    state = pic.state
    canals = open_canals(state, pic.side) if state.world.map.canals else {}
    return _voyages(state.world.map, tuple(sorted(canals.items())), tuple(sorted(places.items())), limit)


@functools.lru_cache(maxsize=8)
def _voyages(
    hexmap: HexMap, canals: tuple[tuple[int, tuple[int, ...]], ...], seeds: tuple[tuple[int, int], ...], limit: int
) -> dict[int, int]:
    """A search by cost buckets from the landing places outwards over the sea (each
    place starts at its own cost): it reads only the map, the canals and the places."""
    sea = hexmap.sea_neighbours
    extra = dict(canals)
    buckets: list[list[int]] = [[] for _ in range(limit + 2)]
    pending = 0
    for h, c in seeds:
        if c <= limit:
            buckets[c].append(h)
            pending += 1
    dist: dict[int, int] = {}
    for cost in range(limit + 1):
        layer, nxt = buckets[cost], buckets[cost + 1]
        pending -= len(layer)
        for h in layer:
            if h in dist:
                continue
            dist[h] = cost
            if cost < limit:
                for n in sea[h] + extra.get(h, ()) if extra else sea[h]:
                    if n not in dist:
                        nxt.append(n)
                        pending += 1
        if pending <= 0:
            break
    return dist


def spearheads(pic: Picture, staging: Collection[int]) -> list[int]:
    """The ports of ``staging`` (:func:`engine.ai.staging.ports`) where no marine of ours
    stands: a marine sails for one (the ``spearheads`` switch of :mod:`engine.ai.style`)."""
    state = pic.state
    return sorted(
        p
        for p in staging
        if not any(u.type is UnitType.MARINE and state.side_of(u.country) == pic.side for u in state.units_at(p))
    )


class _Voyages:
    """The voyage costs of one decision, per supply class (the landing places differ);
    a marine's, while ``wanting`` names staging ports without one, lead to those."""

    def __init__(self, pic: Picture, theatres: bool = False, wanting: Collection[int] = ()) -> None:
        self.pic = pic
        self.theatres = theatres
        self.wanting = sorted(wanting)
        #: a voyage's greatest cost: the places' costs are :data:`engine.ai.theatres.MOST`
        #: higher with the theatres (:func:`place_costs`)
        self.limit = MAX_VOYAGE + (theatres_mod.MOST if theatres else 0)
        self.by_class: dict[str, tuple[dict[int, int], dict[int, int]]] = {}

    def of(self, unit: Unit) -> tuple[dict[int, int], dict[int, int]]:
        """(landing places -> their cost, sea hex -> voyage cost) for ``unit``."""
        if unit.type is UnitType.MARINE and self.wanting:
            key = "marine"
            if key not in self.by_class:
                places = dict.fromkeys(self.wanting, 0)
                self.by_class[key] = (places, voyage_costs(self.pic, places, self.limit))
            return self.by_class[key]
        key = supply_class(unit.country)
        if key not in self.by_class:
            places = place_costs(self.pic, unit.country, self.theatres)
            self.by_class[key] = (places, voyage_costs(self.pic, places, self.limit))
        return self.by_class[key]


def _plan(
    search: Search,
    here: int,
    places: dict[int, int],
    costs: dict[int, int],
    can_land: Callable[[int], bool],
    wait_here: bool = True,
    limit: int = MAX_VOYAGE,
) -> tuple[int, bool]:
    """Where a loaded transport in ``here`` sails (NO_HEX: nowhere better), and whether
    its unit lands there.  Without ``wait_here`` a transport that would stay where it is
    (the place it makes for is full) lands its unit at the best place it reaches instead."""
    reach = dict(search.cost)
    reach[here] = 0
    ashore = sorted((places[h], h) for h in reach if h in places and can_land(h))
    onward = min(((costs[h], h) for h in reach if h in costs), default=None)
    if ashore and (onward is None or ashore[0][0] <= onward[0] + MONTH_AT_SEA):
        return ashore[0][1], True
    if onward is not None and onward[1] != here and onward[0] < costs.get(here, limit + 1):
        return onward[1], False
    if ashore and not wait_here:
        return ashore[0][1], True
    return NO_HEX, False


def _can_land(state: GameState, side: str, u: Unit) -> Callable[[int], bool]:
    def ok(h: int) -> bool:
        return (
            state.side_controlling(h) == side
            and not has_enemy_land_unit(state, side, h)
            and can_stack_land(state, h, [u])
        )

    return ok


def _route(turn: Turn, ship: Unit, unit: Unit, voyages: _Voyages, zone: set[int]) -> tuple[Search, int, bool] | None:
    """(the ship's search, where it sails, whether ``unit`` lands there), or None."""
    places, costs = voyages.of(unit)
    if not places:
        return None
    state = turn.state
    search = naval_search(state, ship, ship.move - ship.mp_used, zone)
    # a shuttle's transport does not wait off a full hex for months while it could land elsewhere
    patient = not (turn.style.shuttle and unit.country in SHUTTLE_COUNTRIES and _china_war(state, turn.side))
    dest, land = _plan(search, ship.hex, places, costs, _can_land(state, turn.side, unit), patient, voyages.limit)
    return None if dest == NO_HEX else (search, dest, land)


def _go(turn: Turn, ship: Unit, unit: Unit, route: tuple[Search, int, bool]) -> bool:
    search, dest, land = route
    if dest != ship.hex and not turn.batch.offer(Action("move", (ship.id, *search.path(dest)))):
        return False
    if land:
        turn.batch.offer(Action("disembark", (unit.id, dest)))
    return True


def _under_way(state: GameState, side: str, fresh: bool) -> list[tuple[Unit, Unit]]:
    """Our transports at sea or in port carrying a land unit, with their unit (``fresh``:
    only those that have not moved this phase: a landing sailed this movement waits for
    its assault)."""
    out = []
    for u in state.side_units(side):
        if not u.is_land or u.carrier == NO_UNIT:
            continue
        ship = state.units.get(u.carrier)
        if ship is None or ship.type != UnitType.TRANSPORT or ship.hex == NO_HEX:
            continue
        if ship.mp_used >= ship.move or (fresh and ship.mp_used):
            continue
        out.append((ship, u))
    return sorted(out, key=lambda p: p[0].id)


def _sail_on(turn: Turn, pic: Picture, voyages: _Voyages, zone: set[int], fresh: bool) -> int:
    moved = 0
    for ship, unit in _under_way(turn.state, turn.side, fresh)[:MAX_SHIPS]:
        state = turn.state
        ship, unit = state.units[ship.id], state.units[unit.id]
        route = _route(turn, ship, unit, voyages, zone)
        if route is not None:
            _go(turn, ship, unit, route)
        moved += 1
    return moved


def _no_ports(pic: Picture) -> Collection[int]:
    return ()


def sail(turn: Turn, staging_ports: Callable[[Picture], Collection[int]] = _no_ports) -> None:
    """First movement: ferries at sea sail on (and land their units); empty transports
    in ferry ports take spare units aboard and sail.  With ``spearheads`` a marine in a
    port of ``staging_ports`` stays for its landing, and marines elsewhere sail first,
    for a staging port that has none."""
    state, side = turn.state, turn.side
    pic = Picture(state, side)
    if not pic.to_front:
        return
    staging = set(staging_ports(pic)) if turn.style.spearheads else set()
    wanting = spearheads(pic, staging)
    voyages = _Voyages(pic, turn.style.theatres, wanting)
    zone = naval_zoc(state, other(side))
    moved = _sail_on(turn, pic, voyages, zone, fresh=True)
    keep = garrisons(pic)
    by_port: dict[int, list[Unit]] = {}
    for ship in _empty_transports(turn.state, side):
        if not ship.mp_used and friendly_port(turn.state, ship.hex, side) and stranded(pic, ship.hex):
            by_port.setdefault(ship.hex, []).append(ship)
    if turn.style.theatres:
        moved += _garrison_outposts(turn, pic, by_port, keep, zone)
    for port in sorted(by_port):
        units = spare(pic, port, keep, turn.style.ferry_flow)
        if port in staging:
            units = [u for u in units if u.type is not UnitType.MARINE]
        elif wanting:
            units.sort(key=lambda u: u.type is not UnitType.MARINE)  # (stable: strongest first after)
        for ship, unit in zip(by_port[port], units, strict=False):
            if moved >= MAX_SHIPS:
                return
            moved += 1
            state = turn.state
            ship, unit = state.units[ship.id], state.units[unit.id]
            route = _route(turn, ship, unit, voyages, zone)
            if route is None:
                if unit.type is UnitType.MARINE and wanting:
                    continue  # a marine's voyage leads elsewhere than the others'
                break  # the port's other transports would find no better
            if turn.batch.offer(Action("embark", (unit.id, ship.id))):
                _go(turn, turn.state.units[ship.id], turn.state.units[unit.id], route)


def _garrison_outposts(
    turn: Turn, pic: Picture, by_port: dict[int, list[Unit]], keep: dict[int, float], zone: set[int]
) -> int:
    """Each outpost (:func:`outposts`) that a transport in a ferry port reaches this
    movement gets one spare unit from that port, landed there at once.  Only within one
    movement: the voyage field of :func:`voyage_costs` knows no ship's goal, so a longer
    voyage would be turned aside to a front, or every ship would make for the outpost.
    The transports used are taken out of ``by_port``; returns how many sailed."""
    state, side = turn.state, turn.side
    trace = pic.supply.hex_traces
    distance = pic.map.grid.distance
    sent = 0
    for outpost in outposts(pic):
        for port in sorted(by_port):
            ships = by_port[port]
            if not ships:
                continue
            ship = ships[0]
            allowance = ship.move - ship.mp_used
            if distance(port, outpost) > allowance:  # a voyage is never shorter (engine.hexgrid)
                continue
            units = spare(pic, port, keep, turn.style.ferry_flow)
            if not units:
                continue
            unit = units[0]
            if not trace(unit.country, outpost) or not _can_land(state, side, unit)(outpost):
                continue
            search = naval_search(state, ship, allowance, zone, target=outpost)
            if outpost not in search.cost:
                continue
            if turn.batch.offer(Action("embark", (unit.id, ship.id))):
                _go(turn, state.units[ship.id], state.units[unit.id], (search, outpost, True))
                ships.pop(0)
                sent += 1
            break
    return sent


def home(turn: Turn, staging_ports: Callable[[Picture], Collection[int]] = _no_ports) -> None:
    """Second movement: ferries sail on; empty transports come to where they are wanted.

    While spare units stand on land without a front, an empty transport that has no
    troops to carry where it lies sails for a port of that land (each wants
    :data:`GROUP` transports), over several months if it is far; otherwise transports at
    sea make for a port that stages landings (``staging_ports``, asked only when we have
    transports) or ships troops, else the nearest friendly port, and transports in port stay."""
    state, side = turn.state, turn.side
    if not any(u.type == UnitType.TRANSPORT and u.hex != NO_HEX for u in state.side_units(side)):
        return
    pic = Picture(state, side)
    staging = set(staging_ports(pic))  # (the ports as the phase finds them, before the ferries sail)
    zone = naval_zoc(state, other(side))
    wanting = spearheads(pic, staging) if turn.style.spearheads else []
    voyages = _Voyages(pic, turn.style.theatres, wanting)
    moved = _sail_on(turn, pic, voyages, zone, fresh=False) if pic.to_front else 0
    state = turn.state
    every = _empty_transports(state, side)
    empty = [s for s in every if s.mp_used < s.move]
    if not empty:
        return
    land = _troop_land(pic)
    keep = garrisons(pic)
    wanted = {p: GROUP for p in land if friendly_port(state, p, side)}
    waiting: set[int] = set()  # the transports a ferry port keeps: GROUP of them with ferry_flow
    for ship in every:
        if ship.hex in wanted:
            if wanted[ship.hex] > 0 or not turn.style.ferry_flow:
                waiting.add(ship.id)
            wanted[ship.hex] -= 1
    hexmap = state.world.map
    grid = hexmap.grid
    useful_ports = staging | {
        c.hex
        for c in hexmap.cities
        if friendly_port(state, c.hex, side) and stranded(pic, c.hex) and walkable(pic, c.hex)
    }
    for ship in empty:
        if moved >= MAX_SHIPS:
            return
        state = turn.state
        in_port = friendly_port(state, ship.hex, side)
        if ship.id in waiting:
            continue  # it waits where troops come to it
        if in_port and ship.hex not in wanted and _to_carry(turn, pic, ship.hex, keep):
            continue  # troops to carry next month
        targets = sorted(p for p, n in wanted.items() if n > 0)
        left = ship.move - ship.mp_used
        idle = in_port and not targets
        if idle and (ship.hex in useful_ports or not any(grid.distance(ship.hex, p) <= left for p in useful_ports)):
            continue  # it waits where it is useful, or it is wanted nowhere within reach
        search = naval_search(state, ship, left, zone)
        dest = NO_HEX
        if targets:
            near = [p for p in targets if p in search.cost]
            if near:
                dest = min(near, key=lambda p: (search.cost[p], p))
                wanted[dest] -= 1
            else:
                dist = convoys.sea_distance(state, side, targets)
                best = min(search.cost, key=lambda h: (dist[h], h), default=NO_HEX) if dist else NO_HEX
                if best != NO_HEX and dist[best] < dist[ship.hex]:
                    dest = best
        if dest == NO_HEX and not (in_port and ship.hex in useful_ports):
            ports = [p for p in search.cost if friendly_port(state, p, side) and (p in useful_ports or not in_port)]
            if ports:
                dest = min(ports, key=lambda p: (p not in useful_ports, search.cost[p], p))
        if dest == NO_HEX:
            continue
        moved += 1
        turn.batch.offer(Action("move", (ship.id, *search.path(dest))))


def _to_carry(turn: Turn, pic: Picture, port: int, keep: dict[int, float]) -> bool:
    """Are there units in ``port`` for a transport there to carry?  With ``theatres`` a
    port on land without a front counts only its spare units: an outpost's garrison
    (:func:`outposts`) kept every transport that put in there idle for good."""
    if turn.style.theatres and stranded(pic, port):
        return bool(spare(pic, port, keep, turn.style.ferry_flow))
    return bool(_troops(turn.state, turn.side, port))


def shuttle(turn: Turn) -> None:
    """First and second movement, before the landings: each empty transport of a
    :data:`SHUTTLE_COUNTRIES` country takes spare units from home ports within its reach
    to our shore, one a trip, as long as its allowance lasts (see the module's
    "Shuttling")."""
    if not _china_war(turn.state, turn.side):
        return
    done = _shuttle(turn, SHUTTLE_COUNTRIES)
    if done is not None:
        _dock(turn, *done)


def channel(turn: Turn) -> None:
    """With the ``channel`` switch, after the ferries have sailed in the first movement and
    before they come home in the second: Britain's empty transports shuttle its spare units
    to a shore of ours joined to a front within a short crossing, as Japan's do (a
    transport that landed a ferry's unit across the Channel goes back for more with the
    rest of its allowance)."""
    _shuttle(turn, CHANNEL_COUNTRIES)


def _shuttle(turn: Turn, countries: frozenset[str]) -> tuple[Picture, set[int]] | None:
    """The trips of the empty transports of ``countries``: the picture they were planned on
    and the enemy's naval zone, or None if no transport could shuttle."""
    state, side = turn.state, turn.side
    ships = [u.id for u in _empty_transports(state, side) if u.country in countries and u.mp_used < u.move]
    if not ships:
        return None
    pic = Picture(state, side)
    if not pic.to_front:
        return None
    zone = naval_zoc(state, other(side))
    keep = kept(pic, shuttle=True)
    trips = 0
    for ship in ships:
        while trips < MAX_TRIPS and _trip(turn, pic, ship, zone, keep):
            trips += 1
    return pic, zone


def _dock(turn: Turn, pic: Picture, zone: set[int]) -> None:
    """Shuttling transports that end their trips off a home port sail into the nearest
    one in reach: off the enemy's coast, empty, they are a target for its aircraft, and a
    port is where a damaged one is repaired and where the troops wait."""
    state, side = turn.state, turn.side
    home = set(_shuttle_ports(pic))
    if not home:
        return
    for ship in sorted(state.side_units(side), key=lambda u: u.id):
        if (
            ship.type != UnitType.TRANSPORT
            or ship.country not in SHUTTLE_COUNTRIES
            or ship.hex == NO_HEX
            or ship.hex in home
            or ship.mp_used >= ship.move
            or state.cargo_of(ship)
        ):
            continue
        search = naval_search(state, ship, ship.move - ship.mp_used, zone)
        near = [p for p in home if p in search.cost]
        if near:
            dest = min(near, key=lambda p: (search.cost[p], p))
            turn.batch.offer(Action("move", (ship.id, *search.path(dest))))


def _trip(turn: Turn, pic: Picture, ship_id: int, zone: set[int], keep: dict[int, float]) -> bool:
    """One trip of a shuttling transport: to the nearest home port with a spare unit from
    which our coast lies within the rest of its allowance, the unit aboard, and on to land
    it where sea hexes plus :data:`SHUTTLE_LAND_WEIGHT` per land hex to the front cost
    least among the hexes with room for it.  True if the unit landed (the transport may
    go again)."""
    state, side = turn.state, turn.side
    ship = state.units[ship_id]
    left = ship.move - ship.mp_used
    if left <= 0 or state.cargo_of(ship):
        return False
    search = naval_search(state, ship, left, zone)
    reach = dict(search.cost)
    reach[ship.hex] = 0
    found: tuple[int, Unit] | None = None
    for p, cost in sorted(reach.items(), key=lambda t: (t[1], t[0])):
        if not friendly_port(state, p, side) or not stranded(pic, p):
            continue
        units = [u for u in spare(pic, p, keep) if u.country == ship.country]
        if units and cost + _crossing(pic, units[0].country).get(p, MAX_VOYAGE) <= left:
            found = (p, units[0])
            break
    if found is None:
        return False
    port, unit = found
    if port != ship.hex and not turn.batch.offer(Action("move", (ship.id, *search.path(port)))):
        return False
    state = turn.state
    ship = state.units[ship_id]
    search = naval_search(state, ship, ship.move - ship.mp_used, zone)
    reach = dict(search.cost)
    reach[ship.hex] = 0
    room = _can_land(state, side, unit)
    spots = sorted(
        (reach[h] + SHUTTLE_LAND_WEIGHT * d, h) for h, d in _shore(pic, unit.country).items() if h in reach and room(h)
    )
    if not spots or not turn.batch.offer(Action("embark", (unit.id, ship.id))):
        return False
    dest = spots[0][1]
    if dest != ship.hex and not turn.batch.offer(Action("move", (ship.id, *search.path(dest)))):
        return False
    return turn.batch.offer(Action("disembark", (unit.id, dest)))


def _shore(pic: Picture, country: str) -> dict[int, int]:
    """Coastal hexes of ours joined by our land to the front, without enemy units, where
    ``country``'s units trace supply -> the land hexes from there to the front (kept on
    the picture)."""
    memo = pic.__dict__.setdefault("ferry_shore", {})
    found: dict[int, int] | None = memo.get(country)
    if found is None:
        sea = pic.map.sea_neighbours
        trace = pic.supply.hex_traces
        found = memo[country] = {
            h: d for h, d in pic.to_front.items() if sea[h] and h not in pic.enemy_at and trace(country, h)
        }
    return found


def _crossing(pic: Picture, country: str) -> dict[int, int]:
    """Sea hex -> sea hexes from there to the nearest hex of ``country``'s shore."""
    shore = _shore(pic, country)
    if not shore:
        return {}
    state = pic.state
    canals = open_canals(state, pic.side) if state.world.map.canals else {}
    return _voyages(state.world.map, tuple(sorted(canals.items())), tuple((h, 0) for h in sorted(shore)), MAX_VOYAGE)
