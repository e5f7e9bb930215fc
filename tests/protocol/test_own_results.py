"""My own results before my next decision: when my program finishes a roll with my own
dice value and the next decision is mine (the advance after my attacks), `pbem import`
shows what the roll did at once, not only with the file that will carry it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from pbem.play import exchange, turn
from pbem.protocol import engine_link, machine
from pbem.protocol.turnfile import other
from pbem.store.localgame import LocalGame
from tests.protocol.conftest import make_duo


@pytest.fixture
def real_engine(fake_engine: None) -> Iterator[None]:
    engine_link.use(None)
    yield


def test_the_roll_my_dice_finished_is_reported_by_the_import_that_led_to_it(real_engine: None, tmp_path: Path) -> None:
    duo = make_duo(tmp_path, "1939")
    seen: list[exchange.ImportResult] = []
    for _ in range(80):
        side = duo.to_move()
        assert side is not None
        me = duo.player(side)
        exp = machine.expected(turn.my_turn(LocalGame(me.ws, duo.gid, me.home)).work)
        if exp is not None and exp.side == side:
            turn.bot_play(me.ws, duo.gid, home=me.home)
        seen = duo.deliver(other(side)) + duo.deliver(side)
        kept = [r for r in seen if "your automatic answer (it goes out with your next file)" in r.report]
        # (A reveal kept for the next decision is reported the same way: the month's wars
        # before the deployment.)
        if kept and "attack on " in kept[0].report.split("your automatic answer")[1]:
            break
    else:
        raise AssertionError("no roll finished by the importer's own dice value")
    text = kept[0].report
    own = text[text.index("your automatic answer") :]
    assert "attack on " in own and "odds " in own, own  # the combats in full
    assert "advance" in own.splitlines()[-1], own  # and what I decide next
    # Nothing was sent: the dice value waits for my next decision.
    importer = duo.player(duo.to_move() or "axis")
    assert LocalGame(importer.ws, duo.gid, importer.home).pending().auto >= 1
