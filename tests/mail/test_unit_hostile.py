"""Hostile mail must never stop the daemon or the bot mailbox: each is read as "nothing to
import, one line in the log" (issue "Close the holes", point 2)."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from pbem.mail.message import (
    MAX_HEADERS,
    MAX_PARTS,
    Unreadable,
    build_text_mail,
    build_turn_mail,
    clean_address,
    parse_mail,
    parse_turn_name,
)
from pbem.mail.outqueue import SendQueue
from pbem.mail.store import load_json, mail_dir
from pbem.mail.threads import ThreadBook

GAME = "0123456789ab"


def nested_mail(depth: int) -> bytes:
    head = b"From: eve@example.org\r\nMessage-ID: <deep@example.org>\r\nMIME-Version: 1.0\r\n"
    opening = b"".join(b'Content-Type: multipart/mixed; boundary="b%d"\r\n\r\n--b%d\r\n' % (i, i) for i in range(depth))
    closing = b"".join(b"--b%d--\r\n" % i for i in reversed(range(depth)))
    return head + opening + b"Content-Type: text/plain\r\n\r\nhi\r\n" + closing


def test_a_mail_nested_a_thousand_deep_is_refused_not_a_crash() -> None:
    with pytest.raises(Unreadable, match="nested"):
        parse_mail(nested_mail(1000), 1 << 20)


def test_mails_over_the_reading_limits_are_unreadable_not_a_crash() -> None:
    head = b"From: eve@example.org\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=b\r\n\r\n"
    many_parts = (
        head + b"".join(b"--b\r\nContent-Type: text/plain\r\n\r\nx\r\n" for _ in range(MAX_PARTS + 1)) + b"--b--\r\n"
    )
    with pytest.raises(Unreadable, match="parts"):
        parse_mail(many_parts, 1 << 20)
    many_headers = b"".join(b"X-H%d: v\r\n" % i for i in range(MAX_HEADERS + 1)) + b"\r\nbody\r\n"
    with pytest.raises(Unreadable, match="header fields"):
        parse_mail(many_headers, 1 << 20)
    with pytest.raises(Unreadable, match="over the limit of 100"):
        parse_mail(b"From: eve@example.org\r\n\r\n" + b"x" * 200, 1 << 20, max_bytes=100)


def test_a_sender_that_is_not_one_plain_address_is_dropped() -> None:
    for given in ("eve@example.org, bob@example.org", "eve@exa\r\n mple.org", '"e v"@example.org'):
        raw = f"From: {given}\r\nSubject: s\r\n\r\nbody\r\n".encode()
        assert parse_mail(raw, 1 << 20).sender == "", given
    assert clean_address(" Eve@Example.ORG ") == "eve@example.org"
    assert clean_address("eve@example.org\n") == "eve@example.org"  # surrounding space only
    assert clean_address("eve@exa\nmple.org") == clean_address("a@b.c,d@e.f") == ""


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
    (mail_dir(tmp_path) / "threads.json").write_text(json.dumps({GAME: [bad, "<ok@example.org>"]}))
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


def test_a_damaged_state_file_is_set_aside_with_one_line_not_a_crash_at_every_start(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = mail_dir(tmp_path) / "threads.json"
    path.write_bytes(b"\x00{not json")
    caplog.set_level(logging.WARNING, logger="pbem.mail")
    assert ThreadBook(tmp_path).references(GAME) == [f"<game-{GAME}@pbem.invalid>"]
    assert not path.exists()
    aside = list(path.parent.glob("threads.json.bad-*"))
    assert len(aside) == 1 and aside[0].read_bytes() == b"\x00{not json"
    lines = [r.getMessage() for r in caplog.records if "set aside" in r.getMessage()]
    assert len(lines) == 1 and "threads.json" in lines[0]
    ThreadBook(tmp_path)  # the next start is quiet
    assert len([r for r in caplog.records if "set aside" in r.getMessage()]) == 1
    # The right JSON of the wrong shape is set aside too.
    path.write_text(json.dumps({GAME: "not a list"}))
    assert ThreadBook(tmp_path).games == {}
    assert load_json(path, "default") == "default"


def test_bad_records_of_the_send_queue_are_set_aside_and_the_good_ones_kept(tmp_path: Path) -> None:
    good = {"key": "k1", "kind": "turn", "recipient": "b@example.org", "message_id": "<m@x>", "references": []}
    bad = [{"key": "k2", "kind": "turn"}, "junk", {**good, "key": "k3", "attempts": "many"}, {**good, "evil": 1}]
    path = mail_dir(tmp_path) / "queue.json"
    path.write_text(json.dumps({"entries": [good, *bad]}))
    queue = SendQueue(tmp_path, 1, 10)
    assert list(queue.entries) == ["k1"]
    aside = list(path.parent.glob("queue.json.bad-*"))
    assert len(aside) == 1 and json.loads(aside[0].read_text()) == bad
    assert [e["key"] for e in json.loads(path.read_text())["entries"]] == ["k1"]
