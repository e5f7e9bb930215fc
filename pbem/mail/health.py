"""`pbem bot health`: how much work waits in a mailbox and how old the oldest of it is.

Unanswered work is counted where it waits: turn mail in the folder not yet taken
(by a lone daemon or claimed by a worker; mail left for another workspace is not
this service's work), turn mail in the workers' claim
folders, games owed a move by the bot, and mails waiting in the send queue. The
age of the oldest is what a monitor should watch: a growing age means the
service has stopped answering, whatever the reason.
"""

from __future__ import annotations

import datetime
import time
from dataclasses import dataclass, field

import imapclient

from pbem.mail.bot import owed_games
from pbem.mail.config import MailConfig
from pbem.mail.imap import CLAIM_PREFIX, LEFT_KEYWORD, PROCESSED_KEYWORD, SET_ASIDE_KEYWORD, ImapMailbox
from pbem.mail.message import has_turn_attachment
from pbem.mail.outqueue import SendQueue


@dataclass
class Health:
    waiting: int = 0  # turn mails in the folder, not yet taken
    claimed: dict[str, int] = field(default_factory=dict)  # worker -> turn mails it holds
    owed: int = 0  # games owed a move
    to_send: int = 0  # mails queued, not yet accepted by the SMTP server
    oldest_s: float | None = None  # age of the oldest of all these
    # On a PostgreSQL store: the database's state and one line per worker, as it last reported.
    database: str = ""
    workers: list[str] = field(default_factory=list)
    failed: int = 0  # mails the SMTP server refused for good

    @property
    def database_ok(self) -> bool:
        return not self.database or self.database.startswith("up, schema")

    @property
    def depth(self) -> int:
        return self.waiting + sum(self.claimed.values()) + self.owed + self.to_send

    def saw(self, since: float, now: float) -> None:
        age = max(0.0, now - since)
        self.oldest_s = age if self.oldest_s is None else max(self.oldest_s, age)

    def line(self) -> str:
        claims = ", ".join(f"{w} {n}" for w, n in sorted(self.claimed.items()) if n) or "none"
        oldest = "none" if self.oldest_s is None else f"{self.oldest_s:.0f} s"
        text = (
            f"queue depth {self.depth} ({self.waiting} waiting in the folder, claimed: {claims}, "
            f"{self.owed} game(s) owed a move, {self.to_send} mail(s) to send); oldest unanswered: {oldest}"
        )
        if self.database:
            text += f"\ndatabase: {self.database}; {self.failed} mail(s) failed"
            text += "".join(f"\nworker {w}" for w in self.workers) or "\nno worker has reported yet"
        return text


def measure(config: MailConfig, store_url: str = "") -> Health:
    """Look at the mailbox (read-only) and the workspace, or the PostgreSQL store at
    ``store_url``; IMAP errors are the caller's to report."""
    now = time.time()
    found = Health()
    box = ImapMailbox(config.imap, config.imap_options, config.workspace)
    box.connect(claim_owner=False)
    try:
        client = box.client
        assert client is not None  # connect() succeeded
        client.normalise_times = False
        client.select_folder(config.imap_options.folder, readonly=True)
        done = (PROCESSED_KEYWORD, SET_ASIDE_KEYWORD, LEFT_KEYWORD)
        uids = client.search([term for keyword in done for term in ("NOT", "KEYWORD", keyword)])
        for arrived in _turn_mail_times(client, uids):
            found.waiting += 1
            found.saw(arrived, now)
        for worker in box.claim_folders():
            client.select_folder(CLAIM_PREFIX + worker, readonly=True)
            times = _turn_mail_times(client, client.search("ALL"))
            found.claimed[worker] = len(times)
            for arrived in times:
                found.saw(arrived, now)
    finally:
        box.close()
    if store_url:
        _measure_store(store_url, found, now)
        return found
    for _game, queued in owed_games(config.workspace):
        found.owed += 1
        found.saw(queued, now)
    for entry in SendQueue(config.workspace, config.retry.base_seconds, config.retry.max_seconds).pending():
        found.to_send += 1
        found.saw(entry.created_at, now)
    return found


def _measure_store(url: str, found: Health, now: float) -> None:
    """The database's backlog and its workers' heartbeats (no key needed: nothing is opened)."""
    from pbem.mail.pgstore import MIGRATIONS, Store, StoreError

    store = Store(url, None)
    try:
        try:
            version = store.version()
            if version != len(MIGRATIONS):
                found.database = f"up, but at schema version {version} of {len(MIGRATIONS)}: run `pbem bot migrate`"
                return
            found.owed, oldest_owed, found.to_send, oldest_mail, found.failed = store.backlog()
            workers = store.workers()
        except StoreError as err:
            found.database = f"DOWN: {err}"
            return
    finally:
        store.close()
    found.database = f"up, schema version {version}"
    for since in (oldest_owed, oldest_mail):
        if since is not None:
            found.saw(since, now)
    for w in workers:
        found.workers.append(
            f"{w.name} on {w.host} (pid {w.pid}): last seen {max(0.0, now - w.seen_at):.0f} s ago, "
            f"{w.played} move(s) played"
        )


def _turn_mail_times(client: imapclient.IMAPClient, uids: list[int]) -> list[float]:
    """Arrival times (INTERNALDATE) of the turn mails among ``uids``."""
    times = []
    for start in range(0, len(uids), 200):
        chunk = uids[start : start + 200]
        data = client.fetch(chunk, ["BODYSTRUCTURE", "INTERNALDATE"])
        for item in data.values():
            if has_turn_attachment(item.get(b"BODYSTRUCTURE")):
                arrived = item.get(b"INTERNALDATE")
                if isinstance(arrived, datetime.datetime):
                    times.append(arrived.timestamp())
    return times
