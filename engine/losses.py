"""Losses: units eliminated and strength points lost, and what may be bought back
(rulebook: "Buying Back Eliminated Units").  Every rule that removes a unit calls here."""

from __future__ import annotations

from engine import stacking
from engine.state import NO_UNIT, GameState, LandKey, Unit
from engine.units import UnitType


def eliminate(state: GameState, u: Unit, buy_back: bool = True) -> None:
    """``u`` is eliminated: what may be bought back returns to its country's pool
    (rulebook "Buying Back Eliminated Units"), then the unit (and its cargo) is gone.

    Land points always return; ships only if in port (convoys and transports always);
    air units only if based.  ``buy_back=False`` for atomic bombs.
    """
    for cargo in state.cargo_of(u):
        eliminate(state, cargo, buy_back)
    c = state.countries[u.country]
    if buy_back and not c.conquered:
        if u.is_land:
            key = LandKey(u.type, u.move)
            points = 1 if u.type == UnitType.SUPPLY else u.strength
            if points:
                c.pool_land[key] = c.pool_land.get(key, 0) + points
        elif u.is_naval:
            if u.in_port or u.type in (UnitType.CONVOY, UnitType.TRANSPORT):
                c.pool_units.append(u.profile())
        elif u.carrier != NO_UNIT or stacking.is_based(u):
            c.pool_units.append(u.profile())
    if u.id in state.units:
        state.destroy(u)


def remove_on_conquest(state: GameState, country: str) -> None:
    """``country`` is conquered or surrenders: every unit of it is gone with nothing to buy
    back (rulebook "Buying Back Eliminated Units": not for units removed by conquest), and
    it loses its money, its pool and what waits to be placed (rulebook "Conquest")."""
    c = state.countries[country]
    c.pool_land, c.pool_units = {}, []
    for u in sorted(state.units_of(country), key=lambda x: x.id):
        if u.id in state.units:
            state.destroy(u)
    c.free_land, c.free_units, c.transit = {}, [], []
    c.money = 0


def send_home(state: GameState, u: Unit) -> None:
    """``u`` is removed from the map and returned for free at the next deployment (Vichy
    France, Greenland, Finnish surrender): a land unit as free points, a ship or aircraft
    as an off-map unit; its cargo goes home with it."""
    for cargo in state.cargo_of(u):
        send_home(state, cargo)
    c = state.countries[u.country]
    if u.is_land:
        key = LandKey(u.type, u.move)
        c.free_land[key] = c.free_land.get(key, 0) + (1 if u.type == UnitType.SUPPLY else u.strength)
        state.destroy(u)
    else:
        state.remove(u)
        c.free_units.append(u.id)


def lose_points(state: GameState, u: Unit, points: int) -> None:
    """A land unit loses ``points`` strength points, which may be bought back; at 0 it is eliminated."""
    lost = min(points, u.strength)
    c = state.countries[u.country]
    if lost and not c.conquered:
        key = LandKey(u.type, u.move)
        c.pool_land[key] = c.pool_land.get(key, 0) + lost
    u.strength -= lost
    if u.strength <= 0:
        eliminate(state, u)


#: Units that are eliminated where others would be damaged (rulebook "Damaged Units"),
#: named as the scenarios name them: the German jet fighter and the Japanese rocket bomb.
UNDAMAGEABLE_NAMES = frozenset({"Me 262", "Ohka"})


def can_be_damaged(u: Unit) -> bool:
    return not u.is_land and u.type != UnitType.CONVOY and u.name not in UNDAMAGEABLE_NAMES


def hit(state: GameState, u: Unit) -> bool:
    """A naval or air unit takes a combat hit (rulebook "Damaged Units"): it is damaged, or
    eliminated if it was damaged already or cannot be damaged.  Its cargo is unaffected by
    damage and eliminated with it.  Returns whether the unit was eliminated."""
    if u.damaged or not can_be_damaged(u):
        eliminate(state, u)
        return True
    u.damaged = True
    return False
