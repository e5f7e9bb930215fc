"""Starting a game and joining one: the genesis file, its answer, and the local store
they open (a game's id, both keys, the dice anchors, the scenario)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from pbem import dice, engine_link, keys, overview, protocol, report, turnfile
from pbem.errors import PbemError
from pbem.localgame import LocalGame, dice_secret
from pbem.store import Transaction, Workspace
from pbem.turnfile import SIDES, other


def new_game(
    ws: Workspace,
    scenario: str,
    side: str,
    me: str,
    opponent: keys.PublicKey,
    opponent_email: str = "",
    home: Path | None = None,
    gid: str | None = None,
    options: dict[str, Any] | None = None,
    chain_length: int = dice.DEFAULT_LENGTH,
    parent: dict[str, Any] | None = None,
    base: bytes | None = None,
) -> tuple[str, Path]:
    """Write the genesis file (the invitation) into outbox/; returns (game id, path).
    A branch (pbem/branch.py) names its ``parent`` and keeps its verified starting state ``base``."""
    api = engine_link.api()
    if side not in SIDES:
        raise PbemError(f"side must be 'axis' or 'allies', not '{side[:20]}'", "usage")
    ident = keys.load(me, home)
    if opponent.raw == ident.public.raw:
        raise PbemError("the opponent's public key is your own key", "usage")
    try:
        digest = api.scenario_digest(scenario)
    except Exception as exc:
        raise PbemError(
            f"cannot load scenario '{scenario[:40]}' ({type(exc).__name__}: {str(exc)[:120]})", "usage"
        ) from None
    gid = gid or os.urandom(6).hex()
    opp_email = keys.check_email(opponent_email or opponent.email)
    body = {
        "v": turnfile.VERSION,
        "type": "genesis",
        "game": gid,
        "seq": 0,
        "prev": bytes(32),
        "side": side,
        "scenario": scenario,
        "digest": digest,
        "engine": api.ENGINE_VERSION,
        "options": dict(options or {}),
        "keys": {side: ident.public.raw, other(side): opponent.raw},
        "names": {side: ident.name, other(side): opponent.name},
        "emails": {side: ident.email, other(side): opp_email},
        "anchor": dice.anchor(dice_secret(ident, gid), chain_length),
        "chain": chain_length,
    } | ({"parent": parent} if parent is not None else {})
    tf = turnfile.seal(body, ident.sign)
    with ws.locked():
        if LocalGame.has_game(ws, gid):
            raise PbemError(f"game {gid} already exists in this workspace", "usage")
        tx = Transaction()
        LocalGame.stage_create(ws, tx, game_meta(gid, me, side, ident.email, opp_email, opponent.name, scenario), [tf])
        if base is not None:
            LocalGame.stage_base(ws, tx, gid, base)
        out = ws.stage_outbox(tx, tf)
        ws.commit(tx)
    return gid, out


def join(ws: Workspace, path: Path, me: str, home: Path | None = None, base: bytes | None = None) -> tuple[str, Path]:
    """Verify an invitation and write my answer (the join file) into outbox/; a branch's
    invitation starts from ``base``, its parent's position verified (pbem/branch.py)."""
    api = engine_link.api()
    genesis = turnfile.read(path)
    g = protocol.check_genesis(genesis)
    side = other(g.creator)
    ident = keys.load(me, home)
    if g.key(side) != ident.public.raw:
        raise PbemError(
            f"this invitation is for the key {keys.fingerprint(g.key(side))}, not for identity '{me}' "
            f"({ident.public.fingerprint})",
            "key",
        )
    gid = g.game
    state = protocol.new_state(g) if base is None else api.deserialize(base, None, g.body["scenario"])
    body = {
        "v": turnfile.VERSION,
        "type": "join",
        "game": gid,
        "seq": 1,
        "prev": genesis.hash,
        "side": side,
        "anchor": dice.anchor(dice_secret(ident, gid), dice.DEFAULT_LENGTH),
        "chain": dice.DEFAULT_LENGTH,
        "state": api.state_hash(state),
    }
    join_tf = turnfile.seal(body, ident.sign)
    game, joined = report.start_reported(genesis, protocol.authenticate(g, join_tf), base)
    with ws.locked():
        if LocalGame.has_game(ws, gid):
            raise PbemError(f"you have already joined game {gid} in this workspace", "usage")
        tx = Transaction()
        creator = g.creator
        names, emails = g.body["names"], g.body["emails"]
        meta = game_meta(gid, me, side, ident.email, emails[creator], names[creator], g.body["scenario"])
        LocalGame.stage_create(ws, tx, meta, [genesis, join_tf], game)
        if base is not None:
            LocalGame.stage_base(ws, tx, gid, base)
        overview.stage(tx, ws, gid, side, game)
        report.stage(tx, ws.game_rel(gid), [joined])
        out = ws.stage_outbox(tx, join_tf)
        tx.delete(ws.invitation_rel(gid))
        ws.commit(tx)
    return gid, out


def game_meta(gid: str, me: str, side: str, email: str, opp_email: str, opp_name: str, scenario: str) -> dict[str, Any]:
    """The local record of a game I play: who I am in it and whom I play against."""
    return {
        "game": gid,
        "me": me,
        "side": side,
        "my_email": email,
        "opponent_email": opp_email,
        "opponent_name": opp_name,
        "scenario": scenario,
    }
