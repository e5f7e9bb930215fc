"""A worker of the bot service on the PostgreSQL store (``pbem bot serve --store postgresql://...``).

The worker is the bot mailbox with its state in the database (see
:mod:`pbem.mail.pgstore`): its workspace is a scratch folder of its own, which it
empties at its start. Each step on a game (importing a mailed file, the bot's look
at a game owed one) runs in one transaction holding the game's lock: the game is
copied from the database into the scratch folder, the game layer works there as
ever, and the game's files, the look it is owed, and the mails it made (built
whole, ready to go) are written back when the step ends. The turn mail stays in the
worker's IMAP claim folder until that transaction is committed, so a worker killed
at any point loses nothing: the step left no trace, and the mail is taken again (by
the worker after its restart, or by another once this one's heartbeat in the
database is older than the claim timeout); a step done twice finds the file already
applied.  A mail is sent by whichever worker leases it first (``SKIP LOCKED``); one
killed between SMTP's acceptance and its record goes again under the same Message-ID.
"""

from __future__ import annotations

import contextlib
import dataclasses
import email
import email.policy
import logging
import os
import re
import shutil
import socket
import time
from collections.abc import Callable, Iterator
from email.message import EmailMessage
from pathlib import Path

from pbem.errors import PbemError
from pbem.mail import smtp
from pbem.mail.bot import BotMailbox, Player
from pbem.mail.config import MailConfig
from pbem.mail.daemon import DEFAULT_CLAIM_TIMEOUT, CycleReport
from pbem.mail.exchange_api import Exchange
from pbem.mail.imap import Candidate
from pbem.mail.logline import game_context
from pbem.mail.message import (
    MAX_REFERENCES,
    TURN_NAME,
    Attachment,
    parse_turn_name,
    sha256_hex,
    thread_root,
)
from pbem.mail.outbox import LEASE_SECONDS, bundles
from pbem.mail.outqueue import Entry
from pbem.mail.pgstore import GameStep, Outgoing, Store, StoreError
from pbem.mail.store import crash_point, mail_dir, workspace_lock, write_atomic
from pbem.protocol import clock
from pbem.store.durable import make_dirs

log = logging.getLogger("pbem.mail")
HEARTBEAT_EVERY = 1.0  # seconds between two heartbeats written to the database
STORE_RETRY_MAX = 30.0


def game_files(workspace: Path, game_id: str) -> dict[str, bytes]:
    """Every file of one game in a workspace, by its path in it (locks and journals aside:
    they belong to a process, not to the game)."""
    found: dict[str, bytes] = {}
    store = workspace / ".pbem"
    trees = [store / "games" / game_id, store / "offers" / game_id]
    for tree in trees:
        for path in sorted(tree.rglob("*")) if tree.is_dir() else []:
            if path.is_file() and not (path.parent == tree and path.name in ("lock", "journal")):
                found[str(path.relative_to(workspace))] = path.read_bytes()
    for single in (store / "invitations" / f"{game_id}.pbem", store / "parents" / f"{game_id}.pbem"):
        if single.is_file():
            found[str(single.relative_to(workspace))] = single.read_bytes()
    outbox = workspace / "outbox"
    for path in sorted(outbox.glob(f"{game_id}-*.pbem")) if outbox.is_dir() else []:
        if TURN_NAME.match(path.name):
            found[str(path.relative_to(workspace))] = path.read_bytes()
    return found


def _remove_game(workspace: Path, game_id: str) -> None:
    store = workspace / ".pbem"
    for tree in (store / "games" / game_id, store / "offers" / game_id):
        shutil.rmtree(tree, ignore_errors=True)
    for single in (store / "invitations" / f"{game_id}.pbem", store / "parents" / f"{game_id}.pbem"):
        single.unlink(missing_ok=True)
    for path in (workspace / "outbox").glob(f"{game_id}-*.pbem"):
        path.unlink(missing_ok=True)


