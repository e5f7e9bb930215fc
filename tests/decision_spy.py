"""A spy on the computer player: every decision asked of the engine's AI, with its player."""

from __future__ import annotations

import pytest

import engine.ai
from engine.actions import Action
from engine.state import GameState


class DecisionSpy:
    """Every decision asked of the computer player: (side, player); each is still made."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.asked: list[tuple[str, str]] = []
        self.real = engine.ai.decide
        monkeypatch.setattr(engine.ai, "decide", self.decide)

    def decide(
        self, state: GameState, side: str, seed: bytes, player: str = "bot", budget_s: float | None = None
    ) -> list[Action]:
        self.asked.append((side, player))
        return self.real(state, side, seed, player, budget_s)

    def players(self, side: str) -> set[str]:
        return {p for s, p in self.asked if s == side}
