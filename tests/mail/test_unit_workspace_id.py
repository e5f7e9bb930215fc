"""The workspace's name on the mailbox: made once, even by workers starting together."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import pytest

from pbem.mail import imap


def test_workers_starting_together_on_a_fresh_workspace_agree_on_its_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A slow random source widens the window between "no name yet" and "name written" so
    # that, without the lock, every thread would make a name of its own.
    real = os.urandom

    def slow_urandom(n: int) -> bytes:
        time.sleep(0.05)
        return real(n)

    monkeypatch.setattr(imap.os, "urandom", slow_urandom)
    names: list[str] = []
    start = threading.Barrier(4)

    def worker() -> None:
        start.wait()
        names.append(imap.workspace_id(tmp_path))

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(names) == 4 and len(set(names)) == 1
    assert imap.workspace_id(tmp_path) == names[0]  # and it is the one on disk


def test_a_damaged_name_is_made_anew_and_kept(tmp_path: Path) -> None:
    first = imap.workspace_id(tmp_path)
    path = next(tmp_path.rglob("workspace-id"))
    path.write_text("not a name")
    second = imap.workspace_id(tmp_path)
    assert second != first and len(second) == 16
    assert imap.workspace_id(tmp_path) == second
