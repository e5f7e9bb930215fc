"""Declining an invitation: a signed ``decline`` file in the join's place (file 1).

The invited player signs it with the key the genesis names for its side, so the
inviter knows the refusal is genuine; it fills position 1, so a join and a decline
of one invitation by one player are two versions of one position (equivocation), and
no file may follow it.  The decliner keeps the game in its store, ended, so that the
mail daemon knows where to send the file.
"""

from __future__ import annotations

from pathlib import Path

from pbem.errors import PbemError
from pbem.play.games import game_meta
from pbem.protocol import machine, turnfile
from pbem.protocol.turnfile import TurnFile, other
from pbem.store import keys
from pbem.store.localgame import LocalGame
from pbem.store.store import Transaction, Workspace


def check(genesis: TurnFile, tf: TurnFile) -> None:
    """Refuse a decline that is not the invited player's answer to ``genesis`` (signature
    checked by the caller)."""
    g = machine.Genesis(genesis.body)
    invited = other(g.creator)
    if tf.side != invited:
        raise PbemError(f"{tf.name}: only the invited player ({invited}) can decline game {g.game}", "side")
    if tf.prev != genesis.hash:
        raise PbemError(f"{tf.name}: does not answer this game's genesis file", "chain-link")


def ended_line(meta_side: str, tf: TurnFile) -> str:
    """What the store remembers of a declined game, for `pbem status`."""
    return "you declined the invitation" if tf.side == meta_side else f"{tf.side} declined the invitation"


def _invitation(ws: Workspace, given: str) -> Path:
    """The invitation file a person names: a path, or the id of a kept invitation."""
    path = Path(given)
    if path.is_file():
        return path
    kept = [p for p in ws.invitations() if given and p.stem.startswith(given.lower())]
    if len(kept) == 1:
        return kept[0]
    raise PbemError(f"no invitation {given[:40]} here (give the file, or the id `pbem status` shows)", "usage")


def decline(ws: Workspace, given: str, me: str, home: Path | None = None) -> tuple[str, Path]:
    """Sign my refusal of an invitation into outbox/; returns (game id, path)."""
    genesis = turnfile.read(_invitation(ws, given))
    g = machine.check_genesis(genesis)
    side = other(g.creator)
    ident = keys.load(me, home)
    if g.key(side) != ident.public.raw:
        raise PbemError(
            f"this invitation is for the key {keys.fingerprint(g.key(side))}, not for identity '{me}'", "key"
        )
    body = {"v": turnfile.VERSION, "type": "decline", "game": g.game, "seq": 1, "prev": genesis.hash, "side": side}
    tf = turnfile.seal(body, ident.sign)
    with ws.locked():
        if LocalGame.has_game(ws, g.game):
            raise PbemError(f"game {g.game} is in this workspace already: it was joined or declined", "usage")
        names, emails = g.body["names"], g.body["emails"]
        meta = game_meta(g.game, me, side, ident.email, emails[g.creator], names[g.creator], g.body["scenario"])
        meta["ended"] = ended_line(side, tf)
        tx = Transaction()
        LocalGame.stage_create(ws, tx, meta, [genesis, tf])
        out = ws.stage_outbox(tx, tf)
        tx.delete(ws.invitation_rel(g.game))
        ws.commit(tx)
    return g.game, out


def receive(lg: LocalGame, genesis: TurnFile, tf: TurnFile, tx: Transaction) -> str:
    """Stage the opponent's refusal of my invitation; returns the line that tells me."""
    check(genesis, tf)
    lg.stage_history(tx, tf)
    lg.meta["ended"] = ended_line(lg.me, tf)
    lg.stage_meta(tx)
    return f"{lg.meta.get('opponent_name') or tf.side} declined your invitation to game {lg.gid}"
