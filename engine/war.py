"""War declaration, entry into the war, conquest, liberation and victory
(rulebook: "War Declaration, Conquest and Liberation", "Victory Conditions";
supplement: "Sequence and who acts", "Countries and sides at the start").

The war declaration phase does, in this order (supplement "Sequence and who acts"):

1. conquest, then liberation checks (:func:`check_conquests`, :func:`check_liberations`);
2. the month's new units (:func:`receive_arrivals`) and automatic entries
   (scenario ``joins_at_start``, Germany in September 1939);
3. both sides' secret declarations, revealed and applied together
   (the Axis's first, then the Allies': see docs/rules-decisions.md);
4. at its end, the victory check (:mod:`engine.victory`), made again after the phase's
   rolls (Spain's attempt, Vichy France's).

The country-specific ways of entering the war (Italy, Spain, Thailand, ...) are the
``enter`` orders of :mod:`engine.entries`, whose phase extends this one; the
Japanese/Soviet restriction is :func:`japan_soviet_barred`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import ClassVar

from engine import surrender, vichy
from engine.actions import PASS, Action, IllegalAction, KindSpec, Refusal, rule_of
from engine.control import CHINA, china_holds, take_control
from engine.losses import remove_on_conquest, send_home
from engine.phase import Phase
from engine.scenario import Units
from engine.sides import ALLIES, AXIS, NEUTRAL, SIDES, other
from engine.state import NO_UNIT, GameState, LandKey, StepMemo, Unit
from engine.units import LAND_MOVE, UnitProfile, UnitType
from engine.victory import victor

# --------------------------------------------------------------------------- data

#: Declaring war on one of these declares war on all of them (non-Vichy France only).
ALLIED_CORE = ("United Kingdom", "France", "Canada", "Australia", "New Zealand")
#: An Axis declaration on one of these is also a declaration on ALLIED_CORE.
ALLIED_GUARANTEES = (
    "Poland", "Denmark", "Norway", "Sweden", "Belgium", "Romania", "Yugoslavia", "Greece",
    "Estonia", "Latvia", "Lithuania",
)  # fmt: skip
#: Declaring war on a key also declares war on its values.
ALSO_DECLARES = {
    "United States": ("Panama",),
    "Panama": ("United States",),
    "Mongolia": ("Soviet Union",),
    "Hungary": ("Germany",),
    "Bulgaria": ("Germany",),
}
NEVER_DECLARED_ON = frozenset({"Finland"})
#: Temporary borders the neutral Soviet Union takes when the Axis declares war on Poland,
#: and where Soviet units may be placed in the first turn after the Soviet Union enters.
SOVIET_BORDERS = ("poland_east", "baltic", "romania_east", "finland_south")
#: Of the Soviet borders, those the Soviet Union takes only where the hex is still neutral.
SOVIET_BORDERS_NEUTRAL_ONLY = frozenset({"baltic"})
GERMANY_ENTRY = 1939 * 12 + 8  # September 1939 (supplement: not the rulebook's August)

#: Countries whose colonies' cities count for conquest (France only while there is no Vichy).
COLONIES_COUNT = frozenset({"United Kingdom", "Spain", "Portugal", "Netherlands", "Japan", "United States", "France"})
#: Countries conquered when only these cities are held by the enemy.
CONQUEST_CITIES = {"Belgium": ("Antwerp", "Brussels"), "Denmark": ("Esbjerg", "Aalborg", "Copenhagen")}
#: On conquest these colonies pass to another country, and come back on liberation.
COLONIES_ON_CONQUEST = {
    "Belgium": {"Belgian Congo": "United Kingdom"},
    "Denmark": {"Iceland": "United Kingdom", "Faroe Islands": "United Kingdom", "Greenland": "United States"},
}
#: Colonies that become neutral ground (units removed) while their new owner is neutral.
NEUTRAL_WHILE_OWNER_NEUTRAL = frozenset({"Greenland"})
#: Poland and the Soviet Union are always each other's enemies for conquest.
ALWAYS_ENEMIES = frozenset({frozenset({"Poland", "Soviet Union"})})
#: Conquered countries whose controlled hexes stay theirs, and that are liberated by one city.
CHINA_RULES = frozenset({CHINA})
LIBERATED_POINTS = {"Denmark": 3}
DEFAULT_LIBERATED_POINTS = 5
LIBERATED_KEY = LandKey(UnitType.INFANTRY, 3)


DECLARE = KindSpec(
    "declare", ("country",), help="declare war on a neutral country", words=("COUNTRY",), example="declare Poland"
)


# ------------------------------------------------------------------ relations


def at_war_with(state: GameState, a: str, b: str) -> bool:
    """Are countries ``a`` and ``b`` both in the war, on opposite sides?"""
    ca, cb = state.countries[a], state.countries[b]
    return ca.at_war and cb.at_war and ca.side != cb.side and NEUTRAL not in (ca.side, cb.side)


def may_enter_country(state: GameState, unit: Unit, h: int) -> bool:
    """May ``unit`` enter hex ``h`` as far as neutrality goes?

    No unit enters a hex controlled by a country not in the war (supplement
    "Control zones and hex control": neutral hexes can never be entered).  The
    temporary borders the Soviet Union takes while neutral are Soviet-controlled
    hexes, so the same test keeps them closed until war on the Soviet Union.
    """
    c = state.controller[h]
    if not c:
        return True  # the sea
    if unit.country in JAPAN_SOVIET and japan_soviet_barred(state, unit, h):
        return False
    name = state.world.country_names[c]
    return name == unit.country or state.countries[name].at_war


#: The countries of "Japanese/Soviet Relations", and the country whose land each may not enter.
JAPAN_SOVIET = {"Japan": "Soviet Union", "Soviet Union": "Japan"}


def japan_soviet_truce(state: GameState) -> bool:
    """Is the Japanese/Soviet restriction in force: Mongolia neutral, and Japan and the
    Soviet Union in opposing partnerships (rulebook "Japanese/Soviet Relations")?"""
    japan, soviet, mongolia = (state.countries.get(n) for n in ("Japan", "Soviet Union", "Mongolia"))
    if japan is None or soviet is None or (mongolia is not None and mongolia.at_war):
        return False
    return {japan.side, soviet.side} == {AXIS, ALLIES}


def japan_soviet_barred(state: GameState, unit: Unit, h: int) -> bool:
    """May ``unit`` not enter or attack into hex ``h`` because of the Japanese/Soviet
    restriction?  Japanese units are kept out of the Soviet Union's land, Soviet units
    out of Japan's and its colonies'; hexes of third countries stay open to both.
    Every way of entering a hex (movement, attack, retreat, advance, amphibious
    assault, paradrop, ...) asks this, through :func:`may_enter_country` or directly."""
    barred_from = JAPAN_SOVIET.get(unit.country)
    if barred_from is None or state.world.map.country_of[h] != barred_from:
        return False
    return japan_soviet_truce(state)


def japan_soviet_refusal(state: GameState, unit: Unit, h: int, doing: str = "enter") -> str:
    """Why :func:`japan_soviet_barred` bars ``unit`` from hex ``h`` ('' if it does not): the
    end of a sentence whose subject is the unit, as movement's refusals are."""
    if not japan_soviet_barred(state, unit, h):
        return ""
    return Refusal(
        "war.japan-soviet",
        f"may not {doing} hex {state.world.map.grid.label(h)} of {JAPAN_SOVIET[unit.country]} "
        "while Mongolia is neutral (Japanese/Soviet Relations)",
    )


