"""The bot service's PostgreSQL store on a private server: the schema and its migrations, the
sealing of the bot's keys and games, the per-game lock and SKIP LOCKED for work, the send
queue's leases, and the clear refusals of the commands."""

from __future__ import annotations

import re
import subprocess
import threading
import time
from pathlib import Path

import pytest
from mailtesting import pbem_command, subprocess_env

from pbem.errors import PbemError
from pbem.mail.pgstore import MIGRATIONS, Outgoing, Store, new_key, parse_key, store_key

KEY = parse_key(new_key())


@pytest.fixture
def store(pg_url: str) -> Store:
    db = Store(pg_url, KEY)
    db.migrate()
    return db


def save_game(db: Store, gid: str, files: dict[str, bytes], owed: bool = False) -> int:
    with db.game_step(gid) as step:
        assert step is not None
        return step.save(files, owed, False, [])


def test_migrations_apply_once_in_order_and_an_unmigrated_database_is_refused(pg_url: str) -> None:
    db = Store(pg_url, KEY)
    with pytest.raises(PbemError, match=r"has no schema yet: run `pbem bot migrate` first"):
        db.check_schema()
    assert db.migrate() == list(range(1, len(MIGRATIONS) + 1))
    assert db.migrate() == []
    assert db.version() == len(MIGRATIONS)
    db.check_schema()


def test_game_files_and_the_identity_are_sealed_at_rest_and_bound_to_their_place(store: Store, tmp_path: Path) -> None:
    secret = b"committed but unrevealed orders: 7th Army attacks Kursk"
    save_game(store, "a00000000001", {".pbem/games/a00000000001/secrets": secret})
    home = tmp_path / "home"
    home.mkdir()
    (home / "bot.key").write_bytes(b"pbem private key v2\nsecret: SEEDSEEDSEED\n")
    assert store.save_home(home) == 1
    with store.tx() as c:
        rows = [bytes(r[0]) for r in c.execute("SELECT sealed FROM game_files UNION ALL SELECT sealed FROM home_files")]
    assert len(rows) == 2
    assert all(secret not in r and b"SEEDSEED" not in r for r in rows)
    # Read back with the key; with another key, or moved to another game, the value does not open.
    with store.game_step("a00000000001") as step:
        assert step is not None and step.files == {".pbem/games/a00000000001/secrets": secret}
    assert store.load_home(tmp_path / "copy") == 1
    assert (tmp_path / "copy" / "bot.key").read_bytes().endswith(b"SEEDSEEDSEED\n")
    assert (tmp_path / "copy" / "bot.key").stat().st_mode & 0o077 == 0
    other = Store(store.url, parse_key(new_key()))
    with pytest.raises(PbemError, match="does not open with this key"), other.game_step("a00000000001"):
        pass
    with store.tx() as c:
        c.execute("INSERT INTO games VALUES ('b00000000002', 1, 0)")
        c.execute("UPDATE game_files SET game_id = 'b00000000002'")
    with pytest.raises(PbemError, match="does not open"), store.game_step("b00000000002"):
        pass


def test_a_step_writes_only_what_changed_and_versions_the_game(store: Store) -> None:
    gid = "c00000000003"
    assert save_game(store, gid, {"a": b"1", "b": b"2"}) == 1
    assert save_game(store, gid, {"a": b"1", "b": b"2"}) == 1  # nothing changed: no new version
    assert save_game(store, gid, {"a": b"1", "c": b"3"}, owed=True) == 2
    with store.game_step(gid) as step:
        assert step is not None and step.files == {"a": b"1", "c": b"3"} and step.version == 2
    assert store.owed_games() == [gid]
    # A worker holding version 2 already reads only the hashes, and still writes back only the changes.
    with store.game_step(gid, have=2) as step:
        assert step is not None and step.files is None and set(step.hashes) == {"a", "c"}
        assert step.save({"a": b"1", "c": b"4"}, False, False, []) == 3
    with store.game_step(gid, have=2) as step:
        assert step is not None and step.files == {"a": b"1", "c": b"4"}  # not the version it has


