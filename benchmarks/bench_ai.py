"""Timings of the computer player on a 1939 game (docs/ai.md, "Speed").

Each function plays the game with the bot on both sides (dice from a fixed seed)
and returns the seconds that the measured side's decisions took:

* :func:`month_one_side` - every decision of one side during one whole month
  (war declaration to the end of the Allied main phase); goal < 10 s;
* :func:`main_phase_one_side` - one side's decisions during its own main phase
  (overrun to second movement); goal < 5 s.

``month`` 0 is the scenario's first month, which includes placing the initial
pools; later months are the steady state.  The runner (``python -m benchmarks``)
is the lead's; these functions take no arguments it must know about.
"""

from __future__ import annotations

import functools
import hashlib
import time
from collections.abc import Callable

from engine import ai, api
from engine.sides import ALLIES, AXIS
from engine.state import GameState, parse_date


def _seed(n: int, *parts: str) -> bytes:
    return hashlib.sha256(b"bench/ai\0" + n.to_bytes(8, "big") + "/".join(parts).encode()).digest()


def _play(
    state: GameState,
    stop: Callable[[GameState], bool],
    side: str,
    measure: Callable[[GameState], bool],
    budget_s: float | None = None,
) -> float:
    """Play with the bot until ``stop``; sum the time of ``side``'s decisions where ``measure``."""
    spent = 0.0
    n = 0
    while not stop(state):
        d = api.decision(state)
        n += 1
        if d.kind == "end":
            break
        if d.kind == "chance":
            api.apply_chance(state, _seed(n, "chance"))
            continue
        timed = measure(state)
        orders = {}
        for s in d.sides:
            t0 = time.perf_counter()
            orders[s] = ai.decide(state, s, _seed(n, s), "bot", budget_s)
            if s == side and timed:
                spent += time.perf_counter() - t0
        if d.kind == "simultaneous":
            api.apply_simultaneous(state, orders)
        else:
            s = d.sides[0]
            for action in orders[s]:
                api.apply(state, s, action)
                if s not in api.decision(state).sides:
                    break
    return spent


def month_one_side(side: str = "axis", month: int = 1, scenario: str = "1939", budget_s: float | None = None) -> float:
    state = api.new_game(scenario)
    start = state.date
    _play(state, lambda s: s.date >= start + month, side, lambda s: False)
    end = state.date + 1
    return _play(state, lambda s: s.date >= end, side, lambda s: True, budget_s)


def main_phase_one_side(
    side: str = "axis", month: int = 1, scenario: str = "1939", budget_s: float | None = None
) -> float:
    state = api.new_game(scenario)
    start = state.date
    _play(state, lambda s: s.date >= start + month, side, lambda s: False)
    end = state.date + 1

    def in_main(s: GameState) -> bool:
        return api.decision(s).phase.startswith(f"{side}.")

    return _play(state, lambda s: s.date >= end, side, in_main, budget_s)


@functools.cache
def _position(scenario: str, until: str) -> bytes:
    """The bot's own game of ``scenario`` played to ``until`` (a minute or more), kept for the
    benchmarks that start from it."""
    state = api.new_game(scenario)
    end = parse_date(until)
    _play(state, lambda s: s.date >= end, AXIS, lambda s: False)
    return state.to_bytes()


def late_month_one_side(side: str, until: str = "1942-01", scenario: str = "1939") -> float:
    """One side's decisions for the month from ``until`` of a game the bot played there,
    with the fleets both sides have at sea by then (issue 12's 2 s target for 1942)."""
    world = api.new_game(scenario).world
    state = GameState.from_bytes(_position(scenario, until), world)
    end = state.date + 1
    return _play(state, lambda s: s.date >= end, side, lambda s: True)


#: name -> (function returning seconds, target in ms), for the benchmark runner.
BENCHMARKS: dict[str, tuple[Callable[[], float], float]] = {
    "bot, 1939 first month, axis (deploys pools)": (lambda: month_one_side("axis", 0), 10_000),
    "bot, 1939 first month, allies (deploys pools)": (lambda: month_one_side("allies", 0), 10_000),
    "bot, 1939 second month, axis": (lambda: month_one_side("axis", 1), 10_000),
    "bot, 1939 second month, allies": (lambda: month_one_side("allies", 1), 10_000),
    "bot, 1939 second month, axis main phase": (lambda: main_phase_one_side("axis", 1), 5_000),
    "bot, 1939 second month, allies main phase": (lambda: main_phase_one_side("allies", 1), 5_000),
    "bot, 1942-01 month, axis (1939 played by the bot)": (lambda: late_month_one_side(AXIS), 2_000),
    "bot, 1942-01 month, allies (1939 played by the bot)": (lambda: late_month_one_side(ALLIES), 2_000),
}


def bench_ai(report: Callable[..., None], repeat: int = 3) -> None:
    """Run every benchmark ``repeat`` times; ``report(name, median, best, target_ms)``.

    Only the measured side's decisions are timed, not the play that leads up to them."""
    for name, (fn, target_ms) in BENCHMARKS.items():
        samples = sorted(fn() for _ in range(repeat))
        report(name, samples[len(samples) // 2], samples[0], target_ms)