def is_enemy_for_conquest(state: GameState, country: str, holder: str) -> bool:
    return holder != country and (state.enemies(country, holder) or frozenset({country, holder}) in ALWAYS_ENEMIES)


# ------------------------------------------------------------------ entering


def enter_war(state: GameState, country: str, side: str) -> None:
    """``country`` joins ``side`` and enters the war; its whole pool becomes free units
    to place at the next deployment (supplement "Countries and sides at the start")."""
    c = state.countries[country]
    if c.at_war:
        return
    c.side, c.at_war, c.entered = side, True, state.date
    c.flags.joins = ""
    for key in sorted(c.pool_land):
        if c.pool_land[key]:
            c.free_land[key] = c.free_land.get(key, 0) + c.pool_land[key]
    c.pool_land = {}
    for profile in c.pool_units:
        c.free_units.append(state.new_unit(country, profile).id)
    c.pool_units = []
    if country == "Soviet Union":
        # Supplement "Placing units": the first turn after entering, Soviet units may
        # also be placed in the border hexes it controls.
        for border in SOVIET_BORDERS:
            c.flags.placements[border] = state.date


def add_to_pool(state: GameState, country: str, land: dict[LandKey, int], units: Iterable[UnitProfile]) -> None:
    """Make units available to ``country`` (land points by key, naval/air profiles)."""
    c = state.countries[country]
    for key, n in land.items():
        c.pool_land[key] = c.pool_land.get(key, 0) + n
        if key.type is UnitType.INFANTRY:
            c.flags.had_infantry = True
    c.pool_units.extend(units)


