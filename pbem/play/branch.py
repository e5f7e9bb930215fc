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

The invited player may not hold the parent (a bot, or a friend branching someone
else's game): the invitation therefore travels with the *parent files*, one file
``<branch>-00000-parent.pbem`` holding the parent's files 0 to N (and its own parent's,
for a branch of a branch) as they were signed, which the receiver keeps next to the
invitation (:func:`keep_parent_files`) and verifies like a record folder when it joins.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path

from pbem.errors import PbemError
from pbem.play import games
from pbem.protocol import engine_link, machine, turnfile
from pbem.protocol.replay import Visitor
from pbem.protocol.replay import replay as replay_files
from pbem.protocol.turnfile import Parent, TurnFile, other
from pbem.store import keys
from pbem.store.localgame import LocalGame
from pbem.store.store import STORE_DIR, Transaction, Workspace, read_bytes

#: The parent files' framing: this line, then whole turn files one after the other.
PARENT_MAGIC = b"pbem parent files 1\n"
PARENT_SUFFIX = "-00000-parent.pbem"

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


def replay(source: Source, gid: str, upto: int, fits: list[int] | None = None) -> machine.Game:
    """Game ``gid`` re-executed from its genesis up to file ``upto`` (its own parent first,
    if it is a branch too); ``fits`` collects the files after which a branch may start."""
    files = source(gid)
    if files is None or len(files) <= upto:
        have = "none" if not files else f"files 0 to {len(files) - 1}"
        raise PbemError(f"game {gid}: its files 0 to {upto} are needed here ({have} found)", "branch")
    if upto < 1:
        raise PbemError(f"game {gid}: a branch starts after the join file (1) or later", "usage")
    g = machine.check_genesis(files[0])
    base = None if g.parent is None else verified_base(source, g.parent)
    return replay_files(files, base=base, upto=upto, visitor=None if fits is None else BranchPoints(fits))


def _fits(game: machine.Game) -> bool:
    return machine.expected(game) is not None and not machine.in_progress(game)


class BranchPoints(Visitor):
    """Notes in ``fits`` each file after which a branch may start (:func:`_fits`)."""

    def __init__(self, fits: list[int]) -> None:
        self.fits = fits

    def after(self, game: machine.Game, tf: TurnFile) -> None:
        if _fits(game):
            self.fits.append(game.seq)


def fit(game: machine.Game, where: str) -> None:
    """Refuse a position no branch can start from (:func:`_fits` says which may)."""
    if machine.expected(game) is None:
        raise PbemError(f"{where}: the game is over there; there is nothing to play from it", "branch")
    if machine.in_progress(game):
        raise PbemError(
            f"{where}: a hidden list or a roll is half done there (it cannot be carried into a game with other dice)",
            "branch",
        )


def verified_base(source: Source, parent: Parent) -> bytes:
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
    invitation to a new game): from the record folder given, else from this workspace's
    games, else from the parent files that came with the invitation."""
    g = machine.Genesis(turnfile.read(path).body)
    if g.parent is None:
        return None
    if parent_folder is not None:
        return verified_base(folder_source(parent_folder), g.parent)
    kept = kept_parent_files(ws, g.game)
    here = functools.cache(store_source(ws))  # asked whether it holds the parent, then replayed: read once
    if kept is None or here(g.parent["game"]) is not None:
        return verified_base(here, g.parent)
    return verified_base(folder_source(kept), g.parent)


# -- the parent files that travel with a branch's invitation ------------------------------


def parent_files(source: Source, parent: Parent) -> list[TurnFile]:
    """What a receiver needs to verify a branch's start: the parent's files 0 to ``seq``,
    after its own parent's, for a branch of a branch."""
    files = source(parent["game"])
    if files is None or len(files) <= parent["seq"]:
        raise PbemError(f"game {parent['game']}: its files 0 to {parent['seq']} are not all here", "branch")
    g = machine.Genesis(files[0].body)
    before = [] if g.parent is None else parent_files(source, g.parent)
    return before + files[: parent["seq"] + 1]


