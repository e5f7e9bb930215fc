"""The mail a person reads, on real Dovecot and Postfix: one notice per sitting in the inbox,
naming the decision awaited, opening with what happened since the last decision, with a picture;
several files in one mail applied in order; a burst of automatic answers to one opponent in
one mail."""

from __future__ import annotations

import email
import email.policy
import re
import shutil
from email.message import EmailMessage
from pathlib import Path

import fake_exchange as fx
import pytest
from imaphelp import count, fetch_all, send_raw, turn_mail
from mailtesting import wait_until

from pbem.mail.daemon import MailDaemon
from pbem.play import exchange, games, turn
from pbem.protocol import engine_link, machine
from pbem.protocol.words import phase_name
from pbem.store import keys
from pbem.store.localgame import LocalGame
from pbem.store.store import Workspace

pytestmark = pytest.mark.mail
GAME = "5e5510000001"


def parse(raw: bytes) -> EmailMessage:
    msg = email.message_from_bytes(raw, policy=email.policy.default)
    assert isinstance(msg, EmailMessage)
    return msg


def test_automatic_answers_to_one_opponent_travel_in_one_mail(make_player) -> None:
    """Two files reach bob in two mails before his daemon looks; his program answers each at
    once, and both answers go to alice in one mail, in order, and only once."""
    alice, bob = make_player("alice"), make_player("bob")
    first = fx.make_turn(GAME, 1, {"invite": {"axis": alice.address, "allies": bob.address, "autoplay_until": 4}})
    for n, (name, data) in enumerate((first, fx.make_turn(GAME, 3)), 1):
        send_raw(alice, bob.address, turn_mail(alice.address, bob.address, name, data))
        # One at a time: Postfix may deliver two mails sent together in either order.
        wait_until(lambda n=n: count(bob) == n, 10, what=f"mail {n} in bob's inbox")
    b = bob.daemon()
    report = b.cycle()
    assert report.statuses == {"applied": 2} and report.queued == 2 and report.sent == 2
    assert [int(e["seq"]) for e in fx.ledger(bob.workspace)] == [1, 2, 3, 4]
    wait_until(lambda: count(alice) == 1, 10, what="the answers at alice")
    (mail,) = [parse(raw) for raw in fetch_all(alice)]
    names = [p.get_filename() for p in mail.iter_attachments()]
    assert names == [f"{GAME}-00002-allies.pbem", f"{GAME}-00004-allies.pbem"]
    b.cycle()
    b.cycle()
    assert count(alice) == 1  # sent once: a restart or a later cycle sends nothing again


def test_several_files_in_one_mail_are_applied_in_order(make_player) -> None:
    """A mail carrying files 1 and 3 (attached last first) is applied 1, then 3: the file that
    came early waits for its predecessor, and each is answered once."""
    alice, bob = make_player("alice"), make_player("bob")
    files = [
        fx.make_turn(GAME, 3),
        fx.make_turn(GAME, 1, {"invite": {"axis": alice.address, "allies": bob.address, "autoplay_until": 4}}),
    ]
    msg = turn_mail(alice.address, bob.address, *files[0])
    msg.add_attachment(files[1][1], maintype="application", subtype="octet-stream", filename=files[1][0])
    send_raw(alice, bob.address, msg)
    b = bob.daemon()
    wait_until(lambda: count(bob, "pbem") == 1, 10, step=b.cycle, what="the mail handled")
    assert [int(e["seq"]) for e in fx.ledger(bob.workspace)] == [1, 2, 3, 4]
    wait_until(lambda: count(alice) == 1, 10, what="the answers at alice")
    (mail,) = [parse(raw) for raw in fetch_all(alice)]
    assert [p.get_filename() for p in mail.iter_attachments()] == [
        f"{GAME}-00002-allies.pbem",
        f"{GAME}-00004-allies.pbem",
    ]


