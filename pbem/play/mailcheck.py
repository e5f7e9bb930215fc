"""What the mail daemon asks about a mailed file besides importing it: who signed it, and
whether it can only be another workspace's.

Who signed a file is the fingerprint of the key whose signature on it verifies.  The mail
daemon names this, never the mail's From header (which anyone can write), in
its log lines and in the bot's allow list.  Only keys the file can be checked against
count: a game's invitation against the key of its creator that it carries, a file of a
game held here against the keys of the game's players (as its genesis binds them, and
after a hand-over), a contact statement against the key it carries, a hand-over offer
(unsigned itself) by the key holding the side it offers in the game's files it carries
(:func:`pbem.play.passing.offering_key`).  Anything else, and any signature that does not
verify, has no signer.
"""

from __future__ import annotations

import contextlib
import re
from pathlib import Path

from pbem.errors import PbemError
from pbem.play import contact, passing
from pbem.protocol import machine, turnfile
from pbem.protocol.turnfile import TurnFile
from pbem.store import keys
from pbem.store.localgame import LocalGame
from pbem.store.store import Workspace

#: Files that only a workspace holding their game can use (invitations, file 0, excepted).
_GAME_FILE = re.compile(r"([0-9a-f]{12})-([0-9]{5})-(axis|allies|contact|accept)\.pbem")


def foreign(workspace: Path, name: str, home: Path | None = None) -> bool:
    """True when a mailed file of this name can only be another workspace's: a turn file, a
    contact statement or a hand-over acceptance of a game this workspace does not hold.
    Invitations (file 0), a branch's parent files and hand-over offers start games here.
    (``home`` is taken as by the game layer's other functions; the name alone decides.)"""
    found = _GAME_FILE.fullmatch(name)
    if found is None or (found[3] in turnfile.SIDES and int(found[2]) == 0):
        return False
    return not LocalGame.has_game(Workspace(workspace), found[1])


def signer(workspace: Path, data: bytes, home: Path | None = None) -> str | None:
    """The fingerprint (as `pbem key list` shows it) of the key that signed ``data``, or None."""
    if contact.is_statement(data):
        with contextlib.suppress(PbemError):
            return contact.parse(data).fingerprint
        return None
    if data.startswith(passing.OFFER_MAGIC):
        with contextlib.suppress(PbemError):
            holder = passing.offering_key(data, "offer")
            return None if holder is None else keys.fingerprint(holder)
        return None
    try:
        tf = turnfile.parse(data)
    except PbemError:
        return None
    if tf.type == "genesis":
        creator = machine.Genesis(tf.body).key(tf.side)
        return keys.fingerprint(creator) if tf.verify_signature_ok(creator) else None
    return _game_signer(Workspace(workspace), tf, home)


def _game_signer(ws: Workspace, tf: TurnFile, home: Path | None) -> str | None:
    if not LocalGame.has_game(ws, tf.game):
        return None
    lg = LocalGame(ws, tf.game, home)
    try:
        bound = list(lg.genesis().body["keys"].values())
        found = next((k for k in bound if tf.verify_signature_ok(k)), None)
        if found is None:
            # A side handed over signs with its new key, which only the game as played knows.
            game = lg.game()
            found = next((k for k in (game.keys.values() if game else ()) if tf.verify_signature_ok(k)), None)
    except PbemError:
        return None
    return None if found is None else keys.fingerprint(found)
