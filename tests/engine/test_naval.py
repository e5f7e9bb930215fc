"""Naval combat (rulebook: "Naval and Air Combat", "Damaged Units", "Buying Back
Eliminated Units"; supplement: "Naval and air combat")."""

from __future__ import annotations

from fractions import Fraction

import pytest

from engine import api, economy, naval
from engine.actions import Action, IllegalAction, rule_of
from engine.position import hex_at as hx
from engine.position import parse
from engine.sequence import STEP_INDEX
from engine.state import GameState
from engine.units import UnitType
from tests.engine.test_combat import ScriptedRng

SEA = """
G:c ~ ~ ~ P:c
 G:c ~ ~ ~ P:c
G:c ~ ~ ~ P:c
step axis.combat
"""


def position(*units: str, extra: str = "") -> GameState:
    return parse(SEA + extra + "\n".join(units))


def ids(state: GameState, country: str) -> list[int]:
    return sorted(u.id for u in state.units_of(country))


def roll(state: GameState, *draws: float) -> list[str]:
    api.apply(state, "axis", Action("pass", ()))
    assert state.step == STEP_INDEX["axis.combat_roll"]
    return naval.CombatRoll("axis").roll(state, ScriptedRng(*draws))


def test_naval_units_attack_enemy_naval_stacks_in_adjacent_hexes() -> None:
    """ "Naval units may attack enemy naval units in adjacent hexes." """
    s = position("unit Germany destroyer 1,0", "unit Poland destroyer 2,0", "unit Poland destroyer 3,2")
    g = ids(s, "Germany")[0]
    assert Action("naval", (hx(s, "2,0"), g)) in api.legal_actions(s, "axis")
    with pytest.raises(IllegalAction) as e:
        api.apply(s, "axis", Action("naval", (hx(s, "3,2"), g)))
    assert e.value.rule == "naval.not-adjacent"
    api.apply(s, "axis", Action("naval", (hx(s, "2,0"), g)))
    assert s.combats[-1].kind == "naval" and s.combats[-1].attackers == [g]


def test_no_naval_attack_across_an_all_land_hexside() -> None:
    """ "Naval units may not attack across all land hexsides or canals." """
    s = parse("""
    ~ G:c ~
     G:c G:c ~
    step axis.combat
    unit Germany destroyer 0,0
    unit Poland destroyer 2,0
    """)
    g = ids(s, "Germany")[0]
    assert not any(a.kind == "naval" for a in api.legal_actions(s, "axis"))
    with pytest.raises(IllegalAction) as e:
        api.apply(s, "axis", Action("naval", (hx(s, "2,0"), g)))
    assert e.value.rule == "naval.not-adjacent"


def test_ships_inside_a_port_cannot_attack() -> None:
    s = position("unit Germany destroyer 0,0 in_port=yes", "unit Poland destroyer 1,0", extra="city Kiel 0,0\n")
    g = ids(s, "Germany")[0]
    with pytest.raises(IllegalAction) as e:
        api.apply(s, "axis", Action("naval", (hx(s, "1,0"), g)))
    assert e.value.rule == "naval.in-port"


def test_transports_and_carriers_cannot_attack() -> None:
    """'Carriers themselves can't attack.'"""
    s = position("unit Germany carrier 1,0", "unit Poland destroyer 2,0")
    g = ids(s, "Germany")[0]
    with pytest.raises(IllegalAction) as e:
        api.apply(s, "axis", Action("naval", (hx(s, "2,0"), g)))
    assert e.value.rule == "naval.no-attack"


