"""api.board: a side's view of the state as plain data for a map (engine/board.py)."""

from __future__ import annotations

import pytest

from engine import api
from engine.hexgrid import NO_HEX
from engine.state import GameState
from engine.units import UnitProfile, UnitType


def _game_with_units() -> tuple[GameState, dict[str, int]]:
    state = api.new_game("1939")
    berlin = state.world.map.city_by_name["berlin"].hex
    kiel = state.world.map.city_by_name["kiel"].hex
    paris = state.world.map.city_by_name["paris"].hex
    tank = state.new_unit("Germany", UnitProfile(UnitType.ARMOR, strength=8, move=5))
    state.place(tank, berlin)
    ship = state.new_unit(
        "Germany", UnitProfile(UnitType.BATTLESHIP, name="Bismarck", attack=6, sub_attack=1, defense=6, move=40)
    )
    state.place(ship, kiel)
    plane = state.new_unit(
        "France", UnitProfile(UnitType.BOMBER, attack=1, bomber=3, defense=2, move=12, carrier_based=True)
    )
    state.place(plane, paris)
    plane.supplied = False
    state.new_unit("France", UnitProfile(UnitType.INFANTRY, strength=3, move=3))  # off the map
    return state, {"tank": tank.id, "ship": ship.id, "plane": plane.id}


def test_the_board_lists_every_unit_on_the_map_with_its_counter_corners() -> None:
    state, ids = _game_with_units()
    board = api.board(state, "allies")
    on_map = {u.id: u for u in state.units.values() if u.hex != NO_HEX}
    assert {u.id: u.hex for u in board.units} == {i: u.hex for i, u in on_map.items()}
    by_id = {u.id: u for u in board.units}
    # the rulebook's corners: land strength lower left and move lower right; ships and
    # aircraft attack (fighter) upper left, defence upper right, submarine (bomber) lower left
    assert by_id[ids["tank"]].corners == ("", "", "8", "5")
    assert by_id[ids["ship"]].corners == ("6", "6", "1", "40")
    assert by_id[ids["plane"]].corners == ("1", "2", "3", "12C")
    # supply as the rules read it now, not the last supply phase's record (a neutral has
    # no supply lines to lose); test_inspect.py checks the map agrees with show and hex
    assert by_id[ids["plane"]].supplied is True and by_id[ids["tank"]].supplied is True
    # a country's side is its partnership now (France is still neutral before the declarations)
    assert by_id[ids["tank"]].side == "axis" and by_id[ids["plane"]].side == state.countries["France"].side
    assert by_id[ids["ship"]].label.startswith(f"#{ids['ship']} Germany Bismarck")


def test_the_board_carries_control_date_phase_and_weather() -> None:
    state, _ = _game_with_units()
    board = api.board(state, "axis")
    warsaw = state.world.map.city_by_name["warsaw"].hex
    assert board.countries[board.controller[warsaw]] == "Poland"
    state.set_controller(warsaw, "Germany")
    later = api.board(state, "axis")
    assert later.countries[later.controller[warsaw]] == "Germany"
    assert later.home[warsaw] == board.controller[warsaw]  # still Poland's land
    assert board.date == "1939-09" and board.phase == api.decision(state).phase
    assert len(board.weather) == 6 and ("polar", "mild_winter") in board.weather
    assert board.side == "axis" and board.map is state.world.map


def test_the_board_refuses_an_unknown_side() -> None:
    with pytest.raises(api.IllegalAction) as refused:
        api.board(api.new_game("1939"), "neutral")
    assert refused.value.rule == "side.unknown"