def receive_arrivals(state: GameState) -> None:
    """The month's new available units (rulebook "New Available Units") from the
    scenario's schedule; conquered and liberated countries receive none."""
    schedule = state.world.schedule
    if schedule is None:
        return
    entries = {n: c.entered for n, c in state.countries.items() if c.at_war and c.entered >= 0}
    for arrival in schedule.arrivals_due(state.date, entries):
        c = state.countries.get(arrival.country)
        if c is None or c.conquered or c.liberated:
            continue
        add_to_pool(state, arrival.country, *units_to_pool(arrival.units))


def units_to_pool(units: Units) -> tuple[dict[LandKey, int], list[UnitProfile]]:
    """A scenario ``Units`` bundle as pool entries."""
    land: dict[LandKey, int] = {}
    for lp in units.land:
        key = LandKey(lp.type, lp.move)
        land[key] = land.get(key, 0) + lp.points
    if units.supply:
        land[LandKey(UnitType.SUPPLY, LAND_MOVE[UnitType.SUPPLY])] = units.supply
    return land, [*units.naval, *units.air]


def automatic_entries(state: GameState) -> None:
    """Entries that happen at the start of a war declaration phase without a declaration."""
    for name in sorted(state.countries):
        c = state.countries[name]
        if c.flags.joins and not c.at_war:
            enter_war(state, name, c.flags.joins)
    germany = state.countries.get("Germany")
    # Rulebook "Other Ways of Entering the War" (supplement: September, not August).
    if germany is not None and not germany.at_war and state.date >= GERMANY_ENTRY:
        enter_war(state, "Germany", AXIS)


# ---------------------------------------------------------------- declaration


def _china_alone(state: GameState) -> bool:
    """Is China the only Allied country at war with land units (on the map or in its pool
    of free units)?  One pass over the units: the war declaration lists ask it for every
    neutral country."""
    allied = {n for n, x in state.countries.items() if x.side == ALLIES and x.at_war}
    if "China" not in allied:
        return False
    with_land = {n for n in allied if any(state.countries[n].free_land.values())}
    if with_land - {"China"}:
        return False
    with_land |= {u.country for u in state.units.values() if u.country in allied and u.is_land}
    return with_land == {"China"}


_land_borders: dict[str, frozenset[str]] = {}


