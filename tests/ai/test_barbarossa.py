"""Barbarossa by the position (issue 30; engine/ai/barbarossa.py): the Axis masses on the
Soviet border, and declares war when massed (June 1941 the latest)."""

from __future__ import annotations

from engine import ai
from engine.ai import barbarossa
from engine.ai.picture import Picture
from engine.position import hex_at, parse
from engine.state import GameState
from tests.ai.worlds import units

SEED = b"\x05" * 32

# Germany west of the Soviet Union; Yugoslavia (at war with the Axis) and Hungary below
# Germany's west, far from the Soviet border.
MAP = "\n".join(
    ("  " if r % 2 else "") + " ".join(row)
    for r, row in enumerate(
        [["G:c"] * 12 + ["S:c"] * 3] * 4 + [["Y:c"] * 3 + ["H:c"] * 3 + ["G:c"] * 6 + ["S:c"] * 3] * 2
    )
)


def position(*facts: str, date: str = "1941-05", step: str = "war_declaration") -> GameState:
    text = "\n".join(
        [
            MAP,
            "city Berlin 0,0 capital",
            "city Budapest 4,5 capital",
            "city Moscow 14,2 capital",
            "resource 0,0 4,5 14,2",
            "war axis Germany",
            "war allies Yugoslavia",
            f"date {date}",
            f"step {step}",
            *facts,
        ]
    )
    return parse(text)


def declared(state: GameState, player: str) -> set[str]:
    return {str(a.args[0]) for a in ai.decide(state, "axis", SEED, player) if a.kind == "declare"}


def destinations(state: GameState, player: str) -> dict[int, int]:
    """Unit -> the hex its move (or rail) order takes it to."""
    return {
        int(a.args[0]): int(a.args[-1]) for a in ai.decide(state, "axis", SEED, player) if a.kind in ("move", "rail")
    }


def test_the_border_and_the_soviet_strength_facing_it() -> None:
    state = position(*units("Soviet Union", 4, "12,1", "12,2"), *units("Germany", 6, "11,1", "11,2"))
    assert hex_at(state, "11,1") in barbarossa.border(Picture(state, "axis"))
    assert hex_at(state, "10,1") not in barbarossa.border(Picture(state, "axis"))
    assert barbarossa.strengths(Picture(state, "axis")) == (12, 8)


def test_declared_when_ready_before_june() -> None:
    state = position(*units("Soviet Union", 4, "12,1", "12,2"), *units("Germany", 6, "11,1", "11,2"))
    assert barbarossa.ready(state)
    assert "Soviet Union" in declared(state, "bot")
    assert "Soviet Union" not in declared(state, "v1")  # the calendar alone: June


def test_not_declared_when_not_ready_until_june() -> None:
    facts = (*units("Soviet Union", 6, "12,1", "12,2", "13,1"), *units("Germany", 6, "11,1", "11,2"))
    assert not barbarossa.ready(position(*facts))
    assert "Soviet Union" not in declared(position(*facts), "bot")
    assert "Soviet Union" in declared(position(*facts, date="1941-06"), "bot")  # the latest date


def test_not_declared_before_the_first_ready_month() -> None:
    state = position(*units("Soviet Union", 1, "12,1"), *units("Germany", 6, "11,1", "11,2"), date="1941-04")
    assert not barbarossa.ready(state)
    assert "Soviet Union" not in declared(state, "bot")


def test_the_axis_stages_on_the_soviet_border_but_not_with_the_units_of_the_balkans() -> None:
    # Berlin is held (3 points, what a capital in danger wants): else it would draw the nearest unit
    facts = (*units("Soviet Union", 6, "12,1"), *units("Germany", 3, "7,1", "1,3"), *units("Germany", 3, "0,0"))
    state = position(*facts, date="1941-03", step="axis.first_movement")
    at = {u.hex: u.id for u in state.units_of("Germany")}
    west, balkans = at[hex_at(state, "7,1")], at[hex_at(state, "1,3")]
    col = state.world.map.grid.col_row
    assert barbarossa.stage(Picture(state, "axis"))
    moved = destinations(state, "bot")
    v1 = destinations(position(*facts, date="1941-03", step="axis.first_movement"), "v1")
    assert col(moved[west])[0] > 7  # towards the border
    assert col(v1.get(west, hex_at(state, "7,1")))[0] <= 7
    assert moved.get(balkans) == v1.get(balkans)  # kept for the Yugoslav campaign
    assert col(moved.get(balkans, hex_at(state, "1,3")))[0] <= 1
    assert not barbarossa.stage(Picture(position(*facts, date="1941-01", step="axis.first_movement"), "axis"))
