"""The positions a game went through, file by file, from a workspace game or a record folder.

A record folder is what ``pbem selfplay --out`` writes and ``pbem audit`` reads: any
third party can look at a game from its files alone.  Every step is re-executed and
verified exactly as ``pbem audit`` does, so a picture or a log is never drawn from a
file that was not genuine.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from pbem.errors import PbemError
from pbem.play import audit, branch
from pbem.protocol import machine, replay
from pbem.protocol.machine import Game
from pbem.protocol.turnfile import TurnFile
from pbem.store.localgame import LocalGame
from pbem.store.store import Workspace


@dataclass(frozen=True)
class Step:
    """The game right after file ``seq`` (``file``) was applied; ``game`` is the caller's to keep."""

    seq: int
    file: TurnFile
    game: Game


def record_files(directory: Path, gid: str | None = None) -> list[TurnFile]:
    """The verified files of the one game in ``directory`` (or of game ``gid`` among several),
    in order from the genesis."""
    games = audit.game_files(directory)
    if gid is None:
        if len(games) > 1:
            raise PbemError(
                f"{directory.name}: holds {len(games)} games ({', '.join(sorted(games))}); name one with --game",
                "usage",
            )
        gid = next(iter(games))
    picked = [g for g in games if g.startswith(gid)]
    if len(picked) != 1:
        raise PbemError(f"{directory.name}: no single game starts with '{gid[:40]}'", "game")
    return games[picked[0]]


def workspace_files(ws: Workspace, gid: str) -> list[TurnFile]:
    """The accepted files of game ``gid`` in this workspace, in order from the genesis."""
    lg = LocalGame(ws, gid)
    files: list[TurnFile] = []
    seq = 0
    while (tf := lg.history_file(seq)) is not None:
        files.append(tf)
        seq += 1
    return files


def record_base(directory: Path, files: list[TurnFile]) -> bytes | None:
    """For a branch in a record folder: its starting position, verified from its parent's
    files in the same folder (None for any other game)."""
    parent = machine.Genesis(files[0].body).parent if files else None
    if parent is None:
        return None
    return branch.verified_base(branch.folder_source(audit.game_files(directory)), parent)


def steps(files: list[TurnFile], upto: int | None = None, base: bytes | None = None) -> Iterator[Step]:
    """Re-execute ``files`` (genesis, join, turns; a branch from ``base``) and yield the game
    after each turn file from the join on, up to and including file ``upto``."""
    for game in replay.walk(files, base=base, upto=upto):
        yield Step(game.seq, files[game.seq], game.clone())


def position(files: list[TurnFile], at: int | None = None, base: bytes | None = None) -> Game:
    """The game after file ``at`` (the last file when None; a branch from ``base``)."""
    game = replay.replay(files, base=base, upto=at)
    game.events = []  # as a copy or a saved game has them: the last roll's are not kept
    return game
