"""The persistent send queue: what must still be mailed, what was sent, what failed.

Files in ``outbox/`` are the source of truth for *what* to send; this queue
records *how far* each one got. An entry is keyed by file name and content hash,
so a file is sent once, a changed file is sent again, and a restart resumes
exactly where the previous run stopped. Temporary failures (4xx replies,
refused or broken connections) are retried with exponential back-off; a
permanent failure (5xx) moves the entry to the failed list, where it stays
until a person looks at it. Nothing is ever dropped, but a held notice that its
player's own decision made needless (see :mod:`pbem.mail.notify`).

Several workers of a bot service share the queue: each change is made under
the queue's lock on the entries as they are on disk, and a worker about to send
an entry first leases it (its ``next_at`` moves past the lease), so no other
worker sends it meanwhile; a worker killed while sending leaves a lease that
runs out, and the mail goes out again with the same Message-ID, which the
receiver recognises.
"""

from __future__ import annotations

import contextlib
import dataclasses
import time
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path

from pbem.mail.store import load_json, mail_dir, save_json, set_aside
from pbem.store.durable import flock

PENDING, SENT, FAILED = "pending", "sent", "failed"


@dataclass
class Entry:
    key: str  # "<file name>:<sha256>" for turn files, "notify:<game>:<seq>" for notices
    kind: str  # "turn" | "notify"
    recipient: str
    message_id: str
    references: list[str]
    filename: str = ""
    sha256: str = ""
    subject: str = ""
    body: str = ""
    status: str = PENDING
    attempts: int = 0
    next_at: float = 0.0
    created_at: float = field(default_factory=time.time)
    sent_at: float = 0.0
    last_error: str = ""
    leased_by: str = ""  # the worker sending it now ("" for a lone daemon); none when not leased
    # The Message-ID of the mail it was first handed to SMTP in: sent again, it travels in
    # that same mail (with the same files), so the receiver never sees it under two ids.
    carried_by: str = ""
    # A held notice (see pbem.mail.notify) is not sent before this time, and then only if no
    # file of mine after file ``after_seq`` of its game was sealed; 0 once it is released.
    held_until: float = 0.0
    after_seq: int = 0


_FIELDS = {f.name: f.type for f in dataclasses.fields(Entry)}


def _entry(raw: object) -> Entry | None:
    """An entry from its JSON record, or None for a record that is not one."""
    if not isinstance(raw, dict) or not set(raw) <= set(_FIELDS) or not isinstance(raw.get("key"), str):
        return None
    try:
        entry = Entry(**raw)
    except TypeError:
        return None
    texts = ("kind", "recipient", "message_id", "status", "last_error", "carried_by")
    ok = all(isinstance(getattr(entry, n), str) for n in texts)
    ok = ok and isinstance(entry.references, list) and all(isinstance(r, str) for r in entry.references)
    ok = ok and all(
        isinstance(getattr(entry, n), (int, float)) for n in ("attempts", "next_at", "created_at", "held_until")
    )
    ok = ok and isinstance(entry.after_seq, int)
    return entry if ok and entry.status in (PENDING, SENT, FAILED) else None