def test_the_notice_of_a_real_game_names_the_advance_and_tells_the_combats(make_player, tmp_path: Path) -> None:
    """A 1939 game played by files up to the allies' dice value that finishes the axis'
    attacks; that file reaches the axis by mail.  The axis' daemon answers with its own dice
    value (kept for the next file), and its inbox then holds one mail: the notice, naming the
    advance (not the roll the file left), with the combats since the axis' combat orders and
    a picture of them."""
    engine_link.use(None)
    homes = {side: tmp_path / f"home-{side}" for side in ("axis", "allies")}
    axis = make_player(
        "axis",
        extra=f'home = "{homes["axis"]}"\n[notify]\nmail = true\nhold_seconds = 0',
        exchange="pbem.play.exchange",
    )
    allies = make_player("allies")
    keys.keygen("axis-p", axis.address, directory=homes["axis"])
    keys.keygen("allies-p", allies.address, directory=homes["allies"])
    ws = {"axis": Workspace(axis.workspace), "allies": Workspace(allies.workspace)}
    opponent = keys.read_public_key(homes["allies"] / "allies-p.pub")
    gid, _ = games.new_game(
        ws["axis"], "1939", "axis", "axis-p", opponent, opponent_email=allies.address, home=homes["axis"]
    )
    games.join(ws["allies"], next(ws["axis"].outbox.glob("*.pbem")), "allies-p", home=homes["allies"])
    carried: set[str] = set()

    def carry(to: str) -> None:
        source = ws["allies" if to == "axis" else "axis"]
        for path in sorted(source.outbox.glob("*.pbem")):
            if path.name not in carried:
                carried.add(path.name)
                copy = tmp_path / path.name
                shutil.copy(path, copy)
                res = exchange.import_file(ws[to].root, copy, home=homes[to])
                assert res.status in ("applied", "duplicate"), res.message

    def game(side: str) -> machine.Game:
        found = LocalGame(ws[side], gid, homes[side]).game()
        assert found is not None
        return found

    carry("axis")  # the join
    for _ in range(40):
        side = machine.expected(game("axis")).side  # type: ignore[union-attr]
        other = "allies" if side == "axis" else "axis"
        t = turn.my_turn(LocalGame(ws[side], gid, homes[side]))
        if machine.expected(t.work).side == side:  # type: ignore[union-attr]
            turn.bot_play(ws[side], gid, home=homes[side])
        carry(other)
        waiting = machine.expected(game("allies"))
        phase = phase_name(engine_link.api().decision(game("allies").state).phase)
        if waiting is not None and (waiting.side, waiting.kind, phase) == ("axis", "dice", "Axis combat roll"):
            break
        carry(side)
    else:
        raise AssertionError("the axis never attacked in 40 files")
    # The allies' dice value goes by mail; the files before it were carried by hand.
    (path,) = [p for p in sorted(ws["allies"].outbox.glob("*.pbem")) if p.name not in carried]
    send_raw(allies, axis.address, turn_mail(allies.address, axis.address, path.name, path.read_bytes()))
    seq = int(path.name.split("-")[1])
    daemon = MailDaemon(axis.config)
    wait_until(lambda: count(axis, "pbem") == 1 and count(axis) == 1, 60, step=daemon.cycle, what="the notice")
    kept = exchange.file_report(axis.workspace, gid, seq, home=homes["axis"])
    assert kept is not None and kept["subject"] == "1939-09 Axis combat roll"  # what notices used to name
    (notice,) = [parse(raw) for raw in fetch_all(axis)]
    assert notice["Subject"] == f"[pbem] your move: 1939-09 Axis advance - game {gid}"
    body = notice.get_body(preferencelist=("plain",))
    assert body is not None
    text = body.get_content()
    short = text[text.index("Since your last decision:") : text.index(f"game {gid} (axis), file {seq}")]
    assert re.search(r"attack on .* by the Axis: odds \d+\.\d\d, dice 0\.\d{3} \(defender\)", short), short
    assert "your automatic answer (it goes out with your next file)" in text  # my own dice, in full
    (picture,) = list(notice.iter_attachments())
    assert picture.get_filename() == f"{gid}-{seq:05d}-now.png"
    assert picture.get_content()[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_sitting_of_decisions_yields_one_notice(make_player) -> None:
    """Bob sits at the game: he decides three times, each time alice's program answers at
    once, and each answer makes it his move again.  His inbox holds one notice, mailed after
    he left, naming the file awaited then."""
    alice = make_player("alice")
    bob = make_player("bob", extra="[notify]\nmail = true\nhold_seconds = 4")
    fx.new_game(alice.workspace, GAME, "axis", alice.address, bob.address, autoplay_until=7, opponent_autoplay=0)
    a, b = alice.daemon(), bob.daemon()

    def bob_awaits(seq: int) -> None:
        wait_until(
            lambda: (
                GAME in fx.games(bob.workspace)  # bob's program may not have fetched file 1 yet
                and fx.game_info(bob.workspace, GAME).status_line == f"file {seq} is allies's to write"
            ),
            30,
            step=lambda: (a.cycle(), b.cycle()),
            what=f"file {seq - 1} at bob",
        )

    for seq in (2, 4, 6):
        bob_awaits(seq)
        fx.seal(bob.workspace, GAME)  # bob decides at once: he is at the table
    bob_awaits(8)
    wait_until(lambda: count(bob) >= 1, 30, step=b.cycle, what="the notice after bob left")
    for _ in range(3):
        b.cycle()
    (notice,) = [parse(raw) for raw in fetch_all(bob)]
    assert notice["Subject"].startswith("[pbem] your move:")
    body = notice.get_body(preferencelist=("plain",))
    assert body is not None and "file 8 is allies's to write" in body.get_content()
