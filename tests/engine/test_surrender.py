"""Italian and Finnish surrender (rulebook "Italian Surrender", "Finnish Surrender")."""

from __future__ import annotations

from engine import api, surrender
from engine.actions import PASS, Action, rule_of
from engine.position import AT_START, begin_at, build_world, put, setup
from engine.state import GameState, LandKey
from engine.units import UnitType
from engine.war import check_conquests, check_liberations, declare, enter_war, may_enter_country
from engine.world import CountryInfo

# Italy: Rome, Milan, Naples on the mainland, Palermo on an island; Albania (Tirana),
# Libya (Tripoli, Benghazi) and Italian East Africa (Addis Ababa, Mogadishu).
ITALY = build_world(
    """
    G:c I:c I:c ~   I:c ~
     G:c I:c I:c ~   ~  U:c
    I:c I:c ~   I:c I:c U:c
    """,
    cities={
        "Berlin": "0,0 capital",
        "Rome": "1,0 capital",
        "Milan": "2,0",
        "Palermo": "4,0",
        "Naples": "1,1",
        "Tirana": "2,1",
        "London": "5,1 capital",
        "Tripoli": "0,2",
        "Benghazi": "1,2",
        "Addis Ababa": "3,2",
        "Mogadishu": "4,2",
    },
    colonies={"Albania": "Italy", "Libya": "Italy", "Italian East Africa": "Italy"},
    colony_hexes={"Albania": ["2,1"], "Libya": ["0,2", "1,2"], "Italian East Africa": ["3,2", "4,2"]},
    countries=[CountryInfo("United Kingdom", leans_allied=True)],
)


def ix(label: str) -> int:
    return ITALY.map.grid.parse_label(label)


def italy_at_war() -> GameState:
    return setup(ITALY, axis=("Germany", "Italy"), allies=("United Kingdom",), **AT_START)


def british(state: GameState, *labels: str) -> None:
    for label in labels:
        state.set_controller(ix(label), "United Kingdom")


def test_italy_surrenders_when_the_allies_hold_every_mainland_city() -> None:
    """Rulebook "Italian Surrender": "if the Allies control all cities on the Italian
    mainland, Italy is considered conquered and can never be liberated."  "When Italy
    surrenders, Germany gains control of all hexes Italy controlled in mainland Italy,
    Sicily, Sardinia and Albania, and the United Kingdom gains control of all hexes Italy
    controlled in Libya and Italian East Africa." """
    state = italy_at_war()
    state.countries["Italy"].money = 500
    italian = put(state, "Italy", "infantry", "4,0")
    british(state, "1,0", "2,0")
    assert check_conquests(state) == []
    british(state, "1,1")
    assert check_conquests(state) == ["Italy"]
    italy = state.countries["Italy"]
    assert (italy.conquered, italy.never_liberate, italy.money, italy.pool_land) == (True, True, 0, {})
    assert italian.id not in state.units
    assert state.controller_of(ix("4,0")) == "Germany" == state.controller_of(ix("2,1"))
    assert state.controller_of(ix("0,2")) == "United Kingdom" == state.controller_of(ix("4,2"))
    # Italy is never liberated, whoever holds its cities.
    state.set_controller(ix("1,0"), "Germany")
    state.set_controller(ix("2,0"), "Germany")
    state.set_controller(ix("1,1"), "Germany")
    assert check_liberations(state) == []


def test_one_mainland_city_and_the_four_african_cities_are_enough() -> None:
    """Rulebook "Italian Surrender": "If the Allies control a city on the Italian mainland
    as well as all cities in the Italian colonies in Africa (Tripoli, Benghazi, Addis Ababa
    and Mogadishu) ... Italy is considered conquered"."""
    state = italy_at_war()
    british(state, "1,1", "0,2", "1,2", "3,2")
    assert check_conquests(state) == []
    british(state, "4,2")
    assert check_conquests(state) == ["Italy"]


def test_an_island_city_is_not_a_mainland_city() -> None:
    """Palermo (Sicily) is not on the mainland: it does not open the African condition."""
    state = italy_at_war()
    british(state, "4,0", "0,2", "1,2", "3,2", "4,2")
    assert surrender.mainland_cities(state) == tuple(sorted(ix(x) for x in ("1,0", "2,0", "1,1")))
    assert check_conquests(state) == []


# Finland (L) with its southern border hex 2,0 and northern border hex 1,1; the Soviet
# Union; Poland with its eastern temporary border hex 4,1; Germany.
FINLAND = build_world(
    """
    L:c L:c L:c S:c S:c
     L:c L:c S:c S:c P:c
    G:c G:c P:c P:c P:c
    """,
    cities={
        "Helsinki": "0,0 capital",
        "Viipuri": "2,0",
        "Leningrad": "3,0",
        "Moscow": "4,0 capital",
        "Lwow": "4,1",
        "Warsaw": "2,2 capital",
        "Berlin": "0,2 capital",
    },
    temp_borders={"finland_south": ["2,0"], "finland_north": ["1,1"], "poland_east": ["4,1"]},
    countries=[CountryInfo("Poland", leans_allied=True)],
)


