"""Italian and Finnish surrender (rulebook: "Italian Surrender", "Finnish Surrender").

Italy surrenders, checked with the conquests at the start of the war declaration phase,
when its enemies hold a city of the Italian mainland and its four African cities, or
every city of the mainland; it is then conquered for good.  Finland surrenders when the
Soviet Union's side orders it (``surrender``) in the war declaration phase and the
conditions hold; Finland is then neutral and closed for the rest of the game.
"""

from __future__ import annotations

from engine.actions import KindSpec, Refusal
from engine.control import take_control
from engine.losses import eliminate, remove_on_conquest, send_home
from engine.sides import NEUTRAL, SIDES, other
from engine.state import NO_UNIT, GameState

ITALY = "Italy"
#: The territory of the Italian mainland (with Sicily and Sardinia, told apart by land links).
ITALY_HOME = "Italy"
AFRICAN_CITIES = ("Tripoli", "Benghazi", "Addis Ababa", "Mogadishu")
#: Territories whose Italian hexes pass to Germany, and to the United Kingdom.
TO_GERMANY = ("Italy", "Albania")
TO_UK = ("Libya", "Italian East Africa")

FINLAND = "Finland"
SOVIET = "Soviet Union"
FINNISH_BORDERS = ("finland_north", "finland_south")
SOVIET_POINTS = 20
POLAND_EAST = "poland_east"

SURRENDER = KindSpec(
    "surrender", (), help="have Finland surrender (the Soviet Union's side)", words=(), example="surrender"
)

_mainland: dict[str, tuple[int, ...]] = {}


# ----------------------------------------------------------------------------- Italy


def mainland_cities(state: GameState) -> tuple[int, ...]:
    """The cities of the Italian mainland: those of Italy's home territory joined to its
    capital by land (Sicily and Sardinia are islands)."""
    key = state.world.digest
    if key not in _mainland:
        hexmap = state.world.map
        home = set(hexmap.hexes_of_territory.get(ITALY_HOME, ()))
        capitals = [c.hex for c in hexmap.cities if c.capital and c.hex in home]
        reached = set(capitals)
        todo = list(capitals)
        while todo:
            h = todo.pop()
            for o in hexmap.land_neighbours[h]:
                if o in home and o not in reached:
                    reached.add(o)
                    todo.append(o)
        _mainland[key] = tuple(sorted(c.hex for c in hexmap.cities if c.hex in reached))
    return _mainland[key]


def italy_surrenders_now(state: GameState) -> bool:
    italy = state.countries.get(ITALY)
    if italy is None or not italy.at_war or italy.conquered or italy.side not in SIDES:
        return False
    enemy = other(italy.side)
    mainland = mainland_cities(state)
    held = [state.side_controlling(h) == enemy for h in mainland]
    if held and all(held):
        return True
    by_name = state.world.map.city_by_name
    african = [by_name[n.lower()].hex for n in AFRICAN_CITIES if n.lower() in by_name]
    return any(held) and bool(african) and all(state.side_controlling(h) == enemy for h in african)


def italy_surrenders(state: GameState) -> None:
    """Italy is conquered and never liberated; Germany takes what Italy held in Italy and
    Albania, the United Kingdom what it held in Libya and Italian East Africa, and the
    conquest's usual rule gives its enemies the rest."""
    italy = state.countries[ITALY]
    side = italy.side
    remove_on_conquest(state, ITALY)
    italy.conquered, italy.never_liberate = True, True
    hexmap = state.world.map
    germany, uk = state.countries.get("Germany"), state.countries.get("United Kingdom")
    for h in hexmap.hexes_of_country.get(ITALY, ()):
        if state.controller_of(h) != ITALY:
            continue
        territory = hexmap.territories[hexmap.territory[h]].name
        if territory in TO_GERMANY and germany is not None and germany.side == side:
            take_control(state, h, "Germany")
        elif uk is not None and uk.side == other(side):
            take_control(state, h, "United Kingdom")


# --------------------------------------------------------------------------- Finland


def _west(state: GameState) -> list[int]:
    """Finland west of the temporary borders: what stays Finnish after its surrender."""
    borders = state.world.map.temp_borders
    east = set().union(*(borders.get(b, frozenset()) for b in FINNISH_BORDERS))
    return [h for h in state.world.map.hexes_of_territory.get(FINLAND, ()) if h not in east]


def soviet_points_in_finland(state: GameState) -> int:
    finland = set(state.world.map.hexes_of_territory.get(FINLAND, ()))
    return sum(
        u.strength
        for u in state.units.values()
        if u.country == SOVIET and u.is_land and u.on_map and u.carrier == NO_UNIT and u.supplied and u.hex in finland
    )


def _soviet_holds_the_west(state: GameState) -> bool:
    """Does the Soviet Union control a city in Poland west of the temporary border or in Germany?"""
    hexmap = state.world.map
    east = state.world.map.temp_borders.get(POLAND_EAST, frozenset())
    for city in hexmap.cities:
        territory = hexmap.territories[hexmap.territory[city.hex]].name
        if (territory == "Germany" or (territory == "Poland" and city.hex not in east)) and (
            state.controller_of(city.hex) == SOVIET
        ):
            return True
    return False


def finland_refusal(state: GameState, side: str) -> str:
    """Why ``side`` may not have Finland surrender now ('' if it may)."""
    finland, soviet = state.countries.get(FINLAND), state.countries.get(SOVIET)
    if finland is None or soviet is None or soviet.side != side or not soviet.active:
        return Refusal("surrender.finland", "only the side of an unconquered Soviet Union at war may do this")
    if finland.flags.surrendered:
        return Refusal("surrender.twice", "Finland has already surrendered")
    if not finland.at_war or finland.side == side:
        return Refusal("surrender.finland", "Finland is not at war against the Soviet Union")
    points = soviet_points_in_finland(state)
    if points < SOVIET_POINTS:
        return Refusal(
            "surrender.finland", f"the Soviet Union has {points} supplied strength points in Finland, not 20"
        )
    if not _soviet_holds_the_west(state):
        return Refusal(
            "surrender.finland",
            "the Soviet Union controls no city in Poland west of the temporary border nor in Germany",
        )
    return ""


def finland_surrenders(state: GameState) -> None:
    """Rulebook "Finnish Surrender"."""
    finland = state.countries[FINLAND]
    west = set(_west(state))
    for h in sorted(h for h, c in enumerate(state.controller) if c and state.controller_of(h) == FINLAND):
        if h not in west:
            take_control(state, h, SOVIET)
    for h in sorted(west):
        take_control(state, h, FINLAND)
    for u in sorted(state.units.values(), key=lambda x: (x.carrier != NO_UNIT, x.id)):
        if u.id not in state.units or not u.on_map:
            continue
        if u.hex in west:
            if u.is_land and u.country != SOVIET and u.carrier == NO_UNIT:
                eliminate(state, u)  # the Lapland war: bought back as usual
            else:
                send_home(state, u)
        elif u.country == FINLAND:
            # A neutral's units stay at home: Finnish units elsewhere go home for free.
            send_home(state, u)
    finland.side, finland.at_war = NEUTRAL, False
    finland.flags.surrendered = True