def test_a_failed_step_leaves_the_game_as_it_was(store: Store) -> None:
    gid = "d00000000004"
    save_game(store, gid, {"a": b"old"})
    with pytest.raises(RuntimeError), store.game_step(gid) as step:
        assert step is not None
        step.save({"a": b"new"}, True, False, [])
        raise RuntimeError("killed mid-step")
    with store.game_step(gid) as step:
        assert step is not None and step.files == {"a": b"old"} and step.version == 1
    assert store.owed_games() == []


def test_an_owed_game_another_worker_holds_is_skipped_not_waited_for(store: Store) -> None:
    gid = "e00000000005"
    save_game(store, gid, {"a": b"1"}, owed=True)
    other = Store(store.url, KEY)
    holding, release, seen = threading.Event(), threading.Event(), []

    def hold() -> None:
        with store.game_step(gid, owed=True) as step:
            seen.append(step is not None)
            holding.set()
            release.wait(10)
            assert step is not None
            step.save({"a": b"2"}, False, True, [])

    worker = threading.Thread(target=hold)
    worker.start()
    assert holding.wait(10)
    with other.game_step(gid, owed=True) as step:
        assert step is None  # skipped at once: the first worker looks at it
    release.set()
    worker.join(10)
    assert seen == [True]
    assert other.owed_games() == []  # the look was had, and only once
    with other.game_step(gid, owed=True) as step:
        assert step is None  # not owed any more


def test_an_import_waits_for_the_games_lock(store: Store) -> None:
    gid = "f00000000006"
    save_game(store, gid, {"a": b"1"})
    other = Store(store.url, KEY)
    order: list[str] = []
    holding = threading.Event()

    def first() -> None:
        with store.game_step(gid) as step:
            holding.set()
            threading.Event().wait(0.5)
            assert step is not None
            step.save({"a": b"2"}, False, False, [])
            order.append("first")

    t = threading.Thread(target=first)
    t.start()
    assert holding.wait(10)
    with other.game_step(gid) as step:
        assert step is not None
        order.append("second")
        assert step.files == {"a": b"2"}  # it saw the first step's result, not the state before it
    t.join(10)
    assert order == ["first", "second"]


def test_two_workers_lease_disjoint_mails_and_a_dead_ones_leases_come_back(store: Store) -> None:
    with store.game_step("a10000000007") as step:
        assert step is not None
        mails = [(Outgoing(f"<m{i}@x>", f"f{i}", "to@x", b"mail"), [f"f{i}:h"]) for i in range(6)]
        mails.append((Outgoing("<bad@x>", "f9", "to@x", b"", failed="no header can carry it"), ["f9:h"]))
        step.save({"a": b"1"}, False, False, mails)
        assert step.queued(["f1:h", "zz:h"]) == {"f1:h"}
    other = Store(store.url, KEY)
    first = store.lease_due("w1", 3600, limit=4)
    second = other.lease_due("w2", 3600, limit=4)
    assert len(first) == 4 and len(second) == 2
    assert not {m.message_id for m in first} & {m.message_id for m in second}
    assert store.lease_due("w1", 3600) == []
    assert other.release_leases("w1") == 4
    assert len(other.lease_due("w2", 3600)) == 4
    other.mark_sent(second[0].message_id)
    _owed, _since, pending, _oldest, failed = store.backlog()
    assert (pending, failed) == (5, 1)  # leased or not, the sent one aside; the unbuildable one failed


