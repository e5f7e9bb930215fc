"""The mail daemon: fetch turn files, hand them to the game layer, mail what it answers.

One cycle:

1. fetch mail newer than the remembered IMAP position; for each turn-file
   attachment, save it into ``inbox/`` and call ``import_file``; then move the
   mail out of the way and advance the position;
2. put every new file of ``outbox/`` into the send queue, addressed to the
   opponent of its game;
3. send what is due; retry temporary failures later, keep permanent ones.

Between cycles the daemon waits on IMAP IDLE (or polls), waking early when a
file appears in ``outbox/`` or a retry falls due. Every step is idempotent, so
a kill at any instant followed by a restart loses nothing and applies nothing
twice (the game layer answers "duplicate" for a file it already has).
"""

from __future__ import annotations

import contextlib
import json
import logging
import signal
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pbem.durable import remove_private_temps
from pbem.errors import PbemError
from pbem.mail.config import MailConfig, identity_mismatch
from pbem.mail.exchange_api import Exchange, load_exchange
from pbem.mail.imap import IMAP_ERRORS, ImapMailbox, describe_imap_error
from pbem.mail.message import Attachment, parse_mail, parse_turn_name, sha256_hex
from pbem.mail.notify import Notifier
from pbem.mail.outbox import Outbox
from pbem.mail.outqueue import SendQueue
from pbem.mail.store import load_json, mail_dir, save_json, workspace_lock, write_atomic
from pbem.mail.threads import ThreadBook

log = logging.getLogger("pbem.mail")

# A mail can be a third larger than its attachment (base64) plus headers and text.
MAIL_OVERHEAD_BYTES = 256 * 1024
SEEN_LIMIT = 20000  # remembered content hashes of imported files; old ones age out


@dataclass
class CycleReport:
    fetched: int = 0  # turn files taken out of mail
    statuses: dict[str, int] = field(default_factory=dict)  # import status -> count
    refused: int = 0  # attachments refused before import (name, size, encoding, sender)
    queued: int = 0
    sent: int = 0
    deferred: int = 0
    failed: int = 0
    imap_error: str = ""
    more: bool = False  # more new mail waits on the server: cycle again at once

    def add(self, what: str) -> None:
        setattr(self, what, getattr(self, what) + 1)

    def count(self, status: str) -> None:
        self.statuses[status] = self.statuses.get(status, 0) + 1

    def line(self) -> str:
        imports = ", ".join(f"{k} {v}" for k, v in sorted(self.statuses.items())) or "none"
        text = (
            f"fetched {self.fetched} turn file(s) (imports: {imports}; refused {self.refused}); "
            f"queued {self.queued}, sent {self.sent}, deferred {self.deferred}, failed {self.failed}"
        )
        return text + (f"; IMAP: {self.imap_error}" if self.imap_error else "")


# Called after each import: (game_id, status, import result or None when the import failed).
ImportHook = Callable[[str, str, Any], None]
# Decides whether a turn file from this sender may be imported: (sender, game_id) -> reason or None.
SenderPolicy = Callable[[str, str], str | None]


