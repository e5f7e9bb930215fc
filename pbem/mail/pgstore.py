"""The bot service's state in PostgreSQL, for workers on several machines sharing no files.

What the file store keeps under the workspace lives here instead: each game's files
(its folder under ``.pbem/games/``, its invitation, parent files, offer and its files
in ``outbox/``), the games owed a look, the send queue with each mail as it will go
out, the threads, the workers' heartbeats and the bot's identity directory.  A
worker copies a game into its own scratch folder while it holds the game's lock (an
advisory lock of the transaction), runs the game layer there, and writes back what
changed, the look it owes and the mails it made in the same transaction: a worker
killed at any point leaves the game as it was before the step, and its mail is
still in its claim folder, to be taken again.

Game files and the identity directory are sealed with AES-GCM under a key the
operator supplies (``PBEM_BOT_STORE_KEY`` or ``bot.store_key_file``), each bound to
its game and path, so a row moved to another place does not open.
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import hashlib
import os
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from pbem.errors import PbemError

if TYPE_CHECKING:
    from psycopg import Connection
    from psycopg.rows import TupleRow

try:
    import psycopg as psycopg  # named again: pgbackup takes it from here
except ImportError:  # the embedded file store needs no database adapter
    psycopg = None  # type: ignore[assignment]

STORE_ENV = "PBEM_BOT_STORE"
KEY_ENV = "PBEM_BOT_STORE_KEY"
_MIGRATION_LOCK = 0x7062656D  # one migration at a time, whoever runs it

#: The schema, one step per version: a step is never changed once released, only followed.
MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE pbem_meta (key text PRIMARY KEY, value text NOT NULL);
    CREATE TABLE games (
        id text PRIMARY KEY,
        version bigint NOT NULL,
        updated_at double precision NOT NULL
    );
    CREATE TABLE game_files (
        game_id text NOT NULL REFERENCES games (id),
        rel text NOT NULL,
        sha256 text NOT NULL,
        sealed bytea NOT NULL,
        PRIMARY KEY (game_id, rel)
    );
    CREATE TABLE home_files (name text PRIMARY KEY, sealed bytea NOT NULL);
    CREATE TABLE owed (game_id text PRIMARY KEY, queued_at double precision NOT NULL);
    CREATE TABLE outgoing (
        message_id text PRIMARY KEY,
        game_id text NOT NULL,
        what text NOT NULL,
        recipient text NOT NULL,
        mail bytea NOT NULL,
        status text NOT NULL DEFAULT 'pending',
        attempts integer NOT NULL DEFAULT 0,
        next_at double precision NOT NULL DEFAULT 0,
        leased_by text NOT NULL DEFAULT '',
        last_error text NOT NULL DEFAULT '',
        created_at double precision NOT NULL,
        sent_at double precision NOT NULL DEFAULT 0
    );
    CREATE INDEX outgoing_due ON outgoing (next_at) WHERE status = 'pending';
    CREATE TABLE queued_files (key text PRIMARY KEY, message_id text NOT NULL REFERENCES outgoing);
    CREATE TABLE threads (
        game_id text NOT NULL,
        message_id text NOT NULL,
        added bigserial,
        PRIMARY KEY (game_id, message_id)
    );
    CREATE TABLE workers (
        name text PRIMARY KEY,
        host text NOT NULL,
        pid integer NOT NULL,
        started_at double precision NOT NULL,
        seen_at double precision NOT NULL,
        played bigint NOT NULL DEFAULT 0
    );
    """,
    """
    CREATE TABLE claims (game_id text PRIMARY KEY REFERENCES games (id), due_at double precision NOT NULL);
    CREATE INDEX claims_due ON claims (due_at);
    """,
)


class StoreError(PbemError):
    """The database cannot be reached or refused a step: nothing of the step was kept."""

    def __init__(self, message: str) -> None:
        super().__init__(message, code="bot-store")


def is_database_url(value: str) -> bool:
    return value.startswith(("postgresql://", "postgres://"))


def parse_key(text: str) -> bytes:
    """The 32-byte store key from 64 hex digits or its base64 (what `pbem bot migrate --new-key` prints)."""
    text = text.strip()
    raw: bytes | None = None
    with contextlib.suppress(ValueError):
        raw = bytes.fromhex(text)
    if raw is None:
        with contextlib.suppress(binascii.Error, ValueError):
            raw = base64.urlsafe_b64decode(text.encode("ascii"))
    if raw is None or len(raw) != 32:
        raise PbemError(
            f"the bot store key must be 32 bytes, as 64 hex digits or base64 — set {KEY_ENV} "
            "or bot.store_key_file (`pbem bot migrate --new-key` makes one)",
            code="bot-store",
        )
    return raw


