"""The send queue: back-off, persistence across restarts, failed entries kept."""

from __future__ import annotations

import logging
from pathlib import Path
from types import SimpleNamespace

import aiosmtplib
import pytest

from pbem.mail.daemon import MailDaemon
from pbem.mail.message import sha256_hex
from pbem.mail.outqueue import FAILED, PENDING, SENT, Entry, SendQueue
from pbem.mail.smtp import PERMANENT, TEMPORARY, classify
from pbem.mail.threads import ThreadBook


def entry(key: str) -> Entry:
    return Entry(
        key=key,
        kind="turn",
        recipient="b@example.org",
        message_id=f"<{key}@x>",
        references=[],
        filename=f"{key}.pbem",
        sha256="00",
    )


def test_backoff_doubles_up_to_the_cap(tmp_path: Path) -> None:
    q = SendQueue(tmp_path, base_delay=10, max_delay=60)
    assert [q.delay_for(n) for n in range(1, 6)] == [10, 20, 40, 60, 60]
    e = entry("a")
    q.add(e)
    assert q.mark_retry(e, "451 later", now=1000.0) == 10
    assert q.due(now=1005.0) == [] and q.due(now=1010.0) == [e]
    assert q.mark_retry(e, "451 later", now=1010.0) == 20
    assert q.next_due_at() == 1030.0


def test_queue_survives_a_restart(tmp_path: Path) -> None:
    q = SendQueue(tmp_path, 1, 8)
    a, b, c = entry("a"), entry("b"), entry("c")
    for e in (a, b, c):
        q.add(e)
    q.mark_sent(a)
    q.mark_failed(b, "550 no such user")
    q.mark_retry(c, "connection refused", now=0.0)
    again = SendQueue(tmp_path, 1, 8)
    assert {k: e.status for k, e in again.entries.items()} == {"a": SENT, "b": FAILED, "c": PENDING}
    assert again.entries["b"].last_error == "550 no such user"
    assert again.entries["c"].attempts == 1
    assert again.retry_failed() == 1
    assert SendQueue(tmp_path, 1, 8).entries["b"].status == PENDING


def test_adding_twice_changes_nothing(tmp_path: Path) -> None:
    q = SendQueue(tmp_path, 1, 8)
    q.add(entry("a"))
    q.mark_sent(q.entries["a"])
    q.add(entry("a"))
    assert q.entries["a"].status == SENT


def test_classify_smtp_errors() -> None:
    refused = aiosmtplib.SMTPRecipientsRefused([aiosmtplib.SMTPRecipientRefused(450, "later", "b@x")])
    assert classify(refused).status == TEMPORARY
    refused = aiosmtplib.SMTPRecipientsRefused([aiosmtplib.SMTPRecipientRefused(550, "no", "b@x")])
    assert classify(refused).status == PERMANENT
    assert classify(aiosmtplib.SMTPDataError(552, "too big")).status == PERMANENT
    assert classify(aiosmtplib.SMTPDataError(451, "local error")).status == TEMPORARY
    assert classify(aiosmtplib.SMTPServerDisconnected("gone")).status == TEMPORARY
    assert classify(ConnectionResetError("reset")).status == TEMPORARY


def test_thread_references(tmp_path: Path) -> None:
    book = ThreadBook(tmp_path)
    gid = "0123456789ab"
    assert book.references(gid) == ["<game-0123456789ab@pbem.invalid>"]
    for i in range(30):
        book.add(gid, f"<m{i}@x>")
    book.add(gid, "not-an-id")
    book.flush()
    refs = ThreadBook(tmp_path).references(gid)
    assert refs[0] == "<game-0123456789ab@pbem.invalid>" and refs[-1] == "<m29@x>"
    assert len(refs) <= 12


def test_files_a_claim_says_never_arrived_are_sent_again(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """The daemon's answer to a claim that crossed my file sent in time: the game layer put the
    file back in outbox/ byte for byte, and the queue, which sent it once, sends it again."""
    q = SendQueue(tmp_path, 1, 8)
    sent = tmp_path / "0123456789ab-00002-allies.pbem"
    sent.write_bytes(b"my file 2")
    key = f"{sent.name}:{sha256_hex(sent.read_bytes())}"
    e = entry("x")
    e.key = key
    q.add(e)
    q.mark_sent(e)
    other = entry("y")
    q.add(other)
    q.mark_sent(other)
    with caplog.at_level(logging.WARNING):
        MailDaemon._send_again(SimpleNamespace(queue=q), [sent])  # type: ignore[arg-type]
    again = SendQueue(tmp_path, 1, 8)
    assert again.entries[key].status == PENDING and again.entries[key] in again.due()
    assert again.entries["y"].status == SENT  # only the files named
    assert "DISPUTE" in caplog.text and "sent again" in caplog.text
