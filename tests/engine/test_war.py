"""War declaration, entry into the war, conquest, liberation and victory
(rulebook "War Declaration, Conquest and Liberation", "Victory Conditions")."""

from __future__ import annotations

import dataclasses

import pytest

from engine import api
from engine.actions import PASS, Action, IllegalAction
from engine.position import AT_START, begin_at, build_world, put, setup
from engine.state import GameState, LandKey
from engine.units import UnitProfile, UnitType
from engine.war import (
    GERMANY_ENTRY,
    WarDeclaration,
    at_war_with,
    check_conquests,
    check_liberations,
    enter_war,
    may_enter_country,
    victor,
)
from engine.world import CountryInfo

LEANS_ALLIED = ("United Kingdom", "France", "Canada", "Australia", "New Zealand", "United States", "Panama", "Poland")

# Columns 0-10.  Row 3 holds the far-away countries and the colonies.
WORLD = build_world(
    """
    U:c ~   F:c F:c G:c G:c P:c P:c S:c S:c L:c
     ~  B:c B:c G:c G:c H:c P:c P:c S:c S:c L:c
    K:c ~   D:c D:c D:c ~   S:c S:c S:c M:c C:c
     A:c Q:c D:c J:c J:c ~  E:c X:c C:c C:c C:c
    """,
    legend={"Q": "Panama", "E": "Australia", "X": "New Zealand", "B": "Belgium"},
    cities={
        "London": "0,0 capital",
        "Paris": "2,0 capital",
        "Berlin": "4,0 capital",
        "Warsaw": "6,0 capital",
        "Lwow": "7,1",
        "Moscow": "9,0 capital",
        "Helsinki": "10,0 capital",
        "Brussels": "1,1 capital",
        "Antwerp": "2,1",
        "Leopoldville": "0,3",
        "Copenhagen": "2,2 capital",
        "Aalborg": "3,2",
        "Esbjerg": "4,2",
        "Reykjavik": "6,3",
        "Chongqing": "10,3 capital",
        "Nanjing": "9,3",
        "Tokyo": "3,3 capital",
        "Washington": "1,3 capital",
        "Ottawa": "0,2 capital",
        "Budapest": "5,1 capital",
        "Ulan Bator": "9,2 capital",
        "Canberra": "7,3 capital",
    },
    colonies={"Belgian Congo": "Belgium", "Iceland": "Denmark", "Greenland": "Denmark"},
    colony_hexes={"Belgian Congo": ["0,3"], "Iceland": ["6,3"], "Greenland": ["2,3"]},
    temp_borders={"poland_east": ["7,0", "7,1"]},
    countries=[CountryInfo(n, leans_allied=True) for n in LEANS_ALLIED]
    + [CountryInfo("China", region="asia", leans_allied=True), CountryInfo("Hungary", leans_axis=True)],
)


def hx(label: str) -> int:
    return WORLD.map.grid.parse_label(label)


def fresh() -> GameState:
    state = setup(WORLD, axis=(), allies=(), **AT_START)  # nobody at war yet
    state.countries["Poland"].pool_land = {LandKey(UnitType.INFANTRY, 3): 10}
    state.countries["Poland"].flags.had_infantry = True
    return state


def declare(state: GameState, axis: list[str] = (), allies: list[str] = ()) -> None:  # type: ignore[assignment]
    api.apply_simultaneous(
        state,
        {
            side: [Action("declare", (c,)) for c in names] + [PASS]
            for side, names in (("axis", axis), ("allies", allies))
            if side in api.decision(state).sides
        },
    )


def at_phase(state: GameState, name: str = "war_declaration") -> None:
    """Re-enter a phase after the test changed the state (as the sequence would)."""
    begin_at(state, name)


def test_declaration_makes_the_neutral_join_the_other_side_with_its_pool_free() -> None:
    """Rulebook "War Declaration": the neutral joins the declarer's opponent; supplement
    "Countries and sides at the start": its whole pool is placed free at the next deployment."""
    state = fresh()
    sweden_like = state.countries["Hungary"]
    sweden_like.pool_land = {LandKey(UnitType.INFANTRY, 3): 4}
    sweden_like.pool_units = [UnitProfile(UnitType.FIGHTER, "Fiat", attack=1, defense=1, move=8)]
    declare(state, allies=["Hungary"])
    h = state.countries["Hungary"]
    assert (h.side, h.at_war, h.entered) == ("axis", True, state.date)
    assert h.free_land == {LandKey(UnitType.INFANTRY, 3): 4} and h.pool_land == {}
    assert [state.units[i].name for i in h.free_units] == ["Fiat"]
    assert api.decision(state).phase == "deployment"


