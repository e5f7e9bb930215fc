"""Vichy France and the Chinese exceptions (rulebook "Vichy France", "Chinese Exceptions")."""

from __future__ import annotations

from engine import api, vichy
from engine.actions import PASS, Action, rule_of
from engine.control import china_holds
from engine.position import AT_START, begin_at, build_world, put, setup
from engine.state import GameState, LandKey, parse_date
from engine.units import UnitType
from engine.war import check_conquests, declare
from engine.world import CountryInfo

# France (F) with its northern half the temporary border, Lebanon-Syria (row 2),
# French North Africa (row 3, stays Vichy), French Indochina (row 2, to Japan).
WORLD = build_world(
    """
    U:c ~   F:c F:c G:c G:c
     ~  F:c F:c F:c G:c G:c
    F:c ~   ~   J:c F:c C:c
     F:c F:c ~  J:c C:c C:c
    """,
    legend={"C": "China"},
    cities={
        "London": "0,0 capital",
        "Paris": "2,0 capital",
        "Marseille": "3,1",
        "Berlin": "4,0 capital",
        "Damascus": "0,2",
        "Algiers": "1,3",
        "Tokyo": "3,2 capital",
        "Hanoi": "4,2",
        "Chongqing": "5,2 capital",
        "Nanjing": "5,3",
    },
    colonies={"Lebanon-Syria": "France", "French North Africa": "France", "French Indochina": "France"},
    colony_hexes={"Lebanon-Syria": ["0,2"], "French North Africa": ["1,3", "2,3"], "French Indochina": ["4,2"]},
    temp_borders={"france_north": ["2,0", "3,0"]},
    countries=[CountryInfo(n, leans_allied=True) for n in ("United Kingdom", "France")]
    + [CountryInfo("China", region="asia", leans_allied=True)],
)


def hx(label: str) -> int:
    return WORLD.map.grid.parse_label(label)


def at_war(date: str = "1940-06") -> GameState:
    state = setup(WORLD, axis=("Germany", "Japan"), allies=("United Kingdom", "France", "China"), **AT_START)
    state.date = parse_date(date)
    state.countries["France"].entered = state.date - 9
    state.countries["France"].flags.had_infantry = True
    return state


def paris_falls(state: GameState) -> None:
    state.set_controller(hx("2,0"), "Germany")
    begin_at(state, "war_declaration")


def orders(state: GameState, axis: list[Action], allies: list[Action] = ()) -> None:  # type: ignore[assignment]
    lists = {"axis": [*axis, PASS], "allies": [*allies, PASS]}
    api.apply_simultaneous(state, {side: lists[side] for side in api.decision(state).sides})


def roll_until(state: GameState, created: bool) -> list[str]:
    """Roll the pending attempt with the first seed that gives ``created``."""
    for i in range(64):
        trial = state.copy()
        lines = api.apply_chance(trial, bytes([i]) * 32)
        if trial.countries["France"].flags.vichy == created:
            state.__dict__.update(trial.__dict__)
            return lines
    raise AssertionError("no seed gave the wanted result")


def test_the_attempt_is_an_axis_order_while_paris_is_axis_and_then_a_chance_step() -> None:
    """Rulebook "Vichy France": "If Paris is captured by the Axis ... the Axis player may
    choose to attempt to create Vichy France, with a 75% chance of succeeding." """
    state = at_war()
    assert rule_of(vichy.refusal(state, "axis")) == "vichy.paris"
    paris_falls(state)
    assert Action("vichy", ()) in api.legal_actions(state, "axis")
    assert rule_of(vichy.refusal(state, "allies")) == "vichy.axis-only"
    orders(state, [Action("vichy", ())])
    d = api.decision(state)
    assert d.kind == "chance" and d.phase == "vichy_attempt"
    lines = roll_until(state, True)
    assert lines[0].startswith("Vichy France: 75% chance, rolled ")
    assert api.decision(state).phase == "deployment"


def test_the_odds_are_three_in_four() -> None:
    state = at_war()
    paris_falls(state)
    orders(state, [Action("vichy", ())])
    made = 0
    for i in range(400):
        trial = state.copy()
        api.apply_chance(trial, i.to_bytes(32, "big"))
        made += trial.countries["France"].flags.vichy
    assert 260 <= made <= 340


def test_a_failed_attempt_may_never_be_made_again() -> None:
    """Rulebook "Vichy France": "If the attempt failed, the Axis player may never attempt
    to create Vichy France again in the game." """
    state = at_war()
    paris_falls(state)
    orders(state, [Action("vichy", ())])
    lines = roll_until(state, False)
    assert "may never be made again" in lines[0]
    assert rule_of(vichy.refusal(state, "axis")) == "vichy.tried"


def test_only_within_two_years_of_france_entering() -> None:
    """Rulebook "Vichy France": "within two years of France entering the war"."""
    state = at_war()
    state.date = state.countries["France"].entered + 23
    state.set_controller(hx("2,0"), "Germany")
    assert vichy.refusal(state, "axis") == ""
    state.date += 1
    assert rule_of(vichy.refusal(state, "axis")) == "vichy.too-late"


