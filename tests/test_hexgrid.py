"""Grid geometry: neighbours are symmetric, distance is a metric that wraps east-west."""

import dataclasses

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.hexgrid import DIRECTIONS, NO_HEX, HexGrid, opposite
from engine.hexmap import MapError, Side, _neighbour_array
from engine.position import build_map

GRID = HexGrid(300, 185)
hexes = st.integers(min_value=0, max_value=GRID.size - 1)


@given(hexes)
def test_neighbours_are_symmetric_and_at_distance_one(h: int) -> None:
    for d in DIRECTIONS:
        n = GRID.neighbour(h, d)
        if n == NO_HEX:
            continue
        assert GRID.neighbour(n, opposite(d)) == h
        assert GRID.distance(h, n) == 1


def test_top_and_bottom_rows_have_no_neighbour_beyond() -> None:
    assert GRID.neighbour(GRID.hex_id(5, 0), 1) == NO_HEX
    assert GRID.neighbour(GRID.hex_id(5, GRID.height - 1), 5) == NO_HEX


def test_east_west_wrap() -> None:
    west_edge = GRID.hex_id(0, 10)
    east_edge = GRID.hex_id(GRID.width - 1, 10)
    assert GRID.neighbour(east_edge, 0) == west_edge
    assert GRID.distance(west_edge, east_edge) == 1


@given(hexes, hexes, hexes)
def test_distance_is_a_metric(a: int, b: int, c: int) -> None:
    assert GRID.distance(a, b) == GRID.distance(b, a)
    assert GRID.distance(a, c) <= GRID.distance(a, b) + GRID.distance(b, c)
    assert (GRID.distance(a, b) == 0) == (a == b)


@given(hexes)
def test_projection_round_trip(h: int) -> None:
    lat, lon = GRID.center_latlon(h)
    assert GRID.hex_at(lat, lon) == h


def test_scale_and_extent() -> None:
    assert GRID.lat_south < -60
    berlin = GRID.hex_at(52.5, 13.4)
    assert 70 < GRID.km_across(berlin) < 100


def test_labels_round_trip_and_reject_garbage() -> None:
    h = GRID.hex_id(41, 17)
    assert GRID.parse_label(GRID.label(h)) == h
    for bad in ("", "41", "a,b", "999,1", "1,999"):
        try:
            GRID.parse_label(bad)
        except ValueError as exc:
            assert str(exc)
        else:
            raise AssertionError(f"{bad!r} was accepted")


@pytest.mark.parametrize(
    "grid",
    [
        GRID,
        HexGrid(7, 5, wrap=False),
        HexGrid(8, 6, wrap=False),
        HexGrid(6, 4),
        HexGrid(5, 1),
        HexGrid(3, 3, wrap=False),
    ],
)
def test_the_map_neighbour_array_is_the_grid_neighbour_table(grid: HexGrid) -> None:
    """The array every map load builds (by rows and columns) says what the grid's own
    neighbour rule says, hex by hex, wrapped or not."""
    assert _neighbour_array(grid).ravel().tolist() == grid.neighbour_table()


def test_a_map_whose_hexsides_disagree_or_whose_rim_is_open_is_refused() -> None:
    """Loading checks every hexside from both of its hexes (vectorised: the world map has
    300,000 of them and every command loads it)."""
    good = build_map(
        """
        G:c G:c P:c
         G:c P:c P:c
        """
    )
    sides = bytearray(good.sides)
    inner = next(i for i, o in enumerate(good.neighbours) if o >= 0)
    sides[inner] = Side.SEA if sides[inner] != Side.SEA else Side.LAND
    with pytest.raises(MapError, match="disagrees"):
        dataclasses.replace(good, sides=bytes(sides))
    sides = bytearray(good.sides)
    rim = next(i for i, o in enumerate(good.neighbours) if o < 0)
    sides[rim] = Side.LAND
    with pytest.raises(MapError, match="not EDGE"):
        dataclasses.replace(good, sides=bytes(sides))


@given(hexes, st.lists(hexes, min_size=1, max_size=40), st.booleans())
def test_distances_at_once_are_the_distances_one_by_one(a: int, others: list[int], wrap: bool) -> None:
    grid = dataclasses.replace(GRID, wrap=wrap)
    found = grid.distances(a, np.array(others, dtype=np.int64))
    assert found.tolist() == [grid.distance(a, b) for b in others]
