"""The sending side: files in ``outbox/`` become queued mails, due mails go out over SMTP.

A file is queued once per content (name and hash), addressed to the opponent of
its game, with a Message-ID derived from its content and References that
thread it with the rest of the game. Sending happens in batches over one SMTP
connection; outcomes are sorted into sent, retry later (4xx, connection
trouble) and failed for good (5xx), see :mod:`pbem.mail.outqueue`.
"""

from __future__ import annotations

import contextlib
import logging
import os
from collections.abc import Callable
from email.message import EmailMessage
from pathlib import Path
from typing import Any

from pbem.mail import smtp
from pbem.mail.config import MailConfig
from pbem.mail.exchange_api import Exchange
from pbem.mail.logline import game_context
from pbem.mail.message import (
    TURN_NAME,
    Attachment,
    TurnName,
    build_text_mail,
    build_turn_mail,
    clean_address,
    parse_turn_name,
    sha256_hex,
    turn_message_id,
)
from pbem.mail.notify import notice_game, turn_mail_text
from pbem.mail.outqueue import Entry, SendQueue
from pbem.mail.store import crash_point
from pbem.mail.threads import ThreadBook

# How long a worker may hold a mail it is sending before another worker sends it instead; a
# worker found silent for the claim timeout loses its leases sooner (see MailDaemon).
LEASE_SECONDS = 3600.0

log = logging.getLogger("pbem.mail")


# Files in one mail at most: well below what the receiver reads of one mail (MAX_MULTIPARTS).
MAX_BUNDLE = 8


def bundles(due: list[Entry]) -> list[list[Entry]]:
    """Due entries as mails: the turn files of one game to one receiver that are due together
    travel in one mail, in the order of their numbers (a side's files follow each other when
    it answers an automatic step and then decides, or joins and then makes its first
    decision).  Notices and contact statements go alone, and an invitation goes alone or
    after the parent files of its branch, which its receiver needs first.  An entry handed
    to SMTP before (its sending cut short, or refused for now) goes again in the mail it
    went in, with the same files only."""
    mails: list[list[Entry]] = []
    open_groups: dict[tuple[str, str, bool], list[Entry]] = {}
    carried: dict[str, list[Entry]] = {}
    for entry in due:
        if entry.carried_by:
            if entry.carried_by not in carried:
                carried[entry.carried_by] = []
                mails.append(carried[entry.carried_by])
            carried[entry.carried_by].append(entry)
            continue
        turn = parse_turn_name(entry.filename) if entry.kind == "turn" else None
        if turn is None or turn.side == "contact":
            mails.append([entry])
            continue
        group = open_groups.get((turn.game_id, entry.recipient, turn.seq == 0))
        if group is None or len(group) >= MAX_BUNDLE:
            group = open_groups[(turn.game_id, entry.recipient, turn.seq == 0)] = []
            mails.append(group)
        group.append(entry)
    # The parent files first: they are imported before the invitation that needs them.
    return [sorted(m, key=lambda e: (not e.filename.endswith("-parent.pbem"), e.filename)) for m in mails]