def new_key() -> str:
    return base64.urlsafe_b64encode(AESGCM.generate_key(bit_length=256)).decode("ascii")


def store_key(key_file: Path | None) -> bytes:
    """The operator's key: the environment first, then the configured file; none is refused."""
    text = os.environ.get(KEY_ENV, "")
    if not text and key_file is not None:
        try:
            text = key_file.read_text(encoding="ascii")
        except (OSError, UnicodeDecodeError) as err:
            raise PbemError(f"bot.store_key_file {key_file} cannot be read: {err}", code="bot-store") from err
    if not text:
        raise PbemError(
            f"a PostgreSQL bot store needs the key that seals the bot's keys and games: set {KEY_ENV} "
            "or bot.store_key_file (`pbem bot migrate --new-key` makes one)",
            code="bot-store",
        )
    return parse_key(text)


class Sealer:
    """AES-GCM with a fresh nonce per value; ``where`` (the value's place) is authenticated with it."""

    def __init__(self, key: bytes) -> None:
        self._aead = AESGCM(key)

    def seal(self, data: bytes, where: str) -> bytes:
        nonce = os.urandom(12)
        return nonce + self._aead.encrypt(nonce, data, where.encode("utf-8"))

    def open(self, sealed: bytes, where: str) -> bytes:
        try:
            return self._aead.decrypt(sealed[:12], sealed[12:], where.encode("utf-8"))
        except InvalidTag:
            raise PbemError(
                f"{where} in the bot store does not open with this key: is {KEY_ENV} the key the store was "
                "written with?",
                code="bot-store",
            ) from None


def game_lock_key(game_id: str) -> int:
    """The advisory lock of one game: 64 bits of its id's hash, as PostgreSQL's signed bigint."""
    return int.from_bytes(hashlib.sha256(b"pbem-game:" + game_id.encode()).digest()[:8], "big", signed=True)


@dataclass
class Outgoing:
    message_id: str
    what: str
    recipient: str
    mail: bytes
    attempts: int = 0
    failed: str = ""  # why it cannot be sent at all: queued as failed, never sent


@dataclass
class QueuedMail:
    """A row of the send queue as the operator sees it (the mail itself aside)."""

    message_id: str
    game_id: str
    what: str
    recipient: str
    status: str
    attempts: int
    next_at: float
    leased_by: str
    last_error: str
    unwritable: bool


@dataclass
class WorkerRow:
    name: str
    host: str
    pid: int
    seen_at: float
    played: int


