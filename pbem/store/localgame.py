"""One game in a workspace's store: its metadata, history, snapshot and my pending turn.

Where a game's files lie is named once, by :class:`pbem.store.store.GamePaths`; this class reads
and stages them.  Every change is staged in a :class:`~pbem.store.store.Transaction` and
committed in one go by the caller.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NotRequired, TypedDict, cast

from pbem.errors import PbemError
from pbem.protocol import dice, gamesecrets, machine, records, turnfile, wire
from pbem.protocol.machine import Game
from pbem.protocol.records import Dice, Record, Reveal, Wire
from pbem.protocol.turnfile import TurnFile
from pbem.store import keys
from pbem.store.store import Meta, Transaction, Workspace, read_bytes

MAX_WAITING = 64
LOCAL_LIMITS = wire.Limits(
    max_bytes=64 << 20,
    max_bin=64 << 20,
    max_str=1 << 20,
    max_array=1 << 20,
    max_items=1 << 24,
    max_map=1 << 16,
    max_depth=10,
)


class PendingWire(TypedDict):
    """A :class:`PendingTurn` on disk (``standing`` is missing in files of older versions)."""

    base: int
    records: list[object]
    auto: int
    sim: list[Wire] | None
    standing: NotRequired[list[int]]


class GivenWire(TypedDict):
    """A list given ahead for one coming step (pbem/play/ahead.py's ``Given``) on disk."""

    when: str
    step: str
    actions: list[Wire]
    fallback: str
    warned: NotRequired[list[str]]


class AheadWire(TypedDict, total=False):
    """My orders given ahead on disk, and the notes of what the program did with them."""

    given: list[GivenWire]
    notes: list[list[str]]  # [month, what the program did]


@dataclass
class PendingTurn:
    """My unsent turn: records already applied on top of file ``base`` (the first ``auto``
    of them automatic, and of those the ones at ``standing`` given by my standing orders), and
    the simultaneous list I am writing (None: not started)."""

    base: int = -1
    records: list[Record] = field(default_factory=list)
    auto: int = 0
    sim: list[Wire] | None = None
    standing: list[int] = field(default_factory=list)

    @property
    def empty(self) -> bool:
        return not self.records and self.sim is None

    def to_wire(self) -> PendingWire:
        return {
            "base": self.base,
            "records": [r.to_wire() for r in self.records],
            "auto": self.auto,
            "sim": self.sim,
            "standing": self.standing,
        }

    @classmethod
    def from_wire(cls, d: PendingWire) -> PendingTurn:
        recs = [records.from_wire(r) for r in d["records"]]
        return cls(d["base"], recs, d["auto"], d["sim"], list(d.get("standing", [])))


def _meta_bytes(meta: Mapping[str, object]) -> bytes:
    return json.dumps(meta, sort_keys=True, indent=1).encode()


class LocalGame:
    def __init__(self, ws: Workspace, gid: str, home: Path | None = None) -> None:
        if not turnfile.GID_RE.match(gid):
            raise PbemError(f"'{gid[:40]}' is not a game id (12 hex characters)", "usage")
        self.ws, self.gid, self.home = ws, gid, home
        self.paths = ws.game_paths(gid)
        raw = read_bytes(self._at(self.paths.meta))
        if raw is None:
            raise PbemError(f"no game {gid} in this workspace", "game")
        self.meta: dict[str, Any] = json.loads(raw)
        self._ident: keys.Identity | None = None
        self._secrets: gamesecrets.GameSecrets | None = None

    def _at(self, rel: str) -> Path:
        return self.paths.path(rel)

    # -- opening a game in the store ---------------------------------------------------
    @staticmethod
    def has_game(ws: Workspace, gid: str) -> bool:
        paths = ws.game_paths(gid)
        return paths.path(paths.meta).exists()

    @staticmethod
    def stage_create(
        ws: Workspace, tx: Transaction, meta: Meta, history: list[TurnFile], game: Game | None = None
    ) -> None:
        """Stage a new game of ``ws``: my record of it, its first files and (once both sides
        are in) its snapshot."""
        paths = ws.game_paths(meta["game"])
        tx.put(paths.meta, _meta_bytes(meta))
        for tf in history:
            tx.put(paths.history(tf.seq, tf.side), tf.raw)
        if game is not None:
            tx.put(paths.snapshot, game.to_bytes())

    # -- who I am -------------------------------------------------------------------
    @property
    def me(self) -> str:
        return str(self.meta["side"])

    def check_mine(self) -> None:
        """Refuse to play a side I handed over (my files would be refused: another key signs now)."""
        handed = self.meta.get("handed_over_to")
        if handed:
            raise PbemError(f"game {self.gid}: you handed your side over to the key {handed}; it plays it now", "turn")
        if self.meta.get("handover_pending"):
            raise PbemError(
                f"game {self.gid}: the side is yours once the old holder's sealed hand-over arrives", "turn"
            )

    def identity(self) -> keys.Identity:
        if self._ident is None:
            self._ident = keys.load(self.meta["me"], self.home)
        return self._ident

    def derived(self) -> gamesecrets.GameSecrets:
        """My secrets in this game, bound to its genesis or to the hand-over that gave me my side
        (v1: to its id, for older games)."""
        if self._secrets is None:
            bound = None
            if self.meta.get("binding"):  # a side handed over to me: bound to the hand-over
                bound = bytes.fromhex(self.meta["binding"])
            elif self.meta.get("derivation") == gamesecrets.CURRENT:
                g = self.genesis()
                bound = gamesecrets.binding(g.body, g.hash, self.me)
            self._secrets = gamesecrets.GameSecrets(self.identity(), self.gid, bound)
        return self._secrets

    def dice_value(self, game: Game, k: int) -> bytes:
        # A side handed over to me counts its rolls from the hand-over on (and a final claim
        # of mine under the bot rule spent one value: pbem/protocol/deadlines.py).
        return self.chain_value(game, k - game.chain_base.get(self.me, 0))

    def chain_value(self, game: Game, i: int) -> bytes:
        """My dice-chain value ``v[i]`` in this game."""
        return dice.value(self.derived().dice(), game.chain_len[self.me], i)

    # -- history ----------------------------------------------------------------------
    def history_file(self, seq: int) -> TurnFile | None:
        for side in turnfile.SIDES:
            data = read_bytes(self._at(self.paths.history(seq, side)))
            if data is not None:
                return turnfile.parse(data)
        return None

    def genesis(self) -> TurnFile:
        tf = self.history_file(0)
        if tf is None:
            raise PbemError(f"game {self.gid}: the genesis file is missing from the store", "store")
        return tf

    def game(self) -> Game | None:
        """The game after the last accepted file (None until the opponent has joined)."""
        data = read_bytes(self._at(self.paths.snapshot), 1 << 30)
        return None if data is None else Game.from_bytes(data)

    def joined_game(self, *, no_pending: bool = False) -> Game:
        """The game, refused until the opponent has joined (and, with ``no_pending``, while
        orders of mine wait unsent: what is sealed outside my turn must not pass them by)."""
        game = self.game()
        if game is None:
            raise PbemError(f"game {self.gid}: the opponent has not joined yet", "order")
        if no_pending and not self.pending().empty:
            raise PbemError(f"game {self.gid}: you have unsent orders; send or undo them first", "turn")
        return game

    def base(self) -> bytes | None:
        """For a branch: the parent's verified state it starts from (None for other games)."""
        return read_bytes(self._at(self.paths.base), 1 << 30)

    @staticmethod
    def stage_base(ws: Workspace, tx: Transaction, gid: str, data: bytes) -> None:
        tx.put(ws.game_paths(gid).base, data)

    def head(self) -> int:
        g = self.game()
        return 0 if g is None else g.seq

    def stage_history(self, tx: Transaction, tf: TurnFile) -> None:
        tx.put(self.paths.history(tf.seq, tf.side), tf.raw)

    def stage_drop(self, tx: Transaction, tf: TurnFile) -> None:
        """Take my own file ``tf`` out of the history: a claim took its position."""
        tx.delete(self.paths.history(tf.seq, tf.side))

    def stage_snapshot(self, tx: Transaction, game: Game) -> None:
        """The game after the last accepted file: the only way the snapshot is written."""
        tx.put(self.paths.snapshot, game.to_bytes())

    def stage_meta(self, tx: Transaction) -> None:
        tx.put(self.paths.meta, _meta_bytes(self.meta))

    def stage_outbox(self, tx: Transaction, tf: TurnFile) -> Path:
        return self.ws.stage_outbox(tx, tf)

    # -- waiting files and evidence -------------------------------------------------------
    def waiting(self) -> list[TurnFile]:
        """Files that arrived ahead of a gap, in sequence order (unreadable ones skipped)."""
        d = self._at(self.paths.waiting())
        out = []
        for p in sorted(d.glob("*.pbem")) if d.is_dir() else []:
            try:
                out.append(turnfile.read(p))
            except PbemError:
                continue
        return out

    def _waiting_rel(self, tf: TurnFile) -> str:
        return self.paths.waiting(_kept_name(tf))

    def stage_waiting(self, tx: Transaction, tf: TurnFile) -> None:
        if len(self.waiting()) >= MAX_WAITING:
            raise PbemError(f"game {self.gid}: too many files are waiting for earlier ones", "sequence")
        tx.put(self._waiting_rel(tf), tf.raw)

    def stage_unwait(self, tx: Transaction, tf: TurnFile) -> None:
        """Take ``tf`` out of the waiting files (it was applied, or overtaken)."""
        tx.delete(self._waiting_rel(tf))

    def stage_evidence(self, tx: Transaction, a: TurnFile, b: TurnFile) -> str:
        return self.stage_dispute(tx, [a, b], f"file {a.seq}: {a.side} signed two different versions")

    def stage_dispute(self, tx: Transaction, files: list[TurnFile], note: str) -> str:
        """Keep ``files`` as evidence of a dispute and note it for status; returns where they are."""
        for tf in files:
            tx.put(self.paths.evidence(_kept_name(tf)), tf.raw)
        if note not in self.meta.setdefault("disputes", []):
            self.meta["disputes"].append(note)
        self.stage_meta(tx)
        return self.paths.evidence()

    # -- my pending (unsent) turn --------------------------------------------------------
    def version(self) -> bytes:
        """What a command that works on this game outside the lock checks is unchanged before
        it commits: the game, my pending orders and secrets, and who plays it."""
        names = (self.paths.snapshot, self.paths.pending, self.paths.secrets, self.paths.meta)
        parts = (read_bytes(self._at(rel)) for rel in names)
        return hashlib.sha256(b"".join(b"-" if x is None else len(x).to_bytes(8, "big") + x for x in parts)).digest()

    def pending(self) -> PendingTurn:
        data = read_bytes(self._at(self.paths.pending))
        return PendingTurn() if data is None else PendingTurn.from_wire(wire.unpack(data, LOCAL_LIMITS))

    def stage_pending(self, tx: Transaction, pending: PendingTurn | None) -> None:
        if pending is None or pending.empty:
            tx.delete(self.paths.pending)
        else:
            tx.put(self.paths.pending, wire.pack(pending.to_wire()))

    def secrets(self) -> dict[str, list[Wire]]:
        """The lists I committed, by the number of the file that holds the commitment (text)."""
        return cast(dict[str, list[Wire]], self._private_map(self.paths.secrets))

    def stage_secrets(self, tx: Transaction, secrets: Mapping[str, object]) -> None:
        tx.put(self.paths.secrets, wire.pack(secrets))

    def ahead(self) -> AheadWire:
        """My orders given ahead for coming simultaneous steps, and what the program did with
        them (pbem/play/ahead.py); private like the committed lists."""
        return cast(AheadWire, self._private_map(self.paths.ahead))

    def _private_map(self, rel: str) -> dict[str, object]:
        # Written by this program alone (stage_secrets, stage_ahead): a map in their shape, or damage.
        data = read_bytes(self._at(rel))
        found = {} if data is None else wire.unpack(data, LOCAL_LIMITS)
        if not isinstance(found, dict):
            raise PbemError(f"game {self.gid}: {rel} is damaged; restore it from a backup of the workspace", "store")
        return found

    def stage_ahead(self, tx: Transaction, ahead: AheadWire) -> None:
        tx.put(self.paths.ahead, wire.pack(ahead))

    # -- automatic records ---------------------------------------------------------------
    def auto_record(self, game: Game) -> Dice | Reveal | None:
        """The record I owe next if it needs no human judgement (a dice value or a reveal), else None."""
        exp = machine.expected(game)
        if exp is None or exp.side != self.me or self.meta.get("handed_over_to"):
            return None
        if exp.kind == "dice":
            k = game.k + 1
            return Dice(k, self.dice_value(game, k))
        if exp.kind == "reveal":
            p = game.pending
            assert isinstance(p, machine.SimStep)
            actions = self.secrets().get(str(p.commit_seq))
            if actions is None:
                raise PbemError(
                    f"game {self.gid}: the actions committed in file {p.commit_seq} are missing "
                    "from this store; they cannot be revealed",
                    "store",
                )
            return Reveal(actions, self.derived().salt(p.commit_seq))
        return None


def _kept_name(tf: TurnFile) -> str:
    """A file kept aside (waiting or evidence): two versions of one position never collide."""
    return f"{tf.seq:05d}-{tf.side}-{tf.hash.hex()[:16]}.pbem"
