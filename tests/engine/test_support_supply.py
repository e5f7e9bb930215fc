"""Aircraft and ships supporting a land attack add their strength and nothing else
(rulebook "Land Combat": support; "Supply": supply lines)."""

from __future__ import annotations

from engine import api, combat
from engine.actions import Action
from engine.position import hex_at as hx
from engine.position import parse
from engine.state import GameState
from tests.engine.test_naval import ScriptedRng

POSITION = """
G:c G:c P:c P:c
city Berlin 0,0 capital
city Warsaw 3,0 capital
resource 0,0 3,0
step axis.combat
unit Germany infantry 1,0
unit Poland infantry 2,0
unit Germany fighter 2,0 bomber=2
"""


def attack(support: bool) -> tuple[GameState, list[str]]:
    s = parse(POSITION)
    inf, bomber = (u.id for u in s.units_of("Germany"))
    target = hx(s, "2,0")
    api.apply(s, "axis", Action("attack", (target, inf)))
    if support:
        api.apply(s, "axis", Action("support", (target, bomber)))
    api.apply(s, "axis", Action("pass", ()))
    return s, combat.CombatRoll("axis").roll(s, ScriptedRng(0.99, 0.99))


def test_a_supporting_bomber_in_the_defenders_hex_does_not_cut_its_supply() -> None:
    """The rulebook gives support strength only: the defender keeps its full defence."""
    _, log = attack(support=True)
    assert "defence 3;" in log[0] and "out of supply" not in log[0]
    assert "attack 5" in log[0]  # 3 + the bomber's 2


def test_an_enemy_bomber_not_taking_part_still_blocks_the_hex() -> None:
    """'Each hex in a supply line must be free from enemy units'."""
    _, log = attack(support=False)
    assert "out of supply /2" in log[0]
