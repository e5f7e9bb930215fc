"""Kill the daemons at random moments, 20 times, and restart them: nothing lost, nothing applied twice."""

from __future__ import annotations

import random
import signal
import subprocess
import time
from pathlib import Path

import fake_exchange as fx
import pytest
from imaphelp import count
from mailtesting import Player, pbem_command, subprocess_env, wait_until
from test_integration_service import in_background

pytestmark = pytest.mark.mail
GAME = "5a5a5a5a5a5a"
MOVES = 40
KILLS = 20


class Running:
    """A `pbem mail run` (or `bot`) subprocess that can be killed (SIGKILL: no chance to tidy up) and restarted."""

    def __init__(self, player: Player, log: Path, command: str = "run") -> None:
        self.player = player
        self.log = log
        self.command = command
        self.proc: subprocess.Popen[bytes] | None = None
        self.starts = 0

    def start(self, env: dict[str, str] | None = None) -> None:
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(
                pbem_command("mail", self.command, "--config", str(self.player.config_path)),
                stdout=out,
                stderr=out,
                env={**subprocess_env(), **(env or {})},
                cwd=self.player.workspace,
            )
        self.starts += 1

    def died_within(self, seconds: float) -> bool:
        assert self.proc is not None
        try:
            self.proc.wait(timeout=seconds)
        except subprocess.TimeoutExpired:
            return False
        return True

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)

    def stop(self) -> int | None:
        """SIGTERM, as a service manager would; returns the exit code."""
        if self.proc is None:
            return None
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
        return self.proc.returncode


@pytest.mark.slow
def test_daemons_killed_and_restarted(make_player, tmp_path) -> None:
    alice, bob = make_player("alice"), make_player("bob")
    fx.new_game(alice.workspace, GAME, "axis", alice.address, bob.address, autoplay_until=MOVES)
    fx.new_game(bob.workspace, GAME, "allies", bob.address, alice.address, autoplay_until=MOVES)
    daemons = [Running(alice, tmp_path / "alice.log"), Running(bob, tmp_path / "bob.log")]
    rng = random.Random(20261122)

    def finished() -> bool:
        return all(len(fx.ledger(p.workspace)) == MOVES for p in (alice, bob))

    try:
        for d in daemons:
            d.start()
        for _ in range(KILLS):
            # Kill anywhere: while starting up, fetching, importing, sending or idling.
            time.sleep(rng.uniform(0.1, 1.2))
            victim = rng.choice(daemons)
            victim.kill()
            time.sleep(rng.uniform(0.0, 0.3))
            victim.start()
        wait_until(finished, 90, what=f"all {MOVES} moves on both sides")
    finally:
        for d in daemons:
            d.stop()
    logs = "\n".join(d.log.read_text(errors="replace") for d in daemons)
    assert "Traceback" not in logs, logs[-3000:]
    for player in (alice, bob):
        entries = fx.ledger(player.workspace)
        assert [e["seq"] for e in entries] == list(range(1, MOVES + 1))  # each exactly once, in order
    assert fx.history(alice.workspace) == fx.history(bob.workspace)
    assert sum(d.starts for d in daemons) == KILLS + 2


@pytest.mark.slow
def test_a_daemon_killed_at_every_step_answers_every_file_once(make_player, tmp_path) -> None:
    """Each fresh process dies at its step-th durable step (the game layer's included: a file
    applied, its answer written); step walks up, so every step of an import is cut somewhere."""
    moves = 12
    alice, bob = make_player("alice"), make_player("bob")
    fx.new_game(alice.workspace, GAME, "axis", alice.address, bob.address, autoplay_until=moves)
    fx.new_game(bob.workspace, GAME, "allies", bob.address, alice.address, autoplay_until=moves)
    stop_alice = in_background(alice.daemon())
    daemon = Running(bob, tmp_path / "bob.log")
    killed_at = []

    def finished() -> bool:
        return all(len(fx.ledger(p.workspace)) == moves for p in (alice, bob))

    try:
        wait_until(lambda: count(bob) == 1, 20, what="the invitation in bob's inbox")
        for step in range(1, 16):
            daemon.start({"PBEM_MAIL_CRASH_AT": str(step)})
            if daemon.died_within(10):
                killed_at.append(step)
            else:
                daemon.stop()  # idle before its step-th point: nothing was due
            if finished():
                break
        daemon.start()
        wait_until(finished, 60, what=f"all {moves} moves on both sides")
    finally:
        daemon.stop()
        stop_alice()
    log = daemon.log.read_text(errors="replace")
    assert "Traceback" not in log, log[-3000:]
    assert len(killed_at) >= 5, killed_at  # it really died at many points
    for player in (alice, bob):
        assert [e["seq"] for e in fx.ledger(player.workspace)] == list(range(1, moves + 1))
    assert fx.history(alice.workspace) == fx.history(bob.workspace)
