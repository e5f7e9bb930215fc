"""Barbarossa's main effort (issue 30; switch ``eastern_effort``): once at war with the
Soviet Union the Axis drives at one Soviet city, and every Soviet hex is at stake for its
attacks."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine import ai
from engine.ai import barbarossa, move
from engine.ai.picture import Picture
from engine.ai.style import LATEST, STYLES, V1
from engine.position import hex_at, parse
from engine.state import GameState

SEED = b"\x07" * 32

# Germany in the west, the Soviet Union east of it: clear land but for a tall mountain at 5,2.
MAP = "\n".join(
    ("  " if r % 2 else "") + " ".join(["G:c"] * 5 + ["S:M" if r == 2 else "S:c"] + ["S:c"] * 9) for r in range(6)
)


def position(*facts: str, step: str = "axis.first_movement") -> GameState:
    text = "\n".join(
        [
            MAP,
            "city Berlin 0,0 capital",
            "city Brest 7,1",
            "city Kiev 8,4",
            "city Moscow 14,2 capital",
            "resource 0,0 14,2",
            "war axis Germany",
            'war allies "Soviet Union"',
            "date 1941-07",
            f"step {step}",
            *facts,
        ]
    )
    return parse(text)


def units(country: str, strength: int, *at: str) -> list[str]:
    return [f'unit "{country}" infantry {h} strength={strength}' for h in at]


ARMY = units("Germany", 6, "4,1", "4,4")


def test_the_main_effort_is_the_nearest_soviet_city_unless_a_strong_stack_guards_it() -> None:
    state = position(*ARMY)
    assert barbarossa.effort_city(Picture(state, "axis")) == hex_at(state, "7,1")
    # 8 points next to Brest make its road two hexes longer than Kiev's
    guarded = position(*ARMY, *units("Soviet Union", 4, "6,1", "7,1"))
    assert barbarossa.effort_city(Picture(guarded, "axis")) == hex_at(guarded, "8,4")
    # the Allies have none, nor the Axis at peace with the Soviet Union
    assert barbarossa.effort_city(Picture(state, "allies")) is None
    peace = parse("\n".join([MAP, "city Brest 7,1", "war axis Germany", "date 1941-07", "step axis.first_movement"]))
    assert barbarossa.effort_city(Picture(peace, "axis")) is None


@pytest.mark.parametrize("player", ["bot", "v1"])
def test_a_reserve_takes_the_road_to_the_main_effort(player: str) -> None:
    """A reserve behind the front weighs a hex towards Kiev (the main effort, Brest being
    guarded) against one towards Brest, a Soviet city as near to it: only the main effort
    tips it towards Kiev."""
    state = position(*ARMY, *units("Soviet Union", 4, "6,1", "7,1"), *units("Germany", 4, "1,2"))
    reserve = next(u for u in state.units_of("Germany") if u.hex == hex_at(state, "1,2"))
    plan = move.Plan(Picture(state, "axis"), STYLES[player])
    north, south = plan.value(reserve, hex_at(state, "2,1"), False), plan.value(reserve, hex_at(state, "2,3"), False)
    assert (south > north) == (player == "bot")


def _attacks(state: GameState, player: str) -> list[int]:
    return [int(a.args[0]) for a in ai.decide(state, "axis", SEED, player) if a.kind == "attack"]


def test_a_lone_soviet_point_on_a_tall_mountain_is_attacked(monkeypatch: pytest.MonkeyPatch) -> None:
    """3 against 1 doubled by the mountain, odds of 1.5: the attackers expect to lose 1.08
    points, the defender 0.81 and its hex with chance 0.81, a gain of 1.62; worth it where
    the hex is at stake (1 times the loss), not in a mere country we attack (1.5 times),
    and every Soviet hex is at stake for the main effort."""
    facts = (*units("Germany", 3, "4,2"), *units("Soviet Union", 1, "5,2"), *units("Germany", 6, "0,0"))
    target = hex_at(position(*facts), "5,2")
    assert _attacks(position(*facts, step="axis.combat"), "bot") == [target]
    monkeypatch.setitem(STYLES, "bot", replace(LATEST, eastern_effort=False))
    assert _attacks(position(*facts, step="axis.combat"), "bot") == []


def test_the_switch_is_on_for_the_bot_and_deep_only() -> None:
    assert STYLES["bot"].eastern_effort and STYLES["deep"].eastern_effort
    assert not V1.eastern_effort and not STYLES["gentle"].eastern_effort