def test_the_store_key_is_refused_when_missing_or_malformed(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("PBEM_BOT_STORE_KEY", raising=False)
    with pytest.raises(PbemError, match="needs the key that seals"):
        store_key(None)
    monkeypatch.setenv("PBEM_BOT_STORE_KEY", "too short")
    with pytest.raises(PbemError, match="must be 32 bytes"):
        store_key(None)
    monkeypatch.delenv("PBEM_BOT_STORE_KEY")
    key_file = tmp_path / "key"
    key_file.write_text(KEY.hex() + "\n")
    assert store_key(key_file) == KEY


def test_serve_on_postgresql_without_a_key_or_a_schema_says_so_in_one_line(
    pg_url: str, make_player, monkeypatch: pytest.MonkeyPatch
) -> None:
    bot = make_player("bot")
    env = {k: v for k, v in subprocess_env().items() if not k.startswith("PBEM_BOT_STORE")}

    def serve(*extra: str, **more: str) -> subprocess.CompletedProcess[str]:
        args = pbem_command("bot", "serve", "--config", str(bot.config_path), "--once", *extra)
        return subprocess.run(args, env={**env, **more}, capture_output=True, text=True, timeout=120)

    for done, expected in [
        (serve("--store", pg_url), "needs the key that seals"),
        (serve("--store", pg_url, PBEM_BOT_STORE_KEY=new_key()), "has no schema yet: run `pbem bot migrate`"),
        (serve("--store", "mysql://x"), "--store must be a postgresql:// URL"),
        (serve(PBEM_BOT_STORE=pg_url, PBEM_BOT_STORE_KEY=new_key()), "has no schema yet"),
    ]:
        assert done.returncode == 1, done
        assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1, done.stderr
        assert expected in done.stderr


def test_migrate_stores_the_identity_once_and_serve_refuses_a_store_without_one(
    pg_url: str, make_player, tmp_path: Path
) -> None:
    from pbem.store import keys

    home = tmp_path / "bot-home"
    bot = make_player("bot", extra=f'home = "{home}"\n[bot]\nidentity = "robot"')
    key = new_key()
    env = {**subprocess_env(), "PBEM_BOT_STORE": pg_url, "PBEM_BOT_STORE_KEY": key}

    def cli(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(pbem_command(*args), env=env, capture_output=True, text=True, timeout=120)

    missing = cli("bot", "migrate", "--config", str(bot.config_path))
    assert missing.returncode == 1 and "robot.key is not in" in missing.stderr
    assert "schema at version 2 (steps applied: 1, 2)" in missing.stdout  # the schema is there all the same
    keys.keygen("robot", bot.address, directory=home)
    done = cli("bot", "migrate", "--config", str(bot.config_path))
    assert done.returncode == 0, done.stderr
    assert "steps applied: none needed" in done.stdout and "stored the identity directory" in done.stdout
    again = cli("bot", "migrate", "--config", str(bot.config_path))
    assert again.returncode == 0 and "stored the identity" not in again.stdout
    assert sorted(Store(pg_url, parse_key(key)).home_names()) == ["robot.json", "robot.key", "robot.pub"]
    fresh = cli("bot", "migrate", "--new-key")
    assert fresh.returncode == 0 and len(parse_key(fresh.stdout)) == 32


def test_a_claim_falls_due_with_its_step_and_is_taken_by_one_worker_only(store: Store) -> None:
    gid = "c00000000001"
    with store.game_step(gid) as step:
        assert step is not None
        step.claim_at = 100.0
        step.save({f".pbem/games/{gid}/meta.json": b"{}"}, False, False, [])
    assert store.claims_due(99.9) == [] and store.claims_due(100.0) == [gid]
    with store.game_step(gid, claim_by=50.0) as early:
        assert early is None  # not due yet: not taken
    other = Store(store.url, KEY)
    with store.game_step(gid, claim_by=100.0) as first:
        assert first is not None
        with other.game_step(gid, claim_by=100.0) as second:
            assert second is None  # another worker is claiming in it: passed over, not waited for
        first.save({f".pbem/games/{gid}/meta.json": b"{}", f".pbem/games/{gid}/claimed": b"1"}, False, False, [])
    assert store.claims_due(1e12) == []  # the step left the game without a claim to make
    other.close()


def test_mail_status_and_retry_read_and_mend_the_databases_send_queue(store: Store, make_player) -> None:
    bot = make_player("bot")
    env = {k: v for k, v in subprocess_env().items() if not k.startswith("PBEM_BOT_STORE")}

    def cli(*args: str, url: str = store.url) -> subprocess.CompletedProcess[str]:
        command = pbem_command("mail", *args, "--config", str(bot.config_path), *(["--store", url] if url else []))
        return subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)

    def step(gid: str, owed: bool, mails: list[Outgoing], claim_at: float | None = None) -> None:
        with store.game_step(gid) as s:
            assert s is not None
            s.claim_at = claim_at
            s.save({f".pbem/games/{gid}/meta.json": b"{}"}, owed, False, [(m, [f"{m.what}:h"]) for m in mails])

    now = time.time()
    step(
        "a00000000001", True, [Outgoing("<a1@x>", "a-00001.pbem", "p@x", b"m"), Outgoing("<a2@x>", "a-2", "p@x", b"m")]
    )
    step("b00000000002", False, [Outgoing("<b1@x>", "b-00001.pbem", "q@x", b"m")])
    step("c00000000003", False, [Outgoing("<c1@x>", "c-00001.pbem", "r@x", b"", failed="no header can carry it")])
    step("d00000000004", False, [], claim_at=now - 120)
    step("e00000000005", False, [], claim_at=now + 3600)
    assert [m.message_id for m in store.lease_due("m1", 300, limit=1)] == ["<a1@x>"]
    assert [m.message_id for m in store.lease_due("m1", 300)] == ["<a2@x>", "<b1@x>"]
    store.mark_sent("<a2@x>")
    store.mark_failed("<b1@x>", "550 5.1.1 no such user")

    done = cli("status")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert "pending  a-00001.pbem -> p@x (game a00000000001, attempts 0, being sent by worker m1)" in lines
    assert "FAILED   b-00001.pbem -> q@x (game b00000000002): 550 5.1.1 no such user" in lines
    assert (
        "FAILED   c-00001.pbem -> r@x (game c00000000003): no header can carry it; "
        "it cannot be sent again: no mail could be written for it"
    ) in lines
    assert any(
        re.fullmatch(r"game a00000000001: owed a look for \d+ s, 1 mail\(s\) to send \(1 being sent\)", x)
        for x in lines
    )
    assert "game b00000000002: 1 failed" in lines and "game c00000000003: 1 failed" in lines
    # Due since 120 s before ``now``, plus however long a loaded machine took to get here.
    claim = re.compile(r"game d00000000004: a deadline claim due for (\d+) s")
    (due,) = [int(m[1]) for x in lines if (m := claim.fullmatch(x))]
    assert 120 <= due <= 121 + time.time() - now, lines
    assert not any("e00000000005" in x for x in lines)  # its opponent's deadline is an hour away
    assert lines[-1] == (
        "1 mail(s) sent, 1 pending (1 being sent), 2 failed; "
        "1 game(s) owed a look, 1 waiting on the opponent's deadline"
    )

    again = cli("retry")
    assert again.returncode == 0, again.stderr
    assert again.stdout.startswith("1 failed mail(s) queued again") and "(1 stay failed" in again.stdout
    assert [m.message_id for m in store.lease_due("m2", 300)] == ["<b1@x>"]  # due at once
    after = cli("status").stdout
    assert "FAILED   b-00001.pbem" not in after and "FAILED   c-00001.pbem" in after
    assert "pending  b-00001.pbem -> q@x (game b00000000002, attempts 1, being sent by worker m2): 550" in after
    assert cli("retry").stdout.startswith("0 failed mail(s) queued again")

    down = cli("status", url="postgresql://pbem@127.0.0.1:1/none")
    assert down.returncode == 1 and "Traceback" not in down.stderr
    assert len(down.stderr.strip().splitlines()) == 1 and "cannot reach the bot store database" in down.stderr
    files = cli("status", url="")  # no store named: the workspace's own queue, as before
    assert files.returncode == 0 and files.stdout.splitlines() == ["0 mail(s) sent, 0 pending, 0 failed"]
