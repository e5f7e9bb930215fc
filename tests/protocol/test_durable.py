"""The one way pbem writes durable files and takes its directory locks (pbem/store/durable.py)."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from pbem.errors import PbemError
from pbem.mail.store import workspace_lock, write_atomic
from pbem.store import durable
from pbem.store.store import Workspace


def test_atomic_write_replaces_content_and_leaves_no_temp_file(tmp_path: Path) -> None:
    target = tmp_path / "sub" / "f.bin"
    durable.atomic_write(target, b"old")
    durable.atomic_write(target, b"new", mode=0o600)
    assert target.read_bytes() == b"new"
    assert os.stat(target).st_mode & 0o777 == 0o600
    assert sorted(p.name for p in target.parent.iterdir()) == ["f.bin"]


def test_a_durable_write_flushes_the_file_and_then_its_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(durable, "FSYNC", True)  # as players run it; the suite runs without
    flushed: list[int] = []
    real = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (flushed.append(os.fstat(fd).st_ino), real(fd))[1])
    target = tmp_path / "f"
    durable.atomic_write(target, b"x")
    assert flushed == [target.stat().st_ino, tmp_path.stat().st_ino]
    flushed.clear()
    durable.atomic_write(target, b"y", durable=False)
    assert flushed == []


def test_writes_are_flushed_unless_the_test_suite_says_otherwise() -> None:
    fresh = subprocess.run(
        [sys.executable, "-c", "from pbem.store import durable; print(durable.FSYNC)"], capture_output=True, text=True
    )
    assert fresh.stdout.strip() == "True", fresh.stderr


def test_step_hook_runs_before_and_after_the_rename(tmp_path: Path) -> None:
    target = tmp_path / "f"
    seen: list[bool] = []
    durable.atomic_write(target, b"x", step=lambda: seen.append(target.exists()))
    assert seen == [False, True]


def test_a_killed_swept_writer_leaves_a_temp_that_the_game_store_sweeps(tmp_path: Path) -> None:
    def die() -> None:
        raise KeyboardInterrupt

    target = tmp_path / "ws" / ".pbem" / "snapshot"
    with pytest.raises(KeyboardInterrupt):
        durable.atomic_write(target, b"x", step=die)
    assert [p.name for p in target.parent.glob(durable.SWEPT_GLOB)] == [f".snapshot.tmp{os.getpid()}"]
    with Workspace(tmp_path / "ws").locked():
        pass
    assert list(target.parent.glob(durable.SWEPT_GLOB)) == []


def test_mail_temp_files_escape_the_game_store_sweep(tmp_path: Path) -> None:
    # The daemon writes without the workspace lock; the sweep must never take its temp file.
    directory = tmp_path / ".pbem" / "mail"
    directory.mkdir(parents=True)
    (directory / "~state.json.abc.part").write_bytes(b"half")
    assert list(directory.glob(durable.SWEPT_GLOB)) == []
    durable.remove_swept_temps(tmp_path)
    assert (directory / "~state.json.abc.part").exists()
    durable.remove_private_temps(directory)
    assert list(directory.iterdir()) == []
    write_atomic(directory / "state.json", b"{}")
    assert os.stat(directory / "state.json").st_mode & 0o777 == 0o600


def test_flock_without_waiting_refuses_a_held_lock(tmp_path: Path) -> None:
    lock = tmp_path / "lock"
    with durable.flock(lock), pytest.raises(BlockingIOError), durable.flock(lock, wait=False):
        pass
    with durable.flock(lock, wait=False):  # released on leaving
        pass


def test_second_mail_daemon_is_refused_with_one_line(tmp_path: Path) -> None:
    with workspace_lock(tmp_path), pytest.raises(PbemError, match="another mail daemon"), workspace_lock(tmp_path):
        pass


def test_the_workspace_lock_is_reentrant_in_a_thread_and_held_against_another(tmp_path: Path) -> None:
    ws = Workspace(tmp_path / "ws")
    got: list[str] = []

    def other() -> None:
        with ws.locked():
            got.append("other")

    with ws.locked():
        with ws.locked():  # the same thread again: no deadlock
            thread = threading.Thread(target=other)
            thread.start()
            thread.join(0.5)
            assert got == [] and thread.is_alive()  # the other thread waits for the flock
        got.append("first")
    thread.join(10)
    assert got == ["first", "other"]
