"""Send, fetch, thread and leave alone: the daemon against real Dovecot and Postfix."""

from __future__ import annotations

import email
import email.policy

import fake_exchange as fx
import pytest
from imaphelp import count, fetch_all, folder_flags, send_raw, turn_mail
from mailtesting import wait_until

from pbem.mail.message import thread_root

pytestmark = pytest.mark.mail
GAME = "a1b2c3d4e5f6"


def test_turn_file_goes_from_outbox_to_opponent_store(make_player) -> None:
    alice, bob = make_player("alice"), make_player("bob")
    fx.new_game(alice.workspace, GAME, "axis", alice.address, bob.address)
    a, b = alice.daemon(), bob.daemon()
    report = a.cycle()
    assert report.queued == 1 and report.sent == 1
    wait_until(
        lambda: [e["seq"] for e in fx.ledger(bob.workspace)] == [1], 10, step=b.cycle, what="bob to apply file 1"
    )
    # The mail left INBOX for the processed folder; the file sits in inbox/.
    assert count(bob) == 0 and count(bob, "pbem") == 1
    assert (bob.workspace / "inbox" / f"{GAME}-00001-axis.pbem").exists()
    mail = email.message_from_bytes(fetch_all(bob, "pbem")[0], policy=email.policy.default)
    assert GAME in mail["Subject"] and "00001" in mail["Subject"]
    assert mail["References"].split()[0] == thread_root(GAME)
    assert mail["In-Reply-To"] == thread_root(GAME)
    names = [p.get_filename() for p in mail.iter_attachments()]
    assert names == [f"{GAME}-00001-axis.pbem"]
    # A second cycle sends nothing again.
    assert a.cycle().sent == 0


def test_game_of_many_moves_is_one_thread(make_player) -> None:
    alice, bob = make_player("alice"), make_player("bob")
    moves = 12
    fx.new_game(alice.workspace, GAME, "axis", alice.address, bob.address, autoplay_until=moves)
    fx.new_game(bob.workspace, GAME, "allies", bob.address, alice.address, autoplay_until=moves)
    a, b = alice.daemon(), bob.daemon()

    def both() -> None:
        a.cycle()
        b.cycle()

    done = lambda: len(fx.ledger(alice.workspace)) == moves and len(fx.ledger(bob.workspace)) == moves  # noqa: E731
    wait_until(done, 60, step=both, what=f"{moves} moves")
    assert fx.history(alice.workspace) == fx.history(bob.workspace)
    mails = [
        email.message_from_bytes(raw, policy=email.policy.default)
        for raw in fetch_all(alice, "pbem") + fetch_all(bob, "pbem")
    ]
    by_seq = {int(m["X-Pbem-Seq"]): m for m in mails}
    assert sorted(by_seq) == list(range(1, moves + 1))
    for seq in range(2, moves + 1):
        # Each mail answers the one before it, and all share the game's root.
        assert by_seq[seq]["In-Reply-To"] == by_seq[seq - 1]["Message-ID"]
        assert by_seq[seq]["References"].split()[0] == thread_root(GAME)


def test_ordinary_mail_is_left_alone_and_unread(make_player) -> None:
    alice, bob = make_player("alice"), make_player("bob")
    plain = turn_mail(alice.address, bob.address, "holiday.jpg", b"\xff\xd8 picture", subject="photos")
    send_raw(alice, bob.address, plain)
    send_raw(alice, bob.address, b"Subject: hello\r\nFrom: x@pbem.test\r\n\r\nJust text.\r\n")
    # Postfix may deliver out of order under load: the daemon must meet both before the turn file.
    wait_until(lambda: count(bob) == 2, 10, what="the two ordinary mails")
    name, data = fx.make_turn(GAME, 1, {"invite": {"axis": alice.address, "allies": bob.address}})
    send_raw(alice, bob.address, turn_mail(alice.address, bob.address, name, data))
    b = bob.daemon()
    wait_until(lambda: len(fx.ledger(bob.workspace)) == 1, 10, step=b.cycle, what="the turn file")
    flags = folder_flags(bob)
    assert len(flags) == 2
    assert all(b"\\Seen" not in f for f in flags)
    assert count(bob, "pbem") == 1
    # Restarting the daemon does not look at them again either.
    b2 = bob.daemon()
    b2.cycle()
    assert len(folder_flags(bob)) == 2 and all(b"\\Seen" not in f for f in folder_flags(bob))


def test_flag_mode_keeps_mail_in_place(make_player) -> None:
    alice = make_player("alice")
    bob = make_player("bob", imap_extra='processed = "flag"')
    name, data = fx.make_turn(GAME, 1, {"invite": {"axis": alice.address, "allies": bob.address}})
    send_raw(alice, bob.address, turn_mail(alice.address, bob.address, name, data))
    b = bob.daemon()
    wait_until(lambda: len(fx.ledger(bob.workspace)) == 1, 10, step=b.cycle, what="the turn file")
    flags = folder_flags(bob)
    assert len(flags) == 1 and b"\\Seen" in flags[0] and b"$PbemDone" in flags[0]
