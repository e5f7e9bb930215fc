"""`pbem bot play` thinks without the workspace lock and seals only an unchanged game."""

from __future__ import annotations

from typing import Any

import pytest

from pbem.errors import PbemError
from pbem.play import turn
from pbem.protocol import machine
from pbem.store import durable
from tests.protocol import fakeengine
from tests.protocol.conftest import Duo


def _to_move(duo: Duo) -> str:
    side = duo.to_move()
    assert side is not None
    return side


def test_the_computer_thinks_while_the_workspace_is_free(duo: Duo, monkeypatch: pytest.MonkeyPatch) -> None:
    side = _to_move(duo)
    p = duo.player(side)
    free: list[bool] = []
    decide = fakeengine.ai.decide

    def watching(*args: Any, **kw: Any) -> Any:
        try:
            with durable.flock(p.ws.store / "lock", wait=False):
                free.append(True)
        except BlockingIOError:
            free.append(False)
        return decide(*args, **kw)

    monkeypatch.setattr(fakeengine.ai, "decide", watching)
    before = duo.game(side).seq
    turn.bot_play(p.ws, duo.gid, home=p.home)
    assert free and all(free)
    (res,) = duo.deliver(machine.turnfile.other(side))
    assert res.status == "applied", res.message
    assert duo.game(side).seq == before + 1


def test_a_game_that_moved_while_the_computer_thought_is_not_sealed_twice(
    duo: Duo, monkeypatch: pytest.MonkeyPatch
) -> None:
    side = _to_move(duo)
    p = duo.player(side)
    decide = fakeengine.ai.decide
    calls = {"n": 0}

    def racing(*args: Any, **kw: Any) -> Any:
        calls["n"] += 1
        if calls["n"] == 1:
            # A second `pbem bot play` of the same game runs to its end meanwhile.
            turn.bot_play(p.ws, duo.gid, home=p.home)
        return decide(*args, **kw)

    monkeypatch.setattr(fakeengine.ai, "decide", racing)
    head = duo.game(side).seq
    with pytest.raises(PbemError, match="not your turn") as err:
        turn.bot_play(p.ws, duo.gid, home=p.home)
    assert err.value.code == "turn"
    sent = sorted(f.name for f in p.ws.outbox.glob("*.pbem") if f.name not in p.seen)
    assert sent == [f"{duo.gid}-{head + 1:05d}-{side}.pbem"]
    (res,) = duo.deliver(machine.turnfile.other(side))
    assert res.status == "applied", res.message