class Store:
    """One connection to the database; every method is one transaction (or a step's part of one)."""

    def __init__(self, url: str, key: bytes | None) -> None:
        if psycopg is None:
            raise PbemError("the PostgreSQL bot store needs psycopg: pip install 'pbem[service]'", code="bot-store")
        self.url = url
        self.sealer = Sealer(key) if key is not None else None
        self._conn: Connection[TupleRow] | None = None

    # --- the connection ------------------------------------------------------------------------
    def conn(self) -> Connection[TupleRow]:
        if self._conn is None or self._conn.closed:
            try:
                self._conn = psycopg.connect(self.url, connect_timeout=10, application_name="pbem-bot")
            except psycopg.Error as err:
                raise StoreError(f"cannot reach the bot store database: {_one_line(err)}") from None
        return self._conn

    def close(self) -> None:
        if self._conn is not None:
            with contextlib.suppress(Exception):
                self._conn.close()
        self._conn = None

    @contextlib.contextmanager
    def tx(self) -> Iterator[Connection[TupleRow]]:
        """One transaction; a lost connection becomes a StoreError and the next call connects again."""
        try:
            conn = self.conn()
            with conn.transaction():
                yield conn
        except (psycopg.OperationalError, psycopg.InterfaceError) as err:
            self.close()
            raise StoreError(f"the bot store database failed: {_one_line(err)}") from None

    @contextlib.contextmanager
    def snapshot(self) -> Iterator[Connection[TupleRow]]:
        """A read-only transaction that sees one moment of the database (REPEATABLE READ),
        on a connection of its own so that the store's own stays as it was."""
        try:
            with psycopg.connect(self.url, connect_timeout=10, application_name="pbem-bot-backup") as conn:
                conn.isolation_level = psycopg.IsolationLevel.REPEATABLE_READ
                conn.read_only = True
                with conn.transaction():
                    yield conn
        except psycopg.Error as err:
            raise StoreError(f"the bot store database failed: {_one_line(err)}") from None

    def _sealer(self) -> Sealer:
        if self.sealer is None:
            raise PbemError("the bot store key is needed for this", code="bot-store")
        return self.sealer

    # --- the schema ----------------------------------------------------------------------------
    def version(self) -> int:
        with self.tx() as c:
            found = _one(c.execute("SELECT to_regclass('pbem_schema') IS NOT NULL").fetchone())
            if not found[0]:
                return 0
            return int(_one(c.execute("SELECT coalesce(max(version), 0) FROM pbem_schema").fetchone())[0])

    def migrate(self, upto: int = len(MIGRATIONS)) -> list[int]:
        """Apply the steps this database lacks up to ``upto``, in order, each in its own transaction."""
        applied = []
        for number, sql in enumerate(MIGRATIONS[:upto], start=1):
            with self.tx() as c:
                c.execute("SELECT pg_advisory_xact_lock(%s)", (_MIGRATION_LOCK,))
                c.execute(
                    "CREATE TABLE IF NOT EXISTS pbem_schema (version integer PRIMARY KEY, applied_at double precision)"
                )
                if c.execute("SELECT 1 FROM pbem_schema WHERE version = %s", (number,)).fetchone():
                    continue
                c.execute(sql)
                c.execute("INSERT INTO pbem_schema VALUES (%s, %s)", (number, time.time()))
                applied.append(number)
        return applied

    def check_schema(self) -> None:
        have = self.version()
        if have != len(MIGRATIONS):
            what = (
                "has no schema yet"
                if have == 0
                else f"is at schema version {have}, this program needs {len(MIGRATIONS)}"
            )
            raise PbemError(f"the bot store database {what}: run `pbem bot migrate` first", code="bot-store")

    # --- workspace-wide values -----------------------------------------------------------------
    def meta(self, key: str, default: str) -> str:
        """The stored value, set to ``default`` when there is none yet (the first writer wins)."""
        with self.tx() as c:
            c.execute("INSERT INTO pbem_meta VALUES (%s, %s) ON CONFLICT DO NOTHING", (key, default))
            return str(_one(c.execute("SELECT value FROM pbem_meta WHERE key = %s", (key,)).fetchone())[0])

    def set_meta(self, key: str, value: str) -> None:
        with self.tx() as c:
            c.execute(
                "INSERT INTO pbem_meta VALUES (%s, %s) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (key, value),
            )

    def home_names(self) -> list[str]:
        with self.tx() as c:
            return [r[0] for r in c.execute("SELECT name FROM home_files ORDER BY name")]

    def load_home(self, into: Path) -> int:
        """Write the identity directory into ``into`` (private files); how many."""
        into.mkdir(mode=0o700, parents=True, exist_ok=True)
        with self.tx() as c:
            rows = c.execute("SELECT name, sealed FROM home_files").fetchall()
        for name, sealed in rows:
            data = self._sealer().open(bytes(sealed), f"home/{name}")
            fd = os.open(into / name, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "wb") as out:
                out.write(data)
        return len(rows)

    def save_home(self, home: Path) -> int:
        """Store every file of the identity directory (its keys, public keys and settings)."""
        files = [p for p in sorted(home.iterdir()) if p.is_file() and p.suffix in (".key", ".pub", ".json")]
        with self.tx() as c:
            for path in files:
                sealed = self._sealer().seal(path.read_bytes(), f"home/{path.name}")
                c.execute(
                    "INSERT INTO home_files VALUES (%s, %s) ON CONFLICT (name) DO UPDATE SET sealed = excluded.sealed",
                    (path.name, sealed),
                )
        return len(files)

    # --- games ---------------------------------------------------------------------------------
    def has_game(self, game_id: str) -> bool:
        """Whether the game was joined or made here (its folder has its meta.json)."""
        with self.tx() as c:
            rel = f".pbem/games/{game_id}/meta.json"
            return (
                c.execute("SELECT 1 FROM game_files WHERE game_id = %s AND rel = %s", (game_id, rel)).fetchone()
                is not None
            )

    def owe(self, game_id: str) -> None:
        with self.tx() as c:
            c.execute(
                "INSERT INTO owed VALUES (%s, %s) ON CONFLICT (game_id) DO UPDATE SET queued_at = excluded.queued_at",
                (game_id, time.time()),
            )

    @contextlib.contextmanager
    def game_step(
        self, game_id: str, owed: bool = False, have: int = 0, claim_by: float | None = None
    ) -> Iterator[GameStep | None]:
        """A transaction holding the game's lock, with its stored files' hashes, and their
        contents unless the caller has version ``have`` already (then ``files`` is None).

        ``owed``: take the game only if it is owed a look that no other worker is taking
        now (SKIP LOCKED), without waiting for its lock; None when it is not to be taken.
        ``claim_by``: the same for a game whose claim falls due by then.
        Otherwise wait for the game's lock (an import waits for a look in progress).
        """
        with self.tx() as c:
            if owed or claim_by is not None:
                row = (
                    c.execute("SELECT 1 FROM owed WHERE game_id = %s FOR UPDATE SKIP LOCKED", (game_id,)).fetchone()
                    if owed
                    else c.execute(
                        "SELECT 1 FROM claims WHERE game_id = %s AND due_at <= %s FOR UPDATE SKIP LOCKED",
                        (game_id, claim_by),
                    ).fetchone()
                )
                got = (
                    row is not None
                    and _one(c.execute("SELECT pg_try_advisory_xact_lock(%s)", (game_lock_key(game_id),)).fetchone())[0]
                )
                if not got:
                    yield None
                    return
            else:
                c.execute("SELECT pg_advisory_xact_lock(%s)", (game_lock_key(game_id),))
            found = c.execute("SELECT version FROM games WHERE id = %s", (game_id,)).fetchone()
            version = 0 if found is None else int(found[0])
            hashes: dict[str, str] = {}
            files: dict[str, bytes] | None = None
            if version and version == have:
                hashes = dict(c.execute("SELECT rel, sha256 FROM game_files WHERE game_id = %s", (game_id,)).fetchall())
            else:
                files = {}
                rows = c.execute("SELECT rel, sha256, sealed FROM game_files WHERE game_id = %s", (game_id,))
                for rel, digest, sealed in rows:
                    files[rel] = self._sealer().open(bytes(sealed), f"{game_id}/{rel}")
                    hashes[rel] = digest
            yield GameStep(self, c, game_id, version, hashes, files)

    def game_ids(self) -> list[str]:
        with self.tx() as c:
            return [r[0] for r in c.execute("SELECT id FROM games ORDER BY id")]

    def owed_games(self, limit: int = 100) -> list[str]:
        with self.tx() as c:
            rows = c.execute("SELECT game_id FROM owed ORDER BY queued_at, game_id LIMIT %s", (limit,))
            return [r[0] for r in rows]

    def claims_due(self, now: float, limit: int = 100) -> list[str]:
        """The games in which the bot may claim its opponent's missed deadline at ``now``."""
        with self.tx() as c:
            rows = c.execute("SELECT game_id FROM claims WHERE due_at <= %s ORDER BY due_at LIMIT %s", (now, limit))
            return [r[0] for r in rows]

    def queued(self, keys: list[str]) -> set[str]:
        with self.tx() as c:
            rows = c.execute("SELECT key FROM queued_files WHERE key = ANY(%s)", (keys,))
            return {r[0] for r in rows}

    # --- the send queue ------------------------------------------------------------------------
    def lease_due(self, worker: str, seconds: float, limit: int = 20) -> list[Outgoing]:
        """Due mails no other worker is sending now, leased to ``worker`` for ``seconds``."""
        now = time.time()
        with self.tx() as c:
            rows = c.execute(
                "SELECT message_id, what, recipient, mail, attempts FROM outgoing "
                "WHERE status = 'pending' AND next_at <= %s ORDER BY created_at, message_id "
                "LIMIT %s FOR UPDATE SKIP LOCKED",
                (now, limit),
            ).fetchall()
            ids = [r[0] for r in rows]
            c.execute(
                "UPDATE outgoing SET leased_by = %s, next_at = %s WHERE message_id = ANY(%s)",
                (worker, now + seconds, ids),
            )
        return [Outgoing(r[0], r[1], r[2], bytes(r[3]), r[4]) for r in rows]

    def mark_sent(self, message_id: str) -> None:
        with self.tx() as c:
            c.execute(
                "UPDATE outgoing SET status = 'sent', sent_at = %s, attempts = attempts + 1, leased_by = '', "
                "last_error = '' WHERE message_id = %s",
                (time.time(), message_id),
            )

    def mark_retry(self, message_id: str, error: str, delay: float) -> None:
        with self.tx() as c:
            c.execute(
                "UPDATE outgoing SET attempts = attempts + 1, last_error = %s, leased_by = '', next_at = %s "
                "WHERE message_id = %s",
                (error, time.time() + delay, message_id),
            )

    def mark_failed(self, message_id: str, error: str) -> None:
        with self.tx() as c:
            c.execute(
                "UPDATE outgoing SET status = 'failed', attempts = attempts + 1, last_error = %s, leased_by = '' "
                "WHERE message_id = %s",
                (error, message_id),
            )

    def release_leases(self, worker: str) -> int:
        with self.tx() as c:
            done = c.execute(
                "UPDATE outgoing SET leased_by = '', next_at = 0 WHERE status = 'pending' AND leased_by = %s", (worker,)
            )
            return int(done.rowcount)

    def next_due_at(self) -> float | None:
        with self.tx() as c:
            row = _one(c.execute("SELECT min(next_at) FROM outgoing WHERE status = 'pending'").fetchone())
            return None if row[0] is None else float(row[0])

    # --- threads -------------------------------------------------------------------------------
    def thread(self, game_id: str, last: int) -> list[str]:
        with self.tx() as c:
            rows = c.execute(
                "SELECT message_id FROM threads WHERE game_id = %s ORDER BY added DESC LIMIT %s", (game_id, last)
            ).fetchall()
        return [r[0] for r in reversed(rows)]

    def add_thread(self, pairs: list[tuple[str, str]]) -> None:
        with self.tx() as c:
            for game_id, message_id in pairs:
                c.execute(
                    "INSERT INTO threads (game_id, message_id) VALUES (%s, %s) ON CONFLICT DO NOTHING",
                    (game_id, message_id),
                )

    # --- workers -------------------------------------------------------------------------------
    def heartbeat(self, worker: str, host: str, pid: int, started_at: float, played: int) -> None:
        with self.tx() as c:
            c.execute(
                "INSERT INTO workers VALUES (%s, %s, %s, %s, %s, %s) ON CONFLICT (name) DO UPDATE SET "
                "host = excluded.host, pid = excluded.pid, started_at = excluded.started_at, "
                "seen_at = excluded.seen_at, played = excluded.played",
                (worker, host, pid, started_at, time.time(), played),
            )

    def workers(self) -> list[WorkerRow]:
        with self.tx() as c:
            rows = c.execute("SELECT name, host, pid, seen_at, played FROM workers ORDER BY name").fetchall()
        return [WorkerRow(r[0], r[1], int(r[2]), float(r[3]), int(r[4])) for r in rows]

    # --- the operator's view -------------------------------------------------------------------
    def mails_unsent(self) -> list[QueuedMail]:
        """The mails waiting to go and those that failed for good, oldest first."""
        with self.tx() as c:
            rows = c.execute(
                "SELECT message_id, game_id, what, recipient, status, attempts, next_at, leased_by, last_error, "
                "octet_length(mail) = 0 FROM outgoing WHERE status IN ('pending', 'failed') "
                "ORDER BY created_at, message_id"
            ).fetchall()
        return [QueuedMail(r[0], r[1], r[2], r[3], r[4], int(r[5]), float(r[6]), r[7], r[8], bool(r[9])) for r in rows]

    def games_waiting(self) -> dict[str, tuple[float | None, float | None]]:
        """Each game owed a look (since when) or with a deadline claim to come (when)."""
        with self.tx() as c:
            rows = c.execute(
                "SELECT coalesce(o.game_id, k.game_id), o.queued_at, k.due_at "
                "FROM owed o FULL JOIN claims k ON k.game_id = o.game_id ORDER BY 1"
            ).fetchall()
        return {r[0]: (r[1], r[2]) for r in rows}

    def sent_count(self) -> int:
        with self.tx() as c:
            return int(_one(c.execute("SELECT count(*) FROM outgoing WHERE status = 'sent'").fetchone())[0])

    def retry_failed(self) -> tuple[int, int]:
        """Queue the failed mails again, to go at once; how many, and how many cannot go
        (no mail could be written for their files: they stay failed)."""
        with self.tx() as c:
            again = c.execute(
                "UPDATE outgoing SET status = 'pending', next_at = 0, leased_by = '' "
                "WHERE status = 'failed' AND octet_length(mail) > 0"
            ).rowcount
            unwritable = _one(c.execute("SELECT count(*) FROM outgoing WHERE status = 'failed'").fetchone())[0]
        return int(again), int(unwritable)

    # --- health --------------------------------------------------------------------------------
    def backlog(self) -> tuple[int, float | None, int, float | None, int]:
        """Games owed a look and the oldest one's time, mails to send and the oldest's, failed mails."""
        with self.tx() as c:
            owed, oldest_owed = _one(c.execute("SELECT count(*), min(queued_at) FROM owed").fetchone())
            sending, oldest_mail = _one(
                c.execute("SELECT count(*), min(created_at) FROM outgoing WHERE status = 'pending'").fetchone()
            )
            failed = _one(c.execute("SELECT count(*) FROM outgoing WHERE status = 'failed'").fetchone())[0]
        return int(owed), oldest_owed, int(sending), oldest_mail, int(failed)


