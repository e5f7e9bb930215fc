"""decide(): legal, complete and deterministic batches for every decision of a game."""

from __future__ import annotations

import hashlib

import pytest

from engine import ai, api
from engine.actions import Action
from engine.state import GameState
from tests.ai.worlds import FRONT_WORLD, armor, at_war, infantry

SEED = b"\x01" * 32


def _game() -> GameState:
    """A fresh state with armies on both sides."""
    state = at_war()
    for label in ("2,1", "2,2", "2,3", "1,4"):
        infantry(state, "Germany", label, 5)
    armor(state, "Germany", "1,2", 8)
    for label in ("3,2", "4,3", "6,2"):
        infantry(state, "Poland", label, 3)
    return state


def _apply(state: GameState, side: str, actions: list[Action]) -> None:
    for action in actions:
        api.apply(state, side, action)
        if side not in api.decision(state).sides:
            return


def _walk(state: GameState, players: dict[str, str], steps: int = 80) -> list[str]:
    """Play ``steps`` decisions; returns the phases seen.  Any illegal action raises."""
    seen = []
    for n in range(steps):
        d = api.decision(state)
        seen.append(d.phase)
        seed = hashlib.sha256(SEED + n.to_bytes(4, "big")).digest()
        if d.kind == "end":
            break
        if d.kind == "chance":
            api.apply_chance(state, seed)
        elif d.kind == "simultaneous":
            api.apply_simultaneous(state, {s: ai.decide(state, s, seed, players[s]) for s in d.sides})
        else:
            side = d.sides[0]
            _apply(state, side, ai.decide(state, side, seed, players[side]))
    return seen


@pytest.mark.parametrize(
    "players",
    [
        {"axis": "bot", "allies": "bot"},
        {"axis": "random", "allies": "bot"},
        {"axis": "bot", "allies": "random"},
    ],
)
def test_players_only_make_legal_decisions_for_several_months(players: dict[str, str]) -> None:
    state = _game()
    start = state.date
    seen = _walk(state, players)
    assert state.date > start  # the game moved on: every decision was answered legally
    assert "war_declaration" in seen


def test_same_inputs_give_the_same_actions() -> None:
    state = _game()
    for player in ai.PLAYERS:
        a = ai.decide(state, "axis", SEED, player)
        b = ai.decide(state, "axis", SEED, player)
        assert a == b


def test_decide_does_not_change_the_state() -> None:
    state = _game()
    before = api.state_hash(state)
    ai.decide(state, "axis", SEED)
    ai.decide(state, "allies", SEED, "random")
    assert api.state_hash(state) == before


def test_nothing_to_decide_gives_an_empty_list() -> None:
    state = _game()
    # step to a sequential decision of the Axis and ask the Allies
    while api.decision(state).kind != "sequential":
        d = api.decision(state)
        if d.kind == "chance":
            api.apply_chance(state, SEED)
        else:
            api.apply_simultaneous(state, {s: ai.decide(state, s, SEED) for s in d.sides})
    d = api.decision(state)
    other = "allies" if d.sides[0] == "axis" else "axis"
    assert ai.decide(state, other, SEED) == []


def test_unknown_player_is_refused() -> None:
    with pytest.raises(ValueError):
        ai.decide(api.new_game(FRONT_WORLD), "axis", SEED, "genius")


def test_sequential_batches_end_with_the_action_that_hands_control_on() -> None:
    state = _game()
    while api.decision(state).kind != "sequential":
        d = api.decision(state)
        if d.kind == "chance":
            api.apply_chance(state, SEED)
        else:
            api.apply_simultaneous(state, {s: ai.decide(state, s, SEED) for s in d.sides})
    d = api.decision(state)
    actions = ai.decide(state, d.sides[0], SEED)
    assert actions
    trial = state.copy()
    for a in actions[:-1]:
        api.apply(trial, d.sides[0], a)
        assert d.sides[0] in api.decision(trial).sides
    api.apply(trial, d.sides[0], actions[-1])
    after = api.decision(trial)
    assert after.phase != d.phase or d.sides[0] not in after.sides


def test_a_budget_gives_fixed_limits_and_reproducible_choices() -> None:
    from engine.ai.limits import Limits

    assert Limits.for_budget(0.1) == Limits.for_budget(0.9)
    assert Limits.for_budget(None) == Limits.for_budget(30.0)
    assert Limits.for_budget(0.5).moves_per_unit < Limits.for_budget(None).moves_per_unit
    state = _game()
    while api.decision(state).phase != "axis.first_movement":
        d = api.decision(state)
        if d.kind == "chance":
            api.apply_chance(state, SEED)
        elif d.kind == "simultaneous":
            api.apply_simultaneous(state, {s: ai.decide(state, s, SEED) for s in d.sides})
        else:
            _apply(state, d.sides[0], ai.decide(state, d.sides[0], SEED))
    fast = ai.decide(state, "axis", SEED, budget_s=0.5)
    assert fast == ai.decide(state, "axis", SEED, budget_s=0.5)
    _apply(state.copy(), "axis", fast)  # legal as a whole
