"""A picture of a game: the map, who controls each hex, installations, and every counter a
side sees, as SVG text (and PNG rendered from that same text).

:func:`render_svg` is one pure function of a side's view (``engine.board.Board``) and a
window of hexes: no rule is decided here, and the same view gives the same bytes.
Counters follow the rulebook: the country's colour, a NATO-style symbol in a rectangle
for the viewer's own side, a diamond for the enemy and a square for neutrals, and the
numbers in the corners where the printed counters have them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from xml.sax.saxutils import escape, quoteattr

from engine.board import Board, BoardUnit
from engine.hexgrid import NO_HEX, HexGrid
from engine.hexmap import HexMap, Kind
from scenarios.mapview import REGIONS, SEA_COLOUR, Colour, country_colour, draw_map, hex_colour, mix, prim_svg

SIDE_COLOURS: dict[str, Colour] = {"axis": (150, 95, 45), "allies": (45, 100, 200)}
SIDE_WEIGHT = 0.42
NEUTRAL_WASH: Colour = (238, 236, 222)
FRONT_COLOUR: Colour = (215, 20, 20)
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"

HEADER = 58  # px above the map: title and weather
RULER = 20  # px of column/row numbers around the map
LEGEND = 112  # px below the map
MIN_WIDTH = 1180  # px: the legend's width
#: how many counters of a stack are drawn offset from each other before they coincide
STACK_LAYERS = 4


@dataclass(frozen=True, slots=True)
class Window:
    """Columns ``col0..col1`` and rows ``row0..row1`` (inclusive).  ``col1`` may pass the
    last column: the map wraps around the world, so 290..309 crosses the date line."""

    col0: int
    row0: int
    col1: int
    row1: int

    @property
    def cols(self) -> int:
        return self.col1 - self.col0 + 1

    @property
    def rows(self) -> int:
        return self.row1 - self.row0 + 1


def as_board(board: object) -> Board:
    """A board from a caller that holds the engine's answers without their types (pbem, which
    reaches the engine through its typed seam), as this renderer draws it."""
    if not isinstance(board, Board):
        raise TypeError(f"the map renderer draws an engine board, not a {type(board).__name__}")
    return board


def as_map(hexmap: object) -> HexMap:
    """A world map held without its type, as :func:`hex_centres` measures it (see :func:`as_board`)."""
    if not isinstance(hexmap, HexMap):
        raise TypeError(f"the map renderer measures an engine map, not a {type(hexmap).__name__}")
    return hexmap


def region_window(grid: HexGrid, name: str) -> Window:
    """The hexes of a named region (``REGIONS``, by longitude and latitude)."""
    key = name.strip().lower().replace(" ", "-").replace("_", "-")
    if key not in REGIONS:
        raise ValueError(f"unknown region '{name[:40]}'; choose one of {', '.join(REGIONS)}")
    west, east, south, north = REGIONS[key]
    if key == "world":
        return Window(0, 0, grid.width - 1, grid.height - 1)
    col0 = math.floor((west + 180.0) * grid.width / 360.0)
    col1 = math.ceil((east + 180.0) * grid.width / 360.0) - 1
    rows = [r for r in range(grid.height) if south <= grid.center_latlon(r * grid.width)[0] <= north]
    return Window(col0 % grid.width, rows[0], col0 % grid.width + (col1 - col0), rows[-1])


def parse_bbox(grid: HexGrid, text: str) -> Window:
    """``X0,Y0,X1,Y1`` in hex names (COL,ROW of two corners); X1 < X0 crosses the date line."""
    parts = text.split(",")
    if len(parts) != 4 or not all(p.strip().isdigit() for p in parts):
        raise ValueError(f"'{text[:40]}' is not a box; write X0,Y0,X1,Y1 as hex columns and rows, e.g. 150,30,190,60")
    x0, y0, x1, y1 = (int(p) for p in parts)
    for x, y in ((x0, y0), (x1, y1)):
        if not (0 <= x < grid.width and 0 <= y < grid.height):
            raise ValueError(f"hex {x},{y} is off the map ({grid.width}x{grid.height})")
    if y1 < y0:
        raise ValueError(f"box {text}: the second row ({y1}) is above the first ({y0})")
    return Window(x0, y0, x1 if x1 >= x0 else x1 + grid.width, y1)


def front_window(board: Board, reach: int = 3, pad: int = 6) -> Window:
    """The busiest front: the hexes where units of the two sides stand within ``reach`` hexes
    of each other, grouped by nearness, the largest group framed with ``pad`` hexes around
    it.  The whole world when no units are in contact."""
    grid = board.map.grid
    by_side: dict[str, set[int]] = {"axis": set(), "allies": set()}
    for u in board.units:
        if u.side in by_side:
            by_side[u.side].add(u.hex)
    contact = sorted(
        h
        for h in by_side["axis"] | by_side["allies"]
        if any(
            grid.distance(h, o) <= reach
            for o in by_side["allies" if h in by_side["axis"] else "axis"]
            if abs(grid.col_row(h)[1] - grid.col_row(o)[1]) <= reach
        )
    )
    if not contact:
        return Window(0, 0, grid.width - 1, grid.height - 1)
    return around(grid, contact, near=4 * reach, pad=pad, min_cols=30, min_rows=20)


def around(grid: HexGrid, hexes: list[int], near: int, pad: int, min_cols: int, min_rows: int) -> Window:
    """The largest group of ``hexes`` (those within ``near`` of each other join a group),
    framed with ``pad`` hexes around it and grown to at least ``min_cols`` by ``min_rows``,
    so a single place is seen with its surroundings."""
    groups: list[list[int]] = []
    for h in sorted(hexes):
        close = [g for g in groups if any(grid.distance(h, o) <= near for o in g)]
        merged = [h]
        for g in close:
            merged.extend(g)
            groups.remove(g)
        groups.append(merged)
    best = max(groups, key=lambda g: (len(g), -min(g)))
    first = grid.col_row(best[0])[0]
    half = grid.width // 2
    cols = [first + (grid.col_row(h)[0] - first + half) % grid.width - half for h in best]
    rows = [grid.col_row(h)[1] for h in best]
    c0, c1 = min(cols) - pad, max(cols) + pad
    r0, r1 = max(0, min(rows) - pad), min(grid.height - 1, max(rows) + pad)
    grow_c, grow_r = max(0, min_cols - (c1 - c0 + 1)), max(0, min_rows - (r1 - r0 + 1))
    c0, c1 = c0 - grow_c // 2, c1 + grow_c - grow_c // 2
    r0 = max(0, r0 - grow_r // 2)
    r1 = min(grid.height - 1, r1 + grow_r - grow_r // 2)
    return Window(c0 % grid.width, r0, c0 % grid.width + (c1 - c0), r1)


def _scale(window: Window) -> float:
    """Pixels per hex: a region the size of Europe gets counters a person reads at 100%."""
    return max(8.0, min(56.0, 3000.0 / window.cols))


def _num(v: float) -> str:
    return f"{v:.1f}"


def _ink(fill: Colour) -> str:
    """Black or white, whichever reads better on ``fill``."""
    r, g, b = fill
    return "#000" if 0.299 * r + 0.587 * g + 0.114 * b > 140 else "#fff"


def _text(
    x: float, y: float, text: str, size: float, fill: str = "#000", anchor: str = "start", extra: str = ""
) -> str:
    return (
        f'<text x="{_num(x)}" y="{_num(y)}" font-size="{_num(size)}" fill="{fill}" '
        f'text-anchor="{anchor}"{extra}>{escape(text)}</text>'
    )


def _halo(x: float, y: float, text: str, size: float, anchor: str = "middle", weight: str = "normal") -> str:
    """Dark text on a white outline, readable over any terrain or counter."""
    return _text(
        x,
        y,
        text,
        size,
        anchor=anchor,
        extra=f' font-weight="{weight}" stroke="#fff" stroke-width="{_num(size / 4)}" paint-order="stroke"',
    )


class _Geometry:
    """Where each hex of a window is drawn, in pixels of the map area."""

    def __init__(self, hexmap: HexMap, window: Window) -> None:
        self.grid = hexmap.grid
        self.window = window
        self.scale = _scale(window)
        w = self.grid.width
        self.cells = [
            (self.grid.hex_id(c, r), c - c % w)
            for r in range(window.row0, window.row1 + 1)
            for c in range(window.col0, window.col1 + 1)
        ]
        self.shift = dict(self.cells)
        self.x0 = float(window.col0)
        self.y0 = (window.row0 - 0.5) * math.sqrt(3) / 2

    def col_x(self, col: float, row: int) -> float:
        return (col + 0.5 + 0.5 * (row & 1) - self.x0) * self.scale

    def row_y(self, row: int) -> float:
        return ((row + 0.5) * math.sqrt(3) / 2 - self.y0) * self.scale

    def centre(self, h: int) -> tuple[float, float]:
        c, r = self.grid.col_row(h)
        return self.col_x(c + self.shift[h], r), self.row_y(r)


#: Terrain layers already drawn (see :func:`render_svg`), owned by whoever draws a game
#: again and again (the play page); keyed by the window and what the tint depends on.
TerrainLayers = dict[tuple[Window, bytes, tuple[str, ...], tuple[str, ...]], tuple[str, float, float]]
#: Layers a :data:`TerrainLayers` keeps: the page's few windows between two changes of control.
KEPT_LAYERS = 4


def render_svg(board: Board, window: Window, layers: TerrainLayers | None = None) -> str:
    """The position of ``board`` inside ``window`` as a standalone SVG document.

    ``layers``: terrain layers drawn before, reused when the window and the control of
    every hex are the same (most orders move counters only); the terrain is most of the
    drawing's time."""
    hexmap = board.map
    geo = _Geometry(hexmap, window)
    terrain, max_x, max_y = _terrain(board, window, geo, layers)
    map_w, map_h = math.ceil(max_x) + 2, math.ceil(max_y) + 2
    width = max(map_w + 2 * RULER, MIN_WIDTH)
    height = HEADER + RULER + map_h + RULER + LEGEND
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="{FONT}" data-side="{board.side}" '
        f'data-date="{board.date}" data-phase="{board.phase}">',
        "<defs>",
        *(
            f'<pattern id="occupied-{side}" width="6" height="6" patternUnits="userSpaceOnUse" '
            f'patternTransform="rotate(45)"><rect width="2" height="6" '
            f'fill="{hex_colour(mix(colour, (0, 0, 0), 0.3))}" fill-opacity="0.55"/></pattern>'
            for side, colour in SIDE_COLOURS.items()
        ),
        "</defs>",
        f'<rect width="{width}" height="{height}" fill="#f7f5ee"/>',
        _header(board),
        f'<g transform="translate({RULER},{HEADER + RULER})">',
        f'<rect width="{map_w}" height="{map_h}" fill="{hex_colour(SEA_COLOUR)}"/>',
        '<g class="terrain">',
        terrain,
        "</g>",
        _occupation(board, geo),
        _fronts(board, geo),
        _guides(geo, map_w),
        _installations(board, geo),
        _country_names(board, geo),
        _counters(board, geo),
        _cities(board, geo),
        "</g>",
        _rulers(geo, map_w, map_h),
        _legend(board, HEADER + RULER + map_h + RULER),
        "</svg>",
    ]
    return "\n".join(part for part in out if part) + "\n"


