"""Resigning, offering, accepting, declining and withdrawing a draw: `pbem resign` and kin.

Each writes one ending record (:mod:`pbem.protocol.endings`) after my pending records.  A record
that ends the game (a resignation, an accepted draw) is sealed and put in outbox/ at
once, without the simultaneous list I was writing, which no longer matters; an offer,
a decline or a withdrawal waits in my pending turn and travels with my next file.
Like every record, it can only be written when the history awaits my side: a
resignation while the opponent is to move would take the place of their file.
"""

from __future__ import annotations

from pathlib import Path

from pbem.errors import PbemError
from pbem.play import turn
from pbem.play.status import awaited, status_line
from pbem.protocol import machine
from pbem.protocol.records import ENDING_KINDS, Ending
from pbem.protocol.words import sides_of
from pbem.store import overview
from pbem.store.localgame import LocalGame
from pbem.store.store import Transaction, Workspace

ENDS_GAME = ("resign", "accept-draw")


def write(ws: Workspace, gid: str, kind: str, home: Path | None = None) -> str:
    """Add my ending record ``kind`` to game ``gid``; returns one line for the person."""
    assert kind in ENDING_KINDS
    with ws.game_locked(gid):
        lg = LocalGame(ws, gid, home)
        t = turn.my_turn(lg)
        exp = machine.expected(t.work)
        if exp is not None and exp.side != lg.me:
            raise PbemError(
                f"game {gid}: not now: the next place in the game's history is {sides_of(exp.side)} "
                f"({awaited(exp.kind)}); run this again once their file has arrived",
                "turn",
            )
        rec = Ending(kind)
        machine.apply_record(t.work, lg.me, t.game.seq + 1, rec, f"your {kind}")
        t.pending.records.append(rec)
        if kind in ENDS_GAME:
            t.pending.sim = None  # the game ends here: the list I was writing will never be played
            tf, tx = turn.seal_pending(t)
            ws.commit(tx)
            assert t.work.result is not None
            return f"sealed {(ws.outbox / tf.name).relative_to(ws.root)}: {t.work.result.text()}"
        tx = Transaction()
        lg.stage_pending(tx, t.pending)
        overview.stage(tx, ws, gid, lg.me, t.work)
        ws.commit(tx)
    return f"your {kind} goes out with your next file (`pbem send {gid}`); {status_line(lg, t.work, t.pending)}"
