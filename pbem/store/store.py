"""The local game store under ``<workspace>/.pbem/``, with all-or-nothing commits.

Every change a command makes (accepted turn files, the state snapshot, my
pending turn, the automatic answer for ``outbox/``) goes through one
:class:`Transaction`.  Committing writes a journal holding every new file's
bytes (temp file + fsync + ``os.replace``, so the journal exists whole or not
at all), then writes each target the same way, then removes the journal.
Taking a lock replays a journal left by a killed process; replaying is
idempotent.  So a kill at any instant leaves either the old game (journal
absent: the file is simply importable again) or the new one (journal present:
it is rolled forward).

Two locks.  One game's step (importing its file, the bot's move, orders, a
claim, showing it) takes :meth:`Workspace.game_locked`: the workspace's flock
shared and the game's own exclusively, so steps of different games run at the
same time and steps of one game one after the other; its commit may change only
that game's folder and its files in ``outbox/`` (and consume its inbox file),
through the game's journal.  Work on the whole workspace (listing or scanning
its games, making one, invitations, offers, parent files, refused files, contact
statements for every game) takes :meth:`Workspace.locked`: the workspace's
flock exclusively, which waits for every game's step and rolls every journal
forward.  A game's step finds a workspace journal left half done and has it
rolled forward under the exclusive lock first, since it may touch any game.

Layout (``<gid>`` = 12 hex characters)::

    .pbem/lock                         flock: shared by games' steps, exclusive for workspace-wide work
    .pbem/gate                         flock: held while waiting for .pbem/lock, so that it is taken in turn
    .pbem/journal                      only while a workspace-wide commit is in flight
    .pbem/invitations/<gid>.pbem       genesis files waiting for `pbem join`
    .pbem/parents/<gid>.pbem           the parent files mailed with branch <gid>'s invitation (pbem/play/branch.py)
    .pbem/offers/<gid>/                a hand-over offered by mail: offer, from, files/ (pbem/play/passing.py)
    .pbem/rejected/                    inbox files an import refused (the newest 200, 64 MiB at most)
    .pbem/games/<gid>/lock             flock: one step of this game at a time
    .pbem/games/<gid>/journal          only while a commit of this game's step is in flight
    .pbem/games/<gid>/meta.json        who I am in this game
    .pbem/games/<gid>/snapshot         engine state + protocol state after the last accepted file
    .pbem/games/<gid>/overview         what `pbem status` and `pbem show` print of it (pbem/store/overview.py)
    .pbem/games/<gid>/files/           the accepted history, one file per sequence number
    .pbem/games/<gid>/waiting/         files that arrived ahead of a gap
    .pbem/games/<gid>/evidence/        equivocation: both signed files of a disputed position
    .pbem/games/<gid>/reports/         each file's report, quoted by the mail that carries the file,
                                       and kept.json: what my unsent automatic records did
    .pbem/games/<gid>/base             for a branch: the parent's verified state it starts from
    .pbem/games/<gid>/pending          my unsent actions
    .pbem/games/<gid>/secrets          my committed-but-unrevealed simultaneous actions
    .pbem/games/<gid>/ahead            my orders given ahead for the coming simultaneous steps

:class:`GamePaths` is the one place that names a game's files; :class:`pbem.store.localgame.LocalGame`
reads and stages them through it, and the light readers (`pbem status`, the overview) use
it without loading the protocol.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, TypedDict

from pbem.errors import PbemError
from pbem.store import durable, private

if TYPE_CHECKING:
    from pbem.protocol.turnfile import TurnFile

STORE_DIR = ".pbem"
#: The most refused files ``.pbem/rejected/`` keeps, in number and in bytes (16 files
#: of the largest size a turn file may have); the oldest go first.
MAX_REJECTED = 200
MAX_REJECTED_BYTES = 64 << 20
_GID = re.compile(r"[0-9a-f]{12}")
_crash_counter = 0
#: store path -> which of its locks this thread holds (the outermost holder releases them);
#: per thread, since another thread of the process (the play server's, an import beside
#: it) must wait for the flocks
_local = threading.local()


@dataclass(frozen=True)
class _Hold:
    """The workspace lock held exclusively (``game`` None), or shared with game ``game``'s."""

    game: str | None