def _terrain(board: Board, window: Window, geo: _Geometry, layers: TerrainLayers | None) -> tuple[str, float, float]:
    """The terrain layer's SVG text and the far corner it reaches."""
    key = (window, board.controller, board.sides, board.countries)
    if layers is not None and key in layers:
        return layers[key]
    s = geo.scale

    def tint(h: int) -> Colour:
        side = board.sides[board.controller[h]]
        if side in SIDE_COLOURS:
            return SIDE_COLOURS[side]
        return mix(country_colour(board.countries[board.controller[h]]), NEUTRAL_WASH, 0.55)

    prims, max_x, max_y = draw_map(
        board.map,
        geo.cells,
        s,
        geo.x0,
        geo.y0,
        land_tint=tint,
        tint_weight=SIDE_WEIGHT,
        outline=(150, 150, 140) if s >= 16 else None,
        details=False,
        rail=((170, 125, 125), 40.0),
        open_sea=s >= 16,
    )
    drawn = ("\n".join(text for p in prims if (text := prim_svg(p))), max_x, max_y)
    if layers is not None:
        while len(layers) >= KEPT_LAYERS:
            del layers[next(iter(layers))]
        layers[key] = drawn
    return drawn


def hex_centres(hexmap: HexMap, window: Window) -> tuple[float, dict[int, tuple[float, float]]]:
    """Where :func:`render_svg` draws each hex of ``window``: its centre in the document's
    coordinates, and the width of a hex in pixels.  A page showing the picture finds the
    hex under a click, and marks hexes over the picture, from these."""
    geo = _Geometry(hexmap, window)
    centres = {}
    for h, _ in geo.cells:
        x, y = geo.centre(h)
        centres[h] = (x + RULER, y + HEADER + RULER)
    return geo.scale, centres


