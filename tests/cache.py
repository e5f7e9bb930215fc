"""Expensive test artefacts made once per run and shared by every xdist worker.

A replay of a stored record costs seconds of CPU, and several test modules want the same
one, each on whichever worker draws it.  :func:`shared` makes an artefact once under a file
lock in a directory every worker of the run sees, keyed by everything it depends on: the
code that makes it (engine/, pbem/, scenarios/), the files named as its inputs and its
arguments.  Each call unpickles a fresh copy, so a test may change what it gets.
"""

from __future__ import annotations

import fcntl
import functools
import hashlib
import os
import pickle
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

import pytest

from pbem.play import history, report
from pbem.protocol import machine, replay
from pbem.protocol.turnfile import TurnFile

ROOT = Path(__file__).resolve().parents[1]
RECORDS = Path(__file__).resolve().parent / "data" / "records"
#: The code every cached artefact may depend on.
CODE = ("engine", "pbem", "scenarios")

T = TypeVar("T")


def _digest(paths: Iterable[Path]) -> str:
    h = hashlib.sha256()
    for path in sorted(paths):
        if path.is_file() and "__pycache__" not in path.parts:
            h.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()


@functools.cache
def code_digest() -> str:
    """One hash over the content of every file of the code the artefacts come from."""
    return _digest(p for top in CODE for p in (ROOT / top).rglob("*"))


def _directory(factory: pytest.TempPathFactory) -> Path:
    base = factory.getbasetemp()
    # Each xdist worker has its own base inside the run's: the run's is the one they share.
    run = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    found = run / "shared-artefacts"
    found.mkdir(exist_ok=True)
    return found


def shared(factory: pytest.TempPathFactory, name: str, make: Callable[[], T], inputs: Path | None = None) -> T:
    """The artefact ``name`` (what ``make`` returns), made by the first worker that asks and
    read back, as a fresh copy, by every later ask; ``inputs`` is a file or folder it reads."""
    read = [] if inputs is None else [inputs, *inputs.rglob("*")] if inputs.is_dir() else [inputs]
    key = hashlib.sha256(f"{code_digest()} {_digest(read)} {name}".encode()).hexdigest()[:32]
    directory = _directory(factory)
    done = directory / f"{key}.pickle"
    with open(directory / f"{key}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not done.exists():
            partial = done.with_suffix(".partial")
            partial.write_bytes(pickle.dumps(make()))
            partial.replace(done)
    found: T = pickle.loads(done.read_bytes())
    return found


@dataclass
class RecordWalk:
    """A stored record replayed once: the game after each file from the join on (its bytes,
    as a saved game holds it) and each of those files' report."""

    scenario: str
    games: list[bytes]
    reports: list[report.FileReport]

    def game(self, i: int) -> machine.Game:
        return machine.Game.from_bytes(self.games[i])

    def at(self, seq: int | None = None) -> machine.Game:
        """The game after file ``seq`` (the join is file 1; the last file when None)."""
        game = self.game(-1 if seq is None else seq - 1)
        assert seq is None or game.seq == seq
        return game


def record_walk(factory: pytest.TempPathFactory, record: str) -> RecordWalk:
    """The walk of ``tests/data/records/<record>`` through pbem's one replay."""
    directory = RECORDS / record

    def make() -> RecordWalk:
        games: list[bytes] = []

        class Saved(replay.Visitor):
            def after(self, game: machine.Game, tf: TurnFile) -> None:
                games.append(game.to_bytes())

        reports = report.Reports()
        files = history.record_files(directory)
        replay.replay(files, visitor=replay.Visitors(reports, Saved()))
        return RecordWalk(str(files[0].body["scenario"]), games, reports.made)

    return shared(factory, f"record walk {record}", make, directory)
