"""One game in a workspace's store: its metadata, history, snapshot and my pending turn.

Reading goes through this class; every change is staged in a
:class:`~pbem.store.Transaction` and committed in one go by the caller.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pbem import dice, keys, protocol, turnfile, wire
from pbem.errors import PbemError
from pbem.protocol import Game
from pbem.store import Transaction, Workspace, read_bytes
from pbem.turnfile import TurnFile

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


def dice_secret(ident: keys.Identity, gid: str) -> bytes:
    return ident.derive("pbem/dice-secret/v1", gid.encode())


def commit_salt(ident: keys.Identity, gid: str, seq: int) -> bytes:
    return ident.derive("pbem/commit-salt/v1", f"{gid}/{seq}".encode())


class LocalGame:
    def __init__(self, ws: Workspace, gid: str, home: Path | None = None) -> None:
        if not turnfile.GID_RE.match(gid):
            raise PbemError(f"'{gid[:40]}' is not a game id (12 hex characters)", "usage")
        self.ws, self.gid, self.home = ws, gid, home
        self.rel = ws.game_rel(gid)
        self.dir = ws.game_dir(gid)
        raw = read_bytes(self.dir / "meta.json")
        if raw is None:
            raise PbemError(f"no game {gid} in this workspace", "game")
        self.meta: dict[str, Any] = json.loads(raw)
        self._ident: keys.Identity | None = None

    # -- who I am -------------------------------------------------------------------
    @property
    def me(self) -> str:
        return self.meta["side"]

    def identity(self) -> keys.Identity:
        if self._ident is None:
            self._ident = keys.load(self.meta["me"], self.home)
        return self._ident

    def dice_value(self, game: Game, k: int) -> bytes:
        return dice.value(dice_secret(self.identity(), self.gid), game.chain_len[self.me], k)

    # -- history ----------------------------------------------------------------------
    def file_rel(self, seq: int, side: str) -> str:
        return f"{self.rel}/files/{seq:05d}-{side}.pbem"

    def history_file(self, seq: int) -> TurnFile | None:
        for side in turnfile.SIDES:
            data = read_bytes(self.ws.root / self.file_rel(seq, side))
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
        data = read_bytes(self.dir / "snapshot", 1 << 30)
        return None if data is None else Game.from_bytes(data)

    def head(self) -> int:
        g = self.game()
        return 0 if g is None else g.seq

    def stage_history(self, tx: Transaction, tf: TurnFile) -> None:
        tx.put(self.file_rel(tf.seq, tf.side), tf.raw)

    def stage_meta(self, tx: Transaction) -> None:
        tx.put(f"{self.rel}/meta.json", json.dumps(self.meta, sort_keys=True, indent=1).encode())

    def stage_outbox(self, tx: Transaction, tf: TurnFile) -> Path:
        tx.put(f"outbox/{tf.name}", tf.raw)
        return self.ws.outbox / tf.name

    # -- waiting files and evidence -------------------------------------------------------
    def waiting(self) -> list[tuple[Path, TurnFile]]:
        d = self.dir / "waiting"
        out = []
        for p in sorted(d.glob("*.pbem")) if d.is_dir() else []:
            try:
                out.append((p, turnfile.read(p)))
            except PbemError:
                continue
        return out

    def stage_waiting(self, tx: Transaction, tf: TurnFile) -> None:
        if len(self.waiting()) >= MAX_WAITING:
            raise PbemError(f"game {self.gid}: too many files are waiting for earlier ones", "sequence")
        tx.put(f"{self.rel}/waiting/{tf.seq:05d}-{tf.side}-{tf.hash.hex()[:16]}.pbem", tf.raw)

    def stage_evidence(self, tx: Transaction, a: TurnFile, b: TurnFile) -> str:
        for tf in (a, b):
            tx.put(f"{self.rel}/evidence/{tf.seq:05d}-{tf.side}-{tf.hash.hex()[:16]}.pbem", tf.raw)
        note = f"file {a.seq}: {a.side} signed two different versions"
        if note not in self.meta.setdefault("disputes", []):
            self.meta["disputes"].append(note)
        self.stage_meta(tx)
        return f"{self.rel}/evidence"

    # -- my pending (unsent) turn --------------------------------------------------------
    def pending(self) -> dict[str, Any]:
        data = read_bytes(self.dir / "pending")
        if data is None:
            return {"base": -1, "records": [], "auto": 0, "sim": None}
        return wire.unpack(data, LOCAL_LIMITS)

    def stage_pending(self, tx: Transaction, pending: dict[str, Any] | None) -> None:
        if pending is None or (not pending["records"] and pending["sim"] is None):
            tx.delete(f"{self.rel}/pending")
        else:
            tx.put(f"{self.rel}/pending", wire.pack(pending))

    def secrets(self) -> dict[str, Any]:
        data = read_bytes(self.dir / "secrets")
        return {} if data is None else wire.unpack(data, LOCAL_LIMITS)

    def stage_secrets(self, tx: Transaction, secrets: dict[str, Any]) -> None:
        tx.put(f"{self.rel}/secrets", wire.pack(secrets))

    # -- automatic records ---------------------------------------------------------------
    def auto_record(self, game: Game) -> list[Any] | None:
        """The record I owe next if it needs no human judgement (a reveal), else None."""
        exp = protocol.expected(game)
        if exp is None or exp[0] != self.me:
            return None
        if exp[1] == "dice":
            k = game.k + 1
            return ["dice", k, self.dice_value(game, k)]
        if exp[1] == "reveal":
            p = game.pending
            assert p is not None
            actions = self.secrets().get(str(p["commit_seq"]))
            if actions is None:
                raise PbemError(
                    f"game {self.gid}: the actions committed in file {p['commit_seq']} are missing "
                    "from this store; they cannot be revealed",
                    "store",
                )
            return ["reveal", actions, commit_salt(self.identity(), self.gid, p["commit_seq"])]
        return None