def _held() -> dict[str, _Hold]:
    held: dict[str, _Hold] | None = getattr(_local, "held", None)
    if held is None:
        held = _local.held = {}
    return held


def crash_point() -> None:
    """Test hook: with ``PBEM_CRASH_AT=k`` the process dies at the k-th step of a commit.

    The crash test in tests/protocol kills imports at every step this way.
    """
    global _crash_counter
    at = os.environ.get("PBEM_CRASH_AT")
    if not at:
        return
    _crash_counter += 1
    if _crash_counter == int(at):
        os._exit(86)


def atomic_write(path: Path, data: bytes, mode: int = 0o644, dir_mode: int | None = None) -> None:
    """Write ``data`` to ``path`` so that readers see the old or the new content, never a mix
    (a step of a commit: the crash test may kill the process around its rename)."""
    durable.atomic_write(path, data, mode=mode, step=crash_point, dir_mode=dir_mode)


def _private_write(path: Path, data: bytes) -> None:
    atomic_write(path, data, private.PRIVATE_FILE, private.PRIVATE_DIR)


def read_bytes(path: Path, limit: int = 64 * 1024 * 1024) -> bytes | None:
    try:
        with path.open("rb") as f:
            return f.read(limit)
    except FileNotFoundError:
        return None


class Transaction:
    """A set of writes and deletes, relative to the workspace, applied together."""

    def __init__(self) -> None:
        self.writes: dict[str, bytes | None] = {}

    def put(self, rel: str, data: bytes) -> None:
        self.writes[rel] = data

    def delete(self, rel: str) -> None:
        self.writes[rel] = None


