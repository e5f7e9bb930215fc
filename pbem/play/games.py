"""Starting a game and joining one: the genesis file, its answer, and the local store
they open (a game's id, both keys, the dice anchors, the scenario)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from pbem.errors import PbemError
from pbem.play import report
from pbem.protocol import clock, dice, engine_link, gameoptions, gamesecrets, machine, turnfile
from pbem.protocol.turnfile import SIDES, Parent, other
from pbem.store import keys, overview
from pbem.store.localgame import LocalGame
from pbem.store.store import Meta, Transaction, Workspace


def new_game(
    ws: Workspace,
    scenario: str,
    side: str,
    me: str,
    opponent: keys.PublicKey,
    opponent_email: str = "",
    home: Path | None = None,
    gid: str | None = None,
    options: dict[str, object] | None = None,
    chain_length: int = dice.DEFAULT_LENGTH,
    parent: Parent | None = None,
    base: bytes | None = None,
    parent_files: bytes | None = None,
    digest: str | None = None,
) -> tuple[str, Path]:
    """Write the genesis file (the invitation) into outbox/; returns (game id, path).
    A branch (pbem/play/branch.py) names its ``parent``, keeps its verified starting state
    ``base`` and sends the ``parent_files`` with the invitation; its ``digest`` is its
    parent's, whose map its state is on (by default a game is on the newest map)."""
    api = engine_link.api()
    if side not in SIDES:
        raise PbemError(f"side must be 'axis' or 'allies', not '{side[:20]}'", "usage")
    ident = keys.load(me, home)
    if opponent.raw == ident.public.raw:
        raise PbemError("the opponent's public key is your own key", "usage")
    try:
        newest = api.scenario_digest(scenario)
    except Exception as exc:
        raise PbemError(
            f"cannot load scenario '{scenario[:40]}' ({type(exc).__name__}: {str(exc)[:120]})", "usage"
        ) from None
    digest = newest if digest is None else digest
    gameoptions.check(dict(options or {}))  # malformed terms or level: refused before anything is signed
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
        "chain": chain_length,
    } | ({"parent": parent} if parent is not None else {})
    # My secrets are bound to everything in the invitation but the anchor they make.
    secrets = gamesecrets.GameSecrets(ident, gid, gamesecrets.genesis_base(body))
    body["anchor"] = dice.anchor(secrets.dice(), chain_length)
    tf = turnfile.seal(body, ident.sign)
    with ws.locked():
        if LocalGame.has_game(ws, gid) or (ws.root / ws.invitation_rel(gid)).exists():
            raise PbemError(f"game {gid} already exists in this workspace", "usage")
        tx = Transaction()
        meta = game_meta(gid, me, side, ident.email, opp_email, opponent.name, scenario)
        asked = gameoptions.level(dict(options or {}))
        if asked is not None:
            meta["computer_level"] = asked  # my status line says what the invitation asked
        LocalGame.stage_create(ws, tx, meta, [tf])
        if base is not None:
            LocalGame.stage_base(ws, tx, gid, base)
        if parent_files is not None:
            tx.put(f"outbox/{gid}-00000-parent.pbem", parent_files)
        out = ws.stage_outbox(tx, tf)
        ws.commit(tx)
    return gid, out


@dataclass(frozen=True)
class Inviter:
    """Who an invitation says it comes from: the name and address are its claims, the
    fingerprint is the key that signed it (what a person compares out of band)."""

    gid: str
    scenario: str
    side: str
    name: str
    email: str
    fingerprint: str
    parent: Parent | None = None  # a branch's parent game and the file it starts after
    level: int | None = None  # the level asked of a computer opponent (a person ignores it)

    def text(self) -> str:
        # The name is the inviter's text: control characters could repaint the terminal
        # line that shows the fingerprint.
        who = "".join(c if c.isprintable() else "?" for c in self.name) or "(no name)"
        if self.email:
            who += f" <{self.email}>"
        branch = (
            ""
            if self.parent is None
            else f", a branch of game {self.parent['game']} after its file {self.parent['seq']}"
        )
        level = "" if self.level is None else f", asking a computer opponent to play at level {self.level}"
        return (
            f"invitation to game {self.gid} ({self.scenario}{branch}{level}) from {who}, playing {self.side}; "
            f"their key fingerprint: {self.fingerprint}"
        )


