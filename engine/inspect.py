"""What a player looks at before deciding: one hex in full, and the legal orders that
concern a unit, a hex, a country or a kind (rulebook: "Combat", "Supply", "Terrain").

Everything is plain data with hexes written as ``COL,ROW`` (or a city's name), so the
command line only prints it; the rules questions are asked of the modules that own
them (combat strengths, supply lines, movement searches), never answered twice.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass

from engine import combat, combat_math, weather
from engine.actions import KINDS, Action, IllegalAction
from engine.events import number_text
from engine.hexgrid import NO_HEX
from engine.hexmap import Terrain
from engine.movement import _Movement
from engine.orders import parse_place
from engine.reach import land_allowance
from engine.sequence import current
from engine.state import NO_UNIT, GameState, Unit
from engine.supply import SupplyWords, supply_map
from engine.terrain import TERRAIN
from engine.units import UnitType


@dataclass(frozen=True, slots=True)
class UnitLine:
    """One unit in the hex, as its counter reads (``#12 Germany armor 8-5``)."""

    label: str
    side: str
    country: str
    counter: str  # the counter's numbers: land strength-movement, others attack-...-movement
    supply: str  # "in supply", "out of supply", or "in supply until the supply phase"
    notes: tuple[str, ...]  # damaged, embarked, in port, in the air, ...
    id: int
    kind: str  # the unit's type in words: "infantry", "heavy cruiser", "fighter bomber"
    numbers: str  # the counter's numbers named: "strength 5, movement 3"
    done: tuple[str, ...]  # what it did this month: moved, moved by rail, attacked, ...
    cargo: tuple[str, ...]  # what it carries: the units embarked on it, a convoy's money


@dataclass(frozen=True, slots=True)
class AttackOdds:
    """What an attack on the hex would be now: by the units asked about, or by every one of
    my adjacent land units with every bomber and warship of mine there that may support it."""

    attackers: tuple[str, ...]  # labels of the units that may attack it
    supports: tuple[str, ...]  # labels of my bombers and warships in the hex that support it
    barred: tuple[str, ...]  # units of mine asked about (or adjacent) that may not, each with why
    attack: str  # strengths as the combat log writes them: 7, 7.5
    defence: str
    ratio: str  # attack / defence, two decimals ("" when nobody may attack)
    defender_loses: float  # chance the defender loses at least one strength point
    attackers_eliminated: float  # chance every attacker is eliminated
    notes: tuple[str, ...]  # the modifiers applied (terrain, fortification, weather, supply)


@dataclass(frozen=True, slots=True)
class HexReport:
    hex: str  # COL,ROW
    city: str
    terrain: str
    territory: str  # the country (or colony) the hex belongs to on the map
    controller: str  # the country controlling it now ('' for the sea)
    control_side: str  # axis, allies, neutral or ''
    weather: str
    installations: tuple[str, ...]
    units: tuple[UnitLine, ...]
    odds: AttackOdds | None  # None when no enemy land unit is in the hex


def hex_report(state: GameState, side: str, where: str, attackers: Collection[int] = ()) -> HexReport:
    """Everything about the hex ``where`` (``COL,ROW``, ``[City]`` or a city name) that
    ``side`` sees; raises OrderError for a hex or city that does not exist.  The odds are
    those of an attack by ``attackers`` (unit ids) when given, else by every adjacent unit."""
    hexmap = state.world.map
    h = parse_place(hexmap, where)
    city = hexmap.city_at.get(h)
    territory_no = hexmap.territory[h]
    territory = hexmap.territories[territory_no].name if territory_no else ""
    controller = state.controller_of(h)
    return HexReport(
        hex=hexmap.grid.label(h),
        city=city.name if city else "",
        terrain=TERRAIN[Terrain(hexmap.terrain[h])].name,
        territory=territory,
        controller=controller,
        control_side=state.side_of(controller) if controller else "",
        weather=weather.condition(state, h),
        installations=_installations(state, h),
        units=_stack(state, h),
        odds=_odds(state, side, h, frozenset(attackers)),
    )


def _installations(state: GameState, h: int) -> tuple[str, ...]:
    hexmap = state.world.map
    out = []
    city = hexmap.city_at.get(h)
    if city is not None:
        out.append(f"capital city {city.name}" if city.capital else f"city {city.name}")
    if h in hexmap.resources:
        out.append("resource")
    if hexmap.is_port(h):
        out.append("major port" if city is not None and city.major_port else "port")
    if h in state.forts:
        months = state.forts[h]
        owner = state.fort_owner.get(h, "")
        built = "fortification" if months == 0 else f"fortification, finished in {months} months"
        out.append(f"{built} ({owner})" if owner else built)
    if h in state.airfields:
        months = state.airfields[h]
        owner = state.airfield_owner.get(h, "")
        built = "airfield" if months == 0 else f"airfield, finished in {months} months"
        out.append(f"{built} ({owner})" if owner else built)
    if h in state.bombed:
        out.append("bombed (no port, no air base)")
    if h in state.strategic:
        out.append("strategically bombed (no income)")
    if h in state.atomized:
        out.append("destroyed by an atomic bomb")
    return tuple(out)


def stack(state: GameState, where: str) -> tuple[str, tuple[UnitLine, ...]]:
    """The hex ``where`` (``COL,ROW``, ``[City]`` or a city name: OrderError if there is
    none) as ``COL,ROW``, and every unit in it, each as :func:`hex_report` lists it."""
    h = parse_place(state.world.map, where)
    return state.world.map.grid.label(h), _stack(state, h)


def _stack(state: GameState, h: int) -> tuple[UnitLine, ...]:
    words = SupplyWords(state)
    units = []
    here = sorted(state.units_at(h), key=lambda x: x.id)
    for u in here:
        aboard = tuple(x.label() for x in here if x.carrier == u.id)
        units.append(_unit_line(state, u, state.side_of(u.country), words.word(u), aboard))
    return tuple(units)


def _done(u: Unit) -> tuple[str, ...]:
    """What the unit did this month, as its flags (cleared each month) keep it."""
    done = []
    if u.railed:
        done.append("moved by rail")
    elif u.moved or u.mp_used:
        done.append(f"moved ({u.mp_used} of {u.move} movement points used)" if u.mp_used else "moved")
    if u.overran:
        done.append("took part in an overrun")
    elif u.attacked:
        done.append("attacked")
    return tuple(done)


def _unit_line(state: GameState, u: Unit, side: str, supply: str, aboard: tuple[str, ...]) -> UnitLine:
    notes = []
    if u.damaged:
        notes.append("damaged")
    if u.carrier != NO_UNIT:
        notes.append(f"embarked on #{u.carrier}")
    if u.in_port:
        notes.append("in port")
    if u.is_air and u.origin != NO_HEX and u.carrier == NO_UNIT:
        notes.append("in the air")
    cargo = (*aboard, f"${u.cargo}B for {u.cargo_to}") if u.cargo else aboard
    kind = u.type.value.replace("_", " ")
    p = u.profile()
    return UnitLine(u.label(), side, u.country, p.text(), supply, tuple(notes), u.id, kind, p.words(), _done(u), cargo)


def _odds(state: GameState, side: str, h: int, chosen: frozenset[int]) -> AttackOdds | None:
    defenders = combat.land_defenders(state, h, side)
    if not defenders:
        return None
    hexmap = state.world.map
    overrun = isinstance(current(state), combat.Overrun)
    mine = supply_map(state, side)
    near = sorted(set(hexmap.land_neighbours[h]) | set(hexmap.frozen_neighbours[h]))
    able: list[Unit] = []
    helpers: list[Unit] = []
    barred: list[str] = []
    for o in near:
        for u in sorted(state.units_at(o), key=lambda x: x.id):
            if not u.is_land or u.carrier != NO_UNIT or state.side_of(u.country) != side:
                continue
            if chosen and u.id not in chosen:
                continue
            # The question is "if I attacked now", so attacks already declared this step do not count.
            why = combat.attacker_refusal(state, side, u, u.id, h, overrun, mine, set())
            if why:
                barred.append(str(why))
            else:
                able.append(u)
    if not overrun:
        # Units landed by an assault attack from the hex itself; bombers and warships there support.
        for u in sorted(state.units_at(h), key=lambda x: x.id):
            if state.side_of(u.country) != side or (chosen and u.id not in chosen):
                continue
            if u.is_land:
                if u.carrier == NO_UNIT and not combat.attacker_refusal(state, side, u, u.id, h, False, mine, set()):
                    able.append(u)
                continue
            why = combat.supporter_refusal(state, side, u.id, h, mine, set())
            if not why:
                helpers.append(u)
            elif chosen:
                barred.append(str(why))
    labels, helping = tuple(u.label() for u in able), tuple(u.label() for u in helpers)
    if all(u.type == UnitType.SUPPLY for u in defenders):
        # "Supply Units in Combat": supply units alone are always eliminated.
        attack = combat.attack_strength(state, able, helpers)[0]
        return AttackOdds(
            labels, helping, tuple(barred), number_text(attack), "0", "", 1.0, 0.0, ("supply units alone",)
        )
    found = combat.odds(state, h, side, able, helpers if able else [])
    if not able:
        return AttackOdds((), (), tuple(barred), "0", number_text(found.defence), "", 0.0, 0.0, found.defence_mods)
    return AttackOdds(
        attackers=labels,
        supports=helping,
        barred=tuple(barred),
        attack=number_text(found.attack),
        defence=number_text(found.defence),
        ratio=f"{float(found.ratio):.2f}",
        defender_loses=combat_math.defender_loss_chance(1, found.ratio),
        attackers_eliminated=max(0.0, 1.0 - float(found.ratio)),
        notes=found.attack_mods + found.defence_mods,
    )


# --- the legal orders that concern something ----------------------------------------


def legal_matching(
    state: GameState,
    side: str,
    *,
    units: Collection[int] = (),
    places: Collection[str] = (),
    countries: Collection[str] = (),
    kinds: Collection[str] = (),
) -> list[Action]:
    """The legal actions of ``side`` that concern one of ``units`` (ids), one of ``places``
    (hexes a person names: an order naming the hex, or one of a unit standing there),
    one of ``countries`` (an order naming it or one of its units) and one of ``kinds``;
    an empty collection does not filter.  The movement phases search only the units
    that can match, which is where nearly all the time of a full list goes."""
    hexes = {parse_place(state.world.map, p) for p in places}
    unit_set, country_set, kind_set = set(units), set(countries), set(kinds)
    step = current(state)
    if not isinstance(step, _Movement):
        legal = step.legal(state, side)
    else:

        def chosen(u: Unit) -> bool:
            return (not unit_set or u.id in unit_set) and (not country_set or u.country in country_set)

        only_kinds = kind_set or None
        if not hexes:
            legal = step.legal(state, side, chosen, only_kinds)
        else:
            # Units standing in a named hex: all their orders.  Others: only orders that
            # reach a named hex, each asked as one targeted check instead of a search of
            # everything the unit could reach (ships reach hundreds of thousands of hexes).
            legal = step.legal(state, side, lambda u: chosen(u) and u.hex in hexes, only_kinds)
            legal += _orders_into(state, step, side, hexes, chosen)
            legal.sort(key=lambda a: (a.kind, a.args))
    return [a for a in legal if _matches(state, a, unit_set, hexes, country_set, kind_set)]


def _orders_into(
    state: GameState, step: _Movement, side: str, hexes: set[int], chosen: Callable[[Unit], bool]
) -> list[Action]:
    """The movement orders of ``side``'s units elsewhere that end in one of ``hexes``."""
    hexmap = state.world.map
    grid = hexmap.grid
    # A step costs at least a point, so a unit farther away than its allowance cannot
    # arrive; a canal is one step between its two hexes, which may lie further apart.
    canal_jump = sum(max(0, grid.distance(c.a, c.b) - 1) for c in hexmap.canals)
    out: list[Action] = []
    for u in sorted(state.side_units(side), key=lambda x: x.id):
        if u.hex in hexes or not chosen(u) or not state.countries[u.country].active:
            continue
        tries = []
        for h in sorted(hexes):
            if u.is_naval:
                reach = max(0, u.move - u.mp_used) + canal_jump
                arrives = hexmap.has_sea(h) and grid.distance(u.hex, h) <= reach
            else:
                reach = land_allowance(u) if u.is_land else max(0, u.move - u.mp_used)
                arrives = grid.distance(u.hex, h) <= reach
            if arrives:
                tries.append(Action("move", (u.id, h)))
            # rail goes any distance
            if u.is_land and step.accepts("rail"):
                tries.append(Action("rail", (u.id, h)))
            if u.is_land and u.carrier != NO_UNIT and step.accepts("disembark") and grid.distance(u.hex, h) <= 1:
                tries.append(Action("disembark", (u.id, h)))
        for action in tries:
            try:
                step.check(state, side, action)
            except IllegalAction:
                continue
            out.append(action)
    return out


def _matches(
    state: GameState, action: Action, units: set[int], hexes: set[int], countries: set[str], kinds: set[str]
) -> bool:
    if kinds and action.kind not in kinds:
        return False
    roles = KINDS[action.kind].roles_for(len(action.args))
    found = (state.units.get(int(a)) for a, r in zip(action.args, roles, strict=True) if r == "unit")
    named_units = [u for u in found if u is not None]
    if units and not any(u.id in units for u in named_units):
        return False
    if hexes:
        named_hexes = {int(a) for a, r in zip(action.args, roles, strict=True) if r == "hex"}
        if not (named_hexes & hexes or any(u.hex in hexes for u in named_units)):
            return False
    if countries:
        named = {str(a) for a, r in zip(action.args, roles, strict=True) if r == "country"}
        if not (named & countries or any(u.country in countries for u in named_units)):
            return False
    return True
