"""The bot service on PostgreSQL: workers with separate, unshared folders (stand-ins for
machines) against one database and the real mail servers, playing whole games of the real
protocol against a bot mailbox on files, killed with SIGKILL, every turn answered once."""

from __future__ import annotations

import email
import random
import subprocess
import time
from collections import Counter
from pathlib import Path

import pytest
from imaphelp import fetch_all
from mailtesting import Player, pbem_command, subprocess_env, wait_until
from test_integration_kill import Running
from test_integration_service import Service

from pbem.errors import PbemError
from pbem.mail.pgstore import MIGRATIONS
from pbem.play import games
from pbem.protocol import machine
from pbem.store import keys
from pbem.store.localgame import LocalGame
from pbem.store.store import Workspace

pytestmark = pytest.mark.mail
KEY = "8Xb2m0PqGyLQ7zFJvQ4v1c0Kk2aX9gVt3n5W6yHh1dE="


class Table:
    """Axis: a bot mailbox on its workspace's files. Allies: the bot service on PostgreSQL,
    its identity stored by `pbem bot migrate`, its workers each on a folder of its own."""

    def __init__(self, make_player, tmp_path: Path, pg_url: str) -> None:  # type: ignore[no-untyped-def]
        self.tmp, self.url = tmp_path, pg_url
        made = {}
        for side in ("axis", "allies"):
            home = tmp_path / f"home-{side}"
            extra = f'home = "{home}"\n[bot]\nidentity = "{side}-bot"\nplayer = "fake_engine_exchange"'
            made[side] = make_player(side, extra=extra, exchange="fake_engine_exchange")
            keys.keygen(f"{side}-bot", made[side].address, directory=home)
        self.axis, self.allies = made["axis"], made["allies"]
        self.env = {"PBEM_BOT_STORE": pg_url, "PBEM_BOT_STORE_KEY": KEY}
        done = self.cli("bot", "migrate", "--config", str(self.allies.config_path))
        assert done.returncode == 0, done.stderr
        self.opponent = keys.read_public_key(tmp_path / "home-allies" / "allies-bot.pub")

    def cli(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            pbem_command(*args), env={**subprocess_env(), **self.env}, capture_output=True, text=True, timeout=120
        )

    def new_games(self, count: int) -> list[str]:
        return [
            games.new_game(
                Workspace(self.axis.workspace),
                "tiny",
                "axis",
                "axis-bot",
                self.opponent,
                opponent_email=self.allies.address,
                home=self.tmp / "home-axis",
            )[0]
            for _ in range(count)
        ]

    def worker(self, name: str, claim_timeout: float = 2.0) -> Service:
        """A worker on its own folder and its own configuration file (nothing shared but the servers)."""
        folder = self.tmp / f"machine-{name}"
        folder.mkdir(exist_ok=True)
        config = self.tmp / f"machine-{name}.toml"
        text = self.allies.config_path.read_text()
        config.write_text(text.replace(f'workspace = "{self.allies.workspace}"', f'workspace = "{folder}"'))
        player = Player(name, self.allies.address, folder, config, self.allies.servers)
        return Service(player, self.tmp / f"{name}.log", worker=name, claim_timeout=claim_timeout)

    def axis_game(self, gid: str) -> machine.Game | None:
        try:
            return LocalGame(Workspace(self.axis.workspace), gid, self.tmp / "home-axis").game()
        except PbemError:
            return None

    def over(self, gids: list[str]) -> bool:
        found = [self.axis_game(g) for g in gids]
        return all(g is not None and machine.expected(g) is None for g in found)

    def allies_files_received(self) -> Counter[tuple[str, str]]:
        seen: Counter[tuple[str, str]] = Counter()
        for folder in ("INBOX", "pbem"):
            for raw in fetch_all(self.axis, folder):
                msg = email.message_from_bytes(raw)
                for part in msg.walk():
                    name = part.get_filename()
                    if name and name.endswith("-allies.pbem"):
                        seen[(name, str(msg["Message-ID"]))] += 1
        return seen

    def assert_answered_once(self, gids: list[str]) -> None:
        received = self.allies_files_received()
        names = Counter(name for name, _ in received)
        for gid in gids:
            game = self.axis_game(gid)
            assert game is not None
            allies = {f"{gid}-{seq:05d}-allies.pbem" for seq in range(1, game.seq + 1)} & set(names)
            assert allies, f"no allies file of {gid} arrived"
        # One mail per allies file: every file under one Message-ID, in one mail only, but for a
        # resend of that same mail after a kill between SMTP's acceptance and its record.
        assert len({n for n, _ in received}) == len(received), received
        # Nor two different files for one position: the receiver would have called it out.
        axis_log = (self.tmp / "axis.log").read_text(errors="replace")
        assert "EQUIVOCATION" not in axis_log and "Traceback" not in axis_log, axis_log[-3000:]


def _logs(services: list[Service]) -> str:
    return "\n".join(f"--- {s.worker}\n{s.log.read_text(errors='replace')}" for s in services if s.log.exists())


