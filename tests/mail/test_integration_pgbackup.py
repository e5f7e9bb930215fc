"""A back-up of the running bot service on PostgreSQL, its database destroyed and restored:
games running with a worker, the back-up taken mid-game while the worker runs, the worker
killed and the database dropped, the back-up restored, a worker started on another (empty)
folder: every turn answered exactly once, the games played to their end."""

from __future__ import annotations

import time
from urllib.parse import urlsplit

import psycopg
import pytest
from imaphelp import count
from mailtesting import wait_until
from pgserver import PgServer
from test_integration_kill import Running
from test_integration_pgstore import Table, _logs

from pbem.mail.imap import CLAIM_PREFIX
from pbem.mail.pgstore import Store

pytestmark = pytest.mark.mail


@pytest.mark.slow
def test_a_backup_taken_mid_game_restores_a_destroyed_database_and_the_games_go_on(
    make_player, tmp_path, pg_server: PgServer, pg_url: str, engine_double
) -> None:
    table = Table(make_player, tmp_path, pg_url)
    gids = table.new_games(2)
    axis = Running(table.axis, tmp_path / "axis.log", command="bot")
    first = table.worker("m1")
    second = table.worker("m2")
    db = Store(pg_url, None)
    out = tmp_path / "service.backup"

    def settled() -> bool:
        """Nothing taken in but not yet answered: what came in before the back-up is in it."""
        owed, _, sending, _, _ = db.backlog()
        mails = count(table.allies, "INBOX") + count(table.allies, CLAIM_PREFIX + "m1")
        return owed == 0 and sending == 0 and mails == 0

    def settled_for_a_while() -> bool:
        if not settled():
            return False
        time.sleep(1.5)  # a mail of the opponent's last moments may still be on its way
        return settled()

    try:
        axis.start()
        first.start(table.env)
        wait_until(lambda: first.log.read_text().count("bot: played") >= 2, 90, what="two moves of the bot")
        # The opponent stops mailing turns (the service runs on): a turn taken in after the
        # back-up would be lost with the database, and answered a second time after the restore.
        axis.stop()
        wait_until(settled_for_a_while, 60, what="the last answers sent")
        assert not table.over(gids), "the games ended before the back-up: nothing tested"
        made = table.cli("bot", "backup", "--config", str(table.allies.config_path), str(out))
        assert made.returncode == 0, made.stderr
        assert "2 games" in made.stdout, made.stdout
        assert first.proc is not None and first.proc.poll() is None  # taken while the worker ran

        first.kill()  # the machine and the database lost together
        db.close()
        name = urlsplit(pg_url).path.lstrip("/")
        with psycopg.connect(pg_server.url(), autocommit=True) as conn:
            conn.execute(f'DROP DATABASE "{name}" WITH (FORCE)')
            conn.execute(f'CREATE DATABASE "{name}"')
        refused = table.cli("bot", "serve", "--config", str(table.allies.config_path), "--worker", "m2", "--once")
        assert refused.returncode == 1 and "has no schema yet" in refused.stderr, refused.stderr

        restored = table.cli("bot", "restore", "--config", str(table.allies.config_path), str(out))
        assert restored.returncode == 0, restored.stderr
        assert "2 games" in restored.stdout, restored.stdout
        again = table.cli("bot", "restore", "--config", str(table.allies.config_path), str(out))
        assert again.returncode == 1 and "holds a bot service already" in again.stderr, again.stderr

        second.start(table.env)  # another machine, its folder empty: all it knows is in the database
        axis.start()
        wait_until(lambda: table.over(gids), 150, what="the end of every game")
    except AssertionError as err:
        raise AssertionError(f"{err}\n{_logs([first, second])[-4000:]}") from err
    finally:
        codes = [second.stop()]
        axis.stop()
        db.close()
    logs = _logs([first, second])
    assert "Traceback" not in logs and " rejected " not in logs, logs[-3000:]
    assert codes == [0], logs[-2000:]
    assert "bot: played" in second.log.read_text()
    table.assert_answered_once(gids)
