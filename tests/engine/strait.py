"""The small map of the interception and assault tests: Germany and Poland, two land hexes
wide each, facing each other across two sea hexes; and a random stream the test scripts."""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction

from engine.rng import Rng

MAP = """
G:c G:c ~ ~ P:c P:c
 G:c G:c ~ ~ P:c P:c
"""
CITIES = {"Berlin": "0,0 capital", "Warsaw": "5,0 capital", "Lodz": "4,1"}


class Draws(Rng):
    """A random stream that hands out the given draws, in order."""

    def __init__(self, draws: Iterable[float]) -> None:
        super().__init__(bytes(32))
        self.queue = [Fraction(d).limit_denominator(1000) for d in draws]

    def uniform(self) -> Fraction:
        self.draws += 1
        return self.queue.pop(0)
