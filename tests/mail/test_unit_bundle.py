"""A side's files that are due together travel in one mail: each file attached as it was
signed, in order, under the last file's subject and Message-ID, with every file's report."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pbem.mail.config import parse_config
from pbem.mail.message import parse_mail, sha256_hex
from pbem.mail.outbox import MAX_BUNDLE, Outbox, bundles
from pbem.mail.outqueue import Entry, SendQueue
from pbem.mail.threads import ThreadBook

GAME, OTHER = "0123456789ab", "ba9876543210"


def entry(name: str, recipient: str = "you@example.org", kind: str = "turn") -> Entry:
    return Entry(
        key=f"{name}:k", kind=kind, recipient=recipient, message_id=f"<{name}@x>", references=[], filename=name
    )


def names(mails: list[list[Entry]]) -> list[list[str]]:
    return [[e.filename or e.kind for e in mail] for mail in mails]


def test_files_of_one_game_to_one_receiver_share_a_mail() -> None:
    due = [
        entry(f"{GAME}-00002-allies.pbem"),
        entry(f"{OTHER}-00005-axis.pbem"),
        entry(f"{GAME}-00001-allies.pbem"),
        entry("", kind="notify"),
        entry(f"{GAME}-00000-axis.pbem"),  # an invitation: alone, its mail says what it is
        entry(f"{GAME}-00003-contact.pbem"),  # a new address: not a turn
        entry(f"{GAME}-00004-allies.pbem", recipient="someone@else.org"),
    ]
    assert names(bundles(due)) == [
        [f"{GAME}-00001-allies.pbem", f"{GAME}-00002-allies.pbem"],
        [f"{OTHER}-00005-axis.pbem"],
        ["notify"],
        [f"{GAME}-00000-axis.pbem"],
        [f"{GAME}-00003-contact.pbem"],
        [f"{GAME}-00004-allies.pbem"],
    ]
    many = [entry(f"{GAME}-{seq:05d}-axis.pbem") for seq in range(1, MAX_BUNDLE + 3)]
    assert [len(m) for m in bundles(many)] == [MAX_BUNDLE, 2]


class Reports:
    def import_file(self, workspace: Path, path: Path) -> Any:
        raise AssertionError("not used")

    def game_info(self, workspace: Path, game_id: str) -> Any:
        raise AssertionError("not used")

    def file_report(self, workspace: Path, game_id: str, seq: int) -> dict[str, str]:
        return {"subject": f"1939-09 phase after {seq}", "text": f"file {seq} of game {game_id}: what it did"}


def test_one_mail_carries_the_files_in_order(tmp_path: Path) -> None:
    raw = {"address": "me@example.org", "workspace": str(tmp_path), "attach_map": False}
    config = parse_config({**raw, "imap": {"host": "i.example.org"}, "smtp": {"host": "s.example.org"}}, tmp_path)
    box = Outbox(config, Reports(), SendQueue(tmp_path, 1, 2), ThreadBook(tmp_path), {})  # type: ignore[arg-type]
    group = []
    for seq in (1, 2):
        name = f"{GAME}-{seq:05d}-allies.pbem"
        (box.outbox / name).write_bytes(f"signed file {seq}".encode())
        e = entry(name)
        e.sha256 = sha256_hex(f"signed file {seq}".encode())
        group.append(e)
    msg = box.build_mail(group)
    assert msg["Message-ID"] == f"<{GAME}-00002-allies.pbem@x>"
    assert msg["Subject"] == f"[pbem] 1939-09 phase after 2 - game {GAME}"
    body = msg.get_body(preferencelist=("plain",)).get_content()
    assert body.index(f"file 1 of game {GAME}") < body.index(f"file 2 of game {GAME}")
    assert "carries files 1, 2 of the pbem game" in body
    got = parse_mail(bytes(msg), 1 << 20)
    assert [(a.filename, a.data) for a in got.attachments] == [
        (f"{GAME}-00001-allies.pbem", b"signed file 1"),
        (f"{GAME}-00002-allies.pbem", b"signed file 2"),
    ]


class Killed(Exception):
    """Stands for a kill between SMTP's acceptance and the queue's record of it."""


def test_a_file_sent_again_after_a_kill_goes_in_the_same_mail_only(tmp_path: Path, monkeypatch) -> None:
    from pbem.mail import outbox, smtp

    raw = {"address": "me@example.org", "workspace": str(tmp_path), "attach_map": False}
    config = parse_config({**raw, "imap": {"host": "i.example.org"}, "smtp": {"host": "s.example.org"}}, tmp_path)
    delivered: list[tuple[str, list[str]]] = []

    def send_batch(cfg: Any, mails: list[Any]) -> list[smtp.Outcome]:
        for msg in mails:
            delivered.append((str(msg["Message-ID"]), [p.get_filename() for p in msg.iter_attachments()]))
        return [smtp.Outcome(smtp.SENT, "") for _ in mails]

    def kill() -> None:
        raise Killed

    monkeypatch.setattr(smtp, "send_batch", send_batch)
    monkeypatch.setattr(outbox, "crash_point", kill)

    def restart() -> Outbox:
        box = Outbox(config, Reports(), SendQueue(tmp_path, 1, 2), ThreadBook(tmp_path), {})  # type: ignore[arg-type]
        box.start()
        return box

    def queue_file(box: Outbox, seq: int) -> None:
        name = f"{GAME}-{seq:05d}-allies.pbem"
        (box.outbox / name).write_bytes(f"signed file {seq}".encode())
        e = entry(name)
        e.sha256 = sha256_hex(f"signed file {seq}".encode())
        with box.queue.locked():
            box.queue.add(e, save=False)

    box = restart()
    queue_file(box, 1)
    queue_file(box, 2)
    with pytest.raises(Killed):
        box.send_due(lambda what: None)
    box = restart()  # files 1 and 2 are due again, and the answer to them has come: file 4
    queue_file(box, 4)
    monkeypatch.setattr(outbox, "crash_point", lambda: None)
    box.send_due(lambda what: None)
    ids = {name: {mid for mid, names in delivered if name in names} for _, names in delivered for name in names}
    # Files 1 and 2 arrive twice in the very same mail (a duplicate the receiver recognises); 4 alone.
    assert ids == {
        f"{GAME}-00001-allies.pbem": {f"<{GAME}-00002-allies.pbem@x>"},
        f"{GAME}-00002-allies.pbem": {f"<{GAME}-00002-allies.pbem@x>"},
        f"{GAME}-00004-allies.pbem": {f"<{GAME}-00004-allies.pbem@x>"},
    }
    assert [names for _, names in delivered] == [
        [f"{GAME}-00001-allies.pbem", f"{GAME}-00002-allies.pbem"],
        [f"{GAME}-00001-allies.pbem", f"{GAME}-00002-allies.pbem"],
        [f"{GAME}-00004-allies.pbem"],
    ]