@pytest.mark.slow
def test_two_workers_on_separate_folders_killed_at_random_answer_every_turn_once(
    make_player, tmp_path, pg_url, engine_double
) -> None:
    table = Table(make_player, tmp_path, pg_url)
    gids = table.new_games(3)
    axis = Running(table.axis, tmp_path / "axis.log", command="bot")
    workers = [table.worker("m1"), table.worker("m2")]
    rng = random.Random(3131)
    kills = 0
    try:
        axis.start()
        for w in workers:
            w.start(table.env)
        deadline = time.monotonic() + 150
        while not table.over(gids) and time.monotonic() < deadline:
            time.sleep(rng.uniform(0.5, 1.5))
            if kills < 8:
                victim = rng.choice(workers)
                victim.kill()
                kills += 1
                if rng.random() < 0.5:  # sometimes it stays dead a while: its claims are taken back
                    time.sleep(rng.uniform(0.0, 3.0))
                victim.start(table.env)
        wait_until(lambda: table.over(gids), 60, what="the end of every game")
    except AssertionError as err:
        raise AssertionError(f"{err}\n{_logs(workers)[-4000:]}") from err
    finally:
        codes = [w.stop() for w in workers]
        axis.stop()
    logs = _logs(workers)
    assert "Traceback" not in logs, logs[-3000:]
    assert "EQUIVOCATION" not in logs and " rejected " not in logs, logs[-3000:]
    assert codes == [0, 0], logs[-2000:]
    assert kills >= 4
    table.assert_answered_once(gids)
    # Both machines did some of the work, and neither kept game files in a shared place.
    assert "bot: played" in (tmp_path / "m1.log").read_text() + (tmp_path / "m2.log").read_text()


# The k-th crash point of the first worker (the daemon's, the game store's and the database
# steps', counted together): within its first import, its join, its first move and its mails.
@pytest.mark.parametrize("crash_at", [2, 5, 9, 13])
def test_a_worker_killed_mid_answer_is_finished_by_another_answered_once(
    make_player, tmp_path, pg_url, engine_double, crash_at
) -> None:
    table = Table(make_player, tmp_path, pg_url)
    gids = table.new_games(1)
    axis = Running(table.axis, tmp_path / "axis.log", command="bot")
    first, second = table.worker("m1"), table.worker("m2")
    try:
        axis.start()
        first.start({**table.env, "PBEM_MAIL_CRASH_AT": str(crash_at)})
        assert first.died_within(60), first.log.read_text()[-2000:]  # SIGKILLed at its step
        assert first.proc is not None and first.proc.returncode == -9
        second.start(table.env)
        wait_until(lambda: table.over(gids), 120, what="the end of the game")
    except AssertionError as err:
        raise AssertionError(f"{err}\n{_logs([first, second])[-4000:]}") from err
    finally:
        codes = [second.stop()]
        axis.stop()
    logs = _logs([first, second])
    assert "Traceback" not in logs and codes == [0], logs[-3000:]
    table.assert_answered_once(gids)


def test_health_reports_the_database_and_every_worker(make_player, tmp_path, pg_url, engine_double) -> None:
    table = Table(make_player, tmp_path, pg_url)
    table.new_games(1)
    axis = Running(table.axis, tmp_path / "axis.log", command="bot")
    worker = table.worker("m1")
    try:
        axis.start()
        worker.start(table.env)
        wait_until(lambda: "bot: played" in worker.log.read_text(), 60, what="a first move")
        done = table.cli("bot", "health", "--config", str(table.allies.config_path))
        assert done.returncode == 0, done.stderr
        assert f"database: up, schema version {len(MIGRATIONS)}" in done.stdout
        assert "worker m1 on " in done.stdout and "last seen" in done.stdout
    finally:
        worker.stop()
        axis.stop()
    down = table.cli(
        "bot", "health", "--config", str(table.allies.config_path), "--store", "postgresql://pbem@127.0.0.1:1/none"
    )
    assert down.returncode == 1 and "database: DOWN" in down.stdout and "Traceback" not in down.stderr


def test_a_database_killed_and_restarted_mid_game_loses_no_turn(
    make_player, tmp_path, pg_server, pg_url, engine_double
) -> None:
    table = Table(make_player, tmp_path, pg_url)
    gids = table.new_games(2)
    axis = Running(table.axis, tmp_path / "axis.log", command="bot")
    worker = table.worker("m1")
    try:
        axis.start()
        worker.start(table.env)
        wait_until(lambda: "bot: played" in worker.log.read_text(), 60, what="a first move")
        for pause in (0.5, 2.5):
            pg_server.stop("immediate")  # as a crash: no checkpoint, every connection cut
            time.sleep(pause)
            pg_server.start()
            time.sleep(1.0)
        wait_until(lambda: table.over(gids), 120, what="the end of every game")
    except AssertionError as err:
        raise AssertionError(f"{err}\n{_logs([worker])[-4000:]}") from err
    finally:
        codes = [worker.stop()]
        axis.stop()
    logs = _logs([worker])
    assert "Traceback" not in logs and codes == [0], logs[-3000:]
    assert "the bot store database failed" in logs or "cannot reach the bot store database" in logs
    table.assert_answered_once(gids)