def render_png(svg: str, fast: bool = False) -> bytes:
    """The SVG rasterised by resvg, at one pixel per SVG unit.  ``fast`` fills shapes
    without anti-aliasing: half the time and size, and at these scales hardly seen
    (text stays smooth)."""
    import resvg_py  # a compiled wheel: loaded only when a PNG is asked for

    if fast:
        return bytes(resvg_py.svg_to_bytes(svg_string=svg, shape_rendering="optimize_speed"))
    return bytes(resvg_py.svg_to_bytes(svg_string=svg))


# --- layers ---------------------------------------------------------------------------


def _hex_corners(cx: float, cy: float, s: float) -> str:
    rad = s / math.sqrt(3)
    return " ".join(
        f"{_num(cx + rad * math.cos(math.radians(30 + 60 * k)))},{_num(cy - rad * math.sin(math.radians(30 + 60 * k)))}"
        for k in range(6)
    )


def _occupation(board: Board, geo: _Geometry) -> str:
    """Hatching over land held by another country than its owner: occupation zones, the
    Japanese zone in China, conquests."""
    out = ['<g class="occupied">']
    for h, _ in geo.cells:
        c = board.controller[h]
        if c and c != board.home[h] and board.sides[c] in SIDE_COLOURS:
            cx, cy = geo.centre(h)
            out.append(
                f'<polygon points="{_hex_corners(cx, cy, geo.scale)}" fill="url(#occupied-{board.sides[c]})" '
                f'data-hex="{geo.grid.label(h)}" data-controller="{escape(board.countries[c])}"/>'
            )
    out.append("</g>")
    return "\n".join(out)


