"""The bot service on PostgreSQL with every part of it dying: workers on separate folders
(stand-ins for machines) against one database and the real mail servers, with games mailed
in, while the workers are SIGKILLed, the database crashes, Dovecot stops or crashes (its IMAP sessions
cut mid-claim, mid-fetch, mid-IDLE), Postfix aborts (SMTP mid-send) and live IMAP sessions
are dropped, at random, and each comes back. Every turn is answered once, nothing is lost,
no worker dies of it, and the send queue in the database is the only record of what went."""

from __future__ import annotations

import random
import re
import time
from collections import Counter
from collections.abc import Callable

import pytest
from mailservers import MailServers
from mailtesting import wait_until
from pgserver import PgServer
from test_integration_kill import Running
from test_integration_pgstore import Table, _logs

from pbem.mail.config import load_config
from pbem.mail.pgbot import StoreBotMailbox
from pbem.mail.pgstore import GameStep, Store, StoreError, parse_key

pytestmark = pytest.mark.mail
GAMES = 4
CHAOS_SECONDS = 35.0
# After the last fault a daemon may sit out an IMAP pause of up to 60 s (its longest) and a
# store pause of up to 30 s before the games go on; on a loaded machine the rest of the games
# take a minute more. The bound is on recovery, not on speed.
RECOVERY_SECONDS = 240.0


@pytest.mark.slow
def test_workers_database_and_mail_servers_killed_at_random_answer_every_turn_once(
    make_player, tmp_path, pg_server: PgServer, pg_url, mail_servers: MailServers, engine_double
) -> None:
    table = Table(make_player, tmp_path, pg_url)
    gids = table.new_games(GAMES)
    axis = Running(table.axis, tmp_path / "axis.log", command="bot")
    workers = [table.worker("m1"), table.worker("m2")]
    rng = random.Random(3131)

    def kill_worker() -> None:
        victim = rng.choice(workers)
        victim.kill()
        time.sleep(rng.uniform(0.0, 2.0))  # sometimes long enough for its claims to be taken back
        victim.start(table.env)

    def kill_database() -> None:
        pg_server.stop("immediate")  # as a crash: no checkpoint, every connection cut
        time.sleep(rng.uniform(0.3, 2.0))
        pg_server.start()

    def dovecot_down(crash: bool) -> Callable[[], None]:
        def fault() -> None:
            # Stopped, or crashed (every process SIGKILLed): its IMAP sessions are cut wherever they are.
            if crash:
                mail_servers.crash_dovecot()
            else:
                mail_servers.stop_dovecot()
            time.sleep(rng.uniform(0.3, 2.0))
            mail_servers.start_dovecot()
            mail_servers.flush_postfix()  # Postfix deferred its deliveries meanwhile

        return fault

    def kill_postfix() -> None:
        mail_servers.abort_postfix()
        time.sleep(rng.uniform(0.3, 2.0))
        mail_servers.start_postfix()
        mail_servers.flush_postfix()

    def nudge() -> None:
        mail_servers.flush_postfix()  # deliveries deferred in an outage go now, not in minutes
        time.sleep(1.0)

    def drop_imap() -> None:
        mail_servers.kill_imap_sessions()

    faults: dict[str, Callable[[], None]] = {
        "worker": kill_worker,
        "database": kill_database,
        "dovecot stopped": dovecot_down(crash=False),
        "dovecot crashed": dovecot_down(crash=True),
        "postfix": kill_postfix,
        "imap sessions": drop_imap,
    }
    done: Counter[str] = Counter()
    started = time.monotonic()
    try:
        axis.start()
        for w in workers:
            w.start(table.env)
        wait_until(lambda: all("started (workspace" in w.log.read_text() for w in workers), 30, what="the workers")
        # Each fault once in a random order, then at random while the games run.
        order = list(faults)
        rng.shuffle(order)
        while not table.over(gids) and time.monotonic() - started < CHAOS_SECONDS:
            time.sleep(rng.uniform(0.3, 1.5))
            what = order.pop() if order else rng.choice(list(faults))
            faults[what]()
            done[what] += 1
            # A worker dies only when it is killed: no fault of the servers is its end.
            for w in workers:
                assert w.running(), f"worker {w.worker} died of {what}\n{_logs([w])[-3000:]}"
        wait_until(lambda: table.over(gids), RECOVERY_SECONDS, step=nudge, what="the end of every game")
    except AssertionError as err:
        files = {g: getattr(table.axis_game(g), "seq", None) for g in gids}
        axis_log = axis.log.read_text()[-2000:] if axis.log.exists() else ""
        raise AssertionError(
            f"{err}\nfaults: {dict(done)}\nthe Axis' last file per game: {files}\n"
            f"{_logs(workers)[-5000:]}\nthe Axis bot:\n{axis_log}"
        ) from err
    finally:
        if not mail_servers.postfix_running():
            mail_servers.start_postfix()
        if not mail_servers.dovecot_running():
            mail_servers.start_dovecot()
        if not (pg_server.data / "postmaster.pid").exists():
            pg_server.start()
        codes = [w.stop() for w in workers]
        axis.stop()
    logs = _logs(workers)
    assert set(done) == set(faults), done  # every kind of death happened at least once
    assert "Traceback" not in logs, logs[-3000:]
    assert "EQUIVOCATION" not in logs and " rejected " not in logs, logs[-3000:]
    assert codes == [0, 0], logs[-2000:]
    # No crash loop: each worker's process started only when the test started it.
    for w in workers:
        assert w.log.read_text().count("started (workspace") == w.starts, _logs([w])[-3000:]
    # The outages were told, one line each time, and waited out with growing pauses.
    assert re.search(r"IMAP.*retrying in|reconnecting", logs), logs[-3000:]
    assert "the bot store database failed" in logs or "cannot reach the bot store database" in logs
    table.assert_answered_once(gids)
    # Nothing owed or failed in the database, and every mail still queued there went (its record
    # lost with a worker killed between SMTP's acceptance and the record: it goes again, under
    # the same Message-ID, only when its lease is taken back).
    owed, _, _, _, failed = Store(pg_url, None).backlog()
    assert (owed, failed) == (0, 0)
    delivered = {message_id for _, message_id in table.allies_files_received()}
    unsent = {m.message_id for m in Store(pg_url, None).mails_unsent()}
    assert unsent <= delivered, unsent - delivered


