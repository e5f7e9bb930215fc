"""Interception (rulebook: "Interception"; supplement: "Naval and air combat", "Sequence
and who acts")."""

from __future__ import annotations

import pytest

from engine import api, interception
from engine.actions import Action, IllegalAction
from engine.position import hex_at, put, setup
from engine.state import GameState
from tests.engine.strait import CITIES, MAP, Draws


def bomber_raid() -> tuple[GameState, int, int, int]:
    """A German bomber and its escort fly out over the sea; a Polish fighter can reach them."""
    state = setup(MAP, cities=CITIES)
    bomber = put(state, "Germany", "fighter", "0,0", attack=0, bomber=3).id
    escort = put(state, "Germany", "fighter", "0,0").id
    fighter = put(state, "Poland", "fighter", "5,0", move=8).id
    for uid in (bomber, escort):
        api.apply(state, "axis", Action("move", (uid, hex_at(state, "2,0"))))
    api.apply(state, "axis", Action("pass", ()))
    return state, bomber, escort, fighter


def test_the_side_that_did_not_move_intercepts_first_at_any_hex_passed() -> None:
    """ "The opponent starts by intercepting the player's units that have moved in the first
    movement phase." and "Interceptions can occur in any hex that the defender passed during
    the first movement phase." """
    state, bomber, _, fighter = bomber_raid()
    d = api.decision(state)
    assert d.phase == "axis.interception" and d.sides == ("allies",)
    legal = api.legal_actions(state, "allies")
    assert Action("intercept", (fighter, bomber, hex_at(state, "1,0"))) in legal
    assert Action("intercept", (fighter, bomber, hex_at(state, "2,0"))) in legal
    with pytest.raises(IllegalAction) as e:
        api.check(state, "allies", Action("intercept", (fighter, bomber, hex_at(state, "3,0"))))
    assert e.value.rule == "intercept.not-on-path"


def test_the_sides_take_turns_until_one_declares_nothing() -> None:
    """ "Then each player takes turns to intercept units that have moved during the
    interception phase." """
    state, bomber, escort, fighter = bomber_raid()
    sea = hex_at(state, "2,0")
    api.apply(state, "allies", Action("intercept", (fighter, bomber, sea)))
    api.apply(state, "allies", Action("pass", ()))
    assert api.decision(state).sides == ("axis",)
    # the escort may intercept the interceptor, not the units that did not fly this phase
    assert api.legal_actions(state, "axis") == [Action("pass", ()), Action("intercept", (escort, fighter, sea))]
    api.apply(state, "axis", Action("intercept", (escort, fighter, sea)))
    api.apply(state, "axis", Action("pass", ()))
    assert api.decision(state).phase == "axis.interception_roll"


def test_a_side_that_intercepts_nothing_ends_the_phase() -> None:
    state, _, _, _ = bomber_raid()
    api.apply(state, "allies", Action("pass", ()))
    assert api.decision(state).phase != "axis.interception_roll"
    assert state.memo.intercepts is None


def test_fighters_intercept_air_units_and_bombers_ships_never_submarines() -> None:
    """ "Fighters can intercept enemy air units, and bombers can intercept enemy naval units."
    and "Submarines can't be intercepted" """
    state = setup(MAP, cities=CITIES)
    ship = put(state, "Germany", "destroyer", "2,0").id
    sub = put(state, "Germany", "submarine", "2,0").id
    fighter = put(state, "Poland", "fighter", "5,0", move=8).id
    bomber = put(state, "Poland", "fighter", "5,0", attack=0, bomber=2, move=8).id
    for uid in (ship, sub):
        api.apply(state, "axis", Action("move", (uid, hex_at(state, "3,0"))))
    api.apply(state, "axis", Action("pass", ()))
    at = hex_at(state, "3,0")
    assert Action("intercept", (bomber, ship, at)) in api.legal_actions(state, "allies")
    with pytest.raises(IllegalAction) as e:
        api.check(state, "allies", Action("intercept", (fighter, ship, at)))
    assert e.value.rule == "intercept.not-bomber"
    with pytest.raises(IllegalAction) as e:
        api.check(state, "allies", Action("intercept", (bomber, sub, at)))
    assert e.value.rule == "intercept.no-target"


