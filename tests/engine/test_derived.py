"""The shared results of a derived table under threads (the browser board's server answers
each request in a thread while the bot's checks of a file run in another)."""

from __future__ import annotations

import threading

from engine.derived import Derived
from engine.position import build_world, setup
from engine.state import GameState

WORLD = build_world("G:c P:c", cities={"Berlin": "0,0 capital", "Warsaw": "1,0 capital"})


def test_threads_sharing_a_world_never_lose_an_entry_between_lookup_and_use(fast_switching: None) -> None:
    table: Derived[str, tuple[int, str]] = Derived(lambda s: s.date, lambda s, k: (s.date, k), recent=2)
    errors: list[str] = []

    def play(states: list[GameState]) -> None:
        try:
            for i in range(40_000):
                # Each state twice in a row (the second call finds its results shared),
                # its own table emptied so that every call goes to the shared results.
                state = states[(i // 2) % 3]
                state.derived_tables.clear()
                assert table(state, "k") == (state.date, "k")
        except Exception as exc:
            errors.append(repr(exc))

    # Each thread has three states of one world a month apart: one more than the table shares.
    months = ("1939-09", "1939-10", "1939-11")
    threads = [threading.Thread(target=play, args=([setup(WORLD, date=m) for m in months],)) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
