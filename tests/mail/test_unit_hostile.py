"""Hostile mail must never stop the daemon or the bot mailbox: each is read as "nothing to
import, one line in the log" (issue "Close the holes", point 2)."""

from __future__ import annotations

from pathlib import Path

from pbem.mail.message import build_text_mail, build_turn_mail, parse_mail, parse_turn_name
from pbem.mail.threads import ThreadBook

GAME = "0123456789ab"


def nested_mail(depth: int) -> bytes:
    head = b"From: eve@example.org\r\nMessage-ID: <deep@example.org>\r\nMIME-Version: 1.0\r\n"
    opening = b"".join(b'Content-Type: multipart/mixed; boundary="b%d"\r\n\r\n--b%d\r\n' % (i, i) for i in range(depth))
    closing = b"".join(b"--b%d--\r\n" % i for i in reversed(range(depth)))
    return head + opening + b"Content-Type: text/plain\r\n\r\nhi\r\n" + closing


def test_a_mail_nested_a_thousand_deep_is_refused_not_a_crash() -> None:
    mail = parse_mail(nested_mail(1000), 1 << 20)
    assert mail.attachments == []
    assert mail.problems and "nested" in mail.problems[0]


def test_an_ordinary_nesting_is_still_read() -> None:
    assert parse_mail(nested_mail(3), 1 << 20).problems == []


def test_a_folded_message_id_is_dropped_and_never_reaches_a_reply(tmp_path: Path) -> None:
    raw = b"From: eve@example.org\r\nMessage-ID: <abc@x>\r\n <def@y>\r\nSubject: hi\r\n\r\nbody\r\n"
    mail = parse_mail(raw, 1 << 20)
    assert mail.message_id == ""
    book = ThreadBook(tmp_path)
    book.add(GAME, "<abc@x>\r\n <def@y>")
    book.add(GAME, "<ok@example.org>")
    assert book.references(GAME)[1:] == ["<ok@example.org>"]


def test_thread_records_and_queued_mails_written_before_the_check_still_send(tmp_path: Path) -> None:
    bad = "<abc@x>\n <def@y>"
    book = ThreadBook(tmp_path)
    book.games[GAME] = [bad, "<ok@example.org>"]
    book.dirty = True
    book.flush()
    assert ThreadBook(tmp_path).references(GAME)[1:] == ["<ok@example.org>"]
    turn = parse_turn_name(f"{GAME}-00002-axis.pbem")
    assert turn is not None
    refs = ["<root@example.org>", bad]
    mail = build_turn_mail(
        sender="a@example.org", recipient="b@example.org", turn=turn, data=b"x", message_id="<m@x>",
        references=refs, body="b",
    )  # fmt: skip
    assert mail["In-Reply-To"] == "<root@example.org>"
    text = build_text_mail(sender="a@example.org", recipient="b@example.org", subject="s", body="b", domain="x",
                           references=refs)  # fmt: skip
    assert bytes(text).count(b"def@y") == 0
