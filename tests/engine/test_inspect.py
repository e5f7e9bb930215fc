"""What a player looks at: one hex in full, and the legal orders that concern something."""

from __future__ import annotations

import pytest

from engine import ai, api, combat, combat_math, inspect
from engine.actions import PASS, Action
from engine.events import number_text
from engine.position import hex_at as hx
from engine.position import parse, put
from engine.state import LandKey
from engine.supply import supply_map
from engine.units import UnitType
from tests.ai.worlds import FRONT_WORLD, advance_to, armor, at_war, infantry


def test_a_hex_shows_terrain_control_units_supply_and_the_odds_of_an_attack() -> None:
    state = at_war(FRONT_WORLD)
    g1 = infantry(state, "Germany", "2,2", strength=4)
    g2 = armor(state, "Germany", "2,3", strength=6)
    far = infantry(state, "Germany", "0,4")
    pole = infantry(state, "Poland", "3,2", strength=3)
    r = api.hex_report(state, "axis", "3,2")
    place = (r.hex, r.terrain, r.territory, r.controller, r.control_side)
    assert place == ("3,2", "clear", "Poland", "Poland", "allies")
    (line,) = r.units
    assert line.label == f"#{pole} Poland infantry 3-3" and line.counter == "3-3" and line.side == "allies"
    assert line.supply == "in supply"
    assert r.odds is not None
    # The odds are the combat rules' own strengths, not a second computation.
    attackers = [state.units[g1], state.units[g2]]
    attack, _ = combat.attack_strength(state, attackers, [])
    defence, _ = combat.defence_strength(state, hx(state, "3,2"), [state.units[pole]], supply_map(state, "allies"))
    assert r.odds.attackers == tuple(u.label() for u in attackers)
    assert r.odds.ratio == f"{float(attack / defence):.2f}"
    assert r.odds.defender_loses == combat_math.defender_loss_chance(1, attack / defence)
    assert all(f"#{far} " not in a for a in r.odds.attackers)
    # The Polish side sees no enemy in its own hex: nothing to attack there.
    assert api.hex_report(state, "allies", "3,2").odds is None


def test_a_stack_lists_each_unit_with_its_numbers_named_what_it_did_and_what_it_carries() -> None:
    state = at_war(FRONT_WORLD)
    walker = infantry(state, "Germany", "1,2", strength=4)
    ship = put(state, "Germany", "transport", "1,0")
    rider = put(state, "Germany", "infantry", "1,0", strength=2, carrier=ship.id)
    advance_to(state, "axis.first_movement")
    api.apply(state, "axis", Action("move", (walker, hx(state, "2,2"))))
    where, (moved,) = api.stack(state, "allies", "2,2")
    assert where == "2,2" and (moved.id, moved.kind, moved.counter) == (walker, "infantry", "4-3")
    assert moved.numbers == "strength 4, movement 3" and moved.supply == "in supply"
    assert moved.done == ("moved (1 of 3 movement points used)",) and moved.cargo == ()
    # the same lines as the hex report's
    assert api.hex_report(state, "axis", "2,2").units == (moved,)
    _, (transport, aboard) = api.stack(state, "axis", "1,0")
    assert transport.kind == "transport" and transport.cargo == (rider.label(),)
    assert transport.numbers == "submarine attack 0, defence 1, movement 4"  # a "T" where a warship has its attack
    assert aboard.id == rider.id and aboard.notes == (f"embarked on #{ship.id}",) and aboard.done == ()
    with pytest.raises(api.OrderError, match="Atlantis"):
        api.stack(state, "axis", "[Atlantis]")


def test_the_odds_of_one_attack_order_count_only_its_attackers() -> None:
    state = at_war(FRONT_WORLD)
    g1 = infantry(state, "Germany", "2,2", strength=4)
    g2 = armor(state, "Germany", "2,3", strength=6)
    pole = infantry(state, "Poland", "3,2", strength=3)
    defence, _ = combat.defence_strength(state, hx(state, "3,2"), [state.units[pole]], supply_map(state, "allies"))
    odds = api.hex_report(state, "axis", "3,2", attackers=[g2]).odds
    assert odds is not None and odds.attackers == (state.units[g2].label(),)
    attack, _ = combat.attack_strength(state, [state.units[g2]], [])
    assert odds.ratio == f"{float(attack / defence):.2f}"
    both = api.hex_report(state, "axis", "3,2").odds
    assert both is not None and float(both.ratio) > float(odds.ratio) and len(both.attackers) == 2
    # A unit that is not adjacent adds nothing: it is not an attacker of this hex.
    far = infantry(state, "Germany", "0,4")
    only = api.hex_report(state, "axis", "3,2", attackers=[g1, far]).odds
    assert only is not None and only.attackers == (state.units[g1].label(),)


def test_a_city_by_name_shows_its_installations_and_a_misspelt_one_is_answered() -> None:
    state = at_war(FRONT_WORLD)
    for where in ("Warsaw", "[Warsaw]", "6,2"):
        r = api.hex_report(state, "axis", where)
        assert r.hex == "6,2" and r.city == "Warsaw"
        assert "capital city Warsaw" in r.installations and "resource" in r.installations
    with pytest.raises(api.OrderError, match="did you mean Warsaw"):
        api.hex_report(state, "axis", "[Warsw]")
    with pytest.raises(api.OrderError, match="off the map"):
        api.hex_report(state, "axis", "99,99")


def test_an_air_unit_in_the_air_and_an_unsupplied_unit_say_so() -> None:
    state = at_war(FRONT_WORLD)
    cut = infantry(state, "Germany", "7,4")  # in Polish-held land: no supply line
    plane = put(state, "Germany", "fighter", "1,3", attack=3, move=8)
    plane.origin = hx(state, "0,2")
    assert api.hex_report(state, "axis", "7,4").units[0].supply == "out of supply"
    assert state.units[cut].supplied  # the record of the last check is not what the report reads
    assert "in the air" in api.hex_report(state, "axis", "1,3").units[0].notes


