"""A whole game of the bot against itself, timed month by month (docs/performance.md,
"A whole game in 5 minutes").

``python3 -m benchmarks.bench_game [--seed N] [--until YYYY-MM]`` plays the 1939
scenario as ``pbem arena --scenario 1939 --games 1 --seed N --until YYYY-MM`` does
(the same game, seed for seed: both sides, every decision, every roll) and prints the
CPU and wall time of each year, the whole game and the mean per month, with the load
average before and after.  ``python3 -m benchmarks game`` runs it with the defaults.
The target is a whole game (1939-09 to 1946-12) in at most 5 minutes, about 3.5 s a
month.  CPU time is the figure to read on a shared machine.
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from engine.ai import arena
from engine.state import GameState, date_text, parse_date

#: A whole game: September 1939 to the end of 1946.
WHOLE_GAME = "1947-01"
TARGET_S = 300.0


@dataclass(slots=True)
class GameTimes:
    """Seconds spent on each month of one game (the month's date text -> seconds)."""

    cpu: dict[str, float] = field(default_factory=dict)
    wall: dict[str, float] = field(default_factory=dict)
    result: str = ""

    def by_year(self) -> dict[str, tuple[int, float, float]]:
        """Year -> (months, CPU seconds, wall seconds)."""
        out: dict[str, tuple[int, float, float]] = {}
        for month, cpu in self.cpu.items():
            n, c, w = out.get(month[:4], (0, 0.0, 0.0))
            out[month[:4]] = (n + 1, c + cpu, w + self.wall[month])
        return out


def play(
    seed: int,
    until: str,
    cpu_clock: Callable[[], float] = time.process_time,
    wall_clock: Callable[[], float] = time.perf_counter,
) -> GameTimes:
    """Play one arena game of 1939 to ``until`` and time each month (the month that just
    ended is charged when the next one begins)."""
    times = GameTimes()
    clocks = [cpu_clock(), wall_clock()]
    month = [""]

    def start(state: GameState) -> None:
        month[0] = date_text(state.date)
        clocks[:] = [cpu_clock(), wall_clock()]

    def on_month(state: GameState) -> None:
        cpu, wall = cpu_clock(), wall_clock()
        times.cpu[month[0]] = cpu - clocks[0]
        times.wall[month[0]] = wall - clocks[1]
        clocks[:] = [cpu, wall]
        month[0] = date_text(state.date)

    players = {"axis": "bot", "allies": "bot"}
    result = arena.play_game("1939", parse_date(until), players, seed, None, on_month=on_month, setup=start)
    times.result = result.line()
    return times


def report(times: GameTimes, print_: Callable[[str], None] = print) -> None:
    for year, (n, cpu, wall) in sorted(times.by_year().items()):
        print_(f"{year}: {n:2d} months  CPU {cpu:7.1f} s ({cpu / n:5.2f} s/month)  wall {wall:7.1f} s")
    months = len(times.cpu)
    cpu, wall = sum(times.cpu.values()), sum(times.wall.values())
    print_(
        f"whole game: {months} months  CPU {cpu:.1f} s ({cpu / max(1, months):.2f} s/month)  "
        f"wall {wall:.1f} s   (target: a whole game in {TARGET_S:.0f} s)"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--until", default=WHOLE_GAME)
    args = parser.parse_args(argv)
    print(f"load average before: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    times = play(args.seed, args.until)
    report(times)
    print(f"load average after: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    print(times.result)


if __name__ == "__main__":
    main()
