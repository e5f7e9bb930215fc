"""Barbarossa's main effort (issue 30; switch ``eastern_effort``): once at war with the
Soviet Union every enemy is an aim, the Axis drives at one Soviet city, where its army is
massed, and every Soviet hex is at stake for its attacks."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine import ai
from engine.ai import barbarossa, front, move
from engine.ai.picture import Picture
from engine.ai.style import LATEST, STYLES, V1
from engine.position import hex_at, parse
from engine.state import GameState
from tests.ai.worlds import units

SEED = b"\x07" * 32


def _map(rows: int, german: int, soviet: int, mountain: str = "") -> str:
    """Germany's columns west of the Soviet Union's, clear land (a tall mountain at
    ``mountain``), France in the first column of the first row."""
    lines = []
    for r in range(rows):
        cells = ["G:c"] * german + ["S:c"] * soviet
        if r == 0:
            cells[0] = "F:c"
        if mountain and r == int(mountain.split(",")[1]):
            cells[int(mountain.split(",")[0])] = "S:M"
        lines.append(("  " if r % 2 else "") + " ".join(cells))
    return "\n".join(lines)


def position(board: str, *facts: str, step: str = "axis.first_movement") -> GameState:
    text = "\n".join(
        [board, "war axis Germany", 'war allies "Soviet Union" France', "date 1941-07", f"step {step}", *facts]
    )
    return parse(text)


# 24 rows: a Soviet city in the north next to a small German stack, another in the south
# a hex farther from the German army.
TALL = _map(24, 4, 6)
CITIES = (
    "city Paris 0,0 capital",
    "city Berlin 1,12 capital",
    "city Murmansk 6,1",
    "city Kiev 7,20",
    "city Moscow 9,12 capital",
    "resource 1,12 9,12",
)
ARMY = (*units("Germany", 4, "3,1"), *units("Germany", 6, "3,19", "3,19", "3,20", "3,20", "3,21", "3,21"))


def test_the_main_effort_is_where_the_army_is_massed_not_the_nearest_city() -> None:
    state = position(TALL, *CITIES, *ARMY)
    pic = Picture(state, "axis")
    road = pic.distances([u.hex for u in pic.my_land], passable="not_neutral")
    north, south = hex_at(state, "6,1"), hex_at(state, "7,20")
    assert road[north] < road[south]
    assert barbarossa.effort_city(pic) == south
    assert barbarossa.effort(pic)[south] == 0
    # the Allies have none, nor the Axis at peace with the Soviet Union
    assert barbarossa.effort_city(Picture(state, "allies")) is None
    peace = parse("\n".join([TALL, *CITIES, "war axis Germany", "war allies France", "date 1941-07", "step -"]))
    assert barbarossa.effort_city(Picture(peace, "axis")) is None


def test_the_soviet_union_is_an_aim_once_the_western_stage_is_over() -> None:
    """France still at war (a colony, say) with Paris in German hands: v1's Axis stays in its
    western stage, France its only aim; with the switch every enemy is one."""
    state = position(TALL, *CITIES, *ARMY)
    state.controller[hex_at(state, "0,0")] = state.world.country_no["Germany"]
    pic = Picture(state, "axis")
    assert front.fallen(state, "France")
    assert front.aims(pic) == {"France"}
    assert front.aims(pic, east=True) == {"France", "Soviet Union"}
    assert front.main_effort_countries(pic, east=True) == set()


def test_a_reserve_takes_the_road_to_the_main_effort() -> None:
    """A reserve in the middle weighs a hex towards the main effort (Kiev, south) against one
    towards Murmansk (north): the bot leans south more than v1, who has no main effort."""
    state = position(TALL, *CITIES, *ARMY, *units("Germany", 4, "1,11"))
    reserve = next(u for u in state.units_of("Germany") if u.hex == hex_at(state, "1,11"))
    lean = {}
    for player in ("bot", "v1"):
        plan = move.Plan(Picture(state, "axis"), STYLES[player])
        lean[player] = plan.value(reserve, hex_at(state, "1,12"), False) - plan.value(
            reserve, hex_at(state, "1,10"), False
        )
    assert lean["bot"] > lean["v1"] + 1.0


def _attacks(state: GameState) -> list[int]:
    return [int(a.args[0]) for a in ai.decide(state, "axis", SEED, "bot") if a.kind == "attack"]


def test_a_lone_soviet_point_on_a_tall_mountain_is_attacked(monkeypatch: pytest.MonkeyPatch) -> None:
    """3 against 1 doubled by the mountain, odds of 1.5: the attackers expect to lose 1.08
    points, the defender 0.81 and its hex with chance 0.81, a gain of 1.62; worth it where
    the hex is at stake (1 times the loss), not in a mere country we attack (1.5 times),
    and every Soviet hex is at stake for the main effort."""
    board = _map(6, 5, 10, mountain="5,2")
    facts = (
        "city Berlin 0,3 capital",
        "city Moscow 14,2 capital",
        "resource 0,3 14,2",
        *units("Germany", 3, "4,2"),
        *units("Soviet Union", 1, "5,2"),
        *units("Germany", 6, "0,3"),
    )
    target = hex_at(position(board, *facts), "5,2")
    assert _attacks(position(board, *facts, step="axis.combat")) == [target]
    monkeypatch.setitem(STYLES, "bot", replace(LATEST, eastern_effort=False))
    assert _attacks(position(board, *facts, step="axis.combat")) == []


def test_the_switch_is_on_for_the_bot_and_deep_only() -> None:
    assert STYLES["bot"].eastern_effort and STYLES["deep"].eastern_effort
    assert not V1.eastern_effort and not STYLES["gentle"].eastern_effort