def _edge(cx: float, cy: float, s: float, d: int) -> tuple[float, float, float, float]:
    rad = s / math.sqrt(3)
    a, b = math.radians(60 * d - 30), math.radians(60 * d + 30)
    return cx + rad * math.cos(a), cy - rad * math.sin(a), cx + rad * math.cos(b), cy - rad * math.sin(b)


def _fronts(board: Board, geo: _Geometry) -> str:
    """A red line between land held by the two sides."""
    out = ['<g class="front">']
    hexmap = board.map
    width = _num(max(1.5, geo.scale / 8))
    for h, _ in geo.cells:
        side = board.sides[board.controller[h]]
        if side not in SIDE_COLOURS or hexmap.kind[h] == Kind.SEA:
            continue
        cx, cy = geo.centre(h)
        for d in range(6):
            o = hexmap.neighbours[h * 6 + d]
            if o == NO_HEX or hexmap.kind[o] == Kind.SEA:
                continue
            other = board.sides[board.controller[o]]
            # each edge once: drawn from the axis side
            if side == "axis" and other == "allies":
                x1, y1, x2, y2 = _edge(cx, cy, geo.scale, d)
                out.append(
                    f'<line x1="{_num(x1)}" y1="{_num(y1)}" x2="{_num(x2)}" y2="{_num(y2)}" '
                    f'stroke="{hex_colour(FRONT_COLOUR)}" stroke-width="{width}" stroke-linecap="round"/>'
                )
    out.append("</g>")
    return "\n".join(out)


def _guides(geo: _Geometry, map_w: int) -> str:
    """Dotted lines through the centres of every fifth column and row: the hex names."""
    out = ['<g class="grid" stroke="#334" stroke-opacity="0.45" stroke-dasharray="2,3" fill="none">']
    w, win = geo.grid.width, geo.window
    for col in range(win.col0, win.col1 + 1):
        if col % w % 5:
            continue
        pts = " ".join(f"{_num(geo.col_x(col, r))},{_num(geo.row_y(r))}" for r in range(win.row0, win.row1 + 1))
        out.append(f'<polyline points="{pts}" stroke-width="0.8"/>')
    for row in range(win.row0, win.row1 + 1):
        if row % 5:
            continue
        y = _num(geo.row_y(row))
        out.append(f'<line x1="0" y1="{y}" x2="{map_w}" y2="{y}" stroke-width="0.8"/>')
    out.append("</g>")
    return "\n".join(out)


def _rulers(geo: _Geometry, map_w: int, map_h: int) -> str:
    """Column numbers above and below the map, row numbers on both sides: together they
    name a hex exactly as orders write it (COL,ROW)."""
    s, w, win = geo.scale, geo.grid.width, geo.window
    size = min(11.0, max(7.0, s * 0.32))
    col_step = 1 if s >= 26 else 2 if s >= 14 else 5
    row_step = 1 if s * 0.87 >= size + 2 else 5
    top, bottom = HEADER + RULER - 6, HEADER + RULER + map_h + 14
    out = ['<g class="rulers" fill="#222">']
    for col in range(win.col0, win.col1 + 1):
        if col % w % col_step:
            continue
        x = RULER + geo.col_x(col, win.row0 - win.row0 % 2)
        for edge in (top, bottom):
            out.append(_text(x, edge, str(col % w), size, anchor="middle"))
    for row in range(win.row0, win.row1 + 1):
        if row % row_step:
            continue
        y = HEADER + RULER + geo.row_y(row) + size / 3
        out.append(_text(RULER - 3, y, str(row), size, anchor="end"))
        out.append(_text(RULER + map_w + 3, y, str(row), size))
    out.append("</g>")
    return "\n".join(out)


