"""Supply benchmark: the supply of every unit of one side, with no cache."""

from __future__ import annotations

from engine.state import GameState
from engine.supply import supply_map


def bench_supply(state: GameState, side: str) -> int:
    """Build one side's supply map and ask it about every unit of that side; returns
    how many are in supply (so the work cannot be skipped)."""
    smap = supply_map(state, side)
    return sum(1 for u in state.side_units(side) if smap.in_supply(u))
