"""Back-up and restore of the bot service's PostgreSQL store on a private server: one
consistent snapshot while steps run, the key never in the file, a cut or altered file, a
wrong key and a database in use refused with nothing written."""

from __future__ import annotations

import base64
import itertools
import os
import subprocess
import threading
from pathlib import Path

import pytest
from mailtesting import pbem_command, subprocess_env
from pgserver import PgServer

from pbem.errors import PbemError
from pbem.mail.pgbackup import TABLES, backup, restore
from pbem.mail.pgstore import Outgoing, Store, new_key, parse_key

KEY_TEXT = new_key()
KEY = parse_key(KEY_TEXT)
_restored = itertools.count()
SECRET = b"sealed orders: Panzergruppe 4 towards Leningrad"


@pytest.fixture
def store(pg_url: str) -> Store:
    db = Store(pg_url, KEY)
    db.migrate()
    return db


@pytest.fixture
def empty(pg_server: PgServer) -> Store:
    """A second, empty database on the same server: where a back-up is restored."""
    return Store(pg_server.new_database(f"r{next(_restored)}x{os.getpid()}"), KEY)


def fill(db: Store, home: Path) -> None:
    home.mkdir()
    (home / "bot.key").write_bytes(b"pbem private key v2\nsecret: SEEDSEEDSEED\n")
    db.save_home(home)
    db.meta("workspace-id", "0123456789abcdef")
    for n in range(3):
        gid = f"a0000000000{n}"
        with db.game_step(gid) as step:
            assert step is not None
            mail = Outgoing(f"<m{n}@bot>", f"{gid}-00002-allies.pbem", "axis@example.org", b"mail %d" % n)
            step.save(
                {f".pbem/games/{gid}/meta.json": b"{}", f".pbem/games/{gid}/secret": SECRET},
                n == 1,
                False,
                [(mail, [f"{gid}-00002-allies.pbem:{n}"])],
            )
    db.add_thread([("a00000000000", "<t1@axis>"), ("a00000000000", "<t2@axis>")])
    db.heartbeat("m1", "host", 1, 0.0, 0)


def rows(db: Store) -> dict[str, list[tuple[object, ...]]]:
    with db.tx() as c:
        return {
            t: [
                tuple(bytes(v) if isinstance(v, memoryview) else v for v in r)
                for r in c.execute(f"SELECT * FROM {t} ORDER BY 1, 2")
            ]
            for t in TABLES
        }


def test_a_backup_restored_into_an_empty_database_holds_every_row_and_never_the_key(
    store: Store, empty: Store, tmp_path: Path
) -> None:
    fill(store, tmp_path / "home")
    out = tmp_path / "bot.backup"
    made = backup(Store(store.url, None), out)  # no key needed to take one
    assert made.rows["games"] == 3 and made.rows["outgoing"] == 3 and made.rows["owed"] == 1
    text = out.read_bytes()
    for plain in (KEY, KEY.hex().encode(), KEY_TEXT.encode(), SECRET, b"SEEDSEED"):
        assert plain not in text
        assert base64.b64encode(plain)[:20] not in text
    assert out.stat().st_mode & 0o077 == 0
    done = restore(empty, out)
    assert done.rows == made.rows
    assert rows(empty) == rows(store)
    assert empty.workers() == []  # heartbeats belong to processes, not to the games
    with empty.game_step("a00000000001") as step:
        assert step is not None and step.files is not None
        assert step.files[".pbem/games/a00000000001/secret"] == SECRET
    # The threads go on numbering after the restored ones.
    empty.add_thread([("a00000000000", "<t3@axis>")])
    assert empty.thread("a00000000000", 5) == ["<t1@axis>", "<t2@axis>", "<t3@axis>"]
    empty.check_schema()


