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

import hashlib

from engine import ai, api, sequence
from engine.reach import SideMemo, land_reach
from engine.sides import AXIS
from engine.state import GameState


def _seed(n: int, side: str) -> bytes:
    return hashlib.sha256(b"bench/reach\0" + n.to_bytes(8, "big") + side.encode()).digest()


def first_axis_movement() -> GameState:
    """The 1939 game, both sides the bot, at the Axis' first movement phase."""
    state = api.new_game("1939")
    n = 0
    while sequence.current(state).label != "axis.first_movement":
        d = api.decision(state)
        n += 1
        if d.kind == "chance":
            api.apply_chance(state, _seed(n, "chance"))
            continue
        orders = {s: ai.decide(state, s, _seed(n, s), "bot") for s in d.sides}
        if d.kind == "simultaneous":
            api.apply_simultaneous(state, orders)
        else:
            s = d.sides[0]
            for action in orders[s]:
                api.apply(state, s, action)
                if s not in api.decision(state).sides:
                    break
    return state


def axis_reach(state: GameState) -> int:
    """Every Axis land unit's reach, from cold; returns the number of (unit, hex) pairs."""
    memos: dict[str, SideMemo] = {}
    total = 0
    for u in state.units.values():
        if u.is_land and u.on_map and state.countries[u.country].side == AXIS:
            total += len(land_reach(state, u, memo=memos.setdefault(u.country, SideMemo())))
    return total
