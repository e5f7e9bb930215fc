"""Writing files that survive a kill or a power cut, and the exclusive lock of a directory.

Both the game store (``pbem/store/store.py``) and the mail daemon's state
(``pbem/mail/store.py``) write this way: the new content goes to a temporary
file in the same directory, is fsynced, renamed over the target and the
directory is fsynced, so a reader sees the old or the new content, never a mix.

Temporary files come in two shapes, because the game store sweeps away the
temporary files of a writer killed before its rename whenever it takes a lock
(see ``SWEPT_GLOB``): all of them under the workspace lock held exclusively, a
game's (in its folder and ``outbox/<gid>-*``) under that game's lock:

* ``.NAME.tmpPID`` (the default) for writers that hold the lock that guards the
  file, so that nobody else can own a file of that shape while the sweep runs;
* ``~NAME.XXXXXX.part`` (``private_temp=True``) for writers that do not (the
  mail daemon writes while a ``pbem`` command holds the lock and sweeps);
  they clean up their own (``remove_private_temps``).
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

#: What the game store's sweep deletes; only writers holding the store's lock that guards
#: the file make these.
SWEPT_GLOB = ".*.tmp*"
PRIVATE_PREFIX, PRIVATE_SUFFIX = "~", ".part"
#: Whether durable writes reach the disk (fsync).  Only the test suite turns this off
#: (tests/conftest.py): fsync guards against a power cut, which no test makes, and the
#: suite's thousands of flushes cost more wall time than some of its CPU-bound tests.
FSYNC = True


def fsync_dir(path: Path) -> None:
    """Make renames and unlinks in ``path`` durable (a rename is durable only once its
    directory entry is on disk); a directory that cannot be opened is left alone."""
    if not FSYNC:
        return
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def make_dirs(path: Path, mode: int) -> None:
    """Create ``path`` and its missing parents, each with ``mode`` (``Path.mkdir`` gives
    the parents the default mode); existing folders are left as they are."""
    missing = []
    while not path.is_dir():
        missing.append(path)
        path = path.parent
    for d in reversed(missing):
        with contextlib.suppress(FileExistsError):
            d.mkdir(mode=mode)


def _open_temp(path: Path, mode: int, private_temp: bool) -> tuple[int, Path]:
    if private_temp:
        fd, tmp = tempfile.mkstemp(prefix=f"{PRIVATE_PREFIX}{path.name}.", suffix=PRIVATE_SUFFIX, dir=path.parent)
        return fd, Path(tmp)
    tmp_path = path.with_name(f".{path.name}.tmp{os.getpid()}")
    return os.open(tmp_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode), tmp_path


def atomic_write(
    path: Path,
    data: bytes,
    *,
    mode: int = 0o644,
    durable: bool = True,
    private_temp: bool = False,
    step: Callable[[], None] | None = None,
    dir_mode: int | None = None,
) -> None:
    """Replace ``path`` with ``data`` so that readers see all of it or none of it.

    ``durable=False`` skips the fsyncs: never half-written still, but a power cut may lose
    the latest version.  ``step`` is called before and after the rename (the game store's
    crash test hook).  Missing folders are made with ``dir_mode`` (default: the umask's).
    """
    if dir_mode is None:
        path.parent.mkdir(parents=True, exist_ok=True)
    else:
        make_dirs(path.parent, dir_mode)
    fd, tmp = _open_temp(path, mode, private_temp)
    try:
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
            os.fchmod(fd, mode)
            if durable and FSYNC:
                os.fsync(fd)
        finally:
            os.close(fd)
        if step is not None:
            step()
        os.replace(tmp, path)
    except BaseException:
        if private_temp:  # a swept temp file is left to the sweep, as a kill would leave it
            with contextlib.suppress(OSError):
                os.unlink(tmp)
        raise
    if durable:
        fsync_dir(path.parent)
    if step is not None:
        step()


def remove_private_temps(directory: Path) -> None:
    """Temp files of a private-temp writer killed before its rename; call only where no
    other writer of ``directory`` can be running."""
    if directory.is_dir():
        for stray in directory.glob(f"{PRIVATE_PREFIX}*{PRIVATE_SUFFIX}"):
            stray.unlink(missing_ok=True)


def remove_swept_temps(directory: Path, pattern: str = SWEPT_GLOB) -> None:
    """Temp files of a lock-holding writer killed before its rename (the game store's sweep);
    ``pattern``, narrower than ``SWEPT_GLOB``, sweeps only those of one game's files."""
    for stray in directory.rglob(pattern) if directory.is_dir() else []:
        stray.unlink(missing_ok=True)


@contextlib.contextmanager
def flock(path: Path, *, wait: bool = True, shared: bool = False, mode: int = 0o644) -> Iterator[None]:
    """Hold an exclusive flock on ``path`` (created with ``mode`` if missing), or with
    ``shared`` a shared one (which other shared holders may hold at the same time).

    The kernel drops an flock when its process dies, so a killed holder never leaves a
    stale lock.  With ``wait=False`` a lock held elsewhere raises BlockingIOError; failing
    to open the lock file raises OSError.
    """
    fd = os.open(path, os.O_RDWR | os.O_CREAT, mode)
    try:
        how = fcntl.LOCK_SH if shared else fcntl.LOCK_EX
        fcntl.flock(fd, how if wait else how | fcntl.LOCK_NB)
        yield
    finally:
        os.close(fd)
