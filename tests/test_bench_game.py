"""The whole-game benchmark's bookkeeping (the game itself takes minutes; see docs/performance.md)."""

from __future__ import annotations

from benchmarks.bench_game import GameTimes, play, report


def test_months_are_summed_by_year_and_reported() -> None:
    times = GameTimes(
        cpu={"1939-09": 2.0, "1939-10": 3.0, "1940-01": 4.0},
        wall={"1939-09": 5.0, "1939-10": 6.0, "1940-01": 7.0},
    )
    assert times.by_year() == {"1939": (2, 5.0, 11.0), "1940": (1, 4.0, 7.0)}
    lines: list[str] = []
    report(times, lines.append)
    assert lines[0].startswith("1939:  2 months  CPU     5.0 s ( 2.50 s/month)")
    assert lines[-1].startswith("whole game: 3 months  CPU 9.0 s (3.00 s/month)")


def test_a_game_that_ends_where_it_starts_has_no_months() -> None:
    ticks = iter(range(100))
    times = play(1000, "1939-09", cpu_clock=lambda: float(next(ticks)), wall_clock=lambda: 0.0)
    assert times.cpu == {}
    assert "game 1000" in times.result
