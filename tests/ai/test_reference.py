"""The reference player v1 keeps the decisions the bot made when it was frozen."""

from __future__ import annotations

import hashlib
import json

import pytest

from engine import ai, api
from engine.actions import Action
from engine.ai import arena
from engine.state import GameState, parse_date

#: sha256 over every action list of both sides in the first month of a 1939 game, seed 5,
#: as the bot made them before the first switch of engine/ai/style.py existed.
V1_DIGEST = "4eb2060ccdd7274050b89874764bc60b92298ec0e4d31d534be76c76ed87ca74"
V1_ACTIONS = 702
#: They were made on the first map (scenarios/README.md, "Map versions"): the game is
#: replayed there, where a game begun then is still played.
FIRST_MAP_1939 = "a4ef554248ca8c98704a2385b5876f6a865bed2e769f2f5fc67ca1929771e2ca"


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
    new_game = api.new_game
    monkeypatch.setattr(api, "new_game", lambda scenario: new_game(scenario, {}, digest=FIRST_MAP_1939))
    r = arena.play_game("1939", parse_date("1939-10"), {"axis": "v1", "allies": "v1"}, seed=5)
    assert not r.error
    assert (digest.hexdigest(), count) == (V1_DIGEST, V1_ACTIONS)


def test_v1_is_a_player_everywhere_bot_is() -> None:
    assert "v1" in ai.PLAYERS
    assert arena.REFERENCE == "v1"