def test_both_sides_hit_each_other_and_losses_are_per_unit() -> None:
    """ "the attacker and defender both attack each other with the same odds" and
    "Losses are inflicted onto each defender individually"."""
    s = position("unit Germany destroyer 1,0", "unit Poland destroyer 2,0", "unit Poland destroyer 2,0")
    g = ids(s, "Germany")[0]
    p1, p2 = ids(s, "Poland")
    api.apply(s, "axis", Action("naval", (hx(s, "2,0"), g)))
    # attack 2 on two defenders of defence 2: k = 2 / (2*2) = 1/2, damage chance 0.29, sinking 0.025
    # defenders hit back with 4 on one attacker of defence 2: k = 2: damage 0.75, sinking 0.0975
    # draws: p1 damage, p1 sinking, p2 damage, p2 sinking, g damage, g sinking, retreat
    log = roll(s, 0.1, 0.9, 0.5, 0.9, 0.7, 0.05, 0.99)
    assert s.units[p1].damaged and not s.units[p2].damaged
    assert g not in s.units  # sunk outright (0.05 < 0.0975)
    assert "naval attack" in log[0] and f"#{p1} damaged" in log[0]


def test_no_risk_for_the_attacker_when_the_defender_cannot_hit_back() -> None:
    """ "If the defender couldn't attack the attacker, there is no risk for losses for the attacker.
    ... if a naval unit attacks a carrier, transport ship or convoy." """
    s = position("unit Germany destroyer 1,0", "unit Poland transport 2,0")
    g = ids(s, "Germany")[0]
    api.apply(s, "axis", Action("naval", (hx(s, "2,0"), g)))
    roll(s, 0.9, 0.9, 0.99)  # the defender's two draws and the retreat draw only
    assert not s.units[g].damaged


def test_a_convoy_sunk_by_its_first_hit_is_not_told_as_already_damaged() -> None:
    """Rulebook "Damaged Units": convoys "can't be damaged and are eliminated directly if
    they would have been damaged"."""
    s = position("unit Germany destroyer 1,0", "unit Poland transport 2,0")
    g = ids(s, "Germany")[0]
    convoy = ids(s, "Poland")[0]
    s.units[convoy].type = UnitType.CONVOY
    api.apply(s, "axis", Action("naval", (hx(s, "2,0"), g)))
    log = roll(s, 0.1, 0.9)  # damaged, not sunk outright
    assert convoy not in s.units
    assert f"#{convoy} sunk (cannot be damaged)" in log[0] and "already damaged" not in log[0]


def test_submarine_against_ships_without_submarine_attack() -> None:
    """ "if a submarine attacks a naval unit with zero submarine attack strength": no risk."""
    s = position("unit Germany submarine 1,0", "unit Poland destroyer 2,0 sub_attack=0")
    g = ids(s, "Germany")[0]
    api.apply(s, "axis", Action("naval", (hx(s, "2,0"), g)))
    roll(s, 0.9, 0.9, 0.99)
    assert not s.units[g].damaged


def test_against_submarines_the_submarine_attack_counts() -> None:
    """ "When another unit attacks submarines, their submarine attack strength ... is counted"."""
    s = position("unit Germany destroyer 1,0 attack=5 sub_attack=1", "unit Poland submarine 2,0")
    g = s.units[ids(s, "Germany")[0]]
    sub = s.units[ids(s, "Poland")[0]]
    assert naval.strength_against(g, [sub]) == 1
    assert naval.strength_against(sub, [g]) == 1  # the submarine's surface attack against a destroyer


def test_damaged_units_count_half() -> None:
    """ "Damaged units have their attack and defense strengths halved in subsequent combats." """
    s = position("unit Germany destroyer 1,0 attack=3 damaged=yes", "unit Poland destroyer 2,0")
    g = s.units[ids(s, "Germany")[0]]
    p = s.units[ids(s, "Poland")[0]]
    assert naval.strength_against(g, [p]) == Fraction(3, 2)
    assert naval.defence(g) == 1


def test_a_damaged_ship_damaged_again_is_eliminated_and_bought_back_only_in_port() -> None:
    """ "If a damaged unit were to be damaged again, that unit is eliminated." and "Naval units
    that are eliminated can only be bought back if they were in a port"."""
    s = position("unit Germany destroyer 1,0 attack=9", "unit Poland destroyer 2,0 damaged=yes")
    g = ids(s, "Germany")[0]
    api.apply(s, "axis", Action("naval", (hx(s, "2,0"), g)))
    roll(s, 0.1, 0.9, 0.99, 0.99)
    assert not s.units_of("Poland")
    assert s.countries["Poland"].pool_units == []