class Workspace:
    """A game workspace: ``inbox/``, ``outbox/`` and the store in ``.pbem/``."""

    def __init__(self, root: Path) -> None:
        self.root = Path(root)
        self.store = self.root / STORE_DIR
        self.inbox = self.root / "inbox"
        self.outbox = self.root / "outbox"
        #: Files that rolling forward an interrupted commit removed (consumed inbox files).
        self.recovered_deletions: set[str] = set()

    # -- locking and recovery -------------------------------------------------
    def _key(self) -> str:
        return str(self.store.resolve())

    def _flock(self, stack: contextlib.ExitStack, path: Path, *, shared: bool = False) -> None:
        try:
            durable.make_dirs(path.parent, private.PRIVATE_DIR)
            stack.enter_context(durable.flock(path, shared=shared, mode=private.PRIVATE_FILE))
        except OSError as exc:
            raise PbemError(f"cannot open the game store in {self.root.name or '.'}: {exc.strerror}", "store") from None

    @contextlib.contextmanager
    def locked(self) -> Iterator[Workspace]:
        """Hold the workspace lock exclusively, after rolling forward every interrupted commit
        (re-entrant): for work on the whole workspace (listing or scanning its games, making
        one, invitations, offers, refused files).  One game's step takes
        :meth:`game_locked` instead, so that steps of other games go on meanwhile."""
        key = self._key()
        hold = _held().get(key)
        if hold is not None:
            if hold.game is not None:  # flock cannot be raised from shared without a gap
                raise PbemError(f"internal error: workspace-wide work inside a step of game {hold.game}", "store")
            yield self
            return
        with contextlib.ExitStack() as stack:
            with self._gate():
                self._flock(stack, self.store / "lock")
            _held()[key] = _Hold(None)
            try:
                self.check_private()
                self.recover()
                yield self
            finally:
                _held().pop(key, None)

    @contextlib.contextmanager
    def game_locked(self, gid: str) -> Iterator[Workspace]:
        """Hold game ``gid``'s lock, after rolling forward its interrupted commit (re-entrant,
        and free inside :meth:`locked`).  The workspace lock is held shared meanwhile, so the
        steps of different games run at the same time and workspace-wide work waits for all
        of them; a commit under it may change only that game's folder and its files in
        outbox/, and consume inbox files."""
        key = self._key()
        hold = _held().get(key)
        if hold is not None:
            if hold.game not in (None, gid):  # two games' locks could be taken in either order
                raise PbemError(f"internal error: a step of game {gid} inside one of game {hold.game}", "store")
            yield self
            return
        with contextlib.ExitStack() as stack:
            self._shared_lock(stack)
            # Games are made under the exclusive lock and never removed: checked once here.
            if not _GID.fullmatch(gid) or not self.game_dir(gid).is_dir():
                raise PbemError(f"no game {gid[:40]} in this workspace", "game")
            self._flock(stack, self.game_dir(gid) / "lock")
            _held()[key] = _Hold(gid)
            try:
                self.check_private(gid)
                self.recover(gid)
                yield self
            finally:
                _held().pop(key, None)

    def _shared_lock(self, stack: contextlib.ExitStack) -> None:
        """Take the workspace lock shared, once no workspace-wide commit is left half done
        (rolling that forward needs the lock exclusively: it may touch any game)."""
        while True:
            with contextlib.ExitStack() as attempt:
                with self._gate():
                    self._flock(attempt, self.store / "lock", shared=True)
                if not (self.store / "journal").exists():
                    stack.push(attempt.pop_all())
                    return
            with self.locked():
                pass

    @contextlib.contextmanager
    def _gate(self) -> Iterator[None]:
        """Held while waiting for the workspace lock, either way.  A flock waiting to be
        exclusive does not stop new shared holders, so without it a steady stream of
        games' steps could keep workspace-wide work (a join) waiting for ever; behind the
        gate, the steps that come after it wait their turn."""
        with contextlib.ExitStack() as stack:
            self._flock(stack, self.store / "gate")
            yield

    def check_private(self, gid: str | None = None) -> None:
        """Warn about a store, or a game's secrets or pending orders (given ahead too), open to other users
        (of game ``gid`` only, if given)."""
        private.check(self.store)
        for game in self.store.glob(f"games/{gid or '*'}"):
            paths = GamePaths(self.root, str(game.relative_to(self.root)))
            for path in (game, paths.path(paths.secrets), paths.path(paths.pending), paths.path(paths.ahead)):
                private.check(path)

    def _journal(self, gid: str | None) -> Path:
        return self.store / "journal" if gid is None else self.game_dir(gid) / "journal"

    def recover(self, gid: str | None = None) -> None:
        """Roll forward the interrupted commits and sweep the temp files of killed writers:
        all of them under the exclusive lock; under game ``gid``'s lock, those in its folder
        and those of its files in outbox/ (all named ``<gid>-...``), which only a holder of
        that lock or of the exclusive one writes."""
        if gid is not None:
            self._roll_forward(self._journal(gid))
            durable.remove_swept_temps(self.game_dir(gid))
            durable.remove_swept_temps(self.outbox, f".{gid}-*.tmp*")
            return
        self._roll_forward(self._journal(None))
        for game in self.store.glob("games/*/journal"):
            self._roll_forward(game)
        for d in (self.store, self.outbox, self.inbox):
            durable.remove_swept_temps(d)

    def _roll_forward(self, journal: Path) -> None:
        data = read_bytes(journal)
        if data is None:
            return
        from pbem.protocol import wire  # only with a journal: a look at a game reads no msgpack

        entries = wire.unpack(data, wire.Limits(max_bytes=1 << 30, max_bin=1 << 30, max_map=4, max_array=100_000))
        self._apply(entries["writes"])
        self.recovered_deletions |= {rel for rel, content in entries["writes"] if content is None}
        journal.unlink()
        durable.fsync_dir(journal.parent)

    def _apply(self, writes: list[tuple[str, bytes | None]]) -> None:
        for rel, data in writes:
            target = self.root / rel
            if data is None:
                target.unlink(missing_ok=True)
                crash_point()
            elif rel.startswith(f"{STORE_DIR}/"):
                _private_write(target, data)
            else:
                atomic_write(target, data)

    def commit(self, tx: Transaction) -> None:
        if not tx.writes:
            return
        hold = _held().get(self._key())
        gid = None if hold is None else hold.game
        # A game's step writes only what its lock guards (and recover(gid) sweeps): its
        # folder and its files in outbox/; of the inbox, it consumes the file it imports.
        mine = (f"{STORE_DIR}/games/{gid}/", f"outbox/{gid}-")
        for rel, data in tx.writes.items():  # paths are built by this package; refuse anything escaping the workspace
            if rel.startswith("/") or ".." in Path(rel).parts:
                raise PbemError("internal error: a store path escapes the workspace", "store")
            if gid is not None and not (rel.startswith(mine) or (rel.startswith("inbox/") and data is None)):
                raise PbemError(f"internal error: a step of game {gid} changes {rel}", "store")
        from pbem.protocol import wire  # here, not at the top: a look at a game writes nothing

        writes = [(rel, tx.writes[rel]) for rel in sorted(tx.writes)]
        journal = self._journal(gid)
        crash_point()
        _private_write(journal, wire.pack({"writes": writes}))
        self._apply(writes)
        journal.unlink()
        durable.fsync_dir(journal.parent)
        crash_point()

    # -- paths ------------------------------------------------------------------
    def game_paths(self, gid: str) -> GamePaths:
        return GamePaths(self.root, f"{STORE_DIR}/games/{gid}")

    def game_dir(self, gid: str) -> Path:
        return self.game_paths(gid).dir

    def inbox_rel(self, path: Path) -> str | None:
        """The workspace-relative name of ``path`` if it sits in inbox/ (consumed on import)."""
        with contextlib.suppress(OSError, ValueError):
            if path.resolve().parent == self.inbox.resolve():
                return f"inbox/{path.name}"
        return None

    def rejected_rel(self, name: str) -> str:
        """Where a refused inbox file is kept for a person to look at."""
        return f"{STORE_DIR}/rejected/{name}"

    def stage_rejected(self, tx: Transaction, name: str, data: bytes) -> list[str]:
        """Keep a refused inbox file in ``.pbem/rejected/``, dropping the oldest kept ones
        (by modification time) beyond ``MAX_REJECTED`` files or ``MAX_REJECTED_BYTES``:
        a flood of bad mail must not fill the disk.  Returns the names dropped.

        A kept file is never replaced: another file of the same name is kept beside it,
        under its name with the start of its SHA-256 (later garbage must not wipe out
        the evidence of an earlier forgery); the very same file again is kept once."""
        folder = self.store / "rejected"
        unique = self._rejected_name(folder, name, data)
        if unique is None:
            return []
        kept: list[tuple[float, str, int]] = []
        for p in folder.iterdir() if folder.is_dir() else []:
            with contextlib.suppress(OSError):
                st = p.stat()
                if p.is_file() and not p.name.startswith("."):
                    kept.append((st.st_mtime, p.name, st.st_size))
        kept.sort()
        total = len(data) + sum(size for _, _, size in kept)
        dropped = []
        while kept and (len(kept) + 1 > MAX_REJECTED or total > MAX_REJECTED_BYTES):
            _, old, size = kept.pop(0)
            tx.delete(self.rejected_rel(old))
            dropped.append(old)
            total -= size
        tx.put(self.rejected_rel(unique), data)
        return dropped

    @staticmethod
    def _rejected_name(folder: Path, name: str, data: bytes) -> str | None:
        """A name in ``folder`` no other file has, or None when ``data`` is kept there already."""
        stem = name.removesuffix(".pbem")
        for candidate in (name, f"{stem}.{hashlib.sha256(data).hexdigest()[:16]}.pbem"):
            try:
                if (folder / candidate).read_bytes() == data:
                    return None
            except FileNotFoundError:
                return candidate
            except OSError:
                continue
        raise PbemError(f"cannot keep the refused file {name} in {folder}: its names are taken", "io")

    def invitation_rel(self, gid: str) -> str:
        return f"{STORE_DIR}/invitations/{gid}.pbem"

    def invitations(self) -> list[Path]:
        """Kept invitations (genesis files), by game id."""
        d = self.store / "invitations"
        return sorted(d.glob("*.pbem")) if d.is_dir() else []

    def stage_outbox(self, tx: Transaction, tf: TurnFile) -> Path:
        """Stage ``tf`` for delivery in outbox/; returns where it will be."""
        tx.put(f"outbox/{tf.name}", tf.raw)
        return self.outbox / tf.name

    def resolve_game(self, given: str) -> str:
        """The id of the game ``given`` names: its whole id, or the start of the id of
        exactly one game of this workspace (as people type them)."""
        games = self.games()
        if given in games:
            return given
        matches = [g for g in games if given and g.startswith(given.lower())]
        if len(matches) == 1:
            return matches[0]
        if matches:
            raise PbemError(f"'{given[:40]}' starts the ids of {', '.join(matches)}: give more of it", "usage")
        known = f"; the games here are {', '.join(games)}" if games else "; there is no game here yet"
        raise PbemError(f"no game {given[:40]} in this workspace{known}", "game")

    def games(self) -> list[str]:
        d = self.store / "games"
        return sorted(p.name for p in d.iterdir() if (p / "meta.json").exists()) if d.is_dir() else []


