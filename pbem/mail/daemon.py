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
twice (the game layer answers "duplicate" for a file it already has, and the
steps after an import are taken again for a duplicate too).

A mail that breaks a step (over a reading limit, or making the daemon itself
fail) is moved aside, to the folder ``<processed_folder>-set-aside``, with its
reason in the log: it is never fetched again, so one hostile mail cannot stop
the mailbox at every restart.

Run as a worker (``worker`` named), the daemon claims each turn mail into its own
IMAP folder before reading it, so several workers serve one mailbox and one
workspace (see :mod:`pbem.mail.imap`).
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import re
import signal
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pbem.errors import PbemError
from pbem.mail.config import MailConfig, identity_mismatch
from pbem.mail.exchange_api import Exchange, load_exchange
from pbem.mail.imap import IMAP_ERRORS, Candidate, ImapMailbox, MailboxTaken, describe_imap_error
from pbem.mail.logline import game_context
from pbem.mail.message import Attachment, Unreadable, parse_mail, parse_turn_name, sha256_hex
from pbem.mail.notify import Notifier
from pbem.mail.outbox import Outbox
from pbem.mail.outqueue import SendQueue
from pbem.mail.store import (
    crash_point,
    load_json,
    mail_dir,
    save_json,
    worker_dir,
    workspace_lock,
    write_atomic,
)
from pbem.mail.threads import ThreadBook
from pbem.store.durable import remove_private_temps

log = logging.getLogger("pbem.mail")

# A mail can be a third larger than its attachment (base64) plus headers and text.
MAIL_OVERHEAD_BYTES = 256 * 1024
SEEN_LIMIT = 20000  # remembered content hashes of imported files; old ones age out
DEFAULT_CLAIM_TIMEOUT = 300.0  # seconds a worker may be silent before its claims are taken back
WORKER_NAME = re.compile(r"[A-Za-z0-9_-]{1,40}")


@dataclass
class CycleReport:
    fetched: int = 0  # turn files taken out of mail
    statuses: dict[str, int] = field(default_factory=dict)  # import status -> count
    refused: int = 0  # attachments refused before import (name, size, encoding, sender)
    set_aside: int = 0  # mails moved aside unread or after they broke a step
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
            f"fetched {self.fetched} turn file(s) (imports: {imports}; refused {self.refused}; "
            f"mails set aside {self.set_aside}); "
            f"queued {self.queued}, sent {self.sent}, deferred {self.deferred}, failed {self.failed}"
        )
        return text + (f"; IMAP: {self.imap_error}" if self.imap_error else "")


# Called after each import: (game_id, status, import result or None when the import failed).
ImportHook = Callable[[str, str, object], None]
# Decides whether a mailed file may be imported: (file, every file of its mail) -> reason or None.
FilePolicy = Callable[[Attachment, list[Attachment]], str | None]
UNVERIFIED = "unsigned/unverifiable"


def identity_names(workspace: Path) -> list[str]:
    """My identity in each game of ``workspace``: the ones a daemon of it serves."""
    names = []
    for meta in sorted((workspace / ".pbem" / "games").glob("*/meta.json")):
        with contextlib.suppress(OSError, ValueError, AttributeError):
            me = json.loads(meta.read_text(encoding="utf-8")).get("me")
            if isinstance(me, str):
                names.append(me)
    return names


def start_problems(config: MailConfig, names: list[str], load_game_layer: bool = True) -> list[PbemError]:
    """Why a daemon serving the identities ``names`` would refuse to start with ``config``,
    before asking any server: each reason as the error it raises (`pbem mail check` prints
    them all, the daemon raises the first).  ``load_game_layer``: check that the game layer
    the configuration names loads (not when the daemon is handed one)."""
    if not config.workspace.is_dir():
        where = f"workspace {config.workspace} does not exist — check the workspace setting"
        return [PbemError(where, code="mail-config")]  # the rest reads the workspace
    problems = []
    mismatch = identity_mismatch(config, names)
    if mismatch:
        problems.append(PbemError(mismatch, code="mail-config"))
    if load_game_layer:
        try:
            load_exchange(config.exchange)
        except PbemError as err:
            problems.append(err)
    return problems


