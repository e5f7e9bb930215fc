"""Movement of land, naval and air units; rail; embarking (rulebook: "Game Sequence",
"Terrain", "Types of Units"; supplement: "Movement", "Control zones and hex control",
"Stacking").

Orders::

    move #12 41,17            to a hex: the engine takes the cheapest legal path
    move #12 40,17 41,17      along a path, each hex next to the previous one
    rail #12 48,20            second movement only: any distance over own railways
    embark #12 #30            a land unit onto a transport (or a carrier-based air unit
                              onto a carrier) in its hex
    disembark #12 41,17       off its ship into that hex or an adjacent land hex

A ``move`` of an air unit in the first movement phase is a mission: it ends in the
air, where a friendly base is still within its remaining allowance.  In the second
movement phase (and, for the other side, the landing phase) air units in the air
must ``move`` to a base; those left in the air when the phase ends land where they
are if they can, and are eliminated otherwise.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import ClassVar, NoReturn

from engine.actions import MAX_ARGS, PASS, Action, IllegalAction, KindSpec, Refusal, prefixed
from engine.control import pass_to_side, resolve_pockets
from engine.hexgrid import NO_HEX
from engine.hexmap import Terrain
from engine.losses import eliminate
from engine.naval_route import naval_route
from engine.ownership import no_unit
from engine.phase import Phase
from engine.reach import (
    STOPPED,
    LandRules,
    SideMemo,
    air_search,
    base_distance,
    base_within,
    can_land,
    check_land_path,
    check_naval_path,
    flight_is_open,
    land_allowance,
    land_search,
    landing_carrier,
    naval_destinations,
    rail_search,
    start_zoc,
)
from engine.sides import other
from engine.stacking import LAND_LIMIT_TEXT, air_room, can_stack_land, carrier_slot, friendly_port, is_based
from engine.state import NO_UNIT, GameState, Unit
from engine.terrain import barred_terrain
from engine.units import UnitType
from engine.war import japan_soviet_refusal, may_enter_country
from engine.zoc import has_enemy_land_unit, naval_zoc

MOVE = KindSpec(
    "move",
    ("unit", "hex"),
    variadic=True,
    help="move a unit to a hex, or along a path of hexes",
    words=("UNIT", "HEX"),
    example="move #14 [Lodz]",
)
RAIL = KindSpec(
    "rail",
    ("unit", "hex"),
    help="move a land unit by rail (second movement phase)",
    words=("UNIT", "HEX"),
    example="rail #14 [Breslau]",
)
EMBARK = KindSpec(
    "embark",
    ("unit", "unit"),
    help="embark a unit on a transport or carrier in its hex",
    words=("UNIT", "CARRIER"),
    example="embark #14 #700",
)
DISEMBARK = KindSpec(
    "disembark",
    ("unit", "hex"),
    help="land an embarked unit in its carrier's hex or an adjacent land hex",
    words=("UNIT", "HEX"),
    example="disembark #14 41,17",
)

#: A checked action, ready to be carried out.
Apply = Callable[[], None]


_AIR_CARRIERS = (UnitType.AIR_TRANSPORT, UnitType.BOMBER_TRANSPORT)


def _sorted(actions: list[Action]) -> list[Action]:
    return sorted(actions, key=lambda a: (a.kind, a.args))


class _Movement(Phase):
    """What the three movement steps share; subclasses say which units may do what."""

    first: bool = False

    orders: ClassVar[tuple[KindSpec, ...]] = (MOVE, EMBARK, DISEMBARK)

    # --- which units may act -------------------------------------------------------

    def acting_side(self) -> str:
        return self.mover

    def may_move_land(self, u: Unit) -> str:
        """'' if the land unit may move (normally) in this phase, else why not."""
        return Refusal("movement.phase", "land units do not move in this phase")

    def may_move_naval(self, u: Unit) -> str:
        return Refusal("movement.phase", "naval units do not move in this phase")

    def air_mission(self) -> bool:
        """First movement: air moves are missions; later: returns to a base."""
        return self.first

    def may_move_air(self, u: Unit) -> str:
        return ""

    # --- helpers ------------------------------------------------------------------

    def _unit(self, state: GameState, side: str, uid: object) -> Unit:
        u = state.units.get(uid) if isinstance(uid, int) else None
        if u is None or u.hex == NO_HEX:
            raise IllegalAction(no_unit(uid, on_map=True))
        c = state.countries[u.country]
        if c.side != side:
            raise IllegalAction(f"{u.label()} is not a unit of the {side}", rule="unit.not-yours")
        if not c.active:
            raise IllegalAction(f"{u.label()} belongs to a country that is not at war", rule="war.not-at-war")
        return u

    def _land_rules(self, state: GameState, u: Unit, memo: SideMemo | None = None) -> LandRules:
        ignore = self.first and u.overran and u.type == UnitType.ARMOR
        return LandRules(state, u, ignore_zoc=ignore, memo=memo)

    # --- flow ----------------------------------------------------------------------

    def actors(self, state: GameState) -> tuple[str, ...]:
        return (self.acting_side(),)

    def needed(self, state: GameState, side: str) -> bool:
        return any(state.countries[u.country].active for u in state.side_units(side))

    # --- legal ---------------------------------------------------------------------

    def legal(
        self,
        state: GameState,
        side: str,
        only: Callable[[Unit], bool] | None = None,
        kinds: Collection[str] | None = None,
    ) -> list[Action]:
        """Every legal action, or with ``only`` and ``kinds`` those of the units and kinds
        they accept (searching a unit's reach is what costs, so a filter must act before
        it, not on the list)."""

        def wants(kind_: str) -> bool:
            return self.accepts(kind_) and (kinds is None or kind_ in kinds)

        moves = kinds is None or "move" in kinds
        out = [PASS]
        naval_zone: set[int] | None = None
        # per-hex facts shared by one country's searches while the list is made (the state does
        # not change meanwhile); per country, as its neutrality and Japanese/Soviet bars are its own
        memos: dict[str, SideMemo] = {}
        units = sorted(
            (u for u in state.side_units(side) if state.countries[u.country].active and (only is None or only(u))),
            key=lambda x: x.id,
        )
        for u in units:
            if u.carrier != NO_UNIT:
                if u.is_land and wants("disembark"):
                    out += [Action("disembark", (u.id, h)) for h in self._disembark_hexes(state, u)]
                if not u.is_air:
                    continue
            if u.is_land:
                memo = memos.setdefault(u.country, SideMemo())
                if moves and not self.may_move_land(u):
                    rules = self._land_rules(state, u, memo)
                    dests = land_search(rules, land_allowance(u)).cost
                    out += [Action("move", (u.id, h)) for h in sorted(dests)]
                if wants("rail") and not self._why_no_rail(state, u):
                    out += [Action("rail", (u.id, h)) for h in sorted(rail_search(state, u, memo).cost)]
                if wants("embark"):
                    out += [Action("embark", (u.id, c.id)) for c in self._carriers_for(state, u)]
            elif u.is_naval:
                if moves and not self.may_move_naval(u):
                    if naval_zone is None:
                        naval_zone = naval_zoc(state, other(side))
                    out += [
                        Action("move", (u.id, h))
                        for h in naval_destinations(state, u, max(0, u.move - u.mp_used), naval_zone)
                    ]
            else:
                if moves and not self.may_move_air(u):
                    out += [Action("move", (u.id, h)) for h in sorted(self._air_destinations(state, u, side))]
                if wants("embark") and u.carrier == NO_UNIT:
                    out += [Action("embark", (u.id, c.id)) for c in self._carriers_for(state, u)]
        return _sorted(out)

    # --- check ---------------------------------------------------------------------

    def check(self, state: GameState, side: str, action: Action) -> Apply:
        return self._plan(state, side, action)

    def apply(self, state: GameState, side: str, action: Action) -> None:
        plan = self._plan(state, side, action)
        plan()

    def _plan(self, state: GameState, side: str, action: Action) -> Apply:
        """Check an action completely and return the function that carries it out."""
        if action.kind == "pass":
            return lambda: None
        if not self.accepts(action.kind):
            raise self.wrong_order(action)
        u = self._unit(state, side, action.args[0])
        if action.kind == "move":
            hexes = [int(h) for h in action.args[1:]]
            if not hexes:
                raise IllegalAction(f"say where {u.label()} should move", rule="movement.no-destination")
            path, cost = self._route(state, side, u, hexes)
            return lambda: self._move(state, side, u, path, cost)
        if action.kind == "rail":
            return self._plan_rail(state, u, int(action.args[1]))
        if action.kind == "embark":
            carrier = self._unit(state, side, action.args[1])
            return self._plan_embark(state, u, carrier)
        return self._plan_disembark(state, side, u, int(action.args[1]))

    def spelled_out(self, state: GameState, side: str, action: Action) -> Action:
        """A move given by its destination alone, as the move along the path the rules
        choose for it: the same move, which whoever checks it again (the receiver of a turn
        file) checks hex by hex instead of searching for a path.  Any other order, one the
        rules refuse, or a path longer than an order may hold, as it is."""
        if action.kind != "move" or len(action.args) != 2 or not self.accepts("move"):
            return action
        try:
            u = self._unit(state, side, action.args[0])
            path, _ = self._route(state, side, u, [int(action.args[1])])
        except IllegalAction:
            return action
        if len(path) < 2 or len(path) >= MAX_ARGS:
            return action
        return Action("move", (u.id, *path))

    def _route(self, state: GameState, side: str, u: Unit, hexes: list[int]) -> tuple[list[int], int]:
        """The hexes a move of ``u`` through ``hexes`` (or to its one destination) enters,
        and its cost in movement points; or IllegalAction."""
        self._hexes_on_map(state, hexes)
        if u.is_land:
            return self._land_route(state, u, hexes)
        path = self._naval_route(state, u, hexes) if u.is_naval else self._air_route(state, side, u, hexes)
        return path, len(path)

    def _move(self, state: GameState, side: str, u: Unit, path: list[int], cost: int) -> None:
        """Carry out a move :meth:`_route` checked."""
        if u.is_land:
            self._do_land(state, u, path, cost)
        elif u.is_naval:
            self._do_naval(state, side, u, path)
        else:
            self._do_air(state, side, u, path, cost)

    @staticmethod
    def _hexes_on_map(state: GameState, hexes: list[int]) -> None:
        size = state.world.map.size
        for h in hexes:
            if not 0 <= h < size:
                raise IllegalAction(f"hex number {h} is off the map", rule="hex.off-map")

    # --- land ------------------------------------------------------------------------

    def _land_route(self, state: GameState, u: Unit, hexes: list[int]) -> tuple[list[int], int]:
        """The hexes a land move enters and its cost (the path the rules choose for a
        move given by its destination), or IllegalAction."""
        if u.carrier != NO_UNIT:
            raise IllegalAction(
                f"{u.label()} is embarked; it moves with its carrier or disembarks", rule="movement.embarked"
            )
        why = self.may_move_land(u)
        if why:
            raise IllegalAction(prefixed(f"{u.label()} ", why))
        rules = self._land_rules(state, u)
        allowance = land_allowance(u)
        label = state.world.map.grid.label
        if len(hexes) == 1:
            dest = hexes[0]
            if dest == u.hex:
                raise IllegalAction(f"{u.label()} is already in hex {label(dest)}", rule="movement.already-there")
            search = land_search(rules, allowance, target=dest)
            if dest not in search.cost:
                raise IllegalAction(self._land_refusal(state, rules, u, dest, allowance))
            path, cost = search.path(dest), search.cost[dest]
        else:
            path = hexes
            cost, reason = check_land_path(rules, path, allowance)
            if reason:
                raise IllegalAction(reason)
        return path, cost

    @staticmethod
    def _land_refusal(state: GameState, rules: LandRules, u: Unit, dest: int, allowance: int) -> str:
        grid = state.world.map.grid
        if start_zoc(rules) == STOPPED:
            return Refusal(
                "zoc.stop", f"{u.label()} entered an enemy control zone at {grid.label(u.hex)} and must stay there"
            )
        why = rules.why_not_enter(dest)
        if why:
            return prefixed(f"{u.label()} ", why)
        if not rules.can_end(dest):
            return Refusal(
                "stacking.land",
                f"{u.label()} may not end its move in {grid.label(dest)}: "
                f"the stacking limit is reached ({LAND_LIMIT_TEXT})",
            )
        if allowance == 0:
            return Refusal("movement.points", f"{u.label()} has no movement points left")
        if dest in rules.neighbours(u.hex):
            _, reason = check_land_path(rules, [dest], allowance)
            if reason:
                return reason
        return Refusal(
            "movement.unreachable",
            f"{u.label()} cannot reach hex {grid.label(dest)} with its {allowance} remaining movement points "
            "(terrain, weather, enemy units and control zones, and neutral countries considered)",
        )

    def _do_land(self, state: GameState, u: Unit, path: list[int], cost: int) -> None:
        for h in path:
            pass_to_side(state, h, u.country)
        state.place(u, path[-1])
        u.mp_used += cost
        if self.first:
            u.moved = True

    def _why_no_rail(self, state: GameState, u: Unit) -> str:
        if not u.is_land or u.carrier != NO_UNIT:
            return Refusal("rail.not-land", "only land units on the map move by rail")
        if u.moved or u.attacked or u.railed or u.mp_used:
            return Refusal("rail.moved", "has moved or attacked this month and may not move by rail")
        cap = state.world.info[u.country].rail_capacity
        used = (state.memo.rail_used or {}).get(u.country, 0)
        if used >= cap:
            return Refusal(
                "rail.capacity", f"may not move by rail: {u.country} has used its {cap} rail moves this turn"
            )
        return ""

    def _plan_rail(self, state: GameState, u: Unit, dest: int) -> Apply:
        why = self._why_no_rail(state, u)
        if why:
            raise IllegalAction(prefixed(f"{u.label()} ", why))
        self._hexes_on_map(state, [dest])
        search = rail_search(state, u, target=dest)
        if dest not in search.cost:
            label = state.world.map.grid.label
            raise IllegalAction(
                f"{u.label()} cannot reach hex {label(dest)} by rail: it needs a line of railway hexes "
                "controlled by its side, free of enemy units, not passing from one enemy control zone to another",
                rule="rail.unreachable",
            )
        path = search.path(dest)

        def do() -> None:
            for h in path:
                pass_to_side(state, h, u.country)
            state.place(u, dest)
            u.railed = True
            u.mp_used = u.move
            used = dict(state.memo.rail_used or {})
            used[u.country] = used.get(u.country, 0) + 1
            state.memo.rail_used = used

        return do

    # --- naval -----------------------------------------------------------------------

    def _do_naval(self, state: GameState, side: str, u: Unit, path: list[int]) -> None:
        dest = path[-1]
        state.place(u, dest)
        u.in_port = friendly_port(state, dest, side)
        u.mp_used += len(path)
        if self.first:
            u.moved = True
            _record_path(state, u, path)

    def _naval_route(self, state: GameState, u: Unit, hexes: list[int]) -> list[int]:
        """The hexes a ship's move enters (the path the rules choose for a move given by
        its destination), or IllegalAction."""
        why = self.may_move_naval(u)
        if why:
            raise IllegalAction(prefixed(f"{u.label()} ", why))
        allowance = max(0, u.move - u.mp_used)
        dest = hexes[-1]
        if len(hexes) == 1:
            search = naval_route(state, u, allowance, dest)
            if dest not in search.cost:
                raise IllegalAction(self._naval_refusal(state, u, dest, allowance))
            path = search.path(dest)
        else:
            path = hexes
            reason = check_naval_path(state, u, path, allowance)
            if reason:
                raise IllegalAction(reason)
        return path

    @staticmethod
    def _naval_refusal(state: GameState, u: Unit, dest: int, allowance: int) -> str:
        hexmap = state.world.map
        label = hexmap.grid.label(dest)
        if not hexmap.has_sea(dest) or hexmap.terrain[dest] == Terrain.ICECAP:
            return Refusal("naval.open-sea", f"{u.label()} may not enter hex {label}: ships need open sea")
        if why := japan_soviet_refusal(state, u, dest):
            return prefixed(f"{u.label()} ", why)
        if not may_enter_country(state, u, dest):
            return Refusal(
                "war.neutral-territory",
                f"{u.label()} may not enter hex {label} of {state.controller_of(dest)}, which is not at war",
            )
        return Refusal(
            "naval.unreachable",
            f"{u.label()} cannot reach hex {label} with its {allowance} remaining movement points "
            "(stacking, canals and enemy naval control zones considered)",
        )

    # --- air ---------------------------------------------------------------------------

    def _air_destinations(self, state: GameState, u: Unit, side: str) -> list[int]:
        allowance = max(0, u.move - u.mp_used)
        search = air_search(state, u, allowance)
        if not self.air_mission():
            return [h for h in search.cost if can_land(state, u, h, side)]
        region = dict(search.cost)
        region[u.hex] = 0
        to_base = base_distance(state, u, region, side)
        return [h for h, c in search.cost.items() if to_base.get(h, allowance + 1) <= allowance - c]

    def _air_route(self, state: GameState, side: str, u: Unit, hexes: list[int]) -> list[int]:
        """The hexes an air unit's flight enters (the shortest flight for a move given by
        its destination), or IllegalAction."""
        why = self.may_move_air(u)
        if why:
            raise IllegalAction(prefixed(f"{u.label()} ", why))
        hexmap = state.world.map
        label = hexmap.grid.label
        if hexmap.weather[u.hex] in state.grounded_zones:
            raise IllegalAction(
                f"{u.label()} is grounded by the weather in hex {label(u.hex)}", rule="weather.grounded"
            )
        allowance = max(0, u.move - u.mp_used)
        dest = hexes[-1]
        if len(hexes) == 1:
            search = air_search(state, u, allowance, target=dest)
            if dest not in search.cost:
                raise IllegalAction(self._air_refusal(state, u, dest, allowance))
            path = search.path(dest)
        else:
            path = hexes
            if not flight_is_open(state, u, path, allowance):
                self._refuse_flight(state, u, path, allowance)
        cost = len(path)
        if self.air_mission():
            if not base_within(state, u, dest, allowance - cost, side):
                raise IllegalAction(
                    f"{u.label()} may not fly to {label(dest)}: no friendly base with room would be within "
                    f"its {allowance - cost} remaining movement points",
                    rule="air.no-base-in-reach",
                )
        elif not can_land(state, u, dest, side):
            raise IllegalAction(
                f"{u.label()} must return to a base: hex {label(dest)} has no room for it", rule="air.no-base-room"
            )
        return path

    def _refuse_flight(self, state: GameState, u: Unit, path: list[int], allowance: int) -> NoReturn:
        """Raise the refusal of a flight along ``path`` that is not open: its first hex off
        the unit's whole reach, or the allowance."""
        label = state.world.map.grid.label
        neighbours = state.world.map.neighbours
        reach = air_search(state, u, allowance).cost
        prev = u.hex
        for h in path:
            if h not in neighbours[prev * 6 : prev * 6 + 6]:
                raise IllegalAction(f"{u.label()}: hex {label(h)} is not next to {label(prev)}", rule="movement.path")
            if h not in reach:
                raise IllegalAction(self._air_refusal(state, u, h, allowance))
            prev = h
        raise IllegalAction(f"{u.label()} has only {allowance} movement points left", rule="movement.points")

    @staticmethod
    def _air_refusal(state: GameState, u: Unit, dest: int, allowance: int) -> str:
        hexmap = state.world.map
        label = hexmap.grid.label(dest)
        if hexmap.weather[dest] in state.grounded_zones:
            return Refusal(
                "weather.grounded", f"{u.label()} may not fly into hex {label}: air units are grounded there"
            )
        if why := japan_soviet_refusal(state, u, dest):
            return prefixed(f"{u.label()} ", why)
        if not may_enter_country(state, u, dest):
            return Refusal(
                "war.neutral-territory",
                f"{u.label()} may not enter hex {label} of {state.controller_of(dest)}, which is not at war",
            )
        return Refusal(
            "movement.points", f"{u.label()} cannot reach hex {label} with its {allowance} remaining movement points"
        )

    def _do_air(self, state: GameState, side: str, u: Unit, path: list[int], cost: int) -> None:
        if u.origin == NO_HEX:
            u.origin = u.hex  # takes off: on a mission from this hex
            u.carrier = NO_UNIT
        state.place(u, path[-1])
        u.mp_used += cost
        if self.air_mission():
            _record_path(state, u, path)
        else:
            _land(state, u, side)

    # --- embarking ---------------------------------------------------------------------

    def _carriers_for(self, state: GameState, u: Unit) -> list[Unit]:
        side = state.countries[u.country].side
        out = []
        for c in sorted(state.units_at(u.hex), key=lambda x: x.id):
            if c.id != u.id and state.countries[c.country].side == side and not self._why_no_embark(state, u, c):
                out.append(c)
        return out

    def _why_no_embark(self, state: GameState, u: Unit, c: Unit) -> str:
        label = state.world.map.grid.label
        if u.carrier != NO_UNIT:
            return Refusal("embark.already", f"{u.label()} is already embarked")
        if c.hex != u.hex:
            return Refusal("embark.not-same-hex", f"{u.label()} is not in the hex of {c.label()}")
        if c.carrier != NO_UNIT:
            return Refusal("embark.carrier-embarked", f"{c.label()} is itself embarked")
        if u.is_air:
            if not u.carrier_based or c.type != UnitType.CARRIER:
                return Refusal(
                    "embark.not-carrier-based", f"{u.label()} can only embark on a carrier if it is carrier-based"
                )
            if not is_based(u):
                return Refusal(
                    "embark.on-mission", f"{u.label()} is on a mission; it lands on a carrier by moving to it"
                )
            if not carrier_slot(state, c):
                return Refusal("embark.carrier-full", f"{c.label()} is damaged or already carries an air unit")
            return ""
        if not u.is_land:
            return Refusal("embark.cannot", f"{u.label()} cannot embark")
        why = self.may_move_land(u)
        if why:
            return prefixed(f"{u.label()} ", why)
        if c.damaged:
            return Refusal("damage.no-embark", f"{c.label()} is damaged; units may not embark on it")
        if any(x.is_land for x in state.cargo_of(c)):
            return Refusal("embark.carrier-full", f"{c.label()} already carries a land unit")
        if c.type == UnitType.TRANSPORT:
            if not friendly_port(state, u.hex, state.countries[u.country].side):
                return Refusal(
                    "embark.port",
                    f"{u.label()} may board a transport only in a friendly port, and {label(u.hex)} is not one",
                )
            return ""
        if c.type in _AIR_CARRIERS:
            if u.strength > 1:
                return Refusal("embark.transport-size", f"{c.label()} carries only land units of strength 0 or 1")
            if not is_based(c):
                return Refusal("embark.on-mission", f"{c.label()} is on a mission")
            return ""
        return Refusal("embark.cannot", f"{c.label()} does not carry land units")

    def _plan_embark(self, state: GameState, u: Unit, c: Unit) -> Apply:
        why = self._why_no_embark(state, u, c)
        if why:
            raise IllegalAction(why)
        first = self.first

        def do() -> None:
            u.carrier = c.id
            if u.is_land:
                u.mp_used = u.move  # its own movement ends; it moves with the ship
                if first:
                    u.moved = True

        return do

    def _disembark_hexes(self, state: GameState, u: Unit) -> list[int]:
        c = state.units.get(u.carrier)
        if c is None or c.hex == NO_HEX:
            return []
        hexmap = state.world.map
        if c.is_air:
            candidates = [c.hex]
        else:
            near = [o for o in hexmap.neighbours[c.hex * 6 : c.hex * 6 + 6] if o != NO_HEX]
            candidates = sorted({c.hex, *near})
        return [h for h in candidates if not self._why_no_disembark(state, u, c, h)]

    def _why_no_disembark(self, state: GameState, u: Unit, c: Unit, h: int) -> str:
        hexmap = state.world.map
        label = hexmap.grid.label(h)
        side = state.countries[u.country].side
        if not hexmap.has_land(h):
            return Refusal("disembark.sea", f"{u.label()} cannot land in all-sea hex {label}")
        if h != c.hex:
            if c.is_air:
                return Refusal("disembark.air-own-hex", f"{u.label()} can only leave {c.label()} in its own hex")
            d = hexmap.grid.direction_to(c.hex, h)
            if hexmap.sides[c.hex * 6 + d] == 3:  # Side.EDGE
                return Refusal("disembark.unreachable", f"{u.label()} cannot reach hex {label}")
        if state.side_controlling(h) != side:
            return Refusal(
                "disembark.not-controlled",
                f"{u.label()} may disembark only into a hex its side controls, and {label} is not one",
            )
        if barred := barred_terrain(hexmap, u.type, h):
            return Refusal("terrain.armor", f"{u.label()} may not enter {barred} hex {label}")
        if has_enemy_land_unit(state, side, h):
            return Refusal("disembark.enemy", f"{u.label()} may not enter hex {label}, which holds enemy land units")
        if not can_stack_land(state, h, [u]):
            return Refusal(
                "stacking.land",
                f"{u.label()} may not disembark into {label}: the stacking limit is reached ({LAND_LIMIT_TEXT})",
            )
        return ""

    def _plan_disembark(self, state: GameState, side: str, u: Unit, h: int) -> Apply:
        if not u.is_land or u.carrier == NO_UNIT:
            raise IllegalAction(f"{u.label()} is not an embarked land unit", rule="disembark.not-embarked")
        self._hexes_on_map(state, [h])
        c = state.units.get(u.carrier)
        if c is None or c.hex == NO_HEX:
            raise IllegalAction(f"{u.label()} has no carrier on the map", rule="disembark.no-carrier")
        label = state.world.map.grid.label
        if h != c.hex and state.world.map.grid.distance(h, c.hex) != 1:
            raise IllegalAction(
                f"{u.label()} may disembark only into {label(c.hex)} or an adjacent hex", rule="disembark.unreachable"
            )
        why = self._why_no_disembark(state, u, c, h)
        if why:
            raise IllegalAction(why)
        first = self.first

        def do() -> None:
            u.carrier = NO_UNIT
            state.place(u, h)
            pass_to_side(state, h, u.country)
            u.mp_used = u.move
            if first:
                u.moved = True

        return do

    # --- end of phase ------------------------------------------------------------------

    def _ground_air(self, state: GameState, side: str) -> None:
        """Air units of ``side`` still in the air land where they are, or are eliminated."""
        for u in sorted(state.side_units(side), key=lambda x: x.id):
            if u.is_air and u.origin != NO_HEX and u.carrier == NO_UNIT:
                if can_land(state, u, u.hex, side):
                    _land(state, u, side)
                else:
                    eliminate(state, u)


