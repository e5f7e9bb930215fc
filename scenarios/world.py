"""The compiled world map shipped with the game.

``scenarios/world.map`` is produced by ``python -m scenarios.mapgen`` from open
geographic data (see scenarios/README.md); playing only needs the loader, which is
the engine's own (one parsed copy per process, shared with every game).
"""

from __future__ import annotations

from importlib import resources

from engine.newgame import MAP_FILE
from engine.newgame import world_map as load_world

__all__ = ["load_world", "world_map_bytes"]


def world_map_bytes() -> bytes:
    """The compiled map file exactly as shipped (its digest pins the map in a game)."""
    return (resources.files("scenarios") / MAP_FILE).read_bytes()