def test_a_backup_taken_while_steps_run_is_one_moment_of_the_database(
    store: Store, empty: Store, tmp_path: Path
) -> None:
    # Each step writes the game's counter into two files and a mail in one transaction:
    # a snapshot taken across steps would show them disagreeing.
    stop = threading.Event()
    steps = [0]

    def writer() -> None:
        db = Store(store.url, KEY)
        n = 0
        while not stop.is_set():
            n += 1
            with db.game_step("b00000000000") as step:
                assert step is not None
                files = {f".pbem/games/b00000000000/{name}": b"%d" % n for name in ("left", "right")}
                step.save(files, False, False, [(Outgoing(f"<n{n}@bot>", "x", "axis@example.org", b"%d" % n), [])])
            steps[0] = n
        db.close()

    thread = threading.Thread(target=writer)
    thread.start()
    try:
        backups = []
        for k in range(4):
            while steps[0] < 5 * (k + 1):
                stop.wait(0.01)
            backups.append(tmp_path / f"b{k}.backup")
            backup(store, backups[-1])
    finally:
        stop.set()
        thread.join()
    for path in backups:
        restore(empty, path, replace=True)
        with empty.game_step("b00000000000") as step:
            assert step is not None and step.files is not None
            left, right = step.files[".pbem/games/b00000000000/left"], step.files[".pbem/games/b00000000000/right"]
            assert left == right and step.version == int(left)
        with empty.tx() as c:
            assert c.execute("SELECT count(*) FROM outgoing").fetchone() == (int(left),)


def test_a_restore_onto_a_service_in_use_is_refused_unless_replace(store: Store, empty: Store, tmp_path: Path) -> None:
    fill(store, tmp_path / "home")
    out = tmp_path / "bot.backup"
    backup(store, out)
    empty.migrate()
    with empty.game_step("c00000000000") as step:
        assert step is not None
        step.save({".pbem/games/c00000000000/meta.json": b"{}"}, True, False, [])
    before = rows(empty)
    with pytest.raises(
        PbemError, match=r"holds a bot service already \(games, game_files, owed not empty\).*--replace"
    ):
        restore(empty, out)
    assert rows(empty) == before
    restore(empty, out, replace=True)
    assert rows(empty) == rows(store) and not empty.has_game("c00000000000")


def test_a_wrong_key_or_a_cut_or_altered_backup_is_refused_with_nothing_written(
    store: Store, empty: Store, tmp_path: Path
) -> None:
    fill(store, tmp_path / "home")
    out = tmp_path / "bot.backup"
    backup(store, out)
    with pytest.raises(PbemError, match="does not open with this key"):
        restore(Store(empty.url, parse_key(new_key())), out)
    assert all(not r for r in rows(empty).values())
    lines = out.read_bytes().splitlines(keepends=True)
    cut = tmp_path / "cut.backup"
    cut.write_bytes(b"".join(lines[:-2]))
    with pytest.raises(PbemError, match="it is cut short"):
        restore(empty, cut)
    altered = tmp_path / "altered.backup"
    altered.write_bytes(b"".join(lines).replace(b"axis@example.org", b"evil@example.org"))
    with pytest.raises(PbemError, match="it was altered"):
        restore(empty, altered)
    assert all(not r for r in rows(empty).values())
    with pytest.raises(PbemError, match="exists already"):
        backup(store, out)


def test_the_commands_say_what_is_wrong_in_one_line(store: Store, empty: Store, make_player, tmp_path: Path) -> None:
    fill(store, tmp_path / "home")
    bot = make_player("bot")
    env = {**subprocess_env(), "PBEM_BOT_STORE_KEY": KEY_TEXT}

    def cli(*args: str, url: str) -> subprocess.CompletedProcess[str]:
        every = pbem_command("bot", *args, "--config", str(bot.config_path), "--store", url)
        return subprocess.run(every, env=env, capture_output=True, text=True, timeout=120)

    out = tmp_path / "bot.backup"
    made = cli("backup", str(out), url=store.url)
    assert made.returncode == 0, made.stderr
    assert "backed up to" in made.stdout and "3 games" in made.stdout
    for done, expected in (
        (cli("backup", str(out), url=store.url), "exists already"),
        (cli("restore", str(out), url=store.url), "holds a bot service already"),
        (cli("restore", str(tmp_path / "none"), url=empty.url), "cannot read"),
    ):
        assert done.returncode == 1, done
        assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1, done.stderr
        assert expected in done.stderr
    restored = cli("restore", str(out), url=empty.url)
    assert restored.returncode == 0, restored.stderr
    assert "restored" in restored.stdout and "3 games" in restored.stdout
