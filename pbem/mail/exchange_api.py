"""The daemon's view of the game layer: two functions, loaded by module name.

``pbem.play.exchange`` provides them in a normal installation; tests and
benchmarks may name another module with the same two functions. The daemon
depends only on the attributes listed here, so the game layer can evolve
behind them.

One promise the daemon cannot check: ``import_file`` records a file as applied
in the same atomic step as the automatic answers it writes into ``outbox/``
(``pbem.play.exchange`` commits both in one transaction). A file imported again is a
"duplicate" that asks for nothing, so a game layer that recorded the file first
and was killed before its answer was written would leave the game waiting for
ever.

A game layer MAY also offer ``signer(workspace, data) -> fingerprint | None``: the key
whose signature on a mailed file verifies.  The daemon names that signer, never the
mail's From header, in its log lines, and the bot mailbox checks it against
``bot.allow``; without it every file counts as unverifiable.  It MAY offer
``foreign(workspace, name) -> bool`` too: True for a file name that can only be another
workspace's (a file of a game not held here, other than one that starts a game); a mail
carrying only such files is left in the folder for that workspace.  For the mail that
says it is my move it MAY offer ``notice(workspace, game_id) -> dict | None`` (the decision
awaited, the status line, and what happened since my last decision, short and in full) and
``notice_picture(workspace, game_id) -> (name, png) | None``; without them the notice names
the received file's report.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from types import ModuleType
from typing import Protocol, cast

from pbem.errors import PbemError

IMPORT_STATUSES = ("applied", "duplicate", "rejected", "stored")


class ImportResultLike(Protocol):
    status: str
    game_id: str
    seq: int
    message: str
    replies: list[Path]


class GameInfoLike(Protocol):
    """A game layer MAY add ``handover_peer`` (the other holder's address in a hand-over)
    and ``handed_over_at`` (the number of my sealed hand-over file): the hand-over's files
    (``<game>-<seq>-offer.pbem``, ``-accept.pbem`` and that one) are then mailed there."""

    my_side: str
    my_email: str
    opponent_email: str
    my_turn: bool
    status_line: str


class Exchange(Protocol):
    def import_file(self, workspace: Path, path: Path) -> ImportResultLike: ...

    def game_info(self, workspace: Path, game_id: str) -> GameInfoLike: ...


#: Modules that configuration files written before pbem was grouped into sub-packages name.
MOVED = {"pbem.exchange": "pbem.play.exchange"}


def load_module(module_name: str, functions: tuple[str, ...], what: str, setting: str, code: str) -> ModuleType:
    """Import a module named in the configuration and check it has ``functions``;
    every failure is one line naming the setting to fix."""
    module_name = MOVED.get(module_name, module_name)
    try:
        module = importlib.import_module(module_name)
    except ImportError as err:
        raise PbemError(f"cannot load {what} {module_name!r}: {err} — check {setting}", code=code) from err
    for name in functions:
        if not callable(getattr(module, name, None)):
            raise PbemError(f"{module_name} has no {name}() — check {setting}", code=code)
    return module


def load_exchange(module_name: str) -> Exchange:
    module = load_module(
        module_name, ("import_file", "game_info"), "the game layer", "the exchange setting", "mail-exchange"
    )
    return cast(Exchange, module)  # load_module checked that it has the protocol's functions
