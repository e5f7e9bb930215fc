"""Where the units waiting to be placed may go (``api.placements``, ``api.crowding``), on
the Axis' first 1939 deployment: the hexes are those of the legal placing orders, and the
room counts what the stacking rules count in each domain."""

from __future__ import annotations

import pytest

from engine import api
from engine.state import GameState

KIEL, TSINGTAO, BERLIN = "157,49", "250,74", "161,52"


@pytest.fixture(scope="module")
def deployment() -> GameState:
    state = api.new_game("1939")
    api.apply_simultaneous(state, {"axis": [api.parse_order(state, "axis", "declare Poland")], "allies": []})
    assert api.decision(state).phase == "deployment"
    return state


def after(state: GameState, *orders: str) -> GameState:
    return api.preview(state, "axis", [api.parse_order(state, "axis", o) for o in orders])


def group(state: GameState, unit: str, near: str = "") -> api.Placing:
    """The placing whose waiting units' labels include one starting with ``unit``."""
    (found,) = [p for p in api.placements(state, "axis", near) if any(w.label.startswith(unit) for w in p.waiting)]
    return found


def room(p: api.Placing, hex_: str) -> tuple[int, int | None]:
    (r,) = [r for r in p.hexes if r.hex == hex_]
    return r.used, r.limit


def test_the_hexes_are_the_legal_placing_orders(deployment: GameState) -> None:
    for p in api.placements(deployment, "axis"):
        for w in p.waiting:
            if w.id >= 0:
                legal = {
                    api.format_action(deployment, a).split()[-1]
                    for a in api.legal_matching(deployment, "axis", units=[w.id], kinds=["place"])
                }
                assert {r.hex for r in p.hexes} == legal, w.label


def test_ships_count_against_five_outside_a_major_port(deployment: GameState) -> None:
    assert room(group(deployment, "#3 Japan"), TSINGTAO) == (0, 5)
    state = after(deployment, f"place #3 {TSINGTAO}", f"place #4 {TSINGTAO}")
    assert room(group(state, "#5 Japan"), TSINGTAO) == (2, 5)
    assert room(group(state, "#68 Germany"), KIEL) == (0, None)  # a German major port: no limit


def test_air_units_count_against_the_airbase_places(deployment: GameState) -> None:
    assert room(group(deployment, "#88 Germany"), BERLIN) == (0, 3)  # a city 2, its resource 1
    state = after(deployment, f"place #88 {BERLIN}", f"place #89 {BERLIN}")
    assert room(group(state, "#90 Germany"), BERLIN) == (2, 3)
    state = after(deployment, f"place #88 {BERLIN}", f"place #89 {BERLIN}", f"place #90 {BERLIN}")
    assert BERLIN not in {r.hex for r in group(state, "#91 Germany").hexes}


def test_near_a_place_the_nearest_hexes_come_first(deployment: GameState) -> None:
    hexes = group(deployment, "Germany infantry", near="Berlin").hexes
    assert (hexes[0].hex, hexes[0].distance, hexes[0].city) == (BERLIN, 0, "Berlin")
    assert [r.distance for r in hexes] == sorted(r.distance for r in hexes)


def test_crowding_names_the_room_and_the_free_hexes_nearest(deployment: GameState) -> None:
    state = after(deployment, f"place_land Germany infantry 3 4 {BERLIN}", f"place_land Germany armor 5 4 {BERLIN}")
    third = api.parse_order(state, "axis", f"place_land Germany infantry 3 1 {BERLIN}")
    crowded = api.crowding(state, "axis", third, 3)
    assert crowded is not None
    assert (crowded.target.hex, crowded.target.used, crowded.target.limit, crowded.counts) == (
        BERLIN,
        2,
        2,
        "land units",
    )
    assert [r.distance for r in crowded.free] == [1, 1, 1]
    for r in crowded.free:
        api.check(state, "axis", api.parse_order(state, "axis", f"place_land Germany infantry 3 1 {r.hex}"))
    assert api.crowding(state, "axis", api.parse_order(state, "axis", "declare Belgium"), 3) is None