def test_an_interceptor_must_keep_a_base_in_reach_and_intercepts_once() -> None:
    """Interceptors fly as on a mission: they "have to have enough movement points to return
    to their base"; "interception attacks are always against one unit at a time." """
    state, bomber, escort, _ = bomber_raid()
    short = put(state, "Poland", "fighter", "5,0", move=4).id
    with pytest.raises(IllegalAction) as e:
        api.check(state, "allies", Action("intercept", (short, bomber, hex_at(state, "2,0"))))
    assert e.value.rule == "air.no-base-in-reach"
    far = put(state, "Poland", "fighter", "5,0", move=8).id
    api.apply(state, "allies", Action("intercept", (far, bomber, hex_at(state, "2,0"))))
    with pytest.raises(IllegalAction) as e:
        api.check(state, "allies", Action("intercept", (far, escort, hex_at(state, "2,0"))))
    assert e.value.rule == "intercept.already"


def test_a_cancelled_mission_goes_back_and_cancels_its_own_interception() -> None:
    """ "If that happens, the defender is moved back to the hex that it started the first
    movement phase in, and if the defender was itself going to do an interception, that
    interception doesn't take place." Resolved last declared, first resolved."""
    state, bomber, escort, fighter = bomber_raid()
    sea = hex_at(state, "2,0")
    api.apply(state, "allies", Action("intercept", (fighter, bomber, sea)))
    api.apply(state, "allies", Action("pass", ()))
    api.apply(state, "axis", Action("intercept", (escort, fighter, sea)))
    api.apply(state, "axis", Action("pass", ()))
    # escort vs fighter first: both unharmed (4 draws), then the mission draw 0.1 < 1 - 2^-1
    rng = Draws([0.9, 0.9, 0.9, 0.9, 0.1])
    lines = interception.InterceptionRoll("axis").roll(state, rng)
    assert state.units[fighter].hex == hex_at(state, "5,0")
    assert "mission cancelled" in lines[0] and "does not take place" in lines[1]
    assert state.units[bomber].hex == sea and not state.units[bomber].damaged
    assert rng.draws == 5


def test_the_mission_goes_on_when_the_draw_fails_and_hits_are_as_in_combat() -> None:
    """ "Interceptions have the same effect as regular attacks, but additionally there's a
    certain probability (that increases with the combat ratio) that the defender's mission
    is canceled." A bomber cannot hit back at a fighter."""
    state, bomber, _, fighter = bomber_raid()
    sea = hex_at(state, "2,0")
    api.apply(state, "allies", Action("intercept", (fighter, bomber, sea)))
    api.apply(state, "allies", Action("pass", ()))
    # k = 2 / 2 = 1: damaged (0.4 < 0.5), not eliminated; mission draw 0.8 >= 1 - 2^-(2/1) = 0.75
    rng = Draws([0.4, 0.9, 0.8])
    [line] = interception.InterceptionRoll("axis").roll(state, rng)
    assert state.units[bomber].damaged and state.units[bomber].hex == sea
    assert "no risk to the interceptor" in line and "the mission goes on" in line
    assert "needed below 0.75" in line


def test_the_roll_goes_through_the_fair_dice_and_the_interceptors_land_later() -> None:
    state, bomber, _, fighter = bomber_raid()
    api.apply(state, "allies", Action("intercept", (fighter, bomber, hex_at(state, "2,0"))))
    api.apply(state, "allies", Action("pass", ()))
    api.apply(state, "axis", Action("pass", ()))  # the escort does not counter-intercept
    lines = api.apply_chance(state, bytes(32))
    assert lines and lines[0].startswith("interception in 2,0")
    assert state.memo.intercepts is None
    # the interceptor is in the air until the other side lands its air units
    seen = []
    while api.decision(state).phase.startswith("axis."):
        d = api.decision(state)
        seen.append(d.phase)
        if d.kind == "chance":
            api.apply_chance(state, bytes(32))
        else:
            api.apply(state, d.sides[0], Action("pass", ()))
    if fighter in state.units:
        assert "axis.landing" in seen
        assert state.units[fighter].origin == -1  # based again


def test_the_intercept_order_reads_and_writes_as_text() -> None:
    state, bomber, _, fighter = bomber_raid()
    action = Action("intercept", (fighter, bomber, hex_at(state, "2,0")))
    text = api.format_action(state, action)
    assert text.startswith("intercept ")
    assert api.parse_order(state, "allies", text) == action