def _installations(board: Board, geo: _Geometry) -> str:
    """Resources (black triangle), fortifications (red square), airfields (blue runway
    cross): at the foot of the hex, where a counter leaves them visible."""
    s = geo.scale
    out = ['<g class="installations">']
    hexmap = board.map
    for h in sorted(hexmap.resources):
        if h in geo.shift:
            cx, cy = geo.centre(h)
            x, y, r = cx - s * 0.2, cy + s * 0.36, max(2.0, s * 0.1)
            out.append(
                f'<polygon class="resource" points="{_num(x - r)},{_num(y + r * 0.7)} '
                f'{_num(x + r)},{_num(y + r * 0.7)} {_num(x)},{_num(y - r)}" fill="#000"/>'
            )
    for f in board.forts:
        if f.hex in geo.shift:
            cx, cy = geo.centre(f.hex)
            r = s * 0.4
            dash = "" if f.finished else ' stroke-dasharray="3,2"'
            out.append(
                f'<rect class="fort" x="{_num(cx - r)}" y="{_num(cy - r)}" width="{_num(2 * r)}" '
                f'height="{_num(2 * r)}" fill="none" stroke="#c00" stroke-width="{_num(max(1.0, s / 14))}"{dash}/>'
            )
    for a in board.airfields:
        if a.hex in geo.shift:
            cx, cy = geo.centre(a.hex)
            x, y, r = cx + s * 0.2, cy + s * 0.36, max(2.0, s * 0.1)
            dash = "" if a.finished else ' stroke-dasharray="2,1"'
            out.append(
                f'<path class="airfield" d="M{_num(x - r)},{_num(y)}H{_num(x + r)}'
                f'M{_num(x)},{_num(y - r)}V{_num(y + r)}" '
                f'stroke="#0a2a8a" stroke-width="{_num(max(1.2, s / 18))}"{dash}/>'
            )
    out.append("</g>")
    return "\n".join(out)


def _cities(board: Board, geo: _Geometry) -> str:
    """City dots (capitals red, ports ringed blue) and names above the hex, over the counters."""
    s = geo.scale
    hexmap = board.map
    out = ['<g class="cities">']
    names = []
    size = min(12.0, max(7.0, s * 0.24))
    occupied = {u.hex for u in board.units}
    for city in hexmap.cities:
        if city.hex not in geo.shift:
            continue
        cx, cy = geo.centre(city.hex)
        if city.hex in occupied:
            # the counter covers the centre: the dot moves to the hex's top corner
            cy -= s * 0.44
        r = max(1.5, s * (0.12 if city.capital else 0.08))
        out.append(
            f'<circle class="{"capital" if city.capital else "city"}" cx="{_num(cx)}" cy="{_num(cy)}" r="{_num(r)}" '
            f'fill="{"#d00" if city.capital else "#000"}" stroke="#fff" stroke-width="0.8"/>'
        )
        if hexmap.is_port(city.hex):
            out.append(
                f'<circle class="port" cx="{_num(cx)}" cy="{_num(cy)}" '
                f'r="{_num(r * (2.0 if city.major_port else 1.6))}" '
                f'fill="none" stroke="#0040d0" stroke-width="{_num(1.6 if city.major_port else 0.9)}"/>'
            )
        if city.capital or city.major_port or s >= 12:
            names.append(
                _halo(
                    cx,
                    cy - r - 2,
                    city.name,
                    size * (1.15 if city.capital else 1.0),
                    weight="bold" if city.capital else "normal",
                )
            )
    out.extend(names)
    out.append("</g>")
    return "\n".join(out)


def _country_names(board: Board, geo: _Geometry) -> str:
    """The name of each land (a country's home or a colony) at the middle of its hexes in view."""
    hexmap = board.map
    where: dict[int, list[tuple[float, float]]] = {}
    for h, _ in geo.cells:
        t = hexmap.territory[h]
        if t:
            where.setdefault(t, []).append(geo.centre(h))
    out = ['<g class="countries" fill-opacity="0.8">']
    for t in sorted(where):
        pts = where[t]
        if len(pts) < 6:
            continue
        x = sum(p[0] for p in pts) / len(pts)
        y = sum(p[1] for p in pts) / len(pts)
        size = min(30.0, max(9.0, math.sqrt(len(pts)) * geo.scale * 0.18))
        territory = hexmap.territories[t]
        name = territory.name.upper()
        conquered = territory.country in board.conquered
        out.append(
            _text(
                x,
                y,
                name + (" (conquered)" if conquered and not territory.colony else ""),
                size,
                fill="#3a3a3a",
                anchor="middle",
                extra=f' letter-spacing="{_num(size / 8)}" font-weight="bold" stroke="#fff" '
                f'stroke-opacity="0.6" stroke-width="{_num(size / 6)}" paint-order="stroke"',
            )
        )
    out.append("</g>")
    return "\n".join(out)


