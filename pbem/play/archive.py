"""Archiving a game: out of `pbem status`, files and store kept (`pbem status --all` lists it).

Archiving is local bookkeeping only: nothing is signed or sent, and a file of an
archived game that arrives is still verified and applied as before.
"""

from __future__ import annotations

from pbem.errors import PbemError
from pbem.store.localgame import LocalGame
from pbem.store.store import Transaction, Workspace


def archive(ws: Workspace, gid: str, restore: bool = False) -> str:
    """Archive game ``gid`` (or bring it back with ``restore``); returns one line."""
    with ws.locked():
        lg = LocalGame(ws, gid)
        if bool(lg.meta.get("archived")) != restore:
            raise PbemError(f"game {gid} is {'not ' if restore else ''}archived already", "usage")
        if restore:
            del lg.meta["archived"]
        else:
            lg.meta["archived"] = True
        tx = Transaction()
        lg.stage_meta(tx)
        ws.commit(tx)
    if restore:
        return f"game {gid} is back in `pbem status`"
    return f"archived game {gid}: `pbem status` no longer lists it (`pbem status --all` does)"
