"""Benchmarks of the hot paths and of the test suite's time.

``python -m benchmarks [engine|protocol|ai|startup|verify|mail|calendar|reach|game|suite ...]`` prints numbers.
Each benchmark of a hot path runs its work several times and reports the median and the best
time.  They are not tests: nothing here fails on a slow machine.
"""

from __future__ import annotations

import platform
import statistics
import sys
import time
from collections.abc import Callable

from benchmarks.synthetic import synthetic_game, synthetic_world
from engine.sides import ALLIES, AXIS


def timeit(fn: Callable[[], object], repeat: int = 15) -> tuple[float, float]:
    fn()  # warm caches that a real game would have warm too
    samples = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - t)
    return statistics.median(samples), min(samples)


def report(name: str, median: float, best: float, target_ms: float | None = None) -> None:
    target = f"   (target < {target_ms:g} ms)" if target_ms else ""
    print(f"{name:<48} median {median * 1000:9.2f} ms   best {best * 1000:9.2f} ms{target}")


def engine_benchmarks() -> None:
    from benchmarks.bench_movement import bench_reach, bench_zoc
    from benchmarks.bench_supply import bench_supply

    t = time.perf_counter()
    world = synthetic_world()
    state = synthetic_game(world)
    world.map.land_neighbours  # noqa: B018 - built once per map, like loading it
    built = time.perf_counter() - t
    print(f"synthetic world: {world.map.size} hexes, {len(state.units)} units, built in {built:.2f} s")
    report("state hash (serialise + sha256)", *timeit(state.digest), target_ms=10)
    report("serialise whole state", *timeit(state.to_bytes), target_ms=10)
    report("zones of control of one side", *timeit(lambda: bench_zoc(state, AXIS)), target_ms=5)
    report("supply for every unit of one side", *timeit(lambda: bench_supply(state, ALLIES)), target_ms=20)
    armor = next(u for u in sorted(state.units.values(), key=lambda u: u.id) if u.type == "armor")
    report("all legal moves of one armor unit", *timeit(lambda: bench_reach(state, armor)), target_ms=2)


def protocol_benchmarks() -> None:
    from benchmarks.bench_verify import bench_naval_verify, bench_recorded_naval_verify, bench_verify

    bench_verify(report)
    bench_naval_verify(report)
    bench_recorded_naval_verify(report)


def ai_benchmarks() -> None:
    from benchmarks.bench_ai import bench_ai

    bench_ai(report)


def startup_benchmarks() -> None:
    from benchmarks.bench_startup import bench_startup

    bench_startup(report)


def verify_benchmarks() -> None:
    """Every file of a 1939 record to 1940-06 verified, the state hash and `pbem scenario info`
    (minutes when it self-plays the record: not in the default groups; see bench_record.py)."""
    from benchmarks.bench_record import bench_record

    bench_record(report)


def reach_benchmarks() -> None:
    """Every Axis land unit's reach at the first movement of a 1939 game (the bots deploy first)."""
    from benchmarks.bench_reach import axis_reach, first_axis_movement

    state = first_axis_movement()
    pairs = axis_reach(state)
    # the goal: 5 times the original game's 72 ms (docs/performance.md)
    name = f"reach of every Axis land unit ({pairs} unit-hexes)"
    report(name, *timeit(lambda: axis_reach(state), 31), target_ms=14.4)


def game_benchmarks() -> None:
    """A whole game of 1939 to 1947, bot against bot (minutes: not in the default groups)."""
    from benchmarks.bench_game import main as bench_game

    bench_game([])


def mail_benchmarks() -> None:
    """The bot mailbox through real local Dovecot and Postfix (needs them installed; run as root)."""
    from benchmarks.bench_mail import bench_mail

    bench_mail(games=50, turns_per_game=5, layer="protocol", engine="double")
    bench_mail(games=10, turns_per_game=3, layer="protocol", engine="real")


def calendar_benchmarks() -> None:
    """A 1939 game to 1940-06 between two mail daemons on real local mail servers, turned into
    the calendar of two people who look at their mail once a day (tens of minutes; needs the
    servers and root: not in the default groups; `python3 -m benchmarks.bench_mail_calendar
    --end YYYY-MM` plays fewer months)."""
    from benchmarks.bench_mail_calendar import bench_mail_calendar

    bench_mail_calendar()


def suite_benchmarks() -> None:
    """The README's test command and the map regeneration, timed (minutes: not in the default groups)."""
    from benchmarks.bench_suite import bench_suite

    bench_suite()


GROUPS = {
    "engine": engine_benchmarks,
    "protocol": protocol_benchmarks,
    "ai": ai_benchmarks,
    "startup": startup_benchmarks,
    "verify": verify_benchmarks,
    "mail": mail_benchmarks,
    "calendar": calendar_benchmarks,
    "reach": reach_benchmarks,
    "game": game_benchmarks,
    "suite": suite_benchmarks,
}
#: run when no group is named: the mail and calendar groups need mail servers and take minutes, a
#: game, the suite and the verification of a whole record take minutes
DEFAULT_GROUPS = ("engine", "protocol", "ai", "startup")


def main(argv: list[str]) -> None:
    names = argv or list(DEFAULT_GROUPS)
    print(f"{platform.node()} · {platform.processor() or platform.machine()} · Python {platform.python_version()}")
    for name in names:
        if name not in GROUPS:
            sys.exit(f"unknown benchmark group '{name}'; choose from: {', '.join(GROUPS)}")
        print(f"--- {name}")
        GROUPS[name]()


if __name__ == "__main__":
    main(sys.argv[1:])
