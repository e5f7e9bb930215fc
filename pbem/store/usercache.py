"""Answers kept between runs in the user's cache folder (``$XDG_CACHE_HOME/pbem`` or the
platform's own), each under a key that names everything the answer was made from.

Nothing depends on them: an entry that is missing, unreadable, damaged or made under
another key is made again by the caller, and a failure to write one (a read-only home,
a full disk) is silent; an entry is written whole or not at all.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
from collections.abc import Iterable
from pathlib import Path

import platformdirs

from pbem.store.durable import atomic_write


def folder() -> Path:
    return Path(platformdirs.user_cache_dir("pbem", appauthor=False))


def read(name: str, key: str) -> bytes | None:
    """The entry ``name`` if it was written under ``key``, else None."""
    try:
        data = (folder() / name).read_bytes()
    except OSError:
        return None
    head, newline, body = data.partition(b"\n")
    return body if newline and head == key.encode() else None


def write(name: str, key: str, body: bytes) -> None:
    with contextlib.suppress(OSError):
        atomic_write(folder() / name, key.encode() + b"\n" + body, durable=False, private_temp=True)


def files_digest(roots: Iterable[Path]) -> str:
    """SHA-256 of every file under ``roots`` (names and contents, in a fixed order),
    compiled bytecode left out: a change to any of them is another key."""
    h = hashlib.sha256()
    for root in roots:
        paths = [root] if root.is_file() else sorted(_files(root))
        for path in paths:
            data = path.read_bytes()
            h.update(f"{path.relative_to(root.parent)}\0{len(data)}\0".encode())
            h.update(data)
    return h.hexdigest()


def _files(root: Path) -> Iterable[Path]:
    for here, dirs, names in os.walk(root):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        for name in names:
            if not name.endswith(".pyc"):
                yield Path(here, name)