class SendQueue:
    """All entries in one JSON file, rewritten atomically on every change (it stays small)."""

    def __init__(self, workspace: Path, base_delay: float, max_delay: float) -> None:
        self.path = mail_dir(workspace) / "queue.json"
        self.base_delay = base_delay
        self.max_delay = max_delay
        self.entries: dict[str, Entry] = {}
        self.reload()

    def reload(self) -> None:
        raw = load_json(
            self.path, {"entries": []}, lambda v: isinstance(v, dict) and isinstance(v.get("entries"), list)
        )
        entries, bad = {}, []
        for record in raw["entries"]:
            entry = _entry(record)
            if entry is None:
                bad.append(record)
            else:
                entries[entry.key] = entry
        self.entries = entries
        if bad:
            set_aside(self.path, "they are not send-queue entries", bad)
            self.save()

    def save(self) -> None:
        save_json(self.path, {"entries": [asdict(e) for e in self.entries.values()]})

    @contextlib.contextmanager
    def locked(self) -> Iterator[None]:
        """Change the queue as it is on disk, alone, and save it afterwards."""
        with flock(self.path.with_name("queue.lock")):
            self.reload()
            before = [asdict(e) for e in self.entries.values()]
            yield
            if [asdict(e) for e in self.entries.values()] != before:
                self.save()

    def lease(self, entry: Entry, worker: str, seconds: float, now: float | None = None) -> None:
        entry.leased_by = worker
        entry.next_at = (time.time() if now is None else now) + seconds

    def release_leases(self, worker: str) -> int:
        """Entries this worker leased before it was stopped become due at once."""
        count = 0
        for entry in self.pending():
            if entry.leased_by == worker and entry.next_at > 0:
                entry.leased_by, entry.next_at = "", 0.0
                count += 1
        return count

    def __contains__(self, key: str) -> bool:
        return key in self.entries

    def add(self, entry: Entry, save: bool = True) -> None:
        if entry.key not in self.entries:
            self.entries[entry.key] = entry
            if save:
                self.save()

    def due(self, now: float | None = None) -> list[Entry]:
        now = time.time() if now is None else now
        # A held notice is released (or dropped) by the notifier first, never sent as it was queued.
        ready = [e for e in self.entries.values() if e.status == PENDING and e.next_at <= now and not e.held_until]
        return sorted(ready, key=lambda e: (e.created_at, e.key))

    def held(self, now: float | None = None) -> list[Entry]:
        """The held notices whose hold is over."""
        now = time.time() if now is None else now
        return [e for e in self.entries.values() if e.status == PENDING and e.held_until and e.held_until <= now]

    def drop(self, key: str) -> None:
        """Forget a held notice that is not to be sent (replaced, or its decision was taken)."""
        del self.entries[key]

    def pending(self) -> list[Entry]:
        return [e for e in self.entries.values() if e.status == PENDING]

    def failed(self) -> list[Entry]:
        return [e for e in self.entries.values() if e.status == FAILED]

    def next_due_at(self) -> float | None:
        times = [e.next_at for e in self.entries.values() if e.status == PENDING]
        return min(times) if times else None

    def delay_for(self, attempts: int) -> float:
        """Exponential back-off: base, 2 base, 4 base, ... capped at max."""
        return float(min(self.base_delay * (2 ** max(0, attempts - 1)), self.max_delay))

    def mark_sent(self, entry: Entry, save: bool = True) -> None:
        entry.status, entry.sent_at, entry.last_error, entry.leased_by = SENT, time.time(), "", ""
        entry.attempts += 1
        if save:
            self.save()

    def mark_retry(self, entry: Entry, error: str, now: float | None = None, save: bool = True) -> float:
        now = time.time() if now is None else now
        entry.attempts += 1
        entry.last_error, entry.leased_by = error, ""
        delay = self.delay_for(entry.attempts)
        entry.next_at = now + delay
        if save:
            self.save()
        return delay

    def mark_failed(self, entry: Entry, error: str, save: bool = True) -> None:
        entry.status, entry.last_error, entry.leased_by = FAILED, error, ""
        entry.attempts += 1
        if save:
            self.save()

    def send_again(self, keys: list[str]) -> int:
        """Send these sent turn files once more (a claim says they never arrived); how many."""
        count = 0
        for key in keys:
            entry = self.entries.get(key)
            if entry is not None and entry.status == SENT:
                entry.status, entry.next_at = PENDING, 0.0
                count += 1
        return count

    def retry_failed(self) -> int:
        """Put every failed entry back in the queue (after a person fixed the cause)."""
        count = 0
        for entry in self.failed():
            entry.status, entry.next_at = PENDING, 0.0
            count += 1
        if count:
            self.save()
        return count
