"""The mail calendar benchmark's clock (the run itself takes minutes on real mail servers;
see docs/performance.md): sittings start at a person's next look, automatic answers and a
person still sitting take only the seconds they took."""

from __future__ import annotations

from benchmarks.bench_mail_calendar import DAY, HOUR, Sent, calendar, next_look

START = 1_000.0  # real time the invitation arrived


def _chain() -> list[Sent]:
    """The Allies join; the Axis moves, the Allies' daemon answers its roll in 2 s and the
    Axis, still sitting, moves on; the Allies' next decision is in the next month."""
    return [
        Sent(1, "allies", "1939-09", "1939-09", True, START + 10),
        Sent(2, "axis", "1939-09", "1939-09", True, START + 30),
        Sent(3, "allies", "1939-09", "1939-09", False, START + 32),
        Sent(4, "axis", "1939-09", "1939-09", True, START + 40),
        Sent(5, "allies", "1939-10", "1939-10", True, START + 50),
        Sent(6, "axis", "1939-10", "1939-10", False, START + 53),
    ]


def test_a_look_is_at_or_after_the_time_asked() -> None:
    assert next_look(0.0, 0.0, DAY) == 0.0
    assert next_look(1.0, 0.0, DAY) == DAY
    assert next_look(DAY, 0.0, DAY) == DAY
    assert next_look(DAY + 1, 12 * HOUR, DAY) == DAY + 12 * HOUR
    assert next_look(5.0, 12 * HOUR, DAY) == 12 * HOUR


def test_each_sitting_waits_for_its_persons_look_and_nothing_else_does() -> None:
    same = calendar(_chain(), START, {"axis": 0.0, "allies": 0.0}, DAY)
    # Three sittings (the Axis's move and its move after the roll are one): a day each
    # but the first, which the Allies begin at once; automatic files cost their seconds.
    assert same.sittings == {"1939-09": {"axis": 1, "allies": 1}, "1939-10": {"axis": 0, "allies": 1}}
    assert same.starts == {"1939-09": 0.0, "1939-10": 2 * DAY}
    assert same.end == 2 * DAY + 10 + 3
    assert same.days(["1939-09"]) == [2.0]
    opposite = calendar(_chain(), START, {"axis": 0.0, "allies": 12 * HOUR}, DAY)
    # At opposite times of day each sitting waits half a day: the month takes half as long.
    assert opposite.starts == {"1939-09": 12 * HOUR, "1939-10": DAY + 12 * HOUR}
    assert opposite.days(["1939-09"]) == [1.0]


def test_a_person_still_sitting_does_not_wait_for_the_next_day() -> None:
    """Without the daemon's quick answer in between, the Axis's second move is a second sitting."""
    chain = _chain()
    chain[2] = Sent(3, "allies", "1939-09", "1939-09", True, START + 32)
    cal = calendar(chain, START, {"axis": 0.0, "allies": 0.0}, DAY)
    assert cal.sittings["1939-09"] == {"axis": 2, "allies": 2}
    assert cal.end == 4 * DAY + 10 + 3


def test_the_war_counts_the_first_month_once_and_the_others_at_their_pace() -> None:
    from benchmarks.bench_mail_calendar import MONTH_DAYS, _war

    assert _war([5.0, 2.0, 3.0, 1.0]) == (5.0 + 2.0 * 87) / MONTH_DAYS
    assert _war([4.0]) == 4.0 * 88 / MONTH_DAYS