def test_axis_declaration_on_poland_brings_in_the_allied_core_and_soviet_border() -> None:
    """Rulebook "War Declaration": Axis war on Poland is also war on the UK, France, Canada,
    Australia and New Zealand; with Germany Axis and the Soviet Union neutral, the Soviet
    Union takes the hexes east of the temporary border and they are closed to others."""
    state = fresh()
    enter_war(state, "Germany", "axis")
    declare(state, axis=["Poland"])
    for name in ("Poland", "United Kingdom", "France", "Canada", "Australia", "New Zealand"):
        assert state.countries[name].side == "allies" and state.countries[name].at_war, name
    assert state.countries["Soviet Union"].side == "neutral"
    assert state.controller_of(hx("7,0")) == "Soviet Union" == state.controller_of(hx("7,1"))
    assert state.controller_of(hx("6,0")) == "Poland"
    german = state.new_unit("Germany", UnitProfile(UnitType.INFANTRY, strength=3, move=3))
    assert not may_enter_country(state, german, hx("7,0"))
    assert may_enter_country(state, german, hx("6,0"))


def test_allies_may_not_declare_on_countries_leaning_allied_nor_the_axis_on_its_own() -> None:
    """Rulebook "War Declaration" (supplement "Countries and sides at the start"): the
    restricted lists, and nobody declares on Finland."""
    state = fresh()
    enter_war(state, "France", "allies")  # more than China with land units: no China rule
    state.countries["France"].free_land = {LandKey(UnitType.INFANTRY, 3): 1}
    with pytest.raises(IllegalAction) as refused:
        api.check(state, "allies", Action("declare", ("Poland",)))
    assert refused.value.rule == "war.allies-may-not-declare"
    with pytest.raises(IllegalAction) as refused:
        api.check(state, "axis", Action("declare", ("Hungary",)))
    assert refused.value.rule == "war.axis-may-not-declare"
    with pytest.raises(IllegalAction) as refused:
        api.check(state, "axis", Action("declare", ("Finland",)))
    assert refused.value.rule == "war.never-declared-on"
    legal = api.legal_actions(state, "allies")
    assert Action("declare", ("Poland",)) not in legal
    assert Action("declare", ("Germany",)) in legal
    assert legal == sorted(legal, key=lambda a: (a.kind, a.args))


def test_chains_hungary_to_germany_us_to_panama_and_soviet_union_to_finland() -> None:
    """Rulebook "War Declaration": Hungary/Bulgaria bring Germany, the United States and
    Panama go together, and war on the Soviet Union brings Finland in on the declarer's side."""
    state = fresh()
    declare(state, axis=["Panama", "Soviet Union"], allies=["Hungary"])
    c = state.countries
    assert c["Germany"].side == "axis" and c["Hungary"].side == "axis"
    assert c["United States"].side == "allies" and c["Panama"].side == "allies"
    assert c["Soviet Union"].side == "allies" and c["Finland"].side == "axis"


def test_mongolia_brings_the_soviet_union_and_its_side_may_not_declare_on_mongolia() -> None:
    """Rulebook "War Declaration": war on Mongolia is war on the Soviet Union; the player
    who controls the Soviet Union may not declare war on Mongolia."""
    state = fresh()
    declare(state, axis=["Mongolia"])
    assert state.countries["Soviet Union"].side == "allies"
    assert state.countries["Finland"].side == "axis"
    state2 = fresh()
    enter_war(state2, "Soviet Union", "allies")
    enter_war(state2, "France", "allies")
    with pytest.raises(IllegalAction) as refused:
        api.check(state2, "allies", Action("declare", ("Mongolia",)))
    assert refused.value.rule == "war.mongolia"


