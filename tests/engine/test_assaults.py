"""Amphibious assaults and paradrops (rulebook: "Amphibious Assaults and Paradrops",
"Japanese/Soviet Relations"; supplement: "Bombing and assaults", "Stacking")."""

from __future__ import annotations

from fractions import Fraction

import pytest

from engine import api, assaults
from engine.actions import Action, IllegalAction, rule_of
from engine.position import hex_at, open_step, put, setup
from engine.state import NO_UNIT, GameState
from tests.engine.strait import CITIES, MAP, Draws


def game() -> GameState:
    return setup(MAP, cities=CITIES, step=None)


def shipped(state: GameState, what: str, at: str, **kw: object) -> int:
    ship = put(state, "Germany", "transport", at)
    return put(state, "Germany", what, at, carrier=ship.id, **kw).id


def dropped(state: GameState, at: str) -> int:
    plane = put(state, "Germany", "air_transport", at)
    return put(state, "Germany", "paratrooper", at, carrier=plane.id).id


def roll(state: GameState, *draws: float) -> list[str]:
    return assaults.AmphibiousRoll("axis").roll(state, Draws(draws))


def test_success_chances_follow_the_table() -> None:
    """The table: marines and combined 100 %, one of them 75 %, neither 50 %."""
    state = game()
    sea = assaults.Assault(0, [], by_sea=True, by_air=False)
    both = assaults.Assault(0, [], by_sea=True, by_air=True)
    assert assaults.success_chance(state, sea) == Fraction(1, 2)
    assert assaults.success_chance(state, both) == Fraction(3, 4)
    m = put(state, "Germany", "infantry", "0,0")
    m.type = m.type.__class__("marine")
    assert assaults.success_chance(state, assaults.Assault(0, [m.id], True, False)) == Fraction(3, 4)
    assert assaults.success_chance(state, assaults.Assault(0, [m.id], True, True)) == 1


def test_an_empty_enemy_hex_is_taken_and_its_units_may_not_attack() -> None:
    """ "If the assault succeeds and there are no enemy land units in the hex, all
    participating land units are placed in the hex and their controller immediately gains
    control of the hex. Participating land units may not attack during the combat phase" """
    state = game()
    inf = shipped(state, "infantry", "3,0")
    put(state, "Poland", "infantry", "5,1")
    open_step(state, "axis.amphibious")
    target = hex_at(state, "4,0")
    assert Action("assault", (target, inf)) in api.legal_actions(state, "axis")
    api.apply(state, "axis", Action("assault", (target, inf)))
    [line] = roll(state, 0.4)
    assert "success chance 50%" in line and "taken" in line
    assert state.units[inf].hex == target and state.units[inf].carrier == NO_UNIT
    assert state.side_controlling(target) == "axis"
    why = assaults.attack_refusal(state, state.units[inf], hex_at(state, "5,1"))
    assert rule_of(why) == "assault.no-attack"


def test_a_failed_assault_eliminates_its_units() -> None:
    """ "If the assault fails, all participating land units are eliminated." """
    state = game()
    inf = shipped(state, "infantry", "3,0")
    open_step(state, "axis.amphibious")
    api.apply(state, "axis", Action("assault", (hex_at(state, "4,0"), inf)))
    [line] = roll(state, 0.5)
    assert "failed" in line and inf not in state.units
    assert state.side_controlling(hex_at(state, "4,0")) == "allies"


def test_a_defended_hex_must_be_cleared_or_the_assault_fails() -> None:
    """ "During the subsequent combat phase, the assaulting land units must attack the enemy
    units in their hex (they may not attack units in adjacent hexes) ... If there are still
    enemy land units in the hex at the end of the combat phase, all assaulting land units
    are eliminated" """
    state = game()
    inf = shipped(state, "infantry", "3,1")
    para = dropped(state, "4,1")
    put(state, "Poland", "infantry", "4,1", strength=1)
    put(state, "Poland", "infantry", "5,1")
    open_step(state, "axis.amphibious")
    lodz = hex_at(state, "4,1")
    api.apply(state, "axis", Action("assault", (lodz, inf, para)))
    [line] = roll(state, 0.7)  # combined: 75 %
    assert "combined assault" in line and "landed" in line
    assert state.side_controlling(lodz) == "allies"
    why = assaults.attack_refusal(state, state.units[inf], hex_at(state, "5,1"))
    assert rule_of(why) == "assault.own-hex"
    assert assaults.attack_refusal(state, state.units[inf], lodz) == ""
    # nobody attacked: at the end of the combat phase the assault fails
    assaults.settle(state)
    assert inf not in state.units and para not in state.units


