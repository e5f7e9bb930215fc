"""Hand-over from a workspace: the old holder's offer, the new holder's acceptance, the seal.

The offer directory holds ``offer`` (the hand-over body without its countersignature)
and ``files/`` (the game's accepted files), so that the new holder verifies the whole
game before it signs anything; ``accepted`` is what it gives back.  The protocol rules
are in :mod:`pbem.handover`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pbem import audit, dice, games, gamesecrets, handover, history, keys, overview, protocol, report, turnfile, wire
from pbem.errors import PbemError
from pbem.localgame import LocalGame
from pbem.store import Transaction, Workspace, atomic_write, read_bytes

OFFER, ACCEPTED, FILES = "offer", "accepted", "files"
_LIMIT = 4096


def offer(ws: Workspace, gid: str, to: keys.PublicKey, out: Path, home: Path | None = None) -> Path:
    """Write my offer of my side to ``to`` and the game's files into directory ``out``."""
    with ws.locked():
        lg = LocalGame(ws, gid, home)
        lg.check_mine()
        game = lg.joined_game(no_pending=True)
        body = handover.offer(game, lg.me, to.raw, to.email)
        history_files = [lg.history_file(s) for s in range(game.seq + 1)]
    (out / FILES).mkdir(parents=True, exist_ok=True)
    for tf in history_files:
        assert tf is not None  # the accepted history has no gap
        atomic_write(out / FILES / tf.name, tf.raw)
    atomic_write(out / OFFER, wire.pack(body))
    return out


def _read(path: Path, what: str) -> dict[str, Any]:
    data = read_bytes(path, _LIMIT)
    if data is None:
        raise PbemError(f"no {what} file at {path.name}", "usage")
    body = wire.unpack(data)
    if not isinstance(body, dict) or body.get("type") != "handover":
        raise PbemError(f"{path.name} is not a hand-over {what}", "usage")
    return body


def accept(ws: Workspace, directory: Path, me: str, home: Path | None = None) -> tuple[str, Path]:
    """Verify the offered game from its files, take the game into my workspace and countersign."""
    ident = keys.load(me, home)
    body = _read(directory / OFFER, "offer")
    files = history.record_files(directory / FILES)
    audit.audit_dir(directory / FILES)
    game = history.position(files)
    if body.get("game") != game.gid or body.get("seq") != game.seq + 1 or body.get("prev") != game.hashes[-1]:
        raise PbemError("the offer does not continue the game's files it came with", "usage")
    if body.get("key") != ident.public.raw:
        raise PbemError(f"the side is offered to another key, not to {me}'s", "usage")
    side = body["side"]
    handover.check_open(game, side, "hand-over")
    gid = game.gid
    g = files[0].body
    # Bound to the genesis as every new game's secrets are (gamesecrets): LocalGame.derived
    # finds the same binding from the meta's derivation.
    secret = gamesecrets.GameSecrets(ident, gid, gamesecrets.binding(g, files[0].hash, side)).dice()
    done = handover.accept(body, dice.anchor(secret, dice.DEFAULT_LENGTH), dice.DEFAULT_LENGTH, ident.sign)
    opp = turnfile.other(side)
    meta = games.game_meta(gid, me, side, ident.email, g["emails"][opp], g["names"][opp], g["scenario"])
    with ws.locked():
        if LocalGame.has_game(ws, gid):
            raise PbemError(f"game {gid} is already in this workspace", "usage")
        tx = Transaction()
        LocalGame.stage_create(ws, tx, meta, files, game)
        overview.stage(tx, ws, gid, side, game)
        ws.commit(tx)
    path = directory / ACCEPTED
    atomic_write(path, wire.pack(done))
    return gid, path


def seal(ws: Workspace, gid: str, acceptance: Path, home: Path | None = None) -> Path:
    """Seal the accepted hand-over as the next file of my game, into outbox/."""
    accepted = _read(acceptance, "acceptance")
    with ws.locked():
        lg = LocalGame(ws, gid, home)
        game = lg.joined_game(no_pending=True)
        before = game.clone()
        tf = handover.seal(game, accepted, lg.identity().sign)
        tx = Transaction()
        report.stage(tx, ws.game_rel(gid), [report.apply_reported(before, protocol.Authentic(tf))])
        lg.stage_history(tx, tf)
        lg.stage_snapshot(tx, game)
        lg.meta["handed_over_to"] = keys.fingerprint(accepted["key"])
        # The mail daemon sends the hand-over to the new holder's address, which passes it on
        # to the opponent with its first decision (exchange.receive).
        lg.meta["handed_over_at"] = tf.seq
        lg.meta["handed_over_email"] = accepted.get("email", "")
        lg.stage_meta(tx)
        overview.stage(tx, ws, gid, lg.me, game)
        path = lg.stage_outbox(tx, tf)
        ws.commit(tx)
    return path
