"""Hex grid geometry: coordinates, neighbours, distance, wrap-around, projection.

The world is a rectangle of ``width`` x ``height`` pointy-top hexes laid out in
"odd-r" offset rows: odd rows are shifted half a hex east.  Columns wrap around
(east of the last column is the first one); rows do not.  A hex is one integer,
``hex_id = row * width + col``; players see it as ``col,row``.

The grid is a Mercator projection: a conformal projection keeps hexes roughly
regular, and the scale (km per hex) shrinks toward the poles, which gives the
busy northern theatres finer hexes than the oceans.

Directions are numbered 0..5: E, NE, NW, W, SW, SE; ``(d + 3) % 6`` is the
opposite direction.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

E, NE, NW, W, SW, SE = range(6)
DIRECTIONS = (E, NE, NW, W, SW, SE)
DIRECTION_NAMES = ("E", "NE", "NW", "W", "SW", "SE")
NO_HEX = -1

# (dcol, drow) for even rows and for odd rows, in direction order.
EVEN_OFFSETS = ((1, 0), (0, -1), (-1, -1), (-1, 0), (-1, 1), (0, 1))
ODD_OFFSETS = ((1, 0), (1, -1), (0, -1), (-1, 0), (0, 1), (1, 1))


def opposite(direction: int) -> int:
    return (direction + 3) % 6


def _mercator_y(lat_deg: float) -> float:
    lat = math.radians(lat_deg)
    return math.log(math.tan(math.pi / 4 + lat / 2))


def _mercator_lat(y: float) -> float:
    return math.degrees(math.atan(math.sinh(y)))


@dataclass(frozen=True, slots=True)
class HexGrid:
    """Geometry of a wrapping odd-r hex grid; knows nothing of terrain."""

    width: int
    height: int
    lat_north: float = 75.0
    wrap: bool = True  # False only for small test maps: nothing lies east of the last column

    @property
    def size(self) -> int:
        return self.width * self.height

    # --- coordinates -----------------------------------------------------

    def hex_id(self, col: int, row: int) -> int:
        """The hex at ``col,row`` (the column wraps); NO_HEX off the top or bottom."""
        if row < 0 or row >= self.height:
            return NO_HEX
        if not self.wrap and not 0 <= col < self.width:
            return NO_HEX
        return row * self.width + col % self.width

    def col_row(self, hex_id: int) -> tuple[int, int]:
        row, col = divmod(hex_id, self.width)
        return col, row

    def label(self, hex_id: int) -> str:
        col, row = self.col_row(hex_id)
        return f"{col},{row}"

    def parse_label(self, text: str) -> int:
        """``"41,17"`` -> hex id; raises ValueError with a readable reason."""
        parts = text.strip().split(",")
        if len(parts) != 2 or not all(p.strip().lstrip("-").isdigit() for p in parts):
            raise ValueError(f"'{text}' is not a hex; write it as COL,ROW, e.g. 41,17")
        col, row = int(parts[0]), int(parts[1])
        if not (0 <= col < self.width and 0 <= row < self.height):
            raise ValueError(f"hex {col},{row} is off the map ({self.width}x{self.height})")
        return row * self.width + col

    # --- adjacency -------------------------------------------------------

    def neighbour(self, hex_id: int, direction: int) -> int:
        col, row = self.col_row(hex_id)
        dcol, drow = (ODD_OFFSETS if row & 1 else EVEN_OFFSETS)[direction]
        return self.hex_id(col + dcol, row + drow)

    def neighbours(self, hex_id: int) -> tuple[int, ...]:
        """The six neighbours in direction order, NO_HEX where off the map."""
        return tuple(self.neighbour(hex_id, d) for d in DIRECTIONS)

    def neighbour_table(self) -> list[int]:
        """Flat ``size * 6`` table: entry ``h * 6 + d`` is the neighbour of h in direction d."""
        table = [NO_HEX] * (self.size * 6)
        for h in range(self.size):
            base = h * 6
            for d in DIRECTIONS:
                table[base + d] = self.neighbour(h, d)
        return table

    def direction_to(self, a: int, b: int) -> int:
        """Direction from a to its neighbour b; ValueError if they are not adjacent."""
        for d in DIRECTIONS:
            if self.neighbour(a, d) == b:
                return d
        raise ValueError(f"hexes {self.label(a)} and {self.label(b)} are not adjacent")

    # --- distance --------------------------------------------------------

    def _cube(self, col: int, row: int) -> tuple[int, int]:
        q = col - (row - (row & 1)) // 2
        return q, row

    def distance(self, a: int, b: int) -> int:
        """Hex steps between a and b, taking the shorter way around the world."""
        ca, ra = self.col_row(a)
        cb, rb = self.col_row(b)
        qa, _ = self._cube(ca, ra)
        best = None
        for shift in (-self.width, 0, self.width) if self.wrap else (0,):
            qb, _ = self._cube(cb + shift, rb)
            dq = qb - qa
            dr = rb - ra
            d = (abs(dq) + abs(dr) + abs(dq + dr)) // 2
            if best is None or d < best:
                best = d
        assert best is not None
        return best

    def distances(self, a: int, hexes: np.ndarray) -> np.ndarray:
        """:meth:`distance` from ``a`` to each hex of the integer array ``hexes``, at once."""
        ca, ra = self.col_row(a)
        qa, _ = self._cube(ca, ra)
        rows, cols = np.divmod(hexes, self.width)
        dr = rows - ra
        q = cols - (rows - (rows & 1)) // 2 - qa
        best: np.ndarray | None = None
        for shift in (-self.width, 0, self.width) if self.wrap else (0,):
            dq = q + shift
            d = (np.abs(dq) + np.abs(dr) + np.abs(dq + dr)) // 2
            best = d if best is None else np.minimum(best, d)
        assert best is not None
        return best

    # --- projection ------------------------------------------------------

    @property
    def _col_step(self) -> float:
        """Hex width in Mercator radians."""
        return 2 * math.pi / self.width

    @property
    def _row_step(self) -> float:
        return self._col_step * math.sqrt(3) / 2

    def center_latlon(self, hex_id: int) -> tuple[float, float]:
        col, row = self.col_row(hex_id)
        lon = -180.0 + (col + 0.5 + 0.5 * (row & 1)) * 360.0 / self.width
        if lon >= 180.0:
            lon -= 360.0
        y = _mercator_y(self.lat_north) - (row + 0.5) * self._row_step
        return _mercator_lat(y), lon

    @property
    def lat_south(self) -> float:
        y = _mercator_y(self.lat_north) - self.height * self._row_step
        return _mercator_lat(y)

    def hex_at(self, lat: float, lon: float) -> int:
        """The hex whose centre is nearest to a point; NO_HEX outside the grid's rows."""
        y = _mercator_y(max(min(lat, 89.9), -89.9))
        row_f = (_mercator_y(self.lat_north) - y) / self._row_step - 0.5
        best, best_d = NO_HEX, float("inf")
        for row in (math.floor(row_f), math.floor(row_f) + 1):
            if row < 0 or row >= self.height:
                continue
            col_f = (lon + 180.0) * self.width / 360.0 - 0.5 - 0.5 * (row & 1)
            for col in (math.floor(col_f), math.floor(col_f) + 1):
                dx = col_f - col
                dy = (row_f - row) * math.sqrt(3) / 2
                d = dx * dx + dy * dy
                if d < best_d:
                    best, best_d = self.hex_id(col, row), d
        return best

    def km_across(self, hex_id: int) -> float:
        """Approximate width of a hex in kilometres at its latitude."""
        lat, _ = self.center_latlon(hex_id)
        return 40075.0 * math.cos(math.radians(lat)) / self.width
