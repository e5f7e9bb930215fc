"""Land movement: reserves move up, gaps are filled, cities are garrisoned, rail is used."""

from __future__ import annotations

from engine import ai, api
from engine.position import hex_at as hx
from tests.ai.worlds import LONG_WORLD, advance_to, at_war, infantry

SEED = b"\x03" * 32


def _moves(actions: list[api.Action]) -> dict[int, tuple[str, int]]:
    return {int(a.args[0]): (a.kind, int(a.args[-1])) for a in actions if a.kind in ("move", "rail")}


def test_reserves_move_towards_the_front() -> None:
    state = at_war()
    infantry(state, "Poland", "5,2", 3)
    uid = infantry(state, "Germany", "0,2", 8)
    infantry(state, "Germany", "0,2", 1)  # Berlin, three hexes from Poland, keeps a unit of its own
    advance_to(state, "axis.first_movement")
    moves = _moves(ai.decide(state, "axis", SEED))
    assert uid in moves
    grid = state.world.map.grid
    assert grid.distance(moves[uid][1], hx(state, "5,2")) < grid.distance(hx(state, "0,2"), hx(state, "5,2"))


def test_a_threatened_city_keeps_its_garrison() -> None:
    state = at_war()
    infantry(state, "Poland", "4,5", 3)  # two hexes from Breslau
    guard = infantry(state, "Germany", "2,5", 5)  # in Breslau, the only German supply source
    advance_to(state, "axis.first_movement")
    assert guard not in _moves(ai.decide(state, "axis", SEED))


def test_far_reserves_take_the_train_in_the_second_movement() -> None:
    state = api.new_game(LONG_WORLD)
    from engine.war import enter_war

    enter_war(state, "Germany", "axis")
    enter_war(state, "Poland", "allies")
    infantry(state, "Poland", "11,2", 5)
    far = infantry(state, "Germany", "0,2", 8)
    advance_to(state, "axis.second_movement")
    moves = _moves(ai.decide(state, "axis", SEED))
    assert moves.get(far, ("", 0))[0] == "rail"
    # to the front or the threatened city just behind it
    assert state.world.map.grid.distance(moves[far][1], hx(state, "11,2")) <= 3
