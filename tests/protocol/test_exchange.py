"""The mail daemon's entry points: import_file statuses and replies, game_info."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

from pbem.play import exchange, games, status, turn
from pbem.store import keys
from pbem.store.localgame import LocalGame
from pbem.store.store import Workspace
from tests.protocol.conftest import Duo


def test_invitation_is_kept_until_joined(tmp_path: Path) -> None:
    ha, hb = tmp_path / "ha", tmp_path / "hb"
    keys.keygen("ann", "ann@example.org", directory=ha)
    keys.keygen("bob", "bob@example.org", directory=hb)
    wa, wb = Workspace(tmp_path / "wa"), Workspace(tmp_path / "wb")
    gid, invite = games.new_game(wa, "tiny", "allies", "ann", keys.read_public_key(hb / "bob.pub"), home=ha)
    info = exchange.game_info(wa.root, gid, home=ha)
    assert info.my_side == "allies" and info.opponent_email == "bob@example.org" and not info.my_turn
    wb.inbox.mkdir(parents=True)
    shutil.copy(invite, wb.inbox / invite.name)
    res = exchange.import_file(wb.root, wb.inbox / invite.name, home=hb)
    assert res.status == "stored" and res.game_id == gid and "pbem join" in res.message
    assert not (wb.inbox / invite.name).exists()
    assert any("invitation" in line for line in status.lines(wb, None, hb))
    kept = wb.store / "invitations" / f"{gid}.pbem"
    _, answer = games.join(wb, kept, "bob", home=hb)
    assert not kept.exists()
    res = exchange.import_file(wa.root, answer, home=ha)
    assert res.status == "applied" and res.seq == 1
    # Bob (axis, the joiner) commits first; Ann's client says it is not her turn.
    assert not exchange.game_info(wa.root, gid, home=ha).my_turn
    assert exchange.game_info(wb.root, gid, home=hb).my_turn


def test_replies_are_listed_and_written_to_outbox(duo: Duo) -> None:
    turn.bot_play(duo.allies.ws, duo.gid, home=duo.allies.home)
    duo.deliver("axis")
    turn.bot_play(duo.axis.ws, duo.gid, home=duo.axis.home)
    (res,) = duo.deliver("allies")
    assert res.status == "applied" and len(res.replies) == 1
    reply = res.replies[0]
    assert reply.parent == duo.allies.ws.outbox and reply.exists()
    assert reply.name == f"{duo.gid}-{res.seq + 1:05d}-allies.pbem"


def test_rejected_inbox_file_is_set_aside(duo: Duo) -> None:
    inbox = duo.axis.ws.inbox
    inbox.mkdir(parents=True, exist_ok=True)
    (inbox / "junk.pbem").write_bytes(b"not a turn file")
    before = LocalGame(duo.axis.ws, duo.gid, duo.axis.home).game()
    res = exchange.import_file(duo.axis.ws.root, inbox / "junk.pbem", home=duo.axis.home)
    assert res.status == "rejected" and not (inbox / "junk.pbem").exists()
    assert (duo.axis.ws.store / "rejected" / "junk.pbem").exists()
    after = LocalGame(duo.axis.ws, duo.gid, duo.axis.home).game()
    assert before is not None and after is not None and before.to_bytes() == after.to_bytes()


def _imported(duo: Duo, path: Path) -> tuple[exchange.ImportResult, int]:
    """The axis' import of ``path``, and how many times it opened the file (Python's audit
    events see every open)."""
    seen = [0]
    watching = [True]

    def hook(event: str, args: tuple[object, ...]) -> None:
        if watching[0] and event == "open" and str(args[0]) == str(path):
            seen[0] += 1

    sys.addaudithook(hook)  # an audit hook cannot be removed: it is switched off below
    try:
        result = exchange.import_file(duo.axis.ws.root, path, home=duo.axis.home)
    finally:
        watching[0] = False
    return result, seen[0]


def test_a_received_file_is_read_once_on_its_way_in(duo: Duo) -> None:
    """Telling what a file is (a turn file of a game here, a contact statement, parent
    files, a hand-over) and applying it use the same bytes: the file is opened once."""
    turn.bot_play(duo.allies.ws, duo.gid, home=duo.allies.home)
    sent = duo.outbox("allies")[0]
    inbox = duo.axis.ws.inbox
    inbox.mkdir(parents=True, exist_ok=True)
    arrived = Path(shutil.copy(sent, inbox / sent.name))
    result, opens = _imported(duo, arrived)
    assert result.status == "applied" and opens == 1
    # A refused file too: read once, and the bytes kept in rejected/ are the ones read.
    junk = inbox / "junk.pbem"
    junk.write_bytes(b"pbem parent files 1\nnot really")
    result, opens = _imported(duo, junk)
    assert result.status == "rejected" and opens == 1
    assert (duo.axis.ws.store / "rejected" / "junk.pbem").read_bytes() == b"pbem parent files 1\nnot really"
