"""Branches: a new game (a new id) from the position after file N of another game.

The branch's genesis names its *parent*: the game id, the file number N, the hash of
file N (which pins the whole history before it) and the state hash after it.  Nobody
takes that position on trust: each player re-executes the parent's files 0 to N with
its own engine and checks the hash and the state (:func:`verified_base`) before it
joins, or before it accepts the join; the branch then starts from that state with new
dice chains (new game id, new secrets), like any game.

A position may be branched from when the game goes on there and no commitment or roll
is half done: a hidden list sealed in the parent, or a roll with one value revealed,
could not be carried into a game with other dice and other salts.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from pbem import engine_link, games, keys, protocol, turnfile
from pbem.errors import PbemError
from pbem.localgame import LocalGame
from pbem.store import Workspace
from pbem.turnfile import TurnFile, other

#: A game's accepted files from its genesis on, by game id (None: not available here).
Source = Callable[[str], list[TurnFile] | None]


def store_source(ws: Workspace) -> Source:
    """The games of a workspace as their files."""

    def files(gid: str) -> list[TurnFile] | None:
        if not turnfile.GID_RE.match(gid) or not LocalGame.has_game(ws, gid):
            return None
        lg = LocalGame(ws, gid)
        return [tf for seq in range(lg.head() + 1) if (tf := lg.history_file(seq)) is not None]

    return files


def folder_source(found: dict[str, list[TurnFile]]) -> Source:
    """The games of a record folder (as `pbem audit` reads it: signatures checked, no gap)."""
    return found.get


def replay(source: Source, gid: str, upto: int, fits: list[int] | None = None) -> protocol.Game:
    """Game ``gid`` re-executed from its genesis up to file ``upto`` (its own parent first,
    if it is a branch too); ``fits`` collects the files after which a branch may start."""
    files = source(gid)
    if files is None or len(files) <= upto:
        have = "none" if not files else f"files 0 to {len(files) - 1}"
        raise PbemError(f"game {gid}: its files 0 to {upto} are needed here ({have} found)", "branch")
    if upto < 1:
        raise PbemError(f"game {gid}: a branch starts after the join file (1) or later", "usage")
    g = protocol.check_genesis(files[0])
    base = None if g.parent is None else verified_base(source, g.parent)
    game = protocol.start(files[0], protocol.authenticate(g, files[1]), base)
    for tf in files[2 : upto + 1]:
        if fits is not None and _fits(game):
            fits.append(game.seq)
        protocol.apply_turn(game, protocol.authenticate(g, tf))
    if fits is not None and _fits(game):
        fits.append(game.seq)
    return game


def _fits(game: protocol.Game) -> bool:
    return protocol.expected(game) is not None and not protocol.in_progress(game)


def fit(game: protocol.Game, where: str) -> None:
    """Refuse a position no branch can start from (:func:`_fits` says which may)."""
    if protocol.expected(game) is None:
        raise PbemError(f"{where}: the game is over there; there is nothing to play from it", "branch")
    if protocol.in_progress(game):
        raise PbemError(
            f"{where}: a hidden list or a roll is half done there (it cannot be carried into a game with other dice)",
            "branch",
        )


def verified_base(source: Source, parent: dict[str, Any]) -> bytes:
    """The parent's state after the file a branch names, re-executed and checked against
    the file hash and state hash the branch's genesis gives."""
    api = engine_link.api()
    gid, seq = parent["game"], parent["seq"]
    where = f"game {gid} after file {seq}"
    game = replay(source, gid, seq)
    if game.hashes[seq] != parent["file"]:
        raise PbemError(f"{where}: file {seq} there is not the one the branch names (another history)", "branch")
    if api.state_hash(game.state) != parent["state"]:
        raise PbemError(f"{where}: the position differs from the one the branch names", "branch")
    fit(game, where)
    data: bytes = api.serialize(game.state)
    return data


def base_for_invitation(ws: Workspace, path: Path, parent_folder: dict[str, list[TurnFile]] | None) -> bytes | None:
    """The verified starting position of the branch invitation at ``path`` (None for an
    invitation to a new game): from the record folder given, else from this workspace."""
    g = protocol.Genesis(turnfile.read(path).body)
    if g.parent is None:
        return None
    source = folder_source(parent_folder) if parent_folder is not None else store_source(ws)
    return verified_base(source, g.parent)


def new_branch(
    ws: Workspace,
    source: Source,
    parent_gid: str,
    at: int,
    me: str,
    side: str | None = None,
    opponent: keys.PublicKey | None = None,
    home: Path | None = None,
    gid: str | None = None,
) -> tuple[str, Path]:
    """Write the invitation to a branch of ``parent_gid`` after file ``at`` into outbox/:
    by default between the parent's two players, each on its side there."""
    api = engine_link.api()
    fits: list[int] = []
    game = replay(source, parent_gid, at, fits)
    try:
        fit(game, f"game {parent_gid} after file {at}")
    except PbemError as exc:
        near = sorted(n for n in fits if n != at)[-5:]
        hint = f"; the last files before it that a branch may start after: {', '.join(map(str, near))}" if near else ""
        raise PbemError(f"{exc}{hint}", exc.code) from None
    pg = game.genesis
    mine = keys.load(me, home).public.raw
    played = [s for s in turnfile.SIDES if pg.key(s) == mine]
    side = side or (played[0] if played else None)
    if side is None:
        raise PbemError(f"you did not play game {parent_gid}: say which side you take (--side)", "usage")
    if opponent is None:
        theirs = other(side)
        if not played:
            raise PbemError("you did not play that game: name your opponent's public key file (--opponent)", "usage")
        opponent = keys.PublicKey(pg.body["names"][theirs], pg.body["emails"][theirs], pg.key(theirs))
    parent = {"game": parent_gid, "seq": at, "file": game.hashes[at], "state": api.state_hash(game.state)}
    return games.new_game(
        ws,
        pg.body["scenario"],
        side,
        me,
        opponent,
        home=home,
        gid=gid,
        parent=parent,
        base=api.serialize(game.state),
    )