class Outbox:
    def __init__(
        self, config: MailConfig, exchange: Exchange, queue: SendQueue, threads: ThreadBook, home_kw: dict[str, Path]
    ) -> None:
        self.config = config
        self.exchange = exchange
        self.queue = queue
        self.threads = threads
        self.home_kw = home_kw
        self.workspace = config.workspace
        self.outbox = config.workspace / "outbox"
        self.outbox.mkdir(exist_ok=True)
        self._hash_cache: dict[tuple[str, int, int], str] = {}
        self._outbox_mark: tuple[tuple[str, int], ...] = ()
        self._warned: set[str] = set()
        self._pictures: dict[str, list[Attachment]] = {}
        self.worker = ""

    def start(self) -> None:
        """Mails this worker (or this lone daemon) was sending when it was stopped are due again."""
        with self.queue.locked():
            self.queue.release_leases(self.worker)

    def files(self) -> list[Path]:
        try:
            names = sorted(os.listdir(self.outbox))
        except FileNotFoundError:
            return []
        return [self.outbox / n for n in names if TURN_NAME.match(n)]

    def mark(self) -> tuple[tuple[str, int], ...]:
        marks = []
        for path in self.files():
            with contextlib.suppress(OSError):
                marks.append((path.name, path.stat().st_mtime_ns))
        return tuple(marks)

    def _digest(self, path: Path) -> str | None:
        try:
            st = path.stat()
            key = (path.name, st.st_size, st.st_mtime_ns)
            if key not in self._hash_cache:
                self._hash_cache[key] = sha256_hex(path.read_bytes())
            return self._hash_cache[key]
        except OSError:
            return None

    def enqueue(self, count: Callable[[str], None]) -> None:
        """Queue every new file of outbox/; ``count`` hears \"queued\" for each."""
        self._outbox_mark = self.mark()
        fresh = []
        for path in self.files():
            digest = self._digest(path)
            turn = parse_turn_name(path.name)
            if digest is not None and turn is not None and f"{path.name}:{digest}" not in self.queue:
                fresh.append((path, turn, digest))
        if not fresh:
            return
        with self.queue.locked():
            for path, turn, digest in fresh:
                key = f"{path.name}:{digest}"
                if key in self.queue:  # another worker queued it meanwhile
                    continue
                with game_context(turn.game_id):
                    entry = self._entry(path, turn, digest, key)
                if entry is not None:
                    self.queue.add(entry, save=False)
                    self.threads.add(turn.game_id, entry.message_id)
                    count("queued")
        self.threads.flush()

    def _entry(self, path: Path, turn: TurnName, digest: str, key: str) -> Entry | None:
        try:
            info = self.exchange.game_info(self.workspace, turn.game_id, **self.home_kw)
            given = str(info.opponent_email or "")
            # A hand-over's files go to the other holder, who passes the sealed one on to
            # the opponent (optional in a game layer).
            handing = turn.side in ("offer", "accept") or turn.seq == getattr(info, "handed_over_at", 0)
            peer: object = getattr(info, "handover_peer", "")
            if handing and peer:
                given = str(peer)
        except Exception as err:
            self._warn_once(key, f"{path.name} waits in outbox/: game {turn.game_id} is unknown here ({err})")
            return None
        recipient = clean_address(given)
        if not recipient:
            self._warn_once(
                key, f"{path.name} waits in outbox/: the opponent address {given!r} of game {turn.game_id} "
                "is not one plain mail address"
            )  # fmt: skip
            return None
        message_id = turn_message_id(turn, digest, self.config.domain)
        return Entry(
            key=key,
            kind="turn",
            recipient=recipient,
            message_id=message_id,
            references=self.threads.references(turn.game_id),
            filename=path.name,
            sha256=digest,
        )

    def _warn_once(self, key: str, line: str) -> None:
        if key not in self._warned:
            self._warned.add(key)
            log.warning("%s", line)

    def send_due(self, count: Callable[[str], None]) -> None:
        """Send what is due; ``count`` hears \"sent\", \"deferred\" or \"failed\" per file or notice."""
        if not self.queue.due():
            return
        with self.queue.locked():
            groups = bundles(self.queue.due())
            for group in groups:
                for entry in group:
                    entry.carried_by = group[-1].message_id
                    self.queue.lease(entry, self.worker, LEASE_SECONDS)
        batch: list[tuple[list[Entry], Any]] = []
        unbuildable: dict[str, str] = {}
        for group in groups:
            present = []
            for entry in group:
                if entry.kind == "turn" and self._file(entry) is None:
                    unbuildable[entry.key] = f"{entry.filename} is no longer in outbox/"
                else:
                    present.append(entry)
            if not present:
                continue
            try:
                msg = self.build_mail(present)
            except Exception as err:  # a queued value no header can carry must never stop the daemon
                reason = f"the mail cannot be written: {' '.join(str(err).split())[:200]}"
                unbuildable.update((entry.key, reason) for entry in present)
                continue
            batch.append((present, msg))
        outcomes = smtp.send_batch(self.config.smtp, [m for _, m in batch])
        crash_point()
        # One save for the whole batch: a crash before it only means these mails
        # go out once more, with the same Message-ID, and are recognised as duplicates.
        with self.queue.locked():
            for key, reason in unbuildable.items():
                entry = self.queue.entries[key]
                self.queue.mark_failed(entry, reason, save=False)
                count("failed")
                log.error("cannot send %s: %s (kept in the failed list)", entry.filename or entry.subject, reason)
            for (group, _), outcome in zip(batch, outcomes, strict=True):
                for sent in group:
                    self._record(self.queue.entries[sent.key], outcome, count)

    def _record(self, entry: Entry, outcome: smtp.Outcome, count: Callable[[str], None]) -> None:
        what = entry.filename or entry.subject
        if outcome.status != smtp.TEMPORARY:
            self._pictures.pop(entry.key, None)  # kept only for a retry: a bot sends thousands
        with game_context(entry.filename[:12] if entry.filename else "-"):
            if outcome.status == smtp.SENT:
                self.queue.mark_sent(entry, save=False)
                count("sent")
                log.info("sent %s to %s", what, entry.recipient)
            elif outcome.status == smtp.PERMANENT:
                self.queue.mark_failed(entry, outcome.detail, save=False)
                count("failed")
                log.error(
                    "FAILED to send %s to %s: %s — kept in the failed list "
                    "(`pbem mail status`; `pbem mail retry` after fixing it)",
                    what,
                    entry.recipient,
                    outcome.detail,
                )
            else:
                delay = self.queue.mark_retry(entry, outcome.detail, save=False)
                count("deferred")
                log.warning(
                    "could not send %s to %s yet: %s; retry %d in %.0f s",
                    what,
                    entry.recipient,
                    outcome.detail,
                    entry.attempts,
                    delay,
                )

    def _file(self, entry: Entry) -> tuple[TurnName, bytes] | None:
        """The queued file as it was queued, or None when it is gone or was changed since."""
        try:
            data = (self.outbox / entry.filename).read_bytes()
        except OSError:
            return None
        turn = parse_turn_name(entry.filename)
        if turn is None or sha256_hex(data) != entry.sha256:
            return None
        return turn, data

    def build(self, entry: Entry) -> EmailMessage | None:
        """The mail of one queued entry (None when its file is gone)."""
        if entry.kind == "turn" and self._file(entry) is None:
            return None
        return self.build_mail([entry])

    def build_mail(self, group: list[Entry]) -> EmailMessage:
        """One mail for a notice (with a picture of the position), or for consecutive files of
        one game to one receiver (see :func:`bundles`): every file attached as it was signed,
        in order, then the picture of the last; the last file's Message-ID, subject and
        picture, every file's report."""
        last = group[-1]
        if last.kind == "notify":
            return build_text_mail(
                sender=self.config.address,
                recipient=last.recipient,
                subject=last.subject,
                body=last.body,
                domain=self.config.domain,
                references=last.references,
                attachments=self.notice_picture(last.key),
            )
        files = [found for entry in group if (found := self._file(entry)) is not None]
        turn, data = files[-1]
        earlier = [t for t, _ in files[:-1]]
        subject, body = turn_mail_text(self.exchange, self.workspace, turn, self.home_kw, earlier)
        return build_turn_mail(
            sender=self.config.address,
            recipient=last.recipient,
            turn=turn,
            data=data,
            message_id=last.message_id,
            references=last.references,
            body=body,
            subject=subject,
            attachments=self.picture(last.key, turn),
            files_before=[Attachment(t.filename, d) for t, d in files[:-1]],
        )

    def picture(self, key: str, turn: TurnName) -> list[Attachment]:
        """The front as a PNG, made once per queued file: a mail retried later carries the same one."""
        lookup = getattr(self.exchange, "file_picture", None)
        if not self.config.attach_map or not callable(lookup) or turn.side == "contact":
            return []
        if key not in self._pictures:
            try:
                found = lookup(self.workspace, turn.game_id, turn.seq, **self.home_kw)
            except Exception as err:  # a turn mail goes out even when its picture cannot be made
                log.warning("no picture for %s: %s", turn.filename, err)
                found = None
            self._pictures[key] = [Attachment(*found)] if found else []
        return self._pictures[key]

    def notice_picture(self, key: str) -> list[Attachment]:
        """The position now as a PNG for a notice, made once: a notice retried later carries the same one."""
        lookup = getattr(self.exchange, "notice_picture", None)
        if not self.config.attach_map or not callable(lookup):
            return []
        if key not in self._pictures:
            try:
                found = lookup(self.workspace, notice_game(key), **self.home_kw)
            except Exception as err:  # a notice goes out even when its picture cannot be made
                log.warning("no picture for the notice %s: %s", key, err)
                found = None
            self._pictures[key] = [Attachment(*found)] if found else []
        return self._pictures[key]

    def changed(self) -> bool:
        """Did a file appear in (or change in) outbox/ since the last enqueue?"""
        return self.mark() != self._outbox_mark