def _land(state: GameState, u: Unit, side: str) -> None:
    """Base an air unit that is in the air at its hex (the caller checked :func:`can_land`):
    on the airbase if it has room, else on the first carrier with a free deck."""
    if air_room(state, u.hex, side) <= 0:  # u is not based yet, so it takes no place itself
        carrier = landing_carrier(state, u.hex, side)
        if carrier is not None:
            u.carrier = carrier.id
    u.origin = NO_HEX


def _record_path(state: GameState, u: Unit, path: list[int]) -> None:
    paths = dict(state.memo.paths or {})
    paths[u.id] = [*paths.get(u.id, []), *path]
    state.memo.paths = paths


def _land_units_may_move_second(u: Unit) -> str:
    if u.moved:
        return Refusal("movement.second-moved", "moved in the first movement phase and may not move again")
    if u.attacked and u.type != UnitType.ARMOR:
        return Refusal("movement.second-attacked", "attacked this turn; only armor may move after attacking")
    if u.railed:
        return Refusal("movement.second-railed", "moved by rail this turn")
    return ""


class FirstMovement(_Movement):
    name = "first_movement"
    prompt = "move land, naval and air units"
    first = True

    def enter(self, state: GameState) -> None:
        # Only what differs is set: most units are reset already, and setting a fact costs
        # a unit its packed row (engine/state.py's Unit).
        for u in state.units.values():
            if u.mp_used or u.moved or u.railed:
                u.mp_used, u.moved, u.railed = 0, False, False
            if u.origin != u.hex and not u.is_air:
                u.origin = u.hex
        state.memo.paths = None
        state.memo.rail_used = None

    def may_move_land(self, u: Unit) -> str:
        return ""

    def may_move_naval(self, u: Unit) -> str:
        return ""

    def leave(self, state: GameState) -> None:
        for u in state.units.values():
            if u.overran:  # it ignored control zones in this first movement only
                u.overran = False
        resolve_pockets(state)


