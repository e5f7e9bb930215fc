"""Where one unit can go: local searches over the precomputed neighbour tables
(supplement: "Movement", "Control zones and hex control", "Stacking"; rulebook: "Terrain").

Every search starts at the unit and expands hexes in order of cost, so it looks only
at the few hundred hexes within the unit's allowance.  Per-hex facts that depend on
other units (enemy control zones, enemy units, stacking) are asked of the state's hex
index as the search meets them, never by scanning the army or the map.

A land search runs over *nodes* ``(hex, zoc)``: besides its hex, a moving unit carries
where it stands with respect to enemy control zones (:data:`FREE`, :data:`PASS`,
:data:`SPENT`, :data:`STOPPED`), because armor's extra hex and the forest exception
make the same hex reachable in different conditions.

Ties: when several paths cost the same, the one found first wins; nodes are expanded
in order of (cost, hex number, zoc) and neighbours in direction order (E, NE, NW, W,
SW, SE), so the chosen path is the same on every machine.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import numpy as np

from engine import weather
from engine.actions import Refusal, prefixed
from engine.hexgrid import NO_HEX
from engine.hexmap import Kind, Side, Terrain
from engine.sides import other
from engine.stacking import LAND_LIMIT_TEXT, air_room, carrier_slot, fits_land, is_based, land_counts, naval_room
from engine.state import GameState, Unit
from engine.terrain import BY_CODE, barred_terrain
from engine.units import UnitType
from engine.war import japan_soviet_refusal, may_enter_country
from engine.zoc import has_enemy_land_unit, in_enemy_land_zoc, in_enemy_naval_zoc, naval_zoc

#: Control-zone condition of a moving unit.
FREE = 0  # not held by a control zone (it may have started in one)
PASS = 1  # armor (submarine) that entered an enemy zone and may move one extra hex
SPENT = 2  # armor (submarine) whose extra hex is used
STOPPED = 3  # must stop here


@dataclass(slots=True)
class Search:
    """Result of a search: the cheapest cost of every hex where the unit may end its
    move, and the predecessor links to rebuild a path (nodes are ``hex * 4 + zoc``)."""

    start: int
    cost: dict[int, int] = field(default_factory=dict)  # destination hex -> cost
    end_node: dict[int, int] = field(default_factory=dict)  # destination hex -> node
    parent: dict[int, int] = field(default_factory=dict)  # node -> previous node

    def path(self, dest: int) -> list[int]:
        """Hexes entered on the way to ``dest`` (the start not included)."""
        node = self.end_node[dest]
        out = []
        while node in self.parent:
            out.append(node >> 2)
            node = self.parent[node]
        out.reverse()
        return out


# --- land ---------------------------------------------------------------------------


@dataclass(slots=True)
class SideMemo:
    """Per-hex facts that do not depend on which unit of a side moves (control zones,
    entry costs by kind of unit), shared by the searches of one unchanged state."""

    zoc: dict[int, bool] = field(default_factory=dict)
    cost: dict[tuple[bool, bool], dict[int, int]] = field(default_factory=dict)
    #: occupied hex -> its land units by stacking class (:func:`engine.stacking.land_counts`)
    counts: dict[int, list[int]] = field(default_factory=dict)


class LandRules:
    """The step rules for one land unit in the current state, with per-hex memos."""

    def __init__(
        self,
        state: GameState,
        u: Unit,
        *,
        ignore_zoc: bool = False,
        rail: bool = False,
        memo: SideMemo | None = None,
    ) -> None:
        self.state = state
        self.unit = u
        self.side = state.countries[u.country].side
        self.enemy = other(self.side)
        self.armor = u.type == UnitType.ARMOR
        self.ignore_zoc = ignore_zoc
        self.rail = rail
        hexmap = state.world.map
        self.hexmap = hexmap
        self.land_nbr = hexmap.land_neighbours
        conds = weather.zone_conditions(state.date)
        self.slow = tuple(c in weather.SLOW for c in conds)
        self.frozen = tuple(c == weather.SEVERE_WINTER for c in conds)
        self.any_frozen = any(self.frozen) and not self.armor
        memo = memo or SideMemo()
        self._zoc = memo.zoc
        self._cost = memo.cost.setdefault((self.armor, rail), {})
        self._counts = memo.counts
        self._stack: dict[int, bool] = {}

    def neighbours(self, h: int) -> tuple[int, ...]:
        nbr = self.land_nbr[h]
        if self.any_frozen and not self.rail:
            frozen = self.hexmap.frozen_neighbours[h]
            if frozen:
                zone = self.hexmap.weather
                if self.frozen[zone[h]]:
                    nbr = nbr + tuple(o for o in frozen if self.frozen[zone[o]])
        return nbr

    def step_cost(self, h: int) -> int:
        """Movement points to enter ``h`` (rail: every hex costs 1, the distance is unlimited)."""
        if self.rail:
            return 1
        return 1 + self.slow[self.hexmap.weather[h]] + BY_CODE[self.hexmap.terrain[h]].extra_move

    def in_zoc(self, h: int) -> bool:
        z = self._zoc.get(h)
        if z is None:
            z = self._zoc[h] = in_enemy_land_zoc(self.state, self.side, h)
        return z

    def cost_to_enter(self, h: int) -> int:
        """Movement points to enter ``h``, or 0 if the unit may not enter it at all."""
        c = self._cost.get(h)
        if c is None:
            c = self._cost[h] = 0 if self.why_not_enter(h) else self.step_cost(h)
        return c

    def why_not_enter(self, h: int) -> str:
        """'' if the unit may enter ``h`` at all, else the reason (a sentence's end)."""
        state, hexmap = self.state, self.hexmap
        if barred := barred_terrain(hexmap, self.unit.type, h):
            return Refusal("terrain.armor", f"may not enter {barred} hex {hexmap.grid.label(h)}")
        if why := japan_soviet_refusal(state, self.unit, h):
            return why
        if not may_enter_country(state, self.unit, h):
            return Refusal(
                "war.neutral-territory",
                f"may not enter hex {hexmap.grid.label(h)} of {state.controller_of(h)}, which is not at war",
            )
        if has_enemy_land_unit(state, self.side, h):
            return Refusal(
                "movement.enemy-units", f"may not enter hex {hexmap.grid.label(h)}, which holds enemy land units"
            )
        if self.rail and (not hexmap.rail[h] or state.side_controlling(h) != self.side):
            return Refusal(
                "rail.not-rail-hex",
                f"may not go by rail through hex {hexmap.grid.label(h)}: "
                "it is not a railway hex controlled by its side",
            )
        return ""

    def can_end(self, h: int) -> bool:
        """May the unit end its move in ``h`` (stacking)?"""
        s = self._stack.get(h)
        if s is None:
            if h == self.unit.hex or h not in self.state.occupied_hexes():
                s = True
            else:
                counts = self._counts.get(h)
                if counts is None:
                    counts = self._counts[h] = land_counts(self.state, h)
                s = fits_land(counts, self.unit)
            self._stack[h] = s
        return s

    def next_zoc(self, a: int, za: int, b: int) -> int:
        """Condition after stepping from ``a`` (in condition ``za``) to ``b``; -1 if the
        control zones forbid the step."""
        if self.ignore_zoc:
            return FREE
        b_zoc = self.in_zoc(b)
        if not self.in_zoc(a):
            if not b_zoc:
                return za
            return PASS if self.armor and za == FREE and not self.rail else STOPPED
        # leaving a hex in an enemy control zone
        if not b_zoc:
            return SPENT if za == PASS else za
        if self.rail:
            return -1
        if self.armor and za in (FREE, PASS):
            return STOPPED
        terrain = self.hexmap.terrain
        if BY_CODE[terrain[a]].zoc_to_zoc and BY_CODE[terrain[b]].zoc_to_zoc:
            return STOPPED
        return -1


def start_zoc(rules: LandRules) -> int:
    """The condition a unit starts its move in: a unit that already moved this phase and
    stands in an enemy control zone has entered it and must stay."""
    u = rules.unit
    if rules.ignore_zoc or u.mp_used == 0 or not rules.in_zoc(u.hex):
        return FREE
    return STOPPED


def land_search(rules: LandRules, allowance: int, target: int | None = None) -> Search:
    """Every hex the unit may end in with at most ``allowance`` movement points.  With a
    ``target`` the search stops once the target's cheapest ending is known (costs and
    paths found so far are final: nodes leave the heap in order of cost)."""
    start = rules.unit.hex
    result = Search(start)
    z0 = start_zoc(rules)
    if z0 == STOPPED or allowance <= 0:
        return result
    best: dict[int, int] = {start * 4 + z0: 0}
    heap = [(0, start * 4 + z0)]
    parent, found, end_node = result.parent, result.cost, result.end_node
    # The loop below runs for every node of every search of the computer player and of the
    # order checks: the rules' memos are read here directly, and their methods are called
    # only for a hex not met yet.
    ignore = rules.ignore_zoc
    in_zoc, cost_to_enter, can_end, next_zoc = rules.in_zoc, rules.cost_to_enter, rules.can_end, rules.next_zoc
    zoc_known, cost_known, end_known = rules._zoc, rules._cost, rules._stack
    plain = rules.land_nbr if not (rules.any_frozen and not rules.rail) else None
    occupied = rules.state.occupied_hexes()
    pop, push = heapq.heappop, heapq.heappush
    while heap:
        c, node = pop(heap)
        if best.get(node, c + 1) < c:
            continue
        a, za = node >> 2, node & 3
        if a != start and a not in found:
            if a in occupied:
                ends = end_known.get(a)
                if ends is None:
                    ends = can_end(a)
            else:
                ends = True  # nobody stands there: no stacking limit to meet
            if ends:
                found[a] = c
                end_node[a] = node
                if a == target:
                    break
        if za == STOPPED:
            continue
        if ignore:
            a_free = True
        else:
            a_zoc = zoc_known.get(a)
            a_free = not (in_zoc(a) if a_zoc is None else a_zoc)
        for b in plain[a] if plain is not None else rules.neighbours(a):
            step = cost_known.get(b)
            if step is None:
                step = cost_to_enter(b)
            if not step:
                continue
            nc = c + step
            if nc > allowance:
                continue
            if ignore:
                zb = za
            elif a_free:
                b_zoc = zoc_known.get(b)
                zb = za if not (in_zoc(b) if b_zoc is None else b_zoc) else next_zoc(a, za, b)
            else:
                zb = next_zoc(a, za, b)
            if zb < 0:
                continue
            if zb == STOPPED and b in occupied:
                ends = end_known.get(b)
                if not (can_end(b) if ends is None else ends):
                    continue
            nb = b * 4 + zb
            if nc < best.get(nb, allowance + 1):
                best[nb] = nc
                parent[nb] = node
                push(heap, (nc, nb))
    return result


def land_allowance(u: Unit) -> int:
    return max(0, u.move - u.mp_used)


def land_reach(
    state: GameState, unit: Unit, *, ignore_zoc: bool | None = None, memo: SideMemo | None = None
) -> dict[int, int]:
    """Hex -> movement cost for every hex ``unit`` (a land unit) may move to now.

    ``ignore_zoc`` defaults to the unit's successful overrun (``Unit.overran``); the
    phase passes False outside the first movement phase.  ``memo`` may be shared by the
    searches of one country's units in one unchanged state."""
    if ignore_zoc is None:
        ignore_zoc = unit.overran and unit.type == UnitType.ARMOR
    rules = LandRules(state, unit, ignore_zoc=ignore_zoc, memo=memo)
    return land_search(rules, land_allowance(unit)).cost


def check_land_path(rules: LandRules, path: list[int], allowance: int) -> tuple[int, str]:
    """Cost of an explicit path, or the reason it is not allowed."""
    u, grid = rules.unit, rules.hexmap.grid
    a, za, cost = u.hex, start_zoc(rules), 0
    if za == STOPPED:
        return 0, Refusal(
            "zoc.stop", f"{u.label()} entered an enemy control zone at {grid.label(a)} and must stay there"
        )
    for i, b in enumerate(path):
        if b not in rules.neighbours(a):
            if b in rules.hexmap.neighbours[a * 6 : a * 6 + 6]:
                why = f"{u.label()} may not cross the all-sea hexside from {grid.label(a)} to {grid.label(b)}"
                return 0, Refusal("movement.across-sea", why)
            return 0, Refusal("movement.path", f"{u.label()}: hex {grid.label(b)} is not next to {grid.label(a)}")
        if not rules.cost_to_enter(b):
            return 0, prefixed(f"{u.label()} ", rules.why_not_enter(b))
        cost += rules.step_cost(b)
        if cost > allowance:
            why = f"{u.label()} has only {allowance} movement points left, not enough to reach {grid.label(b)}"
            return 0, Refusal("movement.points", why)
        zb = rules.next_zoc(a, za, b)
        if zb < 0:
            why = f"{u.label()} may not move from {grid.label(a)} to {grid.label(b)}: both are in enemy control zones"
            return 0, Refusal("zoc.zoc-to-zoc", why)
        if zb == STOPPED and i < len(path) - 1:
            return 0, Refusal("zoc.stop", f"{u.label()} must stop at {grid.label(b)}, in an enemy control zone")
        a, za = b, zb
    if not rules.can_end(a):
        why = f"{u.label()} may not end its move in {grid.label(a)}: the stacking limit is reached"
        why += f" ({LAND_LIMIT_TEXT})"
        return 0, Refusal("stacking.land", why)
    return cost, ""


# --- rail -----------------------------------------------------------------------------


def rail_search(state: GameState, unit: Unit, memo: SideMemo | None = None, target: int | None = None) -> Search:
    """Rail movement: any distance over railway hexes the side controls, control zones
    in full (no extra hex, no forest exception); the unit must start on such a hex.
    With a ``target`` the search stops once the target's cost and path are known (as
    :func:`land_search`): the same cost and path as the whole network's search."""
    rules = LandRules(state, unit, rail=True, memo=memo)
    h = unit.hex
    if not rules.hexmap.rail[h] or state.side_controlling(h) != rules.side:
        return Search(h)
    return land_search(rules, 1 << 30, target)


# --- naval ------------------------------------------------------------------------------


def open_canals(state: GameState, side: str) -> dict[int, tuple[int, ...]]:
    """Extra sea steps through the canals ``side`` controls (both hexes of the pair)."""
    hexmap = state.world.map
    out: dict[int, list[int]] = {}
    for canal in hexmap.canals:
        if state.side_controlling(canal.a) == side and state.side_controlling(canal.b) == side:
            links = _canal_links(state, canal.a, canal.b)
            for a, b in links:
                out.setdefault(a, []).append(b)
    return {h: tuple(sorted(set(v))) for h, v in out.items()}


def _canal_links(state: GameState, a: int, b: int) -> list[tuple[int, int]]:
    """Sea steps into, out of and through an open canal pair."""
    hexmap = state.world.map
    nbr, sides, kind, terrain = hexmap.neighbours, hexmap.sides, hexmap.kind, hexmap.terrain
    links = [(a, b), (b, a)]
    for h in (a, b):
        for d in range(6):
            o = nbr[h * 6 + d]
            if (
                o != NO_HEX
                and sides[h * 6 + d] in (Side.SEA, Side.COAST)
                and kind[o] != Kind.LAND
                and terrain[o] != Terrain.ICECAP
                and o not in (a, b)
            ):
                links += [(h, o), (o, h)]
    return links


def naval_step(a_zoc: bool, b_zoc: bool, za: int, sub: bool) -> int:
    """A ship's condition after a step (-1: the step is forbidden); submarines move one
    extra hex through enemy naval control zones as armor does through land zones."""
    if a_zoc:
        if not b_zoc:
            return SPENT if za == PASS else za
        return STOPPED if sub and za in (FREE, PASS) else -1
    if b_zoc:
        return PASS if sub and za == FREE else STOPPED
    return za


def sea_steps(state: GameState, side: str) -> Callable[[int], tuple[int, ...]]:
    """The sea neighbours of a hex for ``side``'s ships, open canals included."""
    sea_nbr = state.world.map.sea_neighbours
    canals = open_canals(state, side) if state.world.map.canals else {}
    if not canals:
        return sea_nbr.__getitem__
    return lambda h: sea_nbr[h] + canals.get(h, ())


def check_naval_path(state: GameState, unit: Unit, path: list[int], allowance: int) -> str:
    """'' if a ship may sail along ``path`` now, else the reason."""
    side = state.countries[unit.country].side
    grid = state.world.map.grid
    steps = sea_steps(state, side)
    sub = unit.type == UnitType.SUBMARINE
    if len(path) > allowance:
        return Refusal("movement.points", f"{unit.label()} has only {allowance} movement points left")
    # Only the path's hexes are asked about: the whole enemy zone would cost more than the path.
    zoc = {h for h in (unit.hex, *path) if in_enemy_naval_zoc(state, side, h)}
    a = unit.hex
    za = STOPPED if unit.mp_used and a in zoc else FREE
    for b in path:
        if za == STOPPED:
            return Refusal(
                "zoc.naval-stop", f"{unit.label()} must stop at {grid.label(a)}, in an enemy naval control zone"
            )
        if b not in steps(a):
            return Refusal("naval.crossing", f"{unit.label()} cannot sail from {grid.label(a)} to {grid.label(b)}")
        if not may_enter_country(state, unit, b):
            return Refusal(
                "war.neutral-territory",
                f"{unit.label()} may not enter hex {grid.label(b)} of {state.controller_of(b)}, which is not at war",
            )
        za = naval_step(a in zoc, b in zoc, za, sub)
        if za < 0:
            return Refusal(
                "zoc.naval-stop",
                f"{unit.label()} may not sail from {grid.label(a)} to {grid.label(b)}: "
                "both are in enemy naval control zones",
            )
        a = b
    if naval_room(state, a, side) <= 0 and a != unit.hex:
        return Refusal(
            "stacking.naval", f"{unit.label()} may not end its move in {grid.label(a)}: 5 ships are there already"
        )
    return ""


def naval_search(
    state: GameState,
    unit: Unit,
    allowance: int,
    enemy_zoc: set[int] | None = None,
    target: int = NO_HEX,
    togo: Mapping[int, int] | None = None,
    targets: frozenset[int] = frozenset(),
) -> Search:
    """Every hex a ship may end in: sea steps (and open canals), 1 point a hex; enemy
    naval control zones stop it (submarines: one extra hex); no neutral hexes; at most
    5 ships a hex outside a friendly major port.  ``enemy_zoc`` may pass the enemy's
    naval control zone when several ships are searched in the same state.  With a
    ``target`` the search stops after the layer that reaches it (its cost and path are
    those of the whole search: layers are searched in the same order); with ``targets``,
    after the layer that reaches the last of them (each must be reachable, or the search
    runs to the end).  ``togo``, the hex distance from every hex to the target, leaves
    out the hexes from which the target lies beyond the allowance: no path to the target
    passes there, so its cost and path stay those of the whole search
    (:mod:`engine.naval_route`)."""
    side = state.countries[unit.country].side
    steps = sea_steps(state, side)
    sub = unit.type == UnitType.SUBMARINE
    zoc = naval_zoc(state, other(side)) if enemy_zoc is None else enemy_zoc
    start = unit.hex
    result = Search(start)
    index, ctrl = state.occupied_hexes(), state.controller
    ok: dict[int, bool] = {}

    def can_end(h: int) -> bool:
        if h not in index:
            return True
        r = ok.get(h)
        if r is None:
            r = ok[h] = naval_room(state, h, side) > 0
        return r

    z0 = STOPPED if unit.mp_used and start in zoc else FREE
    if z0 == STOPPED or allowance <= 0:
        return result
    # Every step costs 1: a search by layers finds each node at its least cost.
    # Ships move 40+ hexes, so this loop visits thousands of hexes: the common step
    # (neither hex in an enemy zone: the condition is unchanged) is decided inline,
    # and whether a hex may be entered or ended in is computed once per hex.
    seen = {start * 4 + z0}
    layer = [start * 4 + z0]
    parent, cost, end_node = result.parent, result.cost, result.end_node
    enterable: dict[int, bool] = {}
    for c in range(1, allowance + 1):
        nxt: list[int] = []
        left = allowance - c
        for node in layer:
            a, za = node >> 2, node & 3
            if za == STOPPED:
                continue
            a_zoc = a in zoc
            for b in steps(a):
                if togo is not None and togo[b] > left:
                    continue
                if a_zoc or b in zoc:
                    zb = naval_step(a_zoc, b in zoc, za, sub)
                    if zb < 0:
                        continue
                else:
                    zb = za
                nb = b * 4 + zb
                if nb in seen:
                    continue
                if ctrl[b]:
                    e = enterable.get(b)
                    if e is None:
                        e = enterable[b] = may_enter_country(state, unit, b)
                    if not e:
                        continue
                if zb == STOPPED and not can_end(b):
                    continue
                seen.add(nb)
                parent[nb] = node
                nxt.append(nb)
                if b not in cost and b != start and can_end(b):
                    cost[b] = c
                    end_node[b] = nb
        if target in cost or not nxt or (targets and targets <= cost.keys()):
            break
        layer = sorted(nxt)
    return result


def naval_destinations(state: GameState, unit: Unit, allowance: int, enemy_zoc: set[int] | None = None) -> list[int]:
    """The hexes of ``naval_search(...).cost``, sorted, found faster for the move list.

    A breadth-first search by layers over whole arrays.  A ship that does not start in
    an enemy naval zone is, at every hex, either free (outside the zones) or stopped (it
    entered one): so a zone hex is a destination when the ship may end there and is not
    searched on, which is what :func:`naval_search` finds.  Ships starting in a zone,
    and submarines (an extra hex through zones) once a zone is within reach, are left
    to the exact search.
    """
    side = state.countries[unit.country].side
    zoc = naval_zoc(state, other(side)) if enemy_zoc is None else enemy_zoc
    start = unit.hex
    if allowance <= 0:
        return []
    sub = unit.type == UnitType.SUBMARINE
    if start in zoc:
        return sorted(naval_search(state, unit, allowance, zoc).cost)
    world = state.world
    size = world.map.size
    table = world.map.sea_table
    # A hex of a country not in the war (other than the unit's own) may not be entered;
    # hexes already reached are closed too, and so is the padding index.
    closed_country = np.array(
        [i > 0 and n != unit.country and not state.countries[n].at_war for i, n in enumerate(world.country_names)]
    )
    closed = np.empty(size + 1, dtype=bool)
    closed[:size] = closed_country[np.frombuffer(state.controller, dtype=np.uint8)]
    closed[size] = True
    closed[start] = True
    canals = open_canals(state, side) if world.map.canals else {}
    canal_at = np.zeros(size, dtype=bool)
    canal_at[list(canals)] = True
    in_zoc = np.zeros(size, dtype=bool)
    in_zoc[list(zoc)] = True
    index = state.occupied_hexes()
    reached: list[np.ndarray] = []
    frontier = np.array([start], dtype=np.int64)
    for _ in range(allowance):
        cand = table[frontier].ravel()
        if canals and canal_at[frontier].any():
            extra = [b for a in frontier[canal_at[frontier]].tolist() for b in canals[a]]
            cand = np.concatenate([cand, np.array(extra, dtype=np.int64)])
        cand = np.unique(cand[~closed[cand]])
        if not len(cand):
            break
        closed[cand] = True
        stop = in_zoc[cand]
        if stop.any():
            if sub:
                return sorted(naval_search(state, unit, allowance, zoc).cost)
            # A zone hex stops the ship: reached only where it may end, never searched on
            # (a later path would reach it stopped as well).
            ends = [h for h in cand[stop].tolist() if h not in index or naval_room(state, h, side) > 0]
            reached.append(np.array(ends, dtype=np.int64))
            cand = cand[~stop]
        reached.append(cand)
        frontier = cand
    hexes = np.concatenate(reached) if reached else frontier[:0]
    return [h for h in sorted(hexes.tolist()) if h not in index or naval_room(state, h, side) > 0]


# --- air --------------------------------------------------------------------------------


def air_search(
    state: GameState, unit: Unit, allowance: int, start: int | None = None, target: int | None = None
) -> Search:
    """Every hex an air unit may fly to: 1 point a hex over land and sea, never into a
    hex where air units are grounded or a hex held by a country not at war.  With a
    ``target`` the search stops as soon as it is reached (the rest is then incomplete)."""
    hexmap = state.world.map
    nbr = hexmap.neighbours
    grounded = state.grounded_zones
    zone = hexmap.weather
    h0 = unit.hex if start is None else start
    result = Search(h0)
    if allowance <= 0 or (grounded and zone[h0] in grounded):
        return result
    dist = {h0: 0}
    frontier = [h0]
    for c in range(1, allowance + 1):
        nxt = []
        for a in frontier:
            for b in nbr[a * 6 : a * 6 + 6]:
                if b == NO_HEX or b in dist:
                    continue
                if grounded and zone[b] in grounded:
                    continue
                if not may_enter_country(state, unit, b):
                    continue
                dist[b] = c
                result.parent[b * 4] = a * 4
                result.cost[b] = c
                result.end_node[b] = b * 4
                if b == target:
                    # a breadth-first search has found the shortest flight to it: stop early
                    return result
                nxt.append(b)
        frontier = sorted(nxt)
    return result


def flight_is_open(state: GameState, unit: Unit, path: list[int], allowance: int) -> bool:
    """May air unit ``unit`` fly along ``path`` now?  Asked of the path's hexes alone, it
    accepts exactly the paths whose every hex :func:`air_search` reaches within
    ``allowance``, no longer than it: each hex next to the one before, never the start
    again, not grounded, not closed to the unit.  (A path it refuses is refused by the
    search too, which names the first fault.)"""
    if len(path) > allowance:
        return False
    hexmap = state.world.map
    nbr, zone, grounded = hexmap.neighbours, hexmap.weather, state.grounded_zones
    a = start = unit.hex
    for b in path:
        if b == start or b not in nbr[a * 6 : a * 6 + 6] or (grounded and zone[b] in grounded):
            return False
        if not may_enter_country(state, unit, b):
            return False
        a = b
    return True


def can_land(state: GameState, unit: Unit, h: int, side: str) -> bool:
    """Could ``unit`` (an air unit) be based at hex ``h`` now?  A unit still based there
    holds a place of its own, which it gets back."""
    if h == unit.hex and is_based(unit):
        return True
    return air_room(state, h, side) > 0 or (unit.carrier_based and landing_carrier(state, h, side) is not None)


def landing_carrier(state: GameState, h: int, side: str) -> Unit | None:
    """The first carrier (by id) of ``side`` in hex ``h`` with a free, undamaged deck."""
    for c in sorted(state.units_at(h), key=lambda x: x.id):
        if c.type == UnitType.CARRIER and state.countries[c.country].side == side and carrier_slot(state, c):
            return c
    return None


def base_within(state: GameState, unit: Unit, start: int, budget: int, side: str) -> bool:
    """Is there a hex where ``unit`` could be based within ``budget`` flying steps of
    ``start``?  The one-flight form of :func:`base_distance`: checking one mission needs
    only a small search around its end, not distances for the whole reachable region."""
    hexmap = state.world.map
    nbr, zone, grounded = hexmap.neighbours, hexmap.weather, state.grounded_zones
    seen = {start}
    frontier = [start]
    for steps in range(budget + 1):
        if any(can_land(state, unit, h, side) for h in frontier):
            return True
        if steps == budget:
            break
        nxt = []
        for a in frontier:
            for b in nbr[a * 6 : a * 6 + 6]:
                if b == NO_HEX or b in seen or (grounded and zone[b] in grounded):
                    continue
                if may_enter_country(state, unit, b):
                    seen.add(b)
                    nxt.append(b)
        frontier = sorted(nxt)
    return False


def base_distance(state: GameState, unit: Unit, region: dict[int, int], side: str) -> dict[int, int]:
    """Distance from each hex of ``region`` (an air search's hexes) to the nearest hex
    where ``unit`` could be based, searching only inside the region (a return flight
    within the allowance never leaves it)."""
    hexmap = state.world.map
    nbr = hexmap.neighbours
    bases = sorted(h for h in region if can_land(state, unit, h, side))
    dist = dict.fromkeys(bases, 0)
    frontier = bases
    c = 0
    while frontier:
        c += 1
        nxt = []
        for a in frontier:
            for b in nbr[a * 6 : a * 6 + 6]:
                if b in region and b not in dist:
                    dist[b] = c
                    nxt.append(b)
        frontier = nxt
    return dist