def _one(row: TupleRow | None) -> TupleRow:
    """The row a query that always answers one (a count, a min, a lock's answer) gave."""
    if row is None:
        raise StoreError("the bot store database answered no row where one is always due")
    return row


class GameStep:
    """One game's files as stored, and what the step writes back when it ends well."""

    def __init__(
        self,
        store: Store,
        c: Connection[TupleRow],
        game_id: str,
        version: int,
        hashes: dict[str, str],
        files: dict[str, bytes] | None,
    ) -> None:
        self.store, self.c, self.game_id, self.version = store, c, game_id, version
        self.hashes, self.files = hashes, files
        self.claim_at: float | None = None  # when the bot may claim in the game, as the step leaves it

    def save(self, files: dict[str, bytes], owed: bool, done: bool, mails: list[tuple[Outgoing, list[str]]]) -> int:
        """Write the game's files as they are now, the look it is owed (``owed``) or had
        (``done``), and its new mails with the file keys each carries; the new version."""
        c, gid = self.c, self.game_id
        now = time.time()
        digests = {rel: hashlib.sha256(data).hexdigest() for rel, data in files.items()}
        changed = {rel: data for rel, data in files.items() if self.hashes.get(rel) != digests[rel]}
        gone = [rel for rel in self.hashes if rel not in files]
        version = self.version
        if changed or gone:
            version += 1
            c.execute(
                "INSERT INTO games VALUES (%s, %s, %s) ON CONFLICT (id) DO UPDATE SET version = excluded.version, "
                "updated_at = excluded.updated_at",
                (gid, version, now),
            )
            sealer = self.store._sealer()
            for rel, data in sorted(changed.items()):
                c.execute(
                    "INSERT INTO game_files VALUES (%s, %s, %s, %s) ON CONFLICT (game_id, rel) DO UPDATE SET "
                    "sha256 = excluded.sha256, sealed = excluded.sealed",
                    (gid, rel, digests[rel], sealer.seal(data, f"{gid}/{rel}")),
                )
            if gone:
                c.execute("DELETE FROM game_files WHERE game_id = %s AND rel = ANY(%s)", (gid, gone))
        for mail, keys in mails:
            c.execute(
                "INSERT INTO outgoing (message_id, game_id, what, recipient, mail, created_at, status, last_error) "
                "VALUES (%s, %s, %s, %s, %s, %s, %s, %s) ON CONFLICT DO NOTHING",
                (
                    mail.message_id,
                    gid,
                    mail.what,
                    mail.recipient,
                    mail.mail,
                    now,
                    "failed" if mail.failed else "pending",
                    mail.failed,
                ),
            )
            for key in keys:
                c.execute("INSERT INTO queued_files VALUES (%s, %s) ON CONFLICT DO NOTHING", (key, mail.message_id))
        if self.claim_at is None:
            c.execute("DELETE FROM claims WHERE game_id = %s", (gid,))
        elif version:  # a claim needs the game stored
            c.execute(
                "INSERT INTO claims VALUES (%s, %s) ON CONFLICT (game_id) DO UPDATE SET due_at = excluded.due_at",
                (gid, self.claim_at),
            )
        if done:
            c.execute("DELETE FROM owed WHERE game_id = %s", (gid,))
        if owed:
            c.execute(
                "INSERT INTO owed VALUES (%s, %s) ON CONFLICT (game_id) DO UPDATE SET queued_at = excluded.queued_at",
                (gid, now),
            )
        return version

    def queued(self, keys: list[str]) -> set[str]:
        rows = self.c.execute("SELECT key FROM queued_files WHERE key = ANY(%s)", (keys,))
        return {r[0] for r in rows}


def _one_line(err: BaseException) -> str:
    return " ".join(str(err).split())[:300] or type(err).__name__
