"""The engine leaves the garbage collector little to do while a game is verified.

A full collection traverses every object the collector tracks; one landing inside a file's
verification was its largest pause.  The world map and the modules are frozen out of the
collector once the map is loaded, its per-hex tables are tuples the collector stops
tracking, and a state's kept results refer to no state, so that a state is freed when its
last reference goes, never left to a collection as a reference cycle."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator

import pytest

from engine import api
from engine.deployment import home_area
from engine.newgame import world_map
from engine.sides import SIDES
from engine.supply import supply_of_side


@pytest.fixture
def no_collection() -> Iterator[None]:
    """Only reference counts free objects while the test runs."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def test_the_packaged_map_is_frozen_out_of_the_collector() -> None:
    hexmap = world_map()
    tracked = gc.get_objects()
    assert gc.get_freeze_count() > 0
    assert not any(o is hexmap or o is hexmap.cities for o in tracked)


def test_the_map_s_per_hex_tables_are_not_tracked() -> None:
    hexmap = world_map()
    tables = [
        hexmap.neighbours,
        hexmap.country_of,
        hexmap.land_neighbours,
        hexmap.frozen_neighbours,
        hexmap.sea_links,
        hexmap.sea_neighbours,
    ]
    assert all(len(t) >= hexmap.size for t in tables)
    # A collection stops tracking a tuple whose items it has found untracked: the rows
    # at one pass, the tables made of rows at the next at the latest.
    gc.collect()
    gc.collect()
    assert [gc.is_tracked(t) for t in tables] == [False] * len(tables)


def test_a_state_is_freed_by_its_count_with_its_supply_maps_and_areas_kept(no_collection: None) -> None:
    state = api.new_game("1939")
    maps = {side: supply_of_side(state, side) for side in SIDES}
    area = home_area(state, "Germany")
    assert area and state.derived_tables
    copy = state.copy()
    gone = weakref.ref(state)
    del state, maps
    assert gone() is None
    # The copy finds the results kept for the original's stamp, and they answer for it.
    assert supply_of_side(copy, "axis").state is copy
    assert home_area(copy, "Germany") == area
