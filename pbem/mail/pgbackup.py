"""Back-up and restore of the bot service's PostgreSQL store (``pbem bot backup`` / ``restore``).

A back-up is one snapshot of the database (a read-only REPEATABLE READ transaction), taken
while workers run: each worker step is one transaction, so the snapshot holds every step
whole or not at all.  It holds the rows as stored, the game files and the bot's identity
still sealed: the store key is never in the database, so it is not in the back-up either,
and a back-up without its key opens nothing.  The file is one JSON value a line: a header,
the rows, and a closing line with the count and SHA-256 of the lines before it, so a cut or
altered file is refused before anything is written.  The workers' heartbeats are left out:
they belong to processes, not to the games.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from pbem.errors import PbemError
from pbem.mail.pgstore import MIGRATIONS, Store, StoreError, psycopg
from pbem.protocol.jsondoc import Json

FORMAT = "pbem-bot-backup"
FORMAT_VERSION = 1

#: The tables a back-up holds, parents before the rows that name them, with their columns.
TABLES: dict[str, tuple[str, ...]] = {
    "pbem_meta": ("key", "value"),
    "games": ("id", "version", "updated_at"),
    "game_files": ("game_id", "rel", "sha256", "sealed"),
    "home_files": ("name", "sealed"),
    "owed": ("game_id", "queued_at"),
    "outgoing": (
        "message_id",
        "game_id",
        "what",
        "recipient",
        "mail",
        "status",
        "attempts",
        "next_at",
        "leased_by",
        "last_error",
        "created_at",
        "sent_at",
    ),
    "queued_files": ("key", "message_id"),
    "threads": ("game_id", "message_id", "added"),
    "claims": ("game_id", "due_at"),
}
#: The schema version that made each table after the first.
SINCE = {"claims": 2}
_BYTES = {("game_files", "sealed"), ("home_files", "sealed"), ("outgoing", "mail")}


def tables(schema: int) -> list[str]:
    """The tables of a database at schema version ``schema``."""
    return [t for t in TABLES if SINCE.get(t, 1) <= schema]


@dataclass
class Summary:
    schema: int
    taken_at: float
    rows: dict[str, int]

    def line(self) -> str:
        counted = ", ".join(
            f"{n} {t}" for t, n in self.rows.items() if t in ("games", "game_files", "outgoing", "owed")
        )
        taken = time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime(self.taken_at))
        return f"schema version {self.schema}, taken {taken}: {counted}"


def _encode(table: str, row: tuple[object, ...]) -> list[object]:
    out: list[object] = []
    for col, v in zip(TABLES[table], row, strict=True):
        if (table, col) in _BYTES:
            if not isinstance(v, bytes | bytearray | memoryview):
                raise TypeError(f"{table}.{col} holds {type(v).__name__}, not bytes")
            v = base64.b64encode(bytes(v)).decode("ascii")
        out.append(v)
    return out


def _decode(table: str, values: list[Json]) -> tuple[object, ...]:
    if len(values) != len(TABLES[table]):
        raise ValueError(f"a row of {table} has {len(values)} values, not {len(TABLES[table])}")
    out: list[object] = []
    for col, v in zip(TABLES[table], values, strict=True):
        if (table, col) in _BYTES:
            if not isinstance(v, str):
                raise ValueError(f"{table}.{col} is not base64 text")
            out.append(base64.b64decode(v, validate=True))
        else:
            out.append(v)
    return tuple(out)


@dataclass(frozen=True)
class _Header:
    schema: int
    taken_at: float


def backup(store: Store, out: Path) -> Summary:
    """Write one consistent snapshot of the store to ``out`` (whole, or not at all)."""
    if out.exists():
        raise PbemError(f"{out} exists already: name a new file for the back-up", code="usage")
    store.check_schema()
    part = out.with_name(f".{out.name}.part")
    digest = hashlib.sha256()
    rows: dict[str, int] = {}
    taken_at = time.time()
    try:
        fd = os.open(part, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as f:

            def put(value: object) -> None:
                line = json.dumps(value, separators=(",", ":")) + "\n"
                digest.update(line.encode("utf-8"))
                f.write(line)

            with store.snapshot() as c:
                put({"format": FORMAT, "version": FORMAT_VERSION, "schema": len(MIGRATIONS), "taken_at": taken_at})
                for table, columns in TABLES.items():
                    rows[table] = 0
                    with c.cursor(name=f"dump_{table}") as cur:
                        cur.execute(f"SELECT {', '.join(columns)} FROM {table} ORDER BY 1, 2")
                        for row in cur:
                            put([table, _encode(table, row)])
                            rows[table] += 1
            f.write(json.dumps({"end": sum(rows.values()), "sha256": digest.hexdigest()}) + "\n")
            f.flush()
            os.fsync(f.fileno())
        os.replace(part, out)
    except OSError as err:
        part.unlink(missing_ok=True)
        raise PbemError(f"cannot write the back-up {out}: {err.strerror or err}", code="usage") from None
    except BaseException:
        part.unlink(missing_ok=True)
        raise
    return Summary(len(MIGRATIONS), taken_at, rows)


def _read(source: Path) -> tuple[_Header, Iterator[tuple[str, tuple[object, ...]]]]:
    """The header of a back-up, and its rows; the whole file is checked first."""
    bad = f"{source} is not a whole pbem bot back-up"
    digest = hashlib.sha256()
    count = -1
    ended = False
    try:
        with source.open("rb") as f:
            for raw in f:
                if ended:
                    raise PbemError(f"{bad}: lines follow its end", code="bot-backup")
                if raw.startswith(b'{"end"'):
                    end = json.loads(raw)
                    if end != {"end": count, "sha256": digest.hexdigest()}:
                        raise PbemError(f"{bad}: it was altered (its check does not match)", code="bot-backup")
                    ended = True
                    continue
                digest.update(raw)
                count += 1
    except OSError as err:
        raise PbemError(f"cannot read {source}: {err.strerror or err}", code="usage") from None
    except (ValueError, UnicodeDecodeError):
        raise PbemError(f"{bad}: its last line is damaged", code="bot-backup") from None
    if not ended:
        raise PbemError(f"{bad}: it is cut short (no closing line)", code="bot-backup")

    def lines() -> Iterator[Json]:
        with source.open(encoding="utf-8") as f:
            for line in f:
                yield json.loads(line)

    values = lines()
    first = next(values)
    if not isinstance(first, dict) or first.get("format") != FORMAT:
        raise PbemError(f"{bad}: it does not start as one", code="bot-backup")
    schema, taken_at = first.get("schema"), first.get("taken_at")
    if first.get("version") != FORMAT_VERSION or not isinstance(schema, int) or not isinstance(taken_at, int | float):
        raise PbemError(f"{source} is a back-up of a format this program does not read", code="bot-backup")
    header = _Header(schema, float(taken_at))

    def rows() -> Iterator[tuple[str, tuple[object, ...]]]:
        for value in values:
            if isinstance(value, dict):
                return  # the closing line, already checked
            if not (isinstance(value, list) and len(value) == 2 and isinstance(value[0], str)):
                raise PbemError(f"{bad}: a line is not a table's row", code="bot-backup")
            table, data = value
            if table not in tables(header.schema) or not isinstance(data, list):
                raise PbemError(f"{bad}: it names a table {table!r}", code="bot-backup")
            yield table, _decode(table, data)

    return header, rows()


def restore(store: Store, source: Path, replace: bool = False) -> Summary:
    """Load a back-up into the store's database: refused onto one holding a service's data
    unless ``replace``, refused when the back-up does not open with this store key; all the
    rows in one transaction, then the schema brought to this program's version."""
    header, rows = _read(source)
    schema = header.schema
    if schema > len(MIGRATIONS):
        raise PbemError(
            f"{source} is of schema version {schema}; this program knows {len(MIGRATIONS)}: restore with a newer pbem",
            code="bot-backup",
        )
    have = store.version()
    if have > schema:
        raise PbemError(
            f"the database is at schema version {have}, newer than the back-up's {schema}: restore into a new database",
            code="bot-backup",
        )
    store.migrate(upto=schema)
    present = tables(schema)
    counted: dict[str, int] = dict.fromkeys(present, 0)
    try:
        with store.tx() as c:
            for table in present:
                c.execute(f"LOCK TABLE {table} IN ACCESS EXCLUSIVE MODE")
            held = [t for t in present if c.execute(f"SELECT 1 FROM {t} LIMIT 1").fetchone()]
            if held and not replace:
                raise PbemError(
                    f"the database holds a bot service already ({', '.join(held)} not empty): restore into an "
                    "empty database, or give --replace to drop what it holds (stop every worker first)",
                    code="bot-backup",
                )
            c.execute(f"TRUNCATE {', '.join(present)}, workers")
            for table, values in rows:
                columns = TABLES[table]
                if table == "home_files":
                    sealed = values[1]
                    if not isinstance(sealed, bytes):
                        raise ValueError("home_files.sealed is not bytes")
                    store._sealer().open(sealed, f"home/{values[0]}")  # the right key, before anything stays
                c.execute(
                    f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join(['%s'] * len(columns))})",
                    values,
                )
                counted[table] += 1
            c.execute(
                "SELECT setval(pg_get_serial_sequence('threads', 'added'), coalesce(max(added), 0) + 1, false) "
                "FROM threads"
            )
    except (ValueError, TypeError, KeyError) as err:
        raise PbemError(f"{source} is not a whole pbem bot back-up: {err}", code="bot-backup") from None
    except StoreError:
        raise
    except Exception as err:
        if psycopg is None or not isinstance(err, psycopg.Error):
            raise
        raise PbemError(
            f"the database refused the back-up {source}: {' '.join(str(err).split())[:300]}", code="bot-backup"
        ) from None
    store.migrate()
    return Summary(schema, header.taken_at, counted)
