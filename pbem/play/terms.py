"""New terms from a workspace: one side's consent, and the other side's ``terms`` file.

The side that agrees signs the new deadline (and, if it changes, the new silence rule)
for the next position of the game
(:func:`agree`, a small file given to the other player by hand or mail); the other
side seals the ``terms`` file with that signature in it (:func:`settle`).  Rules:
docs/turn-file-format.md, section 12.4.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pbem.errors import PbemError
from pbem.play import report, turn
from pbem.protocol import clock, deadlines, machine, turnfile, wire
from pbem.store.localgame import LocalGame
from pbem.store.store import Transaction, Workspace, atomic_write, read_bytes

_LIMIT = 1024


def _open(ws: Workspace, gid: str, home: Path | None) -> tuple[LocalGame, machine.Game]:
    lg = LocalGame(ws, gid, home)
    lg.check_mine()
    game = lg.joined_game()
    if not game.deadline:
        raise PbemError(f"game {gid} has no deadline to change", "terms")
    return lg, game


def agree(ws: Workspace, gid: str, hours: float, out: Path, home: Path | None = None, silence: str = "") -> Path:
    """Sign my consent to a deadline of ``hours`` (and to the silence rule ``silence``, if
    given) at the game's next position, into ``out``."""
    deadline = round(hours * 3600)
    if not clock.MIN_DEADLINE <= deadline <= clock.MAX_DEADLINE:
        raise PbemError("the deadline must be between 1 hour and 366 days", "usage")
    if silence and silence not in clock.SILENCE_MODES:
        raise PbemError(f"--on-silence must be one of {', '.join(clock.SILENCE_MODES)}", "usage")
    with ws.game_locked(gid):
        lg, game = _open(ws, gid, home)
        seq, prev = game.seq + 1, game.hashes[-1]
        consent = lg.identity().sign(deadlines.terms_message(gid, seq, prev, deadline, silence))
    doc = {"game": gid, "seq": seq, "prev": prev, "deadline": deadline, "consent": consent}
    doc |= {"silence": silence} if silence else {}
    atomic_write(out, wire.pack(doc))
    return out


def settle(ws: Workspace, gid: str, consent_path: Path, home: Path | None = None) -> Path:
    """Seal the new deadline the opponent consented to as the next file of the game, into outbox/."""
    data = read_bytes(consent_path, _LIMIT)
    doc: Any = None if data is None else wire.unpack(data)
    fields = {"game", "seq", "prev", "deadline", "consent"}
    if not isinstance(doc, dict) or not fields <= set(doc) <= fields | {"silence"}:
        raise PbemError(f"{consent_path.name} is not a consent to new terms", "usage")
    with ws.game_locked(gid):
        lg, game = _open(ws, gid, home)
        if (doc["game"], doc["seq"], doc["prev"]) != (gid, game.seq + 1, game.hashes[-1]):
            raise PbemError("the consent is for another position of the game: ask for a new one", "terms")
        body = {"v": turnfile.VERSION, "type": "terms", "game": gid, "seq": doc["seq"], "prev": doc["prev"]}
        body |= {"side": lg.me, "deadline": doc["deadline"], "consent": doc["consent"]}
        body |= {"silence": doc["silence"]} if "silence" in doc else {}
        before = game.clone()
        tf = machine.seal_next(game.clone(), body, lg.identity().sign)
        made = report.apply_reported(before, machine.Authentic(tf))  # checks the consent, as the receiver will
        tx = Transaction()
        path = turn.stage_sealed(lg, tx, tf, before, made)
        ws.commit(tx)
    return path
