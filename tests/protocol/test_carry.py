"""A file the program wrote by itself (a dice value, an opening) waits in outbox/ to be
carried: `pbem import`, `pbem status` and a refused `pbem bot play` name it and its
receiver (pbem/play/carry.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from pbem.cli.main import app
from pbem.errors import PbemError
from pbem.play import exchange, status, turn
from pbem.protocol import machine, turnfile
from pbem.protocol.turnfile import other
from pbem.protocol.words import sides_of
from pbem.store.localgame import LocalGame
from tests.protocol.conftest import Duo


def _first_automatic_answer(duo: Duo) -> tuple[str, exchange.ImportResult]:
    """Play until an import answers by itself; the side that answered and that import."""
    for _ in range(40):
        side = duo.to_move()
        assert side is not None
        me = duo.player(side)
        work = turn.my_turn(LocalGame(me.ws, duo.gid, me.home)).work
        exp = machine.expected(work)
        if exp is not None and exp.side == side:
            turn.bot_play(me.ws, duo.gid, home=me.home)
        for receiver in (other(side), side):
            for res in duo.deliver(receiver):
                assert res.status in ("applied", "duplicate"), res.message
                if res.replies:
                    return receiver, res
    raise AssertionError("no automatic answer")


def test_an_automatic_file_is_named_until_the_opponent_answers_it(duo: Duo, tmp_path: Path) -> None:
    side, res = _first_automatic_answer(duo)
    (reply,) = res.replies
    kinds = {rec.KIND for rec in turnfile.read(reply).records}
    assert kinds <= {"dice", "reveal"}  # the program's alone: no decision travels with it
    ws, them = duo.player(side).ws, other(side)
    named = f"carry outbox/{reply.name} (your automatic "
    assert named in res.message and f"to {them} ({them}-p, {them}@example.org)" in res.message
    line = status.lines(ws, duo.gid)[0]
    assert named in line and "your move" not in line
    assert status.next_step(ws, duo.gid).startswith(f"game {duo.gid}, next: {named}")
    with pytest.raises(PbemError) as refused:
        turn.bot_play(ws, duo.gid, home=duo.player(side).home)
    assert "not your turn" in str(refused.value) and named in str(refused.value)
    # Once the opponent's next file has come, nothing of mine waits any more.
    for _ in range(6):
        duo.deliver(them)
        theirs = duo.player(them)
        exp = machine.expected(turn.my_turn(LocalGame(theirs.ws, duo.gid, theirs.home)).work)
        if exp is not None and exp.side == them:
            turn.bot_play(theirs.ws, duo.gid, home=theirs.home)
        if duo.deliver(side):
            break
    else:
        raise AssertionError(f"{them} never answered")
    # (its arrival may make my program answer again, with a file of its own)
    assert reply.name not in status.lines(ws, duo.gid)[0]
    assert reply.name not in status.next_step(ws, duo.gid)


def test_import_ends_with_the_files_to_carry(duo: Duo) -> None:
    """On the command line the last line of `pbem import` says what to carry to whom."""
    side = duo.to_move()
    assert side is not None
    me, them = duo.player(side), duo.player(other(side))
    turn.bot_play(me.ws, duo.gid, home=me.home)  # the commitment to its declarations
    sent = duo.outbox(side)
    got = CliRunner().invoke(app, ["-w", str(them.ws.root), "--home", str(them.home), "import", *map(str, sent)])
    assert got.exit_code == 0, got.output
    assert (
        got.output.splitlines()[-1]
        == f"game {duo.gid}, next: nothing to carry; your decision (`pbem status {duo.gid}`)"
    )
    turn.bot_play(them.ws, duo.gid, home=them.home)
    mine = sorted(p.name for p in them.ws.outbox.glob("*.pbem"))
    got = CliRunner().invoke(app, ["-w", str(them.ws.root), "status", duo.gid])
    assert f"carry outbox/{mine[-1]} (your file) to {side}" in got.output


def test_send_with_nothing_to_send_names_the_file_to_carry(duo: Duo) -> None:
    side, res = _first_automatic_answer(duo)
    (reply,) = res.replies
    with pytest.raises(PbemError) as refused:
        turn.send(duo.player(side).ws, duo.gid, home=duo.player(side).home)
    assert str(refused.value).startswith(f"nothing to send in game {duo.gid}: it is {sides_of(other(side))} turn; ")
    assert f"carry outbox/{reply.name}" in str(refused.value)
