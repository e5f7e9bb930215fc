"""The bot brings countries into the war as a strong player would (rulebook "Other Ways
of Entering the War"; docs/ai.md)."""

from __future__ import annotations

from engine import ai
from engine.ai import declare
from engine.sides import ALLIES, AXIS
from engine.state import GameState, parse_date
from tests.engine.test_entries import position

SEED = b"\x03" * 32


def entered(state: GameState, side: str) -> list[str]:
    return sorted(str(a.args[0]) for a in ai.decide(state, side, SEED) if a.kind == "enter")


def test_italy_enters_in_june_1940() -> None:
    assert entered(position(date="1940-05"), AXIS) == []
    assert entered(position(date="1940-06"), AXIS) == ["Italy"]


def test_italy_enters_early_once_france_has_fallen() -> None:
    state = position("city Paris 4,1 capital", allies="China France", date="1940-03")
    assert entered(state, AXIS) == []
    state.set_controller(state.world.map.city_by_name["paris"].hex, "Germany")
    assert declare.fallen(state, "France")
    assert entered(state, AXIS) == ["Italy", "Spain"]  # Spain's gamble also waits for France


def test_the_balkan_allies_are_brought_in_as_soon_as_offered() -> None:
    state = position("war allies Yugoslavia", "unit Germany infantry 2,0", date="1941-04")
    assert {"Bulgaria", "Hungary", "Italy"} <= set(entered(state, AXIS))
    state = position("unit Germany infantry 6,0", allies='China "Soviet Union"', date="1941-07")
    assert "Romania" in entered(state, AXIS)


def test_thailand_for_japan() -> None:
    assert "Thailand" in entered(position("unit Japan infantry 3,2", date="1941-12"), AXIS)


def test_spain_is_attempted_once_france_has_fallen() -> None:
    state = position("city Paris 4,1 capital", allies="China France", date="1940-07")
    assert "Spain" not in entered(state, AXIS)
    state.set_controller(state.world.map.city_by_name["paris"].hex, "Germany")
    assert "Spain" in entered(state, AXIS)


def test_the_allies_bring_romania_in() -> None:
    state = position('unit "United Kingdom" infantry 2,1', axis="Germany Japan Hungary", date="1943-01")
    assert entered(state, ALLIES) == ["Romania"]


def test_balkan_aims_follow_the_fall_of_france_s_home_cities() -> None:
    state = position("city Paris 4,1 capital", allies="China France", date="1941-04")
    assert "Yugoslavia" not in declare.axis_targets(state)
    state.set_controller(state.world.map.city_by_name["paris"].hex, "Germany")
    assert parse_date("1941-04") == state.date
    assert {"Yugoslavia", "Greece"} <= set(declare.axis_targets(state))