def land_neighbours_of(state: GameState, country: str) -> frozenset[str]:
    """Countries sharing a land border with ``country`` (static, cached per world)."""
    key = f"{state.world.digest}/{country}"
    if key not in _land_borders:
        hexmap = state.world.map
        owner = hexmap.country_of
        found = {
            owner[o]
            for h in hexmap.hexes_of_country.get(country, ())
            for o in hexmap.land_neighbours[h]
            if owner[o] and owner[o] != country
        }
        _land_borders[key] = frozenset(found)
    return _land_borders[key]


def refusal(state: GameState, side: str, target: str) -> str:
    """Why ``side`` may not declare war on ``target`` now ('' if it may)."""
    c = state.countries.get(target)
    if c is None:
        return Refusal("country.unknown", f"there is no country named {target}")
    if c.at_war or c.side != NEUTRAL:
        return Refusal("war.not-neutral", f"{target} is not neutral")
    if target in NEVER_DECLARED_ON:
        return Refusal(
            "war.never-declared-on", f"nobody may declare war on {target}; it enters the war against the Soviet Union"
        )
    if side == ALLIES:
        # Vichy France is a neutral country which either player can declare war on.
        if state.world.info[target].leans_allied and not (target == vichy.FRANCE and vichy.is_vichy(state)):
            return Refusal("war.allies-may-not-declare", f"the Allies may not declare war on {target}")
        if target not in land_neighbours_of(state, "China") and _china_alone(state):
            return Refusal(
                "war.china-neighbours",
                f"while China is the only Allied country at war with land units, the Allies may only "
                f"declare war on China's neighbours, and {target} does not border China",
            )
    elif state.world.info[target].leans_axis:
        return Refusal("war.axis-may-not-declare", f"the Axis may not declare war on {target}")
    soviet = state.countries.get("Soviet Union")
    if target == "Mongolia" and soviet is not None and soviet.side == side:
        return Refusal("war.mongolia", "the side of the Soviet Union may not declare war on Mongolia")
    return ""


def declarable(state: GameState, side: str) -> list[str]:
    return [n for n in sorted(state.countries) if not refusal(state, side, n)]


def declare(state: GameState, side: str, target: str) -> None:
    """Carry out ``side``'s declaration of war on ``target`` with every chained effect
    (rulebook "War Declaration").  Countries no longer neutral are skipped."""
    enemy = other(side)
    if target == vichy.FRANCE and vichy.is_vichy(state):
        vichy.declared_on(state, side)
        return
    todo = [target]
    if side == AXIS and target in ALLIED_GUARANTEES:
        todo += ALLIED_CORE
    if target == "Poland" and side == AXIS:
        _soviet_takes_borders(state)
    seen: set[str] = set()
    while todo:
        name = todo.pop(0)
        if name in seen or name not in state.countries:
            continue
        seen.add(name)
        if state.countries[name].at_war or state.countries[name].side != NEUTRAL:
            continue
        if name == vichy.FRANCE and vichy.is_vichy(state):
            continue  # only non-Vichy France is declared on with the United Kingdom
        enter_war(state, name, enemy)
        if name in ALLIED_CORE:
            todo += ALLIED_CORE
        todo += ALSO_DECLARES.get(name, ())
        if name == "Soviet Union":
            finland = state.countries.get("Finland")
            if finland is not None and not finland.at_war and not finland.flags.surrendered:
                enter_war(state, "Finland", side)


def _soviet_takes_borders(state: GameState) -> None:
    soviet, germany = state.countries.get("Soviet Union"), state.countries.get("Germany")
    if soviet is None or germany is None or soviet.at_war or soviet.side != NEUTRAL or germany.side != AXIS:
        return
    borders = state.world.map.temp_borders
    names = state.world.country_names
    for border in SOVIET_BORDERS:
        for h in sorted(borders.get(border, ())):
            holder = names[state.controller[h]]
            if border in SOVIET_BORDERS_NEUTRAL_ONLY and (not holder or state.countries[holder].at_war):
                continue
            state.set_controller(h, "Soviet Union")


# ------------------------------------------------------------ conquest, liberation


