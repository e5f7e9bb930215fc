"""``python -m scenarios.mapgen [--png]``: rebuild scenarios/world.map, its tables (and the docs renders)."""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

from engine.hexmap import Kind
from scenarios.maptables import write_tables

from .build import build_world

ROOT = Path(__file__).resolve().parents[2]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m scenarios.mapgen", description=__doc__)
    ap.add_argument("--out", default=str(ROOT / "scenarios" / "world.map"), help="where to write the map")
    ap.add_argument("--png", action="store_true", help="also render docs/map-*.png")
    ap.add_argument("--verbose", action="store_true", help="print the generator's notes")
    args = ap.parse_args(argv)
    hexmap, notes = build_world()
    data = hexmap.to_bytes()
    Path(args.out).write_bytes(data)
    kinds = Counter(hexmap.kind)
    print(f"grid {hexmap.grid.width}x{hexmap.grid.height}, lat {hexmap.grid.lat_north} to {hexmap.grid.lat_south:.1f}")
    print(f"land hexes {kinds[Kind.LAND] + kinds[Kind.COAST]} (coast {kinds[Kind.COAST]}), sea {kinds[Kind.SEA]}")
    print(
        f"cities {len(hexmap.cities)}, capitals {sum(c.capital for c in hexmap.cities)}, "
        f"major ports {sum(c.major_port for c in hexmap.cities)}, resources {len(hexmap.resources)}"
    )
    print(f"wrote {args.out} ({len(data)} bytes), digest {hexmap.digest()[:16]}")
    tables = Path(args.out).with_suffix(".tables")
    print(f"wrote {tables} ({write_tables(hexmap, tables)} bytes)")
    if args.verbose:
        for n in notes:
            print("  " + n)
    if args.png:
        from scenarios.mapview import write_pngs

        for path in write_pngs(hexmap, ROOT / "docs"):
            print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