def test_while_china_alone_has_land_units_the_allies_declare_only_on_its_neighbours() -> None:
    """Rulebook "War Declaration": while China is the only Allied country at war with land
    units, the Allies may not declare war on a country without a land border with China."""
    state = fresh()
    enter_war(state, "China", "allies")
    enter_war(state, "Japan", "axis")
    state.countries["China"].free_land = {LandKey(UnitType.INFANTRY, 3): 5}
    with pytest.raises(IllegalAction) as refused:
        api.check(state, "allies", Action("declare", ("Germany",)))
    assert refused.value.rule == "war.china-neighbours"
    api.check(state, "allies", Action("declare", ("Mongolia",)))  # borders China


def test_both_sides_declaring_on_the_same_country_the_axis_declaration_counts() -> None:
    """Rulebook "War Declaration" with simultaneous declarations (supplement "Sequence and who
    acts"); the Axis's declarations are applied first (docs/rules-decisions.md)."""
    state = fresh()
    declare(state, axis=["Soviet Union"], allies=["Soviet Union"])
    assert state.countries["Soviet Union"].side == "allies"


def test_a_country_declared_twice_in_one_list_is_refused() -> None:
    """Rulebook "War Declaration": a declaration is on a neutral country, once."""
    state = fresh()
    with pytest.raises(IllegalAction) as refused:
        declare(state, axis=["Soviet Union", "Soviet Union"])
    assert refused.value.rule == "war.declared-twice"


def test_germany_enters_automatically_in_september_1939() -> None:
    """Rulebook "Other Ways of Entering the War"; supplement: September 1939, not August."""
    state = fresh()
    state.date = GERMANY_ENTRY - 1
    at_phase(state)
    assert not state.countries["Germany"].at_war
    state.date = GERMANY_ENTRY
    at_phase(state)
    assert state.countries["Germany"].side == "axis" and state.countries["Germany"].entered == GERMANY_ENTRY


def test_at_war_with_needs_both_at_war_on_opposite_sides() -> None:
    """Rulebook "War Declaration": only countries in the war, on opposite sides, are at war."""
    state = fresh()
    enter_war(state, "Germany", "axis")
    assert not at_war_with(state, "Germany", "Poland")
    enter_war(state, "Poland", "allies")
    enter_war(state, "France", "allies")
    assert at_war_with(state, "Germany", "Poland") and not at_war_with(state, "France", "Poland")


def _war(state: GameState) -> None:
    enter_war(state, "Germany", "axis")
    for name in ("Poland", "France", "United Kingdom", "Belgium", "Denmark", "China"):
        enter_war(state, name, "allies")
    enter_war(state, "Japan", "axis")


def test_conquest_eliminates_units_takes_money_and_hands_over_the_remaining_hexes() -> None:
    """Rulebook "Conquest": all cities held by the enemy; units eliminated, money lost,
    the conqueror's side takes the remaining hexes except those held by its enemies' land units."""
    state = fresh()
    _war(state)
    state.countries["Poland"].money = 300
    pole = put(state, "Poland", "infantry", "6,1")
    put(state, "France", "infantry", "7,0")
    for city in ("6,0", "7,1"):
        state.set_controller(hx(city), "Germany")
    assert check_conquests(state) == ["Poland"]
    p = state.countries["Poland"]
    assert p.conquered and p.money == 0 and pole.id not in state.units
    assert state.controller_of(hx("6,1")) == "Germany"
    assert state.controller_of(hx("7,0")) == "Poland"  # a French land unit holds it


def test_poland_and_the_soviet_union_are_always_enemies_for_conquest() -> None:
    """Rulebook "Conquest": Poland and the Soviet Union count as enemies even as partners."""
    state = fresh()
    _war(state)
    enter_war(state, "Soviet Union", "allies")
    state.set_controller(hx("6,0"), "Germany")
    state.set_controller(hx("7,1"), "Soviet Union")
    assert check_conquests(state) == ["Poland"]
    # Not liberated by its "partner" the Soviet Union.
    state.set_controller(hx("6,0"), "Soviet Union")
    assert check_liberations(state) == []


