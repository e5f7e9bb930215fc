"""Secrets at rest: keys, pending orders and committed lists are the owner's alone.

Pending orders and the committed list (kept until its reveal) would tell another local
user the hidden decision before the opponent may know it; the journal holds them too.
"""

from __future__ import annotations

import logging
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from pbem.play import status, turn
from pbem.store import keys, private
from pbem.store.localgame import LocalGame
from pbem.store.store import Workspace
from tests.protocol.conftest import Duo
from tests.protocol.test_crash import RUN


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture(autouse=True)
def _forget_reports() -> None:
    private._reported.clear()  # each test sees its own warnings


def test_keys_store_pending_orders_and_secrets_are_private(duo: Duo) -> None:
    old = os.umask(0o022)  # a usual umask: files would be 0644, folders 0755
    try:
        p = duo.allies
        turn.orders(p.ws, duo.gid, ["declare 1"], home=p.home)
        game_dir = p.ws.game_dir(duo.gid)
        assert _mode(game_dir / "pending") == 0o600
        turn.send(p.ws, duo.gid, home=p.home)
        assert _mode(game_dir / "secrets") == 0o600
    finally:
        os.umask(old)
    for d in (p.ws.store, p.ws.store / "games", game_dir, game_dir / "files"):
        assert _mode(d) == 0o700, d
    for f in game_dir.rglob("*"):
        assert f.is_dir() or _mode(f) == 0o600, f
    assert _mode(p.home) == 0o700 and _mode(p.home / f"{p.name}.key") == 0o600


def test_a_new_key_folder_is_private_with_its_parents(tmp_path: Path) -> None:
    home = tmp_path / "a" / "b"
    keys.keygen("ann", directory=home)
    assert _mode(tmp_path / "a") == 0o700 and _mode(home) == 0o700


@pytest.mark.parametrize("where", ["store", "secrets", "game"])
def test_a_loose_store_is_reported_once(duo: Duo, caplog: pytest.LogCaptureFixture, where: str) -> None:
    p = duo.allies
    turn.orders(p.ws, duo.gid, ["declare 1"], home=p.home)
    turn.send(p.ws, duo.gid, home=p.home)
    target = {"store": p.ws.store, "game": p.ws.game_dir(duo.gid), "secrets": p.ws.game_dir(duo.gid) / "secrets"}[where]
    loose = 0o755 if target.is_dir() else 0o644
    target.chmod(loose)
    with caplog.at_level(logging.WARNING, logger="pbem"):
        status.lines(p.ws, duo.gid, p.home)
        LocalGame(p.ws, duo.gid, p.home)
        with p.ws.locked():
            pass
    [record] = [r for r in caplog.records if r.name == "pbem"]
    line = record.getMessage()
    want = "700" if target.is_dir() else "600"
    assert "\n" not in line and str(target) in line and f"chmod {want} {target}" in line
    assert _mode(target) == loose  # reported, not changed behind the owner's back


def test_a_loose_private_key_is_reported(duo: Duo, caplog: pytest.LogCaptureFixture) -> None:
    p = duo.axis
    key = p.home / f"{p.name}.key"
    key.chmod(0o644)
    p.home.chmod(0o755)
    with caplog.at_level(logging.WARNING, logger="pbem"):
        keys.load(p.name, p.home)
    lines = [r.getMessage() for r in caplog.records if r.name == "pbem"]
    assert any(f"chmod 600 {key}" in ln for ln in lines), lines
    assert any(f"chmod 700 {p.home}" in ln for ln in lines), lines


def test_the_command_line_prints_one_warning_line(duo: Duo) -> None:
    p = duo.allies
    p.ws.store.chmod(0o755)
    env = dict(os.environ, PBEM_HOME=str(p.home))
    run = subprocess.run(
        [sys.executable, str(RUN), "status", duo.gid, "--workspace", str(p.ws.root)],
        env=env,
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=60,
    )
    assert run.returncode == 0, run.stderr
    assert run.stderr.strip() == (
        f"warning: {p.ws.store} is open to other users (mode 755); run: chmod 700 {p.ws.store}"
    )


def test_a_private_store_is_not_reported(duo: Duo, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="pbem"):
        with Workspace(duo.allies.ws.root).locked():
            pass
        keys.load(duo.allies.name, duo.allies.home)
    assert not [r for r in caplog.records if r.name == "pbem"]
