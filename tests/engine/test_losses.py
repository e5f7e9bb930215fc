"""What may be bought back after each way of losing a unit (rulebook "Buying Back
Eliminated Units"), all through engine/losses.py."""

from __future__ import annotations

from engine import losses
from engine.position import hex_at, put, setup
from engine.state import GameState, LandKey
from engine.units import UnitType

MAP = """
G:c G:c ~ ~
 G:c G:c ~ ~
"""
INF = LandKey(UnitType.INFANTRY, 3)


def germany() -> GameState:
    return setup(MAP, step=None)


def pooled(state: GameState) -> list[UnitType]:
    return [p.type for p in state.countries["Germany"].pool_units]


def test_land_points_always_come_back() -> None:
    """ "When a land unit is eliminated or loses strength points, those strength points can
    always be bought back in a subsequent unit build phase." """
    state = germany()
    inf = put(state, "Germany", "infantry", "0,0", strength=5)
    losses.lose_points(state, inf, 2)
    assert state.countries["Germany"].pool_land == {INF: 2}
    losses.lose_points(state, inf, 9)  # more than it has: only its 3 remaining points
    assert inf.id not in state.units and state.countries["Germany"].pool_land == {INF: 5}


def test_land_units_lost_with_their_ship_at_sea_come_back_the_ship_does_not() -> None:
    """Land points "can always be bought back"; "Naval units that are eliminated can only be
    bought back if they were in a port at the time they were eliminated"."""
    state = germany()
    ship = put(state, "Germany", "destroyer", "2,0", in_port=False)
    losses.eliminate(state, ship)
    assert pooled(state) == []
    carrier = put(state, "Germany", "carrier", "2,0", in_port=False)
    plane = put(state, "Germany", "navy_fighter", "2,0", carrier=carrier.id)
    losses.eliminate(state, carrier)
    # the aircraft was based on its carrier: it comes back, the carrier at sea does not
    assert plane.id not in state.units and pooled(state) == [UnitType.FIGHTER]


def test_ships_in_port_and_transports_and_convoys_anywhere_come_back() -> None:
    """ "(exception: convoys and transport ships can always be bought back)" """
    state = germany()
    in_port = put(state, "Germany", "destroyer", "1,0", in_port=True, damaged=True)
    transport = put(state, "Germany", "transport", "2,0", in_port=False)
    troops = put(state, "Germany", "infantry", None, carrier=transport.id)
    convoy = put(state, "Germany", "convoy", "3,1", move=4)
    for u in (in_port, transport, convoy):
        losses.eliminate(state, u)
    assert pooled(state) == [UnitType.DESTROYER, UnitType.TRANSPORT, UnitType.CONVOY]
    assert troops.id not in state.units and state.countries["Germany"].pool_land == {INF: 3}
    # what is bought back is a whole new unit, not a damaged one
    assert state.countries["Germany"].pool_units[0] == in_port.profile()


def test_aircraft_come_back_only_if_based() -> None:
    """ "Air units that are eliminated can only be bought back if they were based at the
    time they were eliminated." """
    state = germany()
    based = put(state, "Germany", "fighter", "0,0")
    flying = put(state, "Germany", "fighter", "2,0", origin=hex_at(state, "0,0"))
    losses.eliminate(state, flying)
    assert pooled(state) == []
    losses.eliminate(state, based)
    assert pooled(state) == [UnitType.FIGHTER]


def test_nothing_comes_back_after_an_atomic_bomb_or_a_conquest() -> None:
    """Rulebook "Atomic Bomb": "Land units, based air units, and naval units in a port are
    eliminated and can't be bought back."  "Note that none of this applies to units that are
    removed from the map when their owner is conquered." """
    state = germany()
    ship = put(state, "Germany", "transport", "1,0", in_port=True)
    put(state, "Germany", "infantry", None, carrier=ship.id)
    losses.eliminate(state, ship, buy_back=False)
    losses.eliminate(state, put(state, "Germany", "fighter", "0,0"), buy_back=False)
    g = state.countries["Germany"]
    assert (g.pool_land, g.pool_units) == ({}, [])
    put(state, "Germany", "infantry", "0,1")
    losses.remove_on_conquest(state, "Germany")
    g.conquered = True
    assert (g.pool_land, g.pool_units, list(state.units)) == ({}, [], [])
    # a conquered country buys nothing, so nothing it loses later is pooled either
    late = put(state, "Germany", "infantry", "0,0")
    losses.eliminate(state, late)
    assert g.pool_land == {}
