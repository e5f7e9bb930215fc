"""The level a person chooses for the computer player of a game (docs/ai.md, "Levels"),
recorded in the game's metadata so that every later move of the computer in the game is made
at it: a solo game's computer, `pbem bot play`, and the bot mailbox after a restart."""

from __future__ import annotations

from pathlib import Path

from pbem.errors import PbemError
from pbem.protocol import engine_link, gameoptions
from pbem.store.localgame import LocalGame
from pbem.store.store import Transaction, Workspace

#: The game's metadata entry with the level.
LEVEL = "level"
#: The level of a game that records none: the everyday bot's (docs/ai.md, "Levels").
DEFAULT = 3
#: My game's metadata entry with the level of the computer I play against here.
OPPONENT_LEVEL = "computer_level"


def player_of(level: int) -> str:
    """The computer player of ``level``; a user error for a level that does not exist."""
    try:
        return engine_link.ai().level_player(level)
    except ValueError as exc:
        raise PbemError(f"--level: {exc}", "usage") from None


def set_level(ws: Workspace, gid: str, level: int, home: Path | None = None) -> None:
    """Record that the computer plays game ``gid`` of this workspace at ``level``."""
    player_of(level)
    with ws.game_locked(gid):
        lg = LocalGame(ws, gid, home)
        lg.meta[LEVEL] = level
        tx = Transaction()
        lg.stage_meta(tx)
        ws.commit(tx)


def recorded_player(lg: LocalGame) -> str:
    """The player of the game's recorded level (`pbem bot play --level`); else of the level its
    invitation asked of a computer opponent (docs/turn-file-format.md, section 6.1); else the
    everyday bot."""
    level = lg.meta.get(LEVEL)
    if level is None:
        genesis = lg.genesis()
        if genesis.side != lg.me:  # the level was asked of the invited side, never of its inviter
            level = gameoptions.level(genesis.body["options"])
    return "bot" if level is None else player_of(int(level))
