"""What the bot sees: the front line, distances, threat and the need for strength."""

from __future__ import annotations

from engine import api
from engine.ai.front import MIN_HOLD, need_map
from engine.ai.picture import Picture
from engine.position import hex_at as hx
from tests.ai.worlds import at_war, infantry


def test_frontier_is_our_land_next_to_the_enemy() -> None:
    state = at_war()
    infantry(state, "Germany", "1,2")
    infantry(state, "Poland", "5,2")
    pic = Picture(state, "axis")
    # column 2 is the German border column
    assert hx(state, "2,2") in pic.frontier
    assert hx(state, "0,2") not in pic.frontier
    assert pic.to_front[hx(state, "0,2")] == 2


def test_threat_grows_near_enemy_units() -> None:
    state = at_war()
    infantry(state, "Poland", "3,2", 5)
    pic = Picture(state, "axis")
    assert pic.threat[hx(state, "2,2")] > pic.threat.get(hx(state, "0,2"), 0.0)


def test_need_map_asks_for_every_front_hex() -> None:
    state = at_war()
    infantry(state, "Poland", "3,3", 5)
    need = need_map(Picture(state, "allies"))
    for h in Picture(state, "allies").frontier:
        assert need[h] >= MIN_HOLD


def test_neutral_countries_are_not_the_front() -> None:
    state = at_war()
    state.countries["Poland"].at_war = False
    state.countries["Poland"].side = "neutral"
    pic = Picture(state, "axis")
    assert not pic.frontier


def test_axis_aims_poland_first_then_the_west() -> None:
    from engine.ai.front import aims
    from engine.war import enter_war
    from tests.ai.worlds import EUROPE_WORLD

    state = api.new_game(EUROPE_WORLD)
    enter_war(state, "Germany", "axis")
    enter_war(state, "Poland", "allies")
    enter_war(state, "France", "allies")
    assert aims(Picture(state, "axis")) == {"Poland"}
    state.countries["Poland"].conquered = True
    assert aims(Picture(state, "axis")) == {"France"}
    assert aims(Picture(state, "allies")) == {"Germany"}
