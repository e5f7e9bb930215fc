"""The Allies' counter-offensives (issue 30; switch ``allied_effort``): they drive at the
enemy-held cities where their land strength is massed and outweighs the enemy's, one per
army, and every enemy hex near one is at stake for their attacks."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine import ai
from engine.ai import counter, move
from engine.ai.picture import Picture
from engine.ai.style import LATEST, STYLES, V1
from engine.position import hex_at, parse
from engine.state import GameState
from tests.ai.worlds import units

SEED = b"\x0b" * 32


def _map(rows: int, german: int, soviet: int, mountain: str = "") -> str:
    """Germany's columns west of the Soviet Union's, clear land (a tall mountain at ``mountain``)."""
    lines = []
    for r in range(rows):
        cells = ["G:c"] * german + ["S:c"] * soviet
        if mountain and r == int(mountain.split(",")[1]):
            cells[int(mountain.split(",")[0])] = "G:M"
        lines.append(("  " if r % 2 else "") + " ".join(cells))
    return "\n".join(lines)


def position(board: str, *facts: str, step: str = "allies.first_movement") -> GameState:
    text = "\n".join([board, "war axis Germany", 'war allies "Soviet Union"', "date 1941-09", f"step {step}", *facts])
    return parse(text)


# 30 rows: German cities in the north and the south, each a column from the Soviet border.
TALL = _map(30, 6, 6)
CITIES = (
    "city Berlin 0,15 capital",
    "city Konigsberg 4,3",
    "city Lemberg 4,26",
    "city Moscow 11,15 capital",
    "resource 0,15 11,15",
)


def test_the_effort_is_where_the_allies_outweigh_the_enemy() -> None:
    """Soviet armies face both German cities: in the north the Germans are as strong, in the
    south the Soviets are twice as strong; the Allies drive at the southern city only."""
    state = position(
        TALL,
        *CITIES,
        *units("Germany", 6, "4,3", "4,4"),
        *units("Soviet Union", 6, "6,3", "6,4"),
        *units("Germany", 4, "4,26"),
        *units("Soviet Union", 6, "6,25", "6,26"),
    )
    pic = Picture(state, "allies")
    south = hex_at(state, "4,26")
    assert counter.effort_cities(pic) == [south]
    to_any, to_open = counter.pulls(pic, [south])
    assert to_any[south] == 0 and to_open == to_any
    # the Axis has none (its own main efforts are elsewhere)
    assert counter.effort_cities(Picture(state, "axis")) == []


def test_one_army_makes_one_effort() -> None:
    """Two German cities four hexes apart, one Soviet army beside them: its strength counts for
    the first city chosen and not again, so the second is no effort of its own."""
    state = position(
        TALL,
        "city Konigsberg 4,3",
        "city Tilsit 4,7",
        "city Moscow 11,15 capital",
        *units("Germany", 2, "4,3", "4,7"),
        *units("Soviet Union", 6, "6,5", "6,5"),
    )
    assert counter.effort_cities(Picture(state, "allies")) == [hex_at(state, "4,3")]
    # a second army far south makes a second effort
    lemberg = ("city Lemberg 4,26", *units("Germany", 2, "4,26"), *units("Soviet Union", 6, "6,26"))
    state = position(
        TALL,
        "city Konigsberg 4,3",
        "city Tilsit 4,7",
        "city Moscow 11,15 capital",
        *units("Germany", 2, "4,3", "4,7"),
        *units("Soviet Union", 6, "6,5", "6,5"),
        *lemberg,
    )
    assert counter.effort_cities(Picture(state, "allies")) == [hex_at(state, "4,3"), hex_at(state, "4,26")]


def test_a_reserve_takes_the_road_to_the_effort() -> None:
    """A Soviet reserve weighs a step towards the southern effort against one north: the bot
    leans south more than v1, which has no effort."""
    state = position(
        TALL,
        *CITIES,
        *units("Germany", 6, "4,3", "4,4"),
        *units("Soviet Union", 6, "6,3", "6,4"),
        *units("Germany", 4, "4,26"),
        *units("Soviet Union", 6, "6,25", "6,26"),
        *units("Soviet Union", 4, "9,15"),
    )
    reserve = next(u for u in state.units_of("Soviet Union") if u.hex == hex_at(state, "9,15"))
    lean = {}
    for player in ("bot", "v1"):
        plan = move.Plan(Picture(state, "allies"), STYLES[player])
        lean[player] = plan.value(reserve, hex_at(state, "9,16"), False) - plan.value(
            reserve, hex_at(state, "9,14"), False
        )
    assert lean["bot"] > lean["v1"] + 0.5


def test_the_truce_keeps_soviet_strength_out_of_japans_land() -> None:
    """Japan under the truce with the Soviet Union (Mongolia neutral): a Japanese city beside a
    Soviet army is no effort of the Soviets', a Chinese army's strength counts there."""
    board = "\n".join(("  " if r % 2 else "") + " ".join(["J:c"] * 4 + ["S:c"] * 4) for r in range(8))
    text = [
        board,
        "war axis Japan",
        'war allies "Soviet Union" China',
        "date 1941-09",
        "step allies.first_movement",
        "city Tokyo 0,4 capital",
        "city Mukden 3,4",
        "city Moscow 7,4 capital",
        "resource 0,4 7,4",
        *units("Japan", 2, "3,4"),
    ]
    soviets = parse("\n".join([*text, *units("Soviet Union", 6, "4,4", "4,5")]))
    pic = Picture(soviets, "allies")
    assert pic.truce
    assert counter.effort_cities(pic) == []
    chinese = parse("\n".join([*text, *units("China", 6, "4,4", "4,5")]))
    assert counter.effort_cities(Picture(chinese, "allies")) == [hex_at(chinese, "3,4")]


def _attacks(state: GameState) -> list[int]:
    return [int(a.args[0]) for a in ai.decide(state, "allies", SEED, "bot") if a.kind == "attack"]


def test_a_german_point_on_a_tall_mountain_near_the_effort_is_attacked(monkeypatch: pytest.MonkeyPatch) -> None:
    """3 Soviet points against 1 German point doubled by a tall mountain, odds of 1.5: the
    exchange is worth it only where the hex is at stake (next to the effort's city), not in a
    mere country the Allies attack."""
    board = _map(6, 9, 6, mountain="8,2")
    facts = (
        "city Berlin 0,3 capital",
        "city Breslau 7,2",
        "city Moscow 14,2 capital",
        "resource 0,3 14,2",
        *units("Soviet Union", 3, "9,2"),
        *units("Germany", 1, "8,2"),
        *units("Soviet Union", 6, "9,1", "9,3"),
        *units("Germany", 6, "0,3"),
    )
    state = position(board, *facts, step="allies.combat")
    assert hex_at(state, "7,2") in counter.effort_cities(Picture(state, "allies"))
    assert hex_at(state, "8,2") in _attacks(state)
    monkeypatch.setitem(STYLES, "bot", replace(LATEST, allied_effort=False))
    assert hex_at(state, "8,2") not in _attacks(position(board, *facts, step="allies.combat"))


def test_the_switch_is_on_for_the_bot_and_deep_only() -> None:
    assert STYLES["bot"].allied_effort and STYLES["deep"].allied_effort
    assert not V1.allied_effort and not STYLES["gentle"].allied_effort
