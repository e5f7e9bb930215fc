"""``python -m scenarios.maptables``: write scenarios/world.tables from scenarios/world.map.

The tables file is the compact form of the map's neighbour tables, pinned to the map's
digest (:meth:`engine.hexmap.HexMap.tables_to_bytes`); ``python -m scenarios.mapgen``
writes it with every new map, and this rewrites it for the map as shipped.
"""

from __future__ import annotations

import sys
from pathlib import Path

from engine.hexmap import HexMap
from engine.newgame import MAP_FILE, TABLES_FILE

HERE = Path(__file__).resolve().parent


def write_tables(hexmap: HexMap, out: Path) -> int:
    """Write the compact tables of ``hexmap`` to ``out``; their size in bytes."""
    data = hexmap.tables_to_bytes()
    out.write_bytes(data)
    return len(data)


def main() -> int:
    hexmap = HexMap.from_bytes((HERE / MAP_FILE).read_bytes())
    out = HERE / TABLES_FILE
    size = write_tables(hexmap, out)
    print(f"wrote {out.name} ({size} bytes) for the map of digest {hexmap.digest()[:16]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