class MailDaemon:
    # Failures of the daemon's own means (a database, say), not of a mail: they stop the round,
    # and the mail is read again, instead of being set aside.
    not_the_mails_fault: tuple[type[Exception], ...] = ()

    def __init__(
        self,
        config: MailConfig,
        exchange: Exchange | None = None,
        worker: str = "",
        claim_timeout: float = DEFAULT_CLAIM_TIMEOUT,
    ) -> None:
        self.config = config
        self.workspace = config.workspace
        if worker and not WORKER_NAME.fullmatch(worker):
            raise PbemError(f"worker name {worker!r} must be 1 to 40 letters, digits, '-' or '_'", code="mail-config")
        self.worker = worker
        self.claim_timeout = claim_timeout
        refused = start_problems(config, self.identity_names(), exchange is None)
        if refused:
            raise refused[0]
        self.inbox = self.workspace / "inbox"
        self.inbox.mkdir(exist_ok=True)
        self.exchange = exchange if exchange is not None else load_exchange(config.exchange)
        # The identity directory is passed on only when configured, so a game layer
        # with the plain two-argument contract works too.
        self.home_kw: dict[str, Path] = {"home": config.home} if config.home is not None else {}
        self.queue = SendQueue(self.workspace, config.retry.base_seconds, config.retry.max_seconds)
        self.threads = ThreadBook(self.workspace)
        # A worker keeps its position, its duplicate shortcut and its heartbeat apart from the others.
        self.state_dir = worker_dir(self.workspace, worker) if worker else mail_dir(self.workspace)
        self.mailbox = ImapMailbox(config.imap, config.imap_options, self.workspace, self.state_dir, worker)
        self.sender = Outbox(config, self.exchange, self.queue, self.threads, self.home_kw)
        self.sender.worker = worker
        self.notifier = Notifier(config, self.exchange, self.queue, self.threads)
        self.on_imported: list[ImportHook] = [self.notifier.after_import]
        self.file_policy: FilePolicy | None = None
        self._signer: Callable[..., str | None] | None = getattr(self.exchange, "signer", None)
        self._foreign: Callable[..., bool] | None = getattr(self.exchange, "foreign", None)
        self._seen_path = self.state_dir / "seen.json"
        self._seen: list[str] = load_json(
            self._seen_path, [], lambda v: isinstance(v, list) and all(isinstance(d, str) for d in v)
        )
        self._seen_set = set(self._seen)
        self._seen_dirty = False
        self._imap_backoff = 1.0
        self._imap_next_try = 0.0
        self._next_take_back = 0.0
        self.stopping = False

    def identity_names(self) -> list[str]:
        """The identities this mailbox serves: mine in each game of the workspace."""
        return identity_names(self.workspace)

    # --- one cycle -----------------------------------------------------------------------------
    def cycle(self) -> CycleReport:
        report = CycleReport()
        self.fetch(report)
        self.send(report)
        return report

    def send(self, report: CycleReport) -> None:
        """Queue what is new in outbox/, then send what is due (held notices that fell due are
        released or dropped first, seeing the files just queued)."""
        self.sender.enqueue(report.add)
        self.notifier.release()
        self.sender.send_due(report.add)

    def fetch(self, report: CycleReport) -> None:
        if self.mailbox.client is None:
            if time.monotonic() < self._imap_next_try:
                report.imap_error = "waiting before reconnecting"
                return
            try:
                self.mailbox.connect()
                self._imap_backoff = 1.0
            except MailboxTaken:
                raise
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
        if self.worker:
            self._claim_round(report)
            return
        candidates, report.more = self.mailbox.candidates()
        left = self._leave_others(candidates)
        whole = self._handle_batch([c for c in candidates if c.has_turn and c.uid not in left], report)
        # Ordinary mail is left exactly as it was: unread, in place; the position just moves past it.
        # A round cut short by a stop leaves its rest in the folder, so the position stays.
        if candidates and whole:
            self.mailbox.position.advance(max(c.uid for c in candidates))

    def _claim_round(self, report: CycleReport) -> None:
        """A worker's round: take back a silent worker's claims, claim new turn mail, handle mine."""
        self.heartbeat()
        if time.monotonic() >= self._next_take_back:
            self._take_back_silent()
            self._next_take_back = time.monotonic() + self._until_next_expiry()
        candidates, report.more = self.mailbox.candidates()
        left = self._leave_others(candidates)
        self.mailbox.claim([c.uid for c in candidates if c.has_turn and c.uid not in left])
        crash_point()
        if candidates:
            self.mailbox.position.advance(max(c.uid for c in candidates))
        try:
            mine = self.mailbox.open_claims()
            self._handle_batch(self.mailbox.describe(mine), report)
        finally:
            self.mailbox.reopen_folder()

    def _leave_others(self, candidates: list[Candidate]) -> set[int]:
        """The turn mails another workspace's, marked and left where they are."""
        left = sorted(c.uid for c in candidates if c.has_turn and self.left_for_owner(c))
        self.mailbox.leave(left)
        return set(left)

    def left_for_owner(self, cand: Candidate) -> bool:
        """Whether a mail only carries files of games another workspace holds: it stays in the
        folder, unread, for that workspace's daemon (two workspaces may be pointed at one
        mailbox, and the one serving it first must not take the other's turns)."""
        names = [n for n in cand.names if n.lower().endswith(".pbem")]
        if self._foreign is None or not names:
            return False
        try:
            if not all(self._foreign(self.workspace, name, **self.home_kw) for name in names):
                return False
        except Exception:  # the game layer cannot tell: the mail is read as any other
            return False
        log.warning(
            "mail UID %d left in the folder for the workspace that holds its game: %s is a file of a game "
            "this workspace does not hold",
            cand.uid,
            ", ".join(names)[:200],
        )
        return True

    def _handle_batch(self, turn_mails: list[Candidate], report: CycleReport) -> bool:
        """Read, import, then move away the turn mails of the selected folder; False when
        a stop cut the batch short (the rest stays where it is)."""
        limit = self.config.max_attachment_bytes * 4 // 3 + MAIL_OVERHEAD_BYTES
        aside: dict[int, str] = {}
        for cand in turn_mails:
            if cand.size > limit:
                aside[cand.uid] = (
                    f"it is {cand.size} bytes, too large for a turn file (limit {limit}, see max_attachment_bytes)"
                )
        raws = self.mailbox.fetch_raw([c.uid for c in turn_mails if c.uid not in aside])
        handled = []
        whole = True
        for uid in sorted(raws):
            if self.stopping:
                whole = False
                break
            reason = self.handle_mail(raws[uid], report, limit)
            if reason:
                aside[uid] = reason
            else:
                handled.append(uid)
        self.before_finish()
        crash_point()
        self.mailbox.finish(handled)
        for uid, reason in sorted(aside.items()):
            report.set_aside += 1
            log.warning("mail UID %d set aside: %s; it will not be read again", uid, reason)
        self.mailbox.set_aside(sorted(aside))
        crash_point()
        return whole

    def heartbeat(self) -> None:
        """Tell the other workers I am alive (the file's time is what they look at)."""
        path = self.state_dir / "alive"
        path.touch()
        os.utime(path)

    def _take_back_silent(self) -> None:
        now = time.time()
        for worker in self.mailbox.claim_folders():
            if worker == self.worker:
                continue
            alive = mail_dir(self.workspace) / "workers" / worker / "alive"
            try:
                silent = now - alive.stat().st_mtime
            except FileNotFoundError:
                silent = float("inf")
            if silent < self.claim_timeout:
                continue
            count = self.mailbox.take_back(worker)
            with self.queue.locked():
                count += self.queue.release_leases(worker)
            if count:
                log.warning("took back %d mail(s) claimed by worker %s, silent for %s", count, worker, _seconds(silent))

    def _until_next_expiry(self) -> float:
        """Seconds until the next look for silent workers: when the next worker's silence
        reaches the claim timeout, and at least every quarter of it (a worker idle on a
        quiet mailbox must still take a dead one's claims back on time)."""
        now = time.time()
        wait = max(1.0, self.claim_timeout / 4)
        for alive in (mail_dir(self.workspace) / "workers").glob("*/alive"):
            if alive.parent.name == self.worker:
                continue
            with contextlib.suppress(FileNotFoundError):
                due = alive.stat().st_mtime + self.claim_timeout - now
                if due > 0:
                    wait = min(wait, due + 0.05)  # just past it: then the worker counts as silent
        return wait

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
    def handle_mail(self, raw: bytes, report: CycleReport, max_bytes: int | None = None) -> str:
        """Import the turn files of one mail; the reason to set it aside, or "" when it was handled."""
        try:
            mail = parse_mail(raw, self.config.max_attachment_bytes, max_bytes)
        except Unreadable as err:
            return str(err)
        try:
            self._import_mail(mail.message_id, mail.sender, mail.attachments, mail.problems, report)
        except self.not_the_mails_fault:
            raise
        except Exception as err:  # one mail must never stop the mailbox: set it aside instead
            log.exception("handling mail %s failed", mail.message_id or "(no id)")
            return f"handling it failed: {' '.join(str(err).split())[:200] or type(err).__name__}"
        return ""

    def _import_mail(
        self, message_id: str, sender: str, attachments: list[Attachment], problems: list[str], report: CycleReport
    ) -> None:
        for problem in problems:
            report.refused += 1
            # No file to check a signature on: the From header is named as what it is, a claim.
            log.warning("mail %s (From: %s): %s; not imported", message_id or "(no id)", sender or "?", problem)
        for att in attachments:
            turn = parse_turn_name(att.filename)
            assert turn is not None  # parse_mail only keeps well-named files
            with game_context(turn.game_id):
                if self.file_policy is not None:
                    reason = self.file_policy(att, attachments)
                    if reason:
                        report.refused += 1
                        log.warning("%s from %s not imported: %s", att.filename, self.signed_by(att.data), reason)
                        continue
                report.fetched += 1
                status = self.import_attachment(att, report)
                # Only files the game accepted as its own, signatures checked, thread its mail: a
                # forgery naming the game must not steer the References of the next mail to the
                # opponent.  Parent files and hand-over offers are kept unverified, so they do not.
                if status in ("applied", "duplicate", "stored") and turn.side not in ("parent", "offer"):
                    self.threads.add(turn.game_id, message_id)

    def import_attachment(self, att: Attachment, report: CycleReport) -> str:
        digest = sha256_hex(att.data)
        turn = parse_turn_name(att.filename)
        game_id = turn.game_id if turn else "?"
        result: Any = None
        if digest in self._seen_set:
            # The steps after an import still run: a process killed after the import but
            # before them (a move owed, say) left them undone.
            status = "duplicate"
            log.info("%s: already imported (mail delivered again)", att.filename)
        else:
            path = self.save_to_inbox(att, digest)
            try:
                result = self.exchange.import_file(self.workspace, path, **self.home_kw)
                status, message = str(result.status), " ".join(str(result.message).split())
            except PbemError as err:
                result, status, message = None, "rejected", str(err)
            except Exception as err:  # the game layer must never take the daemon down with it
                result, status, message = None, "rejected", f"internal error in the game layer: {err!r}"
                log.exception("import of %s failed", att.filename)
            level = logging.WARNING if status == "rejected" else logging.INFO
            log.log(level, "%s from %s: %s — %s", att.filename, self.signed_by(att.data), status, message)
            if getattr(result, "code", "") == "claim-crossed":
                self._send_again(list(getattr(result, "replies", [])))
            crash_point()
        report.count(status)
        if status in ("applied", "duplicate"):
            self._remember(digest)
        for hook in self.on_imported:
            try:
                hook(str(getattr(result, "game_id", None) or game_id), status, result)
            except Exception:
                log.exception("after-import step for game %s failed", game_id)
        return status

    def signer_of(self, data: bytes) -> str | None:
        """The fingerprint of the key whose signature on a mailed file verifies, if any."""
        if self._signer is None:
            return None
        try:
            return self._signer(self.workspace, data, **self.home_kw)
        except Exception:  # a damaged file the game layer chokes on is simply not verified
            return None

    def signed_by(self, data: bytes) -> str:
        """Who signed a file, for log lines: never the mail's From header (anyone writes that)."""
        found = self.signer_of(data)
        return f"key {found}" if found else UNVERIFIED

    def _send_again(self, files: list[Path]) -> None:
        """The opponent claims my files never arrived, and they were sent in time: the game layer
        put them back in outbox/, and they go out again although they went out before."""
        keys = [f"{p.name}:{sha256_hex(p.read_bytes())}" for p in files if p.is_file()]
        with self.queue.locked():
            again = self.queue.send_again(keys)
        log.warning("DISPUTE: %d file(s) the opponent says it never received are sent again", again)

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
        if digest in self._seen_set:
            return
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
        if self.worker:  # a dead worker's claims come back when its silence reaches the claim timeout
            seconds = min(seconds, max(0.0, self._next_take_back - time.monotonic()))
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
        with workspace_lock(self.workspace, self.worker), _stop_on_signals(self):
            if not self.worker:  # workers share these folders: another one's temp file may be in flight
                for directory in (mail_dir(self.workspace), self.inbox):
                    remove_private_temps(directory)
            self.sender.start()
            try:
                # At once, so a mailbox serving another workspace is refused before anything runs;
                # any other trouble is the first cycle's to report and retry.
                self.mailbox.connect()
            except MailboxTaken:
                raise
            except PbemError:
                self.mailbox.close()
            except IMAP_ERRORS:
                self.mailbox.close()
            who = f"worker {self.worker} of the mail daemon" if self.worker else "mail daemon"
            log.info("%s for %s started (workspace %s)", who, self.config.address, self.workspace)
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


def _seconds(value: float) -> str:
    return "ever" if value == float("inf") else f"{value:.0f} s"


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
