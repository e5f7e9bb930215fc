"""Pictures of a HexMap: SVG text for any region, and PNG renders of the same drawing.

Both outputs come from one list of drawing primitives, so the PNG files in docs/
show exactly what ``pbem map`` writes as SVG.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from xml.sax.saxutils import escape

from engine.hexgrid import NO_HEX
from engine.hexmap import HexMap, Kind, Terrain

# (lon west, lon east, lat south, lat north); lon east may exceed 180 to cross the date line.
REGIONS: dict[str, tuple[float, float, float, float]] = {
    "europe": (-25.0, 50.0, 27.0, 72.0),
    "asia": (25.0, 150.0, -12.0, 75.0),
    "pacific": (95.0, 250.0, -50.0, 62.0),
    "africa": (-25.0, 60.0, -38.0, 38.0),
    "americas": (-170.0, -30.0, -57.0, 75.0),
    "world": (-180.0, 180.0, -90.0, 90.0),
    "eastern-front": (12.0, 50.0, 40.0, 67.0),
    "western-europe": (-12.0, 20.0, 35.0, 61.0),
    "mediterranean": (-10.0, 40.0, 28.0, 48.0),
    "atlantic": (-85.0, 15.0, -5.0, 66.0),
    "china": (92.0, 128.0, 17.0, 46.0),
    "south-east-asia": (90.0, 135.0, -12.0, 26.0),
}

TERRAIN_COLOURS = {
    Terrain.SEA: (120, 170, 220),
    Terrain.CLEAR: (238, 236, 222),
    Terrain.FOREST: (110, 175, 95),
    Terrain.MOUNTAIN: (185, 140, 95),
    Terrain.TALL_MOUNTAIN: (115, 80, 55),
    Terrain.DESERT: (245, 220, 120),
    Terrain.ICECAP: (225, 240, 250),
}
SEA_COLOUR = (120, 170, 220)
FROZEN_SEA_COLOUR = (200, 222, 240)

# A few distinct tints for the powers; the others get a colour derived from their name.
COUNTRY_COLOURS = {
    "Germany": (110, 110, 110),
    "Italy": (60, 140, 60),
    "Japan": (230, 200, 40),
    "United Kingdom": (200, 60, 60),
    "France": (70, 110, 220),
    "Soviet Union": (170, 30, 30),
    "United States": (60, 160, 90),
    "China": (230, 140, 60),
    "Netherlands": (240, 140, 20),
    "Belgium": (160, 120, 40),
    "Portugal": (40, 160, 160),
    "Spain": (200, 170, 40),
    "Denmark": (200, 100, 140),
}


def country_colour(name: str) -> tuple[int, int, int]:
    if name in COUNTRY_COLOURS:
        return COUNTRY_COLOURS[name]
    # stable pseudo-colour from the name (no hash randomisation: sum of code points)
    v = sum((i + 1) * ord(ch) for i, ch in enumerate(name))
    return (80 + v * 37 % 150, 80 + v * 71 % 150, 80 + v * 113 % 150)


def mix(a: tuple[int, int, int], b: tuple[int, int, int], t: float) -> tuple[int, int, int]:
    return tuple(round(x * (1 - t) + y * t) for x, y in zip(a, b, strict=True))  # type: ignore[return-value]


def hex_colour(c: tuple[int, int, int]) -> str:
    return f"#{c[0]:02x}{c[1]:02x}{c[2]:02x}"


@dataclass
class Prim:
    """One drawing primitive: 'poly', 'line', 'circle', 'text'."""

    kind: str
    pts: tuple[tuple[float, float], ...]
    fill: tuple[int, int, int] | None = None
    stroke: tuple[int, int, int] | None = None
    width: float = 1.0
    text: str = ""
    size: float = 10.0


@dataclass
class Frame:
    width: int
    height: int
    prims: list[Prim]


def _layout(hexmap: HexMap, region: str | None) -> tuple[float, float, float, list[tuple[int, int]]]:
    """Scale (px per hex width), x/y offsets and the (hex, column shift) pairs inside the region."""
    name = (region or "world").lower()
    if name not in REGIONS:
        raise ValueError(f"unknown region '{region}'; choose one of {', '.join(REGIONS)}")
    west, east, south, north = REGIONS[name]
    grid = hexmap.grid
    w = grid.width
    col0 = (west + 180.0) * w / 360.0
    col1 = (east + 180.0) * w / 360.0
    rows = []
    for row in range(grid.height):
        lat, _ = grid.center_latlon(row * w)
        if south <= lat <= north:
            rows.append(row)
    cells = []
    for row in rows:
        for c in range(math.floor(col0) - 1, math.ceil(col1) + 1):
            x = c + 0.5 + 0.5 * (row & 1)
            if col0 - 0.5 <= x <= col1 + 0.5:
                cells.append((grid.hex_id(c, row), c - c % w))
    span = col1 - col0 + 1
    scale = max(4.0, min(22.0, 1800.0 / span))
    x0 = col0 - 0.5
    y0 = (rows[0] - 0.5) * math.sqrt(3) / 2 if rows else 0.0
    return scale, x0, y0, cells


def build_frame(hexmap: HexMap, region: str | None = None) -> Frame:
    scale, x0, y0, cells = _layout(hexmap, region)
    prims, max_x, max_y = draw_map(hexmap, cells, scale, x0, y0)
    return Frame(math.ceil(max_x) + 2, math.ceil(max_y) + 2, prims)


Colour = tuple[int, int, int]


def draw_map(
    hexmap: HexMap,
    cells: list[tuple[int, int]],
    scale: float,
    x0: float,
    y0: float,
    land_tint: Callable[[int], Colour] | None = None,
    tint_weight: float = 0.18,
    outline: Colour | None = None,
    details: bool = True,
    rail: tuple[Colour, float] = ((150, 120, 120), 22.0),
    open_sea: bool = True,
) -> tuple[list[Prim], float, float]:
    """The primitives of the static map over ``cells`` ((hex, column shift) pairs) and the
    far corner they reach.  ``land_tint(h)`` replaces the owner's colour a land hex is
    tinted with (a game picture tints by control) and ``outline`` draws the hex grid;
    without ``details`` the resources, the fortifications a scenario starts with and the
    cities are left out (a game picture draws the game's own installations, and cities
    above its counters);
    ``rail`` is the railways' colour and how many of them fit in a hex's width; without
    ``open_sea`` the sea hexes are left to the background (a large picture without a grid)."""
    grid = hexmap.grid
    r3 = math.sqrt(3) / 2
    rad = 1 / math.sqrt(3)

    def centre(h: int, shift: int) -> tuple[float, float]:
        c, row = grid.col_row(h)
        x = c + shift + 0.5 + 0.5 * (row & 1)
        y = (row + 0.5) * r3
        return (x - x0) * scale, (y - y0) * scale

    prims: list[Prim] = []
    shift_of = dict(cells)
    terr_names = hexmap.territories
    max_x = max_y = 0.0
    unit = tuple(
        (rad * scale * math.cos(math.radians(30 + 60 * k)), -rad * scale * math.sin(math.radians(30 + 60 * k)))
        for k in range(6)
    )
    for h, shift in cells:
        cx, cy = centre(h, shift)
        max_x, max_y = max(max_x, cx + scale / 2), max(max_y, cy + scale * rad)
        kind = hexmap.kind[h]
        t = Terrain(hexmap.terrain[h])
        if kind == Kind.SEA and t != Terrain.ICECAP and not open_sea:
            continue
        corners = tuple((cx + dx, cy + dy) for dx, dy in unit)
        if kind == Kind.SEA:
            fill = FROZEN_SEA_COLOUR if t == Terrain.ICECAP else SEA_COLOUR
        else:
            base = TERRAIN_COLOURS[t]
            tint = land_tint(h) if land_tint else country_colour(terr_names[hexmap.territory[h]].country)
            fill = mix(base, tint, tint_weight)
            if kind == Kind.COAST:
                fill = mix(fill, SEA_COLOUR, 0.15)
        prims.append(Prim("poly", corners, fill=fill, stroke=outline, width=0.5))
    # borders: between land hexes of different countries (thick) or territories (thin)
    for h, shift in cells:
        if hexmap.kind[h] == Kind.SEA:
            continue
        cx, cy = centre(h, shift)
        for d in range(3):
            o = hexmap.neighbours[h * 6 + d]
            if o == NO_HEX or hexmap.kind[o] == Kind.SEA or hexmap.territory[o] == hexmap.territory[h]:
                continue
            a = math.radians(60 * d - 30)
            b = math.radians(60 * d + 30)
            p1 = (cx + rad * scale * math.cos(a), cy - rad * scale * math.sin(a))
            p2 = (cx + rad * scale * math.cos(b), cy - rad * scale * math.sin(b))
            same_country = terr_names[hexmap.territory[o]].country == terr_names[hexmap.territory[h]].country
            prims.append(
                Prim(
                    "line",
                    (p1, p2),
                    stroke=(90, 90, 90) if same_country else (30, 30, 30),
                    width=max(1.0, scale / (10 if same_country else 5)),
                )
            )
    # railways: short strokes toward railway neighbours
    for h, shift in cells:
        if not hexmap.rail[h]:
            continue
        cx, cy = centre(h, shift)
        for d in range(3):
            o = hexmap.neighbours[h * 6 + d]
            if o != NO_HEX and hexmap.rail[o] and o in shift_of:
                ang = math.radians(60 * d)
                p2 = (cx + scale * math.cos(ang), cy - scale * math.sin(ang))
                prims.append(Prim("line", ((cx, cy), p2), stroke=rail[0], width=max(0.5, scale / rail[1])))
    for canal in hexmap.canals:
        if canal.a in shift_of and canal.b in shift_of:
            prims.append(
                Prim(
                    "line",
                    (centre(canal.a, shift_of[canal.a]), centre(canal.b, shift_of[canal.b])),
                    stroke=(20, 60, 200),
                    width=max(2.0, scale / 3),
                )
            )
    for h in sorted(hexmap.resources) if details else ():
        if h in shift_of:
            cx, cy = centre(h, shift_of[h])
            s = scale * 0.28
            prims.append(Prim("poly", ((cx - s, cy + s * 0.6), (cx + s, cy + s * 0.6), (cx, cy - s)), fill=(0, 0, 0)))
    for h in sorted(hexmap.fortifications) if details else ():
        if h in shift_of:
            cx, cy = centre(h, shift_of[h])
            s = scale * 0.25
            prims.append(
                Prim(
                    "poly",
                    ((cx - s, cy - s), (cx + s, cy - s), (cx + s, cy + s), (cx - s, cy + s)),
                    stroke=(220, 0, 0),
                    width=max(1.0, scale / 8),
                )
            )
    labels = []
    for city in hexmap.cities if details else ():
        if city.hex not in shift_of:
            continue
        cx, cy = centre(city.hex, shift_of[city.hex])
        r = scale * (0.3 if city.capital else 0.2)
        prims.append(Prim("circle", ((cx, cy),), fill=(200, 0, 0) if city.capital else (0, 0, 0), width=r))
        if city.major_port:
            prims.append(Prim("circle", ((cx, cy),), stroke=(0, 60, 220), width=r * 1.9))
        if city.capital or city.major_port or scale >= 14:
            labels.append(
                Prim(
                    "text",
                    ((cx + r + 1, cy - r),),
                    fill=(0, 0, 0),
                    text=city.name,
                    size=max(7.0, scale * (0.75 if city.capital else 0.6)),
                )
            )
    prims.extend(labels)
    return prims, max_x, max_y


def render_svg(hexmap: HexMap, region: str | None = None) -> str:
    """The map (or one region of it) as a standalone SVG document."""
    f = build_frame(hexmap, region)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{f.width}" height="{f.height}" '
        f'viewBox="0 0 {f.width} {f.height}">',
        f'<rect width="{f.width}" height="{f.height}" fill="{hex_colour(SEA_COLOUR)}"/>',
    ]
    out.extend(prim_svg(p) for p in f.prims)
    out.append("</svg>")
    return "\n".join(out) + "\n"


def prim_svg(p: Prim) -> str:
    """One primitive as an SVG element."""
    if p.kind == "poly":
        pts = " ".join(f"{x:.1f},{y:.1f}" for x, y in p.pts)
        fill = hex_colour(p.fill) if p.fill else "none"
        stroke = f' stroke="{hex_colour(p.stroke)}" stroke-width="{p.width:.1f}"' if p.stroke else ""
        return f'<polygon points="{pts}" fill="{fill}"{stroke}/>'
    if p.kind == "line":
        (x1, y1), (x2, y2) = p.pts
        return (
            f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" '
            f'stroke="{hex_colour(p.stroke or (0, 0, 0))}" stroke-width="{p.width:.1f}"/>'
        )
    if p.kind == "circle":
        ((x, y),) = p.pts
        if p.fill:
            return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{p.width:.1f}" fill="{hex_colour(p.fill)}"/>'
        return (
            f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{p.width:.1f}" fill="none" '
            f'stroke="{hex_colour(p.stroke or (0, 0, 0))}" stroke-width="1.2"/>'
        )
    ((x, y),) = p.pts
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" font-family="sans-serif" font-size="{p.size:.1f}" '
        f'fill="#000">{escape(p.text)}</text>'
    )


def render_png(hexmap: HexMap, region: str | None, path: Path) -> None:
    """Rasterise the same primitives with Pillow (needs the mapgen extra)."""
    from PIL import Image, ImageDraw, ImageFont

    f = build_frame(hexmap, region)
    img = Image.new("RGB", (f.width, f.height), SEA_COLOUR)
    dr = ImageDraw.Draw(img)
    fonts: dict[int, ImageFont.ImageFont | ImageFont.FreeTypeFont] = {}
    for p in f.prims:
        if p.kind == "poly":
            dr.polygon(list(p.pts), fill=p.fill, outline=p.stroke, width=max(1, round(p.width)) if p.stroke else 0)
        elif p.kind == "line":
            dr.line(list(p.pts), fill=p.stroke, width=max(1, round(p.width)))
        elif p.kind == "circle":
            ((x, y),) = p.pts
            r = p.width
            if p.fill:
                dr.ellipse((x - r, y - r, x + r, y + r), fill=p.fill)
            else:
                dr.ellipse((x - r, y - r, x + r, y + r), outline=p.stroke, width=1)
        elif p.kind == "text":
            size = round(p.size)
            if size not in fonts:
                try:
                    fonts[size] = ImageFont.load_default(size=size)
                except TypeError:  # old Pillow without sizes
                    fonts[size] = ImageFont.load_default()
            ((x, y),) = p.pts
            dr.text((x, y - size), p.text, fill=p.fill, font=fonts[size])
    img.save(path, optimize=True)


PNG_REGIONS = ("europe", "asia", "pacific", "africa", "americas", "world")


def write_pngs(hexmap: HexMap, folder: Path) -> list[Path]:
    out = []
    for region in PNG_REGIONS:
        path = folder / f"map-{region}.png"
        render_png(hexmap, region, path)
        out.append(path)
    return out