class _MetaKeys(TypedDict):
    """The keys every game's meta.json holds: who I am in it and whom I play against."""

    game: str
    me: str  # the name of my identity
    side: str
    my_email: str
    opponent_email: str
    opponent_name: str
    scenario: str


class Meta(_MetaKeys, total=False):
    """A game's meta.json: :class:`_MetaKeys`, and what the play rooms note of the game as it
    goes (the rooms add keys of their own too)."""

    derivation: int  # how my secrets are derived (pbem/protocol/gamesecrets.py)
    ended: str  # declined before it began: why
    archived: bool
    solo: bool  # played here against the computer (pbem/play/solo.py)
    level: int  # the level my side's computer player plays at (pbem/play/levels.py)
    computer_level: int  # in a game against the computer here, its level (my status line says it)
    binding: str  # a side handed over to me: the hand-over my secrets are bound to, hex
    handover_pending: bool
    handover_peer: str
    handed_over_to: str


#: The keys every meta.json holds (the optional keys are those of a total=False class: the
#: annotations are strings here, so ``NotRequired`` would go unseen at run time).
META_KEYS = Meta.__required_keys__


@dataclass(frozen=True)
class GamePaths:
    """Where one game's files lie: workspace-relative names (what a :class:`Transaction`
    stages) and, by :meth:`path`, where they are on disk."""

    root: Path
    rel: str

    @property
    def dir(self) -> Path:
        return self.root / self.rel

    def path(self, rel: str) -> Path:
        return self.root / rel

    @property
    def meta(self) -> str:
        return f"{self.rel}/meta.json"

    @property
    def snapshot(self) -> str:
        return f"{self.rel}/snapshot"

    @property
    def overview(self) -> str:
        return f"{self.rel}/overview"

    @property
    def pending(self) -> str:
        return f"{self.rel}/pending"

    @property
    def secrets(self) -> str:
        return f"{self.rel}/secrets"

    @property
    def base(self) -> str:
        return f"{self.rel}/base"

    @property
    def ahead(self) -> str:
        return f"{self.rel}/ahead"

    def history(self, seq: int, side: str) -> str:
        return f"{self.rel}/files/{seq:05d}-{side}.pbem"

    def report(self, seq: int) -> str:
        return f"{self.rel}/reports/{seq:05d}.json"

    def kept_report(self) -> str:
        return f"{self.rel}/reports/kept.json"

    def waiting(self, name: str = "") -> str:
        return f"{self.rel}/waiting/{name}".rstrip("/")

    def evidence(self, name: str = "") -> str:
        return f"{self.rel}/evidence/{name}".rstrip("/")
