"""Durable little JSON files in ``.pbem/mail/`` and the one-daemon-per-workspace lock.

Every write goes to a temporary file that is fsynced and renamed over the old
one, so a daemon killed at any instant leaves either the old or the new
content, never half of one.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from pbem.errors import PbemError

TEMP_PREFIX, TEMP_SUFFIX = "~", ".part"


def remove_stray_temp_files(directory: Path) -> None:
    """Temp files of a writer killed before its rename; only call while holding the workspace lock."""
    if directory.is_dir():
        for stray in directory.glob(f"{TEMP_PREFIX}*{TEMP_SUFFIX}"):
            stray.unlink(missing_ok=True)


def mail_dir(workspace: Path) -> Path:
    path = workspace / ".pbem" / "mail"
    path.mkdir(parents=True, exist_ok=True)
    return path


def write_atomic(path: Path, data: bytes, durable: bool = True) -> None:
    """Replace ``path`` with ``data`` so that readers see all of it or none of it.

    ``durable`` also waits until the data is on disk; without it the file is
    still never seen half-written, but a power cut may lose the latest version.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    # Not ".name.tmp": the game store deletes files of that shape under .pbem/, inbox/
    # and outbox/ whenever it takes its lock, which it does while we write.
    fd, tmp = tempfile.mkstemp(prefix=f"{TEMP_PREFIX}{path.name}.", suffix=TEMP_SUFFIX, dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            if durable:
                os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    if not durable:
        return
    # The rename itself is durable only once the directory is synced.
    dir_fd = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(dir_fd)
    finally:
        os.close(dir_fd)


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
    path = mail_dir(workspace) / "lock"
    handle = path.open("a+")
    try:
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError as err:
            raise PbemError(f"another mail daemon is already running for {workspace}", code="mail-lock") from err
        yield
    finally:
        handle.close()