def test_a_step_or_a_sending_the_database_lost_is_done_again_and_nothing_twice(
    make_player, tmp_path, pg_url, engine_double, monkeypatch: pytest.MonkeyPatch, caplog
) -> None:
    """The database dies as a step that applied a mailed file commits: the worker must not
    take the file for one it already imported when it reads the mail again. It dies again
    as a mail SMTP accepted is being recorded as sent: the worker records it when the
    database is back, and neither loses the mail nor sends it twice."""
    table = Table(make_player, tmp_path, pg_url)
    gids = table.new_games(1)
    axis = Running(table.axis, tmp_path / "axis.log", command="bot")
    config = load_config(table.worker("m1").player.config_path)
    worker = StoreBotMailbox(config, Store(pg_url, parse_key(table.env["PBEM_BOT_STORE_KEY"])), worker="m1")
    real_save, real_mark = GameStep.save, Store.mark_sent
    lost: list[str] = []

    def save_then_die(step: GameStep, *args, **kw):  # type: ignore[no-untyped-def]
        version = real_save(step, *args, **kw)
        if ": applied — applied" in caplog.text and "step" not in lost:  # a step that applied a mailed file
            lost.append("step")
            raise StoreError("the bot store database failed: server closed the connection unexpectedly")
        return version

    def die_before_marking(store: Store, message_id: str) -> None:
        if "sending" not in lost:
            lost.append("sending")
            raise StoreError("the bot store database failed: server closed the connection unexpectedly")
        real_mark(store, message_id)

    monkeypatch.setattr(GameStep, "save", save_then_die)
    monkeypatch.setattr(Store, "mark_sent", die_before_marking)
    try:
        axis.start()
        wait_until(lambda: len(lost) == 2, 60, step=worker.cycle, what="a step and a sending lost")
        assert caplog.text.count("the bot store database failed") == 2
        wait_until(lambda: table.over(gids), 120, step=worker.cycle, what="the end of the game")
    finally:
        axis.stop()
        worker.store.close()
    table.assert_answered_once(gids)
    received = table.allies_files_received()
    assert set(received.values()) == {1}, received  # no worker died: no mail went twice
    assert Store(pg_url, None).mails_unsent() == []