def test_belgium_falls_with_antwerp_and_brussels_and_the_congo_goes_british() -> None:
    """Rulebook "Colonies and Conquest": Belgium needs only Antwerp and Brussels; the United
    Kingdom takes Belgian Congo, which Belgium gets back when liberated."""
    state = fresh()
    _war(state)
    state.countries["Belgium"].flags.had_infantry = True
    for city in ("1,1", "2,1"):
        state.set_controller(hx(city), "Germany")
    assert check_conquests(state) == ["Belgium"]
    assert state.controller_of(hx("0,3")) == "United Kingdom"
    for city in ("1,1", "2,1"):
        state.set_controller(hx(city), "France")
    assert check_liberations(state) == ["Belgium"]
    b = state.countries["Belgium"]
    assert b.liberated and not b.conquered and b.free_land == {LandKey(UnitType.INFANTRY, 3): 5}
    assert state.controller_of(hx("0,3")) == "Belgium"


def test_denmark_liberated_gets_three_points_and_iceland_goes_british() -> None:
    """Rulebook "Colonies and Conquest" and "Liberation": Denmark's three cities; Iceland to
    the United Kingdom; 3 liberated strength points."""
    state = fresh()
    _war(state)
    state.countries["Denmark"].flags.had_infantry = True
    for city in ("2,2", "3,2", "4,2"):
        state.set_controller(hx(city), "Germany")
    assert check_conquests(state) == ["Denmark"]
    assert state.controller_of(hx("6,3")) == "United Kingdom"
    for city in ("2,2", "3,2", "4,2"):
        state.set_controller(hx(city), "United Kingdom")
    assert check_liberations(state) == ["Denmark"]
    assert state.countries["Denmark"].free_land == {LandKey(UnitType.INFANTRY, 3): 3}


def test_greenland_turns_neutral_american_while_the_united_states_is_neutral() -> None:
    """Rulebook "Colonies and Conquest": Greenland passes to the United States; while it is
    neutral, units there are removed and returned free at the next deployment, and no unit
    may enter; when Denmark is liberated Greenland is Danish again."""
    state = fresh()
    _war(state)
    british = put(state, "United Kingdom", "infantry", "2,3", strength=2)
    for city in ("2,2", "3,2", "4,2"):
        state.set_controller(hx(city), "Germany")
    check_conquests(state)
    assert state.controller_of(hx("2,3")) == "United States"
    assert british.id not in state.units
    assert state.countries["United Kingdom"].free_land == {LandKey(UnitType.INFANTRY, 3): 2}
    assert not may_enter_country(state, british, hx("2,3"))
    for city in ("2,2", "3,2", "4,2"):
        state.set_controller(hx(city), "United Kingdom")
    check_liberations(state)
    assert state.controller_of(hx("2,3")) == "Denmark"
    assert may_enter_country(state, british, hx("2,3"))


def test_countries_that_never_had_infantry_get_no_liberated_forces() -> None:
    """Rulebook "Liberation": countries that never had infantry get no liberated forces."""
    state = fresh()
    _war(state)
    for city in ("1,1", "2,1"):
        state.set_controller(hx(city), "Germany")
    check_conquests(state)
    for city in ("1,1", "2,1"):
        state.set_controller(hx(city), "France")
    check_liberations(state)
    assert state.countries["Belgium"].free_land == {}


def test_the_united_kingdom_needs_its_colonies_lost_too() -> None:
    """Rulebook "Colonies and Conquest": the UK is conquered only with its colonies' cities."""
    world = build_world(
        "U:c U:c ~ G:c\n U:c ~ ~ G:c",
        cities={"London": "0,0 capital", "Cairo": "0,1", "Berlin": "3,0 capital"},
        colonies={"Egypt": "United Kingdom"},
        colony_hexes={"Egypt": ["0,1"]},
    )
    state = api.new_game(world)
    enter_war(state, "Germany", "axis")
    enter_war(state, "United Kingdom", "allies")
    state.set_controller(world.map.grid.parse_label("0,0"), "Germany")
    assert check_conquests(state) == []
    state.set_controller(world.map.grid.parse_label("0,1"), "Germany")
    assert check_conquests(state) == ["United Kingdom"]


def test_china_keeps_its_hexes_when_conquered_and_is_liberated_by_one_city() -> None:
    """Rulebook "Chinese Exceptions": Chinese-held hexes stay Chinese; one Allied city
    liberates China, which may buy back what it had."""
    state = fresh()
    _war(state)
    state.countries["China"].flags.had_infantry = True
    put(state, "China", "infantry", "8,3")
    for city in ("10,3", "9,3"):
        state.set_controller(hx(city), "Japan")
    assert check_conquests(state) == ["China"]
    assert state.controller_of(hx("8,3")) == "China"
    assert state.countries["China"].pool_land == {LandKey(UnitType.INFANTRY, 3): 3}
    state.set_controller(hx("9,3"), "China")
    assert check_liberations(state) == ["China"]
    assert state.countries["China"].free_land == {LandKey(UnitType.INFANTRY, 3): 5}