def counted_cities(state: GameState, country: str) -> tuple[int, ...]:
    """The cities that decide ``country``'s conquest (rulebook "Conquest", "Colonies and Conquest")."""
    world = state.world
    names = CONQUEST_CITIES.get(country)
    if names:
        found = tuple(
            sorted(world.map.city_by_name[n.lower()].hex for n in names if n.lower() in world.map.city_by_name)
        )
        if found:
            return found
    if country in COLONIES_COUNT and not state.countries[country].flags.vichy:
        return world.cities_of.get(country, ())
    return world.home_cities_of.get(country, ())


def _counted_hexes(state: GameState, country: str) -> tuple[int, ...]:
    hexmap = state.world.map
    if country in COLONIES_COUNT and not state.countries[country].flags.vichy:
        return hexmap.hexes_of_country.get(country, ())
    return hexmap.hexes_of_territory.get(country, ())


def _conqueror(state: GameState, country: str, cities: tuple[int, ...]) -> str:
    """The capital's holder if at war, else the holder of most counted cities (ties: name)."""
    names = state.world.country_names
    holders = [names[state.controller[h]] for h in cities]
    at_war = [x for x in holders if state.countries[x].at_war]
    for h in cities:
        city = state.world.map.city_at[h]
        if city.capital and names[state.controller[h]] in at_war:
            return names[state.controller[h]]
    counts = Counter(at_war or holders)
    return min(counts, key=lambda x: (-counts[x], x))


def conquer(state: GameState, country: str, by: str = "") -> None:
    """Carry out the conquest of ``country`` (rulebook "Conquest", "Chinese Exceptions",
    "Colonies and Conquest"), by ``by`` when the country surrendered to it, else by the
    holder of its capital or of most of its cities."""
    c = state.countries[country]
    winner = by or _conqueror(state, country, counted_cities(state, country))
    win_side = state.countries[winner].side
    keep = country in CHINA_RULES
    pool = None
    if keep:
        # China may later buy back everything it had on the map or available.
        _return_everything_to_pool(state, country)
        pool = (c.pool_land, c.pool_units)
    remove_on_conquest(state, country)
    if pool is not None:
        c.pool_land, c.pool_units = pool
    c.conquered = True
    if keep:
        return
    names = state.world.country_names
    occupied = state.occupied_hexes()
    for h in _counted_hexes(state, country):
        holder = names[state.controller[h]]
        if not holder or holder == winner:
            continue
        hs = state.countries[holder].side
        if holder != country and not (hs == c.side and hs != win_side):
            continue
        if any(_enemy_land(state, state.units[i], win_side) for i in occupied.get(h, ())):
            continue
        take_control(state, h, winner)
    _hand_over_colonies(state, country)


def _enemy_land(state: GameState, u: Unit, side: str) -> bool:
    s = state.countries[u.country].side
    return u.is_land and s not in (side, NEUTRAL)


def _return_everything_to_pool(state: GameState, country: str) -> None:
    c = state.countries[country]
    for u in state.units_of(country):
        if u.is_land:
            key = LandKey(u.type, u.move)
            c.pool_land[key] = c.pool_land.get(key, 0) + max(u.strength, 1 if u.type is UnitType.SUPPLY else 0)
        else:
            c.pool_units.append(u.profile())
    for key, n in c.free_land.items():
        c.pool_land[key] = c.pool_land.get(key, 0) + n


def _hand_over_colonies(state: GameState, country: str) -> None:
    hexmap = state.world.map
    for colony, receiver in sorted(COLONIES_ON_CONQUEST.get(country, {}).items()):
        if receiver not in state.countries:
            continue
        for h in hexmap.hexes_of_territory.get(colony, ()):
            if state.controller_of(h) == country:
                state.set_controller(h, receiver)
        if colony in NEUTRAL_WHILE_OWNER_NEUTRAL and not state.countries[receiver].at_war:
            # Rulebook "Colonies and Conquest" (Greenland): units there go home for free.
            for h in hexmap.hexes_of_territory.get(colony, ()):
                state.set_controller(h, receiver)
                for u in sorted(state.units_at(h), key=lambda x: (x.carrier != NO_UNIT, x.id)):
                    if u.id in state.units and u.hex == h:
                        send_home(state, u)