class MailDaemon:
    def __init__(self, config: MailConfig, exchange: Exchange | None = None) -> None:
        self.config = config
        self.workspace = config.workspace
        if not self.workspace.is_dir():
            raise PbemError(
                f"workspace {self.workspace} does not exist — check the workspace setting", code="mail-config"
            )
        mismatch = identity_mismatch(config, self.identity_names())
        if mismatch:
            raise PbemError(mismatch, code="mail-config")
        self.inbox = self.workspace / "inbox"
        self.inbox.mkdir(exist_ok=True)
        self.exchange = exchange if exchange is not None else load_exchange(config.exchange)
        # The identity directory is passed on only when configured, so a game layer
        # with the plain two-argument contract works too.
        self.home_kw: dict[str, Any] = {"home": config.home} if config.home is not None else {}
        self.queue = SendQueue(self.workspace, config.retry.base_seconds, config.retry.max_seconds)
        self.threads = ThreadBook(self.workspace)
        self.mailbox = ImapMailbox(config.imap, config.imap_options, self.workspace)
        self.sender = Outbox(config, self.exchange, self.queue, self.threads, self.home_kw)
        self.notifier = Notifier(config, self.exchange, self.queue, self.threads)
        self.on_imported: list[ImportHook] = [self.notifier.after_import]
        self.sender_policy: SenderPolicy | None = None
        self._seen_path = mail_dir(self.workspace) / "seen.json"
        self._seen: list[str] = load_json(self._seen_path, [])
        self._seen_set = set(self._seen)
        self._seen_dirty = False
        self._imap_backoff = 1.0
        self._imap_next_try = 0.0
        self.stopping = False

    def identity_names(self) -> list[str]:
        """The identities this mailbox serves: mine in each game of the workspace."""
        names = []
        for meta in sorted((self.workspace / ".pbem" / "games").glob("*/meta.json")):
            with contextlib.suppress(OSError, ValueError, AttributeError):
                me = json.loads(meta.read_text(encoding="utf-8")).get("me")
                if isinstance(me, str):
                    names.append(me)
        return names

    # --- one cycle -----------------------------------------------------------------------------
    def cycle(self) -> CycleReport:
        report = CycleReport()
        self.fetch(report)
        self.send(report)
        return report

    def send(self, report: CycleReport) -> None:
        """Queue what is new in outbox/, then send what is due."""
        self.sender.enqueue(report.add)
        self.sender.send_due(report.add)

    def fetch(self, report: CycleReport) -> None:
        if self.mailbox.client is None:
            if time.monotonic() < self._imap_next_try:
                report.imap_error = "waiting before reconnecting"
                return
            try:
                self.mailbox.connect()
                self._imap_backoff = 1.0
            except PbemError as err:
                self._imap_failed(report, str(err))
                return
            except IMAP_ERRORS as err:
                self._imap_failed(report, describe_imap_error(self.config.imap, err))
                return
        try:
            self._fetch_round(report)
        except IMAP_ERRORS as err:
            self._imap_failed(report, describe_imap_error(self.config.imap, err))
        finally:
            self._flush_seen()
            self.threads.flush()

    def _fetch_round(self, report: CycleReport) -> None:
        """One round of at most FETCH_CHUNK mails: fetch, import, move away, then advance.

        The position moves only after the mails are handled and moved, so a kill
        anywhere in between means the same mails are seen again (duplicates are
        harmless) and never that one is skipped.
        """
        limit = self.config.max_attachment_bytes * 4 // 3 + MAIL_OVERHEAD_BYTES
        candidates, report.more = self.mailbox.candidates()
        turn_uids = [c.uid for c in candidates if c.has_turn]
        for cand in candidates:
            if cand.has_turn and cand.size > limit:
                report.refused += 1
                log.warning(
                    "mail UID %d is %d bytes, too large for a turn file (limit %d, see "
                    "max_attachment_bytes); not imported",
                    cand.uid,
                    cand.size,
                    limit,
                )
        raws = self.mailbox.fetch_raw([c.uid for c in candidates if c.has_turn and c.size <= limit])
        for uid in sorted(raws):
            if self.stopping:
                return
            self.handle_mail(raws[uid], report)
        self.before_finish()
        self.mailbox.finish(turn_uids)
        # Ordinary mail is left exactly as it was: unread, in place; the position just moves past it.
        if candidates:
            self.mailbox.position.advance(max(c.uid for c in candidates))

    def before_finish(self) -> None:
        """Make what this round learnt durable before its mails leave the inbox."""
        self._flush_seen()

    def _imap_failed(self, report: CycleReport, line: str) -> None:
        report.imap_error = line
        log.warning("%s; retrying in %.0f s", line, self._imap_backoff)
        self.mailbox.close()
        self._imap_next_try = time.monotonic() + self._imap_backoff
        self._imap_backoff = min(self._imap_backoff * 2, 60.0)

    # --- importing -----------------------------------------------------------------------------
    def handle_mail(self, raw: bytes, report: CycleReport) -> None:
        mail = parse_mail(raw, self.config.max_attachment_bytes)
        for problem in mail.problems:
            report.refused += 1
            log.warning("mail %s from %s: %s; not imported", mail.message_id or "(no id)", mail.sender or "?", problem)
        for att in mail.attachments:
            turn = parse_turn_name(att.filename)
            assert turn is not None  # parse_mail only keeps well-named files
            if self.sender_policy is not None:
                reason = self.sender_policy(mail.sender, turn.game_id)
                if reason:
                    report.refused += 1
                    log.warning("%s from %s not imported: %s", att.filename, mail.sender or "?", reason)
                    continue
            report.fetched += 1
            self.threads.add(turn.game_id, mail.message_id)
            self.import_attachment(att, mail.sender, report)

    def import_attachment(self, att: Attachment, sender: str, report: CycleReport) -> str:
        digest = sha256_hex(att.data)
        if digest in self._seen_set:
            report.count("duplicate")
            log.info("%s from %s: already imported (mail delivered again)", att.filename, sender or "?")
            return "duplicate"
        path = self.save_to_inbox(att, digest)
        turn = parse_turn_name(att.filename)
        game_id = turn.game_id if turn else "?"
        try:
            result = self.exchange.import_file(self.workspace, path, **self.home_kw)
            status, message = str(result.status), " ".join(str(result.message).split())
        except PbemError as err:
            result, status, message = None, "rejected", str(err)
        except Exception as err:  # the game layer must never take the daemon down with it
            result, status, message = None, "rejected", f"internal error in the game layer: {err!r}"
            log.exception("import of %s failed", att.filename)
        report.count(status)
        level = logging.WARNING if status == "rejected" else logging.INFO
        log.log(level, "%s from %s: %s — %s", att.filename, sender or "?", status, message)
        if status in ("applied", "duplicate"):
            self._remember(digest)
        for hook in self.on_imported:
            try:
                hook(str(getattr(result, "game_id", None) or game_id), status, result)
            except Exception:
                log.exception("after-import step for game %s failed", game_id)
        return status

    def game_known(self, game_id: str) -> bool:
        try:
            self.exchange.game_info(self.workspace, game_id, **self.home_kw)
        except Exception:
            return False
        return True

    def save_to_inbox(self, att: Attachment, digest: str) -> Path:
        """Put the file into inbox/ atomically; a different file of the same name gets its own name."""
        path = self.inbox / att.filename
        with contextlib.suppress(OSError):
            if path.read_bytes() == att.data:
                return path
        if path.exists():  # e.g. equivocation: keep both as evidence
            path = self.inbox / f"{path.stem}.{digest[:12]}.pbem"
        # No fsync: the mail stays on the server until the import is done, so a
        # lost inbox file after a power cut is simply fetched again.
        write_atomic(path, att.data, durable=False)
        return path

    def _remember(self, digest: str) -> None:
        self._seen.append(digest)
        self._seen_set.add(digest)
        if len(self._seen) > SEEN_LIMIT:
            dropped = self._seen[: len(self._seen) - SEEN_LIMIT]
            del self._seen[: len(dropped)]
            self._seen_set.difference_update(dropped)
        self._seen_dirty = True

    def _flush_seen(self) -> None:
        # Saved once per round, not per file: losing it in a crash only means the
        # game layer, not this shortcut, recognises the duplicates.
        if self._seen_dirty:
            save_json(self._seen_path, self._seen)
            self._seen_dirty = False

    # --- the loop ------------------------------------------------------------------------------
    def wake(self) -> bool:
        if self.stopping:
            return True
        due_at = self.queue.next_due_at()
        if due_at is not None and due_at <= time.time():
            return True
        return self.sender.changed()

    def wait(self) -> None:
        opts = self.config.imap_options
        seconds = opts.idle_seconds if self.mailbox.can_idle else opts.poll_seconds
        due_at = self.queue.next_due_at()
        if due_at is not None:
            seconds = min(seconds, max(0.0, due_at - time.time()))
        if self.mailbox.client is None:
            seconds = min(seconds, max(0.0, self._imap_next_try - time.monotonic()))
            deadline = time.monotonic() + seconds
            while time.monotonic() < deadline and not self.wake():
                time.sleep(0.2)
            return
        try:
            self.mailbox.wait(seconds, self.wake)
        except IMAP_ERRORS as err:
            line = describe_imap_error(self.config.imap, err)
            log.warning("%s; reconnecting", line)
            self.mailbox.close()

    def run(self, once: bool = False, max_seconds: float | None = None) -> CycleReport:
        """Cycle until stopped (SIGTERM/SIGINT), after one cycle with ``once``, or after ``max_seconds``."""
        started = time.monotonic()
        with workspace_lock(self.workspace), _stop_on_signals(self):
            for directory in (mail_dir(self.workspace), self.inbox):
                remove_private_temps(directory)
            log.info("mail daemon for %s started (workspace %s)", self.config.address, self.workspace)
            try:
                while True:
                    report = self.cycle()
                    if report.fetched or report.sent or report.deferred or report.failed or report.queued:
                        log.info("%s", report.line())
                    if once or self.stopping:
                        return report
                    if max_seconds is not None and time.monotonic() - started >= max_seconds:
                        return report
                    if report.more:
                        continue  # mail is waiting on the server: no reason to sleep
                    self.wait()
                    if self.stopping:
                        return report
            finally:
                self.mailbox.close()
                log.info("mail daemon stopped")


