"""A combat hit on a naval or air unit (rulebook "Damaged Units")."""

from __future__ import annotations

from engine import losses
from engine.position import put, setup

MAP = """
G:c ~ ~
 G:c ~ ~
"""


def test_a_first_hit_damages_and_a_second_eliminates() -> None:
    """ "If a damaged unit were to be damaged again, that unit is eliminated." """
    state = setup(MAP)
    ship = put(state, "Germany", "destroyer", "1,0")
    assert losses.hit(state, ship) is False
    assert ship.damaged and ship.id in state.units
    assert losses.hit(state, ship) is True
    assert ship.id not in state.units


def test_units_that_cannot_be_damaged_are_eliminated_at_once() -> None:
    """ "The following units can't be damaged and are eliminated directly if they would have
    been damaged: Convoys, "ME-262" German fighter air units, "MXY-7 Ohka" Japanese kamikaze
    air units." """
    state = setup(MAP)
    jet = put(state, "Germany", "fighter", "0,0", name="Me 262")
    fighter = put(state, "Germany", "fighter", "1,0")
    assert losses.hit(state, jet) is True and jet.id not in state.units
    assert losses.hit(state, fighter) is False and fighter.damaged


def test_cargo_survives_damage_and_dies_with_its_carrier() -> None:
    """ "Units that are embarked on a unit that gets damaged are unaffected by the damage
    (though units embarked on a unit that gets eliminated are eliminated as well)." """
    state = setup(MAP)
    ship = put(state, "Germany", "transport", "1,0")
    troops = put(state, "Germany", "infantry", None, carrier=ship.id)
    losses.hit(state, ship)
    assert troops.id in state.units and not troops.damaged
    losses.hit(state, ship)
    assert troops.id not in state.units