def inviter(path: Path) -> Inviter:
    """Verify an invitation and say who made it."""
    return inviter_of(machine.check_genesis(turnfile.read(path)))


def inviter_of(g: machine.Genesis) -> Inviter:
    creator = g.creator
    return Inviter(
        g.game,
        g.body["scenario"],
        creator,
        g.body["names"][creator],
        g.body["emails"][creator],
        keys.fingerprint(g.key(creator)),
        g.parent,
        gameoptions.level(g.body["options"]),
    )


def join(
    ws: Workspace,
    path: Path,
    me: str,
    home: Path | None = None,
    expect_fingerprint: str | None = None,
    base: bytes | None = None,
) -> tuple[str, Path]:
    """Verify an invitation and write my answer (the join file) into outbox/; a branch's
    invitation starts from ``base``, its parent's position verified (pbem/play/branch.py).

    ``expect_fingerprint``: the inviter's key as the player knows it; an invitation signed
    by another key is refused.  None trusts any inviter (the bot mailbox does).
    """
    api = engine_link.api()
    genesis = turnfile.read(path)
    g = machine.check_genesis(genesis)
    side = other(g.creator)
    if expect_fingerprint is not None:
        expected, found = keys.given_fingerprint(expect_fingerprint), keys.fingerprint(g.key(g.creator))
        if found != expected:
            raise PbemError(
                f"{path.name}: the invitation is signed by the key {found}, not by {expected}: "
                "not joined (someone else may be posing as your opponent)",
                "fingerprint",
            )
    ident = keys.load(me, home)
    if g.key(side) != ident.public.raw:
        raise PbemError(
            f"this invitation is for the key {keys.fingerprint(g.key(side))}, not for identity '{me}' "
            f"({ident.public.fingerprint})",
            "key",
        )
    gid = g.game
    state = machine.new_state(g) if base is None else api.deserialize(base, scenario=g.body["scenario"])
    # Bound to this very invitation: another one reusing its game id gets other secrets.
    secrets = gamesecrets.GameSecrets(ident, gid, genesis.hash)
    body = {
        "v": turnfile.VERSION,
        "type": "join",
        "game": gid,
        "seq": 1,
        "prev": genesis.hash,
        "side": side,
        "anchor": dice.anchor(secrets.dice(), dice.DEFAULT_LENGTH),
        "chain": dice.DEFAULT_LENGTH,
        "state": api.state_hash(state),
    }
    if clock.terms(g.body["options"]) is not None:
        body["time"] = clock.now()  # the deadline of the first decision runs from here
    join_tf = turnfile.seal(body, ident.sign)
    game, joined = report.start_reported(genesis, machine.authenticate(g, join_tf), base)
    with ws.locked():
        if LocalGame.has_game(ws, gid):
            raise PbemError(f"you have already joined game {gid} in this workspace", "usage")
        kept = ws.root / ws.invitation_rel(gid)
        if kept.exists() and turnfile.read(kept).hash != genesis.hash:
            raise PbemError(reused_id(path.name, gid), "game-id")
        tx = Transaction()
        creator = g.creator
        names, emails = g.body["names"], g.body["emails"]
        meta = game_meta(gid, me, side, ident.email, emails[creator], names[creator], g.body["scenario"])
        LocalGame.stage_create(ws, tx, meta, [genesis, join_tf], game)
        if base is not None:
            LocalGame.stage_base(ws, tx, gid, base)
        overview.stage(tx, ws, gid, side, game)
        report.stage(tx, ws.game_paths(gid), [joined])
        out = ws.stage_outbox(tx, join_tf)
        tx.delete(ws.invitation_rel(gid))
        ws.commit(tx)
    return gid, out


def game_meta(gid: str, me: str, side: str, email: str, opp_email: str, opp_name: str, scenario: str) -> Meta:
    """The local record of a game I play: who I am in it and whom I play against."""
    return {
        "game": gid,
        "me": me,
        "side": side,
        "my_email": email,
        "opponent_email": opp_email,
        "opponent_name": opp_name,
        "scenario": scenario,
        "derivation": gamesecrets.CURRENT,
    }


def reused_id(name: str, gid: str) -> str:
    """Why a second invitation with a game id this workspace has seen is refused."""
    return (
        f"{name}: another invitation with game id {gid} was already received in this workspace; "
        "a game id is used once (its secrets would be at risk): ask your opponent for a new game"
    )
