"""A state's units on the wire: loaded back by position, every fact in its place."""

import dataclasses

import msgpack
import pytest

from engine import api
from engine.actions import StateError
from engine.position import build_world
from engine.state import GameState, Unit
from engine.units import UnitType

WORLD = build_world(
    """
    G:c G:c P:c P:c ~
     G:c G:c P:c P:c ~
    """,
    cities={"Berlin": "0,0 capital", "Warsaw": "3,0 capital"},
)


def _distinct_unit(uid: int) -> Unit:
    """A unit whose every fact differs from its default and from the other facts."""
    values: dict[str, object] = {"id": uid, "country": "Germany", "type": UnitType.ARMOR}
    for i, f in enumerate(dataclasses.fields(Unit)):
        if f.name in values:
            continue
        if f.type == "bool":
            values[f.name] = not f.default
        elif f.type == "int":
            values[f.name] = 100 + i
        else:
            values[f.name] = f"text {i}"
    return Unit(**values)  # type: ignore[arg-type]


def test_every_fact_of_a_unit_survives_a_round_trip() -> None:
    state = api.new_game(WORLD)
    unit = _distinct_unit(state.next_unit_id)
    state.units[unit.id] = unit
    again = GameState.from_bytes(state.to_bytes(), WORLD)
    assert dataclasses.asdict(again.units[unit.id]) == dataclasses.asdict(unit)
    assert again.to_bytes() == state.to_bytes()


def test_a_unit_row_missing_facts_is_refused() -> None:
    state = api.new_game(WORLD)
    unit = _distinct_unit(state.next_unit_id)
    state.units[unit.id] = unit
    doc = msgpack.unpackb(state.to_bytes(), raw=False, strict_map_key=False)
    doc["units"][-1] = doc["units"][-1][:5]
    with pytest.raises(StateError, match="malformed"):
        GameState.from_bytes(msgpack.packb(doc, use_bin_type=True), WORLD)