def test_creation_divides_france_and_sends_foreign_units_home() -> None:
    """Rulebook "Vichy France": Germany takes France north of the temporary border, Japan
    Indochina, the UK Lebanon-Syria, France the rest; "All non-French units in Vichy French
    territory are removed from the map and returned during the next deployment phase for
    free."  France is conquered: its units are eliminated with nothing to buy back."""
    state = at_war()
    state.countries["France"].money = 300
    french = put(state, "France", "infantry", "3,1", strength=4)
    british = put(state, "United Kingdom", "infantry", "1,3", strength=2)
    paris_falls(state)
    orders(state, [Action("vichy", ())])
    roll_until(state, True)
    france = state.countries["France"]
    assert (france.side, france.at_war, france.conquered, france.money) == ("neutral", False, True, 0)
    assert france.pool_land == {} and french.id not in state.units
    assert state.controller_of(hx("3,0")) == "Germany"
    assert state.controller_of(hx("4,2")) == "Japan"
    assert state.controller_of(hx("0,2")) == "United Kingdom"
    assert state.controller_of(hx("3,1")) == "France" == state.controller_of(hx("1,3"))
    assert british.id not in state.units
    assert state.countries["United Kingdom"].free_land == {LandKey(UnitType.INFANTRY, 3): 2}


def test_allied_war_on_vichy_makes_france_axis() -> None:
    """Rulebook "Vichy France": "If the Allies declare war on Vichy France, France becomes
    part of the Axis" (and only non-Vichy France comes in with the United Kingdom)."""
    state = at_war()
    paris_falls(state)
    orders(state, [Action("vichy", ())])
    roll_until(state, True)
    begin_at(state, "war_declaration")
    assert Action("declare", ("France",)) in api.legal_actions(state, "allies")
    declare(state, "allies", "France")
    france = state.countries["France"]
    assert (france.side, france.at_war, france.conquered) == ("axis", True, False)


def test_allies_clearing_the_north_liberate_france() -> None:
    """Rulebook "Vichy France": "If the Allies gain control of all hexes in mainland France
    north of the temporary border while Vichy France is still neutral, France is considered
    liberated and Vichy France joins the Allies." """
    state = at_war()
    paris_falls(state)
    orders(state, [Action("vichy", ())])
    roll_until(state, True)
    state.set_controller(hx("2,0"), "United Kingdom")
    begin_at(state, "war_declaration")
    assert state.countries["France"].side == "neutral"
    state.set_controller(hx("3,0"), "United Kingdom")
    begin_at(state, "war_declaration")
    france = state.countries["France"]
    assert (france.side, france.at_war, france.conquered, france.liberated) == ("allies", True, False, True)
    assert france.free_land == {LandKey(UnitType.INFANTRY, 3): 5}


def test_conquered_china_takes_back_hexes_no_axis_land_unit_occupies() -> None:
    """Rulebook "Chinese Exceptions": "The rule that China controls every hex in China
    unless that hex is occupied by an Axis land unit still applies when China is conquered.
    ... if there are no Axis land units in a Chinese city, China gains control of that city
    and becomes liberated during the next war declaration phase"."""
    state = at_war()
    state.countries["China"].flags.had_infantry = True
    for label in ("5,2", "5,3", "4,3"):
        state.set_controller(hx(label), "Japan")
    put(state, "Japan", "infantry", "5,2")
    assert check_conquests(state) == ["China"]
    assert china_holds(state) == sorted([hx("5,3"), hx("4,3")])
    assert state.controller_of(hx("5,2")) == "Japan"
    begin_at(state, "war_declaration")
    assert not state.countries["China"].conquered and state.countries["China"].liberated


def everything_else_falls(state: GameState) -> None:
    """Germany holds London, Japanese infantry Chongqing and Nanjing: the United Kingdom and
    China fall at the next war declaration phase."""
    state.set_controller(hx("0,0"), "Germany")
    for label in ("5,2", "5,3"):
        state.set_controller(hx(label), "Japan")
        put(state, "Japan", "infantry", label)


def test_a_vichy_france_that_conquers_the_last_allied_country_wins_the_same_month() -> None:
    """Rulebook "Victory Conditions": "The Axis player wins at the end of any war declaration
    phase where ... All Allied countries are conquered"; the Vichy roll belongs to that
    phase (rulebook "Vichy France": "France can be conquered using Vichy France")."""
    state = at_war()
    everything_else_falls(state)
    paris_falls(state)
    assert state.countries["United Kingdom"].conquered and state.countries["China"].conquered
    orders(state, [Action("vichy", ())])
    assert state.winner is None  # France still stood when the declarations ended
    roll_until(state, True)
    assert state.winner == "axis"
    assert api.decision(state).kind == "end"


def test_a_failed_vichy_attempt_leaves_the_game_going() -> None:
    state = at_war()
    everything_else_falls(state)
    paris_falls(state)
    assert state.countries["United Kingdom"].conquered and state.countries["China"].conquered
    orders(state, [Action("vichy", ())])
    roll_until(state, False)
    assert state.winner is None
    assert api.decision(state).phase == "deployment"