@contextlib.contextmanager
def _stop_on_signals(daemon: MailDaemon) -> Iterator[None]:
    """SIGTERM and SIGINT finish the current step, then stop (only in the main thread)."""

    def handler(signum: int, frame: object) -> None:
        daemon.stopping = True

    previous: dict[signal.Signals, Any] = {}
    try:
        for sig in (signal.SIGTERM, signal.SIGINT):
            previous[sig] = signal.signal(sig, handler)
    except ValueError:  # not the main thread: the caller stops us through daemon.stopping
        previous = {}
    try:
        yield
    finally:
        for sig, old in previous.items():
            signal.signal(sig, old)


def status_lines(config: MailConfig) -> list[str]:
    """What waits in the send queue and what failed, for `pbem mail status`."""
    queue = SendQueue(config.workspace, config.retry.base_seconds, config.retry.max_seconds)
    lines = []
    for entry in queue.pending():
        wait = max(0.0, entry.next_at - time.time())
        error = f": {entry.last_error}" if entry.last_error else ""
        lines.append(
            f"pending  {entry.filename or entry.subject} -> {entry.recipient} "
            f"(attempts {entry.attempts}, next in {wait:.0f} s){error}"
        )
    for entry in queue.failed():
        lines.append(f"FAILED   {entry.filename or entry.subject} -> {entry.recipient}: {entry.last_error}")
    sent = sum(1 for e in queue.entries.values() if e.status == "sent")
    lines.append(f"{sent} mail(s) sent, {len(queue.pending())} pending, {len(queue.failed())} failed")
    return lines