class SecondMovement(_Movement):
    name = "second_movement"
    orders = (MOVE, RAIL, EMBARK, DISEMBARK)
    prompt = "move units that have not moved or attacked (rail), return air units, move ships"

    def enter(self, state: GameState) -> None:
        for u in state.side_units(self.mover):
            if u.is_naval:
                u.mp_used = 0  # ships move their full allowance again
        state.memo.rail_used = None

    def may_move_land(self, u: Unit) -> str:
        return _land_units_may_move_second(u)

    def may_move_naval(self, u: Unit) -> str:
        return ""

    def leave(self, state: GameState) -> None:
        self._ground_air(state, self.mover)
        state.memo.rail_used = None
        resolve_pockets(state)


class Landing(_Movement):
    """The side that is not moving lands its air units (supplement: "Sequence and who acts")."""

    name = "landing"
    orders = (MOVE,)
    prompt = "land your air units"

    def acting_side(self) -> str:
        return other(self.mover)

    def may_move_air(self, u: Unit) -> str:
        if u.origin != NO_HEX:
            return ""
        return Refusal("movement.phase", "is based; only air units in the air land in this phase")

    def needed(self, state: GameState, side: str) -> bool:
        return any(u.is_air and u.origin != NO_HEX for u in state.side_units(side))

    def leave(self, state: GameState) -> None:
        self._ground_air(state, self.acting_side())
