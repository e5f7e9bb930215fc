"""Property tests: random sequences of legal actions never break an invariant.

From a small two-front position, hypothesis plays random legal actions (and random
dice seeds) through whole months, checking after every step that:

* land stacking limits hold (supplement "Stacking");
* no unit stands in a hex controlled by a neutral country ("Control zones and hex control");
* no country's money is negative;
* every unit on the map is somewhere its kind may be (land units on land, ships at sea or in ports);
* serialise -> load -> serialise gives the same bytes;
* replaying the same actions and seeds gives the same state hash.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import api
from engine.actions import PASS, Action
from engine.hexmap import Kind
from engine.position import AT_START, build_world, put, setup
from engine.sequence import current
from engine.sides import NEUTRAL
from engine.state import NO_UNIT, GameState, LandKey
from engine.units import UnitType

WORLD = build_world(
    """
    G:c G:c G:f G:c P:c P:f P:c S:c S:c
     G:c G:m G:c G:c P:c P:c P:c S:c S:f
    G:c G:c G:c G:f P:c P:M P:c S:c S:c
     ~ G:c G:c G:c P:c P:c P:d S:c S:c
    ~ ~ G:c G:c P:c P:c P:c S:c ~
    """,
    cities={
        "Berlin": "1,1 capital",
        "Hamburg": "2,3 port",
        "Warsaw": "5,1 capital",
        "Krakow": "5,4",
        "Minsk": "7,2 capital",
    },
    resources=["1,1", "2,3", "5,1", "5,4", "7,2", "3,0"],
)


def start_position() -> GameState:
    state = setup(WORLD, **AT_START)
    for name in ("Germany", "Poland"):
        c = state.countries[name]
        c.money = 1000
        c.pool_land = {LandKey(UnitType.INFANTRY, 3): 20, LandKey(UnitType.ARMOR, 5): 6}
    german = [("3,0", "infantry", 5), ("3,1", "armor", 6), ("3,2", "infantry", 4), ("2,3", "infantry", 3)]
    polish = [("4,0", "infantry", 4), ("4,1", "infantry", 3), ("4,3", "infantry", 2), ("5,1", "armor", 3)]
    for country, units in (("Germany", german), ("Poland", polish)):
        for label, kind, strength in units:
            put(state, country, kind, label, strength=strength)
    return state


def check_invariants(state: GameState) -> None:
    hexmap = state.world.map
    for h, ids in state.occupied_hexes().items():
        units = [state.units[i] for i in ids]
        land = [u for u in units if u.is_land and u.carrier == NO_UNIT]
        ordinary = [u for u in land if u.type not in ("paratrooper", "supply")]
        assert len(ordinary) <= 2, f"overstacked {hexmap.grid.label(h)}"
        assert sum(u.type == "paratrooper" for u in land) <= 1
        assert sum(u.type == "supply" for u in land) <= 1
        if state.controller[h]:
            assert state.side_controlling(h) != NEUTRAL or not land, f"unit in neutral hex {hexmap.grid.label(h)}"
        for u in units:
            if u.is_land and u.carrier == NO_UNIT:
                assert hexmap.kind[h] != Kind.SEA, f"{u.label()} at sea"
            if u.is_naval:
                assert hexmap.kind[h] != Kind.LAND, f"{u.label()} on land"
    for c in state.countries.values():
        assert c.money >= 0, f"{c.name} has negative money"
    data = api.serialize(state)
    assert api.serialize(api.deserialize(data, state.world)) == data


def play(state: GameState, data: st.DataObject, steps: int) -> list[object]:
    """Play random legal actions; returns the choices made (for replay)."""
    record: list[object] = []
    for _ in range(steps):
        d = api.decision(state)
        if d.kind == "end":
            break
        if d.kind == "chance":
            seed = data.draw(st.binary(min_size=32, max_size=32))
            record.append(seed)
            api.apply_chance(state, seed)
        elif d.kind == "sequential":
            side = d.sides[0]
            legal = api.legal_actions(state, side)
            action = data.draw(st.sampled_from(legal)) if len(legal) < 400 else PASS
            if data.draw(st.integers(0, 3)) == 0:
                action = PASS
            record.append(action)
            # A check never changes the state, whatever it decides (boardgame.io's serialisable guard in spirit).
            before = api.state_hash(state)
            api.check(state, side, action)
            assert api.state_hash(state) == before, f"checking {action} changed the state"
            api.apply(state, side, action)
        else:
            orders: dict[str, list[Action]] = {}
            for side in d.sides:
                probe = state.copy()
                chosen: list[Action] = []
                for _ in range(data.draw(st.integers(0, 4))):
                    legal = [a for a in current(probe).legal(probe, side) if a.kind != "pass"]
                    if not legal:
                        break
                    a = data.draw(st.sampled_from(legal))
                    before = api.state_hash(probe)
                    current(probe).check(probe, side, a)
                    assert api.state_hash(probe) == before, f"checking {a} changed the state"
                    current(probe).apply(probe, side, a)
                    chosen.append(a)
                orders[side] = chosen
            record.append(orders)
            api.apply_simultaneous(state, orders)
        check_invariants(state)
    return record


def replay(record: list[object]) -> GameState:
    state = start_position()
    for item in record:
        d = api.decision(state)
        if isinstance(item, bytes):
            api.apply_chance(state, item)
        elif isinstance(item, Action):
            api.apply(state, d.sides[0], item)
        else:
            assert isinstance(item, dict)
            api.apply_simultaneous(state, item)
    return state


@pytest.mark.slow
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.data())
def test_random_legal_play_keeps_invariants_and_is_reproducible(data: st.DataObject) -> None:
    state = start_position()
    check_invariants(state)
    record = play(state, data, steps=60)
    assert api.state_hash(replay(record)) == api.state_hash(state)
