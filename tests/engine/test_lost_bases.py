"""Aircraft and ships in a hex their side loses leave it (docs/rules-decisions.md): a base
or port that changes hands no longer shelters them, and their presence must not cut the
new owner's supply (rulebook "Supply": lines "free from enemy units")."""

from __future__ import annotations

from engine.control import take_control
from engine.position import hex_at as hx
from engine.position import parse
from engine.state import GameState
from engine.units import UnitType

POSITION = """
G:c P:c P:c P:c ~
city Posen 1,0
city Lodz 3,0
city Danzig 3,0 port
step axis.combat
"""


def units(s: GameState, kind: UnitType) -> list[int]:
    return [u.id for u in s.units_of("Poland") if u.type == kind]


def test_air_units_based_in_a_lost_hex_fly_to_the_nearest_base_in_reach() -> None:
    s = parse(POSITION.replace("city Danzig 3,0 port\n", "") + "unit Poland fighter 1,0\n")
    [f] = units(s, UnitType.FIGHTER)
    take_control(s, hx(s, "1,0"), "Germany")
    assert s.units[f].hex == hx(s, "3,0")


def test_air_units_with_no_base_in_reach_are_eliminated_and_may_be_bought_back() -> None:
    """'Air units that are eliminated can only be bought back if they were based at the time.'"""
    s = parse(POSITION.replace("city Danzig 3,0 port\n", "") + "unit Poland fighter 1,0 move=1\n")
    take_control(s, hx(s, "1,0"), "Germany")
    assert not s.units_of("Poland")
    assert [p.type for p in s.countries["Poland"].pool_units] == [UnitType.FIGHTER]


def test_ships_in_a_lost_port_put_to_sea() -> None:
    s = parse(POSITION.replace("city Lodz 3,0\n", "") + "unit Poland destroyer 3,0 in_port=yes\n")
    [d] = units(s, UnitType.DESTROYER)
    take_control(s, hx(s, "3,0"), "Germany")
    assert s.units[d].hex == hx(s, "4,0") and not s.units[d].in_port


def test_ships_with_no_way_out_are_scuttled_and_may_be_bought_back() -> None:
    """'Naval units that are eliminated can only be bought back if they were in a port.'"""
    s = parse(
        POSITION.replace("city Lodz 3,0\n", "")
        + "unit Poland destroyer 3,0 in_port=yes\nunit Germany destroyer 4,0\nunit Germany destroyer 4,0\n"
    )
    take_control(s, hx(s, "3,0"), "Germany")
    assert not s.units_of("Poland")
    assert [p.type for p in s.countries["Poland"].pool_units] == [UnitType.DESTROYER]