def test_a_transport_sunk_at_sea_may_be_bought_back() -> None:
    """'exception: convoys and transport ships can always be bought back'."""
    s = position("unit Germany destroyer 1,0 attack=20", "unit Poland transport 2,0")
    g = ids(s, "Germany")[0]
    api.apply(s, "axis", Action("naval", (hx(s, "2,0"), g)))
    roll(s, 0.9, 0.01)
    assert [p.type for p in s.countries["Poland"].pool_units] == [UnitType.TRANSPORT]


def test_naval_retreat_one_hex_free_of_enemy_naval_control_zones() -> None:
    """'the retreating units retreat one hex, must obey stacking limits, must end in a hex free
    from naval control zones unless there is a friendly naval unit in that hex'."""
    s = position("unit Germany destroyer 1,0", "unit Poland destroyer 2,0")
    g, p = ids(s, "Germany")[0], ids(s, "Poland")[0]
    api.apply(s, "axis", Action("naval", (hx(s, "2,0"), g)))
    log = roll(s, 0.9, 0.9, 0.9, 0.9, 0.01)
    dest = s.units[p].hex
    assert s.world.map.grid.distance(dest, hx(s, "2,0")) == 1
    assert dest not in (hx(s, "1,0"), hx(s, "2,1"), hx(s, "1,1"), hx(s, "2,0"))
    assert "retreats" in log[0]


def test_no_naval_retreat_possible_means_staying_without_damage() -> None:
    """'if no naval retreat is possible, the defender simply remains in the combat hex without
    any additional damage'."""
    # every hex next to the Polish ship is in the German ships' control zone
    s = parse("""
    G:c ~ ~ ~
     G:c G:c G:c G:c
    step axis.combat
    unit Germany destroyer 1,0
    unit Germany destroyer 3,0
    unit Poland destroyer 2,0
    """)
    g, p = ids(s, "Germany")[0], ids(s, "Poland")[0]
    api.apply(s, "axis", Action("naval", (hx(s, "2,0"), g)))
    log = roll(s, 0.9, 0.9, 0.9, 0.9, 0.01)
    assert s.units[p].hex == hx(s, "2,0") and not s.units[p].damaged
    assert "no retreat is possible" in log[0]


def test_repair_ships_in_port_and_aircraft_anywhere_even_on_a_carrier_at_sea() -> None:
    """'Naval units must be in a port to be repaired ... Damaged air units based on carriers
    can be repaired even if the carrier isn't in a port.'"""
    s = position(
        "unit Germany carrier 1,0 damaged=yes",
        "unit Germany navy_fighter 1,0 damaged=yes",
        "unit Germany destroyer 0,0 in_port=yes damaged=yes",
        "money Germany 1000",
        extra="city Kiel 0,0\n",
    )
    carrier, plane, ship = ids(s, "Germany")
    s.units[plane].carrier = carrier
    assert economy.repair_refusal(s, "axis", plane) == ""
    assert economy.repair_refusal(s, "axis", ship) == ""
    assert rule_of(economy.repair_refusal(s, "axis", carrier)) == "repair.not-in-port"


def test_ships_inside_a_major_port_cannot_be_attacked_by_naval_units() -> None:
    """Rulebook "Terrain", city with major port: "Naval units inside a major port can't be
    attacked by other naval units." An ordinary port shelters nothing."""
    for flags, open_to_attack in (("port", False), ("", True)):
        s = position(
            "unit Germany destroyer 3,0", "unit Poland destroyer 4,0 in_port=yes", extra=f"city Gdynia 4,0 {flags}\n"
        )
        attack = Action("naval", (hx(s, "4,0"), ids(s, "Germany")[0]))
        assert (attack in api.legal_actions(s, "axis")) is open_to_attack
        if open_to_attack:
            api.check(s, "axis", attack)
        else:
            with pytest.raises(IllegalAction) as e:
                api.check(s, "axis", attack)
            assert e.value.rule == "naval.major-port"