def test_a_landed_assault_attacks_its_own_hex_and_takes_it() -> None:
    state = game()
    inf = shipped(state, "infantry", "3,1", strength=5)
    put(state, "Poland", "infantry", "4,1", strength=1)
    open_step(state, "axis.amphibious")
    lodz = hex_at(state, "4,1")
    api.apply(state, "axis", Action("assault", (lodz, inf)))
    roll(state, 0.1)
    open_step(state, "axis.combat")
    assert Action("attack", (lodz, inf)) in api.legal_actions(state, "axis")
    api.apply(state, "axis", Action("attack", (lodz, inf)))
    api.apply(state, "axis", Action("pass", ()))
    for _ in range(5):
        if api.decision(state).phase != "axis.combat_roll":
            break
        api.apply_chance(state, bytes(32))
    if inf in state.units and not any(u.country == "Poland" for u in state.units_at(lodz)):
        assert state.side_controlling(lodz) == "axis"
    assert state.memo.assaults is None


def test_only_paratroopers_drop_and_only_from_their_aircraft_hex() -> None:
    """ "Only paratroopers can do paradrops" """
    state = game()
    plane = put(state, "Germany", "air_transport", "4,0")
    inf = put(state, "Germany", "infantry", "4,0", carrier=plane.id, strength=1).id
    para = dropped(state, "4,0")
    open_step(state, "axis.amphibious")
    with pytest.raises(IllegalAction) as e:
        api.check(state, "axis", Action("assault", (hex_at(state, "4,0"), inf)))
    assert e.value.rule == "paradrop.not-paratrooper"
    with pytest.raises(IllegalAction) as e:
        api.check(state, "axis", Action("assault", (hex_at(state, "5,0"), para)))
    assert e.value.rule == "assault.unreachable"


def test_assaults_go_only_into_enemy_hexes_and_within_the_stacking_limit() -> None:
    """ "into enemy controlled hexes" and "Only as many units as could stack in the hex may
    participate in an amphibious assault or paradrop." """
    state = game()
    a = shipped(state, "infantry", "3,1")
    b = shipped(state, "infantry", "3,1")
    put(state, "Poland", "infantry", "4,1")
    open_step(state, "axis.amphibious")
    with pytest.raises(IllegalAction) as e:
        api.check(state, "axis", Action("assault", (hex_at(state, "1,1"), a)))
    assert e.value.rule in ("assault.not-enemy", "assault.unreachable")
    with pytest.raises(IllegalAction) as e:
        api.check(state, "axis", Action("assault", (hex_at(state, "4,1"), a, b)))
    assert e.value.rule == "stacking.land"
    api.check(state, "axis", Action("assault", (hex_at(state, "4,1"), a)))


def test_japanese_units_may_not_land_in_the_soviet_union_while_mongolia_is_neutral() -> None:
    """ "As long as Mongolia is neutral ... Japanese units may not enter or attack into the
    Soviet Union" """
    picture = """
    J:c ~ S:c S:c M:c
     J:c ~ S:c S:c M:c
    """
    state = setup(picture, axis=("Japan",), allies=("Soviet Union",), step=None, cities={"Tokyo": "0,0 capital"})
    ship = put(state, "Japan", "transport", "1,0")
    inf = put(state, "Japan", "infantry", "1,0", carrier=ship.id).id
    open_step(state, "axis.amphibious")
    with pytest.raises(IllegalAction) as e:
        api.check(state, "axis", Action("assault", (hex_at(state, "2,0"), inf)))
    assert e.value.rule == "war.japan-soviet"
    assert not [a for a in api.legal_actions(state, "axis") if a.kind == "assault"]


def test_landed_units_do_not_move_again_except_armor() -> None:
    """ "may not move during the second movement phase unless they're armor units" """
    state = game()
    inf = shipped(state, "infantry", "3,0")
    arm = shipped(state, "armor", "3,0")
    open_step(state, "axis.amphibious")
    api.apply(state, "axis", Action("assault", (hex_at(state, "4,0"), inf, arm)))
    roll(state, 0.1)
    assert state.units[inf].moved and not state.units[arm].moved


def test_the_assault_order_reads_and_writes_as_text() -> None:
    state = game()
    inf = shipped(state, "infantry", "3,0")
    open_step(state, "axis.amphibious")
    action = Action("assault", (hex_at(state, "4,0"), inf))
    assert api.parse_order(state, "axis", api.format_action(state, action)) == action
