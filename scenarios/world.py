"""The compiled world map shipped with the game.

``scenarios/world.map`` is produced by ``python -m scenarios.mapgen`` from open
geographic data (see scenarios/README.md); playing only needs this loader.
"""

from __future__ import annotations

from functools import lru_cache
from importlib import resources

from engine.hexmap import HexMap

MAP_RESOURCE = "world.map"


def world_map_bytes() -> bytes:
    """The compiled map file exactly as shipped (its digest pins the map in a game)."""
    return (resources.files("scenarios") / MAP_RESOURCE).read_bytes()


@lru_cache(maxsize=1)
def load_world() -> HexMap:
    """The world map, parsed once per process (a HexMap never changes)."""
    return HexMap.from_bytes(world_map_bytes())
