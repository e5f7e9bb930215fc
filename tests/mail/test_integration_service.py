"""The bot as a service on real Dovecot and Postfix: hostile mail set aside, kills at every step,
several workers on one mailbox, one mailbox per workspace, health, and a clean stop."""

from __future__ import annotations

import email
import os
import random
import re
import signal
import subprocess
import threading
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import fake_exchange as fx
import pytest
from imaphelp import count, fetch_all, send_raw, turn_mail
from mailtesting import Player, pbem_command, subprocess_env, wait_until
from test_unit_hostile import nested_mail

from pbem.errors import PbemError
from pbem.mail.bot import BotMailbox
from pbem.mail.daemon import MailDaemon

pytestmark = pytest.mark.mail
BOT_EXTRA = '[bot]\nplayer = "fake_exchange"'


class Service:
    """One `pbem bot serve` process (a worker when named), killed with SIGKILL or stopped with SIGTERM."""

    def __init__(self, player: Player, log: Path, worker: str = "", claim_timeout: float = 3.0) -> None:
        self.player, self.log, self.worker, self.claim_timeout = player, log, worker, claim_timeout
        self.proc: subprocess.Popen[bytes] | None = None
        self.starts = 0
        self.mark = 0  # where the latest process's lines begin in the log

    def start(self, env: dict[str, str] | None = None) -> None:
        args = ["bot", "serve", "--config", str(self.player.config_path), "--claim-timeout", str(self.claim_timeout)]
        if self.worker:
            args += ["--worker", self.worker]
        with self.log.open("ab") as out:
            self.mark = out.tell()
            self.proc = subprocess.Popen(
                pbem_command(*args), stdout=out, stderr=out, env={**subprocess_env(), **(env or {})}
            )
        self.starts += 1

    def started(self) -> bool:
        """Has the latest process got past its start (its signal handlers in place)?"""
        with self.log.open("rb") as log:
            log.seek(self.mark)
            return b"started (workspace" in log.read()

    def died_within(self, seconds: float) -> bool:
        """Did the process end within ``seconds`` of its start (start-up time, slow on a loaded machine, aside)?"""
        assert self.proc is not None
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and self.proc.poll() is None and not self.started():
            time.sleep(0.05)
        try:
            self.proc.wait(timeout=seconds)
        except subprocess.TimeoutExpired:
            return False
        return True

    def running(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def kill(self) -> None:
        if self.running():
            assert self.proc is not None
            self.proc.send_signal(signal.SIGKILL)
        if self.proc is not None:
            self.proc.wait(timeout=10)

    def stop(self) -> int | None:
        if self.proc is None:
            return None
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
        return self.proc.returncode


def start_games(alice: Player, bot: Player, games: list[str], moves: int) -> None:
    """Alice (axis) answers by herself up to ``moves``; the bot plays allies with its player."""
    for gid in games:
        fx.new_game(alice.workspace, gid, "axis", alice.address, bot.address, autoplay_until=moves, opponent_autoplay=0)


def in_background(daemon: MailDaemon) -> Callable[[], None]:
    worker = threading.Thread(target=daemon.run, kwargs={"max_seconds": 600}, daemon=True)
    worker.start()

    def stop() -> None:
        daemon.stopping = True
        worker.join(timeout=30)

    return stop


def answers_received(alice: Player) -> Counter[tuple[str, str]]:
    """(attachment name, Message-ID) of every bot mail delivered to alice, with how often."""
    seen: Counter[tuple[str, str]] = Counter()
    for folder in ("INBOX", "pbem"):
        for raw in fetch_all(alice, folder):
            msg = email.message_from_bytes(raw)
            for part in msg.walk():
                name = part.get_filename()
                if name and name.endswith(".pbem"):
                    seen[(name, str(msg["Message-ID"]))] += 1
    return seen


def assert_every_turn_answered_once(alice: Player, bot: Player, games: list[str], moves: int) -> None:
    for ws in (alice.workspace, bot.workspace):
        for gid in games:
            assert [e["seq"] for e in fx.ledger(ws) if e["game"] == gid] == list(range(1, moves + 1))
    # The same file at every position of every game on both sides (games interleave differently).
    assert sorted(fx.history(alice.workspace)) == sorted(fx.history(bot.workspace))
    received = answers_received(alice)
    names = Counter(name for name, _ in received)
    # One answer per turn: every bot file arrived under one Message-ID (a resend after a
    # kill between SMTP's acceptance and its record would repeat that same mail).
    assert sorted(names) == sorted(f"{g}-{s:05d}-allies.pbem" for g in games for s in range(2, moves + 1, 2))
    assert set(names.values()) == {1}


# --- 1. any single message survives -------------------------------------------------------------


def test_hostile_mails_are_set_aside_once_and_the_good_one_answered(make_player, caplog) -> None:
    alice, bot_player = make_player("alice"), make_player("bot", extra=BOT_EXTRA)
    start_games(alice, bot_player, ["ab0000000001"], 2)
    folded = b"Message-ID: <abc@x>\r\n <def@y>\r\n" + bytes(
        turn_mail(alice.address, bot_player.address, "ab0000000002-00001-axis.pbem", b"x")
    )
    headers = b"".join(b"X-Flood-%d: v\r\n" % i for i in range(400))
    # A turn-file part first, so the mail is fetched at all, then the nesting.
    turn_part = b'Content-Type: application/octet-stream; name="ab0000000004-00001-axis.pbem"\r\n\r\nx\r\n--b0\r\n'
    deep = nested_mail(1000).replace(b"--b0\r\n", b"--b0\r\n" + turn_part, 1)
    send_raw(alice, bot_player.address, deep)
    send_raw(alice, bot_player.address, folded)
    flood = turn_mail(alice.address, bot_player.address, "ab0000000003-00001-axis.pbem", b"x").as_bytes()
    send_raw(alice, bot_player.address, headers + flood)
    wait_until(lambda: count(bot_player) == 3, 10, what="the three hostile mails")  # Postfix may reorder
    alice.daemon().cycle()  # the invitation of a real game goes out too
    bot = BotMailbox(bot_player.config, exchange=fx, player=fx)  # type: ignore[arg-type]
    wait_until(lambda: count(bot_player, "pbem-set-aside") == 2, 20, step=bot.cycle, what="the hostile mails")
    wait_until(lambda: len(fx.ledger(bot_player.workspace)) == 2, 20, step=bot.cycle, what="the bot's answer")
    assert "nested" in caplog.text and "header fields" in caplog.text
    assert count(bot_player, "INBOX") == 0
    # The folded Message-ID was read as no id: never stored, never reused in a header.
    assert "def@y" not in (bot_player.workspace / ".pbem" / "mail" / "threads.json").read_text()
    # A restart reads none of them again.
    caplog.clear()
    again = BotMailbox(bot_player.config, exchange=fx, player=fx)  # type: ignore[arg-type]
    report = again.cycle()
    assert report.set_aside == 0 and report.fetched == 0 and "set aside" not in caplog.text


def test_an_opponent_address_with_a_line_break_waits_with_one_line_and_stops_nothing(make_player, caplog) -> None:
    bot_player = make_player("bot", extra=BOT_EXTRA)
    fx.new_game(bot_player.workspace, "cd0000000001", "axis", bot_player.address, "eve@example.org\r\nBcc: x@y.org")
    fx.new_game(bot_player.workspace, "cd0000000002", "axis", bot_player.address, "eve@example.org, x@y.org")
    bot = BotMailbox(bot_player.config, exchange=fx, player=fx)  # type: ignore[arg-type]
    for _ in range(3):  # as at every restart: no crash, one line per file
        report = bot.cycle()
        assert report.sent == 0 and report.queued == 0
    assert caplog.text.count("is not one plain mail address") == 2


# --- 2. exactly-once answers under kills at every step ------------------------------------------


@pytest.mark.slow
def test_a_bot_killed_at_every_step_answers_every_turn_once(make_player, tmp_path) -> None:
    games, moves = ["ee0000000001", "ee0000000002", "ee0000000003"], 16
    alice, bot_player = make_player("alice"), make_player("bot", extra=BOT_EXTRA)
    start_games(alice, bot_player, games, moves)
    stop_alice = in_background(alice.daemon())
    service = Service(bot_player, tmp_path / "bot.log")
    killed_at = []
    try:
        step = 1
        # Each fresh process dies at its step-th crash point; step walks up while there is work.
        while step <= 30 and len(fx.ledger(alice.workspace)) < len(games) * moves:
            service.start({"PBEM_MAIL_CRASH_AT": str(step)})
            if service.died_within(4):
                killed_at.append(step)
            else:
                service.stop()  # idle before its step-th point: nothing was due
            step += 1
        service.start()
        wait_until(lambda: len(fx.ledger(alice.workspace)) == len(games) * moves, 90, what="every game to its end")
        wait_until(service.started, 30, what="the last start")
        assert service.stop() == 0
    finally:
        service.stop()
        stop_alice()
    log = (tmp_path / "bot.log").read_text(errors="replace")
    assert "Traceback" not in log, log[-3000:]
    assert len(killed_at) >= 15, killed_at  # it really died at many points
    assert_every_turn_answered_once(alice, bot_player, games, moves)


# --- 3. several workers on one mailbox ------------------------------------------------------------


def deliver_twice(alice: Player, bot: Player) -> Callable[[], int]:
    """Mail each of alice's moves (files 3, 5, ...) to the bot a second time, in a mail of its
    own, while the games run: two workers may claim the two copies of one move at once.
    Returns the call that stops it and says how many copies it sent."""
    sent: set[tuple[str, int]] = set()
    stopping = threading.Event()

    def loop() -> None:
        while not stopping.wait(0.3):
            for entry in fx.ledger(alice.workspace):
                key = (str(entry["game"]), int(entry["seq"]))  # type: ignore[call-overload]
                if key[1] >= 3 and fx.side_of(key[1]) == "axis" and key not in sent:
                    name, data = fx.make_turn(*key)
                    send_raw(alice, bot.address, turn_mail(alice.address, bot.address, name, data, "again"))
                    sent.add(key)

    worker = threading.Thread(target=loop, daemon=True)
    worker.start()

    def stop() -> int:
        stopping.set()
        worker.join(timeout=30)
        return len(sent)

    return stop


def plays_by_worker(workers: list[Service]) -> Counter[str]:
    """How many bot moves each worker has made so far, by its logs."""
    logs = "\n".join(w.log.read_text(errors="replace") for w in workers if w.log.exists())
    return Counter(re.findall(r"worker=(w\d) game=\S+ bot: played", logs))


def recognised(workers: list[Service]) -> int:
    """How many mails the workers found to carry a move the game already had."""
    logs = "\n".join(w.log.read_text(errors="replace") for w in workers)
    return logs.count("already imported (mail delivered again)") + logs.count("duplicate — already applied")


@pytest.mark.slow
def test_four_workers_killed_at_random_with_every_move_delivered_twice_answer_every_turn_once(
    make_player, tmp_path
) -> None:
    # 64 turns over eight games: long enough for at least eight kills to fall while every
    # worker has claims in flight (the loop below goes on killing until both hold); the
    # 144 turns it played before made it the suite's longest test, by far, for no other check.
    games = [f"f{i:011x}" for i in range(8)]
    moves = 8
    alice, bot_player = make_player("alice"), make_player("bot", extra=BOT_EXTRA)
    start_games(alice, bot_player, games, moves)
    workers = [Service(bot_player, tmp_path / f"w{i}.log", worker=f"w{i}", claim_timeout=2.0) for i in range(4)]
    rng = random.Random(1125)
    stop_alice = in_background(alice.daemon())
    stop_copies = deliver_twice(alice, bot_player)
    copies = 0
    kills = 0
    try:
        for w in workers:
            w.start()
        deadline = time.monotonic() + 150
        # At least 8 kills even when the games end sooner (a fast machine): a kill after the
        # last turn must not make a worker answer again either.
        busiest_downed = False
        while (kills < 8 or len(fx.ledger(alice.workspace)) < len(games) * moves) and time.monotonic() < deadline:
            time.sleep(rng.uniform(0.3, 1.5))
            played = plays_by_worker(workers)
            if not busiest_downed and played:
                # Once, the worker with the most plays stays down past the claim timeout, so
                # the games it holds must pass to others (left to chance, the first worker up
                # may win every claim and never be hit while holding one).
                victim = max(workers, key=lambda w: played[w.worker])
                victim.kill()
                time.sleep(victim.claim_timeout + 1.5)
                busiest_downed = True
            else:
                victim = rng.choice(workers)
                victim.kill()
                if rng.random() < 0.5:  # sometimes it stays dead: its claims must be taken back
                    time.sleep(rng.uniform(0.0, 3.0))
            kills += 1
            victim.start()
        try:
            wait_until(lambda: len(fx.ledger(alice.workspace)) == len(games) * moves, 60, what="every game to its end")
            wait_until(lambda: all(w.started() for w in workers), 30, what="the last restarted workers to start")
        except AssertionError as err:  # what the workers said is what tells why
            said = "\n".join(f"{w.worker}: {w.log.read_text()[-800:]}" for w in workers)
            raise AssertionError(f"{err}\n{said}") from err
        copies = stop_copies()
        # The last copies may still be on their way: every one must reach a worker and be
        # recognised as a move already had before the workers stop.
        wait_until(lambda: recognised(workers) >= copies, 30, what="every copy to be recognised")
        codes = [w.stop() for w in workers]
        assert codes == [0, 0, 0, 0], [(c, w.log.read_text()[-600:]) for c, w in zip(codes, workers, strict=True)]
    finally:
        stop_copies()
        for w in workers:
            w.stop()
        stop_alice()
    logs = "\n".join(w.log.read_text(errors="replace") for w in workers)
    assert "Traceback" not in logs, logs[-3000:]
    assert kills >= 8
    assert copies == len(games) * (moves // 2 - 1)  # files 3, 5 and 7 of every game, twice each
    assert_every_turn_answered_once(alice, bot_player, games, moves)
    plays = plays_by_worker(workers)
    assert len(plays) >= 2, plays  # the work was shared


def test_a_silent_workers_claims_are_taken_back(make_player) -> None:
    alice, bot_player = make_player("alice"), make_player("bot", extra=BOT_EXTRA)
    start_games(alice, bot_player, ["ad0000000001"], 2)
    alice.daemon().cycle()
    dead = BotMailbox(bot_player.config, exchange=fx, player=fx, worker="dead", claim_timeout=1.0)  # type: ignore[arg-type]
    dead.mailbox.connect()
    dead.heartbeat()
    wait_until(lambda: dead.mailbox.has_new(), 10, what="the invitation")
    candidates, _ = dead.mailbox.candidates()
    dead.mailbox.claim([c.uid for c in candidates])  # claimed, then the worker died
    dead.mailbox.close()
    assert count(bot_player, "pbem-claim-dead") == 1
    live = BotMailbox(bot_player.config, exchange=fx, player=fx, worker="live", claim_timeout=1.0)  # type: ignore[arg-type]
    live.cycle()
    assert fx.ledger(bot_player.workspace) == []  # not silent long enough yet
    time.sleep(1.2)
    wait_until(lambda: len(fx.ledger(bot_player.workspace)) == 2, 20, step=live.cycle, what="the taken-back mail")
    assert count(bot_player, "pbem-claim-dead") == 0


def test_two_workspaces_on_one_mailbox_the_second_refuses(make_player, tmp_path) -> None:
    bot_player = make_player("bot", extra=BOT_EXTRA)
    first = BotMailbox(bot_player.config, exchange=fx, player=fx)  # type: ignore[arg-type]
    first.cycle()
    other_ws = tmp_path / "other-workspace"
    other_ws.mkdir()
    other = bot_player.config_path.with_name("other.toml")
    text = bot_player.config_path.read_text()
    other.write_text(text.replace(f'workspace = "{bot_player.workspace}"', f'workspace = "{other_ws}"'))
    second = Player("bot2", bot_player.address, other_ws, other, bot_player.servers)
    with pytest.raises(PbemError, match="already serves another workspace"):
        BotMailbox(second.config, exchange=fx, player=fx).run(once=True)  # type: ignore[arg-type]
    done = subprocess.run(
        pbem_command("bot", "serve", "--config", str(other), "--once"), env=subprocess_env(), capture_output=True
    )
    err = done.stderr.decode()
    assert done.returncode == 1 and "Traceback" not in err
    assert err.strip().splitlines() == [err.strip()] and err.startswith("error: the mailbox "), err
    first.cycle()  # the first one goes on


# --- 5. operations ----------------------------------------------------------------------------


def test_serve_logs_game_ids_reports_health_and_stops_cleanly_on_sigterm(make_player, tmp_path) -> None:
    alice, bot_player = make_player("alice"), make_player("bot", extra=BOT_EXTRA)
    start_games(alice, bot_player, ["aa0000000001"], 4)
    alice_daemon = alice.daemon()
    alice_daemon.cycle()  # the invitation is sent; nobody serves the bot yet

    def health(*extra: str) -> subprocess.CompletedProcess[bytes]:
        args = pbem_command("bot", "health", "--config", str(bot_player.config_path), *extra)
        return subprocess.run(args, env=subprocess_env(), capture_output=True, timeout=60)

    wait_until(lambda: b"queue depth 1 " in health().stdout, 15, what="the invitation to be counted")
    time.sleep(1.1)
    late = health("--max-age", "1")
    assert late.returncode == 1 and b"unhealthy" in late.stderr
    assert re.search(rb"oldest unanswered: \d+ s", late.stdout)

    service = Service(bot_player, tmp_path / "serve.log", worker="w1")
    stop_alice = in_background(alice_daemon)
    try:
        service.start()
        wait_until(lambda: len(fx.ledger(alice.workspace)) == 4, 30, what="the game to its end")
        wait_until(lambda: b"queue depth 0 " in health().stdout, 15, what="an empty queue")
        assert health("--max-age", "1").returncode == 0
        time.sleep(0.5)
        assert service.proc is not None
        service.proc.send_signal(signal.SIGTERM)
        assert service.proc.wait(timeout=15) == 0
    finally:
        service.stop()
        stop_alice()
    log = (tmp_path / "serve.log").read_text()
    line = next(x for x in log.splitlines() if "bot: played game" in x)
    assert re.match(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d INFO worker=w1 game=aa0000000001 bot: played", line), line
    assert log.rstrip().endswith("mail daemon stopped") and "Traceback" not in log
    assert os.path.exists(bot_player.workspace / ".pbem" / "mail" / "workers" / "w1" / "alive")


def test_a_stop_in_the_middle_of_a_round_leaves_the_rest_for_the_next_start(make_player) -> None:
    alice, bot_player = make_player("alice"), make_player("bot", extra=BOT_EXTRA)
    start_games(alice, bot_player, ["ac0000000001", "ac0000000002", "ac0000000003"], 2)
    alice.daemon().cycle()
    wait_until(lambda: count(bot_player, "INBOX") == 3, 15, what="the three invitations")
    first = BotMailbox(bot_player.config, exchange=fx, player=fx)  # type: ignore[arg-type]

    def stop(game_id: str, status: str, result: object) -> None:
        first.stopping = True  # as SIGTERM would, after the first import

    first.on_imported.append(stop)
    first.cycle()
    assert len(fx.games(bot_player.workspace)) == 1 and count(bot_player, "INBOX") == 2
    second = BotMailbox(bot_player.config, exchange=fx, player=fx)  # type: ignore[arg-type]
    wait_until(lambda: len(fx.ledger(bot_player.workspace)) == 6, 20, step=second.cycle, what="every game answered")
