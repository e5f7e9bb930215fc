"""What a policy of the computer player works on: one decision of one side."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from engine.ai.batch import Batch
from engine.ai.limits import Limits
from engine.ai.style import LATEST, Style
from engine.rng import Rng
from engine.state import GameState


@dataclass(slots=True)
class Turn:
    """What a policy gets: the batch to fill and the fixed parameters of the decision."""

    batch: Batch
    side: str
    rng: Rng
    limits: Limits
    style: Style = LATEST

    @property
    def state(self) -> GameState:
        """The working copy: the game as it will be after the actions proposed so far."""
        return self.batch.work


Policy = Callable[[Turn], None]
