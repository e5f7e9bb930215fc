"""Fixtures: the engine double, and two players with their own identities and workspaces."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from pbem.play import exchange, games, turn
from pbem.protocol import engine_link, machine, turnfile
from pbem.protocol.turnfile import TurnFile, other
from pbem.store import keys
from pbem.store.localgame import LocalGame
from pbem.store.store import Workspace
from tests.protocol import fakeengine


@pytest.fixture(autouse=True)
def fake_engine() -> Iterator[None]:
    engine_link.use(fakeengine, fakeengine.ai)  # type: ignore[arg-type]
    yield
    engine_link.use(None)


@dataclass
class Player:
    side: str
    home: Path
    ws: Workspace
    seen: set[str] = field(default_factory=set)

    @property
    def name(self) -> str:
        return f"{self.side}-p"

    def ident(self) -> keys.Identity:
        return keys.load(self.name, self.home)


@dataclass
class Duo:
    """Two players of one game; files only travel through :meth:`deliver`."""

    axis: Player
    allies: Player
    gid: str
    out: Path

    def player(self, side: str) -> Player:
        return self.axis if side == "axis" else self.allies

    def outbox(self, side: str) -> list[Path]:
        p = self.player(side)
        new = sorted(f for f in p.ws.outbox.glob("*.pbem") if f.name not in p.seen)
        for f in new:
            p.seen.add(f.name)
            shutil.copy(f, self.out / f.name)
        return [self.out / f.name for f in new]

    def deliver(self, side: str) -> list[exchange.ImportResult]:
        """Import everything ``side``'s opponent has sent since the last call."""
        me = self.player(side)
        return [exchange.import_file(me.ws.root, f, home=me.home) for f in self.outbox(other(side))]

    def game(self, side: str) -> machine.Game:
        g = LocalGame(self.player(side).ws, self.gid, self.player(side).home).game()
        assert g is not None
        return g

    def to_move(self) -> str | None:
        exp = machine.expected(self.game("axis"))
        return None if exp is None else exp.side

    def step(self) -> None:
        """Whoever must act plays (bot) and the file is delivered."""
        side = self.to_move()
        assert side is not None
        me = self.player(side)
        exp = machine.expected(turn.my_turn(LocalGame(me.ws, self.gid, me.home)).work)
        if exp is not None and exp.side == side:
            turn.bot_play(me.ws, self.gid, home=me.home)
        for res in self.deliver(other(side)):
            assert res.status in ("applied", "duplicate"), res.message
        for res in self.deliver(side):
            assert res.status in ("applied", "duplicate"), res.message

    def play_until(self, pred: Any, limit: int = 200) -> None:
        for _ in range(limit):
            if pred(self):
                return
            self.step()
        raise AssertionError("condition never reached")

    def snapshot(self, side: str) -> dict[str, bytes]:
        """Every file of ``side``'s store, to show an import changed nothing."""
        root = self.player(side).ws.store
        return {
            str(p.relative_to(root)): p.read_bytes()
            for p in sorted(root.rglob("*"))
            if p.is_file() and p.name != "lock" and "rejected" not in p.parts
        }

    def forge(self, side: str, body: dict[str, Any], key: keys.Identity | None = None) -> TurnFile:
        """A file signed with ``side``'s real key (or ``key``) but with content of our choosing."""
        ident = key or self.player(side).ident()
        return turnfile.seal(body, ident.sign)

    def next_body(self, side: str, records: list[Any], state: bytes | None = None) -> dict[str, Any]:
        g = self.game(other(side))
        return {
            "v": 1,
            "type": "turn",
            "game": self.gid,
            "seq": g.seq + 1,
            "prev": g.hashes[-1],
            "side": side,
            "records": records,
            "state": state or bytes(32),
        }


def make_duo(tmp_path: Path, scenario: str = "tiny", options: dict[str, Any] | None = None) -> Duo:
    players = {}
    for side in ("axis", "allies"):
        p = Player(side, tmp_path / f"home-{side}", Workspace(tmp_path / f"ws-{side}"))
        keys.keygen(p.name, f"{side}@example.org", directory=p.home)
        players[side] = p
    out = tmp_path / "rec"
    out.mkdir()
    pub = keys.read_public_key(players["allies"].home / "allies-p.pub")
    gid, _ = games.new_game(
        players["axis"].ws, scenario, "axis", "axis-p", pub, home=players["axis"].home, options=options
    )
    duo = Duo(players["axis"], players["allies"], gid, out)
    invite = duo.outbox("axis")[0]
    games.join(players["allies"].ws, invite, "allies-p", home=players["allies"].home)
    for res in duo.deliver("axis"):
        assert res.status == "applied", res.message
    return duo


@pytest.fixture
def duo(tmp_path: Path) -> Duo:
    return make_duo(tmp_path)
