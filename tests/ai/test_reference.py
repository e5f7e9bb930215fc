"""The reference player v1 keeps the decisions the bot made when it was frozen."""

from __future__ import annotations

import hashlib
import json

import pytest

from engine import ai
from engine.actions import Action
from engine.ai import arena
from engine.state import GameState, parse_date

#: sha256 over every action list of both sides in the first month of a 1939 game, seed 5,
#: as the bot made them before the first switch of engine/ai/style.py existed.
V1_DIGEST = "4eb2060ccdd7274050b89874764bc60b92298ec0e4d31d534be76c76ed87ca74"
V1_ACTIONS = 702


def test_v1_replays_the_frozen_bot_decisions(monkeypatch: pytest.MonkeyPatch) -> None:
    digest = hashlib.sha256()
    count = 0
    real = ai.decide

    def recorded(
        state: GameState, side: str, seed: bytes, player: str = "v1", budget_s: float | None = None
    ) -> list[Action]:
        nonlocal count
        actions = real(state, side, seed, player, budget_s)
        digest.update(json.dumps([side, [a.to_wire() for a in actions]]).encode())
        count += len(actions)
        return actions

    monkeypatch.setattr(ai, "decide", recorded)
    r = arena.play_game("1939", parse_date("1939-10"), {"axis": "v1", "allies": "v1"}, seed=5)
    assert not r.error
    assert (digest.hexdigest(), count) == (V1_DIGEST, V1_ACTIONS)


def test_v1_is_a_player_everywhere_bot_is() -> None:
    assert "v1" in ai.PLAYERS
    assert arena.REFERENCE == "v1"
