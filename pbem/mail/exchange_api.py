"""The daemon's view of the game layer: two functions, loaded by module name.

``pbem.exchange`` provides them in a normal installation; tests and
benchmarks may name another module with the same two functions. The daemon
depends only on the attributes listed here, so the game layer can evolve
behind them.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any, Protocol

from pbem.errors import PbemError

IMPORT_STATUSES = ("applied", "duplicate", "rejected", "stored")


class ImportResultLike(Protocol):
    status: str
    game_id: str
    seq: int
    message: str
    replies: list[Path]


class GameInfoLike(Protocol):
    my_side: str
    my_email: str
    opponent_email: str
    my_turn: bool
    status_line: str


class Exchange(Protocol):
    def import_file(self, workspace: Path, path: Path) -> Any: ...

    def game_info(self, workspace: Path, game_id: str) -> Any: ...


def load_exchange(module_name: str) -> Exchange:
    try:
        module = importlib.import_module(module_name)
    except ImportError as err:
        raise PbemError(f"cannot load the game layer {module_name!r}: {err} — check the exchange setting",
                        code="mail-exchange") from err
    for name in ("import_file", "game_info"):
        if not callable(getattr(module, name, None)):
            raise PbemError(f"{module_name} has no {name}() — check the exchange setting", code="mail-exchange")
    return module  # type: ignore[return-value]