def fx(label: str) -> int:
    return FINLAND.map.grid.parse_label(label)


def finland_at_war(points: int = 20, warsaw: str = "Soviet Union") -> GameState:
    state = setup(FINLAND, axis=("Germany", "Finland"), allies=("Poland",), **AT_START)
    enter_war(state, "Soviet Union", "allies")  # as the rules enter it: with its temporary borders
    state.set_controller(fx("2,2"), warsaw)
    while points > 0:
        put(state, "Soviet Union", "infantry", "1,0", strength=min(5, points))
        points -= 5
    state.set_controller(fx("1,0"), "Soviet Union")
    return state


def test_the_soviet_side_may_have_finland_surrender_on_the_conditions() -> None:
    """Rulebook "Finnish Surrender": "If during any war declaration phase the Soviet Union
    has at least 20 supplied strength points in Finland and controls at least one city in
    Poland west of the temporary border or in Germany, the Soviet player may have Finland
    surrender." """
    assert rule_of(surrender.finland_refusal(finland_at_war(points=19), "allies")) == "surrender.finland"
    assert rule_of(surrender.finland_refusal(finland_at_war(warsaw="Poland"), "allies")) == "surrender.finland"
    lwow = finland_at_war(warsaw="Poland")
    lwow.set_controller(fx("4,1"), "Soviet Union")
    assert surrender.finland_refusal(lwow, "allies") != ""  # east of the temporary border
    berlin = finland_at_war(warsaw="Poland")
    berlin.set_controller(fx("0,2"), "Soviet Union")
    assert surrender.finland_refusal(berlin, "allies") == ""
    state = finland_at_war()
    assert rule_of(surrender.finland_refusal(state, "axis")) == "surrender.finland"
    unsupplied = finland_at_war()
    next(u for u in unsupplied.units.values() if u.country == "Soviet Union").supplied = False
    assert surrender.finland_refusal(unsupplied, "allies") != ""
    begin_at(state, "war_declaration")
    assert Action("surrender", ()) in api.legal_actions(state, "allies")


def test_surrender_closes_finland_and_fights_the_lapland_war() -> None:
    """Rulebook "Finnish Surrender": Finland becomes neutral with Finland west of the
    temporary borders; the Soviet Union gains the hexes east of them and what Finland held
    outside Finland.  "All naval units, air units and Soviet land units in Finland are
    removed from the map and returned during the next deployment phase for free. All
    non-Soviet land units in Finland are eliminated and can be bought back" and "No player
    may ever declare war on Finland again in the game, and no unit may enter any hex in
    Finland to the west of the temporary borders." """
    state = finland_at_war()
    state.set_controller(fx("2,1"), "Finland")
    german = put(state, "Germany", "infantry", "0,1", strength=4)
    finn = put(state, "Finland", "infantry", "0,0")
    fighter = put(state, "Germany", "fighter", "0,0", name="Bf 109", move=8)
    begin_at(state, "war_declaration")
    sides = api.decision(state).sides
    lists = {"axis": [PASS], "allies": [Action("surrender", ()), PASS]}
    api.apply_simultaneous(state, {s: lists[s] for s in sides})
    finland = state.countries["Finland"]
    assert (finland.side, finland.at_war, finland.flags.surrendered) == ("neutral", False, True)
    assert [state.controller_of(fx(x)) for x in ("0,0", "1,0", "0,1")] == ["Finland"] * 3
    assert [state.controller_of(fx(x)) for x in ("2,0", "1,1", "2,1")] == ["Soviet Union"] * 3
    assert state.countries["Soviet Union"].free_land == {LandKey(UnitType.INFANTRY, 3): 20}
    assert german.id not in state.units and finn.id not in state.units
    assert state.countries["Germany"].pool_land.get(LandKey(UnitType.INFANTRY, 3)) == 4
    assert state.countries["Finland"].pool_land == {LandKey(UnitType.INFANTRY, 3): 3}
    assert fighter.id in state.countries["Germany"].free_units and not state.units[fighter.id].on_map
    assert not may_enter_country(state, german, fx("0,0"))
    # War on the Soviet Union no longer brings Finland in.
    state.countries["Soviet Union"].side, state.countries["Soviet Union"].at_war = "neutral", False
    declare(state, "axis", "Soviet Union")
    assert state.countries["Finland"].side == "neutral"


def test_the_allies_win_when_italy_has_surrendered_and_germany_is_conquered() -> None:
    """Rulebook "Victory Conditions": "The Allied player wins at the end of any war
    declaration phase where all Axis countries are conquered" (Italy's surrender counts)."""
    from engine.war import victor

    state = italy_at_war()
    british(state, "1,0", "2,0", "1,1")
    assert check_conquests(state) == ["Italy"]
    assert victor(state) is None
    british(state, "0,0")
    assert check_conquests(state) == ["Germany"]
    assert victor(state) == "allies"
