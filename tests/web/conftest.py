"""A 1939 game between a person (the axis, at the play page) and the bot (the allies),
files carried between their workspaces as the README's "against the bot, by files" does."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from pbem import audit, branch, games, keys, protocol, turn
from pbem.localgame import LocalGame
from pbem.store import Workspace
from pbem.web.desk import Desk
from pbem.web.server import PlayServer
from tests.protocol.conftest import Duo, Player, make_duo

DECISIONS = ("act", "commit", "sim")


def awaits(duo: Duo, side: str) -> bool:
    """Whether ``side`` has a decision to make (automatic records aside)."""
    p = duo.player(side)
    exp = protocol.expected(turn.my_turn(LocalGame(p.ws, duo.gid, p.home)).work)
    return exp is not None and exp.side == side and exp.kind in DECISIONS


def bot_answers(duo: Duo, rounds: int = 40) -> None:
    """Carry the axis files to the bot, let it play, carry its files back, until the axis
    has a decision to make."""
    for _ in range(rounds):
        for res in duo.deliver("allies"):
            assert res.status in ("applied", "duplicate"), res.message
        if awaits(duo, "allies"):
            turn.bot_play(duo.allies.ws, duo.gid, home=duo.allies.home)
        for res in duo.deliver("axis"):
            assert res.status in ("applied", "duplicate"), res.message
        if awaits(duo, "axis"):
            return
    raise AssertionError("the axis never got a decision to make")


@pytest.fixture(scope="module")
def game_1939(tmp_path_factory: pytest.TempPathFactory) -> Duo:
    """A 1939 game where the axis (the person) is to declare war."""
    duo = make_duo(tmp_path_factory.mktemp("game"), "1939")
    bot_answers(duo)
    return duo


def serve(duo: Duo) -> tuple[PlayServer, threading.Thread]:
    server = PlayServer(Desk(duo.axis.ws, duo.gid, duo.axis.home))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    return server, thread


@pytest.fixture(scope="module")
def server(game_1939: Duo) -> Iterator[PlayServer]:
    s, thread = serve(game_1939)
    yield s
    s.shutdown()
    s.server_close()
    thread.join(5)


def read_only(duo: Duo) -> dict[str, bytes]:
    """Every file of both players' stores and homes (to show a request changed nothing)."""
    out = {}
    for root in (duo.axis.ws.root, duo.axis.home):
        out.update({str(p): p.read_bytes() for p in sorted(Path(root).rglob("*")) if p.is_file() and p.name != "lock"})
    return out


@pytest.fixture(scope="module")
def deploying(tmp_path_factory: pytest.TempPathFactory) -> Duo:
    """A 1939 game where the axis (the person) is to deploy, Poland declared on."""
    duo = make_duo(tmp_path_factory.mktemp("deploy"), "1939")
    bot_answers(duo)
    turn.orders(duo.axis.ws, duo.gid, ["declare Poland"], duo.axis.home)
    turn.send(duo.axis.ws, duo.gid, duo.axis.home)
    bot_answers(duo)
    return duo


@pytest.fixture(scope="module")
def building(tmp_path_factory: pytest.TempPathFactory) -> Duo:
    """A 1939 game where the axis (the person) has deployed as the bot proposed and is to buy."""
    duo = make_duo(tmp_path_factory.mktemp("build"), "1939")
    bot_answers(duo)
    for proposal in (lambda: "declare Poland", lambda: turn.suggest(duo.axis.ws, duo.gid, duo.axis.home)):
        turn.orders(duo.axis.ws, duo.gid, proposal().splitlines(), duo.axis.home)
        turn.send(duo.axis.ws, duo.gid, duo.axis.home)
        bot_answers(duo)
    return duo


def branch_duo(tmp_path: Path, record: Path, at: int) -> Duo:
    """A new game between two new players from the position after file ``at`` of the
    recorded game in ``record`` (``pbem branch``): a decision the first months of a game
    do not bring for sure, met in a real game all the same."""
    players = {}
    for side in ("axis", "allies"):
        p = Player(side, tmp_path / f"home-{side}", Workspace(tmp_path / f"ws-{side}"))
        keys.keygen(p.name, f"{side}@example.org", directory=p.home)
        players[side] = p
    found = audit.game_files(record)
    (parent,) = found
    pub = keys.read_public_key(players["allies"].home / "allies-p.pub")
    axis, allies = players["axis"], players["allies"]
    gid, _ = branch.new_branch(
        axis.ws, branch.folder_source(found), parent, at, axis.name, side="axis", opponent=pub, home=axis.home
    )
    out = tmp_path / "rec"
    out.mkdir()
    duo = Duo(axis, allies, gid, out)
    (invite,) = duo.outbox("axis")
    base = branch.base_for_invitation(allies.ws, invite, found)
    games.join(allies.ws, invite, allies.name, home=allies.home, base=base)
    for res in duo.deliver("axis"):
        assert res.status == "applied", res.message
    return duo
