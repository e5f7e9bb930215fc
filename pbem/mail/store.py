"""Durable little JSON files in ``.pbem/mail/``, the locks of the daemon and its workers,
and the test hook that kills the daemon at a chosen step.

Every write goes to a temporary file that is fsynced and renamed over the old
one, so a daemon killed at any instant leaves either the old or the new
content, never half of one.  A state file that is damaged anyway (a disk
error, a hand edit) is set aside as ``NAME.bad-STAMP`` with one log line and the
daemon starts from the default: refusing to start would only stop the mailbox
at every restart, and everything in these files can be learnt again from the
mailbox and the game store.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import logging
import os
import signal
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from pbem.errors import PbemError
from pbem.store.durable import atomic_write, flock, make_dirs

log = logging.getLogger("pbem.mail")
CRASH_ENV = "PBEM_MAIL_CRASH_AT"
_steps_taken = 0


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


def load_json(path: Path, default: Any, valid: Callable[[Any], bool] | None = None) -> Any:
    """The file's value; ``default`` when it is missing, or damaged (then set aside)."""
    try:
        value = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return default
    except (UnicodeDecodeError, ValueError) as err:
        set_aside(path, f"it is not JSON ({' '.join(str(err).split())[:120]})")
        return default
    except OSError as err:
        raise PbemError(f"mail state file {path} cannot be read: {err.strerror or err}", code="mail-state") from err
    if valid is not None and not valid(value):
        set_aside(path, "it does not hold what it should")
        return default
    return value


def set_aside(path: Path, reason: str, records: list[object] | None = None) -> Path:
    """Move a damaged state file aside (or, with ``records``, write just its bad records
    beside it) as ``NAME.bad-STAMP``, and say so in one log line."""
    target = path.with_name(f"{path.name}.bad-{time.strftime('%Y%m%dT%H%M%S', time.gmtime())}-{os.getpid()}")
    try:
        if records is None:
            os.replace(path, target)
        else:
            write_atomic(target, json.dumps(records, indent=1, default=repr).encode("utf-8"))
    except OSError as err:
        raise PbemError(f"mail state file {path} is damaged and cannot be set aside: {err}", code="mail-state") from err
    what = f"{len(records)} bad record(s) of" if records is not None else "damaged"
    log.warning("%s mail state file %s set aside as %s: %s; starting without it", what, path.name, target.name, reason)
    return target


def save_json(path: Path, value: object) -> None:
    write_atomic(path, json.dumps(value, indent=1, sort_keys=True).encode("utf-8"))


def crash_point() -> None:
    """Test hook: with ``PBEM_MAIL_CRASH_AT=k`` the process is SIGKILLed at its k-th step.

    The steps are the points between two durable effects of the daemon and the bot
    (a mail imported, a move owed, a mail moved away, a move made, a mail sent); the
    kill tests in tests/mail walk k over all of them.
    """
    global _steps_taken
    at = os.environ.get(CRASH_ENV)
    if not at:
        return
    _steps_taken += 1
    if _steps_taken == int(at):
        os.kill(os.getpid(), signal.SIGKILL)


@contextlib.contextmanager
def shared_flock(path: Path, *, exclusive: bool, wait: bool = True) -> Iterator[None]:
    """An flock that several holders may share (``exclusive=False``) or one holds alone."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        mode = fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH
        fcntl.flock(fd, mode if wait else mode | fcntl.LOCK_NB)
        yield
    finally:
        os.close(fd)


@contextlib.contextmanager
def workspace_lock(workspace: Path, worker: str = "") -> Iterator[None]:
    """Hold an exclusive lock so two daemons never fetch or send for the same workspace.

    Workers of one bot service (``worker`` named) share the lock with each other, so
    a lone daemon and a set of workers never run together, and each worker name is
    held by one process at a time. The kernel drops an flock when its process dies,
    so a killed daemon never leaves a stale lock behind.
    """
    with contextlib.ExitStack() as stack:
        try:
            stack.enter_context(shared_flock(mail_dir(workspace) / "lock", exclusive=not worker, wait=False))
        except BlockingIOError as err:
            who = "a mail daemon that is not a worker" if worker else "another mail daemon"
            raise PbemError(f"{who} is already running for {workspace}", code="mail-lock") from err
        if worker:
            try:
                stack.enter_context(flock(worker_dir(workspace, worker) / "lock", wait=False))
            except BlockingIOError as err:
                raise PbemError(f"worker {worker} is already running for {workspace}", code="mail-lock") from err
        yield


def worker_dir(workspace: Path, worker: str) -> Path:
    """Where one worker of a bot service keeps what is its own (its IMAP position, its heartbeat)."""
    path = mail_dir(workspace) / "workers" / worker
    path.mkdir(parents=True, exist_ok=True)
    return path