def test_show_hex_and_the_map_agree_on_supply_whatever_the_last_supply_phase_recorded() -> None:
    state = at_war(FRONT_WORLD)
    cut = infantry(state, "Germany", "7,4")  # no supply line, but the last check found one
    home = infantry(state, "Germany", "1,2")
    state.units[home].supplied = False  # a line again, though the last check found none
    for uid, where, word in ((cut, "7,4", "out of supply"), (home, "1,2", "in supply")):
        assert state.units[uid].supplied is (word == "out of supply")  # the record says the opposite
        (line,) = api.hex_report(state, "axis", where).units
        (shown,) = [u for u in api.summary(state, "axis").units if u.id == uid]
        (drawn,) = [u for u in api.board(state, "allies").units if u.id == uid]
        (near,) = [u for _, u in api.near(state, where, 0).units if u.id == uid]
        assert line.supply == word
        assert ("out of supply" in shown.flags) is ("out of supply" in near.flags) is (word == "out of supply")
        assert drawn.supplied is (word == "in supply")


def _matching(state: api.GameState, side: str, **kw: list[object]) -> list[api.Action]:
    """The slow way: every legal action, filtered afterwards."""
    hexes = {state.world.map.grid.parse_label(p) if "," in str(p) else state.world.map.city_by_name[str(p).lower()].hex
             for p in kw.get("places", [])}  # fmt: skip
    return [
        a
        for a in api.legal_actions(state, side)
        if inspect._matches(
            state, a, set(kw.get("units", [])), hexes, set(kw.get("countries", [])), set(kw.get("kinds", []))
        )
    ]


@pytest.mark.parametrize("phase", ["axis.first_movement", "axis.second_movement", "axis.combat", "deployment"])
def test_filtered_legal_orders_equal_the_whole_list_filtered(phase: str) -> None:
    state = at_war(FRONT_WORLD)
    g1 = infantry(state, "Germany", "2,2")
    armor(state, "Germany", "2,3")
    infantry(state, "Germany", "0,1")
    infantry(state, "Poland", "3,2")
    state.countries["Germany"].free_land = {LandKey(UnitType.INFANTRY, 3): 4}
    advance_to(state, phase)
    filters: list[dict[str, list[object]]] = [
        {"units": [g1]},
        {"places": ["3,3"]},
        {"places": ["Berlin"]},
        {"places": ["2,2"], "kinds": ["move"]},
        {"countries": ["Germany"]},
        {"kinds": ["pass"]},
        {"kinds": ["rail"]},
        {"kinds": ["embark", "disembark"]},
        {"units": [g1], "kinds": ["move", "rail"]},
        {"countries": ["Poland"]},
    ]
    for f in filters:
        want = _matching(state, "axis", **f)
        got = api.legal_matching(state, "axis", **f)  # type: ignore[arg-type]
        assert got == want, f
    assert api.legal_matching(state, "axis", units=[g1]) != []


def play_1939_to(phase: str) -> api.GameState:
    """The 1939 game with the computer player deciding both sides, up to ``phase``."""
    state = api.new_game("1939")
    for n in range(200):
        d = api.decision(state)
        if d.phase == phase:
            return state
        if d.kind == "chance":
            api.apply_chance(state, bytes([n % 256]) * 32)
        elif d.kind == "simultaneous":
            api.apply_simultaneous(state, {s: ai.decide(state, s, bytes(32)) for s in d.sides})
        else:
            api.apply(state, d.sides[0], api.Action("pass"))
    raise AssertionError(f"the game never reached {phase}")


def test_filtering_the_1939_movement_phase_by_hex_agrees_with_the_whole_list() -> None:
    state = play_1939_to("axis.first_movement")
    assert api.legal_matching(state, "axis", places=["Berlin"]) == _matching(state, "axis", places=["Berlin"])


BOMBER_OVER_THE_DEFENDER = """
G:c G:c P:c P:c P:c
 G:c G:c P:c P:c P:c
city Berlin 0,0 capital
city Warsaw 4,0 capital
resource 0,0 4,0
step axis.combat
unit Germany infantry 1,0 strength=4
unit Poland infantry 2,0 strength=2
unit Germany fighter 2,0 attack=0 bomber=2 origin=1
"""


def test_the_odds_shown_are_the_odds_the_supported_attack_uses() -> None:
    """Rulebook "Land Combat": bombers in the defender's hex add their bomber strength.  The
    preview counts the bomber as the attack will (attack 4 + 2) and, as the resolution does,
    does not let it cut the defender's supply line: defence 2 in supply, not 1, odds 3.00."""
    s = parse(BOMBER_OVER_THE_DEFENDER)
    inf, _, bomber = sorted(s.units)
    odds = api.hex_report(s, "axis", "2,0").odds
    assert odds is not None and odds.supports == (s.units[bomber].label(),)
    assert (odds.attack, odds.defence, odds.ratio) == ("6", "2", "3.00")
    target = hx(s, "2,0")
    for order in (Action("attack", (target, inf)), Action("support", (target, bomber)), PASS):
        api.apply(s, "axis", order)
    [report] = [e.combat for e in api.apply_chance_events(s, bytes(32)) if e.combat is not None]
    assert (number_text(report.attack), number_text(report.defence), f"{float(report.odds):.2f}") == (
        odds.attack,
        odds.defence,
        odds.ratio,
    )
    assert report.attack_mods + report.defence_mods == odds.notes