class StoreThreads:
    """The thread book (see :mod:`pbem.mail.threads`) kept in the database."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._added: list[tuple[str, str]] = []

    def references(self, game_id: str) -> list[str]:
        return [thread_root(game_id), *self.store.thread(game_id, MAX_REFERENCES - 1)]

    def add(self, game_id: str, message_id: str) -> None:
        if message_id:
            self._added.append((game_id, message_id))

    def flush(self) -> None:
        # Threading is a courtesy to mail readers: a database hiccup here costs no turn.
        with contextlib.suppress(StoreError):
            if self._added:
                self.store.add_thread(self._added)
                self._added = []


class StoreBotMailbox(BotMailbox):
    not_the_mails_fault = (StoreError,)

    def __init__(
        self,
        config: MailConfig,
        store: Store,
        exchange: Exchange | None = None,
        player: Player | None = None,
        worker: str = "",
        claim_timeout: float = DEFAULT_CLAIM_TIMEOUT,
    ) -> None:
        if not worker:
            raise PbemError("a worker on the PostgreSQL store needs a name: give --worker NAME", code="usage")
        store.check_schema()
        workspace = config.workspace
        make_dirs(workspace, 0o700)
        with workspace_lock(workspace, worker):  # never empty a folder another process works in
            store_dir = workspace / ".pbem"
            for name in ("games", "invitations", "parents", "offers", "journal"):
                target = store_dir / name
                if target.is_dir():
                    shutil.rmtree(target)
                else:
                    target.unlink(missing_ok=True)
            for name in ("inbox", "outbox"):
                shutil.rmtree(workspace / name, ignore_errors=True)
            # One name for the mailbox's owner folder, whichever worker makes it.
            write_atomic(mail_dir(workspace) / "workspace-id", store.meta("workspace-id", os.urandom(8).hex()).encode())
            home = mail_dir(workspace) / "home"
            shutil.rmtree(home, ignore_errors=True)
            if not store.load_home(home):
                raise PbemError(
                    "the bot store holds no identity: run `pbem bot migrate` with the configuration whose home "
                    "holds the bot's key, once",
                    code="bot-store",
                )
        self.store = store
        super().__init__(dataclasses.replace(config, home=home), exchange, player, worker, claim_timeout)
        self.threads = StoreThreads(store)  # type: ignore[assignment]
        self.sender.threads = self.threads
        self._versions: dict[str, int] = {}  # the version of each game as copied into the scratch folder
        self._step: GameStep | None = None
        self._owed_now = False
        self._seen_in_step: list[str] = []
        self._unrecorded: list[tuple[Outgoing, smtp.Outcome]] = []  # sent, not yet written down
        self._beat_at = 0.0
        self._started_at = time.time()
        self._store_backoff = 1.0
        self.store.release_leases(worker)
        self.heartbeat()
        if self.store.meta("claims-known", "no") != "yes":
            self._know_claims()

    def _know_claims(self) -> None:
        """Once a database: when the bot may claim in each game stored before schema step 2
        (a step on each, which writes nothing else). Workers starting together both look;
        the game's lock keeps each step whole."""
        found = self.store.game_ids()
        if found:
            log.info("bot: looking for the deadlines of the %d stored game(s), once", len(found))
        for game_id in found:
            with game_context(game_id), self._game(game_id):
                pass
        self.store.set_meta("claims-known", "yes")

    # --- steps on one game ---------------------------------------------------------------------
    @contextlib.contextmanager
    def _game(self, game_id: str, owed: bool = False, claim_by: float | None = None) -> Iterator[bool]:
        """Run the body on the game copied from the database, holding its lock; write back what
        it changed, and when the bot may next claim in it, when it ends well. Yields False (and
        runs nothing) for an owed game, or one due a claim, another worker is taking now."""
        with self.store.game_step(game_id, owed, self._versions.get(game_id, 0), claim_by) as step:
            if step is None:
                yield False
                return
            if step.files is not None:  # the scratch folder's copy is not this version
                _remove_game(self.workspace, game_id)
                for rel, data in step.files.items():
                    target = self.workspace / rel
                    make_dirs(target.parent, 0o700)
                    write_atomic(target, data, durable=False)
            self._versions.pop(game_id, None)  # until the step is written back
            self._step, self._owed_now, self._seen_in_step = step, False, []
            try:
                yield True
                files = game_files(self.workspace, game_id)
                mails = self._mails(step, files)
                step.claim_at = self._claim_at(game_id)
                version = step.save(files, self._owed_now, owed, mails)
            finally:
                self._step = None
        crash_point()
        self._versions[game_id] = version
        for digest in self._seen_in_step:
            super()._remember(digest)

    def _remember(self, digest: str) -> None:
        """Remember a mailed file as imported only once its step is in the database: a step
        the database lost (it died before the commit answered) must be taken again when the
        mail is read again, not passed over as a file delivered twice."""
        if self._step is not None:
            self._seen_in_step.append(digest)
        else:
            super()._remember(digest)

    def _mails(self, step: GameStep, files: dict[str, bytes]) -> list[tuple[Outgoing, list[str]]]:
        """The game's new files in outbox/ as whole mails, bundled as the file store's sender does."""
        fresh: dict[str, tuple[Path, str]] = {}
        for rel, data in files.items():
            if rel.startswith("outbox/"):
                path = self.workspace / rel
                fresh[f"{path.name}:{sha256_hex(data)}"] = (path, sha256_hex(data))
        new = sorted(set(fresh) - step.queued(list(fresh)))
        entries: list[Entry] = []
        for key in new:
            path, digest = fresh[key]
            turn = parse_turn_name(path.name)
            entry = self.sender._entry(path, turn, digest, key) if turn is not None else None
            if entry is not None:
                entries.append(entry)
                self.threads.add(step.game_id, entry.message_id)
        made = []
        for group in bundles(sorted(entries, key=lambda e: e.filename)):
            last = group[-1]
            what = ", ".join(e.filename for e in group)
            try:
                mail = Outgoing(last.message_id, what, last.recipient, self.sender.build_mail(group).as_bytes())
            except Exception as err:  # a value no header can carry must not undo the game's step
                reason = f"the mail cannot be written: {' '.join(str(err).split())[:200]}"
                log.error("cannot send %s: %s (kept in the failed list)", what, reason)
                mail = Outgoing(last.message_id, what, last.recipient, b"", failed=reason)
            made.append((mail, [e.key for e in group]))
        return made

    def import_attachment(self, att: Attachment, report: CycleReport) -> str:
        turn = parse_turn_name(att.filename)
        assert turn is not None  # parse_mail only keeps well-named files
        with self._game(turn.game_id):
            return super().import_attachment(att, report)

    def queue_play(self, game_id: str) -> None:
        if self._step is not None and self._step.game_id == game_id:
            self._owed_now = True  # written with the step that made it owed
        else:
            self.store.owe(game_id)

    def game_known(self, game_id: str) -> bool:
        if self._step is not None and self._step.game_id == game_id:
            return super().game_known(game_id)  # the game as this step has it
        return self.store.has_game(game_id)

    def left_for_owner(self, cand: Candidate) -> bool:
        names = [parse_turn_name(n) for n in cand.names if n.lower().endswith(".pbem")]
        if any(t is not None and self.store.has_game(t.game_id) for t in names):
            return False
        return super().left_for_owner(cand)

    def play_pending(self, between: Callable[[], None] = lambda: None) -> None:
        for game_id in self.store.owed_games():
            if self.stopping:
                break
            self.heartbeat()
            with self._game(game_id, owed=True) as mine:
                if mine:
                    self.play_game(game_id)
            between()  # outside the game's step: what it made is in the database's queue

    def _claim_at(self, game_id: str) -> float | None:
        """When the bot may claim in the game as the scratch folder holds it (None: it cannot)."""
        due = getattr(self.player, "claim_due", None)
        if not callable(due) or not (self.workspace / ".pbem" / "games" / game_id / "meta.json").is_file():
            return None
        try:
            found = due(self.workspace, game_id, self.config.home)
        except PbemError as err:  # a game the player cannot read claims nothing; the step goes on
            log.warning("bot: cannot tell the deadline of game %s: %s", game_id, err)
            return None
        return None if found is None else float(found)

    def claim_overdue(self) -> None:
        """Claim the missed deadlines the database says are due, each game in a step of its own
        (the claim and its mail written with the step), taken by one worker (SKIP LOCKED)."""
        claimer = getattr(self.player, "claim_overdue", None)
        if not callable(claimer) or time.monotonic() < self._claims_looked + self.claim_every:
            return
        self._claims_looked = time.monotonic()
        now = float(clock.now())
        for game_id in self.store.claims_due(now):
            if self.stopping:
                break
            with game_context(game_id):
                try:
                    with self._game(game_id, claim_by=now) as mine:
                        made = claimer(self.workspace, self.config.home, games=[game_id]) if mine else []
                        for _gid, path, what in made:
                            if path is None:
                                log.warning("bot: no claim in game %s: %s", game_id, what)
                                continue
                            log.info("bot: claimed game %s: %s (%s)", game_id, what, path.name)
                            self.queue_play(game_id)  # a final claim may hand the move back to the bot
                except StoreError:
                    raise
                except Exception as err:  # nothing of the step was kept; the next round looks again
                    log.exception("bot: claiming in game %s failed: %s", game_id, err)

    # --- sending -------------------------------------------------------------------------------
    def send(self, report: CycleReport) -> None:
        self._record(report)
        while not self.stopping:
            due = self.store.lease_due(self.worker, LEASE_SECONDS)
            if not due:
                return
            messages = [_message(m.mail) for m in due]
            outcomes = smtp.send_batch(self.config.smtp, messages)
            crash_point()
            self._unrecorded = list(zip(due, outcomes, strict=True))
            self._record(report)

    def _record(self, report: CycleReport) -> None:
        """Write what SMTP said of each mail sent. What the database could not take (it went
        down meanwhile) is kept here and written first at the next cycle: the mails stay
        leased to this worker until then, so none goes out again while the worker lives."""
        while self._unrecorded:
            mail, outcome = self._unrecorded[0]
            if outcome.status == smtp.SENT:
                self.store.mark_sent(mail.message_id)
                report.add("sent")
                log.info("sent %s to %s", mail.what, mail.recipient)
            elif outcome.status == smtp.PERMANENT:
                self.store.mark_failed(mail.message_id, outcome.detail)
                report.add("failed")
                log.error("FAILED to send %s to %s: %s", mail.what, mail.recipient, outcome.detail)
            else:
                delay = self.queue.delay_for(mail.attempts + 1)
                self.store.mark_retry(mail.message_id, outcome.detail, delay)
                report.add("deferred")
                log.warning(
                    "could not send %s to %s yet: %s; retry in %.0f s",
                    mail.what,
                    mail.recipient,
                    outcome.detail,
                    delay,
                )
            self._unrecorded.pop(0)

    # --- workers -------------------------------------------------------------------------------
    def heartbeat(self) -> None:
        if time.monotonic() - self._beat_at < HEARTBEAT_EVERY:
            return
        self.store.heartbeat(self.worker, socket.gethostname(), os.getpid(), self._started_at, self.played)
        self._beat_at = time.monotonic()

    def _silence(self) -> dict[str, float]:
        now = time.time()
        return {w.name: now - w.seen_at for w in self.store.workers() if w.name != self.worker}

    def _take_back_silent(self) -> None:
        silence = self._silence()
        for worker in self.mailbox.claim_folders():
            if worker == self.worker:
                continue
            silent = silence.get(worker, float("inf"))
            if silent < self.claim_timeout:
                continue
            count = self.mailbox.take_back(worker) + self.store.release_leases(worker)
            if count:
                how_long = "ever" if silent == float("inf") else f"{silent:.0f} s"
                log.warning("took back %d mail(s) claimed by worker %s, silent for %s", count, worker, how_long)

    def _until_next_expiry(self) -> float:
        wait = max(1.0, self.claim_timeout / 4)
        for silent in self._silence().values():
            due = self.claim_timeout - silent
            if due > 0:
                wait = min(wait, due + 0.05)
        return wait

    # --- the loop ------------------------------------------------------------------------------
    def cycle(self) -> CycleReport:
        """A cycle; when the database fails, nothing of the step in flight was kept: say so,
        wait a little and go on (the claimed mail is read again)."""
        try:
            report = super().cycle()
        except StoreError as err:
            self._versions.clear()  # the scratch copies may be ahead of the database now
            log.warning("%s; retrying in %.0f s", err, self._store_backoff)
            time.sleep(self._store_backoff)
            self._store_backoff = min(self._store_backoff * 2, STORE_RETRY_MAX)
            report = CycleReport(imap_error="", more=True)
            return report
        self._store_backoff = 1.0
        return report

    def wake(self) -> bool:
        if self.stopping:
            return True
        with contextlib.suppress(StoreError):
            due = self.store.next_due_at()
            return due is not None and due <= time.time()
        return False

    def wait(self) -> None:
        with contextlib.suppress(StoreError):
            self.heartbeat()
        super().wait()


def start_worker(make: Callable[[], StoreBotMailbox]) -> StoreBotMailbox:
    """The worker ``make`` builds, once the database answers: a worker started while the
    database is down (a fleet restarted with it, a machine booted first) says so and waits,
    with growing pauses, rather than exit into its service manager's restart loop."""
    pause = 1.0
    while True:
        try:
            return make()
        except StoreError as err:
            log.warning("%s; starting again in %.0f s", err, pause)
            time.sleep(pause)
            pause = min(pause * 2, STORE_RETRY_MAX)


def default_worker() -> str:
    """The machine's name, as a worker name: one worker per machine needs no --worker."""
    return (re.sub(r"[^A-Za-z0-9_-]", "-", socket.gethostname()) or "worker")[:40]


def _message(raw: bytes) -> EmailMessage:
    msg = email.message_from_bytes(raw, policy=email.policy.default)
    assert isinstance(msg, EmailMessage)
    return msg
