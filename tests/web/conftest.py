"""A 1939 game between a person (the axis, at the play page) and the bot (the allies),
files carried between their workspaces as the README's "against the bot, by files" does."""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from pbem.play import audit, branch, games, turn
from pbem.protocol import machine
from pbem.protocol.turnfile import other
from pbem.store import keys
from pbem.store.localgame import LocalGame
from pbem.store.store import Workspace
from pbem.web.desk import Desk
from pbem.web.server import PlayServer
from tests.protocol.conftest import Duo, Player, make_duo

DECISIONS = ("act", "commit", "sim")


def awaits(duo: Duo, side: str) -> bool:
    """Whether ``side`` has a decision to make (automatic records aside)."""
    p = duo.player(side)
    exp = machine.expected(turn.my_turn(LocalGame(p.ws, duo.gid, p.home)).work)
    return exp is not None and exp.side == side and exp.kind in DECISIONS


def bot_answers(duo: Duo, rounds: int = 40, person: str = "axis") -> None:
    """Carry the person's files to the bot, let it play, carry its files back, until the
    person has a decision to make."""
    bot = other(person)
    for _ in range(rounds):
        for res in duo.deliver(bot):
            assert res.status in ("applied", "duplicate"), res.message
        if awaits(duo, bot):
            turn.bot_play(duo.player(bot).ws, duo.gid, home=duo.player(bot).home)
        for res in duo.deliver(person):
            assert res.status in ("applied", "duplicate"), res.message
        if awaits(duo, person):
            return
    raise AssertionError(f"the {person} never got a decision to make")


@pytest.fixture(scope="module")
def game_1939(tmp_path_factory: pytest.TempPathFactory) -> Duo:
    """A 1939 game where the axis (the person) is to declare war."""
    duo = make_duo(tmp_path_factory.mktemp("game"), "1939")
    bot_answers(duo)
    return duo


@contextmanager
def served(duo: Duo, person: str = "axis") -> Iterator[PlayServer]:
    """The play page of ``person``'s side of ``duo``, served in a thread until the block ends."""
    p = duo.player(person)
    server = PlayServer(Desk(p.ws, duo.gid, p.home))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)


@pytest.fixture(scope="module")
def server(game_1939: Duo) -> Iterator[PlayServer]:
    with served(game_1939) as s:
        yield s


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


#: The recorded game whose file 31 leaves the Allies to send money and load convoys,
#: with a build of priced units for both sides after it (1939-10).
INCOME = (Path(__file__).resolve().parents[1] / "data" / "records" / "1939-seed7", 31)


@pytest.fixture(scope="module")
def moving(tmp_path_factory: pytest.TempPathFactory) -> Duo:
    """The axis (the person) to move in 1939-10, in a branch of a recorded game: its build
    passed (a branch may not start in the middle of the hidden lists of a build)."""
    duo = branch_duo(tmp_path_factory.mktemp("move"), *INCOME)
    bot_answers(duo)
    turn.orders(duo.axis.ws, duo.gid, ["pass"], duo.axis.home, True)
    turn.send(duo.axis.ws, duo.gid, duo.axis.home)
    bot_answers(duo)
    return duo


@pytest.fixture(scope="module")
def building(tmp_path_factory: pytest.TempPathFactory) -> Duo:
    """The axis (the person) to buy in 1939-10, in a branch of a recorded game."""
    duo = branch_duo(tmp_path_factory.mktemp("build"), *INCOME)
    bot_answers(duo)
    return duo


def branch_duo(tmp_path: Path, record: Path, at: int, person: str = "axis") -> Duo:
    """A new game between two new players from the position after file ``at`` of the
    recorded game in ``record`` (``pbem branch``): a decision the first months of a game
    do not bring for sure, met in a real game all the same.  ``person`` invites the bot.

    The keys and the game id are derived from the record and the file, as self-play
    derives them from its seed: the branch is the same game on every run, dice and
    bot included, so a decision that follows a roll (an advance after combat) comes
    every time."""
    players = {}

    def derived(what: str) -> bytes:
        return hashlib.sha256(f"tests/web/branch/{record.name}/{at}/{person}/{what}".encode()).digest()

    for side in ("axis", "allies"):
        p = Player(side, tmp_path / f"home-{side}", Workspace(tmp_path / f"ws-{side}"))
        keys.keygen(p.name, f"{side}@example.org", directory=p.home, seed=derived(f"key/{side}"))
        players[side] = p
    found = audit.game_files(record)
    (parent,) = found
    me, bot = players[person], players[other(person)]
    pub = keys.read_public_key(bot.home / f"{bot.name}.pub")
    gid, _ = branch.new_branch(
        me.ws,
        branch.folder_source(found),
        parent,
        at,
        me.name,
        side=person,
        opponent=pub,
        home=me.home,
        carry_parent=False,  # no parent file to mail: the bot is given the checked start below
        gid=derived("game")[:6].hex(),
    )
    out = tmp_path / "rec"
    out.mkdir()
    duo = Duo(players["axis"], players["allies"], gid, out)
    (invite,) = duo.outbox(person)
    # The bot starts from the position the invitation's maker replayed and checked: a
    # second replay of the record (what `pbem join` does, tested in
    # tests/protocol/test_branch.py) would give the same bytes, at a cost of seconds.
    base = LocalGame(me.ws, gid, me.home).base()
    assert base is not None
    games.join(bot.ws, invite, bot.name, home=bot.home, base=base)
    for res in duo.deliver(person):
        assert res.status == "applied", res.message
    return duo
