"""Durable little JSON files in ``.pbem/mail/`` and the one-daemon-per-workspace lock.

Every write goes to a temporary file that is fsynced and renamed over the old
one, so a daemon killed at any instant leaves either the old or the new
content, never half of one.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from pbem.durable import atomic_write, flock, make_dirs
from pbem.errors import PbemError


def mail_dir(workspace: Path) -> Path:
    path = workspace / ".pbem" / "mail"
    make_dirs(path, 0o700)  # beside the game store, as private as it
    return path


def write_atomic(path: Path, data: bytes, durable: bool = True) -> None:
    """Replace ``path`` with ``data`` so that readers see all of it or none of it.

    ``durable`` also waits until the data is on disk; without it the file is
    still never seen half-written, but a power cut may lose the latest version.
    """
    # A private temp file, not the game store's ".name.tmpPID": the game store deletes
    # files of that shape under .pbem/, inbox/ and outbox/ whenever it takes its lock,
    # which it may do while the daemon writes here.
    atomic_write(path, data, mode=0o600, durable=durable, private_temp=True)


def load_json(path: Path, default: Any) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return default
    except (OSError, ValueError) as err:
        raise PbemError(
            f"mail state file {path} is unreadable ({err}); move it away to start afresh", code="mail-state"
        ) from err


def save_json(path: Path, value: Any) -> None:
    write_atomic(path, json.dumps(value, indent=1, sort_keys=True).encode("utf-8"))


@contextlib.contextmanager
def workspace_lock(workspace: Path) -> Iterator[None]:
    """Hold an exclusive lock so two daemons never fetch or send for the same workspace.

    The kernel drops an flock when its process dies, so a killed daemon never
    leaves a stale lock behind.
    """
    with contextlib.ExitStack() as stack:
        try:
            stack.enter_context(flock(mail_dir(workspace) / "lock", wait=False))
        except BlockingIOError as err:
            raise PbemError(f"another mail daemon is already running for {workspace}", code="mail-lock") from err
        yield
