"""The reach of every Axis land unit at the first movement of a 1939 game.

``python -m benchmarks reach``: the 1939 set-up deployed by the computer player on both sides
(dice from a fixed seed), played to the Axis' first movement phase; then, each round from
cold (no search of the round before reused), every hex each Axis land unit on the map may
move to, one memo of control zones and entry costs shared by each country's units as the
computer player and the order checks share it. The original game of the rulebook takes 72 ms
for this on a machine like ours (docs/performance.md, the side-by-side table); the issue's
goal is 5 times faster.
"""

from __future__ import annotations

from benchmarks.bench_ai import _play
from engine import api, sequence
from engine.reach import SideMemo, land_reach
from engine.sides import AXIS
from engine.state import GameState


def first_axis_movement() -> GameState:
    """The 1939 game, both sides the bot, at the Axis' first movement phase."""
    state = api.new_game("1939")
    _play(state, lambda s: sequence.current(s).label == "axis.first_movement", AXIS, lambda s: False)
    return state


def axis_reach(state: GameState) -> int:
    """Every Axis land unit's reach, from cold; returns the number of (unit, hex) pairs."""
    memos: dict[str, SideMemo] = {}
    total = 0
    for u in state.units.values():
        if u.is_land and u.on_map and state.countries[u.country].side == AXIS:
            total += len(land_reach(state, u, memo=memos.setdefault(u.country, SideMemo())))
    return total
