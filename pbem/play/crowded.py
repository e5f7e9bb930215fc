"""The hint a refusal for a full hex gives: the room there and the free hexes nearest it
where the same units may go (the engine's ``crowding``), in the words of the refusal."""

from __future__ import annotations

from pbem.errors import PbemError
from pbem.protocol import engine_link
from pbem.protocol.rules import Action, Room, State

#: Free hexes a refusal for a full hex names.
HINTED = 4
#: The refusals of a hex already full, by rule slug (engine/deployment.py).
FULL_RULES = ("stacking.land", "stacking.naval", "stacking.air")


def city(r: Room) -> str:
    """The city a hex is in (``Lodz``), or how far it is from the nearest (``2 from Lodz``)."""
    if not r.city:
        return ""
    far = r.city_distance
    return r.city if far == 0 else f"{far} hex{'es' if far > 1 else ''} from {r.city}"


def full_hint(state: State, side: str, action: Action, refusal: PbemError) -> str:
    """For a placing order refused because its hex is full: the room there and the free
    hexes nearest it where the same units may go ('' for any other refusal)."""
    if refusal.rule not in FULL_RULES:
        return ""
    crowded = engine_link.api().crowding(state, side, action, HINTED)
    if crowded is None:
        return ""
    t = crowded.target
    place = f"{t.city} ({t.hex})" if t.city and t.city_distance == 0 else t.hex
    full = f"{place} is full" + (f" (stacking: {t.used} of {t.limit} {crowded.counts})" if t.limit is not None else "")
    if not crowded.free:
        return f"{full}; no other hex takes this unit now"
    near = ", ".join(f"{r.hex} ({city(r)})" if r.city else r.hex for r in crowded.free)
    return f"{full}; free hexes near it: {near}"
