"""Games against the computer on this machine: a new game (`pbem new --against-bot`, `pbem
play --against-bot`) or a branch for analysis (`pbem branch --solo`).

The computer is a real second player with its own key and its own workspace, kept
beside mine in ``.pbem-solo/<game>/``: every file goes through the same import,
verification and re-execution as a file by mail.  Nothing is mailed: the files of a
solo game are taken out of both outboxes as they are handed over, and the computer
answers as soon as I send.  It plays as the bot mailbox does (``turn.computer_side``): its
interceptions and landings in my turn by its reaction orders, its month's hidden steps
given ahead.
"""

from __future__ import annotations

import os
from pathlib import Path

from pbem.errors import PbemError
from pbem.play import branch, exchange, games, levels, turn
from pbem.store import keys
from pbem.store.localgame import LocalGame
from pbem.store.store import Transaction, Workspace

COMPUTER = "computer"
MAX_ROUNDS = 10_000


def _computer(ws: Workspace, gid: str) -> tuple[Workspace, Path]:
    """The computer's workspace and identity home for solo game ``gid``."""
    root = ws.root / ".pbem-solo" / gid
    return Workspace(root / "ws"), root / "home"


def start(
    ws: Workspace,
    source: branch.Source,
    parent: str,
    at: int,
    me: str,
    side: str | None = None,
    home: Path | None = None,
    level: int | None = None,
) -> tuple[str, list[str]]:
    """Start a solo branch of ``parent`` after file ``at``, the computer at ``level`` (None:
    the everyday bot); returns its id and what happened."""
    if level is not None:
        levels.player_of(level)  # a level that does not exist stops before anything is written
    gid = os.urandom(6).hex()
    bot_ws, bot_home = _computer(ws, gid)
    bot = keys.keygen(COMPUTER, directory=bot_home)
    # The computer's workspace verifies the start from this one's base: nothing to carry.
    _, invitation = branch.new_branch(ws, source, parent, at, me, side, bot.public, home, gid=gid, carry_parent=False)
    base = LocalGame(ws, gid).base()
    games.join(bot_ws, invitation, COMPUTER, home=bot_home, base=base)
    invitation.unlink()
    if level is not None:
        levels.set_level(bot_ws, gid, level, bot_home)
    _mark(ws, gid, home, level)
    return gid, answer(ws, gid, home)


def new(
    ws: Workspace, scenario: str, side: str, me: str, home: Path | None = None, level: int | None = None
) -> tuple[str, list[str]]:
    """Start a game of ``scenario`` against the computer, ``me`` playing ``side``, the
    computer at ``level`` (None: the everyday bot); returns its id and what happened (the
    computer's join, and its first decisions when it leads)."""
    if level is not None:
        levels.player_of(level)  # a level that does not exist stops before anything is written
    gid = os.urandom(6).hex()
    bot_ws, bot_home = _computer(ws, gid)
    bot = keys.keygen(COMPUTER, directory=bot_home)
    _, invitation = games.new_game(ws, scenario, side, me, bot.public, home=home, gid=gid)
    games.join(bot_ws, invitation, COMPUTER, home=bot_home)
    invitation.unlink()
    if level is not None:
        levels.set_level(bot_ws, gid, level, bot_home)
    _mark(ws, gid, home, level)
    return gid, answer(ws, gid, home)


def is_solo(ws: Workspace, gid: str, home: Path | None = None) -> bool:
    """Whether game ``gid`` is played here against the computer."""
    return bool(LocalGame(ws, gid, home).meta.get("solo"))


def _mark(ws: Workspace, gid: str, home: Path | None, level: int | None = None) -> None:
    """Note that ``gid`` is played here against the computer, and at which level: what my
    status line says (the computer's workspace holds the level it plays at; mine keeps its
    own key, since a level there is my side's computer's, as `pbem bot play --level` sets)."""
    with ws.locked():
        lg = LocalGame(ws, gid, home)
        lg.meta["solo"] = True
        lg.meta[levels.OPPONENT_LEVEL] = levels.DEFAULT if level is None else level
        tx = Transaction()
        lg.stage_meta(tx)
        ws.commit(tx)


def _hand_over(src: Workspace, dst: Workspace, gid: str, home: Path | None) -> list[str]:
    """Import ``src``'s outgoing files of game ``gid`` into ``dst`` and take them out of the outbox."""
    said = []
    for path in sorted(src.outbox.glob(f"{gid}-*.pbem")):
        res = exchange.import_file(dst.root, path, home=home)
        if not res.ok:
            raise PbemError(f"solo game {gid}: {res.message}", res.code or "solo")
        path.unlink()
        said.append(res.message)
    return said


def answer(ws: Workspace, gid: str, home: Path | None = None) -> list[str]:
    """Hand my files to the computer and let it play until it is my move or the game ends;
    returns the lines my imports of its files said."""
    bot_ws, bot_home = _computer(ws, gid)
    said: list[str] = []
    for _ in range(MAX_ROUNDS):
        _hand_over(ws, bot_ws, gid, bot_home)
        turn.computer_side(bot_ws, gid, home=bot_home)
        back = _hand_over(bot_ws, ws, gid, home)
        if not back:
            return said
        said += back
    raise PbemError(f"solo game {gid}: the computer did not hand the game back", "solo")