def liberate(state: GameState, country: str) -> None:
    """Carry out the liberation of ``country`` (rulebook "Liberation")."""
    c = state.countries[country]
    c.conquered, c.liberated = False, True
    # France liberated by the Axis (after joining it) receives no liberated forces.
    if c.flags.had_infantry and not (c.flags.vichy and c.side == AXIS):
        points = LIBERATED_POINTS.get(country, DEFAULT_LIBERATED_POINTS)
        c.free_land[LIBERATED_KEY] = c.free_land.get(LIBERATED_KEY, 0) + points
    hexmap = state.world.map
    for colony, receiver in sorted(COLONIES_ON_CONQUEST.get(country, {}).items()):
        for h in hexmap.hexes_of_territory.get(colony, ()):
            if state.controller_of(h) == receiver:
                state.set_controller(h, country)


def is_conquered_now(state: GameState, country: str) -> bool:
    cities = counted_cities(state, country)
    names = state.world.country_names
    return bool(cities) and all(is_enemy_for_conquest(state, country, names[state.controller[h]]) for h in cities)


def is_liberated_now(state: GameState, country: str) -> bool:
    c = state.countries[country]
    cities = counted_cities(state, country)
    names = state.world.country_names

    def ours(h: int) -> bool:
        holder = names[state.controller[h]]
        if holder == country:
            return True
        # A city held by an "always enemy" (Poland/Soviet Union) does not liberate.
        return state.countries[holder].side == c.side and not is_enemy_for_conquest(state, country, holder)

    if country in CHINA_RULES:
        return any(ours(h) for h in cities)
    return bool(cities) and all(ours(h) for h in cities)


def _placing_in_china(state: GameState) -> bool:
    """Does an enemy of China place its units this month in the hexes of China it holds
    (supplement "Placing units": Japan in the first turn of the 1939 scenario)?  Until that
    deployment those hexes stay its own, empty as they are."""
    china = state.countries.get(CHINA)
    if china is None:
        return False
    hexes = state.world.map.hexes_of_territory.get(CHINA, ())
    borders = state.world.map.temp_borders
    for c in state.countries.values():
        if c.side in (china.side, NEUTRAL):
            continue
        for border, when in c.flags.placements.items():
            if when == state.date and not borders.get(border, frozenset()).isdisjoint(hexes):
                return True
    return False


def check_conquests(state: GameState) -> list[str]:
    done = []
    for name in sorted(state.countries):
        c = state.countries[name]
        if c.flags.atomic_surrender and not c.conquered:
            # Rulebook "Atomic Bomb": a country that surrendered to a bomb can't be liberated.
            conquer(state, name, by=c.flags.atomic_surrender)
            c.never_liberate = True
            done.append(name)
            continue
        if name == surrender.ITALY:
            # Rulebook "Colonies and Conquest": Italy surrenders before it would be conquered.
            if surrender.italy_surrenders_now(state):
                surrender.italy_surrenders(state)
                done.append(name)
            continue
        if c.at_war and not c.conquered and is_conquered_now(state, name):
            conquer(state, name)
            done.append(name)
    return done


def check_liberations(state: GameState) -> list[str]:
    done = []
    for name in sorted(state.countries):
        c = state.countries[name]
        if c.conquered and not c.never_liberate and c.side != NEUTRAL and is_liberated_now(state, name):
            liberate(state, name)
            done.append(name)
    return done


# -------------------------------------------------------------------- the phase