def pack_parent_files(files: list[TurnFile]) -> bytes | None:
    """The parent files as one file; None when they exceed what a mailed file may hold
    (the invited player then needs the parent's record: `pbem join --parent DIR`)."""
    data = PARENT_MAGIC + turnfile.join_files(files)
    return data if len(data) <= turnfile.MAX_FILE else None


def unpack_parent_files(data: bytes, where: str) -> dict[str, list[TurnFile]]:
    """The parent files' turn files by game id (framing and fields checked; signatures and
    history are checked when the branch is joined, as for a record folder)."""
    if not data.startswith(PARENT_MAGIC) or len(data) > turnfile.MAX_FILE:
        raise PbemError(f"{where}: not the parent files of a branch", "parse")
    found: dict[str, list[TurnFile]] = {}
    for tf in turnfile.split_files(data[len(PARENT_MAGIC) :], where):
        found.setdefault(tf.game, []).append(tf)
    for gid, files in found.items():
        if [tf.seq for tf in files] != list(range(len(files))):
            raise PbemError(f"{where}: the files of game {gid} in it are not 0, 1, 2, ... in order", "parse")
    return found


def parent_rel(gid: str) -> str:
    return f"{STORE_DIR}/parents/{gid}.pbem"


def keep_parent_files(ws: Workspace, name: str, data: bytes, tx: Transaction) -> tuple[str, str]:
    """Keep received parent files (the bytes of a file called ``name``) next to the
    invitations, for the branch the name names (``<branch>-00000-parent.pbem``); returns
    (status, message) as an import does."""
    gid = name.removesuffix(PARENT_SUFFIX)
    if not name.endswith(PARENT_SUFFIX) or not turnfile.GID_RE.match(gid):
        raise PbemError(f"{name}: parent files are named <branch game>{PARENT_SUFFIX}", "parse")
    found = unpack_parent_files(data, name)
    rel = parent_rel(gid)
    if read_bytes(ws.root / rel) == data:
        return "duplicate", f"{name}: the parent files of branch {gid} are already kept"
    tx.put(rel, data)
    games_in = ", ".join(f"game {g} files 0 to {len(fs) - 1}" for g, fs in found.items())
    return "stored", f"kept the parent files of branch {gid} ({games_in}) for its invitation"


def kept_parent_files(ws: Workspace, gid: str) -> dict[str, list[TurnFile]] | None:
    data = read_bytes(ws.root / parent_rel(gid), turnfile.MAX_FILE + 1)
    return None if data is None else unpack_parent_files(data, f"the parent files of branch {gid}")


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
    carry_parent: bool = True,
) -> tuple[str, Path]:
    """Write the invitation to a branch of ``parent_gid`` after file ``at`` into outbox/,
    with the parent files (``carry_parent``): by default between the parent's two players,
    each on its side there."""
    api = engine_link.api()
    source = functools.cache(source)  # the parent's files are replayed, then packed for the invitation: read once
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
    # A side handed over is played by its new key there, which the genesis does not name.
    played = [s for s in turnfile.SIDES if game.keys[s] == mine]
    side = side or (played[0] if played else None)
    if side is None:
        raise PbemError(f"you did not play game {parent_gid}: say which side you take (--side)", "usage")
    if opponent is None:
        theirs = other(side)
        if not played:
            raise PbemError("you did not play that game: name your opponent's public key file (--opponent)", "usage")
        if game.keys[theirs] != pg.key(theirs):
            raise PbemError(
                f"the {theirs} side changed hands in game {parent_gid}: name your opponent's public key file "
                "(--opponent)",
                "usage",
            )
        opponent = keys.PublicKey(pg.body["names"][theirs], pg.body["emails"][theirs], pg.key(theirs))
    parent: Parent = {"game": parent_gid, "seq": at, "file": game.hashes[at], "state": api.state_hash(game.state)}
    carried = pack_parent_files(parent_files(source, parent)) if carry_parent else None
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
        parent_files=carried,
        digest=pg.body["digest"],
    )