# --- counters -------------------------------------------------------------------------


def _stack_order(u: BoardUnit) -> tuple[int, int, int]:
    """Bottom to top: embarked cargo, ships, aircraft, then land units, strongest on top."""
    rank = {"naval": 1, "air": 2, "land": 3}[u.domain]
    strength = int(u.corners[2]) if u.domain == "land" and u.corners[2].isdigit() else 0
    return (0 if u.aboard >= 0 else rank, strength, -u.id)


def _counters(board: Board, geo: _Geometry) -> str:
    stacks: dict[int, list[BoardUnit]] = {}
    for u in board.units:
        if u.hex in geo.shift:
            stacks.setdefault(u.hex, []).append(u)
    out = ['<g class="counters">']
    for h in sorted(stacks, key=lambda h: (geo.grid.col_row(h)[1], geo.grid.col_row(h)[0])):
        units = sorted(stacks[h], key=_stack_order)
        out.append(_stack(board, geo, h, units))
    out.append("</g>")
    return "\n".join(out)


def _stack(board: Board, geo: _Geometry, h: int, units: list[BoardUnit]) -> str:
    s = geo.scale
    c = s * 0.66
    cx, cy = geo.centre(h)
    step = max(1.0, s / 20)
    label = geo.grid.label(h)
    out = [f'<g class="stack" data-hex="{label}" data-count="{len(units)}">']
    n = len(units)
    for i, u in enumerate(units):
        layer = min(n - 1 - i, STACK_LAYERS - 1)
        x = cx - c / 2 + layer * step
        y = cy - c / 2 - s * 0.04 - layer * step
        out.append(_counter(board, u, x, y, c, label))
    if n > 1:
        r = max(4.0, c * 0.22)
        # beyond the top counter's upper right corner, where no number is printed
        top = min(n - 1, STACK_LAYERS - 1) * step
        bx, by = cx + c / 2 + top + r * 0.35, cy - c / 2 - s * 0.04 - top - r * 0.35
        out.append(
            f'<circle class="stack-size" cx="{_num(bx)}" cy="{_num(by)}" r="{_num(r)}" fill="#111" stroke="#fff" '
            f'stroke-width="1"/>'
        )
        if c >= 14:
            out.append(
                _text(bx, by + r * 0.42, str(n), r * 1.15, fill="#fff", anchor="middle", extra=' font-weight="bold"')
            )
    out.append("</g>")
    return "\n".join(out)


def _counter(board: Board, u: BoardUnit, x: float, y: float, c: float, label: str) -> str:
    fill = country_colour(u.country)
    ink = _ink(fill)
    status = []
    if not u.supplied:
        status.append("out of supply")
    if u.damaged:
        status.append("damaged")
    if u.aboard >= 0:
        status.append(f"aboard #{u.aboard}")
    title = f"{u.label} at {label}" + (f" ({', '.join(status)})" if status else "")
    attrs = (
        f'class="unit" data-unit="{u.id}" data-hex="{label}" data-side="{u.side}" '
        f'data-country={quoteattr(u.country)} data-type="{u.type}" data-supplied="{"yes" if u.supplied else "no"}"'
    )
    border = ("#e00000", max(2.0, c / 10)) if not u.supplied else ("#000", 0.8)
    out = [
        f"<g {attrs}>",
        f"<title>{escape(title)}</title>",
        f'<rect x="{_num(x)}" y="{_num(y)}" width="{_num(c)}" height="{_num(c)}" rx="{_num(c / 12)}" '
        f'fill="{hex_colour(fill)}" stroke="{border[0]}" stroke-width="{_num(border[1])}"'
        + (' stroke-dasharray="3,2"' if u.damaged and u.supplied else "")
        + "/>",
    ]
    if c >= 12:
        out.append(_symbol(board, u, x, y, c, ink))
    if c >= 18:
        size = c * (0.36 if u.domain == "land" else 0.3)
        ul, ur, ll, lr = u.corners
        pad = c * 0.07
        weight = ' font-weight="bold"'
        for text, tx, ty, anchor in (
            (ul, x + pad, y + size * 0.9, "start"),
            (ur, x + c - pad, y + size * 0.9, "end"),
            (ll, x + pad, y + c - pad, "start"),
            (lr, x + c - pad, y + c - pad, "end"),
        ):
            if text:
                out.append(_text(tx, ty, text, size, fill=ink, anchor=anchor, extra=weight))
    out.append("</g>")
    return "\n".join(out)


