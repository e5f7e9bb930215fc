"""The levels a person chooses: the registry, and the handicaps that set level 1 apart."""

from __future__ import annotations

import pytest

from engine import ai
from engine.actions import Action
from engine.ai.limits import Limits
from engine.ai.style import STYLES
from engine.position import hex_at as hx
from engine.position import open_step, parse, put, setup
from engine.state import GameState, LandKey
from engine.units import UnitType
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


def test_level_one_neither_ships_troops_to_an_enemy_shore_nor_lands_them() -> None:
    def world(step: str | None) -> GameState:
        cities = {"Berlin": "0,0 capital", "Warsaw": "5,0 capital", "Lodz": "4,1", "Kiel": "1,0"}
        state = setup("G:c G:c ~ ~ P:c P:c\n G:c G:c ~ ~ P:c P:c\n", step=step, cities=cities)
        put(state, "Germany", "infantry", "0,0")
        put(state, "Poland", "infantry", "5,0")
        return state

    state = world("axis.first_movement")
    ship = put(state, "Germany", "transport", "1,0", move=6).id
    inf = put(state, "Germany", "infantry", "1,0").id
    assert Action("embark", (inf, ship)) in ai.decide(state, "axis", SEED, "v1")
    assert Action("embark", (inf, ship)) not in ai.decide(state, "axis", SEED, "gentle")
    # Troops already at sea next to an empty enemy city: level 2 lands them, level 1 does not.
    state = world(None)
    ship = put(state, "Germany", "transport", "3,1").id
    put(state, "Germany", "infantry", "3,1", carrier=ship)
    open_step(state, "axis.amphibious")
    assert any(a.kind == "assault" for a in ai.decide(state, "axis", SEED, "v1"))
    assert not any(a.kind == "assault" for a in ai.decide(state, "axis", SEED, "gentle"))


def test_level_one_builds_half_of_what_level_two_builds() -> None:
    state = parse(
        """
        J:c J:c C:c C:c
         J:c J:c C:c C:c
        city Tokyo 0,0 capital
        city Chungking 3,1 capital
        war axis Japan
        war allies China
        date 1941-03
        step build
        unit Japan infantry 1,0
        unit China infantry 2,0
        money Japan 2000
        """
    )
    state.countries["Japan"].pool_land = {LandKey(UnitType.INFANTRY, 3): 40}

    def points(player: str) -> int:
        return sum(int(a.args[3]) for a in ai.decide(state, "axis", SEED, player) if a.kind == "buy")

    assert (points("v1"), points("gentle")) == (20, 10)  # $100B a point
