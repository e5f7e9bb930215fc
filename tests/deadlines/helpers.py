"""Games with a deadline played in memory by the real engine, at times the tests choose."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pbem.errors import PbemError
from pbem.play.memplay import MemoryMatch
from pbem.protocol import advance, machine
from pbem.protocol.machine import Game
from pbem.protocol.replay import replay as replay_files
from pbem.protocol.turnfile import TurnFile

T0 = 1_800_000_000  # 2027-01-15 08:00 UTC
HOUR = 3600


class Clock:
    """The local clock of pbem (``PBEM_NOW``), moved by the test."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.mp = monkeypatch
        self.set(T0)

    def set(self, t: int) -> None:
        self.mp.setenv("PBEM_NOW", str(t))


def match(silence: str = "bot", seed: int = 3, deadline: int = HOUR) -> MemoryMatch:
    """A 1937 game with a deadline, both sides played by the frozen reference player, so that
    the positions the tests stop at (a roll, a reveal owed) stay where they are as the bot improves."""
    return MemoryMatch("1937", seed=seed, options={"deadline": deadline, "silence": silence}, player="v1")


def play_to(m: MemoryMatch, seq: int) -> None:
    while m.game.seq < seq:
        assert m.step() is not None


def replay(files: list[TurnFile]) -> Game:
    """The game re-executed from its files alone, as a receiver or an auditor does."""
    return replay_files(files)


def refusal(game: Game, tf: TurnFile) -> str:
    """The code a receiver holding ``game`` refuses ``tf`` with ("" if it accepts it)."""
    try:
        advance.apply_file(game.clone(), machine.authenticate(game.genesis, tf, game))
    except PbemError as exc:
        return exc.code
    return ""


def write(files: list[TurnFile], where: Path) -> Path:
    where.mkdir()
    for tf in files:
        (where / tf.name).write_bytes(tf.raw)
    return where


def next_body(game: Game, side: str, kind: str, **fields: Any) -> dict[str, Any]:
    body = {"v": 1, "type": kind, "game": game.gid, "seq": game.seq + 1, "prev": game.hashes[-1], "side": side}
    return body | fields
