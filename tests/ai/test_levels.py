"""The levels a person chooses: the registry, and the handicaps that set level 1 apart."""

from __future__ import annotations

import pytest

from engine import ai
from engine.ai.limits import Limits
from engine.ai.style import STYLES
from engine.position import hex_at as hx
from tests.ai.worlds import advance_to, at_war, infantry

SEED = b"\x04" * 32


def test_levels_one_to_four_are_players_and_three_is_the_everyday_bot() -> None:
    assert [ai.level_player(n) for n in (1, 2, 3, 4)] == ["gentle", "v1", "bot", "deep"]
    assert ai.DEFAULT_LEVEL == 3
    assert set(ai.LEVELS) <= set(ai.PLAYERS)


@pytest.mark.parametrize("level", [0, 5, -1, 40])
def test_a_level_that_does_not_exist_is_refused_with_the_levels_there_are(level: int) -> None:
    with pytest.raises(ValueError, match=rf"^there is no level {level}: choose 1 \(gentlest\) to 4 \(strongest\)"):
        ai.level_player(level)


def test_the_search_grows_with_the_level() -> None:
    every = Limits()
    assert Limits.for_budget(None, STYLES["gentle"].search) == Limits(6, 100, 30, 50)
    assert Limits.for_budget(None, STYLES["v1"].search) == every
    assert Limits.for_budget(None, STYLES["bot"].search) == every
    assert Limits.for_budget(None, STYLES["deep"].search) == Limits(48, 800, 240, 400)


def test_level_one_leaves_an_attack_at_odds_of_one_and_a_half_that_levels_two_and_three_make() -> None:
    state = at_war()
    a = infantry(state, "Germany", "2,2", 4)
    b = infantry(state, "Germany", "2,3", 4)
    infantry(state, "Poland", "3,2", 5)  # clear terrain: 8 against 5
    advance_to(state, "axis.combat")
    made = {}
    for level in (1, 2, 3):
        actions = ai.decide(state, "axis", SEED, ai.level_player(level))
        made[level] = [(int(x.args[0]), {int(u) for u in x.args[1:]}) for x in actions if x.kind == "attack"]
    assert made[2] == made[3] == [(hx(state, "3,2"), {a, b})]
    assert made[1] == []
