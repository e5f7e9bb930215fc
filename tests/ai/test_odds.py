"""The combat estimates follow the supplement's formulas."""

from __future__ import annotations

import math

from engine.ai import odds


def test_probability_of_at_least_s_losses() -> None:
    assert odds.p_loss_at_least(0, 1.0) == 1.0
    assert math.isclose(odds.p_loss_at_least(1, 1.0), 1 - 3**-1)
    assert math.isclose(odds.p_loss_at_least(2, 2.0), 1 - 2**-2)
    assert odds.p_loss_at_least(3, 0.0) == 0.0


def test_attacker_losses_at_even_odds_and_above() -> None:
    # r >= 1: 1/4 chance of 3, 1/12 of 2, 1/6 of 1
    expected = 3 * 0.25 + 2 * (1 / 12) + 1 * (1 / 6)
    assert math.isclose(odds.expected_attacker_loss(1.0, 10), expected)
    assert math.isclose(odds.expected_attacker_loss(3.0, 10), expected)


def test_attacker_is_wiped_out_at_low_odds() -> None:
    # r = 0.25: three quarters of the draws eliminate all attackers
    loss = odds.expected_attacker_loss(0.25, 8)
    assert loss >= 0.75 * 8


def test_better_odds_clear_the_hex_more_often() -> None:
    low = odds.estimate(3, 3, 3, 3, defender_retreats=True)
    high = odds.estimate(9, 3, 9, 3, defender_retreats=True)
    assert high.p_clear > low.p_clear
    assert high.defender_loss > low.defender_loss
    stand = odds.estimate(9, 3, 9, 3, defender_retreats=False)
    assert stand.defender_loss >= high.defender_loss


def test_defence_strength_terrain_and_supply() -> None:
    from engine.position import hex_at as hx
    from tests.ai.worlds import at_war, infantry

    state = at_war()
    uid = infantry(state, "Poland", "4,2", 4)  # forest
    u = state.units[uid]
    assert odds.defence_strength(state, hx(state, "4,2"), [u]) == 6.0
    u.supplied = False
    assert odds.defence_strength(state, hx(state, "4,2"), [u]) == 3.0
