"""The compact form of the map's neighbour tables (scenarios/world.tables): it gives the
tables the map computes, it is in step with the shipped map, and a damaged or stale
form is refused (the packaged loader then computes the tables from the map)."""

from __future__ import annotations

import zlib
from importlib import resources

import msgpack
import numpy as np
import pytest

from engine.hexgrid import NO_HEX
from engine.hexmap import TABLES, HexMap, MapError, _kept, _padded, _rows, _tables_check
from engine.newgame import TABLES_FILE, load_packaged_map
from engine.position import build_map
from scenarios.world import world_map_bytes

#: Every table the engine reads, as rows or as arrays.
ALL_TABLES = (
    "land_neighbours",
    "frozen_neighbours",
    "sea_links",
    "sea_neighbours",
    "naval_zoc_neighbours",
    "land_table",
    "sea_table",
)


def shipped_tables() -> bytes:
    return resources.files("scenarios").joinpath(TABLES_FILE).read_bytes()


def fresh_map() -> HexMap:
    """The shipped map, parsed anew, with nothing cached: its tables get computed."""
    return HexMap.from_bytes(world_map_bytes())


def same(a: object, b: object) -> bool:
    if isinstance(a, np.ndarray) and isinstance(b, np.ndarray):
        return a.dtype == b.dtype and a.shape == b.shape and bool((a == b).all())
    return type(a) is type(b) and a == b


@pytest.fixture(scope="module")
def computed() -> HexMap:
    return fresh_map()


def test_the_shipped_form_gives_exactly_the_computed_tables(computed: HexMap) -> None:
    loaded = fresh_map()
    loaded.load_tables(shipped_tables())
    for name in TABLES:  # taken from the file, not computed
        assert f"_{name}_steps" in loaded.__dict__
    for name in ALL_TABLES:
        assert same(getattr(loaded, name), getattr(computed, name)), name


def test_the_shipped_form_is_in_step_with_the_shipped_map(computed: HexMap) -> None:
    """A map regenerated without its tables fails here (the loader would compute them)."""
    assert computed.tables_to_bytes() == shipped_tables()


def test_the_packaged_loader_uses_good_tables_and_computes_refused_ones(computed: HexMap) -> None:
    good = load_packaged_map(world_map_bytes(), shipped_tables())
    assert "_land_steps" in good.__dict__
    for tables in (None, b"not a tables file", other_map().tables_to_bytes()):
        hexmap = load_packaged_map(world_map_bytes(), tables)
        assert "_land_steps" not in hexmap.__dict__
        for name in ALL_TABLES:
            assert same(getattr(hexmap, name), getattr(computed, name)), name


def other_map() -> HexMap:
    return build_map(
        """
        ~ G:c G:m ~
        G:c G:c P:f P:c
         ~ P:c P:c ~
        """
    )


def _doc(data: bytes) -> dict[str, object]:
    doc = msgpack.unpackb(zlib.decompress(data), raw=False)
    assert isinstance(doc, dict)
    return doc


def _pack(doc: dict[str, object]) -> bytes:
    return zlib.compress(msgpack.packb(doc, use_bin_type=True))


def test_a_form_made_for_another_map_is_refused() -> None:
    with pytest.raises(MapError, match="made for another map"):
        fresh_map().load_tables(other_map().tables_to_bytes())


def test_a_damaged_form_is_refused() -> None:
    data = shipped_tables()
    flipped = bytearray(data)
    flipped[len(data) // 2] ^= 0x10
    with pytest.raises(MapError, match="damaged"):
        fresh_map().load_tables(bytes(flipped))
    with pytest.raises(MapError, match="damaged"):
        fresh_map().load_tables(data[: len(data) // 2])
    # Well-formed, but one hex's steps changed without the hash: refused by the hash.
    doc = _doc(data)
    tables = dict(doc["tables"])  # type: ignore[call-overload]
    land = bytearray(tables["land"])
    h = next(i for i, bits in enumerate(land) if bits)
    land[h] ^= bits_of_one_step(land[h])
    tables["land"] = bytes(land)
    with pytest.raises(MapError, match="does not match their hash"):
        fresh_map().load_tables(_pack({**doc, "tables": tables}))
    # A table cut short, or missing.
    short = {**tables, "land": bytes(land[:-1])}
    with pytest.raises(MapError, match="damaged"):
        fresh_map().load_tables(_pack({**doc, "tables": short}))
    with pytest.raises(MapError, match="damaged"):
        fresh_map().load_tables(_pack({**doc, "tables": {"land": tables["land"]}}))
    with pytest.raises(MapError, match="version"):
        fresh_map().load_tables(_pack({**doc, "version": 99}))
    with pytest.raises(MapError, match="not a pbem map tables file"):
        fresh_map().load_tables(_pack({"format": "pbem-map"}))


def bits_of_one_step(bits: int) -> int:
    return bits & -bits  # the lowest set bit


def test_a_form_stepping_off_the_map_is_refused_even_with_a_right_hash() -> None:
    hexmap = other_map()
    doc = _doc(hexmap.tables_to_bytes())
    rim = next(h for h in range(hexmap.size) if NO_HEX in hexmap.neighbours[h * 6 : h * 6 + 6])
    d = hexmap.neighbours[rim * 6 : rim * 6 + 6].index(NO_HEX)
    tables = dict(doc["tables"])  # type: ignore[call-overload]
    land = bytearray(tables["land"])
    land[rim] |= 1 << d
    tables["land"] = bytes(land)
    rebuilt = other_map()
    with pytest.raises(MapError, match="steps off the map"):
        rebuilt.load_tables(_pack({**doc, "tables": tables, "check": _tables_check(tables)}))
    # Nothing half-loaded: the tables are still the map's own.
    assert rebuilt.land_neighbours == hexmap.land_neighbours


@pytest.mark.parametrize("size", [1000, 70_000])  # neighbours written as 16- and as 32-bit numbers
def test_rows_and_arrays_are_the_kept_neighbours_in_direction_order(size: int) -> None:
    rng = np.random.default_rng(size)
    nbr = rng.integers(0, size, (size, 6), dtype=np.int64)
    steps = rng.random((size, 6)) < 0.4
    expected = [
        tuple(int(o) for o, kept in zip(row, keep, strict=True) if kept) for row, keep in zip(nbr, steps, strict=True)
    ]
    kept = _kept(nbr, steps)
    assert _rows(kept) == tuple(expected)
    assert _padded(kept, size + 1).tolist() == [[*row, *[size] * (6 - len(row))] for row in expected] + [[size] * 6]
