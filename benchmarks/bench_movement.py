"""Movement benchmarks: one side's control zones, and every move of one unit."""

from __future__ import annotations

from engine.reach import land_reach
from engine.state import GameState, Unit
from engine.zoc import land_zoc


def bench_zoc(state: GameState, side: str) -> int:
    """The land control zone of every unit of ``side``, from scratch; returns its size."""
    return len(land_zoc(state, side))


def bench_reach(state: GameState, unit: Unit) -> int:
    """Every hex a land unit may move to (all movement rules); returns how many."""
    return len(land_reach(state, unit))