def _symbol(board: Board, u: BoardUnit, x: float, y: float, c: float, ink: str) -> str:
    """The NATO-style frame (own side: rectangle, enemy: diamond, neutral: square) with the
    unit type inside."""
    if u.domain == "land":
        fw, fh, fy = c * 0.56, c * 0.36, y + c * 0.12
    else:
        fw, fh, fy = c * 0.4, c * 0.3, y + c * 0.32
    fx = x + (c - fw) / 2
    mx, my = fx + fw / 2, fy + fh / 2
    lw = _num(max(0.7, c / 28))
    style = f'fill="none" stroke="{ink}" stroke-width="{lw}"'
    if u.side == board.side:
        frame = f'<rect x="{_num(fx)}" y="{_num(fy)}" width="{_num(fw)}" height="{_num(fh)}" {style}/>'
        ix0, iy0, ix1, iy1 = fx, fy, fx + fw, fy + fh
    elif u.side in SIDE_COLOURS:
        r = fh * 0.75
        frame = (
            f'<polygon points="{_num(mx)},{_num(my - r)} {_num(mx + r * 1.3)},{_num(my)} {_num(mx)},{_num(my + r)} '
            f'{_num(mx - r * 1.3)},{_num(my)}" {style}/>'
        )
        ix0, iy0, ix1, iy1 = mx - r * 0.65, my - r * 0.5, mx + r * 0.65, my + r * 0.5
    else:
        frame = f'<rect x="{_num(mx - fh / 2)}" y="{_num(fy)}" width="{_num(fh)}" height="{_num(fh)}" {style}/>'
        ix0, iy0, ix1, iy1 = mx - fh / 2, fy, mx + fh / 2, fy + fh
    iw, ih = ix1 - ix0, iy1 - iy0
    t = u.type
    inner = ""
    if t in ("infantry", "paratrooper", "marine"):
        cross = f"M{_num(ix0)},{_num(iy0)}L{_num(ix1)},{_num(iy1)}M{_num(ix0)},{_num(iy1)}L{_num(ix1)},{_num(iy0)}"
        inner = f'<path d="{cross}" {style}/>'
        if t == "paratrooper":
            arc = f"A{_num(iw * 0.15)},{_num(ih * 0.3)} 0 0 1"
            wings = (
                f"M{_num(mx - iw * 0.3)},{_num(iy1)}{arc} {_num(mx)},{_num(iy1)}{arc} {_num(mx + iw * 0.3)},{_num(iy1)}"
            )
            inner += f'<path d="{wings}" {style}/>'
        elif t == "marine":
            inner += f'<circle cx="{_num(mx)}" cy="{_num(iy1 - ih * 0.05)}" r="{_num(ih * 0.16)}" fill="{ink}"/>'
    elif t == "armor":
        inner = f'<ellipse cx="{_num(mx)}" cy="{_num(my)}" rx="{_num(iw * 0.36)}" ry="{_num(ih * 0.3)}" {style}/>'
    elif t == "supply":
        ly = _num(iy0 + ih * 0.7)
        inner = f'<line x1="{_num(ix0)}" y1="{ly}" x2="{_num(ix1)}" y2="{ly}" {style}/>'
    elif u.domain == "naval":
        if t == "submarine":
            inner = (
                f'<ellipse cx="{_num(mx)}" cy="{_num(my)}" rx="{_num(iw * 0.38)}" ry="{_num(ih * 0.18)}" fill="{ink}"/>'
            )
        else:
            top, bot = my - ih * 0.05, my + ih * 0.28
            inner = (
                f'<polygon points="{_num(mx - iw * 0.42)},{_num(top)} {_num(mx + iw * 0.42)},{_num(top)} '
                f'{_num(mx + iw * 0.3)},{_num(bot)} {_num(mx - iw * 0.3)},{_num(bot)}" fill="{ink}"/>'
            )
            if t == "carrier":
                deck = _num(top - ih * 0.12)
                inner += (
                    f'<line x1="{_num(mx - iw * 0.46)}" y1="{deck}" x2="{_num(mx + iw * 0.46)}" y2="{deck}" {style}/>'
                )
    else:
        # fixed wing: two lobes meeting in the middle
        a, b = iw * 0.22, ih * 0.2
        inner = (
            f'<ellipse cx="{_num(mx - a)}" cy="{_num(my)}" rx="{_num(a)}" ry="{_num(b)}" {style}/>'
            f'<ellipse cx="{_num(mx + a)}" cy="{_num(my)}" rx="{_num(a)}" ry="{_num(b)}" {style}/>'
        )
    return frame + inner


# --- header and legend ----------------------------------------------------------------