class WarDeclaration(Phase):
    name = "war_declaration"
    kind = "simultaneous"
    orders: ClassVar[tuple[KindSpec, ...]] = (DECLARE, vichy.ATTEMPT, surrender.SURRENDER)
    prompt = "declare war on neutral countries, or pass"

    def enter(self, state: GameState) -> None:
        check_conquests(state)
        # A conquest may have removed the units that held hexes of China, which may then
        # be liberated at once (rulebook "Chinese Exceptions").
        if not _placing_in_china(state):
            china_holds(state)
        check_liberations(state)
        if vichy.liberated_now(state):
            vichy.join_allies(state)
            liberate(state, vichy.FRANCE)
        receive_arrivals(state)
        automatic_entries(state)
        state.memo = StepMemo()

    def needed(self, state: GameState, side: str) -> bool:
        return (
            bool(declarable(state, side))
            or not vichy.refusal(state, side)
            or not surrender.finland_refusal(state, side)
        )

    def legal(self, state: GameState, side: str) -> list[Action]:
        done = set((state.memo.declared or {}).get(side, ()))
        out = [PASS, *(Action("declare", (n,)) for n in declarable(state, side) if n not in done)]
        if not vichy.refusal(state, side) and "vichy" not in (state.memo.attempts or ()):
            out.append(Action("vichy", ()))
        if not surrender.finland_refusal(state, side) and "surrender" not in (state.memo.attempts or ()):
            out.append(Action("surrender", ()))
        return sorted(out, key=lambda a: (a.kind, a.args))

    def check(self, state: GameState, side: str, action: Action) -> None:
        if action.kind == "surrender":
            if "surrender" in (state.memo.attempts or ()):
                raise IllegalAction("Finland's surrender is already in this list", rule="surrender.twice")
            why = surrender.finland_refusal(state, side)
            if why:
                raise IllegalAction(f"{why}.", rule=rule_of(why))
            return
        if action.kind == "vichy":
            if "vichy" in (state.memo.attempts or ()):
                raise IllegalAction("Vichy France is already attempted in this list", rule="vichy.twice")
            why = vichy.refusal(state, side)
            if why:
                raise IllegalAction(f"{why}.", rule=rule_of(why))
            return
        if action.kind != "declare":
            super().check(state, side, action)
            return
        (target,) = action.args
        assert isinstance(target, str)
        if target in (state.memo.declared or {}).get(side, ()):
            raise IllegalAction(f"war on {target} is already declared in this list", rule="war.declared-twice")
        why = refusal(state, side, target)
        if why:
            raise IllegalAction(f"{why}.", rule=rule_of(why))

    def apply(self, state: GameState, side: str, action: Action) -> None:
        # Declarations are secret and revealed together: a probe only records them.
        if action.kind in ("vichy", "surrender"):
            state.memo.attempts = [*(state.memo.attempts or ()), action.kind]
            return
        if state.memo.declared is None:
            state.memo.declared = {}
        state.memo.declared.setdefault(side, []).append(str(action.args[0]))

    def apply_simultaneous(self, state: GameState, orders: dict[str, list[Action]]) -> None:
        # The Axis's declarations first, then the Allies' (docs/rules-decisions.md).
        for side in SIDES:
            for action in orders.get(side, ()):
                self.carry_out(state, side, action)
        state.memo = StepMemo()

    def carry_out(self, state: GameState, side: str, action: Action) -> None:
        """One revealed order, in list order."""
        if action.kind == "vichy":
            # Rolled by the next step (vichy.VichyAttempt), after every declaration.
            state.countries[vichy.FRANCE].flags.entry_attempt = "pending"
        elif action.kind == "declare":
            declare(state, side, str(action.args[0]))
        elif action.kind == "surrender" and not surrender.finland_refusal(state, side):
            # No dice: the Soviet side's choice takes effect when it is revealed.
            surrender.finland_surrenders(state)

    def leave(self, state: GameState) -> None:
        state.memo = StepMemo()
        state.winner = victor(state)