def test_liberated_countries_receive_no_more_scheduled_units() -> None:
    """Rulebook "Liberation": no further units available for build after liberation."""
    from engine.scenario import Anchor, Arrival, LandPoints, Units
    from engine.war import receive_arrivals

    schedule = Arrival("Belgium", Units(land=(LandPoints(UnitType.INFANTRY, 3, 2),)), (Anchor("date", date=0),), 1)

    class _Scenario:
        def arrivals_due(self, date: int, entries: dict[str, int]) -> list[Arrival]:
            return [a for a in (schedule,) if a.fires(date, entries)]

    world = build_world("B:c G:c", cities={"Brussels": "0,0 capital"})
    world = dataclasses.replace(world, schedule=_Scenario())
    state = GameState(world)
    state.date = 5
    receive_arrivals(state)
    assert state.countries["Belgium"].pool_land == {LandKey(UnitType.INFANTRY, 3): 2}
    state.countries["Belgium"].liberated = True
    receive_arrivals(state)
    assert state.countries["Belgium"].pool_land == {LandKey(UnitType.INFANTRY, 3): 2}


def test_victory_is_checked_at_the_end_of_the_war_declaration_phase() -> None:
    """Rulebook "Victory Conditions": the Allies win when every Axis country is conquered;
    the Axis when every Allied country, the United States, and the Soviet Union (or it is
    Axis) are conquered."""
    state = fresh()
    _war(state)
    assert victor(state) is None
    for name in ("Germany", "Japan"):
        state.countries[name].conquered = True
    assert victor(state) == "allies"
    for name in ("Germany", "Japan"):
        state.countries[name].conquered = False
    for name in ("Poland", "France", "United Kingdom", "Belgium", "Denmark", "China"):
        state.countries[name].conquered = True
    assert victor(state) is None  # the United States is neutral, not conquered
    enter_war(state, "United States", "allies")
    state.countries["United States"].conquered = True
    assert victor(state) is None  # the Soviet Union is neutral: neither conquered nor Axis
    state.countries["Soviet Union"].side = "axis"
    assert victor(state) == "axis"


def test_victory_needs_the_soviet_union_conquered_or_axis() -> None:
    """Rulebook "Victory Conditions": the Soviet Union conquered or friendly to the Axis."""
    state = fresh()
    _war(state)
    enter_war(state, "United States", "allies")
    enter_war(state, "Soviet Union", "allies")
    for name in ("Poland", "France", "United Kingdom", "Belgium", "Denmark", "China", "United States"):
        state.countries[name].conquered = True
    assert victor(state) is None
    state.countries["Soviet Union"].conquered = True
    assert victor(state) == "axis"


def test_phase_sets_the_winner_when_it_ends() -> None:
    """Rulebook "Victory Conditions": checked at the end of a war declaration phase."""
    state = fresh()
    enter_war(state, "Germany", "axis")
    enter_war(state, "France", "allies")
    state.countries["Germany"].conquered = True
    WarDeclaration().leave(state)
    assert state.winner == "allies"


def test_a_surrendered_finland_does_not_keep_the_axis_alive() -> None:
    """Rulebook "Victory Conditions": "The Allied player wins ... where all Axis countries
    are conquered"; rulebook "Finnish Surrender": "Finland becomes neutral", so it is no
    longer an Axis country to conquer.  An atomic surrender is a conquest like any other."""
    from engine import surrender

    state = fresh()
    _war(state)
    enter_war(state, "Finland", "axis")
    enter_war(state, "Soviet Union", "allies")
    state.countries["Germany"].conquered = True
    state.countries["Japan"].flags.atomic_surrender = "United States"
    assert victor(state) is None  # Japan has not been conquered yet, Finland stands
    check_conquests(state)
    assert state.countries["Japan"].conquered
    assert victor(state) is None  # Finland is still an Axis country at war
    surrender.finland_surrenders(state)
    assert victor(state) == "allies"