def _header(board: Board) -> str:
    phase = board.phase.replace("_", " ").replace(".", ": ")
    acting = f"; waiting for the {' and '.join(board.acting)}" if board.acting else ""
    over = f"; the {board.winner} have won" if board.winner else ""
    title = f"{board.date}, {phase}{acting}{over}: as the {board.side} see it"
    # the rulebook's "none" is weather without effect: said as "clear" beside a zone's name
    said = {"none": "clear"}
    weather = "Weather: " + "; ".join(
        f"{zone}: {said.get(cond, cond.replace('_', ' '))}" for zone, cond in board.weather
    )
    if board.grounded:
        weather += f". Aircraft grounded in: {', '.join(board.grounded)}"
    return "\n".join(
        [
            '<g class="header">',
            _text(RULER, 24, title, 18, extra=' font-weight="bold"'),
            _text(RULER, 46, weather, 13),
            "</g>",
        ]
    )


def _legend(board: Board, top: int) -> str:
    out = [f'<g class="legend" transform="translate({RULER},{top + 8})">']
    x = 0.0
    row_y = (14.0, 40.0, 66.0, 90.0)

    def swatch(y: float, fill: str, text: str) -> None:
        nonlocal x
        out.append(f'<rect x="{_num(x)}" y="{_num(y - 11)}" width="16" height="14" fill="{fill}" stroke="#555"/>')
        out.append(_text(x + 21, y, text, 12))
        x += 30 + 7 * len(text)

    for side, colour in SIDE_COLOURS.items():
        swatch(row_y[0], hex_colour(mix(NEUTRAL_WASH, colour, SIDE_WEIGHT)), f"{side} control")
        swatch(row_y[0], f"url(#occupied-{side})", f"occupied by the {side}")
    swatch(row_y[0], "#e8e2d0", "neutral")
    out.append(
        f'<line x1="{_num(x)}" y1="{_num(row_y[0] - 4)}" x2="{_num(x + 18)}" y2="{_num(row_y[0] - 4)}" '
        f'stroke="{hex_colour(FRONT_COLOUR)}" stroke-width="4"/>'
    )
    out.append(_text(x + 24, row_y[0], "front", 12))
    x = 0.0
    marks = [
        ('<circle cx="8" cy="-4" r="4" fill="#d00"/>', "capital"),
        ('<circle cx="8" cy="-4" r="3" fill="#000"/>', "city"),
        ('<circle cx="8" cy="-4" r="6" fill="none" stroke="#0040d0" stroke-width="1.6"/>', "major port"),
        ('<polygon points="2,0 14,0 8,-10" fill="#000"/>', "resource"),
        ('<rect x="1" y="-11" width="14" height="14" fill="none" stroke="#c00" stroke-width="2"/>', "fortification"),
        ('<path d="M1,-4H15M8,-11V3" stroke="#0a2a8a" stroke-width="2"/>', "airfield (dashed: being built)"),
    ]
    for mark, text in marks:
        out.append(f'<g transform="translate({_num(x)},{_num(row_y[1])})">{mark}</g>')
        out.append(_text(x + 21, row_y[1], text, 12))
        x += 30 + 7 * len(text)
    x = 0.0
    counters = [
        (
            '<rect x="0" y="-13" width="18" height="18" fill="#888" stroke="#000"/>'
            '<rect x="4" y="-10" width="10" height="6" fill="none" stroke="#fff"/>',
            f"{board.side} unit (rectangle)",
        ),
        (
            '<rect x="0" y="-13" width="18" height="18" fill="#888" stroke="#000"/>'
            '<polygon points="9,-12 15,-7 9,-2 3,-7" fill="none" stroke="#fff"/>',
            "enemy unit (diamond)",
        ),
        (
            '<rect x="0" y="-13" width="18" height="18" fill="#888" stroke="#e00000" stroke-width="2.5"/>',
            "out of supply",
        ),
        ('<rect x="0" y="-13" width="18" height="18" fill="#888" stroke="#000" stroke-dasharray="3,2"/>', "damaged"),
        (
            '<circle cx="9" cy="-4" r="8" fill="#111"/><text x="9" y="0" font-size="10" fill="#fff" '
            'text-anchor="middle">5</text>',
            "units in the stack",
        ),
    ]
    for mark, text in counters:
        out.append(f'<g transform="translate({_num(x)},{_num(row_y[2])})">{mark}</g>')
        out.append(_text(x + 24, row_y[2], text, 12))
        x += 36 + 7 * len(text)
    out.append(
        _text(
            0,
            row_y[3],
            "Land: strength-move. Ships: attack, defence / submarine attack, move. Aircraft: fighter, defence / "
            "bomber, move. A hex is COL,ROW: the numbers around the map; dotted lines every fifth.",
            11,
        )
    )
    out.append("</g>")
    return "\n".join(out)
