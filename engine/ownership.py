"""Whose unit an order names: the first question of every order that names a unit.

An order may name only a unit that exists (for some orders, one on the map) and whose
country is on the ordering side; the refusals and their sentences live here once.
"""

from __future__ import annotations

from engine.actions import Refusal
from engine.hexgrid import NO_HEX
from engine.state import GameState, Unit


def no_unit(uid: object, on_map: bool = False) -> Refusal:
    """The refusal for an order naming a unit that does not exist (or is not on the map)."""
    return Refusal("unit.unknown", f"there is no unit #{uid} on the map" if on_map else f"there is no unit #{uid}")


def owned(state: GameState, side: str, uid: int, u: Unit | None, *, on_map: bool = False) -> Unit | Refusal:
    """Unit ``u`` (looked up as ``uid``) if ``side`` may give it orders, else why not.
    With ``on_map``, a unit off the map counts as missing."""
    if u is None or (on_map and u.hex == NO_HEX):
        return no_unit(uid, on_map)
    if state.countries[u.country].side != side:
        return Refusal("unit.not-yours", f"{u.label()} is not yours")
    return u
